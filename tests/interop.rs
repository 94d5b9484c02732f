//! Interop with the reference implementation: messages built by capnarena
//! on every arena, framed by every framing function, are read by the
//! reference `capnp` tool (`capnp convert binary:text`) and must render
//! exactly as `tests/vectors/NAME.expected`, the reference's own rendering
//! of the same message.
//!
//! Needs `capnp` on PATH (Debian package `capnproto`). Without it the
//! reference tests print one SKIP line and pass, unless
//! `CAPNARENA_REQUIRE_PEER=1`, which makes them fail instead. The own-reader
//! read-back test at the end needs no peer.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use capnarena::{
    Arena, ElementSize, FixedArena, GrowthPolicy, Message, MessageReader, MultiSegmentArena,
    ReaderOptions, SingleSegmentArena, Word, words_from_bytes,
};
use common::OneWordArena;
use common::build::{all_types::*, build_named, log_entries};

/// The messages built here, from `tests/vectors/NAME.txt`.
const NAMES: [&str; 4] = ["full", "scalars", "lists", "log"];

/// The reference's stream reader rejects messages with this many segments
/// or more ("expected segmentCount < 512").
const REFERENCE_SEGMENT_LIMIT: u32 = 512;

/// Words of the buffer under `FixedArena`: the largest message (`log`)
/// takes a few thousand.
const FIXED_WORDS: usize = 1 << 15;

const SKIP: &str = "SKIP interop: capnp not on PATH (install Debian package capnproto)";

/// The reference `capnp` on PATH. When there is none: prints the SKIP line
/// and returns `None`, or panics with it when `CAPNARENA_REQUIRE_PEER=1`.
/// Every reference test starts here.
fn peer() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("capnp"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{SKIP}");
        }
        println!("{SKIP}");
    }
    found
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

fn root_type(name: &str) -> &'static str {
    if name == "log" { "Log" } else { "AllTypes" }
}

/// `capnp convert binary:text all_types.capnp ROOT` with `bytes` on stdin:
/// its stdout, or the start of its stderr when it fails.
fn reference_text(capnp: &Path, root: &str, bytes: &[u8]) -> Result<String, String> {
    let mut child = Command::new(capnp)
        .current_dir(vectors_dir())
        .args(["convert", "binary:text", "all_types.capnp", root])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running {}: {e}", capnp.display()))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Feed stdin from another thread so a large output cannot deadlock.
    let input = bytes.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    feeder
        .join()
        .expect("stdin thread")
        .map_err(|e| format!("writing to capnp: {e}"))?;
    if out.status.success() {
        String::from_utf8(out.stdout).map_err(|e| format!("capnp output is not UTF-8: {e}"))
    } else {
        // On a bad message the tool goes on to read the rest of the input
        // as more messages; the first error is the one that matters.
        let err = String::from_utf8_lossy(&out.stderr);
        let first: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("Exception description"))
            .take(2)
            .collect();
        Err(format!(
            "capnp failed ({}): {}",
            out.status,
            first.join(" | ")
        ))
    }
}

/// A line diff short enough for a panic message.
fn diff(expected: &str, got: &str) -> String {
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(g.len()) {
        let (a, b) = (e.get(i), g.get(i));
        if a != b {
            out += &format!(
                "  line {}:\n    expected {:?}\n    capnp    {:?}\n",
                i + 1,
                a.copied().unwrap_or("<none>"),
                b.copied().unwrap_or("<none>")
            );
            shown += 1;
            if shown == 8 {
                out += "  ...\n";
                break;
            }
        }
    }
    out
}

#[derive(Clone, Copy, Debug)]
enum Framing {
    /// `Message::framed_bytes`: one segment, no copy.
    FramedBytes,
    /// `Message::append_to`.
    AppendTo,
    /// `Message::write_to` into a `Vec<u8>`.
    WriteTo,
}

/// A built and framed message.
struct Built {
    bytes: Vec<u8>,
    segments: u32,
}

/// Builds vector `name` in `msg` and frames it with `framing`, checking
/// that every framing function available gives the same bytes.
fn build_framed<A: Arena>(name: &str, mut msg: Message<A>, framing: Framing) -> Built {
    build_named(name, &mut msg).unwrap_or_else(|e| panic!("building {name}: {e}"));
    let segments = msg.segment_count();
    let mut appended = Vec::new();
    msg.append_to(&mut appended);
    assert_eq!(
        appended.len(),
        msg.serialized_size(),
        "{name}: serialized_size"
    );
    let mut written = Vec::new();
    msg.write_to(&mut written)
        .unwrap_or_else(|e| panic!("{name}: write_to: {e}"));
    assert!(written == appended, "{name}: write_to and append_to differ");
    let bytes = match framing {
        Framing::FramedBytes => {
            let framed = msg
                .framed_bytes()
                .unwrap_or_else(|e| panic!("{name}: framed_bytes: {e}"))
                .to_vec();
            assert!(
                framed == appended,
                "{name}: framed_bytes and append_to differ"
            );
            framed
        }
        Framing::AppendTo => appended,
        Framing::WriteTo => written,
    };
    Built { bytes, segments }
}

fn in_single(name: &str, framing: Framing) -> Built {
    build_framed(name, Message::new(SingleSegmentArena::new()), framing)
}

fn in_multi_default(name: &str, framing: Framing) -> Built {
    build_framed(name, Message::new(MultiSegmentArena::new()), framing)
}

fn in_multi_small(name: &str, framing: Framing) -> Built {
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(3)
        .with_policy(GrowthPolicy::FixedSize(4));
    build_framed(name, Message::new(arena), framing)
}

fn in_fixed(name: &str, framing: Framing) -> Built {
    let mut buf = vec![Word::ZERO; FIXED_WORDS];
    build_framed(name, Message::new(FixedArena::new(&mut buf)), framing)
}

fn in_one_word(name: &str, framing: Framing) -> Built {
    build_framed(name, Message::new(OneWordArena::default()), framing)
}

struct ArenaCase {
    label: &'static str,
    framing: Framing,
    build: fn(&str, Framing) -> Built,
    /// Every message must come out in more than one segment.
    multi_segment: bool,
}

const SINGLE: ArenaCase = ArenaCase {
    label: "SingleSegmentArena",
    framing: Framing::FramedBytes,
    build: in_single,
    multi_segment: false,
};
const MULTI_DEFAULT: ArenaCase = ArenaCase {
    label: "MultiSegmentArena::new()",
    framing: Framing::WriteTo,
    build: in_multi_default,
    multi_segment: false,
};
const MULTI_SMALL: ArenaCase = ArenaCase {
    label: "MultiSegmentArena 4/Fixed(4)",
    framing: Framing::AppendTo,
    build: in_multi_small,
    multi_segment: true,
};
const FIXED: ArenaCase = ArenaCase {
    label: "FixedArena",
    framing: Framing::FramedBytes,
    build: in_fixed,
    multi_segment: false,
};
const ONE_WORD: ArenaCase = ArenaCase {
    label: "OneWordArena",
    framing: Framing::WriteTo,
    build: in_one_word,
    multi_segment: true,
};
const ARENAS: [ArenaCase; 5] = [SINGLE, MULTI_DEFAULT, MULTI_SMALL, FIXED, ONE_WORD];

/// Every vector built on `case`'s arena renders through the reference
/// exactly as `NAME.expected`.
fn reference_renders_as_expected(case: &ArenaCase) {
    let Some(capnp) = peer() else { return };
    let mut failures = Vec::new();
    for name in NAMES {
        let built = (case.build)(name, case.framing);
        println!(
            "{:<30} {name:<8} {:?}: {:>5} segments, {:>7} framed bytes",
            case.label,
            case.framing,
            built.segments,
            built.bytes.len()
        );
        if case.multi_segment {
            assert!(built.segments > 1, "{}: {name} is one segment", case.label);
        } else if matches!(case.framing, Framing::FramedBytes) {
            assert_eq!(built.segments, 1, "{}: {name}", case.label);
        }
        let expected = String::from_utf8(common::vector(&format!("{name}.expected"))).unwrap();
        match reference_text(&capnp, root_type(name), &built.bytes) {
            Ok(text) if text == expected => {}
            Ok(text) => failures.push(format!(
                "{} {name}: capnp's rendering differs from {name}.expected\n{}",
                case.label,
                diff(&expected, &text)
            )),
            Err(e) if built.segments >= REFERENCE_SEGMENT_LIMIT => {
                // The reference refuses 512 segments and more (as for
                // log.seg1.bin), so such a message (log on OneWordArena)
                // is checked with capnarena's own reader, against the
                // entries parsed from log.txt, instead.
                println!(
                    "{:<30} {name:<8} over the reference's segment limit ({e}); \
                     checked with capnarena's reader instead",
                    case.label
                );
                assert_eq!(name, "log", "only log is expected to be this large");
                check_log_with_own_reader(&built.bytes);
            }
            Err(e) => failures.push(format!("{} {name}: {e}", case.label)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn reference_reads_single_segment_arena() {
    reference_renders_as_expected(&SINGLE);
}

#[test]
fn reference_reads_multi_segment_arena_defaults() {
    reference_renders_as_expected(&MULTI_DEFAULT);
}

/// Four-word segments: many segments, far pointers everywhere, in the
/// standard (not packed) framing.
#[test]
fn reference_reads_multi_segment_arena_small_segments() {
    reference_renders_as_expected(&MULTI_SMALL);
}

#[test]
fn reference_reads_fixed_arena() {
    reference_renders_as_expected(&FIXED);
}

/// Every object in a segment of its own: every pointer far and double-far,
/// hundreds of segments.
#[test]
fn reference_reads_one_word_arena() {
    reference_renders_as_expected(&ONE_WORD);
}

fn read_options() -> ReaderOptions {
    // log on OneWordArena has thousands of segments.
    ReaderOptions::default().segment_limit(u32::MAX)
}

/// Every entry of the framed `log` message equals the one parsed from
/// log.txt.
fn check_log_with_own_reader(bytes: &[u8]) {
    let words = words_from_bytes(bytes).unwrap();
    let reader = MessageReader::from_words(&words, read_options()).unwrap();
    let list = reader
        .root()
        .unwrap()
        .get_list(0, ElementSize::InlineComposite)
        .unwrap();
    let want = log_entries();
    assert_eq!(list.len() as usize, want.len(), "log: entry count");
    for (i, w) in want.iter().enumerate() {
        let e = list.get_struct(i as u32);
        let tags = e.get_list(1, ElementSize::Pointer).unwrap();
        let tags: Vec<&str> = (0..tags.len()).map(|j| tags.get_text(j).unwrap()).collect();
        assert_eq!(
            (
                e.get::<u64>(0),
                e.get::<u8>(8),
                e.get_text(0).unwrap(),
                tags
            ),
            (
                w.timestamp,
                w.level,
                w.message.as_str(),
                w.tags.iter().map(String::as_str).collect()
            ),
            "log: entry {i}"
        );
    }
}

/// A message built on each arena reads back through capnarena's own
/// reader from its framed bytes, with the values it was built with (spot
/// fields; the field-by-field check of the vectors is elsewhere).
#[test]
fn own_reader_reads_back_spot_fields() {
    for case in &ARENAS {
        for name in NAMES {
            let built = (case.build)(name, Framing::AppendTo);
            let words = words_from_bytes(&built.bytes).unwrap();
            let reader = MessageReader::from_words(&words, read_options())
                .unwrap_or_else(|e| panic!("{} {name}: {e}", case.label));
            assert_eq!(reader.segment_count(), built.segments);
            let root = reader.root().unwrap();
            let at = format!("{} {name}", case.label);
            match name {
                "full" => {
                    assert_eq!(root.get::<i32>(INT32_FIELD), -123456, "{at}");
                    assert_eq!(root.get_text(TEXT_FIELD).unwrap(), "hello, capnarena");
                    assert_eq!(root.get_data(DATA_FIELD).unwrap(), b"\x00\x01\x02\xfe\xff");
                    let nested = root.get_struct(STRUCT_FIELD).unwrap();
                    assert_eq!(nested.get_text(TEXT_FIELD).unwrap(), "nested", "{at}");
                    let deep = nested.get_struct(STRUCT_FIELD).unwrap();
                    assert_eq!(deep.get::<u8>(UINT8_FIELD), 9, "{at}");
                    let lol = root.get_list(LIST_OF_LISTS, ElementSize::Pointer).unwrap();
                    let last = lol.get_list(3, ElementSize::FourBytes).unwrap();
                    assert_eq!((last.len(), last.get::<i32>(1)), (2, 6), "{at}");
                    let labeled = root
                        .get_list(STRUCT_LIST, ElementSize::InlineComposite)
                        .unwrap();
                    let first = labeled.get_struct(0);
                    assert_eq!(first.get_struct(1).unwrap().get::<i32>(1), 2, "{at}");
                    assert_eq!(root.get::<u16>(CHOICE_TAG), CHOICE_NAME_TAG, "{at}");
                    assert_eq!(root.get_text(CHOICE_PTR).unwrap(), "union text", "{at}");
                }
                "scalars" => {
                    assert_eq!(root.get::<u64>(UINT64_FIELD), u64::MAX, "{at}");
                    assert_eq!(root.get::<f64>(FLOAT64_FIELD), -2.25e300, "{at}");
                    assert_eq!(root.get::<u32>(CHOICE_COUNT), 123456, "{at}");
                    assert_eq!(root.get_text(GROUP_B).unwrap(), "grouped", "{at}");
                }
                "lists" => {
                    let bits = root.get_list(BOOL_LIST, ElementSize::Bit).unwrap();
                    assert_eq!(bits.len(), 67, "{at}");
                    assert!(bits.get_bool(64) && !bits.get_bool(65) && bits.get_bool(66));
                    let labeled = root
                        .get_list(STRUCT_LIST, ElementSize::InlineComposite)
                        .unwrap();
                    assert_eq!(labeled.len(), 4, "{at}");
                    let texts = root.get_list(TEXT_LIST, ElementSize::Pointer).unwrap();
                    assert_eq!((texts.len(), texts.get_text(2).unwrap()), (3, ""), "{at}");
                    let point = root.get_struct(CHOICE_PTR).unwrap();
                    assert_eq!((point.get::<i32>(0), point.get::<i32>(1)), (10, 20));
                }
                "log" => check_log_with_own_reader(&built.bytes),
                _ => unreachable!(),
            }
        }
    }
}
