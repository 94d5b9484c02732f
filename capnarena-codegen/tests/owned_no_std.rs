//! Owned values work in a `no_std` crate with `alloc`: the code generated
//! with `Options::owned_values(true)` names no `std` path (its `String`,
//! `Vec` and `Box` come through the runtime's `typed::value`, which
//! re-exports `alloc`'s), for every checked-in request.

use std::path::Path;

/// Where `std::` starts a path in `code` (not part of a longer name such
/// as `no_std::`), with the line it is on.
fn std_paths(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    code.match_indices("std::")
        .filter(|(at, _)| {
            *at == 0 || {
                let before = bytes[at - 1];
                !(before.is_ascii_alphanumeric() || before == b'_')
            }
        })
        .map(|(at, _)| {
            let start = code[..at].rfind('\n').map_or(0, |n| n + 1);
            let end = code[at..].find('\n').map_or(code.len(), |n| at + n);
            code[start..end].trim().to_string()
        })
        .collect()
}

/// No generated file names a `std` path, with owned values on (and typed
/// RPC code off: that code stands on its own crate, which needs `std`),
/// for all_types.capnp and every other checked-in request.
#[test]
fn owned_values_name_no_std_paths() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/requests");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/requests") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_none_or(|e| e != "bin") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("request");
        let options = capnarena_codegen::Options::default().owned_values(true);
        let generated = capnarena_codegen::generate(&bytes, &options)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for file in generated {
            let found = std_paths(&file.contents);
            assert!(
                found.is_empty(),
                "{}: {}: {found:#?}",
                path.display(),
                file.name
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} files checked");
}

/// The check finds what it looks for (so a pass above means something).
#[test]
fn std_path_check_finds_std_paths() {
    let code = "use ::std::vec::Vec;\nlet s: std::string::String;\n#![no_std]\nmy_std::x";
    assert_eq!(
        std_paths(code),
        ["use ::std::vec::Vec;", "let s: std::string::String;"]
    );
}
