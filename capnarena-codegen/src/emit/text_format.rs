//! Each struct's `write_text`: its fields fed to a `TextVisitor` in the
//! order and with the inclusion rules of the reference's text format (see
//! the runtime's `text` module); `Debug` prints through it.

use std::fmt::Write as _;

use super::Generator;
use super::pointer_field::default_static;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// The reader's `write_text`: the struct's fields in the order and
    /// with the inclusion rules of the reference's text format (see the
    /// runtime's `text` module).
    pub(super) fn write_text(
        &self,
        reader: &mut String,
        s: &StructNode,
        file: u64,
        d: usize,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let mut body = String::new();
        if s.discriminant_count > 0 {
            let _ = writeln!(
                body,
                "let which = self.reader.get::<u16>({});",
                s.discriminant_offset
            );
        }
        for f in &s.fields {
            let name = &f.name;
            let n = self.stem(f);
            // The conditions under which the field prints, and the code.
            let mut conds: Vec<String> = Vec::new();
            if let Some(k) = f.discriminant {
                conds.push(format!("which == {k}"));
            }
            let code = match &f.kind {
                FieldKind::Group { .. } => {
                    format!("v.field({name:?}); self.get_{n}().write_text(v);")
                }
                FieldKind::Slot {
                    offset,
                    ty,
                    default,
                } => {
                    // A null pointer prints only as the active member of a
                    // union whose discriminant is not 0.
                    if ty.is_pointer() && !matches!(f.discriminant, Some(k) if k != 0) {
                        conds.push(format!("self.reader.has_pointer({offset})"));
                    }
                    let mut value = match (ty, default) {
                        // A default that is not UTF-8 prints as its bytes.
                        (Type::Text, Value::Text(t)) if std::str::from_utf8(t).is_err() => format!(
                            "match {rt}::typed::or_default(self.reader.pointer({offset}), &{}).and_then(|p| p.get_text_bytes()) {{ Ok(b) => v.text(b), Err(e) => v.error(e) }}",
                            default_static(&n)
                        ),
                        _ => self.text_slot(ty, *offset, &n, file, d)?,
                    };
                    if f.option {
                        // The getter gives an `Option`; the text reads the
                        // pointer itself (printed only when it is set).
                        let raw = format!(
                            "<{} as {rt}::typed::Owned>::read(self.reader.pointer({offset}))",
                            self.owned_ty(ty, file, d)?
                        );
                        value = value.replace(&format!("self.get_{n}()"), &raw);
                    }
                    format!("v.field({name:?}); {value}")
                }
            };
            if conds.is_empty() {
                let _ = writeln!(body, "{code}");
            } else {
                let _ = writeln!(body, "if {} {{ {code} }}", conds.join(" && "));
            }
        }
        let _ = writeln!(
            reader,
            "/// Feeds the value to `v` as the reference's text format prints it (what `Debug` prints).\n\
             pub fn write_text(&self, v: &mut dyn {rt}::typed::TextVisitor<'a>) {{ v.begin_struct(); {body} v.end_struct(); }}"
        );
        Ok(())
    }

    /// Code that feeds a slot's value to `v`.
    fn text_slot(
        &self,
        ty: &Type,
        offset: u32,
        n: &str,
        file: u64,
        d: usize,
    ) -> Result<String, Error> {
        Ok(match ty {
            Type::Void => "v.void();".into(),
            Type::Bool => format!("v.bool(self.get_{n}());"),
            Type::Int8 | Type::Int16 | Type::Int32 => format!("v.int(i64::from(self.get_{n}()));"),
            Type::Int64 => format!("v.int(self.get_{n}());"),
            Type::UInt8 | Type::UInt16 | Type::UInt32 => {
                format!("v.uint(u64::from(self.get_{n}()));")
            }
            Type::UInt64 => format!("v.uint(self.get_{n}());"),
            Type::Float32 => format!("v.float32(self.get_{n}());"),
            Type::Float64 => format!("v.float64(self.get_{n}());"),
            Type::Enum(id) => {
                let path = self.path_to(*id, file, d)?;
                format!(
                    "v.enumerant(match self.get_{n}() {{ Ok(e) => u16::from(e), Err(e) => e.0 }}, {path}::NAMES);"
                )
            }
            Type::Text => format!(
                "if self.reader.has_pointer({offset}) {{ match self.reader.pointer({offset}).get_text_bytes() {{ Ok(b) => v.text(b), Err(e) => v.error(e) }} }} else {{ match self.get_{n}() {{ Ok(t) => v.text(t.as_bytes()), Err(e) => v.error(e) }} }}"
            ),
            Type::Data => {
                format!("match self.get_{n}() {{ Ok(b) => v.data(b), Err(e) => v.error(e) }}")
            }
            Type::Struct(..) => {
                format!("match self.get_{n}() {{ Ok(s) => s.write_text(v), Err(e) => v.error(e) }}")
            }
            Type::Param { scope, index } => match self.param(*scope, *index) {
                // A parameter in scope prints as the type it is bound to.
                Some(p) => format!(
                    "match self.get_{n}() {{ Ok(x) => <{p} as {}::typed::Owned>::write_text(x, v), Err(e) => v.error(e) }}",
                    self.runtime
                ),
                None => "v.any_pointer();".into(),
            },
            Type::AnyPointer => "v.any_pointer();".into(),
            Type::Interface(_) => "v.capability();".into(),
            Type::List(elem) => self.text_list(elem, &format!("self.get_{n}()"), file, d)?,
        })
    }

    /// Code that feeds the list `expr` (a `Result` of a typed list) to `v`.
    fn text_list(&self, elem: &Type, expr: &str, file: u64, d: usize) -> Result<String, Error> {
        let item = match elem {
            Type::Void => "v.void();".to_string(),
            Type::Bool => "v.bool(e);".into(),
            Type::Int8 | Type::Int16 | Type::Int32 => "v.int(i64::from(e));".into(),
            Type::Int64 => "v.int(e);".into(),
            Type::UInt8 | Type::UInt16 | Type::UInt32 => "v.uint(u64::from(e));".into(),
            Type::UInt64 => "v.uint(e);".into(),
            Type::Float32 => "v.float32(e);".into(),
            Type::Float64 => "v.float64(e);".into(),
            Type::Enum(id) => format!(
                "v.enumerant(match e {{ Ok(e) => u16::from(e), Err(e) => e.0 }}, {}::NAMES);",
                self.path_to(*id, file, d)?
            ),
            Type::Text => "match e { Ok(t) => v.text(t.as_bytes()), Err(e) => v.error(e) }".into(),
            Type::Data => "match e { Ok(b) => v.data(b), Err(e) => v.error(e) }".into(),
            Type::Struct(..) => "e.write_text(v);".into(),
            Type::Param { scope, index } => match self.param(*scope, *index) {
                Some(p) => format!(
                    "match e {{ Ok(x) => <{p} as {}::typed::Owned>::write_text(x, v), Err(e) => v.error(e) }}",
                    self.runtime
                ),
                None => "v.any_pointer();".into(),
            },
            Type::AnyPointer => "v.any_pointer();".into(),
            Type::Interface(_) => "v.capability();".into(),
            Type::List(inner) => self.text_list(inner, "e", file, d)?,
        };
        // Elements whose value does not print are not bound.
        let binding = if matches!(
            self.resolve(elem),
            Type::Void | Type::AnyPointer | Type::Interface(_)
        ) {
            "_"
        } else {
            "e"
        };
        Ok(format!(
            "match {expr} {{ Ok(l) => {{ v.begin_list(); for {binding} in l.iter() {{ {item} }} v.end_list(); }} Err(e) => v.error(e), }}"
        ))
    }
}
