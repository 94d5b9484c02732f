//! A serde `Deserializer` of JSON text, read as the dynamic decoder reads
//! it (the same [`Parser`]: the reference codec's grammar, strict where
//! the reference is loose), with the same limits ([`JsonLimits`]) and
//! errors with the line and column at fault.
//!
//! Numbers are doubles, as in the reference: an integer written without
//! fraction or exponent that a double holds exactly (up to 2^53) is given
//! to the visitor as an integer, any other number as the double it reads
//! as. Strings without escapes are borrowed from the input.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::error::{JsonError, JsonResult, NOWHERE, Position, Step};
use super::parser::Parser;
use super::{JsonLimits, MAX_NESTING_CEILING};

/// The largest integer below which every integer is a double.
const EXACT: u64 = 1 << 53;

/// A `T` read from the JSON text `text` (one value, then only
/// whitespace).
///
/// ```
/// use capnarena_dynamic::json::{self, JsonLimits};
///
/// let v: Vec<(String, f64)> = json::from_str(r#"[["a", 1e300], ["b", 0.5]]"#, &JsonLimits::default())?;
/// assert_eq!(v, [("a".to_string(), 1e300), ("b".to_string(), 0.5)]);
/// let err = json::from_str::<Vec<u8>>("[1,\n 300]", &JsonLimits::default()).unwrap_err();
/// assert_eq!(err.position().map(|p| (p.line, p.column)), Some((2, 2)));
/// # Ok::<(), capnarena_dynamic::json::JsonError>(())
/// ```
///
/// # Errors
/// [`JsonError::InputTooLarge`], [`JsonError::LimitTooHigh`],
/// [`JsonError::TooDeep`], [`JsonError::Syntax`] (not JSON, or input
/// after the value), [`JsonError::Value`] (a value that does not fit,
/// with the path to it), [`JsonError::UnknownField`] (with
/// [`JsonLimits::reject_unknown_fields`]), each with its [`Position`].
pub fn from_str<'de, T: Deserialize<'de>>(text: &'de str, limits: &JsonLimits) -> JsonResult<T> {
    from_slice(text.as_bytes(), limits)
}

/// A `T` read from the JSON text `text`, which must be UTF-8.
///
/// # Errors
/// As [`from_str`]; [`JsonError::Syntax`] for text that is not UTF-8.
pub fn from_slice<'de, T: Deserialize<'de>>(text: &'de [u8], limits: &JsonLimits) -> JsonResult<T> {
    let mut de = JsonDeserializer::from_slice(text, limits)?;
    let value = de.next::<T>()?;
    de.end()?;
    Ok(value)
}

/// The deserializer of [`from_str`], for a stream of JSON documents (one
/// after another, with or without whitespace between them):
///
/// ```
/// use capnarena_dynamic::json::{JsonDeserializer, JsonLimits};
///
/// let mut de = JsonDeserializer::from_str("1 2\n[3]", &JsonLimits::default())?;
/// let mut all = Vec::new();
/// while !de.at_end() {
///     all.push(de.next::<serde::de::IgnoredAny>()?);
/// }
/// assert_eq!(all.len(), 3);
/// # Ok::<(), capnarena_dynamic::json::JsonError>(())
/// ```
pub struct JsonDeserializer<'de> {
    p: Parser<'de>,
    reject_unknown: bool,
}

impl<'de> JsonDeserializer<'de> {
    /// A deserializer of `text` under `limits` (its size and nesting;
    /// the message-size limit does not apply).
    ///
    /// # Errors
    /// [`JsonError::InputTooLarge`], [`JsonError::LimitTooHigh`].
    pub fn from_str(text: &'de str, limits: &JsonLimits) -> JsonResult<Self> {
        Self::new(text, limits)
    }

    /// A deserializer of `text` (UTF-8) under `limits`.
    ///
    /// # Errors
    /// As [`JsonDeserializer::from_str`]; [`JsonError::Syntax`] for text
    /// that is not UTF-8.
    pub fn from_slice(text: &'de [u8], limits: &JsonLimits) -> JsonResult<Self> {
        match core::str::from_utf8(text) {
            Ok(text) => Self::new(text, limits),
            Err(e) => Err(JsonError::Syntax {
                at: Position::of(text, e.valid_up_to()),
                message: "the input is not UTF-8".into(),
            }),
        }
    }

    fn new(text: &'de str, limits: &JsonLimits) -> JsonResult<Self> {
        if text.len() > limits.max_input_bytes {
            return Err(JsonError::InputTooLarge {
                size: text.len(),
                limit: limits.max_input_bytes,
            });
        }
        if limits.max_depth > MAX_NESTING_CEILING {
            return Err(JsonError::LimitTooHigh {
                what: "max_depth",
                value: limits.max_depth,
                ceiling: MAX_NESTING_CEILING,
            });
        }
        Ok(JsonDeserializer {
            p: Parser::of_str(text, 0, limits.max_depth),
            reject_unknown: limits.reject_unknown_fields,
        })
    }

    /// Reads the next value as a `T`.
    ///
    /// # Errors
    /// As [`from_str`].
    #[allow(clippy::should_implement_trait)]
    pub fn next<T: Deserialize<'de>>(&mut self) -> JsonResult<T> {
        self.p.skip_ws();
        let start = self.p.pos;
        T::deserialize(&mut *self).map_err(|e| self.place(e, start).at_root())
    }

    /// Whether only whitespace is left (skipping it).
    pub fn at_end(&mut self) -> bool {
        self.p.skip_ws();
        self.p.pos >= self.p.text.len()
    }

    /// The offset of the next byte to read.
    pub fn offset(&self) -> usize {
        self.p.pos
    }

    /// Checks that only whitespace is left.
    ///
    /// # Errors
    /// [`JsonError::Syntax`] at what follows the value.
    pub fn end(&mut self) -> JsonResult<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self
                .p
                .error_at(self.p.pos, "input remains after the JSON value"))
        }
    }

    /// `e`, placed at `offset` when it has no place yet (an error a
    /// visitor made with `custom`).
    fn place(&self, mut e: JsonError, offset: usize) -> JsonError {
        if let JsonError::Value { at, .. } = &mut e {
            if *at == NOWHERE {
                *at = Position::of(self.p.text, offset);
            }
        }
        e
    }

    /// `e` of the value at `start` of the member whose name starts at
    /// `key_at`: placed, and the member named in its path.
    #[inline(never)]
    fn in_member(&self, e: JsonError, start: usize, key_at: usize) -> JsonError {
        let mut p = Parser::new(self.p.text, key_at, 0);
        let name = p.string_cow().map(Cow::into_owned).unwrap_or_default();
        self.place(e, start).within(Step::Name(&name))
    }

    /// Reads the value at the current position into `visitor`. (Arrays
    /// and objects, the recursion, are read by functions of their own
    /// and results are matched rather than mapped: a level of nesting
    /// takes less stack in unoptimized builds.)
    fn any<V: Visitor<'de>>(&mut self, visitor: V, fields: Fields) -> JsonResult<V::Value> {
        self.p.skip_ws();
        match self.p.peek() {
            Some(b'{') => self.object(visitor, fields),
            Some(b'[') => self.array(visitor),
            _ => self.scalar(visitor),
        }
    }

    fn object<V: Visitor<'de>>(&mut self, visitor: V, fields: Fields) -> JsonResult<V::Value> {
        let start = self.p.pos;
        self.p.enter()?;
        self.p.pos += 1;
        let map = Map {
            de: self,
            first: true,
            key_at: start,
            fields,
        };
        match visitor.visit_map(map) {
            Ok(v) => {
                self.close(b'}', "'}'")?;
                Ok(v)
            }
            Err(e) => Err(self.place(e, start)),
        }
    }

    fn array<V: Visitor<'de>>(&mut self, visitor: V) -> JsonResult<V::Value> {
        let start = self.p.pos;
        self.p.enter()?;
        self.p.pos += 1;
        match visitor.visit_seq(Seq { de: self, index: 0 }) {
            Ok(v) => {
                self.close(b']', "']'")?;
                Ok(v)
            }
            Err(e) => Err(self.place(e, start)),
        }
    }

    fn scalar<V: Visitor<'de>>(&mut self, visitor: V) -> JsonResult<V::Value> {
        let start = self.p.pos;
        let r = match self.p.peek() {
            Some(b'n') => {
                self.p.word(b"null")?;
                visitor.visit_unit()
            }
            Some(b't') => {
                self.p.word(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.p.word(b"false")?;
                visitor.visit_bool(false)
            }
            Some(b'"') => match self.p.string_cow()? {
                Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
                Cow::Owned(s) => visitor.visit_string(s),
            },
            Some(b'-' | b'0'..=b'9') => self.number(visitor),
            _ => return Err(self.p.unexpected("a JSON value")),
        };
        r.map_err(|e| self.place(e, start))
    }

    /// Reads past the end of an array or object whose elements the
    /// visitor has read.
    fn close(&mut self, close: u8, what: &str) -> JsonResult<()> {
        self.p.skip_ws();
        self.p.expect(close, what)?;
        self.p.leave();
        Ok(())
    }

    fn number<V: Visitor<'de>>(&mut self, visitor: V) -> JsonResult<V::Value> {
        let (start, integer) = self.p.number_span()?;
        if integer {
            let text = &self.p.text[start..self.p.pos];
            let (negative, digits) = match text.split_first() {
                Some((b'-', rest)) => (true, rest),
                _ => (false, text),
            };
            // Up to 16 digits cannot overflow a u64; -0 is the double.
            if digits.len() <= 16 && !(negative && digits == b"0") {
                let v = digits
                    .iter()
                    .fold(0u64, |v, d| v * 10 + u64::from(d - b'0'));
                if v <= EXACT {
                    return if negative {
                        // v <= 2^53, so the negation fits.
                        visitor.visit_i64(-(v as i64))
                    } else {
                        visitor.visit_u64(v)
                    };
                }
            }
        }
        let v = self.p.number_value(start)?;
        visitor.visit_f64(v)
    }
}

/// The field names of the struct being read, when unknown ones are
/// refused.
type Fields = Option<(&'static str, &'static [&'static str])>;

impl<'de> de::Deserializer<'de> for &mut JsonDeserializer<'de> {
    type Error = JsonError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> JsonResult<V::Value> {
        self.any(visitor, None)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> JsonResult<V::Value> {
        self.p.skip_ws();
        if self.p.peek() == Some(b'n') {
            let start = self.p.pos;
            self.p.word(b"null")?;
            visitor.visit_none().map_err(|e| self.place(e, start))
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> JsonResult<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> JsonResult<V::Value> {
        let fields = self.reject_unknown.then_some((name, fields));
        self.any(visitor, fields)
    }

    /// A variant without data is its name; one with data an object of
    /// one member, its name.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> JsonResult<V::Value> {
        self.p.skip_ws();
        let start = self.p.pos;
        let r = match self.p.peek() {
            Some(b'"') => match self.p.string_cow()? {
                Cow::Borrowed(s) => visitor.visit_enum(s.into_deserializer()),
                Cow::Owned(s) => visitor.visit_enum(s.into_deserializer()),
            },
            Some(b'{') => {
                self.p.enter()?;
                self.p.pos += 1;
                self.p.skip_ws();
                let v = visitor
                    .visit_enum(Variant { de: self })
                    .map_err(|e| self.place(e, start))?;
                self.close(b'}', "'}' after the variant")?;
                Ok(v)
            }
            _ => return Err(self.p.unexpected("an enum variant (a string or an object)")),
        };
        r.map_err(|e| self.place(e, start))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map identifier
        ignored_any
    }
}

/// The elements of an array.
struct Seq<'a, 'de> {
    de: &'a mut JsonDeserializer<'de>,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for Seq<'_, 'de> {
    type Error = JsonError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> JsonResult<Option<T::Value>> {
        let p = &mut self.de.p;
        p.skip_ws();
        if p.peek() == Some(b']') {
            return Ok(None);
        }
        if self.index > 0 {
            p.expect(b',', "',' or ']'")?;
        }
        p.skip_ws();
        let (i, start) = (self.index, p.pos);
        self.index += 1;
        // An error a value's impl makes after reading it is placed at
        // the value.
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(self.de.place(e, start).within(Step::Index(i))),
        }
    }
}

/// The members of an object.
struct Map<'a, 'de> {
    de: &'a mut JsonDeserializer<'de>,
    first: bool,
    /// Where the last member's name starts.
    key_at: usize,
    fields: Fields,
}

impl<'de> de::MapAccess<'de> for Map<'_, 'de> {
    type Error = JsonError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> JsonResult<Option<K::Value>> {
        let p = &mut self.de.p;
        p.skip_ws();
        if p.peek() == Some(b'}') {
            return Ok(None);
        }
        if !self.first {
            p.expect(b',', "',' or '}'")?;
            p.skip_ws();
        }
        self.first = false;
        if p.peek() != Some(b'"') {
            return Err(p.unexpected("a member name (a string)"));
        }
        self.key_at = p.pos;
        let name = p.string_cow()?;
        if let Some((struct_name, fields)) = self.fields {
            if !fields.contains(&&*name) {
                return Err(JsonError::UnknownField {
                    at: Position::of(p.text, self.key_at),
                    struct_name: struct_name.to_string(),
                    name: name.into_owned(),
                });
            }
        }
        p.skip_ws();
        p.expect(b':', "':'")?;
        let key_at = self.key_at;
        let r = match name {
            Cow::Borrowed(s) => seed.deserialize(de::value::BorrowedStrDeserializer::new(s)),
            Cow::Owned(s) => seed.deserialize(de::value::StringDeserializer::new(s)),
        };
        r.map(Some).map_err(|e| self.de.place(e, key_at))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> JsonResult<V::Value> {
        self.de.p.skip_ws();
        let start = self.de.p.pos;
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(v),
            Err(e) => Err(self.de.in_member(e, start, self.key_at)),
        }
    }
}

/// An enum variant with data: `{"name": data}`.
struct Variant<'a, 'de> {
    de: &'a mut JsonDeserializer<'de>,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = JsonError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> JsonResult<(S::Value, Self)> {
        let p = &mut self.de.p;
        if p.peek() != Some(b'"') {
            return Err(p.unexpected("a variant's name (a string)"));
        }
        let at = p.pos;
        let name = p.string_cow()?;
        p.skip_ws();
        p.expect(b':', "':'")?;
        let r = match name {
            Cow::Borrowed(s) => seed.deserialize(de::value::BorrowedStrDeserializer::new(s)),
            Cow::Owned(s) => seed.deserialize(de::value::StringDeserializer::new(s)),
        };
        match r {
            Ok(v) => Ok((v, self)),
            Err(e) => Err(self.de.place(e, at)),
        }
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = JsonError;

    fn unit_variant(self) -> JsonResult<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> JsonResult<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> JsonResult<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> JsonResult<V::Value> {
        de::Deserializer::deserialize_map(&mut *self.de, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers read as the reference reads them, as doubles: `-0` keeps
    /// its sign, an integer past 2^53 rounds to the nearest double, an
    /// exponent makes an integer all the same; the serializer writes
    /// what it reads back.
    #[test]
    fn numbers_are_doubles() {
        let limits = JsonLimits::default();
        let v: f64 = from_str("-0", &limits).unwrap();
        assert!(v == 0.0 && v.is_sign_negative());
        let v: f64 = from_str("9007199254740993", &limits).unwrap();
        assert_eq!(v, 9007199254740992.0);
        let v: i64 = from_str("-9007199254740992", &limits).unwrap();
        assert_eq!(v, -(1 << 53));
        let v: Vec<f64> = from_str("[0.1, 1e300, 0.3333333333333333]", &limits).unwrap();
        let text = crate::json::to_string(&v, &crate::json::JsonOptions::short()).unwrap();
        assert_eq!(text, "[0.1,1e300,0.33333333333333331]");
        assert_eq!(from_str::<Vec<f64>>(&text, &limits).unwrap(), v);
    }
}
