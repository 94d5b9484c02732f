//! Floats: C's `%.Ng`, as kj's DoubleToBuffer and FloatToBuffer use it.

use core::fmt::{self, Write as _};

/// A short ASCII string on the stack.
pub(super) struct Small {
    bytes: [u8; 40],
    len: usize,
}

impl Small {
    fn new() -> Self {
        Small {
            bytes: [0; 40],
            len: 0,
        }
    }

    /// Appends ASCII `b`; `fmt::Error` when full.
    fn push(&mut self, b: u8) -> fmt::Result {
        let slot = self.bytes.get_mut(self.len).ok_or(fmt::Error)?;
        *slot = b;
        self.len += 1;
        Ok(())
    }

    /// Appends ASCII `bytes`; `fmt::Error` when they do not fit.
    fn extend(&mut self, bytes: &[u8]) -> fmt::Result {
        bytes.iter().try_for_each(|&b| self.push(b))
    }

    fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }

    pub(super) fn as_str(&self) -> &str {
        // Only ASCII is ever pushed.
        core::str::from_utf8(self.as_bytes()).unwrap_or("")
    }
}

impl fmt::Write for Small {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let dst = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A float as the reference prints it.
///
/// Every form fits [`Small`]: the longest, `-2.2250738585072014e-308`, is
/// 24 bytes. Should a form not fit, the float prints as an error
/// (`fmt::Error`), never cut short.
pub(super) struct Float;

impl Float {
    /// kj's DoubleToBuffer: `%.15g`, or `%.17g` when that does not read
    /// back as `x`.
    ///
    /// Without printing `%.15g` and reading it back: when the shortest
    /// digits that read back as `x` (Rust's `{:e}`) number at most 15,
    /// they are `%.15g`'s digits without its trailing zeros (a finite
    /// double lies within a quarter of a unit in the 15th digit of its
    /// shortest form, so that form is the nearest 15-digit decimal), and
    /// `%.15g` reads back; when they number more, no 15-digit decimal
    /// reads back as `x`, `%.15g`'s included. This holds for normal
    /// doubles (53 bits); a subnormal is printed and read back.
    pub(super) fn f64(x: f64) -> Result<Small, fmt::Error> {
        if let Some(special) = special(x) {
            return special;
        }
        if x == 0.0 || x.is_normal() {
            let mut shortest = Small::new();
            write!(shortest, "{x:e}")?;
            let parts = Parts::of(&shortest)?;
            return if parts.count <= 15 {
                parts.layout(15)
            } else {
                general(x, 17).map(|(_, g)| g)
            };
        }
        // A subnormal has fewer bits than 15 digits tell apart: print
        // and read back.
        let (sci, g) = general(x, 15)?;
        if sci.as_str().parse::<f64>() == Ok(x) {
            Ok(g)
        } else {
            general(x, 17).map(|(_, g)| g)
        }
    }

    /// kj's FloatToBuffer: `%.6g`, or `%.8g` when that does not read back
    /// as `x` with `strtof` reporting no range error (which it does for
    /// every subnormal result: such a result is never exact).
    ///
    /// As [`f64`](Self::f64), by the shortest digits that read back as
    /// the `f32` (a normal float lies within a tenth of a unit in the 6th
    /// digit of its shortest form).
    pub(super) fn f32(x: f32) -> Result<Small, fmt::Error> {
        let wide = f64::from(x);
        if let Some(special) = special(wide) {
            return special;
        }
        if x == 0.0 || x.is_normal() {
            let mut shortest = Small::new();
            write!(shortest, "{x:e}")?;
            let parts = Parts::of(&shortest)?;
            if parts.count <= 6 {
                return parts.layout(6);
            }
        }
        general(wide, 8).map(|(_, g)| g)
    }
}

/// A number in scientific form taken apart: `[-]d[.ddd]e[-]x`.
struct Parts<'s> {
    negative: bool,
    /// The significant digits, trailing zeros removed (at least one),
    /// with the point after the first when there are more.
    digits: &'s [u8],
    /// How many digits `digits` holds.
    count: usize,
    /// The decimal exponent of the first digit.
    exp: i32,
}

impl<'s> Parts<'s> {
    /// `text` as Rust's `{:e}` and `{:.Ne}` print a finite float.
    fn of(text: &'s Small) -> Result<Self, fmt::Error> {
        let text = text.as_bytes();
        let e_at = text.iter().position(|&b| b == b'e').ok_or(fmt::Error)?;
        let (mantissa, exp) = text.split_at(e_at);
        let exp: i32 = core::str::from_utf8(exp.get(1..).unwrap_or(&[]))
            .map_err(|_| fmt::Error)?
            .parse()
            .map_err(|_| fmt::Error)?;
        let negative = mantissa.first() == Some(&b'-');
        let mantissa = mantissa.get(usize::from(negative)..).unwrap_or(&[]);
        // `d` or `d.ddd`: the first digit, then the fraction's.
        let (first, rest) = mantissa.split_first().ok_or(fmt::Error)?;
        if !first.is_ascii_digit() {
            return Err(fmt::Error);
        }
        let frac = match rest.split_first() {
            None => &[][..],
            Some((b'.', frac)) => frac,
            Some(_) => return Err(fmt::Error),
        };
        if !frac.iter().all(u8::is_ascii_digit) {
            return Err(fmt::Error);
        }
        // The first digit, the point, the fraction without its trailing
        // zeros (the point alone dropped).
        let frac = trim_zeros(frac);
        let end = if frac.is_empty() { 1 } else { 2 + frac.len() };
        Ok(Parts {
            negative,
            digits: mantissa.get(..end).ok_or(fmt::Error)?,
            count: 1 + frac.len(),
            exp,
        })
    }

    /// C's `%.{precision}g` of these digits (at most `precision` of
    /// them), the exponent's `+` dropped.
    fn layout(&self, precision: i32) -> Result<Small, fmt::Error> {
        let mut g = Small::new();
        if self.negative {
            g.push(b'-')?;
        }
        // `digits` may hold the point after its first digit.
        let mut digits = self.digits.iter().copied().filter(u8::is_ascii_digit);
        let exp = self.exp;
        if exp < -4 || exp >= precision {
            // d[.ddd]e[-]xx
            g.push(digits.next().ok_or(fmt::Error)?)?;
            let mut rest = digits.peekable();
            if rest.peek().is_some() {
                g.push(b'.')?;
                rest.try_for_each(|d| g.push(d))?;
            }
            g.push(b'e')?;
            if exp < 0 {
                g.push(b'-')?;
            }
            let mag = exp.unsigned_abs();
            if mag < 10 {
                g.push(b'0')?;
            }
            write!(g, "{mag}")?;
        } else if let Ok(int_digits) = usize::try_from(exp) {
            // ddd[.ddd]: 0 <= exp < precision; digits past the last one
            // given are zeros.
            for _ in 0..=int_digits {
                g.push(digits.next().unwrap_or(b'0'))?;
            }
            let mut frac = digits.peekable();
            if frac.peek().is_some() {
                g.push(b'.')?;
                frac.try_for_each(|d| g.push(d))?;
            }
        } else {
            // 0.000ddd: -4 <= exp < 0.
            g.extend(b"0.")?;
            for _ in 0..(-exp - 1) {
                g.push(b'0')?;
            }
            digits.try_for_each(|d| g.push(d))?;
        }
        Ok(g)
    }
}

fn special(x: f64) -> Option<Result<Small, fmt::Error>> {
    let text = if x.is_nan() {
        "nan"
    } else if x == f64::INFINITY {
        "inf"
    } else if x == f64::NEG_INFINITY {
        "-inf"
    } else {
        return None;
    };
    let mut s = Small::new();
    Some(s.write_str(text).map(|()| s))
}

/// `x` (finite) with `precision` (1 to 17) significant digits: the
/// scientific form Rust prints (correctly rounded, ties to even, as
/// glibc's printf) and the same digits laid out as C's `%.{precision}g`
/// with the exponent's `+` dropped.
fn general(x: f64, precision: usize) -> Result<(Small, Small), fmt::Error> {
    let mut sci = Small::new();
    write!(sci, "{:.*e}", precision.saturating_sub(1), x)?;
    let p = i32::try_from(precision).map_err(|_| fmt::Error)?;
    let g = Parts::of(&sci)?.layout(p)?;
    Ok((sci, g))
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let keep = digits.iter().rposition(|&d| d != b'0').map_or(0, |i| i + 1);
    digits.get(..keep).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec::Vec;

    /// C's rule as kj applies it, spelled out: print with `short` digits,
    /// read back (as `f32` when `narrow`, which must also be normal or
    /// zero), else print with `long` digits.
    fn printf_rule(x: f64, narrow: bool, short: usize, long: usize) -> Small {
        if let Some(special) = special(x) {
            return special.unwrap();
        }
        let (sci, g) = general(x, short).unwrap();
        let back = if narrow {
            let f = x as f32;
            (f == 0.0 || f.is_normal()) && sci.as_str().parse::<f32>() == Ok(f)
        } else {
            sci.as_str().parse::<f64>() == Ok(x)
        };
        if back { g } else { general(x, long).unwrap().1 }
    }

    /// Floats worth checking: powers of ten and their neighbours (where
    /// the digit count and the `%g` layout change), subnormals, extremes,
    /// then pseudo-random bit patterns.
    fn samples(random: usize) -> impl Iterator<Item = u64> {
        let mut edges = Vec::new();
        // Under Miri every 100th exponent (formatting is slow there).
        let step = if cfg!(miri) { 100 } else { 1 };
        for e in (-310..=310).step_by(step) {
            let p: f64 = format!("1e{e}").parse().unwrap();
            for b in [p.to_bits().wrapping_sub(1), p.to_bits(), p.to_bits() + 1] {
                edges.push(b);
                edges.push(b | (1 << 63));
            }
        }
        edges.extend([0, 1, 2, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000]);
        edges.extend([f64::MAX.to_bits(), f64::MIN_POSITIVE.to_bits()]);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let bits = (0..random).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        });
        // Short decimals (the shortcut's case): up to 16 random digits
        // at a random exponent.
        let mut state2 = 0x2545_f491_4f6c_dd1du64;
        let short = (0..random).map(move |_| {
            state2 ^= state2 << 13;
            state2 ^= state2 >> 7;
            state2 ^= state2 << 17;
            let digits = state2 % 10u64.pow((state2 >> 59) as u32 % 17);
            let exp = (state2 >> 40) as i32 % 330;
            format!("{digits}e{exp}").parse::<f64>().unwrap().to_bits()
        });
        edges.into_iter().chain(bits).chain(short)
    }

    /// `Float::f64` (by the shortest digits) prints what `%.15g`, read
    /// back, else `%.17g` prints, for every sampled double.
    #[test]
    fn f64_shortcut_is_the_printf_rule() {
        let n = if cfg!(miri) { 20 } else { 60_000 };
        for bits in samples(n) {
            let x = f64::from_bits(bits);
            let want = printf_rule(x, false, 15, 17);
            assert_eq!(Float::f64(x).unwrap().as_str(), want.as_str(), "{x:e}");
        }
    }

    /// `Float::f32` prints what `%.6g`, read back as a normal float (or
    /// zero), else `%.8g` prints, for every sampled float.
    #[test]
    fn f32_shortcut_is_the_printf_rule() {
        let n = if cfg!(miri) { 20 } else { 60_000 };
        let step = if cfg!(miri) { 20 } else { 1 };
        let edges = (-46..=39).step_by(step).flat_map(|e| {
            let p: f32 = format!("1e{e}").parse().unwrap();
            [p.to_bits().wrapping_sub(1), p.to_bits(), p.to_bits() + 1]
        });
        let random = samples(n).map(|b| (b >> 32) as u32);
        for bits in edges.chain([0, 1, 0x007f_ffff, 0x0080_0000]).chain(random) {
            let x = f32::from_bits(bits);
            let want = printf_rule(f64::from(x), true, 6, 8);
            assert_eq!(Float::f32(x).unwrap().as_str(), want.as_str(), "{x:e}");
        }
    }
}
