//! Printing a [`TextValue`]: the short and the pretty form, into a
//! `fmt::Write` or as the reference's exact bytes.

use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use super::float::Float;
use super::value::TextValue;

impl TextValue<'_> {
    /// Formats for `Debug`: [`write_pretty`] when the formatter asks for
    /// the alternate form (`{:#?}`), [`write_short`] otherwise.
    ///
    /// # Errors
    ///
    /// Only those of the formatter.
    pub fn fmt_debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write_pretty(self, f)
        } else {
            write_short(self, f)
        }
    }
}

/// Formats for `Debug`: [`write_pretty`] for `{:#?}`, [`write_short`] for
/// `{:?}`: what the generated readers' `Debug` (through `fmt_text`) prints
/// with.
///
/// # Errors
///
/// Only those of the formatter.
pub fn fmt_debug(v: &TextValue<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    v.fmt_debug(f)
}

/// Writes `v` on one line, as `capnp convert binary:text --short` prints
/// it (without the final newline). Text bytes that are not UTF-8 become
/// octal escapes (see the [module docs](super)).
///
/// # Errors
///
/// Only those of `out`.
pub fn write_short<W: fmt::Write + ?Sized>(v: &TextValue<'_>, out: &mut W) -> fmt::Result {
    short(v, &mut FmtSink(out))
}

/// Writes `v` as `capnp convert binary:text` prints it (without the final
/// newline): long structs and lists broken over indented lines. Text bytes
/// that are not UTF-8 become octal escapes (see the [module docs](super)).
///
/// # Errors
///
/// Only those of `out`.
pub fn write_pretty<W: fmt::Write + ?Sized>(v: &TextValue<'_>, out: &mut W) -> fmt::Result {
    pretty(v, 1, Mode::Bare, &mut FmtSink(out))
}

/// Appends to `out` the exact bytes `capnp convert binary:text --short`
/// prints for `v` (without the final newline), Text bytes copied as they
/// are.
///
/// # Errors
///
/// None in practice: appending to a `Vec` cannot fail, and every printed
/// number fits the formatter's buffer. The `Result` is there so that no
/// failure could ever be dropped silently.
pub fn write_short_bytes(v: &TextValue<'_>, out: &mut Vec<u8>) -> fmt::Result {
    short(v, &mut BytesSink(out))
}

/// Appends to `out` the exact bytes `capnp convert binary:text` prints
/// for `v` (without the final newline), Text bytes copied as they are.
///
/// # Errors
///
/// As [`write_short_bytes`].
pub fn write_pretty_bytes(v: &TextValue<'_>, out: &mut Vec<u8>) -> fmt::Result {
    pretty(v, 1, Mode::Bare, &mut BytesSink(out))
}

impl fmt::Display for TextValue<'_> {
    /// The short form; `{:#}` the pretty form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_debug(f)
    }
}

// ---------------------------------------------------------------------------
// Sinks: where printed bytes go.

/// A destination for printed text. Everything printed is ASCII except the
/// runs of Text bytes from 0x80, which go through `high`.
pub(super) trait Sink {
    fn put(&mut self, s: &str) -> fmt::Result;
    /// A run of Text bytes, each at least 0x80, as stored.
    fn high(&mut self, bytes: &[u8]) -> fmt::Result;
}

/// A `fmt::Write`: bytes that are not UTF-8 become octal escapes.
struct FmtSink<'w, W: ?Sized>(&'w mut W);

impl<W: fmt::Write + ?Sized> Sink for FmtSink<'_, W> {
    fn put(&mut self, s: &str) -> fmt::Result {
        self.0.write_str(s)
    }

    fn high(&mut self, bytes: &[u8]) -> fmt::Result {
        for chunk in bytes.utf8_chunks() {
            self.0.write_str(chunk.valid())?;
            for &b in chunk.invalid() {
                put_octal(b, self)?;
            }
        }
        Ok(())
    }
}

/// The reference's exact bytes.
pub(super) struct BytesSink<'v>(pub(super) &'v mut Vec<u8>);

impl Sink for BytesSink<'_> {
    fn put(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }

    fn high(&mut self, bytes: &[u8]) -> fmt::Result {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

/// Counts the reference's bytes; fails as soon as they pass `limit` or a
/// line break appears (all the pretty printer needs to know).
struct Measure {
    len: usize,
    limit: usize,
}

impl Sink for Measure {
    fn put(&mut self, s: &str) -> fmt::Result {
        if s.contains('\n') {
            return Err(fmt::Error);
        }
        self.add(s.len())
    }

    fn high(&mut self, bytes: &[u8]) -> fmt::Result {
        self.add(bytes.len())
    }
}

impl Measure {
    fn add(&mut self, n: usize) -> fmt::Result {
        self.len = self.len.saturating_add(n);
        if self.len > self.limit {
            Err(fmt::Error)
        } else {
            Ok(())
        }
    }
}

/// `fmt::Write` over a sink, for `write!` of numbers and error messages.
struct Adapter<'s, S>(&'s mut S);

impl<S: Sink> fmt::Write for Adapter<'_, S> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.put(s)
    }
}

// ---------------------------------------------------------------------------
// The short form.

fn short<S: Sink>(v: &TextValue<'_>, s: &mut S) -> fmt::Result {
    match v {
        TextValue::Void => s.put("void"),
        TextValue::Bool(b) => s.put(if *b { "true" } else { "false" }),
        TextValue::Int(i) => write!(Adapter(s), "{i}"),
        TextValue::UInt(u) => write!(Adapter(s), "{u}"),
        TextValue::Float32(x) => s.put(Float::f32(*x)?.as_str()),
        TextValue::Float64(x) => s.put(Float::f64(*x)?.as_str()),
        TextValue::Text(bytes) => quoted(bytes, false, s),
        TextValue::Data(bytes) => quoted(bytes, true, s),
        TextValue::Enum(name) => s.put(name),
        TextValue::EnumNumber(n) => write!(Adapter(s), "({n})"),
        TextValue::Struct(fields) => {
            s.put("(")?;
            for (i, (name, value)) in fields.iter().enumerate() {
                if i > 0 {
                    s.put(", ")?;
                }
                s.put(name)?;
                s.put(" = ")?;
                short(value, s)?;
            }
            s.put(")")
        }
        TextValue::List(items) => {
            s.put("[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    s.put(", ")?;
                }
                short(item, s)?;
            }
            s.put("]")
        }
        TextValue::AnyPointer => s.put("<opaque pointer>"),
        TextValue::Capability => s.put("<external capability>"),
        TextValue::Error(e) => write!(Adapter(s), "<error: {e}>"),
    }
}

/// `"..."` with the reference's C escapes; `binary` (Data) escapes bytes
/// from 0x80 too, Text copies them.
pub(super) fn quoted<S: Sink>(bytes: &[u8], binary: bool, s: &mut S) -> fmt::Result {
    s.put("\"")?;
    let mut rest = bytes;
    while !rest.is_empty() {
        // The longest run that prints as itself.
        let plain = rest
            .iter()
            .position(|&b| !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\'' || b == b'\\')
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(plain);
        // Printable ASCII is UTF-8.
        s.put(core::str::from_utf8(run).map_err(|_| fmt::Error)?)?;
        rest = tail;
        let Some(&b) = rest.first() else { break };
        if b >= 0x80 && !binary {
            let high = rest.iter().position(|&b| b < 0x80).unwrap_or(rest.len());
            let (run, tail) = rest.split_at(high);
            s.high(run)?;
            rest = tail;
            continue;
        }
        match b {
            0x07 => s.put("\\a")?,
            0x08 => s.put("\\b")?,
            0x0c => s.put("\\f")?,
            b'\n' => s.put("\\n")?,
            b'\r' => s.put("\\r")?,
            b'\t' => s.put("\\t")?,
            0x0b => s.put("\\v")?,
            b'\'' => s.put("\\'")?,
            b'"' => s.put("\\\"")?,
            b'\\' => s.put("\\\\")?,
            _ => put_octal(b, s)?,
        }
        rest = rest.get(1..).unwrap_or(&[]);
    }
    s.put("\"")
}

/// `\ooo`: a byte as a backslash and three octal digits.
fn octal(b: u8) -> [u8; 4] {
    [b'\\', b'0' + b / 64, b'0' + (b / 8) % 8, b'0' + b % 8]
}

/// [`octal`] as a `str`.
fn put_octal<S: Sink>(b: u8, s: &mut S) -> fmt::Result {
    s.put(core::str::from_utf8(&octal(b)).map_err(|_| fmt::Error)?)
}

// ---------------------------------------------------------------------------
// The pretty form.

/// How a value is placed, which decides where a broken struct or list
/// puts its first element.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// On its own (the root, a list element): ` ` after the bracket.
    Bare,
    /// After `name = `: a line break after the bracket.
    Prefixed,
}

/// Longest element that keeps its struct or list on one line.
pub(super) const MAX_INLINE_VALUE: usize = 24;
/// Longest sum of a struct's elements that keeps it on one line.
pub(super) const MAX_INLINE_RECORD: usize = 64;

/// The printed length of `v` (short form, the reference's bytes) if it is
/// at most `limit` bytes and has no line break.
fn inline_len(v: &TextValue<'_>, limit: usize) -> Option<usize> {
    let mut m = Measure { len: 0, limit };
    short(v, &mut m).ok().map(|()| m.len)
}

/// `amount` is the reference's indent level: elements of a broken struct
/// or list at level `amount` are indented by `2 * amount` spaces.
fn pretty<S: Sink>(v: &TextValue<'_>, amount: usize, mode: Mode, s: &mut S) -> fmt::Result {
    match v {
        TextValue::List(items) => {
            let inline = items
                .iter()
                .all(|item| inline_len(item, MAX_INLINE_VALUE).is_some());
            if inline {
                return short(v, s);
            }
            s.put("[")?;
            broken(items.len(), amount, mode, s, |i, s| match items.get(i) {
                Some(item) => pretty(item, amount + 1, Mode::Bare, s),
                None => Err(fmt::Error),
            })?;
            s.put("]")
        }
        TextValue::Struct(fields) => {
            let mut total = 0usize;
            let inline = fields.iter().all(|(name, value)| {
                // `name = value` must fit in MAX_INLINE_VALUE.
                let Some(room) = MAX_INLINE_VALUE.checked_sub(name.len() + 3) else {
                    return false;
                };
                match inline_len(value, room) {
                    Some(n) => {
                        total += name.len() + 3 + n;
                        total <= MAX_INLINE_RECORD
                    }
                    None => false,
                }
            });
            if inline {
                return short(v, s);
            }
            s.put("(")?;
            broken(fields.len(), amount, mode, s, |i, s| match fields.get(i) {
                Some((name, value)) => {
                    s.put(name)?;
                    s.put(" = ")?;
                    pretty(value, amount + 1, Mode::Prefixed, s)
                }
                None => Err(fmt::Error),
            })?;
            s.put(")")
        }
        _ => short(v, s),
    }
}

/// The elements of a struct or list that does not fit on one line: each on
/// its own line at `amount` levels, `,` between, a space before the
/// closing bracket.
fn broken<S: Sink>(
    count: usize,
    amount: usize,
    mode: Mode,
    s: &mut S,
    mut element: impl FnMut(usize, &mut S) -> fmt::Result,
) -> fmt::Result {
    match mode {
        Mode::Bare => s.put(" ")?,
        Mode::Prefixed => newline(amount, s)?,
    }
    for i in 0..count {
        if i > 0 {
            s.put(",")?;
            newline(amount, s)?;
        }
        element(i, s)?;
    }
    s.put(" ")
}

fn newline<S: Sink>(amount: usize, s: &mut S) -> fmt::Result {
    const SPACES: &str = "                                ";
    s.put("\n")?;
    let mut left = amount.saturating_mul(2);
    while left > 0 {
        let n = left.min(SPACES.len());
        s.put(SPACES.get(..n).unwrap_or(""))?;
        left -= n;
    }
    Ok(())
}
