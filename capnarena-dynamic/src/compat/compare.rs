//! The comparison itself: nodes matched by id, struct fields by ordinal
//! (groups and unions flattened into the root struct's slots), enumerants
//! and methods by number, every difference classified by a [`Rule`].
//!
//! Each node pair is compared once, fields are found through hash maps,
//! and no walk recurses on the schema's shape except through types, whose
//! depth loading bounds: comparing a schema with itself takes time in
//! proportion to its size, and a hostile schema (cycles through struct
//! types, deep groups) cannot make it loop.

use std::collections::{HashMap, HashSet};

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};

use super::rules::Rule;
use super::source::Positions;
use super::{Finding, Location};
use crate::load::MAX_TYPE_DEPTH;
use crate::model::*;
use crate::schema::LoadedSchema;

mod types;

/// What a type change is.
enum TypeChange {
    Same,
    Compatible(Rule, String),
    Incompatible(Rule, String),
}

/// Unions a field is in, outermost first: discriminant offset (16-bit
/// units) and the field's discriminant value.
type Unions = Vec<(u32, u16)>;

/// A slot field of a struct with its groups and unions flattened.
struct Slot<'a> {
    ordinal: u16,
    /// Its names from the root struct, `.`-joined (`"g.w"`).
    path: String,
    /// The display name of the node declaring it (the struct or a group).
    scope: &'a str,
    name: &'a str,
    ty: &'a RawType,
    offset: u32,
    default: &'a RawValue,
    /// The unions it is in, outermost first: discriminant offset (16-bit
    /// units) and its discriminant value.
    unions: Vec<(u32, u16)>,
}

/// A use of a generic type whose binding changed, checked once every
/// parameter's replaced types are known.
struct DeferredBrand {
    old: RawBrand,
    new: RawBrand,
    old_at: Location,
    new_at: Location,
}

/// Where a type is used: the field (or method) of each side.
#[derive(Clone)]
struct Site {
    old: Location,
    new: Location,
}

/// One side of the comparison: its nodes and where they are written.
#[derive(Clone, Copy)]
pub(super) struct Side<'a> {
    pub(super) loaded: &'a LoadedSchema,
    pub(super) positions: &'a Positions,
}

pub(super) struct Comparer<'a> {
    old: Side<'a>,
    new: Side<'a>,
    o: &'a Store,
    n: &'a Store,
    pub(super) findings: Vec<Finding>,
    /// Per generic parameter of the new schema, the old types it replaced.
    replaced: HashMap<(u64, u16), Vec<RawType>>,
    deferred: Vec<DeferredBrand>,
    /// Struct pairs compared (old id, new id).
    visited: HashSet<(u64, u64)>,
    /// When set, the only nodes compared, added or removed.
    only: Option<&'a HashSet<u64>>,
}

impl<'a> Comparer<'a> {
    pub(super) fn new(old: Side<'a>, new: Side<'a>) -> Comparer<'a> {
        Comparer {
            old,
            new,
            o: old.loaded.store(),
            n: new.loaded.store(),
            findings: Vec::new(),
            replaced: HashMap::new(),
            deferred: Vec::new(),
            visited: HashSet::new(),
            only: None,
        }
    }

    /// Compares only the nodes `ids` (with their groups and param
    /// structs, reached through them).
    pub(super) fn only(mut self, ids: &'a HashSet<u64>) -> Comparer<'a> {
        self.only = Some(ids);
        self
    }

    fn wanted(&self, id: u64) -> bool {
        self.only.is_none_or(|ids| ids.contains(&id))
    }

    fn push(&mut self, rule: Rule, old: Option<Location>, new: Option<Location>, message: String) {
        self.findings.push(Finding {
            rule,
            old,
            new,
            message,
        });
    }

    fn node_at(side: Side<'_>, node: &Node) -> Location {
        Location {
            name: node.display_name.clone(),
            position: side.positions.node(&node.display_name).cloned(),
        }
    }

    fn member_at(side: Side<'_>, scope: &str, name: &str) -> Location {
        Location {
            name: format!("{scope}.{name}"),
            position: side
                .positions
                .member(scope, name)
                .or_else(|| side.positions.node(scope))
                .cloned(),
        }
    }

    /// A param or result struct of a method, or a group: compared through
    /// its method or its struct, not on its own.
    fn is_part(node: &Node) -> bool {
        match &node.kind {
            NodeKind::Struct(s) => s.is_group || node.scope_id == 0,
            _ => false,
        }
    }

    pub(super) fn run(mut self) -> Vec<Finding> {
        let mut old_ids: Vec<u64> = self
            .o
            .nodes
            .keys()
            .copied()
            .filter(|id| self.wanted(*id))
            .collect();
        old_ids.sort_unstable();
        let mut new_ids: Vec<u64> = self
            .n
            .nodes
            .keys()
            .copied()
            .filter(|id| self.wanted(*id))
            .collect();
        new_ids.sort_unstable();
        for id in &old_ids {
            let old = &self.o.nodes[id];
            match self.n.nodes.get(id) {
                Some(new) => self.compare_node(old, new),
                None => self.removed(old),
            }
        }
        for id in &new_ids {
            let new = &self.n.nodes[id];
            if self.o.nodes.contains_key(id) || Self::is_part(new) {
                continue;
            }
            if matches!(
                new.kind,
                NodeKind::Struct(_) | NodeKind::Enum(_) | NodeKind::Interface(_)
            ) && !self.o.names.contains_key(&new.display_name)
            {
                let at = Self::node_at(self.new, new);
                let msg = format!("{} {} was added", new.kind.name(), new.display_name);
                self.push(Rule::TypeAdded, None, Some(at), msg);
            }
        }
        self.resolve_deferred();
        self.findings
    }

    fn removed(&mut self, old: &'a Node) {
        if Self::is_part(old) || matches!(old.kind, NodeKind::File) {
            return;
        }
        let at = Self::node_at(self.old, old);
        match old.kind {
            NodeKind::Const(_) | NodeKind::Annotation(_) => {
                let msg = format!(
                    "{} {} was removed: source naming it no longer builds",
                    old.kind.name(),
                    old.display_name
                );
                self.push(Rule::DeclarationRemoved, Some(at), None, msg);
            }
            _ => match self
                .n
                .names
                .get(&old.display_name)
                .and_then(|id| self.n.nodes.get(id))
            {
                Some(new) => {
                    let msg = format!(
                        "{} {} changed its id from {:#018x} to {:#018x}: old and new programs no longer agree on the type (give it the old id explicitly)",
                        old.kind.name(),
                        old.display_name,
                        old.id,
                        new.id
                    );
                    let new_at = Self::node_at(self.new, new);
                    self.push(Rule::TypeIdChanged, Some(at), Some(new_at), msg);
                }
                None => {
                    let msg = format!(
                        "{} {} ({:#018x}) was removed: its messages can no longer be read by new programs",
                        old.kind.name(),
                        old.display_name,
                        old.id
                    );
                    self.push(Rule::TypeRemoved, Some(at), None, msg);
                }
            },
        }
    }

    fn compare_node(&mut self, old: &'a Node, new: &'a Node) {
        let (old_at, new_at) = (Self::node_at(self.old, old), Self::node_at(self.new, new));
        if old.kind.name() != new.kind.name() {
            let msg = format!(
                "{} {:#018x} became a {}",
                old.kind.name(),
                old.id,
                new.kind.name()
            );
            self.push(Rule::NodeKindChanged, Some(old_at), Some(new_at), msg);
            return;
        }
        if scoped_name(&old.display_name) != scoped_name(&new.display_name)
            && !Self::is_part(old)
            && !matches!(old.kind, NodeKind::File)
        {
            let msg = format!(
                "{} {} is now named {}: generated source names change",
                old.kind.name(),
                old.display_name,
                new.display_name
            );
            self.push(
                Rule::TypeRenamed,
                Some(old_at.clone()),
                Some(new_at.clone()),
                msg,
            );
        }
        if new.parameters.len() < old.parameters.len() {
            let msg = format!(
                "{} lost generic parameters: {} before, {} now",
                new.display_name,
                old.parameters.len(),
                new.parameters.len()
            );
            self.push(
                Rule::GenericBindingChanged,
                Some(old_at.clone()),
                Some(new_at.clone()),
                msg,
            );
        } else if new.parameters.len() > old.parameters.len() {
            let msg = format!(
                "{} has new generic parameters: {} before, {} now",
                new.display_name,
                old.parameters.len(),
                new.parameters.len()
            );
            self.push(
                Rule::MadeGeneric,
                Some(old_at.clone()),
                Some(new_at.clone()),
                msg,
            );
        }
        match (&old.kind, &new.kind) {
            (NodeKind::Struct(_), NodeKind::Struct(_)) if !Self::is_part(old) => {
                self.compare_struct(old.id, new.id, None);
            }
            (NodeKind::Enum(o), NodeKind::Enum(n)) => self.compare_enum(old, o, new, n),
            (NodeKind::Interface(o), NodeKind::Interface(n)) => {
                self.compare_interface(old, o, new, n);
            }
            _ => {}
        }
    }

    fn compare_enum(&mut self, old: &'a Node, o: &'a EnumNode, new: &'a Node, n: &'a EnumNode) {
        let old_names: HashMap<&str, usize> = o
            .enumerants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.as_str(), i))
            .collect();
        for (i, e) in o.enumerants.iter().enumerate() {
            let old_at = Self::member_at(self.old, &old.display_name, &e.name);
            let Some(ne) = n.enumerants.get(i) else {
                let msg = format!(
                    "enumerant {} @{i} was removed: new readers of old messages get an unknown value",
                    e.name
                );
                self.push(Rule::EnumerantRemoved, Some(old_at), None, msg);
                continue;
            };
            if ne.name != e.name {
                let new_at = Self::member_at(self.new, &new.display_name, &ne.name);
                match old_names.get(ne.name.as_str()) {
                    Some(j) => {
                        let msg = format!(
                            "enumerant {} moved from @{j} to @{i}: old and new programs read @{i} as different values",
                            ne.name
                        );
                        self.push(Rule::NameMoved, Some(old_at), Some(new_at), msg);
                    }
                    None => {
                        let msg = format!(
                            "enumerant @{i} renamed from {} to {}: text, JSON and source use the name",
                            e.name, ne.name
                        );
                        self.push(Rule::EnumerantRenamed, Some(old_at), Some(new_at), msg);
                    }
                }
            }
        }
        for (i, ne) in n.enumerants.iter().enumerate().skip(o.enumerants.len()) {
            let new_at = Self::member_at(self.new, &new.display_name, &ne.name);
            let msg = format!(
                "enumerant {} @{i} was added: old readers see an unknown value for it",
                ne.name
            );
            self.push(Rule::EnumerantAdded, None, Some(new_at), msg);
        }
    }

    fn compare_interface(
        &mut self,
        old: &'a Node,
        o: &'a InterfaceNode,
        new: &'a Node,
        n: &'a InterfaceNode,
    ) {
        let old_names: HashMap<&str, usize> = o
            .methods
            .iter()
            .enumerate()
            .map(|(i, m)| (m.name.as_str(), i))
            .collect();
        for (i, m) in o.methods.iter().enumerate() {
            let old_at = Self::member_at(self.old, &old.display_name, &m.name);
            let Some(nm) = n.methods.get(i) else {
                let msg = format!(
                    "method {} @{i} was removed: old clients calling it get \"unimplemented\"",
                    m.name
                );
                self.push(Rule::MethodRemoved, Some(old_at), None, msg);
                continue;
            };
            let new_at = Self::member_at(self.new, &new.display_name, &nm.name);
            if nm.name != m.name {
                match old_names.get(nm.name.as_str()) {
                    Some(j) => {
                        let msg = format!(
                            "method {} moved from @{j} to @{i}: old clients calling @{i} reach another method",
                            nm.name
                        );
                        self.push(
                            Rule::NameMoved,
                            Some(old_at.clone()),
                            Some(new_at.clone()),
                            msg,
                        );
                    }
                    None => {
                        let msg = format!(
                            "method @{i} renamed from {} to {}: generated source uses the name",
                            m.name, nm.name
                        );
                        self.push(
                            Rule::MethodRenamed,
                            Some(old_at.clone()),
                            Some(new_at.clone()),
                            msg,
                        );
                    }
                }
            }
            if nm.implicit_parameters.len() < m.implicit_parameters.len() {
                let msg = format!(
                    "method {} lost implicit generic parameters: {} before, {} now",
                    nm.name,
                    m.implicit_parameters.len(),
                    nm.implicit_parameters.len()
                );
                self.push(
                    Rule::GenericBindingChanged,
                    Some(old_at.clone()),
                    Some(new_at.clone()),
                    msg,
                );
            }
            let site = Site {
                old: old_at,
                new: new_at,
            };
            for (os, ob, ns, nb, what) in [
                (
                    m.param_struct,
                    &m.param_brand,
                    nm.param_struct,
                    &nm.param_brand,
                    "parameters",
                ),
                (
                    m.result_struct,
                    &m.result_brand,
                    nm.result_struct,
                    &nm.result_brand,
                    "results",
                ),
            ] {
                // A param struct of its own is compared here; a named
                // struct (or one that became named) is compared by
                // structure, whatever its id.
                let own = |store: &Store, id| store.nodes.get(&id).is_some_and(Self::is_part);
                if os != ns || own(self.o, os) {
                    self.compare_struct(os, ns, Some((&nm.name, what)));
                }
                if ob != nb {
                    self.deferred.push(DeferredBrand {
                        old: ob.clone(),
                        new: nb.clone(),
                        old_at: site.old.clone(),
                        new_at: site.new.clone(),
                    });
                }
            }
        }
        for (i, nm) in n.methods.iter().enumerate().skip(o.methods.len()) {
            let new_at = Self::member_at(self.new, &new.display_name, &nm.name);
            let msg = format!(
                "method {} @{i} was added: new clients calling it on old servers get \"unimplemented\"",
                nm.name
            );
            self.push(Rule::MethodAdded, None, Some(new_at), msg);
        }
        let new_supers: HashSet<u64> = n.superclasses.iter().map(|(id, _)| *id).collect();
        for (id, _) in &o.superclasses {
            if !new_supers.contains(id) {
                let name = self
                    .o
                    .nodes
                    .get(id)
                    .map_or_else(|| format!("{id:#018x}"), |n| n.display_name.clone());
                let msg = format!(
                    "{} no longer extends {name}: old clients calling its methods get \"unimplemented\"",
                    new.display_name
                );
                let (o_at, n_at) = (Self::node_at(self.old, old), Self::node_at(self.new, new));
                self.push(Rule::SuperclassRemoved, Some(o_at), Some(n_at), msg);
            }
        }
    }

    /// The slot fields of struct `root`, groups and unions flattened.
    fn flatten(store: &'a Store, root: u64) -> Vec<Slot<'a>> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        // (node, path prefix, unions)
        let mut work: Vec<(u64, String, Unions)> = vec![(root, String::new(), Vec::new())];
        while let Some((id, prefix, unions)) = work.pop() {
            if !seen.insert(id) {
                continue;
            }
            let Some(node) = store.nodes.get(&id) else {
                continue;
            };
            let NodeKind::Struct(s) = &node.kind else {
                continue;
            };
            for f in &s.fields {
                let mut unions = unions.clone();
                if let Some(d) = f.discriminant {
                    unions.push((s.discriminant_offset, d));
                }
                let path = if prefix.is_empty() {
                    f.name.clone()
                } else {
                    format!("{prefix}.{}", f.name)
                };
                match &f.kind {
                    FieldKind::Slot {
                        offset,
                        ty,
                        default,
                        ..
                    } => {
                        // A slot without a number (not written by any
                        // compiler) cannot be matched; it is left out.
                        if let Some(ordinal) = f.ordinal {
                            out.push(Slot {
                                ordinal,
                                path,
                                scope: &node.display_name,
                                name: &f.name,
                                ty,
                                offset: *offset,
                                default,
                                unions,
                            });
                        }
                    }
                    FieldKind::Group(g) => work.push((*g, path, unions)),
                }
            }
        }
        out.sort_by_key(|s| s.ordinal);
        out
    }

    /// Each slot with its matching key: its ordinal and how many slots
    /// before it (in `flatten`'s order) hold the same ordinal.
    fn keyed<'s>(slots: &'s [Slot<'a>]) -> Vec<((u16, usize), &'s Slot<'a>)> {
        let mut seen: HashMap<u16, usize> = HashMap::new();
        slots
            .iter()
            .map(|s| {
                let n = seen.entry(s.ordinal).or_default();
                let key = (s.ordinal, *n);
                *n += 1;
                (key, s)
            })
            .collect()
    }

    fn compare_struct(&mut self, old_id: u64, new_id: u64, method: Option<(&str, &str)>) {
        if !self.visited.insert((old_id, new_id)) {
            return;
        }
        let (Some(old), Some(new)) = (self.o.nodes.get(&old_id), self.n.nodes.get(&new_id)) else {
            return;
        };
        let (NodeKind::Struct(os), NodeKind::Struct(ns)) = (&old.kind, &new.kind) else {
            if let Some((m, what)) = method {
                let msg = format!("the {what} of method {m} are no longer a struct");
                let (o, n) = (Self::node_at(self.old, old), Self::node_at(self.new, new));
                self.push(Rule::FieldTypeChanged, Some(o), Some(n), msg);
            }
            return;
        };
        let context = match method {
            Some((m, what)) => format!(" (the {what} of method {m})"),
            None => String::new(),
        };
        let (old_at, new_at) = (Self::node_at(self.old, old), Self::node_at(self.new, new));
        for (what, o, n) in [
            ("data", os.data_words, ns.data_words),
            ("pointer", os.pointers, ns.pointers),
        ] {
            let (rule, verb) = match o.cmp(&n) {
                core::cmp::Ordering::Less => (Rule::SectionGrown, "grew"),
                core::cmp::Ordering::Greater => (Rule::SectionShrunk, "shrank"),
                core::cmp::Ordering::Equal => continue,
            };
            let msg = format!(
                "{}{context}: its {what} section {verb} from {o} to {n} words",
                new.display_name
            );
            self.push(rule, Some(old_at.clone()), Some(new_at.clone()), msg);
        }
        let old_slots = Self::flatten(self.o, old_id);
        let new_slots = Self::flatten(self.n, new_id);
        // Keyed by ordinal and, for a number held twice (no compiler
        // writes that, a hostile request can), by its place among the
        // slots holding it: the n-th old slot numbered @k meets the n-th
        // new one, so a schema still matches itself slot for slot.
        let (old_keyed, new_keyed) = (Self::keyed(&old_slots), Self::keyed(&new_slots));
        let old_by_ordinal: HashMap<_, _> = old_keyed.iter().copied().collect();
        let new_by_ordinal: HashMap<_, _> = new_keyed.iter().copied().collect();
        let old_names: HashMap<&str, u16> = old_slots
            .iter()
            .map(|s| (s.path.as_str(), s.ordinal))
            .collect();
        let old_unions: HashSet<u32> = old_slots
            .iter()
            .flat_map(|s| s.unions.iter().map(|u| u.0))
            .collect();
        // Per new union, how many old fields it holds.
        let mut existing_in_new_union: HashMap<u32, u32> = HashMap::new();
        for &(key, s) in &new_keyed {
            if old_by_ordinal.contains_key(&key) {
                for (offset, _) in &s.unions {
                    if !old_unions.contains(offset) {
                        *existing_in_new_union.entry(*offset).or_default() += 1;
                    }
                }
            }
        }
        for &(key, o) in &old_keyed {
            let old_at = Self::member_at(self.old, o.scope, o.name);
            let Some(n) = new_by_ordinal.get(&key) else {
                let msg = format!(
                    "field {} @{}{context} was removed: old readers of new messages see its default",
                    o.path, o.ordinal
                );
                self.push(Rule::FieldRemoved, Some(old_at), None, msg);
                continue;
            };
            let new_at = Self::member_at(self.new, n.scope, n.name);
            let site = Site {
                old: old_at,
                new: new_at,
            };
            self.compare_slot(
                o,
                n,
                &old_names,
                &old_unions,
                &existing_in_new_union,
                &site,
                &context,
            );
        }
        for &(key, n) in &new_keyed {
            if !old_by_ordinal.contains_key(&key) {
                let new_at = Self::member_at(self.new, n.scope, n.name);
                let msg = format!(
                    "field {} @{}{context} was added: new readers of old messages see its default",
                    n.path, n.ordinal
                );
                self.push(Rule::FieldAdded, None, Some(new_at), msg);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn compare_slot(
        &mut self,
        o: &Slot<'a>,
        n: &Slot<'a>,
        old_names: &HashMap<&str, u16>,
        old_unions: &HashSet<u32>,
        existing_in_new_union: &HashMap<u32, u32>,
        site: &Site,
        context: &str,
    ) {
        let at = |s: &Site| (Some(s.old.clone()), Some(s.new.clone()));
        let k = o.ordinal;
        if o.path != n.path {
            match old_names.get(n.path.as_str()) {
                Some(&j) if j != k => {
                    let msg = format!(
                        "field {} moved from @{j} to @{k}{context}: old and new programs read it from different places",
                        n.path
                    );
                    let (a, b) = at(site);
                    self.push(Rule::NameMoved, a, b, msg);
                }
                _ => {
                    let msg = format!(
                        "field @{k}{context} renamed from {} to {}: text, JSON and source use the name",
                        o.path, n.path
                    );
                    let (a, b) = at(site);
                    self.push(Rule::FieldRenamed, a, b, msg);
                }
            }
        }
        match self.compare_type(o.ty, n.ty, site, 0) {
            TypeChange::Incompatible(rule, what) => {
                let msg = format!("field {} @{k}{context}: {what}", n.path);
                let (a, b) = at(site);
                self.push(rule, a, b, msg);
                return;
            }
            TypeChange::Compatible(rule, what) => {
                let msg = format!("field {} @{k}{context}: {what}", n.path);
                let (a, b) = at(site);
                self.push(rule, a, b, msg);
            }
            TypeChange::Same => {}
        }
        if o.offset != n.offset {
            let msg = format!(
                "field {} @{k}{context} moved from offset {} to {}",
                n.path, o.offset, n.offset
            );
            let (a, b) = at(site);
            self.push(Rule::FieldOffsetChanged, a, b, msg);
        }
        if let Some(what) = self.default_change(o.default, n.default) {
            let msg = format!(
                "field {} @{k}{context}: default changed ({what}): a value stored by one side reads differently on the other",
                n.path
            );
            let (a, b) = at(site);
            self.push(Rule::DefaultChanged, a, b, msg);
        }
        self.compare_unions(o, n, old_unions, existing_in_new_union, site, context);
    }

    fn compare_unions(
        &mut self,
        o: &Slot<'a>,
        n: &Slot<'a>,
        old_unions: &HashSet<u32>,
        existing_in_new_union: &HashMap<u32, u32>,
        site: &Site,
        context: &str,
    ) {
        if o.unions == n.unions {
            return;
        }
        let k = o.ordinal;
        let same_values = o.unions.len() == n.unions.len()
            && o.unions.iter().zip(&n.unions).all(|(a, b)| a.1 == b.1);
        if same_values {
            let msg = format!(
                "field {} @{k}{context}: its union's discriminant moved (16-bit offsets {:?} became {:?})",
                n.path,
                o.unions.iter().map(|u| u.0).collect::<Vec<_>>(),
                n.unions.iter().map(|u| u.0).collect::<Vec<_>>()
            );
            self.push(
                Rule::UnionDiscriminantChanged,
                Some(site.old.clone()),
                Some(site.new.clone()),
                msg,
            );
            return;
        }
        let (mut i, mut j) = (0, 0);
        let mut added = Vec::new();
        let mut problem = None;
        while j < n.unions.len() {
            let (noff, nval) = n.unions[j];
            match o.unions.get(i) {
                Some(&(ooff, oval)) if ooff == noff => {
                    if oval != nval {
                        problem = Some((
                            Rule::UnionDiscriminantChanged,
                            format!("its union discriminant changed from {oval} to {nval}"),
                        ));
                        break;
                    }
                    i += 1;
                }
                _ if !old_unions.contains(&noff) => added.push((noff, nval)),
                _ => {
                    problem = Some((
                        Rule::UnionMembershipChanged,
                        "it moved into an existing union".to_owned(),
                    ));
                    break;
                }
            }
            j += 1;
        }
        if problem.is_none() && i < o.unions.len() {
            problem = Some((
                Rule::UnionMembershipChanged,
                "it moved out of its union (or its union's discriminant moved)".to_owned(),
            ));
        }
        for (offset, value) in &added {
            if problem.is_some() {
                break;
            }
            if existing_in_new_union.get(offset).copied().unwrap_or(0) > 1 {
                problem = Some((
                    Rule::UnionMembershipChanged,
                    "it is in a new union with other existing fields".to_owned(),
                ));
            } else if *value != 0 {
                problem = Some((
                    Rule::UnionDiscriminantChanged,
                    format!(
                        "it moved into a new union as member {value}: old messages read as member 0"
                    ),
                ));
            }
        }
        let (rule, what) = problem.unwrap_or((
            Rule::FieldMovedIntoNewUnion,
            "it moved into a new union with only new fields".to_owned(),
        ));
        let msg = format!("field {} @{k}{context}: {what}", n.path);
        self.push(rule, Some(site.old.clone()), Some(site.new.clone()), msg);
    }
}

/// A display name without its file (`"Outer.Inner"`): the file's name
/// is where the schema was read from, not part of the type.
fn scoped_name(display_name: &str) -> &str {
    display_name
        .split_once(':')
        .map_or(display_name, |(_, rest)| rest)
}
