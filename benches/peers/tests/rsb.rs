//! The data-set suite (`capnarena_peers::rsb`) does the same work on both
//! sides: capnarena's generated builders (bulk setters, kept message) write
//! the bytes capnpc's generated builders write, framed and packed, and the
//! read columns of both sides read the values the generator made.

use capnarena::MultiSegmentArena;
use capnarena_peers::rsb::steps::{SETS, Side, floor_step, framed, scenarios, step};
use capnarena_peers::rsb::{
    SCRATCH_WORDS, SEED, TRIANGLES, elements, expected_seen, floor, logs, mesh, ours, peer,
    players, updates, write_floor,
};
use capnarena_peers::{AlignedBytes, scratch_words};

/// Framed and packed bytes of `set` as capnp builds it on one segment (its
/// scratch space made large enough for the whole mesh).
fn capnp_framed(set: &str) -> (Vec<u8>, Vec<u8>, usize) {
    let mut scratch = scratch_words(TRIANGLES * 12 + 64);
    let mut k = peer::Kept::new(capnp::Word::words_to_bytes_mut(&mut scratch));
    let (mut f, mut p) = (Vec::new(), Vec::new());
    macro_rules! build {
        ($d:expr) => {{
            let segs = k.serialize(&$d, &mut f, false);
            k.serialize(&$d, &mut p, true);
            segs
        }};
    }
    let segs = match set {
        "log" => build!(peer::LogSet(&logs(SEED))),
        "mesh" => build!(peer::MeshSet(&mesh(SEED))),
        "minecraft_savedata" => build!(peer::PlayerSet(&players(SEED))),
        _ => build!(peer::UpdateSet(&updates(SEED))),
    };
    (f, p, segs)
}

/// Every data set frames and packs to the same bytes on both sides, on one
/// segment each.
#[test]
fn sets_match_capnp_bytes() {
    for set in SETS {
        let (ours_f, ours_p) = framed(set);
        let (peer_f, peer_p, segs) = capnp_framed(set);
        assert_eq!(segs, 1, "{set}: capnp built one segment");
        assert_eq!(ours_f.len(), peer_f.len(), "{set}: framed sizes");
        assert!(ours_f == peer_f, "{set}: framed bytes differ");
        assert!(ours_p == peer_p, "{set}: packed bytes differ");
    }
}

/// The mesh built on a `MultiSegmentArena` holds what the one-segment mesh
/// holds: both sides' read loops see every triangle's normal, and capnp
/// reads the multi-segment frame too.
#[test]
fn multi_segment_mesh_reads_back() {
    let d = mesh(SEED);
    let mut k = ours::Kept::new(MultiSegmentArena::new());
    let mut out = Vec::new();
    let segs = k.serialize(&ours::MeshSet(&d), &mut out, false).unwrap();
    assert!(segs > 1, "the 1.5 M-word mesh spans segments ({segs})");
    let bytes = AlignedBytes::new(&out);
    assert_eq!(
        ours::read::<ours::MeshRoot>(bytes.as_bytes()).unwrap(),
        TRIANGLES as u64
    );
    assert_eq!(
        peer::read::<peer::MeshRoot>(bytes.as_bytes()).unwrap(),
        TRIANGLES as u64
    );
}

/// capnp's kept scratch space as that benchmark sizes it (1,000,000 words)
/// holds every set but the mesh, which spills into heap segments.
#[test]
fn capnp_scratch_spills_only_for_the_mesh() {
    let mut scratch = scratch_words(SCRATCH_WORDS);
    let mut k = peer::Kept::new(capnp::Word::words_to_bytes_mut(&mut scratch));
    let mut out = Vec::new();
    assert_eq!(k.serialize(&peer::LogSet(&logs(SEED)), &mut out, false), 1);
    assert_eq!(
        k.serialize(&peer::PlayerSet(&players(SEED)), &mut out, false),
        1
    );
    assert_eq!(
        k.serialize(&peer::UpdateSet(&updates(SEED)), &mut out, false),
        1
    );
    assert!(k.serialize(&peer::MeshSet(&mesh(SEED)), &mut out, false) > 1);
}

/// Every scenario runs on both sides; the access columns return 1 on both
/// sides (the root was fetched), the read and packed read columns the
/// number of elements the set has, and every serialize column writes the
/// same number of bytes on every iteration.
#[test]
fn every_step_agrees() {
    for name in scenarios() {
        let set = name.split('/').nth(1).unwrap();
        let col = name.rsplit('/').next().unwrap();
        let mut got = Vec::new();
        for side in [Side::Capnarena, Side::Capnp] {
            let mut scratch = scratch_words(SCRATCH_WORDS);
            let mut s = step(&name, side, capnp::Word::words_to_bytes_mut(&mut scratch)).unwrap();
            let first = s();
            assert_eq!(s(), first, "{name} {side:?}: a second iteration differs");
            got.push(first);
        }
        match col {
            "read" | "packed_read" => {
                let want = elements(set, SEED);
                assert_eq!(got, [want, want], "{name}");
            }
            "access" | "access_single" => assert_eq!(got, [1, 1], "{name}"),
            // capnp spills the mesh into heap segments: a larger frame.
            _ if set == "mesh" => assert!(got[0] <= got[1], "{name}: {got:?}"),
            _ => assert_eq!(got[0], got[1], "{name}: framed sizes"),
        }
    }
}

/// The read and packed read loops of both sides, framed and packed, read
/// every value the generator made, in order (what the bench hands to
/// `black_box`), and count the elements.
#[test]
fn read_loops_see_the_generators_values() {
    macro_rules! check {
        ($set:expr, $ours:ty, $peer:ty) => {{
            let set = $set;
            let want = expected_seen(set, SEED);
            let n = elements(set, SEED);
            let (f, p) = framed(set);
            let bytes = AlignedBytes::new(&f);
            let mut kept = ours::Kept::new(capnarena::SingleSegmentArena::new());
            let mut seen = Vec::new();
            let runs: [(&str, u64); 4] = [
                (
                    "capnarena read",
                    ours::read_with::<$ours>(bytes.as_bytes(), |v| seen.push(v)).unwrap(),
                ),
                (
                    "capnarena packed_read",
                    kept.packed_read_with::<$ours>(&p, |v| seen.push(v))
                        .unwrap(),
                ),
                (
                    "capnp read",
                    peer::read_with::<$peer>(bytes.as_bytes(), |v| seen.push(v)).unwrap(),
                ),
                (
                    "capnp packed_read",
                    peer::packed_read_with::<$peer>(&p, |v| seen.push(v)).unwrap(),
                ),
            ];
            for (k, (label, count)) in runs.into_iter().enumerate() {
                assert_eq!(count, n, "{set} {label}: elements");
                let got = &seen[k * want.len()..(k + 1) * want.len()];
                assert!(got == want.as_slice(), "{set} {label}: values read");
            }
            assert_eq!(seen.len(), 4 * want.len(), "{set}");
        }};
    }
    check!("log", ours::LogRoot, peer::LogRoot);
    check!("mesh", ours::MeshRoot, peer::MeshRoot);
    check!("minecraft_savedata", ours::PlayerRoot, peer::PlayerRoot);
    check!("mk48", ours::UpdateRoot, peer::UpdateRoot);
}

/// The format's floor (the read loop decoding the frame by hand) reads the
/// generator's values on every set: its field offsets and pointer decoding
/// reach the fields the read columns read, so its time is the same work
/// with no reader. Its access row opens the frame (1) as the readers do.
#[test]
fn format_floor_reads_the_generators_values() {
    for set in floor::SETS {
        let mut s = floor_step(&format!("rsb/{set}/read")).expect("a read column");
        assert_eq!(s(), elements(set, SEED), "{set}");
        let words = floor::segment_words(&framed(set).0);
        let mut seen = Vec::new();
        floor::read_with(set, &words, |v| seen.push(v));
        assert!(seen == expected_seen(set, SEED), "{set}: values read");
        for column in ["access", "access_single"] {
            let mut s = floor_step(&format!("rsb/{set}/{column}")).expect("an access column");
            assert_eq!(s(), 1, "{set} {column}");
        }
        assert_eq!(
            floor_step(&format!("rsb/{set}/serialize")).is_some(),
            write_floor::SETS.contains(&set),
            "{set}: a serialize floor where one is written"
        );
    }
    for name in ["rsb/nothing/read", "rsb/mk48", "rsb/mk48/packed_read"] {
        assert!(floor_step(name).is_none(), "{name}");
    }
}

/// The serialize column's floor (each word written by hand, no builder)
/// writes exactly the bytes the builder frames, on every set that has one:
/// the same layout, pointers, padding and frame, so its count is the same
/// message written with no builder.
#[test]
fn write_floor_writes_the_builders_bytes() {
    let mut out = vec![0xaa; 16];
    let len = write_floor::log(&logs(SEED), &mut out);
    assert_eq!(len, out.len());
    assert!(out == framed("log").0, "log: the builder's bytes");
    let len = write_floor::mesh(&mesh(SEED), &mut out);
    assert_eq!(len, out.len());
    assert!(out == framed("mesh").0, "mesh: the builder's bytes");
    for set in write_floor::SETS {
        let mut s = floor_step(&format!("rsb/{set}/serialize")).expect("a serialize floor");
        assert_eq!(s(), framed(set).0.len() as u64, "{set}: the framed length");
    }
}

/// The access floor's hand open finds each set's root where the readers do
/// (a struct of no data and one pointer, the word after the root pointer),
/// and refuses a frame whose table does not match its length, a second
/// segment, or a root pointer past the segment's end.
#[test]
fn format_floor_opens_the_root_and_refuses_bad_frames() {
    for set in SETS {
        let f = framed(set).0;
        assert_eq!(floor::root(&f), Some((&f[16..24], 0)), "{set}");
        assert!(
            floor::root(&f[..f.len() - 8]).is_none(),
            "{set}: cut by a word"
        );
        let mut two = f.clone();
        two[0] = 1;
        assert!(floor::root(&two).is_none(), "{set}: two segments");
        let mut far = f.clone();
        let words = (f.len() / 8 - 1) as u32;
        far[8..12].copy_from_slice(&(words << 2).to_le_bytes());
        assert!(floor::root(&far).is_none(), "{set}: root past the end");
    }
}

/// The floor's hand decoding of the mesh's struct pointers reaches each
/// triangle's normal: the bytes it cuts out hold the normal's coordinates
/// as the generator made them.
#[test]
fn format_floor_decodes_each_normal() {
    let d = mesh(SEED);
    let words = floor::segment_words(&framed("mesh").0);
    for i in [0, 1, 2, 999, TRIANGLES / 2, TRIANGLES - 1] {
        let data = floor::mesh_normal(&words, i);
        let want: Vec<u8> = d[i].v[3].iter().flat_map(|c| c.to_le_bytes()).collect();
        assert_eq!(data.get(..12), Some(&want[..]), "triangle {i}");
    }
}

/// Unknown scenarios are refused, not run as another one.
#[test]
fn unknown_scenarios_are_refused() {
    let mut scratch = scratch_words(16);
    let s = capnp::Word::words_to_bytes_mut(&mut scratch);
    assert!(step("rsb/log/serialize_multi", Side::Capnarena, s).is_none());
    assert!(step("rsb/nope/read", Side::Capnarena, s).is_none());
    assert!(step("rsb/log/nope", Side::Capnp, s).is_none());
}

/// Prints the framed and packed size of every set (`--nocapture`), and
/// checks each is at least the set's fixed-size part: a guard that the
/// generators fill every list.
#[test]
fn sizes() {
    for set in SETS {
        let (f, p) = framed(set);
        println!("{set}: framed {} bytes, packed {} bytes", f.len(), p.len());
        let floor = match set {
            // 4 words per element, 1 address struct, 4 texts.
            "log" => 10_000 * 8 * (3 + 1 + 4),
            // a 4-pointer element and four 2-word structs.
            "mesh" => TRIANGLES * 8 * 12,
            "minecraft_savedata" => 500 * 8 * 10,
            _ => 1_000 * 8 * 20 * 4,
        };
        assert!(f.len() >= floor, "{set}: {} < {floor}", f.len());
    }
}
