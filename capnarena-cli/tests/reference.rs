//! The built `capnarena` beside the reference `capnp` tool (0.9.2), on the
//! same inputs: every message of `tests/vectors` (in each framing the
//! reference wrote it: binary, packed, flat, canonical, text, and on
//! segments of 1, 3 and 16 words) and the reference's own testdata files
//! (`conformance/corpus/capnproto/c++/src/capnp/testdata`: binary, flat,
//! packed, packedflat, segmented, segmented-packed, pretty.txt,
//! short.txt, lists.binary; capnproto/capnproto v0.9.2, MIT, provenance
//! in `conformance/corpus/PROVENANCE.md`), converted to every format
//! (text pretty and `--short`, binary and packed with and without
//! `--segment-size`). Where the reference succeeds, capnarena writes the
//! same bytes; where it fails, capnarena fails too. Also `eval`,
//! `decode`, `encode` and `compile -o-` against the reference.
//!
//! The reference runs with `--quiet` there, capnarena without: the
//! reference's check of the input's first bytes refuses an empty struct's
//! flat and canonical forms (valid input, see `src/plausible.rs`), and
//! capnarena's check must never refuse what the reference converts.
//!
//! Needs `capnp` on PATH: without it each test prints a SKIP line, and
//! fails under `CAPNARENA_REQUIRE_PEER=1`.

#[path = "../../tests/common/peer.rs"]
mod peer;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("in the workspace")
        .to_path_buf()
}

/// Runs `program args` in `dir` with `input` on stdin.
fn run(program: &Path, dir: &Path, args: &[String], input: &[u8]) -> Output {
    let mut child = Command::new(program)
        .current_dir(dir)
        // The reference warns when PWD is not the directory it runs in.
        .env("PWD", dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running {}: {e}", program.display()));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Write from another thread: the child may fill its stdout first.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the command ends");
    writer.join().expect("stdin writer");
    out
}

fn ours() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_capnarena"))
}

/// One input file and how to read it.
struct Source {
    dir: PathBuf,
    file: String,
    format: &'static str,
    /// Schema arguments: import options, file, root type.
    schema: Vec<String>,
}

/// What to convert to, with the flags that matter for it.
const TARGETS: [(&str, &[&str]); 11] = [
    ("binary", &[]),
    ("binary", &["--segment-size=3"]),
    ("packed", &[]),
    ("packed", &["--segment-size=7"]),
    ("flat", &[]),
    ("flat-packed", &[]),
    ("canonical", &[]),
    ("text", &[]),
    ("text", &["--short"]),
    ("json", &[]),
    ("json", &["--short"]),
];

fn sources() -> Vec<Source> {
    let mut out = Vec::new();
    let vectors = workspace().join("tests/vectors");
    for name in ["empty", "scalars", "lists", "full", "log"] {
        let root = if name == "log" { "Log" } else { "AllTypes" };
        for (ext, format) in [
            ("bin", "binary"),
            ("packed", "packed"),
            ("flat", "flat"),
            ("canonical", "canonical"),
            ("txt", "text"),
            ("seg1.bin", "binary"),
            ("seg3.bin", "binary"),
            ("seg16.bin", "binary"),
        ] {
            out.push(Source {
                dir: vectors.clone(),
                file: format!("{name}.{ext}"),
                format,
                schema: vec!["all_types.capnp".into(), root.into()],
            });
        }
    }
    let capnp_dir = workspace().join("conformance/corpus/capnproto/c++/src/capnp");
    for (file, format, root) in [
        ("binary", "binary", "TestAllTypes"),
        ("flat", "flat", "TestAllTypes"),
        ("packed", "packed", "TestAllTypes"),
        ("packedflat", "flat-packed", "TestAllTypes"),
        ("segmented", "binary", "TestAllTypes"),
        ("segmented-packed", "packed", "TestAllTypes"),
        ("pretty.txt", "text", "TestAllTypes"),
        ("short.txt", "text", "TestAllTypes"),
        ("pretty.json", "json", "TestAllTypes"),
        ("short.json", "json", "TestAllTypes"),
        ("lists.binary", "binary", "TestLists"),
    ] {
        out.push(Source {
            dir: capnp_dir.clone(),
            file: format!("testdata/{file}"),
            format,
            // test.capnp imports its neighbours and /capnp/c++.capnp from
            // the corpus, not from the installed headers.
            schema: vec![
                "--no-standard-import".into(),
                "-I..".into(),
                "test.capnp".into(),
                root.into(),
            ],
        });
    }
    // The reference's JSON annotation test (names, flattening,
    // discriminated unions, base64, hex, json.Value): its schema imports
    // /capnp/compat/json.capnp and /capnp/c++.capnp from the corpus.
    for (file, format) in [
        ("testdata/annotated.json", "json"),
        ("testdata/annotated-json.binary", "binary"),
    ] {
        out.push(Source {
            dir: capnp_dir.clone(),
            file: file.into(),
            format,
            schema: vec![
                "--no-standard-import".into(),
                "-I..".into(),
                "compat/json-test.capnp".into(),
                "TestJsonAnnotations".into(),
            ],
        });
    }
    out
}

/// `capnarena convert` writes what `capnp convert` writes, byte for byte,
/// for every source and target (and fails where it fails).
#[test]
fn convert_matches_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let sources = sources();
    let jobs: Vec<(usize, usize)> = (0..sources.len())
        .flat_map(|s| (0..TARGETS.len()).map(move |t| (s, t)))
        .collect();
    // Two threads: each job runs two processes.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|chunk| {
                let (sources, capnp) = (&sources, &capnp);
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for &(s, t) in chunk {
                        if let Some(f) = compare(capnp, &sources[s], TARGETS[t]) {
                            failures.push(f);
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a comparison thread"))
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} conversions differ:\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n")
    );
    println!(
        "{} conversions byte-identical to the reference's",
        jobs.len()
    );
}

fn compare(capnp: &Path, source: &Source, (to, flags): (&str, &[&str])) -> Option<String> {
    let input = std::fs::read(source.dir.join(&source.file)).expect("the source file");
    let mut args: Vec<String> = vec!["convert".into()];
    args.extend(flags.iter().map(|f| f.to_string()));
    args.push(format!("{}:{to}", source.format));
    args.extend(source.schema.iter().cloned());
    let mut reference_args = args.clone();
    reference_args.insert(1, "--quiet".into());
    // Ours checks the input's format (no --quiet): the check must let
    // every valid input through.
    let theirs = run(capnp, &source.dir, &reference_args, &input);
    let mine = run(&ours(), &source.dir, &args, &input);
    let what = format!("{} {}", source.file, args.join(" "));
    let stderr = String::from_utf8_lossy(&mine.stderr);
    if stderr.contains("panicked") {
        return Some(format!("{what}: panicked: {stderr}"));
    }
    if theirs.status.success() {
        if !mine.status.success() {
            return Some(format!(
                "{what}: the reference succeeds, capnarena fails: {stderr}"
            ));
        }
        if mine.stdout != theirs.stdout {
            return Some(format!(
                "{what}: {} bytes against the reference's {}",
                mine.stdout.len(),
                theirs.stdout.len()
            ));
        }
    } else if mine.status.success() {
        return Some(format!("{what}: the reference fails, capnarena succeeds"));
    }
    None
}

/// The check of the input's first bytes against its format (skipped by
/// `--quiet`) refuses and warns as the reference's does, in its words: each
/// vector fed as each format, the stderr up to the conversion's own error
/// compared. (Not the empty struct's flat and canonical forms, which the
/// reference refuses by mistake: see `src/plausible.rs`.)
#[test]
fn format_checks_match_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let dir = workspace().join("tests/vectors");
    let files = [
        "empty.bin",
        "full.bin",
        "full.packed",
        "full.flat",
        "full.canonical",
        "full.txt",
        "full.expected",
        "log.seg1.bin",
        "lists.packed",
        "scalars.flat",
        "all_types.capnp",
    ];
    let formats = [
        "binary",
        "packed",
        "flat",
        "flat-packed",
        "canonical",
        "text",
        "json",
    ];
    // The reference names itself by its path; its conversion errors
    // (after the check) are its own.
    let before_error = |stderr: &[u8], program: &str| -> String {
        let text = String::from_utf8_lossy(stderr).replace(&format!("{program} "), "capnarena ");
        let mut kept = String::new();
        for line in text.lines() {
            if line.starts_with("*** Uncaught exception")
                || line.starts_with("*** ERROR CONVERTING")
                || line.starts_with("capnarena convert: message ")
            {
                break;
            }
            kept.push_str(line);
            kept.push('\n');
        }
        kept
    };
    // A JSON input too, as the reference writes it.
    let json = {
        let args = ["convert", "binary:json", "all_types.capnp", "AllTypes"].map(String::from);
        let out = run(
            &capnp,
            &dir,
            &args,
            &std::fs::read(dir.join("full.bin")).unwrap(),
        );
        assert!(out.status.success(), "capnp writes full.bin as JSON");
        out.stdout
    };
    let inputs = files
        .iter()
        .map(|f| (f.to_string(), std::fs::read(dir.join(f)).unwrap()))
        .chain([("full.json".to_string(), json)]);
    let mut checked = 0;
    for (file, input) in inputs {
        for from in formats {
            let args: Vec<String> = [
                "convert",
                &format!("{from}:text"),
                "all_types.capnp",
                "AllTypes",
            ]
            .map(String::from)
            .to_vec();
            let theirs = run(&capnp, &dir, &args, &input);
            let mine = run(&ours(), &dir, &args, &input);
            let what = format!("{file} as {from}");
            assert_eq!(
                before_error(&mine.stderr, "capnarena"),
                before_error(&theirs.stderr, &capnp.display().to_string()),
                "{what}"
            );
            assert_eq!(mine.status.success(), theirs.status.success(), "{what}");
            checked += 1;
        }
    }
    println!("{checked} format checks as the reference's");
}

/// A stream of many messages converts as the reference converts it:
/// the vectors' binary framings back to back, to text and packed, and
/// their texts read as one stream, to binary and text.
#[test]
fn streams_match_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let dir = workspace().join("tests/vectors");
    let mut binary = Vec::new();
    let mut text = Vec::new();
    let mut json = Vec::new();
    // 40 rounds: over 64 KiB of text, so messages straddle the reads.
    for _ in 0..40 {
        for name in ["empty", "scalars", "lists", "full"] {
            binary.extend(std::fs::read(dir.join(format!("{name}.bin"))).unwrap());
            text.extend(std::fs::read(dir.join(format!("{name}.txt"))).unwrap());
        }
    }
    // The reference's JSON of the binary stream, pretty: one document a
    // message, back to back.
    let args = ["convert", "binary:json", "all_types.capnp", "AllTypes"].map(String::from);
    let out = run(&capnp, &dir, &args, &binary);
    assert!(out.status.success(), "capnp writes the stream as JSON");
    json.extend(out.stdout);
    assert!(text.len() > 64 << 10);
    for (conversion, input) in [
        ("binary:text", &binary),
        ("binary:packed", &binary),
        ("text:binary", &text),
        ("text:text", &text),
        ("binary:json", &binary),
        ("json:binary", &json),
        ("json:text", &json),
    ] {
        let args: Vec<String> = ["convert", conversion, "all_types.capnp", "AllTypes"]
            .map(String::from)
            .to_vec();
        let theirs = run(&capnp, &dir, &args, input);
        let mine = run(&ours(), &dir, &args, input);
        assert!(
            theirs.status.success() && mine.status.success(),
            "{conversion}"
        );
        assert!(mine.stdout == theirs.stdout, "{conversion}");
    }
}

/// Text at the edges of the types and the syntax (`tests/edge.txt`: nan,
/// infinities, extreme and rounded floats, integers at their limits and
/// in hex and octal, escapes and non-UTF-8 bytes, empty and null-looking
/// values, union and group reassignment, comments with parentheses,
/// joined strings) converts as the reference converts it, to every
/// format; and the binary it makes converts back to the same text.
#[test]
fn edge_text_matches_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let dir = workspace().join("tests/vectors");
    let text = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/edge.txt")).unwrap();
    let mut binary = Vec::new();
    for (flags, conversion) in [
        (&[][..], "text:binary"),
        (&[], "text:text"),
        (&["--short"], "text:text"),
        (&[], "text:packed"),
        (&[], "text:flat"),
        (&[], "text:canonical"),
    ] {
        let mut args: Vec<String> = vec!["convert".into()];
        args.extend(flags.iter().map(|f| f.to_string()));
        args.extend([conversion, "all_types.capnp", "AllTypes"].map(String::from));
        let theirs = run(&capnp, &dir, &args, &text);
        let mine = run(&ours(), &dir, &args, &text);
        let what = args.join(" ");
        assert!(theirs.status.success(), "{what}: the reference fails");
        assert!(
            mine.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&mine.stderr)
        );
        assert!(mine.stdout == theirs.stdout, "{what}");
        if conversion == "text:binary" {
            binary = mine.stdout;
        }
    }
    let args: Vec<String> = ["convert", "binary:text", "all_types.capnp", "AllTypes"]
        .map(String::from)
        .to_vec();
    let theirs = run(&capnp, &dir, &args, &binary);
    let mine = run(&ours(), &dir, &args, &binary);
    assert!(theirs.status.success() && mine.status.success());
    assert!(mine.stdout == theirs.stdout);
}

/// Messages of generic structs (`tests/generics.txt`: `TestGenerics`
/// bound to other types at each level of `rev`, unbound, wrapped, in
/// lists, with schema defaults) print as the reference prints them, pretty
/// and short, read one after another from one stream (the text writer
/// keeps its plans of the structs from message to message). The binary is
/// the reference's encoding of the text.
#[test]
fn generic_messages_print_as_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let dir = workspace().join("conformance/corpus/capnproto/c++/src/capnp");
    let text =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/generics.txt")).unwrap();
    let schema = [
        "--no-standard-import",
        "-I..",
        "test.capnp",
        "TestUseGenerics",
    ]
    .map(String::from);
    let mut args = vec!["encode".to_string()];
    args.extend(schema.iter().cloned());
    let encoded = run(&capnp, &dir, &args, &text);
    assert!(encoded.status.success(), "capnp encodes tests/generics.txt");
    // Twice over: the second pass meets every struct with a plan made.
    let binary = [&encoded.stdout[..], &encoded.stdout[..]].concat();
    for flags in [&[][..], &["--short"]] {
        let mut args = vec!["convert".to_string(), "binary:text".to_string()];
        args.extend(flags.iter().map(|f| f.to_string()));
        args.extend(schema.iter().cloned());
        let theirs = run(&capnp, &dir, &args, &binary);
        let mine = run(&ours(), &dir, &args, &binary);
        assert!(
            theirs.status.success() && mine.status.success(),
            "{flags:?}"
        );
        // One line a message at least: every message printed.
        assert!(theirs.stdout.iter().filter(|&&b| b == b'\n').count() >= 8);
        assert!(
            mine.stdout == theirs.stdout,
            "{flags:?}:\n{}",
            String::from_utf8_lossy(&mine.stdout)
        );
    }
}

/// `eval` prints (and encodes) constants, defaults and their members and
/// elements as the reference does, and refuses bad names with its words.
#[test]
fn eval_matches_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let dir = workspace().join("conformance/corpus/capnproto/c++/src/capnp");
    let names = [
        "globalInt",
        "globalText",
        "derivedConstant",
        "derivedConstant.structList[1]",
        "derivedConstant.int16List[2]",
        "TestConstants.int32Const",
        "TestConstants.enumConst",
        "TestConstants.float32Const",
        "TestConstants.voidConst",
        "TestDefaults.structField",
        "TestDefaults.textList",
        "TestAllTypes.structField.int8Field",
        "genericConstant",
        "embeddedData",
        "nope",
        "TestDefaults",
        "globalInt.x",
        "TestDefaults.nope",
        "derivedConstant.textField[1]",
        "derivedConstant.structList[9]",
        "a..b",
    ];
    for name in names {
        for flags in [
            &[][..],
            &["--short"],
            &["-obinary"],
            &["--packed"],
            &["--flat"],
            &["-ojson"],
            &["-ojson", "--short"],
        ] {
            let mut args: Vec<String> = vec!["eval".into()];
            args.extend(flags.iter().map(|f| f.to_string()));
            args.extend(["--no-standard-import", "-I..", "test.capnp", name].map(String::from));
            let theirs = run(&capnp, &dir, &args, b"");
            let mine = run(&ours(), &dir, &args, b"");
            let what = args.join(" ");
            assert_eq!(mine.status.success(), theirs.status.success(), "{what}");
            assert!(mine.stdout == theirs.stdout, "{what}");
            // The reference names itself as it was run (its path).
            let theirs_err = String::from_utf8_lossy(&theirs.stderr)
                .replace(&format!("{} ", capnp.display()), "capnarena ");
            assert_eq!(String::from_utf8_lossy(&mine.stderr), theirs_err, "{what}");
        }
    }
}

/// The deprecated `decode` and `encode` write what the reference's do.
#[test]
fn decode_and_encode_match_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let dir = workspace().join("tests/vectors");
    for (command, flags, file) in [
        ("decode", &[][..], "full.bin"),
        ("decode", &["--short"], "full.bin"),
        ("decode", &["--packed"], "full.packed"),
        ("decode", &["--flat"], "full.flat"),
        ("encode", &[], "full.txt"),
        ("encode", &["--packed"], "full.txt"),
        ("encode", &["--flat"], "full.txt"),
        ("encode", &["--flat", "--packed"], "full.txt"),
        ("encode", &["--segment-size=5"], "full.txt"),
    ] {
        let mut args: Vec<String> = vec![command.into()];
        args.extend(flags.iter().map(|f| f.to_string()));
        args.extend(["all_types.capnp", "AllTypes"].map(String::from));
        let input = std::fs::read(dir.join(file)).unwrap();
        let theirs = run(&capnp, &dir, &args, &input);
        let mine = run(&ours(), &dir, &args, &input);
        let what = args.join(" ");
        assert!(theirs.status.success() && mine.status.success(), "{what}");
        assert!(mine.stdout == theirs.stdout, "{what}");
    }
}

/// `compile -o-` writes the reference's CodeGeneratorRequest (the same
/// values: the canonical forms, made by the reference, are equal; the
/// schema compiler lays the request out in its own order).
#[test]
fn compile_matches_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let dir = workspace().join("tests/vectors");
    let args: Vec<String> = ["compile", "--no-standard-import", "-o-", "all_types.capnp"]
        .map(String::from)
        .to_vec();
    let theirs = run(&capnp, &dir, &args, b"");
    let mine = run(&ours(), &dir, &args, b"");
    assert!(theirs.status.success() && mine.status.success());
    let canonical = |request: &[u8]| {
        let args = ["convert", "--quiet", "binary:canonical"].map(String::from);
        let out = run(&capnp, &dir, &args, request);
        assert!(out.status.success());
        out.stdout
    };
    assert!(canonical(&mine.stdout) == canonical(&theirs.stdout));
}

/// `convert` and `eval` load only the type or constant they are given and
/// what it depends on, as the reference does, so that errors elsewhere
/// (an undefined type, a duplicate member, an import of a file that does
/// not parse, a duplicate file id between two files only other
/// declarations import) do not stop them; naming a broken declaration
/// still fails. Regression: capnarena compiled the whole file, and the
/// reference's own test.capnp with the standard import path (where
/// /usr/include/capnp/c++.capnp and the corpus's c++.capnp share an id,
/// reached only through test-import2.capnp) could not be converted.
#[test]
fn only_the_named_declaration_is_compiled() {
    let Some(capnp) = peer::peer() else { return };
    let dir = std::env::temp_dir().join(format!("capnarena-cli-lazy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inc/x")).expect("mkdir");
    let lib = "@0xd0a1b2c3d4e5f601;\nstruct S { a @0 :UInt8; }\n";
    for (file, text) in [
        ("lib.capnp", lib),
        ("inc/x/lib.capnp", lib),
        (
            "syn.capnp",
            "@0xd0a1b2c3d4e5f60a;\nstruct B { x @0 :UInt8\n",
        ),
        (
            "good.capnp",
            concat!(
                "@0xd0a1b2c3d4e5f620;\n",
                "using L = import \"lib.capnp\";\n",
                "using M = import \"/x/lib.capnp\";\n",
                "using Syn = import \"syn.capnp\";\n",
                "using Missing = import \"missing.capnp\";\n",
                "struct Root { a @0 :UInt32; t @1 :Text; inner @2 :Inner; s @3 :L.S; }\n",
                "struct Inner { x @0 :Int8; }\n",
                "const c :Root = (a = 5, inner = (x = -3));\n",
                "struct Broken { b @0 :Nope; m @1 :M.S; y @2 :Syn.B; }\n",
                "struct Dup { a @0 :UInt8; a @1 :UInt8; }\n",
                "struct Other { m @0 :M.S; }\n",
            ),
        ),
    ] {
        std::fs::write(dir.join(file), text).expect("write");
    }
    let text = b"(a = 1, t = \"x\", inner = (x = 2), s = (a = 3))".to_vec();
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut cases: Vec<(PathBuf, Vec<String>, Vec<u8>)> = vec![
        (
            dir.clone(),
            args(&["convert", "text:binary", "-Iinc", "good.capnp", "Root"]),
            text.clone(),
        ),
        (
            dir.clone(),
            args(&["convert", "text:json", "-Iinc", "good.capnp", "Other"]),
            b"(m = (a = 1))".to_vec(),
        ),
        (
            dir.clone(),
            args(&["convert", "text:binary", "-Iinc", "good.capnp", "Broken"]),
            b"()".to_vec(),
        ),
        (
            dir.clone(),
            args(&["convert", "text:binary", "-Iinc", "good.capnp", "Nope"]),
            b"()".to_vec(),
        ),
        (
            dir.clone(),
            args(&["eval", "-Iinc", "good.capnp", "c.inner"]),
            Vec::new(),
        ),
        (
            dir.clone(),
            args(&["eval", "-Iinc", "good.capnp", "c"]),
            Vec::new(),
        ),
        (
            dir.clone(),
            args(&["eval", "-Iinc", "good.capnp", "Broken"]),
            Vec::new(),
        ),
        (
            dir.clone(),
            args(&["compile", "-Iinc", "-o-", "good.capnp"]),
            Vec::new(),
        ),
    ];
    // The reference's test.capnp with the standard import path.
    let capnp_src = workspace().join("conformance/corpus/capnproto/c++/src");
    let testdata = std::fs::read(capnp_src.join("capnp/testdata/binary")).expect("testdata");
    for to in ["text", "json"] {
        cases.push((
            capnp_src.clone(),
            args(&[
                "convert",
                &format!("binary:{to}"),
                "capnp/test.capnp",
                "TestAllTypes",
            ]),
            testdata.clone(),
        ));
    }
    for (cwd, args, input) in cases {
        let what = args.join(" ");
        let theirs = run(&capnp, &cwd, &args, &input);
        let mine = run(&ours(), &cwd, &args, &input);
        let stderr = String::from_utf8_lossy(&mine.stderr);
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert_eq!(
            mine.status.success(),
            theirs.status.success(),
            "{what}: ours: {stderr}; the reference's: {}",
            String::from_utf8_lossy(&theirs.stderr)
        );
        // (On errors in the schema the reference still writes what it
        // could convert before failing; capnarena writes nothing.)
        if theirs.status.success() {
            assert!(mine.stdout == theirs.stdout, "{what}: outputs differ");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
