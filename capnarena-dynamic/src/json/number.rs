//! Numbers as the reference's JSON codec writes them, without `core::fmt`
//! on the common paths.
//!
//! Integers: decimal digits, two at a time from a table.
//!
//! Floats: C's `%.15g`, or `%.17g` when 15 digits do not read back as the
//! same number (the reference's `kj::str(double)`). The digits are the
//! number correctly rounded, ties to even, as glibc's printf rounds them.
//! They come from exact integer arithmetic: the number `m * 2^e` times
//! `10^k` is a fraction `n / d` of two `u128`s, rounded to an integer.
//! Whether 15 digits read back is decided on the same fraction: they do
//! when they lie within half the gap to the next float on either side
//! (a tie reads back to the even mantissa). Numbers whose fraction does
//! not fit in `u128` (below about 1e-13, above about 1e45, subnormal)
//! take the slow path, which formats with `core::fmt` into stack buffers.

/// Two decimal digits of each number below 100.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// The decimal digits of `v`, at the end of `buf`; returns where they
/// start.
fn digits_u64(mut v: u64, buf: &mut [u8; 20]) -> usize {
    let mut at = buf.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + v as u8;
    }
    at
}

/// Appends ASCII bytes to `out`.
fn push_ascii(bytes: &[u8], out: &mut String) {
    // Digits, signs, `.` and `e` only: always valid UTF-8.
    out.push_str(core::str::from_utf8(bytes).unwrap_or_default());
}

/// `v` in decimal.
pub(crate) fn push_u64(v: u64, out: &mut String) {
    // One or two digits (bytes, small counts) go in as chars: no
    // UTF-8 check of a buffer.
    if v < 100 {
        if v >= 10 {
            out.push(char::from(b'0' + (v / 10) as u8));
        }
        out.push(char::from(b'0' + (v % 10) as u8));
        return;
    }
    let mut buf = [0u8; 20];
    let at = digits_u64(v, &mut buf);
    push_ascii(&buf[at..], out);
}

/// `v` in decimal, with a `-` when negative.
pub(crate) fn push_i64(v: i64, out: &mut String) {
    if v < 0 {
        out.push('-');
    }
    push_u64(v.unsigned_abs(), out);
}

/// `v` in decimal (wider integers, rare: serde's `i128` / `u128`).
pub(crate) fn push_i128(v: i128, out: &mut String) {
    match (u64::try_from(v.unsigned_abs()), v < 0) {
        (Ok(small), negative) => {
            if negative {
                out.push('-');
            }
            push_u64(small, out);
        }
        _ => {
            use core::fmt::Write as _;
            // Writing to a String cannot fail.
            let _ = write!(out, "{v}");
        }
    }
}

/// `v` in decimal (see [`push_i128`]).
pub(crate) fn push_u128(v: u128, out: &mut String) {
    match u64::try_from(v) {
        Ok(small) => push_u64(small, out),
        Err(_) => {
            use core::fmt::Write as _;
            // Writing to a String cannot fail.
            let _ = write!(out, "{v}");
        }
    }
}

/// A number as the reference writes it: C's `%.15g`, or `%.17g` when 15
/// digits do not read back as the same number, without the `+` of a
/// positive exponent (`1e22`, `1e-05`, `0.1`, `-0`, `123456`). Not-a-number
/// and the infinities are `nan`, `inf` and `-inf`.
pub(crate) fn push_number(v: f64, out: &mut String) {
    if v.is_nan() {
        out.push_str("nan");
        return;
    }
    if v.is_infinite() {
        out.push_str(if v > 0.0 { "inf" } else { "-inf" });
        return;
    }
    if v.is_sign_negative() {
        out.push('-');
    }
    let a = v.abs();
    // An integer below 10^15 is its digits (as %.15g writes it).
    if a.fract() == 0.0 && a < 1e15 {
        // Exact: a < 2^53.
        push_u64(a as u64, out);
        return;
    }
    let (digits, exp, precision) = match fast_digits(a) {
        Some(found) => found,
        None => slow_digits(a),
    };
    push_g(digits, exp, precision, out);
}

/// The significant digits of `a` (positive, finite, not an integer below
/// 10^15) that %.15g or %.17g writes: `(digits, exponent, precision)`,
/// the number being `digits * 10^(exponent + 1 - precision)` with
/// `digits` of exactly `precision` digits. `None` when the exact fraction
/// does not fit in `u128`.
fn fast_digits(a: f64) -> Option<(u64, i32, i32)> {
    let bits = a.to_bits();
    let field = (bits >> 52) as i32;
    if field == 0 {
        // Subnormal: the slow path.
        return None;
    }
    let m = (bits & ((1 << 52) - 1)) | (1 << 52);
    let e = field - 1075;
    // 2^be <= a < 2^(be + 1); floor(be * log10(2)) is the decimal
    // exponent or one below it (78913 / 2^18 is log10(2) to 1e-7, exact
    // enough for |be| < 1650).
    let be = e + 52;
    let estimate = (be * 78913) >> 18;
    let fifteen = Scaled::new(m, e, 14 - estimate).and_then(|s| s.digits(15, m, e, estimate));
    if let Some((q, exp, true)) = fifteen {
        return Some((q, exp, 15));
    }
    let (q, exp, _) = Scaled::new(m, e, 16 - estimate)?.digits(17, m, e, estimate)?;
    Some((q, exp, 17))
}

/// `a * 10^k` as the fraction `n / d`, and the gap between `a` and the
/// next float up, times `10^k`, as `g / d` (`g = n / m`).
struct Scaled {
    n: u128,
    d: u128,
    g: u128,
}

/// `5^i` for `i` from 0 to 55 (5^55 is the largest below 2^128).
const POW5: [u128; 56] = {
    let mut t = [1u128; 56];
    let mut i = 1;
    while i < 56 {
        t[i] = t[i - 1] * 5;
        i += 1;
    }
    t
};

/// `5^i`, when it fits in a `u128`.
fn pow5(i: u32) -> Option<u128> {
    POW5.get(i as usize).copied()
}

/// `x << s`, when nothing is shifted out.
fn shl(x: u128, s: u32) -> Option<u128> {
    if s >= 128 || x.leading_zeros() < s {
        None
    } else {
        Some(x << s)
    }
}

impl Scaled {
    /// `m * 2^e * 10^k`, when it fits (with two bits to spare).
    fn new(m: u64, e: i32, k: i32) -> Option<Scaled> {
        let m = u128::from(m);
        let s = e + k;
        // The gap up is 2^e; times 10^k it is g / d.
        let (g, d) = if k >= 0 {
            // m * 5^k * 2^(e + k).
            let five = pow5(k as u32)?;
            if s >= 0 {
                (shl(five, s as u32)?, 1)
            } else {
                (five, shl(1, s.unsigned_abs())?)
            }
        } else {
            // m * 2^(e + k) / 5^-k.
            let five = pow5(k.unsigned_abs())?;
            if s >= 0 {
                (shl(1, s as u32)?, five)
            } else {
                (1, shl(five, s.unsigned_abs())?)
            }
        };
        let n = m.checked_mul(g)?;
        if n >> 125 != 0 || d >> 125 != 0 {
            return None;
        }
        Some(Scaled { n, d, g })
    }

    /// `n / d` rounded to an integer, ties to even.
    fn round(&self) -> u128 {
        let (q, r) = if self.d.is_power_of_two() {
            let t = self.d.trailing_zeros();
            (self.n >> t, self.n & (self.d - 1))
        } else {
            (self.n / self.d, self.n % self.d)
        };
        let twice = r << 1;
        if twice > self.d || (twice == self.d && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    }

    /// Whether the decimal `q / 10^k` reads back as `m * 2^e`: it lies
    /// within half the gap to the neighbouring float on its side, or on
    /// that half-way point with `m` even (reading rounds ties to even).
    fn reads_back(&self, q: u128, m: u64, e: i32) -> Option<bool> {
        let qd = q.checked_mul(self.d)?;
        let (below, diff) = if qd < self.n {
            (true, self.n - qd)
        } else {
            (false, qd - self.n)
        };
        // Below a power of two, the gap down is half the gap up.
        let half_gap_down = m == 1 << 52 && e > -1074;
        let scale = if below && half_gap_down { 4 } else { 2 };
        let twice = diff.checked_mul(scale)?;
        Some(twice < self.g || (twice == self.g && m & 1 == 0))
    }

    /// The `precision` (15 or 17) digits of the number this was made for, with `k =
    /// precision - 1 - estimate`: `(digits, exponent, reads back)`. Moves
    /// to the next exponent when the estimate was one low.
    fn digits(self, precision: i32, m: u64, e: i32, estimate: i32) -> Option<(u64, i32, bool)> {
        let top: u128 = if precision == 15 {
            1_000_000_000_000_000
        } else {
            100_000_000_000_000_000
        };
        let mut q = self.round();
        let mut exp = estimate;
        let mut scaled = self;
        if q >= top {
            exp += 1;
            scaled = Scaled::new(m, e, precision - 1 - exp)?;
            q = scaled.round();
        }
        let back = scaled.reads_back(q, m, e)?;
        if q >= top {
            // Rounded up to the next power of ten.
            q /= 10;
            exp += 1;
        }
        if q < top / 10 {
            return None;
        }
        Some((u64::try_from(q).ok()?, exp, back))
    }
}

/// A fixed buffer that `core::fmt` writes into (the slow path's).
struct StackText {
    buf: [u8; 40],
    len: usize,
}

impl core::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The digits and the exponent of `a` written as Rust's `{:.P$e}`, that
/// is `a` correctly rounded to `P + 1` digits.
fn rounded(a: f64, after_point: usize) -> Option<(u64, i32)> {
    use core::fmt::Write as _;
    let mut t = StackText {
        buf: [0; 40],
        len: 0,
    };
    write!(t, "{a:.after_point$e}").ok()?;
    let text = core::str::from_utf8(&t.buf[..t.len]).ok()?;
    let (mantissa, exp) = text.split_once('e')?;
    let mut digits = 0u64;
    for b in mantissa.bytes().filter(|b| *b != b'.') {
        digits = digits * 10 + u64::from(b - b'0');
    }
    Some((digits, exp.parse().ok()?))
}

/// What [`fast_digits`] finds, for any positive finite `a`, by way of
/// `core::fmt` (its correctly rounded `{:.14e}` and `{:.16e}`) and of
/// reading the 15 digits back. Slower; for the numbers the fast path
/// cannot hold.
fn slow_digits(a: f64) -> (u64, i32, i32) {
    if let Some((digits, exp)) = rounded(a, 14) {
        let mut t = StackText {
            buf: [0; 40],
            len: 0,
        };
        let mut text = [0u8; 20];
        let start = digits_u64(digits, &mut text);
        let _ = core::fmt::Write::write_fmt(
            &mut t,
            format_args!(
                "{}e{}",
                core::str::from_utf8(&text[start..]).unwrap_or("0"),
                exp - 14
            ),
        );
        let back = core::str::from_utf8(&t.buf[..t.len])
            .ok()
            .and_then(|s| s.parse::<f64>().ok());
        if back == Some(a) {
            return (digits, exp, 15);
        }
    }
    match rounded(a, 16) {
        Some((digits, exp)) => (digits, exp, 17),
        // Unreachable for a finite float: 17 digits fit in 40 bytes.
        None => (0, 0, 17),
    }
}

/// C's `%.{precision}g` of the positive number `digits * 10^(exp + 1 -
/// precision)` (`digits` has `precision` digits), without the `+` of a
/// positive exponent: scientific when the exponent is below -4 or at
/// least the precision, fixed otherwise; trailing zeros (and a trailing
/// point) dropped; an exponent of at least two digits.
fn push_g(mut digits: u64, exp: i32, precision: i32, out: &mut String) {
    let mut len = precision as usize;
    while len > 1 && digits % 10 == 0 {
        digits /= 10;
        len -= 1;
    }
    let mut buf = [0u8; 20];
    let at = digits_u64(digits, &mut buf);
    let d = &buf[at..];
    let mut text = [0u8; 40];
    let mut n = 0;
    let mut put = |bytes: &[u8]| {
        text[n..n + bytes.len()].copy_from_slice(bytes);
        n += bytes.len();
    };
    if exp < -4 || exp >= precision {
        put(&d[..1]);
        if d.len() > 1 {
            put(b".");
            put(&d[1..]);
        }
        put(if exp < 0 { b"e-" } else { b"e" });
        let e = exp.unsigned_abs() as usize;
        if e < 10 {
            put(&[b'0', b'0' + e as u8]);
        } else if e < 100 {
            put(&PAIRS[e * 2..e * 2 + 2]);
        } else {
            put(&[b'0' + (e / 100) as u8]);
            put(&PAIRS[(e % 100) * 2..(e % 100) * 2 + 2]);
        }
    } else if exp < 0 {
        put(b"0.");
        for _ in 0..(-exp - 1) {
            put(b"0");
        }
        put(d);
    } else {
        // exp + 1 digits before the point.
        let whole = (exp + 1) as usize;
        if d.len() <= whole {
            put(d);
            for _ in d.len()..whole {
                put(b"0");
            }
        } else {
            put(&d[..whole]);
            put(b".");
            put(&d[whole..]);
        }
    }
    push_ascii(&text[..n], out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(v: f64) -> String {
        let mut s = String::new();
        push_number(v, &mut s);
        s
    }

    /// Numbers are written as C's `%.15g` (then `%.17g`) writes them,
    /// as glibc's printf prints these values (subnormal, 15 and 17
    /// digits, both layouts, both ends of the fixed layout's range).
    #[test]
    fn numbers_as_printf_g() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-2.25e300, "-2.25e300"),
            (6.02214076e23, "6.02214076e23"),
            (1e22, "1e22"),
            (1e15, "1e15"),
            (123456789012345.0, "123456789012345"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (0.1, "0.1"),
            (f64::from(0.1f32), "0.10000000149011612"),
            (1.0 / 3.0, "0.33333333333333331"),
            (4294967295.0, "4294967295"),
            (f64::MAX, "1.7976931348623157e308"),
            (5e-324, "4.94065645841247e-324"),
            (-2.5e-310, "-2.50000000000002e-310"),
            (2.5e-308, "2.5e-308"),
            (1e300, "1e300"),
            (1.5e-7, "1.5e-07"),
            (0.5e-4, "5e-05"),
            (123.456, "123.456"),
            (1234567890123456.0, "1234567890123456"),
            (1e16, "1e16"),
            (0.000123, "0.000123"),
            (f64::from(0.3f32), "0.30000001192092896"),
            // A tie at 17 digits rounds to even, as printf does (the
            // shortest digits, ...313, would not).
            (-113.55398559570312, "-113.55398559570312"),
            // 9.5 rounded to one digit short of the next power of ten.
            (99999999999999.99, "99999999999999.984"),
            (999999999999999.9, "999999999999999.88"),
            (0.9999999999999999, "0.99999999999999989"),
            (9.999999999999997e22, "9.9999999999999975e22"),
            (1.0000000000000003e-5, "1.0000000000000003e-05"),
            (0.1 + 0.2, "0.30000000000000004"),
            (9.5367431640625e-7, "9.5367431640625e-07"),
            (1e23, "1e23"),
        ];
        for (v, want) in cases {
            assert_eq!(num(*v), *want, "{v:e}");
        }
    }

    /// What the fast path finds is what the slow path finds (core::fmt's
    /// correctly rounded digits, and reading 15 digits back with
    /// `str::parse`), on numbers of every exponent the fast path takes,
    /// f32 values widened as the mesh's are, near powers of two and ten.
    #[test]
    fn fast_digits_agree_with_core_fmt() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut checked = 0;
        for i in 0..400_000 {
            let r = next();
            let a = match i % 4 {
                // Any double with an exponent from 1e-20 to 1e40.
                0 => f64::from_bits((r >> 12) | ((1023 - 66 + (r % 200)) << 52)),
                // A widened f32.
                1 => f64::from(f32::from_bits((r as u32) & 0x7fff_ffff)),
                // A short decimal.
                2 => (r % 1_000_000) as f64 / 10f64.powi((r >> 40) as i32 % 12),
                // Next to a power of two or of ten.
                _ => {
                    let base = if r & 1 == 0 {
                        2f64.powi((r >> 8) as i32 % 120 - 60)
                    } else {
                        10f64.powi((r >> 8) as i32 % 40 - 20)
                    };
                    f64::from_bits(base.to_bits().wrapping_add((r >> 32) % 5).wrapping_sub(2))
                }
            };
            if !a.is_finite() || a <= 0.0 || (a.fract() == 0.0 && a < 1e15) {
                continue;
            }
            checked += 1;
            match fast_digits(a) {
                Some(found) => {
                    assert_eq!(found, slow_digits(a), "{a:e} ({:#x})", a.to_bits())
                }
                None => assert!(
                    !(1e-12..1e40).contains(&a),
                    "{a:e}: the fast path holds every number from 1e-12 to 1e40"
                ),
            }
        }
        assert!(checked > 300_000, "{checked} numbers checked");
    }

    /// Integers are their decimal digits, at every length and both ends.
    #[test]
    fn integers_in_decimal() {
        for v in [0i64, 7, -7, 10, 99, 100, -101, 12345, i64::MAX, i64::MIN] {
            let mut s = String::new();
            push_i64(v, &mut s);
            assert_eq!(s, v.to_string());
        }
        let mut s = String::new();
        push_u64(u64::MAX, &mut s);
        assert_eq!(s, u64::MAX.to_string());
        for v in [i128::MIN, -1, 0, i128::MAX] {
            let mut s = String::new();
            push_i128(v, &mut s);
            assert_eq!(s, v.to_string());
        }
        let mut s = String::new();
        push_u128(u128::MAX, &mut s);
        assert_eq!(s, u128::MAX.to_string());
    }
}
