//! Text and Data keep the bytes written, whether or not they are UTF-8,
//! without the reference tool: the expected bytes are the schema's own
//! (escapes decoded by the language's rules), which the reference writes
//! unchanged (`tests/reference.rs`, `schema_bytes`, compares whole
//! requests with it).

use std::process::Command;

use capnarena_compiler::__private::schema::{NodeKind, Request, Value};
use capnarena_compiler::Compiler;

fn compile(text: &[u8]) -> Request {
    Compiler::new()
        .no_standard_import()
        .working_dir("/virtual")
        .source("/virtual/t.capnp", text.to_vec())
        .source("/virtual/blob.bin", b"\xff\x00\xc3\x28".to_vec())
        .file("t.capnp")
        .compile_request()
        .unwrap_or_else(|d| panic!("{d}"))
}

fn constant(req: &Request, name: &str) -> Value {
    let n = req
        .nodes
        .iter()
        .find(|n| n.display_name == format!("t.capnp:{name}"))
        .unwrap_or_else(|| panic!("no {name}"));
    match &n.kind {
        NodeKind::Const { value, .. } => value.clone(),
        _ => panic!("{name} is not a constant"),
    }
}

/// `\x80`-`\xff` and octal escapes give one byte each, in Data and Text;
/// raw bytes that are not UTF-8 stay as written; an embedded file that is
/// not UTF-8 is copied whole (regression: each invalid byte became the 3
/// bytes of U+FFFD, so Sandstorm's 8-byte magic number was 15 bytes).
#[test]
fn literals_and_embeds_keep_their_bytes() {
    let req = compile(
        b"@0xe1f2a3b4c5d6e7f8;\n\
          const magic :Data = \"\\x8f\\xc6\\xcd\\xef\\x45\\x1a\\xea\\x96\";\n\
          const octal :Data = \"\\0\\177\\200\\377\";\n\
          const text :Text = \"\\xff\\377 raw \xe9\";\n\
          const blob :Data = embed \"blob.bin\";\n\
          const blobText :Text = embed \"blob.bin\";\n",
    );
    assert_eq!(
        constant(&req, "magic"),
        Value::Data(Some(vec![0x8f, 0xc6, 0xcd, 0xef, 0x45, 0x1a, 0xea, 0x96]))
    );
    assert_eq!(
        constant(&req, "octal"),
        Value::Data(Some(vec![0, 0o177, 0o200, 0o377]))
    );
    assert_eq!(
        constant(&req, "text"),
        Value::Text(Some(b"\xff\xff raw \xe9".to_vec()))
    );
    assert_eq!(
        constant(&req, "blob"),
        Value::Data(Some(b"\xff\x00\xc3\x28".to_vec()))
    );
    assert_eq!(
        constant(&req, "blobText"),
        Value::Text(Some(b"\xff\x00\xc3\x28".to_vec()))
    );
}

/// A doc comment keeps its raw bytes in the source info.
#[test]
fn doc_comments_keep_their_bytes() {
    let req = compile(b"@0xe1f2a3b4c5d6e7f8;\nstruct S {\n  # caf\xe9 \xff\n}\n");
    let docs: Vec<_> = req
        .source_info
        .iter()
        .filter_map(|s| s.doc.clone())
        .collect();
    assert_eq!(docs, vec![b"caf\xe9 \xff\n".to_vec()]);
}

/// `capnarena-compile -ocapnarena` still writes Rust for a schema whose
/// doc comments are not UTF-8 (the generator turns their stray bytes into
/// U+FFFD, as a Rust comment must be UTF-8), with the schema's Data
/// constant byte for byte.
#[test]
fn rust_is_generated_for_doc_comments_that_are_not_utf8() {
    let dir = std::env::temp_dir().join(format!("capnarena-bytes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join("t.capnp"),
        b"@0xe1f2a3b4c5d6e7f8;\nstruct S {\n  # Latin-1: caf\xe9.\n}\nconst magic :Data = \"\\x8f\\xc6\";\n",
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_capnarena-compile"))
        .current_dir(&dir)
        .args(["--no-standard-import", "-ocapnarena:.", "t.capnp"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rust = std::fs::read_to_string(dir.join("t_capnp.rs")).expect("generated file");
    assert!(rust.contains("caf\u{fffd}"), "{rust}");
    assert!(rust.contains("&[143, 198]"), "{rust}");
}
