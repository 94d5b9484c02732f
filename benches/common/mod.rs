//! What the runtime benchmarks share: the address book they build, read,
//! frame and pack (through the code generated from
//! `examples/addressbook/schema/addressbook.capnp`), a pooled third-party
//! arena, and the criterion settings.
//!
//! Each bench file includes this module with `mod common;` and uses part
//! of it.
//!
//! # The groups
//!
//! | file | group | what one iteration does |
//! |---|---|---|
//! | `build.rs` | `growth/ARENA/{fresh,reuse}/PEOPLE` | builds the address book. ARENA: `single` (`SingleSegmentArena`), `multi/heuristic` (`MultiSegmentArena`, default policy), `multi/fixed_1024w` (`GrowthPolicy::FixedSize(1024)`: many small segments), `multi/fixed_16384w` (16,384-word segments), `fixed` (`FixedArena` over a kept buffer), `pooled` (a third-party arena written against the public `Arena` trait, as in `examples/pooled_arena.rs`: fixed-capacity segments drawn from a shared pool). *fresh* = a new arena each time (a pooled one draws on the pool's warm buffers), *reuse* = one message `reset()` each time. `memcpy/PEOPLE` copies the framed size. |
//! | `build.rs` | `reset/ARENA` | `reset()` of a message whose arena the large book grew once, then a new root with an empty list |
//! | `frame.rs` | `frame/{single,multi_fixed_1024w}/{append_to,write_to_sink}/PEOPLE`, `frame/single/framed_bytes/PEOPLE` | `append_to` a kept `Vec<u8>`; vectored `write_to(io::sink())` (segment table and segments handed over as they lie, no copy); `framed_bytes()` (one segment: the framed message as one slice) |
//! | `read.rs` | `read/{zero_copy,copy}/{open,every_field}/PEOPLE` | `MessageReader::from_bytes` (in place) or `Message::read_from_bytes` (copied into a kept message's arena); *open* = segment table, root and the people list, *every_field* = every field of every person |
//! | `packed.rs` | `packed/pack/{append_packed_to,write_packed_to_sink}/PEOPLE`, `packed/unpack/read_packed_from_bytes/PEOPLE` | packing into a kept `Vec<u8>` or `io::sink()`; unpacking into a kept message's arena |
#![allow(dead_code)]

use std::hint::black_box;
use std::time::Duration;

use capnarena::{Arena, Error, Message, MessageReader, SingleSegmentArena};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion};

#[allow(dead_code, missing_docs)]
#[rustfmt::skip]
#[path = "../../examples/generated/addressbook_capnp.rs"]
pub mod addressbook_capnp;

use addressbook_capnp::{address_book, person};
use person::phone_number::Type as PhoneType;

/// People in the small address book (about 2 KB framed: fits every
/// arena's first segment).
pub const SMALL_PEOPLE: u32 = 16;
/// People in the large address book (about 600 KB framed: every growing
/// arena grows several times).
pub const LARGE_PEOPLE: u32 = 4096;

/// Criterion with short runs: each figure is a median of 3 s of samples
/// after 1 s of warm-up, so the whole suite stays at a few minutes.
pub fn criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}

/// The people of an address book as plain Rust data, made before timing so
/// that the timed loop only copies them into a message.
pub struct People {
    names: Vec<String>,
    emails: Vec<String>,
    phones: Vec<String>,
}

impl People {
    /// `n` people with distinct names, emails and phone numbers.
    pub fn new(n: u32) -> Self {
        People {
            names: (0..n).map(|i| format!("Person {i:05}")).collect(),
            emails: (0..n)
                .map(|i| format!("person{i:05}@example.com"))
                .collect(),
            phones: (0..n).map(|i| format!("555-{:04}", i % 10_000)).collect(),
        }
    }

    /// Number of people.
    pub fn len(&self) -> u32 {
        self.names.len() as u32
    }
}

/// Builds the address book of `people` as the root of `msg`: per person an
/// id, a name, an email, one phone number and an employer or none (every
/// third person is unemployed).
pub fn build_book<A: Arena>(msg: &mut Message<A>, people: &People) -> Result<(), Error> {
    let mut book = msg.init_root::<address_book::Builder<_>>()?;
    let mut list = book.init_people(people.len())?;
    for i in 0..people.len() {
        let k = i as usize;
        let mut p = list.get(i);
        p.set_id(i);
        p.set_name(&people.names[k])?;
        p.set_email(&people.emails[k])?;
        let mut phones = p.init_phones(1)?;
        let mut phone = phones.get(0);
        phone.set_number(&people.phones[k])?;
        phone.set_type(if i % 2 == 0 {
            PhoneType::Mobile
        } else {
            PhoneType::Work
        });
        let mut employment = p.get_employment();
        if i % 3 == 0 {
            employment.set_unemployed();
        } else {
            employment.set_employer("Example Corp")?;
        }
    }
    Ok(())
}

/// Reads every field of the address book in `reader` and folds it into a
/// checksum, so that no read is optimized away.
pub fn walk_book(reader: &MessageReader<'_>) -> Result<u64, Error> {
    let book = reader.get_root::<address_book::Reader>()?;
    let mut h = 0u64;
    for p in book.get_people()? {
        h = h.wrapping_mul(31).wrapping_add(u64::from(p.get_id()));
        h = h.wrapping_add(p.get_name()?.len() as u64);
        h = h.wrapping_add(p.get_email()?.len() as u64);
        for phone in p.get_phones()? {
            h = h.wrapping_add(phone.get_number()?.len() as u64);
            h = h.wrapping_add(u64::from(u16::from(phone.get_type()?)));
        }
        h = h.wrapping_add(match p.get_employment().which()? {
            person::employment::Which::Employer(e) => e?.len() as u64,
            _ => 1,
        });
    }
    Ok(h)
}

/// The framed bytes of an address book of `n` people built on a
/// [`SingleSegmentArena`] (one segment).
pub fn framed_book(n: u32) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build_book(&mut msg, &People::new(n)).expect("building the address book");
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// Benches `memcpy/n` in `group`: one copy of `len` bytes into a buffer
/// kept across iterations, the physical floor for handling that many
/// bytes (the caller sets the group's throughput).
pub fn bench_memcpy(group: &mut BenchmarkGroup<'_, WallTime>, n: u32, len: usize) {
    let src = vec![0x5au8; len];
    let mut dst = vec![0u8; len];
    group.bench_function(BenchmarkId::new("memcpy", n), |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&mut dst);
        })
    });
}

// The third-party pooled arena of `examples/pooled_arena.rs`, the same
// code the example runs.
#[path = "../../examples/shared/pooled.rs"]
mod pooled;
#[allow(unused_imports)] // not every bench file uses the pooled arena
pub use pooled::{BufferPool, PooledArena};
