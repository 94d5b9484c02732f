//! Enums, interfaces, constants and annotations of a schema.

use crate::error::{Error, Result};
use crate::load;
use crate::model::*;
use crate::schema::Schema;
use crate::structs::{StructSchema, short_name};
use crate::types::{Brand, Type};
use crate::value::{DynamicEnum, DynamicValue};

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
    pub(crate) schema: &'s Schema<'s>,
    pub(crate) node: &'s Node,
    pub(crate) a: &'s AnnotationNode,
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
    pub(crate) fn new(schema: &'s Schema<'s>, list: &'s [AnnotationUse], brand: Brand) -> Self {
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

    /// The type of its value: its declaration's, with the bindings the
    /// use gives a generic annotation.
    ///
    /// # Errors
    /// As [`declaration`](Self::declaration).
    pub fn ty(&self) -> Result<Type> {
        let decl = self.declaration()?;
        let brand = self
            .schema
            .resolve_brand(&self.a.brand, &self.brand, decl.id())?;
        self.schema.resolve(&decl.a.ty, &brand, decl.id())
    }

    /// Its value, typed by its declaration (with the bindings the use
    /// gives a generic annotation).
    ///
    /// # Errors
    /// The declaration is missing, or the value is not of its type.
    pub fn value(&self) -> Result<DynamicValue<'s>> {
        let decl = self.declaration()?;
        let ty = self.ty()?;
        load::check_value(&decl.a.ty, &self.a.value, decl.id())?;
        self.schema.value(&ty, &self.a.value, decl.id())
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

/// The same node of the same loaded schema.
impl PartialEq for AnnotationSchema<'_> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.node, other.node)
    }
}

impl Eq for AnnotationSchema<'_> {}

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
