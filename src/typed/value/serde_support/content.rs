//! Values kept until their union's tag has been read: what a
//! self-describing input gave ([`Content`]), read again later through
//! [`ContentDeserializer`].

use super::*;

/// Levels of arrays and objects a kept value may have: a guard for the
/// stack. Once its tag has come, a kept value is read from the copy
/// (`ContentDeserializer`), where no JSON reader measures the stack, and
/// a struct nested through kept values is kept and read again at each
/// level: a debug build overflowed a 2 MiB thread reading 271 levels so.
/// 64 is the reference's nesting limit, so a kept value within it (under
/// the outermost object) is never refused.
const MAX_KEPT_DEPTH: usize = 64;

/// A value kept to be read later (a union member's value before its
/// tag): what a self-describing input gave, as it gave it.
#[derive(Debug)]
pub(super) enum Content<'de> {
    Unit,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(&'de str),
    String(String),
    Bytes(Vec<u8>),
    Seq(Vec<Content<'de>>),
    Map(Vec<(Content<'de>, Content<'de>)>),
    Some(Box<Content<'de>>),
}

/// Reads a [`Content`] `.0` levels deep.
pub(super) struct ContentSeed(pub(super) usize);

impl<'de> DeserializeSeed<'de> for ContentSeed {
    type Value = Content<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Content<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl ContentSeed {
    fn deeper<E: de::Error>(&self) -> Result<ContentSeed, E> {
        if self.0 >= MAX_KEPT_DEPTH {
            return Err(E::custom(format_args!(
                "a value kept until its union's tag nests over {MAX_KEPT_DEPTH} levels"
            )));
        }
        Ok(ContentSeed(self.0 + 1))
    }
}

impl<'de> Visitor<'de> for ContentSeed {
    type Value = Content<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Content<'de>, E> {
        Ok(Content::Unit)
    }
    fn visit_none<E: de::Error>(self) -> Result<Content<'de>, E> {
        Ok(Content::Unit)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Content<'de>, D::Error> {
        let inner = self.deeper()?.deserialize(d)?;
        budget::charge::<D::Error>(core::mem::size_of::<Content<'de>>())?;
        Ok(Content::Some(Box::new(inner)))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Content<'de>, E> {
        Ok(Content::Bool(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Content<'de>, E> {
        Ok(Content::U64(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Content<'de>, E> {
        Ok(Content::I64(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Content<'de>, E> {
        Ok(Content::F64(v))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Content<'de>, E> {
        Ok(Content::Str(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Content<'de>, E> {
        budget::charge::<E>(v.len())?;
        Ok(Content::String(v.into()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Content<'de>, E> {
        budget::charge::<E>(v.len())?;
        Ok(Content::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Content<'de>, E> {
        budget::charge::<E>(v.len())?;
        Ok(Content::Bytes(v.into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'de>, A::Error> {
        let deeper = self.deeper()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ContentSeed(deeper.0))? {
            budget::push::<_, A::Error>(&mut items, item)?;
        }
        Ok(Content::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content<'de>, A::Error> {
        let deeper = self.deeper()?;
        let mut entries = Vec::new();
        while let Some(key) = map.next_key_seed(ContentSeed(deeper.0))? {
            let value = map.next_value_seed(ContentSeed(deeper.0))?;
            budget::push::<_, A::Error>(&mut entries, (key, value))?;
        }
        Ok(Content::Map(entries))
    }
}

/// A kept [`Content`] read again, as the input it came from.
pub(super) struct ContentDeserializer<'de, E> {
    content: Content<'de>,
    error: PhantomData<E>,
}

impl<'de, E> ContentDeserializer<'de, E> {
    pub(super) fn new(content: Content<'de>) -> Self {
        ContentDeserializer {
            content,
            error: PhantomData,
        }
    }
}

impl<'de, E: de::Error> IntoDeserializer<'de, E> for Content<'de> {
    type Deserializer = ContentDeserializer<'de, E>;
    fn into_deserializer(self) -> ContentDeserializer<'de, E> {
        ContentDeserializer::new(self)
    }
}

impl<'de, E: de::Error> Deserializer<'de> for ContentDeserializer<'de, E> {
    type Error = E;

    fn deserialize_any<Vi: Visitor<'de>>(self, visitor: Vi) -> Result<Vi::Value, E> {
        match self.content {
            Content::Unit => visitor.visit_unit(),
            Content::Bool(v) => visitor.visit_bool(v),
            Content::U64(v) => visitor.visit_u64(v),
            Content::I64(v) => visitor.visit_i64(v),
            Content::F64(v) => visitor.visit_f64(v),
            Content::Str(v) => visitor.visit_borrowed_str(v),
            Content::String(v) => visitor.visit_string(v),
            Content::Bytes(v) => visitor.visit_byte_buf(v),
            Content::Seq(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter());
                let out = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(out)
            }
            Content::Map(entries) => {
                let mut map = MapDeserializer::new(entries.into_iter());
                let out = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(out)
            }
            Content::Some(inner) => visitor.visit_some(ContentDeserializer::<E>::new(*inner)),
        }
    }

    fn deserialize_option<Vi: Visitor<'de>>(self, visitor: Vi) -> Result<Vi::Value, E> {
        match self.content {
            Content::Unit => visitor.visit_none(),
            Content::Some(inner) => visitor.visit_some(ContentDeserializer::<E>::new(*inner)),
            content => visitor.visit_some(ContentDeserializer::<E>::new(content)),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
