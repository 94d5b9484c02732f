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
//! unknown fields skipped. Keys are taken in any order, as the
//! reference's codec takes them: a value whose meaning waits for a
//! union's tag (`$Json.discriminator`'s `valueName`, a member of a
//! flattened union member) is kept, as the input gave it, and read once
//! the object's other keys are. Any pointers and
//! capabilities have no JSON form: serializing or deserializing one is an
//! error. A `/capnp/compat/json.capnp` `Value` is the JSON value it holds
//! (its own module, `json_value`).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{
    self, DeserializeSeed, IgnoredAny, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::AnyValue;
use crate::typed::Enum;

mod budget;
mod content;
mod json_value;
pub use budget::{DEFAULT_MAX_VALUE_BYTES, value_limit, with_value_limit};
use content::{Content, ContentDeserializer, ContentSeed};
pub use json_value::{
    JSON_CALL, JSON_NUMBER, JsonValueParts, MAX_JSON_VALUE_DEPTH, deserialize_json_value,
    serialize_json_array, serialize_json_call, serialize_json_number, serialize_json_object,
};

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

    /// What a `null` reads as where the value is optional (a pointer
    /// field): `None`, a null pointer, except for a `Json.Value`, which
    /// holds the `null` (as in the reference).
    fn null_value() -> Option<Self> {
        None
    }

    /// Deserializes a value from `d` into a new box. Generated structs
    /// override it to read their members straight into the box
    /// ([`deserialize_struct_boxed`]), so that nesting through a boxed
    /// field holds no struct-sized value on the stack at each level.
    ///
    /// # Errors
    /// As [`DeserializeValue::deserialize_value`].
    fn deserialize_boxed<D: Deserializer<'de>>(d: D) -> Result<Box<Self>, D::Error> {
        let _scope = budget::Scope::enter();
        budget::charge::<D::Error>(core::mem::size_of::<Self>())?;
        Self::deserialize_value(d).map(Box::new)
    }
}

/// A struct value read field by field from a map (what generated code
/// implements for `Value`).
///
/// The keys are those the reference's JSON codec reads: the fields'
/// names, and with `$Json.flatten` the names of the members of flattened
/// structs and groups (prefixed) in the same object. A key whose meaning
/// depends on a union's tag (a `valueName` value, a member of a
/// flattened union member) is not [`StructFields::ready`] until that tag
/// has been read; [`deserialize_struct`] keeps such values and reads them
/// after the object's other keys, as the reference does.
pub trait StructFields: Default {
    /// The struct's name.
    const NAME: &'static str;
    /// The JSON names of its members (flattened ones included); a key's
    /// index in this list is what [`StructFields::set_field`] gets.
    const FIELDS: &'static [&'static str];
    /// How many unions the object may give a tag of (its own and those of
    /// flattened structs and groups): the length of `seen`.
    const UNIONS: usize = 0;

    /// Whether member `index` (of [`StructFields::FIELDS`]) can be read
    /// now: `false` while the tag of the union it belongs to has not been
    /// read (`seen`, one entry per union).
    fn ready(&self, seen: &[bool], index: usize) -> bool {
        let _ = (seen, index);
        true
    }

    /// Reads member `index` (of [`StructFields::FIELDS`]) from `d` into
    /// `self`; `seen` records which unions' tags were read (one entry per
    /// union, `false` before the first key).
    ///
    /// # Errors
    /// As [`DeserializeValue::deserialize_value`]; a union's tag given
    /// twice, or a member of a flattened union member while the active
    /// member is not flattened.
    fn set_field<'de, D: Deserializer<'de>>(
        &mut self,
        seen: &mut [bool],
        index: usize,
        d: D,
    ) -> Result<(), D::Error>;
}

/// Whether union `slot`'s tag was read (`false` past `seen`'s end).
#[inline]
pub fn tag_seen(seen: &[bool], slot: usize) -> bool {
    seen.get(slot).copied().unwrap_or(false)
}

/// Records that union `slot`'s tag was read; `false` when it already
/// was (the reference refuses a tag given twice).
#[inline]
pub fn first_tag(seen: &mut [bool], slot: usize) -> bool {
    match seen.get_mut(slot) {
        Some(s) => !core::mem::replace(s, true),
        None => true,
    }
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

/// A member's value, deserialized by its [`DeserializeValue`] rules.
///
/// # Errors
/// As [`DeserializeValue::deserialize_value`].
#[inline]
pub fn next<'de, T: DeserializeValue<'de>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::deserialize_value(d)
}

/// A member's value, deserialized by its [`DeserializeValue`] rules into
/// `place` (what generated `set_field` calls for a plain field: the call
/// is the whole of its match arm, so the caller's frame holds no
/// temporary of the field's type, which in an unoptimized build each arm
/// would have apart from the others' on every level of nesting).
///
/// # Errors
/// As [`DeserializeValue::deserialize_value`]; `place` is then left as
/// it was.
pub fn next_into<'de, T: DeserializeValue<'de>, D: Deserializer<'de>>(
    d: D,
    place: &mut T,
) -> Result<(), D::Error> {
    match T::deserialize_value(d) {
        Ok(v) => {
            *place = v;
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// A `$Json.discriminator` union's tag: the index of the member it names
/// among `tags`, `None` when it names none (which the reference ignores).
///
/// # Errors
/// The deserializer's, or the value is not a string.
pub fn next_tag<'de, D: Deserializer<'de>>(
    d: D,
    tags: &'static [&'static str],
) -> Result<Option<usize>, D::Error> {
    d.deserialize_str(Tag(tags))
}

struct Tag(&'static [&'static str]);

impl Visitor<'_> for Tag {
    type Value = Option<usize>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a string naming a union member, one of {:?}", self.0)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|t| *t == v))
    }
}

/// A `Data` field with `$Json.base64` (standard base64, `=` padded) or
/// `$Json.hex` (lower-case hex): written as one string.
pub use crate::text::encoding::{Base64, Hex};

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
    /// Standard base64 (`$Json.base64`), read as the reference reads it
    /// ([`crate::text::encoding::decode_base64`]).
    Base64,
    /// Hex digits of either case (`$Json.hex`).
    Hex,
}

/// Bytes as a `$Json.base64` or `$Json.hex` string.
///
/// # Errors
/// The deserializer's, or the string is not that encoding (the error
/// names the character and its position).
pub fn next_bytes<'de, D: Deserializer<'de>>(d: D, form: BytesForm) -> Result<Vec<u8>, D::Error> {
    let _scope = budget::Scope::enter();
    d.deserialize_str(form)
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
        // The bytes decoded are fewer than the characters.
        budget::charge::<E>(v.len())?;
        match self {
            BytesForm::Base64 => crate::text::encoding::decode_base64(v).map_err(E::custom),
            BytesForm::Hex => crate::text::encoding::decode_hex(v).map_err(E::custom),
        }
    }
}

/// Skips a value (of a key no member has, or a `Void` member's).
///
/// # Errors
/// The deserializer's.
pub fn skip<'de, D: Deserializer<'de>>(d: D) -> Result<(), D::Error> {
    IgnoredAny::deserialize(d).map(|_| ())
}

/// Deserializes a struct value `V` from a map of its fields; a field
/// absent keeps its default (a null pointer, a data field's schema
/// default, the union's first member).
///
/// # Errors
/// As [`DeserializeValue::deserialize_value`].
pub fn deserialize_struct<'de, V: StructFields, D: Deserializer<'de>>(d: D) -> Result<V, D::Error> {
    let _scope = budget::Scope::enter();
    d.deserialize_struct(V::NAME, V::FIELDS, StructVisitor(PhantomData))
}

/// Deserializes a struct value `V`, as [`deserialize_struct`], into a new
/// box: its members are read into the box in place.
///
/// # Errors
/// As [`DeserializeValue::deserialize_value`].
pub fn deserialize_struct_boxed<'de, V: StructFields, D: Deserializer<'de>>(
    d: D,
) -> Result<Box<V>, D::Error> {
    let _scope = budget::Scope::enter();
    budget::charge::<D::Error>(core::mem::size_of::<V>())?;
    let mut boxed = boxed_default::<V>();
    match d.deserialize_struct(V::NAME, V::FIELDS, FillVisitor(&mut *boxed)) {
        Ok(()) => Ok(boxed),
        Err(e) => Err(e),
    }
}

/// A boxed default `V`, out of line: the `V` an unoptimized build makes
/// on the stack on its way into the box is gone before the caller reads
/// nested input.
#[inline(never)]
fn boxed_default<V: Default>() -> Box<V> {
    Box::default()
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

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V, A::Error> {
        let mut value = V::default();
        match fill(&mut value, map) {
            Ok(()) => Ok(value),
            Err(e) => Err(e),
        }
    }
}

/// Reads a struct's members into the value it borrows (the visitor of
/// [`deserialize_struct_boxed`]).
struct FillVisitor<'a, V>(&'a mut V);

impl<'de, V: StructFields> Visitor<'de> for FillVisitor<'_, V> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} struct as a map of its fields", V::NAME)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        fill(self.0, map)
    }
}

/// Reads the members of `map` into `value`: those whose union's tag has
/// come as they come, the others once the tag has (unknown keys are
/// skipped).
fn fill<'de, V: StructFields, A: MapAccess<'de>>(
    value: &mut V,
    mut map: A,
) -> Result<(), A::Error> {
    let mut small = [false; 8];
    let mut large = Vec::new();
    let seen: &mut [bool] = match small.get_mut(..V::UNIONS) {
        Some(s) => s,
        None => {
            large.resize(V::UNIONS, false);
            &mut large
        }
    };
    // Values whose union's tag has not come yet, in the order given:
    // kept as read (a copy of that part of the input).
    let mut waiting: Vec<(usize, Content<'de>)> = Vec::new();
    while let Some(key) = map.next_key_seed(FieldIndex(V::FIELDS))? {
        match key {
            Some(index) if value.ready(seen, index) => map.next_value_seed(Member {
                value: &mut *value,
                seen: &mut *seen,
                index,
            })?,
            Some(index) => {
                let kept = map.next_value_seed(ContentSeed(0))?;
                budget::push::<_, A::Error>(&mut waiting, (index, kept))?;
            }
            None => map.next_value::<IgnoredAny>().map(|_| ())?,
        }
    }
    // As the reference: the waiting values are read once the object's
    // other keys are, again while that reads some; the reference
    // drops what is left (a value whose tag never came).
    while !waiting.is_empty() {
        let before = waiting.len();
        let mut again = Vec::new();
        for (index, content) in waiting {
            if value.ready(seen, index) {
                value.set_field(seen, index, ContentDeserializer::<A::Error>::new(content))?;
            } else {
                again.push((index, content));
            }
        }
        if again.len() == before {
            break;
        }
        waiting = again;
    }
    Ok(())
}

/// A member's value read into a struct (a seed, so the value goes
/// straight from the map into its field).
struct Member<'v, 's, V> {
    value: &'v mut V,
    seen: &'s mut [bool],
    index: usize,
}

impl<'de, V: StructFields> DeserializeSeed<'de> for Member<'_, '_, V> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.value.set_field(self.seen, self.index, d)
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
        let _scope = budget::Scope::enter();
        d.deserialize_string(StringVisitor)
    }
}

/// A text, its bytes charged to the heap budget before they are copied.
struct StringVisitor;

impl Visitor<'_> for StringVisitor {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        budget::charge::<E>(v.len())?;
        Ok(v.into())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        budget::charge::<E>(v.len())?;
        Ok(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<String, E> {
        match core::str::from_utf8(v) {
            Ok(s) => self.visit_str(s),
            Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
        }
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
        let _scope = budget::Scope::enter();
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
        let mut out = budget::vec_with_hint::<T, A::Error>(seq.size_hint())?;
        while let Some(v) = seq.next_element_seed(Seed(PhantomData))? {
            budget::push::<T, A::Error>(&mut out, v)?;
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
        Ok(T::null_value())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(T::null_value())
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
        T::deserialize_boxed(d)
    }
    fn null_value() -> Option<Box<T>> {
        T::null_value().map(Box::new)
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
