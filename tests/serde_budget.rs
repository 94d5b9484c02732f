//! The heap that generated values read through serde may take: bounded
//! by `serde_support::with_value_limit` (on by default), from any
//! deserializer, with an error that names the limit. Peak heap is
//! measured by a counting `#[global_allocator]`.
#![cfg(feature = "serde")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use capnarena::typed::value::serde_support::{
    self as support, DEFAULT_MAX_VALUE_BYTES, DeserializeValue, StructFields,
};
use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
use serde::{Deserializer, de};

/// Counts the bytes allocated now and the most at once.
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
        // Old and new blocks may both be live while the bytes move.
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

/// Peak heap above what was allocated before, while `f` runs (tests in
/// this file run one at a time: see `serial`).
fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (r, PEAK.load(Ordering::Relaxed) - base)
}

static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A struct as large as a generated one with many fields: 512 bytes.
#[derive(Debug, Default)]
struct Big {
    _words: Vec<u64>,
    _a: [u64; 32],
    _b: [u64; 29],
}

impl StructFields for Big {
    const NAME: &'static str = "Big";
    const FIELDS: &'static [&'static str] = &[];
    fn set_field<'de, D: Deserializer<'de>>(
        &mut self,
        _seen: &mut [bool],
        _index: usize,
        _d: D,
    ) -> Result<(), D::Error> {
        Err(de::Error::custom("Big has no fields"))
    }
}

impl<'de> DeserializeValue<'de> for Big {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        support::deserialize_struct(d)
    }
}

/// `[{}, {}, ...]`, `n` empty objects (endless for `None`), from serde's
/// own value deserializers: no JSON, no capnarena reader.
fn empty_objects(n: Option<usize>) -> Result<Vec<Big>, Error> {
    let empty = || MapDeserializer::<_, Error>::new(std::iter::empty::<(&str, &str)>());
    match n {
        Some(n) => Vec::<Big>::deserialize_value(SeqDeserializer::<_, Error>::new(
            std::iter::repeat_with(empty).take(n),
        )),
        None => Vec::<Big>::deserialize_value(SeqDeserializer::<_, Error>::new(
            std::iter::repeat_with(empty),
        )),
    }
}

/// Endless `{}`s, the worst shape (512 bytes of value per 3 bytes of
/// JSON), end with the limit's error at a small limit and at the
/// default; peak heap stays within 2x the limit (a list doubling holds
/// its old and new buffer at once) plus 1 MiB.
#[test]
fn endless_empty_structs_stop_at_the_limit() {
    let _serial = SERIAL.lock().unwrap();
    assert_eq!(size_of::<Big>(), 512);
    for limit in [1 << 20, 8 << 20, DEFAULT_MAX_VALUE_BYTES] {
        let (r, peak) = peak_of(|| {
            if limit == DEFAULT_MAX_VALUE_BYTES {
                // No limit set: the default is in force.
                assert_eq!(support::value_limit(), DEFAULT_MAX_VALUE_BYTES);
                empty_objects(None)
            } else {
                support::with_value_limit(limit, || empty_objects(None))
            }
        });
        let e = r.expect_err("an endless input is refused");
        assert!(
            e.to_string()
                .contains(&format!("over the limit of {limit} bytes")),
            "{e}"
        );
        let bound = 2 * limit + (1 << 20);
        assert!(peak <= bound, "limit {limit}: peak {peak} > {bound}");
    }
}

/// Input within the limit reads whole; the limit counts what the values
/// take (so exactly the values that fit are accepted), and is restored
/// after `with_value_limit`.
#[test]
fn values_within_the_limit_read() {
    let _serial = SERIAL.lock().unwrap();
    // 1000 structs: a list that doubled from 4 to 1024 elements, 512
    // bytes each, charged 4 + 4 + 8 + ... + 512 = 1024 elements.
    let charged = 1024 * 512;
    let (r, peak) = peak_of(|| support::with_value_limit(charged, || empty_objects(Some(1000))));
    assert_eq!(r.unwrap().len(), 1000);
    assert!(peak <= 2 * charged + (64 << 10), "peak {peak}");
    let e = support::with_value_limit(charged - 1, || empty_objects(Some(1000))).unwrap_err();
    assert!(e.to_string().contains("over the limit"), "{e}");
    assert_eq!(support::value_limit(), DEFAULT_MAX_VALUE_BYTES);
}
