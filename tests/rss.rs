//! Resident memory of stream reads (issue 12, finding 5): a segment table
//! that declares 64 MiB costs memory in proportion to the bytes that
//! arrive, not to the declaration. `main` allocated and zero-filled the
//! declared 64 MiB before the first body byte (peak resident set 66-68 MB,
//! then `Truncated`).
//!
//! Linux only: the peak resident set is read from `/proc/self/status`
//! (`VmHWM`), reset before each read through `/proc/self/clear_refs`. This
//! file is its own test binary with one test, so nothing else runs in the
//! process while it measures.

#![cfg(target_os = "linux")]

use capnarena::{Arena, Error, Message, MultiSegmentArena, ReaderOptions, SingleSegmentArena};

/// A line of `/proc/self/status`, in bytes.
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("bad line {line:?}"));
    kb * 1024
}

/// Runs `f` and returns how far the peak resident set rose above the
/// resident set before it.
fn peak_rise(f: impl FnOnce()) -> u64 {
    // "5" resets the peak (VmHWM) to the current resident set.
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak resident set");
    let before = status_bytes("VmRSS:");
    f();
    status_bytes("VmHWM:").saturating_sub(before)
}

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

/// The scenarios: what each reads, into which arena, and the bytes it
/// receives.
fn scenario(index: usize) -> Option<(String, Vec<u8>, bool, bool)> {
    const MI_WORDS: u32 = 1 << 20;
    let sent = [0usize, 1024, 1 << 20];
    match index {
        0..=5 => {
            let body = sent[index / 2];
            let multi = index % 2 == 1;
            let name = if multi { "multi" } else { "single" };
            let what = format!("read_from, {name} arena, 64 MiB declared, {body} body bytes");
            Some((what, stream(1, 8 * MI_WORDS, body), multi, false))
        }
        6 => {
            let table = stream(512, 16 * 1024, 1024);
            assert_eq!(table.len(), 8 * 257 + 1024);
            let what = "read_from, multi arena, 512 segments of 16 Ki words, 1 KiB body";
            Some((what.into(), table, true, false))
        }
        7 => {
            let what = "read_packed_from_bytes, single arena, packed 40 80";
            Some((what.into(), vec![0x40, 0x80], false, true))
        }
        _ => None,
    }
}

/// Bytes a scenario's input gives the reader: the packed input unpacks to
/// its 8-byte table.
fn received(input: &[u8], packed: bool) -> u64 {
    if packed { 8 } else { input.len() as u64 }
}

/// Runs scenario `index` here and returns the rise of the peak resident
/// set.
fn run(index: usize) -> u64 {
    let (what, input, multi, packed) = scenario(index).expect("a scenario");
    let options = ReaderOptions::default();
    fn read<A: Arena>(arena: A, input: &[u8], packed: bool, options: ReaderOptions) -> u64 {
        let mut msg = Message::new(arena);
        let mut result = None;
        let rise = peak_rise(|| {
            let r = if packed {
                msg.read_packed_from_bytes(input, options).map(|_| ())
            } else {
                msg.read_from(input, options).map(|_| ())
            };
            result = Some(r);
        });
        match result {
            Some(Err(Error::Truncated { .. })) => rise,
            other => panic!("expected Truncated, got {other:?}"),
        }
    }
    let rise = if multi {
        read(MultiSegmentArena::new(), &input, packed, options)
    } else {
        read(SingleSegmentArena::new(), &input, packed, options)
    };
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
/// read by `read_packed_from_bytes`. Each read ends in `Truncated` with
/// the peak resident set at most four times the bytes received plus
/// 1 MiB (the first 64 KiB of a segment are taken before its bytes
/// arrive). Each runs in a fresh process (this binary again, running
/// [`rss_child`]), so memory freed by one cannot hide what the next takes.
#[test]
fn declared_64_mib_costs_memory_by_bytes_received() {
    let exe = std::env::current_exe().expect("the test binary");
    let mut index = 0;
    while let Some((what, input, _, packed)) = scenario(index) {
        let out = std::process::Command::new(&exe)
            .args([
                "--exact",
                "rss_child",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("RSS_SCENARIO", index.to_string())
            .output()
            .expect("run the child");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{what}: child failed: {stdout}");
        let rise: u64 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("RISE "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{what}: no RISE line in {stdout}"));
        let received = received(&input, packed);
        println!("{what}: {received} bytes received, peak resident set +{rise} bytes");
        assert!(
            rise <= allowed(received),
            "{what}: peak resident set rose {rise} bytes for {received} bytes received (allowed {})",
            allowed(received)
        );
        index += 1;
    }
    assert_eq!(index, 8);
}
