//! Values and constants: expressions evaluated into the values the
//! request carries (constants, field defaults, annotation values), in the
//! encoding the request needs.
//!
//! This reproduces the reference's `ValueTranslator` and
//! `compileBootstrapValue` (node-translator.c++, v0.9.2): a primitive value
//! is evaluated when its declaration is translated; a pointer value (text,
//! data, list, struct) is deferred, as the reference compiles it only
//! against the final schemas, and evaluated when the request is assembled
//! ([`Compilation::resolve_pending_values`]). Numbers are range-checked
//! into their type, names are enumerants, keywords or constants (whose
//! copies count against [`limits::MAX_COPIED_WORDS`]), struct values are
//! laid out by the struct's node with each field XORed with its default,
//! and the messages are the reference's.

use std::collections::HashMap;

use super::decls::{DeclTarget, NodeIndex};
use super::generics::{BrandedDecl, NO_IMPLICIT_PARAMS, subst};
use super::{Compilation, NodeKindTag, display_prefix_len, expr_string};
use crate::ast::*;
use crate::limits;
use crate::schema::*;

/// A pointer value whose evaluation is deferred (see the module doc); a
/// [`Value::Pending`] holds its index in the compilation's list.
pub(super) struct PendingValue<'a> {
    /// The file it is written in.
    file: usize,
    /// The expression.
    expr: &'a Expr,
    /// The type it must have.
    ty: Type,
    /// The node whose scope its names are looked up in.
    scope: NodeIndex,
}

/// Where a struct keeps a field of some type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// Nowhere: `Void` takes no space.
    Nothing,
    /// In the data section, 2^`log2_bits` bits wide (`Bool` 0, 8-bit
    /// types 3, ... 64-bit types 6).
    Data {
        /// The base-2 log of the width in bits.
        log2_bits: u32,
    },
    /// In the pointer section.
    Pointer,
}

/// Where a struct keeps a field of type `t`.
pub(super) fn slot_of(t: &Type) -> Slot {
    let log2_bits = match t {
        Type::Void => return Slot::Nothing,
        Type::Bool => 0,
        Type::Int8 | Type::UInt8 => 3,
        Type::Int16 | Type::UInt16 | Type::Enum(..) => 4,
        Type::Int32 | Type::UInt32 | Type::Float32 => 5,
        Type::Int64 | Type::UInt64 | Type::Float64 => 6,
        _ => return Slot::Pointer,
    };
    Slot::Data { log2_bits }
}

/// The value a field of type `t` has when it declares no default (the
/// reference's `compileDefaultDefaultValue`): zero, false, or a null
/// pointer.
pub(super) fn zero_value(t: &Type) -> Value {
    match t {
        Type::Void => Value::Void,
        Type::Bool => Value::Bool(false),
        Type::Int8 => Value::Int8(0),
        Type::Int16 => Value::Int16(0),
        Type::Int32 => Value::Int32(0),
        Type::Int64 => Value::Int64(0),
        Type::UInt8 => Value::UInt8(0),
        Type::UInt16 => Value::UInt16(0),
        Type::UInt32 => Value::UInt32(0),
        Type::UInt64 => Value::UInt64(0),
        Type::Float32 => Value::Float32(0.0),
        Type::Float64 => Value::Float64(0.0),
        Type::Text => Value::Text(None),
        Type::Data => Value::Data(None),
        Type::List(_) => Value::List(None),
        Type::Enum(..) => Value::Enum(0),
        Type::Struct(..) => Value::Struct(None),
        Type::Interface(..) => Value::Interface,
        Type::AnyPointer(_) => Value::AnyPointer(None),
    }
}

/// Whether `t` is stored in a struct's pointer section.
pub(super) fn is_pointer_type(t: &Type) -> bool {
    slot_of(t) == Slot::Pointer
}

/// Whether a constant list of type `a` may be used where `b` is wanted:
/// only when the types are the same.
fn list_compatible(a: &Type, b: &Type) -> bool {
    a == b
}

/// Integer `v` (already range-checked) as a value of numeric type `t`.
fn int_value_of_type(t: &Type, v: i128) -> Value {
    match t {
        Type::Int8 => Value::Int8(v as i8),
        Type::Int16 => Value::Int16(v as i16),
        Type::Int32 => Value::Int32(v as i32),
        Type::Int64 => Value::Int64(v as i64),
        Type::UInt8 => Value::UInt8(v as u8),
        Type::UInt16 => Value::UInt16(v as u16),
        Type::UInt32 => Value::UInt32(v as u32),
        Type::UInt64 => Value::UInt64(v as u64),
        Type::Float32 => Value::Float32(v as f32),
        _ => Value::Float64(v as f64),
    }
}

/// An integer value's number (0 for any other value).
fn integer_of(v: &Value) -> i128 {
    match v {
        Value::Int8(x) => *x as i128,
        Value::Int16(x) => *x as i128,
        Value::Int32(x) => *x as i128,
        Value::Int64(x) => *x as i128,
        Value::UInt8(x) => *x as i128,
        Value::UInt16(x) => *x as i128,
        Value::UInt32(x) => *x as i128,
        Value::UInt64(x) => *x as i128,
        _ => 0,
    }
}

/// The little-endian bytes of a primitive value (8 bytes, zero-padded).
fn primitive_bytes(v: &Value) -> [u8; 8] {
    let mut b = [0u8; 8];
    match v {
        Value::Bool(x) => b[0] = *x as u8,
        Value::Int8(x) => b[..1].copy_from_slice(&x.to_le_bytes()),
        Value::Int16(x) => b[..2].copy_from_slice(&x.to_le_bytes()),
        Value::Int32(x) => b[..4].copy_from_slice(&x.to_le_bytes()),
        Value::Int64(x) => b.copy_from_slice(&x.to_le_bytes()),
        Value::UInt8(x) => b[0] = *x,
        Value::UInt16(x) | Value::Enum(x) => b[..2].copy_from_slice(&x.to_le_bytes()),
        Value::UInt32(x) => b[..4].copy_from_slice(&x.to_le_bytes()),
        Value::UInt64(x) => b.copy_from_slice(&x.to_le_bytes()),
        Value::Float32(x) => b[..4].copy_from_slice(&x.to_bits().to_le_bytes()),
        Value::Float64(x) => b.copy_from_slice(&x.to_bits().to_le_bytes()),
        _ => {}
    }
    b
}

/// About how many words `v` takes encoded (one per pointer, the data and
/// byte lists rounded up), and how deeply its pointers nest; walked with a
/// heap stack.
fn value_size(v: &Value) -> (u64, u32) {
    let root = match v {
        Value::Text(Some(t)) => return (1 + (t.len() as u64 + 8) / 8, 1),
        Value::Data(Some(d)) => return (1 + (d.len() as u64).div_ceil(8), 1),
        Value::List(Some(p)) | Value::Struct(Some(p)) | Value::AnyPointer(Some(p)) => p,
        _ => return (1, 0),
    };
    let mut words = 0u64;
    let mut deepest = 0u32;
    let mut stack = vec![(root, 1u32)];
    let mut add = |n: u64| words = words.saturating_add(n);
    while let Some((p, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        let d = depth.saturating_add(1);
        add(1);
        match p {
            Ptr::Text(t) => add((t.len() as u64 + 8) / 8),
            Ptr::Data(d) | Ptr::Message(d) => add((d.len() as u64).div_ceil(8)),
            Ptr::Struct(s) => {
                add((s.data.len() as u64).div_ceil(8));
                stack.extend(s.ptrs.iter().flatten().map(|p| (p, d)));
            }
            Ptr::List(l) => match l {
                ListVal::Void(_) => {}
                ListVal::Bits(b) => add((b.len() as u64).div_ceil(64)),
                ListVal::Bytes { data, .. } => add((data.len() as u64).div_ceil(8)),
                ListVal::Pointers(ps) => stack.extend(ps.iter().flatten().map(|p| (p, d))),
                ListVal::Structs { elems, .. } => {
                    for s in elems {
                        add((s.data.len() as u64).div_ceil(8));
                        add(s.ptrs.len() as u64);
                        stack.extend(s.ptrs.iter().flatten().map(|p| (p, d)));
                    }
                }
            },
        }
    }
    (words, deepest)
}

/// The pointer a pointer value encodes to (None: null, or not a
/// pointer value).
fn value_pointer(v: Value) -> Option<Ptr> {
    match v {
        Value::Text(t) => t.map(Ptr::Text),
        Value::Data(d) => d.map(Ptr::Data),
        Value::List(p) | Value::Struct(p) | Value::AnyPointer(p) => p,
        _ => None,
    }
}

/// Copies `bytes` into `data` at byte `at`, when they fit (a struct value
/// is sized by its node, so they always do).
fn write_bytes(data: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(dst) = data.get_mut(at..at + bytes.len()) {
        dst.copy_from_slice(bytes);
    }
}

/// Stores `v` in a struct value's slot of type `ty` at `offset`, XORed
/// with the field's default as the encoding requires.
fn store_value(sv: &mut StructVal, offset: u32, ty: &Type, v: &Value, default: &Value) {
    match slot_of(ty) {
        Slot::Nothing => {}
        Slot::Pointer => {
            if let Some(p) = sv.ptrs.get_mut(offset as usize) {
                *p = value_pointer(v.clone());
            }
        }
        Slot::Data { log2_bits: 0 } => {
            let bit = offset as usize;
            let on = matches!(v, Value::Bool(true)) != matches!(default, Value::Bool(true));
            if let Some(byte) = sv.data.get_mut(bit / 8) {
                if on {
                    *byte |= 1 << (bit % 8);
                } else {
                    *byte &= !(1 << (bit % 8));
                }
            }
        }
        Slot::Data { log2_bits } => {
            let w = (1usize << log2_bits) / 8;
            let a = primitive_bytes(v);
            let d = primitive_bytes(default);
            let x: Vec<u8> = a.iter().zip(d.iter()).map(|(a, b)| a ^ b).take(w).collect();
            write_bytes(&mut sv.data, offset as usize * w, &x);
        }
    }
}

impl<'a> Compilation<'a> {
    /// A value for a slot or constant of type `ty` (the reference's
    /// `compileBootstrapValue`): primitives now, pointers deferred to
    /// [`Compilation::resolve_pending_values`] (they may need the layout
    /// of other structs).
    pub(super) fn bootstrap_value(&self, scope: NodeIndex, e: &'a Expr, ty: &Type) -> Value {
        if is_pointer_type(ty) {
            let mut p = self.pending_values.borrow_mut();
            p.push(PendingValue {
                file: self.nodes[scope].file,
                expr: e,
                ty: ty.clone(),
                scope,
            });
            return Value::Pending(p.len() - 1);
        }
        self.eval(scope, e, ty).unwrap_or_else(|| zero_value(ty))
    }

    /// The value of pending value `i`, evaluated once (memoized by its
    /// index); a value that needs itself is an error.
    fn evaluate_pending(&self, i: usize) -> Option<Value> {
        if let Some(v) = self.evaluated_values.borrow().get(&i) {
            return v.clone();
        }
        let (file, scope, expr, ty) = {
            let p = self.pending_values.borrow();
            let pv = &p[i];
            (pv.file, pv.scope, pv.expr, pv.ty.clone())
        };
        let v = self.without_cycles(file, expr.span, &self.values_in_progress, i, || {
            self.eval(scope, expr, &ty)
        })?;
        self.evaluated_values.borrow_mut().insert(i, v.clone());
        v
    }

    /// Replaces every deferred value in `node` with its evaluation.
    pub(super) fn resolve_pending_values(&self, node: &mut Node) {
        let fix = |v: &mut Value| {
            if let Value::Pending(i) = v {
                let i = *i;
                let ty_default = {
                    let p = self.pending_values.borrow();
                    zero_value(&p[i].ty)
                };
                *v = self.evaluate_pending(i).unwrap_or(ty_default);
            }
        };
        let fix_anns = |a: &mut Option<Vec<Annotation>>| {
            if let Some(a) = a {
                for x in a {
                    fix(&mut x.value);
                }
            }
        };
        fix_anns(&mut node.annotations);
        match &mut node.kind {
            NodeKind::Struct(s) => {
                if let Some(fs) = &mut s.fields {
                    for f in fs {
                        fix_anns(&mut f.annotations);
                        if let FieldKind::Slot { default, .. } = &mut f.kind {
                            fix(default);
                        }
                    }
                }
            }
            NodeKind::Enum(es) => es.iter_mut().for_each(|e| fix_anns(&mut e.annotations)),
            NodeKind::Interface { methods, .. } => methods
                .iter_mut()
                .for_each(|m| fix_anns(&mut m.annotations)),
            NodeKind::Const { value, .. } => fix(value),
            _ => {}
        }
    }

    /// The ordinal of the first enumerant named `name` in enum `id`, from
    /// an index built on the enum's first use.
    pub(super) fn enumerant(&self, id: u64, name: &str) -> Option<u16> {
        if let Some(index) = self.enumerants.borrow().get(&id) {
            return index.get(name).copied();
        }
        let node = self.node_by_id(id)?;
        let NodeKind::Enum(es) = &node.kind else {
            return None;
        };
        let mut index = HashMap::new();
        for (i, e) in es.iter().enumerate() {
            index.entry(e.name.clone()).or_insert(i as u16);
        }
        let found = index.get(name).copied();
        self.enumerants.borrow_mut().insert(id, index);
        found
    }

    /// A type's name in messages, as the reference's `makeTypeName`
    /// writes it (a declaration's name without its scope).
    pub(super) fn type_name(&self, t: &Type) -> String {
        match t {
            Type::Void => "Void".into(),
            Type::Bool => "Bool".into(),
            Type::Int8 => "Int8".into(),
            Type::Int16 => "Int16".into(),
            Type::Int32 => "Int32".into(),
            Type::Int64 => "Int64".into(),
            Type::UInt8 => "UInt8".into(),
            Type::UInt16 => "UInt16".into(),
            Type::UInt32 => "UInt32".into(),
            Type::UInt64 => "UInt64".into(),
            Type::Float32 => "Float32".into(),
            Type::Float64 => "Float64".into(),
            Type::Text => "Text".into(),
            Type::Data => "Data".into(),
            Type::List(e) => format!("List({})", self.type_name(e)),
            Type::Enum(id, _) | Type::Struct(id, _) | Type::Interface(id, _) => self
                .index_by_id
                .get(id)
                .map(|&i| {
                    let d = &self.nodes[i].display;
                    d[display_prefix_len(d) as usize..].to_string()
                })
                .unwrap_or_default(),
            Type::AnyPointer(_) => "AnyPointer".into(),
        }
    }

    /// The error for a value `e` that is not of type `t`.
    fn mismatch(&self, file: usize, e: &Expr, t: &Type) {
        self.error(
            file,
            e.span,
            format!("Type mismatch; expected {}.", self.type_name(t)),
        );
    }

    /// The value of `e` as type `t`, its names looked up in node `scope`,
    /// one level deeper in the recursion (see [`enter`](Self::enter)).
    fn eval(&self, scope: NodeIndex, e: &'a Expr, t: &Type) -> Option<Value> {
        if !self.enter(self.nodes[scope].file, e.span) {
            return None;
        }
        let v = self.eval_unchecked(scope, e, t);
        self.leave();
        v
    }

    /// [`eval`](Self::eval) without the depth check (the reference's
    /// `ValueTranslator::compileValueInner`): one step per kind of
    /// expression. A value for an unbound generic parameter cannot be
    /// compiled.
    fn eval_unchecked(&self, scope: NodeIndex, e: &'a Expr, t: &Type) -> Option<Value> {
        let file = self.nodes[scope].file;
        if let Type::AnyPointer(
            AnyPointer::Parameter { .. } | AnyPointer::ImplicitMethodParameter(_),
        ) = t
        {
            self.error(file, e.span, "Cannot interpret value because the type is a generic type parameter which is not yet bound. We don't know what type to expect here.".into());
            return None;
        }
        match &e.kind {
            ExprKind::RelativeName(n) => self.eval_relative_name(scope, e, n, t),
            ExprKind::AbsoluteName(_)
            | ExprKind::Import(_)
            | ExprKind::Application { .. }
            | ExprKind::Member { .. } => self.constant(scope, e, t),
            ExprKind::Embed(f) => self.eval_embed(file, e, f, t),
            ExprKind::PositiveInt(v) => self.coerce_uint(file, e, t, *v),
            ExprKind::NegativeInt(v) => {
                if *v > (1u64 << 63) {
                    self.error(file, e.span, "Integer is too big to be negative.".into());
                    return None;
                }
                let x = (*v as i64).wrapping_neg();
                if x >= 0 {
                    return self.coerce_uint(file, e, t, x as u64);
                }
                self.coerce_int(file, e, t, x)
            }
            ExprKind::Float(f) => self.coerce_float(file, e, t, *f),
            ExprKind::String(s) => match t {
                Type::Text => Some(Value::Text(Some(s.clone()))),
                Type::Data => Some(Value::Data(Some(s.clone()))),
                _ => {
                    self.mismatch(file, e, t);
                    None
                }
            },
            ExprKind::Binary(b) => match t {
                Type::Data => Some(Value::Data(Some(b.clone()))),
                _ => {
                    self.mismatch(file, e, t);
                    None
                }
            },
            ExprKind::List(items) => self.eval_list(scope, e, items, t),
            ExprKind::Tuple(ps) => self.eval_struct(scope, e, ps, t),
        }
    }

    /// A bare name as a value: an enumerant when an enum is expected,
    /// else one of the keywords `void`, `true`, `false`, `nan`, `inf`,
    /// else a constant.
    fn eval_relative_name(
        &self,
        scope: NodeIndex,
        e: &'a Expr,
        name: &Located<String>,
        t: &Type,
    ) -> Option<Value> {
        let file = self.nodes[scope].file;
        if let Type::Enum(id, _) = t {
            if let Some(i) = self.enumerant(*id, &name.value) {
                return Some(Value::Enum(i));
            }
        } else {
            match name.value.as_str() {
                "void" => return self.coerce_void(file, e, t),
                "true" | "false" => {
                    if *t == Type::Bool {
                        return Some(Value::Bool(name.value == "true"));
                    }
                    self.mismatch(file, e, t);
                    return None;
                }
                "nan" => return self.coerce_float(file, e, t, f64::NAN),
                "inf" => return self.coerce_float(file, e, t, f64::INFINITY),
                _ => {}
            }
        }
        self.constant(scope, e, t)
    }

    /// `embed "path"`: the file's bytes as Text or Data, or as a struct
    /// when they are a valid message.
    fn eval_embed(&self, file: usize, e: &Expr, path: &Located<String>, t: &Type) -> Option<Value> {
        let bytes = match self.files[file].embeds.get(&path.value) {
            Some(Ok(b)) => b.as_ref().clone(),
            Some(Err(error)) => {
                self.error(
                    file,
                    path.span,
                    error.message("Couldn't read file for embed", &path.value),
                );
                return None;
            }
            None => {
                self.error(
                    file,
                    path.span,
                    format!("Couldn't read file for embed: {}", path.value),
                );
                return None;
            }
        };
        match t {
            Type::Text => Some(Value::Text(Some(bytes))),
            Type::Data => Some(Value::Data(Some(bytes))),
            Type::Struct(..) => {
                let ok = capnarena::words_from_bytes(&bytes)
                    .and_then(|words| {
                        capnarena::MessageReader::from_words(&words, crate::emit::embed_options())
                            .and_then(|r| r.root().map(|_| ()))
                    })
                    .is_ok();
                if !ok {
                    self.error(
                        file,
                        e.span,
                        "Embedded file is not a valid Cap'n Proto message.".into(),
                    );
                    return None;
                }
                Some(Value::Struct(Some(Ptr::Message(bytes))))
            }
            _ => {
                self.error(
                    file,
                    e.span,
                    "Embeds can only be used when Text, Data, or a struct is expected.".into(),
                );
                None
            }
        }
    }

    /// `[a, b, ...]` as a list of type `t`; an element that does not
    /// evaluate is left zero.
    fn eval_list(&self, scope: NodeIndex, e: &Expr, items: &'a [Expr], t: &Type) -> Option<Value> {
        let Type::List(et) = t else {
            self.mismatch(self.nodes[scope].file, e, t);
            return None;
        };
        let vals: Vec<Value> = items
            .iter()
            .map(|i| self.eval(scope, i, et).unwrap_or_else(|| zero_value(et)))
            .collect();
        Some(Value::List(Some(Ptr::List(self.list_value(et, vals)))))
    }

    /// `(name = value, ...)` as a struct of type `t`, laid out as the
    /// struct's node says.
    fn eval_struct(&self, scope: NodeIndex, e: &Expr, ps: &'a [Param], t: &Type) -> Option<Value> {
        let Type::Struct(id, brand) = t else {
            self.mismatch(self.nodes[scope].file, e, t);
            return None;
        };
        let node = self.node_by_id(*id)?;
        let NodeKind::Struct(s) = &node.kind else {
            return None;
        };
        let mut sv = StructVal {
            data: vec![0; s.data_words as usize * 8],
            ptrs: vec![None; s.pointers as usize],
        };
        self.fill_struct_value(scope, &node, &mut sv, ps, brand);
        Some(Value::Struct(Some(Ptr::Struct(sv))))
    }

    /// Sets the fields `ps` (`name = value`) of struct value `sv` laid out
    /// as `node` (a struct or group), its generic fields' types seen
    /// through `brand`; a member of a union also sets the discriminant.
    fn fill_struct_value(
        &self,
        scope: NodeIndex,
        node: &Node,
        sv: &mut StructVal,
        ps: &'a [Param],
        brand: &Option<Brand>,
    ) {
        let file = self.nodes[scope].file;
        let NodeKind::Struct(s) = &node.kind else {
            return;
        };
        for p in ps {
            let Some(name) = &p.name else {
                self.error(file, p.value.span, "Missing field name.".into());
                continue;
            };
            let Some(f) = s.fields.iter().flatten().find(|f| f.name == name.value) else {
                self.error(
                    file,
                    name.span,
                    format!("Struct has no field named '{}'.", name.value),
                );
                continue;
            };
            if f.discriminant_value != 0xffff {
                write_bytes(
                    &mut sv.data,
                    s.discriminant_offset as usize * 2,
                    &f.discriminant_value.to_le_bytes(),
                );
            }
            match &f.kind {
                FieldKind::Slot {
                    offset,
                    ty,
                    default,
                    ..
                } => {
                    let ty = subst(ty, brand);
                    let Some(v) = self.eval(scope, &p.value, &ty) else {
                        continue;
                    };
                    store_value(sv, *offset, &ty, &v, default);
                }
                FieldKind::Group(gid) => {
                    if let ExprKind::Tuple(inner) = &p.value.kind {
                        if let Some(g) = self.node_by_id(*gid) {
                            self.fill_struct_value(scope, &g, sv, inner, brand);
                        }
                    } else {
                        self.error(file, p.value.span, "Type mismatch; expected group.".into());
                    }
                }
            }
        }
    }

    /// Elements `vals` of type `et` encoded as a list value: bits, bytes of
    /// the element's width, pointers, or structs of the element struct's
    /// size.
    fn list_value(&self, et: &Type, vals: Vec<Value>) -> ListVal {
        let n = vals.len();
        match et {
            Type::Void => ListVal::Void(n as u32),
            Type::Bool => ListVal::Bits(
                vals.iter()
                    .map(|v| matches!(v, Value::Bool(true)))
                    .collect(),
            ),
            Type::Struct(id, _) => {
                let (dw, pc) = match self.node_by_id(*id).map(|n| n.kind.clone()) {
                    Some(NodeKind::Struct(s)) => (s.data_words, s.pointers),
                    _ => (0, 0),
                };
                let elems = vals
                    .into_iter()
                    .map(|v| match v {
                        Value::Struct(Some(Ptr::Struct(s))) => s,
                        _ => StructVal {
                            data: vec![0; dw as usize * 8],
                            ptrs: vec![None; pc as usize],
                        },
                    })
                    .collect();
                ListVal::Structs {
                    data_words: dw,
                    pointers: pc,
                    elems,
                }
            }
            t if is_pointer_type(t) => {
                ListVal::Pointers(vals.into_iter().map(value_pointer).collect())
            }
            t => {
                // A number or enum: Void, Bool and pointers are above.
                let w = match slot_of(t) {
                    Slot::Data { log2_bits } => (1usize << log2_bits) / 8,
                    Slot::Nothing | Slot::Pointer => 0,
                };
                let mut data = Vec::with_capacity(n * w);
                for v in &vals {
                    data.extend_from_slice(&primitive_bytes(v)[..w]);
                }
                ListVal::Bytes {
                    width: w as u8,
                    data,
                }
            }
        }
    }

    /// `void` as a value of type `t`.
    fn coerce_void(&self, file: usize, e: &Expr, t: &Type) -> Option<Value> {
        if *t == Type::Void {
            return Some(Value::Void);
        }
        self.mismatch(file, e, t);
        None
    }

    /// Float `f` as a value of type `t` (Float32 or Float64).
    fn coerce_float(&self, file: usize, e: &Expr, t: &Type, f: f64) -> Option<Value> {
        match t {
            Type::Float32 => Some(Value::Float32(f as f32)),
            Type::Float64 => Some(Value::Float64(f)),
            _ => {
                self.mismatch(file, e, t);
                None
            }
        }
    }

    /// Negative integer `v` as a value of numeric type `t`; below the
    /// type's minimum, an error and the minimum.
    fn coerce_int(&self, file: usize, e: &Expr, t: &Type, v: i64) -> Option<Value> {
        let min: i64 = match t {
            Type::Int8 => i8::MIN as i64,
            Type::Int16 => i16::MIN as i64,
            Type::Int32 => i32::MIN as i64,
            Type::Int64 | Type::Float32 | Type::Float64 => i64::MIN,
            Type::UInt8 | Type::UInt16 | Type::UInt32 | Type::UInt64 => 0,
            _ => {
                self.mismatch(file, e, t);
                return None;
            }
        };
        let mut v = v;
        if v < min {
            self.error(file, e.span, "Integer value out of range.".into());
            v = min;
        }
        Some(int_value_of_type(t, v as i128))
    }

    /// Non-negative integer `v` as a value of numeric type `t`; above
    /// the type's maximum, an error and the maximum.
    fn coerce_uint(&self, file: usize, e: &Expr, t: &Type, v: u64) -> Option<Value> {
        let max: u64 = match t {
            Type::Int8 => i8::MAX as u64,
            Type::Int16 => i16::MAX as u64,
            Type::Int32 => i32::MAX as u64,
            Type::Int64 => i64::MAX as u64,
            Type::UInt8 => u8::MAX as u64,
            Type::UInt16 => u16::MAX as u64,
            Type::UInt32 => u32::MAX as u64,
            Type::UInt64 | Type::Float32 | Type::Float64 => u64::MAX,
            _ => {
                self.mismatch(file, e, t);
                return None;
            }
        };
        let mut v = v;
        if v > max {
            self.error(file, e.span, "Integer value out of range.".into());
            v = max;
        }
        Some(int_value_of_type(t, v as i128))
    }

    /// A reference to a constant used as a value of type `t` (the
    /// reference's `readConstant`): the constant's value, counted against
    /// the copy limits and checked against `t`. An unqualified name is an
    /// error, as in the reference.
    pub(super) fn constant(&self, scope: NodeIndex, e: &'a Expr, t: &Type) -> Option<Value> {
        let file = self.nodes[scope].file;
        let ci = self.constant_node(scope, e)?;
        let tr = self.translate(ci)?;
        let NodeKind::Const { ty: cty, value } = &tr.node.kind else {
            return None;
        };
        let value = match value {
            Value::Pending(i) => self.evaluate_pending(*i)?,
            v => v.clone(),
        };
        if !self.charge_copy(file, e, &value) {
            return None;
        }
        if let ExprKind::RelativeName(n) = &e.kind {
            let parent = self.nodes[ci].parent.unwrap_or(ci);
            let pn = &self.nodes[parent];
            let prefix = if pn.kind == NodeKindTag::File {
                String::new()
            } else {
                pn.display[display_prefix_len(&pn.display) as usize..].to_string()
            };
            self.error(file, e.span, format!("Constant names must be qualified to avoid confusion.  Please replace '{}' with '{}.{}', if that's what you intended.", n.value, prefix, n.value));
        }
        self.recheck_constant(file, e, value, cty, t)
    }

    /// The node of the constant expression `e` names; an error when it
    /// names something else.
    fn constant_node(&self, scope: NodeIndex, e: &Expr) -> Option<NodeIndex> {
        let file = self.nodes[scope].file;
        let brand = self.local_brand(scope);
        let d = self.compile_decl_expr(scope, &brand, e, &NO_IMPLICIT_PARAMS)?;
        match d {
            BrandedDecl::Decl {
                target: DeclTarget::Node(ci),
                ..
            } if self.nodes[ci].kind == NodeKindTag::Const => Some(ci),
            _ => {
                self.error(
                    file,
                    e.span,
                    format!("'{}' does not refer to a constant.", expr_string(e)),
                );
                None
            }
        }
    }

    /// Counts a copy of constant value `value` against the limits: the
    /// depth it lands at and the words copied so far. False (and an
    /// error) when a limit is passed.
    fn charge_copy(&self, file: usize, e: &Expr, value: &Value) -> bool {
        // Every copy of a constant into another value counts against one
        // budget: constants that copy the one before twice would double
        // on each line.
        let (words, depth) = value_size(value);
        // The copy lands this deep in the value being built: writing it
        // out recurses once per level.
        if depth.saturating_add(self.recursion_depth.get()) > limits::MAX_RECURSION {
            self.error(
                file,
                e.span,
                format!(
                    "Copying this constant, {depth} pointers deep, nests the value more than {} levels deep (limits::MAX_RECURSION).",
                    limits::MAX_RECURSION
                ),
            );
            return false;
        }
        let total = self.copied_words.get().saturating_add(words);
        if total > limits::MAX_COPIED_WORDS {
            self.error(
                file,
                e.span,
                format!(
                    "Constants copied into other values come to {total} words here, more than the limit of {} words (limits::MAX_COPIED_WORDS).",
                    limits::MAX_COPIED_WORDS
                ),
            );
            return false;
        }
        self.copied_words.set(total);
        true
    }

    /// A constant's `value` (of type `cty`) re-checked against the wanted
    /// type `t`: numbers are converted when they fit, a struct or list
    /// may become an AnyPointer, anything else must match.
    fn recheck_constant(
        &self,
        file: usize,
        e: &Expr,
        value: Value,
        cty: &Type,
        t: &Type,
    ) -> Option<Value> {
        match (&value, t) {
            (_, _) if cty == t => Some(value),
            (
                Value::Int8(_)
                | Value::Int16(_)
                | Value::Int32(_)
                | Value::Int64(_)
                | Value::UInt8(_)
                | Value::UInt16(_)
                | Value::UInt32(_)
                | Value::UInt64(_),
                _,
            ) => {
                let x = integer_of(&value);
                if x < 0 {
                    self.coerce_int(file, e, t, x as i64)
                } else {
                    self.coerce_uint(file, e, t, x as u64)
                }
            }
            (Value::Float32(f), Type::Float32 | Type::Float64) => {
                self.coerce_float(file, e, t, *f as f64)
            }
            (Value::Float64(f), Type::Float32 | Type::Float64) => self.coerce_float(file, e, t, *f),
            (Value::Text(_), Type::Text)
            | (Value::Data(_), Type::Data)
            | (Value::Bool(_), Type::Bool)
            | (Value::Void, Type::Void) => Some(value),
            (Value::Struct(p), Type::AnyPointer(AnyPointer::Unconstrained(0 | 1))) => {
                Some(Value::AnyPointer(p.clone()))
            }
            (Value::List(p), Type::AnyPointer(AnyPointer::Unconstrained(0 | 2))) => {
                Some(Value::AnyPointer(p.clone()))
            }
            (Value::List(_), Type::List(_)) if list_compatible(cty, t) => Some(value),
            _ => {
                self.mismatch(file, e, t);
                None
            }
        }
    }
}
