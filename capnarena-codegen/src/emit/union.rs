//! A union: its `Which` enum and the reader's `which()`, the one way to a
//! member's value (see the crate docs); the builder's `which()` and, when
//! a member's value is a builder, `WhichBuilder`.
//!
//! `Which` takes no type parameters: members whose type uses the struct's
//! generic parameters are given with those erased to `AnyPointer`.

use super::Generator;
use super::data_field::is_zero;
use super::doc::doc_attr;
use super::pointer_field::default_static;
use super::struct_module::StructCode;
use super::types::{COMPLEX_SCORE, complexity};
use super::writer::Writer;
use crate::Error;
use crate::model::*;
use crate::names::{Case, assign};

/// A `Which` variant's payload: its type and the expression that makes it.
type Payload = (String, String);

/// What copies a pointer member's default into its slot before the
/// builder's `which()` gives it: statements binding `filled` (a
/// `Result<()>`), which the payload's expression then uses.
enum Fill {
    /// A text or data literal, set when `null` is false: (the condition
    /// that the slot is set, the call that sets it).
    Literal(String, String),
    /// A call copying the default's words in.
    Words(String),
}

impl Fill {
    fn write(&self, out: &mut Writer) {
        match self {
            Fill::Literal(set, call) => {
                out.open_expression(&format!("let filled = if {set}"));
                out.line("Ok(())");
                out.else_branch();
                out.line(call);
                out.close_with(";");
            }
            Fill::Words(call) => out.assign("let filled", call, ";"),
        }
    }
}

/// A member's payloads in `Which` and `WhichBuilder` (`None` for void).
#[derive(Default)]
struct MemberPayloads {
    reader: Option<Payload>,
    builder: Option<Payload>,
    /// The default copied in first (see [`Fill`]).
    fill: Option<Fill>,
    /// The payloads borrow (for `'a` and `'b`): groups and pointers.
    borrows: bool,
    /// The builder's payload names the arena type `A` (struct, list,
    /// group and any-pointer builders).
    names_arena: bool,
}

impl MemberPayloads {
    /// Payloads of plain values, the same type in both enums.
    fn values(rust: String, reader: String, builder: String) -> Self {
        MemberPayloads {
            reader: Some((rust.clone(), reader)),
            builder: Some((rust, builder)),
            ..MemberPayloads::default()
        }
    }
}

/// The variants of a union's two enums, and what their payloads need.
#[derive(Default)]
struct UnionVariants {
    readers: Vec<Variant>,
    builders: Vec<Variant>,
    /// Some payload borrows (the enums take lifetimes).
    borrows: bool,
    /// Some builder payload names the arena type.
    names_arena: bool,
    /// Some payload type may be over clippy's `type_complexity`.
    complex: bool,
}

/// One variant of `Which` or `WhichBuilder`.
struct Variant {
    doc: String,
    name: String,
    /// The discriminant value.
    value: u16,
    payload: Option<Payload>,
    fill: Option<Fill>,
}

impl Variant {
    /// The variant in the enum's declaration.
    fn declare(&self, out: &mut Writer) {
        doc_attr(out, Some(&self.doc));
        match &self.payload {
            Some((ty, _)) => out.type_line(&format!("{}({ty}),", self.name)),
            None => out.line(&format!("{},", self.name)),
        }
    }

    /// The arm of `which()` that makes the variant of enum `which`.
    fn arm(&self, out: &mut Writer, which: &str) {
        let (name, value) = (&self.name, self.value.to_string());
        let make = match &self.payload {
            Some((_, make)) => format!("Ok({which}::{name}({make}))"),
            None => format!("Ok({which}::{name})"),
        };
        match &self.fill {
            Some(fill) => {
                out.open(&format!("{value} =>"));
                fill.write(out);
                out.line(&make);
                out.close();
            }
            None => out.arm(&value, &make),
        }
    }
}

impl Generator<'_> {
    /// The union's `Which` enum (and `WhichBuilder`) into `out`, and the
    /// handles' `which()`; `fields` are the struct's, in code order.
    /// Longer than most: two enums and two methods, in order, the
    /// builder's in one of two forms.
    pub(super) fn which(
        &self,
        code: &mut StructCode,
        out: &mut Writer,
        s: &StructNode,
        fields: &[&Field],
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let runtime = &self.runtime;
        let UnionVariants {
            readers,
            builders,
            borrows,
            names_arena,
            complex,
        } = self.union_variants(fields, file, depth)?;
        let lifetime = if borrows { "<'a>" } else { "" };
        declare_enum(
            out,
            "The union's members, with the value of the one that is set.",
            complex,
            &format!("pub enum Which{lifetime}"),
            &readers,
        );
        let errors = "# Errors\nThe discriminant names a member the schema does not have.";
        let not_in_schema = format!("{runtime}::typed::NotInSchema");
        code.reader.docs(&format!(
            "Which member of the union is set, with its value.\n{errors}"
        ));
        which_method(
            &mut code.reader,
            &format!(
                "pub fn which(&self) -> ::core::result::Result<Which{lifetime}, {not_in_schema}>"
            ),
            &format!("self.reader.get::<u16>({})", s.discriminant_offset),
            &readers,
            "Which",
            &not_in_schema,
        );
        if !borrows {
            // Every member's value is a plain value: the builder's
            // `which()` gives the reader's `Which`.
            code.builder.docs(&format!(
                "Which member of the union is set, with its value.\n{errors}"
            ));
            which_method(
                &mut code.builder,
                &format!("pub fn which(&self) -> ::core::result::Result<Which, {not_in_schema}>"),
                &format!("self.builder.get::<u16>({})", s.discriminant_offset),
                &builders,
                "Which",
                &not_in_schema,
            );
            return Ok(());
        }
        let (declaration, arguments) = if names_arena {
            (
                format!("<'b, A: {runtime}::Arena + ?Sized + 'b>"),
                "<'_, A>",
            )
        } else {
            ("<'b>".to_string(), "<'_>")
        };
        declare_enum(
            out,
            "The union's members, with a builder of the one that is set (a builder's `which()`).",
            complex,
            &format!("pub enum WhichBuilder{declaration}"),
            &builders,
        );
        code.builder.docs(&format!(
            "Which member of the union is set, with a builder of its value (pointer members as their getters would give them: a default is copied in, an unset text or data is allocated empty).\n{errors}"
        ));
        which_method(
            &mut code.builder,
            &format!(
                "pub fn which(&mut self) -> ::core::result::Result<WhichBuilder{arguments}, {not_in_schema}>"
            ),
            &format!("self.builder.get::<u16>({})", s.discriminant_offset),
            &builders,
            "WhichBuilder",
            &not_in_schema,
        );
        Ok(())
    }

    /// The variants of `Which` and `WhichBuilder`, one per union member
    /// of `fields`, by discriminant.
    fn union_variants(
        &self,
        fields: &[&Field],
        file: u64,
        depth: usize,
    ) -> Result<UnionVariants, Error> {
        let mut members: Vec<&&Field> =
            fields.iter().filter(|f| f.discriminant.is_some()).collect();
        members.sort_by_key(|f| f.discriminant);
        let mut variants = UnionVariants::default();
        let spelled: Vec<(&str, Case)> = members
            .iter()
            .map(|f| (f.spelling(), Case::Pascal))
            .collect();
        let names = assign(&spelled, &[]);
        for (f, name) in members.iter().zip(names) {
            let payloads = self.member_payloads(f, file, depth)?;
            variants.borrows |= payloads.borrows;
            variants.names_arena |= payloads.names_arena;
            for (ty, _) in payloads.reader.iter().chain(&payloads.builder) {
                variants.complex |= complexity(ty) > COMPLEX_SCORE;
            }
            let doc = f
                .doc
                .clone()
                .unwrap_or_else(|| format!("`{}` is set.", f.name));
            let value = f.discriminant.unwrap_or(0);
            variants.readers.push(Variant {
                doc: doc.clone(),
                name: name.clone(),
                value,
                payload: payloads.reader,
                fill: None,
            });
            variants.builders.push(Variant {
                doc,
                name,
                value,
                payload: payloads.builder,
                fill: payloads.fill,
            });
        }
        Ok(variants)
    }

    /// Member `f`'s payloads, by the kind of its type.
    fn member_payloads(&self, f: &Field, file: u64, depth: usize) -> Result<MemberPayloads, Error> {
        let runtime = &self.runtime;
        let (ty, offset, default) = match &f.kind {
            FieldKind::Group { type_id } => return Ok(self.group_payloads(f, *type_id)),
            FieldKind::Slot {
                ty,
                offset,
                default,
            } => (self.resolve(ty), *offset, default),
        };
        let get = format!("self.get_{}()", self.stem(f));
        Ok(match &ty {
            Type::Void => MemberPayloads::default(),
            Type::Bool => {
                let builder = match default {
                    Value::Bool(true) => format!("self.builder.get_bool_or({offset}, true)"),
                    _ => format!("self.builder.get_bool({offset})"),
                };
                MemberPayloads::values("bool".into(), get, builder)
            }
            Type::Enum(id) => {
                let path = self.path_to(*id, file, depth)?;
                let default = match default {
                    Value::Enum(v) => *v,
                    _ => 0,
                };
                MemberPayloads::values(
                    format!("::core::result::Result<{path}, {runtime}::typed::NotInSchema>"),
                    get,
                    format!(
                        "<{path} as ::core::convert::TryFrom<u16>>::try_from(self.builder.get_or::<u16>({offset}, {default}))"
                    ),
                )
            }
            Type::AnyPointer => MemberPayloads {
                reader: Some((format!("{runtime}::PointerReader<'a>"), get)),
                builder: Some((
                    format!("{runtime}::PointerBuilder<'b, A>"),
                    format!("self.builder.pointer({offset})"),
                )),
                fill: None,
                borrows: true,
                names_arena: true,
            },
            Type::Interface(..) => MemberPayloads::values(
                format!("{runtime}::Result<u32>"),
                get,
                format!("self.builder.with_reader(|r| r.pointer({offset}).get_capability())"),
            ),
            ty if ty.is_pointer() => self.pointer_payloads(f, ty, offset, default, file, depth)?,
            ty => {
                let (rust, literal) = self.primitive(ty, default)?;
                let builder = if is_zero(default) {
                    format!("self.builder.get::<{rust}>({offset})")
                } else {
                    format!("self.builder.get_or::<{rust}>({offset}, {literal})")
                };
                MemberPayloads::values(rust.to_string(), get, builder)
            }
        })
    }

    /// A group member's payloads: the group's handles.
    fn group_payloads(&self, f: &Field, group: u64) -> MemberPayloads {
        let parameter_count = self.params.borrow().len();
        let module = self.module_name(group).unwrap_or_default();
        let any = format!("{}::typed::AnyPointer", self.runtime);
        let arguments: String = (0..parameter_count).map(|_| format!(", {any}")).collect();
        let marker = if parameter_count == 0 {
            ""
        } else {
            ", marker: ::core::marker::PhantomData"
        };
        let reader = if parameter_count == 0 {
            (
                format!("{module}::Reader<'a>"),
                format!("self.get_{}()", self.stem(f)),
            )
        } else {
            (
                format!("{module}::Reader<'a{arguments}>"),
                format!("{module}::Reader {{ reader: self.reader{marker} }}"),
            )
        };
        MemberPayloads {
            reader: Some(reader),
            builder: Some((
                format!("{module}::Builder<'b, A{arguments}>"),
                format!("{module}::Builder {{ builder: self.builder.reborrow(){marker} }}"),
            )),
            fill: None,
            borrows: true,
            names_arena: true,
        }
    }

    /// A typed pointer member's payloads (text, data, list, struct or
    /// generic value), with the struct's generic parameters erased.
    fn pointer_payloads(
        &self,
        f: &Field,
        ty: &Type,
        offset: u32,
        default: &Value,
        file: u64,
        depth: usize,
    ) -> Result<MemberPayloads, Error> {
        let runtime = &self.runtime;
        let typed = self.reader_ty(ty, file, depth)?;
        let saved = self.params.replace(Vec::new());
        let erased = self.resolve(ty);
        let erased_reader = self.reader_ty(&erased, file, depth);
        let erased_builder = self.builder_ty(&erased, file, depth);
        let erased_owned = self.owned_ty(&erased, file, depth);
        self.params.replace(saved);
        let (erased_reader, erased_builder, erased_owned) =
            (erased_reader?, erased_builder?, erased_owned?);
        let any = erased == Type::AnyPointer;
        let mut fill = None;
        let builder = if any {
            (
                format!("{runtime}::Result<{runtime}::PointerBuilder<'b, A>>"),
                format!("Ok(self.builder.pointer({offset}))"),
            )
        } else {
            let get = format!(
                "<{erased_owned} as {runtime}::typed::Owned>::get(self.builder.pointer({offset}))"
            );
            fill = self.builder_fill(f, ty, offset, default, &erased_owned);
            let make = match fill {
                Some(_) => format!("filled.and_then(|()| {get})"),
                None => get,
            };
            (format!("{runtime}::Result<{erased_builder}>"), make)
        };
        let reader = if erased_reader == typed {
            (
                format!("{runtime}::Result<{typed}>"),
                format!("self.get_{}()", self.stem(f)),
            )
        } else if any {
            (
                format!("{runtime}::Result<{erased_reader}>"),
                format!("Ok(self.reader.pointer({offset}))"),
            )
        } else {
            (
                format!("{runtime}::Result<{erased_reader}>"),
                format!(
                    "<{erased_owned} as {runtime}::typed::Owned>::read(self.reader.pointer({offset}))"
                ),
            )
        };
        Ok(MemberPayloads {
            reader: Some(reader),
            builder: Some(builder),
            fill,
            borrows: true,
            names_arena: any || !matches!(ty, Type::Text | Type::Data),
        })
    }

    /// What copies pointer field `f`'s schema default into its slot when
    /// the slot is null, or `None` when the field has no default.
    fn builder_fill(
        &self,
        f: &Field,
        ty: &Type,
        offset: u32,
        default: &Value,
        owned: &str,
    ) -> Option<Fill> {
        let runtime = &self.runtime;
        let set_if_null = |literal: String| {
            Fill::Literal(
                format!("self.builder.has_pointer({offset})"),
                format!(
                    "<{owned} as {runtime}::typed::Owned>::set(self.builder.pointer({offset}), {literal})"
                ),
            )
        };
        let from_static = || {
            Fill::Words(format!(
                "{runtime}::__private::fill_default(&mut self.builder.pointer({offset}), &{})",
                default_static(&self.stem(f))
            ))
        };
        match (ty, default) {
            (Type::Text, Value::Text(t)) if !t.is_empty() && std::str::from_utf8(t).is_ok() => {
                Some(set_if_null(format!("{:?}", String::from_utf8_lossy(t))))
            }
            // Not UTF-8: kept as words by `pointer_field`, as pointer
            // defaults are.
            (Type::Text, Value::Text(t)) if !t.is_empty() => Some(from_static()),
            (Type::Data, Value::Data(b)) if !b.is_empty() => Some(set_if_null(format!("&{b:?}"))),
            (_, Value::Pointer(Some(_))) => Some(from_static()),
            _ => None,
        }
    }
}

/// Declares `Which` or `WhichBuilder` (`head`) with `variants`.
fn declare_enum(out: &mut Writer, doc: &str, complex: bool, head: &str, variants: &[Variant]) {
    out.docs(doc);
    if complex {
        out.line("#[allow(clippy::type_complexity)]");
    }
    out.open(head);
    for variant in variants {
        variant.declare(out);
    }
    out.close();
}

/// A `which()` (`signature`): a match on `discriminant` with an arm per
/// variant of enum `which`, and `Err` for a value the schema does not
/// have.
fn which_method(
    out: &mut Writer,
    signature: &str,
    discriminant: &str,
    variants: &[Variant],
    which: &str,
    not_in_schema: &str,
) {
    out.line("#[inline]");
    out.open_fn(signature);
    out.open_expression(&format!("match {discriminant}"));
    for variant in variants {
        variant.arm(out, which);
    }
    out.arm("v", &format!("Err({not_in_schema}(v))"));
    out.close();
    out.close();
}
