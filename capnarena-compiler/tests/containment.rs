//! The compiler reads only what it was given: files under the import
//! directories and under the starting directory of each file named to it
//! (its `--src-prefix`, the working directory, or `/` for a file outside
//! both), by the reference's rules (module-loader.c++, kj's path
//! evaluation). A `..` that leaves the starting directory is an error, a
//! `/`-rooted embed is looked up on the import path only, only regular
//! files are read, and each within a size limit. Each test builds its
//! files in a fresh directory under the system's temporary directory.

#[path = "../../tests/common/peer.rs"]
mod peer;

use std::path::{Path, PathBuf};
use std::process::Command;

use capnarena_compiler::__private::schema::{NodeKind, Value};
use capnarena_compiler::{Compiler, Diagnostics, limits};

const ID: &str = "@0xd0a4c1b3e2f50608;\n";

/// A fresh directory for one test: `<tmp>/capnarena-containment-<pid>-<name>`,
/// with `secret.txt` in it and the empty directories `inc/sub` and `src`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "capnarena-containment-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inc/sub")).expect("mkdir");
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::fs::write(dir.join("secret.txt"), "top secret\n").expect("write");
    dir
}

/// Writes `src/t.capnp` holding `body`, compiles it from `dir` with `-Iinc`:
/// the diagnostics, or a panic when it compiles.
fn rejected(dir: &Path, body: &str) -> Diagnostics {
    std::fs::write(dir.join("src/t.capnp"), format!("{ID}{body}\n")).expect("write");
    match Compiler::new()
        .no_standard_import()
        .working_dir(dir)
        .import_path("inc")
        .file("src/t.capnp")
        .compile()
    {
        Ok(_) => panic!("{body} compiled"),
        Err(d) => d,
    }
}

/// Asserts one diagnostic, at line 2, with `message`.
fn assert_one(d: &Diagnostics, column: u32, message: &str) {
    assert_eq!(d.0.len(), 1, "{d}");
    assert_eq!(
        (d.0[0].file.as_str(), d.0[0].line(), d.0[0].column()),
        ("src/t.capnp", 2, column),
        "{d}"
    );
    assert_eq!(d.0[0].message, message, "{d}");
}

/// `embed "../../x"` from a file two levels under its starting directory
/// (regression: the name was normalised as text and the file read, so a
/// schema could put any readable file into the generated code).
#[test]
fn relative_embed_cannot_leave_the_starting_directory() {
    let dir = scratch("rel-embed");
    std::fs::create_dir_all(dir.join("src/deep")).expect("mkdir");
    std::fs::write(
        dir.join("src/deep/t.capnp"),
        format!("{ID}const c :Text = embed \"../../../secret.txt\";\n"),
    )
    .expect("write");
    let d = Compiler::new()
        .no_standard_import()
        .working_dir(dir.join("src"))
        .file("deep/t.capnp")
        .compile()
        .expect_err("escaping embed compiled");
    assert_eq!(
        d.0[0].message,
        "Couldn't read file for embed: ../../../secret.txt: can't use \"..\" to break out of starting directory",
        "{d}"
    );
    assert_eq!((d.0[0].line(), d.0[0].column()), (2, 23));
    // Inside the starting directory `..` is fine.
    std::fs::write(dir.join("src/inner.txt"), "x").expect("write");
    std::fs::write(
        dir.join("src/deep/t.capnp"),
        format!("{ID}const c :Text = embed \"../inner.txt\";\n"),
    )
    .expect("write");
    Compiler::new()
        .no_standard_import()
        .working_dir(dir.join("src"))
        .file("deep/t.capnp")
        .compile()
        .expect("embed inside the starting directory");
}

/// `import "../../x"` leaving the starting directory (the working
/// directory here) is refused with the reference's reason.
#[test]
fn relative_import_cannot_leave_the_starting_directory() {
    let dir = scratch("rel-import");
    let d = rejected(&dir, "using X = import \"../../secret.capnp\";");
    assert_one(
        &d,
        18,
        "Import failed: ../../secret.capnp: can't use \"..\" to break out of starting directory",
    );
}

/// `import "/../x"` and `embed "/sub/../../x"` under `-I inc` (regression:
/// the name was normalised against the import directory and read from
/// its parent).
#[test]
fn rooted_names_cannot_leave_the_import_directory() {
    let dir = scratch("rooted");
    std::fs::write(dir.join("x.capnp"), format!("{ID}struct X {{}}\n")).expect("write");
    let d = rejected(&dir, "using X = import \"/../x.capnp\";");
    assert_one(
        &d,
        18,
        "Import failed: /../x.capnp: can't use \"..\" to break out of starting directory",
    );
    let d = rejected(&dir, "const c :Text = embed \"/sub/../../secret.txt\";");
    assert_one(
        &d,
        23,
        "Couldn't read file for embed: /sub/../../secret.txt: can't use \"..\" to break out of starting directory",
    );
}

/// `embed "/ABSOLUTE/PATH"` is looked up under the import directories,
/// never at that absolute path (regression: `embed "/etc/passwd"` put the
/// file into the request).
#[test]
fn rooted_embed_is_looked_up_on_the_import_path_only() {
    let dir = scratch("abs-embed");
    let secret = dir.join("secret.txt");
    let name = secret.to_str().expect("utf-8 temp dir");
    let d = rejected(&dir, &format!("const c :Text = embed \"{name}\";"));
    assert_one(&d, 23, &format!("Couldn't read file for embed: {name}"));
    // The same name under the import directory is found there.
    let under = dir.join("inc").join(name.trim_start_matches('/'));
    std::fs::create_dir_all(under.parent().expect("parent")).expect("mkdir");
    std::fs::write(&under, "public\n").expect("write");
    std::fs::write(
        dir.join("src/t.capnp"),
        format!("{ID}const c :Text = embed \"{name}\";\n"),
    )
    .expect("write");
    let request = Compiler::new()
        .no_standard_import()
        .working_dir(&dir)
        .import_path("inc")
        .file("src/t.capnp")
        .compile_request()
        .expect("embed from the import path");
    let value = request.nodes.iter().find_map(|n| match &n.kind {
        NodeKind::Const { value, .. } => Some(value.clone()),
        _ => None,
    });
    assert_eq!(value, Some(Value::Text(Some(b"public\n".to_vec()))));
}

/// `//x` is not a name on the import path (kj: "expected a relative path,
/// got absolute").
#[test]
fn doubly_rooted_name_is_refused() {
    let dir = scratch("double");
    let d = rejected(&dir, "const c :Text = embed \"//etc/hostname\";");
    assert_one(
        &d,
        23,
        "Couldn't read file for embed: //etc/hostname: expected a relative path, got absolute",
    );
}

/// Devices are refused before anything is read (regression: `embed
/// "/dev/zero"` under `-I /` read until memory ran out).
#[cfg(unix)]
#[test]
fn devices_are_not_read() {
    let dir = scratch("device");
    std::fs::write(
        dir.join("src/t.capnp"),
        format!("{ID}const c :Data = embed \"/dev/zero\";\n"),
    )
    .expect("write");
    let d = Compiler::new()
        .no_standard_import()
        .working_dir(&dir)
        .import_path("/")
        .file("src/t.capnp")
        .compile()
        .expect_err("a device was embedded");
    assert_eq!(
        d.0[0].message,
        "Couldn't read file for embed: /dev/zero: not a regular file (a device)"
    );
}

/// A FIFO is refused, not opened (regression: opening it waited for a
/// writer forever); a directory is refused as an import.
#[cfg(unix)]
#[test]
fn fifos_and_directories_are_not_read() {
    let dir = scratch("fifo");
    let fifo = dir.join("src/pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("SKIP fifos_and_directories_are_not_read: mkfifo failed");
        return;
    }
    let d = rejected(&dir, "const c :Data = embed \"pipe\";");
    assert_one(
        &d,
        23,
        "Couldn't read file for embed: pipe: not a regular file (a FIFO)",
    );
    std::fs::create_dir_all(dir.join("src/d.capnp")).expect("mkdir");
    let d = rejected(&dir, "using D = import \"d.capnp\";");
    assert_one(
        &d,
        18,
        "Import failed: d.capnp: not a regular file (a directory)",
    );
}

/// An embedded file and a schema file over [`limits::MAX_FILE_BYTES`]
/// are refused by their size, before being read (sparse files: nothing is
/// written to disk).
#[test]
fn files_over_the_size_limit_are_refused() {
    let dir = scratch("size");
    let big = std::fs::File::create(dir.join("src/big.bin")).expect("create");
    big.set_len(limits::MAX_FILE_BYTES + 1).expect("set_len");
    let d = rejected(&dir, "const c :Data = embed \"big.bin\";");
    assert_one(
        &d,
        23,
        &format!(
            "Couldn't read file for embed: big.bin: file of {} bytes is larger than the limit of {} bytes (limits::MAX_FILE_BYTES)",
            limits::MAX_FILE_BYTES + 1,
            limits::MAX_FILE_BYTES
        ),
    );
    let big = std::fs::File::create(dir.join("src/big.capnp")).expect("create");
    big.set_len(limits::MAX_FILE_BYTES + 1).expect("set_len");
    let d = rejected(&dir, "using B = import \"big.capnp\";");
    assert!(
        d.0[0]
            .message
            .starts_with("Import failed: big.capnp: file of ")
    );
    // A file named to the compiler is bounded too.
    let d = Compiler::new()
        .no_standard_import()
        .working_dir(&dir)
        .file("src/big.capnp")
        .compile()
        .expect_err("huge schema");
    assert!(d.0[0].message.contains("larger than the limit"), "{d}");
}

/// The binary applies the same rules: an escaping embed is an error on
/// stderr and exit status 1, with nothing on stdout.
#[test]
fn the_binary_refuses_escapes() {
    let dir = scratch("bin");
    std::fs::write(
        dir.join("src/t.capnp"),
        format!("{ID}const c :Text = embed \"../../secret.txt\";\n"),
    )
    .expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_capnarena-compile"))
        .current_dir(dir.join("src"))
        .args(["--no-standard-import", "-o-", "t.capnp"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("t.capnp:2:23: error: Couldn't read file for embed: ../../secret.txt: can't use \"..\" to break out of starting directory"),
        "{err}"
    );
}

/// The reference refuses the same escapes (it stops with kj's message),
/// so this compiler accepts no schema the reference rejects here.
#[test]
fn the_reference_refuses_them_too() {
    let Some(capnp) = peer::peer() else { return };
    let dir = scratch("reference");
    for body in [
        "using X = import \"../../secret.capnp\";",
        "const c :Text = embed \"/sub/../../secret.txt\";",
    ] {
        std::fs::write(dir.join("src/t.capnp"), format!("{ID}{body}\n")).expect("write");
        let out = Command::new(&capnp)
            .current_dir(&dir)
            .args([
                "compile",
                "--no-standard-import",
                "-Iinc",
                "-o-",
                "src/t.capnp",
            ])
            .output()
            .expect("run capnp");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "capnp accepted {body}");
        assert!(
            err.contains("can't use \"..\" to break out of starting directory"),
            "{err}"
        );
    }
}

/// All files read in one compile together stay within
/// [`limits::MAX_INPUT_BYTES`]: three embeds of 12 MiB each (sparse
/// files) are two too many, and the third is refused by name.
#[test]
fn files_read_together_are_bounded() {
    let dir = scratch("total");
    for name in ["a.bin", "b.bin", "c.bin"] {
        let f = std::fs::File::create(dir.join("src").join(name)).expect("create");
        f.set_len(12 << 20).expect("set_len");
    }
    let d = rejected(
        &dir,
        "const a :Data = embed \"a.bin\";\nconst b :Data = embed \"b.bin\";\nconst c :Data = embed \"c.bin\";",
    );
    assert_eq!(d.0.len(), 1, "{d}");
    assert_eq!((d.0[0].line(), d.0[0].column()), (4, 23), "{d}");
    let schema = std::fs::metadata(dir.join("src/t.capnp"))
        .expect("schema")
        .len();
    assert_eq!(
        d.0[0].message,
        format!(
            "Couldn't read file for embed: c.bin: {} more bytes would take the files read past the limit of {} bytes (limits::MAX_INPUT_BYTES; {} read so far)",
            12 << 20,
            limits::MAX_INPUT_BYTES,
            (24 << 20) + schema
        )
    );
}
