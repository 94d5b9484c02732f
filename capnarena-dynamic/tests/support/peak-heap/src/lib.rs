//! A counting global allocator for tests: the heap a call takes at its
//! peak, and what it still holds when it returns.
//!
//! A test binary installs it and measures one call at a time:
//!
//! ```ignore
//! #[global_allocator]
//! static HEAP: peak_heap::PeakHeap = peak_heap::PeakHeap;
//!
//! let _alone = peak_heap::serial();
//! let input = make_input();
//! let (value, heap) = peak_heap::measure(|| build(&input));
//! assert!(heap.peak <= 2 * heap.held + 65536);
//! ```
//!
//! The counters are process-wide: every thread's allocations count. So a
//! test holds [`serial`] for its whole body, and the tests of one binary
//! that take it run one at a time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// `std::alloc::System`, counting the bytes allocated now and the most
/// at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct PeakHeap;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static SERIAL: Mutex<()> = Mutex::new(());

fn grow(by: usize) {
    let now = NOW.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees hold; the counters touch no memory
// that the allocator hands out.
unsafe impl GlobalAlloc for PeakHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's `layout` is valid for `System` as for us.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's `layout` is valid for `System` as for us.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System` (through us) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // The old and the new block may both be live while bytes move.
        grow(new_size);
        // SAFETY: `ptr` came from `System` with `layout`; the caller
        // guarantees `new_size` is valid for it.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            NOW.fetch_sub(new_size, Ordering::Relaxed);
        } else {
            NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

/// What a call measured by [`measure`] took from the heap, in bytes,
/// above what was allocated when it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heap {
    /// The most allocated at once while it ran.
    pub peak: usize,
    /// Still allocated when it returned, its result's heap included.
    pub held: usize,
}

/// A lock for a test's whole body: while one test holds it, no other
/// test that takes it allocates.
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` and measures its heap (only meaningful in a binary that
/// installs [`PeakHeap`] as its global allocator, with no other thread
/// allocating meanwhile: see [`serial`]).
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Heap) {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    let now = NOW.load(Ordering::Relaxed);
    let heap = Heap {
        peak: PEAK.load(Ordering::Relaxed).saturating_sub(base),
        held: now.saturating_sub(base),
    };
    (r, heap)
}
