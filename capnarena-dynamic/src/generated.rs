//! Schemas from generated code: the nodes `capnarena-codegen` compiles
//! into a program with its `schema_nodes` option ([`SchemaNode`], handed
//! out through [`HasSchema`]), loaded as any request's nodes are.

use std::collections::HashMap;

use capnarena::typed::{HasSchema, SchemaNode};
use capnarena::{MessageReader, Word};
use capnarena_codegen::schema_capnp::node;

use crate::error::{Error, Result};
use crate::load;
use crate::nodes::{EnumSchema, InterfaceSchema};
use crate::schema::{LoadedSchema, Schema};
use crate::structs::StructSchema;

impl LoadedSchema {
    /// The schema of generated type `T` (a struct's `Owned`, an enum, an
    /// interface's `Owned`) and of every type it names, from the nodes
    /// compiled into the program (see [`from_generated`](Self::from_generated)).
    ///
    /// # Errors
    /// As [`from_generated`](Self::from_generated).
    pub fn of<T: HasSchema>() -> Result<LoadedSchema> {
        LoadedSchema::from_generated([T::schema_node()])
    }

    /// The schema of the generated types whose nodes are `roots` and of
    /// every type they name, followed through each node's dependencies: a
    /// closed graph of the structs (with their groups), enums and
    /// interfaces reached, as the CodeGeneratorRequest the code was
    /// generated from holds them, loaded in the order of their ids (so two
    /// loads of the same nodes compare equal). A file module's
    /// `SCHEMA_NODES` gives every type of the file:
    /// `LoadedSchema::from_generated(foo_capnp::SCHEMA_NODES.iter().map(|f| f()))`.
    ///
    /// The schema has no file nodes, constants or annotation declarations
    /// (an annotation's value is kept, but read as a typed value only with
    /// its declaration), and no requested files.
    ///
    /// # Errors
    /// Two schema nodes of one id hold different nodes (two versions of a
    /// schema in one program), or a node's bytes are not the node its id
    /// says ([`Error::BadSchemaNode`]); or as
    /// [`from_nodes`](Self::from_nodes).
    pub fn from_generated(
        roots: impl IntoIterator<Item = &'static SchemaNode>,
    ) -> Result<LoadedSchema> {
        with_generated_nodes(roots, |nodes| LoadedSchema::from_nodes(nodes))
    }
}

/// Calls `f` with readers of the nodes of the generated types `roots`
/// and of every type they name, in the order of their ids.
///
/// # Errors
/// As [`LoadedSchema::from_generated`], or `f`'s.
pub(crate) fn with_generated_nodes<R>(
    roots: impl IntoIterator<Item = &'static SchemaNode>,
    f: impl FnOnce(Vec<node::Reader<'_>>) -> Result<R>,
) -> Result<R> {
    let messages = generated_words(roots)?;
    let segments: Vec<[&[Word]; 1]> = messages.iter().map(|(_, _, w)| [&w[..]]).collect();
    let mut readers = Vec::with_capacity(messages.len());
    for ((_, _, words), segments) in messages.iter().zip(&segments) {
        readers.push(MessageReader::from_segments(
            segments,
            load::reader_options(words.len()),
        )?);
    }
    let mut nodes = Vec::with_capacity(readers.len());
    for ((id, i, _), reader) in messages.iter().zip(&readers) {
        let n: node::Reader<'_> = reader.get_root()?;
        if *i == 0 && n.get_id() != *id {
            return Err(Error::BadSchemaNode {
                id: *id,
                problem: format!("its bytes hold node {:#018x}", n.get_id()),
            });
        }
        nodes.push(n);
    }
    nodes.sort_by_key(|n| n.get_id());
    f(nodes)
}

/// The nodes of the generated types `roots` and of every type they name,
/// each as the words of its message, in the order of their ids: (id,
/// index among the type's nodes, words).
///
/// # Errors
/// As [`LoadedSchema::from_generated`].
fn generated_words(
    roots: impl IntoIterator<Item = &'static SchemaNode>,
) -> Result<Vec<(u64, usize, Vec<Word>)>> {
    let mut found: HashMap<u64, &'static SchemaNode> = HashMap::new();
    let mut queue: Vec<&'static SchemaNode> = roots.into_iter().collect();
    while let Some(n) = queue.pop() {
        match found.get(&n.id()) {
            Some(seen) if seen.nodes() == n.nodes() => continue,
            Some(_) => {
                return Err(Error::BadSchemaNode {
                    id: n.id(),
                    problem: "two generated types of this id hold different nodes".into(),
                });
            }
            None => {}
        }
        if n.nodes().is_empty() {
            return Err(Error::BadSchemaNode {
                id: n.id(),
                problem: "it holds no node".into(),
            });
        }
        found.insert(n.id(), n);
        queue.extend(n.dependencies());
    }
    let mut ids: Vec<u64> = found.keys().copied().collect();
    ids.sort_unstable();
    // Each node as words (the bytes need not be aligned), then a
    // reader of each.
    let mut messages: Vec<(u64, usize, Vec<Word>)> = Vec::new();
    for id in ids {
        for (i, bytes) in found[&id].nodes().iter().enumerate() {
            let words = capnarena::words_from_bytes(bytes).map_err(|e| Error::BadSchemaNode {
                id,
                problem: format!("node {i}: {e}"),
            })?;
            messages.push((id, i, words));
        }
    }
    Ok(messages)
}

impl<'s> Schema<'s> {
    /// The struct generated type `T` (its `Owned`) was generated from.
    ///
    /// # Errors
    /// [`Error::MissingNode`] when the schema does not hold it,
    /// [`Error::WrongNodeKind`].
    pub fn struct_for<T: HasSchema>(&'s self) -> Result<StructSchema<'s>> {
        self.struct_schema(T::schema_node().id())
    }

    /// The enum generated enum `T` was generated from.
    ///
    /// # Errors
    /// As [`struct_for`](Self::struct_for).
    pub fn enum_for<T: HasSchema>(&'s self) -> Result<EnumSchema<'s>> {
        self.enum_schema(T::schema_node().id())
    }

    /// The interface generated type `T` (the interface's `Owned`) was
    /// generated from.
    ///
    /// # Errors
    /// As [`struct_for`](Self::struct_for).
    pub fn interface_for<T: HasSchema>(&'s self) -> Result<InterfaceSchema<'s>> {
        self.interface_schema(T::schema_node().id())
    }
}

/// `Ok` when node `schema` (a value's struct or enum) is the one `T` was
/// generated from, [`Error::WrongType`] naming both otherwise.
pub(crate) fn check_type<T: HasSchema>(schema: u64) -> Result<()> {
    let generated = T::schema_node().id();
    if schema != generated {
        return Err(Error::WrongType { schema, generated });
    }
    Ok(())
}
