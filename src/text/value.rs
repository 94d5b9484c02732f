//! [`TextValue`]: one value of a message as the text format prints it.

use alloc::vec::Vec;

/// One value of a message, as the text format prints it.
///
/// Build it from a reader (generated code does) and print it with
/// [`write_short`](super::write_short), [`write_pretty`](super::write_pretty), or `Debug` (`{:?}` short, `{:#?}`
/// pretty). See the [module docs](super) for which struct fields to include
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
}
