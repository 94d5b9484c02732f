//! Annotations of a schema: the declarations, and their uses on a node,
//! field, enumerant or method.

use crate::error::Result;
use crate::model::*;
use crate::schema::Schema;
use crate::types::{Brand, Type};

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
    /// [`Error::Limit`](crate::Error::Limit) when the type nests too deeply.
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
    pub(crate) schema: &'s Schema<'s>,
    pub(crate) a: &'s AnnotationUse,
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
    /// [`Error::MissingNode`](crate::Error::MissingNode), [`Error::WrongNodeKind`](crate::Error::WrongNodeKind).
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
}

/// The same node of the same loaded schema.
impl PartialEq for AnnotationSchema<'_> {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.node, other.node)
    }
}

impl Eq for AnnotationSchema<'_> {}

impl<'s> Schema<'s> {
    /// The annotations on node `id` (a file, struct, enum, ...).
    ///
    /// # Errors
    /// [`Error::MissingNode`](crate::Error::MissingNode).
    pub fn annotations(&'s self, id: u64) -> Result<Annotations<'s>> {
        Ok(Annotations::new(
            self,
            &self.node(id)?.annotations,
            Brand::default(),
        ))
    }

    /// Annotation declaration `id`.
    ///
    /// # Errors
    /// [`Error::MissingNode`](crate::Error::MissingNode), [`Error::WrongNodeKind`](crate::Error::WrongNodeKind).
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

    /// The annotation declaration named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchName`](crate::Error::NoSuchName), [`Error::WrongNodeKind`](crate::Error::WrongNodeKind).
    pub fn find_annotation(&'s self, name: &str) -> Result<AnnotationSchema<'s>> {
        self.annotation_schema(self.find(name)?)
    }
}
