//! The schema graph at run time: [`LoadedSchema`] owns what was loaded,
//! [`Schema`] is the view every lookup goes through, and the node views
//! ([`StructSchema`], [`EnumSchema`], [`InterfaceSchema`],
//! [`ConstSchema`], [`AnnotationSchema`]) borrow from it. Types are
//! resolved where they are used: a field of type `T` in a struct reached
//! as `Foo(Text)` has the type [`Type::Text`].

use std::sync::Arc;

use capnarena::{ElementSize, MessageReader, PointerReader, ReaderOptions};
use capnarena_codegen::schema_capnp::code_generator_request;

use crate::error::{Error, Result};
use crate::load;
use crate::model::*;
use crate::types::{Brand, BrandScopes, StructType, Type};

/// Levels of a type after generic parameters are replaced by their
/// bindings (each binding can bring its own nesting, and a generic struct
/// can hold itself with a deeper binding at each level of a message).
pub const MAX_RESOLVED_TYPE_DEPTH: u32 = 256;

/// A schema loaded from a CodeGeneratorRequest: every node of the request
/// and the values (defaults, constants, annotation values) they hold.
///
/// Lookups go through its [`Schema`] view ([`schema`](Self::schema)). Two
/// loads of the same schema compare equal, wherever the request came from.
///
/// # Examples
///
/// ```
/// use capnarena_dynamic::{LoadedSchema, Type};
///
/// let loaded = LoadedSchema::compile(
///     &capnarena_compiler::Compiler::new()
///         .source(
///             "/shapes.capnp",
///             "@0xe0a4c9b7f3d2a615;
///              struct Circle { radius @0 :Float64; label @1 :Text; }",
///         )
///         .file("/shapes.capnp"),
/// )?;
/// let schema = loaded.schema();
/// let circle = schema.find_struct("shapes.capnp:Circle")?;
/// let radius = circle.field_by_name("radius")?;
/// assert_eq!(radius.ty()?, Type::Float64);
/// assert_eq!(circle.fields().count(), 2);
/// # Ok::<(), capnarena_dynamic::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSchema {
    store: Store,
}

impl LoadedSchema {
    /// Loads a framed CodeGeneratorRequest (what `capnp compile -o-`
    /// writes), at any alignment.
    ///
    /// # Errors
    /// The message is malformed or over its limits (a traversal of four
    /// times its size, 1024 levels of pointers), or the schema is not one
    /// the dynamic readers and builders can follow: a type naming a
    /// missing node or one of another kind, a field outside its struct, a
    /// group that is not its parent's, nesting past the bounds, a default
    /// value of another kind than its type. Each error names the node.
    pub fn from_request_bytes(bytes: &[u8]) -> Result<LoadedSchema> {
        let words = capnarena::words_from_bytes(bytes)?;
        let probe = MessageReader::from_words(&words, ReaderOptions::new())?;
        // The limits depend on the message's size, known once framed.
        let size: usize = (0..probe.segment_count())
            .filter_map(|i| probe.segment(i))
            .map(<[_]>::len)
            .sum();
        let reader = MessageReader::from_words(&words, load::reader_options(size))?;
        let request: code_generator_request::Reader<'_> = reader.get_root()?;
        LoadedSchema::from_request(request)
    }

    /// Loads the request `request` (read with the caller's limits).
    ///
    /// # Errors
    /// As [`from_request_bytes`](Self::from_request_bytes).
    pub fn from_request(request: code_generator_request::Reader<'_>) -> Result<LoadedSchema> {
        let store = load::load(request)?;
        load::values_reader(&store.values)?;
        Ok(LoadedSchema { store })
    }

    /// Compiles `.capnp` files with the pure-Rust compiler, in process,
    /// and loads the result (import paths and the rest as the
    /// [`Compiler`](capnarena_compiler::Compiler) is set up).
    ///
    /// # Errors
    /// [`Error::Compile`] with every diagnostic, or as
    /// [`from_request_bytes`](Self::from_request_bytes).
    #[cfg(feature = "compiler")]
    pub fn compile(compiler: &capnarena_compiler::Compiler) -> Result<LoadedSchema> {
        let request = compiler.compile()?;
        LoadedSchema::from_request_bytes(&request)
    }

    /// Loads the nodes `nodes` (structs, enums, interfaces, ... as a
    /// CodeGeneratorRequest holds them), in their order, with no
    /// requested files: what [`from_generated`](Self::from_generated)
    /// does with generated code's nodes, and a way to load part of a
    /// request. Two loads of the same nodes in the same order compare
    /// equal.
    ///
    /// # Errors
    /// As [`from_request_bytes`](Self::from_request_bytes); a node that
    /// names a node not among `nodes` is [`Error::MissingNode`].
    pub fn from_nodes<'r>(
        nodes: impl IntoIterator<Item = capnarena_codegen::schema_capnp::node::Reader<'r>>,
    ) -> Result<LoadedSchema> {
        let store = load::load_nodes(nodes, Vec::new())?;
        load::values_reader(&store.values)?;
        Ok(LoadedSchema { store })
    }

    /// The nodes as loaded, for the schema comparison.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// The view every lookup goes through.
    pub fn schema(&self) -> Schema<'_> {
        Schema {
            store: &self.store,
            values: load::values_reader(&self.store.values).ok(),
        }
    }
}

/// A view of a [`LoadedSchema`]: node lookup by id and by name, and the
/// reader of the schema's values. Node views borrow it, so keep it in a
/// local: `let schema = loaded.schema();`.
pub struct Schema<'s> {
    store: &'s Store,
    /// `None` only if the stored values could not be read, which loading
    /// checked; a value read then reports the reader's error.
    values: Option<MessageReader<'s>>,
}

impl core::fmt::Debug for Schema<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Schema")
            .field("nodes", &self.store.nodes.len())
            .field("files", &self.store.files)
            .finish()
    }
}

impl<'s> Schema<'s> {
    /// The requested files: their ids and names, in the request's order.
    pub fn files(&self) -> impl Iterator<Item = (u64, &'s str)> + 's {
        self.store
            .files
            .iter()
            .map(|(id, name)| (*id, name.as_str()))
    }

    /// Ids of every node.
    pub fn node_ids(&self) -> impl Iterator<Item = u64> + 's {
        self.store.nodes.keys().copied()
    }

    pub(crate) fn node(&self, id: u64) -> Result<&'s Node> {
        self.store.nodes.get(&id).ok_or(Error::MissingNode { id })
    }

    /// The id of the node whose display name is `name`
    /// (`"file.capnp:Outer.Inner"`).
    ///
    /// # Errors
    /// [`Error::NoSuchName`].
    pub fn find(&self, name: &str) -> Result<u64> {
        self.store
            .names
            .get(name)
            .copied()
            .ok_or_else(|| Error::NoSuchName { name: name.into() })
    }

    /// The kind of node `id`: `"file"`, `"struct"`, `"enum"`,
    /// `"interface"`, `"const"` or `"annotation"`.
    ///
    /// # Errors
    /// [`Error::MissingNode`].
    pub fn node_kind(&self, id: u64) -> Result<&'static str> {
        Ok(self.node(id)?.kind.name())
    }

    /// The display name of node `id` (`"file.capnp:Outer.Inner"`).
    ///
    /// # Errors
    /// [`Error::MissingNode`].
    pub fn display_name(&self, id: u64) -> Result<&'s str> {
        Ok(&self.node(id)?.display_name)
    }

    /// The nodes nested in node `id`: name and id.
    ///
    /// # Errors
    /// [`Error::MissingNode`].
    pub fn nested(&self, id: u64) -> Result<impl Iterator<Item = (&'s str, u64)> + 's> {
        Ok(self.node(id)?.nested.iter().map(|(n, i)| (n.as_str(), *i)))
    }

    pub(crate) fn wrong(id: u64, expected: &'static str, node: &Node) -> Error {
        Error::WrongNodeKind {
            id,
            expected,
            found: node.kind.name(),
        }
    }

    /// `raw` with its generic parameters replaced by the bindings of
    /// `brand` (an unbound parameter is `AnyPointer`).
    pub(crate) fn resolve(&self, raw: &RawType, brand: &Brand, node: u64) -> Result<Type> {
        Ok(match raw {
            RawType::Void => Type::Void,
            RawType::Bool => Type::Bool,
            RawType::Int8 => Type::Int8,
            RawType::Int16 => Type::Int16,
            RawType::Int32 => Type::Int32,
            RawType::Int64 => Type::Int64,
            RawType::UInt8 => Type::UInt8,
            RawType::UInt16 => Type::UInt16,
            RawType::UInt32 => Type::UInt32,
            RawType::UInt64 => Type::UInt64,
            RawType::Float32 => Type::Float32,
            RawType::Float64 => Type::Float64,
            RawType::Text => Type::Text,
            RawType::Data => Type::Data,
            RawType::List(t) => {
                let element = self.resolve(t, brand, node)?;
                depth_within(element.depth() + 1, node)?;
                Type::List(Arc::new(element))
            }
            RawType::Enum(id) => Type::Enum(*id),
            RawType::Struct(id, b) => Type::Struct(StructType {
                id: *id,
                brand: self.resolve_brand(b, brand, node)?,
            }),
            RawType::Interface(id, _) => Type::Interface(*id),
            RawType::AnyPointer | RawType::ImplicitMethodParam => Type::AnyPointer,
            RawType::Param { scope, index } => brand.binding(*scope, *index),
        })
    }

    /// The bindings a use of a type gives, in the context `brand`.
    pub(crate) fn resolve_brand(&self, raw: &RawBrand, brand: &Brand, node: u64) -> Result<Brand> {
        if raw.0.is_empty() {
            return Ok(Brand::default());
        }
        let mut scopes = Vec::with_capacity(raw.0.len());
        let mut depth = 0;
        for (scope, bindings) in &raw.0 {
            let bound: Arc<[Type]> = match bindings {
                Some(list) => {
                    let mut out = Vec::with_capacity(list.len());
                    for t in list {
                        out.push(match t {
                            Some(t) => self.resolve(t, brand, node)?,
                            None => Type::AnyPointer,
                        });
                    }
                    out.into()
                }
                None => match brand.scope(*scope) {
                    Some(b) => b,
                    None => continue,
                },
            };
            for t in bound.iter() {
                depth = depth.max(t.depth());
            }
            scopes.push((*scope, bound));
        }
        depth_within(depth + 1, node)?;
        Ok(Brand(Some(Arc::new(BrandScopes {
            scopes,
            depth: depth + 1,
        }))))
    }

    /// Stored pointer value `index`; a null pointer for `None`.
    pub(crate) fn stored_value(&'s self, index: Option<u32>) -> Result<PointerReader<'s>> {
        let Some(values) = &self.values else {
            // Loading read them; report what reading them again says.
            load::values_reader(&self.store.values)?;
            return Err(Error::MissingNode { id: 0 });
        };
        let list = values.root_pointer()?.get_list(ElementSize::Pointer)?;
        // The list's last pointer is null (see `load::store_values`).
        let Some(last) = list.len().checked_sub(1) else {
            return Err(Error::MissingNode { id: 0 });
        };
        let index = index.unwrap_or(last);
        if index > last {
            return Err(Error::IndexOutOfRange {
                index,
                len: list.len(),
            });
        }
        Ok(list.get_pointer(index))
    }
}

pub(crate) fn depth_within(depth: u32, node: u64) -> Result<()> {
    if depth > MAX_RESOLVED_TYPE_DEPTH {
        return Err(Error::Limit {
            what: "levels of a type with its generic bindings",
            node,
            found: u64::from(depth),
            limit: u64::from(MAX_RESOLVED_TYPE_DEPTH),
        });
    }
    Ok(())
}
