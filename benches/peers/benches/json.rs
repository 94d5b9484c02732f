//! JSON of a ~10 MB message stream, three ways, both directions: through
//! generated code (the data-set schemas' serde impls, written by
//! `capnarena_dynamic::json::to_string` and read by `JsonDeserializer`),
//! through dynamic values (`json::JsonCodec`, the schema loaded at run
//! time) and through the reference tool (`capnp convert --short
//! binary:json` / `json:binary`, a process over a file; skipped without
//! `capnp` on PATH). Two data sets: `log` (text and integers) and `mesh`
//! (floats, which the reference spells with `%.17g`).
//!
//! Groups `json/SET/to_json` (stream of framed messages to JSON lines)
//! and `json/SET/from_json` (JSON lines to a stream of framed messages).
//! Before timing, the three texts are checked to be the same bytes.
//!
//! `capnp convert json:binary` 0.9.2 fails on some streams of several
//! documents that it reads one at a time ("Input remains after parsing
//! JSON": the log set's stream does, each of its documents alone does
//! not); for such a set the row is `capnp_convert_per_message`, one
//! process per document (its start-up time included).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use capnarena::typed::value::ReadStruct;
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, Word};
use capnarena_dynamic::json::{JsonCodec, JsonDeserializer, JsonLimits, JsonOptions};
use capnarena_dynamic::{DynamicStructBuilder, DynamicStructReader, LoadedSchema};
use capnarena_peers::rsb;
use capnarena_peers::rsb::ours::{Fill, LogSet, MeshSet, log_capnp, mesh_capnp};
use criterion::{Criterion, criterion_group, criterion_main};

/// The stream's size in bytes, at least.
const STREAM_BYTES: usize = 10 << 20;
/// Records in each message of the stream.
const PER_MESSAGE: usize = 1_000;

fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/rsb")
}

/// The reference `capnp` on PATH, if any.
fn capnp() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("capnp"))
            .find(|p| p.is_file())
    })
}

/// `capnp convert ARGS FILE ROOT < input`: its stdout.
fn convert(capnp: &Path, args: &[&str], file: &str, root: &str, input: &Path) -> Vec<u8> {
    let out = Command::new(capnp)
        .current_dir(schema_dir())
        .env("PWD", schema_dir())
        .args(args)
        .args([file, root])
        .stdin(std::fs::File::open(input).expect("the input file"))
        .stderr(Stdio::inherit())
        .output()
        .expect("running capnp");
    assert!(out.status.success(), "capnp convert {args:?} failed");
    out.stdout
}

/// Whether `capnp convert ARGS FILE ROOT < input` succeeds.
fn try_convert(capnp: &Path, args: &[&str], file: &str, root: &str, input: &Path) -> bool {
    Command::new(capnp)
        .current_dir(schema_dir())
        .args(args)
        .args([file, root])
        .stdin(std::fs::File::open(input).expect("the input file"))
        .env("PWD", schema_dir())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Messages of `PER_MESSAGE` records of the set, framed one after
/// another, cycling through the set, to `STREAM_BYTES` at least.
fn stream(set: &str) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut framed = Vec::new();
    let mut messages = Vec::new();
    match set {
        "log" => {
            let logs = rsb::logs(1);
            for chunk in logs.chunks(PER_MESSAGE) {
                msg.reset();
                LogSet(chunk).fill(&mut msg).expect("builds");
                messages.push(msg.framed_bytes().expect("one segment").to_vec());
            }
        }
        _ => {
            let mesh = rsb::mesh(1);
            for chunk in mesh.chunks(PER_MESSAGE) {
                msg.reset();
                MeshSet(chunk).fill(&mut msg).expect("builds");
                messages.push(msg.framed_bytes().expect("one segment").to_vec());
            }
        }
    }
    for m in messages.iter().cycle() {
        if framed.len() >= STREAM_BYTES {
            break;
        }
        framed.extend_from_slice(m);
    }
    framed
}

/// Each message of `words` (a stream) to a JSON line, by `f`.
fn each_message(
    words: &[Word],
    out: &mut String,
    mut f: impl FnMut(&MessageReader<'_>, &mut String),
) {
    let mut rest = words;
    while !rest.is_empty() {
        let (reader, next) =
            MessageReader::from_words_prefix(rest, ReaderOptions::default()).expect("a message");
        f(&reader, out);
        out.push('\n');
        rest = next;
    }
}

fn generated_to_json(set: &str, words: &[Word], opts: &JsonOptions) -> String {
    let mut out = String::new();
    each_message(words, &mut out, |reader, out| {
        let root = reader.root().expect("root");
        let text = if set == "log" {
            let v = log_capnp::logs::ValueRef::read_struct(root).expect("reads");
            capnarena_dynamic::json::to_string(&v, opts)
        } else {
            let v = mesh_capnp::mesh::ValueRef::read_struct(root).expect("reads");
            capnarena_dynamic::json::to_string(&v, opts)
        };
        out.push_str(&text.expect("serializes"));
    });
    out
}

fn dynamic_to_json(
    codec: &JsonCodec,
    root: &capnarena_dynamic::StructSchema<'_>,
    words: &[Word],
    opts: &JsonOptions,
) -> String {
    let mut out = String::new();
    each_message(words, &mut out, |reader, out| {
        let r = DynamicStructReader::root(reader, root.clone()).expect("root");
        out.push_str(&codec.encode(&r, opts).expect("encodes"));
    });
    out
}

fn limits() -> JsonLimits {
    JsonLimits {
        max_input_bytes: usize::MAX,
        ..JsonLimits::default()
    }
}

fn generated_from_json(set: &str, text: &str) -> Vec<u8> {
    let mut de = JsonDeserializer::from_str(text, &limits()).expect("limits");
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut out = Vec::new();
    while !de.at_end() {
        msg.reset();
        if set == "log" {
            let v: log_capnp::logs::Value = de.next().expect("reads");
            v.build_root(&mut msg).expect("builds");
        } else {
            let v: mesh_capnp::mesh::Value = de.next().expect("reads");
            v.build_root(&mut msg).expect("builds");
        }
        msg.append_to(&mut out);
    }
    out
}

fn dynamic_from_json(
    codec: &JsonCodec,
    root: &capnarena_dynamic::StructSchema<'_>,
    text: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        let mut msg = Message::new(SingleSegmentArena::new());
        let b = DynamicStructBuilder::init_root(&mut msg, root.clone()).expect("root");
        match codec
            .decode_prefix(text, at, b, &limits())
            .expect("decodes")
        {
            Some(next) => at = next,
            None => break,
        }
        msg.append_to(&mut out);
    }
    out
}

fn json(c: &mut Criterion) {
    let loaded = LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .src_prefix(schema_dir())
            .file(schema_dir().join("log.capnp"))
            .file(schema_dir().join("mesh.capnp")),
    )
    .expect("the data-set schemas compile");
    let schema = loaded.schema();
    let capnp = capnp();
    if capnp.is_none() {
        println!("SKIP capnp convert rows: capnp not on PATH");
    }
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let short = JsonOptions::short();
    for (set, file, root_name) in [("log", "log.capnp", "Logs"), ("mesh", "mesh.capnp", "Mesh")] {
        let root = schema
            .find_struct(&format!("{file}:{root_name}"))
            .expect("root type");
        let codec = JsonCodec::new(&root).expect("plan");
        let framed = stream(set);
        let words = capnarena::words_from_bytes(&framed).expect("words");
        let json_text = generated_to_json(set, &words, &short);
        let binary_file = scratch.join(format!("json-bench-{set}.bin"));
        let json_file = scratch.join(format!("json-bench-{set}.json"));
        std::fs::File::create(&binary_file)
            .and_then(|mut f| f.write_all(&framed))
            .expect("writing the stream");
        std::fs::write(&json_file, &json_text).expect("writing the JSON");
        println!(
            "json/{set}: {} messages, {} bytes framed, {} bytes of JSON",
            json_text.lines().count(),
            framed.len(),
            json_text.len()
        );
        // The three texts agree, and so do the messages read back.
        assert_eq!(
            dynamic_to_json(&codec, &root, &words, &short),
            json_text,
            "{set}: dynamic against generated"
        );
        let back = generated_from_json(set, &json_text);
        assert_eq!(
            dynamic_from_json(&codec, &root, json_text.as_bytes()),
            back,
            "{set}: messages read back"
        );
        if let Some(capnp) = &capnp {
            let reference = convert(
                capnp,
                &["convert", "--short", "binary:json"],
                file,
                root_name,
                &binary_file,
            );
            assert!(
                reference == json_text.as_bytes(),
                "{set}: capnp convert's JSON differs from the generated path's"
            );
        }

        let mut g = c.benchmark_group(format!("json/{set}/to_json"));
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(5));
        g.bench_function("generated", |b| {
            b.iter(|| generated_to_json(set, &words, &short))
        });
        g.bench_function("dynamic", |b| {
            b.iter(|| dynamic_to_json(&codec, &root, &words, &short))
        });
        if let Some(capnp) = &capnp {
            g.bench_function("capnp_convert", |b| {
                b.iter(|| {
                    convert(
                        capnp,
                        &["convert", "--short", "binary:json"],
                        file,
                        root_name,
                        &binary_file,
                    )
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group(format!("json/{set}/from_json"));
        g.sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(5));
        g.bench_function("generated", |b| {
            b.iter(|| generated_from_json(set, &json_text))
        });
        g.bench_function("dynamic", |b| {
            b.iter(|| dynamic_from_json(&codec, &root, json_text.as_bytes()))
        });
        if let Some(capnp) = &capnp {
            if try_convert(
                capnp,
                &["convert", "json:binary"],
                file,
                root_name,
                &json_file,
            ) {
                g.bench_function("capnp_convert", |b| {
                    b.iter(|| {
                        convert(
                            capnp,
                            &["convert", "json:binary"],
                            file,
                            root_name,
                            &json_file,
                        )
                    })
                });
            } else {
                let files: Vec<PathBuf> = json_text
                    .lines()
                    .enumerate()
                    .map(|(i, line)| {
                        let f = scratch.join(format!("json-bench-{set}-{i}.json"));
                        std::fs::write(&f, line).expect("writing a document");
                        f
                    })
                    .collect();
                g.bench_function("capnp_convert_per_message", |b| {
                    b.iter(|| {
                        for f in &files {
                            convert(capnp, &["convert", "json:binary"], file, root_name, f);
                        }
                    })
                });
            }
        }
        g.finish();
    }
}

criterion_group!(benches, json);
criterion_main!(benches);
