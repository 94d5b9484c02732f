//! Types, defaults and brands of a matched field or method: whether a
//! type change keeps the wire meaning, whether a default changed, and
//! whether a generic binding moved, with the names the findings print.

use super::*;

impl<'a> Comparer<'a> {
    pub(super) fn compare_type(
        &mut self,
        o: &RawType,
        n: &RawType,
        site: &Site,
        depth: u32,
    ) -> TypeChange {
        if depth > MAX_TYPE_DEPTH {
            return TypeChange::Incompatible(
                Rule::FieldTypeChanged,
                format!("types nest deeper than {MAX_TYPE_DEPTH} levels"),
            );
        }
        match (o, n) {
            (RawType::Struct(a, ob), RawType::Struct(b, nb))
            | (RawType::Interface(a, ob), RawType::Interface(b, nb))
                if a == b =>
            {
                if ob != nb {
                    self.deferred.push(DeferredBrand {
                        old: ob.clone(),
                        new: nb.clone(),
                        old_at: site.old.clone(),
                        new_at: site.new.clone(),
                    });
                }
                TypeChange::Same
            }
            (
                RawType::Text
                | RawType::Data
                | RawType::List(_)
                | RawType::Struct(..)
                | RawType::Interface(..)
                | RawType::AnyPointer,
                RawType::Param { scope, index },
            ) => {
                self.replaced
                    .entry((*scope, *index))
                    .or_default()
                    .push(o.clone());
                TypeChange::Compatible(
                    Rule::MadeGeneric,
                    format!(
                        "type {} became generic parameter {}",
                        type_name(self.o, o),
                        type_name(self.n, n)
                    ),
                )
            }
            (RawType::List(a), RawType::List(b)) => self.compare_list(a, b, site, depth),
            _ if o == n => TypeChange::Same,
            _ => TypeChange::Incompatible(
                Rule::FieldTypeChanged,
                format!(
                    "type {} became {}",
                    type_name(self.o, o),
                    type_name(self.n, n)
                ),
            ),
        }
    }

    pub(super) fn compare_list(
        &mut self,
        a: &RawType,
        b: &RawType,
        site: &Site,
        depth: u32,
    ) -> TypeChange {
        let upgradable = !matches!(
            a,
            RawType::Bool
                | RawType::Struct(..)
                | RawType::Interface(..)
                | RawType::AnyPointer
                | RawType::Param { .. }
                | RawType::ImplicitMethodParam
        );
        if let (true, RawType::Struct(u, _)) = (upgradable, b) {
            let slots = Self::flatten(self.n, *u);
            let first = slots.iter().find(|s| s.ordinal == 0);
            let fits = match first {
                Some(f) if f.offset == 0 && f.unions.is_empty() => {
                    matches!(
                        self.compare_type(a, f.ty, site, depth + 1),
                        TypeChange::Same
                    )
                }
                _ => false,
            };
            let (from, to) = (type_name(self.o, a), type_name(self.n, b));
            return if fits {
                TypeChange::Compatible(
                    Rule::ListUpgradedToStruct,
                    format!(
                        "List({from}) became List({to}), whose @0 is a {from} (the canonical encoding changes)"
                    ),
                )
            } else {
                TypeChange::Incompatible(
                    Rule::ListElementChanged,
                    format!(
                        "List({from}) became List({to}), whose @0 field is not a {from} at the struct's start"
                    ),
                )
            };
        }
        match self.compare_type(a, b, site, depth + 1) {
            TypeChange::Same => TypeChange::Same,
            TypeChange::Compatible(rule, what) => TypeChange::Compatible(rule, what),
            TypeChange::Incompatible(_, what) => TypeChange::Incompatible(
                Rule::ListElementChanged,
                format!("list elements changed: {what}"),
            ),
        }
    }

    /// What changed between two defaults, or `None` when they encode the
    /// same value.
    pub(super) fn default_change(&self, o: &RawValue, n: &RawValue) -> Option<String> {
        match (o, n) {
            // Both null: nothing to read.
            (RawValue::Pointer(_, None), RawValue::Pointer(_, None)) => None,
            (RawValue::Pointer(_, oi), RawValue::Pointer(_, ni)) => {
                let a = canonical(self.old.loaded, *oi);
                let b = canonical(self.new.loaded, *ni);
                match (a, b) {
                    (Some(a), Some(b)) if a == b => None,
                    (Some(a), Some(b)) => Some(format!(
                        "a pointer value of {} canonical bytes became one of {}",
                        a.len() * 8,
                        b.len() * 8
                    )),
                    _ => Some("a pointer value that could not be read".to_owned()),
                }
            }
            _ if o.bits() == n.bits() && o.kind() == n.kind() => None,
            _ => Some(format!(
                "{} {} became {} {}",
                o.kind(),
                value_text(o),
                n.kind(),
                value_text(n)
            )),
        }
    }

    pub(super) fn resolve_deferred(&mut self) {
        let deferred = std::mem::take(&mut self.deferred);
        for d in deferred {
            if let Some(what) = self.brand_change(&d.old, &d.new) {
                self.push(
                    Rule::GenericBindingChanged,
                    Some(d.old_at.clone()),
                    Some(d.new_at.clone()),
                    format!("{}: {what}", d.new_at.name),
                );
            }
        }
    }

    /// What changed between two bindings of the same generic type, or
    /// `None` when the new one binds what the old one did and binds new
    /// parameters to the types they replaced.
    pub(super) fn brand_change(&self, old: &RawBrand, new: &RawBrand) -> Option<String> {
        let scopes: Vec<u64> = {
            let mut s: Vec<u64> = old.0.iter().chain(&new.0).map(|(id, _)| *id).collect();
            s.sort_unstable();
            s.dedup();
            s
        };
        for scope in scopes {
            let (o, n) = (binding_list(old, scope), binding_list(new, scope));
            let len = o.map_or(0, <[_]>::len).max(n.map_or(0, <[_]>::len));
            let scope_name = self
                .n
                .nodes
                .get(&scope)
                .map_or_else(|| format!("{scope:#018x}"), |n| n.display_name.clone());
            for index in 0..len {
                let ob = o.and_then(|l| l.get(index));
                let nb = n.and_then(|l| l.get(index));
                let index16 = u16::try_from(index).unwrap_or(u16::MAX);
                let replaced = self.replaced.get(&(scope, index16));
                let ok = match (ob, nb) {
                    (Some(a), Some(b)) => a == b,
                    // Newly bound: must be what the parameter replaced.
                    (None, Some(Some(t))) => replaced.is_none_or(|r| r.iter().all(|x| x == t)),
                    (None, _) => replaced.is_none(),
                    (Some(_), None) => false,
                };
                if !ok {
                    let show = |b: Option<&Option<RawType>>, store| match b {
                        Some(Some(t)) => type_name(store, t),
                        Some(None) => "AnyPointer (unbound)".to_owned(),
                        None => match replaced.and_then(|r| r.first()) {
                            Some(t) => type_name(self.o, t),
                            None => "nothing".to_owned(),
                        },
                    };
                    return Some(format!(
                        "parameter {index} of {scope_name} was bound to {}, now {}",
                        show(ob, self.o),
                        show(nb, self.n)
                    ));
                }
            }
        }
        None
    }
}

/// The bindings of `scope` in `brand` (`None`: not bound there, or
/// inherited).
fn binding_list(brand: &RawBrand, scope: u64) -> Option<&[Option<RawType>]> {
    brand
        .0
        .iter()
        .find(|(id, _)| *id == scope)
        .and_then(|(_, b)| b.as_deref())
}

/// The canonical bytes of stored pointer value `index` of `schema`,
/// wrapped as the one pointer of a struct (`None`: unreadable).
fn canonical(schema: &crate::LoadedSchema, index: Option<u32>) -> Option<Vec<capnarena::Word>> {
    let view = schema.schema();
    let value = view.stored_value(index).ok()?;
    let mut wrap = Message::new(SingleSegmentArena::new());
    wrap.get_root_struct(StructSize::new(0, 1))
        .ok()?
        .pointer(0)
        .set_from(&value)
        .ok()?;
    let mut bytes = Vec::new();
    wrap.append_to(&mut bytes);
    let words = capnarena::words_from_bytes(&bytes).ok()?;
    let reader = MessageReader::from_words(&words, ReaderOptions::new()).ok()?;
    let root = reader.root().ok()?;
    let mut out = Message::new(SingleSegmentArena::new());
    out.set_root_canonical(&root).ok().map(<[_]>::to_vec)
}

fn value_text(v: &RawValue) -> String {
    match *v {
        RawValue::Float32(b) => f32::from_bits(b).to_string(),
        RawValue::Float64(b) => f64::from_bits(b).to_string(),
        RawValue::Bool(b) => b.to_string(),
        RawValue::Int8(x) => x.to_string(),
        RawValue::Int16(x) => x.to_string(),
        RawValue::Int32(x) => x.to_string(),
        RawValue::Int64(x) => x.to_string(),
        _ => v.bits().map_or_else(String::new, |b| b.to_string()),
    }
}

/// A type as a schema writes it, with node names from `store`.
fn type_name(store: &Store, ty: &RawType) -> String {
    let mut depth = 0;
    let mut t = ty;
    let mut lists = 0;
    while let RawType::List(inner) = t {
        lists += 1;
        t = inner;
        depth += 1;
        if depth > MAX_TYPE_DEPTH {
            break;
        }
    }
    let node = |id: &u64| {
        store.nodes.get(id).map_or_else(
            || format!("{id:#018x}"),
            |n| {
                let p = (n.prefix_len as usize).min(n.display_name.len());
                n.display_name
                    .get(p..)
                    .unwrap_or(&n.display_name)
                    .to_owned()
            },
        )
    };
    let base = match t {
        RawType::Enum(id) | RawType::Struct(id, _) | RawType::Interface(id, _) => node(id),
        RawType::Param { scope, index } => store
            .nodes
            .get(scope)
            .and_then(|n| n.parameters.get(usize::from(*index)))
            .cloned()
            .unwrap_or_else(|| format!("parameter {index} of {}", node(scope))),
        RawType::List(_) => "List(...)".to_owned(),
        other => format!("{other:?}"),
    };
    format!("{}{base}{}", "List(".repeat(lists), ")".repeat(lists))
}
