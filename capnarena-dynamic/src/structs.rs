//! Structs (and groups) of a schema, and their fields.

use std::sync::Arc;

use capnarena::StructSize;

use crate::annotations::Annotations;
use crate::error::{Error, Result};
use crate::model::*;
use crate::schema::{Schema, depth_within};
use crate::types::{Brand, BrandScopes, StructType, Type};

/// A struct (or a group) of the schema, with its generic bindings.
#[derive(Clone)]
pub struct StructSchema<'s> {
    pub(crate) schema: &'s Schema<'s>,
    pub(crate) node: &'s Node,
    pub(crate) st: &'s StructNode,
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

/// The same struct of the same loaded schema, with equal bindings (see
/// [`Brand`]): `Box(Text)` and `Box(Data)` differ.
impl PartialEq for StructSchema<'_> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.node, other.node) && self.brand == other.brand
    }
}

impl Eq for StructSchema<'_> {}

/// The same field (by index) of equal structs.
impl PartialEq for Field<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.parent == other.parent
    }
}

impl Eq for Field<'_> {}

/// Hashes the struct's id (bindings aside: equal schemas hash equal).
impl core::hash::Hash for StructSchema<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.node.id.hash(state);
    }
}

/// Hashes the struct's id and the field's index.
impl core::hash::Hash for Field<'_> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.parent.hash(state);
        self.index.hash(state);
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

    /// The member of its union whose discriminant is `value`; `None` when
    /// no member has it.
    pub fn field_by_discriminant(&self, value: u16) -> Option<Field<'s>> {
        self.member(value)
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

pub(crate) fn short_name(node: &Node) -> &str {
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

impl<'s> Schema<'s> {
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

    /// The struct named `name` (`"file.capnp:Outer.Inner"`).
    ///
    /// # Errors
    /// [`Error::NoSuchName`], [`Error::WrongNodeKind`].
    pub fn find_struct(&'s self, name: &str) -> Result<StructSchema<'s>> {
        self.struct_schema(self.find(name)?)
    }
}
