//! Request order: which nodes and source info the CodeGeneratorRequest
//! holds, in the order `capnp compile -o-` writes them, and the names of
//! files reached by two paths.
//!
//! The reference compiles lazily and writes what its schema loader holds
//! at the end, in the loader's order. This reproduces the parts of that
//! which decide the order (compiler.c++ and capnp.c++, v0.9.2): each
//! requested file is traversed with the eagerness `capnp compile` asks for
//! (`Compiler::Node::traverse` and `traverseNodeDependencies`: the node,
//! its children, its dependencies and their parents), and each node
//! translated is loaded as the final `SchemaLoader` loads it, its
//! dependencies first taking placeholder places ([`LoadOrder`]). Source
//! info comes out in the order of the reference's `std::unordered_map`
//! ([`crate::stdmap`]). Pointer values deferred during translation are
//! evaluated here, as each node is written.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::Compilation;
use super::decls::{AliasId, NodeIndex};
use super::nodes::Translation;
use crate::schema::*;

// How far a traversal reaches from a node (the reference's
// `Compiler::Eagerness` bits). The bits from `DEPENDENCIES` up say what
// to reach from a dependency: shifted down by one step per dependency.

/// The node itself.
const NODE: u32 = 1;
/// The scopes it is nested in.
const PARENTS: u32 = 2;
/// The nodes nested in it (and its aliases).
const CHILDREN: u32 = 4;
/// Its dependencies, with the eagerness of the bits above this one.
const DEPENDENCIES: u32 = 1 << 15;
/// What `capnp compile` asks for a requested file: the file, everything
/// in it, everything that depends on, and the parents of those.
const EAGER_ROOT: u32 = NODE | CHILDREN | DEPENDENCIES | (PARENTS * DEPENDENCIES);
/// Dependencies with the same eagerness, however deep: what loading one
/// declaration's schema at run time reaches, as `capnp convert` and
/// `capnp eval` load the type they are given.
const CLOSURE: u32 = 1 << 31;
/// One declaration with its scopes and everything it depends on,
/// transitively (the scopes themselves only as nodes).
const DECLARATION: u32 = NODE | PARENTS | CLOSURE;

/// Calls `f` with each node id type `t` names, in the reference's order:
/// the type's own, then those its brand binds (recursing once per level
/// of the type, at most [`limits::MAX_TYPE_DEPTH`](crate::limits::MAX_TYPE_DEPTH)).
fn visit_type_ids(t: &Type, f: &mut impl FnMut(u64)) {
    match t {
        Type::List(e) => visit_type_ids(e, f),
        Type::Struct(id, b) | Type::Enum(id, b) | Type::Interface(id, b) => {
            f(*id);
            visit_brand_ids(b, f);
        }
        _ => {}
    }
}

/// Calls `f` with each node id the types bound in brand `b` name.
fn visit_brand_ids(b: &Option<Brand>, f: &mut impl FnMut(u64)) {
    for s in b.iter().flat_map(|b| &b.scopes) {
        for t in s.bind.iter().flatten().flatten() {
            visit_type_ids(t, f);
        }
    }
}

/// The reference's final schema loader, as far as order goes: ids in
/// first-insertion order, placeholders for dependencies a node's
/// validation looks up before the node itself goes in.
struct LoadOrder {
    /// Node ids in the order they first entered the loader.
    map_order: Vec<u64>,
    /// id -> loaded (true) or placeholder (false).
    state: HashMap<u64, bool>,
    /// The node-table indexes whose translation has been loaded.
    loaded_nodes: HashSet<NodeIndex>,
    /// Source info ids as the reference's unordered map orders them.
    source_info_order: crate::stdmap::StdUnorderedMap,
    /// The first source info of each id.
    source_info_by_id: HashMap<u64, SourceInfo>,
}

impl LoadOrder {
    /// Gives node `id` a place, unless it has one.
    fn placeholder(&mut self, id: u64) {
        if let std::collections::hash_map::Entry::Vacant(v) = self.state.entry(id) {
            v.insert(false);
            self.map_order.push(id);
        }
    }

    /// Places the nodes type `t` names.
    fn type_deps(&mut self, t: &Type) {
        visit_type_ids(t, &mut |id| self.placeholder(id));
    }

    /// Places the nodes the types bound in brand `b` name.
    fn brand_deps(&mut self, b: &Option<Brand>) {
        visit_brand_ids(b, &mut |id| self.placeholder(id));
    }

    /// Loads node `n`: the nodes its validation looks up first take
    /// their places, then it is marked loaded (in its own place if it had
    /// none).
    fn load(&mut self, n: &Node) {
        if self.state.get(&n.id) == Some(&true) {
            return;
        }
        match &n.kind {
            NodeKind::Struct(s) => {
                for f in s.fields.iter().flatten() {
                    match &f.kind {
                        FieldKind::Slot { ty, .. } => self.type_deps(ty),
                        FieldKind::Group(id) => self.placeholder(*id),
                    }
                }
                if s.is_group {
                    self.placeholder(n.scope_id);
                }
            }
            NodeKind::Interface {
                methods,
                superclasses,
            } => {
                for (id, b) in superclasses {
                    self.placeholder(*id);
                    self.brand_deps(b);
                }
                for m in methods {
                    self.placeholder(m.param_struct_type);
                    self.brand_deps(&m.param_brand);
                    self.placeholder(m.result_struct_type);
                    self.brand_deps(&m.result_brand);
                }
            }
            NodeKind::Const { ty, .. } | NodeKind::Annotation { ty, .. } => self.type_deps(ty),
            _ => {}
        }
        if !self.state.contains_key(&n.id) {
            self.map_order.push(n.id);
        }
        self.state.insert(n.id, true);
    }
}

impl<'a> Compilation<'a> {
    /// Notes that file `fi` was resolved through a path that names it
    /// `name`: the first such name is the file's name in the request (the
    /// reference's loader names a file when it first loads it); a second,
    /// different one is reported as a warning.
    pub(super) fn note_file_path(&self, fi: usize, name: &str) {
        let mut names = self.first_names.borrow_mut();
        match &names[fi] {
            None => names[fi] = Some(name.to_string()),
            Some(first) if first != name => {
                let mut second = self.second_path.borrow_mut();
                if second.is_none() {
                    *second = Some((name.to_string(), first.clone()));
                }
            }
            Some(_) => {}
        }
    }

    /// Per file, the name of the path it was first resolved through,
    /// when that is not the name it was loaded with.
    pub fn renamed_files(&self) -> Vec<(usize, String)> {
        self.first_names
            .borrow()
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let n = n.as_ref()?;
                (*n != self.files[i].name).then(|| (i, n.clone()))
            })
            .collect()
    }

    /// Per file, whether this compile resolved it: a requested file, or
    /// one named by an import the compile compiled. Only these files
    /// would the reference load.
    pub fn reached_files(&self) -> Vec<bool> {
        self.first_names
            .borrow()
            .iter()
            .map(Option::is_some)
            .collect()
    }

    /// Whether a node asked for an id another node had taken (an error,
    /// or a collision with a file the compile does not reach).
    pub fn had_id_collision(&self) -> bool {
        self.id_collision
    }

    /// The first file resolved through two different paths: (the second
    /// path's name, the first's).
    pub fn second_path(&self) -> Option<(String, String)> {
        self.second_path.borrow().clone()
    }

    /// Compiles the requested files (by index, each with the name it was
    /// given) and returns the request's nodes and source info in the
    /// reference's order: each file whole, as `capnp compile` does, or,
    /// with `only` (a `.`-separated name), lazily as `capnp convert` loads
    /// a schema: each requested file's node, then the declaration the
    /// longest leading part of the name names in it, with its scopes and
    /// its dependencies, transitively. Declarations nothing named reaches
    /// are not compiled, nor the files only they import. A name that is
    /// not declared adds nothing (the caller's lookup reports it).
    pub fn request(
        &self,
        requested: &[(usize, String)],
        only: Option<&str>,
    ) -> (Vec<Node>, Vec<SourceInfo>) {
        let mut ord = LoadOrder {
            map_order: Vec::new(),
            state: HashMap::new(),
            loaded_nodes: HashSet::new(),
            source_info_order: crate::stdmap::StdUnorderedMap::new(),
            source_info_by_id: HashMap::new(),
        };
        for (fi, name) in requested {
            let fi = *fi;
            self.note_file_path(fi, name);
            let mut seen: HashMap<NodeIndex, u32> = HashMap::new();
            let mut infos: Vec<SourceInfo> = Vec::new();
            let root = self.file_roots[fi];
            match only {
                None => self.traverse(root, EAGER_ROOT, &mut seen, &mut ord, &mut infos),
                Some(path) => {
                    self.traverse(root, NODE, &mut seen, &mut ord, &mut infos);
                    // As far as the path names declarations: `capnp eval`
                    // names members of a constant after it.
                    let mut at = root;
                    for part in path.split('.') {
                        match self.nodes[at].members.get(part) {
                            Some(&n) => at = n,
                            None => break,
                        }
                    }
                    if at != root {
                        self.traverse(at, DECLARATION, &mut seen, &mut ord, &mut infos);
                    }
                }
            }
            for si in infos {
                ord.source_info_order.insert(si.id);
                ord.source_info_by_id.entry(si.id).or_insert(si);
            }
        }
        let mut nodes = Vec::new();
        for id in &ord.map_order {
            if ord.state.get(id) == Some(&true) {
                let found = self.translated_by_id.borrow().get(id).cloned();
                if let Some(n) = found {
                    let mut n = (*n).clone();
                    self.resolve_pending_values(&mut n);
                    nodes.push(n);
                }
            }
        }
        let infos = ord
            .source_info_order
            .keys_in_order()
            .into_iter()
            .filter_map(|id| ord.source_info_by_id.remove(&id))
            .collect();
        (nodes, infos)
    }

    /// The reference's traversal from node `idx` with eagerness `e`
    /// (compiler.c++, `Node::traverse`): translates and loads each node
    /// reached, its dependencies (recursively while `e` asks for them),
    /// its parents and children, collecting source info. Depth first in
    /// the reference's order, with the path on a heap stack: a chain of
    /// dependencies of any length (10,000 files importing each other)
    /// takes no stack.
    fn traverse(
        &self,
        idx: NodeIndex,
        e: u32,
        seen: &mut HashMap<NodeIndex, u32>,
        ord: &mut LoadOrder,
        infos: &mut Vec<SourceInfo>,
    ) {
        enum Step {
            Visit(NodeIndex, u32),
            Infos(Rc<Translation>),
            Aliases(NodeIndex),
        }
        let mut stack = vec![Step::Visit(idx, e)];
        let mut deps = Vec::new();
        while let Some(step) = stack.pop() {
            let (idx, e) = match step {
                Step::Visit(idx, e) => (idx, e),
                Step::Infos(tr) => {
                    infos.extend(tr.source_info.iter().cloned());
                    continue;
                }
                Step::Aliases(idx) => {
                    for index in 0..self.nodes[idx].aliases.len() {
                        self.compile_alias(AliasId { node: idx, index });
                    }
                    continue;
                }
            };
            let slot = seen.entry(idx).or_insert(0);
            if *slot & e == e {
                continue;
            }
            *slot |= e;
            // Pushed in reverse: dependencies, then source info, then the
            // parent, then the children, then the aliases.
            if e & CHILDREN != 0 {
                stack.push(Step::Aliases(idx));
                for &c in self.nodes[idx].children.iter().rev() {
                    stack.push(Step::Visit(c, e));
                }
            }
            if e & PARENTS != 0 {
                if let Some(p) = self.nodes[idx].parent {
                    // A declaration's scopes are loaded as nodes, not with
                    // what they depend on.
                    let pe = if e & CLOSURE != 0 { NODE | PARENTS } else { e };
                    stack.push(Step::Visit(p, pe));
                }
            }
            if let Some(tr) = self.translate(idx) {
                if ord.loaded_nodes.insert(idx) {
                    for a in &tr.extra_nodes {
                        ord.load(a);
                    }
                    ord.load(&tr.node);
                }
                stack.push(Step::Infos(tr.clone()));
                if e / DEPENDENCIES != 0 {
                    let ne = if e & CLOSURE != 0 {
                        e
                    } else {
                        (e & !(DEPENDENCIES - 1)) | (e / DEPENDENCIES)
                    };
                    deps.clear();
                    self.node_deps(&tr.node, &mut deps);
                    for a in &tr.extra_nodes {
                        self.node_deps(a, &mut deps);
                    }
                    for &d in deps.iter().rev() {
                        stack.push(Step::Visit(d, ne));
                    }
                }
            }
        }
    }

    /// The nodes `n` depends on, in the order the reference traverses
    /// them: field types and annotations, enumerant annotations,
    /// superclasses and method param and result structs with their
    /// brands, a constant's or annotation's type, then the node's own
    /// annotations.
    fn node_deps(&self, n: &Node, out: &mut Vec<NodeIndex>) {
        let anns = |a: &Option<Vec<Annotation>>, out: &mut Vec<NodeIndex>| {
            for x in a.iter().flatten() {
                if let Some(&i) = self.index_by_id.get(&x.id) {
                    out.push(i);
                }
            }
        };
        match &n.kind {
            NodeKind::Struct(s) => {
                for f in s.fields.iter().flatten() {
                    if let FieldKind::Slot { ty, .. } = &f.kind {
                        self.type_deps(ty, out);
                    }
                    anns(&f.annotations, out);
                }
            }
            NodeKind::Enum(es) => {
                for en in es {
                    anns(&en.annotations, out);
                }
            }
            NodeKind::Interface {
                methods,
                superclasses,
            } => {
                for (id, b) in superclasses {
                    if *id != 0 {
                        self.push_dep(*id, out);
                    }
                    self.brand_deps(b, out);
                }
                for m in methods {
                    self.push_dep(m.param_struct_type, out);
                    self.brand_deps(&m.param_brand, out);
                    self.push_dep(m.result_struct_type, out);
                    self.brand_deps(&m.result_brand, out);
                    anns(&m.annotations, out);
                }
            }
            NodeKind::Const { ty, .. } | NodeKind::Annotation { ty, .. } => self.type_deps(ty, out),
            NodeKind::File => {}
        }
        anns(&n.annotations, out);
    }

    /// Adds the node with id `id` to `out`, when it is in the table.
    fn push_dep(&self, id: u64, out: &mut Vec<NodeIndex>) {
        if let Some(&i) = self.index_by_id.get(&id) {
            out.push(i);
        }
    }

    /// The nodes type `t` names.
    fn type_deps(&self, t: &Type, out: &mut Vec<NodeIndex>) {
        visit_type_ids(t, &mut |id| self.push_dep(id, out));
    }

    /// The nodes the types bound in brand `b` name.
    fn brand_deps(&self, b: &Option<Brand>, out: &mut Vec<NodeIndex>) {
        visit_brand_ids(b, &mut |id| self.push_dep(id, out));
    }
}
