//! `capnarena`: the reference `capnp` tool's commands without the C++
//! tool: `compile`, `convert`, `decode`, `encode`, `eval` and `id`, with
//! its options, outputs and messages (0.9.2).
//!
//! Schemas are compiled in process by `capnarena-compiler`; messages are
//! read and written by the capnarena runtime, and converted to and from
//! text by `capnarena-dynamic`. `convert` writes what `capnp convert`
//! writes, byte for byte (its tests run both on the same inputs).

mod arena;
mod convert;
mod eval;
mod plausible;
mod schema;

use std::io::Write;
use std::process::ExitCode;

use clap::{Arg, ArgAction, ArgMatches, Command};

use convert::{Format, WriteOptions};
use schema::ImportOptions;

const ABOUT: &str = "Command-line tool for Cap'n Proto development and debugging.";

fn import_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("import-path")
            .short('I')
            .long("import-path")
            .value_name("dir")
            .action(ArgAction::Append)
            .help(
                "Add <dir> to the list of directories searched for non-relative imports \
                 (ones that start with a '/').",
            ),
    )
    .arg(
        Arg::new("no-standard-import")
            .long("no-standard-import")
            .action(ArgAction::SetTrue)
            .help(
                "Do not add any default import paths; use only those specified by -I. \
                 Otherwise, typically /usr/include and /usr/local/include are added by default.",
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
            "Do not print warning messages about the input being in the wrong format. Use \
             this if you find the warnings are wrong.",
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
            .about("Convert messages between binary, text, JSON, etc.")
            .long_about(
                "Converts messages between formats. Reads a stream of messages from stdin in \
                 format <from> and writes them to stdout in format <to>. Valid formats are:\n    \
                 binary      standard binary format\n    \
                 packed      packed binary format (deflates zeroes)\n    \
                 flat        binary single segment, no segment table (rare)\n    \
                 flat-packed flat and packed\n    \
                 canonical   canonicalized binary single segment, no segment table\n    \
                 text        schema language struct literal format\n    \
                 json        JSON format\n\
                 When using \"text\" or \"json\" format, you must specify <schema-file> and <type> (but \
                 they are ignored and can be omitted for binary-to-binary conversions). <type> \
                 names a struct type defined in <schema-file>, which is the root type of the \
                 message(s).",
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
                "Write text or JSON output in short (non-pretty) format. Each message will be printed \
                 on one line, without using whitespace to improve readability.",
            )),
    );
    let decode = import_args(
        Command::new("decode")
            .about("DEPRECATED (use `convert`)")
            .long_about(
                "Decodes one or more encoded Cap'n Proto messages as text. The messages have \
                 root type <type> defined in <schema-file>. Messages are read from standard \
                 input and by default are expected to be in standard Cap'n Proto \
                 serialization format.",
            )
            .arg(Arg::new("schema").value_name("schema-file").required(true))
            .arg(Arg::new("type").value_name("type").required(true))
            .arg(flag(
                "flat",
                None,
                "Interpret the input as one large single-segment message rather than a \
                 stream in standard serialization format.",
            ))
            .arg(flag(
                "packed",
                Some('p'),
                "Expect the input to be packed using standard Cap'n Proto packing.",
            ))
            .arg(quiet_arg())
            .arg(short_arg(
                "Print in short (non-pretty) format. Each message will be printed on one \
                 line, without using whitespace to improve readability.",
            )),
    );
    let encode = import_args(
        Command::new("encode")
            .about("DEPRECATED (use `convert`)")
            .long_about(
                "Encodes one or more textual Cap'n Proto messages to binary. The messages \
                 have root type <type> defined in <schema-file>. Messages are read from \
                 standard input. Each message is a parenthesized struct literal, like the \
                 format used to specify constants and default values of struct type in the \
                 schema language. For example:\n    \
                 (foo = 123, bar = \"hello\", baz = [true, false, true])\n\
                 The input may contain any number of such values; each will be encoded as a \
                 separate message.",
            )
            .arg(Arg::new("schema").value_name("schema-file").required(true))
            .arg(Arg::new("type").value_name("type").required(true))
            .arg(flag(
                "flat",
                None,
                "Expect only one input value, serializing it as a single-segment message \
                 with no framing.",
            ))
            .arg(flag(
                "packed",
                Some('p'),
                "Pack the output message with standard Cap'n Proto packing.",
            ))
            .arg(segment_size_arg()),
    );
    let eval = import_args(
        Command::new("eval")
            .about("Evaluate a const from a schema file.")
            .long_about(
                "Prints (or encodes) the value of <name>, which must be defined in \
                 <schema-file>. <name> must refer to a const declaration, a field of a \
                 struct type (prints the default value), or a field or list element nested \
                 within some other value. Examples:\n    \
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
                        "Encode the output in the given format. See `capnarena help convert` \
                         for a list of formats. Defaults to \"text\".",
                    ),
            )
            .arg(short_arg(
                "If output format is text or JSON, write in short (non-pretty) format. The message \
                 will be printed on one line, without using whitespace to improve \
                 readability.",
            )),
    );
    let compile = Command::new("compile")
        .about("Generate source code from schema files.")
        .disable_help_flag(true)
        .arg(
            Arg::new("args")
                .num_args(0..)
                .allow_hyphen_values(true)
                .trailing_var_arg(true)
                .value_name("option or file"),
        );
    let id = Command::new("id")
        .about("Generate a new unique ID.")
        .long_about("Generates a new 64-bit unique ID for use in a Cap'n Proto schema.");
    import_args(
        Command::new("capnarena")
            .version(env!("CARGO_PKG_VERSION"))
            .about(ABOUT)
            .subcommand_required(true)
            .subcommands([compile, convert, decode, encode, eval, id]),
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
        Some(file) => Some(schema::load(file, job.imports).map_err(Failure::Usage)?),
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
    let loaded = schema::load(file, imports).map_err(Failure::Usage)?;
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
