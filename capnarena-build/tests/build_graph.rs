//! What a user crate's build compiles for `capnarena-build`, read from
//! `cargo tree`: the schema compiler does not wait for the code generator
//! (cargo builds the two side by side), and neither turns on the runtime's
//! `std` feature (the runtime a build script links is the smaller
//! `alloc`-only build). A clean build of a small crate with capnarena-build
//! took 1.28x capnpc's time with these two chained; see CHANGELOG.md.

use std::process::Command;

/// `cargo tree` of capnarena-build's normal dependencies with features,
/// one `<depth><package or feature>` line each.
fn tree() -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "-p",
            "capnarena-build",
            "-e",
            "normal,features",
            "--prefix",
            "depth",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("cargo tree prints UTF-8")
}

/// The packages and features below the first line naming `package`, up to
/// the next line at that line's depth or less.
fn below<'t>(tree: &'t str, package: &str) -> Vec<&'t str> {
    let depth = |l: &str| -> usize {
        l.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap_or(0)
    };
    let mut lines = tree.lines();
    let Some(start) = lines.by_ref().find(|l| {
        l.trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with(&format!("{package} v"))
    }) else {
        panic!("{package} is not in capnarena-build's tree:\n{tree}");
    };
    let d = depth(start);
    lines.take_while(|l| depth(l) > d).collect()
}

/// The compiler, as capnarena-build uses it, does not depend on the code
/// generator, so cargo can build them at the same time.
#[test]
fn compiler_builds_beside_the_generator() {
    let tree = tree();
    let under_compiler = below(&tree, "capnarena-compiler");
    assert!(
        !under_compiler
            .iter()
            .any(|l| l.contains("capnarena-codegen")),
        "capnarena-compiler pulls in the generator under capnarena-build:\n{}",
        under_compiler.join("\n")
    );
}

/// Nothing capnarena-build depends on turns on the runtime's `std` feature.
#[test]
fn build_script_runtime_is_alloc_only() {
    let tree = tree();
    let std_lines: Vec<&str> = tree
        .lines()
        .filter(|l| {
            l.contains("capnarena feature \"std\"") || l.contains("capnarena feature \"default\"")
        })
        .collect();
    assert!(
        std_lines.is_empty(),
        "the runtime is built with std for build scripts: {std_lines:?}\n{tree}"
    );
    assert!(
        tree.contains("capnarena feature \"alloc\""),
        "the runtime's alloc feature is missing:\n{tree}"
    );
}
