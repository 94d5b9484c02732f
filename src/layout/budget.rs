//! A budget of words a walk over a message may still visit: a copy (the
//! read context's copy bound) and the zeroing of an overwritten object
//! (the message's words) each charge every object they reach, so that
//! objects that overlap or point back run the budget out, never the walk.

use crate::error::{Error, Result};

/// Words a walk may still visit, out of `bound`.
pub(super) struct Budget {
    left: u64,
    bound: u64,
}

impl Budget {
    /// A budget of `bound` words.
    #[inline(always)]
    pub(super) fn new(bound: u64) -> Self {
        Budget { left: bound, bound }
    }

    /// Takes `words` from the budget: [`Error::TraversalLimitExceeded`]
    /// with the bound when fewer are left.
    #[inline(always)]
    pub(super) fn charge(&mut self, words: u64) -> Result<()> {
        match self.left.checked_sub(words) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(Error::TraversalLimitExceeded {
                limit: self.bound,
                requested: words,
            }),
        }
    }
}
