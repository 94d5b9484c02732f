//! `capnarena convert` against `capnp convert`, in one run: every
//! direction between binary and text and between binary and JSON (pretty
//! and `--short`), on the reference's testdata files (one message, so
//! mostly process start-up and schema loading, which both sides pay) and
//! on a stream of about 10 MB made from them (3,723 messages). Both
//! commands run as processes in the reference's source directory, with
//! the input file on stdin and stdout to /dev/null; before timing a case,
//! the two outputs are compared and must be equal.
//!
//! `cargo bench -p capnarena-cli --bench convert` (see benches/README.md,
//! "The `capnarena convert` command"). Without `capnp` on PATH the
//! reference's rows are skipped with a SKIP line (and the stream inputs,
//! which the reference writes, are made from the binary stream by
//! capnarena itself).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

/// The reference's source directory: `capnp/test.capnp` and
/// `capnp/testdata/` (capnproto/capnproto v0.9.2, MIT; provenance in
/// conformance/corpus/PROVENANCE.md).
fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/corpus/capnproto/c++/src")
}

const SCHEMA: [&str; 2] = ["capnp/test.capnp", "TestAllTypes"];

/// The stream's size: testdata/binary repeated to at most this many bytes.
const STREAM_BYTES: usize = 10 << 20;

fn ours() -> &'static str {
    env!("CARGO_BIN_EXE_capnarena")
}

fn capnp() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("capnp"))
            .find(|p| p.is_file())
    })
}

/// `program convert CONVERSION [--short] capnp/test.capnp TestAllTypes`
/// with `input` on stdin; stdout to `out` (captured when `None`).
fn convert(
    program: &Path,
    conversion: &str,
    short: bool,
    input: &Path,
    out: Option<File>,
) -> Vec<u8> {
    let mut cmd = Command::new(program);
    cmd.current_dir(reference_dir())
        .env("PWD", reference_dir())
        .arg("convert")
        .arg(conversion);
    if short {
        cmd.arg("--short");
    }
    cmd.args(SCHEMA)
        .stdin(File::open(input).expect("the input file"))
        .stderr(Stdio::null());
    let output = match out {
        Some(file) => cmd.stdout(file).output(),
        None => cmd.stdout(Stdio::piped()).output(),
    }
    .expect("the command runs");
    assert!(
        output.status.success(),
        "{} convert {conversion} fails",
        program.display()
    );
    output.stdout
}

fn null() -> File {
    File::create("/dev/null").expect("/dev/null")
}

/// The inputs of one set: binary, and its text and JSON forms (pretty
/// and short), as files.
struct Inputs {
    binary: PathBuf,
    pretty_text: PathBuf,
    short_text: PathBuf,
    pretty_json: PathBuf,
    short_json: PathBuf,
}

/// The testdata files as they are.
fn testdata() -> Inputs {
    let dir = reference_dir().join("capnp/testdata");
    Inputs {
        binary: dir.join("binary"),
        pretty_text: dir.join("pretty.txt"),
        short_text: dir.join("short.txt"),
        pretty_json: dir.join("pretty.json"),
        short_json: dir.join("short.json"),
    }
}

/// testdata/binary repeated to about 10 MB, and that stream converted to
/// text and JSON (by the reference when present).
fn stream(writer: &Path) -> Inputs {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("convert-bench");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let one = std::fs::read(reference_dir().join("capnp/testdata/binary")).expect("testdata");
    let copies = STREAM_BYTES / one.len();
    let binary = dir.join("stream.bin");
    std::fs::write(&binary, one.repeat(copies)).expect("writes the stream");
    let make = |name: &str, conversion: &str, short: bool| {
        let path = dir.join(name);
        let bytes = convert(writer, conversion, short, &binary, None);
        std::fs::write(&path, bytes).expect("writes an input");
        path
    };
    Inputs {
        pretty_text: make("stream.txt", "binary:text", false),
        short_text: make("stream.short.txt", "binary:text", true),
        pretty_json: make("stream.json", "binary:json", false),
        short_json: make("stream.short.json", "binary:json", true),
        binary,
    }
}

/// Every case: (name, conversion, --short, input).
fn cases(inputs: &Inputs) -> Vec<(&'static str, &'static str, bool, &Path)> {
    vec![
        ("binary_to_text", "binary:text", false, &inputs.binary),
        ("binary_to_text_short", "binary:text", true, &inputs.binary),
        ("text_to_binary", "text:binary", false, &inputs.pretty_text),
        (
            "short_text_to_binary",
            "text:binary",
            false,
            &inputs.short_text,
        ),
        ("binary_to_json", "binary:json", false, &inputs.binary),
        ("binary_to_json_short", "binary:json", true, &inputs.binary),
        ("json_to_binary", "json:binary", false, &inputs.pretty_json),
        (
            "short_json_to_binary",
            "json:binary",
            false,
            &inputs.short_json,
        ),
    ]
}

fn group(c: &mut Criterion, name: &str, inputs: &Inputs, capnp: Option<&Path>, samples: usize) {
    let mut g = c.benchmark_group(name);
    g.sample_size(samples);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    let ours = Path::new(ours());
    for (case, conversion, short, input) in cases(inputs) {
        if let Some(capnp) = capnp {
            let mine = convert(ours, conversion, short, input, None);
            let theirs = convert(capnp, conversion, short, input, None);
            assert!(
                mine == theirs,
                "{name}/{case}: capnarena and capnp write different output"
            );
        }
        g.bench_function(format!("{case}/capnarena"), |b| {
            b.iter(|| convert(ours, conversion, short, input, Some(null())))
        });
        if let Some(capnp) = capnp {
            g.bench_function(format!("{case}/capnp"), |b| {
                b.iter(|| convert(capnp, conversion, short, input, Some(null())))
            });
        }
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    let capnp = capnp();
    if capnp.is_none() {
        println!(
            "SKIP capnp rows of the convert bench: capnp not on PATH (Debian package capnproto)"
        );
    }
    group(c, "convert_testdata", &testdata(), capnp.as_deref(), 20);
    let writer = capnp.clone().unwrap_or_else(|| PathBuf::from(ours()));
    group(
        c,
        "convert_stream_10mb",
        &stream(&writer),
        capnp.as_deref(),
        10,
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
