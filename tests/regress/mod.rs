//! Shared helpers for the untrusted-input regression suite.
//!
//! Every message in this suite is written out word by word in hex, with a
//! comment per word saying what the bits encode (see the encoding spec:
//! struct pointer `A=0 | offset<<2 | data<<32 | ptrs<<48`; list pointer
//! `A=1 | offset<<2 | size<<32 | count<<35`; far pointer
//! `A=2 | double<<2 | pad<<3 | segment<<32`; other `A=3 | index<<32`).

use std::io::Cursor;

use capnarena::{Error, Message, MessageReader, ReaderOptions, SingleSegmentArena, Word};

/// Asserts that `$result` is an `Err` matching `$pat`, printing the error
/// it got otherwise. Works on results whose `Ok` type is not `Debug`.
macro_rules! assert_err {
    ($result:expr, $pat:pat $(if $guard:expr)? $(,)?) => {
        match $result {
            Ok(_) => panic!("expected Err({}), got Ok", stringify!($pat)),
            Err(e) => assert!(
                matches!(e, $pat $(if $guard)?),
                "expected {}, got {e:?}",
                stringify!($pat)
            ),
        }
    };
}

mod composite_tag;
mod cycles;
mod far_pointers;
mod list_compat;
mod nesting;
mod offset_overflow;
mod segment_table;
mod stream_limits;
mod text_terminator;
mod truncation;
mod zero_sized;

/// The words of one segment, exactly as given: nothing is prepended.
pub fn msg(words: &[u64]) -> Vec<Word> {
    words.iter().map(|&w| Word::from_u64(w)).collect()
}

/// A framed single-segment message: the segment table word
/// (`segment count - 1 = 0`, then the segment's size in words), then the
/// segment's words.
pub fn framed(segment: &[u64]) -> Vec<Word> {
    let len = u32::try_from(segment.len()).expect("segment too long for a test");
    let mut out = vec![Word::from_u64(u64::from(len) << 32)];
    out.extend(segment.iter().map(|&w| Word::from_u64(w)));
    out
}

/// [`framed`] as bytes.
pub fn framed_bytes(segment: &[u64]) -> Vec<u8> {
    Word::slice_as_bytes(&framed(segment)).to_vec()
}

/// Raw words (a segment table and segments written by hand) as bytes.
pub fn bytes_of(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A reader over segments given one by one, with `options`.
pub fn reader_with<'a>(segments: &'a [&'a [Word]], options: ReaderOptions) -> MessageReader<'a> {
    MessageReader::from_segments(segments, options).expect("within the segment limit")
}

/// A reader over segments given one by one, with the default limits.
pub fn reader<'a>(segments: &'a [&'a [Word]]) -> MessageReader<'a> {
    reader_with(segments, ReaderOptions::default())
}

/// Reads the vector file `name` from `tests/vectors`.
pub fn vector(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

/// Runs `check` on the result of reading the framed message `bytes` on
/// every read path: `MessageReader::from_words` (only when `bytes` is a
/// whole number of words, so no padding is invented), `from_bytes` over an
/// 8-aligned copy, `Message::read_from_bytes` and `Message::read_from`
/// over a `Cursor`. `check` gets the path's name.
pub fn each_path(
    bytes: &[u8],
    options: ReaderOptions,
    check: impl Fn(&str, capnarena::Result<MessageReader<'_>>),
) {
    let words = crate::common::padded_words(bytes);
    if bytes.len() % 8 == 0 {
        check("from_words", MessageReader::from_words(&words, options));
    }
    let aligned = &Word::slice_as_bytes(&words)[..bytes.len()];
    check("from_bytes", MessageReader::from_bytes(aligned, options));
    let mut m = Message::new(SingleSegmentArena::new());
    check("read_from_bytes", m.read_from_bytes(bytes, options));
    let mut m = Message::new(SingleSegmentArena::new());
    check("read_from", m.read_from(Cursor::new(bytes), options));
}

/// The error of `r`, panicking (naming `path`) when it is `Ok`: for the
/// closures given to [`each_path`].
pub fn expect_err<T>(path: &str, r: capnarena::Result<T>) -> Error {
    match r {
        Ok(_) => panic!("{path}: expected an error, got Ok"),
        Err(e) => e,
    }
}
