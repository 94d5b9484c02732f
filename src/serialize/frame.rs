//! The layout of a framed message learnt from a prefix of its bytes: the
//! one segment-table parser for readers that get their bytes piece by
//! piece (the tokio codecs, the async readers), built on the table helpers
//! every other reader uses ([`parse_count`], [`size_at`], [`check_total`]);
//! and the segment helpers the codecs and async writers share.

// Each feature uses part of this; `tokio` (which includes the others'
// users) uses all of it.
#![cfg_attr(not(feature = "tokio"), allow(dead_code))]

use alloc::vec::Vec;

use crate::error::{Error, PackedFault, Result};
use crate::layout::SegmentSource;
use crate::read::{MessageReader, ReaderOptions, TableHeader, header_bytes, parse_count, size_at};
use crate::serialize::check_total;
use crate::serialize::packed::Unpacker;
use crate::word::Word;

/// What a prefix of a framed message says about the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prefix {
    /// The segment table is not all in: at least this many bytes from the
    /// start of the frame are needed to learn more.
    Need(usize),
    /// The whole segment table is in and within the limits.
    Table(FrameLayout),
}

/// Where a framed message's parts lie, from its segment table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameLayout {
    /// Segments.
    pub count: u32,
    /// Bytes of the segment table, padding included.
    pub header_bytes: usize,
    /// Words of all segments together (checked against the traversal
    /// limit).
    pub body_words: u64,
}

impl FrameLayout {
    /// Bytes of the whole frame: table and segments.
    pub fn frame_bytes(&self) -> u64 {
        self.header_bytes as u64 + self.body_words * 8
    }
}

/// Reads as much of a segment table as `prefix` holds, checking each limit
/// as soon as its bytes are in: the segment count once the first 4 bytes
/// are, the total size against the traversal limit once the table is.
/// Nothing is allocated, so a hostile table is refused before anything is
/// reserved for it.
///
/// # Errors
/// [`Error::SegmentLimitExceeded`], [`Error::MessageTooLarge`].
#[inline]
pub(crate) fn parse_prefix(prefix: &[u8], options: &ReaderOptions) -> Result<Prefix> {
    let Some(&first) = prefix.first_chunk::<4>() else {
        return Ok(Prefix::Need(8));
    };
    let TableHeader {
        count,
        header_bytes,
    } = parse_count(first, options)?;
    let Some(table) = prefix.get(..header_bytes) else {
        return Ok(Prefix::Need(header_bytes));
    };
    let body_words: u64 = (0..count as usize)
        .map(|i| u64::from(size_at(table, i)))
        .sum();
    check_total(body_words, options)?;
    Ok(Prefix::Table(FrameLayout {
        count,
        header_bytes,
        body_words,
    }))
}

/// Checks a frame's size against a limit in bytes.
///
/// # Errors
/// [`Error::FrameTooLarge`] when `layout`'s frame is larger than `limit`.
pub(crate) fn check_frame_limit(layout: &FrameLayout, limit: usize) -> Result<()> {
    let declared = layout.frame_bytes();
    if declared > limit as u64 {
        return Err(Error::FrameTooLarge {
            declared,
            limit: limit as u64,
        });
    }
    Ok(())
}

/// The segments of a [`MessageReader`], to frame them again.
pub(crate) struct ReaderSegments<'r, 'a>(pub &'r MessageReader<'a>);

impl SegmentSource for ReaderSegments<'_, '_> {
    fn segment_count(&self) -> u32 {
        self.0.segment_count()
    }

    fn segment(&self, id: u32) -> Option<&[Word]> {
        self.0.segment(id)
    }
}

/// The segments of `src` in order (a missing one as empty).
pub(crate) fn segments_of<S: SegmentSource + ?Sized>(
    src: &S,
) -> impl ExactSizeIterator<Item = &[Word]> {
    (0..src.segment_count()).map(move |i| src.segment(i).unwrap_or(&[]))
}

/// Bytes of the framed message made of `src`'s segments.
pub(crate) fn framed_len<S: SegmentSource + ?Sized>(src: &S) -> u64 {
    let body: u64 = segments_of(src).map(|s| s.len() as u64).sum();
    header_bytes(src.segment_count()) as u64 + body * 8
}

/// Room for this many table words on the stack (31 segments); a larger
/// table goes on the heap.
pub(crate) const STACK_TABLE_WORDS: usize = 16;

/// Calls `f` with the segment table framing `src`, as words: on the stack
/// for up to 31 segments.
pub(crate) fn with_table_words<S: SegmentSource + ?Sized, T>(
    src: &S,
    f: impl FnOnce(&[Word]) -> T,
) -> T {
    let mut small = [Word::ZERO; STACK_TABLE_WORDS];
    let mut large = Vec::new();
    f(table_words(src, &mut small, &mut large))
}

/// Writes the segment table framing `src` into `small` when it fits
/// (31 segments), else into `large`; returns it.
pub(crate) fn table_words<'t, S: SegmentSource + ?Sized>(
    src: &S,
    small: &'t mut [Word; STACK_TABLE_WORDS],
    large: &'t mut Vec<Word>,
) -> &'t [Word] {
    let count = src.segment_count();
    let words = header_bytes(count) / 8;
    let table: &mut [Word] = if words <= STACK_TABLE_WORDS {
        &mut small[..words]
    } else {
        large.resize(words, Word::ZERO);
        large
    };
    let bytes = Word::slice_as_bytes_mut(table);
    bytes[..4].copy_from_slice(&count.wrapping_sub(1).to_le_bytes());
    for (i, seg) in segments_of(src).enumerate() {
        bytes[4 + 4 * i..8 + 4 * i].copy_from_slice(&(seg.len() as u32).to_le_bytes());
    }
    table
}

/// At the end of a packed message: no zero or literal run may go on into
/// the next one (the reference rejects that too). The error is the one
/// the crate's other packed readers give: the offset of the run's tag,
/// [`PackedFault::OutputFull`] at the message's size.
pub(crate) fn packed_end_of_message(u: &Unpacker, message_bytes: u64) -> Result<()> {
    if u.is_at_item_boundary() {
        return Ok(());
    }
    match u.finish() {
        Err(Error::Packed { offset, .. }) => Err(Error::Packed {
            offset,
            fault: PackedFault::OutputFull {
                capacity_bytes: message_bytes,
            },
        }),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The prefix parser asks for exactly the bytes it needs next, and
    /// refuses a segment count over the limit from the first 4 bytes and a
    /// declared size over the traversal limit from the complete table,
    /// before anything else is in.
    #[test]
    fn prefix_steps_and_limits() {
        let o = ReaderOptions::default();
        assert_eq!(parse_prefix(&[], &o).unwrap(), Prefix::Need(8));
        assert_eq!(parse_prefix(&[0, 0, 0], &o).unwrap(), Prefix::Need(8));
        // Three segments: a table of 16 bytes.
        let table = [2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
        assert_eq!(parse_prefix(&table[..4], &o).unwrap(), Prefix::Need(16));
        assert_eq!(parse_prefix(&table[..15], &o).unwrap(), Prefix::Need(16));
        let layout = FrameLayout {
            count: 3,
            header_bytes: 16,
            body_words: 6,
        };
        assert_eq!(parse_prefix(&table, &o).unwrap(), Prefix::Table(layout));
        assert_eq!(layout.frame_bytes(), 16 + 48);
        // 513 segments: refused on the count alone.
        let e = parse_prefix(&[0, 2, 0, 0], &o).unwrap_err();
        assert!(matches!(
            e,
            Error::SegmentLimitExceeded {
                count: 513,
                limit: 512
            }
        ));
        // One segment of 2^32 - 1 words, over the traversal limit.
        let e = parse_prefix(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], &o).unwrap_err();
        assert!(matches!(
            e,
            Error::MessageTooLarge {
                declared: 0xffff_ffff,
                limit: 0x80_0000
            }
        ));
        let e = check_frame_limit(&layout, 63).unwrap_err();
        assert!(matches!(
            e,
            Error::FrameTooLarge {
                declared: 64,
                limit: 63
            }
        ));
        check_frame_limit(&layout, 64).unwrap();
    }
}
