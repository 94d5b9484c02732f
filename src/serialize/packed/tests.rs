//! Unit tests of the packing algorithm and the unpacker.

use super::algorithm::*;
use super::unpacker::*;
use crate::error::{Error, PackedFault, Result};
use crate::word::Word;
use alloc::vec::Vec;

fn words(bytes: &[u8]) -> Vec<Word> {
    assert_eq!(bytes.len() % 8, 0);
    bytes
        .chunks_exact(8)
        .map(|c| Word(c.try_into().unwrap()))
        .collect()
}

/// The shift-based `expand` puts byte `j` of the input at the `j`-th set
/// bit of the tag and zero elsewhere, ignoring bytes past the tag's
/// count, for every tag but `0xff` (checked against a byte-by-byte
/// expansion, with distinct nonzero input bytes so any misplaced byte
/// shows).
#[test]
fn expand_matches_bytewise_expansion_for_every_tag() {
    let bytes = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
    for tag in 0..=0xfeu8 {
        let mut want = [0u8; 8];
        let mut j = 0;
        for (i, b) in want.iter_mut().enumerate() {
            if tag & (1 << i) != 0 {
                *b = bytes[j];
                j += 1;
            }
        }
        assert_eq!(expand(tag, &bytes), want, "tag {tag:#04x}");
    }
}

/// Every input or output cut in the BMI2 tests; under Miri every 37th.
const CUT_STEP: usize = if cfg!(miri) { 37 } else { 1 };

/// Words of every shape the packer tells apart: each tag with several
/// byte values, zero and dense runs past [`MAX_RUN`], dense words with
/// one zero byte, and pseudo-random words biased towards zero bytes.
fn every_shape() -> Vec<[u8; 8]> {
    let mut words = Vec::new();
    for tag in 0..=0xffu8 {
        for v in [1u8, 0x80, 0xff] {
            let mut w = [0u8; 8];
            for (i, b) in w.iter_mut().enumerate() {
                if tag & (1 << i) != 0 {
                    *b = v.wrapping_add(i as u8) | 1;
                }
            }
            words.push(w);
        }
    }
    words.extend(core::iter::repeat_n([0u8; 8], 300));
    words.extend(core::iter::repeat_n([0xa5u8; 8], 300));
    words.push([0xff; 8]);
    words.extend(core::iter::repeat_n([1, 2, 3, 0, 5, 6, 7, 8], 10));
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    // Fewer under Miri, which runs the BMI2 tests in CI (built with
    // `-C target-feature=+bmi2`) about 10,000 times slower.
    let random = if cfg!(miri) { 64 } else { 4096 };
    for _ in 0..random {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let r = seed.to_le_bytes();
        let keep = (seed >> 32) as u8 & (seed >> 40) as u8;
        words.push(core::array::from_fn(|i| {
            if keep & (1 << i) != 0 { r[i] | 1 } else { 0 }
        }));
    }
    words
}

/// Whether the BMI2 packer and unpacker can run here; prints a skip line when not.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn bmi2_detected(what: &str) -> bool {
    let yes = std::arch::is_x86_feature_detected!("bmi2");
    if !yes {
        std::eprintln!(
            "skipped: BMI2 not detected (not on this CPU, or under Miri without +bmi2): the BMI2 {what} never runs here"
        );
    }
    yes
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[test]
fn bmi2_packer_writes_what_the_portable_packer_writes() {
    if !bmi2_detected("packer") {
        return;
    }
    let words = every_shape();
    let full = max_packed_len(words.len());
    // Every output size up to the first 2,048 bytes (items cut at the
    // end, the short tail path), then a few large ones.
    let sizes = (0..2048)
        .step_by(CUT_STEP)
        .chain([full / 2, full - 1, full]);
    for len in sizes {
        let mut a = alloc::vec![0u8; len];
        let mut b = alloc::vec![0u8; len];
        let pa = pack_words_with::<Portable>(&words, &mut a);
        // SAFETY: the CPU has BMI2, checked above.
        let pb = unsafe { super::algorithm::bmi2::pack_words(&words, &mut b) };
        assert_eq!(pa, pb, "output of {len} bytes");
        assert_eq!(a[..pa.1], b[..pb.1], "output of {len} bytes");
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[test]
fn bmi2_unpacker_reads_what_the_portable_unpacker_reads() {
    if !bmi2_detected("unpacker") {
        return;
    }
    let words = every_shape();
    let mut packed = alloc::vec![0u8; max_packed_len(words.len())];
    let (_, n) = pack_words_with::<Portable>(&words, &mut packed);
    let packed = &packed[..n];
    let full = 8 * words.len();
    // Input cut at every byte of the first 2,048, with room for all the
    // output; then all the input, with the output cut at every byte of
    // the first 2,048. Either way items stop at the cut.
    let cases = (0..2048)
        .step_by(CUT_STEP)
        .map(|cut| (cut, full))
        .chain((0..2048).step_by(CUT_STEP).map(|room| (n, room)))
        .chain([(n, full)]);
    for (cut, room) in cases {
        let mut a = alloc::vec![0u8; room];
        let mut b = alloc::vec![0u8; room];
        let ra = unpack_whole_items_with::<Portable>(&packed[..cut], &mut a, 0, 0);
        // SAFETY: the CPU has BMI2, checked above.
        let rb =
            unsafe { super::algorithm::bmi2::unpack_whole_items(&packed[..cut], &mut b, 0, 0) };
        assert_eq!(ra, rb, "input {cut} bytes, output {room} bytes");
        assert_eq!(
            a[..ra.1],
            b[..rb.1],
            "input {cut} bytes, output {room} bytes"
        );
    }
    // The whole unpacker (the BMI2 loop, then the byte-at-a-time tail)
    // gives back the words.
    let mut back = alloc::vec![Word::default(); words.len()];
    assert_eq!(unpack(packed, &mut back).unwrap(), words.len());
    assert_eq!(bytemuck::cast_slice::<Word, [u8; 8]>(&back), &words[..]);
}

#[test]
fn portable_packer_round_trips_every_shape() {
    let words = every_shape();
    let mut out = alloc::vec![0u8; max_packed_len(words.len())];
    let (done, n) = pack_words_with::<Portable>(&words, &mut out);
    assert_eq!(done, words.len());
    let mut back = alloc::vec![Word::default(); words.len()];
    assert_eq!(unpack(&out[..n], &mut back).unwrap(), words.len());
    assert_eq!(bytemuck::cast_slice::<Word, [u8; 8]>(&back), &words[..]);
    assert_eq!(n, packed_len(&back));
}

/// The shift-based `compress` moves the nonzero bytes of a word (at the
/// set bits of its tag, zero elsewhere) to its low bytes in order, with
/// zero above them, for every tag (distinct nonzero bytes, so any
/// misplaced or lost byte shows); and it undoes `expand`.
#[test]
fn compress_matches_bytewise_gathering_for_every_tag() {
    let bytes = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
    for tag in 0..=0xffu8 {
        let mut word = [0u8; 8];
        let mut want = [0u8; 8];
        let mut j = 0;
        for (i, b) in word.iter_mut().enumerate() {
            if tag & (1 << i) != 0 {
                *b = bytes[i];
                want[j] = bytes[i];
                j += 1;
            }
        }
        let c = &COMPRESS[usize::from(tag)];
        let got = compress(c, u64::from_le_bytes(word)).to_le_bytes();
        assert_eq!(got, want, "tag {tag:#04x}");
        assert_eq!(
            u32::from(PACKED_LEN[usize::from(tag)]),
            1 + tag.count_ones()
        );
        if tag != 0xff {
            assert_eq!(expand(tag, &got), word, "tag {tag:#04x}");
        }
    }
}

fn packed(ws: &[Word]) -> Vec<u8> {
    let mut out = alloc::vec![0u8; max_packed_len(ws.len())];
    let n = pack(ws, &mut out).unwrap();
    out.truncate(n);
    assert_eq!(n, packed_len(ws), "packed_len");
    out
}

fn unpacked(bytes: &[u8]) -> Result<Vec<Word>> {
    let n = unpacked_len(bytes)?;
    let mut out = alloc::vec![Word(*b"garbage!"); n as usize];
    assert_eq!(unpack(bytes, &mut out)?, n as usize);
    Ok(out)
}

/// Both directions of one spelled-out encoding.
fn both_ways(plain: &[u8], packed_bytes: &[u8]) {
    let ws = words(plain);
    assert_eq!(packed(&ws), packed_bytes, "pack");
    assert_eq!(unpacked(packed_bytes).unwrap(), ws, "unpack");
}

/// The bit trick of `tag_of` gives bit `i` exactly when byte `i` is not
/// zero: all 256 zero/nonzero patterns, with nonzero bytes of 0x01,
/// 0x7f, 0x80 and 0xff (the carry edge cases) mixed by position.
#[test]
fn tag_of_matches_its_definition() {
    for mask in 0..=255u8 {
        for values in [
            [0x01u8, 0x7f, 0x80, 0xff],
            [0xff, 0x80, 0x7f, 0x01],
            [0x80; 4],
        ] {
            let mut w = [0u8; 8];
            for (i, b) in w.iter_mut().enumerate() {
                if mask & (1 << i) != 0 {
                    *b = values[i % 4];
                }
            }
            assert_eq!(tag_of(u64::from_le_bytes(w)), mask, "{w:02x?}");
        }
    }
}

/// The spec's examples: a sparse word packs to its tag and nonzero
/// bytes, in order.
#[test]
fn sparse_words() {
    both_ways(
        &[
            0x08, 0, 0, 0, 0x03, 0, 0x02, 0, // tag 0b0101_0001
            0x19, 0, 0, 0, 0xaa, 0x01, 0, 0, // tag 0b0011_0001
        ],
        &[0x51, 0x08, 0x03, 0x02, 0x31, 0x19, 0xaa, 0x01],
    );
    // One nonzero byte at each end.
    both_ways(&[0, 0, 0, 0, 0, 0, 0, 0x80], &[0x80, 0x80]);
    both_ways(&[0x01, 0, 0, 0, 0, 0, 0, 0], &[0x01, 0x01]);
    // Seven nonzero bytes: still a sparse word, no run.
    both_ways(&[1, 2, 3, 4, 0, 6, 7, 8], &[0xef, 1, 2, 3, 4, 6, 7, 8]);
}

/// Zero words: tag 0x00 and a count of further zero words, at most 255
/// per tag, so 256 zero words are `00 ff` and 257 are `00 ff 00 00`.
#[test]
fn zero_runs() {
    both_ways(&[0; 8], &[0x00, 0x00]);
    both_ways(&[0; 16], &[0x00, 0x01]);
    both_ways(&[0; 8 * 255], &[0x00, 0xfe]);
    both_ways(&[0; 8 * 256], &[0x00, 0xff]);
    both_ways(&[0; 8 * 257], &[0x00, 0xff, 0x00, 0x00]);
    both_ways(&[0; 8 * 512], &[0x00, 0xff, 0x00, 0xff]);
    // A run ends at a nonzero word and starts again after it.
    let mut plain = alloc::vec![0u8; 8 * 3];
    plain[8] = 5;
    both_ways(&plain, &[0x00, 0x00, 0x01, 0x05, 0x00, 0x00]);
}

/// A word with no zero byte is followed by a literal run of the next
/// words with at most one zero byte (up to 255), copied as they are.
#[test]
fn dense_runs() {
    let dense = [0xffu8; 8];
    both_ways(&dense, &[&[0xff][..], &dense, &[0x00]].concat());
    // Next word has one zero byte: it joins the run.
    let one_zero = [1u8, 2, 3, 0, 5, 6, 7, 8];
    both_ways(
        &[dense, one_zero].concat(),
        &[&[0xff][..], &dense, &[0x01], &one_zero].concat(),
    );
    // Next word has two zero bytes: the run ends, it packs alone.
    let two_zeros = [1u8, 0, 3, 0, 5, 6, 7, 8];
    both_ways(
        &[dense, two_zeros].concat(),
        &[&[0xff][..], &dense, &[0x00, 0xf5, 1, 3, 5, 6, 7, 8]].concat(),
    );
    // 257 dense words: one word and 255 more, then a new run of one.
    let plain: Vec<u8> = dense.repeat(257);
    let mut want = Vec::new();
    want.push(0xff);
    want.extend_from_slice(&dense);
    want.push(0xff);
    want.extend_from_slice(&dense.repeat(255));
    want.push(0xff);
    want.extend_from_slice(&dense);
    want.push(0x00);
    both_ways(&plain, &want);
}

/// `max_packed_len` holds for the worst pattern (a dense word alone,
/// then a word with two zero bytes, over and over, then a dense word)
/// and for runs of dense words, and that pattern comes within a few
/// bytes of it.
#[test]
fn max_packed_len_bounds_the_worst_case() {
    for n in [1usize, 2, 3, 10, 255, 256, 257, 1000] {
        let mut alternating = Vec::new();
        for i in 0..n {
            let w = if i % 2 == 0 || i + 1 == n {
                [0xffu8; 8]
            } else {
                [1, 0, 1, 0, 1, 1, 1, 1]
            };
            alternating.extend_from_slice(&w);
        }
        let dense = [0x7fu8; 8].repeat(n);
        for plain in [alternating, dense] {
            let ws = words(&plain);
            let len = packed_len(&ws);
            assert!(
                len <= max_packed_len(n),
                "n={n}: {len} > {}",
                max_packed_len(n)
            );
        }
    }
    let worst = packed_len(&words(
        &[[0xffu8; 8], [1, 0, 1, 0, 1, 1, 1, 1]].concat().repeat(50),
    ));
    assert!(
        max_packed_len(100) - worst <= 2,
        "bound {} vs {worst}",
        max_packed_len(100)
    );
    assert_eq!(max_packed_len(1), 10);
}

/// A sample with every kind of item, run lengths around the count
/// limit, and words split at every byte.
fn sample() -> Vec<Word> {
    let mut plain = Vec::new();
    plain.extend_from_slice(&[0u8; 8 * 300]);
    plain.extend_from_slice(&[0x11u8; 8 * 300]);
    plain.extend_from_slice(&[1, 0, 3, 0, 5, 0, 7, 0]);
    plain.extend_from_slice(&[0xffu8; 8]);
    for i in 0..64u8 {
        plain.extend_from_slice(&[i, 0, i ^ 0x5a, 0, 0, i, 0, 1]);
    }
    plain.extend_from_slice(&[0u8; 8]);
    words(&plain)
}

/// The unpacker resumes anywhere: input and output given in pieces of
/// every size from 1 to 11 bytes give the words of a one-shot unpack.
#[test]
fn unpacker_resumes_across_pieces() {
    let ws = sample();
    let p = packed(&ws);
    let want = Word::slice_as_bytes(&ws);
    // Under Miri (slow) a representative subset of the piece sizes.
    let in_pieces: &[usize] = if cfg!(miri) {
        &[1, 3, 8, 11]
    } else {
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    };
    let out_pieces: &[usize] = if cfg!(miri) {
        &[1, 7, 4096]
    } else {
        &[1, 2, 3, 5, 7, 8, 9, 11, 4096]
    };
    for &in_piece in in_pieces {
        for &out_piece in out_pieces {
            let mut u = Unpacker::new();
            let mut out = alloc::vec![0xaau8; want.len()];
            let (mut i, mut o) = (0, 0);
            while i < p.len() || u.pending_output() > 0 {
                let in_end = (i + in_piece).min(p.len());
                let out_end = (o + out_piece).min(out.len());
                let step = u.unpack(&p[i..in_end], &mut out[o..out_end]);
                assert!(step.consumed + step.written > 0, "no progress");
                i += step.consumed;
                o += step.written;
            }
            u.finish().unwrap();
            assert_eq!(
                (o, u.consumed(), u.written()),
                (want.len(), p.len() as u64, o as u64)
            );
            assert!(out == want, "in {in_piece}, out {out_piece}");
        }
    }
}

/// Packing into a short buffer, item by item, gives the same bytes as
/// packing at once: runs do not end where the buffer does.
#[test]
fn pack_prefix_chooses_the_same_items() {
    let ws = sample();
    let whole = packed(&ws);
    for cap in [MAX_ITEM_LEN, MAX_ITEM_LEN + 1, 3000] {
        let mut buf = alloc::vec![0u8; cap];
        let mut got = Vec::new();
        let mut rest = &ws[..];
        while !rest.is_empty() {
            let p = pack_prefix(rest, &mut buf);
            assert!(p.words > 0);
            got.extend_from_slice(&buf[..p.bytes]);
            rest = &rest[p.words..];
        }
        assert_eq!(got, whole, "capacity {cap}");
    }
    // Too small for the next item: nothing is written.
    let mut tiny = [0u8; 9];
    assert_eq!(
        pack_prefix(&words(&[0xffu8; 8]), &mut tiny),
        PackProgress { words: 0, bytes: 0 }
    );
}

/// `pack` into a short buffer fails with the exact length needed.
#[test]
fn pack_reports_the_length_needed() {
    let ws = words(&[[0xffu8; 8], [1, 0, 1, 0, 1, 1, 1, 1]].concat());
    let mut out = [0u8; 16];
    match pack(&ws, &mut out) {
        Err(Error::BufferTooSmall { needed, available }) => {
            assert_eq!((needed, available), (10 + 7, 16));
        }
        other => panic!("expected BufferTooSmall, got {other:?}"),
    }
}

fn fault(bytes: &[u8], out_words: usize) -> (u64, PackedFault) {
    let mut out = alloc::vec![Word::ZERO; out_words];
    match unpack(bytes, &mut out) {
        Err(Error::Packed { offset, fault }) => (offset, fault),
        other => panic!("{bytes:02x?}: expected a packed error, got {other:?}"),
    }
}

/// Each kind of malformed input gives its own error, at the offset of
/// the item's tag, with the numbers; `unpacked_len` agrees.
#[test]
fn malformed_input() {
    let cases: [(&[u8], u64, PackedFault); 7] = [
        // Tag 0x03 needs 2 bytes, has 1.
        (
            &[0x03, 0x01],
            0,
            PackedFault::TagPastEnd {
                tag: 3,
                needed: 2,
                available: 1,
            },
        ),
        // A whole word, then tag 0xf0 with 4 bytes needed, 0 there.
        (
            &[0x01, 0x07, 0xf0],
            2,
            PackedFault::TagPastEnd {
                tag: 0xf0,
                needed: 4,
                available: 0,
            },
        ),
        // Zero tag without its count.
        (
            &[0x00],
            0,
            PackedFault::TagPastEnd {
                tag: 0,
                needed: 1,
                available: 0,
            },
        ),
        (
            &[0x00, 0x00, 0x00],
            2,
            PackedFault::TagPastEnd {
                tag: 0,
                needed: 1,
                available: 0,
            },
        ),
        // Dense tag: its 8 bytes but no count.
        (
            &[0xff, 1, 2, 3, 4, 5, 6, 7, 8],
            0,
            PackedFault::TagPastEnd {
                tag: 0xff,
                needed: 9,
                available: 8,
            },
        ),
        // Dense tag, count 2, one word of the two.
        (
            &[0xff, 1, 2, 3, 4, 5, 6, 7, 8, 2, 1, 1, 1, 1, 1, 1, 1, 1],
            0,
            PackedFault::LiteralRunPastEnd {
                words: 2,
                available: 8,
            },
        ),
        (
            &[0xff, 1, 2, 3, 4, 5, 6, 7, 8, 1],
            0,
            PackedFault::LiteralRunPastEnd {
                words: 1,
                available: 0,
            },
        ),
    ];
    for (bytes, offset, want) in cases {
        assert_eq!(fault(bytes, 64), (offset, want), "{bytes:02x?}");
        match unpacked_len(bytes) {
            Err(Error::Packed { offset: o, fault }) => assert_eq!((o, fault), (offset, want)),
            other => panic!("unpacked_len({bytes:02x?}): {other:?}"),
        }
    }
}

/// Input that unpacks to more words than the output holds is an error,
/// at the item that does not fit, never a silent truncation.
#[test]
fn output_full() {
    let full = |capacity_bytes| PackedFault::OutputFull { capacity_bytes };
    // Six zero words into three.
    assert_eq!(fault(&[0x00, 0x05], 3), (0, full(24)));
    // Two sparse words into one: the second tag is at offset 2.
    assert_eq!(fault(&[0x01, 0x07, 0x01, 0x07], 1), (2, full(8)));
    // A dense word and a literal run of one, into one word.
    assert_eq!(
        fault(&[&[0xff][..], &[9; 8], &[1], &[9; 8]].concat(), 1),
        (0, full(8))
    );
    // Into nothing.
    assert_eq!(fault(&[0x01, 0x07], 0), (0, full(0)));
    // Exactly enough is fine.
    assert_eq!(unpack(&[0x00, 0x05], &mut [Word::ZERO; 6]).unwrap(), 6);
    assert_eq!(unpack(&[], &mut []).unwrap(), 0);
}

/// `unpack_to_vec` checks the limit before it allocates.
#[test]
fn unpack_to_vec_limit() {
    let mut out = Vec::new();
    let zeros = [0x00, 0xff, 0x00, 0xff]; // 512 words
    match unpack_to_vec(&zeros, &mut out, 511) {
        Err(Error::Packed { offset: 0, fault }) => assert_eq!(
            fault,
            PackedFault::OutputLimit {
                words: 512,
                limit_words: 511
            }
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(out.capacity(), 0);
    assert_eq!(unpack_to_vec(&zeros, &mut out, 512).unwrap(), 512);
    assert_eq!(out, alloc::vec![Word::ZERO; 512]);
}
