//! The generated `write_text` (what `Debug` prints) has no dead branch:
//! a pointer it tested set is not tested again inside that test. A text
//! field's `else` for a null pointer, under a test that the pointer is
//! set, never ran (10 times in the generator's own schema_capnp.rs).

use std::path::Path;

use capnarena_codegen::{Options, generate};

/// Each `if` that tests `has_pointer(n)` while an enclosing block already
/// tested it: (line number, line).
fn retested(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // (pointer index, depth of the block the test opened).
    let mut tested: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    for (n, line) in code.lines().enumerate() {
        let text = line.trim();
        let pointer = text
            .strip_prefix("if ")
            .and_then(|c| c.split("self.reader.has_pointer(").nth(1))
            .and_then(|rest| rest.split(')').next())
            .map(str::to_string);
        if let Some(p) = &pointer {
            if tested.iter().any(|(q, _)| q == p) {
                found.push((n + 1, text.to_string()));
            }
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    tested.retain(|(_, d)| *d <= depth);
                }
                _ => {}
            }
        }
        if let Some(p) = pointer {
            if text.ends_with('{') {
                tested.push((p, depth));
            }
        }
    }
    found
}

/// The checker finds a nested test of the same pointer, and not a test
/// of it in a later or an `else` block.
#[test]
fn the_checker_finds_retests() {
    let code = "if self.reader.has_pointer(0) {\n    if self.reader.has_pointer(0) {\n    }\n} else {\n    if self.reader.has_pointer(0) {\n    }\n}\nif which == 1 && self.reader.has_pointer(2) {\n    v.field(\"x\");\n    if self.reader.has_pointer(2) {\n    }\n}\n";
    let found: Vec<usize> = retested(code).into_iter().map(|(n, _)| n).collect();
    assert_eq!(found, [2, 10]);
}

/// No code generated from the checked-in requests and fixtures tests a
/// pointer inside its own test.
#[test]
fn write_text_tests_each_pointer_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut failures = Vec::new();
    let mut text_fields = 0;
    for dir in ["requests", "fixtures"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("tests dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "bin") {
                continue;
            }
            let request = std::fs::read(&path).expect("request");
            for file in generate(&request, &Options::default()).expect("generation") {
                text_fields += file.contents.matches("get_text_bytes()").count();
                for (line, text) in retested(&file.contents) {
                    failures.push(format!(
                        "{} {} line {line}: {text}",
                        path.display(),
                        file.name
                    ));
                }
            }
        }
    }
    assert!(text_fields > 50, "{text_fields} text fields printed");
    assert!(
        failures.is_empty(),
        "pointers tested twice:\n{}",
        failures.join("\n")
    );
}
