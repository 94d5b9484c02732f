//! The capnarena side of every scenario: the same messages as the peer
//! functions at the crate root, built and read with `capnarena`, folded into
//! the same checksums with [`mix`] and [`mix_bytes`].
//!
//! Variants, in capnarena's terms:
//! - *fresh*: a new [`Message`] on a new arena on every call
//!   (`SingleSegmentArena::new()`, `MultiSegmentArena::new()`, or a
//!   `FixedArena` over the caller's buffer);
//! - *reuse*: one [`Message`] kept across calls and [`Message::reset`] before
//!   each build, so its arena's memory is reused.
//!
//! Every message is built and read with the code capnarena-build generates
//! from `schema/bench.capnp` (module [`bench_capnp`]), the schema the capnp
//! side compiles with capnpc: no offsets are written by hand here. Texts
//! are read as bytes (`get_name_bytes`, `TextListReader::get_bytes`), as
//! the capnp side reads them (`text::Reader::as_bytes`): neither side
//! checks UTF-8.

use capnarena::{
    Arena, FixedArena, Message, MessageReader, MultiSegmentArena, ReaderOptions, Result,
    SingleSegmentArena, Word,
};

use crate::{
    CHECKSUM_SEED, GROWTH_ITEMS, RecordData, SMALL_BLOB, SMALL_TEXT, mix, mix_bytes, record_mix,
};

capnarena::include_generated!(
    /// `schema/bench.capnp` compiled by capnarena-build (see `build.rs`).
    pub mod bench_capnp, "capnarena/bench_capnp.rs"
);

use bench_capnp::{growth, log, record, small, texts};

/// Default reader options, the same limits as the peer's.
fn opts() -> ReaderOptions {
    ReaderOptions::default()
}

/// Clears `out` and frames `msg` into it (segment table, then segments).
#[inline]
fn frame_into<A: Arena>(msg: &Message<A>, out: &mut Vec<u8>) {
    out.clear();
    msg.append_to(out);
}

/// A zeroed word buffer for a [`FixedArena`] (capnarena zeroes what it
/// hands out, so the buffer need not stay zero).
pub fn fixed_buffer(words: usize) -> Vec<Word> {
    vec![Word::ZERO; words]
}

/// Framed size of a built message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framed {
    /// Bytes of the framed message: segment table and every segment.
    pub bytes: usize,
    /// Segments in the message.
    pub segments: u32,
}

impl Framed {
    fn of<A: Arena>(msg: &Message<A>) -> Self {
        Framed {
            bytes: msg.serialized_size(),
            segments: msg.segment_count(),
        }
    }
}

// ---------------------------------------------------------------------------
// small

fn small_fill<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    let mut root = msg.init_root::<small::Builder<_>>()?;
    root.init_text()?.set_text(SMALL_TEXT)?;
    let mut blob = root.init_blob()?;
    let [a, b, c, d] = SMALL_BLOB;
    blob.set_a(a);
    blob.set_b(b);
    blob.set_c(c);
    blob.set_d(d);
    Ok(())
}

/// Builds the small message in a fresh `Message` on `arena` and frames it
/// into `out` (cleared first).
pub fn small_build_frame<A: Arena>(arena: A, out: &mut Vec<u8>) -> Result<()> {
    let mut msg = Message::new(arena);
    small_fill(&mut msg)?;
    frame_into(&msg, out);
    Ok(())
}

/// Builds the small message on a new [`SingleSegmentArena`] and frames it.
pub fn small_single_fresh(out: &mut Vec<u8>) -> Result<()> {
    small_build_frame(SingleSegmentArena::new(), out)
}

/// Builds the small message on a new [`MultiSegmentArena`] (first segment
/// 1,024 words) and frames it.
pub fn small_multi_fresh(out: &mut Vec<u8>) -> Result<()> {
    small_build_frame(MultiSegmentArena::new(), out)
}

/// Builds the small message on a new [`FixedArena`] over `buf` and frames
/// it.
pub fn small_fixed_fresh(buf: &mut [Word], out: &mut Vec<u8>) -> Result<()> {
    small_build_frame(FixedArena::new(buf), out)
}

/// One message kept across calls: reset, build, frame.
#[derive(Debug)]
pub struct Reuse<A: Arena> {
    msg: Message<A>,
}

impl<A: Arena> Reuse<A> {
    /// Wraps a message on `arena`.
    pub fn new(arena: A) -> Self {
        Reuse {
            msg: Message::new(arena),
        }
    }

    /// The kept message.
    pub fn message(&self) -> &Message<A> {
        &self.msg
    }

    /// Resets the message, builds the small message and frames it into `out`.
    pub fn small(&mut self, out: &mut Vec<u8>) -> Result<()> {
        self.msg.reset();
        small_fill(&mut self.msg)?;
        frame_into(&self.msg, out);
        Ok(())
    }

    /// Resets the message and builds the growth message from empty.
    pub fn growth(&mut self) -> Result<Framed> {
        self.msg.reset();
        growth_fill(&mut self.msg)?;
        Ok(Framed::of(&self.msg))
    }

    /// Resets the message, builds `rec` and frames it into `out`.
    pub fn marshal(&mut self, rec: &RecordData, out: &mut Vec<u8>) -> Result<()> {
        self.msg.reset();
        record_fill(&mut self.msg, rec)?;
        frame_into(&self.msg, out);
        Ok(())
    }

    /// Reset, then the first segment access: a new `Small` root, and the
    /// length of segment 0 (3 words: root pointer and `Small`).
    pub fn reset_init_root(&mut self) -> Result<usize> {
        self.msg.reset();
        self.msg.init_root::<small::Builder<_>>()?;
        Ok(self.msg.segment(0).map_or(0, |s| s.words().len()))
    }

    /// Resets the message and deep-copies the `items` of the framed `Texts`
    /// message `src` (8-byte aligned, read in place) into it.
    pub fn text_copy(&mut self, src: &[u8]) -> Result<Framed> {
        self.msg.reset();
        text_copy_into(src, &mut self.msg)?;
        Ok(Framed::of(&self.msg))
    }

    /// Packs the kept message into `out` (cleared first): segment table and
    /// segments, packed.
    pub fn pack(&self, out: &mut Vec<u8>) {
        out.clear();
        self.msg.append_packed_to(out);
    }

    /// Unpacks the packed message `packed` into the kept message's arena;
    /// returns its segment count and the words of its first segment.
    pub fn unpack(&mut self, packed: &[u8]) -> Result<(u32, usize)> {
        let reader = self.msg.read_packed_from_bytes(packed, opts())?;
        let words = reader.segment(0).map_or(0, <[Word]>::len);
        Ok((reader.segment_count(), words))
    }

    /// Reads every message of a back-to-back stream of packed records into
    /// the kept message's arena in turn and returns the checksum
    /// [`crate::packed_stream`] returns.
    pub fn packed_stream(&mut self, bytes: &[u8]) -> Result<u64> {
        let mut rest = bytes;
        let mut h = CHECKSUM_SEED;
        while !rest.is_empty() {
            let (reader, used) = self.msg.read_packed_from_bytes_prefix(rest, opts())?;
            h = mix(h, record_checksum(CHECKSUM_SEED, reader.get_root()?)?);
            rest = &rest[used..];
        }
        Ok(h)
    }

    /// Copies the framed record `bytes` (any alignment) into the kept
    /// message's arena and checksums every field.
    pub fn unmarshal_copy(&mut self, bytes: &[u8]) -> Result<u64> {
        let reader = self.msg.read_from_bytes(bytes, opts())?;
        record_checksum(CHECKSUM_SEED, reader.get_root()?)
    }
}

/// Reads a framed small message (zero-copy, aligned) and checksums it as
/// [`crate::small_read`] does.
pub fn small_read(bytes: &[u8]) -> Result<u64> {
    let reader = MessageReader::from_bytes(bytes, opts())?;
    let root = reader.get_root::<small::Reader>()?;
    let h = mix_bytes(CHECKSUM_SEED, root.get_text()?.get_text_bytes()?);
    let blob = root.get_blob()?;
    Ok([blob.get_a(), blob.get_b(), blob.get_c(), blob.get_d()]
        .into_iter()
        .fold(h, mix))
}

// ---------------------------------------------------------------------------
// growth

fn growth_fill<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    let mut root = msg.init_root::<growth::Builder<_>>()?;
    let mut items = root.init_items(GROWTH_ITEMS)?;
    for i in 0..GROWTH_ITEMS {
        items.get(i).set_text(SMALL_TEXT)?;
    }
    Ok(())
}

/// Builds the growth message from empty in a fresh `Message` on `arena`.
pub fn growth_build<A: Arena>(arena: A) -> Result<Framed> {
    let mut msg = Message::new(arena);
    growth_fill(&mut msg)?;
    Ok(Framed::of(&msg))
}

/// [`growth_build`] and frames the message into `out` (cleared first).
pub fn growth_build_frame<A: Arena>(arena: A, out: &mut Vec<u8>) -> Result<Framed> {
    let mut msg = Message::new(arena);
    growth_fill(&mut msg)?;
    frame_into(&msg, out);
    Ok(Framed::of(&msg))
}

/// Reads a framed growth message (zero-copy, aligned): item count and a
/// checksum of every text, as [`crate::growth_read`].
pub fn growth_read(bytes: &[u8]) -> Result<(u32, u64)> {
    let reader = MessageReader::from_bytes(bytes, opts())?;
    let items = reader.get_root::<growth::Reader>()?.get_items()?;
    let mut h = CHECKSUM_SEED;
    for item in items {
        h = mix_bytes(h, item.get_text_bytes()?);
    }
    Ok((items.len(), h))
}

// ---------------------------------------------------------------------------
// marshal / unmarshal / decode_stream

/// Sets the root of `msg` to the record `rec`.
pub fn record_fill<A: Arena>(msg: &mut Message<A>, rec: &RecordData) -> Result<()> {
    let mut r = msg.init_root::<record::Builder<_>>()?;
    r.set_name(&rec.name)?;
    r.set_birth_day(rec.birth_day);
    r.set_phone(&rec.phone)?;
    r.set_siblings(rec.siblings);
    r.set_spouse(rec.spouse);
    r.set_money(rec.money);
    Ok(())
}

/// Marshals `rec` into a fresh message on a new [`SingleSegmentArena`] and
/// frames it into `out` (cleared first).
pub fn marshal(rec: &RecordData, out: &mut Vec<u8>) -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    record_fill(&mut msg, rec)?;
    frame_into(&msg, out);
    Ok(())
}

/// Checksum of every field of a record, as [`RecordData::checksum`].
pub fn record_checksum(h: u64, r: record::Reader<'_>) -> Result<u64> {
    Ok(record_mix(
        h,
        r.get_name_bytes()?,
        r.get_birth_day(),
        r.get_phone_bytes()?,
        r.get_siblings(),
        r.get_spouse(),
        r.get_money(),
    ))
}

/// Reads a framed record in place (`bytes` 8-byte aligned) and checksums
/// every field.
pub fn unmarshal_zero_copy(bytes: &[u8]) -> Result<u64> {
    let reader = MessageReader::from_bytes(bytes, opts())?;
    record_checksum(CHECKSUM_SEED, reader.get_root()?)
}

/// Reads every message of a back-to-back stream of framed records in place
/// and returns a checksum over every field of every record, as
/// [`crate::decode_stream`].
pub fn decode_stream(words: &[Word]) -> Result<u64> {
    let mut rest = words;
    let mut h = CHECKSUM_SEED;
    while !rest.is_empty() {
        let (reader, next) = MessageReader::from_words_prefix(rest, opts())?;
        h = mix(h, record_checksum(CHECKSUM_SEED, reader.get_root()?)?);
        rest = next;
    }
    Ok(h)
}

// ---------------------------------------------------------------------------
// text_copy

fn text_copy_into<A: Arena>(src: &[u8], msg: &mut Message<A>) -> Result<()> {
    let reader = MessageReader::from_bytes(src, opts())?;
    let items = reader.get_root::<texts::Reader>()?.get_items()?;
    msg.init_root::<texts::Builder<_>>()?.set_items(items)
}

/// Deep-copies the `items` of the framed `Texts` message `src` (aligned)
/// into a fresh message on a new [`SingleSegmentArena`].
pub fn text_copy(src: &[u8]) -> Result<Framed> {
    let mut msg = Message::new(SingleSegmentArena::new());
    text_copy_into(src, &mut msg)?;
    Ok(Framed::of(&msg))
}

/// Checksum of every text of a framed `Texts` message, as
/// [`crate::texts_read`].
pub fn texts_read(bytes: &[u8]) -> Result<(u32, u64)> {
    let reader = MessageReader::from_bytes(bytes, opts())?;
    let items = reader.get_root::<texts::Reader>()?.get_items()?;
    let mut h = CHECKSUM_SEED;
    for i in 0..items.len() {
        h = mix_bytes(h, items.get_bytes(i)?);
    }
    Ok((items.len(), h))
}

// ---------------------------------------------------------------------------
// read_all (tests/vectors/log.bin)

/// Reads every field of a framed `Log` message in place (aligned) and
/// returns the checksum [`crate::read_all_log`] returns: per entry
/// timestamp, level, message bytes, tag count and each tag's bytes.
pub fn read_all_log(bytes: &[u8]) -> Result<u64> {
    let reader = MessageReader::from_bytes(bytes, opts())?;
    let entries = reader.get_root::<log::Reader>()?.get_entries()?;
    let mut h = CHECKSUM_SEED;
    for e in entries {
        h = mix(h, e.get_timestamp());
        h = mix(h, u64::from(e.get_level()));
        h = mix_bytes(h, e.get_message_bytes()?);
        let tags = e.get_tags()?;
        h = mix(h, u64::from(tags.len()));
        for t in 0..tags.len() {
            h = mix_bytes(h, tags.get_bytes(t)?);
        }
    }
    Ok(h)
}
