//! rkyv's reference rows of the data-set suite (`benches/rsb_ref/`) do the
//! work the capnarena and capnp rows do: every row runs, and the read rows,
//! validated and unchecked, count the set's elements (`rows` itself checks,
//! before it makes them, that the read loop reads the generator's values).

#[path = "../benches/rsb_ref/rkyv_sets.rs"]
mod rkyv_sets;

use capnarena_peers::rsb::steps::SETS;
use capnarena_peers::rsb::{SEED, elements};

/// Each set's rkyv rows exist for serialize, access and read, and the read
/// rows read every element.
#[test]
fn rkyv_rows_read_the_generated_values() {
    for set in SETS {
        let serialize = rkyv_sets::rows(set, "serialize");
        assert_eq!(serialize.len(), 1, "{set}: one serialize row");
        for (_, mut s) in serialize {
            assert!(s() > 0, "{set}: the set serializes to some bytes");
        }
        let read = rkyv_sets::rows(set, "read");
        assert_eq!(read.len(), 2, "{set}: validated and unchecked read rows");
        for (label, mut s) in read {
            assert_eq!(s(), elements(set, SEED), "{set} {label}");
        }
        assert!(rkyv_sets::rows(set, "packed_read").is_empty());
    }
}
