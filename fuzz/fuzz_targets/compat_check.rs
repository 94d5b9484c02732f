//! Two untrusted CodeGeneratorRequests compared by the schema
//! compatibility check (`capnarena_dynamic::compat`): the input is a
//! little-endian u32 length, the old request of that many bytes (fewer
//! when the input is shorter), then the new request. Seeded with pairs
//! of the reference compiler's requests for real schemas.
//!
//! Properties:
//! - No panic, and no stack overflow: loading and checking run on a
//!   thread of 2 MiB.
//! - Bounded work: each side is loaded under `compat::PeerLimits` (its
//!   bytes and nodes), and the findings are at most one per byte of the
//!   two requests (each names a node, member or type use they hold).
//! - A schema compared with itself has no finding, through `check` and
//!   through `check_peer` from each of its nodes.
#![no_main]

use capnarena_dynamic::compat::{self, CompatSchema, PeerLimits};
use libfuzzer_sys::fuzz_target;

fn run(data: &[u8]) {
    let (len, rest) = match data.split_first_chunk::<4>() {
        Some((len, rest)) => (u32::from_le_bytes(*len) as usize, rest),
        None => (0, data),
    };
    let (old, new) = rest.split_at(len.min(rest.len()));
    let limits = PeerLimits::default();
    let old_schema = compat::load_peer(old, &limits).ok();
    let new_schema = compat::load_peer(new, &limits).ok();
    if let Some(o) = &old_schema {
        let side = CompatSchema::new(o.clone());
        let same = compat::check(&side, &side);
        assert_eq!(same.findings, [], "a schema differs from itself");
        let ids: Vec<u64> = o.schema().node_ids().take(8).collect();
        let report = compat::check_peer(o, old, &ids, &limits).expect("loaded once, loads again");
        assert_eq!(report.findings, [], "a peer with our own schema differs");
    }
    if let (Some(o), Some(n)) = (old_schema, new_schema) {
        let report = compat::check(&CompatSchema::new(o), &CompatSchema::new(n));
        assert!(
            report.findings.len() <= old.len() + new.len(),
            "{} findings from {} bytes",
            report.findings.len(),
            old.len() + new.len()
        );
        for f in &report.findings {
            assert!(f.old.is_some() || f.new.is_some(), "a finding with no place: {f}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let data = data.to_vec();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || run(&data))
        .expect("a thread")
        .join()
        .expect("the check does not panic");
});
