//! `capnarena`: the reference `capnp` tool's commands without the C++
//! tool: `compile`, `convert`, `decode`, `encode`, `eval` and `id`, with
//! its options, outputs and messages (0.9.2); and `compat`, which checks
//! a schema change against the rules for evolving a protocol.
//!
//! Schemas are compiled in process by `capnarena-compiler`; messages are
//! read and written by the capnarena runtime, and converted to and from
//! text by `capnarena-dynamic`. `convert` writes what `capnp convert`
//! writes, byte for byte (its tests run both on the same inputs).

mod arena;
mod compat;
mod convert;
mod eval;
mod plausible;
mod schema;

use std::io::Write;
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};

use convert::{Format, WriteOptions};
use schema::ImportOptions;

const ABOUT: &str = "Cap'n Proto schemas and messages from the command line: compile schemas, \
                     convert messages between binary, packed, text and JSON, evaluate constants.";

fn import_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("import-path")
            .short('I')
            .long("import-path")
            .value_name("dir")
            .action(ArgAction::Append)
            .help(
                "Look in <dir> for imports written as absolute paths (`/capnp/c++.capnp`); \
                 may be given more than once, searched in order.",
            ),
    )
    .arg(
        Arg::new("no-standard-import")
            .long("no-standard-import")
            .action(ArgAction::SetTrue)
            .help(
                "Search only the -I directories for absolute imports (without this flag, \
                 /usr/local/include and /usr/include are searched after them).",
            ),
    )
}

fn segment_size_arg() -> Arg {
    Arg::new("segment-size")
        .long("segment-size")
        .value_name("n")
        .value_parser(clap::value_parser!(u32).range(1..=(1 << 29) - 1))
        .help(
            "For binary output, build each message on segments of <n> words (no growth \
             heuristic). Without it, each message is built as the reference's default \
             builder builds it.",
        )
}

fn short_arg(help: &'static str) -> Arg {
    Arg::new("short")
        .long("short")
        .action(ArgAction::SetTrue)
        .help(help)
}

fn quiet_arg() -> Arg {
    Arg::new("quiet")
        .long("quiet")
        .action(ArgAction::SetTrue)
        .help(
            "Skip the check of the input's first bytes against the format named for it (and \
             the warning printed when they look like another format).",
        )
}

fn flag(name: &'static str, short: Option<char>, help: &'static str) -> Arg {
    let a = Arg::new(name)
        .long(name)
        .action(ArgAction::SetTrue)
        .help(help);
    match short {
        Some(c) => a.short(c),
        None => a,
    }
}

fn cli() -> Command {
    let convert = import_args(
        Command::new("convert")
            .about("Re-encode a stream of messages: binary, packed, flat, canonical, text, JSON")
            .long_about(
                "Reads messages in format <from> from standard input, one after another until \
                 the input ends, and writes each to standard output in format <to>.\n\
                 Formats:\n    \
                 binary       segment table, then the segments (the stream framing)\n    \
                 packed       binary, with runs of zero bytes compressed\n    \
                 flat         one segment, no segment table\n    \
                 flat-packed  flat, compressed as packed is\n    \
                 canonical    flat, in canonical form (the input is read as flat)\n    \
                 text         a struct value as schema files write it: (a = 1, b = \"x\")\n    \
                 json         the JSON form of the reference codec\n\
                 text and json need the schema: <schema-file>, and <type>, the name of the \
                 message's root struct in that file. Between binary formats both may be left \
                 out.",
            )
            .arg(
                Arg::new("conversion")
                    .value_name("from>:<to")
                    .required(true),
            )
            .arg(Arg::new("schema").value_name("schema-file"))
            .arg(Arg::new("type").value_name("type"))
            .arg(quiet_arg())
            .arg(segment_size_arg())
            .arg(short_arg(
                "Text and JSON output: one line per message, no indentation or spaces \
                 between items.",
            )),
    );
    let decode = import_args(
        Command::new("decode")
            .about("Old spelling of `convert binary:text` (kept for scripts)")
            .long_about(
                "Writes each message of standard input (binary framing unless --flat or \
                 --packed) as text, reading its root as the struct <type> of <schema-file>. \
                 `convert` does this and more.",
            )
            .arg(Arg::new("schema").value_name("schema-file").required(true))
            .arg(Arg::new("type").value_name("type").required(true))
            .arg(flag(
                "flat",
                None,
                "The input is one message of one segment, without a segment table.",
            ))
            .arg(flag("packed", Some('p'), "The input is packed."))
            .arg(quiet_arg())
            .arg(short_arg(
                "One line per message, no indentation or spaces between items.",
            )),
    );
    let encode = import_args(
        Command::new("encode")
            .about("Old spelling of `convert text:binary` (kept for scripts)")
            .long_about(
                "Reads struct values written as in a schema file, such as\n    \
                 (id = 7, name = \"disk\", tags = [\"a\", \"b\"])\n\
                 one after another from standard input, each of the struct <type> of \
                 <schema-file>, and writes each as a binary message (framed unless --flat). \
                 `convert` does this and more.",
            )
            .arg(Arg::new("schema").value_name("schema-file").required(true))
            .arg(Arg::new("type").value_name("type").required(true))
            .arg(flag(
                "flat",
                None,
                "Write one message of one segment without a segment table (the input must \
                 hold exactly one value).",
            ))
            .arg(flag("packed", Some('p'), "Write the output packed."))
            .arg(segment_size_arg()),
    );
    let eval = import_args(
        Command::new("eval")
            .about("Print a constant, a field's default, or a part of either")
            .long_about(
                "Writes the value <name> names in <schema-file>, as text unless -o says \
                 otherwise. <name> is a constant, a struct field (its default value), or a \
                 path into one: fields after dots, list elements in brackets. For example:\n    \
                 capnarena eval myschema.capnp MyType.someField\n    \
                 capnarena eval myschema.capnp someConstant\n    \
                 capnarena eval myschema.capnp someConstant.someField\n    \
                 capnarena eval myschema.capnp someConstant.someList[4]\n    \
                 capnarena eval myschema.capnp someConstant.someList[4].anotherField[1][2][3]",
            )
            .arg(Arg::new("schema").value_name("schema-file").required(true))
            .arg(Arg::new("name").value_name("name").required(true))
            .arg(flag("binary", Some('b'), "same as -obinary"))
            .arg(flag("flat", None, "same as -oflat"))
            .arg(flag("packed", Some('p'), "same as -opacked"))
            .arg(
                Arg::new("output")
                    .short('o')
                    .long("output")
                    .value_name("format")
                    .help(
                        "Output format: text (the default), json, or a binary format (struct \
                         values only); `capnarena help convert` lists them.",
                    ),
            )
            .arg(short_arg(
                "Text and JSON output on one line, no indentation or spaces between items.",
            )),
    );
    let compile = Command::new("compile")
        .about("Compile schema files and run code generator plugins on them")
        .disable_help_flag(true)
        .arg(
            Arg::new("args")
                .num_args(0..)
                .allow_hyphen_values(true)
                .trailing_var_arg(true)
                .value_name("option or file"),
        );
    let id =
        Command::new("id").about("Print a fresh random 64-bit id for a schema file (`@0x...;`)");
    import_args(
        Command::new("capnarena")
            .version(env!("CARGO_PKG_VERSION"))
            .about(ABOUT)
            .subcommand_required(true)
            .subcommands([
                compile,
                convert,
                decode,
                encode,
                eval,
                id,
                compat::command(),
            ]),
    )
}

fn main() -> ExitCode {
    let matches = cli().get_matches();
    let mut imports = imports_of(&matches);
    let Some((name, sub)) = matches.subcommand() else {
        return ExitCode::FAILURE;
    };
    let sub_imports = imports_of(sub);
    imports.import_paths.extend(sub_imports.import_paths);
    imports.no_standard_import |= sub_imports.no_standard_import;
    let result = match name {
        "compile" => return compile(&imports, sub),
        "compat" => return compat::run(&imports, sub),
        "convert" => run_convert(&imports, sub),
        "decode" => run_decode(&imports, sub),
        "encode" => run_encode(&imports, sub),
        "eval" => run_eval(&imports, sub),
        "id" => run_id(),
        _ => Err(Failure::Usage(format!("unknown command: {name}"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!(
                "capnarena {name}: {msg}\nTry 'capnarena {name} --help' for more information."
            );
            ExitCode::FAILURE
        }
        Err(Failure::Run(msg)) => {
            eprintln!("capnarena {name}: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Why a command failed: its arguments (the reference adds a pointer to
/// `--help`), or the run.
enum Failure {
    Usage(String),
    Run(String),
}

fn imports_of(m: &ArgMatches) -> ImportOptions {
    let has = |id: &str| m.try_get_raw(id).ok().flatten().is_some();
    ImportOptions {
        import_paths: if has("import-path") {
            m.get_many::<String>("import-path")
                .map(|v| v.cloned().collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        },
        no_standard_import: has("no-standard-import") && m.get_flag("no-standard-import"),
    }
}

fn compile(imports: &ImportOptions, m: &ArgMatches) -> ExitCode {
    let mut args: Vec<String> = imports
        .import_paths
        .iter()
        .map(|d| format!("--import-path={d}"))
        .collect();
    if imports.no_standard_import {
        args.push("--no-standard-import".into());
    }
    args.extend(
        m.get_many::<String>("args")
            .map(|v| v.cloned().collect::<Vec<_>>())
            .unwrap_or_default(),
    );
    capnarena_compiler::cli::compile_command("capnarena compile", args)
}

/// What a conversion needs besides its formats.
struct Job<'a> {
    imports: &'a ImportOptions,
    schema: Option<&'a String>,
    root_type: Option<&'a String>,
    options: WriteOptions,
    /// `--quiet`: no check of the input's first bytes against its format.
    quiet: bool,
}

fn run_convert(imports: &ImportOptions, m: &ArgMatches) -> Result<(), Failure> {
    let conversion = m.get_one::<String>("conversion").expect("required");
    let Some((from, to)) = conversion.split_once(':') else {
        return Err(Failure::Usage(format!(
            "{conversion}: invalid conversion, format is: <from>:<to>"
        )));
    };
    let format = |name: &str| {
        Format::parse(name)
            .ok_or_else(|| Failure::Usage(format!("{conversion}: unknown format: {name}")))
    };
    let (from, to) = (format(from)?, format(to)?);
    run(
        from,
        to,
        Job {
            imports,
            schema: m.get_one("schema"),
            root_type: m.get_one("type"),
            options: WriteOptions {
                pretty: !m.get_flag("short"),
                segment_words: m.get_one::<u32>("segment-size").copied(),
            },
            quiet: m.get_flag("quiet"),
        },
    )
}

fn deprecated_format(m: &ArgMatches, default: Format) -> Format {
    let has = |id: &str| m.try_get_raw(id).ok().flatten().is_some() && m.get_flag(id);
    match (has("flat"), has("packed"), has("binary")) {
        (true, true, _) => Format::FlatPacked,
        (true, false, _) => Format::Flat,
        (false, true, _) => Format::Packed,
        (false, false, true) => Format::Binary,
        _ => default,
    }
}

fn run_decode(imports: &ImportOptions, m: &ArgMatches) -> Result<(), Failure> {
    let from = deprecated_format(m, Format::Binary);
    run(
        from,
        Format::Text,
        Job {
            imports,
            schema: m.get_one("schema"),
            root_type: m.get_one("type"),
            options: WriteOptions {
                pretty: !m.get_flag("short"),
                segment_words: None,
            },
            quiet: m.get_flag("quiet"),
        },
    )
}

fn run_encode(imports: &ImportOptions, m: &ArgMatches) -> Result<(), Failure> {
    let to = deprecated_format(m, Format::Binary);
    let segment_words = m.get_one::<u32>("segment-size").copied();
    if segment_words.is_some() && matches!(to, Format::Flat | Format::FlatPacked) {
        return Err(Failure::Usage(
            "--segment-size: cannot be used with --flat".into(),
        ));
    }
    run(
        Format::Text,
        to,
        Job {
            imports,
            schema: m.get_one("schema"),
            root_type: m.get_one("type"),
            options: WriteOptions {
                pretty: true,
                segment_words,
            },
            quiet: false,
        },
    )
}

/// Loads the schema when one is given (a schema named is compiled even
/// where the formats do not need it, as the reference does), then
/// converts stdin to stdout.
fn run(from: Format, to: Format, job: Job<'_>) -> Result<(), Failure> {
    let loaded = match job.schema {
        Some(file) => Some(
            schema::load(file, job.imports, job.root_type.map(String::as_str))
                .map_err(Failure::Usage)?,
        ),
        None => None,
    };
    let schema = loaded.as_ref().map(|l| l.schema());
    let root = match (&schema, job.root_type) {
        (Some(schema), Some(name)) => {
            let file = schema::file_id(schema).map_err(Failure::Usage)?;
            let id = schema::lookup(schema, file, name)
                .map_err(|e| Failure::Usage(format!("{name}: {e}")))?;
            if schema
                .node_kind(id)
                .map_err(|e| Failure::Usage(e.to_string()))?
                != "struct"
            {
                return Err(Failure::Usage(format!("{name}: Type is not a struct.")));
            }
            Some(
                schema
                    .struct_schema(id)
                    .map_err(|e| Failure::Usage(e.to_string()))?,
            )
        }
        _ => None,
    };
    for f in [from, to] {
        if f.needs_schema() && root.is_none() {
            return Err(Failure::Usage(format!(
                "format requires schema: {}",
                f.name()
            )));
        }
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    if !job.quiet {
        // What one read of the input gives, as the reference looks at its
        // first buffer.
        let prefix = std::io::BufRead::fill_buf(&mut input)
            .map_err(|e| Failure::Run(format!("reading the input: {e}")))?;
        if let Some(warning) =
            plausible::check(from, prefix, root.as_ref()).map_err(Failure::Usage)?
        {
            eprint!("{warning}");
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = convert::convert(from, to, root.as_ref(), job.options, &mut input, &mut out);
    let flushed = out.flush();
    result.map_err(Failure::Run)?;
    flushed.map_err(|e| Failure::Run(format!("writing the output: {e}")))
}

fn run_eval(imports: &ImportOptions, m: &ArgMatches) -> Result<(), Failure> {
    let file = m.get_one::<String>("schema").expect("required");
    let name = m.get_one::<String>("name").expect("required");
    let mut to = match m.get_one::<String>("output") {
        Some(f) => Format::parse(f)
            .ok_or_else(|| Failure::Usage(format!("-o {f}: unknown format: {f}")))?,
        None => Format::Text,
    };
    to = deprecated_format(m, to);
    let parts = eval::parse_name(name).map_err(|e| Failure::Usage(format!("{name}: {e}")))?;
    // The declaration the name's leading identifiers reach (the rest
    // are members of the constant).
    let mut declared = Vec::new();
    for p in &parts {
        declared.push(p.name.as_str());
        if !p.subscripts.is_empty() {
            break;
        }
    }
    let loaded = schema::load(file, imports, Some(&declared.join("."))).map_err(Failure::Usage)?;
    let schema = loaded.schema();
    let file_id = schema::file_id(&schema).map_err(Failure::Usage)?;
    let segments = [&eval::EMPTY[..]];
    let empty = capnarena::MessageReader::from_segments(&segments, convert::reader_options())
        .map_err(|e| Failure::Run(e.to_string()))?;
    let found = eval::evaluate(&schema, file_id, &parts, &empty)
        .map_err(|e| Failure::Usage(format!("{name}: {e}")))?;
    let pretty = !m.get_flag("short");
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = match found {
        eval::Found::Struct(s) if to != Format::Text => {
            let root = s.schema().clone();
            let codecs = convert::Codecs::new(Some(&root), &[to]).map_err(Failure::Run)?;
            convert::write_message(
                to,
                &codecs,
                WriteOptions {
                    pretty,
                    segment_words: None,
                },
                s.as_struct_reader(),
                &mut out,
            )
            .map_err(Failure::Run)?;
            Ok(())
        }
        _ if to != Format::Text => {
            return Err(Failure::Usage(format!(
                "{name}: not a struct; binary output is only available on structs"
            )));
        }
        eval::Found::Struct(s) => {
            let mut text = Vec::new();
            capnarena_dynamic::text::write_struct(&s, pretty, &mut text)
                .map_err(|e| Failure::Run(e.to_string()))?;
            text.push(b'\n');
            out.write_all(&text)
        }
        eval::Found::Other(v) => {
            let mut text = Vec::new();
            capnarena_dynamic::text::write_value(&v, pretty, &mut text)
                .map_err(|e| Failure::Run(e.to_string()))?;
            text.push(b'\n');
            out.write_all(&text)
        }
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Failure::Run(format!("writing the output: {e}")))
}

/// `id`: a new random id with its top bit set, as `capnp id` prints it.
fn run_id() -> Result<(), Failure> {
    let mut bytes = [0u8; 8];
    let mut random = std::fs::File::open("/dev/urandom")
        .map_err(|e| Failure::Run(format!("opening /dev/urandom: {e}")))?;
    std::io::Read::read_exact(&mut random, &mut bytes)
        .map_err(|e| Failure::Run(format!("reading /dev/urandom: {e}")))?;
    let id = u64::from_le_bytes(bytes) | 1 << 63;
    println!("@{id:#x}");
    Ok(())
}
