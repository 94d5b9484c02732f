//! A counting global allocator for bench binaries and tests.
//!
//! The library does not install it: a binary that wants counts declares
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: capnarena_peers::alloc_count::CountingAllocator =
//!     capnarena_peers::alloc_count::CountingAllocator;
//! ```
//!
//! and brackets the code it measures with [`reset`] and [`count`]. The
//! counter is one process-wide atomic: allocations on every thread count,
//! so measure with one thread running (e.g. a single `#[test]` function).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

/// `std::alloc::System`, counting every `alloc`, `alloc_zeroed` and
/// `realloc` call (frees are not counted).
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAllocator;

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees hold; the counter touches no memory
// that the allocator hands out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s
        // contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged; `ptr` came from this allocator, which
        // is `System`, and the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Sets the allocation count to zero.
pub fn reset() {
    ALLOCATIONS.store(0, Ordering::Relaxed);
}

/// Allocations and reallocations since the last [`reset`] (or since start).
pub fn count() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}
