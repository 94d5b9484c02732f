//! The owned-value columns of the data-set suite: capnarena's generated
//! plain Rust values (`Value`, `ValueRef`) against prost's derived messages
//! on the four data sets, one criterion group per set and direction
//! (`rsb_owned/SET/decode`: bytes to an owned value; `rsb_owned/SET/encode`:
//! owned value to bytes). What each side does: `prost_sets::Op`.
//!
//! | group `rsb_owned/SET/…` | row | one iteration |
//! |---|---|---|
//! | decode | capnarena_value | `MessageReader::from_bytes` over the framed message (8-aligned), `get_root`, `Value::try_from(root)`, drop |
//! | decode | capnarena_value_ref | the same with `ValueRef` (text and data borrowed from the bytes) |
//! | decode | prost | `Message::decode(&bytes[..])` of prost's encoding of the same data, drop |
//! | encode | capnarena_value | `reset()` a kept `Message<SingleSegmentArena>`, `value.build_root`, `append_to` a kept, cleared `Vec` |
//! | encode | prost | `value.encode(&mut out)` into a kept, cleared `Vec` |

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "prost_sets/mod.rs"]
mod prost_sets;

use capnarena_peers::rsb::steps::SETS;
use prost_sets::{Op, Who, step};

fn rsb_owned(c: &mut Criterion) {
    for set in SETS {
        for (col, rows) in [
            (
                "decode",
                &[
                    (Op::Decode, Who::Capnarena, "capnarena_value"),
                    (Op::DecodeRef, Who::Capnarena, "capnarena_value_ref"),
                    (Op::Decode, Who::Prost, "prost"),
                ][..],
            ),
            (
                "encode",
                &[
                    (Op::Encode, Who::Capnarena, "capnarena_value"),
                    (Op::Encode, Who::Prost, "prost"),
                ][..],
            ),
        ] {
            let mut g = c.benchmark_group(format!("rsb_owned/{set}/{col}"));
            for &(op, who, label) in rows {
                let mut s = step(set, op, who).expect("the row exists");
                g.bench_function(label, |b| b.iter(&mut s));
            }
            g.finish();
        }
    }
}

criterion_group!(benches, rsb_owned);
criterion_main!(benches);
