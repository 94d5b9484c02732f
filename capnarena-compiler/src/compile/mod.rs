//! Compiling the loaded files' declarations into schema nodes.

mod generics;
mod nodes;
mod request;
mod scopes;
mod struct_layout;
mod values;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::ast::*;
use crate::files::{FileError, SourceFile};
use crate::limits;
use crate::schema::*;
use generics::BDecl;
use nodes::Translated;
use scopes::NodeE;
use values::PendingValue;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NK {
    File,
    Struct,
    Enum,
    Interface,
    Const,
    Annotation,
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

/// The display prefix length the reference computes: after the last '.',
/// or after the last ':' when that comes later.
pub(super) fn prefix_len(name: &str) -> u32 {
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

pub(super) fn tuple_string(ps: &[Param]) -> String {
    let parts: Vec<String> = ps
        .iter()
        .map(|p| match &p.name {
            Some(n) => format!("{} = {}", n.value, expr_string(&p.value)),
            None => expr_string(&p.value),
        })
        .collect();
    format!("( {} )", parts.join(", "))
}

pub(super) fn node_span(d: &Decl) -> Span {
    if d.name.value.is_empty() {
        d.span
    } else {
        d.name.span
    }
}

impl<'a> Ctx<'a> {
    pub(super) fn error(&self, file: usize, span: Span, msg: String) {
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

    // Resolution

    /// One level deeper in the compiler's recursion: a node compiled for
    /// the node that uses it, an alias for the name that refers to it, a
    /// value for the constant that copies it, a nested expression. True,
    /// or, past [`limits::MAX_RECURSION`], false and an error at `span`.
    /// Every `true` is matched by a [`leave`](Self::leave).
    pub(super) fn enter(&self, file: usize, span: Span) -> bool {
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

    pub(super) fn leave(&self) {
        self.depth.set(self.depth.get() - 1);
    }
}
