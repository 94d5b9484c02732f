//! Which struct fields of a plain Rust value are boxed (the
//! `owned_values` option).
//!
//! A struct field's value is held inline, as `Option<foo::Value>`, unless
//! that would give the containing value an infinite size or a huge one:
//! - the field is on a cycle of the containment graph (the struct the
//!   field holds contains, through struct fields, groups and union
//!   members, in this file or another, the value the field is in): it
//!   is `Option<Box<foo::Value>>`. A list is a `Vec` (already behind a
//!   pointer), so a cycle only through lists boxes nothing;
//! - or the held value would take more than [`INLINE_LIMIT`] bytes (a
//!   schema whose structs each hold several of the next one grows
//!   exponentially with depth), so no value is larger than the limit
//!   times its own fields.
//!
//! Every field on a cycle is boxed, so every cycle is cut; the fields
//! left inline form an acyclic graph, which bounds every value's size.
//!
//! Generic structs: a value holds a field of a parameter's type inline
//! (`Option<T>`), so a field of type `Foo(Bar)` holds a `Bar` value
//! inline too, inside Foo's. A struct field's targets are therefore its
//! struct and every struct its brand binds, through nested brands (not
//! through lists): the field is boxed when one of them contains (or is)
//! the value the field is in, or is over the limit. A parameter bound
//! where the use inherits it was named by a brand further out, whose
//! field has it among its targets, so that field cuts the cycle.

use std::collections::{HashMap, HashSet};

use super::Generator;
use crate::model::*;

/// The most bytes (as estimated by [`Generator::value_bytes`]) a struct
/// value held inline in a field may take.
pub(super) const INLINE_LIMIT: u64 = 1024;

/// What the generator remembers about containment between calls.
#[derive(Default)]
pub(super) struct BoxingCache {
    /// Node id -> the struct and group nodes its value contains, directly
    /// or not (itself only when on a cycle).
    reach: HashMap<u64, HashSet<u64>>,
    /// Node id -> the estimated bytes of its value.
    bytes: HashMap<u64, u64>,
}

impl Generator<'_> {
    /// Whether a field of struct or group `container` holding struct
    /// `target` holds it boxed.
    pub(super) fn struct_field_boxed(&self, container: u64, ty: &Type) -> bool {
        let targets = field_targets(ty);
        targets
            .iter()
            .any(|t| *t == container || self.contains(*t, container))
            || targets
                .iter()
                .fold(0u64, |sum, t| sum.saturating_add(self.value_bytes(*t)))
                > INLINE_LIMIT
    }

    /// Whether the value of node `from` contains one of node `to`.
    fn contains(&self, from: u64, to: u64) -> bool {
        if let Some(reach) = self.boxing.borrow().reach.get(&from) {
            return reach.contains(&to);
        }
        let mut reach = HashSet::new();
        let mut stack = vec![from];
        while let Some(id) = stack.pop() {
            for next in self.contained(id) {
                if reach.insert(next) {
                    stack.push(next);
                }
            }
        }
        let found = reach.contains(&to);
        self.boxing.borrow_mut().reach.insert(from, reach);
        found
    }

    /// The struct and group nodes node `id`'s value holds directly: its
    /// groups and the structs of its struct fields (union members too).
    fn contained(&self, id: u64) -> Vec<u64> {
        let Some(NodeKind::Struct(s)) = self.schema.nodes.get(&id).map(|n| &n.kind) else {
            return Vec::new();
        };
        s.fields
            .iter()
            .flat_map(|f| match &f.kind {
                FieldKind::Group { type_id } => vec![*type_id],
                FieldKind::Slot { ty, .. } => field_targets(ty),
            })
            .collect()
    }

    /// An estimate (from above, for common targets) of the bytes the
    /// value of struct or group `id` takes: data fields at their size,
    /// text, data, lists and any pointers as a `Vec` (24), a boxed struct
    /// as a pointer (8), an inline one as its value and a tag (8), a
    /// group as its value, a union as its largest member and a tag.
    /// Saturates; a node missing from the request counts as nothing.
    pub(super) fn value_bytes(&self, id: u64) -> u64 {
        if let Some(bytes) = self.boxing.borrow().bytes.get(&id) {
            return *bytes;
        }
        let Some(NodeKind::Struct(s)) = self.schema.nodes.get(&id).map(|n| &n.kind) else {
            return 0;
        };
        let mut plain = 0u64;
        let mut union = 0u64;
        for f in &s.fields {
            let bytes = match &f.kind {
                FieldKind::Group { type_id } => self.value_bytes(*type_id),
                FieldKind::Slot { ty, .. } => self.slot_bytes(id, ty),
            };
            if f.discriminant.is_some() {
                union = union.max(bytes);
            } else {
                plain = plain.saturating_add(bytes);
            }
        }
        if s.discriminant_count > 0 {
            plain = plain.saturating_add(union).saturating_add(8);
        }
        self.boxing.borrow_mut().bytes.insert(id, plain);
        plain
    }

    /// The estimated bytes of a field of type `ty` in node `container`.
    fn slot_bytes(&self, container: u64, ty: &Type) -> u64 {
        match ty {
            Type::Void => 0,
            Type::Bool | Type::Int8 | Type::UInt8 => 1,
            Type::Int16 | Type::UInt16 | Type::Enum(_) => 2,
            Type::Int32 | Type::UInt32 | Type::Float32 => 4,
            Type::Int64 | Type::UInt64 | Type::Float64 => 8,
            Type::Struct(..) if self.struct_field_boxed(container, ty) => 8,
            Type::Struct(..) => field_targets(ty)
                .iter()
                .fold(8u64, |sum, t| sum.saturating_add(self.value_bytes(*t))),
            _ => 24,
        }
    }
}

/// The structs a field of type `ty` holds inline: a struct type's own and
/// those its brand binds (through their brands, not through lists),
/// each once; none for other types.
fn field_targets(ty: &Type) -> Vec<u64> {
    let mut out = Vec::new();
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        if let Type::Struct(id, brand) = ty {
            if !out.contains(id) {
                out.push(*id);
            }
            for (_, bindings) in &brand.0 {
                stack.extend(bindings.iter().flatten().flatten());
            }
        }
    }
    out
}
