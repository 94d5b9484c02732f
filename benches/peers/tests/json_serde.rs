//! The JSON benchmark's rows do the same work: on every data set, the
//! text each side writes reads back, on the same side, to the value it
//! was written from, and both sides write the same JSON apart from the
//! spelling of floats (which the capnarena side spells as the reference
//! does: its own text, read by serde_json, is the same value too).

use capnarena_peers::rsb::json_steps::{JsonSide, text_and_round_trip};
use capnarena_peers::rsb::steps::SETS;

#[test]
fn each_side_reads_back_what_it_wrote() {
    for set in SETS {
        for side in [JsonSide::Capnarena, JsonSide::SerdeJson] {
            let (text, same) = text_and_round_trip(set, side).expect("a data set");
            assert!(same, "{set}: {side:?} reads back another value");
            assert!(text.len() > 100_000, "{set}: {} bytes", text.len());
        }
    }
}

/// Where the data has no floats (log), the two texts are the same bytes.
#[test]
fn same_text_without_floats() {
    let (ours, _) = text_and_round_trip("log", JsonSide::Capnarena).expect("log");
    let (theirs, _) = text_and_round_trip("log", JsonSide::SerdeJson).expect("log");
    assert!(ours == theirs, "log: the two texts differ");
}
