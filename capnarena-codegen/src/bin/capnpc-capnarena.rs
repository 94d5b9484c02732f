//! `capnp compile` plugin: reads a CodeGeneratorRequest on stdin and writes
//! one Rust file per requested schema file into the current directory (or
//! the directory `capnp compile -ocapnarena:DIR` names, which `capnp` makes
//! the plugin's working directory).
//!
//! Options come from the environment: `CAPNARENA_RPC=1` adds typed RPC
//! code (`CAPNARENA_RPC=PATH` names the RPC crate `PATH`), and
//! `CAPNARENA_OWNED_VALUES=1` adds each struct's plain Rust values
//! (`foo::Value`, `foo::ValueRef<'a>`; `0` or unset leaves them out), and
//! `CAPNARENA_SCHEMA_NODES=1` each node's schema (`Options::schema_nodes`;
//! `0` or unset leaves it out).

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut request = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut request) {
        eprintln!("capnpc-capnarena: reading the request from stdin: {e}");
        return ExitCode::FAILURE;
    }
    let mut options = capnarena_codegen::Options::default();
    match std::env::var("CAPNARENA_RPC").as_deref() {
        Ok("1") => options = options.rpc(true),
        Ok(path) if !path.is_empty() => options = options.rpc_path(path),
        _ => {}
    }
    for (name, set) in [
        (
            "CAPNARENA_OWNED_VALUES",
            capnarena_codegen::Options::owned_values as fn(_, bool) -> _,
        ),
        (
            "CAPNARENA_SCHEMA_NODES",
            capnarena_codegen::Options::schema_nodes,
        ),
    ] {
        match flag(name) {
            Ok(on) => options = set(options, on),
            Err(e) => {
                eprintln!("capnpc-capnarena: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let files = match capnarena_codegen::generate(&request, &options) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("capnpc-capnarena: {e}");
            return ExitCode::FAILURE;
        }
    };
    for file in files {
        if let Err(e) = std::fs::write(&file.name, &file.contents) {
            eprintln!("capnpc-capnarena: writing {}: {e}", file.name);
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The on/off option in environment variable `name`: `1` on, `0`, empty
/// or unset off.
fn flag(name: &str) -> Result<bool, String> {
    match std::env::var(name) {
        Ok(v) if v == "1" => Ok(true),
        Ok(v) if v == "0" || v.is_empty() => Ok(false),
        Err(std::env::VarError::NotPresent) => Ok(false),
        Ok(other) => Err(format!("{name} is {other:?}: expected 1 or 0")),
        Err(std::env::VarError::NotUnicode(v)) => Err(format!("{name} is {v:?}: expected 1 or 0")),
    }
}
