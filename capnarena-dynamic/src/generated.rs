//! Schemas from generated code: the nodes `capnarena-codegen` compiles
//! into a program with its `schema_nodes` option ([`SchemaNode`], handed
//! out through [`HasSchema`]), loaded as any request's nodes are.

use std::collections::HashMap;
use std::sync::Arc;

use capnarena::typed::{Binding, HasSchema, Introspect, SchemaNode, SchemaType};
use capnarena::{MessageReader, Word};
use capnarena_codegen::schema_capnp::node;

use crate::error::{Error, Result};
use crate::load;
use crate::nodes::{EnumSchema, InterfaceSchema};
use crate::schema::{LoadedSchema, MAX_RESOLVED_TYPE_DEPTH, Schema};
use crate::structs::StructSchema;
use crate::types::{Brand, BrandScopes, StructType, Type};

impl LoadedSchema {
    /// The schema of generated type `T` (a struct's `Owned`, an enum, an
    /// interface's `Owned`) and of every type it names, from the nodes
    /// compiled into the program (see [`from_generated`](Self::from_generated)).
    /// The types `T`'s generic parameters are bound to are loaded too:
    /// `of::<generic_box::Owned<foo::Owned>>()` holds `Foo`.
    ///
    /// # Errors
    /// As [`from_generated`](Self::from_generated); [`Error::Limit`] when
    /// the bound types nest past [`MAX_RESOLVED_TYPE_DEPTH`].
    pub fn of<T: HasSchema>() -> Result<LoadedSchema> {
        let mut roots = vec![T::schema_node()];
        bound_nodes(T::brand(), T::schema_node().id(), 0, &mut roots)?;
        LoadedSchema::from_generated(roots)
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
    /// The schema holds the declarations of the annotations applied to
    /// the types it holds, so their values read typed. It has no file
    /// nodes, constants or requested files. An annotation whose value is
    /// of a type with no generated module has no declaration here; its
    /// value is kept, and read typed only with a declaration.
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
    /// The struct generated type `T` (its `Owned`) was generated from,
    /// with `T`'s generic bindings: for `Owned<Text>` of `Box(T)`, the
    /// field `value` is of type [`Type::Text`].
    ///
    /// # Errors
    /// [`Error::MissingNode`] when the schema does not hold it,
    /// [`Error::WrongNodeKind`]; [`Error::Limit`] when the bound types
    /// nest past [`MAX_RESOLVED_TYPE_DEPTH`].
    pub fn struct_for<T: HasSchema>(&'s self) -> Result<StructSchema<'s>> {
        let id = T::schema_node().id();
        self.struct_with_brand(id, brand_of(T::brand(), id, 0)?)
    }

    /// The type generated type `T` stands for (a struct's `Owned` with its
    /// bindings, an enum, text, a list...), as [`Type`]: what capnp's
    /// `T::introspect()` gives. Nodes it names need not be in the schema.
    ///
    /// # Errors
    /// [`Error::Limit`] when the type nests past
    /// [`MAX_RESOLVED_TYPE_DEPTH`].
    pub fn type_for<T: capnarena::typed::Introspect>(&self) -> Result<Type> {
        type_of(T::introspect(), 0, 0)
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

/// `Ok` when struct `schema` (a value's) is the one `T` was generated
/// from, with the bindings `T` has: [`Error::WrongType`] for another
/// struct, [`Error::WrongBrand`] for other bindings.
pub(crate) fn check_struct<T: HasSchema>(schema: &StructSchema<'_>) -> Result<()> {
    check_type::<T>(schema.id())?;
    let generated = brand_of(T::brand(), schema.id(), 0)?;
    if *schema.brand() != generated {
        return Err(Error::WrongBrand {
            id: schema.id(),
            schema: format!("{:?}", schema.brand()),
            generated: format!("{generated:?}"),
        });
    }
    Ok(())
}

/// The element type of generated list type `L` (a list marker such as
/// `PrimitiveList<u32>` or `StructList<foo::Owned<Text>>`), with its
/// bindings.
///
/// # Errors
/// [`Error::TypeMismatch`] when `L` is not a list; [`Error::Limit`] when
/// it nests past [`MAX_RESOLVED_TYPE_DEPTH`].
pub(crate) fn list_element_of<L: Introspect>() -> Result<Type> {
    match type_of(L::introspect(), 0, 0)? {
        Type::List(element) => Ok(Type::clone(&element)),
        other => Err(Error::TypeMismatch {
            context: "a dynamic list's typed form".into(),
            expected: "a list type".into(),
            found: other.to_string(),
        }),
    }
}

/// `Ok` when a list of `element` (a dynamic list's) is generated list
/// type `L`, generic bindings included: [`Error::TypeMismatch`] naming
/// both list types otherwise (with their bindings when only those
/// differ).
pub(crate) fn check_list<L: Introspect>(element: &Type) -> Result<()> {
    let generated = list_element_of::<L>()?;
    if generated == *element {
        return Ok(());
    }
    let show = |t: &Type| {
        if generated.same_as(element) {
            format!("List({t:?})")
        } else {
            format!("List({t})")
        }
    };
    Err(Error::TypeMismatch {
        context: "the generated list type".into(),
        expected: show(&generated),
        found: show(element),
    })
}

/// The depth error of a type or brand of node `node` past the bound.
fn too_deep(node: u64, depth: u32) -> Error {
    Error::Limit {
        what: "levels of a type with its generic bindings",
        node,
        found: u64::from(depth),
        limit: u64::from(MAX_RESOLVED_TYPE_DEPTH),
    }
}

/// The bindings `bindings` (of node `node`, `depth` levels down) as a
/// [`Brand`]: by scope, in order of first appearance, each parameter at
/// its index (a gap is `AnyPointer`).
pub(crate) fn brand_of(bindings: &[Binding], node: u64, depth: u32) -> Result<Brand> {
    if bindings.is_empty() {
        return Ok(Brand::default());
    }
    if depth >= MAX_RESOLVED_TYPE_DEPTH {
        return Err(too_deep(node, depth + 1));
    }
    let mut scopes: Vec<(u64, Vec<Type>)> = Vec::new();
    let mut deepest = 0;
    for b in bindings {
        let ty = type_of(b.ty(), node, depth + 1)?;
        deepest = deepest.max(ty.depth());
        let at = match scopes.iter().position(|(s, _)| *s == b.scope()) {
            Some(at) => at,
            None => {
                scopes.push((b.scope(), Vec::new()));
                scopes.len() - 1
            }
        };
        let list = &mut scopes[at].1;
        let index = usize::from(b.index());
        if list.len() <= index {
            list.resize(index + 1, Type::AnyPointer);
        }
        list[index] = ty;
    }
    let depth = deepest + 1;
    if depth > MAX_RESOLVED_TYPE_DEPTH {
        return Err(too_deep(node, depth));
    }
    Ok(Brand(Some(Arc::new(BrandScopes {
        scopes: scopes.into_iter().map(|(s, t)| (s, t.into())).collect(),
        depth,
    }))))
}

/// `ty` as a [`Type`], `depth` levels down in a type of node `node`:
/// bounded, so that a hand-written `Introspect` that names itself is an
/// error, not a stack overflow.
pub(crate) fn type_of(ty: SchemaType, node: u64, depth: u32) -> Result<Type> {
    if depth > MAX_RESOLVED_TYPE_DEPTH {
        return Err(too_deep(node, depth));
    }
    Ok(match ty {
        SchemaType::Void => Type::Void,
        SchemaType::Bool => Type::Bool,
        SchemaType::Int8 => Type::Int8,
        SchemaType::Int16 => Type::Int16,
        SchemaType::Int32 => Type::Int32,
        SchemaType::Int64 => Type::Int64,
        SchemaType::UInt8 => Type::UInt8,
        SchemaType::UInt16 => Type::UInt16,
        SchemaType::UInt32 => Type::UInt32,
        SchemaType::UInt64 => Type::UInt64,
        SchemaType::Float32 => Type::Float32,
        SchemaType::Float64 => Type::Float64,
        SchemaType::Text => Type::Text,
        SchemaType::Data => Type::Data,
        SchemaType::List(element) => {
            let element = type_of(element(), node, depth + 1)?;
            if element.depth() >= MAX_RESOLVED_TYPE_DEPTH {
                return Err(too_deep(node, element.depth() + 1));
            }
            Type::List(Arc::new(element))
        }
        SchemaType::Enum(n) => Type::Enum(n().id()),
        SchemaType::Struct { node: n, brand } => {
            let id = n().id();
            Type::Struct(StructType {
                id,
                brand: brand_of(brand(), id, depth)?,
            })
        }
        SchemaType::Interface { node: n, .. } => Type::Interface(n().id()),
        // The runtime's enum grows: a kind this crate does not know is
        // read as an opaque pointer.
        _ => Type::AnyPointer,
    })
}

/// Adds to `out` the schema nodes of the types `bindings` name (of node
/// `node`, `depth` levels down), at any depth.
fn bound_nodes(
    bindings: &[Binding],
    node: u64,
    depth: u32,
    out: &mut Vec<&'static SchemaNode>,
) -> Result<()> {
    for b in bindings {
        // Lists in a loop; a struct's own bindings one level down.
        let mut ty = b.ty();
        let mut level = depth + 1;
        loop {
            if level > MAX_RESOLVED_TYPE_DEPTH {
                return Err(too_deep(node, level));
            }
            match ty {
                SchemaType::List(element) => {
                    ty = element();
                    level += 1;
                    continue;
                }
                SchemaType::Enum(n) => out.push(n()),
                SchemaType::Struct { node: n, brand }
                | SchemaType::Interface { node: n, brand } => {
                    out.push(n());
                    bound_nodes(brand(), n().id(), level, out)?;
                }
                _ => {}
            }
            break;
        }
    }
    Ok(())
}
