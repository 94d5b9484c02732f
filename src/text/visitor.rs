//! What generated code calls to print a value: its `write_text` methods
//! feed a [`TextVisitor`], and [`fmt_text`] hands them a [`TreeBuilder`]
//! that builds the [`TextValue`] tree printed for `Debug`.
//!
//! [`TextValue`]: super::TextValue

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

#[cfg(feature = "alloc")]
use super::TextValue;
use crate::error::Error;

/// Receives a value's parts in the order the reference's text format
/// prints them: what generated `write_text` methods call, so that `Debug`
/// prints `capnp convert binary:text`'s form (see [the module docs](super) for the
/// rules on which fields appear).
pub trait TextVisitor<'a> {
    /// `void`.
    fn void(&mut self);
    /// A `Bool`.
    fn bool(&mut self, value: bool);
    /// A signed integer.
    fn int(&mut self, value: i64);
    /// An unsigned integer.
    fn uint(&mut self, value: u64);
    /// A `Float32`.
    fn float32(&mut self, value: f32);
    /// A `Float64`.
    fn float64(&mut self, value: f64);
    /// A `Text`'s bytes (without the terminator; not necessarily UTF-8).
    fn text(&mut self, value: &'a [u8]);
    /// A `Data` blob.
    fn data(&mut self, value: &'a [u8]);
    /// An enum value and the schema's enumerant names, by value.
    fn enumerant(&mut self, value: u16, names: &'static [&'static str]);
    /// An `AnyPointer` (printed opaque).
    fn any_pointer(&mut self);
    /// A capability.
    fn capability(&mut self);
    /// A value that could not be read.
    fn error(&mut self, error: Error);
    /// A struct (or group) starts.
    fn begin_struct(&mut self);
    /// The next value is the struct's field `name`.
    fn field(&mut self, name: &'static str);
    /// The struct ends.
    fn end_struct(&mut self);
    /// A list starts.
    fn begin_list(&mut self);
    /// The list ends.
    fn end_list(&mut self);
}

/// Formats a value in the reference's text format: `{:?}` the one-line
/// form, `{:#?}` the pretty one. `write` feeds the value to a visitor
/// (a generated `write_text`). Needs the `alloc` feature; without it the
/// output says so.
///
/// # Errors
/// The formatter's.
#[doc(hidden)]
pub fn fmt_text<'a>(
    f: &mut core::fmt::Formatter<'_>,
    write: impl FnOnce(&mut dyn TextVisitor<'a>),
) -> core::fmt::Result {
    #[cfg(feature = "alloc")]
    {
        let mut tree = TreeBuilder::new();
        write(&mut tree);
        super::fmt_debug(&tree.finish(), f)
    }
    #[cfg(not(feature = "alloc"))]
    {
        let _ = write;
        f.write_str("<text form needs the capnarena `alloc` feature>")
    }
}

/// Builds a [`TextValue`] tree from the calls of a generated `write_text`
/// method.
#[cfg(feature = "alloc")]
#[derive(Default)]
pub struct TreeBuilder<'a> {
    /// Open structs and lists, innermost last.
    stack: Vec<Frame<'a>>,
    root: Option<TextValue<'a>>,
}

#[cfg(feature = "alloc")]
enum Frame<'a> {
    Struct(Vec<(&'a str, TextValue<'a>)>, &'a str),
    List(Vec<TextValue<'a>>),
}

#[cfg(feature = "alloc")]
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

#[cfg(feature = "alloc")]
impl<'a> TextVisitor<'a> for TreeBuilder<'a> {
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
