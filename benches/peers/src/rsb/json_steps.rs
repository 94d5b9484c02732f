//! JSON of the four data sets through their generated plain values
//! (`Config::serde`): capnarena-dynamic's `json::to_string` and
//! `json::from_str` against serde_json 1.0 on the same values. The one
//! definition the criterion bench (`benches/json_serde.rs`), the callgrind
//! driver and the tests run.
//!
//! Each side reads back its own text: capnarena's spells floats as the
//! reference does (`%.15g`, else `%.17g`), serde_json spells them shortest,
//! so the two texts differ in their numbers only.

use std::hint::black_box;

use capnarena::{MessageReader, ReaderOptions};
use capnarena_dynamic::json::{JsonLimits, JsonOptions};

use super::ours::{log_capnp, mesh_capnp, minecraft_savedata_capnp, mk48_capnp};
use super::steps::{SETS, Step, framed};
use crate::AlignedBytes;

/// The set's generated owned value, read from its framed message.
macro_rules! value {
    ($set:expr, $root:ident) => {{
        let bytes = AlignedBytes::new(&framed($set).0);
        let m = MessageReader::from_bytes(bytes.as_bytes(), ReaderOptions::default())
            .expect("the set's message reads");
        $root::Value::try_from(m.get_root::<$root::Reader<'_>>().expect("root"))
            .expect("the set converts to its value")
    }};
}

/// `v` as JSON text, written by `side`.
macro_rules! write_json {
    ($v:expr, $side:expr) => {
        match $side {
            JsonSide::Capnarena => {
                capnarena_dynamic::json::to_string(&$v, &JsonOptions::short()).expect("writes")
            }
            JsonSide::SerdeJson => serde_json::to_string(&$v).expect("writes"),
        }
    };
}

/// `text` read by `side` into a `root::Value`.
macro_rules! read_json {
    ($text:expr, $side:expr, $root:ident) => {
        match $side {
            JsonSide::Capnarena => {
                capnarena_dynamic::json::from_str::<$root::Value>(&$text, &limits()).expect("reads")
            }
            JsonSide::SerdeJson => serde_json::from_str::<$root::Value>(&$text).expect("reads"),
        }
    };
}

/// Which library writes or reads the JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonSide {
    /// `capnarena_dynamic::json`, in its short form.
    Capnarena,
    /// `serde_json::to_string` / `serde_json::from_str`.
    SerdeJson,
}

/// The directions: `to_json` writes the set's value as text, `from_json`
/// reads that text back into a value.
pub const DIRECTIONS: [&str; 2] = ["to_json", "from_json"];

/// Every scenario name, `json/SET/DIRECTION`.
pub fn scenarios() -> Vec<String> {
    SETS.iter()
        .flat_map(|set| DIRECTIONS.iter().map(move |d| format!("json/{set}/{d}")))
        .collect()
}

/// Limits that let a whole data set through (mesh's text is about 40 MB).
pub fn limits() -> JsonLimits {
    JsonLimits {
        max_input_bytes: usize::MAX,
        ..JsonLimits::default()
    }
}

/// The text of `set`'s value written by `side`, and whether the value
/// `side` reads back from it equals the one written.
pub fn text_and_round_trip(set: &str, side: JsonSide) -> Option<(String, bool)> {
    macro_rules! with_set {
        ($root:path) => {{
            use $root as root;
            let v = value!(set, root);
            let text = write_json!(v, side);
            let back: root::Value = read_json!(text, side, root);
            (text, back == v)
        }};
    }
    Some(match set {
        "log" => with_set!(log_capnp::logs),
        "mesh" => with_set!(mesh_capnp::mesh),
        "minecraft_savedata" => with_set!(minecraft_savedata_capnp::players),
        "mk48" => with_set!(mk48_capnp::updates),
        _ => return None,
    })
}

/// One iteration of `scenario` (a name from [`scenarios`]) by `side`, its
/// input made now. `to_json` returns the text's length, `from_json` the
/// length of the root's list.
pub fn step(scenario: &str, side: JsonSide) -> Option<Step<'static>> {
    let rest = scenario.strip_prefix("json/")?;
    let (set, direction) = rest.split_once('/')?;
    if !SETS.contains(&set) || !DIRECTIONS.contains(&direction) {
        return None;
    }
    macro_rules! with_set {
        ($root:path, $list:ident) => {{
            use $root as root;
            let v = value!(set, root);
            if direction == "to_json" {
                Box::new(move || {
                    let text = write_json!(v, side);
                    black_box(&text).len() as u64
                }) as Step<'static>
            } else {
                let text = write_json!(v, side);
                Box::new(move || {
                    let back: root::Value = read_json!(text, side, root);
                    black_box(&back).$list.as_ref().map_or(0, Vec::len) as u64
                })
            }
        }};
    }
    Some(match set {
        "log" => with_set!(log_capnp::logs, logs),
        "mesh" => with_set!(mesh_capnp::mesh, triangles),
        "minecraft_savedata" => with_set!(minecraft_savedata_capnp::players, players),
        "mk48" => with_set!(mk48_capnp::updates, updates),
        _ => return None,
    })
}
