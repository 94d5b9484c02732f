//! Enums, interfaces and constants of a schema.

use crate::annotations::{AnnotationSchema, Annotations};
use crate::error::{Error, Result};
use crate::model::*;
use crate::schema::Schema;
use crate::structs::{StructSchema, short_name};
use crate::types::{Brand, Type};

/// An enum of the schema.
#[derive(Clone, Copy)]
pub struct EnumSchema<'s> {
    pub(crate) schema: &'s Schema<'s>,
    pub(crate) node: &'s Node,
    pub(crate) en: &'s EnumNode,
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

    /// The enum it belongs to.
    pub fn enum_schema(&self) -> EnumSchema<'s> {
        self.parent
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
    pub(crate) schema: &'s Schema<'s>,
    pub(crate) node: &'s Node,
    pub(crate) iface: &'s InterfaceNode,
    pub(crate) brand: Brand,
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
    pub(crate) schema: &'s Schema<'s>,
    pub(crate) node: &'s Node,
    pub(crate) c: &'s ConstNode,
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

/// The same node of the same loaded schema.
impl PartialEq for EnumSchema<'_> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.node, other.node)
    }
}

impl Eq for EnumSchema<'_> {}

/// The same node of the same loaded schema, with equal bindings.
impl PartialEq for InterfaceSchema<'_> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.node, other.node) && self.brand == other.brand
    }
}

impl Eq for InterfaceSchema<'_> {}

/// The same node of the same loaded schema.
impl PartialEq for ConstSchema<'_> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.node, other.node)
    }
}

impl Eq for ConstSchema<'_> {}

/// Hashes the node's id: equal schemas have equal ids, so a schema view
/// is a key of a `HashMap` or `HashSet`.
macro_rules! hash_by_id {
    ($($t:ident),*) => {$(
        impl core::hash::Hash for $t<'_> {
            fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
                self.node.id.hash(state);
            }
        }
    )*};
}

hash_by_id!(EnumSchema, InterfaceSchema, ConstSchema, AnnotationSchema);

/// The same value of equal enums.
impl PartialEq for Enumerant<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value && self.parent == other.parent
    }
}

impl Eq for Enumerant<'_> {}

/// Hashes the enum's id and the value.
impl core::hash::Hash for Enumerant<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.parent.hash(state);
        self.value.hash(state);
    }
}

impl<'s> Schema<'s> {
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

    pub(crate) fn interface_with_brand(
        &'s self,
        id: u64,
        brand: Brand,
    ) -> Result<InterfaceSchema<'s>> {
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
}
