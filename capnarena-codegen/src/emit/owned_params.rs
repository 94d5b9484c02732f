//! Which generic parameters a struct's or group's plain Rust value has
//! (the `owned_values` option).
//!
//! A generic struct's reader, builder and `Owned` marker take every
//! parameter in scope (its own and its scopes'); its value takes only
//! those it uses: a parameter is used when a field (a union member, a
//! group's field) has the parameter's type, a list of it, or a generic
//! struct type whose value uses a parameter that the field's brand binds
//! to a type using it (or inherits). So `Outer(T).Inner { x :UInt32 }`
//! has a `Value` without parameters, and the value of a method's
//! parameter struct in a generic interface takes only the parameters its
//! fields name. Uses through other structs are found by a fixed point
//! over every struct of the request, cycles included.
//!
//! One shape stays erased: polymorphic recursion, a struct that reaches
//! itself through a use binding a parameter to a type built on a
//! parameter (`Deep(X) { nested :Deep(Box(X)) }`). Its value would name
//! ever larger types (`Deep<Box<Box<..>>>`), which Rust cannot
//! instantiate, so every struct of such a cycle has a value without
//! parameters: a field of a parameter's type is an `AnyValue` there, as
//! where no parameter is in scope.

use std::collections::{BTreeSet, HashMap};

use super::Generator;
use crate::model::*;

/// A generic parameter: its scope's node id and its index there.
pub(super) type ParamId = (u64, u16);

/// What the generator finds once about every value's parameters.
pub(super) struct ValueParams {
    /// Struct or group id -> the parameters its value uses.
    uses: HashMap<u64, BTreeSet<ParamId>>,
    /// The structs and groups whose values are erased.
    erased: BTreeSet<u64>,
}

impl Generator<'_> {
    /// The parameters (scope, index, Rust name) of the value of struct or
    /// group `id`, in the order of [`Self::scope_params`].
    pub(super) fn value_params(&self, id: u64) -> Vec<(u64, u16, String)> {
        let used = self.used_params(id);
        self.scope_params(id)
            .into_iter()
            .filter(|(s, i, _)| used.contains(&(*s, *i)))
            .collect()
    }

    /// The parameters the value of struct or group `id` uses.
    pub(super) fn used_params(&self, id: u64) -> BTreeSet<ParamId> {
        self.with_value_params(|v| v.uses.get(&id).cloned().unwrap_or_default())
    }

    /// The parameters the type `ty` (of a field, a member) uses.
    pub(super) fn type_uses(&self, ty: &Type) -> BTreeSet<ParamId> {
        let mut out = BTreeSet::new();
        self.with_value_params(|v| type_uses_in(&v.uses, ty, &mut out));
        out
    }

    /// Whether the value of struct or group `id` is erased (on a cycle of
    /// polymorphic recursion, see the module's notes).
    pub(super) fn value_erased(&self, id: u64) -> bool {
        self.with_value_params(|v| v.erased.contains(&id))
    }

    /// Runs `f` on the [`ValueParams`], found on the first call.
    fn with_value_params<R>(&self, f: impl FnOnce(&ValueParams) -> R) -> R {
        if self.value_params.borrow().is_none() {
            let erased = self.erased_values();
            let uses = self.compute_uses(&erased);
            *self.value_params.borrow_mut() = Some(ValueParams { uses, erased });
        }
        let cache = self.value_params.borrow();
        match cache.as_ref() {
            Some(v) => f(v),
            None => f(&ValueParams {
                uses: HashMap::new(),
                erased: BTreeSet::new(),
            }),
        }
    }

    /// The structs and groups on a cycle of polymorphic recursion.
    fn erased_values(&self) -> BTreeSet<u64> {
        let mut edges: HashMap<u64, Vec<u64>> = HashMap::new();
        let mut growing = Vec::new();
        for node in self.schema.nodes.values() {
            let NodeKind::Struct(s) = &node.kind else {
                continue;
            };
            let out = edges.entry(node.id).or_default();
            for f in &s.fields {
                match &f.kind {
                    FieldKind::Group { type_id } => out.push(*type_id),
                    FieldKind::Slot { ty, .. } => {
                        struct_uses(ty, &mut |target, brand| {
                            out.push(target);
                            if grows(brand) {
                                growing.push((node.id, target));
                            }
                        });
                    }
                }
            }
        }
        let mut reverse: HashMap<u64, Vec<u64>> = HashMap::new();
        for (from, tos) in &edges {
            for to in tos {
                reverse.entry(*to).or_default().push(*from);
            }
        }
        let mut erased = BTreeSet::new();
        for (from, to) in growing {
            let mut forward = reach(&edges, to);
            forward.insert(to);
            if forward.contains(&from) {
                let backward = reach(&reverse, from);
                erased.extend(forward.intersection(&backward).copied());
            }
        }
        erased
    }

    /// Every struct's uses, to a fixed point (each step only adds, and
    /// the sets are bounded by the parameters in scope, so it ends). An
    /// erased value uses none.
    fn compute_uses(&self, erased: &BTreeSet<u64>) -> HashMap<u64, BTreeSet<ParamId>> {
        let mut uses: HashMap<u64, BTreeSet<ParamId>> = HashMap::new();
        let structs: Vec<(u64, &StructNode)> = self
            .schema
            .nodes
            .values()
            .filter_map(|n| match &n.kind {
                NodeKind::Struct(s) if !erased.contains(&n.id) => Some((n.id, s)),
                _ => None,
            })
            .collect();
        loop {
            let mut changed = false;
            for (id, s) in &structs {
                let mut found = BTreeSet::new();
                for f in &s.fields {
                    match &f.kind {
                        FieldKind::Group { type_id } => {
                            if let Some(g) = uses.get(type_id) {
                                found.extend(g.iter().copied());
                            }
                        }
                        FieldKind::Slot { ty, .. } => type_uses_in(&uses, ty, &mut found),
                    }
                }
                let entry = uses.entry(*id).or_default();
                if found.len() > entry.len() {
                    *entry = found;
                    changed = true;
                }
            }
            if !changed {
                return uses;
            }
        }
    }
}

/// Adds the parameters `ty` uses to `out`, given the struct uses found
/// so far.
fn type_uses_in(uses: &HashMap<u64, BTreeSet<ParamId>>, ty: &Type, out: &mut BTreeSet<ParamId>) {
    match ty {
        Type::Param { scope, index } => {
            out.insert((*scope, *index));
        }
        Type::List(e) => type_uses_in(uses, e, out),
        Type::Struct(id, brand) => {
            let Some(target) = uses.get(id) else {
                return;
            };
            for (scope, index) in target {
                match brand.0.iter().find(|(s, _)| s == scope) {
                    Some((_, Some(bindings))) => {
                        if let Some(Some(bound)) = bindings.get(usize::from(*index)) {
                            type_uses_in(uses, bound, out);
                        }
                    }
                    Some((_, None)) => {
                        out.insert((*scope, *index));
                    }
                    None => {}
                }
            }
        }
        _ => {}
    }
}

/// Calls `f` with every struct use in `ty` (through lists and brands).
fn struct_uses(ty: &Type, f: &mut dyn FnMut(u64, &Brand)) {
    match ty {
        Type::List(e) => struct_uses(e, f),
        Type::Struct(id, brand) => {
            f(*id, brand);
            for (_, bindings) in &brand.0 {
                for bound in bindings.iter().flatten().flatten() {
                    struct_uses(bound, f);
                }
            }
        }
        _ => {}
    }
}

/// Whether `brand` binds a parameter to a type built on a parameter
/// (not the parameter itself).
fn grows(brand: &Brand) -> bool {
    brand
        .0
        .iter()
        .flat_map(|(_, bindings)| bindings.iter().flatten().flatten())
        .any(|bound| !matches!(bound, Type::Param { .. }) && names_param(bound))
}

/// Whether `ty` names a parameter anywhere.
fn names_param(ty: &Type) -> bool {
    match ty {
        Type::Param { .. } => true,
        Type::List(e) => names_param(e),
        Type::Struct(_, brand) => brand
            .0
            .iter()
            .any(|(_, b)| b.is_none() || b.iter().flatten().flatten().any(names_param)),
        _ => false,
    }
}

/// The nodes reachable from `from` (itself only through a cycle).
fn reach(edges: &HashMap<u64, Vec<u64>>, from: u64) -> BTreeSet<u64> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from];
    while let Some(id) = stack.pop() {
        for next in edges.get(&id).into_iter().flatten() {
            if seen.insert(*next) {
                stack.push(*next);
            }
        }
    }
    seen
}
