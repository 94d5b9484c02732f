//! Every realistic scenario as a boxed step, one per side, with its input
//! made beforehand: the one definition the criterion bench, the callgrind
//! driver and the allocation test all run.

use capnarena::{SingleSegmentArena, Word};

use super::{
    MESH_NODES, MESH_SEED, REPORT_SEED, SAMPLE_BUFFER_WORDS, SAMPLES_SEED, STREAM_SAMPLES, mesh,
    ours, peer, report, samples,
};
use crate::AlignedBytes;

/// Which library runs a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// capnarena, on capnarena-build's generated code.
    Capnarena,
    /// capnp 0.27, on capnpc's generated code.
    Capnp,
}

/// One iteration of a scenario; returns something to fold into a checksum.
pub type Step<'a> = Box<dyn FnMut() -> u64 + 'a>;

/// Every scenario: bench group name, and what one iteration does.
pub const SCENARIOS: &[(&str, &str)] = &[
    (
        "realistic/tree_build/fresh",
        "build the report tree in a new message, frame it into a kept Vec",
    ),
    (
        "realistic/tree_build/reuse",
        "build the report tree in a kept message (capnarena reset; capnp a kept scratch allocator), frame it",
    ),
    (
        "realistic/mesh_build/fresh",
        "build the 4,096-node mesh in a new message",
    ),
    (
        "realistic/mesh_build/reuse",
        "build the 4,096-node mesh in a kept message",
    ),
    (
        "realistic/tree_read",
        "read the framed report in place, checksum every field",
    ),
    (
        "realistic/stream/zero_copy",
        "10,000 framed samples read in place from one buffer, every field",
    ),
    (
        "realistic/stream/read",
        "the same stream through io::Read, one message at a time into kept memory",
    ),
    (
        "realistic/stream/read_prefix",
        "the same stream from a byte slice, one message at a time into kept memory (capnarena read_from_bytes_prefix; capnp as stream/read)",
    ),
    (
        "realistic/tree_copy",
        "deep-copy the framed report's root into a kept message (set_root)",
    ),
    ("realistic/tree_pack", "pack the report into a kept Vec"),
    (
        "realistic/tree_unpack",
        "unpack the packed report into kept memory",
    ),
];

/// Words of scratch space [`step`] needs for capnp's kept allocators and
/// buffers (the mesh's size; every other scenario needs less).
pub const SCRATCH_WORDS: usize = super::MESH_SCRATCH_WORDS;

/// The report framed as capnarena builds it (one segment), and packed.
fn report_framed() -> (Vec<u8>, Vec<u8>) {
    let mut kept = ours::Kept::new(SingleSegmentArena::new());
    let mut framed = Vec::new();
    kept.report(&report(REPORT_SEED), &mut framed)
        .expect("the report builds");
    let mut packed = Vec::new();
    kept.pack(&mut packed);
    (framed, packed)
}

/// One iteration of `scenario` (a name from [`SCENARIOS`]) on `side`, with
/// its input made now. capnp's kept allocator or buffer is `scratch` (8-byte
/// aligned, at least [`SCRATCH_WORDS`] words, zeroed: capnp expects a zeroed
/// scratch space; capnarena's side does not use it). `None` for an unknown
/// scenario.
pub fn step<'a>(scenario: &str, side: Side, scratch: &'a mut [u8]) -> Option<Step<'a>> {
    let mut out = Vec::new();
    let step: Step<'a> = match (scenario, side) {
        ("realistic/tree_build/fresh", Side::Capnarena) => {
            let d = report(REPORT_SEED);
            Box::new(move || {
                ours::report_fresh(&d, &mut out).unwrap();
                out.len() as u64
            })
        }
        ("realistic/tree_build/fresh", Side::Capnp) => {
            let d = report(REPORT_SEED);
            Box::new(move || {
                peer::report_fresh(&d, &mut out).unwrap();
                out.len() as u64
            })
        }
        ("realistic/tree_build/reuse", Side::Capnarena) => {
            let d = report(REPORT_SEED);
            let mut k = ours::Kept::new(SingleSegmentArena::new());
            Box::new(move || {
                k.report(&d, &mut out).unwrap();
                out.len() as u64
            })
        }
        ("realistic/tree_build/reuse", Side::Capnp) => {
            let d = report(REPORT_SEED);
            let mut k = peer::Kept::new(scratch);
            Box::new(move || {
                k.report(&d, &mut out).unwrap();
                out.len() as u64
            })
        }
        ("realistic/mesh_build/fresh", Side::Capnarena) => {
            let nodes = mesh(MESH_NODES, MESH_SEED);
            Box::new(move || ours::mesh_fresh(&nodes).unwrap() as u64)
        }
        ("realistic/mesh_build/fresh", Side::Capnp) => {
            let nodes = mesh(MESH_NODES, MESH_SEED);
            Box::new(move || peer::mesh_fresh(&nodes) as u64)
        }
        ("realistic/mesh_build/reuse", Side::Capnarena) => {
            let nodes = mesh(MESH_NODES, MESH_SEED);
            let mut k = ours::Kept::new(SingleSegmentArena::new());
            Box::new(move || k.mesh(&nodes).unwrap() as u64)
        }
        ("realistic/mesh_build/reuse", Side::Capnp) => {
            let nodes = mesh(MESH_NODES, MESH_SEED);
            let mut k = peer::Kept::new(scratch);
            Box::new(move || k.mesh(&nodes) as u64)
        }
        ("realistic/tree_read", _) => {
            let framed = AlignedBytes::new(&report_framed().0);
            match side {
                Side::Capnarena => Box::new(move || ours::report_read(framed.as_bytes()).unwrap()),
                Side::Capnp => {
                    Box::new(move || peer::report_read(framed.as_bytes()).unwrap()) as Step<'a>
                }
            }
        }
        ("realistic/stream/zero_copy", Side::Capnarena) => {
            let bytes = ours::frame_samples(&samples(STREAM_SAMPLES, SAMPLES_SEED)).unwrap();
            let words: Vec<Word> = capnarena::words_from_bytes(&bytes).unwrap();
            Box::new(move || ours::stream_zero_copy(&words).unwrap())
        }
        ("realistic/stream/zero_copy", Side::Capnp) => {
            let bytes = ours::frame_samples(&samples(STREAM_SAMPLES, SAMPLES_SEED)).unwrap();
            let aligned = AlignedBytes::new(&bytes);
            Box::new(move || peer::stream_zero_copy(aligned.as_bytes()).unwrap())
        }
        ("realistic/stream/read", Side::Capnarena) => {
            let bytes = ours::frame_samples(&samples(STREAM_SAMPLES, SAMPLES_SEED)).unwrap();
            let mut k = ours::Kept::new(SingleSegmentArena::new());
            Box::new(move || k.stream_read(&bytes).unwrap())
        }
        ("realistic/stream/read_prefix", Side::Capnarena) => {
            let bytes = ours::frame_samples(&samples(STREAM_SAMPLES, SAMPLES_SEED)).unwrap();
            let mut k = ours::Kept::new(SingleSegmentArena::new());
            Box::new(move || k.stream_read_prefix(&bytes).unwrap())
        }
        ("realistic/stream/read" | "realistic/stream/read_prefix", Side::Capnp) => {
            let bytes = ours::frame_samples(&samples(STREAM_SAMPLES, SAMPLES_SEED)).unwrap();
            let buf = &mut scratch[..SAMPLE_BUFFER_WORDS * 8];
            Box::new(move || peer::stream_read(&bytes, buf).unwrap())
        }
        ("realistic/tree_copy", Side::Capnarena) => {
            let framed = AlignedBytes::new(&report_framed().0);
            let mut k = ours::Kept::new(SingleSegmentArena::new());
            Box::new(move || k.copy(framed.as_bytes()).unwrap() as u64)
        }
        ("realistic/tree_copy", Side::Capnp) => {
            let framed = AlignedBytes::new(&report_framed().0);
            let mut k = peer::Kept::new(scratch);
            Box::new(move || k.copy(framed.as_bytes()).unwrap() as u64)
        }
        ("realistic/tree_pack", Side::Capnarena) => {
            let mut k = ours::Kept::new(SingleSegmentArena::new());
            k.report(&report(REPORT_SEED), &mut Vec::new()).unwrap();
            Box::new(move || {
                k.pack(&mut out);
                out.len() as u64
            })
        }
        ("realistic/tree_pack", Side::Capnp) => {
            let p = peer::Packer::new(&report(REPORT_SEED)).unwrap();
            Box::new(move || {
                p.pack(&mut out);
                out.len() as u64
            })
        }
        ("realistic/tree_unpack", Side::Capnarena) => {
            let packed = report_framed().1;
            let mut k = ours::Kept::new(SingleSegmentArena::new());
            Box::new(move || k.unpack(&packed).unwrap() as u64)
        }
        ("realistic/tree_unpack", Side::Capnp) => {
            let packed = report_framed().1;
            Box::new(move || peer::unpack(&packed, scratch).unwrap() as u64)
        }
        _ => return None,
    };
    Some(step)
}
