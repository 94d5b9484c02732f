//! A message's segments as the builders see them: segment 0 starts after
//! the word reserved for a single-segment message's segment table. A
//! leaf: the builders, the data-section cache and the deep copy all read
//! segments through it.

use crate::arena::{Arena, SegmentId};
use crate::word::Word;

/// Words reserved in front of segment 0 for the segment table.
pub(super) const HEADER_WORDS: usize = 1;

/// Access to a message's segments as the builders see them.
pub(crate) struct BuilderSegments;

impl BuilderSegments {
    /// Bytes reserved in front of segment `id` as the arena hands it out:
    /// the segment table's word for segment 0, none for the others.
    #[inline(always)]
    pub(crate) fn header_bytes(id: u32) -> usize {
        if id == 0 { HEADER_WORDS * 8 } else { 0 }
    }

    /// Segment `id` of the message (segment 0 without its reserved word).
    #[inline]
    pub(crate) fn get<A: Arena + ?Sized>(arena: &A, id: u32) -> &[Word] {
        let s = arena.segment(SegmentId(id));
        if id == 0 {
            s.get(HEADER_WORDS..).unwrap_or(&[])
        } else {
            s
        }
    }

    #[inline]
    pub(crate) fn get_mut<A: Arena + ?Sized>(arena: &mut A, id: u32) -> &mut [Word] {
        let s = arena.segment_mut(SegmentId(id));
        if id == 0 {
            s.get_mut(HEADER_WORDS..).unwrap_or(&mut [])
        } else {
            s
        }
    }
}
