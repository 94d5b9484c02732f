//! [`FixedArena`]: one segment over a caller's buffer, no heap.

use super::{AllocError, Arena, EAGER_RESET_WORDS, SegmentId, WordsOutside, zero_words};
use crate::word::Word;

/// One segment over a caller-provided `&mut [Word]`: no heap at all.
///
/// When the buffer is full, [`Arena::allocate`] returns [`AllocError`]; the
/// words already handed out stay as they were. Words are zeroed as they are
/// allocated, so the caller's buffer need not be zero to begin with.
/// [`Arena::reset`] zeroes what a small message wrote (up to 4,096 words,
/// in cache); after a larger one, words are zeroed as they are handed out
/// again, and not at all when [`Arena::allocate_overwritten`] hands them
/// out.
///
/// ```
/// use capnarena::{FixedArena, Message, StructSize, Word};
/// let mut buf = [Word::ZERO; 16];
/// let mut msg = Message::new(FixedArena::new(&mut buf));
/// let mut root = msg.init_root_struct(StructSize::new(1, 0))?;
/// root.set::<u32>(0, 7);
/// assert_eq!(msg.reader().root()?.get::<u32>(0), 7);
/// # Ok::<(), capnarena::Error>(())
/// ```
#[derive(Debug)]
pub struct FixedArena<'a> {
    // Invariants: `used <= clean_end <= buf.len()`; `buf[..used]` is what
    // was handed out; `buf[used..clean_end]` is all zero.
    buf: &'a mut [Word],
    used: usize,
    clean_end: usize,
}

impl<'a> FixedArena<'a> {
    /// An empty arena over `buf`.
    pub fn new(buf: &'a mut [Word]) -> Self {
        FixedArena {
            buf,
            used: 0,
            clean_end: 0,
        }
    }

    /// Words in the buffer.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }

    /// Words handed out since the last reset.
    pub fn used(&self) -> usize {
        self.used
    }
}

impl Arena for FixedArena<'_> {
    /// Its words are in the buffer it borrows, never in the value itself.
    #[inline(always)]
    fn words_outside(&self) -> Option<WordsOutside<'_>> {
        Some(WordsOutside::of(self))
    }

    #[inline]
    fn segment_count(&self) -> u32 {
        u32::from(self.used > 0)
    }

    #[inline]
    fn segment(&self, id: SegmentId) -> &[Word] {
        if id.0 == 0 {
            &self.buf[..self.used]
        } else {
            &[]
        }
    }

    #[inline]
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        if id.0 == 0 {
            &mut self.buf[..self.used]
        } else {
            &mut []
        }
    }

    #[inline]
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        // `buf[used..clean_end]` is zero, so of the words handed out only
        // those from `clean_end` on need zeroing.
        let clean = self.clean_end;
        let r = self.allocate_overwritten(len, hint)?;
        if self.used > clean {
            zero_words(&mut self.buf[clean..self.used]);
        }
        Ok(r)
    }

    #[inline]
    fn allocate_overwritten(
        &mut self,
        len: u32,
        _hint: SegmentId,
    ) -> Result<(SegmentId, u32), AllocError> {
        let available = self.buf.len() - self.used;
        let len_usize = len as usize;
        if len_usize > available || self.used > u32::MAX as usize {
            return Err(AllocError {
                requested: u64::from(len),
                available: available as u64,
            });
        }
        let start = self.used;
        self.used = start + len_usize;
        self.clean_end = self.clean_end.max(self.used);
        Ok((SegmentId(0), start as u32))
    }

    #[inline]
    fn allocate_in_mut(
        &mut self,
        len: u32,
        id: SegmentId,
        zeroed: bool,
    ) -> Option<(u32, &mut [Word])> {
        // The one segment; no room is `None`, and `allocate` reports it.
        if id.0 != 0 {
            return None;
        }
        let start = self.used;
        let end = start.checked_add(len as usize)?;
        if end > self.buf.len() || end > u32::MAX as usize {
            return None;
        }
        self.used = end;
        let clean = self.clean_end;
        self.clean_end = clean.max(end);
        let words = self.buf.get_mut(..end)?;
        if zeroed && end > clean {
            if let Some(w) = words.get_mut(clean.max(start)..) {
                zero_words(w);
            }
        }
        // `segment_mut(0)` after the allocation.
        Some((start as u32, words))
    }

    #[inline]
    fn reset(&mut self) {
        if self.used == 0 {
            // Nothing handed out since the last reset.
        } else if self.used <= EAGER_RESET_WORDS {
            // A small message: zeroed now, in cache (`buf[used..clean_end]`
            // is zero already).
            self.buf[..self.used].fill(Word::ZERO);
        } else {
            // Nothing is known zero any more: words are zeroed as they are
            // allocated again.
            self.clean_end = 0;
        }
        self.used = 0;
    }

    /// Leaves what was used as it is: nothing is known zero any more, so
    /// words are zeroed as `allocate` hands them out again, and a read
    /// overwrites them.
    #[inline]
    fn reset_for_overwrite(&mut self) {
        self.used = 0;
        self.clean_end = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As for `SingleSegmentArena`: `reset_for_overwrite` zeroes nothing,
    /// and `allocate` after it hands out zeroes.
    #[test]
    fn reset_for_overwrite_leaves_words_and_allocate_still_zeroes() {
        let dirt = Word::from_u64(0x5a5a_5a5a_5a5a_5a5a);
        let mut buf = [Word::ZERO; 8];
        let mut a = FixedArena::new(&mut buf);
        a.allocate(6, SegmentId(0)).unwrap();
        a.segment_mut(SegmentId(0)).fill(dirt);
        a.reset_for_overwrite();
        a.allocate_overwritten(3, SegmentId(0)).unwrap();
        assert!(a.segment(SegmentId(0)).iter().all(|w| *w == dirt));
        assert_eq!(a.allocate(5, SegmentId(0)), Ok((SegmentId(0), 3)));
        assert!(
            a.segment(SegmentId(0))[3..]
                .iter()
                .all(|w| *w == Word::ZERO)
        );
    }

    #[test]
    fn allocations_are_zeroed_even_over_dirty_memory() {
        let mut buf = [Word::from_u64(u64::MAX); 4];
        let mut a = FixedArena::new(&mut buf);
        assert_eq!(a.allocate(3, SegmentId(0)), Ok((SegmentId(0), 0)));
        assert!(a.segment(SegmentId(0)).iter().all(|w| *w == Word::ZERO));
        assert_eq!(a.segment(SegmentId(0)).len(), 3);
    }

    #[test]
    fn full_is_an_error_that_keeps_the_content() {
        let mut buf = [Word::ZERO; 4];
        let mut a = FixedArena::new(&mut buf);
        a.allocate(3, SegmentId(0)).unwrap();
        a.segment_mut(SegmentId(0))[2] = Word::from_u64(9);
        assert_eq!(
            a.allocate(2, SegmentId(0)),
            Err(AllocError {
                requested: 2,
                available: 1
            })
        );
        assert_eq!(a.segment(SegmentId(0))[2], Word::from_u64(9));
        assert_eq!(a.allocate(1, SegmentId(0)), Ok((SegmentId(0), 3)));
    }

    #[test]
    fn reset_forgets_and_rezeroes_on_allocation() {
        let mut buf = [Word::ZERO; 2];
        let mut a = FixedArena::new(&mut buf);
        a.allocate(2, SegmentId(0)).unwrap();
        a.segment_mut(SegmentId(0))[0] = Word::from_u64(1);
        a.reset();
        assert_eq!(a.segment_count(), 0);
        assert_eq!(a.allocate(1, SegmentId(0)), Ok((SegmentId(0), 0)));
        assert_eq!(a.segment(SegmentId(0))[0], Word::ZERO);
    }
}
