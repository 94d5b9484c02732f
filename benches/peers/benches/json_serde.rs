//! JSON of the four data sets through their generated values:
//! capnarena-dynamic's `json::to_string` / `json::from_str` against
//! serde_json 1.0, in the same criterion group (`json_serde/SET/to_json`,
//! `json_serde/SET/from_json`), so a ratio comes out of one run. What each
//! row does: `capnarena_peers::rsb::json_steps`. Before timing, each side's
//! text is read back to the value it was written from.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::time::Duration;

use capnarena_peers::rsb::json_steps::{DIRECTIONS, JsonSide, step, text_and_round_trip};
use capnarena_peers::rsb::steps::SETS;
use criterion::{Criterion, criterion_group, criterion_main};

fn json_serde(c: &mut Criterion) {
    for set in SETS {
        for side in [JsonSide::Capnarena, JsonSide::SerdeJson] {
            let (text, same) = text_and_round_trip(set, side).expect("a data set");
            assert!(same, "{set}: {side:?} does not read back what it wrote");
            println!("json_serde/{set}: {side:?} writes {} bytes", text.len());
        }
        for direction in DIRECTIONS {
            let scenario = format!("json/{set}/{direction}");
            let mut g = c.benchmark_group(format!("json_serde/{set}/{direction}"));
            g.sample_size(10)
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(3));
            for (side, label) in [
                (JsonSide::Capnarena, "capnarena"),
                (JsonSide::SerdeJson, "serde_json"),
            ] {
                let mut s = step(&scenario, side).expect("the scenario exists");
                g.bench_function(label, |b| b.iter(&mut s));
            }
            g.finish();
        }
    }
}

criterion_group!(benches, json_serde);
criterion_main!(benches);
