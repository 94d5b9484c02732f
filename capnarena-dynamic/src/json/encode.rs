//! Encoding: a struct read by its schema to a JSON value tree, by the
//! plan of its annotations (see [`annotations`](super::annotations)).
//!
//! Value rules (the reference's): `Void` is `null`; integers up to 32
//! bits are numbers, `Int64` and `UInt64` decimal strings; floats are
//! numbers, or the strings `"Infinity"`, `"-Infinity"` and `"NaN"`; an
//! enum is its (JSON) name, or its number when the schema does not list
//! it; `Data` is an array of byte values (a string with `$base64` or
//! `$hex`); a struct is an object of its fields outside the union that
//! are set (pointers non-null; numbers always), then its active union
//! member (always, a null pointer as its default). An `AnyPointer` or a
//! capability that is set cannot be encoded (an error, as in the
//! reference).

use super::annotations::{DataForm, JSON_VALUE, Plan, StructPlan};
use super::error::{Context, JsonError, JsonResult};
use super::writer::Out;
use crate::structs::Field;
use crate::types::Type;
use crate::value::{DynamicStructReader, DynamicValue};

/// Levels of structs and lists the encoder enters at most (a guard for
/// its stack; the reader's nesting limit is normally lower).
pub const MAX_ENCODE_DEPTH: usize = 1024;

pub(crate) struct Encoder<'p> {
    pub plan: &'p Plan,
    /// Field names and list indexes down to the value being encoded.
    pub path: Vec<Seg<'p>>,
}

pub(crate) enum Seg<'p> {
    Name(&'p str),
    Index(u32),
}

/// The path as `a.b[3].c`.
pub(crate) fn path_string(path: &[Seg<'_>]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Name(n) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(n);
            }
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    if s.is_empty() { "the root".into() } else { s }
}

impl<'p> Encoder<'p> {
    fn context(&self) -> String {
        path_string(&self.path)
    }

    fn fail(&self, message: impl Into<String>) -> JsonError {
        JsonError::Encode {
            context: self.context(),
            message: message.into(),
        }
    }

    fn enter(&self) -> JsonResult<()> {
        if self.path.len() > MAX_ENCODE_DEPTH {
            return Err(self.fail(format!(
                "the value nests more than {MAX_ENCODE_DEPTH} levels deep"
            )));
        }
        Ok(())
    }

    fn struct_plan(&self, s: &DynamicStructReader<'_>) -> JsonResult<&'p StructPlan> {
        match self.plan.structs.get(&s.schema().id()) {
            Some(p) => Ok(p),
            None => Err(self.fail(format!(
                "struct {} is not reachable from the codec's root type",
                s.schema().display_name()
            ))),
        }
    }

    /// The object of struct `s`.
    pub(crate) fn encode_struct(&mut self, s: &DynamicStructReader<'_>) -> JsonResult<Out> {
        self.enter()?;
        if s.schema().id() == JSON_VALUE {
            return self.raw(s);
        }
        let plan = self.struct_plan(s)?;
        let mut members = Vec::new();
        self.gather(s, plan, "", &mut members)?;
        Ok(Out::Object(members))
    }

    /// A `json.Value` struct as the JSON value it holds.
    fn raw(&mut self, s: &DynamicStructReader<'_>) -> JsonResult<Out> {
        let member = match s.which() {
            Ok(Some(m)) => m,
            _ => return Err(self.fail("a json.Value with an unknown discriminant")),
        };
        let value = s.get(&member).ctx(|| self.context())?;
        let list = |e: &mut Self, v: DynamicValue<'_>| -> JsonResult<Vec<Out>> {
            let DynamicValue::List(l) = v else {
                return Err(e.fail("a json.Value list is not a list"));
            };
            let mut items = Vec::with_capacity(l.len() as usize);
            for i in 0..l.len() {
                e.path.push(Seg::Index(i));
                let DynamicValue::Struct(item) = l.get(i).ctx(|| e.context())? else {
                    return Err(e.fail("a json.Value element is not a struct"));
                };
                items.push(e.raw_member(&item)?);
                e.path.pop();
            }
            Ok(items)
        };
        Ok(match (member.name(), value) {
            ("null", _) => Out::Null,
            ("boolean", DynamicValue::Bool(b)) => Out::Bool(b),
            ("number", DynamicValue::Float64(n)) => Out::Number(n),
            ("string", DynamicValue::Text(t)) => Out::String(t.to_string()),
            ("array", v) => Out::Array(list(self, v)?),
            ("object", v) => {
                let DynamicValue::List(l) = v else {
                    return Err(self.fail("a json.Value object is not a list"));
                };
                let mut members = Vec::with_capacity(l.len() as usize);
                for i in 0..l.len() {
                    self.path.push(Seg::Index(i));
                    let DynamicValue::Struct(f) = l.get(i).ctx(|| self.context())? else {
                        return Err(self.fail("a json.Value member is not a struct"));
                    };
                    let name = match f.get_by_name("name").ctx(|| self.context())? {
                        DynamicValue::Text(t) => t.to_string(),
                        _ => return Err(self.fail("a json.Value member's name is not text")),
                    };
                    let DynamicValue::Struct(v) = f.get_by_name("value").ctx(|| self.context())?
                    else {
                        return Err(self.fail("a json.Value member's value is not a struct"));
                    };
                    members.push((name, self.raw_member(&v)?));
                    self.path.pop();
                }
                Out::Object(members)
            }
            ("call", DynamicValue::Struct(c)) => {
                let function = match c.get_by_name("function").ctx(|| self.context())? {
                    DynamicValue::Text(t) => t.to_string(),
                    _ => return Err(self.fail("a json.Value call's function is not text")),
                };
                let params = c.get_by_name("params").ctx(|| self.context())?;
                Out::Call(function, list(self, params)?)
            }
            (name, _) => {
                return Err(self.fail(format!("a json.Value member {name} of another type")));
            }
        })
    }

    fn raw_member(&mut self, s: &DynamicStructReader<'_>) -> JsonResult<Out> {
        self.enter()?;
        self.raw(s)
    }

    /// The members of `s` (a struct, or a flattened one), named with
    /// `prefix`.
    fn gather(
        &mut self,
        s: &DynamicStructReader<'_>,
        plan: &'p StructPlan,
        prefix: &str,
        out: &mut Vec<(String, Out)>,
    ) -> JsonResult<()> {
        let schema = s.schema();
        for field in schema.non_union_fields() {
            if !s.has(&field).ctx(|| self.context())? {
                continue;
            }
            self.member(s, &field, plan, prefix, out)?;
        }
        // An unknown discriminant writes no member, as in the reference.
        let Ok(Some(member)) = s.which() else {
            return Ok(());
        };
        let info = &plan.fields[member.index() as usize];
        if let Some(tag) = &plan.tag_name {
            out.push((format!("{prefix}{tag}"), Out::String(info.tag.clone())));
        }
        if info.flatten.is_none()
            && plan.tag_name.is_some()
            && matches!(member.ty().ctx(|| self.context())?, Type::Void)
        {
            return Ok(());
        }
        self.member(s, &member, plan, prefix, out)
    }

    fn member(
        &mut self,
        s: &DynamicStructReader<'_>,
        field: &Field<'_>,
        plan: &'p StructPlan,
        prefix: &str,
        out: &mut Vec<(String, Out)>,
    ) -> JsonResult<()> {
        let info = &plan.fields[field.index() as usize];
        self.path.push(Seg::Name(&info.name));
        let value = s.get(field).ctx(|| self.context())?;
        if let Some((more, child)) = &info.flatten {
            let DynamicValue::Struct(inner) = value else {
                return Err(self.fail("a flattened field is not a struct"));
            };
            let child = self
                .plan
                .structs
                .get(child)
                .ok_or_else(|| self.fail("no plan"))?;
            self.enter()?;
            let p = format!("{prefix}{more}");
            self.gather(&inner, child, &p, out)?;
        } else {
            let ty = field.ty().ctx(|| self.context())?;
            let v = self.value(value, &ty, info.data)?;
            out.push((format!("{prefix}{}", info.name), v));
        }
        self.path.pop();
        Ok(())
    }

    /// `value` of type `ty`.
    fn value(&mut self, value: DynamicValue<'_>, ty: &Type, data: DataForm) -> JsonResult<Out> {
        Ok(match value {
            DynamicValue::Void => Out::Null,
            DynamicValue::Bool(b) => Out::Bool(b),
            DynamicValue::Int8(v) => Out::Number(f64::from(v)),
            DynamicValue::Int16(v) => Out::Number(f64::from(v)),
            DynamicValue::Int32(v) => Out::Number(f64::from(v)),
            DynamicValue::UInt8(v) => Out::Number(f64::from(v)),
            DynamicValue::UInt16(v) => Out::Number(f64::from(v)),
            DynamicValue::UInt32(v) => Out::Number(f64::from(v)),
            DynamicValue::Int64(v) => Out::String(v.to_string()),
            DynamicValue::UInt64(v) => Out::String(v.to_string()),
            DynamicValue::Float32(v) => float(f64::from(v)),
            DynamicValue::Float64(v) => float(v),
            DynamicValue::Enum(e) => match self
                .plan
                .enums
                .get(&e.schema().id())
                .and_then(|p| p.names.get(usize::from(e.value())))
            {
                Some(name) => Out::String(name.clone()),
                None => Out::Number(f64::from(e.value())),
            },
            DynamicValue::Text(t) => Out::String(t.to_string()),
            DynamicValue::Data(d) => match data {
                DataForm::Array => {
                    Out::Array(d.iter().map(|&b| Out::Number(f64::from(b))).collect())
                }
                DataForm::Base64 => Out::String(base64(d)),
                DataForm::Hex => Out::String(hex(d)),
            },
            DynamicValue::Struct(s) => self.encode_struct(&s)?,
            DynamicValue::List(list) => {
                self.enter()?;
                let Type::List(element) = ty else {
                    return Err(self.fail("a list value of a type that is not a list"));
                };
                let mut items = Vec::with_capacity(list.len() as usize);
                for i in 0..list.len() {
                    self.path.push(Seg::Index(i));
                    let v = list.get(i).ctx(|| self.context())?;
                    items.push(self.value(v, element, DataForm::Array)?);
                    self.path.pop();
                }
                Out::Array(items)
            }
            DynamicValue::AnyPointer(_) => {
                return Err(self.fail("an AnyPointer has no JSON form"));
            }
            DynamicValue::Capability(_) => {
                return Err(self.fail("a capability has no JSON form"));
            }
        })
    }
}

fn float(v: f64) -> Out {
    if v.is_nan() {
        Out::String("NaN".into())
    } else if v == f64::INFINITY {
        Out::String("Infinity".into())
    } else if v == f64::NEG_INFINITY {
        Out::String("-Infinity".into())
    } else {
        Out::Number(v)
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with `=` padding, no line breaks.
pub(crate) fn base64(d: &[u8]) -> String {
    let mut s = String::with_capacity(d.len().div_ceil(3) * 4);
    for chunk in d.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Lower-case hex, two digits a byte.
pub(crate) fn hex(d: &[u8]) -> String {
    const H: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(d.len() * 2);
    for &b in d {
        s.push(H[usize::from(b >> 4)] as char);
        s.push(H[usize::from(b & 15)] as char);
    }
    s
}

/// Decodes standard base64 (`=` padding optional, no other characters).
pub(crate) fn unbase64(s: &str) -> Result<Vec<u8>, String> {
    let bytes = s.as_bytes();
    let body = bytes
        .strip_suffix(b"==")
        .or_else(|| bytes.strip_suffix(b"="))
        .unwrap_or(bytes);
    if bytes.len() != body.len() && bytes.len() % 4 != 0 {
        return Err(format!(
            "base64 of {} characters with padding is not a multiple of 4",
            bytes.len()
        ));
    }
    if body.len() % 4 == 1 {
        return Err(format!(
            "{} base64 characters cannot end a byte",
            body.len()
        ));
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for (i, &c) in body.iter().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => {
                return Err(format!(
                    "character {} of the base64 is {:?}",
                    i + 1,
                    c as char
                ));
            }
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if acc != 0 {
        return Err("the base64's last character has bits set past the data".into());
    }
    Ok(out)
}

/// Decodes hex (either case, an even number of digits).
pub(crate) fn unhex(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return Err(format!("hex of odd length {}", b.len()));
    }
    let digit = |i: usize| -> Result<u8, String> {
        let c = b[i];
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("character {} of the hex is {:?}", i + 1, c as char))
    };
    (0..b.len() / 2)
        .map(|i| Ok((digit(2 * i)? << 4) | digit(2 * i + 1)?))
        .collect()
}
