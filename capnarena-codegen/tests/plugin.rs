//! The `capnpc-capnarena` plugin's options from the environment:
//! `CAPNARENA_OWNED_VALUES=1` writes what `Options::owned_values(true)`
//! generates and `CAPNARENA_SCHEMA_NODES=1` what
//! `Options::schema_nodes(true)` does, `0` or unset what the defaults
//! generate, and any other value fails with a message naming it (nothing
//! written).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn request() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/requests/all_types.bin");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs the plugin on `request` in a fresh directory with `var` set to
/// `owned` (unset for `None`) and the other option variables unset; its
/// output and the directory.
fn run(request: &[u8], var: &str, owned: Option<&str>, tag: &str) -> (Output, PathBuf) {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("capnarena-plugin-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_capnpc-capnarena"));
    cmd.current_dir(&dir)
        .env_remove("CAPNARENA_RPC")
        .env_remove("CAPNARENA_OWNED_VALUES")
        .env_remove("CAPNARENA_SCHEMA_NODES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(v) = owned {
        cmd.env(var, v);
    }
    let mut child = cmd.spawn().expect("running capnpc-capnarena");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(request)
        .expect("writing the request");
    (child.wait_with_output().expect("plugin output"), dir)
}

/// What the plugin wrote, by file name.
fn written(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("plugin directory")
        .map(|e| {
            let path = e.expect("entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string();
            (
                name,
                std::fs::read_to_string(&path).expect("generated file"),
            )
        })
        .collect();
    files.sort();
    files
}

/// `var` set to `1` gives what `set(options, true)` generates, `0` and
/// unset the default output; the two differ (the first has `marker`).
fn flag_from_the_environment(
    var: &str,
    set: fn(capnarena_codegen::Options, bool) -> capnarena_codegen::Options,
    marker: &str,
) {
    let request = request();
    let expect = |on: bool| {
        let options = set(capnarena_codegen::Options::default(), on);
        let mut files: Vec<_> = capnarena_codegen::generate(&request, &options)
            .expect("generate")
            .into_iter()
            .map(|f| (f.name, f.contents))
            .collect();
        files.sort();
        files
    };
    let (with, without) = (expect(true), expect(false));
    assert_ne!(with, without);
    assert!(with.iter().any(|(_, c)| c.contains(marker)));
    assert!(!without.iter().any(|(_, c)| c.contains(marker)));
    for (value, tag, want) in [
        (Some("1"), "on", &with),
        (Some("0"), "off", &without),
        (None, "unset", &without),
    ] {
        let (out, dir) = run(&request, var, value, &format!("{var}-{tag}"));
        assert!(
            out.status.success(),
            "{value:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(&written(&dir), want, "{var}={value:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `CAPNARENA_OWNED_VALUES`: `1` gives the owned-values output (with
/// `Value`s), `0` and unset the default output.
#[test]
fn owned_values_from_the_environment() {
    flag_from_the_environment(
        "CAPNARENA_OWNED_VALUES",
        capnarena_codegen::Options::owned_values,
        "pub struct Value",
    );
}

/// `CAPNARENA_SCHEMA_NODES`: `1` gives the output with schema nodes (and
/// `SCHEMA_NODES`), `0` and unset the default output.
#[test]
fn schema_nodes_from_the_environment() {
    flag_from_the_environment(
        "CAPNARENA_SCHEMA_NODES",
        capnarena_codegen::Options::schema_nodes,
        "pub const SCHEMA_NODES",
    );
}

/// A value other than `0` or `1` is an error naming it, and writes nothing.
#[test]
fn option_variables_reject_other_values() {
    for var in ["CAPNARENA_OWNED_VALUES", "CAPNARENA_SCHEMA_NODES"] {
        let (out, dir) = run(&request(), var, Some("yes"), &format!("{var}-bad"));
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("{var} is \"yes\"")), "{stderr}");
        assert!(written(&dir).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
