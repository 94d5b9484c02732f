//! A tree of schema and embedded files on disk, compiled by
//! capnarena-compiler: imports and embeds in every form, against the
//! containment rules.
//!
//! The input is split at each byte 0x1e into up to seven files, written
//! (each run afresh) to fixed places in a directory of this process:
//! `src/main.capnp` (the file compiled, with `src` as its --src-prefix),
//! `src/a.capnp`, `src/sub/b.capnp`, `inc/c.capnp`, `inc/sub/d.capnp` (`inc`
//! is the import path), `src/data.bin` and `inc/blob.bin`. Beside `src` and
//! `inc`, outside both, lie `secret.txt` and `outside.capnp`, both holding
//! a marker. Properties:
//! - No panic, no hang, whatever the files say.
//! - Nothing outside `src` and `inc` is read: a request never holds the
//!   marker (unless the input itself does), and no diagnostic names a
//!   file outside them.
//! - Each diagnostic has a line inside its file's text, or no position.
//! - The same tree given to the library in memory (`Compiler::source`)
//!   compiles to the same request, or fails too.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use capnarena_compiler::Compiler;
use libfuzzer_sys::fuzz_target;

const MARKER: &[u8] = b"MARKER-7f3a-outside";
const SLOTS: [&str; 7] = [
    "src/main.capnp",
    "src/a.capnp",
    "src/sub/b.capnp",
    "inc/c.capnp",
    "inc/sub/d.capnp",
    "src/data.bin",
    "inc/blob.bin",
];
const STREAM: &str = "@0x86c366a91393f3f8;\nstruct StreamResult @0x995f9a3377c0b16e {}\n";

/// This process's directory: created once, with the files outside the
/// tree and the stand-in `capnp/stream.capnp`.
fn root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let base = if Path::new("/dev/shm").is_dir() {
            PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        let root = base.join(format!("capnarena-fuzz-tree-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for d in ["src/sub", "inc/sub", "inc/capnp"] {
            std::fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        std::fs::write(root.join("secret.txt"), MARKER).expect("write");
        let mut outside = b"@0xd00dfeedd00dfee1;\nconst secret :Text = \"".to_vec();
        outside.extend_from_slice(MARKER);
        outside.extend_from_slice(b"\";\nstruct Outside { a @0 :Text; }\n");
        std::fs::write(root.join("outside.capnp"), outside).expect("write");
        std::fs::write(root.join("inc/capnp/stream.capnp"), STREAM).expect("write");
        root
    })
}

fn compiler(root: &Path) -> Compiler {
    Compiler::new()
        .no_standard_import()
        .working_dir(root)
        .src_prefix(root.join("src"))
        .import_path(root.join("inc"))
        .file(root.join("src/main.capnp"))
}

fn lines(text: &[u8]) -> u32 {
    text.iter().filter(|b| **b == b'\n').count() as u32 + 1
}

fuzz_target!(|data: &[u8]| {
    let root = root();
    let pieces: Vec<&[u8]> = data.split(|b| *b == 0x1e).take(SLOTS.len()).collect();
    for (i, slot) in SLOTS.iter().enumerate() {
        let path = root.join(slot);
        match pieces.get(i) {
            Some(text) => std::fs::write(&path, text).expect("write"),
            None => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    let on_disk = compiler(root).compile();
    // The same files in memory, in a directory that does not exist.
    let virt = Path::new("/capnarena-fuzz-virtual");
    let mut mem = compiler(virt).source(virt.join("inc/capnp/stream.capnp"), STREAM);
    for (slot, text) in SLOTS.iter().zip(&pieces) {
        mem = mem.source(virt.join(slot), text.to_vec());
    }
    let in_memory = mem.compile();
    // libFuzzer learns the marker from the comparisons below and writes
    // it into inputs; an input holding it may put it in the request.
    let has_marker = |b: &[u8]| b.windows(MARKER.len()).any(|w| w == MARKER);
    let input_has_marker = has_marker(data);
    match &on_disk {
        Ok(request) => {
            assert!(
                input_has_marker || !has_marker(request),
                "a file outside the tree was read into the request"
            );
            assert_eq!(
                in_memory.as_ref().ok(),
                Some(request),
                "in memory: {:?}",
                in_memory.as_ref().err().map(|d| d.to_string())
            );
        }
        Err(diags) => {
            assert!(!diags.0.is_empty(), "an error with no diagnostic");
            for d in &diags.0 {
                // Diagnostics name files as they were given: under the
                // tree's root (the src prefix and import directory are
                // spelled from it), or relative to it (the working
                // directory).
                let name = Path::new(&d.file);
                let name = name.strip_prefix(root).unwrap_or(name);
                // Any slot may be imported as a schema, the `.bin` ones too.
                let name = name.to_str().unwrap_or_default();
                let slot = SLOTS.iter().position(|s| *s == name);
                let text: &[u8] = match name {
                    _ if slot.is_some() => slot
                        .and_then(|i| pieces.get(i))
                        .copied()
                        .unwrap_or_default(),
                    "inc/capnp/stream.capnp" => STREAM.as_bytes(),
                    f if d.line() == 0 && f.ends_with("main.capnp") => &[],
                    f => panic!("diagnostic for a file outside the tree {f:?}: {d}"),
                };
                assert!(d.line() <= lines(text), "line past the end: {d}");
                assert!(input_has_marker || !has_marker(d.message.as_bytes()));
            }
            assert!(
                in_memory.is_err(),
                "compiles in memory but not on disk: {diags}"
            );
        }
    }
});
