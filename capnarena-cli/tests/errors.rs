//! Bad input to the `capnarena` command: a clear message on stderr
//! (the reference's words where it has them), a nonzero exit, no panic,
//! and the messages before a bad one still written. No `capnp` needed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(vectors().join(name)).expect("a vector")
}

/// `capnarena ARGS` in tests/vectors with `input` on stdin.
fn capnarena(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_capnarena"))
        .current_dir(vectors())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("ends");
    writer.join().expect("writer");
    out
}

/// Fails cleanly: nonzero exit, no panic, and stderr holding `expected`.
#[track_caller]
fn fails_with(out: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "succeeded; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains(expected),
        "{stderr:?} does not hold {expected:?}"
    );
}

const SCHEMA: [&str; 2] = ["all_types.capnp", "AllTypes"];

/// Arguments the command refuses, in the reference's words.
#[test]
fn bad_arguments() {
    let full = vector("full.bin");
    let convert = |args: &[&str]| {
        let mut all = vec!["convert"];
        all.extend_from_slice(args);
        capnarena(&all, &full)
    };
    fails_with(
        &convert(&["binary:texty", SCHEMA[0], SCHEMA[1]]),
        "capnarena convert: binary:texty: unknown format: texty\nTry 'capnarena convert --help'",
    );
    fails_with(
        &convert(&["binary", SCHEMA[0], SCHEMA[1]]),
        "invalid conversion, format is: <from>:<to>",
    );
    fails_with(&convert(&["binary:text"]), "format requires schema: text");
    fails_with(&convert(&["text:binary"]), "format requires schema: text");
    fails_with(
        &convert(&["binary:text", SCHEMA[0], "Nope"]),
        "Nope: 1-4: Not defined: Nope",
    );
    fails_with(
        &convert(&["binary:text", SCHEMA[0], "AllTypes.Nope"]),
        "AllTypes.Nope: 10-13: Not defined: Nope",
    );
    fails_with(
        &convert(&["binary:text", SCHEMA[0], "Color"]),
        "Color: Type is not a struct.",
    );
    fails_with(
        &convert(&["binary:text", "missing.capnp", "X"]),
        "missing.capnp",
    );
    fails_with(&convert(&["--segment-size=0", "binary:binary"]), "0");
    fails_with(&convert(&["--segment-size=x", "binary:binary"]), "x");
    // Input that cannot be in its format is refused before it is read.
    fails_with(
        &capnarena(
            &["convert", "binary:text", SCHEMA[0], SCHEMA[1]],
            &vector("full.txt"),
        ),
        "capnarena convert: The input is not in \"binary\" format. It looks like it is in \"text\" format. Try that instead.",
    );
    fails_with(&capnarena(&["frobnicate"], b""), "frobnicate");
    fails_with(
        &capnarena(&["eval", SCHEMA[0], "a..b"], b""),
        "capnarena eval: a..b: invalid syntax",
    );
    fails_with(
        &capnarena(&["compile", "--bogus", "all_types.capnp"], b""),
        "capnarena compile: unknown option --bogus",
    );
}

/// Input that is not a message of its format: the message's number and
/// what is wrong; the messages before it are written.
#[test]
fn bad_messages() {
    let full = vector("full.bin");
    // --quiet: past the check of the input's first bytes, to the reader.
    let binary_text = ["convert", "--quiet", "binary:text", SCHEMA[0], SCHEMA[1]];

    // Cut in the middle.
    fails_with(
        &capnarena(&binary_text, &full[..full.len() / 2]),
        "message 1:",
    );
    // A good message, then a segment table asking for 2^32 segments.
    let mut two = full.clone();
    two.extend_from_slice(&[0xff; 16]);
    let out = capnarena(&binary_text, &two);
    fails_with(&out, "message 2:");
    assert!(out.stdout == capnarena(&binary_text, &full).stdout);
    // A root pointer of the wrong kind.
    let list_root = [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    fails_with(&capnarena(&binary_text, &list_root), "message 1:");
    // Packed input ending inside an item.
    fails_with(
        &capnarena(&["convert", "--quiet", "packed:binary"], &[0xff, 1, 2]),
        "message 1:",
    );
    fails_with(
        &capnarena(&["convert", "--quiet", "flat-packed:binary"], &[0xff, 1, 2]),
        "message 1:",
    );
    // The flat form is not the canonical form of a message with pointers.
    fails_with(
        &capnarena(
            &["convert", "--quiet", "canonical:binary"],
            &vector("full.flat"),
        ),
        "not in canonical form",
    );
    // Text: the place and the reference's words.
    let text_binary = ["convert", "--quiet", "text:binary", SCHEMA[0], SCHEMA[1]];
    fails_with(
        &capnarena(&text_binary, b"(int8Field = 1)\n(\n  nope = 1)"),
        "message 2: (capnp text input):3:3: Struct has no field named 'nope'.",
    );
    // Places count in the whole stream, also on a message's first line.
    fails_with(
        &capnarena(&text_binary, b"(int8Field = 1) (nope = 1)"),
        "message 2: (capnp text input):1:18: Struct has no field named 'nope'.",
    );
    fails_with(&capnarena(&text_binary, b"  \n"), "Failed to read input.");
    // One text message is read whole, up to 16 MiB: past it, an error
    // (memory stays bounded whatever the stream).
    let mut huge = b"(textField = \"".to_vec();
    huge.resize(huge.len() + (17 << 20), b'a');
    fails_with(
        &capnarena(&text_binary, &huge),
        "message 1: a text message of more than 16777216 bytes",
    );
    fails_with(
        &capnarena(&text_binary, b"(int8Field = 1) extra"),
        "Extra tokens in input.",
    );
}

/// Bytes of every kind through every input format end in output or a
/// clean error, never a panic (a fixed pseudo-random sample, so the test
/// is the same each run).
#[test]
fn arbitrary_input_never_panics() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let seeds = [
        vector("full.bin"),
        vector("full.packed"),
        vector("full.txt"),
    ];
    for round in 0..24 {
        let mut input = seeds[round % 3].clone();
        for _ in 0..(1 + next() % 8) {
            let at = (next() as usize) % input.len();
            input[at] = next() as u8;
        }
        input.truncate(1 + (next() as usize) % input.len());
        for from in [
            "binary",
            "packed",
            "flat",
            "flat-packed",
            "canonical",
            "text",
        ] {
            let conversion = format!("{from}:text");
            // With the check of the first bytes, and past it to the readers.
            for quiet in [&[][..], &["--quiet"]] {
                let mut args = vec!["convert"];
                args.extend_from_slice(quiet);
                args.extend([conversion.as_str(), SCHEMA[0], SCHEMA[1]]);
                let out = capnarena(&args, &input);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
                assert!(
                    out.status.success() || stderr.contains("capnarena convert: "),
                    "{args:?}: {stderr}"
                );
            }
        }
    }
}

/// `id` prints a new id of 64 bits with the top bit set, as `capnp id`.
#[test]
fn id_is_random_with_the_top_bit_set() {
    let one = capnarena(&["id"], b"");
    let two = capnarena(&["id"], b"");
    assert!(one.status.success() && two.status.success());
    let parse = |out: &Output| {
        let text = String::from_utf8(out.stdout.clone()).unwrap();
        let hex = text
            .strip_prefix("@0x")
            .and_then(|t| t.strip_suffix('\n'))
            .unwrap_or_else(|| panic!("{text:?}"));
        assert_eq!(hex.len(), 16, "{text:?}");
        u64::from_str_radix(hex, 16).unwrap()
    };
    let (a, b) = (parse(&one), parse(&two));
    assert!(a >> 63 == 1 && b >> 63 == 1);
    assert_ne!(a, b);
}

/// JSON streams: a document whose strings hold braces, `#` and `//` is
/// one message (the cut tracks strings, where the reference's cutter
/// splits inside them and fails), comments between documents are
/// skipped, and a bad document names its message, line and column in
/// the whole stream.
#[test]
fn json_streams() {
    let json_binary = ["convert", "--quiet", "json:binary", SCHEMA[0], SCHEMA[1]];
    let json_json = [
        "convert",
        "--quiet",
        "--short",
        "json:json",
        SCHEMA[0],
        SCHEMA[1],
    ];
    let stream =
        b"{\"textField\": \"a } { # // b\"}\n# a comment { }\n// another\n{\"int8Field\": 3}\n";
    let out = capnarena(&json_json, stream);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].contains(r#""textField":"a } { # // b""#),
        "{stdout}"
    );
    assert!(lines[1].contains(r#""int8Field":3,"#), "{stdout}");
    fails_with(
        &capnarena(&json_binary, b"{\"int8Field\": 1}\n{\n  \"int8Field\": [}"),
        "message 2: (capnp json input):3:17:",
    );
    // One document is read whole, up to 16 MiB: past it, an error.
    let mut huge = b"{\"textField\": \"".to_vec();
    huge.resize(huge.len() + (17 << 20), b'a');
    fails_with(
        &capnarena(&json_binary, &huge),
        "message 1: a json message of more than 16777216 bytes",
    );
}

/// Peak resident memory, in KiB, of `capnarena ARGS` reading `stdin`,
/// by `/usr/bin/time -f %M` (GNU time), with its output.
fn peak_kib(args: &[&str], stdin: Stdio) -> (u64, Output) {
    let report = std::env::temp_dir().join(format!(
        "capnarena-peak-{}-{}",
        std::process::id(),
        args.join("_").replace([':', '/'], "-")
    ));
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_capnarena"))
        .current_dir(vectors())
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("GNU time (/usr/bin/time) runs the command");
    let text = std::fs::read_to_string(&report).expect("GNU time's report");
    let _ = std::fs::remove_file(&report);
    let kib = text
        .lines()
        .rev()
        .find_map(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak in {text:?}"));
    (kib, out)
}

/// An endless input (`/dev/zero`) to the flat formats ends with the
/// traversal limit's error (64 MiB of words read at most), in memory
/// about twice that: the input is never read whole before its size is
/// checked, packed or not.
#[test]
fn endless_flat_input_is_bounded() {
    const LIMIT_BYTES: u64 = 8 << 23; // 8 Mi words, the readers' default.
    for from in ["flat", "flat-packed"] {
        let conversion = format!("{from}:binary");
        let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
        let (kib, out) = peak_kib(
            &["convert", "--quiet", &conversion, SCHEMA[0], SCHEMA[1]],
            Stdio::from(zero),
        );
        fails_with(&out, &format!("more than {LIMIT_BYTES} bytes"));
        // Words read (at most the limit plus one word), a buffer doubling
        // to them (the old and new buffer at once), and the program.
        let bound_kib = 2 * LIMIT_BYTES / 1024 + 32 * 1024;
        assert!(kib <= bound_kib, "{from}: peak {kib} KiB > {bound_kib} KiB");
    }
}
