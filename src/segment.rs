//! [`Segment`]: a read view of one segment of a message.

use crate::arena::SegmentId;
use crate::word::Word;

/// One segment of a message: its number and its words.
#[derive(Clone, Copy, Debug)]
pub struct Segment<'a> {
    id: SegmentId,
    words: &'a [Word],
}

impl<'a> Segment<'a> {
    pub(crate) fn new(id: SegmentId, words: &'a [Word]) -> Self {
        Segment { id, words }
    }

    /// The segment's number in the message.
    pub fn id(&self) -> SegmentId {
        self.id
    }

    /// The segment's words.
    pub fn words(&self) -> &'a [Word] {
        self.words
    }

    /// The segment's bytes, as they go on the wire.
    pub fn as_bytes(&self) -> &'a [u8] {
        Word::slice_as_bytes(self.words)
    }

    /// Words in the segment.
    pub fn len_words(&self) -> u32 {
        self.words.len() as u32
    }
}
