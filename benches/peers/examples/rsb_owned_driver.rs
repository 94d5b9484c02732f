//! Runs one owned-value row of the data-set suite a given number of times,
//! for callgrind's instruction counts (prost is a dev-dependency, so this
//! is an example rather than a row of `profile_driver`):
//!
//! ```text
//! cargo build --release -p capnarena-peers --example rsb_owned_driver
//! valgrind --tool=callgrind target/release/examples/rsb_owned_driver mk48 decode capnarena 3
//! ```
//!
//! Arguments: `SET` (`log`, `mesh`, `minecraft_savedata`, `mk48`), `OP`
//! (`decode`, `decode_ref`, `encode`), `WHO` (`capnarena`, `prost`), `N`.
//! One warm-up iteration runs before the counted ones; the sum of the
//! results is printed so that no work is optimized away.

#[path = "../benches/prost_sets/mod.rs"]
mod prost_sets;

use prost_sets::{Op, Who, step};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: rsb_owned_driver SET decode|decode_ref|encode capnarena|prost N";
    let [set, op, who, n] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let op = match op.as_str() {
        "decode" => Op::Decode,
        "decode_ref" => Op::DecodeRef,
        "encode" => Op::Encode,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let who = match who.as_str() {
        "capnarena" => Who::Capnarena,
        "prost" => Who::Prost,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let Ok(n) = n.parse::<u32>() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(mut s) = step(set, op, who) else {
        eprintln!("no such row: {set} {args:?}");
        std::process::exit(2);
    };
    let mut sum = s();
    for _ in 0..n {
        sum = sum.wrapping_add(s());
    }
    println!("{sum}");
}
