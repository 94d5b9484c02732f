//! A message driven through a fault-injecting arena and fault-injecting
//! readers and writers (issue 12). The first four bytes choose the arena's
//! faults (no zeroing, overlapping allocations, short `segment_mut` or
//! `segment`, a count of 0, changing or inflated, offsets near
//! `u32::MAX`, the wrong segment) and its segment size; the next four the
//! writer's failures and the reader's lies; the rest is both the recipe
//! of a message built in the arena and a stream read into it.
//!
//! Properties: no panic, abort or hang anywhere; a `PackedWriter` whose
//! inner writer fails (any kind, on fuzzer-chosen calls, a few bytes at a
//! time) and is retried writes bytes that unpack to exactly the framed
//! message; a reader that reports more bytes than its buffer is an error,
//! never a panic.
#![no_main]

use std::io::{ErrorKind, Read, Write};

use capnarena::serialize::packed::{PackedReader, PackedWriter, unpack_to_vec};
use capnarena::{
    ElementSize, Message, MessageReader, SingleSegmentArena, StructSize, Word, words_from_bytes,
};
use libfuzzer_sys::fuzz_target;

mod shared;
use shared::common::hostile::{
    CountFault, Faults, FlakyWriter, HostileArena, LyingReader, RoomFault,
};
use shared::{exercise, limits};

fn faults(b: [u8; 4]) -> (Faults, usize) {
    let count = match b[1] & 3 {
        0 => CountFault::Honest,
        1 => CountFault::Zero,
        2 => CountFault::Grows,
        _ => CountFault::Inflated,
    };
    let f = Faults {
        no_zero: b[0] & 1 != 0,
        overlap: b[0] & 2 != 0,
        short_mut: u32::from((b[0] >> 2) & 3) * u32::from(b[0] & 0x40 != 0),
        short_read: u32::from((b[0] >> 4) & 3) * u32::from(b[0] & 0x80 != 0),
        count,
        huge_offsets: b[1] & 4 != 0,
        wrong_segment: b[1] & 8 != 0,
        room: match (b[1] >> 4) & 3 {
            0 => RoomFault::Silent,
            1 => RoomFault::Honest,
            2 => RoomFault::Zero,
            _ => RoomFault::Huge,
        },
        far: b[1] & 0x40 != 0,
    };
    (f, 1 + usize::from(b[2]))
}

/// Builds a message in `msg` from `recipe`: each byte adds a field, a
/// text, a struct or a list to the current struct, going one level down
/// on some; stops at the first error.
fn build<A: capnarena::Arena>(msg: &mut Message<A>, recipe: &[u8]) -> capnarena::Result<()> {
    let size = StructSize::new(1, 4);
    let mut s = msg.init_root_struct(size)?;
    for &op in recipe.iter().take(64) {
        let slot = usize::from(op >> 6);
        match op & 7 {
            0 => s.set::<u64>(0, u64::from(op) * 0x0101_0101),
            1 => s.set_text(slot, "fuzz")?,
            2 => s.set_data(slot, &[op; 9])?,
            3 => {
                s.init_list(slot, ElementSize::Bit, u32::from(op))?;
            }
            4 => {
                let mut l =
                    s.init_struct_list(slot, u32::from(op & 0x1f), StructSize::new(1, 1))?;
                if !l.is_empty() {
                    l.get_struct(0).set_text(0, "element")?;
                }
            }
            5 => {
                let mut l = s.init_list(slot, ElementSize::Pointer, 2)?;
                l.set_text(1, "x")?;
            }
            6 => {
                s.init_list(slot, ElementSize::Void, u32::from(op) << 8)?;
            }
            _ => {
                s = s.into_pointer(slot).init_struct(size)?;
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<8>() else {
        return;
    };
    let (f, segment_words) = faults([head[0], head[1], head[2], head[3]]);
    let fail_on: Vec<usize> = (0..8).filter(|i| head[4] & (1 << i) != 0).collect();
    let kind = match head[5] & 3 {
        0 => ErrorKind::WouldBlock,
        1 => ErrorKind::Interrupted,
        2 => ErrorKind::TimedOut,
        _ => ErrorKind::Other,
    };
    let max_chunk = 1 + usize::from(head[5] >> 2);
    let extra = usize::from(head[6] & 0x0f) * usize::from(head[6] & 0x10 != 0);
    let options = limits();

    // Build in the hostile arena; frame it every way; read what comes out.
    let mut msg = Message::new(HostileArena::new(f, segment_words));
    let _ = build(&mut msg, rest);
    let mut framed = Vec::new();
    msg.append_to(&mut framed);
    let mut written = Vec::new();
    let _ = msg.write_to(&mut written);
    let mut packed = Vec::new();
    let _ = msg.write_packed_to(&mut packed);
    let mut table = vec![0u8; 1 << 14];
    let _ = msg.write_segment_table(&mut table);
    if let Ok(words) = words_from_bytes(&framed) {
        if let Ok(r) = MessageReader::from_words(&words, options) {
            exercise(&r, options);
        }
    }
    exercise(&msg.reader_with_options(options), options);
    {
        let reader = msg.reader();
        let _ = reader.is_canonical();
        if let Ok(root) = reader.root() {
            let mut out = Message::new(SingleSegmentArena::new());
            let _ = out.set_root(&root);
            let _ = out.set_root_canonical(&root).map(<[_]>::len);
        }
    }

    // A PackedWriter over a failing writer, retried until done: the bytes
    // unpack to the framed message.
    let mut inner = FlakyWriter::new(fail_on, kind);
    inner.max_chunk = max_chunk;
    let mut w = PackedWriter::with_capacity(usize::from(head[7]) * 16, inner);
    let mut pos = 0;
    let mut tries = 0;
    while pos < framed.len() && tries < 64 {
        match w.write(&framed[pos..]) {
            Ok(n) => pos += n,
            Err(_) => tries += 1,
        }
    }
    while w.flush().is_err() && tries < 64 {
        tries += 1;
    }
    if tries < 64 {
        if let Ok(inner) = w.finish() {
            let mut back = Vec::new();
            unpack_to_vec(&inner.out, &mut back, 1 << 20).expect("what PackedWriter wrote unpacks");
            assert_eq!(
                Word::slice_as_bytes(&back),
                &framed[..],
                "PackedWriter lost or changed bytes"
            );
        }
    }

    // The input read into the hostile arena, through lying readers.
    let lying = |d| LyingReader {
        data: d,
        extra,
        interrupt: head[6] & 0x20 != 0,
        calls: 0,
    };
    if let Ok(r) = msg.read_from(lying(rest), options) {
        exercise(&r, options);
    }
    if let Ok(r) = msg.read_packed_from_bytes(rest, options) {
        exercise(&r, options);
    }
    if let Ok(r) = msg.read_from_bytes(rest, options) {
        exercise(&r, options);
    }
    let mut out = Vec::new();
    let _ =
        PackedReader::with_capacity(16 + usize::from(head[7]), lying(rest)).read_to_end(&mut out);
    let _ = msg.read_from(PackedReader::new(lying(&packed)), options);
});
