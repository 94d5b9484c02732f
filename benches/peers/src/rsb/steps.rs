//! Every data-set scenario as a boxed step, one per side, with its input
//! made beforehand: the one definition the criterion bench, the callgrind
//! driver and the tests run.

use capnarena::{MultiSegmentArena, SingleSegmentArena};

use super::{SEED, logs, mesh, ours, peer, players, updates};
use crate::AlignedBytes;
pub use crate::realistic::steps::{Side, Step};

/// The data sets, in the order of that benchmark's tables.
pub const SETS: [&str; 4] = ["log", "mesh", "minecraft_savedata", "mk48"];

/// The columns: name and what one iteration does. `serialize_multi` is run
/// for the mesh only.
pub const COLUMNS: [(&str, &str); 7] = [
    (
        "serialize",
        "build the set in a kept message and frame it into a kept Vec",
    ),
    (
        "serialize_multi",
        "the same on a MultiSegmentArena (capnarena; capnp as in serialize)",
    ),
    (
        "access",
        "open the framed message in place, fetch the typed root",
    ),
    (
        "access_single",
        "access through the one-segment open (capnarena from_single_segment_bytes; capnp its no-alloc flat slice reader)",
    ),
    (
        "read",
        "access, then one field per element of the root's list",
    ),
    (
        "packed_serialize",
        "build the set in a kept message and pack it into a kept Vec",
    ),
    (
        "packed_read",
        "unpack the packed message, then the read column's loop",
    ),
];

/// Every scenario name, `rsb/SET/COLUMN`.
pub fn scenarios() -> Vec<String> {
    let mut v = Vec::new();
    for set in SETS {
        for (col, _) in COLUMNS {
            if col != "serialize_multi" || set == "mesh" {
                v.push(format!("rsb/{set}/{col}"));
            }
        }
    }
    v
}

/// The data set `set` framed as capnarena builds it on one segment, and
/// packed: the input of every read column on both sides.
pub fn framed(set: &str) -> (Vec<u8>, Vec<u8>) {
    let mut k = ours::Kept::new(SingleSegmentArena::new());
    let mut framed = Vec::new();
    let mut packed = Vec::new();
    macro_rules! build {
        ($d:expr) => {{
            k.serialize(&$d, &mut framed, false)
                .expect("the set builds");
            k.serialize(&$d, &mut packed, true).expect("the set builds");
        }};
    }
    match set {
        "log" => build!(ours::LogSet(&logs(SEED))),
        "mesh" => build!(ours::MeshSet(&mesh(SEED))),
        "minecraft_savedata" => build!(ours::PlayerSet(&players(SEED))),
        "mk48" => build!(ours::UpdateSet(&updates(SEED))),
        _ => panic!("unknown data set {set}"),
    }
    (framed, packed)
}

/// One iteration of `scenario` (a name from [`scenarios`]) on `side`, with
/// its input made now. capnp's kept scratch allocator is `scratch` (8-byte
/// aligned, zeroed, [`super::SCRATCH_WORDS`] words as in that benchmark;
/// capnarena's side does not use it). `None` for an unknown scenario.
pub fn step<'a>(scenario: &str, side: Side, scratch: &'a mut [u8]) -> Option<Step<'a>> {
    let rest = scenario.strip_prefix("rsb/")?;
    let (set, column) = rest.split_once('/')?;
    if !SETS.contains(&set) || !scenarios().iter().any(|s| s == scenario) {
        return None;
    }
    let mut out = Vec::new();
    macro_rules! with_set {
        ($data:expr, $ours:ident, $peer:ident, $root_ours:ty, $root_peer:ty) => {{
            match (column, side) {
                ("serialize" | "packed_serialize", Side::Capnarena) => {
                    let packed = column == "packed_serialize";
                    let d = $data;
                    let mut k = ours::Kept::new(SingleSegmentArena::new());
                    Box::new(move || {
                        k.serialize(&ours::$ours(&d), &mut out, packed).unwrap();
                        out.len() as u64
                    }) as Step<'a>
                }
                ("serialize_multi", Side::Capnarena) => {
                    let d = $data;
                    let mut k = ours::Kept::new(MultiSegmentArena::new());
                    Box::new(move || {
                        k.serialize(&ours::$ours(&d), &mut out, false).unwrap();
                        out.len() as u64
                    })
                }
                ("serialize" | "serialize_multi" | "packed_serialize", Side::Capnp) => {
                    let packed = column == "packed_serialize";
                    let d = $data;
                    let mut k = peer::Kept::new(scratch);
                    Box::new(move || {
                        k.serialize(&peer::$peer(&d), &mut out, packed);
                        out.len() as u64
                    })
                }
                ("access" | "access_single" | "read", _) => {
                    let bytes = AlignedBytes::new(&framed(set).0);
                    match (column, side) {
                        ("access", Side::Capnarena) => {
                            Box::new(move || ours::access::<$root_ours>(bytes.as_bytes()).unwrap())
                        }
                        ("access", Side::Capnp) => {
                            Box::new(move || peer::access::<$root_peer>(bytes.as_bytes()).unwrap())
                        }
                        ("access_single", Side::Capnarena) => Box::new(move || {
                            ours::access_single::<$root_ours>(bytes.as_bytes()).unwrap()
                        }),
                        ("access_single", Side::Capnp) => Box::new(move || {
                            peer::access_single::<$root_peer>(bytes.as_bytes()).unwrap()
                        }),
                        (_, Side::Capnarena) => {
                            Box::new(move || ours::read::<$root_ours>(bytes.as_bytes()).unwrap())
                        }
                        (_, Side::Capnp) => {
                            Box::new(move || peer::read::<$root_peer>(bytes.as_bytes()).unwrap())
                        }
                    }
                }
                ("packed_read", Side::Capnarena) => {
                    let packed = framed(set).1;
                    let mut k = ours::Kept::new(SingleSegmentArena::new());
                    Box::new(move || k.packed_read::<$root_ours>(&packed).unwrap())
                }
                ("packed_read", Side::Capnp) => {
                    let packed = framed(set).1;
                    Box::new(move || peer::packed_read::<$root_peer>(&packed).unwrap())
                }
                _ => return None,
            }
        }};
    }
    Some(match set {
        "log" => with_set!(logs(SEED), LogSet, LogSet, ours::LogRoot, peer::LogRoot),
        "mesh" => with_set!(mesh(SEED), MeshSet, MeshSet, ours::MeshRoot, peer::MeshRoot),
        "minecraft_savedata" => with_set!(
            players(SEED),
            PlayerSet,
            PlayerSet,
            ours::PlayerRoot,
            peer::PlayerRoot
        ),
        _ => with_set!(
            updates(SEED),
            UpdateSet,
            UpdateSet,
            ours::UpdateRoot,
            peer::UpdateRoot
        ),
    })
}

/// The read or access column of `set` with no reader ([`super::floor`]),
/// over the same framed bytes as that column, or its serialize column with
/// no builder ([`super::write_floor`]): the `format_floor` row beside
/// capnarena and capnp. `None` unless `scenario` is the `read`, `access`
/// or `access_single` column of one of [`super::floor::SETS`] or the
/// `serialize` column of one of [`super::write_floor::SETS`].
pub fn floor_step(scenario: &str) -> Option<Step<'static>> {
    let (name, column) = scenario.strip_prefix("rsb/")?.split_once('/')?;
    if column == "serialize" {
        let mut out = Vec::new();
        return match name {
            "log" => {
                let d = logs(SEED);
                Some(Box::new(move || {
                    super::write_floor::log(&d, &mut out) as u64
                }))
            }
            "mesh" => {
                let d = mesh(SEED);
                Some(Box::new(move || {
                    super::write_floor::mesh(&d, &mut out) as u64
                }))
            }
            _ => None,
        };
    }
    let set = *super::floor::SETS.iter().find(|s| **s == name)?;
    match column {
        "read" => {
            let words = super::floor::segment_words(&framed(set).0);
            Some(Box::new(move || super::floor::read(set, &words)))
        }
        "access" | "access_single" => {
            let bytes = AlignedBytes::new(&framed(set).0);
            Some(Box::new(move || super::floor::access(bytes.as_bytes())))
        }
        _ => None,
    }
}
