//! The capnarena side of each scenario builds the same message as the capnp
//! peer and reads the same values: built bytes are compared with capnp's,
//! and each side's reader checks the other side's output, so a bench never
//! times two different pieces of work.

use capnarena::{FixedArena, MultiSegmentArena, SingleSegmentArena};
use capnarena_peers::capnarena_side as ca;
use capnarena_peers::*;

fn log_bin() -> AlignedBytes {
    AlignedBytes::new(include_bytes!("../../../tests/vectors/log.bin"))
}

/// Small: every capnarena arena, fresh and reused, writes exactly the bytes
/// capnp writes, and both readers agree on them.
#[test]
fn small_is_byte_identical_to_capnp() {
    let mut want = Vec::new();
    small_build_frame(&mut want);
    let mut out = Vec::new();

    ca::small_single_fresh(&mut out).unwrap();
    assert_eq!(out, want, "single fresh");
    ca::small_multi_fresh(&mut out).unwrap();
    assert_eq!(out, want, "multi fresh");
    let mut buf = ca::fixed_buffer(SMALL_SCRATCH_WORDS);
    ca::small_fixed_fresh(&mut buf, &mut out).unwrap();
    assert_eq!(out, want, "fixed fresh");

    let mut single = ca::Reuse::new(SingleSegmentArena::new());
    let mut multi = ca::Reuse::new(MultiSegmentArena::new());
    let mut fixed = ca::Reuse::new(FixedArena::new(&mut buf));
    for _ in 0..3 {
        single.small(&mut out).unwrap();
        assert_eq!(out, want, "single reuse");
        multi.small(&mut out).unwrap();
        assert_eq!(out, want, "multi reuse");
        fixed.small(&mut out).unwrap();
        assert_eq!(out, want, "fixed reuse");
    }

    let aligned = AlignedBytes::new(&out);
    assert_eq!(
        ca::small_read(aligned.as_bytes()).unwrap(),
        small_expected_checksum()
    );
}

/// Growth: one segment on the single and fixed arenas with exactly capnp's
/// scratch-space bytes; the multi arena stays within 5% of one segment;
/// every variant reads back the same 65,536 texts through capnp.
#[test]
fn growth_matches_capnp_and_multi_stays_compact() {
    let mut s = scratch_words(GROWTH_SCRATCH_WORDS);
    let mut want = Vec::new();
    let peer = growth_build_frame_scratch(capnp::Word::words_to_bytes_mut(&mut s), &mut want);
    assert_eq!(peer.segments, 1);
    let (n, h) = growth_read(AlignedBytes::new(&want).as_bytes()).unwrap();
    assert_eq!(n, GROWTH_ITEMS);

    let mut out = Vec::new();
    let single = ca::growth_build_frame(SingleSegmentArena::new(), &mut out).unwrap();
    assert_eq!(out, want, "single-segment growth equals capnp's");
    assert_eq!(single.bytes, peer.bytes());
    assert_eq!(single.segments, 1);

    let mut buf = ca::fixed_buffer(GROWTH_SCRATCH_WORDS);
    let fixed = ca::growth_build_frame(FixedArena::new(&mut buf), &mut out).unwrap();
    assert_eq!(out, want, "fixed growth equals capnp's");
    assert_eq!(fixed, single);

    let multi = ca::growth_build_frame(MultiSegmentArena::new(), &mut out).unwrap();
    assert!(multi.segments > 1, "default first segment is 1,024 words");
    assert!(
        multi.bytes * 100 <= single.bytes * 105,
        "multi {} bytes vs single {} bytes",
        multi.bytes,
        single.bytes
    );
    let aligned = AlignedBytes::new(&out);
    assert_eq!(growth_read(aligned.as_bytes()).unwrap(), (n, h));
    assert_eq!(ca::growth_read(aligned.as_bytes()).unwrap(), (n, h));

    let mut reuse = ca::Reuse::new(MultiSegmentArena::new());
    for _ in 0..2 {
        assert_eq!(reuse.growth().unwrap(), multi);
    }
}

/// Records: capnarena writes capnp's bytes, and reads capnp's records with
/// the checksum of every field, copying or in place.
#[test]
fn records_round_trip_against_capnp() {
    let recs = gen_records(200, 11);
    let mut want = Vec::new();
    let mut out = Vec::new();
    let mut reuse = ca::Reuse::new(SingleSegmentArena::new());
    let mut reader = ca::Reuse::new(SingleSegmentArena::new());
    for rec in &recs {
        marshal(rec, &mut want);
        ca::marshal(rec, &mut out).unwrap();
        assert_eq!(out, want);
        reuse.marshal(rec, &mut out).unwrap();
        assert_eq!(out, want);
        let aligned = AlignedBytes::new(&out);
        assert_eq!(
            ca::unmarshal_zero_copy(aligned.as_bytes()).unwrap(),
            rec.checksum()
        );
        assert_eq!(reader.unmarshal_copy(&out).unwrap(), rec.checksum());
    }
}

/// The decode stream reads to the same checksum on both sides.
#[test]
fn decode_stream_agrees() {
    let recs = gen_records(STREAM_RECORDS, STREAM_SEED);
    let framed = frame_records(STREAM_RECORDS);
    let words = capnarena::words_from_bytes(&framed).unwrap();
    assert_eq!(
        ca::decode_stream(&words).unwrap(),
        stream_expected_checksum(&recs)
    );
}

/// Reset: segment 0 after reset and a new `Small` root is 3 words (table
/// word not counted), every time.
#[test]
fn reset_init_root_is_three_words() {
    let mut r = ca::Reuse::new(SingleSegmentArena::new());
    for _ in 0..3 {
        assert_eq!(r.reset_init_root().unwrap(), 3);
    }
}

/// Text copy: the copy has the source's texts, in one segment of the same
/// size as capnp's scratch-space copy.
#[test]
fn text_copy_copies_every_text() {
    let src = AlignedBytes::new(&texts_source());
    let want = texts_read(src.as_bytes()).unwrap();
    assert_eq!(ca::texts_read(src.as_bytes()).unwrap(), want);

    let mut s = scratch_words(TEXT_COPY_SCRATCH_WORDS);
    let peer = text_copy_scratch(src.as_bytes(), capnp::Word::words_to_bytes_mut(&mut s)).unwrap();
    let fresh = ca::text_copy(src.as_bytes()).unwrap();
    assert_eq!((fresh.bytes, fresh.segments), (peer.bytes(), 1));

    let mut reuse = ca::Reuse::new(SingleSegmentArena::new());
    for _ in 0..2 {
        assert_eq!(reuse.text_copy(src.as_bytes()).unwrap(), fresh);
    }
    let mut out = Vec::new();
    reuse.message().append_to(&mut out);
    let copy = AlignedBytes::new(&out);
    assert_eq!(texts_read(copy.as_bytes()).unwrap(), want);
}

/// read_all: both sides fold every field of log.bin to the same checksum.
#[test]
fn read_all_log_agrees() {
    let log = log_bin();
    let want = read_all_log(log.as_bytes()).unwrap();
    assert_eq!(ca::read_all_log(log.as_bytes()).unwrap(), want);
}

/// Packed: capnarena packs the growth message to capnp's bytes and unpacks
/// them back to the same framed message; the packed record stream reads to
/// the same checksum on both sides.
#[test]
fn packed_agrees_with_capnp() {
    let mut ours = ca::Reuse::new(SingleSegmentArena::new());
    ours.growth().unwrap();
    let mut framed = Vec::new();
    ours.message().append_to(&mut framed);
    let aligned = AlignedBytes::new(&framed);
    let peer = PackSource::from_framed(aligned.as_bytes()).unwrap();
    let mut want = Vec::new();
    pack_message(&peer, &mut want);
    let mut packed = Vec::new();
    ours.pack(&mut packed);
    assert_eq!(packed, want);

    let mut reader = ca::Reuse::new(SingleSegmentArena::new());
    let (segments, words) = reader.unpack(&packed).unwrap();
    assert_eq!((segments, words), (1, framed.len() / 8 - 1));
    let mut buf = Vec::new();
    assert_eq!(unpack(&packed, &mut buf).unwrap(), framed.len());

    let recs = gen_records(STREAM_RECORDS, STREAM_SEED);
    let stream = pack_records(STREAM_RECORDS);
    let want = stream_expected_checksum(&recs);
    assert_eq!(packed_stream(&stream).unwrap(), want);
    assert_eq!(reader.packed_stream(&stream).unwrap(), want);
}
