//! Each struct's `write_text`: its fields fed to a `TextVisitor` in the
//! order and with the inclusion rules of the reference's text format (see
//! the runtime's `text` module); `Debug` prints through it.

use super::Generator;
use super::pointer_field::default_static;
use super::writer::Writer;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// The reader's `write_text`.
    pub(super) fn write_text(
        &self,
        reader: &mut Writer,
        s: &StructNode,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let runtime = &self.runtime;
        reader.docs(
            "Feeds the value to `v` as the reference's text format prints it (what `Debug` prints).",
        );
        reader.open_fn(&format!(
            "pub fn write_text(&self, v: &mut dyn {runtime}::typed::TextVisitor<'a>)"
        ));
        reader.line("v.begin_struct();");
        if s.discriminant_count > 0 {
            reader.line(&format!(
                "let which = self.reader.get::<u16>({});",
                s.discriminant_offset
            ));
        }
        for f in &s.fields {
            self.field_text(reader, f, file, depth)?;
        }
        reader.line("v.end_struct();");
        reader.close();
        Ok(())
    }

    /// The statements that print field `f`, under the conditions it
    /// prints on: a union member when it is the active one, a pointer
    /// when it is set (unless it is the active member of a union whose
    /// discriminant is not 0: then a null pointer prints too).
    fn field_text(
        &self,
        out: &mut Writer,
        f: &Field,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let runtime = &self.runtime;
        let stem = self.stem(f);
        let mut conditions: Vec<String> = Vec::new();
        if let Some(k) = f.discriminant {
            conditions.push(format!("which == {k}"));
        }
        let mut pointer_set = false;
        if let FieldKind::Slot { offset, ty, .. } = &f.kind {
            if ty.is_pointer() && !matches!(f.discriminant, Some(k) if k != 0) {
                conditions.push(format!("self.reader.has_pointer({offset})"));
                pointer_set = true;
            }
        }
        if !conditions.is_empty() {
            out.open_expression(&format!("if {}", conditions.join(" && ")));
        }
        out.line(&format!("v.field({:?});", f.name));
        match &f.kind {
            FieldKind::Group { .. } => out.line(&format!("self.get_{stem}().write_text(v);")),
            FieldKind::Slot {
                offset,
                ty,
                default,
            } => match (ty, default) {
                // A default that is not UTF-8 prints as its bytes.
                (Type::Text, Value::Text(t)) if std::str::from_utf8(t).is_err() => {
                    out.assign(
                        "let pointer",
                        &format!(
                            "{runtime}::__private::or_default(self.reader.pointer({offset}), &{})",
                            default_static(&stem)
                        ),
                        ";",
                    );
                    print_result(
                        out,
                        "pointer.and_then(|p| p.get_text_bytes())",
                        "Ok(b)",
                        "v.text(b)",
                    );
                }
                _ => {
                    // The getter of an option field gives an `Option`;
                    // the text reads the pointer itself (printed only
                    // when it is set).
                    let getter = if f.option {
                        format!(
                            "<{} as {runtime}::typed::Owned>::read(self.reader.pointer({offset}))",
                            self.owned_ty(ty, file, depth)?
                        )
                    } else {
                        format!("self.get_{stem}()")
                    };
                    let slot = Slot {
                        ty,
                        offset: *offset,
                        pointer_set,
                    };
                    self.slot_text(out, &slot, &getter, file, depth)?;
                }
            },
        }
        if !conditions.is_empty() {
            out.close();
        }
        Ok(())
    }

    /// The statements that feed a slot's value (as `getter` gives it) to
    /// `v`.
    fn slot_text(
        &self,
        out: &mut Writer,
        slot: &Slot<'_>,
        getter: &str,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let (ty, offset) = (slot.ty, slot.offset);
        match ty {
            Type::Enum(id) => {
                let path = self.path_to(*id, file, depth)?;
                enumerant_text(out, getter, &path);
            }
            // A set pointer prints its bytes (text that is not UTF-8
            // included); a null one prints the field's default.
            Type::Text if slot.pointer_set => print_result(
                out,
                &format!("self.reader.pointer({offset}).get_text_bytes()"),
                "Ok(b)",
                "v.text(b)",
            ),
            Type::Text => {
                out.open_expression(&format!("if self.reader.has_pointer({offset})"));
                print_result(
                    out,
                    &format!("self.reader.pointer({offset}).get_text_bytes()"),
                    "Ok(b)",
                    "v.text(b)",
                );
                out.else_branch();
                print_result(out, getter, "Ok(t)", "v.text(t.as_bytes())");
                out.close();
            }
            Type::Data => print_result(out, getter, "Ok(b)", "v.data(b)"),
            Type::Struct(..) => print_result(out, getter, "Ok(s)", "s.write_text(v)"),
            Type::Param { scope, index } => match self.param(*scope, *index) {
                // A parameter in scope prints as the type it is bound to.
                Some(p) => print_result(
                    out,
                    getter,
                    "Ok(x)",
                    &format!("<{p} as {}::typed::Owned>::write_text(x, v)", self.runtime),
                ),
                None => out.line("v.any_pointer();"),
            },
            Type::List(element) => self.list_text(out, element, getter, file, depth)?,
            _ => out.line(&format!("{};", value_text(ty, getter))),
        }
        Ok(())
    }

    /// The statements that feed the list `list` (a `Result` of a typed
    /// list) of `element`s to `v`.
    fn list_text(
        &self,
        out: &mut Writer,
        element: &Type,
        list: &str,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        // Elements whose value does not print are not bound.
        let binding = if matches!(
            self.resolve(element),
            Type::Void | Type::AnyPointer | Type::Interface(..)
        ) {
            "_"
        } else {
            "e"
        };
        out.open_expression(&format!("match {list}"));
        out.open("Ok(l) =>");
        out.line("v.begin_list();");
        out.open_expression(&format!("for {binding} in l.iter()"));
        match element {
            Type::Enum(id) => {
                let path = self.path_to(*id, file, depth)?;
                enumerant_text(out, "e", &path);
            }
            Type::Text => print_result(out, "e", "Ok(t)", "v.text(t.as_bytes())"),
            Type::Data => print_result(out, "e", "Ok(b)", "v.data(b)"),
            Type::Struct(..) => out.line("e.write_text(v);"),
            Type::Param { scope, index } => match self.param(*scope, *index) {
                Some(p) => print_result(
                    out,
                    "e",
                    "Ok(x)",
                    &format!("<{p} as {}::typed::Owned>::write_text(x, v)", self.runtime),
                ),
                None => out.line("v.any_pointer();"),
            },
            Type::List(inner) => self.list_text(out, inner, "e", file, depth)?,
            _ => out.line(&format!("{};", value_text(element, "e"))),
        }
        out.close();
        out.line("v.end_list();");
        out.close();
        out.arm("Err(e)", "v.error(e)");
        out.close();
        Ok(())
    }
}

/// A slot field as its text is written.
struct Slot<'t> {
    ty: &'t Type,
    /// The pointer slot.
    offset: u32,
    /// Whether the code around tested the pointer set (so a text field
    /// needs no branch for a null one).
    pointer_set: bool,
}

/// The call that feeds `value`, of a value type (or one that does not
/// print its value), to `v`.
fn value_text(ty: &Type, value: &str) -> String {
    match ty {
        Type::Void => "v.void()".into(),
        Type::Bool => format!("v.bool({value})"),
        Type::Int8 | Type::Int16 | Type::Int32 => format!("v.int(i64::from({value}))"),
        Type::Int64 => format!("v.int({value})"),
        Type::UInt8 | Type::UInt16 | Type::UInt32 => format!("v.uint(u64::from({value}))"),
        Type::UInt64 => format!("v.uint({value})"),
        Type::Float32 => format!("v.float32({value})"),
        Type::Float64 => format!("v.float64({value})"),
        Type::Interface(..) => "v.capability()".into(),
        _ => "v.any_pointer()".into(),
    }
}

/// `match result { ok => value, Err(e) => v.error(e) }`.
fn print_result(out: &mut Writer, result: &str, ok: &str, value: &str) {
    out.open_expression(&format!("match {result}"));
    out.arm(ok, value);
    out.arm("Err(e)", "v.error(e)");
    out.close();
}

/// An enumerant (`value`, a `Result` of the enum at `path`) fed to `v`
/// by number, with the enum's names.
fn enumerant_text(out: &mut Writer, value: &str, path: &str) {
    out.open_raw("v.enumerant(");
    out.open_expression(&format!("match {value}"));
    out.arm("Ok(e)", "u16::from(e)");
    out.arm("Err(e)", "e.0");
    out.close_with(",");
    out.line(&format!("{path}::NAMES,"));
    out.close_raw(");");
}
