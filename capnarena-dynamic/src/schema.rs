//! The schema graph at run time: [`LoadedSchema`] owns what was loaded,
//! [`Schema`] is the view every lookup goes through, and the node views
//! ([`StructSchema`], [`EnumSchema`], [`InterfaceSchema`],
//! [`ConstSchema`], [`AnnotationSchema`]) borrow from it. Types are
//! resolved where they are used: a field of type `T` in a struct reached
//! as `Foo(Text)` has the type [`Type::Text`].

use std::sync::Arc;

use capnarena::{ElementSize, MessageReader, PointerReader, ReaderOptions, StructSize};
use capnarena_codegen::schema_capnp::code_generator_request;

use crate::error::{Error, Result};
use crate::load;
use crate::model::*;
use crate::value::{DynamicEnum, DynamicValue, read_pointer};

/// Levels of a type after generic parameters are replaced by their
/// bindings (each binding can bring its own nesting, and a generic struct
/// can hold itself with a deeper binding at each level of a message).
pub const MAX_RESOLVED_TYPE_DEPTH: u32 = 256;

/// A schema loaded from a CodeGeneratorRequest: every node of the request
/// and the values (defaults, constants, annotation values) they hold.
///
/// Lookups go through its [`Schema`] view ([`schema`](Self::schema)). Two
/// loads of the same schema compare equal, wherever the request came from.
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

    fn node(&self, id: u64) -> Result<&'s Node> {
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

    /// The annotations on node `id` (a file, struct, enum, ...).
    ///
    /// # Errors
    /// [`Error::MissingNode`].
    pub fn annotations(&'s self, id: u64) -> Result<Annotations<'s>> {
        Ok(Annotations::new(
            self,
            &self.node(id)?.annotations,
            Brand::default(),
        ))
    }

    fn wrong(id: u64, expected: &'static str, node: &Node) -> Error {
        Error::WrongNodeKind {
            id,
            expected,
            found: node.kind.name(),
        }
    }

    /// Struct (or group) `id`, its generic parameters bound to `AnyPointer`.
    ///
    /// # Errors
    /// [`Error::MissingNode`], [`Error::WrongNodeKind`].
    pub fn struct_schema(&'s self, id: u64) -> Result<StructSchema<'s>> {
        self.struct_with_brand(id, Brand::default())
    }

    pub(crate) fn struct_with_brand(&'s self, id: u64, brand: Brand) -> Result<StructSchema<'s>> {
        let node = self.node(id)?;
        match &node.kind {
            NodeKind::Struct(st) => Ok(StructSchema {
                schema: self,
                node,
                st,
                brand,
            }),
            _ => Err(Schema::wrong(id, "struct", node)),
        }
    }

    /// The struct a [`Type::Struct`] names, with the type's bindings.
    ///
    /// # Errors
    /// As [`struct_schema`](Self::struct_schema).
    pub fn struct_of(&'s self, ty: &StructType) -> Result<StructSchema<'s>> {
        self.struct_with_brand(ty.id, ty.brand.clone())
    }

    /// Enum `id`.
    ///
    /// # Errors
    /// [`Error::MissingNode`], [`Error::WrongNodeKind`].
    pub fn enum_schema(&'s self, id: u64) -> Result<EnumSchema<'s>> {
        let node = self.node(id)?;
        match &node.kind {
            NodeKind::Enum(en) => Ok(EnumSchema {
                schema: self,
                node,
                en,
            }),
            _ => Err(Schema::wrong(id, "enum", node)),
        }
    }

    /// Interface `id`.
    ///
    /// # Errors
    /// [`Error::MissingNode`], [`Error::WrongNodeKind`].
    pub fn interface_schema(&'s self, id: u64) -> Result<InterfaceSchema<'s>> {
        self.interface_with_brand(id, Brand::default())
    }

    fn interface_with_brand(&'s self, id: u64, brand: Brand) -> Result<InterfaceSchema<'s>> {
        let node = self.node(id)?;
        match &node.kind {
            NodeKind::Interface(iface) => Ok(InterfaceSchema {
                schema: self,
                node,
                iface,
                brand,
            }),
            _ => Err(Schema::wrong(id, "interface", node)),
        }
    }

    /// Constant `id`.
    ///
    /// # Errors
    /// [`Error::MissingNode`], [`Error::WrongNodeKind`].
    pub fn const_schema(&'s self, id: u64) -> Result<ConstSchema<'s>> {
        let node = self.node(id)?;
        match &node.kind {
            NodeKind::Const(c) => Ok(ConstSchema {
                schema: self,
                node,
                c,
            }),
            _ => Err(Schema::wrong(id, "const", node)),
        }
    }

    /// Annotation declaration `id`.
    ///
    /// # Errors
    /// [`Error::MissingNode`], [`Error::WrongNodeKind`].
    pub fn annotation_schema(&'s self, id: u64) -> Result<AnnotationSchema<'s>> {
        let node = self.node(id)?;
        match &node.kind {
            NodeKind::Annotation(a) => Ok(AnnotationSchema {
                schema: self,
                node,
                a,
            }),
            _ => Err(Schema::wrong(id, "annotation", node)),
        }
    }

    /// The struct named `name` (`"file.capnp:Outer.Inner"`).
    ///
    /// # Errors
    /// [`Error::NoSuchName`], [`Error::WrongNodeKind`].
    pub fn find_struct(&'s self, name: &str) -> Result<StructSchema<'s>> {
        self.struct_schema(self.find(name)?)
    }

    /// The enum named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchName`], [`Error::WrongNodeKind`].
    pub fn find_enum(&'s self, name: &str) -> Result<EnumSchema<'s>> {
        self.enum_schema(self.find(name)?)
    }

    /// The interface named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchName`], [`Error::WrongNodeKind`].
    pub fn find_interface(&'s self, name: &str) -> Result<InterfaceSchema<'s>> {
        self.interface_schema(self.find(name)?)
    }

    /// The constant named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchName`], [`Error::WrongNodeKind`].
    pub fn find_const(&'s self, name: &str) -> Result<ConstSchema<'s>> {
        self.const_schema(self.find(name)?)
    }

    /// The annotation declaration named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchName`], [`Error::WrongNodeKind`].
    pub fn find_annotation(&'s self, name: &str) -> Result<AnnotationSchema<'s>> {
        self.annotation_schema(self.find(name)?)
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

    /// The value `raw` of type `ty` (a default, constant or annotation
    /// value) held by node `node`.
    pub(crate) fn value(
        &'s self,
        ty: &Type,
        raw: &RawValue,
        node: u64,
    ) -> Result<DynamicValue<'s>> {
        let bad = || Error::BadValue {
            node,
            expected: ty.to_string(),
            found: raw.kind(),
        };
        Ok(match (ty, *raw) {
            (Type::Void, RawValue::Void) => DynamicValue::Void,
            (Type::Bool, RawValue::Bool(v)) => DynamicValue::Bool(v),
            (Type::Int8, RawValue::Int8(v)) => DynamicValue::Int8(v),
            (Type::Int16, RawValue::Int16(v)) => DynamicValue::Int16(v),
            (Type::Int32, RawValue::Int32(v)) => DynamicValue::Int32(v),
            (Type::Int64, RawValue::Int64(v)) => DynamicValue::Int64(v),
            (Type::UInt8, RawValue::UInt8(v)) => DynamicValue::UInt8(v),
            (Type::UInt16, RawValue::UInt16(v)) => DynamicValue::UInt16(v),
            (Type::UInt32, RawValue::UInt32(v)) => DynamicValue::UInt32(v),
            (Type::UInt64, RawValue::UInt64(v)) => DynamicValue::UInt64(v),
            (Type::Float32, RawValue::Float32(v)) => DynamicValue::Float32(f32::from_bits(v)),
            (Type::Float64, RawValue::Float64(v)) => DynamicValue::Float64(f64::from_bits(v)),
            (Type::Enum(id), RawValue::Enum(v)) => {
                DynamicValue::Enum(DynamicEnum::new(v, self.enum_schema(*id)?))
            }
            (Type::Interface(_), RawValue::Interface) => DynamicValue::Capability(None),
            (
                Type::Text | Type::Data | Type::List(_) | Type::Struct(_) | Type::AnyPointer,
                RawValue::Pointer(_, index),
            ) => read_pointer(self, ty, self.stored_value(index)?)?,
            _ => return Err(bad()),
        })
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

fn depth_within(depth: u32, node: u64) -> Result<()> {
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

/// A type with its generic parameters resolved.
#[derive(Clone, Debug)]
pub enum Type {
    /// `Void`.
    Void,
    /// `Bool`.
    Bool,
    /// `Int8`.
    Int8,
    /// `Int16`.
    Int16,
    /// `Int32`.
    Int32,
    /// `Int64`.
    Int64,
    /// `UInt8`.
    UInt8,
    /// `UInt16`.
    UInt16,
    /// `UInt32`.
    UInt32,
    /// `UInt64`.
    UInt64,
    /// `Float32`.
    Float32,
    /// `Float64`.
    Float64,
    /// `Text`.
    Text,
    /// `Data`.
    Data,
    /// `List(T)`, with its element type.
    List(Arc<Type>),
    /// An enum, by id.
    Enum(u64),
    /// A struct, with its generic bindings.
    Struct(StructType),
    /// An interface, by id.
    Interface(u64),
    /// `AnyPointer`, an unbound generic parameter, or an implicit method
    /// parameter.
    AnyPointer,
}

impl Type {
    /// Levels of the type (lists and bound types count). In a loop, so
    /// that a type made by hand of any depth is measured in constant
    /// stack (a struct's bindings carry their depth).
    fn depth(&self) -> u32 {
        let mut t = self;
        let mut lists: u32 = 0;
        loop {
            match t {
                Type::List(e) => {
                    lists = lists.saturating_add(1);
                    t = e;
                }
                Type::Struct(s) => return lists.saturating_add(s.brand.depth()),
                _ => return lists,
            }
        }
    }

    /// Whether a value of the type lives in the pointer section.
    pub fn is_pointer(&self) -> bool {
        matches!(
            self,
            Type::Text
                | Type::Data
                | Type::List(_)
                | Type::Struct(_)
                | Type::Interface(_)
                | Type::AnyPointer
        )
    }

    /// The size of the type's elements in a list.
    pub fn element_size(&self) -> ElementSize {
        match self {
            Type::Void => ElementSize::Void,
            Type::Bool => ElementSize::Bit,
            Type::Int8 | Type::UInt8 => ElementSize::Byte,
            Type::Int16 | Type::UInt16 | Type::Enum(_) => ElementSize::TwoBytes,
            Type::Int32 | Type::UInt32 | Type::Float32 => ElementSize::FourBytes,
            Type::Int64 | Type::UInt64 | Type::Float64 => ElementSize::EightBytes,
            Type::Struct(_) => ElementSize::InlineComposite,
            Type::Text | Type::Data | Type::List(_) | Type::Interface(_) | Type::AnyPointer => {
                ElementSize::Pointer
            }
        }
    }

    /// Whether `self` and `other` are the same type, generic bindings
    /// aside (they do not change the encoding). In constant stack.
    pub fn same_as(&self, other: &Type) -> bool {
        let (mut a, mut b) = (self, other);
        loop {
            return match (a, b) {
                (Type::List(x), Type::List(y)) => {
                    (a, b) = (x, y);
                    continue;
                }
                (Type::Enum(x), Type::Enum(y)) | (Type::Interface(x), Type::Interface(y)) => x == y,
                (Type::Struct(x), Type::Struct(y)) => x.id == y.id,
                _ => core::mem::discriminant(a) == core::mem::discriminant(b),
            };
        }
    }
}

impl core::fmt::Display for Type {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Lists in a loop (constant stack for a type of any depth).
        let mut t = self;
        let mut lists = 0usize;
        while let Type::List(e) = t {
            f.write_str("List(")?;
            lists += 1;
            t = e;
        }
        match t {
            Type::Enum(id) => write!(f, "enum {id:#018x}")?,
            Type::Struct(s) => write!(f, "struct {:#018x}", s.id)?,
            Type::Interface(id) => write!(f, "interface {id:#018x}")?,
            // Not a list (unwrapped above): a name without parts.
            other => write!(f, "{other:?}")?,
        }
        for _ in 0..lists {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// A struct type: its id and generic bindings.
#[derive(Clone, Debug)]
pub struct StructType {
    id: u64,
    brand: Brand,
}

impl StructType {
    /// The struct's id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The generic bindings.
    pub fn brand(&self) -> &Brand {
        &self.brand
    }
}

/// Generic bindings: for each generic scope (a struct or interface with
/// parameters, or one around it) the types bound to its parameters.
/// Parameters of a scope it does not name are `AnyPointer`.
#[derive(Clone, Debug, Default)]
pub struct Brand(Option<Arc<BrandScopes>>);

#[derive(Debug)]
struct BrandScopes {
    scopes: Vec<(u64, Arc<[Type]>)>,
    depth: u32,
}

impl Brand {
    /// The types bound to the parameters of scope `scope`, if it is bound.
    pub fn scope(&self, scope: u64) -> Option<Arc<[Type]>> {
        let b = self.0.as_ref()?;
        b.scopes
            .iter()
            .find(|(s, _)| *s == scope)
            .map(|(_, t)| t.clone())
    }

    /// The type bound to parameter `index` of scope `scope`; `AnyPointer`
    /// when unbound.
    pub fn binding(&self, scope: u64, index: u16) -> Type {
        self.scope(scope)
            .and_then(|t| t.get(usize::from(index)).cloned())
            .unwrap_or(Type::AnyPointer)
    }

    fn depth(&self) -> u32 {
        self.0.as_ref().map_or(0, |b| b.depth)
    }
}

/// A struct (or a group) of the schema, with its generic bindings.
#[derive(Clone)]
pub struct StructSchema<'s> {
    pub(crate) schema: &'s Schema<'s>,
    node: &'s Node,
    st: &'s StructNode,
    pub(crate) brand: Brand,
}

impl core::fmt::Debug for StructSchema<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "StructSchema({} {:#018x})",
            self.node.display_name, self.node.id
        )
    }
}

impl<'s> StructSchema<'s> {
    /// The struct's id.
    pub fn id(&self) -> u64 {
        self.node.id
    }

    /// The schema it belongs to.
    pub fn schema(&self) -> &'s Schema<'s> {
        self.schema
    }

    /// Its display name (`"file.capnp:Outer.Inner"`).
    pub fn display_name(&self) -> &'s str {
        &self.node.display_name
    }

    /// Its own name (the display name past the scope's prefix).
    pub fn name(&self) -> &'s str {
        short_name(self.node)
    }

    /// The struct as a type, with its bindings (to read or build an
    /// `AnyPointer` as this struct).
    pub fn ty(&self) -> Type {
        Type::Struct(StructType {
            id: self.node.id,
            brand: self.brand.clone(),
        })
    }

    /// Data words and pointers of the struct.
    pub fn size(&self) -> StructSize {
        StructSize::new(self.st.data_words, self.st.pointers)
    }

    /// Whether this is a group (fields of its parent, in its parent's
    /// sections).
    pub fn is_group(&self) -> bool {
        self.st.is_group
    }

    /// Members of its union (0: it has none).
    pub fn discriminant_count(&self) -> u16 {
        self.st.discriminant_count
    }

    /// Where the union's discriminant is, in units of 16 bits.
    pub fn discriminant_offset(&self) -> u32 {
        self.st.discriminant_offset
    }

    /// Its generic parameters' names.
    pub fn parameters(&self) -> impl Iterator<Item = &'s str> + 's {
        self.node.parameters.iter().map(String::as_str)
    }

    /// The generic bindings it is seen with.
    pub fn brand(&self) -> &Brand {
        &self.brand
    }

    /// This struct with its own generic parameters bound to `args`, in
    /// order (missing ones are `AnyPointer`); bindings of the scopes
    /// around it stay.
    ///
    /// # Errors
    /// [`Error::Limit`] when the bound types nest too deeply.
    pub fn bind(&self, args: Vec<Type>) -> Result<StructSchema<'s>> {
        let mut scopes: Vec<(u64, Arc<[Type]>)> = match &self.brand.0 {
            Some(b) => b
                .scopes
                .iter()
                .filter(|(s, _)| *s != self.node.id)
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        let depth = scopes
            .iter()
            .flat_map(|(_, t)| t.iter())
            .chain(args.iter())
            .map(Type::depth)
            .max()
            .unwrap_or(0)
            + 1;
        depth_within(depth, self.node.id)?;
        scopes.push((self.node.id, args.into()));
        let mut out = self.clone();
        out.brand = Brand(Some(Arc::new(BrandScopes { scopes, depth })));
        Ok(out)
    }

    /// Its fields in the schema's order (by ordinal; groups share the
    /// ordinal space, so a field's place here is its index).
    pub fn fields(&self) -> impl ExactSizeIterator<Item = Field<'s>> + '_ {
        (0..self.st.fields.len()).map(|i| self.field_at(i))
    }

    /// Its fields in the order the schema file declares them.
    pub fn fields_in_code_order(&self) -> Vec<Field<'s>> {
        let mut fields: Vec<Field<'s>> = self.fields().collect();
        fields.sort_by_key(Field::code_order);
        fields
    }

    /// The members of its union, in the schema's order.
    pub fn union_fields(&self) -> impl Iterator<Item = Field<'s>> + '_ {
        self.fields().filter(|f| f.discriminant().is_some())
    }

    /// The fields outside its union, in the schema's order.
    pub fn non_union_fields(&self) -> impl Iterator<Item = Field<'s>> + '_ {
        self.fields().filter(|f| f.discriminant().is_none())
    }

    fn field_at(&self, index: usize) -> Field<'s> {
        Field {
            parent: self.clone(),
            index: index as u32,
            f: &self.st.fields[index],
        }
    }

    /// Field `index` in the schema's order.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`].
    pub fn field(&self, index: u32) -> Result<Field<'s>> {
        if (index as usize) < self.st.fields.len() {
            Ok(self.field_at(index as usize))
        } else {
            Err(Error::IndexOutOfRange {
                index,
                len: self.st.fields.len() as u32,
            })
        }
    }

    /// The field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`].
    pub fn field_by_name(&self, name: &str) -> Result<Field<'s>> {
        match self.st.fields.iter().position(|f| f.name == name) {
            Some(i) => Ok(self.field_at(i)),
            None => Err(Error::NoSuchField {
                struct_id: self.node.id,
                name: name.into(),
            }),
        }
    }

    /// The union member whose discriminant is `value`.
    pub(crate) fn member(&self, value: u16) -> Option<Field<'s>> {
        self.st
            .fields
            .iter()
            .position(|f| f.discriminant == Some(value))
            .map(|i| self.field_at(i))
    }

    /// Its annotations.
    pub fn annotations(&self) -> Annotations<'s> {
        Annotations::new(self.schema, &self.node.annotations, self.brand.clone())
    }
}

fn short_name(node: &Node) -> &str {
    node.display_name
        .get(node.prefix_len as usize..)
        .unwrap_or(&node.display_name)
}

/// A field of a struct or group.
#[derive(Clone)]
pub struct Field<'s> {
    parent: StructSchema<'s>,
    index: u32,
    f: &'s FieldNode,
}

impl core::fmt::Debug for Field<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Field({}.{})", self.parent.display_name(), self.f.name)
    }
}

impl<'s> Field<'s> {
    /// The field's name.
    pub fn name(&self) -> &'s str {
        &self.f.name
    }

    /// Its index among its struct's fields (the schema's order).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// Its place in the schema file's declaration order.
    pub fn code_order(&self) -> u16 {
        self.f.code_order
    }

    /// Its ordinal (`@n`); `None` for a group.
    pub fn ordinal(&self) -> Option<u16> {
        self.f.ordinal
    }

    /// Its discriminant value when it is a union member.
    pub fn discriminant(&self) -> Option<u16> {
        self.f.discriminant
    }

    /// The struct (or group) it belongs to.
    pub fn parent(&self) -> &StructSchema<'s> {
        &self.parent
    }

    /// Whether it is a group.
    pub fn is_group(&self) -> bool {
        matches!(self.f.kind, FieldKind::Group(_))
    }

    /// The group, when it is one (with its parent's generic bindings).
    ///
    /// # Errors
    /// [`Error::WrongNodeKind`] when the field is not a group.
    pub fn group(&self) -> Result<StructSchema<'s>> {
        match self.f.kind {
            FieldKind::Group(id) => self
                .parent
                .schema
                .struct_with_brand(id, self.parent.brand.clone()),
            FieldKind::Slot { .. } => Err(Error::WrongNodeKind {
                id: self.parent.id(),
                expected: "group",
                found: "field",
            }),
        }
    }

    /// Its type, generic parameters resolved by the struct's bindings; a
    /// group's is its group struct.
    ///
    /// # Errors
    /// [`Error::Limit`] when the resolved type nests too deeply.
    pub fn ty(&self) -> Result<Type> {
        match &self.f.kind {
            FieldKind::Slot { ty, .. } => {
                self.parent
                    .schema
                    .resolve(ty, &self.parent.brand, self.parent.id())
            }
            FieldKind::Group(id) => Ok(Type::Struct(StructType {
                id: *id,
                brand: self.parent.brand.clone(),
            })),
        }
    }

    /// Where the value is: in units of the type's size in the data
    /// section (bits for `Bool`), or its pointer's index. `None` for a
    /// group.
    pub fn offset(&self) -> Option<u32> {
        match self.f.kind {
            FieldKind::Slot { offset, .. } => Some(offset),
            FieldKind::Group(_) => None,
        }
    }

    /// Whether the schema gives the field a default (`= value`).
    pub fn had_explicit_default(&self) -> bool {
        matches!(
            self.f.kind,
            FieldKind::Slot {
                had_explicit_default: true,
                ..
            }
        )
    }

    /// The field's default value (of a group: an error).
    ///
    /// # Errors
    /// The field is a group, or the value cannot be read.
    pub fn default_value(&self) -> Result<DynamicValue<'s>> {
        match &self.f.kind {
            FieldKind::Slot { default, .. } => {
                self.parent
                    .schema
                    .value(&self.ty()?, default, self.parent.id())
            }
            FieldKind::Group(_) => Err(Error::WrongNodeKind {
                id: self.parent.id(),
                expected: "field",
                found: "group",
            }),
        }
    }

    /// The default's raw value.
    pub(crate) fn raw_default(&self) -> Option<&'s RawValue> {
        match &self.f.kind {
            FieldKind::Slot { default, .. } => Some(default),
            FieldKind::Group(_) => None,
        }
    }

    /// Its annotations.
    pub fn annotations(&self) -> Annotations<'s> {
        Annotations::new(
            self.parent.schema,
            &self.f.annotations,
            self.parent.brand.clone(),
        )
    }
}

/// An enum of the schema.
#[derive(Clone, Copy)]
pub struct EnumSchema<'s> {
    schema: &'s Schema<'s>,
    node: &'s Node,
    en: &'s EnumNode,
}

impl core::fmt::Debug for EnumSchema<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "EnumSchema({} {:#018x})",
            self.node.display_name, self.node.id
        )
    }
}

impl<'s> EnumSchema<'s> {
    /// The enum's id.
    pub fn id(&self) -> u64 {
        self.node.id
    }

    /// Its display name.
    pub fn display_name(&self) -> &'s str {
        &self.node.display_name
    }

    /// Its own name.
    pub fn name(&self) -> &'s str {
        short_name(self.node)
    }

    /// Its enumerants, by value.
    pub fn enumerants(&self) -> impl ExactSizeIterator<Item = Enumerant<'s>> + '_ {
        let this = *self;
        (0..self.en.enumerants.len()).map(move |i| Enumerant {
            parent: this,
            value: i as u16,
        })
    }

    /// The enumerant of value `value`, if the schema lists it.
    pub fn enumerant(&self, value: u16) -> Option<Enumerant<'s>> {
        (usize::from(value) < self.en.enumerants.len()).then_some(Enumerant {
            parent: *self,
            value,
        })
    }

    /// The value named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchEnumerant`].
    pub fn value_by_name(&self, name: &str) -> Result<DynamicEnum<'s>> {
        match self.en.enumerants.iter().position(|e| e.name == name) {
            Some(i) => Ok(DynamicEnum::new(i as u16, *self)),
            None => Err(Error::NoSuchEnumerant {
                enum_id: self.node.id,
                name: name.into(),
            }),
        }
    }

    /// Its annotations.
    pub fn annotations(&self) -> Annotations<'s> {
        Annotations::new(self.schema, &self.node.annotations, Brand::default())
    }
}

/// An enumerant: a named value of an enum.
#[derive(Clone, Copy, Debug)]
pub struct Enumerant<'s> {
    parent: EnumSchema<'s>,
    value: u16,
}

impl<'s> Enumerant<'s> {
    fn node(&self) -> &'s EnumerantNode {
        &self.parent.en.enumerants[usize::from(self.value)]
    }

    /// Its name.
    pub fn name(&self) -> &'s str {
        &self.node().name
    }

    /// Its value (ordinal).
    pub fn value(&self) -> u16 {
        self.value
    }

    /// Its place in declaration order.
    pub fn code_order(&self) -> u16 {
        self.node().code_order
    }

    /// Its annotations.
    pub fn annotations(&self) -> Annotations<'s> {
        Annotations::new(
            self.parent.schema,
            &self.node().annotations,
            Brand::default(),
        )
    }
}

/// An interface of the schema.
#[derive(Clone)]
pub struct InterfaceSchema<'s> {
    schema: &'s Schema<'s>,
    node: &'s Node,
    iface: &'s InterfaceNode,
    brand: Brand,
}

impl core::fmt::Debug for InterfaceSchema<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "InterfaceSchema({} {:#018x})",
            self.node.display_name, self.node.id
        )
    }
}

impl<'s> InterfaceSchema<'s> {
    /// The interface's id.
    pub fn id(&self) -> u64 {
        self.node.id
    }

    /// Its display name.
    pub fn display_name(&self) -> &'s str {
        &self.node.display_name
    }

    /// Its methods, by ordinal.
    pub fn methods(&self) -> impl ExactSizeIterator<Item = Method<'s>> + '_ {
        (0..self.iface.methods.len()).map(|i| Method {
            parent: self.clone(),
            index: i as u16,
        })
    }

    /// The method named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`] (naming the interface).
    pub fn method_by_name(&self, name: &str) -> Result<Method<'s>> {
        match self.iface.methods.iter().position(|m| m.name == name) {
            Some(i) => Ok(Method {
                parent: self.clone(),
                index: i as u16,
            }),
            None => Err(Error::NoSuchField {
                struct_id: self.node.id,
                name: name.into(),
            }),
        }
    }

    /// The interfaces it extends, with the bindings it gives them.
    ///
    /// # Errors
    /// [`Error::Limit`] when a binding nests too deeply.
    pub fn superclasses(&self) -> Result<Vec<InterfaceSchema<'s>>> {
        let mut out = Vec::new();
        for (id, raw) in &self.iface.superclasses {
            let brand = self.schema.resolve_brand(raw, &self.brand, self.node.id)?;
            out.push(self.schema.interface_with_brand(*id, brand)?);
        }
        Ok(out)
    }

    /// Its annotations.
    pub fn annotations(&self) -> Annotations<'s> {
        Annotations::new(self.schema, &self.node.annotations, self.brand.clone())
    }
}

/// A method of an interface.
#[derive(Clone, Debug)]
pub struct Method<'s> {
    parent: InterfaceSchema<'s>,
    index: u16,
}

impl<'s> Method<'s> {
    fn node(&self) -> &'s MethodNode {
        &self.parent.iface.methods[usize::from(self.index)]
    }

    /// Its name.
    pub fn name(&self) -> &'s str {
        &self.node().name
    }

    /// Its ordinal (index among the interface's methods).
    pub fn ordinal(&self) -> u16 {
        self.index
    }

    /// Its place in declaration order.
    pub fn code_order(&self) -> u16 {
        self.node().code_order
    }

    /// The id of its parameter struct.
    pub fn param_struct_id(&self) -> u64 {
        self.node().param_struct
    }

    /// The id of its result struct.
    pub fn result_struct_id(&self) -> u64 {
        self.node().result_struct
    }

    /// Its parameter struct, with its bindings.
    ///
    /// # Errors
    /// [`Error::Limit`] when a binding nests too deeply.
    pub fn params(&self) -> Result<StructSchema<'s>> {
        let m = self.node();
        let schema = self.parent.schema;
        let brand = schema.resolve_brand(&m.param_brand, &self.parent.brand, self.parent.id())?;
        schema.struct_with_brand(m.param_struct, brand)
    }

    /// Its result struct, with its bindings.
    ///
    /// # Errors
    /// [`Error::Limit`] when a binding nests too deeply.
    pub fn results(&self) -> Result<StructSchema<'s>> {
        let m = self.node();
        let schema = self.parent.schema;
        let brand = schema.resolve_brand(&m.result_brand, &self.parent.brand, self.parent.id())?;
        schema.struct_with_brand(m.result_struct, brand)
    }

    /// Its annotations.
    pub fn annotations(&self) -> Annotations<'s> {
        Annotations::new(
            self.parent.schema,
            &self.node().annotations,
            self.parent.brand.clone(),
        )
    }
}

/// A constant of the schema.
#[derive(Clone, Copy)]
pub struct ConstSchema<'s> {
    schema: &'s Schema<'s>,
    node: &'s Node,
    c: &'s ConstNode,
}

impl core::fmt::Debug for ConstSchema<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "ConstSchema({} {:#018x})",
            self.node.display_name, self.node.id
        )
    }
}

impl<'s> ConstSchema<'s> {
    /// The constant's id.
    pub fn id(&self) -> u64 {
        self.node.id
    }

    /// Its display name.
    pub fn display_name(&self) -> &'s str {
        &self.node.display_name
    }

    /// Its type.
    ///
    /// # Errors
    /// [`Error::Limit`] when the type nests too deeply.
    pub fn ty(&self) -> Result<Type> {
        self.schema
            .resolve(&self.c.ty, &Brand::default(), self.node.id)
    }

    /// Its value.
    ///
    /// # Errors
    /// The stored value cannot be read as the type (a `Text` constant
    /// that is not UTF-8 too: [`text_bytes`](Self::text_bytes) reads it).
    pub fn value(&self) -> Result<DynamicValue<'s>> {
        self.schema.value(&self.ty()?, &self.c.value, self.node.id)
    }

    /// A `Text` constant's bytes, without the UTF-8 check.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] for a constant of another type.
    pub fn text_bytes(&self) -> Result<&'s [u8]> {
        match (&self.c.ty, self.c.value) {
            (RawType::Text, RawValue::Pointer(_, index)) => {
                Ok(self.schema.stored_value(index)?.get_text_bytes()?)
            }
            (ty, _) => Err(Error::TypeMismatch {
                context: self.node.display_name.clone(),
                expected: format!("{ty:?}"),
                found: "Text".into(),
            }),
        }
    }
}

/// An annotation declaration.
#[derive(Clone, Copy)]
pub struct AnnotationSchema<'s> {
    schema: &'s Schema<'s>,
    node: &'s Node,
    a: &'s AnnotationNode,
}

impl core::fmt::Debug for AnnotationSchema<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "AnnotationSchema({} {:#018x})",
            self.node.display_name, self.node.id
        )
    }
}

impl<'s> AnnotationSchema<'s> {
    /// The annotation's id.
    pub fn id(&self) -> u64 {
        self.node.id
    }

    /// Its display name.
    pub fn display_name(&self) -> &'s str {
        &self.node.display_name
    }

    /// Its value type, unbound generic parameters as `AnyPointer`.
    ///
    /// # Errors
    /// [`Error::Limit`] when the type nests too deeply.
    pub fn ty(&self) -> Result<Type> {
        self.schema
            .resolve(&self.a.ty, &Brand::default(), self.node.id)
    }

    /// What it may annotate, in schema.capnp's order: file, const, enum,
    /// enumerant, struct, field, union, group, interface, method, param,
    /// annotation.
    pub fn targets(&self) -> [bool; 12] {
        self.a.targets
    }
}

/// The annotations on a node, field, enumerant or method.
#[derive(Clone)]
pub struct Annotations<'s> {
    schema: &'s Schema<'s>,
    list: &'s [AnnotationUse],
    brand: Brand,
}

impl core::fmt::Debug for Annotations<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list()
            .entries(self.list.iter().map(|a| a.id))
            .finish()
    }
}

impl<'s> Annotations<'s> {
    fn new(schema: &'s Schema<'s>, list: &'s [AnnotationUse], brand: Brand) -> Self {
        Annotations {
            schema,
            list,
            brand,
        }
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Each annotation, in the order written.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Annotation<'s>> + '_ {
        self.list.iter().map(|a| Annotation {
            schema: self.schema,
            a,
            brand: self.brand.clone(),
        })
    }

    /// The annotation of id `id`, if present.
    pub fn get(&self, id: u64) -> Option<Annotation<'s>> {
        self.iter().find(|a| a.id() == id)
    }

    /// The annotation that `declaration` declares, if present.
    pub fn get_by_schema(&self, declaration: &AnnotationSchema<'_>) -> Option<Annotation<'s>> {
        self.get(declaration.id())
    }
}

/// An annotation applied somewhere: its declaration's id and its value.
#[derive(Clone)]
pub struct Annotation<'s> {
    schema: &'s Schema<'s>,
    a: &'s AnnotationUse,
    brand: Brand,
}

impl core::fmt::Debug for Annotation<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Annotation({:#018x})", self.a.id)
    }
}

impl<'s> Annotation<'s> {
    /// The id of its declaration.
    pub fn id(&self) -> u64 {
        self.a.id
    }

    /// Its declaration.
    ///
    /// # Errors
    /// [`Error::MissingNode`], [`Error::WrongNodeKind`].
    pub fn declaration(&self) -> Result<AnnotationSchema<'s>> {
        self.schema.annotation_schema(self.a.id)
    }

    /// Its value, typed by its declaration (with the bindings the use
    /// gives a generic annotation).
    ///
    /// # Errors
    /// The declaration is missing, or the value is not of its type.
    pub fn value(&self) -> Result<DynamicValue<'s>> {
        let decl = self.declaration()?;
        let brand = self
            .schema
            .resolve_brand(&self.a.brand, &self.brand, decl.id())?;
        let ty = self.schema.resolve(&decl.a.ty, &brand, decl.id())?;
        load::check_value(&decl.a.ty, &self.a.value, decl.id())?;
        self.schema.value(&ty, &self.a.value, decl.id())
    }
}
