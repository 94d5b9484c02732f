//! The heap that deserialized values may take: a limit on the bytes one
//! deserialization allocates (lists, texts, data, boxes, values kept for
//! a union's tag), so that short input cannot build a large value. JSON
//! as short as `[{}, {}, ...]` asks for a struct per 3 bytes, and a
//! generated struct may take hundreds of bytes.
//!
//! The limit holds for each outermost deserialization on a thread, from
//! any deserializer: the support functions charge what they allocate
//! against it. Set it with [`with_value_limit`]; without `std` (no
//! thread-local storage) values are not bounded.

#[cfg(feature = "std")]
use core::cell::Cell;
use core::mem::size_of;

use alloc::vec::Vec;
use serde::de;

/// The default limit on the heap one deserialization's values take:
/// 256 MiB, what the JSON decoder's default message limit
/// (2^25 words) allows a message to take.
pub const DEFAULT_MAX_VALUE_BYTES: usize = 256 << 20;

#[cfg(feature = "std")]
std::thread_local! {
    /// The limit on this thread.
    static LIMIT: Cell<usize> = const { Cell::new(DEFAULT_MAX_VALUE_BYTES) };
    /// Bytes charged by the outermost deserialization running on this
    /// thread; `None` when none runs.
    static USED: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Runs `f` with `limit` as the bytes of heap that each deserialization
/// of generated values inside it may take (on this thread). Without the
/// `std` feature, `f` runs with values unbounded.
///
/// ```
/// use capnarena::typed::value::serde_support::{value_limit, with_value_limit};
///
/// assert_eq!(with_value_limit(1 << 20, value_limit), 1 << 20);
/// ```
pub fn with_value_limit<R>(limit: usize, f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "std")]
    {
        struct Restore(usize);
        impl Drop for Restore {
            fn drop(&mut self) {
                LIMIT.with(|l| l.set(self.0));
            }
        }
        let _restore = Restore(LIMIT.with(|l| l.replace(limit)));
        f()
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = limit;
        f()
    }
}

/// The limit in force on this thread ([`DEFAULT_MAX_VALUE_BYTES`] unless
/// [`with_value_limit`] set one; `usize::MAX` without `std`).
pub fn value_limit() -> usize {
    #[cfg(feature = "std")]
    {
        LIMIT.with(Cell::get)
    }
    #[cfg(not(feature = "std"))]
    {
        usize::MAX
    }
}

/// One deserialization's account: the outermost scope on a thread opens
/// it, and closes it when dropped (on success, error or unwind alike).
pub(super) struct Scope {
    #[cfg(feature = "std")]
    outermost: bool,
}

impl Scope {
    pub(super) fn enter() -> Scope {
        #[cfg(feature = "std")]
        {
            let outermost = USED.with(|u| {
                if u.get().is_none() {
                    u.set(Some(0));
                    true
                } else {
                    false
                }
            });
            Scope { outermost }
        }
        #[cfg(not(feature = "std"))]
        {
            Scope {}
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        if self.outermost {
            USED.with(|u| u.set(None));
        }
    }
}

/// Charges `bytes` of heap to the running deserialization.
///
/// # Errors
/// The total would pass the limit: the error names both.
pub(super) fn charge<E: de::Error>(bytes: usize) -> Result<(), E> {
    #[cfg(feature = "std")]
    {
        let limit = LIMIT.with(Cell::get);
        USED.with(|u| {
            let used = u.get().unwrap_or(0);
            let total = used.saturating_add(bytes);
            if total > limit {
                return Err(E::custom(format_args!(
                    "the deserialized values would take {total} bytes of heap \
                     ({bytes} more), over the limit of {limit} bytes \
                     (serde_support::with_value_limit)"
                )));
            }
            if u.get().is_some() {
                u.set(Some(total));
            }
            Ok(())
        })
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = bytes;
        Ok(())
    }
}

/// An empty vector with room for what `hint` claims, at most 4096
/// elements and 64 KiB, charged.
pub(super) fn vec_with_hint<T, E: de::Error>(hint: Option<usize>) -> Result<Vec<T>, E> {
    let size = size_of::<T>().max(1);
    let n = hint.unwrap_or(0).min(4096).min((64 << 10) / size);
    charge::<E>(n * size_of::<T>())?;
    Ok(Vec::with_capacity(n))
}

/// Pushes `v` onto `out`, charging the room `out` grows by (it doubles,
/// from 4 elements).
pub(super) fn push<T, E: de::Error>(out: &mut Vec<T>, v: T) -> Result<(), E> {
    if out.len() == out.capacity() {
        let more = out.capacity().max(4);
        charge::<E>(more.saturating_mul(size_of::<T>()))?;
        out.reserve_exact(more);
    }
    out.push(v);
    Ok(())
}
