//! A serde `Serializer` that writes the reference codec's JSON text: the
//! same [`JsonWriter`] the dynamic encoder writes with, so a value
//! serialized (the `Serialize` impls that generated code has with its
//! `serde` option) is byte for byte what [`encode`](super::encode)
//! writes for the same message, pretty or short.
//!
//! Serde's data model maps to JSON as the reference codec writes its
//! values: `()` and `None` are `null`; integers are numbers; floats are
//! numbers (C's `%.15g`, or `%.17g` when 15 digits do not read back), or
//! the strings `"NaN"`, `"Infinity"` and `"-Infinity"`; bytes are an
//! array of numbers; sequences and tuples are arrays; maps and structs
//! are objects (a map's keys must be strings, chars or integers); an enum
//! variant without data is its name, one with data an object of one
//! member, `{"variant": data}`, as a union member is.

use capnarena::typed::value::serde_support::{JSON_CALL, JSON_NUMBER};
use serde::Serialize;
use serde::ser::{self, Error as _};

use super::JsonOptions;
use super::encode::MAX_ENCODE_DEPTH;
use super::error::{JsonError, JsonResult, Step};
use super::writer::{JsonWriter, Open};

/// `value` as JSON text, pretty or short, as the reference's codec
/// writes it: `()` and `None` are `null`; integers are numbers; floats
/// are numbers (C's `%.15g`, or `%.17g` when 15 digits do not read back),
/// or the strings `"NaN"`, `"Infinity"` and `"-Infinity"`; bytes are an
/// array of numbers; sequences and tuples are arrays; maps and structs
/// objects (a map's keys must be strings, chars or integers); an enum
/// variant without data is its name, one with data an object of one
/// member, `{"variant": data}`, as a union member is.
///
/// ```
/// use capnarena_dynamic::json::{self, JsonOptions};
///
/// assert_eq!(json::to_string(&(1.0, 1e300, f64::NAN), &JsonOptions::short())?, r#"[1,1e300,"NaN"]"#);
/// # Ok::<(), capnarena_dynamic::json::JsonError>(())
/// ```
///
/// # Errors
/// [`JsonError::Encode`], with the path to the value, when the value's
/// `Serialize` impl fails (an `AnyPointer` of a generated value has no
/// JSON form), a map key is not a string, or the value nests more than
/// [`MAX_ENCODE_DEPTH`] levels.
pub fn to_string<T: Serialize + ?Sized>(value: &T, options: &JsonOptions) -> JsonResult<String> {
    let mut s = JsonSerializer::new(options);
    value.serialize(&mut s).map_err(JsonError::at_root)?;
    Ok(s.into_string())
}

/// The serializer of [`to_string`]: serialize into `&mut` it, then take
/// the text with [`JsonSerializer::into_string`].
pub struct JsonSerializer {
    w: JsonWriter,
    /// The next float is a `Json.Value` number: written bare, and
    /// refused when it is not finite (JSON has no form of it).
    raw_number: bool,
}

impl JsonSerializer {
    /// A serializer writing as `options` say.
    pub fn new(options: &JsonOptions) -> Self {
        JsonSerializer {
            w: JsonWriter::new(options.pretty),
            raw_number: false,
        }
    }

    /// The text written: one value (after an error, what was written up
    /// to it).
    pub fn into_string(self) -> String {
        self.w.finish()
    }

    fn begin(&mut self, open: Open<'_>) -> JsonResult<()> {
        if self.w.depth() >= MAX_ENCODE_DEPTH {
            return Err(JsonError::custom(format_args!(
                "the value nests more than {MAX_ENCODE_DEPTH} levels deep"
            )));
        }
        self.w.begin(open);
        Ok(())
    }

    fn float(&mut self, v: f64) -> JsonResult<()> {
        if core::mem::take(&mut self.raw_number) {
            if !v.is_finite() {
                return Err(JsonError::custom(format_args!(
                    "a json.Value number {v} is not finite: JSON has no form of it that reads back"
                )));
            }
            self.w.number(v);
        } else if v.is_nan() {
            self.w.string("NaN");
        } else if v == f64::INFINITY {
            self.w.string("Infinity");
        } else if v == f64::NEG_INFINITY {
            self.w.string("-Infinity");
        } else {
            self.w.number(v);
        }
        Ok(())
    }

    /// `{"variant": ` before a variant's data.
    fn variant(&mut self, variant: &str) -> JsonResult<()> {
        self.begin(Open::Object)?;
        self.w.key(variant);
        Ok(())
    }
}

/// An array, object or variant being serialized.
pub struct Compound<'a> {
    ser: &'a mut JsonSerializer,
    /// The next element's index (for errors' paths).
    index: usize,
    /// Closes the `{"variant": ...}` around it too.
    variant: bool,
    /// The variant's name (for errors' paths).
    name: &'static str,
    /// A map's last key (for errors' paths).
    key: String,
    /// A `Json.Value` call whose first element, the function's name, has
    /// not come yet.
    call: bool,
}

impl Compound<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> JsonResult<()> {
        if self.call {
            // `function(`: the name written as it is, as the reference
            // writes it.
            let function = value.serialize(KeySerializer)?;
            self.ser.begin(Open::Call(&function))?;
            self.call = false;
            return Ok(());
        }
        let i = self.index;
        self.index += 1;
        value.serialize(&mut *self.ser).map_err(|e| {
            let e = e.within(Step::Index(i));
            if self.variant {
                e.within(Step::Name(self.name))
            } else {
                e
            }
        })
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> JsonResult<()> {
        self.ser.w.key(key);
        value.serialize(&mut *self.ser).map_err(|e| {
            let e = e.within(Step::Name(key));
            if self.variant {
                e.within(Step::Name(self.name))
            } else {
                e
            }
        })
    }

    fn close(self) -> JsonResult<()> {
        if self.call {
            return Err(JsonError::custom("a Json.Value call without its function"));
        }
        self.ser.w.end();
        if self.variant {
            self.ser.w.end();
        }
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut JsonSerializer {
    type Ok = ();
    type Error = JsonError;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> JsonResult<()> {
        self.w.bool(v);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> JsonResult<()> {
        self.w.integer(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> JsonResult<()> {
        self.w.integer(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> JsonResult<()> {
        self.w.integer(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> JsonResult<()> {
        self.w.integer(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> JsonResult<()> {
        self.w.wide_integer(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> JsonResult<()> {
        self.w.unsigned(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> JsonResult<()> {
        self.w.unsigned(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> JsonResult<()> {
        self.w.unsigned(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> JsonResult<()> {
        self.w.unsigned(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> JsonResult<()> {
        self.w.wide_unsigned(v);
        Ok(())
    }
    /// A `Float32` is written as the double it widens to, as the
    /// reference does (`0.1f32` is `0.10000000149011612`).
    fn serialize_f32(self, v: f32) -> JsonResult<()> {
        self.float(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> JsonResult<()> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> JsonResult<()> {
        self.w.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> JsonResult<()> {
        self.w.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> JsonResult<()> {
        self.begin(Open::Array)?;
        for &b in v {
            self.w.unsigned(b.into());
        }
        self.w.end();
        Ok(())
    }
    fn serialize_none(self) -> JsonResult<()> {
        self.w.null();
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> JsonResult<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> JsonResult<()> {
        self.w.null();
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> JsonResult<()> {
        self.w.null();
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> JsonResult<()> {
        self.w.string(variant);
        Ok(())
    }
    /// [`JSON_NUMBER`], a `Json.Value` number, is written bare; one that
    /// is not finite is an error.
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> JsonResult<()> {
        if name == JSON_NUMBER {
            self.raw_number = true;
            let r = value.serialize(&mut *self);
            self.raw_number = false;
            return r;
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> JsonResult<()> {
        self.variant(variant)?;
        value
            .serialize(&mut *self)
            .map_err(|e| e.within(Step::Name(variant)))?;
        self.w.end();
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> JsonResult<Compound<'a>> {
        self.begin(Open::Array)?;
        Ok(Compound {
            ser: self,
            index: 0,
            variant: false,
            name: "",
            key: String::new(),
            call: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> JsonResult<Compound<'a>> {
        self.serialize_seq(Some(len))
    }
    /// [`JSON_CALL`], a `Json.Value` call, is written
    /// `function(params...)` (its first field the function's name), as
    /// the reference writes it.
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> JsonResult<Compound<'a>> {
        if name == JSON_CALL {
            return Ok(Compound {
                ser: self,
                index: 0,
                variant: false,
                name: "",
                key: String::new(),
                call: true,
            });
        }
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> JsonResult<Compound<'a>> {
        self.variant(variant)?;
        self.begin(Open::Array)?;
        Ok(Compound {
            ser: self,
            index: 0,
            variant: true,
            name: variant,
            key: String::new(),
            call: false,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> JsonResult<Compound<'a>> {
        self.begin(Open::Object)?;
        Ok(Compound {
            ser: self,
            index: 0,
            variant: false,
            name: "",
            key: String::new(),
            call: false,
        })
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> JsonResult<Compound<'a>> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> JsonResult<Compound<'a>> {
        self.variant(variant)?;
        self.begin(Open::Object)?;
        Ok(Compound {
            ser: self,
            index: 0,
            variant: true,
            name: variant,
            key: String::new(),
            call: false,
        })
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = JsonError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> JsonResult<()> {
        self.element(value)
    }
    fn end(self) -> JsonResult<()> {
        self.close()
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = JsonError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> JsonResult<()> {
        self.element(value)
    }
    fn end(self) -> JsonResult<()> {
        self.close()
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = JsonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> JsonResult<()> {
        self.element(value)
    }
    fn end(self) -> JsonResult<()> {
        self.close()
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = JsonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> JsonResult<()> {
        self.element(value)
    }
    fn end(self) -> JsonResult<()> {
        self.close()
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = JsonError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> JsonResult<()> {
        self.field(key, value)
    }
    fn end(self) -> JsonResult<()> {
        self.close()
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = JsonError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> JsonResult<()> {
        self.field(key, value)
    }
    fn end(self) -> JsonResult<()> {
        self.close()
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = JsonError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> JsonResult<()> {
        let name = key.serialize(KeySerializer)?;
        self.ser.w.key(&name);
        // The key names the value in errors.
        self.key = name;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> JsonResult<()> {
        value
            .serialize(&mut *self.ser)
            .map_err(|e| e.within(Step::Name(&self.key)))
    }
    fn end(self) -> JsonResult<()> {
        self.close()
    }
}

/// A map key as its text: strings and chars as they are, integers in
/// decimal (JSON's object names are strings).
struct KeySerializer;

fn bad_key(what: &str) -> JsonError {
    JsonError::custom(format_args!(
        "a map key must be a string, a char or an integer, not {what}"
    ))
}

impl ser::Serializer for KeySerializer {
    type Ok = String;
    type Error = JsonError;
    type SerializeSeq = ser::Impossible<String, JsonError>;
    type SerializeTuple = ser::Impossible<String, JsonError>;
    type SerializeTupleStruct = ser::Impossible<String, JsonError>;
    type SerializeTupleVariant = ser::Impossible<String, JsonError>;
    type SerializeMap = ser::Impossible<String, JsonError>;
    type SerializeStruct = ser::Impossible<String, JsonError>;
    type SerializeStructVariant = ser::Impossible<String, JsonError>;

    fn serialize_str(self, v: &str) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_char(self, v: char) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_i16(self, v: i16) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_i32(self, v: i32) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_u8(self, v: u8) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_u16(self, v: u16) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_u32(self, v: u32) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> JsonResult<String> {
        Ok(v.to_string())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> JsonResult<String> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> JsonResult<String> {
        value.serialize(self)
    }
    fn serialize_bool(self, _v: bool) -> JsonResult<String> {
        Err(bad_key("a boolean"))
    }
    fn serialize_f32(self, _v: f32) -> JsonResult<String> {
        Err(bad_key("a float"))
    }
    fn serialize_f64(self, _v: f64) -> JsonResult<String> {
        Err(bad_key("a float"))
    }
    fn serialize_bytes(self, _v: &[u8]) -> JsonResult<String> {
        Err(bad_key("bytes"))
    }
    fn serialize_none(self) -> JsonResult<String> {
        Err(bad_key("None"))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> JsonResult<String> {
        Err(bad_key("an Option"))
    }
    fn serialize_unit(self) -> JsonResult<String> {
        Err(bad_key("()"))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> JsonResult<String> {
        Err(bad_key("a unit struct"))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> JsonResult<String> {
        Err(bad_key("an enum variant with data"))
    }
    fn serialize_seq(self, _len: Option<usize>) -> JsonResult<Self::SerializeSeq> {
        Err(bad_key("a sequence"))
    }
    fn serialize_tuple(self, _len: usize) -> JsonResult<Self::SerializeTuple> {
        Err(bad_key("a tuple"))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> JsonResult<Self::SerializeTupleStruct> {
        Err(bad_key("a tuple struct"))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> JsonResult<Self::SerializeTupleVariant> {
        Err(bad_key("an enum variant with data"))
    }
    fn serialize_map(self, _len: Option<usize>) -> JsonResult<Self::SerializeMap> {
        Err(bad_key("a map"))
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> JsonResult<Self::SerializeStruct> {
        Err(bad_key("a struct"))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> JsonResult<Self::SerializeStructVariant> {
        Err(bad_key("an enum variant with data"))
    }
}
