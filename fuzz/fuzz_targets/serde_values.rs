//! Values read through serde from untrusted JSON (`json::from_slice`),
//! into a struct shaped as generated code shapes one (a list of large
//! structs, a text, data, a boxed struct of its own type), under a small
//! heap limit (`serde_support::with_value_limit`, 1 MiB). Properties:
//! - No panic, whatever the text.
//! - The heap allocated while reading, counted by this binary's global
//!   allocator, peaks at most at twice the limit plus 256 KiB (the
//!   parser's own small state): short input cannot build large values.
#![no_main]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use capnarena::serde::{Deserialize, Deserializer};
use capnarena::typed::value::serde_support::{self as support, DeserializeValue, StructFields};
use capnarena_dynamic::json::{self, JsonLimits};
use libfuzzer_sys::fuzz_target;

struct Peak;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(by: usize) {
    let now = NOW.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments;
// the counters do not touch the memory.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: the caller's `layout` is valid for `System` as for us.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grow(new_size);
        // SAFETY: `ptr` came from `System` with `layout`; `new_size` is
        // valid, as the caller guarantees.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        p
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

/// 480 bytes of data, as a generated struct of many fields holds.
#[derive(Default)]
struct Outer {
    list: Option<Vec<Outer>>,
    name: Option<String>,
    data: Option<Vec<u8>>,
    next: Option<Box<Outer>>,
    _fields: [[u64; 28]; 2],
}

impl StructFields for Outer {
    const NAME: &'static str = "Outer";
    const FIELDS: &'static [&'static str] = &["list", "name", "data", "next"];
    fn set_field<'de, D: Deserializer<'de>>(
        &mut self,
        _seen: &mut [bool],
        index: usize,
        d: D,
    ) -> Result<(), D::Error> {
        match index {
            0 => support::next_into(d, &mut self.list),
            1 => support::next_into(d, &mut self.name),
            2 => support::next_into(d, &mut self.data),
            _ => support::next_into(d, &mut self.next),
        }
    }
}

impl<'de> DeserializeValue<'de> for Outer {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        support::deserialize_struct(d)
    }
    fn deserialize_boxed<D: Deserializer<'de>>(d: D) -> Result<Box<Self>, D::Error> {
        support::deserialize_struct_boxed(d)
    }
}

impl<'de> Deserialize<'de> for Outer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        support::deserialize_struct(d)
    }
}

const LIMIT: usize = 1 << 20;

fuzz_target!(|text: &[u8]| {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let read = support::with_value_limit(LIMIT, || {
        json::from_slice::<Outer>(text, &JsonLimits::default())
    });
    let peak = PEAK.load(Ordering::Relaxed) - base;
    drop(read);
    let bound = 2 * LIMIT + (256 << 10);
    assert!(peak <= bound, "peak {peak} bytes > {bound}");
});
