//! The reference's text format: what `capnp convert binary:text` prints.
//!
//! Generated readers and builders implement `Debug` by building a
//! [`TextValue`] tree of the value and printing it here: `{:?}` prints the
//! one-line form of `capnp convert binary:text --short`, `{:#?}` the
//! pretty form of `capnp convert binary:text` (both without the tool's
//! final newline). The rules below are those of the reference
//! implementation, version 0.9.2 (`stringify.c++` and the float and escape
//! routines of its `kj` library), checked against the installed tool by
//! `tests/text_format.rs`.
//!
//! ```
//! use capnarena::text::{TextValue, write_pretty, write_short};
//!
//! let point = TextValue::Struct(vec![("x", TextValue::Int(1)), ("y", TextValue::Int(-2))]);
//! let v = TextValue::Struct(vec![
//!     ("name", TextValue::Text(b"a \"quoted\" name")),
//!     ("where", point),
//!     ("ratio", TextValue::Float64(0.1)),
//!     ("tags", TextValue::List(vec![TextValue::Enum("red"), TextValue::EnumNumber(7)])),
//! ]);
//! let mut short = String::new();
//! write_short(&v, &mut short)?;
//! assert_eq!(
//!     short,
//!     r#"(name = "a \"quoted\" name", where = (x = 1, y = -2), ratio = 0.1, tags = [red, (7)])"#
//! );
//! let mut pretty = String::new();
//! write_pretty(&v, &mut pretty)?;
//! assert_eq!(
//!     pretty,
//!     "( name = \"a \\\"quoted\\\" name\",\n  where = (x = 1, y = -2),\n  ratio = 0.1,\n  tags = [red, (7)] )"
//! );
//! # Ok::<(), core::fmt::Error>(())
//! ```
//!
//! # For the generator: which fields a struct's tree holds, in what order
//!
//! A struct's (or group's) [`TextValue::Struct`] lists `(name, value)`
//! pairs. Walk the `fields` list of the struct's (or group's) schema node
//! (`Node.struct.fields` in the `CodeGeneratorRequest`) **in list order**,
//! which is ordinal order, *not* code order: `b @1; a @0;` prints `a`
//! first, and a group sits where the compiler put it in that list (by its
//! members' ordinals: a group of `@5, @6` comes after `@4` and before
//! `@7`, wherever it was declared). Take each field through the first rule
//! that applies:
//!
//! 1. **Union member** (`discriminantValue != 0xffff`), in the node's
//!    unnamed union: skip it unless its `discriminantValue` equals the
//!    discriminant read from the data section (at `discriminantOffset`,
//!    in 16-bit units). The active member is then included, in its place
//!    in list order, by rules 2 and 3, except that a pointer field with a
//!    null pointer is **included** when its discriminant value is not 0,
//!    as the value a reader returns (`""` for Text and Data, `[]` for a
//!    list, the default struct printed by these rules, `<opaque
//!    pointer>`); the discriminant-0 member with a null pointer is left
//!    out. A discriminant that names no member of the schema (a newer
//!    writer's) includes no member.
//! 2. **Group** (`Field.group`, named unions included): always included,
//!    as a nested [`TextValue::Struct`] built by these rules from the
//!    group's own node (a named union is a group whose fields are all
//!    union members). A group whose fields all drop out prints as `()`.
//! 3. **Slot**: a field of a pointer type (Text, Data, List, struct,
//!    AnyPointer, interface) is included only when its pointer is not
//!    null, even if the schema gives it a non-null default: `t @0 :Text =
//!    "x"` with a null pointer is left out; an empty but present text
//!    prints as `""`. A field of any other type (Void, Bool, numbers,
//!    enums) is always included, with the value a reader returns (schema
//!    default applied), zero or not: `v @3 :Void` prints `v = void`.
//!
//! Names are the schema's own (`Field.name`, `Enumerant.name`: `fooBar`,
//! not the Rust `foo_bar` or `FooBar`), as the reference prints them.
//!
//! This is the reference's `DynamicStruct::Reader::has(field,
//! HasMode::NON_NULL)` (with "discriminant not 0 or has" for the active
//! member) and its printing of non-union fields in `fields`-list order
//! with the active member slotted in before the first non-union field of
//! a higher index.
//!
//! Values: Void [`Void`](TextValue::Void); Bool; Int8..Int64
//! [`Int`](TextValue::Int); UInt8..UInt64 [`UInt`](TextValue::UInt);
//! Float32 [`Float32`](TextValue::Float32) (it prints with fewer digits
//! than the same number as Float64); Text the bytes before the NUL
//! terminator; Data; an enum [`TextValue::enumerant`] (the enumerant's
//! name, or `(7)` for a value the schema does not name); a struct
//! [`Struct`](TextValue::Struct); a list [`List`](TextValue::List) of its
//! elements, each by the same value rules (a null element of a
//! `List(Text)` or `List(Data)` is `""`, of a list of lists `[]`: what the
//! reader returns for a null element); AnyPointer
//! [`AnyPointer`](TextValue::AnyPointer) (prints `<opaque pointer>`,
//! whatever it points to); an interface
//! [`Capability`](TextValue::Capability) (prints `<external capability>`);
//! a read that failed [`Error`](TextValue::Error).
//!
//! # Printing rules
//!
//! - Void `void`; Bool `true`/`false`; integers in decimal.
//! - Floats like C's `printf("%.15g")` (Float32: `"%.6g"`), or `"%.17g"`
//!   (`"%.8g"`) when the shorter form does not read back as the same
//!   number (a subnormal Float32 always takes the longer form), with the
//!   `+` of the exponent dropped: `0.1`, `1e20`, `1e-05`, `-0`,
//!   `3.1415926535897931`; `inf`, `-inf`, `nan`. Float32's 8 digits do
//!   not always identify the float (9 would): the reference prints
//!   -1046121963061248 as `-1.046122e15`, which reads back as its
//!   neighbour -1046122030170112; so does this module, to match.
//! - Text and Data in double quotes with C escapes: `\a \b \f \n \r \t
//!   \v \' \" \\`, other bytes below 0x20 and 0x7f as three octal digits
//!   (`\000`). Data bytes from 0x80 also print in octal; Text bytes from
//!   0x80 are copied as they are (UTF-8 prints as itself). Where such
//!   bytes are not valid UTF-8 the reference writes them raw, which a
//!   Rust string cannot hold: [`write_short`] and [`write_pretty`] write
//!   each such byte as an octal escape instead (the same byte when read
//!   back by the reference's parser), and [`write_short_bytes`] and
//!   [`write_pretty_bytes`] give the reference's exact bytes.
//! - Struct `(a = 1, b = 2)`, list `[1, 2]`, empty `()` and `[]`; enum
//!   names bare, unknown enumerants `(7)`.
//! - Pretty form: a list or struct stays on one line when every element
//!   (for a struct every `name = value`) is at most 24 bytes long when
//!   printed and has no line break, and, for a struct only, the elements
//!   add up to at most 64 bytes. Otherwise each element goes on its own
//!   line, indented by two spaces per level, separated by `,` and ending
//!   in ` )` or ` ]`. The first element follows the opening bracket after
//!   one space, except in a field's value (`name = (`), where it starts a
//!   new line. Lengths count the reference's bytes. So a struct breaks
//!   when one of its fields does not fit in 24 bytes, while a list of any
//!   number of short elements stays on one line.
//! - A read error (which makes the reference tool fail outright) prints
//!   as `<error: ...>` with the error's message, in place of the value.
//!
//! # Limits
//!
//! Printing never panics. It allocates nothing beyond what the caller's
//! writer does; each struct or list costs time proportional to its size
//! plus at most about 25 bytes of look-ahead per element. Printing
//! recurses once per level of nesting of the tree; trees built from
//! readers are as deep as the reader's nesting limit allows (64 by
//! default), so the stack is bounded by that limit. A tree built by hand
//! is bounded only by its own depth (dropping it recurses as deeply).

use alloc::vec::Vec;
use core::fmt::{self, Write as _};

/// One value of a message, as the text format prints it.
///
/// Build it from a reader (generated code does) and print it with
/// [`write_short`], [`write_pretty`], or `Debug` (`{:?}` short, `{:#?}`
/// pretty). See the [module docs](self) for which struct fields to include
/// and in what order.
#[derive(Debug)]
#[non_exhaustive]
pub enum TextValue<'a> {
    /// `void`.
    Void,
    /// `true` or `false`.
    Bool(bool),
    /// A signed integer of any width.
    Int(i64),
    /// An unsigned integer of any width.
    UInt(u64),
    /// A Float32 (printed with at most 8 significant digits).
    Float32(f32),
    /// A Float64 (printed with at most 17 significant digits).
    Float64(f64),
    /// Text: its bytes without the NUL terminator (not necessarily UTF-8).
    Text(&'a [u8]),
    /// Data.
    Data(&'a [u8]),
    /// An enumerant the schema names.
    Enum(&'a str),
    /// An enum value the schema does not name: prints as `(n)`.
    EnumNumber(u16),
    /// A struct or group: its fields to print, in order.
    Struct(Vec<(&'a str, TextValue<'a>)>),
    /// A list: its elements.
    List(Vec<TextValue<'a>>),
    /// A non-null AnyPointer field: prints `<opaque pointer>`.
    AnyPointer,
    /// A capability (interface) value: prints `<external capability>`.
    Capability,
    /// A read that failed where the value should be: prints
    /// `<error: MESSAGE>`.
    Error(crate::Error),
}

impl<'a> TextValue<'a> {
    /// An enum value: the enumerant's name when `raw` indexes `names`
    /// (the enumerants in ordinal order, as their values are assigned),
    /// [`EnumNumber`](TextValue::EnumNumber) otherwise.
    ///
    /// ```
    /// use capnarena::text::TextValue;
    /// const COLOR: &[&str] = &["red", "green"];
    /// assert!(matches!(TextValue::enumerant(1, COLOR), TextValue::Enum("green")));
    /// assert!(matches!(TextValue::enumerant(9, COLOR), TextValue::EnumNumber(9)));
    /// ```
    pub fn enumerant(raw: u16, names: &[&'a str]) -> Self {
        match names.get(usize::from(raw)) {
            Some(name) => TextValue::Enum(name),
            None => TextValue::EnumNumber(raw),
        }
    }

    /// The value, or [`Error`](TextValue::Error) when reading it failed.
    pub fn from_result(r: crate::Result<TextValue<'a>>) -> Self {
        r.unwrap_or_else(TextValue::Error)
    }

    /// Formats for `Debug`: [`write_pretty`] when the formatter asks for
    /// the alternate form (`{:#?}`), [`write_short`] otherwise. A generated
    /// `Debug` impl is `text::fmt_debug(&self.text_value(), f)`.
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
/// `{:?}`. What a generated `Debug` impl calls.
///
/// # Errors
///
/// Only those of the formatter.
pub fn fmt_debug(v: &TextValue<'_>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    v.fmt_debug(f)
}

/// Writes `v` on one line, as `capnp convert binary:text --short` prints
/// it (without the final newline). Text bytes that are not UTF-8 become
/// octal escapes (see the [module docs](self)).
///
/// # Errors
///
/// Only those of `out`.
pub fn write_short<W: fmt::Write + ?Sized>(v: &TextValue<'_>, out: &mut W) -> fmt::Result {
    short(v, &mut FmtSink(out))
}

/// Writes `v` as `capnp convert binary:text` prints it (without the final
/// newline): long structs and lists broken over indented lines. Text bytes
/// that are not UTF-8 become octal escapes (see the [module docs](self)).
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
trait Sink {
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
struct BytesSink<'v>(&'v mut Vec<u8>);

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
fn quoted<S: Sink>(bytes: &[u8], binary: bool, s: &mut S) -> fmt::Result {
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
const MAX_INLINE_VALUE: usize = 24;
/// Longest sum of a struct's elements that keeps it on one line.
const MAX_INLINE_RECORD: usize = 64;

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

// ---------------------------------------------------------------------------
// Floats: C's `%.Ng`, as kj's DoubleToBuffer and FloatToBuffer use it.

/// A short ASCII string on the stack.
struct Small {
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

    fn as_str(&self) -> &str {
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
struct Float;

impl Float {
    /// kj's DoubleToBuffer: `%.15g`, or `%.17g` when that does not read
    /// back as `x`.
    fn f64(x: f64) -> Result<Small, fmt::Error> {
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
    fn f32(x: f32) -> Result<Small, fmt::Error> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;

    fn short_str(v: &TextValue<'_>) -> String {
        let mut s = String::new();
        write_short(v, &mut s).unwrap();
        s
    }

    fn pretty_str(v: &TextValue<'_>) -> String {
        let mut s = String::new();
        write_pretty(v, &mut s).unwrap();
        s
    }

    fn to_short_bytes(v: &TextValue<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        write_short_bytes(v, &mut out).unwrap();
        out
    }

    fn to_pretty_bytes(v: &TextValue<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        write_pretty_bytes(v, &mut out).unwrap();
        out
    }

    fn st<'a, const N: usize>(fields: [(&'a str, TextValue<'a>); N]) -> TextValue<'a> {
        TextValue::Struct(fields.into())
    }

    /// Float64 and Float32 print as kj's DoubleToBuffer and FloatToBuffer
    /// do: `%.15g`/`%.6g`, the longer `%.17g`/`%.8g` when needed, no `+`
    /// in exponents, a two-digit exponent minimum, specials by name.
    ///
    /// Expected strings observed with capnp 0.9.2, schema
    /// `struct F { d @0 :Float64; f @1 :Float32; }`:
    /// `echo "(d = V, f = V)" | capnp encode t.capnp F | capnp convert
    /// binary:text --short t.capnp F`.
    #[test]
    // The inputs are the literals the reference tool was given.
    #[allow(clippy::excessive_precision)]
    fn floats_print_as_the_reference() {
        // (input, Float64 output, Float32 output)
        let cases: &[(f64, &str, &str)] = &[
            (1e20, "1e20", "1e20"),
            (0.1, "0.1", "0.1"),
            (-0.0, "-0", "-0"),
            (f64::NAN, "nan", "nan"),
            (f64::INFINITY, "inf", "inf"),
            (f64::NEG_INFINITY, "-inf", "-inf"),
            (1e15, "1e15", "1e15"),
            (1e16, "1e16", "1e16"),
            (
                123456789012345678.0,
                "1.2345678901234568e17",
                "1.2345679e17",
            ),
            (1e-5, "1e-05", "1e-05"),
            (1e-4, "0.0001", "0.0001"),
            (100000.0, "100000", "100000"),
            (1e300, "1e300", "inf"),
            (5e-324, "4.94065645841247e-324", "0"),
            (2.2250738585072014e-308, "2.2250738585072014e-308", "0"),
            (1.5, "1.5", "1.5"),
            (0.3, "0.3", "0.3"),
            (1e21, "1e21", "1e21"),
            (1000000000000005.0, "1000000000000005", "1e15"),
            (1000000000000000.25, "1000000000000000.2", "1e15"),
            (123456.7, "123456.7", "123456.7"),
            (1e6, "1000000", "1e06"),
            (1e7, "10000000", "1e07"),
            (12345678.0, "12345678", "12345678"),
            (2.5e-7, "2.5e-07", "2.5e-07"),
        ];
        for &(x, d, f) in cases {
            assert_eq!(short_str(&TextValue::Float64(x)), d, "Float64 {x:e}");
            assert_eq!(short_str(&TextValue::Float32(x as f32)), f, "Float32 {x:e}");
        }
        // Float32 only: `echo "(f = V)" | ...` as above.
        let f32_cases: &[(f32, &str)] = &[
            (1e-45, "1.4012985e-45"),
            (1e-40, "9.9999461e-41"),
            (1.17549435e-38, "1.1754944e-38"),
            (1.1754942e-38, "1.1754942e-38"),
            (3.4028235e38, "3.4028235e38"),
            (16777217.0, "16777216"),
            (0.333333343, "0.33333334"),
            // Bits 0xd86ddc50 (-1046121963061248): 8 digits are not enough
            // to tell it from its neighbour -1046122030170112, which is
            // what "-1.046122e15" reads back as. The reference prints it
            // anyway (observed with a built message: `capnp convert
            // binary:text --short text_format.capnp Floats`).
            (f32::from_bits(0xd86d_dc50), "-1.046122e15"),
        ];
        for &(x, f) in f32_cases {
            assert_eq!(short_str(&TextValue::Float32(x)), f, "Float32 {x:e}");
        }
        // tests/vectors/full.expected (capnp convert binary:text of full.bin).
        assert_eq!(
            short_str(&TextValue::Float64(core::f64::consts::PI)),
            "3.1415926535897931"
        );
        assert_eq!(
            short_str(&TextValue::Float64(6.02214076e23)),
            "6.02214076e23"
        );
        assert_eq!(short_str(&TextValue::Float32(1e10)), "1e10");
        // Negative NaN is still `nan` (kj tests isnan before the sign).
        assert_eq!(short_str(&TextValue::Float64(-f64::NAN)), "nan");
    }

    /// Every float prints without error: the stack buffer holds every
    /// form. The widest forms, checked by length.
    #[test]
    // The inputs are the literals the reference tool was given.
    #[allow(clippy::excessive_precision)]
    fn float_forms_fit() {
        for x in [
            -2.2250738585072014e-308,
            -f64::MAX,
            -f64::MIN_POSITIVE,
            -4.9406564584124654e-324,
            -0.00012345678901234567,
            -123456789012345680.0,
        ] {
            let s = short_str(&TextValue::Float64(x));
            assert!(s.len() <= 24, "{s}");
            assert_eq!(s.parse::<f64>(), Ok(x), "{s} reads back");
        }
        for x in [-f32::MAX, -f32::MIN_POSITIVE, -1e-45f32, -0.00012345678f32] {
            let s = short_str(&TextValue::Float32(x));
            assert_eq!(s.parse::<f32>(), Ok(x), "{s} reads back");
        }
    }

    /// Text and Data escapes, Text's raw high bytes, Data's octal ones.
    ///
    /// Observed with capnp 0.9.2 (`od -c` of the output), schema
    /// `struct S { t @0 :Text; d @1 :Data; ts @2 :List(Text); }` and the
    /// message `(t = "q\"b\\s\x27 \a\b\f\n\r\t\v \x01\x1f\x7f é ✓ \xff\xc3
    /// end", d = "q\"b\\ \x00\x7f\x80\xff é", ts = ["a\x00b"])`:
    /// `capnp encode s.capnp S < s.txt | capnp convert binary:text s.capnp S`.
    #[test]
    fn escapes_as_the_reference() {
        let t: &[u8] =
            b"q\"b\\s' \x07\x08\x0c\n\r\t\x0b \x01\x1f\x7f \xc3\xa9 \xe2\x9c\x93 \xff\xc3 end";
        let d: &[u8] = b"q\"b\\ \x00\x7f\x80\xff \xc3\xa9";
        let v = st([
            ("t", TextValue::Text(t)),
            ("d", TextValue::Data(d)),
            ("ts", TextValue::List(vec![TextValue::Text(b"a\x00b")])),
        ]);
        let expected: &[u8] = b"( t = \"q\\\"b\\\\s\\' \\a\\b\\f\\n\\r\\t\\v \\001\\037\\177 \xc3\xa9 \xe2\x9c\x93 \xff\xc3 end\",\n  d = \"q\\\"b\\\\ \\000\\177\\200\\377 \\303\\251\",\n  ts = [\"a\\000b\"] )";
        assert_eq!(to_pretty_bytes(&v), expected);
        // The same with the invalid bytes 0xff 0xc3 as octal escapes.
        let fmt = "( t = \"q\\\"b\\\\s\\' \\a\\b\\f\\n\\r\\t\\v \\001\\037\\177 é ✓ \\377\\303 end\",\n  d = \"q\\\"b\\\\ \\000\\177\\200\\377 \\303\\251\",\n  ts = [\"a\\000b\"] )";
        assert_eq!(pretty_str(&v), fmt);
    }

    /// A struct or list stays on one line while each element is at most
    /// 24 bytes (counted in bytes, not characters) and, for a struct, they
    /// add up to at most 64; otherwise it breaks, `( ` at the root,
    /// `[` + newline after `name = `.
    ///
    /// Observed with capnp 0.9.2 on tests/schemas/text_format.capnp:
    /// `echo MSG | capnp encode text_format.capnp Texts | capnp convert
    /// binary:text text_format.capnp Texts`.
    #[test]
    fn line_breaking_boundaries() {
        let text = |t: &'static str| st([("text", TextValue::Text(t.as_bytes()))]);
        assert_eq!(
            pretty_str(&text("123456789012345")),
            "(text = \"123456789012345\")"
        );
        assert_eq!(
            pretty_str(&text("1234567890123456")),
            "( text = \"1234567890123456\" )"
        );
        assert_eq!(
            pretty_str(&text("é2345678901234")),
            "(text = \"é2345678901234\")"
        );
        assert_eq!(
            pretty_str(&text("é23456789012345")),
            "( text = \"é23456789012345\" )"
        );

        let texts = |items: &[&'static str]| {
            st([(
                "texts",
                TextValue::List(
                    items
                        .iter()
                        .map(|t| TextValue::Text(t.as_bytes()))
                        .collect(),
                ),
            )])
        };
        assert_eq!(
            pretty_str(&texts(&["1234567890123456789012", "x"])),
            "( texts = [\"1234567890123456789012\", \"x\"] )"
        );
        assert_eq!(
            pretty_str(&texts(&["12345678901234567890123", "x"])),
            "( texts = [\n    \"12345678901234567890123\",\n    \"x\" ] )"
        );
        assert_eq!(
            pretty_str(&texts(&["12345678901234567890123"])),
            "( texts = [\n    \"12345678901234567890123\" ] )"
        );

        let three = |last: &'static str| {
            st([
                ("text", TextValue::Text(b"123456789012345")),
                ("data", TextValue::Data(b"123456789012345")),
                (
                    "texts",
                    TextValue::List(vec![TextValue::Text(last.as_bytes())]),
                ),
            ])
        };
        // 24 + 24 + 16 = 64 bytes: one line; 65: broken.
        assert_eq!(
            pretty_str(&three("1234")),
            "(text = \"123456789012345\", data = \"123456789012345\", texts = [\"1234\"])"
        );
        assert_eq!(
            pretty_str(&three("12345")),
            "( text = \"123456789012345\",\n  data = \"123456789012345\",\n  texts = [\"12345\"] )"
        );
    }

    /// Nested lists and structs break level by level, each level two
    /// spaces deeper; a broken list element opens with `[ `.
    ///
    /// Observed with capnp 0.9.2 on tests/schemas/text_format.capnp:
    /// `echo '(texts = [["12345678901234567890123"]], points = [(x =
    /// 2147483647, y = -2147483648)], nested = [[[1,2],[3]],[[12345678,
    /// 12345678,1234567]]])' | capnp encode text_format.capnp Lists |
    /// capnp convert binary:text text_format.capnp Lists`.
    #[test]
    fn nested_breaking() {
        let ints = |xs: &[i64]| TextValue::List(xs.iter().map(|&x| TextValue::Int(x)).collect());
        let v = st([
            (
                "nested",
                TextValue::List(vec![
                    TextValue::List(vec![ints(&[1, 2]), ints(&[3])]),
                    TextValue::List(vec![ints(&[12345678, 12345678, 1234567])]),
                ]),
            ),
            (
                "texts",
                TextValue::List(vec![TextValue::List(vec![TextValue::Text(
                    b"12345678901234567890123",
                )])]),
            ),
            (
                "points",
                TextValue::List(vec![st([
                    ("x", TextValue::Int(2147483647)),
                    ("y", TextValue::Int(-2147483648)),
                ])]),
            ),
        ]);
        let expected = "( nested = [
    [[1, 2], [3]],
    [ [12345678, 12345678, 1234567] ] ],
  texts = [
    [ \"12345678901234567890123\" ] ],
  points = [
    (x = 2147483647, y = -2147483648) ] )";
        assert_eq!(pretty_str(&v), expected);
        assert_eq!(
            short_str(&v),
            "(nested = [[[1, 2], [3]], [[12345678, 12345678, 1234567]]], texts = [[\"12345678901234567890123\"]], points = [(x = 2147483647, y = -2147483648)])"
        );
    }

    /// A broken struct inside a field and inside a list; a struct whose
    /// own fields fit stays on one line even when its parent breaks.
    ///
    /// Observed with capnp 0.9.2 on tests/schemas/text_format.capnp:
    /// `echo '(list = [(), (b = 1)], nested = (num = 3))' | capnp encode
    /// text_format.capnp Shapes | capnp convert binary:text
    /// text_format.capnp Shapes`.
    #[test]
    fn struct_breaking() {
        let outer = || {
            st([
                ("inner", st([("first", TextValue::Void)])),
                ("tail", TextValue::Bool(false)),
                ("deeper", st([])),
            ])
        };
        let shape = |b: i64, union: Option<(&'static str, TextValue<'static>)>| {
            let mut fields = vec![("a", TextValue::Int(5)), ("b", TextValue::Int(b))];
            fields.extend(union);
            fields.push(("v", TextValue::Void));
            fields.push(("outer", outer()));
            TextValue::Struct(fields)
        };
        let mut root = shape(0, None);
        if let TextValue::Struct(fields) = &mut root {
            fields.push(("nested", shape(0, Some(("num", TextValue::Int(3))))));
            fields.push((
                "list",
                TextValue::List(vec![shape(0, None), shape(1, None)]),
            ));
        }
        let expected = "( a = 5,
  b = 0,
  v = void,
  outer = (inner = (first = void), tail = false, deeper = ()),
  nested = (
    a = 5,
    b = 0,
    num = 3,
    v = void,
    outer = (inner = (first = void), tail = false, deeper = ()) ),
  list = [
    ( a = 5,
      b = 0,
      v = void,
      outer = (inner = (first = void), tail = false, deeper = ()) ),
    ( a = 5,
      b = 1,
      v = void,
      outer = (inner = (first = void), tail = false, deeper = ()) ) ] )";
        assert_eq!(pretty_str(&root), expected);
    }

    /// Empty structs and lists, void, enums known and unknown, opaque
    /// pointers.
    ///
    /// Observed with capnp 0.9.2 on tests/schemas/text_format.capnp:
    /// `echo '()' | capnp encode text_format.capnp Lists | capnp convert
    /// binary:text text_format.capnp Lists` and `echo '(e = four, es =
    /// [zero, three, two], c = void, any = "hi")' | capnp encode
    /// text_format.capnp OddWriter | capnp convert binary:text
    /// text_format.capnp Odd`.
    #[test]
    fn small_values() {
        assert_eq!(pretty_str(&st([])), "()");
        assert_eq!(short_str(&st([])), "()");
        assert_eq!(pretty_str(&TextValue::List(vec![])), "[]");
        const SMALL: &[&str] = &["zero", "one", "two"];
        let v = st([
            ("e", TextValue::enumerant(4, SMALL)),
            (
                "es",
                TextValue::List(vec![
                    TextValue::enumerant(0, SMALL),
                    TextValue::enumerant(3, SMALL),
                    TextValue::enumerant(2, SMALL),
                ]),
            ),
            ("any", TextValue::AnyPointer),
        ]);
        let expected = "(e = (4), es = [zero, (3), two], any = <opaque pointer>)";
        assert_eq!(pretty_str(&v), expected);
        assert_eq!(short_str(&v), expected);
    }

    /// A capability prints `<external capability>`: the string of
    /// `stringify.c++` (capnp 0.9.2, `case DynamicValue::CAPABILITY`). The
    /// tool itself cannot show it: `capnp convert` fails on any
    /// capability in a message ("Trying to read capabilities without ever
    /// having created a capability context").
    #[test]
    fn capability() {
        let v = st([("cap", TextValue::Capability)]);
        assert_eq!(short_str(&v), "(cap = <external capability>)");
    }

    /// A read error prints in place of its value as `<error: MESSAGE>`
    /// (capnarena's choice: the reference's tool fails outright), and
    /// counts like any other text for line breaking.
    #[test]
    fn errors_print_in_place() {
        let e = crate::Error::NestingLimitExceeded { limit: 64 };
        let message = alloc::format!("{e}");
        let v = st([("a", TextValue::Int(1)), ("b", TextValue::Error(e))]);
        assert_eq!(
            short_str(&v),
            alloc::format!("(a = 1, b = <error: {message}>)")
        );
        assert_eq!(
            pretty_str(&v),
            alloc::format!("( a = 1,\n  b = <error: {message}> )")
        );
        let ok = TextValue::from_result(Ok(TextValue::Int(3)));
        assert_eq!(short_str(&ok), "3");
    }

    /// `{:?}` is the short form, `{:#?}` the pretty one, as a generated
    /// `Debug` impl that calls `fmt_debug` gives them.
    #[test]
    fn debug_forms() {
        struct Wrapper;
        impl fmt::Debug for Wrapper {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt_debug(
                    &st([
                        ("text", TextValue::Text(b"1234567890123456")),
                        ("n", TextValue::UInt(u64::MAX)),
                    ]),
                    f,
                )
            }
        }
        assert_eq!(
            alloc::format!("{Wrapper:?}"),
            "(text = \"1234567890123456\", n = 18446744073709551615)"
        );
        assert_eq!(
            alloc::format!("{Wrapper:#?}"),
            "( text = \"1234567890123456\",\n  n = 18446744073709551615 )"
        );
    }

    /// Arbitrary bytes in Text and Data never fail to print; the
    /// `fmt::Write` form is valid UTF-8 by construction and differs from
    /// the reference's bytes only where those are not UTF-8.
    #[test]
    fn any_bytes_print() {
        let all: Vec<u8> = (0..=255u8).collect();
        let v = st([("t", TextValue::Text(&all)), ("d", TextValue::Data(&all))]);
        let s = short_str(&v);
        let bytes = to_short_bytes(&v);
        assert!(bytes.len() < s.len(), "invalid bytes grow from 1 to 4");
        // Data never yields a byte from 0x80, Text copies them.
        assert_eq!(bytes.iter().filter(|&&b| b >= 0x80).count(), 128);
        assert!(s.is_ascii());
    }
}

/// Builds a [`TextValue`] tree from the calls of a generated `write_text`
/// method.
#[derive(Default)]
pub struct TreeBuilder<'a> {
    /// Open structs and lists, innermost last.
    stack: Vec<Frame<'a>>,
    root: Option<TextValue<'a>>,
}

enum Frame<'a> {
    Struct(Vec<(&'a str, TextValue<'a>)>, &'a str),
    List(Vec<TextValue<'a>>),
}

impl<'a> TreeBuilder<'a> {
    /// An empty builder.
    pub fn new() -> Self {
        TreeBuilder {
            stack: Vec::new(),
            root: None,
        }
    }

    /// The value built (`Void` when nothing was visited).
    pub fn finish(mut self) -> TextValue<'a> {
        while !self.stack.is_empty() {
            self.close();
        }
        self.root.take().unwrap_or(TextValue::Void)
    }

    fn push(&mut self, value: TextValue<'a>) {
        match self.stack.last_mut() {
            Some(Frame::Struct(fields, name)) => fields.push((name, value)),
            Some(Frame::List(items)) => items.push(value),
            None => self.root = Some(value),
        }
    }

    fn close(&mut self) {
        let value = match self.stack.pop() {
            Some(Frame::Struct(fields, _)) => TextValue::Struct(fields),
            Some(Frame::List(items)) => TextValue::List(items),
            None => return,
        };
        self.push(value);
    }
}

impl<'a> crate::typed::TextVisitor<'a> for TreeBuilder<'a> {
    fn void(&mut self) {
        self.push(TextValue::Void);
    }
    fn bool(&mut self, value: bool) {
        self.push(TextValue::Bool(value));
    }
    fn int(&mut self, value: i64) {
        self.push(TextValue::Int(value));
    }
    fn uint(&mut self, value: u64) {
        self.push(TextValue::UInt(value));
    }
    fn float32(&mut self, value: f32) {
        self.push(TextValue::Float32(value));
    }
    fn float64(&mut self, value: f64) {
        self.push(TextValue::Float64(value));
    }
    fn text(&mut self, value: &'a [u8]) {
        self.push(TextValue::Text(value));
    }
    fn data(&mut self, value: &'a [u8]) {
        self.push(TextValue::Data(value));
    }
    fn enumerant(&mut self, value: u16, names: &'static [&'static str]) {
        self.push(TextValue::enumerant(value, names));
    }
    fn any_pointer(&mut self) {
        self.push(TextValue::AnyPointer);
    }
    fn capability(&mut self) {
        self.push(TextValue::Capability);
    }
    fn error(&mut self, error: crate::Error) {
        self.push(TextValue::Error(error));
    }
    fn begin_struct(&mut self) {
        self.stack.push(Frame::Struct(Vec::new(), ""));
    }
    fn field(&mut self, name: &'static str) {
        if let Some(Frame::Struct(_, pending)) = self.stack.last_mut() {
            *pending = name;
        }
    }
    fn end_struct(&mut self) {
        self.close();
    }
    fn begin_list(&mut self) {
        self.stack.push(Frame::List(Vec::new()));
    }
    fn end_list(&mut self) {
        self.close();
    }
}
