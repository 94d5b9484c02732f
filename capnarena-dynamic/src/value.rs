//! Dynamic readers: values of any schema type read by the schema at run
//! time, through the same runtime calls the generated readers make (so
//! limits, defaults and errors are the same).

use capnarena::typed::{Enum, FromStructReader, HasSchema, Introspect, ListOwned, StructOwned};
use capnarena::{ListReader, MessageReader, MessageSize, PointerReader, Primitive, StructReader};

use crate::annotations::Annotation;
use crate::error::{Error, Result};
use crate::generated::{check_list, check_struct, check_type, list_element_of};
use crate::load;
use crate::model::RawValue;
use crate::nodes::{ConstSchema, EnumSchema, Enumerant};
use crate::schema::Schema;
use crate::structs::{Field, StructSchema};
use crate::types::Type;

/// A value read by the schema (or given to a builder's `set`).
#[derive(Clone)]
pub enum DynamicValue<'a> {
    /// `Void`.
    Void,
    /// `Bool`.
    Bool(bool),
    /// `Int8`.
    Int8(i8),
    /// `Int16`.
    Int16(i16),
    /// `Int32`.
    Int32(i32),
    /// `Int64`.
    Int64(i64),
    /// `UInt8`.
    UInt8(u8),
    /// `UInt16`.
    UInt16(u16),
    /// `UInt32`.
    UInt32(u32),
    /// `UInt64`.
    UInt64(u64),
    /// `Float32`.
    Float32(f32),
    /// `Float64`.
    Float64(f64),
    /// An enum value, with its schema.
    Enum(DynamicEnum<'a>),
    /// `Text`.
    Text(&'a str),
    /// `Data`.
    Data(&'a [u8]),
    /// A struct (or a group).
    Struct(DynamicStructReader<'a>),
    /// A list.
    List(DynamicListReader<'a>),
    /// `AnyPointer` (or an unbound generic parameter).
    AnyPointer(PointerReader<'a>),
    /// An interface: the capability's index in the message's capability
    /// table, `None` for a null pointer.
    Capability(Option<u32>),
}

impl core::fmt::Debug for DynamicValue<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DynamicValue::Void => f.write_str("Void"),
            DynamicValue::Bool(v) => write!(f, "Bool({v})"),
            DynamicValue::Int8(v) => write!(f, "Int8({v})"),
            DynamicValue::Int16(v) => write!(f, "Int16({v})"),
            DynamicValue::Int32(v) => write!(f, "Int32({v})"),
            DynamicValue::Int64(v) => write!(f, "Int64({v})"),
            DynamicValue::UInt8(v) => write!(f, "UInt8({v})"),
            DynamicValue::UInt16(v) => write!(f, "UInt16({v})"),
            DynamicValue::UInt32(v) => write!(f, "UInt32({v})"),
            DynamicValue::UInt64(v) => write!(f, "UInt64({v})"),
            DynamicValue::Float32(v) => write!(f, "Float32({v:?})"),
            DynamicValue::Float64(v) => write!(f, "Float64({v:?})"),
            DynamicValue::Enum(v) => write!(f, "Enum({v:?})"),
            DynamicValue::Text(v) => write!(f, "Text({v:?})"),
            DynamicValue::Data(v) => write!(f, "Data({v:?})"),
            DynamicValue::Struct(v) => write!(f, "Struct({v:?})"),
            DynamicValue::List(v) => write!(f, "List({v:?})"),
            DynamicValue::AnyPointer(p) => write!(f, "AnyPointer({:#018x})", p.raw()),
            DynamicValue::Capability(v) => write!(f, "Capability({v:?})"),
        }
    }
}

macro_rules! from_scalar {
    ($($t:ty => $v:ident),*) => {$(
        impl From<$t> for DynamicValue<'_> {
            fn from(v: $t) -> Self {
                DynamicValue::$v(v)
            }
        }
    )*};
}

from_scalar!(bool => Bool, i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64, u8 => UInt8,
    u16 => UInt16, u32 => UInt32, u64 => UInt64, f32 => Float32, f64 => Float64);

impl<'a> From<&'a str> for DynamicValue<'a> {
    fn from(v: &'a str) -> Self {
        DynamicValue::Text(v)
    }
}

impl<'a> From<&'a [u8]> for DynamicValue<'a> {
    fn from(v: &'a [u8]) -> Self {
        DynamicValue::Data(v)
    }
}

impl<'a> From<DynamicStructReader<'a>> for DynamicValue<'a> {
    fn from(v: DynamicStructReader<'a>) -> Self {
        DynamicValue::Struct(v)
    }
}

impl<'a> From<DynamicListReader<'a>> for DynamicValue<'a> {
    fn from(v: DynamicListReader<'a>) -> Self {
        DynamicValue::List(v)
    }
}

impl<'a> From<DynamicEnum<'a>> for DynamicValue<'a> {
    fn from(v: DynamicEnum<'a>) -> Self {
        DynamicValue::Enum(v)
    }
}

impl<'a> DynamicValue<'a> {
    /// The kind of value, as the schema language names types.
    pub fn kind(&self) -> &'static str {
        match self {
            DynamicValue::Void => "Void",
            DynamicValue::Bool(_) => "Bool",
            DynamicValue::Int8(_) => "Int8",
            DynamicValue::Int16(_) => "Int16",
            DynamicValue::Int32(_) => "Int32",
            DynamicValue::Int64(_) => "Int64",
            DynamicValue::UInt8(_) => "UInt8",
            DynamicValue::UInt16(_) => "UInt16",
            DynamicValue::UInt32(_) => "UInt32",
            DynamicValue::UInt64(_) => "UInt64",
            DynamicValue::Float32(_) => "Float32",
            DynamicValue::Float64(_) => "Float64",
            DynamicValue::Enum(_) => "enum",
            DynamicValue::Text(_) => "Text",
            DynamicValue::Data(_) => "Data",
            DynamicValue::Struct(_) => "struct",
            DynamicValue::List(_) => "List",
            DynamicValue::AnyPointer(_) => "AnyPointer",
            DynamicValue::Capability(_) => "interface",
        }
    }

    /// The value of pointer type `ty` that `p` points to (an `AnyPointer`
    /// read as a chosen type), read as generated readers read it.
    ///
    /// # Errors
    /// `ty` is not a pointer type ([`Error::TypeMismatch`]), or the
    /// pointer holds another kind of value (the runtime's error).
    pub fn read_pointer(schema: &'a Schema<'a>, ty: &Type, p: PointerReader<'a>) -> Result<Self> {
        read_pointer(schema, ty, p)
    }

    /// The value as an integer, when it is one.
    pub(crate) fn as_integer(&self) -> Option<i128> {
        Some(match *self {
            DynamicValue::Int8(v) => i128::from(v),
            DynamicValue::Int16(v) => i128::from(v),
            DynamicValue::Int32(v) => i128::from(v),
            DynamicValue::Int64(v) => i128::from(v),
            DynamicValue::UInt8(v) => i128::from(v),
            DynamicValue::UInt16(v) => i128::from(v),
            DynamicValue::UInt32(v) => i128::from(v),
            DynamicValue::UInt64(v) => i128::from(v),
            _ => return None,
        })
    }

    /// The struct, when the value is one.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] otherwise.
    pub fn into_struct(self) -> Result<DynamicStructReader<'a>> {
        match self {
            DynamicValue::Struct(s) => Ok(s),
            other => Err(other.mismatch("struct")),
        }
    }

    /// The list, when the value is one.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] otherwise.
    pub fn into_list(self) -> Result<DynamicListReader<'a>> {
        match self {
            DynamicValue::List(l) => Ok(l),
            other => Err(other.mismatch("List")),
        }
    }

    /// The enum value, when the value is one.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] otherwise.
    pub fn into_enum(self) -> Result<DynamicEnum<'a>> {
        match self {
            DynamicValue::Enum(e) => Ok(e),
            other => Err(other.mismatch("enum")),
        }
    }

    fn mismatch(&self, expected: &str) -> Error {
        Error::TypeMismatch {
            context: "the value".into(),
            expected: expected.into(),
            found: self.kind().into(),
        }
    }
}

/// An enum value and its schema. A value the schema does not list is
/// kept as its number.
#[derive(Clone, Copy, Debug)]
pub struct DynamicEnum<'a> {
    value: u16,
    schema: EnumSchema<'a>,
}

impl<'a> DynamicEnum<'a> {
    /// The value `value` of the enum `schema`.
    pub fn new(value: u16, schema: EnumSchema<'a>) -> Self {
        DynamicEnum { value, schema }
    }

    /// The number on the wire.
    pub fn value(&self) -> u16 {
        self.value
    }

    /// The enum.
    pub fn schema(&self) -> EnumSchema<'a> {
        self.schema
    }

    /// The enumerant, if the schema lists the value.
    pub fn enumerant(&self) -> Option<Enumerant<'a>> {
        self.schema.enumerant(self.value)
    }

    /// The enumerant's name, if the schema lists the value.
    pub fn name(&self) -> Option<&'a str> {
        self.enumerant().map(|e| e.name())
    }

    /// A value of generated enum `E` (generated with schema nodes), of
    /// the enum `E` was generated from, which `schema` must hold.
    ///
    /// # Errors
    /// [`Error::MissingNode`] when `schema` does not hold `E`'s enum.
    pub fn from_typed<E: Enum + HasSchema>(schema: &'a Schema<'a>, value: E) -> Result<Self> {
        Ok(DynamicEnum::new(value.into(), schema.enum_for::<E>()?))
    }

    /// The value as generated enum `E` (generated with schema nodes),
    /// checked by node id.
    ///
    /// # Errors
    /// [`Error::WrongType`], naming both ids, when `E` is generated from
    /// another enum; the runtime's `NotInSchema` ([`Error::Wire`]) when
    /// `E` does not list the value.
    pub fn downcast<E: Enum + HasSchema>(&self) -> Result<E> {
        check_type::<E>(self.schema.id())?;
        Ok(E::try_from(self.value)?)
    }
}

/// A struct (or group) read by its schema.
#[derive(Clone)]
pub struct DynamicStructReader<'a> {
    schema: StructSchema<'a>,
    reader: StructReader<'a>,
}

impl core::fmt::Debug for DynamicStructReader<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "DynamicStructReader({})", self.schema.display_name())
    }
}

impl<'a> DynamicStructReader<'a> {
    /// Reads `reader` as a `schema`.
    pub fn new(schema: StructSchema<'a>, reader: StructReader<'a>) -> Self {
        DynamicStructReader { schema, reader }
    }

    /// The root of `message`, read as a `schema`.
    ///
    /// # Errors
    /// The root is not a struct, or the read is out of bounds or over a
    /// limit.
    pub fn root(message: &'a MessageReader<'a>, schema: StructSchema<'a>) -> Result<Self> {
        Ok(DynamicStructReader::new(schema, message.root()?))
    }

    /// A generated reader as a dynamic one, read by the struct `T` was
    /// generated from, which `schema` must hold (load it with
    /// [`LoadedSchema::of`](crate::LoadedSchema::of)). `T` is the
    /// struct's `Owned`, generated with schema nodes
    /// (`capnarena-codegen`'s `schema_nodes` option).
    ///
    /// # Errors
    /// [`Error::MissingNode`] when `schema` does not hold `T`'s struct;
    /// [`Error::StructSize`] when its size is not `T`'s (another version
    /// of the struct under the same id).
    pub fn from_typed<T: StructOwned + HasSchema>(
        schema: &'a Schema<'a>,
        reader: T::Reader<'a>,
    ) -> Result<Self> {
        let schema = schema.struct_for::<T>()?;
        check_size(&schema, T::STRUCT_SIZE)?;
        Ok(DynamicStructReader::new(schema, T::struct_reader(&reader)))
    }

    /// The value as the generated reader of `T` (a struct's `Owned`,
    /// generated with schema nodes), checked by node id.
    ///
    /// # Errors
    /// [`Error::WrongType`], naming both ids, when `T` is generated from
    /// another struct than the value's; [`Error::WrongBrand`] when `T`
    /// binds its generic parameters to other types than the value's
    /// schema; [`Error::StructSize`] when `T`'s size is not the schema's.
    pub fn downcast<T: StructOwned + HasSchema>(&self) -> Result<T::Reader<'a>> {
        check_struct::<T>(&self.schema)?;
        check_size(&self.schema, T::STRUCT_SIZE)?;
        Ok(<T::Reader<'a> as FromStructReader<'a>>::from_struct_reader(
            self.reader,
        ))
    }

    /// The schema it is read by.
    pub fn schema(&self) -> &StructSchema<'a> {
        &self.schema
    }

    /// The untyped reader under it.
    pub fn as_struct_reader(&self) -> StructReader<'a> {
        self.reader
    }

    /// Words and capabilities the struct and everything it points to
    /// take, as the runtime's
    /// [`StructReader::total_size`] counts them.
    ///
    /// # Errors
    /// A pointer under it is malformed, out of bounds or over a limit.
    pub fn total_size(&self) -> Result<MessageSize> {
        Ok(self.reader.total_size()?)
    }

    pub(crate) fn check_field(&self, field: &Field<'_>) -> Result<()> {
        check_field(&self.schema, field)
    }

    fn discriminant(&self) -> u16 {
        self.reader
            .get::<u16>(self.schema.discriminant_offset() as usize)
    }

    /// The active member of its union; `None` when it has no union.
    ///
    /// # Errors
    /// [`Error::NotInSchema`] when the discriminant names no member.
    pub fn which(&self) -> Result<Option<Field<'a>>> {
        which(&self.schema, || self.discriminant())
    }

    /// Whether the field is set: a pointer field is non-null, and a union
    /// member is the active one; other fields are always set.
    ///
    /// # Errors
    /// The field belongs to another struct.
    pub fn has(&self, field: &Field<'_>) -> Result<bool> {
        self.check_field(field)?;
        if let Some(d) = field.discriminant() {
            if d != self.discriminant() {
                return Ok(false);
            }
        }
        Ok(match (field.offset(), field.ty()?.is_pointer()) {
            (Some(offset), true) => self.reader.has_pointer(offset as usize),
            _ => true,
        })
    }

    /// [`has`](Self::has) of the field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`].
    pub fn has_by_name(&self, name: &str) -> Result<bool> {
        self.has(&self.schema.field_by_name(name)?)
    }

    /// The field's value: its default when the pointer is null (or the
    /// data section too short), as the generated getter reads it.
    ///
    /// # Errors
    /// The field belongs to another struct, is an inactive union member
    /// ([`Error::InactiveUnionMember`]), or its pointer is malformed, of
    /// another kind or over a limit (the runtime's error).
    pub fn get(&self, field: &Field<'_>) -> Result<DynamicValue<'a>> {
        self.check_field(field)?;
        if let Some(expected) = field.discriminant() {
            let found = self.discriminant();
            if found != expected {
                return Err(Error::InactiveUnionMember {
                    struct_id: self.schema.id(),
                    field: field.index(),
                    expected,
                    found,
                });
            }
        }
        // The field, as this struct's schema (and lifetime) holds it.
        let field = self.schema.field(field.index())?;
        if field.is_group() {
            return Ok(DynamicValue::Struct(DynamicStructReader::new(
                field.group()?,
                self.reader,
            )));
        }
        let ty = field.ty()?;
        let offset = field.offset().unwrap_or(0) as usize;
        let default = field.raw_default().copied().unwrap_or(RawValue::Void);
        let bits = default.bits().unwrap_or(0);
        let r = &self.reader;
        Ok(match ty {
            Type::Void => DynamicValue::Void,
            Type::Bool => DynamicValue::Bool(r.get_bool_or(offset, bits != 0)),
            Type::Int8 => DynamicValue::Int8(r.get_or(offset, i8::from_bits(bits))),
            Type::Int16 => DynamicValue::Int16(r.get_or(offset, i16::from_bits(bits))),
            Type::Int32 => DynamicValue::Int32(r.get_or(offset, i32::from_bits(bits))),
            Type::Int64 => DynamicValue::Int64(r.get_or(offset, i64::from_bits(bits))),
            Type::UInt8 => DynamicValue::UInt8(r.get_or(offset, u8::from_bits(bits))),
            Type::UInt16 => DynamicValue::UInt16(r.get_or(offset, u16::from_bits(bits))),
            Type::UInt32 => DynamicValue::UInt32(r.get_or(offset, u32::from_bits(bits))),
            Type::UInt64 => DynamicValue::UInt64(r.get_or(offset, bits)),
            Type::Float32 => DynamicValue::Float32(r.get_or(offset, f32::from_bits(bits as u32))),
            Type::Float64 => DynamicValue::Float64(r.get_or(offset, f64::from_bits(bits))),
            Type::Enum(id) => DynamicValue::Enum(DynamicEnum::new(
                r.get_or(offset, u16::from_bits(bits)),
                self.schema.schema().enum_schema(id)?,
            )),
            _ => {
                let schema = self.schema.schema();
                let mut p = r.pointer(offset);
                if p.is_null() {
                    if let RawValue::Pointer(_, Some(index)) = default {
                        p = schema.stored_value(Some(index))?;
                    }
                }
                read_pointer(schema, &ty, p)?
            }
        })
    }

    /// [`get`](Self::get) of the field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`], or as [`get`](Self::get).
    pub fn get_by_name(&self, name: &str) -> Result<DynamicValue<'a>> {
        self.get(&self.schema.field_by_name(name)?)
    }

    /// A `Text` field's bytes as stored (its default's when null), without
    /// the UTF-8 check [`get`](Self::get) makes: text that is not UTF-8,
    /// which the reference accepts, as the generated `get_*_bytes` reads
    /// it.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] for a field of another type, or as
    /// [`get`](Self::get).
    pub fn get_text_bytes(&self, field: &Field<'_>) -> Result<&'a [u8]> {
        self.check_field(field)?;
        if let Some(expected) = field.discriminant() {
            let found = self.discriminant();
            if found != expected {
                return Err(Error::InactiveUnionMember {
                    struct_id: self.schema.id(),
                    field: field.index(),
                    expected,
                    found,
                });
            }
        }
        let field = self.schema.field(field.index())?;
        let ty = field.ty()?;
        if !matches!(ty, Type::Text) {
            return Err(Error::TypeMismatch {
                context: format!("field {} of {}", field.name(), self.schema.display_name()),
                expected: ty.to_string(),
                found: "Text".into(),
            });
        }
        let mut p = self.reader.pointer(field.offset().unwrap_or(0) as usize);
        if p.is_null() {
            if let Some(RawValue::Pointer(_, Some(index))) = field.raw_default() {
                p = self.schema.schema().stored_value(Some(*index))?;
            }
        }
        Ok(p.get_text_bytes()?)
    }
}

/// The field belongs to `schema`.
pub(crate) fn check_field(schema: &StructSchema<'_>, field: &Field<'_>) -> Result<()> {
    if field.parent().id() != schema.id() {
        return Err(Error::FieldOfOtherStruct {
            field: field.index(),
            field_struct: field.parent().id(),
            value_struct: schema.id(),
        });
    }
    Ok(())
}

/// The active union member of a struct whose discriminant `discriminant`
/// reads.
pub(crate) fn which<'a>(
    schema: &StructSchema<'a>,
    discriminant: impl FnOnce() -> u16,
) -> Result<Option<Field<'a>>> {
    if schema.discriminant_count() == 0 {
        return Ok(None);
    }
    let value = discriminant();
    match schema.member(value) {
        Some(f) => Ok(Some(f)),
        None => Err(Error::NotInSchema {
            struct_id: schema.id(),
            value,
        }),
    }
}

pub(crate) fn check_size(schema: &StructSchema<'_>, size: capnarena::StructSize) -> Result<()> {
    let want = schema.size();
    if (size.data_words, size.pointers) != (want.data_words, want.pointers) {
        return Err(Error::StructSize {
            struct_id: schema.id(),
            expected_data: want.data_words,
            expected_pointers: want.pointers,
            data: size.data_words,
            pointers: size.pointers,
        });
    }
    Ok(())
}

/// The value of pointer type `ty` that `p` points to, read as the
/// generated readers read it.
pub(crate) fn read_pointer<'a>(
    schema: &'a Schema<'a>,
    ty: &Type,
    p: PointerReader<'a>,
) -> Result<DynamicValue<'a>> {
    Ok(match ty {
        Type::Text => DynamicValue::Text(p.get_text()?),
        Type::Data => DynamicValue::Data(p.get_data()?),
        Type::Struct(st) => DynamicValue::Struct(DynamicStructReader::new(
            schema.struct_of(st)?,
            p.get_struct()?,
        )),
        Type::List(element) => DynamicValue::List(DynamicListReader {
            schema,
            element: (**element).clone(),
            reader: p.get_list(element.element_size())?,
        }),
        Type::AnyPointer => DynamicValue::AnyPointer(p),
        Type::Interface(_) => DynamicValue::Capability(if p.is_null() {
            None
        } else {
            Some(p.get_capability()?)
        }),
        other => {
            return Err(Error::TypeMismatch {
                context: "a pointer".into(),
                expected: "a pointer type".into(),
                found: other.to_string(),
            });
        }
    })
}

/// A list read by its element type.
#[derive(Clone)]
pub struct DynamicListReader<'a> {
    schema: &'a Schema<'a>,
    element: Type,
    reader: ListReader<'a>,
}

impl core::fmt::Debug for DynamicListReader<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "DynamicListReader(List({}), {} elements)",
            self.element,
            self.len()
        )
    }
}

impl<'a> DynamicListReader<'a> {
    /// Reads `reader` as a list of `element` by `schema`.
    pub fn new(schema: &'a Schema<'a>, element: Type, reader: ListReader<'a>) -> Self {
        DynamicListReader {
            schema,
            element,
            reader,
        }
    }

    /// The element type.
    pub fn element_type(&self) -> &Type {
        &self.element
    }

    /// The untyped reader under it.
    pub fn as_list_reader(&self) -> ListReader<'a> {
        self.reader
    }

    /// A generated list reader as a dynamic one. `L` is the list's marker
    /// (`PrimitiveList<u32>`, `StructList<foo::Owned>`, ...); the structs
    /// and enums it names are read by `schema`, which must hold them
    /// (load it with [`LoadedSchema::of`](crate::LoadedSchema::of)).
    ///
    /// # Errors
    /// [`Error::Limit`] when `L` nests past
    /// [`MAX_RESOLVED_TYPE_DEPTH`](crate::MAX_RESOLVED_TYPE_DEPTH).
    pub fn from_typed<L: ListOwned + Introspect>(
        schema: &'a Schema<'a>,
        reader: L::Reader<'a>,
    ) -> Result<Self> {
        let element = list_element_of::<L>()?;
        Ok(DynamicListReader::new(
            schema,
            element,
            L::list_reader(&reader),
        ))
    }

    /// The list as the generated reader of list type `L`, checked by
    /// element type with its generic bindings: a `List(Box(Text))` is a
    /// `StructList<box_::Owned<Text>>`, not a
    /// `StructList<box_::Owned<Data>>`.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] naming both list types when they differ.
    pub fn downcast<L: ListOwned + Introspect>(&self) -> Result<L::Reader<'a>> {
        check_list::<L>(&self.element)?;
        Ok(L::wrap_list_reader(self.reader))
    }

    /// Words and capabilities the list and everything it points to take
    /// (see [`DynamicStructReader::total_size`]).
    ///
    /// # Errors
    /// As [`DynamicStructReader::total_size`].
    pub fn total_size(&self) -> Result<MessageSize> {
        Ok(self.reader.total_size()?)
    }

    /// Elements in the list.
    pub fn len(&self) -> u32 {
        self.reader.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.reader.is_empty()
    }

    /// Element `index`.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`], or a malformed pointer element (the
    /// runtime's error).
    pub fn get(&self, index: u32) -> Result<DynamicValue<'a>> {
        let len = self.len();
        if index >= len {
            return Err(Error::IndexOutOfRange { index, len });
        }
        let r = &self.reader;
        Ok(match &self.element {
            Type::Void => DynamicValue::Void,
            Type::Bool => DynamicValue::Bool(r.get_bool(index)),
            Type::Int8 => DynamicValue::Int8(r.get(index)),
            Type::Int16 => DynamicValue::Int16(r.get(index)),
            Type::Int32 => DynamicValue::Int32(r.get(index)),
            Type::Int64 => DynamicValue::Int64(r.get(index)),
            Type::UInt8 => DynamicValue::UInt8(r.get(index)),
            Type::UInt16 => DynamicValue::UInt16(r.get(index)),
            Type::UInt32 => DynamicValue::UInt32(r.get(index)),
            Type::UInt64 => DynamicValue::UInt64(r.get(index)),
            Type::Float32 => DynamicValue::Float32(r.get(index)),
            Type::Float64 => DynamicValue::Float64(r.get(index)),
            Type::Enum(id) => DynamicValue::Enum(DynamicEnum::new(
                r.get(index),
                self.schema.enum_schema(*id)?,
            )),
            Type::Struct(st) => DynamicValue::Struct(DynamicStructReader::new(
                self.schema.struct_of(st)?,
                r.get_struct(index),
            )),
            ty => read_pointer(self.schema, ty, r.get_pointer(index))?,
        })
    }

    /// Element `index` of a list of `Text`, as its bytes (no UTF-8
    /// check).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`], [`Error::TypeMismatch`] for a list of
    /// another type, or the runtime's error.
    pub fn get_text_bytes(&self, index: u32) -> Result<&'a [u8]> {
        let len = self.len();
        if index >= len {
            return Err(Error::IndexOutOfRange { index, len });
        }
        if !matches!(self.element, Type::Text) {
            return Err(Error::TypeMismatch {
                context: format!("element {index} of a List({})", self.element),
                expected: self.element.to_string(),
                found: "Text".into(),
            });
        }
        Ok(self.reader.get_pointer(index).get_text_bytes()?)
    }

    /// Each element in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Result<DynamicValue<'a>>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

// Values the schema itself holds (defaults, constants, annotation
// values, enumerants by name): here, beside the values, so that the
// schema views need not know them.

impl<'s> Schema<'s> {
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
}

impl<'s> EnumSchema<'s> {
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
}

impl<'s> Field<'s> {
    /// The field's default value (of a group: an error).
    ///
    /// # Errors
    /// The field is a group, or the value cannot be read.
    pub fn default_value(&self) -> Result<DynamicValue<'s>> {
        let parent = self.parent();
        match self.raw_default() {
            Some(default) => parent.schema().value(&self.ty()?, default, parent.id()),
            None => Err(Error::WrongNodeKind {
                id: parent.id(),
                expected: "field",
                found: "group",
            }),
        }
    }
}

impl<'s> ConstSchema<'s> {
    /// Its value.
    ///
    /// # Errors
    /// The stored value cannot be read as the type (a `Text` constant
    /// that is not UTF-8 too: [`text_bytes`](Self::text_bytes) reads it).
    pub fn value(&self) -> Result<DynamicValue<'s>> {
        self.schema.value(&self.ty()?, &self.c.value, self.node.id)
    }
}

impl<'s> Annotation<'s> {
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
