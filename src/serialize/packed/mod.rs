//! Packed encoding: the Cap'n Proto spec's compression of runs of zero
//! bytes, word by word.
//!
//! Each word becomes a *tag* byte, bit `i` set when byte `i` of the word is
//! not zero, followed by the word's nonzero bytes in order. Two tags are
//! special:
//! - `0x00` (a zero word) is followed by a count `N`: `N` more zero words.
//! - `0xff` (a word with no zero byte) is followed by its 8 bytes, then a
//!   count `N`, then `N` words copied as they are (a *literal run*; the
//!   packer puts in it the following words that have at most one zero
//!   byte, where packing would not pay).
//!
//! Here:
//! - [`pack`] and [`unpack`] convert between slices without allocating;
//!   [`max_packed_len`] bounds the output of `pack`, [`unpacked_len`]
//!   gives the exact output of `unpack`; [`pack_prefix`] packs what fits
//!   in a fixed buffer and can be called again for the rest.
//! - [`Unpacker`] unpacks incrementally: input and output may come in
//!   pieces of any size, and it resumes in the middle of a word or a run.
//! - [`PackedWriter`] and [`PackedReader`] (feature `std`) are `io`
//!   adapters.
//! - On [`Message`](crate::Message): `write_packed_to`, `append_packed_to`,
//!   `read_packed_from` (any `BufRead`), `try_read_packed_from` (a stream
//!   of messages), `read_packed_from_bytes`.
//!
//! The packer ends runs only where its input ends, never because an output
//! buffer is full, so packing the segment table and then each segment
//! gives the same bytes as the reference implementation.
//!
//! On x86_64 with the `std` feature, the packer and the unpacker check once
//! per call whether the CPU has BMI2 (`pext`/`pdep`), and use it to gather
//! and spread a word's nonzero bytes; elsewhere they use shifts and tables.
//! Both give the same bytes.
//!
//! Files: `algorithm.rs` packs and unpacks whole items between slices (the
//! BMI2 variant in `algorithm/bmi2.rs`), `unpacker.rs` is the resumable
//! [`Unpacker`], `io.rs` the `io` adapters, `message.rs` reads and writes
//! whole messages packed.
//!
//! ```
//! use capnarena::Word;
//! use capnarena::serialize::packed::{max_packed_len, pack, unpack};
//!
//! let words = [Word::from_u64(0x0102), Word::ZERO, Word::ZERO, Word::from_u64(u64::MAX)];
//! let mut packed = [0u8; max_packed_len(4)];
//! let n = pack(&words, &mut packed)?;
//! assert_eq!(
//!     &packed[..n],
//!     &[0x03, 0x02, 0x01, /* zero word and 1 more */ 0x00, 0x01, /* dense */ 0xff,
//!       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* literal run */ 0x00]
//! );
//! let mut back = [Word::ZERO; 4];
//! assert_eq!(unpack(&packed[..n], &mut back)?, 4);
//! assert_eq!(back, words);
//! # Ok::<(), capnarena::Error>(())
//! ```

mod algorithm;
#[cfg(feature = "std")]
mod io;
mod message;
#[cfg(test)]
mod tests;
mod unpacker;

#[cfg(feature = "alloc")]
pub use algorithm::pack_to_vec;
pub use algorithm::{MAX_ITEM_LEN, PackProgress, max_packed_len, pack, pack_prefix, packed_len};
#[cfg(feature = "std")]
pub use io::{PackedReader, PackedWriter};
#[cfg(feature = "std")]
pub use message::write_packed_segments;
#[cfg(feature = "alloc")]
pub use unpacker::unpack_to_vec;
pub use unpacker::{Progress, Unpacker, unpack, unpacked_len};
