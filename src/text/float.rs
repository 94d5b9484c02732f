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
    pub(super) fn f64(x: f64) -> Result<Small, fmt::Error> {
        if let Some(special) = special(x) {
            return special;
        }
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
    pub(super) fn f32(x: f32) -> Result<Small, fmt::Error> {
        let wide = f64::from(x);
        if let Some(special) = special(wide) {
            return special;
        }
        let (sci, g) = general(wide, 6)?;
        let in_range = x == 0.0 || x.is_normal();
        if in_range && sci.as_str().parse::<f32>() == Ok(x) {
            Ok(g)
        } else {
            general(wide, 8).map(|(_, g)| g)
        }
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
    // `sci` is `[-]d[.ddd]e[-]x`.
    let text = sci.as_bytes();
    let e_at = text.iter().position(|&b| b == b'e').ok_or(fmt::Error)?;
    let (mantissa, exp) = text.split_at(e_at);
    let exp: i32 = core::str::from_utf8(exp.get(1..).unwrap_or(&[]))
        .map_err(|_| fmt::Error)?
        .parse()
        .map_err(|_| fmt::Error)?;
    let negative = mantissa.first() == Some(&b'-');
    let mut digits = Small::new();
    for &b in mantissa.iter().filter(|b| b.is_ascii_digit()) {
        digits.push(b)?;
    }
    let digits = digits.as_bytes();
    let p = i32::try_from(digits.len()).map_err(|_| fmt::Error)?;

    let mut g = Small::new();
    if negative {
        g.push(b'-')?;
    }
    if exp < -4 || exp >= p {
        // d[.ddd]e[-]xx
        let (first, rest) = digits.split_first().ok_or(fmt::Error)?;
        g.push(*first)?;
        let rest = trim_zeros(rest);
        if !rest.is_empty() {
            g.push(b'.')?;
            g.extend(rest)?;
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
        // ddd[.ddd]: 0 <= exp < p, so the split is inside `digits`.
        let (int, frac) = digits.split_at_checked(int_digits + 1).ok_or(fmt::Error)?;
        g.extend(int)?;
        let frac = trim_zeros(frac);
        if !frac.is_empty() {
            g.push(b'.')?;
            g.extend(frac)?;
        }
    } else {
        // 0.000ddd: -4 <= exp < 0.
        g.extend(b"0.")?;
        for _ in 0..(-exp - 1) {
            g.push(b'0')?;
        }
        g.extend(trim_zeros(digits))?;
    }
    Ok((sci, g))
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let keep = digits.iter().rposition(|&d| d != b'0').map_or(0, |i| i + 1);
    digits.get(..keep).unwrap_or(&[])
}
