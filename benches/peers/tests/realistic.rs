//! The realistic scenarios (`schema/telemetry.capnp`) do the same work on
//! both sides: capnarena's generated builders write the bytes capnpc's
//! generated builders write, and every reader on either side returns the
//! checksum computed from the input values themselves.

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, Word};
use capnarena_peers::AlignedBytes;
use capnarena_peers::realistic::steps::{SCENARIOS, SCRATCH_WORDS, Side, step};
use capnarena_peers::realistic::{
    MESH_NODES, MESH_SEED, REPORT_SCRATCH_WORDS, REPORT_SEED, SAMPLE_BUFFER_WORDS, SAMPLES_SEED,
    STREAM_SAMPLES, mesh, mesh_checksum, ours, peer, report, samples, stream_checksum,
};

fn framed_ours_report() -> Vec<u8> {
    let mut out = Vec::new();
    ours::Kept::new(SingleSegmentArena::new())
        .report(&report(REPORT_SEED), &mut out)
        .unwrap();
    out
}

/// The canonical form (single segment, preorder) of a framed message.
fn canonical(framed: &[u8]) -> Vec<u8> {
    let aligned = AlignedBytes::new(framed);
    let reader = MessageReader::from_bytes(aligned.as_bytes(), ReaderOptions::default()).unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    let words = msg.set_root_canonical(&reader.root().unwrap()).unwrap();
    Word::slice_as_bytes(words).to_vec()
}

/// The report tree built with the generated builders (bulk setters on
/// capnarena's side, `&[T]` setter inputs on capnp's) frames to the same
/// bytes on both sides, fresh and on kept memory.
#[test]
fn report_bytes_match_capnp() {
    let d = report(REPORT_SEED);
    let ours_reuse = framed_ours_report();
    let mut ours_fresh = Vec::new();
    ours::report_fresh(&d, &mut ours_fresh).unwrap();
    let mut scratch = capnarena_peers::scratch_words(REPORT_SCRATCH_WORDS);
    let mut peer_reuse = Vec::new();
    peer::Kept::new(capnp::Word::words_to_bytes_mut(&mut scratch))
        .report(&d, &mut peer_reuse)
        .unwrap();
    let mut peer_fresh = Vec::new();
    peer::report_fresh(&d, &mut peer_fresh).unwrap();
    assert_eq!(ours_reuse, peer_reuse);
    assert_eq!(ours_fresh, peer_reuse);
    assert_eq!(
        peer_fresh, peer_reuse,
        "capnp's default first segment holds the report"
    );
    // Deep enough to be worth it: more than 4 KiB of small objects.
    assert!(
        ours_reuse.len() > 4096,
        "report is {} bytes",
        ours_reuse.len()
    );
}

/// Both sides' report readers return the checksum of the input values, on
/// either side's bytes.
#[test]
fn report_readers_agree_with_the_input() {
    let d = report(REPORT_SEED);
    let framed = AlignedBytes::new(&framed_ours_report());
    assert_eq!(ours::report_read(framed.as_bytes()).unwrap(), d.checksum());
    assert_eq!(peer::report_read(framed.as_bytes()).unwrap(), d.checksum());
    // A different report gives a different checksum (the readers look).
    assert_ne!(report(REPORT_SEED + 1).checksum(), d.checksum());
}

/// The mesh (a struct list whose elements point at small structs) has the
/// same bytes on both sides on kept memory, and the same canonical form
/// when capnp's default allocator splits it into segments; both readers
/// return the input's checksum.
#[test]
fn mesh_bytes_and_checksums_match() {
    let nodes = mesh(MESH_NODES, MESH_SEED);
    let mut ours_msg = ours::Kept::new(SingleSegmentArena::new());
    ours_msg.mesh(&nodes).unwrap();
    let mut ours_bytes = Vec::new();
    ours_msg.message().append_to(&mut ours_bytes);

    let mut scratch = capnarena_peers::scratch_words(SCRATCH_WORDS);
    let mut b = capnp::message::Builder::new(capnp::message::ScratchSpaceHeapAllocator::new(
        capnp::Word::words_to_bytes_mut(&mut scratch),
    ));
    peer::mesh_fill(&mut b, &nodes);
    let peer_bytes = capnp::serialize::write_message_to_words(&b);
    assert_eq!(ours_bytes, peer_bytes);

    let mut fresh = capnp::message::Builder::new_default();
    peer::mesh_fill(&mut fresh, &nodes);
    assert!(fresh.get_segments_for_output().len() > 1);
    let fresh_bytes = capnp::serialize::write_message_to_words(&fresh);
    assert_eq!(canonical(&fresh_bytes), canonical(&ours_bytes));

    let aligned = AlignedBytes::new(&ours_bytes);
    assert_eq!(
        ours::mesh_read(aligned.as_bytes()).unwrap(),
        mesh_checksum(&nodes)
    );
    assert_eq!(
        peer::mesh_read(aligned.as_bytes()).unwrap(),
        mesh_checksum(&nodes)
    );
}

/// The sample stream: same bytes on both sides, about 140 bytes a message,
/// and all four stream readers (in place and through `io::Read`, each side)
/// return the input's checksum.
#[test]
fn stream_bytes_and_checksums_match() {
    let s = samples(STREAM_SAMPLES, SAMPLES_SEED);
    let ours_bytes = ours::frame_samples(&s).unwrap();
    assert_eq!(ours_bytes, peer::frame_samples(&s).unwrap());
    let per_message = ours_bytes.len() / STREAM_SAMPLES;
    assert!(
        (128..=160).contains(&per_message),
        "{per_message} bytes a message"
    );

    let expected = stream_checksum(&s);
    let words = capnarena::words_from_bytes(&ours_bytes).unwrap();
    assert_eq!(ours::stream_zero_copy(&words).unwrap(), expected);
    let aligned = AlignedBytes::new(&ours_bytes);
    assert_eq!(
        peer::stream_zero_copy(aligned.as_bytes()).unwrap(),
        expected
    );
    let mut kept = ours::Kept::new(SingleSegmentArena::new());
    assert_eq!(kept.stream_read(&ours_bytes).unwrap(), expected);
    let mut buf = capnarena_peers::scratch_words(SAMPLE_BUFFER_WORDS);
    assert_eq!(
        peer::stream_read(&ours_bytes, capnp::Word::words_to_bytes_mut(&mut buf)).unwrap(),
        expected
    );
}

/// A deep copy of the report (capnarena `set_root` and generated
/// `set_from`, capnp `set_root`) writes the bytes the original build wrote.
#[test]
fn deep_copies_match() {
    let original = framed_ours_report();
    let src = AlignedBytes::new(&original);
    let mut kept = ours::Kept::new(SingleSegmentArena::new());
    let mut copied = Vec::new();
    kept.copy(src.as_bytes()).unwrap();
    kept.message().append_to(&mut copied);
    let mut typed = Vec::new();
    kept.copy_typed(src.as_bytes()).unwrap();
    kept.message().append_to(&mut typed);
    let mut scratch = capnarena_peers::scratch_words(REPORT_SCRATCH_WORDS);
    let mut peer_copy = Vec::new();
    peer::Kept::new(capnp::Word::words_to_bytes_mut(&mut scratch))
        .copy_frame(src.as_bytes(), &mut peer_copy)
        .unwrap();
    assert_eq!(copied, peer_copy);
    assert_eq!(typed, peer_copy);
    assert_eq!(canonical(&copied), canonical(&original));
}

/// Packing the report gives the same bytes on both sides, and unpacking
/// them on either side gives back a report that reads as the input.
#[test]
fn pack_and_unpack_match() {
    let d = report(REPORT_SEED);
    let mut kept = ours::Kept::new(SingleSegmentArena::new());
    kept.report(&d, &mut Vec::new()).unwrap();
    let mut ours_packed = Vec::new();
    kept.pack(&mut ours_packed);
    let mut peer_packed = Vec::new();
    peer::Packer::new(&d).unwrap().pack(&mut peer_packed);
    assert_eq!(ours_packed, peer_packed);

    let mut reader_msg = Message::new(SingleSegmentArena::new());
    let reader = reader_msg
        .read_packed_from_bytes(&ours_packed, ReaderOptions::default())
        .unwrap();
    let root = reader
        .get_root::<ours::telemetry_capnp::report::Reader>()
        .unwrap();
    assert_eq!(ours::report_checksum(root).unwrap(), d.checksum());

    let mut buf = capnarena_peers::scratch_words(REPORT_SCRATCH_WORDS);
    let words = peer::unpack(&ours_packed, capnp::Word::words_to_bytes_mut(&mut buf)).unwrap();
    let framed = framed_ours_report();
    assert_eq!(words * 8 + 8, framed.len());
    assert_eq!(
        capnp::Word::words_to_bytes(&buf)[..framed.len()],
        framed[..]
    );
}

/// Every scenario has a step on both sides, and the two steps return the
/// same figure (framed size, packed size, first-segment words or
/// checksum), except a fresh mesh, which capnp's default allocator splits
/// into several segments.
#[test]
fn every_scenario_runs_on_both_sides_alike() {
    for &(name, _) in SCENARIOS {
        let mut scratch = capnarena_peers::scratch_words(SCRATCH_WORDS);
        let ours = step(
            name,
            Side::Capnarena,
            capnp::Word::words_to_bytes_mut(&mut scratch),
        )
        .expect(name)();
        let mut scratch = capnarena_peers::scratch_words(SCRATCH_WORDS);
        let theirs = step(
            name,
            Side::Capnp,
            capnp::Word::words_to_bytes_mut(&mut scratch),
        )
        .expect(name)();
        if name != "realistic/mesh_build/fresh" {
            assert_eq!(ours, theirs, "{name}");
        }
    }
    let mut scratch = capnarena_peers::scratch_words(SCRATCH_WORDS);
    assert!(
        step(
            "realistic/nonesuch",
            Side::Capnp,
            capnp::Word::words_to_bytes_mut(&mut scratch)
        )
        .is_none()
    );
}
