//! The schema compiler proper: the declarations of every loaded file in,
//! the CodeGeneratorRequest's nodes and source info out, in the order
//! `capnp compile` (0.9.2) writes them.
//!
//! One [`Compilation`] holds the table of named nodes of every file and
//! the memo tables that make each node, alias and value compile once. Its
//! work is spread over one file per concept, in the order a declaration
//! meets them:
//!
//! - `scopes`: the node table and name resolution (the reference's
//!   `Compiler::Node` in compiler.c++: ids, display names, `resolve`,
//!   aliases);
//! - `generics`: brands, the bindings of generic parameters, and types
//!   (the reference's `BrandScope` and `BrandedDecl`, generics.c++);
//! - `nodes`: one declaration to one schema node, with its annotations,
//!   enumerants, methods and parameter structs (`NodeTranslator` in
//!   node-translator.c++);
//! - `structs`: a struct's fields, unions and groups, placed by
//!   [`crate::layout`] (`NodeTranslator::StructTranslator`);
//! - `values`: expressions to values, constants and defaults
//!   (`ValueTranslator` and `compileBootstrapValue`);
//! - `request`: which nodes the request holds and in what order
//!   (`Compiler::Node::traverse`, the schema loader's order).
//!
//! Memo tables are keyed by ids, never by addresses: a node by its
//! `NodeIndex` (its place in the node table), an alias by its `AliasId`
//! (the node it is declared in and its place there),
//! a deferred value by its index in the pending list, a schema node by its
//! 64-bit id.

mod checks;
mod decls;
mod generics;
mod nodes;
mod request;
mod scopes;
mod structs;
mod values;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::ast::*;
use crate::files::{FileError, SourceFile};
use crate::limits;
use crate::schema::*;
use decls::{AliasId, NodeIndex};
use generics::BrandedDecl;
use nodes::Translation;
use scopes::NodeEntry;
use values::PendingValue;

/// What a named node of the table declares: the kind of schema node it
/// becomes (the node's content is [`NodeKind`], made later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKindTag {
    /// A file (the root of its declarations).
    File,
    /// A struct.
    Struct,
    /// An enum.
    Enum,
    /// An interface.
    Interface,
    /// A constant.
    Const,
    /// An annotation declaration.
    Annotation,
}

/// One compile of a set of loaded files: the table of their named nodes,
/// the errors found, and the memo tables that let each node, alias and
/// value be compiled once, on first use, in whatever order uses reach
/// them (as the reference compiles lazily).
///
/// Everything after [`Compilation::with_reached`] takes `&self`: the compile
/// recurses through uses (a field's type translates the struct it names,
/// a constant's value the constant it copies), so the tables sit in
/// `RefCell`s, each borrowed only for a lookup or an insert, never across
/// a call that may recurse.
pub struct Compilation<'a> {
    /// The loaded files, by index (a file index is a position here).
    files: &'a [SourceFile],
    /// Every named node of every file (file roots, structs, enums,
    /// interfaces, constants, annotations), parents before children.
    nodes: Vec<NodeEntry<'a>>,
    /// Node id to its index in `nodes`.
    index_by_id: HashMap<u64, NodeIndex>,
    /// Per file index, the index of the file's root node.
    file_roots: Vec<NodeIndex>,
    /// The errors found so far, in order.
    errors: RefCell<Vec<FileError>>,
    /// Per node index, its translation once made (None: it failed).
    translations: RefCell<HashMap<NodeIndex, Option<Rc<Translation>>>>,
    /// The nodes being translated right now, to report a node that needs
    /// itself.
    translating: RefCell<HashSet<NodeIndex>>,
    /// Per alias, what it names once compiled (None: it failed, or it is
    /// being compiled: an alias that names itself finds None).
    aliases: RefCell<HashMap<AliasId, Option<BrandedDecl>>>,
    /// Pointer values (defaults, constants, annotation values) whose
    /// evaluation waits until the whole request is known: they may copy
    /// constants or need the layout of structs not translated yet. A
    /// [`Value::Pending`] holds an index here.
    pending_values: RefCell<Vec<PendingValue<'a>>>,
    /// Per pending value index, its value once evaluated (None: it failed).
    evaluated_values: RefCell<HashMap<usize, Option<Value>>>,
    /// The pending values being evaluated right now, to report a value
    /// that needs itself.
    values_in_progress: RefCell<HashSet<usize>>,
    /// Nodes by id, including groups and param structs, once translated.
    translated_by_id: RefCell<HashMap<u64, Rc<Node>>>,
    /// How many declarations (nodes, aliases, values) are being compiled
    /// for one another right now: at most
    /// [`limits::MAX_RECURSION`], which bounds the stack.
    recursion_depth: std::cell::Cell<u32>,
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
    /// Per file, whether an earlier compile of the same files resolved
    /// it (see [`Compilation::with_reached`]); empty: not known.
    reached: Vec<bool>,
    /// Whether a node asked for an id another node had taken.
    id_collision: bool,
}

/// The display prefix length the reference computes: after the last '.',
/// or after the last ':' when that comes later.
fn display_prefix_len(name: &str) -> u32 {
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

/// The schema-language spelling of a parenthesized parameter list.
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

/// Where errors about declaration `d` point: its name, or the whole
/// declaration when it has none (an unnamed union).
fn node_span(d: &Decl) -> Span {
    if d.name.value.is_empty() {
        d.span
    } else {
        d.name.span
    }
}

impl<'a> Compilation<'a> {
    /// Builds the node table of every loaded file (ids, display names,
    /// nested scopes), reporting duplicate ids. `reached` (empty: not
    /// known) says, from an earlier compile of the same files, which of
    /// them the compile resolves (per file: a requested file, or one an
    /// import that was compiled names). The
    /// reference loads an imported file only when a compiled import names
    /// it, so the ids of files it never loads cannot collide with anything:
    /// the reached files' nodes take their ids first, and a collision with
    /// an unreached file is no error.
    pub fn with_reached(files: &'a [SourceFile], reached: Vec<bool>) -> Compilation<'a> {
        let mut cx = Compilation {
            files,
            nodes: Vec::new(),
            index_by_id: HashMap::new(),
            file_roots: Vec::new(),
            errors: RefCell::new(Vec::new()),
            translations: RefCell::new(HashMap::new()),
            translating: RefCell::new(HashSet::new()),
            aliases: RefCell::new(HashMap::new()),
            pending_values: RefCell::new(Vec::new()),
            evaluated_values: RefCell::new(HashMap::new()),
            values_in_progress: RefCell::new(HashSet::new()),
            translated_by_id: RefCell::new(HashMap::new()),
            recursion_depth: std::cell::Cell::new(0),
            copied_words: std::cell::Cell::new(0),
            first_names: RefCell::new(vec![None; files.len()]),
            second_path: RefCell::new(None),
            enumerants: RefCell::new(HashMap::new()),
            reached,
            id_collision: false,
        };
        cx.add_files();
        cx
    }

    /// Records an error at `span` of file `file`.
    fn error(&self, file: usize, span: Span, msg: String) {
        self.errors
            .borrow_mut()
            .push(FileError::new(file, span, msg));
    }

    /// Records an error at `span` of file `file` that points at another
    /// place, `related` (file, span, message).
    fn error_with(&self, file: usize, span: Span, msg: String, related: (usize, Span, String)) {
        self.errors.borrow_mut().push(FileError {
            file,
            span,
            message: msg,
            related: vec![related],
        });
    }

    /// Errors found so far.
    pub fn take_errors(&self) -> Vec<FileError> {
        std::mem::take(&mut *self.errors.borrow_mut())
    }

    /// The id of file `fi`'s root node.
    pub fn file_id(&self, fi: usize) -> u64 {
        self.nodes[self.file_roots[fi]].id
    }

    /// One level deeper in the compiler's recursion: a node compiled for
    /// the node that uses it, an alias for the name that refers to it, a
    /// value for the constant that copies it, a nested expression. True,
    /// or, past [`limits::MAX_RECURSION`], false and an error at `span`.
    /// Every `true` is matched by a [`leave`](Self::leave).
    fn enter(&self, file: usize, span: Span) -> bool {
        let d = self.recursion_depth.get();
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
        self.recursion_depth.set(d + 1);
        true
    }

    /// `work`'s result for entry `key` (a node or a pending value), run
    /// one level deeper (see [`enter`](Self::enter)) and with `key` in
    /// `busy` while it runs. None when it is not run: too deep, or `key`
    /// is already busy (it needs itself: an error at `span`, as the
    /// reference reports it). The caller memoizes only a result of a run.
    fn without_cycles<K: Copy + Eq + std::hash::Hash, T>(
        &self,
        file: usize,
        span: Span,
        busy: &RefCell<HashSet<K>>,
        key: K,
        work: impl FnOnce() -> T,
    ) -> Option<T> {
        if !self.enter(file, span) {
            return None;
        }
        if !busy.borrow_mut().insert(key) {
            self.leave();
            self.error(
                file,
                span,
                "Declaration recursively depends on itself.".into(),
            );
            return None;
        }
        let result = work();
        busy.borrow_mut().remove(&key);
        self.leave();
        Some(result)
    }

    /// Back one level of recursion, after an [`enter`](Self::enter) that
    /// returned true.
    fn leave(&self) {
        self.recursion_depth.set(self.recursion_depth.get() - 1);
    }
}
