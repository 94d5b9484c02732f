//! Name resolution, generics (brands), checks, struct layout, value
//! evaluation and the node order of the reference's request.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

use crate::ast::*;
use crate::files::{FileError, SourceFile};
use crate::ids;
use crate::layout::{Layout, Scope};
use crate::limits;
use crate::schema::{self, *};

/// Built-in declarations of the global scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `Void` ... `Data`: the primitive types, by their `Type`.
    Void,
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float32,
    Float64,
    Text,
    Data,
    List,
    Object,
    AnyPointer,
    AnyStruct,
    AnyList,
    Capability,
}

const BUILTINS: &[(&str, Builtin)] = &[
    ("Void", Builtin::Void),
    ("Bool", Builtin::Bool),
    ("Int8", Builtin::Int8),
    ("Int16", Builtin::Int16),
    ("Int32", Builtin::Int32),
    ("Int64", Builtin::Int64),
    ("UInt8", Builtin::UInt8),
    ("UInt16", Builtin::UInt16),
    ("UInt32", Builtin::UInt32),
    ("UInt64", Builtin::UInt64),
    ("Float32", Builtin::Float32),
    ("Float64", Builtin::Float64),
    ("Text", Builtin::Text),
    ("Data", Builtin::Data),
    ("List", Builtin::List),
    ("Object", Builtin::Object),
    ("AnyPointer", Builtin::AnyPointer),
    ("AnyStruct", Builtin::AnyStruct),
    ("AnyList", Builtin::AnyList),
    ("Capability", Builtin::Capability),
];

/// The id of capnp/stream.capnp's `StreamResult`.
const STREAM_RESULT_ID: u64 = 0x995f_9a33_77c0_b16e;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NK {
    File,
    Struct,
    Enum,
    Interface,
    Const,
    Annotation,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Node(usize),
    Builtin(Builtin),
}

struct NodeE<'a> {
    id: u64,
    file: usize,
    parent: Option<usize>,
    decl: &'a Decl,
    display: String,
    kind: NK,
    children: Vec<usize>,
    members: HashMap<&'a str, usize>,
    aliases: Vec<&'a Decl>,
    /// The first alias of each name, an index into `aliases` (lookups
    /// by name stay constant-time however many there are).
    alias_by_name: HashMap<&'a str, usize>,
    /// The first generic parameter of each name: its index.
    param_by_name: HashMap<&'a str, u16>,
}

#[derive(Clone, Debug)]
enum Resolved {
    Decl {
        target: Target,
        params: usize,
        scope_id: u64,
    },
    Param {
        scope: u64,
        index: u16,
    },
    /// An alias that carries its own brand, declared in the node with this
    /// id: its bindings may name that node's parameters, which the brand it
    /// is reached through binds.
    Branded(BDecl, u64),
}

#[derive(Debug)]
struct BScope {
    leaf_id: u64,
    leaf_params: usize,
    inherited: bool,
    params: Vec<BDecl>,
    parent: Option<Rc<BScope>>,
    /// The scopes and parameters in this brand written out as a tree (the
    /// type it compiles to is about this big), saturating: shared `Rc`s
    /// let aliases double it on each line, so it is bounded by
    /// [`limits::MAX_TYPE_SIZE`].
    size: u32,
    /// The longest path of nested scopes and parameters in it, bounded by
    /// [`limits::MAX_TYPE_DEPTH`]: the walks over a brand and its type
    /// recurse.
    depth: u32,
}

impl BScope {
    /// A scope with its size and depth computed from its parts.
    fn new(
        leaf_id: u64,
        leaf_params: usize,
        inherited: bool,
        params: Vec<BDecl>,
        parent: Option<Rc<BScope>>,
    ) -> Rc<BScope> {
        let mut size = 1u32.saturating_add(parent.as_ref().map_or(0, |p| p.size));
        let mut depth = 1 + parent.as_ref().map_or(0, |p| p.depth);
        for p in &params {
            size = size.saturating_add(p.size());
            depth = depth.max(p.depth().saturating_add(1));
        }
        Rc::new(BScope {
            leaf_id,
            leaf_params,
            inherited,
            params,
            parent,
            size,
            depth,
        })
    }
}

#[derive(Clone, Debug)]
enum BDecl {
    Decl {
        target: Target,
        brand: Rc<BScope>,
        span: Span,
        text: String,
    },
    Param {
        scope: u64,
        index: u16,
        span: Span,
        text: String,
    },
}

impl BDecl {
    fn span(&self) -> Span {
        match self {
            BDecl::Decl { span, .. } | BDecl::Param { span, .. } => *span,
        }
    }
    fn text(&self) -> &str {
        match self {
            BDecl::Decl { text, .. } | BDecl::Param { text, .. } => text,
        }
    }
    /// As [`BScope::size`].
    fn size(&self) -> u32 {
        match self {
            BDecl::Decl { brand, .. } => brand.size,
            BDecl::Param { .. } => 1,
        }
    }
    /// As [`BScope::depth`].
    fn depth(&self) -> u32 {
        match self {
            BDecl::Decl { brand, .. } => brand.depth,
            BDecl::Param { .. } => 1,
        }
    }
}

fn simple_scope(leaf: u64) -> Rc<BScope> {
    BScope::new(leaf, 0, false, Vec::new(), None)
}

fn pop(s: &Rc<BScope>, leaf: u64) -> Rc<BScope> {
    if s.leaf_id == leaf {
        return s.clone();
    }
    match &s.parent {
        Some(p) => pop(p, leaf),
        None => simple_scope(leaf),
    }
}

/// `d` with the parameters it names looked up in `s` (an alias's brand
/// reached through a branded scope, as the reference re-evaluates it).
/// Each scope written costs one unit of `budget`; once it is spent the
/// rest is left unbound (the caller reports the type as too large), so a
/// rebinding takes time in proportion to [`limits::MAX_TYPE_SIZE`].
fn rebind(d: &BDecl, s: &Rc<BScope>, budget: &mut u32) -> BDecl {
    match d {
        BDecl::Param { scope, index, .. } => {
            lookup_param(s, *scope, *index).unwrap_or_else(|| d.clone())
        }
        // Out of budget: the rest stays unbound, marked as too large.
        BDecl::Decl {
            target,
            brand,
            span,
            text,
        } if *budget == 0 => BDecl::Decl {
            target: *target,
            brand: Rc::new(BScope {
                leaf_id: brand.leaf_id,
                leaf_params: brand.leaf_params,
                inherited: brand.inherited,
                params: Vec::new(),
                parent: None,
                size: u32::MAX,
                depth: brand.depth,
            }),
            span: *span,
            text: text.clone(),
        },
        BDecl::Decl {
            target,
            brand,
            span,
            text,
        } => BDecl::Decl {
            target: *target,
            brand: rebind_scope(brand, s, budget),
            span: *span,
            text: text.clone(),
        },
    }
}

fn params_for(s: &Rc<BScope>, leaf: u64) -> Option<Vec<BDecl>> {
    if s.leaf_id == leaf {
        if s.inherited {
            None
        } else {
            Some(s.params.clone())
        }
    } else {
        s.parent.as_ref().and_then(|p| params_for(p, leaf))
    }
}

fn rebind_scope(b: &Rc<BScope>, s: &Rc<BScope>, budget: &mut u32) -> Rc<BScope> {
    *budget = budget.saturating_sub(1);
    let (params, inherited) = if b.inherited && b.leaf_params > 0 {
        match params_for(s, b.leaf_id) {
            Some(p) => (p, false),
            None => (Vec::new(), true),
        }
    } else {
        (
            b.params.iter().map(|p| rebind(p, s, budget)).collect(),
            b.inherited,
        )
    };
    let parent = b.parent.as_ref().map(|p| rebind_scope(p, s, budget));
    BScope::new(b.leaf_id, b.leaf_params, inherited, params, parent)
}

fn push(s: &Rc<BScope>, id: u64, params: usize) -> Rc<BScope> {
    BScope::new(id, params, false, Vec::new(), Some(s.clone()))
}

fn lookup_param(s: &Rc<BScope>, scope: u64, index: u16) -> Option<BDecl> {
    if s.leaf_id == scope {
        if (index as usize) < s.params.len() {
            Some(s.params[index as usize].clone())
        } else if s.inherited {
            None
        } else {
            Some(BDecl::Decl {
                target: Target::Builtin(Builtin::AnyPointer),
                brand: simple_scope(0),
                span: Span::default(),
                text: "AnyPointer".into(),
            })
        }
    } else {
        s.parent
            .as_ref()
            .and_then(|p| lookup_param(p, scope, index))
    }
}

/// Inherit or bind-to-AnyPointer errors aside, a node being compiled and
/// the context it needs.
pub struct Ctx<'a> {
    files: &'a [SourceFile],
    nodes: Vec<NodeE<'a>>,
    by_id: HashMap<u64, usize>,
    file_root: Vec<usize>,
    errors: RefCell<Vec<FileError>>,
    translated: RefCell<HashMap<usize, Option<Rc<Translated>>>>,
    in_progress: RefCell<HashSet<usize>>,
    alias_memo: RefCell<HashMap<*const Decl, Option<BDecl>>>,
    /// Pending pointer values: (file, expr, type, scope node, implicit).
    pending: RefCell<Vec<PendingValue<'a>>>,
    pending_done: RefCell<HashMap<usize, Option<Value>>>,
    pending_busy: RefCell<HashSet<usize>>,
    /// Nodes by id, including groups and param structs, once translated.
    all_nodes: RefCell<HashMap<u64, Rc<Node>>>,
    /// How many declarations (nodes, aliases, values) are being compiled
    /// for one another right now: at most
    /// [`limits::MAX_RECURSION`], which bounds the stack.
    depth: std::cell::Cell<u32>,
    /// Words of constants copied into other values so far, at most
    /// [`limits::MAX_COPIED_WORDS`].
    copied_words: std::cell::Cell<u64>,
    /// Per file, the name of the path it was first resolved through
    /// (a requested file: its own), as the reference names a file
    /// reached by two paths.
    first_names: RefCell<Vec<Option<String>>>,
    /// The first file resolved through a second, different path: (that
    /// path's name, the first name).
    second_path: RefCell<Option<(String, String)>>,
    /// Per enum id, its enumerants' ordinals by name.
    enumerants: RefCell<HashMap<u64, HashMap<String, u16>>>,
}

struct PendingValue<'a> {
    file: usize,
    expr: &'a Expr,
    ty: Type,
    scope: usize,
}

/// One node's translation: the node, its groups or param structs, and
/// their source info.
pub struct Translated {
    node: Node,
    aux: Vec<Node>,
    source_info: Vec<SourceInfo>,
}

#[derive(Clone)]
struct Implicit<'b> {
    scope_id: u64,
    names: &'b [Located<String>],
}

const NO_IMPLICIT: Implicit<'static> = Implicit {
    scope_id: 0,
    names: &[],
};

/// The display prefix length the reference computes: after the last '.',
/// or after the last ':' when that comes later.
fn prefix_len(name: &str) -> u32 {
    let dot = name.rfind('.').map(|i| i + 1).unwrap_or(0);
    let colon = name.rfind(':').map(|i| i + 1).unwrap_or(0);
    dot.max(colon) as u32
}

/// The schema-language spelling of an expression, for messages.
pub fn expr_string(e: &Expr) -> String {
    match &e.kind {
        ExprKind::PositiveInt(v) => v.to_string(),
        ExprKind::NegativeInt(v) => format!("-{v}"),
        ExprKind::Float(v) => v.to_string(),
        ExprKind::String(s) => format!("{:?}", String::from_utf8_lossy(s)),
        ExprKind::Binary(b) => format!(
            "0x\"{}\"",
            b.iter()
                .map(|x| format!("{x:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        ExprKind::RelativeName(n) => n.value.clone(),
        ExprKind::AbsoluteName(n) => format!(".{}", n.value),
        ExprKind::Import(f) => format!("import {:?}", f.value),
        ExprKind::Embed(f) => format!("embed {:?}", f.value),
        ExprKind::List(items) => format!(
            "[ {} ]",
            items.iter().map(expr_string).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::Tuple(ps) => tuple_string(ps),
        ExprKind::Application { func, params } => {
            format!("{}({})", expr_string(func), tuple_string(params))
        }
        ExprKind::Member { parent, name } => format!("{}.{}", expr_string(parent), name.value),
    }
}

fn tuple_string(ps: &[Param]) -> String {
    let parts: Vec<String> = ps
        .iter()
        .map(|p| match &p.name {
            Some(n) => format!("{} = {}", n.value, expr_string(&p.value)),
            None => expr_string(&p.value),
        })
        .collect();
    format!("( {} )", parts.join(", "))
}

fn type_lg(t: &Type) -> i32 {
    match t {
        Type::Void => -1,
        Type::Bool => 0,
        Type::Int8 | Type::UInt8 => 3,
        Type::Int16 | Type::UInt16 | Type::Enum(..) => 4,
        Type::Int32 | Type::UInt32 | Type::Float32 => 5,
        Type::Int64 | Type::UInt64 | Type::Float64 => 6,
        _ => -2,
    }
}

fn default_default(t: &Type) -> Value {
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

fn is_pointer(t: &Type) -> bool {
    type_lg(t) == -2
}

impl<'a> Ctx<'a> {
    /// Builds the node table of every loaded file (ids, display names,
    /// nested scopes), reporting duplicate ids.
    pub fn new(files: &'a [SourceFile]) -> Ctx<'a> {
        let mut cx = Ctx {
            files,
            nodes: Vec::new(),
            by_id: HashMap::new(),
            file_root: Vec::new(),
            errors: RefCell::new(Vec::new()),
            translated: RefCell::new(HashMap::new()),
            in_progress: RefCell::new(HashSet::new()),
            alias_memo: RefCell::new(HashMap::new()),
            pending: RefCell::new(Vec::new()),
            pending_done: RefCell::new(HashMap::new()),
            pending_busy: RefCell::new(HashSet::new()),
            all_nodes: RefCell::new(HashMap::new()),
            depth: std::cell::Cell::new(0),
            copied_words: std::cell::Cell::new(0),
            first_names: RefCell::new(vec![None; files.len()]),
            second_path: RefCell::new(None),
            enumerants: RefCell::new(HashMap::new()),
        };
        let mut bogus = 1000u64;
        for (fi, f) in files.iter().enumerate() {
            let id = match &f.ast.id {
                DeclId::Uid(u) => u.value,
                _ => ids::child_id(0, ""),
            };
            let root = cx.add_node(fi, None, &f.ast, id, f.name.clone(), NK::File, &mut bogus);
            cx.file_root.push(root);
            cx.expand(root, &mut bogus);
        }
        cx
    }

    #[allow(clippy::too_many_arguments)]
    fn add_node(
        &mut self,
        file: usize,
        parent: Option<usize>,
        decl: &'a Decl,
        mut id: u64,
        display: String,
        kind: NK,
        bogus: &mut u64,
    ) -> usize {
        let idx = self.nodes.len();
        loop {
            if let Some(&other) = self.by_id.get(&id) {
                if id & (1 << 63) != 0 {
                    let span = node_span(decl);
                    self.error(file, span, format!("Duplicate ID @0x{id:x}."));
                    let o = &self.nodes[other];
                    let (of, os) = (o.file, node_span(o.decl));
                    self.error(of, os, format!("ID @0x{id:x} originally used here."));
                }
                id = *bogus;
                *bogus += 1;
                continue;
            }
            break;
        }
        self.by_id.insert(id, idx);
        self.nodes.push(NodeE {
            id,
            file,
            parent,
            decl,
            display,
            kind,
            children: Vec::new(),
            members: HashMap::new(),
            aliases: Vec::new(),
            alias_by_name: HashMap::new(),
            param_by_name: {
                let mut m = HashMap::new();
                for (i, p) in decl.params.iter().enumerate() {
                    m.entry(p.value.as_str()).or_insert(i as u16);
                }
                m
            },
        });
        idx
    }

    fn expand(&mut self, idx: usize, bogus: &mut u64) {
        let decl = self.nodes[idx].decl;
        let file = self.nodes[idx].file;
        for nd in &decl.nested {
            let kind = match nd.kind {
                DeclKind::Const { .. } => NK::Const,
                DeclKind::Annotation { .. } => NK::Annotation,
                DeclKind::Enum => NK::Enum,
                DeclKind::Struct => NK::Struct,
                DeclKind::Interface { .. } => NK::Interface,
                DeclKind::Using(_) => {
                    let n = &mut self.nodes[idx];
                    n.alias_by_name
                        .entry(nd.name.value.as_str())
                        .or_insert(n.aliases.len());
                    n.aliases.push(nd);
                    continue;
                }
                _ => continue,
            };
            let pid = self.nodes[idx].id;
            let id = match &nd.id {
                DeclId::Uid(u) => u.value,
                _ => ids::child_id(pid, &nd.name.value),
            };
            let sep = if self.nodes[idx].parent.is_none() {
                ':'
            } else {
                '.'
            };
            let display = format!("{}{}{}", self.nodes[idx].display, sep, nd.name.value);
            let c = self.add_node(file, Some(idx), nd, id, display, kind, bogus);
            self.nodes[idx].children.push(c);
            self.nodes[idx].members.entry(&nd.name.value).or_insert(c);
            self.expand(c, bogus);
        }
    }

    fn error(&self, file: usize, span: Span, msg: String) {
        self.errors.borrow_mut().push((file, span, msg));
    }

    /// Errors found so far.
    pub fn take_errors(&self) -> Vec<FileError> {
        std::mem::take(&mut *self.errors.borrow_mut())
    }

    /// The id of file `fi`'s root node.
    pub fn file_id(&self, fi: usize) -> u64 {
        self.nodes[self.file_root[fi]].id
    }

    // ------------------------------------------------------------------
    // Resolution

    fn param_count(&self, idx: usize) -> usize {
        self.nodes[idx].decl.params.len()
    }

    fn resolve_member(&self, idx: usize, name: &str) -> Option<Resolved> {
        let n = &self.nodes[idx];
        if let Some(&c) = n.members.get(name) {
            return Some(Resolved::Decl {
                target: Target::Node(c),
                params: self.param_count(c),
                scope_id: n.id,
            });
        }
        let alias = n.aliases[*n.alias_by_name.get(name)?];
        let bd = self.compile_alias(idx, alias)?;
        match &bd {
            BDecl::Decl { target, brand, .. } if self.brand_levels(brand).is_empty() => {
                Some(Resolved::Decl {
                    target: *target,
                    params: match target {
                        Target::Node(t) => self.param_count(*t),
                        Target::Builtin(Builtin::List) => 1,
                        _ => 0,
                    },
                    scope_id: n.id,
                })
            }
            BDecl::Param { scope, index, .. } => Some(Resolved::Param {
                scope: *scope,
                index: *index,
            }),
            _ => Some(Resolved::Branded(bd, n.id)),
        }
    }

    fn compile_alias(&self, parent: usize, alias: &'a Decl) -> Option<BDecl> {
        let key = alias as *const Decl;
        if let Some(r) = self.alias_memo.borrow().get(&key) {
            return r.clone();
        }
        self.alias_memo.borrow_mut().insert(key, None);
        let DeclKind::Using(target) = &alias.kind else {
            return None;
        };
        let brand = self.local_brand(parent);
        let file = self.nodes[parent].file;
        if !self.enter(file, target.span) {
            return None;
        }
        let r = self.compile_decl_expr(parent, &brand, target, &NO_IMPLICIT);
        self.leave();
        self.alias_memo.borrow_mut().insert(key, r.clone());
        r
    }

    /// One level deeper in the compiler's recursion: a node compiled for
    /// the node that uses it, an alias for the name that refers to it, a
    /// value for the constant that copies it, a nested expression. True,
    /// or, past [`limits::MAX_RECURSION`], false and an error at `span`.
    /// Every `true` is matched by a [`leave`](Self::leave).
    fn enter(&self, file: usize, span: Span) -> bool {
        let d = self.depth.get();
        if d >= limits::MAX_RECURSION {
            self.error(
                file,
                span,
                format!(
                    "Declarations and expressions nest more than {} levels deep here (types, aliases, constants and defaults each needing the next, and the expressions inside them; limits::MAX_RECURSION).",
                    limits::MAX_RECURSION
                ),
            );
            return false;
        }
        self.depth.set(d + 1);
        true
    }

    fn leave(&self) {
        self.depth.set(self.depth.get() - 1);
    }

    fn resolve(&self, idx: usize, name: &str) -> Option<Resolved> {
        if let Some(r) = self.resolve_member(idx, name) {
            return Some(r);
        }
        let n = &self.nodes[idx];
        if let Some(&index) = n.param_by_name.get(name) {
            return Some(Resolved::Param { scope: n.id, index });
        }
        match n.parent {
            Some(p) => self.resolve(p, name),
            None => BUILTINS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| Resolved::Decl {
                    target: Target::Builtin(*b),
                    params: if *b == Builtin::List { 1 } else { 0 },
                    scope_id: 0,
                }),
        }
    }

    fn local_brand(&self, idx: usize) -> Rc<BScope> {
        let n = &self.nodes[idx];
        BScope::new(
            n.id,
            self.param_count(idx),
            true,
            Vec::new(),
            n.parent.map(|p| self.local_brand(p)),
        )
    }

    fn is_generic(&self, idx: usize) -> bool {
        let mut p = Some(idx);
        while let Some(i) = p {
            if self.param_count(i) > 0 {
                return true;
            }
            p = self.nodes[i].parent;
        }
        false
    }

    fn interpret(&self, brand: &Rc<BScope>, r: Resolved, e: &Expr) -> BDecl {
        match r {
            Resolved::Decl {
                target,
                params,
                scope_id,
            } => {
                let id = match target {
                    Target::Node(t) => self.nodes[t].id,
                    Target::Builtin(b) => 1000 + b as u64,
                };
                let scope = push(&pop(brand, scope_id), id, params);
                BDecl::Decl {
                    target,
                    brand: scope,
                    span: e.span,
                    text: expr_string(e),
                }
            }
            Resolved::Param { scope, index } => match lookup_param(brand, scope, index) {
                Some(b) => b,
                None => BDecl::Param {
                    scope,
                    index,
                    span: e.span,
                    text: expr_string(e),
                },
            },
            Resolved::Branded(b, parent) => {
                let mut budget = limits::MAX_TYPE_SIZE.saturating_add(1);
                rebind(&b, &pop(brand, parent), &mut budget)
            }
        }
    }

    /// The declaration (with its brand) that expression `e` names, in
    /// `scope_node` reached through `brand`. A result larger than
    /// [`limits::MAX_TYPE_SIZE`] or deeper than [`limits::MAX_TYPE_DEPTH`]
    /// is an error: every part was checked when made, so no brand grows
    /// past a few times the limits before it is refused.
    fn compile_decl_expr(
        &self,
        scope_node: usize,
        brand: &Rc<BScope>,
        e: &Expr,
        implicit: &Implicit<'_>,
    ) -> Option<BDecl> {
        let file = self.nodes[scope_node].file;
        if !self.enter(file, e.span) {
            return None;
        }
        let d = self.compile_decl_expr_unchecked(scope_node, brand, e, implicit);
        self.leave();
        let d = d?;
        if d.size() > limits::MAX_TYPE_SIZE || d.depth() > limits::MAX_TYPE_DEPTH {
            self.error(
                file,
                e.span,
                format!(
                    "This type, with its generic parameters written out, is {} scopes and parameters large and {} deep; the limits are {} and {} (limits::MAX_TYPE_SIZE, limits::MAX_TYPE_DEPTH).",
                    d.size(),
                    d.depth(),
                    limits::MAX_TYPE_SIZE,
                    limits::MAX_TYPE_DEPTH
                ),
            );
            return None;
        }
        Some(d)
    }

    fn compile_decl_expr_unchecked(
        &self,
        scope_node: usize,
        brand: &Rc<BScope>,
        e: &Expr,
        implicit: &Implicit<'_>,
    ) -> Option<BDecl> {
        let file = self.nodes[scope_node].file;
        match &e.kind {
            ExprKind::RelativeName(n) => {
                if let Some(i) = implicit.names.iter().position(|p| p.value == n.value) {
                    return Some(BDecl::Param {
                        scope: implicit.scope_id,
                        index: i as u16,
                        span: e.span,
                        text: n.value.clone(),
                    });
                }
                match self.resolve(scope_node, &n.value) {
                    Some(r) => Some(self.interpret(brand, r, e)),
                    None => {
                        self.error(file, n.span, format!("Not defined: {}", n.value));
                        None
                    }
                }
            }
            ExprKind::AbsoluteName(n) => {
                let root = self.file_root[file];
                match self.resolve_member(root, &n.value) {
                    Some(r) => Some(self.interpret(brand, r, e)),
                    None => {
                        self.error(file, n.span, format!("Not defined: {}", n.value));
                        None
                    }
                }
            }
            ExprKind::Import(f) => {
                let target = self.files[file].imports.get(&f.value);
                match target {
                    Some(Ok(fi)) => {
                        if let Some(name) = self.files[file].reached_as.get(&f.value) {
                            self.claim(*fi, name);
                        }
                        let root = self.file_root[*fi];
                        Some(BDecl::Decl {
                            target: Target::Node(root),
                            brand: BScope::new(self.nodes[root].id, 0, true, Vec::new(), None),
                            span: e.span,
                            text: expr_string(e),
                        })
                    }
                    other => {
                        let e = other
                            .and_then(|r| r.as_ref().err())
                            .unwrap_or(&crate::files::LoadError::NotFound);
                        self.error(file, f.span, e.message("Import failed", &f.value));
                        None
                    }
                }
            }
            ExprKind::Application { func, params } => {
                let decl = self.compile_decl_expr(scope_node, brand, func, implicit)?;
                let mut compiled = Vec::new();
                let mut failed = false;
                for p in params {
                    if let Some(n) = &p.name {
                        self.error(file, n.span, "Named parameter not allowed here.".into());
                    }
                    match self.compile_decl_expr(scope_node, brand, &p.value, implicit) {
                        Some(d) => compiled.push(d),
                        None => failed = true,
                    }
                }
                if failed {
                    return Some(decl);
                }
                match decl {
                    BDecl::Param { .. } => Some(decl),
                    BDecl::Decl {
                        target, brand: b, ..
                    } => {
                        if !b.params.is_empty() {
                            self.error(
                                file,
                                e.span,
                                "Double-application of generic parameters.".into(),
                            );
                        } else if compiled.len() > b.leaf_params {
                            let msg = if b.leaf_params == 0 {
                                "Declaration does not accept generic parameters."
                            } else {
                                "Too many generic parameters."
                            };
                            self.error(file, e.span, msg.into());
                        } else if compiled.len() < b.leaf_params {
                            self.error(file, e.span, "Not enough generic parameters.".into());
                        } else {
                            if target != Target::Builtin(Builtin::List) {
                                for p in &compiled {
                                    if let BDecl::Decl { target, .. } = p {
                                        let ok = match target {
                                            Target::Builtin(b) => matches!(
                                                b,
                                                Builtin::List
                                                    | Builtin::Text
                                                    | Builtin::Data
                                                    | Builtin::AnyPointer
                                            ),
                                            Target::Node(n) => matches!(
                                                self.nodes[*n].kind,
                                                NK::Struct | NK::Interface
                                            ),
                                        };
                                        if !ok {
                                            self.error(
                                                file,
                                                p.span(),
                                                "Sorry, only pointer types can be used as generic parameters.".into(),
                                            );
                                        }
                                    }
                                }
                            }
                            let nb = BScope::new(
                                b.leaf_id,
                                b.leaf_params,
                                false,
                                compiled,
                                b.parent.clone(),
                            );
                            return Some(BDecl::Decl {
                                target,
                                brand: nb,
                                span: e.span,
                                text: expr_string(e),
                            });
                        }
                        Some(BDecl::Decl {
                            target,
                            brand: b,
                            span: e.span,
                            text: expr_string(e),
                        })
                    }
                }
            }
            ExprKind::Member { parent, name } => {
                let decl = self.compile_decl_expr(scope_node, brand, parent, implicit)?;
                let found = match &decl {
                    BDecl::Decl {
                        target: Target::Node(t),
                        brand: b,
                        ..
                    } => self
                        .resolve_member(*t, &name.value)
                        .map(|r| self.interpret(b, r, e)),
                    _ => None,
                };
                if found.is_none() {
                    self.error(
                        file,
                        name.span,
                        format!(
                            "'{}' has no member named '{}'",
                            expr_string(parent),
                            name.value
                        ),
                    );
                }
                found
            }
            _ => {
                self.error(file, e.span, "Expected name.".into());
                None
            }
        }
    }

    /// The brand levels `compile()` would emit for `s`.
    fn brand_levels(&self, s: &Rc<BScope>) -> Vec<Rc<BScope>> {
        let mut out = Vec::new();
        let mut p = Some(s.clone());
        while let Some(sc) = p {
            if !sc.params.is_empty() || (sc.inherited && sc.leaf_params > 0) {
                out.push(sc.clone());
            }
            p = sc.parent.clone();
        }
        out
    }

    fn compile_brand(&self, file: usize, s: &Rc<BScope>) -> Option<Brand> {
        let levels = self.brand_levels(s);
        if levels.is_empty() {
            return None;
        }
        let mut scopes = Vec::new();
        for l in levels {
            let bind = if l.inherited {
                None
            } else {
                Some(
                    l.params
                        .iter()
                        .map(|p| Some(self.compile_as_type(file, p).unwrap_or(Type::Void)))
                        .collect(),
                )
            };
            scopes.push(schema::BrandScope {
                scope_id: l.leaf_id,
                bind,
            });
        }
        Some(Brand { scopes })
    }

    fn compile_as_type(&self, file: usize, d: &BDecl) -> Option<Type> {
        match d {
            BDecl::Param { scope, index, .. } => Some(Type::AnyPointer(if *scope == 0 {
                AnyPointer::ImplicitMethodParameter(*index)
            } else {
                AnyPointer::Parameter {
                    scope: *scope,
                    index: *index,
                }
            })),
            BDecl::Decl {
                target,
                brand,
                span,
                text,
            } => match target {
                Target::Node(n) => {
                    let id = self.nodes[*n].id;
                    match self.nodes[*n].kind {
                        NK::Enum => Some(Type::Enum(id, self.compile_brand(file, brand))),
                        NK::Struct => Some(Type::Struct(id, self.compile_brand(file, brand))),
                        NK::Interface => Some(Type::Interface(id, self.compile_brand(file, brand))),
                        _ => {
                            self.error(file, *span, format!("'{text}' is not a type."));
                            None
                        }
                    }
                }
                Target::Builtin(b) => Some(match b {
                    Builtin::Void => Type::Void,
                    Builtin::Bool => Type::Bool,
                    Builtin::Int8 => Type::Int8,
                    Builtin::Int16 => Type::Int16,
                    Builtin::Int32 => Type::Int32,
                    Builtin::Int64 => Type::Int64,
                    Builtin::UInt8 => Type::UInt8,
                    Builtin::UInt16 => Type::UInt16,
                    Builtin::UInt32 => Type::UInt32,
                    Builtin::UInt64 => Type::UInt64,
                    Builtin::Float32 => Type::Float32,
                    Builtin::Float64 => Type::Float64,
                    Builtin::Text => Type::Text,
                    Builtin::Data => Type::Data,
                    Builtin::List => {
                        if brand.params.len() != 1 {
                            self.error(
                                file,
                                *span,
                                "'List' requires exactly one parameter.".into(),
                            );
                            return None;
                        }
                        let elem = self.compile_as_type(file, &brand.params[0])?;
                        // The reference checks the element's unconstrained
                        // kind without checking that it is unconstrained:
                        // for a generic parameter it reads the parameter's
                        // index there, so List(P) of the first (index 0) or
                        // second (index 1) parameter of a scope or method is
                        // refused as List(AnyPointer) or List(AnyStruct).
                        let kind = match &elem {
                            Type::AnyPointer(AnyPointer::Unconstrained(k)) => Some(*k),
                            Type::AnyPointer(AnyPointer::Parameter { index, .. })
                            | Type::AnyPointer(AnyPointer::ImplicitMethodParameter(index)) => {
                                Some(*index)
                            }
                            _ => None,
                        };
                        match kind {
                            Some(0) => {
                                self.error(
                                    file,
                                    *span,
                                    "'List(AnyPointer)' is not supported.".into(),
                                );
                                return None;
                            }
                            Some(1) => {
                                self.error(
                                    file,
                                    *span,
                                    "'List(AnyStruct)' is not supported.".into(),
                                );
                                return None;
                            }
                            _ => {}
                        }
                        Type::List(Box::new(elem))
                    }
                    Builtin::Object => {
                        self.error(file, *span, "As of Cap'n Proto 0.4, 'Object' has been renamed to 'AnyPointer'.  Sorry for the inconvenience, and thanks for being an early adopter.  :)".into());
                        Type::AnyPointer(AnyPointer::Unconstrained(0))
                    }
                    Builtin::AnyPointer => Type::AnyPointer(AnyPointer::Unconstrained(0)),
                    Builtin::AnyStruct => Type::AnyPointer(AnyPointer::Unconstrained(1)),
                    Builtin::AnyList => Type::AnyPointer(AnyPointer::Unconstrained(2)),
                    Builtin::Capability => Type::AnyPointer(AnyPointer::Unconstrained(3)),
                }),
            },
        }
    }

    fn compile_type(
        &self,
        scope_node: usize,
        brand: &Rc<BScope>,
        e: &Expr,
        imp: &Implicit<'_>,
    ) -> Option<Type> {
        let d = self.compile_decl_expr(scope_node, brand, e, imp)?;
        self.compile_as_type(self.nodes[scope_node].file, &d)
    }

    // ------------------------------------------------------------------
    // Translation

    /// The translation of node `idx` (memoized); None when it failed.
    pub fn translate(&self, idx: usize) -> Option<Rc<Translated>> {
        if let Some(r) = self.translated.borrow().get(&idx) {
            return r.clone();
        }
        let n = &self.nodes[idx];
        if !self.enter(n.file, node_span(n.decl)) {
            return None;
        }
        if !self.in_progress.borrow_mut().insert(idx) {
            self.leave();
            let n = &self.nodes[idx];
            self.error(
                n.file,
                node_span(n.decl),
                "Declaration recursively depends on itself.".into(),
            );
            return None;
        }
        let r = self.translate_inner(idx).map(Rc::new);
        self.in_progress.borrow_mut().remove(&idx);
        self.leave();
        if let Some(t) = &r {
            let mut all = self.all_nodes.borrow_mut();
            all.insert(t.node.id, Rc::new(t.node.clone()));
            for a in &t.aux {
                all.insert(a.id, Rc::new(a.clone()));
            }
        }
        self.translated.borrow_mut().insert(idx, r.clone());
        r
    }

    fn check_names(
        &self,
        file: usize,
        decls: &'a [Decl],
        parent_kind: &DeclKind,
        names: &mut BTreeMap<String, Span>,
    ) {
        for d in decls {
            let name = &d.name.value;
            if let Some(prev) = names.get(name) {
                if name.is_empty() && matches!(d.kind, DeclKind::Union) {
                    self.error(
                        file,
                        d.name.span,
                        "An unnamed union is already defined in this scope.".into(),
                    );
                    self.error(file, *prev, "Previously defined here.".into());
                } else {
                    self.error(
                        file,
                        d.name.span,
                        format!("'{name}' is already defined in this scope."),
                    );
                    self.error(file, *prev, format!("'{name}' previously defined here."));
                }
            } else {
                names.insert(name.clone(), d.name.span);
            }
            let first = name.as_bytes().first().copied();
            let upper = |s: &Self| {
                if let Some(c) = first {
                    if !c.is_ascii_uppercase() {
                        s.error(
                            file,
                            d.name.span,
                            "Type names must begin with a capital letter.".into(),
                        );
                    }
                }
            };
            let lower = |s: &Self| {
                if let Some(c) = first {
                    if !c.is_ascii_lowercase() {
                        s.error(
                            file,
                            d.name.span,
                            "Non-type names must begin with a lower-case letter.".into(),
                        );
                    }
                }
            };
            match &d.kind {
                DeclKind::Using(t) => {
                    let tn = target_name(t);
                    if tn
                        .as_bytes()
                        .first()
                        .is_some_and(|c| c.is_ascii_lowercase())
                    {
                        lower(self)
                    } else {
                        upper(self)
                    }
                }
                DeclKind::Enum | DeclKind::Struct | DeclKind::Interface { .. } => upper(self),
                _ => lower(self),
            }
            if name.contains('_') {
                self.error(file, d.name.span, "Cap'n Proto declaration names should use camelCase and must not contain underscores. (Code generators may convert names to the appropriate style for the target language.)".into());
            }
            let pk_ok_generic = matches!(
                parent_kind,
                DeclKind::File | DeclKind::Struct | DeclKind::Interface { .. }
            );
            match &d.kind {
                DeclKind::Using(_)
                | DeclKind::Const { .. }
                | DeclKind::Enum
                | DeclKind::Struct
                | DeclKind::Interface { .. }
                | DeclKind::Annotation { .. }
                    if !pk_ok_generic =>
                {
                    self.error(
                        file,
                        d.span,
                        "This kind of declaration doesn't belong here.".into(),
                    );
                }
                DeclKind::Field { .. } | DeclKind::Union | DeclKind::Group => {
                    if name.is_empty() {
                        self.check_names(file, &d.nested, &d.kind, names);
                    } else {
                        self.check_names(file, &d.nested, &d.kind, &mut BTreeMap::new());
                    }
                }
                _ => {}
            }
        }
    }

    fn translate_inner(&self, idx: usize) -> Option<Translated> {
        let n = &self.nodes[idx];
        let decl = n.decl;
        let file = n.file;
        self.check_names(file, &decl.nested, &decl.kind, &mut BTreeMap::new());
        let is_generic = self.is_generic(idx);
        let parameters = if decl.params.is_empty() {
            None
        } else {
            Some(decl.params.iter().map(|p| p.value.clone()).collect())
        };
        let mut node = Node {
            id: n.id,
            display_name: n.display.clone(),
            display_name_prefix_length: prefix_len(&n.display),
            scope_id: n.parent.map(|p| self.nodes[p].id).unwrap_or(0),
            parameters,
            is_generic,
            nested_nodes: Some(
                n.children
                    .iter()
                    .map(|&c| (self.nodes[c].decl.name.value.clone(), self.nodes[c].id))
                    .collect(),
            ),
            annotations: None,
            kind: NodeKind::File,
        };
        let mut si = SourceInfo {
            id: n.id,
            doc: decl.doc.clone(),
            members: None,
        };
        let mut aux = Vec::new();
        let mut aux_si = Vec::new();
        let brand = self.local_brand(idx);
        let targets_flag;
        match &decl.kind {
            DeclKind::File => targets_flag = 0,
            DeclKind::Const { ty, value } => {
                targets_flag = 1;
                match self.compile_type(idx, &brand, ty, &NO_IMPLICIT) {
                    Some(t) => {
                        let v = self.bootstrap_value(idx, value, &t);
                        node.kind = NodeKind::Const { ty: t, value: v };
                    }
                    None => {
                        node.kind = NodeKind::Const {
                            ty: Type::Void,
                            value: Value::Void,
                        }
                    }
                }
            }
            DeclKind::Annotation { ty, targets } => {
                targets_flag = 11;
                let t = self
                    .compile_type(idx, &brand, ty, &NO_IMPLICIT)
                    .unwrap_or(Type::Void);
                node.kind = NodeKind::Annotation {
                    ty: t,
                    targets: *targets,
                };
            }
            DeclKind::Enum => {
                targets_flag = 2;
                let mut ens: Vec<(u64, usize, &Decl)> = Vec::new();
                for (co, m) in decl
                    .nested
                    .iter()
                    .filter(|m| matches!(m.kind, DeclKind::Enumerant))
                    .enumerate()
                {
                    ens.push((m.ordinal().map(|o| o.value).unwrap_or(0), co, m));
                }
                ens.sort_by_key(|e| e.0);
                let mut dup = DupOrdinal::default();
                let mut out = Vec::new();
                let mut docs = Vec::new();
                for (_, co, m) in ens {
                    if let Some(o) = m.ordinal() {
                        dup.check(self, file, o);
                    }
                    docs.push(m.doc.clone());
                    out.push(Enumerant {
                        name: m.name.value.clone(),
                        code_order: co as u16,
                        annotations: self.annotations(idx, &m.annotations, 3),
                    });
                }
                node.kind = NodeKind::Enum(out);
                si.members = Some(docs);
            }
            DeclKind::Struct => {
                targets_flag = 4;
                let mut st = StructTr::new(
                    self,
                    idx,
                    Implicit {
                        scope_id: 0,
                        names: &[],
                    },
                );
                let (snode, groups) = st.translate_decls(&decl.nested, &node);
                node.kind = snode.kind;
                si.members = snode.members;
                for (g, gsi) in groups {
                    aux.push(g);
                    aux_si.push(gsi);
                }
            }
            DeclKind::Interface { superclasses } => {
                targets_flag = 8;
                let mut supers = Vec::new();
                for s in superclasses {
                    let mut entry = (0u64, None);
                    if let Some(d) = self.compile_decl_expr(idx, &brand, s, &NO_IMPLICIT) {
                        match &d {
                            BDecl::Decl {
                                target: Target::Node(t),
                                brand: b,
                                ..
                            } if self.nodes[*t].kind == NK::Interface => {
                                entry = (self.nodes[*t].id, self.compile_brand(file, b));
                            }
                            BDecl::Decl { .. } => {
                                self.error(file, d.span(), format!("'{}' is not an interface.", d.text()))
                            }
                            BDecl::Param { .. } => self.error(
                                file,
                                d.span(),
                                format!("'{}' is an unbound generic parameter. Currently we don't support extending these.", d.text()),
                            ),
                        }
                    }
                    supers.push(entry);
                }
                let mut ms: Vec<(u64, usize, &Decl)> = Vec::new();
                for (co, m) in decl
                    .nested
                    .iter()
                    .filter(|m| matches!(m.kind, DeclKind::Method { .. }))
                    .enumerate()
                {
                    ms.push((m.ordinal().map(|o| o.value).unwrap_or(0), co, m));
                }
                ms.sort_by_key(|e| e.0);
                let mut dup = DupOrdinal::default();
                let mut methods = Vec::new();
                let mut docs = Vec::new();
                for (_, co, m) in ms {
                    let DeclKind::Method {
                        implicit_params,
                        params,
                        results,
                    } = &m.kind
                    else {
                        continue;
                    };
                    let ord = m.ordinal().map(|o| o.value).unwrap_or(0);
                    if let Some(o) = m.ordinal() {
                        dup.check(self, file, o);
                    }
                    docs.push(m.doc.clone());
                    if let ParamList::Stream(s) = params {
                        self.error(
                            file,
                            *s,
                            "'stream' can only appear after '->', not before.".into(),
                        );
                    }
                    let (pid, pbrand) = self.param_list(
                        idx,
                        &node,
                        &m.name.value,
                        ord as u16,
                        false,
                        params,
                        implicit_params,
                        &mut aux,
                        &mut aux_si,
                    );
                    let rl = results.as_ref().unwrap_or(&EMPTY_PARAMS);
                    let (rid, rbrand) = self.param_list(
                        idx,
                        &node,
                        &m.name.value,
                        ord as u16,
                        true,
                        rl,
                        implicit_params,
                        &mut aux,
                        &mut aux_si,
                    );
                    methods.push(Method {
                        name: m.name.value.clone(),
                        code_order: co as u16,
                        implicit_parameters: implicit_params
                            .iter()
                            .map(|p| p.value.clone())
                            .collect(),
                        param_struct_type: pid,
                        param_brand: pbrand,
                        result_struct_type: rid,
                        result_brand: rbrand,
                        annotations: self.annotations(idx, &m.annotations, 9),
                    });
                }
                node.kind = NodeKind::Interface {
                    methods,
                    superclasses: supers,
                };
                si.members = Some(docs);
            }
            _ => return None,
        }
        node.annotations = self.annotations(idx, &decl.annotations, targets_flag);
        let mut source_info = vec![si];
        source_info.extend(aux_si);
        Some(Translated {
            node,
            aux,
            source_info,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn param_list(
        &self,
        idx: usize,
        iface: &Node,
        method: &str,
        ordinal: u16,
        results: bool,
        pl: &'a ParamList,
        implicit: &'a [Located<String>],
        aux: &mut Vec<Node>,
        aux_si: &mut Vec<SourceInfo>,
    ) -> (u64, Option<Brand>) {
        let file = self.nodes[idx].file;
        match pl {
            ParamList::Named(params, _) => {
                // The reference has no name check for parameters; its schema
                // validation refuses the duplicate instead (reported as a
                // failed validation of the interface). Name it plainly.
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for p in params {
                    if let Some(prev) = seen.insert(&p.name.value, p.name.span) {
                        self.error(
                            file,
                            p.name.span,
                            format!(
                                "'{}' is already defined in this parameter list.",
                                p.name.value
                            ),
                        );
                        self.error(
                            file,
                            prev,
                            format!("'{}' previously defined here.", p.name.value),
                        );
                    }
                }
                let id = ids::method_params_id(iface.id, ordinal, results);
                let type_name = format!("{method}{}", if results { "$Results" } else { "$Params" });
                let display = format!("{}.{}", iface.display_name, type_name);
                let mut node = Node {
                    id,
                    display_name: display.clone(),
                    display_name_prefix_length: (display.len() - type_name.len()) as u32,
                    scope_id: 0,
                    parameters: None,
                    is_generic: iface.is_generic || !implicit.is_empty(),
                    nested_nodes: None,
                    annotations: None,
                    kind: NodeKind::Struct(StructNode::default()),
                };
                let mut st = StructTr::new(
                    self,
                    idx,
                    Implicit {
                        scope_id: id,
                        names: implicit,
                    },
                );
                let (snode, groups) = st.translate_params(params, &node);
                node.kind = snode.kind;
                let si = SourceInfo {
                    id: 0,
                    doc: None,
                    members: snode.members,
                };
                if !implicit.is_empty() {
                    node.parameters = Some(implicit.iter().map(|p| p.value.clone()).collect());
                }
                let local = self.local_brand(idx);
                // The reference builds a brand binding the implicit
                // parameters but drops it (setParams' result is unused), so
                // the brand is the bare push: only enclosing generics show.
                let b = push(&local, id, implicit.len());
                let brand = self.compile_brand(file, &b);
                aux.push(node);
                aux_si.push(si);
                for (g, gsi) in groups {
                    aux.push(g);
                    aux_si.push(gsi);
                }
                (id, brand)
            }
            ParamList::Type(t) => {
                let local = self.local_brand(idx);
                let imp = Implicit {
                    scope_id: 0,
                    names: implicit,
                };
                match self.compile_decl_expr(idx, &local, t, &imp) {
                    Some(BDecl::Decl {
                        target: Target::Node(n),
                        brand,
                        ..
                    }) if self.nodes[n].kind == NK::Struct => {
                        (self.nodes[n].id, self.compile_brand(file, &brand))
                    }
                    Some(BDecl::Param { span, .. }) => {
                        self.error(file, span, "Cannot use generic parameter as whole input or output of a method. Instead, use a parameter/result list containing a field with this type.".into());
                        (0, None)
                    }
                    Some(_) => {
                        self.error(
                            file,
                            t.span,
                            format!("'{}' is not a struct type.", expr_string(t)),
                        );
                        (0, None)
                    }
                    None => (0, None),
                }
            }
            ParamList::Stream(s) => {
                let ok = self.files[file]
                    .imports
                    .get("/capnp/stream.capnp")
                    .and_then(|r| r.as_ref().ok().copied())
                    .map(|fi| {
                        self.nodes[self.file_root[fi]]
                            .members
                            .contains_key("StreamResult")
                    });
                match ok {
                    Some(true) => {}
                    Some(false) => self.error(file, *s, "The version of '/capnp/stream.capnp' found in your import path does not appear to be the official one; it is missing the declaration of StreamResult.".into()),
                    None => self.error(file, *s, "A method declaration uses streaming, but '/capnp/stream.capnp' is not found in the import path. This is a standard file that should always be installed with the Cap'n Proto compiler.".into()),
                }
                (STREAM_RESULT_ID, None)
            }
        }
    }

    /// Compiles annotation applications; `flag` indexes [`TARGET_NAMES`].
    fn annotations(
        &self,
        idx: usize,
        apps: &'a [AnnotationApp],
        flag: usize,
    ) -> Option<Vec<Annotation>> {
        if apps.is_empty() {
            return None;
        }
        let file = self.nodes[idx].file;
        let brand = self.local_brand(idx);
        let mut out = Vec::new();
        for a in apps {
            let mut ann = Annotation {
                id: 0,
                brand: Brand { scopes: Vec::new() },
                value: Value::Void,
            };
            let name = expr_string(&a.name);
            if let Some(d) = self.compile_decl_expr(idx, &brand, &a.name, &NO_IMPLICIT) {
                match &d {
                    BDecl::Decl {
                        target: Target::Node(t),
                        brand: b,
                        ..
                    } if self.nodes[*t].kind == NK::Annotation => {
                        ann.id = self.nodes[*t].id;
                        if let Some(br) = self.compile_brand(file, b) {
                            ann.brand = br;
                        }
                        if let Some(tr) = self.translate(*t) {
                            if let NodeKind::Annotation { ty, targets } = &tr.node.kind {
                                if !targets[flag] {
                                    self.error(file, a.name.span, format!("'{name}' cannot be applied to this kind of declaration."));
                                }
                                match &a.value {
                                    None => {
                                        if *ty != Type::Void {
                                            self.error(
                                                file,
                                                a.name.span,
                                                format!("'{name}' requires a value."),
                                            );
                                            ann.value = default_default(ty);
                                        }
                                    }
                                    Some(v) => {
                                        let ty = subst(ty, &Some(ann.brand.clone()));
                                        ann.value = self.bootstrap_value(idx, v, &ty);
                                    }
                                }
                            }
                        }
                    }
                    _ => self.error(file, a.name.span, format!("'{name}' is not an annotation.")),
                }
            }
            out.push(ann);
        }
        Some(out)
    }

    // ------------------------------------------------------------------
    // Values

    /// A value for a slot or constant of type `ty`: primitives now,
    /// pointers deferred to [`Ctx::finish_values`] (they may need the
    /// layout of other structs).
    fn bootstrap_value(&self, scope: usize, e: &'a Expr, ty: &Type) -> Value {
        if is_pointer(ty) {
            let mut p = self.pending.borrow_mut();
            p.push(PendingValue {
                file: self.nodes[scope].file,
                expr: e,
                ty: ty.clone(),
                scope,
            });
            return Value::Pending(p.len() - 1);
        }
        self.eval(scope, e, ty)
            .unwrap_or_else(|| default_default(ty))
    }

    fn pending_value(&self, i: usize) -> Option<Value> {
        if let Some(v) = self.pending_done.borrow().get(&i) {
            return v.clone();
        }
        let (file, scope, expr, ty) = {
            let p = self.pending.borrow();
            let pv = &p[i];
            (pv.file, pv.scope, pv.expr, pv.ty.clone())
        };
        if !self.enter(file, expr.span) {
            return None;
        }
        if !self.pending_busy.borrow_mut().insert(i) {
            self.leave();
            self.error(
                file,
                expr.span,
                "Declaration recursively depends on itself.".into(),
            );
            return None;
        }
        let v = self.eval(scope, expr, &ty);
        self.pending_busy.borrow_mut().remove(&i);
        self.leave();
        self.pending_done.borrow_mut().insert(i, v.clone());
        v
    }

    /// Replaces every deferred value in `node` with its evaluation.
    pub fn finish_node(&self, node: &mut Node) {
        let fix = |v: &mut Value| {
            if let Value::Pending(i) = v {
                let i = *i;
                let ty_default = {
                    let p = self.pending.borrow();
                    default_default(&p[i].ty)
                };
                *v = self.pending_value(i).unwrap_or(ty_default);
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
    fn enumerant(&self, id: u64, name: &str) -> Option<u16> {
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

    fn node_by_id(&self, id: u64) -> Option<Rc<Node>> {
        if let Some(n) = self.all_nodes.borrow().get(&id) {
            return Some(n.clone());
        }
        let idx = *self.by_id.get(&id)?;
        self.translate(idx)?;
        self.all_nodes.borrow().get(&id).cloned()
    }

    fn type_name(&self, t: &Type) -> String {
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
                .by_id
                .get(id)
                .map(|&i| {
                    let d = &self.nodes[i].display;
                    d[prefix_len(d) as usize..].to_string()
                })
                .unwrap_or_default(),
            Type::AnyPointer(_) => "AnyPointer".into(),
        }
    }

    fn mismatch(&self, file: usize, e: &Expr, t: &Type) {
        self.error(
            file,
            e.span,
            format!("Type mismatch; expected {}.", self.type_name(t)),
        );
    }

    /// Evaluates `e` as a value of type `t` in the scope of node `scope`.
    /// The value of `e` as type `t`, one level deeper (see
    /// [`enter`](Self::enter)).
    fn eval(&self, scope: usize, e: &'a Expr, t: &Type) -> Option<Value> {
        if !self.enter(self.nodes[scope].file, e.span) {
            return None;
        }
        let v = self.eval_unchecked(scope, e, t);
        self.leave();
        v
    }

    fn eval_unchecked(&self, scope: usize, e: &'a Expr, t: &Type) -> Option<Value> {
        let file = self.nodes[scope].file;
        if let Type::AnyPointer(
            AnyPointer::Parameter { .. } | AnyPointer::ImplicitMethodParameter(_),
        ) = t
        {
            self.error(file, e.span, "Cannot interpret value because the type is a generic type parameter which is not yet bound. We don't know what type to expect here.".into());
            return None;
        }
        match &e.kind {
            ExprKind::RelativeName(n) => {
                if let Type::Enum(id, _) = t {
                    if let Some(i) = self.enumerant(*id, &n.value) {
                        return Some(Value::Enum(i));
                    }
                } else {
                    match n.value.as_str() {
                        "void" => return self.coerce_void(file, e, t),
                        "true" | "false" => {
                            if *t == Type::Bool {
                                return Some(Value::Bool(n.value == "true"));
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
            ExprKind::AbsoluteName(_)
            | ExprKind::Import(_)
            | ExprKind::Application { .. }
            | ExprKind::Member { .. } => self.constant(scope, e, t),
            ExprKind::Embed(f) => {
                let bytes = match self.files[file].embeds.get(&f.value) {
                    Some(Ok(b)) => b.as_ref().clone(),
                    Some(Err(e)) => {
                        self.error(
                            file,
                            f.span,
                            e.message("Couldn't read file for embed", &f.value),
                        );
                        return None;
                    }
                    None => {
                        self.error(
                            file,
                            f.span,
                            format!("Couldn't read file for embed: {}", f.value),
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
                                capnarena::MessageReader::from_words(
                                    &words,
                                    crate::emit::embed_options(),
                                )
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
                            "Embeds can only be used when Text, Data, or a struct is expected."
                                .into(),
                        );
                        None
                    }
                }
            }
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
            ExprKind::List(items) => {
                let Type::List(et) = t else {
                    self.mismatch(file, e, t);
                    return None;
                };
                let vals: Vec<Value> = items
                    .iter()
                    .map(|i| {
                        self.eval(scope, i, et)
                            .unwrap_or_else(|| default_default(et))
                    })
                    .collect();
                Some(Value::List(Some(Ptr::List(self.list_val(et, vals)))))
            }
            ExprKind::Tuple(ps) => {
                let Type::Struct(id, brand) = t else {
                    self.mismatch(file, e, t);
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
                self.fill_struct(scope, &node, &mut sv, ps, brand);
                Some(Value::Struct(Some(Ptr::Struct(sv))))
            }
        }
    }

    fn fill_struct(
        &self,
        scope: usize,
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
                put(
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
                            self.fill_struct(scope, &g, sv, inner, brand);
                        }
                    } else {
                        self.error(file, p.value.span, "Type mismatch; expected group.".into());
                    }
                }
            }
        }
    }

    fn list_val(&self, et: &Type, vals: Vec<Value>) -> ListVal {
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
            t if is_pointer(t) => ListVal::Pointers(vals.into_iter().map(value_ptr).collect()),
            t => {
                let w = (1usize << type_lg(t)) / 8;
                let mut data = Vec::with_capacity(n * w);
                for v in &vals {
                    data.extend_from_slice(&prim_bytes(v)[..w]);
                }
                ListVal::Bytes {
                    width: w as u8,
                    data,
                }
            }
        }
    }

    fn coerce_void(&self, file: usize, e: &Expr, t: &Type) -> Option<Value> {
        if *t == Type::Void {
            return Some(Value::Void);
        }
        self.mismatch(file, e, t);
        None
    }

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
        Some(int_value(t, v as i128))
    }

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
        Some(int_value(t, v as i128))
    }

    /// A reference to a constant used as a value of type `t`.
    fn constant(&self, scope: usize, e: &'a Expr, t: &Type) -> Option<Value> {
        let file = self.nodes[scope].file;
        let brand = self.local_brand(scope);
        let d = self.compile_decl_expr(scope, &brand, e, &NO_IMPLICIT)?;
        let BDecl::Decl {
            target: Target::Node(ci),
            ..
        } = d
        else {
            self.error(
                file,
                e.span,
                format!("'{}' does not refer to a constant.", expr_string(e)),
            );
            return None;
        };
        if self.nodes[ci].kind != NK::Const {
            self.error(
                file,
                e.span,
                format!("'{}' does not refer to a constant.", expr_string(e)),
            );
            return None;
        }
        let tr = self.translate(ci)?;
        let NodeKind::Const { ty: cty, value } = &tr.node.kind else {
            return None;
        };
        let value = match value {
            Value::Pending(i) => self.pending_value(*i)?,
            v => v.clone(),
        };
        // Every copy of a constant into another value counts against one
        // budget: constants that copy the one before twice would double
        // on each line.
        let (words, depth) = value_size(&value);
        // The copy lands this deep in the value being built: writing it
        // out recurses once per level.
        if depth.saturating_add(self.depth.get()) > limits::MAX_RECURSION {
            self.error(
                file,
                e.span,
                format!(
                    "Copying this constant, {depth} pointers deep, nests the value more than {} levels deep (limits::MAX_RECURSION).",
                    limits::MAX_RECURSION
                ),
            );
            return None;
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
            return None;
        }
        self.copied_words.set(total);
        if let ExprKind::RelativeName(n) = &e.kind {
            let parent = self.nodes[ci].parent.unwrap_or(ci);
            let pn = &self.nodes[parent];
            let prefix = if pn.kind == NK::File {
                String::new()
            } else {
                pn.display[prefix_len(&pn.display) as usize..].to_string()
            };
            self.error(file, e.span, format!("Constant names must be qualified to avoid confusion.  Please replace '{}' with '{}.{}', if that's what you intended.", n.value, prefix, n.value));
        }
        // Re-check the constant's value against the wanted type.
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
                let x = int_of(&value);
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

    // ------------------------------------------------------------------
    // The reference's output order

    /// Notes that file `fi` was resolved through a path that names it
    /// `name`.
    fn claim(&self, fi: usize, name: &str) {
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

    /// The first file resolved through two different paths: (the second
    /// path's name, the first's).
    pub fn second_path(&self) -> Option<(String, String)> {
        self.second_path.borrow().clone()
    }

    /// Compiles the requested files (by index, each with the name it was
    /// given) and returns the request's nodes and source info in the
    /// reference's order.
    pub fn request(&self, requested: &[(usize, String)]) -> (Vec<Node>, Vec<SourceInfo>) {
        let mut ord = Order {
            map_order: Vec::new(),
            state: HashMap::new(),
            loaded_nodes: HashSet::new(),
            si_map: crate::stdmap::StdUnorderedMap::new(),
            si_by_id: HashMap::new(),
        };
        for (fi, name) in requested {
            let fi = *fi;
            self.claim(fi, name);
            let mut seen: HashMap<usize, u32> = HashMap::new();
            let mut infos: Vec<SourceInfo> = Vec::new();
            self.traverse(
                self.file_root[fi],
                EAGER_ROOT,
                &mut seen,
                &mut ord,
                &mut infos,
            );
            for si in infos {
                ord.si_map.insert(si.id);
                ord.si_by_id.entry(si.id).or_insert(si);
            }
        }
        let mut nodes = Vec::new();
        for id in &ord.map_order {
            if ord.state.get(id) == Some(&true) {
                let found = self.all_nodes.borrow().get(id).cloned();
                if let Some(n) = found {
                    let mut n = (*n).clone();
                    self.finish_node(&mut n);
                    nodes.push(n);
                }
            }
        }
        let infos = ord
            .si_map
            .keys_in_order()
            .into_iter()
            .filter_map(|id| ord.si_by_id.remove(&id))
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
        idx: usize,
        e: u32,
        seen: &mut HashMap<usize, u32>,
        ord: &mut Order,
        infos: &mut Vec<SourceInfo>,
    ) {
        enum Step {
            Visit(usize, u32),
            Infos(Rc<Translated>),
            Aliases(usize),
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
                    for a in &self.nodes[idx].aliases {
                        self.compile_alias(idx, a);
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
                    stack.push(Step::Visit(p, e));
                }
            }
            if let Some(tr) = self.translate(idx) {
                if ord.loaded_nodes.insert(idx) {
                    for a in &tr.aux {
                        ord.load(a);
                    }
                    ord.load(&tr.node);
                }
                stack.push(Step::Infos(tr.clone()));
                if e / DEPENDENCIES != 0 {
                    let ne = (e & !(DEPENDENCIES - 1)) | (e / DEPENDENCIES);
                    deps.clear();
                    self.node_deps(&tr.node, &mut deps);
                    for a in &tr.aux {
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
    fn node_deps(&self, n: &Node, out: &mut Vec<usize>) {
        let anns = |a: &Option<Vec<Annotation>>, out: &mut Vec<usize>| {
            for x in a.iter().flatten() {
                if let Some(&i) = self.by_id.get(&x.id) {
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
                        self.dep(*id, out);
                    }
                    self.brand_deps(b, out);
                }
                for m in methods {
                    self.dep(m.param_struct_type, out);
                    self.brand_deps(&m.param_brand, out);
                    self.dep(m.result_struct_type, out);
                    self.brand_deps(&m.result_brand, out);
                    anns(&m.annotations, out);
                }
            }
            NodeKind::Const { ty, .. } | NodeKind::Annotation { ty, .. } => self.type_deps(ty, out),
            NodeKind::File => {}
        }
        anns(&n.annotations, out);
    }

    fn dep(&self, id: u64, out: &mut Vec<usize>) {
        if let Some(&i) = self.by_id.get(&id) {
            out.push(i);
        }
    }

    /// The nodes a type names (recursing once per level of the type,
    /// at most [`limits::MAX_TYPE_DEPTH`]).
    fn type_deps(&self, t: &Type, out: &mut Vec<usize>) {
        match t {
            Type::List(el) => self.type_deps(el, out),
            Type::Struct(id, b) | Type::Enum(id, b) | Type::Interface(id, b) => {
                self.dep(*id, out);
                self.brand_deps(b, out);
            }
            _ => {}
        }
    }

    fn brand_deps(&self, b: &Option<Brand>, out: &mut Vec<usize>) {
        for s in b.iter().flat_map(|b| &b.scopes) {
            for t in s.bind.iter().flatten().flatten() {
                self.type_deps(t, out);
            }
        }
    }
}

static EMPTY_PARAMS: ParamList = ParamList::Named(Vec::new(), Span { start: 0, end: 0 });

const NODE: u32 = 1;
const PARENTS: u32 = 2;
const CHILDREN: u32 = 4;
const DEPENDENCIES: u32 = 1 << 15;
const EAGER_ROOT: u32 = NODE | CHILDREN | DEPENDENCIES | (PARENTS * DEPENDENCIES);

/// The reference's final schema loader, as far as order goes: ids in
/// first-insertion order, placeholders for dependencies a node's
/// validation looks up before the node itself goes in.
struct Order {
    map_order: Vec<u64>,
    /// id -> loaded (true) or placeholder (false).
    state: HashMap<u64, bool>,
    loaded_nodes: HashSet<usize>,
    si_map: crate::stdmap::StdUnorderedMap,
    si_by_id: HashMap<u64, SourceInfo>,
}

impl Order {
    fn placeholder(&mut self, id: u64) {
        if let std::collections::hash_map::Entry::Vacant(v) = self.state.entry(id) {
            v.insert(false);
            self.map_order.push(id);
        }
    }

    fn type_deps(&mut self, t: &Type) {
        match t {
            Type::List(e) => self.type_deps(e),
            Type::Struct(id, b) | Type::Enum(id, b) | Type::Interface(id, b) => {
                self.placeholder(*id);
                self.brand_deps(b);
            }
            _ => {}
        }
    }

    fn brand_deps(&mut self, b: &Option<Brand>) {
        for s in b.iter().flat_map(|b| &b.scopes) {
            for t in s.bind.iter().flatten().flatten() {
                self.type_deps(t);
            }
        }
    }

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

/// `t` as seen through `brand`: generic parameters bound there replaced by
/// their bindings (unbound ones by AnyPointer), inherited scopes of nested
/// brands by the bindings `brand` gives them.
fn subst(t: &Type, brand: &Option<Brand>) -> Type {
    let Some(b) = brand else {
        return t.clone();
    };
    match t {
        Type::AnyPointer(AnyPointer::Parameter { scope, index }) => {
            match b.scopes.iter().find(|s| s.scope_id == *scope) {
                Some(schema::BrandScope {
                    bind: Some(list), ..
                }) => match list.get(*index as usize) {
                    Some(Some(bound)) => bound.clone(),
                    Some(None) => Type::AnyPointer(AnyPointer::Unconstrained(0)),
                    None => t.clone(),
                },
                _ => t.clone(),
            }
        }
        Type::List(e) => Type::List(Box::new(subst(e, brand))),
        Type::Struct(id, inner) => Type::Struct(*id, subst_brand(inner, b)),
        Type::Enum(id, inner) => Type::Enum(*id, subst_brand(inner, b)),
        Type::Interface(id, inner) => Type::Interface(*id, subst_brand(inner, b)),
        _ => t.clone(),
    }
}

fn subst_brand(inner: &Option<Brand>, outer: &Brand) -> Option<Brand> {
    let inner = inner.as_ref()?;
    let outer_opt = Some(outer.clone());
    Some(Brand {
        scopes: inner
            .scopes
            .iter()
            .map(|s| match &s.bind {
                None => outer
                    .scopes
                    .iter()
                    .find(|o| o.scope_id == s.scope_id && o.bind.is_some())
                    .cloned()
                    .unwrap_or_else(|| s.clone()),
                Some(list) => schema::BrandScope {
                    scope_id: s.scope_id,
                    bind: Some(
                        list.iter()
                            .map(|t| t.as_ref().map(|t| subst(t, &outer_opt)))
                            .collect(),
                    ),
                },
            })
            .collect(),
    })
}

fn list_compatible(a: &Type, b: &Type) -> bool {
    a == b
}

fn target_name(e: &Expr) -> String {
    match &e.kind {
        ExprKind::AbsoluteName(n) | ExprKind::RelativeName(n) => n.value.clone(),
        ExprKind::Application { func, .. } => target_name(func),
        ExprKind::Member { name, .. } => name.value.clone(),
        _ => String::new(),
    }
}

fn node_span(d: &Decl) -> Span {
    if d.name.value.is_empty() {
        d.span
    } else {
        d.name.span
    }
}

fn int_value(t: &Type, v: i128) -> Value {
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

fn int_of(v: &Value) -> i128 {
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
fn prim_bytes(v: &Value) -> [u8; 8] {
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

fn value_ptr(v: Value) -> Option<Ptr> {
    match v {
        Value::Text(t) => t.map(Ptr::Text),
        Value::Data(d) => d.map(Ptr::Data),
        Value::List(p) | Value::Struct(p) | Value::AnyPointer(p) => p,
        _ => None,
    }
}

fn put(data: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(dst) = data.get_mut(at..at + bytes.len()) {
        dst.copy_from_slice(bytes);
    }
}

/// Stores `v` in a struct value's slot of type `ty` at `offset`, XORed
/// with the field's default as the encoding requires.
fn store_value(sv: &mut StructVal, offset: u32, ty: &Type, v: &Value, default: &Value) {
    let lg = type_lg(ty);
    match lg {
        -1 => {}
        -2 => {
            if let Some(p) = sv.ptrs.get_mut(offset as usize) {
                *p = value_ptr(v.clone());
            }
        }
        0 => {
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
        _ => {
            let w = (1usize << lg) / 8;
            let a = prim_bytes(v);
            let d = prim_bytes(default);
            let x: Vec<u8> = a.iter().zip(d.iter()).map(|(a, b)| a ^ b).take(w).collect();
            put(&mut sv.data, offset as usize * w, &x);
        }
    }
}

#[derive(Default)]
struct DupOrdinal {
    expected: u64,
    last: Option<Span>,
    last_value: u64,
}

impl DupOrdinal {
    fn check(&mut self, cx: &Ctx<'_>, file: usize, o: &Located<u64>) {
        if o.value < self.expected {
            cx.error(file, o.span, "Duplicate ordinal number.".into());
            if let Some(l) = self.last.take() {
                cx.error(
                    file,
                    l,
                    format!("Ordinal @{} originally used here.", self.last_value),
                );
            }
        } else if o.value > self.expected {
            cx.error(
                file,
                o.span,
                format!(
                    "Skipped ordinal @{}.  Ordinals must be sequential with no holes.",
                    self.expected
                ),
            );
            self.expected = o.value + 1;
        } else {
            self.expected += 1;
            self.last = Some(o.span);
            self.last_value = o.value;
        }
    }
}

// ----------------------------------------------------------------------
// Struct translation

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MKind {
    Root,
    Field,
    Union,
    Group,
}

struct MI<'a> {
    parent: Option<usize>,
    code_order: u16,
    index: u16,
    /// Members inside (up to 65,536: one per ordinal, so not a `u16`).
    child_count: u32,
    child_init: u32,
    union_disc: u32,
    in_union: bool,
    name: String,
    kind: MKind,
    decl: Option<&'a Decl>,
    param: Option<&'a MethodParam>,
    field_scope: Scope,
    union_scope: Option<usize>,
    /// Index into `StructTr::structs` for groups and the root.
    st: Option<usize>,
    /// (struct index, field index) once the field exists.
    schema: Option<(usize, usize)>,
    doc: Option<Vec<u8>>,
}

struct StructOut {
    node: Node,
    fields: Option<Vec<Option<Field>>>,
    docs: Option<Vec<Option<Vec<u8>>>>,
    doc: Option<Vec<u8>>,
}

/// What [`StructTr`] returns for the root: its kind and member docs.
struct RootOut {
    kind: NodeKind,
    members: Option<Vec<Option<Vec<u8>>>>,
}

struct StructTr<'c, 'a> {
    cx: &'c Ctx<'a>,
    scope: usize,
    implicit: Implicit<'a>,
    layout: Layout,
    mis: Vec<MI<'a>>,
    structs: Vec<StructOut>,
    by_ordinal: BTreeMap<u64, Vec<usize>>,
    all: Vec<usize>,
}

impl<'c, 'a> StructTr<'c, 'a> {
    fn new(cx: &'c Ctx<'a>, scope: usize, implicit: Implicit<'a>) -> Self {
        StructTr {
            cx,
            scope,
            implicit,
            layout: Layout::new(),
            mis: Vec::new(),
            structs: Vec::new(),
            by_ordinal: BTreeMap::new(),
            all: Vec::new(),
        }
    }

    fn file(&self) -> usize {
        self.cx.nodes[self.scope].file
    }

    fn root(&mut self, node: &Node) -> usize {
        let mut node = node.clone();
        node.kind = NodeKind::Struct(StructNode::default());
        self.structs.push(StructOut {
            node,
            fields: None,
            docs: None,
            doc: None,
        });
        self.mis.push(MI {
            parent: None,
            code_order: 0,
            index: 0,
            child_count: 0,
            child_init: 0,
            union_disc: 0,
            in_union: false,
            name: String::new(),
            kind: MKind::Root,
            decl: None,
            param: None,
            field_scope: Scope::Top,
            union_scope: None,
            st: Some(0),
            schema: None,
            doc: None,
        });
        0
    }

    fn new_mi(
        &mut self,
        parent: usize,
        code_order: u16,
        kind: MKind,
        decl: Option<&'a Decl>,
        in_union: bool,
        scope: Scope,
    ) -> usize {
        self.mis[parent].child_count += 1;
        let name = decl.map(|d| d.name.value.clone()).unwrap_or_default();
        let mut st = None;
        if matches!(kind, MKind::Union | MKind::Group) {
            let pst = self.mis[parent].st.unwrap_or(0);
            let pnode = &self.structs[pst].node;
            let display = format!("{}.{}", pnode.display_name, name);
            let node = Node {
                id: 0,
                display_name: display.clone(),
                display_name_prefix_length: (display.len() - name.len()) as u32,
                scope_id: 0,
                parameters: None,
                is_generic: pnode.is_generic,
                nested_nodes: None,
                annotations: None,
                kind: NodeKind::Struct(StructNode {
                    is_group: true,
                    ..Default::default()
                }),
            };
            self.structs.push(StructOut {
                node,
                fields: None,
                docs: None,
                doc: decl.and_then(|d| d.doc.clone()),
            });
            st = Some(self.structs.len() - 1);
        }
        self.mis.push(MI {
            parent: Some(parent),
            code_order,
            index: 0,
            child_count: 0,
            child_init: 0,
            union_disc: 0,
            in_union,
            name,
            kind,
            decl,
            param: None,
            field_scope: scope,
            union_scope: None,
            st,
            schema: None,
            doc: decl.and_then(|d| d.doc.clone()),
        });
        let i = self.mis.len() - 1;
        self.all.push(i);
        i
    }

    fn translate_decls(
        &mut self,
        members: &'a [Decl],
        node: &Node,
    ) -> (RootOut, Vec<(Node, SourceInfo)>) {
        let root = self.root(node);
        self.traverse_top_or_group(members, root, Scope::Top);
        self.finish(root)
    }

    fn translate_params(
        &mut self,
        params: &'a [MethodParam],
        node: &Node,
    ) -> (RootOut, Vec<(Node, SourceInfo)>) {
        let root = self.root(node);
        for (i, p) in params.iter().enumerate() {
            let m = self.new_mi(root, i as u16, MKind::Field, None, false, Scope::Top);
            self.mis[m].name = p.name.value.clone();
            self.mis[m].param = Some(p);
            self.by_ordinal.entry(i as u64).or_default().push(m);
        }
        self.finish(root)
    }

    fn traverse_union(&mut self, decl: &'a Decl, parent: usize, u: usize, code_order: &mut u16) {
        let file = self.file();
        if decl.nested.len() < 2 {
            self.cx.error(
                file,
                decl.span,
                "Union must have at least two members.".into(),
            );
        }
        for m in &decl.nested {
            match &m.kind {
                DeclKind::Field { .. } => {
                    let g = self.layout.new_group(u);
                    let mi = self.new_mi(parent, *code_order, MKind::Field, Some(m), true, g);
                    *code_order = code_order.wrapping_add(1);
                    let o = m.ordinal().map(|o| o.value).unwrap_or(0);
                    self.by_ordinal.entry(o).or_default().push(mi);
                }
                DeclKind::Union => {
                    if m.name.value.is_empty() {
                        self.cx
                            .error(file, m.span, "Unions cannot contain unnamed unions.".into());
                        continue;
                    }
                    let g = self.layout.new_group(u);
                    let inner = self.layout.new_union(g);
                    let mi = self.new_mi(parent, *code_order, MKind::Union, Some(m), true, g);
                    *code_order = code_order.wrapping_add(1);
                    self.mis[mi].union_scope = Some(inner);
                    let mut sub = 0;
                    self.traverse_union(m, mi, inner, &mut sub);
                    if let Some(o) = m.ordinal() {
                        self.by_ordinal.entry(o.value).or_default().push(mi);
                    }
                }
                DeclKind::Group => {
                    let g = self.layout.new_group(u);
                    let mi = self.new_mi(parent, *code_order, MKind::Group, Some(m), true, g);
                    *code_order = code_order.wrapping_add(1);
                    self.traverse_group(m, mi, g);
                }
                _ => {}
            }
        }
    }

    fn traverse_group(&mut self, decl: &'a Decl, mi: usize, scope: Scope) {
        if decl.nested.is_empty() {
            self.cx.error(
                self.file(),
                decl.span,
                "Group must have at least one member.".into(),
            );
        }
        self.traverse_top_or_group(&decl.nested, mi, scope);
    }

    fn traverse_top_or_group(&mut self, members: &'a [Decl], parent: usize, scope: Scope) {
        let mut code_order = 0u16;
        for m in members {
            match &m.kind {
                DeclKind::Field { .. } => {
                    let mi = self.new_mi(parent, code_order, MKind::Field, Some(m), false, scope);
                    code_order = code_order.wrapping_add(1);
                    let o = m.ordinal().map(|o| o.value).unwrap_or(0);
                    self.by_ordinal.entry(o).or_default().push(mi);
                }
                DeclKind::Union => {
                    let u = self.layout.new_union(scope);
                    let mi;
                    if m.name.value.is_empty() {
                        mi = parent;
                        self.mis[mi].union_scope = Some(u);
                        self.traverse_union(m, mi, u, &mut code_order);
                    } else {
                        mi = self.new_mi(parent, code_order, MKind::Union, Some(m), false, scope);
                        code_order = code_order.wrapping_add(1);
                        self.mis[mi].union_scope = Some(u);
                        let mut sub = 0;
                        self.traverse_union(m, mi, u, &mut sub);
                    }
                    if let Some(o) = m.ordinal() {
                        self.by_ordinal.entry(o.value).or_default().push(mi);
                    }
                }
                DeclKind::Group => {
                    let mi = self.new_mi(parent, code_order, MKind::Group, Some(m), false, scope);
                    code_order = code_order.wrapping_add(1);
                    self.traverse_group(m, mi, scope);
                }
                _ => {}
            }
        }
    }

    fn add_member_schema(&mut self, p: usize) -> (usize, usize) {
        let st = self.mis[p].st.unwrap_or(0);
        if self.structs[st].fields.is_none() {
            if self.mis[p].parent.is_some() {
                self.get_schema(p);
            }
            let n = self.mis[p].child_count as usize;
            self.structs[st].fields = Some(vec![None; n]);
            self.structs[st].docs = Some(vec![None; n]);
        }
        let i = self.mis[p].child_init as usize;
        self.mis[p].child_init += 1;
        (st, i)
    }

    fn get_schema(&mut self, m: usize) -> (usize, usize) {
        if let Some(s) = self.mis[m].schema {
            return s;
        }
        let parent = self.mis[m].parent.unwrap_or(0);
        // An index among at most 65,536 children (each holds a field of
        // its own, and ordinals are 16-bit): below 65,536.
        self.mis[m].index = self.mis[parent].child_init as u16;
        let (st, i) = self.add_member_schema(parent);
        let disc = if self.mis[m].in_union {
            let d = self.mis[parent].union_disc;
            self.mis[parent].union_disc += 1;
            // Over 65,535 members the union is refused in `finish_group`.
            d as u16
        } else {
            0xffff
        };
        let f = Field {
            name: self.mis[m].name.clone(),
            code_order: self.mis[m].code_order,
            annotations: None,
            discriminant_value: disc,
            kind: FieldKind::Slot {
                offset: 0,
                ty: Type::Void,
                default: Value::Void,
                explicit_default: false,
            },
            ordinal: None,
        };
        if let Some(fs) = &mut self.structs[st].fields {
            fs[i] = Some(f);
        }
        if let Some(ds) = &mut self.structs[st].docs {
            ds[i] = self.mis[m].doc.clone();
        }
        self.mis[m].schema = Some((st, i));
        (st, i)
    }

    fn field_mut(&mut self, at: (usize, usize)) -> Option<&mut Field> {
        self.structs[at.0].fields.as_mut()?.get_mut(at.1)?.as_mut()
    }

    fn finish_group(&mut self, m: usize) {
        let st = self.mis[m].st.unwrap_or(0);
        if let Some(u) = self.mis[m].union_scope {
            self.layout.add_discriminant(u);
            let count = self.mis[m].union_disc;
            // Discriminants are 16-bit and 0xffff means "not in a union".
            let count = match u16::try_from(count) {
                Ok(c) if c < u16::MAX => c,
                _ => {
                    let span = self.mis[m].decl.map(|d| d.span).unwrap_or_default();
                    self.cx.error(
                        self.file(),
                        span,
                        format!("A union has {count} members; at most 65535 fit its 16-bit discriminant."),
                    );
                    u16::MAX
                }
            };
            let off = self.layout.discriminant(u).unwrap_or(0);
            if let NodeKind::Struct(s) = &mut self.structs[st].node.kind {
                s.discriminant_count = count;
                s.discriminant_offset = off;
            }
        }
        if let Some(p) = self.mis[m].parent {
            let pst = self.mis[p].st.unwrap_or(0);
            let pid = self.structs[pst].node.id;
            let gid = ids::group_id(pid, self.mis[m].index);
            self.structs[st].node.id = gid;
            self.structs[st].node.scope_id = pid;
            let at = self.get_schema(m);
            if let Some(f) = self.field_mut(at) {
                f.kind = FieldKind::Group(gid);
            }
        }
    }

    fn finish(&mut self, root: usize) -> (RootOut, Vec<(Node, SourceInfo)>) {
        let cx = self.cx;
        let file = self.file();
        let brand = cx.local_brand(self.scope);
        let mut dup = DupOrdinal::default();
        let entries: Vec<(u64, usize)> = self
            .by_ordinal
            .iter()
            .flat_map(|(o, v)| v.iter().map(move |m| (*o, *m)))
            .collect();
        for (ord, m) in entries {
            if let Some(d) = self.mis[m].decl {
                if let Some(o) = d.ordinal() {
                    dup.check(cx, file, o);
                }
            }
            let at = self.get_schema(m);
            if let Some(f) = self.field_mut(at) {
                f.ordinal = Some(ord as u16);
            }
            match self.mis[m].kind {
                MKind::Field => {
                    let (ty_e, def_e): (&'a Expr, Option<&'a Expr>) =
                        match (self.mis[m].decl, self.mis[m].param) {
                            (
                                Some(Decl {
                                    kind: DeclKind::Field { ty, default },
                                    ..
                                }),
                                _,
                            ) => (ty, default.as_ref()),
                            (_, Some(p)) => (&p.ty, p.default.as_ref()),
                            _ => continue,
                        };
                    let is_param = self.mis[m].param.is_some();
                    let imp = self.implicit.clone();
                    let ty = cx.compile_type(self.scope, &brand, ty_e, &imp);
                    let (ty, default, explicit) = match ty {
                        Some(t) => match def_e {
                            Some(d) => {
                                let v = if is_param
                                    && matches!(&d.kind, ExprKind::RelativeName(n) if n.value == "null")
                                {
                                    if !is_pointer(&t) {
                                        cx.error(file, d.span, "Only pointer parameters can declare their default as 'null'.".into());
                                    }
                                    default_default(&t)
                                } else {
                                    cx.bootstrap_value(self.scope, d, &t)
                                };
                                (t, v, true)
                            }
                            None => {
                                let v = default_default(&t);
                                (t, v, false)
                            }
                        },
                        None => (Type::Void, Value::Void, false),
                    };
                    let scope = self.mis[m].field_scope;
                    let offset = match type_lg(&ty) {
                        -2 => self.layout.add_pointer(scope),
                        -1 => {
                            self.layout.add_void(scope);
                            0
                        }
                        lg => self.layout.add_data(scope, lg as u32),
                    };
                    if let Some(f) = self.field_mut(at) {
                        f.kind = FieldKind::Slot {
                            offset,
                            ty,
                            default,
                            explicit_default: explicit,
                        };
                    }
                }
                MKind::Union => {
                    if let Some(u) = self.mis[m].union_scope {
                        if !self.layout.add_discriminant(u) {
                            let span = self.mis[m]
                                .decl
                                .and_then(|d| d.ordinal())
                                .map(|o| o.span)
                                .unwrap_or_default();
                            cx.error(file, span, "Union ordinal, if specified, must be greater than no more than one of its member ordinals (i.e. there can only be one field retroactively unionized).".into());
                        }
                    }
                }
                _ => {}
            }
        }
        self.finish_group(root);
        for m in self.all.clone() {
            let flag = if self.mis[m].param.is_some() {
                10
            } else {
                match self.mis[m].kind {
                    MKind::Field => 5,
                    MKind::Union => {
                        self.finish_group(m);
                        6
                    }
                    _ => {
                        self.finish_group(m);
                        7
                    }
                }
            };
            let anns: &'a [AnnotationApp] = match (self.mis[m].decl, self.mis[m].param) {
                (Some(d), _) => &d.annotations,
                (_, Some(p)) => &p.annotations,
                _ => &[],
            };
            let compiled = cx.annotations(self.scope, anns, flag);
            let at = self.get_schema(m);
            if let Some(f) = self.field_mut(at) {
                f.annotations = compiled;
            }
        }
        if self.layout.refused {
            let n = &cx.nodes[self.scope];
            cx.error(file, node_span(n.decl), "Bad news: Cap'n Proto 0.5.x and previous contained a bug which would cause this schema to be compiled incorrectly. Please see: https://github.com/sandstorm-io/capnproto/issues/344".into());
        }
        let dw = self.layout.data_words as u16;
        let pc = self.layout.pointers as u16;
        let mut out_groups = Vec::new();
        let mut root_out = None;
        for (i, so) in std::mem::take(&mut self.structs).into_iter().enumerate() {
            let mut node = so.node;
            let fields = so
                .fields
                .map(|v| v.into_iter().flatten().collect::<Vec<_>>());
            if let NodeKind::Struct(s) = &mut node.kind {
                s.data_words = dw;
                s.pointers = pc;
                s.fields = fields;
            }
            if i == 0 {
                root_out = Some(RootOut {
                    kind: node.kind,
                    members: so.docs,
                });
            } else {
                let si = SourceInfo {
                    id: node.id,
                    doc: so.doc,
                    members: so.docs,
                };
                out_groups.push((node, si));
            }
        }
        let root_out = root_out.unwrap_or(RootOut {
            kind: NodeKind::Struct(StructNode::default()),
            members: None,
        });
        (root_out, out_groups)
    }
}
