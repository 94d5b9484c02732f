//! Types with their generic parameters resolved, and generic bindings.

use std::sync::Arc;

use capnarena::ElementSize;

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
    pub(crate) fn depth(&self) -> u32 {
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

    /// `List(element)`.
    pub fn list_of(element: Type) -> Type {
        Type::List(Arc::new(element))
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
    /// aside (they do not change the encoding). In constant stack. `==`
    /// compares the bindings too: `Box(Text)` is not `Box(Data)`.
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

/// Types are equal when they are the same type with the same generic
/// bindings: a list's element types are equal, two structs have the same
/// id and equal [`Brand`]s. Interfaces compare by id.
impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        // Lists in a loop; a struct's bindings recurse, as deep as a
        // brand may be (`MAX_RESOLVED_TYPE_DEPTH`, checked where brands
        // are made).
        let (mut a, mut b) = (self, other);
        loop {
            return match (a, b) {
                (Type::List(x), Type::List(y)) => {
                    (a, b) = (x, y);
                    continue;
                }
                (Type::Enum(x), Type::Enum(y)) | (Type::Interface(x), Type::Interface(y)) => x == y,
                (Type::Struct(x), Type::Struct(y)) => x == y,
                _ => core::mem::discriminant(a) == core::mem::discriminant(b),
            };
        }
    }
}

impl Eq for Type {}

/// Hashes what [`same_as`](Type::same_as) compares (the kind, the list
/// levels and the id of a struct, enum or interface): types that are `==`
/// hash equal, and a `Type` is a key of a `HashMap` or `HashSet`.
impl core::hash::Hash for Type {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let mut t = self;
        while let Type::List(e) = t {
            state.write_u8(0xff);
            t = e;
        }
        core::mem::discriminant(t).hash(state);
        match t {
            Type::Enum(id) | Type::Interface(id) => id.hash(state),
            Type::Struct(s) => s.id.hash(state),
            _ => {}
        }
    }
}

impl core::hash::Hash for StructType {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

/// A struct type: its id and generic bindings. Two are equal when their
/// ids are and their bindings are (see [`Brand`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructType {
    pub(crate) id: u64,
    pub(crate) brand: Brand,
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
///
/// Two brands are equal when they bind every parameter to equal types,
/// an unbound parameter counting as `AnyPointer`: `Box` named without
/// arguments equals `Box(AnyPointer)`.
#[derive(Clone, Debug, Default)]
pub struct Brand(pub(crate) Option<Arc<BrandScopes>>);

impl PartialEq for Brand {
    fn eq(&self, other: &Brand) -> bool {
        let scopes = |b: &Brand| -> Vec<(u64, usize)> {
            b.0.as_ref().map_or_else(Vec::new, |s| {
                s.scopes.iter().map(|(id, t)| (*id, t.len())).collect()
            })
        };
        scopes(self)
            .into_iter()
            .chain(scopes(other))
            .all(|(scope, len)| {
                (0..len).all(|i| {
                    let i = u16::try_from(i).unwrap_or(u16::MAX);
                    self.binding(scope, i) == other.binding(scope, i)
                })
            })
    }
}

impl Eq for Brand {}

#[derive(Debug)]
pub(crate) struct BrandScopes {
    pub(crate) scopes: Vec<(u64, Arc<[Type]>)>,
    pub(crate) depth: u32,
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

    pub(crate) fn depth(&self) -> u32 {
        self.0.as_ref().map_or(0, |b| b.depth)
    }
}
