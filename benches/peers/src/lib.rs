//! Benchmark peer for `capnarena`: every scenario of capnarena's benches,
//! done with the `capnp` crate (capnproto-rust) 0.27.
//!
//! The library holds no criterion code: each `pub fn` is one whole scenario
//! step, and [`capnarena_side`] holds the same steps done with capnarena, so
//! that the bench binaries in `benches/` time both side by side in one
//! criterion run and `tests/alloc_counts.rs` counts their heap allocations.
//! Every reading function walks every field it is given and folds it into a
//! checksum with [`mix`] and [`mix_bytes`], so that the optimizer cannot drop
//! the work; both sides use the same two functions.
//!
//! Zero-copy readers need their input on an 8-byte boundary (capnp is built
//! without its `unaligned` feature): copy bytes from a `Vec<u8>` or a file
//! into an [`AlignedBytes`] first. Misaligned input is reported by capnp as
//! an error, never read wrongly.
//!
//! Allocator variants, in the capnp crate's own terms:
//! - *fresh*: `message::Builder::new_default()`, a `HeapAllocator` whose first
//!   segment is 1,024 words and which then grows segment sizes heuristically;
//!   a new message, and a new heap segment, on every call.
//! - *scratch*: `ScratchSpaceHeapAllocator::new(scratch)` on every call; its
//!   first segment is the caller's buffer, which `new` zeroes whole each time.
//! - *reuse* (`*Reuse` structs): one `ScratchSpaceHeapAllocator` kept across
//!   calls and lent to each new `Builder` as `&mut`; when a `Builder` drops,
//!   only the words it used are re-zeroed. This is what capnp's docs suggest
//!   for reuse, and it is the closest thing capnp has to resetting a message.
//!
//! # Scenarios
//!
//! | group | what one iteration does |
//! |---|---|
//! | growth/{single,multi,fixed}/{fresh,reuse} | root with a list of 65,536 structs each holding text "1234567" (1,048,608 bytes framed as one segment), built from an empty arena. capnarena: `SingleSegmentArena` / `MultiSegmentArena` / `FixedArena`; *fresh* = new arena each time, *reuse* = one message `reset()` each time. capnp: *fresh* = `Builder::new_default()` (single, multi) or a new `ScratchSpaceHeapAllocator` over a kept 1 MiB buffer (fixed; capnp zeroes it whole); *reuse* = one kept `ScratchSpaceHeapAllocator` (capnp's only way to reuse memory). memcpy: 1,048,608 bytes. |
//! | small/{single,multi,fixed}/{fresh,reuse} | root with two pointers: a struct holding "1234567" and a struct of 32 data bytes; built and framed into a reused `Vec<u8>`. Variants as for growth. |
//! | marshal/{fresh,reuse} | 1,000 pre-generated records (name 16 chars, i64, phone 10 chars, i32, bool, f64) built and framed in turn. |
//! | unmarshal/{copy,zero_copy} | those 1,000 framed records read, every field. copy: capnarena `Message::read_from_bytes` into a kept message, capnp `serialize::read_message`; zero_copy: `MessageReader::from_bytes` vs `read_message_from_flat_slice_no_alloc`. |
//! | decode_stream | 10,000 records framed back to back in one buffer (960,000 bytes), read one after another in place, every field. |
//! | reset | reset a warmed message, new `Small` root, segment 0's length. capnp has no reset: drop the `Builder`, make a new one over the kept scratch allocator. |
//! | text_copy/{fresh,reuse} | a `List(Text)` of 1,000 texts of 1,000 bytes deep-copied into another message (`set_list` / `set_items`). memcpy: the copy's 1,016,024 bytes. |
//! | read_all | every field of `tests/vectors/log.bin` (300 entries, 42,440 bytes), in place. |
//! | pack, unpack | the 1 MiB growth message packed into a reused `Vec<u8>`; unpacked into reused memory (capnarena: a kept message's arena; capnp: `read_message_no_alloc` into a kept buffer). |
//! | packed_stream | 10,000 records packed back to back, read one after another, every field (capnarena: into a kept message; capnp: `serialize_packed::try_read_message`). |
//! | net/{duplex,tcp} | 1,000 records built, sent, received and read (every field) over a connection kept across iterations: a 64 KiB `tokio::io::duplex` pipe, or loopback TCP; sender and receiver joined on one current-thread tokio runtime. capnarena: one reused message, `FramedWrite`/`FramedRead` with `FramedCodec` (`feed` each, one flush), frames read in place. capnp: capnp-futures 0.27 `write_message` into a `BufWriter` (one kept `ScratchSpaceHeapAllocator`, one flush) and `try_read_message` from a `BufReader`, through `tokio_util::compat`. |
//!
//! The `realistic/*` groups use `schema/telemetry.capnp` (`src/realistic/`).
//! The report tree is a `Report` of about 200 objects, 4,144 bytes framed:
//! flags, a header with a union, 24 sensors with unions and nested lists,
//! a firmware blob and routes. The mesh is a `List(Node)` of 4,096 nodes,
//! 294,944 bytes framed. The sample stream is 10,000 `Sample`s of 136
//! bytes framed. Inputs are seeded. Readers fold every field.
//!
//! | group | what one iteration does |
//! |---|---|
//! | realistic/tree_build/{fresh,reuse} | build the report, frame it into a kept `Vec<u8>`. fresh: capnarena `SingleSegmentArena::new()`, capnp `Builder::new_default()`; reuse: capnarena `reset()`, capnp a kept `ScratchSpaceHeapAllocator` |
//! | realistic/mesh_build/{fresh,reuse} | build the mesh (framed size only); capnp's default allocator splits it into segments |
//! | realistic/tree_read | the framed report read in place, every field |
//! | realistic/stream/zero_copy | the 10,000 samples read in place from one buffer (`MessageReader::from_words_prefix`; `read_message_from_flat_slice_no_alloc`) |
//! | realistic/stream/read | the same bytes through `io::Read` (`&[u8]`), one message at a time into kept memory (`Message::try_read_from`; `serialize::try_read_message_no_alloc` into a kept buffer) |
//! | realistic/stream/read_prefix | the same bytes from a slice, one message at a time into kept memory (`Message::read_from_bytes_prefix`; capnp as stream/read) |
//! | realistic/tree_copy | the framed report's root deep-copied into a kept message (`Message::set_root`; `Builder::set_root` over a kept scratch allocator) |
//! | realistic/tree_pack, tree_unpack | the report packed into a kept `Vec`; unpacked into kept memory (`read_packed_from_bytes`; `serialize_packed::read_message_no_alloc`) |

use capnp::message::{
    self, Allocator, HeapAllocator, ReaderOptions, ReaderSegments, ScratchSpaceHeapAllocator,
};
use capnp::serialize::{self, NoAllocSliceSegments};
use capnp::{Word, serialize_packed};

pub mod alloc_count;
pub mod capnarena_side;
pub mod realistic;
pub mod rsb;

/// Code generated by capnpc from `schema/bench.capnp`.
#[allow(missing_docs, unused, clippy::all, clippy::pedantic)]
pub mod bench_capnp {
    include!(concat!(env!("OUT_DIR"), "/bench_capnp.rs"));
}

use bench_capnp::{data_holder, entry, growth, log, record, small, text_holder, texts};

// ---------------------------------------------------------------------------
// Shared constants: the capnarena side of each bench should use the same.

/// Text held by `Small.text` and by every `Growth` item: 7 bytes plus the
/// NUL terminator fill exactly one word.
pub const SMALL_TEXT: &str = "1234567";
/// The four `DataHolder` words of the small message.
pub const SMALL_BLOB: [u64; 4] = [
    0x0102_0304_0506_0708,
    0x1112_1314_1516_1718,
    0x2122_2324_2526_2728,
    0x3132_3334_3536_3738,
];
/// Words of the small message body: root pointer, `Small` (2 pointers),
/// `TextHolder` (1 pointer), the text (1 word), `DataHolder` (4 words).
pub const SMALL_WORDS: usize = 9;
/// Scratch space that holds the small message in one segment.
pub const SMALL_SCRATCH_WORDS: usize = 16;

/// Number of `TextHolder` items in the growth message.
pub const GROWTH_ITEMS: u32 = 64 * 1024;
/// Words of the growth message body when laid out in one segment: root
/// pointer, `Growth` struct, list tag, one word per item, one per text.
pub const GROWTH_WORDS: usize = 3 + 2 * GROWTH_ITEMS as usize;
/// Scratch space that holds the growth message in one segment.
pub const GROWTH_SCRATCH_WORDS: usize = GROWTH_WORDS + 1024;

/// Number of records in the marshal and unmarshal scenarios.
pub const RECORDS: usize = 1_000;
/// Seed of the marshal and unmarshal records ([`gen_records`]).
pub const RECORDS_SEED: u64 = 0x5eed_0000_0000_0002;

/// Number of records in the decode-stream input.
pub const STREAM_RECORDS: usize = 10_000;
/// Seed of [`frame_records`].
pub const STREAM_SEED: u64 = 0x5eed_0000_0000_0001;
/// Scratch space that holds one record in one segment.
pub const RECORD_SCRATCH_WORDS: usize = 32;

/// Number of texts in the text-copy source.
pub const TEXT_COPY_ITEMS: u32 = 1_000;
/// Length in bytes of each text-copy text (NUL not counted).
pub const TEXT_COPY_LEN: usize = 1_000;
/// Scratch space that holds a text-copy destination in one segment:
/// root pointer, struct, list of pointers, and 126 words per text.
pub const TEXT_COPY_SCRATCH_WORDS: usize =
    2 + TEXT_COPY_ITEMS as usize * (1 + (TEXT_COPY_LEN + 1).div_ceil(8)) + 64;

/// Default reader options (traversal limit 8 Mi words, nesting limit 64).
fn opts() -> ReaderOptions {
    ReaderOptions::new()
}

// ---------------------------------------------------------------------------
// Checksums and aligned bytes.

/// Folds one value into a checksum (FNV-1a style multiply, then xor-shift).
#[inline]
pub fn mix(h: u64, v: u64) -> u64 {
    let h = (h ^ v).wrapping_mul(0x0000_0100_0000_01b3);
    h ^ (h >> 29)
}

/// Folds a byte string into a checksum: its length, then every byte, eight
/// at a time (each 8-byte chunk as a little-endian `u64`, the tail
/// zero-padded). Word-at-a-time keeps the checksum's own cost (a chain of
/// dependent multiplies) small next to the reading it guards.
#[inline]
pub fn mix_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    h = mix(h, bytes.len() as u64);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = mix(h, u64::from_le_bytes(w));
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        // Assembled in a register: a variable-length copy into a stack
        // array is a `memcpy` call read back by one 8-byte load, which
        // stalls on store forwarding (perf: most of both sides' checksum
        // time in realistic/stream, where every unit text has a tail).
        let w = tail
            .iter()
            .rev()
            .fold(0u64, |w, &b| (w << 8) | u64::from(b));
        h = mix(h, w);
    }
    h
}

/// Checksum starting value.
pub const CHECKSUM_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// Bytes copied onto an 8-byte boundary, as capnp's zero-copy readers need.
#[derive(Clone, Debug, Default)]
pub struct AlignedBytes {
    words: Vec<Word>,
    len: usize,
}

impl AlignedBytes {
    /// Copies `bytes` into word-aligned storage (zero-padded to a word).
    pub fn new(bytes: &[u8]) -> Self {
        let mut words = Word::allocate_zeroed_vec(bytes.len().div_ceil(8));
        Word::words_to_bytes_mut(&mut words)[..bytes.len()].copy_from_slice(bytes);
        Self {
            words,
            len: bytes.len(),
        }
    }

    /// The bytes, starting on an 8-byte boundary.
    pub fn as_bytes(&self) -> &[u8] {
        &Word::words_to_bytes(&self.words)[..self.len]
    }
}

/// A zeroed, word-aligned buffer of `words` words, for scratch space.
pub fn scratch_words(words: usize) -> Vec<Word> {
    Word::allocate_zeroed_vec(words)
}

/// Size of a built message as `capnp::serialize` would frame it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramedSize {
    /// `compute_serialized_size_in_words`: segment table plus used words.
    pub words: usize,
    /// Segments in the message.
    pub segments: usize,
}

impl FramedSize {
    /// Framed size in bytes.
    pub fn bytes(&self) -> usize {
        self.words * 8
    }

    fn of<A: Allocator>(msg: &message::Builder<A>) -> Self {
        Self {
            words: serialize::compute_serialized_size_in_words(msg),
            segments: msg.get_segments_for_output().len(),
        }
    }
}

/// Clears `out` and writes `msg` into it with standard stream framing.
fn frame_into<A: Allocator>(msg: &message::Builder<A>, out: &mut Vec<u8>) {
    out.clear();
    serialize::write_message(&mut *out, msg).expect("writing to a Vec cannot fail");
}

// ---------------------------------------------------------------------------
// small: root with a TextHolder and a 32-byte DataHolder, then framed.

fn small_fill<A: Allocator>(msg: &mut message::Builder<A>) {
    let mut root = msg.init_root::<small::Builder>();
    root.reborrow().init_text().set_text(SMALL_TEXT);
    let mut blob = root.init_blob();
    blob.set_a(SMALL_BLOB[0]);
    blob.set_b(SMALL_BLOB[1]);
    blob.set_c(SMALL_BLOB[2]);
    blob.set_d(SMALL_BLOB[3]);
}

/// Builds the small message with the default `HeapAllocator` (a fresh
/// message each call) and frames it into `out` (cleared first).
pub fn small_build_frame(out: &mut Vec<u8>) {
    let mut msg = message::Builder::new_default();
    small_fill(&mut msg);
    frame_into(&msg, out);
}

/// Builds the small message on a new `ScratchSpaceHeapAllocator` over
/// `scratch` (8-byte aligned; zeroed whole by capnp on every call) and frames
/// it into `out`.
pub fn small_build_frame_scratch(scratch: &mut [u8], out: &mut Vec<u8>) {
    let mut msg = message::Builder::new(ScratchSpaceHeapAllocator::new(scratch));
    small_fill(&mut msg);
    frame_into(&msg, out);
}

/// Keeps one `ScratchSpaceHeapAllocator` across iterations of the small
/// scenario (only the used words are re-zeroed between messages).
pub struct SmallReuse<'a> {
    alloc: ScratchSpaceHeapAllocator<'a>,
}

impl<'a> SmallReuse<'a> {
    /// Wraps `scratch` (8-byte aligned, e.g. from [`scratch_words`] of
    /// [`SMALL_SCRATCH_WORDS`]).
    pub fn new(scratch: &'a mut [u8]) -> Self {
        Self {
            alloc: ScratchSpaceHeapAllocator::new(scratch),
        }
    }

    /// Builds the small message on the kept allocator and frames it.
    pub fn build_frame(&mut self, out: &mut Vec<u8>) {
        let mut msg = message::Builder::new(&mut self.alloc);
        small_fill(&mut msg);
        frame_into(&msg, out);
    }
}

/// Reads a framed small message (zero-copy, aligned) and checksums it.
pub fn small_read(bytes: &[u8]) -> capnp::Result<u64> {
    let msg = read_flat(bytes)?;
    let root = msg.get_root::<small::Reader>()?;
    let mut h = mix_bytes(CHECKSUM_SEED, root.get_text()?.get_text()?.as_bytes());
    let blob: data_holder::Reader = root.get_blob()?;
    for v in [blob.get_a(), blob.get_b(), blob.get_c(), blob.get_d()] {
        h = mix(h, v);
    }
    Ok(h)
}

/// Checksum that [`small_read`] returns for a correct small message.
pub fn small_expected_checksum() -> u64 {
    let mut h = mix_bytes(CHECKSUM_SEED, SMALL_TEXT.as_bytes());
    for v in SMALL_BLOB {
        h = mix(h, v);
    }
    h
}

/// Reads one message from the front of an aligned slice without copying or
/// allocating.
fn read_flat<'a>(bytes: &'a [u8]) -> capnp::Result<message::Reader<NoAllocSliceSegments<'a>>> {
    let mut slice = bytes;
    serialize::read_message_from_flat_slice_no_alloc(&mut slice, opts())
}

// ---------------------------------------------------------------------------
// growth: 65,536 TextHolder items each holding "1234567", built from empty.

fn growth_fill<A: Allocator>(msg: &mut message::Builder<A>) {
    let root = msg.init_root::<growth::Builder>();
    let mut items = root.init_items(GROWTH_ITEMS);
    for i in 0..GROWTH_ITEMS {
        let mut item: text_holder::Builder = items.reborrow().get(i);
        item.set_text(SMALL_TEXT);
    }
}

/// Builds the growth message from empty with the default `HeapAllocator`
/// and returns its framed size and segment count.
pub fn growth_build() -> FramedSize {
    let mut msg = message::Builder::new_default();
    growth_fill(&mut msg);
    FramedSize::of(&msg)
}

/// Builds the growth message on a new `ScratchSpaceHeapAllocator` over
/// `scratch` (zeroed whole by capnp on every call; [`GROWTH_SCRATCH_WORDS`]
/// words hold it in one segment).
pub fn growth_build_scratch(scratch: &mut [u8]) -> FramedSize {
    let mut msg = message::Builder::new(ScratchSpaceHeapAllocator::new(scratch));
    growth_fill(&mut msg);
    FramedSize::of(&msg)
}

/// [`growth_build`], then frames the message into `out` (cleared first).
pub fn growth_build_frame(out: &mut Vec<u8>) -> FramedSize {
    let mut msg = message::Builder::new_default();
    growth_fill(&mut msg);
    frame_into(&msg, out);
    FramedSize::of(&msg)
}

/// [`growth_build_scratch`], then frames the message into `out`.
pub fn growth_build_frame_scratch(scratch: &mut [u8], out: &mut Vec<u8>) -> FramedSize {
    let mut msg = message::Builder::new(ScratchSpaceHeapAllocator::new(scratch));
    growth_fill(&mut msg);
    frame_into(&msg, out);
    FramedSize::of(&msg)
}

/// Keeps one `ScratchSpaceHeapAllocator` across growth iterations.
pub struct GrowthReuse<'a> {
    alloc: ScratchSpaceHeapAllocator<'a>,
}

impl<'a> GrowthReuse<'a> {
    /// Wraps `scratch` (8-byte aligned; [`GROWTH_SCRATCH_WORDS`] words hold
    /// the message in one segment).
    pub fn new(scratch: &'a mut [u8]) -> Self {
        Self {
            alloc: ScratchSpaceHeapAllocator::new(scratch),
        }
    }

    /// Builds the growth message from empty on the kept allocator.
    pub fn build(&mut self) -> FramedSize {
        let mut msg = message::Builder::new(&mut self.alloc);
        growth_fill(&mut msg);
        FramedSize::of(&msg)
    }

    /// Builds the growth message on the kept allocator and frames it.
    pub fn build_frame(&mut self, out: &mut Vec<u8>) -> FramedSize {
        let mut msg = message::Builder::new(&mut self.alloc);
        growth_fill(&mut msg);
        frame_into(&msg, out);
        FramedSize::of(&msg)
    }
}

/// Reads a framed growth message (zero-copy, aligned): returns the item
/// count and a checksum of every text.
pub fn growth_read(bytes: &[u8]) -> capnp::Result<(u32, u64)> {
    let msg = read_flat(bytes)?;
    let items = msg.get_root::<growth::Reader>()?.get_items()?;
    let mut h = CHECKSUM_SEED;
    for item in items.iter() {
        h = mix_bytes(h, item.get_text()?.as_bytes());
    }
    Ok((items.len(), h))
}

// ---------------------------------------------------------------------------
// marshal / unmarshal: go-capnp's A record.

/// One record of the marshal scenarios (go-capnp's benchmark `A`).
#[derive(Clone, Debug, PartialEq)]
pub struct RecordData {
    /// 16 ASCII letters.
    pub name: String,
    /// Any i64.
    pub birth_day: i64,
    /// 10 ASCII digits.
    pub phone: String,
    /// 0 to 9.
    pub siblings: i32,
    /// Any bool.
    pub spouse: bool,
    /// 0.00 to 9,999,999.99, in cents.
    pub money: f64,
}

impl RecordData {
    /// The checksum that the unmarshal functions return for this record.
    pub fn checksum(&self) -> u64 {
        record_mix(
            CHECKSUM_SEED,
            self.name.as_bytes(),
            self.birth_day,
            self.phone.as_bytes(),
            self.siblings,
            self.spouse,
            self.money,
        )
    }
}

/// Folds the fields of a record into `h` in schema order: the checksum of
/// [`RecordData::checksum`], shared by both sides.
pub fn record_mix(
    h: u64,
    name: &[u8],
    birth_day: i64,
    phone: &[u8],
    siblings: i32,
    spouse: bool,
    money: f64,
) -> u64 {
    let h = mix_bytes(h, name);
    let h = mix(h, birth_day as u64);
    let h = mix_bytes(h, phone);
    let h = mix(h, siblings as u32 as u64);
    let h = mix(h, u64::from(spouse));
    mix(h, money.to_bits())
}

/// splitmix64: small, deterministic, and good enough for test data.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `n` deterministic records from `seed` (same seed, same records, on every
/// platform).
pub fn gen_records(n: usize, seed: u64) -> Vec<RecordData> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| {
            let name = (0..16)
                .map(|_| {
                    let r = (rng.next() % 52) as u8;
                    char::from(if r < 26 { b'a' + r } else { b'A' + r - 26 })
                })
                .collect();
            let birth_day = rng.next() as i64;
            let phone = (0..10)
                .map(|_| char::from(b'0' + (rng.next() % 10) as u8))
                .collect();
            let siblings = (rng.next() % 10) as i32;
            let spouse = rng.next() & 1 == 1;
            let money = (rng.next() % 1_000_000_000) as f64 / 100.0;
            RecordData {
                name,
                birth_day,
                phone,
                siblings,
                spouse,
                money,
            }
        })
        .collect()
}

/// Sets the root of `msg` to the record `rec`.
pub fn record_fill<A: Allocator>(msg: &mut message::Builder<A>, rec: &RecordData) {
    let mut r = msg.init_root::<record::Builder>();
    r.set_name(rec.name.as_str());
    r.set_birth_day(rec.birth_day);
    r.set_phone(rec.phone.as_str());
    r.set_siblings(rec.siblings);
    r.set_spouse(rec.spouse);
    r.set_money(rec.money);
}

/// Marshals `rec` into a fresh default-allocator message and frames it into
/// `out` (cleared first).
pub fn marshal(rec: &RecordData, out: &mut Vec<u8>) {
    let mut msg = message::Builder::new_default();
    record_fill(&mut msg, rec);
    frame_into(&msg, out);
}

/// Marshals `rec` on a new `ScratchSpaceHeapAllocator` over `scratch`
/// (zeroed whole by capnp on every call) and frames it into `out`.
pub fn marshal_scratch(rec: &RecordData, scratch: &mut [u8], out: &mut Vec<u8>) {
    let mut msg = message::Builder::new(ScratchSpaceHeapAllocator::new(scratch));
    record_fill(&mut msg, rec);
    frame_into(&msg, out);
}

/// Keeps one `ScratchSpaceHeapAllocator` across marshal iterations.
pub struct MarshalReuse<'a> {
    alloc: ScratchSpaceHeapAllocator<'a>,
}

impl<'a> MarshalReuse<'a> {
    /// Wraps `scratch` (8-byte aligned; [`RECORD_SCRATCH_WORDS`] words hold
    /// one record).
    pub fn new(scratch: &'a mut [u8]) -> Self {
        Self {
            alloc: ScratchSpaceHeapAllocator::new(scratch),
        }
    }

    /// Marshals `rec` on the kept allocator and frames it into `out`
    /// (cleared first).
    pub fn marshal(&mut self, rec: &RecordData, out: &mut Vec<u8>) {
        let mut msg = message::Builder::new(&mut self.alloc);
        record_fill(&mut msg, rec);
        frame_into(&msg, out);
    }
}

/// Folds every field of a record into `h`, as [`RecordData::checksum`].
pub fn record_checksum(h: u64, r: record::Reader) -> capnp::Result<u64> {
    Ok(record_mix(
        h,
        r.get_name()?.as_bytes(),
        r.get_birth_day(),
        r.get_phone()?.as_bytes(),
        r.get_siblings(),
        r.get_spouse(),
        r.get_money(),
    ))
}

/// Unmarshals a framed record with `capnp::serialize::read_message` from the
/// slice (copies the segments into owned, heap-allocated words) and returns
/// the checksum of every field ([`RecordData::checksum`]). Any alignment.
pub fn unmarshal_copy(bytes: &[u8]) -> capnp::Result<u64> {
    let msg = serialize::read_message(bytes, opts())?;
    record_checksum(CHECKSUM_SEED, msg.get_root()?)
}

/// Unmarshals a framed record in place with
/// `read_message_from_flat_slice_no_alloc` (no copy, no allocation; `bytes`
/// must be 8-byte aligned) and returns the checksum of every field.
pub fn unmarshal_zero_copy(bytes: &[u8]) -> capnp::Result<u64> {
    let msg = read_flat(bytes)?;
    record_checksum(CHECKSUM_SEED, msg.get_root()?)
}

/// Like [`unmarshal_zero_copy`] but with `read_message_from_flat_slice`,
/// which does not copy the words but allocates its segment index table.
pub fn unmarshal_zero_copy_alloc(bytes: &[u8]) -> capnp::Result<u64> {
    let mut slice = bytes;
    let msg = serialize::read_message_from_flat_slice(&mut slice, opts())?;
    record_checksum(CHECKSUM_SEED, msg.get_root()?)
}

/// Unmarshals a framed record (copying) into an owned [`RecordData`].
pub fn unmarshal_owned(bytes: &[u8]) -> capnp::Result<RecordData> {
    let msg = serialize::read_message(bytes, opts())?;
    let r: record::Reader = msg.get_root()?;
    Ok(RecordData {
        name: r.get_name()?.to_string()?,
        birth_day: r.get_birth_day(),
        phone: r.get_phone()?.to_string()?,
        siblings: r.get_siblings(),
        spouse: r.get_spouse(),
        money: r.get_money(),
    })
}

/// Records each framed on its own (by capnp), kept back to back in one
/// word-aligned buffer, with the byte range of each: the input of the
/// unmarshal scenarios.
#[derive(Clone, Debug)]
pub struct FramedRecords {
    words: Vec<capnarena::Word>,
    ranges: Vec<std::ops::Range<usize>>,
}

impl FramedRecords {
    /// Frames every record of `recs` with [`marshal`].
    pub fn new(recs: &[RecordData]) -> Self {
        let mut ranges = Vec::with_capacity(recs.len());
        let mut all = Vec::new();
        let mut one = Vec::new();
        for rec in recs {
            marshal(rec, &mut one);
            ranges.push(all.len()..all.len() + one.len());
            all.extend_from_slice(&one);
        }
        Self {
            words: capnarena::words_from_bytes(&all).unwrap(),
            ranges,
        }
    }

    /// The framed records in order, each starting on an 8-byte boundary.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let bytes = capnarena::Word::slice_as_bytes(&self.words);
        self.ranges.iter().map(move |r| &bytes[r.clone()])
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }
}

// ---------------------------------------------------------------------------
// decode_stream: records framed back to back, read one after another.

/// [`STREAM_RECORDS`]-style input: `n` records from [`STREAM_SEED`], each
/// framed on its own, back to back.
pub fn frame_records(n: usize) -> Vec<u8> {
    frame_record_list(&gen_records(n, STREAM_SEED))
}

/// Frames each record of `recs` on its own, back to back.
pub fn frame_record_list(recs: &[RecordData]) -> Vec<u8> {
    let mut all = Vec::new();
    let mut one = Vec::new();
    for rec in recs {
        marshal(rec, &mut one);
        all.extend_from_slice(&one);
    }
    all
}

/// Checksum that the decode-stream functions return for `recs`.
pub fn stream_expected_checksum(recs: &[RecordData]) -> u64 {
    recs.iter().fold(CHECKSUM_SEED, |h, r| mix(h, r.checksum()))
}

/// Reads every message of a back-to-back stream in place with
/// `read_message_from_flat_slice_no_alloc` (`bytes` 8-byte aligned) and
/// returns a checksum over every field of every record.
pub fn decode_stream(bytes: &[u8]) -> capnp::Result<u64> {
    let mut slice = bytes;
    let mut h = CHECKSUM_SEED;
    while !slice.is_empty() {
        let msg = serialize::read_message_from_flat_slice_no_alloc(&mut slice, opts())?;
        h = mix(h, record_checksum(CHECKSUM_SEED, msg.get_root()?)?);
    }
    Ok(h)
}

/// Reads the same stream with `serialize::try_read_message` (each message's
/// segments copied into owned words, like a stream decoder). Any alignment.
pub fn decode_stream_copy(bytes: &[u8]) -> capnp::Result<u64> {
    let mut slice = bytes;
    let mut h = CHECKSUM_SEED;
    while let Some(msg) = serialize::try_read_message(&mut slice, opts())? {
        h = mix(h, record_checksum(CHECKSUM_SEED, msg.get_root()?)?);
    }
    Ok(h)
}

// ---------------------------------------------------------------------------
// reset: capnp has no `Builder::reset`/`clear`.

/// The closest capnp equivalent of resetting a message and building it
/// again: capnp's `message::Builder` has no reset or clear, so each cycle
/// drops the previous `Builder` and makes a new one over the same kept
/// `&mut ScratchSpaceHeapAllocator`. Dropping the `Builder` hands its
/// segment back through `deallocate_segment`, which re-zeroes the words it
/// used; the next `Builder` gets the same scratch segment back, so a
/// steady-state cycle does not touch the heap.
pub struct ResetReuse<'a> {
    alloc: ScratchSpaceHeapAllocator<'a>,
}

impl<'a> ResetReuse<'a> {
    /// Wraps `scratch` (8-byte aligned; [`SMALL_SCRATCH_WORDS`] is enough).
    pub fn new(scratch: &'a mut [u8]) -> Self {
        Self {
            alloc: ScratchSpaceHeapAllocator::new(scratch),
        }
    }

    /// Reset only: new `Builder` on the kept allocator, `init_root::<Small>`,
    /// drop. Returns the words used (3: root pointer and `Small`).
    pub fn reset_init_root(&mut self) -> usize {
        let mut msg = message::Builder::new(&mut self.alloc);
        msg.init_root::<small::Builder>();
        msg.size_in_words()
    }

    /// Reset, then build the small message again (no framing). Returns the
    /// words used ([`SMALL_WORDS`]).
    pub fn reset_build_small(&mut self) -> usize {
        let mut msg = message::Builder::new(&mut self.alloc);
        small_fill(&mut msg);
        msg.size_in_words()
    }
}

// ---------------------------------------------------------------------------
// text_copy: deep copy of a List(Text) into another message.

/// Text `i` of the text-copy source: [`TEXT_COPY_LEN`] printable bytes.
fn text_copy_item(i: u32, buf: &mut Vec<u8>) {
    buf.clear();
    buf.extend((0..TEXT_COPY_LEN).map(|j| b' ' + ((i as usize * 7 + j) % 95) as u8));
}

/// The text-copy source: a `Texts` message of [`TEXT_COPY_ITEMS`] texts of
/// [`TEXT_COPY_LEN`] bytes, framed (one segment).
pub fn texts_source() -> Vec<u8> {
    let mut scratch = scratch_words(TEXT_COPY_SCRATCH_WORDS);
    let mut msg = message::Builder::new(ScratchSpaceHeapAllocator::new(Word::words_to_bytes_mut(
        &mut scratch,
    )));
    let mut items = msg
        .init_root::<texts::Builder>()
        .init_items(TEXT_COPY_ITEMS);
    let mut buf = Vec::new();
    for i in 0..TEXT_COPY_ITEMS {
        text_copy_item(i, &mut buf);
        items.set(i, std::str::from_utf8(&buf).expect("ASCII"));
    }
    let mut out = Vec::new();
    frame_into(&msg, &mut out);
    out
}

fn text_copy_into<A: Allocator>(src: &[u8], msg: &mut message::Builder<A>) -> capnp::Result<()> {
    let src_msg = read_flat(src)?;
    let items = src_msg.get_root::<texts::Reader>()?.get_items()?;
    msg.init_root::<texts::Builder>().set_items(items)
}

/// Deep-copies the `items` list of the framed `Texts` message `src` (8-byte
/// aligned; read in place) into a fresh default-allocator message with
/// `set_items(reader)`, and returns the destination's framed size.
pub fn text_copy(src: &[u8]) -> capnp::Result<FramedSize> {
    let mut msg = message::Builder::new_default();
    text_copy_into(src, &mut msg)?;
    Ok(FramedSize::of(&msg))
}

/// [`text_copy`] into a message on a new `ScratchSpaceHeapAllocator` over
/// `scratch` (zeroed whole by capnp on every call).
pub fn text_copy_scratch(src: &[u8], scratch: &mut [u8]) -> capnp::Result<FramedSize> {
    let mut msg = message::Builder::new(ScratchSpaceHeapAllocator::new(scratch));
    text_copy_into(src, &mut msg)?;
    Ok(FramedSize::of(&msg))
}

/// Keeps one `ScratchSpaceHeapAllocator` across text-copy iterations.
pub struct TextCopyReuse<'a> {
    alloc: ScratchSpaceHeapAllocator<'a>,
}

impl<'a> TextCopyReuse<'a> {
    /// Wraps `scratch` (8-byte aligned; [`TEXT_COPY_SCRATCH_WORDS`] words hold
    /// the copy in one segment).
    pub fn new(scratch: &'a mut [u8]) -> Self {
        Self {
            alloc: ScratchSpaceHeapAllocator::new(scratch),
        }
    }

    /// [`text_copy`] into a message on the kept allocator.
    pub fn copy(&mut self, src: &[u8]) -> capnp::Result<FramedSize> {
        let mut msg = message::Builder::new(&mut self.alloc);
        text_copy_into(src, &mut msg)?;
        Ok(FramedSize::of(&msg))
    }
}

/// Checksum of every text of a framed `Texts` message (aligned, in place).
pub fn texts_read(bytes: &[u8]) -> capnp::Result<(u32, u64)> {
    let msg = read_flat(bytes)?;
    let items = msg.get_root::<texts::Reader>()?.get_items()?;
    let mut h = CHECKSUM_SEED;
    for t in items.iter() {
        h = mix_bytes(h, t?.as_bytes());
    }
    Ok((items.len(), h))
}

// ---------------------------------------------------------------------------
// read_all_log: every field of tests/vectors/log.bin.

fn log_checksum(root: log::Reader) -> capnp::Result<u64> {
    let mut h = CHECKSUM_SEED;
    for e in root.get_entries()?.iter() {
        let e: entry::Reader = e;
        h = mix(h, e.get_timestamp());
        h = mix(h, u64::from(e.get_level()));
        h = mix_bytes(h, e.get_message()?.as_bytes());
        let tags = e.get_tags()?;
        h = mix(h, u64::from(tags.len()));
        for t in tags.iter() {
            h = mix_bytes(h, t?.as_bytes());
        }
    }
    Ok(h)
}

/// Reads every field of a framed `Log` message in place (`bytes` 8-byte
/// aligned, standard framing, e.g. `tests/vectors/log.bin`) and returns a
/// checksum: per entry timestamp, level, message bytes, tag count and each
/// tag's bytes, in that order.
pub fn read_all_log(bytes: &[u8]) -> capnp::Result<u64> {
    let msg = read_flat(bytes)?;
    log_checksum(msg.get_root()?)
}

/// [`read_all_log`] through `serialize::read_message` (copying). Any
/// alignment.
pub fn read_all_log_copy(bytes: &[u8]) -> capnp::Result<u64> {
    let msg = serialize::read_message(bytes, opts())?;
    log_checksum(msg.get_root()?)
}

/// Number of entries of a framed `Log` message (aligned).
pub fn log_entries(bytes: &[u8]) -> capnp::Result<u32> {
    let msg = read_flat(bytes)?;
    Ok(msg.get_root::<log::Reader>()?.get_entries()?.len())
}

// ---------------------------------------------------------------------------
// pack / unpack.

/// A message held in a `message::Builder`, ready to be packed.
///
/// capnp 0.27's only packer is `serialize_packed::write_message(w,
/// &message::Builder)`: its packing `Write` wrapper is private, so framed
/// bytes cannot be packed without first copying the message into a
/// `Builder`. `PackSource` does that copy once, outside the timed loop, so
/// [`pack_message`] times packing alone.
pub struct PackSource {
    msg: message::Builder<HeapAllocator>,
}

impl PackSource {
    /// Copies the framed message `words_bytes` (8-byte aligned) into a
    /// builder whose first segment is large enough to hold it in one
    /// segment.
    pub fn from_framed(words_bytes: &[u8]) -> capnp::Result<Self> {
        let src = read_flat(words_bytes)?;
        let words = u32::try_from(src.size_in_words() + 8).expect("message under 32 GiB");
        let mut msg = message::Builder::new(HeapAllocator::new().first_segment_words(words));
        msg.set_root(src.get_root::<capnp::any_pointer::Reader>()?)?;
        Ok(Self { msg })
    }

    /// Framed size of the held message.
    pub fn framed_size(&self) -> FramedSize {
        FramedSize::of(&self.msg)
    }
}

/// Packs the held message into `out` (cleared first) with
/// `serialize_packed::write_message`: segment table and segments, packed.
pub fn pack_message(src: &PackSource, out: &mut Vec<u8>) {
    out.clear();
    serialize_packed::write_message(&mut *out, &src.msg).expect("writing to a Vec cannot fail");
}

/// Packs the framed message `words_bytes` (8-byte aligned) into `out`.
/// Includes a deep copy into a `Builder` (see [`PackSource`]); use
/// [`pack_message`] to time packing alone.
pub fn pack(words_bytes: &[u8], out: &mut Vec<u8>) -> capnp::Result<()> {
    let src = PackSource::from_framed(words_bytes)?;
    pack_message(&src, out);
    Ok(())
}

/// Unpacks a packed message into `out` with
/// `serialize_packed::read_message_no_alloc`, which writes the unpacked
/// framing (segment table, then segments) into the buffer and allocates
/// nothing. `out` keeps its capacity between calls; it grows (doubling) only
/// while it is too small. Returns the length in bytes of the unpacked
/// framed message at the front of `out`.
pub fn unpack(packed: &[u8], out: &mut Vec<Word>) -> capnp::Result<usize> {
    if out.is_empty() {
        out.resize(
            packed.len().div_ceil(8).max(8),
            capnp::word(0, 0, 0, 0, 0, 0, 0, 0),
        );
    }
    loop {
        match serialize_packed::read_message_no_alloc(packed, Word::words_to_bytes_mut(out), opts())
        {
            Ok(msg) => return Ok(framed_len(msg.get_segments())),
            Err(e) if e.kind == capnp::ErrorKind::BufferNotLargeEnough => {
                let n = out.len() * 2;
                out.resize(n, capnp::word(0, 0, 0, 0, 0, 0, 0, 0));
            }
            Err(e) => return Err(e),
        }
    }
}

/// [`STREAM_RECORDS`]-style packed input: `n` records from [`STREAM_SEED`],
/// each packed on its own with `serialize_packed::write_message`, back to
/// back.
pub fn pack_records(n: usize) -> Vec<u8> {
    let mut all = Vec::new();
    for rec in &gen_records(n, STREAM_SEED) {
        let mut msg = message::Builder::new_default();
        record_fill(&mut msg, rec);
        serialize_packed::write_message(&mut all, &msg).expect("writing to a Vec cannot fail");
    }
    all
}

/// Reads every message of a back-to-back stream of packed records with
/// `serialize_packed::try_read_message` (each message unpacked into owned,
/// heap-allocated segments) and returns the checksum [`decode_stream`]
/// returns for the same records.
pub fn packed_stream(bytes: &[u8]) -> capnp::Result<u64> {
    let mut slice = bytes;
    let mut h = CHECKSUM_SEED;
    while let Some(msg) = serialize_packed::try_read_message(&mut slice, opts())? {
        h = mix(h, record_checksum(CHECKSUM_SEED, msg.get_root()?)?);
    }
    Ok(h)
}

/// Unpacks with `serialize_packed::read_message` into owned segments (heap
/// allocated per call) and returns the framed length in bytes. The
/// allocating counterpart of [`unpack`].
pub fn unpack_owned(packed: &[u8]) -> capnp::Result<usize> {
    let msg = serialize_packed::read_message(packed, opts())?;
    Ok(framed_len(msg.get_segments()))
}

/// Length in bytes of the standard framing of `segs`: segment table, then
/// every segment.
fn framed_len<S: ReaderSegments + ?Sized>(segs: &S) -> usize {
    let n = segs.len();
    let table = (n / 2 + 1) * 8;
    table
        + (0..n)
            .map(|i| segs.get_segment(i as u32).map_or(0, <[u8]>::len))
            .sum::<usize>()
}
