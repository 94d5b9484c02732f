//! Canonical form (the encoding spec's "Canonicalization"): one segment,
//! no segment table, objects in preorder, each struct's data section
//! without trailing zero words and its pointer section without trailing
//! null pointers, and every element of a struct list at the largest such
//! trimmed size. Canonical bytes are what one hashes or signs.

use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::{CopyMode, StructReader};
use crate::message::Message;
use crate::read::MessageReader;
use crate::word::Word;

impl<A: Arena> Message<A> {
    /// Replaces this message with the canonical form of `root` (from any
    /// message) and returns its words: the root pointer, then the root
    /// struct and everything it reaches, in one segment with no table.
    ///
    /// The arena must keep the message in one segment (a
    /// [`SingleSegmentArena`](crate::SingleSegmentArena), a
    /// [`FixedArena`](crate::FixedArena), or a multi-segment arena whose
    /// first segment is large enough).
    ///
    /// # Errors
    /// A malformed source or a source limit exceeded; the arena has no
    /// room; or [`Error::NotSingleSegment`] when the arena spread the
    /// message over several segments.
    pub fn set_root_canonical(&mut self, root: &StructReader<'_>) -> Result<&[Word]> {
        self.reset();
        self.root_pointer()?
            .copy_struct(root, CopyMode::Canonical)?;
        let segments = self.segment_count();
        if segments != 1 {
            return Err(Error::NotSingleSegment { segments });
        }
        Ok(self.segment(0).map_or(&[], |s| s.words()))
    }
}

impl MessageReader<'_> {
    /// Whether the message is in canonical form: one segment holding exactly
    /// the canonical layout of its root (so its bytes, without the segment
    /// table, are the canonical bytes).
    ///
    /// Builds the canonical form in a scratch arena and compares.
    ///
    /// # Errors
    /// A malformed message or a limit exceeded.
    #[cfg(feature = "alloc")]
    pub fn is_canonical(&self) -> Result<bool> {
        if self.segment_count() != 1 {
            return Ok(false);
        }
        let root = self.root()?;
        let mut scratch = Message::new(crate::SingleSegmentArena::new());
        let canonical = scratch.set_root_canonical(&root)?;
        Ok(self.segment(0) == Some(canonical))
    }
}
