//! The stack budget of the recursive readers and writers of this crate.
//!
//! Each of them (the JSON text reader, the serde deserializer, the JSON
//! decoder and encoder, the text printers) recurses once for each level
//! of the input's nesting. A depth limit alone does not bound the stack
//! they use: a level's frames differ between builds (an unoptimized one
//! can take ten times the stack of an optimized one) and, through serde,
//! include the frames of `Deserialize` impls this crate does not know.
//! So each measures the stack it uses as it goes: the distance between
//! the address of a local taken at its outermost level and one taken at
//! the current level (safe code, nothing is read through the addresses),
//! and stops with an error naming the depth, the bytes used and the
//! budget once that distance passes [`STACK_BUDGET`].

/// Bytes of stack a recursive reader or writer of this crate may use
/// from its outermost level to its innermost: 1 MiB, half of the 2 MiB a
/// thread started by `std::thread::spawn` has, leaving the other half to
/// the caller's frames and to the one level that runs between two
/// checks. Past it, reading or writing stops with an error
/// ([`JsonError::StackBudget`](crate::json::JsonError::StackBudget),
/// [`Error::StackBudget`](crate::Error::StackBudget), or for the JSON
/// encoder [`JsonError::Encode`](crate::json::JsonError::Encode)) rather
/// than overflowing the stack.
pub const STACK_BUDGET: usize = 1 << 20;

/// The address of a local of this (never inlined) function: taken at
/// two depths of a recursion, their distance is the stack that the
/// levels between them use.
#[inline(never)]
pub(crate) fn address() -> usize {
    let marker = 0u8;
    core::hint::black_box(&marker) as *const u8 as usize
}

/// The bytes of stack used since `base` (an [`address`] taken further
/// out), when they are over [`STACK_BUDGET`].
#[inline(never)]
pub(crate) fn over_budget(base: usize) -> Option<usize> {
    let used = base.abs_diff(address());
    (used > STACK_BUDGET).then_some(used)
}

/// The levels of a recursion entered, and the stack's address at the
/// outermost: what a recursive printer carries to check its stack.
#[derive(Debug)]
pub(crate) struct Meter {
    base: usize,
    depth: usize,
}

impl Meter {
    /// A meter whose outermost level starts here.
    pub(crate) fn new() -> Self {
        Meter {
            base: address(),
            depth: 0,
        }
    }

    /// Enters a level: an error once the stack used since the meter was
    /// made passes [`STACK_BUDGET`].
    pub(crate) fn enter(&mut self) -> crate::Result<()> {
        self.depth += 1;
        match over_budget(self.base) {
            None => Ok(()),
            Some(used) => Err(crate::Error::StackBudget {
                depth: self.depth,
                used,
                budget: STACK_BUDGET,
            }),
        }
    }

    /// Leaves the level last entered.
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}
