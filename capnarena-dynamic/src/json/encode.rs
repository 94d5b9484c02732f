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

use capnarena::text::encoding::{Base64, Hex};

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
    /// The stack's address where encoding starts (see [`Encoder::enter`]).
    pub stack_base: usize,
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

    /// Enters a struct or list (a level of the recursion): checks the
    /// depth, and the stack used since encoding started against
    /// [`STACK_BUDGET`](crate::STACK_BUDGET) (the depth bounds the
    /// levels; this bounds the stack they take in the build at hand).
    fn enter(&self) -> JsonResult<()> {
        if self.path.len() > MAX_ENCODE_DEPTH {
            return Err(self.fail(format!(
                "the value nests more than {MAX_ENCODE_DEPTH} levels deep"
            )));
        }
        if let Some(used) = crate::stack::over_budget(self.stack_base) {
            return Err(self.fail(format!(
                "the value nests too deeply for the stack: {} levels use {used} bytes, over the budget of {}",
                self.path.len(),
                crate::STACK_BUDGET
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
            ("number", DynamicValue::Float64(n)) if !n.is_finite() => {
                return Err(self.fail(format!(
                    "a json.Value number {n} is not finite: JSON has no form of it that reads back"
                )));
            }
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
                DataForm::Base64 => Out::String(Base64(d).to_string()),
                DataForm::Hex => Out::String(Hex(d).to_string()),
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
