//! Untrusted bytes as packed input to every packed codec function, checked
//! against a model unpacker written from the spec in this file (byte by
//! byte, item by item, obviously right and slow).
//!
//! Six control bytes come first, then the packed input. Properties:
//! - `unpacked_len` gives the model's word count, or its fault (same
//!   offset, same numbers).
//! - `unpack` into an output of a fuzzer-chosen size gives the model's
//!   words when they fit. When they do not, it fails with `OutputFull` at
//!   the tag of the first item that does not fit; never a silent
//!   truncation. On input that ends inside an item, it gives the model's
//!   fault, or `OutputFull` at that item when the output is too short to
//!   tell which comes first.
//! - The resumable `Unpacker`, fed the same input and output in pieces of
//!   fuzzer-chosen sizes, writes only the model's bytes, and reaches the
//!   same verdict as `unpack`. Between items (`is_at_item_boundary`) the
//!   input it consumed unpacks to exactly the output it wrote.
//! - `PackedReader` over a reader that returns short chunks and
//!   `Interrupted` errors yields the model's bytes, then the end; on input
//!   that ends inside an item it yields only right bytes (a prefix of the
//!   model's) and then `UnexpectedEof` wrapping the model's fault.
//! - `unpack_to_vec` appends the model's words, or refuses with the
//!   fault or with `OutputLimit` (exact numbers) before allocating.
//! - For input that unpacks: `packed_len` is what `pack` writes, within
//!   `max_packed_len`; unpacking the packed words gives them back; `pack`
//!   into a short buffer reports the exact length needed; `pack_prefix`
//!   into a fuzzer-chosen buffer, resumed, gives `pack`'s bytes;
//!   `pack_to_vec` appends them; `PackedWriter` gives them for one write,
//!   and for writes in pieces packs each piece on its own (as documented),
//!   reporting bytes that do not make a whole word with `PartialWord`.
#![no_main]

use std::io::{ErrorKind, Read, Write};

use capnarena::serialize::packed::{
    MAX_ITEM_LEN, PackedReader, PackedWriter, Unpacker, max_packed_len, pack, pack_prefix,
    pack_to_vec, packed_len, unpack, unpack_to_vec, unpacked_len,
};
use capnarena::{Error, PackedFault, Word};
use libfuzzer_sys::fuzz_target;

/// Output the model materializes at most, in bytes (64 Ki words): larger
/// outputs (a few zero-run tags are enough) are only counted, and the
/// execution stops after the length checks, to keep it fast.
const MAX_BYTES: usize = 8 << 16;

/// Calls to the `Unpacker` (and reads from the `PackedReader`) that the
/// output piece size allows at most: larger outputs get larger pieces.
const MAX_CALLS: usize = 4096;

/// What the spec says packed input means.
struct Model {
    /// The bytes it unpacks to: those of every whole item, then, when the
    /// input ends inside a literal run, that item's word and the literal
    /// bytes that are there. Empty when `too_big`.
    bytes: Vec<u8>,
    /// Words of the whole items.
    words: u64,
    /// Each whole item: (tag offset, first output word, words).
    items: Vec<(u64, u64, u64)>,
    /// Where and why the input ends inside an item.
    fault: Option<(u64, PackedFault)>,
    /// The output is longer than `MAX_BYTES`.
    too_big: bool,
}

impl Model {
    fn push(&mut self, bytes: &[u8]) {
        if self.bytes.len() + bytes.len() > MAX_BYTES {
            self.too_big = true;
        }
        if !self.too_big {
            self.bytes.extend_from_slice(bytes);
        }
    }
}

/// The model unpacker: a tag byte; bytes after it as the tag says (one per
/// set bit, which go to the word's bytes at the set bits; for `0x00` a
/// count of further zero words; for `0xff` the 8 bytes of the word, then a
/// count of words copied as they are).
fn model(p: &[u8]) -> Model {
    let mut m = Model {
        bytes: Vec::new(),
        words: 0,
        items: Vec::new(),
        fault: None,
        too_big: false,
    };
    let mut i = 0;
    while i < p.len() {
        let tag = p[i];
        let after = &p[i + 1..];
        let need = match tag {
            0x00 => 1,
            0xff => 9,
            t => t.count_ones() as usize,
        };
        if after.len() < need {
            m.fault = Some((
                i as u64,
                PackedFault::TagPastEnd {
                    tag,
                    needed: need as u8,
                    available: after.len() as u8,
                },
            ));
            break;
        }
        let (words, len) = match tag {
            0x00 => {
                let words = 1 + u64::from(after[0]);
                for _ in 0..words {
                    m.push(&[0; 8]);
                }
                (words, 2)
            }
            0xff => {
                let run = after[8];
                let literal = &after[9..];
                let run_bytes = 8 * usize::from(run);
                if literal.len() < run_bytes {
                    m.push(&after[..8]);
                    m.push(literal);
                    m.fault = Some((
                        i as u64,
                        PackedFault::LiteralRunPastEnd {
                            words: run,
                            available: literal.len() as u64,
                        },
                    ));
                    break;
                }
                m.push(&after[..8]);
                m.push(&literal[..run_bytes]);
                (1 + u64::from(run), 10 + run_bytes)
            }
            t => {
                let mut word = [0u8; 8];
                let mut next = after.iter();
                for (bit, b) in word.iter_mut().enumerate() {
                    if t & (1 << bit) != 0 {
                        *b = *next.next().expect("need counts the set bits");
                    }
                }
                m.push(&word);
                (1, 1 + need)
            }
        };
        m.items.push((i as u64, m.words, words));
        m.words += words;
        i += len;
    }
    m
}

/// What `unpack` into `cap` words may return, by the model: the words, or
/// one of the acceptable (offset, fault) pairs.
fn unpack_outcomes(m: &Model, cap: u64) -> Result<u64, Vec<(u64, PackedFault)>> {
    let full = PackedFault::OutputFull {
        capacity_bytes: 8 * cap,
    };
    // The first whole item that does not fit.
    if let Some(&(at, _, _)) = m.items.iter().find(|&&(_, first, n)| first + n > cap) {
        return Err(vec![(at, full)]);
    }
    match m.fault {
        None => Ok(m.words),
        // The cut item unpacks to at most 256 words: past that room, only
        // the fault fits what happened; with less, the output may run out
        // first.
        Some(fault) if cap >= m.words + 256 => Err(vec![fault]),
        Some(fault) => Err(vec![fault, (fault.0, full)]),
    }
}

fn packed_error(e: &Error) -> (u64, PackedFault) {
    match e {
        Error::Packed { offset, fault } => (*offset, *fault),
        other => panic!("expected Error::Packed, got {other:?}"),
    }
}

/// Serves `data` in chunks of at most `chunk` bytes, failing with
/// `Interrupted` on every `interrupt`-th read (0: never; never 1, which
/// would fail every read, and callers rightly retry forever).
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
    interrupt: usize,
    reads: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.reads += 1;
        if self.interrupt != 0 && self.reads % self.interrupt == 0 {
            return Err(ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.chunk).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn words_of(bytes: &[u8]) -> Vec<Word> {
    bytes
        .chunks_exact(8)
        .map(|c| Word(c.try_into().expect("8 bytes")))
        .collect()
}

/// A piece size from a control byte: 1 to 32 bytes, or 37 times that,
/// but at least `total / MAX_CALLS`.
fn piece(c: u8, total: usize) -> usize {
    let small = usize::from(c & 0x1f) + 1;
    let size = if c & 0x20 != 0 { 37 * small } else { small };
    size.max(total / MAX_CALLS)
}

fuzz_target!(|input: &[u8]| {
    let Some((&ctl, packed)) = input.split_first_chunk::<6>() else {
        return;
    };
    let m = model(packed);

    // unpacked_len: the model's count or fault.
    match (unpacked_len(packed), m.fault) {
        (Ok(n), None) => assert_eq!(n, m.words, "unpacked_len"),
        (Err(e), Some(fault)) => assert_eq!(packed_error(&e), fault, "unpacked_len fault"),
        (got, want) => panic!("unpacked_len: {got:?}, model fault {want:?}"),
    }

    // unpack into a fuzzer-chosen number of words.
    let delta = i64::from(ctl[2] & 0x0f) - 8;
    let base = match ctl[2] >> 5 {
        0..=3 => m.words,
        4 => m.words + 256,
        5 => m.words / 2,
        6 => m.words / 4,
        _ => 0,
    };
    let cap = base.saturating_add_signed(delta).min(MAX_BYTES as u64 / 8);
    let mut out = vec![Word(*b"garbage!"); cap as usize];
    let got = unpack(packed, &mut out);
    match (&got, unpack_outcomes(&m, cap)) {
        (Ok(n), Ok(want)) => {
            assert_eq!(*n as u64, want, "unpack word count");
            assert!(
                Word::slice_as_bytes(&out[..*n]) == &m.bytes[..8 * n],
                "unpack output differs from the model"
            );
        }
        (Err(e), Err(allowed)) => {
            let f = packed_error(e);
            assert!(
                allowed.contains(&f),
                "unpack: {f:?}, expected one of {allowed:?}"
            );
        }
        (got, want) => panic!("unpack into {cap} words: {got:?}, model {want:?}"),
    }
    if m.too_big {
        return;
    }

    // The Unpacker, input and output in pieces, into the same room.
    let out_bytes = 8 * cap as usize;
    let in_piece = piece(ctl[0], 0);
    let out_piece = piece(ctl[1], out_bytes);
    let mut out = vec![0xa5u8; out_bytes];
    let mut u = Unpacker::new();
    let (mut i, mut o) = (0, 0);
    let mut calls = 0;
    loop {
        let in_end = (i + in_piece).min(packed.len());
        let out_end = (o + out_piece).min(out.len());
        let p = u.unpack(&packed[i..in_end], &mut out[o..out_end]);
        assert!(p.consumed <= in_end - i && p.written <= out_end - o);
        i += p.consumed;
        o += p.written;
        calls += 1;
        if p.consumed == 0 && p.written == 0 {
            // No progress with room on both sides would never end.
            assert!(
                i == packed.len() || o == out.len(),
                "Unpacker stuck at input {i}, output {o}"
            );
            break;
        }
        assert!(calls <= packed.len() + out.len() + 1, "Unpacker loops");
    }
    assert_eq!((u.consumed(), u.written()), (i as u64, o as u64));
    assert!(
        out[..o] == m.bytes[..o],
        "Unpacker wrote bytes the model does not"
    );
    match &got {
        Ok(n) => {
            assert_eq!((i, o, u.pending_output()), (packed.len(), 8 * n, 0));
            assert!(u.finish().is_ok() && u.is_at_item_boundary());
        }
        Err(e) if matches!(packed_error(e).1, PackedFault::OutputFull { .. }) => {
            // Stopped by the output: input or output is still owed.
            assert!(
                i < packed.len() || u.pending_output() > 0,
                "Unpacker done, unpack full"
            );
            assert_eq!(o, out.len(), "output full, yet room left");
        }
        Err(e) => {
            assert_eq!((i, u.pending_output()), (packed.len(), 0));
            let f = u.finish().expect_err("input ends inside an item");
            assert_eq!(packed_error(&f), packed_error(e), "Unpacker::finish fault");
        }
    }
    if u.is_at_item_boundary() {
        // Between items: the input consumed is whole items, all written.
        assert_eq!(u.pending_output(), 0);
        assert_eq!(o % 8, 0);
        assert_eq!(
            unpacked_len(&packed[..i]).ok(),
            Some(o as u64 / 8),
            "consumed input is not the items written"
        );
    }

    // PackedReader over a chunked, interrupted reader.
    let mut r = PackedReader::with_capacity(
        16 + usize::from(ctl[3] >> 2),
        Chunked {
            data: packed,
            chunk: usize::from(ctl[3] & 0x1f) + 1,
            interrupt: match ctl[3] >> 6 {
                0 => 0,
                n => usize::from(n) + 1,
            },
            reads: 0,
        },
    );
    let mut buf = vec![0u8; piece(ctl[1], m.bytes.len())];
    let mut yielded = Vec::new();
    let end = loop {
        match r.read(&mut buf) {
            Ok(0) => break Ok(()),
            Ok(n) => {
                assert!(n <= buf.len());
                yielded.extend_from_slice(&buf[..n]);
                assert!(
                    yielded.len() <= m.bytes.len(),
                    "PackedReader yields more than the input holds"
                );
            }
            Err(e) => break Err(e),
        }
    };
    assert!(
        yielded == m.bytes[..yielded.len()],
        "PackedReader yields bytes the model does not"
    );
    match (end, m.fault) {
        (Ok(()), None) => assert_eq!(yielded.len(), m.bytes.len(), "PackedReader ends early"),
        (Err(e), Some(fault)) => {
            assert_eq!(e.kind(), ErrorKind::UnexpectedEof, "{e:?}");
            let inner = e
                .get_ref()
                .and_then(|i| i.downcast_ref::<Error>())
                .unwrap_or_else(|| panic!("PackedReader error wraps no capnarena::Error: {e:?}"));
            assert_eq!(packed_error(inner), fault, "PackedReader fault");
        }
        (end, fault) => panic!("PackedReader: {end:?}, model fault {fault:?}"),
    }

    // unpack_to_vec with a limit around the word count.
    let limit = m.words.saturating_add_signed(i64::from(ctl[5] & 3) - 2);
    let mut v = vec![Word::from_u64(7)];
    match (unpack_to_vec(packed, &mut v, limit), m.fault) {
        (Err(e), Some(fault)) => assert_eq!(packed_error(&e), fault),
        (Err(e), None) => {
            assert_eq!(
                packed_error(&e),
                (
                    0,
                    PackedFault::OutputLimit {
                        words: m.words,
                        limit_words: limit
                    }
                )
            );
            assert_eq!(v.len(), 1);
        }
        (Ok(n), None) => {
            assert_eq!(n as u64, m.words);
            assert!(v[0] == Word::from_u64(7) && Word::slice_as_bytes(&v[1..]) == m.bytes);
        }
        (Ok(n), Some(fault)) => panic!("unpack_to_vec: {n} words, model fault {fault:?}"),
    }

    if m.fault.is_some() {
        return;
    }

    // Pack the words back.
    let words = words_of(&m.bytes);
    let len = packed_len(&words);
    assert!(len <= max_packed_len(words.len()), "max_packed_len");
    let mut whole = vec![0u8; max_packed_len(words.len())];
    let n = pack(&words, &mut whole).expect("max_packed_len is enough");
    assert_eq!(n, len, "packed_len differs from what pack writes");
    whole.truncate(n);
    assert_eq!(unpacked_len(&whole).ok(), Some(words.len() as u64));
    let mut back = vec![Word(*b"garbage!"); words.len()];
    assert_eq!(unpack(&whole, &mut back).ok(), Some(words.len()));
    assert!(back == words, "unpack(pack(words)) != words");

    // Too short a buffer: the exact length needed.
    if len > 0 {
        let short = usize::from(ctl[4]) % len;
        match pack(&words, &mut vec![0u8; short]) {
            Err(Error::BufferTooSmall { needed, available }) => {
                assert_eq!((needed, available), (len as u64, short as u64));
            }
            other => panic!("pack into {short} of {len} bytes: {other:?}"),
        }
    }

    // pack_prefix into a fuzzer-chosen buffer, resumed. A buffer shorter
    // than MAX_ITEM_LEN may not take the next item; a MAX_ITEM_LEN one
    // then packs it.
    let size = if ctl[4] & 0x80 != 0 {
        MAX_ITEM_LEN + 17 * usize::from(ctl[4] & 0x7f)
    } else {
        usize::from(ctl[4]) + 1
    };
    let mut buf = vec![0u8; size];
    let mut big = vec![0u8; MAX_ITEM_LEN];
    let mut resumed = Vec::new();
    let mut rest = &words[..];
    while !rest.is_empty() {
        let mut p = pack_prefix(rest, &mut buf);
        assert!(p.bytes <= buf.len());
        let mut from = &buf;
        if p.words == 0 {
            assert_eq!(p.bytes, 0, "pack_prefix wrote a part of an item");
            assert!(
                size < MAX_ITEM_LEN,
                "pack_prefix took nothing into {size} bytes"
            );
            p = pack_prefix(rest, &mut big);
            assert!(
                p.words > 0,
                "pack_prefix took nothing into MAX_ITEM_LEN bytes"
            );
            from = &big;
        }
        resumed.extend_from_slice(&from[..p.bytes]);
        rest = &rest[p.words..];
    }
    assert!(resumed == whole, "pack_prefix resumed differs from pack");

    let mut appended = vec![0x5a; 3];
    pack_to_vec(&words, &mut appended);
    assert!(
        appended[..3] == [0x5a; 3] && appended[3..] == whole,
        "pack_to_vec"
    );

    // PackedWriter: one write packs like pack.
    let wcap = usize::from(ctl[5] >> 2) * 97;
    let mut sink = Vec::new();
    let mut w = PackedWriter::with_capacity(wcap, &mut sink);
    w.write_all(&m.bytes).expect("writing to a Vec");
    w.finish().expect("whole words");
    assert!(sink == whole, "PackedWriter, one write, differs from pack");

    // PackedWriter in pieces, and a tail of `tail` bytes that is no word:
    // each write's whole words are packed on their own, a word split
    // between writes alone.
    let wpiece = piece(ctl[0], m.bytes.len());
    let tail = usize::from(ctl[5] & 7);
    let mut plain = m.bytes.clone();
    plain.extend(std::iter::repeat_n(0x33, tail));
    let mut want = Vec::new();
    let mut partial: Vec<u8> = Vec::new();
    for chunk in plain.chunks(wpiece) {
        let mut chunk = chunk;
        if !partial.is_empty() {
            let k = (8 - partial.len()).min(chunk.len());
            partial.extend_from_slice(&chunk[..k]);
            chunk = &chunk[k..];
            if partial.len() < 8 {
                continue;
            }
            pack_to_vec(&words_of(&partial), &mut want);
            partial.clear();
        }
        let whole_len = chunk.len() / 8 * 8;
        pack_to_vec(&words_of(&chunk[..whole_len]), &mut want);
        partial.extend_from_slice(&chunk[whole_len..]);
    }
    let mut sink = Vec::new();
    let mut w = PackedWriter::with_capacity(wcap, &mut sink);
    for chunk in plain.chunks(wpiece) {
        assert_eq!(
            w.write(chunk).ok(),
            Some(chunk.len()),
            "PackedWriter::write"
        );
    }
    match (w.finish(), tail) {
        (Ok(_), 0) => {}
        (Err(Error::PartialWord { bytes }), t) if t > 0 => assert_eq!(usize::from(bytes), t),
        (got, t) => panic!("PackedWriter::finish with {t} extra bytes: {got:?}"),
    }
    assert!(sink == want, "PackedWriter in pieces of {wpiece}");
    let mut back = vec![Word::ZERO; words.len()];
    assert_eq!(unpack(&sink, &mut back).ok(), Some(words.len()));
    assert!(back == words, "PackedWriter output unpacks differently");
});
