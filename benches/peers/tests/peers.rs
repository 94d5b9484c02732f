//! Sanity checks of every peer scenario function: each produces what the
//! scenario says, and the readers return the values that were written.
//! Run with `--nocapture` to see the growth and text-copy sizes.

use capnarena_peers::*;

fn scratch(words: usize) -> Vec<capnp::Word> {
    scratch_words(words)
}

fn bytes(w: &mut [capnp::Word]) -> &mut [u8] {
    capnp::Word::words_to_bytes_mut(w)
}

#[test]
fn small_round_trips_in_all_variants() {
    let want = small_expected_checksum();
    let mut out = Vec::new();

    small_build_frame(&mut out);
    assert_eq!(out.len(), 8 + SMALL_WORDS * 8, "one segment table word");
    assert_eq!(
        small_read(AlignedBytes::new(&out).as_bytes()).unwrap(),
        want
    );
    let fresh = out.clone();

    let mut s = scratch(SMALL_SCRATCH_WORDS);
    small_build_frame_scratch(bytes(&mut s), &mut out);
    assert_eq!(out, fresh, "scratch variant writes the same bytes");

    let mut s = scratch(SMALL_SCRATCH_WORDS);
    let mut reuse = SmallReuse::new(bytes(&mut s));
    for _ in 0..3 {
        reuse.build_frame(&mut out);
        assert_eq!(out, fresh, "reuse variant writes the same bytes every time");
    }
}

/// Renders a framed message with the reference `capnp` tool (which the
/// build needs anyway) as text.
fn reference_text(root: &str, framed: &[u8]) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/schema/bench.capnp");
    let mut child = Command::new("capnp")
        .args(["convert", "binary:text", schema, root])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the reference capnp tool");
    child.stdin.take().unwrap().write_all(framed).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "capnp convert failed");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn reference_tool_reads_small_and_record() {
    let mut out = Vec::new();
    small_build_frame(&mut out);
    let text = reference_text("Small", &out);
    assert!(text.contains("text = (text = \"1234567\")"), "{text}");
    assert!(text.contains(&format!("a = {}", SMALL_BLOB[0])), "{text}");
    assert!(text.contains(&format!("d = {}", SMALL_BLOB[3])), "{text}");

    let rec = &gen_records(1, 3)[0];
    marshal(rec, &mut out);
    let text = reference_text("Record", &out);
    assert!(text.contains(&format!("name = \"{}\"", rec.name)), "{text}");
    assert!(
        text.contains(&format!("phone = \"{}\"", rec.phone)),
        "{text}"
    );
    assert!(
        text.contains(&format!("birthDay = {}", rec.birth_day)),
        "{text}"
    );
}

#[test]
fn growth_has_65536_items_and_reports_sizes() {
    let mut out = Vec::new();

    let fresh = growth_build_frame(&mut out);
    assert_eq!(fresh, growth_build());
    assert_eq!(out.len(), fresh.bytes());
    let (n, h_fresh) = growth_read(AlignedBytes::new(&out).as_bytes()).unwrap();
    assert_eq!(n, GROWTH_ITEMS);

    let mut s = scratch(GROWTH_SCRATCH_WORDS);
    let scr = growth_build_frame_scratch(bytes(&mut s), &mut out);
    assert_eq!(scr, growth_build_scratch(bytes(&mut s)));
    assert_eq!(out.len(), scr.bytes());
    let (n, h_scr) = growth_read(AlignedBytes::new(&out).as_bytes()).unwrap();
    assert_eq!(n, GROWTH_ITEMS);
    assert_eq!(h_fresh, h_scr, "same content either way");
    assert_eq!(scr.segments, 1);
    assert_eq!(scr.words, 1 + GROWTH_WORDS, "segment table word + body");

    let mut s = scratch(GROWTH_SCRATCH_WORDS);
    let mut reuse = GrowthReuse::new(bytes(&mut s));
    assert_eq!(reuse.build(), scr);
    assert_eq!(reuse.build_frame(&mut out), scr);

    // A scratch space too small for the message: capnp spills to the heap.
    let mut small = scratch(1024);
    let spill = growth_build_scratch(bytes(&mut small));

    println!(
        "growth default HeapAllocator: {} bytes framed ({} words), {} segments",
        fresh.bytes(),
        fresh.words,
        fresh.segments
    );
    println!(
        "growth ScratchSpaceHeapAllocator ({} words): {} bytes framed ({} words), {} segments",
        GROWTH_SCRATCH_WORDS,
        scr.bytes(),
        scr.words,
        scr.segments
    );
    println!(
        "growth ScratchSpaceHeapAllocator (1024 words, spills): {} bytes framed ({} words), {} segments",
        spill.bytes(),
        spill.words,
        spill.segments
    );
}

#[test]
fn gen_records_is_deterministic_and_shaped() {
    let a = gen_records(100, 7);
    assert_eq!(a, gen_records(100, 7));
    assert_ne!(a, gen_records(100, 8));
    for r in &a {
        assert_eq!(r.name.len(), 16);
        assert!(r.name.bytes().all(|b| b.is_ascii_alphabetic()));
        assert_eq!(r.phone.len(), 10);
        assert!(r.phone.bytes().all(|b| b.is_ascii_digit()));
        assert!((0..10).contains(&r.siblings));
        assert!((0.0..10_000_000.0).contains(&r.money));
    }
    assert!(a.iter().any(|r| r.spouse) && a.iter().any(|r| !r.spouse));
}

#[test]
fn marshal_unmarshal_returns_the_record() {
    let recs = gen_records(50, 42);
    let mut out = Vec::new();
    let mut s1 = scratch(RECORD_SCRATCH_WORDS);
    let mut s2 = scratch(RECORD_SCRATCH_WORDS);
    let mut reuse = MarshalReuse::new(bytes(&mut s2));
    for rec in &recs {
        marshal(rec, &mut out);
        let fresh = out.clone();
        assert_eq!(&unmarshal_owned(&out).unwrap(), rec);
        assert_eq!(unmarshal_copy(&out).unwrap(), rec.checksum());
        let aligned = AlignedBytes::new(&out);
        assert_eq!(
            unmarshal_zero_copy(aligned.as_bytes()).unwrap(),
            rec.checksum()
        );
        assert_eq!(
            unmarshal_zero_copy_alloc(aligned.as_bytes()).unwrap(),
            rec.checksum()
        );

        marshal_scratch(rec, bytes(&mut s1), &mut out);
        assert_eq!(out, fresh);
        reuse.marshal(rec, &mut out);
        assert_eq!(out, fresh);
    }
    // Distinct records give distinct checksums.
    assert_ne!(recs[0].checksum(), recs[1].checksum());
}

#[test]
fn zero_copy_rejects_misaligned_input() {
    let mut out = Vec::new();
    marshal(&gen_records(1, 1)[0], &mut out);
    let mut padded = vec![0u8];
    padded.extend_from_slice(&out);
    let b = AlignedBytes::new(&padded);
    assert!(unmarshal_zero_copy(&b.as_bytes()[1..]).is_err());
    assert!(
        unmarshal_copy(&b.as_bytes()[1..]).is_ok(),
        "copying reader takes any alignment"
    );
}

#[test]
fn decode_stream_reads_every_record() {
    let recs = gen_records(STREAM_RECORDS, STREAM_SEED);
    let framed = frame_records(STREAM_RECORDS);
    assert_eq!(framed, frame_record_list(&recs));
    let want = stream_expected_checksum(&recs);
    let aligned = AlignedBytes::new(&framed);
    assert_eq!(decode_stream(aligned.as_bytes()).unwrap(), want);
    assert_eq!(decode_stream_copy(&framed).unwrap(), want);
    println!(
        "decode_stream input: {} records, {} bytes",
        STREAM_RECORDS,
        framed.len()
    );
}

#[test]
fn reset_cycles_reuse_the_scratch() {
    let mut s = scratch(SMALL_SCRATCH_WORDS);
    let mut r = ResetReuse::new(bytes(&mut s));
    for _ in 0..3 {
        assert_eq!(r.reset_init_root(), 3);
        assert_eq!(r.reset_build_small(), SMALL_WORDS);
    }
}

#[test]
fn text_copy_copies_every_text() {
    let src = texts_source();
    let src = AlignedBytes::new(&src);
    let (n, h) = texts_read(src.as_bytes()).unwrap();
    assert_eq!(n, TEXT_COPY_ITEMS);

    let fresh = text_copy(src.as_bytes()).unwrap();
    let mut s = scratch(TEXT_COPY_SCRATCH_WORDS);
    let scr = text_copy_scratch(src.as_bytes(), bytes(&mut s)).unwrap();
    assert_eq!(scr.segments, 1);
    let mut s2 = scratch(TEXT_COPY_SCRATCH_WORDS);
    let mut reuse = TextCopyReuse::new(bytes(&mut s2));
    assert_eq!(reuse.copy(src.as_bytes()).unwrap(), scr);
    assert_eq!(reuse.copy(src.as_bytes()).unwrap(), scr);

    // The copy reads back the same texts: copy via the scratch path and
    // frame it by packing/unpacking through PackSource.
    let packed_src = PackSource::from_framed(src.as_bytes()).unwrap();
    let mut packed = Vec::new();
    pack_message(&packed_src, &mut packed);
    let mut words = Vec::new();
    let len = unpack(&packed, &mut words).unwrap();
    let unpacked = &capnp::Word::words_to_bytes(&words)[..len];
    assert_eq!(texts_read(unpacked).unwrap(), (n, h));

    println!(
        "text_copy source: {} bytes framed; copy with default HeapAllocator: {} bytes, {} segments; with scratch: {} bytes, {} segments",
        src.as_bytes().len(),
        fresh.bytes(),
        fresh.segments,
        scr.bytes(),
        scr.segments
    );
}

fn log_bin() -> Vec<u8> {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/log.bin");
    std::fs::read(p).expect("tests/vectors/log.bin of the main crate")
}

#[test]
fn read_all_log_reads_the_vector() {
    let raw = log_bin();
    let log = AlignedBytes::new(&raw);
    let n = log_entries(log.as_bytes()).unwrap();
    assert!(n > 0);
    let h = read_all_log(log.as_bytes()).unwrap();
    assert_eq!(read_all_log_copy(&raw).unwrap(), h);
    assert_ne!(h, CHECKSUM_SEED);

    // First entry as written in tests/vectors/log.txt.
    let first = 1_700_000_000_000u64;
    let mut want = mix(CHECKSUM_SEED, first);
    want = mix(want, 2);
    want = mix_bytes(
        want,
        b"shard-7 /static/app.js cache-miss eu-west GET GET cache-miss GET /api/v1/users cache-miss",
    );
    want = mix(want, 3);
    for t in ["retry", "/static/app.js", "ok"] {
        want = mix_bytes(want, t.as_bytes());
    }
    // Checksum of a one-entry prefix equals the fold over the first entry,
    // so compare against a log holding only that entry.
    let one = one_entry_log(&raw);
    assert_eq!(
        read_all_log(AlignedBytes::new(&one).as_bytes()).unwrap(),
        want
    );
    println!("log.bin: {} bytes, {} entries", raw.len(), n);
}

/// A framed `Log` holding only the first entry of `raw`, built with the
/// generated API.
fn one_entry_log(raw: &[u8]) -> Vec<u8> {
    use capnarena_peers::bench_capnp::log;
    let src = capnp::serialize::read_message(raw, Default::default()).unwrap();
    let entries = src
        .get_root::<log::Reader>()
        .unwrap()
        .get_entries()
        .unwrap();
    let mut msg = capnp::message::Builder::new_default();
    let mut dst = msg.init_root::<log::Builder>().init_entries(1);
    dst.set_with_caveats(0, entries.get(0)).unwrap();
    capnp::serialize::write_message_to_words(&msg)
}

#[test]
fn pack_unpack_round_trip_the_log() {
    let raw = log_bin();
    let log = AlignedBytes::new(&raw);
    let want = read_all_log(log.as_bytes()).unwrap();

    let mut packed = Vec::new();
    pack(log.as_bytes(), &mut packed).unwrap();
    let src = PackSource::from_framed(log.as_bytes()).unwrap();
    let mut again = Vec::new();
    pack_message(&src, &mut again);
    assert_eq!(packed, again);
    assert_eq!(src.framed_size().segments, 1);

    let mut words = Vec::new();
    let len = unpack(&packed, &mut words).unwrap();
    assert_eq!(len, src.framed_size().bytes());
    let unpacked = &capnp::Word::words_to_bytes(&words)[..len];
    assert_eq!(read_all_log(unpacked).unwrap(), want);
    assert_eq!(unpack_owned(&packed).unwrap(), len);

    // The reference tool's packing of the same message unpacks to the same
    // content.
    let ref_packed = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/log.packed"
    ))
    .unwrap();
    let len = unpack(&ref_packed, &mut words).unwrap();
    let unpacked = &capnp::Word::words_to_bytes(&words)[..len];
    assert_eq!(read_all_log(unpacked).unwrap(), want);
    println!(
        "log: {} bytes framed by the capnp tool, {} bytes after copying into a Builder; packed by capnp crate {} bytes, by capnp tool {} bytes",
        raw.len(),
        src.framed_size().bytes(),
        packed.len(),
        ref_packed.len()
    );
}
