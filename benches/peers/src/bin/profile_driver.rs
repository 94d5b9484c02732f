//! Runs one bench scenario a given number of times, for profiling with
//! deterministic instruction counts:
//!
//! ```text
//! CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release -p capnarena-peers --bin profile_driver
//! valgrind --tool=callgrind target/release/profile_driver growth/single/reuse capnarena 20
//! ```
//!
//! `SCENARIO` is a bench group name (`growth/single/reuse`, `small/fixed/fresh`,
//! `marshal/reuse`, `unmarshal/zero_copy`, `decode_stream`, `reset`,
//! `text_copy/reuse`, `read_all`, `pack`, `unpack`, `packed_stream`, `realistic/...`
//! as listed in `capnarena_peers::realistic::steps::SCENARIOS`, `rsb/SET/COLUMN` as listed by
//! `capnarena_peers::rsb::steps::scenarios`), `SIDE` is `capnarena` or `capnp`
//! (or `format_floor` for an `rsb/SET/read`, `access` or `access_single`
//! scenario: the loop or the open with no reader, `capnarena_peers::rsb::floor`;
//! `serde_json` for a `json/SET/to_json` or `from_json` scenario, as listed by
//! `capnarena_peers::rsb::json_steps::scenarios`).
//! One warm-up iteration runs before the counted ones; the checksum of the
//! results is printed so that no work is optimized away.

use std::hint::black_box;
use std::process::ExitCode;

use capnarena::{Arena, FixedArena, MultiSegmentArena, SingleSegmentArena};
use capnarena_peers::capnarena_side::{self as ca, Reuse};
use capnarena_peers::realistic::steps::{self, Side};
use capnarena_peers::rsb::json_steps::{self, JsonSide};
use capnarena_peers::rsb::steps as rsb_steps;
use capnarena_peers::*;

/// One iteration of a scenario, returning something to fold.
type Step<'a> = Box<dyn FnMut() -> u64 + 'a>;

fn growth_reuse<'a, A: Arena + 'a>(arena: A) -> Step<'a> {
    let mut r = Reuse::new(arena);
    Box::new(move || r.growth().unwrap().bytes as u64)
}

fn small_reuse<'a, A: Arena + 'a>(arena: A) -> Step<'a> {
    let mut r = Reuse::new(arena);
    let mut out = Vec::new();
    Box::new(move || {
        r.small(&mut out).unwrap();
        out.len() as u64
    })
}

/// The capnarena step of `scenario`, over the given buffers.
fn ours<'a>(scenario: &str, buf: &'a mut [capnarena::Word], data: &'a Data) -> Option<Step<'a>> {
    let mut out = Vec::new();
    Some(match scenario {
        s if s.starts_with("realistic/") => {
            return steps::step(s, Side::Capnarena, capnarena::Word::slice_as_bytes_mut(buf));
        }
        s if s.starts_with("rsb/") => {
            return rsb_steps::step(s, Side::Capnarena, capnarena::Word::slice_as_bytes_mut(buf));
        }
        s if s.starts_with("json/") => return json_steps::step(s, JsonSide::Capnarena),
        "growth/single/fresh" => {
            Box::new(|| ca::growth_build(SingleSegmentArena::new()).unwrap().bytes as u64)
        }
        "growth/multi/fresh" => {
            Box::new(|| ca::growth_build(MultiSegmentArena::new()).unwrap().bytes as u64)
        }
        "growth/fixed/fresh" => {
            Box::new(move || ca::growth_build(FixedArena::new(buf)).unwrap().bytes as u64)
        }
        "growth/single/reuse" => growth_reuse(SingleSegmentArena::new()),
        "growth/multi/reuse" => growth_reuse(MultiSegmentArena::new()),
        "growth/fixed/reuse" => growth_reuse(FixedArena::new(buf)),
        "small/single/fresh" => Box::new(move || {
            ca::small_single_fresh(&mut out).unwrap();
            out.len() as u64
        }),
        "small/multi/fresh" => Box::new(move || {
            ca::small_multi_fresh(&mut out).unwrap();
            out.len() as u64
        }),
        "small/fixed/fresh" => Box::new(move || {
            ca::small_fixed_fresh(buf, &mut out).unwrap();
            out.len() as u64
        }),
        "small/single/reuse" => small_reuse(SingleSegmentArena::new()),
        "small/multi/reuse" => small_reuse(MultiSegmentArena::new()),
        "small/fixed/reuse" => small_reuse(FixedArena::new(buf)),
        "marshal/fresh" => Box::new(move || {
            for r in &data.recs {
                ca::marshal(r, &mut out).unwrap();
            }
            out.len() as u64
        }),
        "marshal/reuse" => {
            let mut m = Reuse::new(SingleSegmentArena::new());
            Box::new(move || {
                for r in &data.recs {
                    m.marshal(r, &mut out).unwrap();
                }
                out.len() as u64
            })
        }
        "unmarshal/copy" => {
            let mut m = Reuse::new(SingleSegmentArena::new());
            Box::new(move || {
                data.framed
                    .iter()
                    .fold(0, |h, r| mix(h, m.unmarshal_copy(r).unwrap()))
            })
        }
        "unmarshal/zero_copy" => Box::new(|| {
            data.framed
                .iter()
                .fold(0, |h, r| mix(h, ca::unmarshal_zero_copy(r).unwrap()))
        }),
        "decode_stream" => Box::new(|| ca::decode_stream(&data.stream_words).unwrap()),
        "reset" => {
            let mut m = Reuse::new(SingleSegmentArena::new());
            Box::new(move || m.reset_init_root().unwrap() as u64)
        }
        "text_copy/fresh" => {
            Box::new(|| ca::text_copy(data.texts.as_bytes()).unwrap().bytes as u64)
        }
        "text_copy/reuse" => {
            let mut m = Reuse::new(SingleSegmentArena::new());
            Box::new(move || m.text_copy(data.texts.as_bytes()).unwrap().bytes as u64)
        }
        "read_all" => Box::new(|| ca::read_all_log(data.log.as_bytes()).unwrap()),
        "pack" => {
            let mut m = Reuse::new(SingleSegmentArena::new());
            m.growth().unwrap();
            Box::new(move || {
                m.pack(&mut out);
                out.len() as u64
            })
        }
        "unpack" => {
            let mut m = Reuse::new(SingleSegmentArena::new());
            Box::new(move || m.unpack(&data.growth_packed).unwrap().1 as u64)
        }
        "packed_stream" => {
            let mut m = Reuse::new(SingleSegmentArena::new());
            Box::new(move || m.packed_stream(&data.packed_records).unwrap())
        }
        _ => return None,
    })
}

/// The capnp step of `scenario`, over the given scratch space.
fn peer<'a>(scenario: &str, scratch: &'a mut [u8], data: &'a Data) -> Option<Step<'a>> {
    let mut out = Vec::new();
    Some(match scenario {
        s if s.starts_with("realistic/") => return steps::step(s, Side::Capnp, scratch),
        s if s.starts_with("rsb/") => return rsb_steps::step(s, Side::Capnp, scratch),
        "growth/single/fresh" | "growth/multi/fresh" => Box::new(|| growth_build().bytes() as u64),
        "growth/fixed/fresh" => Box::new(move || growth_build_scratch(scratch).bytes() as u64),
        "growth/single/reuse" | "growth/multi/reuse" | "growth/fixed/reuse" => {
            let mut r = GrowthReuse::new(scratch);
            Box::new(move || r.build().bytes() as u64)
        }
        "small/single/fresh" | "small/multi/fresh" => Box::new(move || {
            small_build_frame(&mut out);
            out.len() as u64
        }),
        "small/fixed/fresh" => Box::new(move || {
            small_build_frame_scratch(scratch, &mut out);
            out.len() as u64
        }),
        "small/single/reuse" | "small/multi/reuse" | "small/fixed/reuse" => {
            let mut r = SmallReuse::new(scratch);
            Box::new(move || {
                r.build_frame(&mut out);
                out.len() as u64
            })
        }
        "marshal/fresh" => Box::new(move || {
            for r in &data.recs {
                marshal(r, &mut out);
            }
            out.len() as u64
        }),
        "marshal/reuse" => {
            let mut m = MarshalReuse::new(scratch);
            Box::new(move || {
                for r in &data.recs {
                    m.marshal(r, &mut out);
                }
                out.len() as u64
            })
        }
        "unmarshal/copy" => Box::new(|| {
            data.framed
                .iter()
                .fold(0, |h, r| mix(h, unmarshal_copy(r).unwrap()))
        }),
        "unmarshal/zero_copy" => Box::new(|| {
            data.framed
                .iter()
                .fold(0, |h, r| mix(h, unmarshal_zero_copy(r).unwrap()))
        }),
        "decode_stream" => Box::new(|| decode_stream(data.stream.as_bytes()).unwrap()),
        "reset" => {
            let mut m = ResetReuse::new(scratch);
            Box::new(move || m.reset_init_root() as u64)
        }
        "text_copy/fresh" => Box::new(|| text_copy(data.texts.as_bytes()).unwrap().bytes() as u64),
        "text_copy/reuse" => {
            let mut m = TextCopyReuse::new(scratch);
            Box::new(move || m.copy(data.texts.as_bytes()).unwrap().bytes() as u64)
        }
        "read_all" => Box::new(|| read_all_log(data.log.as_bytes()).unwrap()),
        "pack" => {
            let src = PackSource::from_framed(data.growth.as_bytes()).unwrap();
            Box::new(move || {
                pack_message(&src, &mut out);
                out.len() as u64
            })
        }
        "unpack" => {
            let mut words = Vec::new();
            Box::new(move || unpack(&data.growth_packed, &mut words).unwrap() as u64)
        }
        "packed_stream" => Box::new(|| packed_stream(&data.packed_records).unwrap()),
        _ => return None,
    })
}

/// Inputs of the reading and record scenarios, made before timing.
struct Data {
    recs: Vec<RecordData>,
    framed: FramedRecords,
    stream: AlignedBytes,
    stream_words: Vec<capnarena::Word>,
    texts: AlignedBytes,
    log: AlignedBytes,
    /// The growth message, framed, and packed (the pack and unpack input).
    growth: AlignedBytes,
    growth_packed: Vec<u8>,
    packed_records: Vec<u8>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(scenario), Some(side)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: profile_driver SCENARIO capnarena|capnp [ITERATIONS]");
        return ExitCode::FAILURE;
    };
    let iters: u32 = match args.get(3).map(|s| s.parse()) {
        None => 10,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("bad iteration count: {e}");
            return ExitCode::FAILURE;
        }
    };
    let recs = gen_records(RECORDS, RECORDS_SEED);
    let mut grown = Reuse::new(SingleSegmentArena::new());
    grown.growth().unwrap();
    let mut growth = Vec::new();
    grown.message().append_to(&mut growth);
    let mut growth_packed = Vec::new();
    grown.pack(&mut growth_packed);
    let stream = frame_records(STREAM_RECORDS);
    let data = Data {
        framed: FramedRecords::new(&recs),
        recs,
        stream_words: capnarena::words_from_bytes(&stream).unwrap(),
        stream: AlignedBytes::new(&stream),
        texts: AlignedBytes::new(&texts_source()),
        log: AlignedBytes::new(include_bytes!("../../../../tests/vectors/log.bin")),
        growth: AlignedBytes::new(&growth),
        growth_packed,
        packed_records: pack_records(STREAM_RECORDS),
    };
    let mut buf = ca::fixed_buffer(GROWTH_SCRATCH_WORDS);
    // capnp zeroes its whole scratch space on each new allocator: size it as
    // the bench does.
    let scratch_len = match scenario.split('/').next() {
        Some("small" | "reset") => SMALL_SCRATCH_WORDS,
        Some("marshal") => RECORD_SCRATCH_WORDS,
        Some("text_copy") => TEXT_COPY_SCRATCH_WORDS,
        Some("rsb") => capnarena_peers::rsb::SCRATCH_WORDS,
        _ => GROWTH_SCRATCH_WORDS,
    };
    let mut scratch = scratch_words(scratch_len);
    let step = match side.as_str() {
        "capnarena" => ours(scenario, &mut buf, &data),
        "capnp" => peer(
            scenario,
            capnp::Word::words_to_bytes_mut(&mut scratch),
            &data,
        ),
        "format_floor" => rsb_steps::floor_step(scenario),
        "serde_json" => json_steps::step(scenario, JsonSide::SerdeJson),
        _ => {
            eprintln!("SIDE must be capnarena, capnp, format_floor or serde_json, not {side:?}");
            return ExitCode::FAILURE;
        }
    };
    let Some(mut step) = step else {
        eprintln!("unknown scenario {scenario:?}");
        return ExitCode::FAILURE;
    };
    let mut h = black_box(step());
    for _ in 0..iters {
        h = mix(h, black_box(step()));
    }
    println!("{scenario} {side}: {iters} iterations, checksum {h:#018x}");
    ExitCode::SUCCESS
}
