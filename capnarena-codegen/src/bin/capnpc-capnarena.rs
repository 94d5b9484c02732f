//! `capnp compile` plugin: reads a CodeGeneratorRequest on stdin and writes
//! one Rust file per requested schema file into the current directory (or
//! the directory `capnp compile -ocapnarena:DIR` names, which `capnp` makes
//! the plugin's working directory).

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
