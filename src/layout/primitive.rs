//! Fixed-size values of a struct's data section or a primitive list.

mod sealed {
    pub trait Sealed {}
}

/// A value stored in a data section: `u8`..`u64`, `i8`..`i64`, `f32`, `f64`.
///
/// Field and element indexes are in units of the value's size, as in
/// compiled schemas: a `u32` at index 3 occupies bytes 12..16.
pub trait Primitive: Copy + sealed::Sealed + bytemuck::Pod {
    /// Bytes per value.
    const BYTES: usize;
    /// The value's little-endian bits, zero-extended.
    fn to_bits(self) -> u64;
    /// The value from its little-endian bits (the low `8 * BYTES` bits).
    fn from_bits(bits: u64) -> Self;
}

macro_rules! int_primitive {
    ($($t:ty => $u:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Primitive for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            #[inline]
            fn to_bits(self) -> u64 { self as $u as u64 }
            #[inline]
            fn from_bits(bits: u64) -> Self { bits as $u as $t }
        }
    )*};
}

int_primitive!(u8 => u8, u16 => u16, u32 => u32, u64 => u64, i8 => u8, i16 => u16, i32 => u32, i64 => u64);

impl sealed::Sealed for f32 {}
impl Primitive for f32 {
    const BYTES: usize = 4;
    #[inline]
    fn to_bits(self) -> u64 {
        u64::from(f32::to_bits(self))
    }
    #[inline]
    fn from_bits(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
}

impl sealed::Sealed for f64 {}
impl Primitive for f64 {
    const BYTES: usize = 8;
    #[inline]
    fn to_bits(self) -> u64 {
        f64::to_bits(self)
    }
    #[inline]
    fn from_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
}

/// Reads `T::BYTES` little-endian bytes at `at`; `None` out of range.
#[inline]
pub(crate) fn load<T: Primitive>(bytes: &[u8], at: usize) -> Option<T> {
    let end = at.checked_add(T::BYTES)?;
    let src = bytes.get(at..end)?;
    let mut buf = [0u8; 8];
    buf[..T::BYTES].copy_from_slice(src);
    Some(T::from_bits(u64::from_le_bytes(buf)))
}

/// Writes `value` as `T::BYTES` little-endian bytes at `at`; `false` out of
/// range (nothing written).
#[inline]
pub(crate) fn store<T: Primitive>(bytes: &mut [u8], at: usize, value: T) -> bool {
    let Some(end) = at.checked_add(T::BYTES) else {
        return false;
    };
    match bytes.get_mut(at..end) {
        Some(dst) => {
            dst.copy_from_slice(&value.to_bits().to_le_bytes()[..T::BYTES]);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_values_round_trip_through_bits() {
        assert_eq!(i8::from_bits((-7i8).to_bits()), -7);
        assert_eq!((-1i16).to_bits(), 0xffff);
        assert_eq!(i64::from_bits(u64::MAX), -1);
        assert_eq!(
            <f32 as Primitive>::from_bits(Primitive::to_bits(1.25f32)),
            1.25
        );
    }

    #[test]
    fn load_and_store_are_little_endian_and_bounded() {
        let mut b = [0u8; 6];
        assert!(store::<u32>(&mut b, 1, 0x0403_0201));
        assert_eq!(b, [0, 1, 2, 3, 4, 0]);
        assert_eq!(load::<u16>(&b, 2), Some(0x0302));
        assert!(!store::<u32>(&mut b, 3, 1));
        assert_eq!(load::<u32>(&b, 3), None);
        assert_eq!(load::<u8>(&b, usize::MAX), None);
    }
}
