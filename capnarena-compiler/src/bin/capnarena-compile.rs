//! `capnarena-compile`: `capnp compile` without the C++ tool.
//!
//! Usage: `capnarena-compile [-I DIR]... [--no-standard-import]
//! [--src-prefix=DIR]... -o- FILE...` writes the CodeGeneratorRequest to
//! stdout, as `capnp compile -o-` does. Errors go to stderr as
//! `file:line:col: error: message`, and the exit status is 1. The
//! command itself is [`capnarena_compiler::cli::compile_command`].

use std::process::ExitCode;

fn main() -> ExitCode {
    capnarena_compiler::cli::compile_command("capnarena-compile", std::env::args().skip(1))
}
