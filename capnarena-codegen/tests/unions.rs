//! The union rule of the generated API (see the crate docs): a union
//! member has no public getter on readers or builders, so no getter can
//! hand out another member's data; `which()` is the way to a member's
//! value, on readers and builders.

use std::path::Path;

/// The generated code of `file` from the checked-in request `request`.
fn generated(request: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/requests")
        .join(request);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    capnarena_codegen::generate(&bytes, &capnarena_codegen::Options::default())
        .expect("generation")
        .into_iter()
        .find(|f| f.name == file)
        .unwrap_or_else(|| panic!("{file} not generated"))
        .contents
}

/// The block (braces included) that opens at the first `{` after `start`
/// in `code`.
fn block<'c>(code: &'c str, start: &str) -> &'c str {
    let at = code.find(start).unwrap_or_else(|| panic!("no {start:?}"));
    let open = at + code[at..].find('{').expect("an opening brace");
    let mut depth = 0usize;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &code[open..=open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces after {start:?}")
}

/// `Shapes` (tests/schemas/codegen.capnp) has a union of a float, a group,
/// a void, a text, a struct and an enum: none of them has a public getter
/// on the reader or the builder (the reader's getter returned another
/// member's bytes when the member was not the active one, issue 20), while
/// the struct's plain field `name` keeps its getters and every member its
/// setter or `init_`.
#[test]
fn union_members_have_no_public_getters() {
    let code = generated("codegen.bin", "codegen_capnp.rs");
    let shapes = block(&code, "pub mod shapes {");
    let reader = block(shapes, "impl<'a> Reader<'a> {");
    let builder = block(shapes, "?Sized> Builder<'a, A> {");
    for m in ["circle", "square", "empty", "label", "point", "kind"] {
        for (side, body) in [("reader", reader), ("builder", builder)] {
            assert!(
                !body.contains(&format!("pub fn get_{m}(")),
                "the {side} has a public getter for union member {m}"
            );
        }
    }
    for m in ["circle", "empty", "label", "kind"] {
        assert!(builder.contains(&format!("pub fn set_{m}(")), "no set_{m}");
    }
    for m in ["square", "point"] {
        assert!(
            builder.contains(&format!("pub fn init_{m}(")),
            "no init_{m}"
        );
    }
    assert!(reader.contains("pub fn get_name(") && builder.contains("pub fn get_name("));
    assert!(reader.contains("pub fn which(") && builder.contains("pub fn which("));
}
