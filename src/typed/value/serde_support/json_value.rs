//! `capnp/compat/json.capnp`'s `Value`: the reference's JSON codec writes
//! a value of that struct (a field of that type, an element of a list of
//! them, the root) as the JSON value it holds, not as a struct, and reads
//! any JSON value into one. The generated impls of that struct call these.
//!
//! The holder's union maps to JSON as the reference writes it
//! (`json.c++`'s `encodeRaw`): `null`, `boolean`, `number` (the
//! reference writes a non-finite one bare, `nan` or `inf`, which is not
//! JSON; capnarena's JSON serializer refuses it), `string`,
//! `array`, `object` (members in order, a name given twice kept twice)
//! and `call`, written `function(param, ...)`, which JSON text cannot hold
//! either. Neither non-JSON form goes through every serializer: each is
//! handed to the serializer under a name of its own ([`JSON_NUMBER`],
//! [`JSON_CALL`]) that capnarena's own JSON serializer
//! (`capnarena_dynamic::json`) knows (a call written as the reference
//! writes it, a non-finite number refused); another
//! serializer sees a newtype struct of the float and a tuple struct of
//! the function's name and the parameters (serde_json: `null` and an
//! array).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeTupleStruct as _;
use serde::{Deserializer, Serializer};

use super::{Ser, SerializeValue, budget};

/// The newtype struct name a non-finite `Json.Value` number is handed to
/// a serializer under (its one field the `f64`).
pub const JSON_NUMBER: &str = "$capnarena::json::Value.number";

/// The tuple struct name a `Json.Value` call is handed to a serializer
/// under: its first field the function's name (a string), then the
/// parameters.
pub const JSON_CALL: &str = "$capnarena::json::Value.call";

/// Levels of arrays and objects a `Json.Value` read from a deserializer
/// may have (a deserializer's own limit is normally lower: capnarena's
/// JSON reader stops at its `max_depth`, 64 by default): a guard for the
/// stack.
pub const MAX_JSON_VALUE_DEPTH: usize = 1024;

/// A `Json.Value` number: a number, or (not finite) the float under
/// [`JSON_NUMBER`].
///
/// # Errors
/// The serializer's.
pub fn serialize_json_number<S: Serializer>(v: f64, s: S) -> Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f64(v)
    } else {
        s.serialize_newtype_struct(JSON_NUMBER, &v)
    }
}

/// A `Json.Value` array: its elements, each by its [`SerializeValue`]
/// rules.
///
/// # Errors
/// The serializer's.
pub fn serialize_json_array<T: SerializeValue, S: Serializer>(
    items: &[T],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(items.iter().map(Ser))
}

/// A `Json.Value` object: its members in order, a null value written as
/// `null` (the default `Json.Value`'s form).
///
/// # Errors
/// The serializer's.
pub fn serialize_json_object<'v, T, I, S>(members: I, s: S) -> Result<S::Ok, S::Error>
where
    T: SerializeValue + Default + 'v,
    I: IntoIterator<Item = (&'v str, &'v Option<T>)>,
    S: Serializer,
{
    s.collect_map(
        members
            .into_iter()
            .map(|(name, value)| (name, super::OrDefault(value))),
    )
}

/// A `Json.Value` call: a tuple struct [`JSON_CALL`] of `function` and
/// `params`.
///
/// # Errors
/// The serializer's.
pub fn serialize_json_call<T: SerializeValue, S: Serializer>(
    function: &str,
    params: &[T],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut t = s.serialize_tuple_struct(JSON_CALL, params.len() + 1)?;
    t.serialize_field(function)?;
    for p in params {
        t.serialize_field(&Ser(p))?;
    }
    t.end()
}

/// A generated `Json.Value` made from the parts of a JSON value (what
/// [`deserialize_json_value`] builds with).
pub trait JsonValueParts: Sized {
    /// `null`.
    fn null() -> Self;
    /// `true` or `false`.
    fn boolean(v: bool) -> Self;
    /// A number (every JSON number is a double, as in the reference).
    fn number(v: f64) -> Self;
    /// A string.
    fn string(v: String) -> Self;
    /// An array.
    fn array(items: Vec<Self>) -> Self;
    /// An object's member (`Value.Field`).
    type Member;
    /// The member `name` of value `value`.
    fn member(name: String, value: Self) -> Self::Member;
    /// An object: its members in order, as given (a name given twice
    /// kept twice, as the reference keeps it).
    fn object(members: Vec<Self::Member>) -> Self;
}

/// Any JSON value read into a `Json.Value`, at most
/// [`MAX_JSON_VALUE_DEPTH`] levels deep.
///
/// # Errors
/// The deserializer's; the input nests deeper than
/// [`MAX_JSON_VALUE_DEPTH`], or holds what JSON has no form of (bytes).
pub fn deserialize_json_value<'de, V: JsonValueParts, D: Deserializer<'de>>(
    d: D,
) -> Result<V, D::Error> {
    let _scope = super::budget::Scope::enter();
    JsonValueSeed(0, PhantomData).deserialize(d)
}

/// Reads a JSON value `.0` levels deep.
struct JsonValueSeed<V>(usize, PhantomData<V>);

impl<V> JsonValueSeed<V> {
    fn deeper<E: de::Error>(&self) -> Result<JsonValueSeed<V>, E> {
        if self.0 >= MAX_JSON_VALUE_DEPTH {
            return Err(E::custom(format_args!(
                "a Json.Value nests over {MAX_JSON_VALUE_DEPTH} levels"
            )));
        }
        Ok(JsonValueSeed(self.0 + 1, PhantomData))
    }
}

impl<'de, V: JsonValueParts> DeserializeSeed<'de> for JsonValueSeed<V> {
    type Value = V;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<V, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, V: JsonValueParts> Visitor<'de> for JsonValueSeed<V> {
    type Value = V;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<V, E> {
        Ok(V::null())
    }
    fn visit_none<E: de::Error>(self) -> Result<V, E> {
        Ok(V::null())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V, D::Error> {
        self.deeper()?.deserialize(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V, D::Error> {
        self.deeper()?.deserialize(d)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V, E> {
        Ok(V::boolean(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V, E> {
        Ok(V::number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V, E> {
        Ok(V::number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V, E> {
        Ok(V::number(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V, E> {
        budget::charge::<E>(v.len())?;
        Ok(V::string(v.into()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V, E> {
        budget::charge::<E>(v.len())?;
        Ok(V::string(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<V, A::Error> {
        let deeper = self.deeper()?;
        // The hint is the input's claim: cap what it reserves up front.
        let mut items = budget::vec_with_hint::<V, A::Error>(seq.size_hint())?;
        while let Some(item) = seq.next_element_seed(JsonValueSeed(deeper.0, PhantomData))? {
            budget::push::<V, A::Error>(&mut items, item)?;
        }
        Ok(V::array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<V, A::Error> {
        let deeper = self.deeper()?;
        let mut members = budget::vec_with_hint::<V::Member, A::Error>(map.size_hint())?;
        while let Some(name) = map.next_key::<String>()? {
            budget::charge::<A::Error>(name.len())?;
            let value = map.next_value_seed(JsonValueSeed(deeper.0, PhantomData))?;
            budget::push::<V::Member, A::Error>(&mut members, V::member(name, value))?;
        }
        Ok(V::object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error, MapDeserializer, SeqDeserializer};

    /// A JSON value as these functions build it.
    #[derive(Debug, PartialEq, Default)]
    enum J {
        #[default]
        Null,
        Bool(bool),
        Num(f64),
        Str(String),
        Arr(Vec<J>),
        Obj(Vec<(String, J)>),
    }

    impl JsonValueParts for J {
        fn null() -> Self {
            J::Null
        }
        fn boolean(v: bool) -> Self {
            J::Bool(v)
        }
        fn number(v: f64) -> Self {
            J::Num(v)
        }
        fn string(v: String) -> Self {
            J::Str(v)
        }
        fn array(items: Vec<Self>) -> Self {
            J::Arr(items)
        }
        type Member = (String, J);
        fn member(name: String, value: Self) -> (String, J) {
            (name, value)
        }
        fn object(members: Vec<(String, J)>) -> Self {
            J::Obj(members)
        }
    }

    /// Each kind of value a deserializer gives is read as its JSON value
    /// (integers as doubles, an object's members in order with a
    /// repeated name kept), and bytes, which JSON has no form of, are an
    /// error.
    #[test]
    fn reads_each_kind() {
        fn read<'de, D: Deserializer<'de, Error = Error>>(d: D) -> J {
            deserialize_json_value::<J, D>(d).expect("reads")
        }
        assert_eq!(read(().into_deserializer()), J::Null);
        assert_eq!(read(true.into_deserializer()), J::Bool(true));
        assert_eq!(read((-3i64).into_deserializer()), J::Num(-3.0));
        assert_eq!(read(u64::MAX.into_deserializer()), J::Num(u64::MAX as f64));
        assert_eq!(read("é".into_deserializer()), J::Str("é".into()));
        let seq = SeqDeserializer::<_, Error>::new(vec![1u8, 2].into_iter());
        assert_eq!(read(seq), J::Arr(vec![J::Num(1.0), J::Num(2.0)]));
        let map =
            MapDeserializer::<_, Error>::new(vec![("a", 1u8), ("b", 2), ("a", 3)].into_iter());
        let members = vec![
            ("a".into(), J::Num(1.0)),
            ("b".into(), J::Num(2.0)),
            ("a".into(), J::Num(3.0)),
        ];
        assert_eq!(read(map), J::Obj(members));
        let bytes: &[u8] = &[1];
        let d = serde::de::value::BytesDeserializer::<Error>::new(bytes);
        assert!(deserialize_json_value::<J, _>(d).is_err());
    }

    /// A deserializer with no nesting limit of its own cannot drive the
    /// reader past [`MAX_JSON_VALUE_DEPTH`] levels: an error, not a stack
    /// overflow; one level less reads.
    #[test]
    fn nesting_is_bounded() {
        if cfg!(miri) {
            return; // a thousand levels of generic recursion: slow there
        }
        let depth = |levels| deserialize_json_value::<J, _>(Deep(levels));
        let mut v = depth(MAX_JSON_VALUE_DEPTH).expect("the limit reads");
        for _ in 0..MAX_JSON_VALUE_DEPTH {
            v = match v {
                J::Arr(mut items) => items.pop().expect("one element"),
                other => panic!("{other:?}"),
            };
        }
        assert_eq!(v, J::Null);
        let err = depth(MAX_JSON_VALUE_DEPTH + 1).unwrap_err();
        assert!(err.to_string().contains("nests over 1024"), "{err}");
    }

    /// Arrays nested `.0` levels deep around a `null`.
    struct Deep(usize);

    impl<'de> Deserializer<'de> for Deep {
        type Error = Error;
        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.0 {
                0 => visitor.visit_unit(),
                n => visitor.visit_seq(DeepSeq(Some(n - 1))),
            }
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    struct DeepSeq(Option<usize>);

    impl<'de> SeqAccess<'de> for DeepSeq {
        type Error = Error;
        fn next_element_seed<T: DeserializeSeed<'de>>(
            &mut self,
            seed: T,
        ) -> Result<Option<T::Value>, Error> {
            self.0.take().map(|n| seed.deserialize(Deep(n))).transpose()
        }
    }
}
