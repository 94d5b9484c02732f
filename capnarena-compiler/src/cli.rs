//! `capnp compile` as a command: the body of the `capnarena-compile`
//! binary, and of `capnarena compile` (the capnarena-cli crate), so both
//! parse the same options and print the same errors.

use std::io::Write;
use std::process::ExitCode;

use crate::Compiler;

/// Where the output goes: `-o-` (the request on stdout) or
/// `-ocapnarena[:DIR]` (generated Rust).
enum Output {
    Stdout,
    Plugin { name: String, dir: Option<String> },
}

const OPTIONS: &str =
    "[-I DIR]... [--no-standard-import] [--src-prefix=DIR]... (-o- | -ocapnarena[:DIR]) FILE...";

/// Runs `capnp compile` with `args` (the arguments after the command's
/// name) and returns the exit status; `program` names the command in
/// messages (`capnarena-compile`, or `capnarena compile`).
///
/// `-o-` writes the CodeGeneratorRequest to stdout, as `capnp compile
/// -o-` does; `-ocapnarena[:DIR]` writes the generated Rust into DIR (the
/// current directory by default). Takes `-I DIR` / `--import-path=DIR`,
/// `--no-standard-import` and `--src-prefix=DIR`. Errors go to stderr as
/// `file:line:col: error: message`, warnings as `PROGRAM: warning: ...`,
/// and the status is then 1.
pub fn compile_command(program: &str, args: impl IntoIterator<Item = String>) -> ExitCode {
    let (compiler, outputs) = match parse_args(program, args) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let report = compiler.compile_report();
    for w in report.warnings {
        eprintln!("{program}: warning: {}", w.message);
    }
    let request = match report.request {
        Ok(r) => r,
        Err(d) => {
            eprint!("{d}");
            return ExitCode::FAILURE;
        }
    };
    for o in outputs {
        if let Err(message) = write_output(&request, o) {
            eprintln!("{program}: {message}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The compiler the arguments configure and the outputs they ask for,
/// or the exit status after `--help` or a usage error (printed).
fn parse_args(
    program: &str,
    args: impl IntoIterator<Item = String>,
) -> Result<(Compiler, Vec<Output>), ExitCode> {
    let usage_error = |msg: &str| {
        eprintln!("{program}: {msg}\nusage: {program} {OPTIONS}");
        ExitCode::FAILURE
    };
    let mut compiler = Compiler::new();
    let mut outputs = Vec::new();
    let mut files = 0;
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        let value =
            |flag: &str, a: &str, args: &mut dyn Iterator<Item = String>| -> Option<String> {
                if a == flag {
                    args.next()
                } else {
                    a.strip_prefix(flag)
                        .map(|v| v.trim_start_matches('=').to_string())
                }
            };
        if a == "--no-standard-import" {
            compiler = compiler.no_standard_import();
        } else if a == "-h" || a == "--help" {
            println!("usage: {program} {OPTIONS}");
            return Err(ExitCode::SUCCESS);
        } else if a.starts_with("--import-path") || a.starts_with("-I") {
            let flag = if a.starts_with("-I") {
                "-I"
            } else {
                "--import-path"
            };
            match value(flag, &a, &mut args) {
                Some(v) if !v.is_empty() => compiler = compiler.import_path(v),
                _ => return Err(usage_error("-I needs a directory")),
            }
        } else if a.starts_with("--src-prefix") {
            match value("--src-prefix", &a, &mut args) {
                Some(v) if !v.is_empty() => compiler = compiler.src_prefix(v),
                _ => return Err(usage_error("--src-prefix needs a directory")),
            }
        } else if a.starts_with("--output") || a.starts_with("-o") {
            let flag = if a.starts_with("-o") {
                "-o"
            } else {
                "--output"
            };
            let Some(spec) = value(flag, &a, &mut args) else {
                return Err(usage_error("-o needs an output"));
            };
            if spec == "-" {
                outputs.push(Output::Stdout);
            } else {
                let (name, dir) = match spec.split_once(':') {
                    Some((n, d)) => (n.to_string(), Some(d.to_string())),
                    None => (spec.clone(), None),
                };
                outputs.push(Output::Plugin { name, dir });
            }
        } else if a.starts_with('-') && a != "-" {
            return Err(usage_error(&format!("unknown option {a}")));
        } else {
            compiler = compiler.file(&a);
            files += 1;
        }
    }
    if files == 0 {
        return Err(usage_error("no files given"));
    }
    if outputs.is_empty() {
        return Err(usage_error("no outputs specified"));
    }
    Ok((compiler, outputs))
}

/// Writes the request to one output: stdout, or Rust generated from it
/// into a directory; the error says what failed.
fn write_output(request: &[u8], output: Output) -> Result<(), String> {
    match output {
        Output::Stdout => {
            let mut out = std::io::stdout().lock();
            out.write_all(request)
                .and_then(|()| out.flush())
                .map_err(|e| format!("writing the request: {e}"))
        }
        Output::Plugin { name, dir } if name == "capnarena" => {
            let dir = std::path::PathBuf::from(dir.unwrap_or_else(|| ".".into()));
            let files =
                capnarena_codegen::generate(request, &capnarena_codegen::Options::default())
                    .map_err(|e| format!("generating Rust: {e}"))?;
            for f in files {
                let path = dir.join(&f.name);
                std::fs::write(&path, f.contents)
                    .map_err(|e| format!("writing {}: {e}", path.display()))?;
            }
            Ok(())
        }
        Output::Plugin { name, dir } => Err(format!(
            "output '{name}'{} is not supported: use -o- (the request) or -ocapnarena[:DIR] (Rust)",
            dir.map(|d| format!(" to {d}")).unwrap_or_default()
        )),
    }
}
