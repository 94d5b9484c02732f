//! `serde` support for the plain Rust values (feature `serde`): what the
//! `Serialize` / `Deserialize` impls that `capnarena-codegen` writes with
//! its `serde` option call.
//!
//! Values follow the reference implementation's JSON codec (`capnp
//! convert binary:json`), so that a JSON serializer writes what the
//! reference writes: fields named as in the schema, `Int64` and `UInt64`
//! as decimal strings, non-finite floats as the strings `"NaN"`,
//! `"Infinity"` and `"-Infinity"`, `Data` as an array of numbers, an enum
//! as its enumerant's name, `Void` as `null`, a null pointer field left
//! out, the union's active member as one more field. How a float's digits
//! are written is the serializer's choice (`serde_json` writes the
//! shortest form that reads back, the reference C's `%.15g` or `%.17g`).
//!
//! Deserializing accepts those forms, and is lenient beyond them:
//! integers as strings or numbers alike, enums as names or numbers,
//! unknown fields skipped. Any pointers and
//! capabilities have no JSON form: serializing or deserializing one is an
//! error.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::AnyValue;
use crate::typed::Enum;

/// A field's (or list element's) value as the reference's JSON codec
/// writes it.
pub trait SerializeValue {
    /// Serializes the value into `s`.
    ///
    /// # Errors
    /// The serializer's, or the value has no JSON form (an any pointer).
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
}

/// A field's (or list element's) value read from what
/// [`SerializeValue`] writes, or from the reference's JSON.
pub trait DeserializeValue<'de>: Sized {
    /// Deserializes a value from `d`.
    ///
    /// # Errors
    /// The deserializer's, or the input does not hold such a value (a
    /// number out of range, an unknown enumerant).
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// A struct value read field by field from a map (what generated code
/// implements for `Value`).
pub trait StructFields: Default {
    /// The struct's name.
    const NAME: &'static str;
    /// The JSON names of its fields and union members; a key's index in
    /// this list is what [`StructFields::set_field`] gets.
    const FIELDS: &'static [&'static str];

    /// Reads the value of field `index` (of [`StructFields::FIELDS`]) from
    /// `map` into `self`; `seen` is the generated code's record of what
    /// the keys so far said (a `$Json.discriminator` union's tag and
    /// value), zero before the first key.
    ///
    /// # Errors
    /// As [`DeserializeValue::deserialize_value`]; a union's tag given
    /// twice or naming another member than a value given, or a union
    /// value under `valueName` before its tag.
    fn set_field<'de, A: MapAccess<'de>>(
        &mut self,
        seen: &mut u64,
        index: usize,
        map: &mut A,
    ) -> Result<(), A::Error>;
}

/// A value serialized by its [`SerializeValue`] rules.
pub struct Ser<'a, T: ?Sized>(pub &'a T);

impl<T: SerializeValue + ?Sized> Serialize for Ser<'_, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_value(s)
    }
}

/// A union member (or list element) that is a pointer: a null one is
/// written as the reference writes it, as its type's default (empty text,
/// data or list, a struct of defaults).
pub struct OrDefault<'a, T>(pub &'a Option<T>);

impl<T: SerializeValue + Default> Serialize for OrDefault<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(v) => v.serialize_value(s),
            None => T::default().serialize_value(s),
        }
    }
}

/// The next map value, deserialized by its [`DeserializeValue`] rules.
///
/// # Errors
/// As [`DeserializeValue::deserialize_value`].
#[inline]
pub fn next<'de, T: DeserializeValue<'de>, A: MapAccess<'de>>(map: &mut A) -> Result<T, A::Error> {
    map.next_value_seed(Seed(PhantomData))
}

/// The next map value, a `$Json.discriminator` union's tag: the index of
/// the member it names among `tags`.
///
/// # Errors
/// The deserializer's, or the value is not a string naming a member.
pub fn next_tag<'de, A: MapAccess<'de>>(
    map: &mut A,
    tags: &'static [&'static str],
) -> Result<usize, A::Error> {
    map.next_value_seed(Tag(tags))
}

struct Tag(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Tag {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Tag {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a union member's name, one of {:?}", self.0)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0.iter().position(|t| *t == v).ok_or_else(|| {
            E::custom(format_args!(
                "the union's tag {v:?} names no member (it has {:?})",
                self.0
            ))
        })
    }
}

/// A `Data` field with `$Json.base64`: written as one standard base64
/// string (`=` padded).
pub struct Base64<'a>(pub &'a [u8]);

/// A `Data` field with `$Json.hex`: written as one lower-case hex string.
pub struct Hex<'a>(pub &'a [u8]);

const BASE64_DIGITS: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

impl fmt::Display for Base64<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.chunks(3) {
            let mut n = 0u32;
            for (i, b) in chunk.iter().enumerate() {
                n |= u32::from(*b) << (16 - 8 * i);
            }
            for i in 0..4 {
                let c = if i <= chunk.len() {
                    BASE64_DIGITS[((n >> (18 - 6 * i)) & 63) as usize]
                } else {
                    b'='
                };
                fmt::Write::write_char(f, char::from(c))?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl Serialize for Base64<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Serialize for Hex<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Which text form of bytes a [`next_bytes`] reads.
#[derive(Clone, Copy)]
pub enum BytesForm {
    /// Standard base64 (`$Json.base64`), `=` padding optional.
    Base64,
    /// Hex digits of either case (`$Json.hex`).
    Hex,
}

/// The next map value, bytes as a `$Json.base64` or `$Json.hex` string.
///
/// # Errors
/// The deserializer's, or the string is not that encoding (the error
/// names the character and its position).
pub fn next_bytes<'de, A: MapAccess<'de>>(
    map: &mut A,
    form: BytesForm,
) -> Result<Vec<u8>, A::Error> {
    map.next_value_seed(form)
}

impl<'de> DeserializeSeed<'de> for BytesForm {
    type Value = Vec<u8>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for BytesForm {
    type Value = Vec<u8>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BytesForm::Base64 => "a base64 string",
            BytesForm::Hex => "a hex string",
        })
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
        match self {
            BytesForm::Base64 => from_base64(v),
            BytesForm::Hex => from_hex(v),
        }
    }
}

fn from_hex<E: de::Error>(v: &str) -> Result<Vec<u8>, E> {
    let b = v.as_bytes();
    if b.len() % 2 != 0 {
        return Err(E::custom(format_args!("hex of odd length {}", b.len())));
    }
    let digit = |i: usize| {
        char::from(b[i]).to_digit(16).ok_or_else(|| {
            E::custom(format_args!(
                "character {} of the hex is {:?}",
                i + 1,
                char::from(b[i])
            ))
        })
    };
    let mut out = Vec::with_capacity(b.len() / 2);
    for i in (0..b.len()).step_by(2) {
        // Two hex digits: at most 255.
        out.push((digit(i)? * 16 + digit(i + 1)?) as u8);
    }
    Ok(out)
}

fn from_base64<E: de::Error>(v: &str) -> Result<Vec<u8>, E> {
    let b = v.as_bytes();
    let body = b
        .strip_suffix(b"==")
        .or_else(|| b.strip_suffix(b"="))
        .unwrap_or(b);
    if (body.len() != b.len() && b.len() % 4 != 0) || body.len() % 4 == 1 {
        return Err(E::custom(format_args!(
            "base64 of {} characters ({} before padding) does not end on a byte",
            b.len(),
            body.len()
        )));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in body.iter().enumerate() {
        let d = BASE64_DIGITS.iter().position(|x| x == c).ok_or_else(|| {
            E::custom(format_args!(
                "character {} of the base64 is {:?}",
                i + 1,
                char::from(*c)
            ))
        })?;
        // d < 64; acc keeps fewer than 14 bits between bytes.
        acc = (acc << 6) | d as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if acc != 0 {
        return Err(E::custom(
            "the base64's last character has bits set past the data",
        ));
    }
    Ok(out)
}

/// Skips the next map value (a key no field has).
///
/// # Errors
/// The deserializer's.
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    map.next_value::<IgnoredAny>().map(|_| ())
}

/// Deserializes a struct value `V` from a map of its fields; a field
/// absent keeps its default (a null pointer, a data field's schema
/// default, the union's first member).
///
/// # Errors
/// As [`DeserializeValue::deserialize_value`].
pub fn deserialize_struct<'de, V: StructFields, D: Deserializer<'de>>(d: D) -> Result<V, D::Error> {
    d.deserialize_struct(V::NAME, V::FIELDS, StructVisitor(PhantomData))
}

/// A value deserialized by its [`DeserializeValue`] rules (a seed, so the
/// type comes from where the value goes).
struct Seed<T>(PhantomData<T>);

impl<'de, T: DeserializeValue<'de>> DeserializeSeed<'de> for Seed<T> {
    type Value = T;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize_value(d)
    }
}

struct StructVisitor<V>(PhantomData<V>);

impl<'de, V: StructFields> Visitor<'de> for StructVisitor<V> {
    type Value = V;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} struct as a map of its fields", V::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<V, A::Error> {
        let mut value = V::default();
        let mut seen = 0;
        while let Some(key) = map.next_key_seed(FieldIndex(V::FIELDS))? {
            match key {
                Some(index) => value.set_field(&mut seen, index, &mut map)?,
                None => skip(&mut map)?,
            }
        }
        Ok(value)
    }
}

/// A map key as its index among the field names (`None`: no such field).
struct FieldIndex(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldIndex {
    type Value = Option<usize>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for FieldIndex {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|n| *n == v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<usize>, E> {
        Ok(usize::try_from(v).ok().filter(|&i| i < self.0.len()))
    }
}

impl SerializeValue for () {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

impl<'de> DeserializeValue<'de> for () {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
        <()>::deserialize(d)
    }
}

impl SerializeValue for bool {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(*self)
    }
}

impl<'de> DeserializeValue<'de> for bool {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        bool::deserialize(d)
    }
}

/// A number as a JSON reader may give it (the integer visitor's result).
#[derive(Clone, Copy)]
enum Number {
    Signed(i64),
    Unsigned(u64),
    Float(f64),
}

/// Reads an integer from a number or a decimal string.
struct IntVisitor(&'static str);

impl Visitor<'_> for IntVisitor {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an {} as a number or a decimal string", self.0)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
        Ok(Number::Signed(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
        Ok(Number::Unsigned(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
        Ok(Number::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Number, E> {
        if let Ok(n) = v.parse::<i64>() {
            Ok(Number::Signed(n))
        } else if let Ok(n) = v.parse::<u64>() {
            Ok(Number::Unsigned(n))
        } else {
            Err(E::custom(format_args!(
                "{v:?} is not an {} (a decimal integer)",
                self.0
            )))
        }
    }
}

/// `n` as integer type `T` (named `what`), or an error naming the value
/// and the type.
fn integer<T: TryFrom<i64> + TryFrom<u64>, E: de::Error>(n: Number, what: &str) -> Result<T, E> {
    let out = match n {
        Number::Signed(v) => T::try_from(v).ok(),
        Number::Unsigned(v) => T::try_from(v).ok(),
        // A float holding an integer exactly: the casts saturate, so a
        // value out of range or with a fraction does not cast back to
        // itself.
        Number::Float(v) if v < 0.0 && (v as i64) as f64 == v => T::try_from(v as i64).ok(),
        Number::Float(v)
            if v >= 0.0 && (v as u64) as f64 == v && v < 18_446_744_073_709_551_616.0 =>
        {
            T::try_from(v as u64).ok()
        }
        Number::Float(v) if v.is_finite() && v.abs() < 18_446_744_073_709_551_616.0 => {
            return Err(E::custom(format_args!("{v} is not an integer ({what})")));
        }
        Number::Float(_) => None,
    };
    out.ok_or_else(|| match n {
        Number::Signed(v) => E::custom(format_args!("{v} is out of the range of {what}")),
        Number::Unsigned(v) => E::custom(format_args!("{v} is out of the range of {what}")),
        Number::Float(v) => E::custom(format_args!("{v} is out of the range of {what}")),
    })
}

macro_rules! integers {
    ($($t:ty => $name:literal, $ser:ident;)*) => {$(
        impl SerializeValue for $t {
            #[inline]
            fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.$ser(*self)
            }
        }
        impl<'de> DeserializeValue<'de> for $t {
            fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                integer(d.deserialize_any(IntVisitor($name))?, $name)
            }
        }
    )*};
}

integers! {
    i8 => "Int8", serialize_i8;
    i16 => "Int16", serialize_i16;
    i32 => "Int32", serialize_i32;
    u8 => "UInt8", serialize_u8;
    u16 => "UInt16", serialize_u16;
    u32 => "UInt32", serialize_u32;
}

/// `Int64` and `UInt64` are decimal strings (a JSON number is a double,
/// which holds only 53 bits exactly).
impl SerializeValue for i64 {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> DeserializeValue<'de> for i64 {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        integer(d.deserialize_any(IntVisitor("Int64"))?, "Int64")
    }
}

impl SerializeValue for u64 {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> DeserializeValue<'de> for u64 {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        integer(d.deserialize_any(IntVisitor("UInt64"))?, "UInt64")
    }
}

/// A float as the reference writes it: a number, or a string for the
/// values JSON has no number for.
fn serialize_float<S: Serializer>(v: f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_nan() {
        s.serialize_str("NaN")
    } else if v == f64::INFINITY {
        s.serialize_str("Infinity")
    } else if v == f64::NEG_INFINITY {
        s.serialize_str("-Infinity")
    } else {
        s.serialize_f64(v)
    }
}

/// Reads a float from a number or one of the strings `"NaN"`,
/// `"Infinity"`, `"-Infinity"` (or a number in a string).
struct FloatVisitor;

impl Visitor<'_> for FloatVisitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, \"NaN\", \"Infinity\" or \"-Infinity\"")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => v
                .parse::<f64>()
                .map_err(|_| E::custom(format_args!("{v:?} is not a number"))),
        }
    }
}

/// A `Float32` is written as the double it widens to (the reference
/// prints the double's digits, e.g. `0.10000000149011612` for `0.1f32`).
impl SerializeValue for f32 {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_float(f64::from(*self), s)
    }
}

impl<'de> DeserializeValue<'de> for f32 {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        // Narrowing rounds to the nearest f32, as the reference does.
        d.deserialize_any(FloatVisitor).map(|v| v as f32)
    }
}

impl SerializeValue for f64 {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_float(*self, s)
    }
}

impl<'de> DeserializeValue<'de> for f64 {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        d.deserialize_any(FloatVisitor)
    }
}

impl SerializeValue for String {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl<'de> DeserializeValue<'de> for String {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        String::deserialize(d)
    }
}

impl SerializeValue for &str {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

/// `Data` is an array of byte values.
impl SerializeValue for &[u8] {
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// A list (and `Data`, whose owned value is `Vec<u8>`) is an array.
impl<T: SerializeValue> SerializeValue for Vec<T> {
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(Ser))
    }
}

impl<'de, T: DeserializeValue<'de>> DeserializeValue<'de> for Vec<T> {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_seq(ListVisitor(PhantomData))
    }
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: DeserializeValue<'de>> Visitor<'de> for ListVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list as an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // The hint is the input's claim: cap what it reserves up front.
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element_seed(Seed(PhantomData))? {
            out.push(v);
        }
        Ok(out)
    }
}

/// A list element that is a pointer: a null one is written as the
/// reference writes it, as its type's default (`""`, `[]`, a struct of
/// defaults); `null` reads back as `None`.
impl<T: SerializeValue + Default> SerializeValue for Option<T> {
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        OrDefault(self).serialize(s)
    }
}

impl<'de, T: DeserializeValue<'de>> DeserializeValue<'de> for Option<T> {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        d.deserialize_option(OptionVisitor(PhantomData))
    }
}

struct OptionVisitor<T>(PhantomData<T>);

impl<'de, T: DeserializeValue<'de>> Visitor<'de> for OptionVisitor<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }
    fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        T::deserialize_value(d).map(Some)
    }
}

impl<T: SerializeValue + ?Sized> SerializeValue for Box<T> {
    #[inline]
    fn serialize_value<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize_value(s)
    }
}

impl<'de, T: DeserializeValue<'de>> DeserializeValue<'de> for Box<T> {
    fn deserialize_value<D: Deserializer<'de>>(d: D) -> Result<Box<T>, D::Error> {
        T::deserialize_value(d).map(Box::new)
    }
}

/// Any pointers and capabilities have no JSON form (as in the reference).
impl SerializeValue for AnyValue {
    fn serialize_value<S: Serializer>(&self, _s: S) -> Result<S::Ok, S::Error> {
        Err(S::Error::custom(
            "an AnyPointer or capability value has no serde form",
        ))
    }
}

impl<'de> DeserializeValue<'de> for AnyValue {
    fn deserialize_value<D: Deserializer<'de>>(_d: D) -> Result<AnyValue, D::Error> {
        Err(de::Error::custom(
            "an AnyPointer or capability value has no serde form",
        ))
    }
}

/// Serializes enum value `e` as its enumerant's name.
///
/// # Errors
/// The serializer's.
pub fn serialize_enum<E: Enum, S: Serializer>(e: E, s: S) -> Result<S::Ok, S::Error> {
    serialize_enum_named(e, E::NAMES, s)
}

/// Serializes enum value `e` as its name among `names` (the enumerants'
/// `$Json.name`s, or their own), its number when `names` has none.
///
/// # Errors
/// The serializer's.
pub fn serialize_enum_named<E: Enum, S: Serializer>(
    e: E,
    names: &'static [&'static str],
    s: S,
) -> Result<S::Ok, S::Error> {
    let v: u16 = e.into();
    match names.get(usize::from(v)) {
        Some(name) => s.serialize_str(name),
        None => s.serialize_u16(v),
    }
}

/// Deserializes an enum value from its enumerant's name (or its number).
///
/// # Errors
/// The deserializer's, or no enumerant has that name or number.
pub fn deserialize_enum<'de, E: Enum, D: Deserializer<'de>>(d: D) -> Result<E, D::Error> {
    deserialize_enum_named(E::NAMES, d)
}

/// Deserializes an enum value from its name among `names` (as
/// [`serialize_enum_named`] writes it) or its number.
///
/// # Errors
/// The deserializer's, or no enumerant has that name or number.
pub fn deserialize_enum_named<'de, E: Enum, D: Deserializer<'de>>(
    names: &'static [&'static str],
    d: D,
) -> Result<E, D::Error> {
    d.deserialize_any(EnumVisitor(names, PhantomData))
}

struct EnumVisitor<E>(&'static [&'static str], PhantomData<E>);

impl<E: Enum> Visitor<'_> for EnumVisitor<E> {
    type Value = E;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an enumerant's name")
    }
    fn visit_str<Er: de::Error>(self, v: &str) -> Result<E, Er> {
        let index = self.0.iter().position(|n| *n == v).ok_or_else(|| {
            Er::custom(format_args!(
                "{v:?} is not an enumerant (the enum has {:?})",
                self.0
            ))
        })?;
        // NAMES has at most 65,536 entries, one per u16 value.
        let value = u16::try_from(index).map_err(|_| Er::custom("enumerant index over 65535"))?;
        E::try_from(value).map_err(|e| Er::custom(format_args!("{e}")))
    }
    fn visit_u64<Er: de::Error>(self, v: u64) -> Result<E, Er> {
        let value = u16::try_from(v)
            .map_err(|_| Er::custom(format_args!("{v} is not an enumerant (over 65535)")))?;
        E::try_from(value).map_err(|e| Er::custom(format_args!("{e}")))
    }
    fn visit_i64<Er: de::Error>(self, v: i64) -> Result<E, Er> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(Er::custom(format_args!("{v} is not an enumerant"))),
        }
    }
}
