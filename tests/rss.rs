//! Resident memory of stream reads (issue 12, finding 5; issue 21 for the
//! async readers and the packed codec): a segment table
//! that declares 64 MiB costs memory in proportion to the bytes that
//! arrive, not to the declaration. `main` allocated and zero-filled the
//! declared 64 MiB before the first body byte (peak resident set 66-68 MB,
//! then `Truncated`).
//!
//! Linux only: the peak resident set is read from `/proc/self/status`
//! (`VmHWM`), reset before each read (`tests/common/rss.rs`). Each
//! scenario runs in a child process of its own.

#![cfg(target_os = "linux")]

#[path = "common/rss.rs"]
mod probe;

use capnarena::{Arena, Error, Message, MultiSegmentArena, ReaderOptions, SingleSegmentArena};
use probe::{child_number, peak_rise, run_child};

/// A framed stream that declares `segments` segments of `words_each`
/// words, followed by `sent` body bytes of 0x5a.
fn stream(segments: u32, words_each: u32, sent: usize) -> Vec<u8> {
    let mut out = (segments - 1).to_le_bytes().to_vec();
    for _ in 0..segments {
        out.extend_from_slice(&words_each.to_le_bytes());
    }
    if segments % 2 == 0 {
        out.extend_from_slice(&[0; 4]);
    }
    out.extend(std::iter::repeat_n(0x5a, sent));
    out
}

/// The most memory a read may take for `received` bytes: four times them
/// (a growing segment doubles, and moves once in a while) and 1 MiB.
fn allowed(received: u64) -> u64 {
    4 * received + (1 << 20)
}

/// How a scenario reads its input.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// `Message::read_from`.
    ReadFrom,
    /// `Message::read_packed_from_bytes`.
    PackedBytes,
    /// `tokio_io::read_message` / `read_packed_message` (`packed`).
    #[cfg(all(feature = "tokio", feature = "futures-io"))]
    Tokio { packed: bool },
    /// `futures_io::read_message` / `read_packed_message` (`packed`).
    #[cfg(all(feature = "tokio", feature = "futures-io"))]
    FuturesIo { packed: bool },
    /// `PackedCodec::decode`, then `decode_eof`.
    #[cfg(all(feature = "tokio", feature = "futures-io"))]
    PackedCodec,
}

impl Path {
    fn packed(self) -> bool {
        match self {
            Path::ReadFrom => false,
            Path::PackedBytes => true,
            #[cfg(all(feature = "tokio", feature = "futures-io"))]
            Path::Tokio { packed } | Path::FuturesIo { packed } => packed,
            #[cfg(all(feature = "tokio", feature = "futures-io"))]
            Path::PackedCodec => true,
        }
    }
}

/// The packed bytes `40 80`: a table of one segment of 8 Mi words, and
/// no body.
const PACKED_64_MIB: [u8; 2] = [0x40, 0x80];

/// The scenarios: what each reads, into which arena (multi-segment or
/// not), and the bytes it receives.
fn scenario(index: usize) -> Option<(String, Vec<u8>, bool, Path)> {
    const MI_WORDS: u32 = 1 << 20;
    let sent = [0usize, 1024, 1 << 20];
    match index {
        0..=5 => {
            let body = sent[index / 2];
            let multi = index % 2 == 1;
            let name = if multi { "multi" } else { "single" };
            let what = format!("read_from, {name} arena, 64 MiB declared, {body} body bytes");
            Some((what, stream(1, 8 * MI_WORDS, body), multi, Path::ReadFrom))
        }
        6 => {
            let table = stream(512, 16 * 1024, 1024);
            assert_eq!(table.len(), 8 * 257 + 1024);
            let what = "read_from, multi arena, 512 segments of 16 Ki words, 1 KiB body";
            Some((what.into(), table, true, Path::ReadFrom))
        }
        7 => {
            let what = "read_packed_from_bytes, single arena, packed 40 80";
            Some((
                what.into(),
                PACKED_64_MIB.to_vec(),
                false,
                Path::PackedBytes,
            ))
        }
        #[cfg(all(feature = "tokio", feature = "futures-io"))]
        8..=11 => {
            // Issue 21: the async readers allocated the declared body
            // before reading it.
            let multi = index % 2 == 1;
            let (path, name) = if index < 10 {
                (Path::Tokio { packed: false }, "tokio_io")
            } else {
                (Path::FuturesIo { packed: false }, "futures_io")
            };
            let arena = if multi { "multi" } else { "single" };
            let what = format!("{name}::read_message, {arena} arena, 64 MiB declared, 1 KiB body");
            Some((what, stream(1, 8 * MI_WORDS, 1024), multi, path))
        }
        #[cfg(all(feature = "tokio", feature = "futures-io"))]
        12 | 13 => {
            let (path, name) = if index == 12 {
                (Path::Tokio { packed: true }, "tokio_io")
            } else {
                (Path::FuturesIo { packed: true }, "futures_io")
            };
            let what = format!("{name}::read_packed_message, packed 40 80");
            Some((what, PACKED_64_MIB.to_vec(), false, path))
        }
        #[cfg(all(feature = "tokio", feature = "futures-io"))]
        14 => {
            // Issue 21: the packed codec zero-filled the declared frame
            // when the 2-byte prefix arrived.
            let what = "PackedCodec::decode, packed 40 80";
            Some((
                what.into(),
                PACKED_64_MIB.to_vec(),
                false,
                Path::PackedCodec,
            ))
        }
        _ => None,
    }
}

/// Scenarios in this build: 8, and 7 more with features `tokio` and
/// `futures-io`.
const SCENARIOS: usize = if cfg!(all(feature = "tokio", feature = "futures-io")) {
    15
} else {
    8
};

/// Bytes a scenario's input gives the reader: the packed input unpacks to
/// its 8-byte table.
fn received(input: &[u8], packed: bool) -> u64 {
    if packed { 8 } else { input.len() as u64 }
}

/// Reads `input` by `path` into a message over `arena`.
fn read<A: Arena>(arena: A, input: &[u8], path: Path, options: ReaderOptions) -> Result<(), Error> {
    let mut msg = Message::new(arena);
    match path {
        Path::ReadFrom => msg.read_from(input, options).map(|_| ()),
        Path::PackedBytes => msg.read_packed_from_bytes(input, options).map(|_| ()),
        #[cfg(all(feature = "tokio", feature = "futures-io"))]
        Path::Tokio { packed } => {
            use capnarena::serialize::tokio_io;
            futures::executor::block_on(async {
                if packed {
                    tokio_io::read_packed_message(&mut msg, input, options).await?;
                } else {
                    tokio_io::read_message(&mut msg, input, options).await?;
                }
                Ok(())
            })
        }
        #[cfg(all(feature = "tokio", feature = "futures-io"))]
        Path::FuturesIo { packed } => {
            use capnarena::serialize::futures_io;
            futures::executor::block_on(async {
                if packed {
                    futures_io::read_packed_message(&mut msg, input, options).await?;
                } else {
                    futures_io::read_message(&mut msg, input, options).await?;
                }
                Ok(())
            })
        }
        #[cfg(all(feature = "tokio", feature = "futures-io"))]
        Path::PackedCodec => {
            use tokio_util::codec::Decoder;
            let mut codec = capnarena::serialize::codec::PackedCodec::with_options(options);
            let mut buf = bytes::BytesMut::from(input);
            assert!(codec.decode(&mut buf)?.is_none());
            codec.decode_eof(&mut buf).map(|_| ())
        }
    }
}

/// Runs scenario `index` here and returns the rise of the peak resident
/// set.
fn run(index: usize) -> u64 {
    let (what, input, multi, path) = scenario(index).expect("a scenario");
    let options = ReaderOptions::default();
    let mut result = None;
    let rise = peak_rise(|| {
        result = Some(if multi {
            read(MultiSegmentArena::new(), &input, path, options)
        } else {
            read(SingleSegmentArena::new(), &input, path, options)
        });
    });
    match result {
        Some(Err(Error::Truncated { .. })) => {}
        other => panic!("{what}: expected Truncated, got {other:?}"),
    }
    println!("{what}: peak resident set +{rise} bytes");
    rise
}

/// Not a test of its own: the process [`declared_64_mib_costs_memory_by_
/// bytes_received`] starts for each scenario (named by `RSS_SCENARIO`),
/// so each is measured in a fresh process. Prints `RISE <bytes>`.
#[test]
#[ignore = "run by declared_64_mib_costs_memory_by_bytes_received in a child process"]
fn rss_child() {
    let index: usize = std::env::var("RSS_SCENARIO")
        .expect("RSS_SCENARIO")
        .parse()
        .expect("a scenario number");
    println!("RISE {}", run(index));
}

/// Streams declaring 64 MiB (one segment of 8 Mi words, the default
/// traversal limit), cut after 0 body bytes, 1 KiB and 1 MiB, read by
/// `read_from` into a single- and a multi-segment arena; a 2 KiB table of
/// 512 segments of 16 Ki words (64 MiB again) with 1 KiB of body; and the
/// two packed bytes `40 80` (a table of one 8 Mi-word segment, no body)
/// read by `read_packed_from_bytes`. With features `tokio` and
/// `futures-io` (issue 21), the same through the async readers of both
/// families (`read_message` with 1 KiB of body into both arenas,
/// `read_packed_message` of `40 80`) and `PackedCodec::decode` of `40 80`;
/// `main` allocated, or zero-filled, the declared 64 MiB there. Each read
/// ends in `Truncated` with
/// the peak resident set at most four times the bytes received plus
/// 1 MiB (the first 64 KiB of a segment are taken before its bytes
/// arrive). Each runs in a fresh process (this binary again, running
/// [`rss_child`]), so memory freed by one cannot hide what the next takes.
#[test]
fn declared_64_mib_costs_memory_by_bytes_received() {
    let mut index = 0;
    let mut over = Vec::new();
    while let Some((what, input, _, path)) = scenario(index) {
        let out = run_child("rss_child", &[("RSS_SCENARIO", index.to_string())], None);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{what}: child failed: {stdout}");
        let rise = child_number(&out, "RISE ")
            .unwrap_or_else(|| panic!("{what}: no RISE line in {stdout}"));
        let received = received(&input, path.packed());
        println!("{what}: {received} bytes received, peak resident set +{rise} bytes");
        if rise > allowed(received) {
            over.push(format!(
                "{what}: peak resident set rose {rise} bytes for {received} bytes received (allowed {})",
                allowed(received)
            ));
        }
        index += 1;
    }
    assert_eq!(index, SCENARIOS);
    assert!(over.is_empty(), "{}", over.join("\n"));
}
