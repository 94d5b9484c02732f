//! A struct's or group's module: the `Reader` and `Builder` handles,
//! `Owned` and the runtime's traits (structs only), the handles' own
//! methods, `Debug`, and each field's accessors, which the emitter of the
//! field's kind writes (see [`Generator::field`]).

use super::Generator;
use super::doc::doc_attr;
use super::types::Generics;
use super::writer::Writer;
use crate::Error;
use crate::model::*;
use crate::names::{Case, FieldMethods, Form, convert, field_methods};

/// The code the fields of a struct add to it: methods of the reader and
/// of the builder, and statics (pointer defaults) in the module.
pub(super) struct StructCode {
    pub(super) reader: Writer,
    pub(super) builder: Writer,
    pub(super) statics: Writer,
}

/// What every field emitter needs to know about the field it writes.
pub(super) struct FieldContext<'a> {
    pub(super) field: &'a Field,
    /// The schema file being generated.
    pub(super) file: u64,
    /// Modules between the file's module and the code (the struct's
    /// module counts).
    pub(super) depth: usize,
    pub(super) generics: &'a Generics,
    /// The part of the method names after `get_`, `set_`, `has_`, `init_`.
    pub(super) stem: String,
    /// The field's doc: the schema's, or one naming the field.
    pub(super) doc: String,
    /// Statement writing a union member's discriminant ("" otherwise).
    pub(super) set_discriminant: Option<String>,
    /// Whether the field is a union member.
    pub(super) member: bool,
    /// `pub ` for the reader's getter, "" for a union member's (`which()`
    /// reads members).
    pub(super) visibility: &'static str,
    /// `self.reader.get::<u16>(..) == k && ` for a union member ("" otherwise).
    pub(super) active_reader: String,
    /// The same, on the builder.
    pub(super) active_builder: String,
}

impl FieldContext<'_> {
    /// The doc, as `doc_attr` takes it.
    pub(super) fn doc(&self) -> Option<&str> {
        Some(&self.doc)
    }

    /// Writes the statement that makes a union member the active one.
    pub(super) fn write_discriminant(&self, out: &mut Writer) {
        if let Some(statement) = &self.set_discriminant {
            out.line(statement);
        }
    }

    /// Writes the `has_` method of a pointer field on the reader or
    /// (`handle` = "builder") the builder.
    pub(super) fn has_method(&self, out: &mut Writer, handle: &str, offset: usize) {
        let active = if handle == "reader" {
            &self.active_reader
        } else {
            &self.active_builder
        };
        out.docs(&format!(
            "Whether the `{}` field is set (its pointer is not null{}).",
            self.field.name,
            if self.member {
                " and the member is the union's active one"
            } else {
                ""
            },
        ));
        out.line("#[inline]");
        out.open_fn(&format!("pub fn has_{}(&self) -> bool", self.stem));
        out.line(&format!("{active}self.{handle}.has_pointer({offset})"));
        out.close();
    }
}

impl Generator<'_> {
    /// Writes the module of struct or group `node`, named `name`, at
    /// `depth` modules below file `file`'s module. Its parts are written
    /// in the order the module holds them; the function reads as that
    /// list, and is longer than most for it.
    pub(super) fn struct_module(
        &self,
        out: &mut Writer,
        node: &Node,
        s: &StructNode,
        name: &str,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let runtime = &self.runtime;
        let inner = depth + 1; // code inside the module
        let kind = if s.is_group { "group" } else { "struct" };
        let fallback = format!("The `{}` {kind}.", node.short_name());
        doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
        out.open(&format!("pub mod {name}"));
        out.docs(&format!("Id of the {kind}."));
        out.line(&format!("pub const TYPE_ID: u64 = {:#x};", node.id));
        // Generic parameters (the node's and its scopes'): type parameters
        // of the reader, the builder and `Owned`, defaulting to AnyPointer.
        let params = self.scope_params(node.id);
        let saved = self.params.replace(params.clone());
        self.name_fields(s);
        let generics = Generics::new(&params, runtime);
        self.handle_types(out, node, &generics);
        if !s.is_group {
            self.owned_impls(out, s, &generics);
            if self.options.schema_nodes {
                self.schema_impls(out, node, &generics, file, inner)?;
            }
        }

        // Fields in code order.
        let mut fields: Vec<&Field> = s.fields.iter().collect();
        fields.sort_by_key(|f| f.code_order);

        let mut code = StructCode {
            reader: Writer::new(inner + 1),
            builder: Writer::new(inner + 1),
            statics: Writer::new(inner),
        };
        self.handle_methods(&mut code, s, &generics);
        for f in &fields {
            self.field_with_lint(&mut code, s, f, file, inner, &generics)?;
        }
        if s.discriminant_count > 0 {
            self.which(&mut code, out, s, &fields, file, inner)?;
        }
        self.write_text(&mut code.reader, s, file, inner)?;
        let (list, bounds, marker) = (&generics.list, &generics.bounds, &generics.marker);
        code.builder.docs(&format!(
            "Runs `f` on a reader of the {kind} as built so far."
        ));
        code.builder.line("#[inline]");
        code.builder.open_fn(&format!(
            "pub fn with_reader<R>(&self, f: impl for<'r> FnOnce(Reader<'r{list}>) -> R) -> R"
        ));
        code.builder.line(&format!(
            "self.builder.with_reader(|reader| f(Reader {{ reader{marker} }}))"
        ));
        code.builder.close();
        self.debug_impls(out, kind, &generics);
        out.open_impl(&format!("impl<'a{bounds}> Reader<'a{list}>"));
        out.append(&code.reader);
        out.close();
        out.open_impl(&format!(
            "impl<'a, A: {runtime}::Arena + ?Sized{bounds}> Builder<'a, A{list}>"
        ));
        out.append(&code.builder);
        out.close();
        out.append(&code.statics);
        self.struct_pipeline(out, node, s, file, inner)?;
        if self.options.owned_values {
            self.owned_values(out, node, s, inner, file)?;
        }
        let nested = self.scope_items(out, node, file, inner);
        self.params.replace(saved);
        nested?;
        out.close();
        Ok(())
    }

    /// Records the method names of `s`'s fields (rule 3 of `names`) for
    /// [`Self::stem`] while `s` is generated.
    fn name_fields(&self, s: &StructNode) {
        let claims: Vec<(&str, Vec<Form>)> = s
            .fields
            .iter()
            .map(|f| (f.spelling(), self.field_forms(f)))
            .collect();
        let stems = field_methods(&claims);
        self.stems.replace(
            s.fields
                .iter()
                .zip(stems)
                .map(|(f, stem)| (f.name.clone(), stem))
                .collect(),
        );
    }

    /// The `Reader` and `Builder` structs (and, for a generic struct, the
    /// phantom marker type of its parameters).
    fn handle_types(&self, out: &mut Writer, node: &Node, generics: &Generics) {
        let runtime = &self.runtime;
        let (list, defaults) = (&generics.list, &generics.defaults);
        let short_name = node.short_name();
        let list_bare = list.trim_start_matches(", ");
        let marker_field = if list.is_empty() {
            String::new()
        } else {
            out.docs("The generic parameters, as the type of a handle's marker field.");
            out.assign_type(
                &format!("type Params<{list_bare}>"),
                &format!("::core::marker::PhantomData<fn() -> ({})>", generics.tuple),
                ";",
            );
            format!("pub(super) marker: Params<{list_bare}>,")
        };
        out.docs(&format!("Reads a `{short_name}`."));
        if list.is_empty() {
            out.line("#[derive(Clone, Copy)]");
        }
        out.open(&format!("pub struct Reader<'a{defaults}>"));
        out.type_line(&format!("pub(super) reader: {runtime}::StructReader<'a>,"));
        if !marker_field.is_empty() {
            out.type_line(&marker_field);
        }
        out.close();
        if !list.is_empty() {
            let bounds_bare = generics.bounds.trim_start_matches(", ");
            out.open_impl(&format!("impl<{bounds_bare}> Clone for Reader<'_{list}>"));
            out.open_fn("fn clone(&self) -> Self");
            out.line("*self");
            out.close();
            out.close();
            out.empty_impl(&format!("impl<{bounds_bare}> Copy for Reader<'_{list}>"));
        }
        out.docs(&format!("Builds a `{short_name}`."));
        out.open(&format!(
            "pub struct Builder<'a, A: {runtime}::Arena + ?Sized{defaults}>"
        ));
        out.type_line(&format!(
            "pub(super) builder: {runtime}::StructBuilder<'a, A>,"
        ));
        if !marker_field.is_empty() {
            out.type_line(&marker_field);
        }
        out.close();
    }

    /// `Owned` with `STRUCT_SIZE`, and the runtime's traits that make the
    /// handles usable in lists, roots and generic code. Longer than most:
    /// it writes three impls of several one-line methods, in order.
    fn owned_impls(&self, out: &mut Writer, s: &StructNode, generics: &Generics) {
        let runtime = &self.runtime;
        let (list, bounds, marker) = (&generics.list, &generics.bounds, &generics.marker);
        out.docs("Names the struct's reader and builder in generic code (lists, roots).");
        let owned_impl = if list.is_empty() {
            out.line("pub struct Owned;");
            "impl".to_string()
        } else {
            out.type_line(&format!(
                "pub struct Owned<{}>(Params<{}>);",
                generics.defaults.trim_start_matches(", "),
                list.trim_start_matches(", ")
            ));
            format!("impl<{}>", bounds.trim_start_matches(", "))
        };
        let owned_use = owned_use(generics);
        out.docs("Data words and pointers of the struct.");
        out.assign(
            &format!("pub const STRUCT_SIZE: {runtime}::StructSize"),
            &format!(
                "{runtime}::StructSize::new({}, {})",
                s.data_words, s.pointers
            ),
            ";",
        );
        out.open_impl(&format!(
            "{owned_impl} {runtime}::typed::StructOwned for {owned_use}"
        ));
        out.line(&format!(
            "const STRUCT_SIZE: {runtime}::StructSize = STRUCT_SIZE;"
        ));
        out.assign_type("type Reader<'a>", &format!("Reader<'a{list}>"), ";");
        out.assign_type(
            &format!("type Builder<'a, A: {runtime}::Arena + ?Sized + 'a>"),
            &format!("Builder<'a, A{list}>"),
            ";",
        );
        short_fn(
            out,
            true,
            &format!("fn wrap_reader(reader: {runtime}::StructReader<'_>) -> Reader<'_{list}>"),
            &format!("Reader {{ reader{marker} }}"),
        );
        short_fn(
            out,
            true,
            &format!(
                "fn wrap_builder<A: {runtime}::Arena + ?Sized>(builder: {runtime}::StructBuilder<'_, A>) -> Builder<'_, A{list}>"
            ),
            &format!("Builder {{ builder{marker} }}"),
        );
        short_fn(
            out,
            true,
            &format!("fn struct_reader<'a>(r: &Self::Reader<'a>) -> {runtime}::StructReader<'a>"),
            "r.reader",
        );
        short_fn(
            out,
            false,
            &format!(
                "fn write_text<'a>(r: &Self::Reader<'a>, v: &mut dyn {runtime}::typed::TextVisitor<'a>)"
            ),
            "r.write_text(v)",
        );
        out.close();
        self.wrap_impls(out, generics);
    }

    /// With the `schema_nodes` option: `HasSchema` of `Owned`, and
    /// `IntoStructBuilder` of the builder.
    fn schema_impls(
        &self,
        out: &mut Writer,
        node: &Node,
        generics: &Generics,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let runtime = &self.runtime;
        let (list, bounds) = (&generics.list, &generics.bounds);
        let params = self.params.borrow().clone();
        self.has_schema_impl(out, node, &params, &owned_use(generics), file, depth)?;
        out.open_impl(&format!(
            "impl<'a, A: {runtime}::Arena + ?Sized{bounds}> {runtime}::typed::IntoStructBuilder<'a, A> for Builder<'a, A{list}>"
        ));
        short_fn(
            out,
            true,
            &format!("fn into_struct_builder(self) -> {runtime}::StructBuilder<'a, A>"),
            "self.builder",
        );
        out.close();
        Ok(())
    }

    /// `FromStructReader` and `FromStructBuilder`: how untyped handles
    /// become the struct's reader and builder.
    fn wrap_impls(&self, out: &mut Writer, generics: &Generics) {
        let runtime = &self.runtime;
        let (list, bounds, marker) = (&generics.list, &generics.bounds, &generics.marker);
        out.open_impl(&format!(
            "impl<'a{bounds}> {runtime}::typed::FromStructReader<'a> for Reader<'a{list}>"
        ));
        short_fn(
            out,
            true,
            &format!("fn from_struct_reader(reader: {runtime}::StructReader<'a>) -> Self"),
            &format!("Reader {{ reader{marker} }}"),
        );
        out.close();
        out.open_impl(&format!(
            "impl<'a, A: {runtime}::Arena + ?Sized{bounds}> {runtime}::typed::FromStructBuilder<'a, A> for Builder<'a, A{list}>"
        ));
        out.line(&format!(
            "const STRUCT_SIZE: {runtime}::StructSize = STRUCT_SIZE;"
        ));
        short_fn(
            out,
            true,
            &format!("fn from_struct_builder(builder: {runtime}::StructBuilder<'a, A>) -> Self"),
            &format!("Builder {{ builder{marker} }}"),
        );
        out.close();
    }

    /// The handles' own methods (untyped access, reborrowing, views,
    /// `total_size`, `set_from`), before the fields' accessors. Longer
    /// than most: eight short methods, each with its doc, in order.
    fn handle_methods(&self, code: &mut StructCode, s: &StructNode, generics: &Generics) {
        let runtime = &self.runtime;
        let (list, marker) = (&generics.list, &generics.marker);
        let kind = if s.is_group { "group" } else { "struct" };
        let (reader, builder) = (&mut code.reader, &mut code.builder);
        reader.docs("The untyped reader under this one.");
        short_fn(
            reader,
            true,
            &format!("pub fn as_struct_reader(&self) -> {runtime}::StructReader<'a>"),
            "self.reader",
        );
        builder.docs(&format!("A shorter-lived handle to the same {kind}."));
        short_fn(
            builder,
            true,
            &format!("pub fn reborrow(&mut self) -> Builder<'_, A{list}>"),
            &format!("Builder {{ builder: self.builder.reborrow(){marker} }}"),
        );
        builder.docs("The untyped builder under this one.");
        short_fn(
            builder,
            true,
            &format!("pub fn into_struct_builder(self) -> {runtime}::StructBuilder<'a, A>"),
            "self.builder",
        );
        builder.docs("The untyped builder under this one, reborrowed.");
        short_fn(
            builder,
            true,
            &format!("pub fn as_struct_builder(&mut self) -> {runtime}::StructBuilder<'_, A>"),
            "self.builder.reborrow()",
        );
        if s.is_group {
            return;
        }
        let owned_use = owned_use(generics);
        reader.docs(
            "Words and capabilities the struct and everything it points to take.\n\
             # Errors\n\
             A pointer under it is malformed, out of bounds or over a limit.",
        );
        short_fn(
            reader,
            false,
            &format!("pub fn total_size(&self) -> {runtime}::Result<{runtime}::MessageSize>"),
            "self.reader.total_size()",
        );
        builder.docs(
            "A read view of the struct as built so far, while this builder is borrowed: `b.reborrow_as_reader().get()`.",
        );
        short_fn(
            builder,
            false,
            &format!(
                "pub fn reborrow_as_reader(&self) -> {runtime}::typed::ReaderView<'_, {owned_use}>"
            ),
            &format!("{runtime}::typed::ReaderView::new(self.builder.reader_view())"),
        );
        builder.docs(
            "A read view of the struct as built, for the rest of the builder's lifetime (the builder is given up).",
        );
        short_fn(
            builder,
            false,
            &format!("pub fn into_reader(self) -> {runtime}::typed::ReaderView<'a, {owned_use}>"),
            &format!("{runtime}::typed::ReaderView::new(self.builder.into_reader_view())"),
        );
        builder.docs(
            "Overwrites this struct with a copy of `value` (fields it has no room for are dropped).\n\
             # Errors\n\
             The source is malformed or over a limit, or the arena has no room.",
        );
        short_fn(
            builder,
            true,
            &format!(
                "pub fn set_from(&mut self, value: Reader<'_{list}>) -> {runtime}::Result<()>"
            ),
            "self.builder.copy_from(&value.reader)",
        );
    }

    /// `Debug` for both handles, printing the reference's text format.
    fn debug_impls(&self, out: &mut Writer, kind: &str, generics: &Generics) {
        let runtime = &self.runtime;
        let (list, bounds) = (&generics.list, &generics.bounds);
        out.open_impl(&format!(
            "{} ::core::fmt::Debug for Reader<'_{list}>",
            impl_generics(bounds)
        ));
        out.docs(
            "The reference's text format: `{:?}` as `capnp convert binary:text --short`, `{:#?}` as `capnp convert binary:text`.",
        );
        short_fn(
            out,
            false,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result",
            &format!("{runtime}::__private::fmt_text(f, |v| self.write_text(v))"),
        );
        out.close();
        out.open_impl(&format!(
            "impl<A: {runtime}::Arena + ?Sized{bounds}> ::core::fmt::Debug for Builder<'_, A{list}>"
        ));
        out.docs(&format!(
            "As the reader's `Debug`, of the {kind} as built so far."
        ));
        short_fn(
            out,
            false,
            "fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result",
            "self.with_reader(|r| ::core::fmt::Debug::fmt(&r, f))",
        );
        out.close();
    }

    /// Field `f`'s accessors; a deeply nested type (lists of lists of
    /// generic structs) spells out too long for clippy's
    /// `type_complexity`, and a type alias per field would add names that
    /// could collide, so such a field's accessors allow the lint instead.
    fn field_with_lint(
        &self,
        code: &mut StructCode,
        s: &StructNode,
        f: &Field,
        file: u64,
        depth: usize,
        generics: &Generics,
    ) -> Result<(), Error> {
        let (reader_start, builder_start) = (code.reader.len(), code.builder.len());
        let context = self.field_context(s, f, file, depth, generics);
        self.field(code, &context)?;
        if let FieldKind::Slot { ty, .. } = &f.kind {
            if self.too_complex(ty, file, depth)? {
                code.reader.allow_complex_types_since(reader_start);
                code.builder.allow_complex_types_since(builder_start);
            }
        }
        Ok(())
    }

    /// The context of field `f` of `s`.
    fn field_context<'a>(
        &self,
        s: &'a StructNode,
        f: &'a Field,
        file: u64,
        depth: usize,
        generics: &'a Generics,
    ) -> FieldContext<'a> {
        let active_reader = match f.discriminant {
            Some(k) => format!(
                "self.reader.get::<u16>({}) == {k} && ",
                s.discriminant_offset
            ),
            None => String::new(),
        };
        let member = f.discriminant.is_some();
        FieldContext {
            field: f,
            file,
            depth,
            generics,
            stem: self.stem(f),
            doc: f
                .doc
                .clone()
                .unwrap_or_else(|| format!("The `{}` field.", f.name)),
            set_discriminant: self.set_discriminant(s, f),
            member,
            visibility: if member { "" } else { "pub " },
            active_builder: active_reader.replace("self.reader", "self.builder"),
            active_reader,
        }
    }

    /// Writes field `context.field`'s accessors, by the kind of its type.
    fn field(&self, code: &mut StructCode, context: &FieldContext<'_>) -> Result<(), Error> {
        let f = context.field;
        if f.option {
            let supported = !context.member
                && matches!(&f.kind, FieldKind::Slot { ty, .. }
                    if matches!(ty, Type::Text | Type::Data | Type::List(_) | Type::Struct(..) | Type::Param { .. } | Type::AnyPointer));
            if !supported {
                return Err(Error::Unsupported {
                    what: format!(
                        "$Rust.option on field `{}`: only on a text, data, list, struct, generic or AnyPointer field outside a union",
                        f.name
                    ),
                });
            }
        }
        let (offset, ty, default) = match &f.kind {
            FieldKind::Group { type_id } => return self.group_field(code, context, *type_id),
            FieldKind::Slot {
                offset,
                ty,
                default,
            } => (*offset as usize, self.resolve(ty), default),
        };
        match &ty {
            Type::Void => self.void_field(code, context),
            Type::Bool => self.bool_field(code, context, offset, default),
            Type::Enum(id) => self.enum_field(code, context, *id, offset, default)?,
            ty if !ty.is_pointer() => self.number_field(code, context, ty, offset, default)?,
            Type::Interface(id, brand) => {
                self.capability_field(code, context, offset, *id, brand)?
            }
            Type::AnyPointer => self.any_pointer_field(code, context, offset),
            ty => self.pointer_field(code, context, ty, offset, default)?,
        }
        Ok(())
    }

    /// The method names of field `f` of the struct being generated.
    pub(super) fn names_of(&self, f: &Field) -> FieldMethods {
        self.stems
            .borrow()
            .get(&f.name)
            .cloned()
            .unwrap_or_else(|| FieldMethods {
                stem: convert(f.spelling(), Case::Snake),
                bump: String::new(),
            })
    }

    /// The part of field `f`'s method names after `get_`, `set_`, `has_`
    /// and `init_`: its stem and any trailing underscores.
    pub(super) fn stem(&self, f: &Field) -> String {
        let names = self.names_of(f);
        names.stem + &names.bump
    }

    /// The forms of the methods field `f` gets (rule 3 of `names`): every
    /// field claims `get_`, `set_`, `has_` and `init_`, text its
    /// `get_*_bytes`, lists their bulk setters, capabilities their typed
    /// `get_*_client` and `set_*_client` (claimed with or without RPC
    /// code, so that names do not depend on the options).
    fn field_forms(&self, f: &Field) -> Vec<Form> {
        let mut forms = vec![("get_", ""), ("set_", ""), ("has_", ""), ("init_", "")];
        if let FieldKind::Slot { ty, .. } = &f.kind {
            match ty {
                Type::Text => forms.push(("get_", "_bytes")),
                Type::Interface(..) => {
                    forms.extend([("get_", "_client"), ("set_", "_client"), ("clear_", "")])
                }
                Type::Param { .. } => forms.push(("initn_", "")),
                Type::List(elem) => match **elem {
                    Type::Text | Type::Data => forms.push(("set_", "_from_iter")),
                    ref e if !e.is_pointer() && !matches!(e, Type::Void | Type::Enum(_)) => {
                        forms.push(("set_", "_from_slice"))
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        forms
    }

    /// The statement that writes the discriminant before a union member
    /// is set.
    fn set_discriminant(&self, s: &StructNode, f: &Field) -> Option<String> {
        f.discriminant
            .map(|v| format!("self.builder.set::<u16>({}, {v});", s.discriminant_offset))
    }
}

/// A function whose body is one expression: `#[inline]` when `inline`,
/// the signature, the body.
pub(super) fn short_fn(out: &mut Writer, inline: bool, signature: &str, body: &str) {
    if inline {
        out.line("#[inline]");
    }
    out.open_fn(signature);
    out.line(body);
    out.close();
}

/// `impl` with the generic parameters `bounds` (`, P: Owned, ...`).
fn impl_generics(bounds: &str) -> String {
    if bounds.is_empty() {
        "impl".to_string()
    } else {
        format!("impl<{}>", bounds.trim_start_matches(", "))
    }
}

/// `Owned` as a type, with the struct's generic parameters.
fn owned_use(generics: &Generics) -> String {
    if generics.list.is_empty() {
        "Owned".to_string()
    } else {
        format!("Owned<{}>", generics.list.trim_start_matches(", "))
    }
}
