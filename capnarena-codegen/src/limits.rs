//! The limits a request must keep to: how it is read, and the checks made
//! on the loaded model before anything is generated. Generation walks the
//! nesting of nodes and of types recursively, and lays out each line by
//! recursing over its brackets (a type nested n levels is n levels of
//! brackets), so both depths are bounded here, once, where the request is
//! loaded; and the nesting must be a tree (a node placed twice would be
//! generated twice, a loop forever).

use std::collections::{HashMap, HashSet};

use capnarena::{ReaderOptions, Word};

use crate::Error;
use crate::model::{FieldKind, Node, NodeKind, Schema};

/// Levels of nodes below their file: nested nodes, groups, and the
/// parameter and result structs of methods. Each is a module in the
/// generated code, generated recursively.
pub(crate) const MAX_SCOPE_DEPTH: u64 = 32;

/// Levels of a type: each `List` and each type bound as a generic argument
/// adds one, in the generator and in the brackets a line is laid out by.
/// A type nested 16 levels in a node nested 32 levels is generated on a
/// 2 MiB thread in a debug build, with room for 8 more type levels
/// (`tests/limits.rs`).
pub(crate) const MAX_TYPE_DEPTH: u32 = 16;

/// Generic parameters of a node and the scopes around it, together.
pub(crate) const MAX_PARAMETERS: u64 = 64;

/// Bytes of a name: of a nested node, field, enumerant, method or generic
/// parameter.
pub(crate) const MAX_NAME_BYTES: u64 = 256;

/// Bytes of a node's display name or of a requested file's name.
pub(crate) const MAX_PATH_BYTES: u64 = 4096;

/// Pointers nested in the request, as read (a type nested
/// [`MAX_TYPE_DEPTH`] levels takes about 5 pointers a level; default
/// values may nest deeper, and are copied in constant stack).
const NESTING_LIMIT: u32 = 1024;

/// Times its own size in words that a request may be traversed. The
/// generator reads some parts of a request more than once (a node's
/// brand, a default value checked and then copied), so a well-formed
/// request can cost more than its size (sandstorm's app-index.capnp:
/// 1.02 times); a bound of a few times the size keeps what is loaded in
/// proportion to the request while leaving that room.
const TRAVERSAL_PER_WORD: u64 = 4;

/// How a request of `words` is read: a traversal limit of
/// [`TRAVERSAL_PER_WORD`] times its own size (reading more means objects
/// reached through several pointers, whose copies would multiply what is
/// loaded), which also charges a word for each element of a list of
/// zero-sized elements.
pub(crate) fn reader_options(words: &[Word]) -> ReaderOptions {
    ReaderOptions::new()
        .traversal_limit_words((words.len() as u64).saturating_mul(TRAVERSAL_PER_WORD))
        .nesting_limit(NESTING_LIMIT)
}

fn limit(what: &'static str, node: u64, found: u64, max: u64) -> Result<(), Error> {
    if found > max {
        return Err(Error::Limit {
            what,
            node,
            found,
            limit: max,
        });
    }
    Ok(())
}

/// Checks the loaded request against the limits above.
///
/// # Errors
/// [`Error::Limit`] or [`Error::BadNesting`], naming the node.
pub(crate) fn check(schema: &Schema) -> Result<(), Error> {
    for node in schema.nodes.values() {
        check_names(node)?;
    }
    for file in &schema.requested {
        path_name(file.id, "the requested file's name", &file.filename)?;
    }
    let implicit = check_tree(schema)?;
    for node in schema.nodes.values() {
        check_scopes(schema, &implicit, node)?;
    }
    Ok(())
}

/// A name that generated code spells out: 1 to [`MAX_NAME_BYTES`] ASCII
/// letters, digits and underscores (a schema identifier), so that it
/// cannot end the comment, string or item it is written into.
fn identifier(node: u64, what: &'static str, name: &str) -> Result<(), Error> {
    limit(
        "bytes in one of its names",
        node,
        name.len() as u64,
        MAX_NAME_BYTES,
    )?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(Error::BadName {
            node,
            what,
            name: name.chars().take(64).collect(),
        });
    }
    Ok(())
}

/// A display or file name: at most [`MAX_PATH_BYTES`], and no control
/// characters (it is written into a comment line).
fn path_name(node: u64, what: &'static str, name: &str) -> Result<(), Error> {
    limit(
        "bytes in its display or file name",
        node,
        name.len() as u64,
        MAX_PATH_BYTES,
    )?;
    if name.chars().any(char::is_control) {
        return Err(Error::BadName {
            node,
            what,
            name: name.chars().take(64).collect(),
        });
    }
    Ok(())
}

fn check_names(node: &Node) -> Result<(), Error> {
    let id = node.id;
    path_name(id, "its display name", &node.display_name)?;
    for (n, _) in &node.nested {
        identifier(id, "a nested node's name", n)?;
    }
    for p in &node.parameters {
        identifier(id, "a generic parameter's name", p)?;
    }
    match &node.kind {
        NodeKind::Struct(s) => {
            for f in &s.fields {
                identifier(id, "a field's name", &f.name)?;
            }
        }
        NodeKind::Enum(e) => {
            for e in e {
                identifier(id, "an enumerant's name", &e.name)?;
            }
        }
        NodeKind::Interface(methods) => {
            for m in methods {
                identifier(id, "a method's name", &m.name)?;
            }
        }
        NodeKind::File | NodeKind::Const { .. } | NodeKind::Annotation => {}
    }
    Ok(())
}

/// The nodes generated inside `node`, as generation places them: its
/// nested types and constants, its groups, and (for an interface) the
/// parameter and result structs the compiler made for its methods (those
/// with no scope of their own). Ids the request does not hold are left
/// out (generation skips them, or reports them).
fn children<'s>(schema: &'s Schema, node: &'s Node) -> impl Iterator<Item = (u64, bool)> + 's {
    let nested = node.nested.iter().filter_map(|(_, id)| {
        let child = schema.nodes.get(id)?;
        let generated = !matches!(child.kind, NodeKind::File | NodeKind::Annotation);
        generated.then_some((*id, false))
    });
    let groups = match &node.kind {
        NodeKind::Struct(s) => &s.fields[..],
        _ => &[],
    }
    .iter()
    .filter_map(|f| match f.kind {
        FieldKind::Group { type_id } if schema.nodes.contains_key(&type_id) => {
            Some((type_id, false))
        }
        _ => None,
    });
    let methods = match &node.kind {
        NodeKind::Interface(methods) => &methods[..],
        _ => &[],
    }
    .iter()
    .flat_map(|m| [m.param_struct, m.result_struct])
    .filter(|id| schema.nodes.get(id).is_some_and(|n| n.scope_id == 0))
    .map(|id| (id, true));
    nested.chain(groups).chain(methods)
}

/// Walks the nesting from every file (with a work list, not recursion):
/// each node is reached at most once and at most [`MAX_SCOPE_DEPTH`]
/// levels down. Returns the method structs found, by the interface they
/// belong to.
fn check_tree(schema: &Schema) -> Result<HashMap<u64, u64>, Error> {
    let mut seen = HashSet::new();
    let mut implicit = HashMap::new();
    let mut work = Vec::new();
    for file in schema.nodes.values() {
        if !matches!(file.kind, NodeKind::File) {
            continue;
        }
        if !seen.insert(file.id) {
            return Err(Error::BadNesting {
                node: file.id,
                what: "is a file nested in another node",
            });
        }
        work.push((file, 0u64));
        while let Some((node, depth)) = work.pop() {
            for (id, method_struct) in children(schema, node) {
                if !seen.insert(id) {
                    return Err(Error::BadNesting {
                        node: id,
                        what: "is reached twice (nested twice, or in a loop)",
                    });
                }
                limit(
                    "levels of nesting below the file",
                    id,
                    depth + 1,
                    MAX_SCOPE_DEPTH,
                )?;
                if method_struct {
                    implicit.insert(id, node.id);
                }
                work.push((&schema.nodes[&id], depth + 1));
            }
        }
    }
    Ok(implicit)
}

/// Follows `node`'s scopes out to its file as generation does (a method
/// struct's scope is its interface): at most [`MAX_SCOPE_DEPTH`] of them,
/// with at most [`MAX_PARAMETERS`] generic parameters in all.
fn check_scopes(schema: &Schema, implicit: &HashMap<u64, u64>, node: &Node) -> Result<(), Error> {
    let mut params = 0u64;
    let mut levels = 0u64;
    let mut cur = node;
    while !matches!(cur.kind, NodeKind::File) {
        levels += 1;
        if levels > MAX_SCOPE_DEPTH + 1 {
            return Err(Error::BadNesting {
                node: node.id,
                what: "has scopes that loop or nest too deep",
            });
        }
        params += cur.parameters.len() as u64;
        limit(
            "generic parameters with those of its scopes",
            node.id,
            params,
            MAX_PARAMETERS,
        )?;
        let scope = match implicit.get(&cur.id) {
            Some(iface) if cur.scope_id == 0 => *iface,
            _ => cur.scope_id,
        };
        match schema.nodes.get(&scope) {
            Some(next) => cur = next,
            None => break,
        }
    }
    Ok(())
}
