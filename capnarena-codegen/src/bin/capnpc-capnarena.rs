//! `capnp compile` plugin: reads a CodeGeneratorRequest on stdin and writes
//! one Rust file per requested schema file into the current directory (or
//! the directory `capnp compile -ocapnarena:DIR` names, which `capnp` makes
//! the plugin's working directory).
//!
//! Options come from the environment: `CAPNARENA_RPC=1` adds typed RPC
//! code (`CAPNARENA_RPC=PATH` names the RPC crate `PATH`), and
//! `CAPNARENA_OWNED_VALUES=1` adds each struct's plain Rust values
//! (`foo::Value`, `foo::ValueRef<'a>`; `0` or unset leaves them out).

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
    match std::env::var("CAPNARENA_OWNED_VALUES").as_deref() {
        Ok("1") => options = options.owned_values(true),
        Ok("0" | "") | Err(std::env::VarError::NotPresent) => {}
        Ok(other) => {
            eprintln!("capnpc-capnarena: CAPNARENA_OWNED_VALUES is {other:?}: expected 1 or 0");
            return ExitCode::FAILURE;
        }
        Err(std::env::VarError::NotUnicode(v)) => {
            eprintln!("capnpc-capnarena: CAPNARENA_OWNED_VALUES is {v:?}: expected 1 or 0");
            return ExitCode::FAILURE;
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
