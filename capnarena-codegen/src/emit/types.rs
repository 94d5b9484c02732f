//! How schema types are spelled in generated Rust: the `Owned` marker,
//! reader and builder types of pointer types, primitive types and
//! literals, generic arguments, and the bound on a type's complexity
//! above which clippy's `type_complexity` is allowed.

use std::fmt::Write as _;

use super::Generator;
use crate::Error;
use crate::model::*;
use crate::names::{Case, assign, type_param};

impl Generator<'_> {
    /// The generic parameters of node `id` and of the scopes around it,
    /// outermost first: (scope id, index, Rust type parameter name).
    pub(super) fn scope_params(&self, id: u64) -> Vec<(u64, u16, String)> {
        let mut chain = Vec::new();
        let mut cur = id;
        let mut guard = 0;
        while let Some(node) = self.schema.nodes.get(&cur) {
            if matches!(node.kind, NodeKind::File) || guard > 256 {
                break;
            }
            guard += 1;
            chain.push(node);
            cur = match self.implicit.get(&cur) {
                Some((iface, _)) if node.scope_id == 0 => *iface,
                _ => node.scope_id,
            };
        }
        let mut out: Vec<(u64, u16, String)> = Vec::new();
        for node in chain.iter().rev() {
            for (i, name) in node.parameters.iter().enumerate() {
                let taken: Vec<&str> = out.iter().map(|(_, _, n)| n.as_str()).collect();
                out.push((node.id, i as u16, type_param(name, &taken)));
            }
        }
        out
    }

    /// The Rust name of generic parameter (`scope`, `index`) where code is
    /// being generated, if it is in scope.
    pub(super) fn param(&self, scope: u64, index: u16) -> Option<String> {
        self.params
            .borrow()
            .iter()
            .find(|(s, i, _)| *s == scope && *i == index)
            .map(|(_, _, n)| n.clone())
    }

    /// The generic arguments of a use of struct `id` with `brand`, one
    /// per parameter of the struct and of its scopes (none for a struct
    /// that is not generic). As schema.capnp says: a scope the brand binds
    /// gives its bindings (an unbound one is `AnyPointer`), a scope it
    /// inherits gives the parameters in scope where the use is, and a
    /// scope it does not name is all `AnyPointer` (`Foo` named without
    /// parameters).
    pub(super) fn brand_arg_list(
        &self,
        id: u64,
        brand: &Brand,
        file: u64,
        depth: usize,
    ) -> Result<Vec<String>, Error> {
        let target = self.scope_params(id);
        let any = format!("{}::typed::AnyPointer", self.runtime);
        let mut args = Vec::new();
        for (scope, index, _) in &target {
            let bound = brand.0.iter().find(|(s, _)| s == scope);
            let arg = match bound {
                Some((_, Some(bindings))) => match bindings.get(usize::from(*index)) {
                    Some(Some(ty)) => self.owned_ty(ty, file, depth)?,
                    _ => any.clone(),
                },
                Some((_, None)) => self.param(*scope, *index).unwrap_or_else(|| any.clone()),
                None => any.clone(),
            };
            args.push(arg);
        }
        Ok(args)
    }

    /// `<A1, A2>`: [`Self::brand_arg_list`] as a generic argument list, or
    /// "" for a struct that is not generic.
    pub(super) fn brand_args(
        &self,
        id: u64,
        brand: &Brand,
        file: u64,
        depth: usize,
    ) -> Result<String, Error> {
        let args = self.brand_arg_list(id, brand, file, depth)?;
        Ok(if args.is_empty() {
            String::new()
        } else {
            format!("<{}>", args.join(", "))
        })
    }

    /// `ty` with generic parameters that are not in scope (a method's
    /// implicit parameters, or where generics are erased) made `AnyPointer`.
    pub(super) fn resolve(&self, ty: &Type) -> Type {
        match ty {
            Type::Param { scope, index } if self.param(*scope, *index).is_none() => {
                Type::AnyPointer
            }
            Type::List(e) => Type::List(Box::new(self.resolve(e))),
            other => other.clone(),
        }
    }

    /// A list type's marker name in `typed` and its element parameter.
    pub(super) fn list_parts(
        &self,
        elem: &Type,
        file: u64,
        depth: usize,
    ) -> Result<(&'static str, Option<String>), Error> {
        Ok(match elem {
            Type::Void => ("VoidList", None),
            Type::Bool => ("BoolList", None),
            Type::Enum(id) => ("EnumList", Some(self.path_to(*id, file, depth)?)),
            Type::Text => ("TextList", None),
            Type::Data => ("DataList", None),
            Type::Struct(..) => ("StructList", Some(self.owned_ty(elem, file, depth)?)),
            Type::Param { .. } if self.resolve(elem) != Type::AnyPointer => {
                ("ListList", Some(self.owned_ty(elem, file, depth)?))
            }
            Type::AnyPointer | Type::Interface(..) | Type::Param { .. } => ("AnyPointerList", None),
            Type::List(_) => ("ListList", Some(self.owned_ty(elem, file, depth)?)),
            prim => (
                "PrimitiveList",
                Some(self.primitive(prim, &Value::Void)?.0.to_string()),
            ),
        })
    }

    /// The [`Owned`] marker naming a pointer type.
    pub(super) fn owned_ty(&self, ty: &Type, file: u64, depth: usize) -> Result<String, Error> {
        let rt = &self.runtime;
        Ok(match ty {
            Type::Text => format!("{rt}::typed::Text"),
            Type::Data => format!("{rt}::typed::Data"),
            Type::Struct(id, brand) => format!(
                "{}::Owned{}",
                self.path_to(*id, file, depth)?,
                self.brand_args(*id, brand, file, depth)?
            ),
            Type::Param { scope, index } => self
                .param(*scope, *index)
                .unwrap_or_else(|| format!("{rt}::typed::AnyPointer")),
            Type::AnyPointer | Type::Interface(..) => format!("{rt}::typed::AnyPointer"),
            Type::List(e) => match self.list_parts(e, file, depth)? {
                (base, Some(arg)) => format!("{rt}::typed::{base}<{arg}>"),
                (base, None) => format!("{rt}::typed::{base}"),
            },
            other => return Err(not_a_pointer(other)),
        })
    }

    /// `path::Reader<'a, Args>` (`handle` is `Reader<'a` or
    /// `Builder<'b, A`) of struct `id` used with `brand`.
    fn struct_handle(
        &self,
        id: u64,
        brand: &Brand,
        handle: &str,
        file: u64,
        depth: usize,
    ) -> Result<String, Error> {
        let args: String = self
            .brand_arg_list(id, brand, file, depth)?
            .iter()
            .map(|a| format!(", {a}"))
            .collect();
        Ok(format!(
            "{}::{handle}{args}>",
            self.path_to(id, file, depth)?
        ))
    }

    /// The reader type of a pointer type, borrowing for `'a`.
    pub(super) fn reader_ty(&self, ty: &Type, file: u64, depth: usize) -> Result<String, Error> {
        let rt = &self.runtime;
        Ok(match ty {
            Type::Text => "&'a str".into(),
            Type::Data => "&'a [u8]".into(),
            Type::Struct(id, brand) => self.struct_handle(*id, brand, "Reader<'a", file, depth)?,
            Type::Param { scope, index } => match self.param(*scope, *index) {
                Some(p) => format!("<{p} as {rt}::typed::Owned>::Reader<'a>"),
                None => format!("{rt}::PointerReader<'a>"),
            },
            Type::AnyPointer => format!("{rt}::PointerReader<'a>"),
            Type::Interface(..) => "u32".into(),
            Type::List(e) => match self.list_parts(e, file, depth)? {
                (base, Some(arg)) => format!("{rt}::typed::{base}Reader<'a, {arg}>"),
                (base, None) => format!("{rt}::typed::{base}Reader<'a>"),
            },
            other => return Err(not_a_pointer(other)),
        })
    }

    /// The builder type of a pointer type, borrowing for `'b`.
    pub(super) fn builder_ty(&self, ty: &Type, file: u64, depth: usize) -> Result<String, Error> {
        let rt = &self.runtime;
        Ok(match ty {
            Type::Text => format!("{rt}::typed::TextBuilder<'b>"),
            Type::Data => "&'b mut [u8]".into(),
            Type::Struct(id, brand) => {
                self.struct_handle(*id, brand, "Builder<'b, A", file, depth)?
            }
            Type::Param { scope, index } => match self.param(*scope, *index) {
                Some(p) => format!("<{p} as {rt}::typed::Owned>::Builder<'b, A>"),
                None => format!("{rt}::PointerBuilder<'b, A>"),
            },
            Type::AnyPointer | Type::Interface(..) => format!("{rt}::PointerBuilder<'b, A>"),
            Type::List(e) => match self.list_parts(e, file, depth)? {
                (base, Some(arg)) => format!("{rt}::typed::{base}Builder<'b, A, {arg}>"),
                (base, None) => format!("{rt}::typed::{base}Builder<'b, A>"),
            },
            other => return Err(not_a_pointer(other)),
        })
    }

    /// The Rust type and literal of a primitive value.
    pub(super) fn primitive(
        &self,
        ty: &Type,
        value: &Value,
    ) -> Result<(&'static str, String), Error> {
        let bits = match value {
            Value::Int(v) => *v,
            Value::Float32(v) => u64::from(*v),
            Value::Float64(v) => *v,
            Value::Bool(b) => u64::from(*b),
            Value::Enum(v) => u64::from(*v),
            _ => 0,
        };
        Ok(match ty {
            Type::Bool => ("bool", format!("{}", bits != 0)),
            Type::Int8 => ("i8", format!("{}", bits as i8)),
            Type::Int16 => ("i16", format!("{}", bits as i16)),
            Type::Int32 => ("i32", format!("{}", bits as i32)),
            Type::Int64 => ("i64", format!("{}", bits as i64)),
            Type::UInt8 => ("u8", format!("{}", bits as u8)),
            Type::UInt16 => ("u16", format!("{}", bits as u16)),
            Type::UInt32 => ("u32", format!("{}", bits as u32)),
            Type::UInt64 => ("u64", format!("{bits}")),
            Type::Float32 => ("f32", format!("f32::from_bits({:#x})", bits as u32)),
            Type::Float64 => ("f64", format!("f64::from_bits({bits:#x})")),
            Type::Enum(_) => ("u16", format!("{}", bits as u16)),
            _ => {
                return Err(Error::Unsupported {
                    what: format!("a primitive of type {ty:?}"),
                });
            }
        })
    }

    pub(super) fn enumerant_name(&self, enum_id: u64, value: u16) -> Result<Option<String>, Error> {
        match &self.node(enum_id)?.kind {
            NodeKind::Enum(e) => Ok(enumerant_names(e).get(value as usize).cloned()),
            _ => Err(Error::MissingNode { id: enum_id }),
        }
    }

    /// Whether an accessor of a field of type `ty` may have a type over
    /// clippy's `type_complexity` threshold: its reader or builder type
    /// in a `Result`, as getters return them.
    pub(super) fn too_complex(&self, ty: &Type, file: u64, d: usize) -> Result<bool, Error> {
        let ty = self.resolve(ty);
        if !ty.is_pointer() {
            return Ok(false);
        }
        let rt = &self.runtime;
        let reader = format!("{rt}::Result<{}>", self.reader_ty(&ty, file, d)?);
        let builder = format!("{rt}::Result<{}>", self.builder_ty(&ty, file, d)?);
        Ok(complexity(&reader).max(complexity(&builder)) > COMPLEX_SCORE)
    }
}

/// The error for a type used as a pointer that is not one.
fn not_a_pointer(ty: &Type) -> Error {
    Error::Unsupported {
        what: format!("a pointer of type {ty:?}"),
    }
}

/// The Rust variant names of an enum's enumerants, by the naming rule.
pub(super) fn enumerant_names(enumerants: &[Enumerant]) -> Vec<String> {
    let spelled: Vec<(&str, Case)> = enumerants
        .iter()
        .map(|e| (e.spelling(), Case::Pascal))
        .collect();
    assign(&spelled, &[])
}

/// An upper bound of clippy's `type_complexity` score of the Rust type
/// `ty` (as generated code spells it): clippy adds 10 times the nesting
/// level for each path, slice, tuple or array, one nesting level per
/// generic argument list. Every identifier of a path, a qualified path's
/// parts and `as` count here too, so the score is never below clippy's.
pub(super) fn complexity(ty: &str) -> usize {
    let bytes = ty.as_bytes();
    let (mut score, mut nest, mut in_path) = (0usize, 1usize, false);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\'' {
            // A lifetime: skip its name.
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            if !in_path {
                score += 10 * nest;
                in_path = true;
            }
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if bytes.get(i..i + 2) != Some(b"::") {
                in_path = false;
            }
            continue;
        }
        match c {
            b'<' => nest += 1,
            b'>' => nest = nest.saturating_sub(1).max(1),
            b'[' | b'(' => {
                score += 10 * nest;
                nest += 1;
            }
            b']' | b')' => nest = nest.saturating_sub(1).max(1),
            b':' => {}
            _ => in_path = false,
        }
        i += 1;
    }
    score
}

/// clippy's `type_complexity` threshold is 250; an accessor whose type
/// may score above this allows the lint (the bound has a margin).
pub(super) const COMPLEX_SCORE: usize = 200;

/// The pieces of generated code that carry a struct's generic parameters;
/// all empty for a struct that is not generic.
pub(super) struct Generics {
    /// `, P1, P2`: the parameters, to follow `'a` or `A`.
    pub(super) list: String,
    /// `, P1: Owned, P2: Owned`.
    pub(super) bounds: String,
    /// `, P1: Owned = AnyPointer, ...`.
    pub(super) defaults: String,
    /// `P1, P2,`: the tuple inside the phantom marker.
    pub(super) tuple: String,
    /// `, marker: PhantomData`: the field that goes with the handle.
    pub(super) marker: String,
}

/// `&[&[Word, ...]]`: a static one-segment message of `words`.
pub(super) fn hex_words(words: &[u64], runtime: &str) -> String {
    let mut s = String::from("&[&[");
    for w in words {
        let _ = write!(s, "{runtime}::Word::from_u64({w:#018x}),");
    }
    s.push_str("]]");
    s
}

/// The words of a one-segment message whose root is the text `bytes`:
/// a list pointer to byte elements (the bytes and the NUL terminator),
/// then the bytes padded to a word.
pub(super) fn text_words(bytes: &[u8]) -> Vec<u64> {
    let len = bytes.len() as u64 + 1;
    // Offset 0, element size 2 (one byte), count `len`.
    let mut words = vec![1 | (2 << 32) | (len << 35)];
    for chunk in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        words.push(u64::from_le_bytes(w));
    }
    if bytes.len() % 8 == 0 {
        words.push(0);
    }
    words
}

impl Generics {
    /// The pieces for `params` (scope, index, name), in the runtime at
    /// path `runtime`.
    pub(super) fn new(params: &[(u64, u16, String)], runtime: &str) -> Self {
        let mut g = Generics {
            list: String::new(),
            bounds: String::new(),
            defaults: String::new(),
            tuple: String::new(),
            marker: String::new(),
        };
        for (_, _, p) in params {
            let _ = write!(g.list, ", {p}");
            let _ = write!(g.bounds, ", {p}: {runtime}::typed::Owned");
            let _ = write!(
                g.defaults,
                ", {p}: {runtime}::typed::Owned = {runtime}::typed::AnyPointer"
            );
            let _ = write!(g.tuple, "{p},");
        }
        if !params.is_empty() {
            g.marker = ", marker: ::core::marker::PhantomData".into();
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The complexity bound passes the allow threshold for a type clippy
    /// flagged (a getter of `List(List(List(Entry(K, V))))` in
    /// capnproto-java's test.capnp) and stays low for plain types.
    #[test]
    pub(super) fn complexity_bounds_clippys_score() {
        let flagged = "::capnarena::Result<::capnarena::typed::ListListReader<'a, \
            ::capnarena::typed::ListList<::capnarena::typed::StructList<\
            super::generic_map::entry::Owned<K, V>>>>>";
        assert!(
            complexity(flagged) > COMPLEX_SCORE,
            "{}",
            complexity(flagged)
        );
        assert_eq!(complexity("::capnarena::Result<&'a str>"), 10 + 20);
        assert!(complexity("::capnarena::Result<super::point::Reader<'a>>") < COMPLEX_SCORE);
    }
}
