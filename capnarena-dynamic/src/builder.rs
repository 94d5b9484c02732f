//! Dynamic builders: values of any schema type, structs and lists, built
//! by the schema at run time, through the same runtime calls the
//! generated builders make (so the bytes, limits and errors are the
//! same). The struct and list builders hand out each other (a field holds
//! a list, an element a struct), so they share this module; how a value
//! is stored is in `store`. Every index and offset is
//! checked before it reaches the runtime, whose builders panic on a
//! schema error in their caller.

use capnarena::typed::{
    FromStructBuilder, HasSchema, IntoStructBuilder, Introspect, ListOwned, StructOwned,
    TextBuilder,
};
use capnarena::{
    Arena, ElementSize, ListBuilder, Message, PointerBuilder, Primitive, StructBuilder,
};

use crate::error::{Error, Result};
use crate::generated::{check_list, check_struct, list_element_of};
use crate::model::RawValue;
use crate::schema::Schema;
use crate::store::{
    check_pointer_value, field_context, mismatch, scalar_bits, set_pointer, store_scalar,
};
use crate::structs::{Field, StructSchema};
use crate::types::Type;
use crate::value::{
    DynamicEnum, DynamicListReader, DynamicStructReader, DynamicValue, check_field, check_size,
    which,
};

/// A value of a struct being built, as a field or list element hands it
/// out: scalars by value, pointers as builders.
pub enum DynamicValueBuilder<'a, A: Arena + ?Sized> {
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
    /// An enum value.
    Enum(DynamicEnum<'a>),
    /// `Text`: its bytes to fill or overwrite.
    Text(TextBuilder<'a>),
    /// `Data`: its bytes.
    Data(&'a mut [u8]),
    /// A struct (or group).
    Struct(DynamicStructBuilder<'a, A>),
    /// A list.
    List(DynamicListBuilder<'a, A>),
    /// `AnyPointer`, an unbound generic parameter, or an interface.
    AnyPointer(PointerBuilder<'a, A>),
}

impl<'a, A: Arena + ?Sized> DynamicValueBuilder<'a, A> {
    /// The value of pointer type `ty` at `p` as a builder (an
    /// `AnyPointer` built as a chosen type), opened as the generated
    /// `get_*` opens it: a null list or text becomes an empty one.
    ///
    /// # Errors
    /// The pointer holds another kind of value, or the arena has no room.
    pub fn get_pointer(
        schema: &'a Schema<'a>,
        ty: &Type,
        p: PointerBuilder<'a, A>,
    ) -> Result<Self> {
        get_pointer(schema, ty, p)
    }

    /// A new value of pointer type `ty` at `p` (`len` elements of a list,
    /// bytes of text or data; structs ignore it).
    ///
    /// # Errors
    /// The arena has no room, or `len` cannot be encoded.
    pub fn init_pointer(
        schema: &'a Schema<'a>,
        ty: &Type,
        p: PointerBuilder<'a, A>,
        len: u32,
    ) -> Result<Self> {
        init_pointer(schema, ty, p, len)
    }

    /// The struct builder, when the value is one.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] otherwise.
    pub fn into_struct(self) -> Result<DynamicStructBuilder<'a, A>> {
        match self {
            DynamicValueBuilder::Struct(s) => Ok(s),
            other => Err(other.mismatch("struct")),
        }
    }

    /// The list builder, when the value is one.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] otherwise.
    pub fn into_list(self) -> Result<DynamicListBuilder<'a, A>> {
        match self {
            DynamicValueBuilder::List(l) => Ok(l),
            other => Err(other.mismatch("List")),
        }
    }

    /// The text builder, when the value is one.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] otherwise.
    pub fn into_text(self) -> Result<TextBuilder<'a>> {
        match self {
            DynamicValueBuilder::Text(t) => Ok(t),
            other => Err(other.mismatch("Text")),
        }
    }

    /// The data bytes, when the value is data.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] otherwise.
    pub fn into_data(self) -> Result<&'a mut [u8]> {
        match self {
            DynamicValueBuilder::Data(d) => Ok(d),
            other => Err(other.mismatch("Data")),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            DynamicValueBuilder::Void => "Void",
            DynamicValueBuilder::Bool(_) => "Bool",
            DynamicValueBuilder::Int8(_) => "Int8",
            DynamicValueBuilder::Int16(_) => "Int16",
            DynamicValueBuilder::Int32(_) => "Int32",
            DynamicValueBuilder::Int64(_) => "Int64",
            DynamicValueBuilder::UInt8(_) => "UInt8",
            DynamicValueBuilder::UInt16(_) => "UInt16",
            DynamicValueBuilder::UInt32(_) => "UInt32",
            DynamicValueBuilder::UInt64(_) => "UInt64",
            DynamicValueBuilder::Float32(_) => "Float32",
            DynamicValueBuilder::Float64(_) => "Float64",
            DynamicValueBuilder::Enum(_) => "enum",
            DynamicValueBuilder::Text(_) => "Text",
            DynamicValueBuilder::Data(_) => "Data",
            DynamicValueBuilder::Struct(_) => "struct",
            DynamicValueBuilder::List(_) => "List",
            DynamicValueBuilder::AnyPointer(_) => "AnyPointer",
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

/// A struct (or group) being built by its schema.
pub struct DynamicStructBuilder<'a, A: Arena + ?Sized> {
    schema: StructSchema<'a>,
    builder: StructBuilder<'a, A>,
}

impl<'a, A: Arena + ?Sized> DynamicStructBuilder<'a, A> {
    /// Builds `builder` as a `schema`.
    ///
    /// # Errors
    /// [`Error::StructSize`] when the builder has fewer data words or
    /// pointers than the schema's struct.
    pub fn new(schema: StructSchema<'a>, builder: StructBuilder<'a, A>) -> Result<Self> {
        let (have, want) = (builder.size(), schema.size());
        if have.data_words < want.data_words || have.pointers < want.pointers {
            return Err(Error::StructSize {
                struct_id: schema.id(),
                expected_data: want.data_words,
                expected_pointers: want.pointers,
                data: have.data_words,
                pointers: have.pointers,
            });
        }
        Ok(DynamicStructBuilder { schema, builder })
    }

    /// Sets `message`'s root to a new `schema` struct and returns it.
    ///
    /// # Errors
    /// The arena has no room.
    pub fn init_root(message: &'a mut Message<A>, schema: StructSchema<'a>) -> Result<Self>
    where
        A: Sized,
    {
        let builder = message.init_root_struct(schema.size())?;
        DynamicStructBuilder::new(schema, builder)
    }

    /// `message`'s root as a `schema` struct (made when there is none).
    ///
    /// # Errors
    /// The root is not a struct, or the arena has no room.
    pub fn get_root(message: &'a mut Message<A>, schema: StructSchema<'a>) -> Result<Self>
    where
        A: Sized,
    {
        let builder = message.get_root_struct(schema.size())?;
        DynamicStructBuilder::new(schema, builder)
    }

    /// A generated builder as a dynamic one, built by the struct `T` was
    /// generated from, which `schema` must hold (load it with
    /// [`LoadedSchema::of`](crate::LoadedSchema::of)). `T` is the
    /// struct's `Owned`, generated with schema nodes.
    ///
    /// # Errors
    /// [`Error::MissingNode`] when `schema` does not hold `T`'s struct;
    /// [`Error::StructSize`] when its size is not `T`'s.
    pub fn from_typed<T: StructOwned + HasSchema>(
        schema: &'a Schema<'a>,
        builder: T::Builder<'a, A>,
    ) -> Result<Self>
    where
        T::Builder<'a, A>: IntoStructBuilder<'a, A>,
    {
        let schema = schema.struct_for::<T>()?;
        check_size(&schema, T::STRUCT_SIZE)?;
        DynamicStructBuilder::new(schema, builder.into_struct_builder())
    }

    /// The value as the generated builder of `T` (a struct's `Owned`,
    /// generated with schema nodes), checked by node id.
    ///
    /// # Errors
    /// [`Error::WrongType`], naming both ids, when `T` is generated from
    /// another struct than the value's; [`Error::WrongBrand`] when `T`
    /// binds its generic parameters to other types than the value's
    /// schema; [`Error::StructSize`] when `T`'s size is not the schema's.
    pub fn downcast<T: StructOwned + HasSchema>(self) -> Result<T::Builder<'a, A>> {
        check_struct::<T>(&self.schema)?;
        check_size(&self.schema, T::STRUCT_SIZE)?;
        Ok(<T::Builder<'a, A> as FromStructBuilder<'a, A>>::from_struct_builder(self.builder))
    }

    /// A shorter-lived handle to the same struct.
    pub fn reborrow(&mut self) -> DynamicStructBuilder<'_, A> {
        DynamicStructBuilder {
            schema: self.schema.clone(),
            builder: self.builder.reborrow(),
        }
    }

    /// The schema it is built by.
    pub fn schema(&self) -> &StructSchema<'a> {
        &self.schema
    }

    /// The untyped builder under it.
    pub fn into_struct_builder(self) -> StructBuilder<'a, A> {
        self.builder
    }

    /// Calls `f` with a reader of the struct as built so far.
    pub fn with_reader<R>(&self, f: impl FnOnce(DynamicStructReader<'_>) -> R) -> R {
        let view = self.builder.reader_view();
        f(DynamicStructReader::new(
            self.schema.clone(),
            view.struct_reader(),
        ))
    }

    fn discriminant(&self) -> u16 {
        self.builder
            .get::<u16>(self.schema.discriminant_offset() as usize)
    }

    /// The active member of its union; `None` when it has no union.
    ///
    /// # Errors
    /// [`Error::NotInSchema`] when the discriminant names no member.
    pub fn which(&self) -> Result<Option<Field<'a>>> {
        which(&self.schema, || self.discriminant())
    }

    /// Whether the field is set (see [`DynamicStructReader::has`]).
    ///
    /// # Errors
    /// The field belongs to another struct.
    pub fn has(&self, field: &Field<'_>) -> Result<bool> {
        check_field(&self.schema, field)?;
        if let Some(d) = field.discriminant() {
            if d != self.discriminant() {
                return Ok(false);
            }
        }
        Ok(match (field.offset(), field.ty()?.is_pointer()) {
            (Some(offset), true) => self.builder.has_pointer(offset as usize),
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

    /// The field of this struct's schema (and lifetime) that `field` names.
    fn own_field(&self, field: &Field<'_>) -> Result<Field<'a>> {
        check_field(&self.schema, field)?;
        self.schema.field(field.index())
    }

    fn check_active(&self, field: &Field<'_>) -> Result<()> {
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
        Ok(())
    }

    /// Makes `field` the active member of its union, if it is a member.
    fn activate(&mut self, field: &Field<'_>) {
        if let Some(d) = field.discriminant() {
            self.builder
                .set::<u16>(self.schema.discriminant_offset() as usize, d);
        }
    }

    /// The field's value: scalars by value, pointers as builders (a null
    /// pointer with a schema default gets a copy of the default first, a
    /// null list or text an empty one, as the generated `get_*` does).
    ///
    /// # Errors
    /// The field belongs to another struct, is an inactive union member,
    /// or its pointer holds another kind of value (the runtime's error).
    pub fn get(&mut self, field: &Field<'_>) -> Result<DynamicValueBuilder<'_, A>> {
        let field = self.own_field(field)?;
        self.check_active(&field)?;
        if field.is_group() {
            return Ok(DynamicValueBuilder::Struct(DynamicStructBuilder {
                schema: field.group()?,
                builder: self.builder.reborrow(),
            }));
        }
        let ty = field.ty()?;
        let offset = field.offset().unwrap_or(0) as usize;
        let default = field.raw_default().copied().unwrap_or(RawValue::Void);
        let bits = default.bits().unwrap_or(0);
        let b = &self.builder;
        Ok(match ty {
            Type::Void => DynamicValueBuilder::Void,
            Type::Bool => DynamicValueBuilder::Bool(b.get_bool_or(offset, bits != 0)),
            Type::Int8 => DynamicValueBuilder::Int8(b.get_or(offset, i8::from_bits(bits))),
            Type::Int16 => DynamicValueBuilder::Int16(b.get_or(offset, i16::from_bits(bits))),
            Type::Int32 => DynamicValueBuilder::Int32(b.get_or(offset, i32::from_bits(bits))),
            Type::Int64 => DynamicValueBuilder::Int64(b.get_or(offset, i64::from_bits(bits))),
            Type::UInt8 => DynamicValueBuilder::UInt8(b.get_or(offset, u8::from_bits(bits))),
            Type::UInt16 => DynamicValueBuilder::UInt16(b.get_or(offset, u16::from_bits(bits))),
            Type::UInt32 => DynamicValueBuilder::UInt32(b.get_or(offset, u32::from_bits(bits))),
            Type::UInt64 => DynamicValueBuilder::UInt64(b.get_or(offset, bits)),
            Type::Float32 => {
                DynamicValueBuilder::Float32(b.get_or(offset, f32::from_bits(bits as u32)))
            }
            Type::Float64 => DynamicValueBuilder::Float64(b.get_or(offset, f64::from_bits(bits))),
            Type::Enum(id) => DynamicValueBuilder::Enum(DynamicEnum::new(
                b.get_or(offset, u16::from_bits(bits)),
                self.schema.schema().enum_schema(id)?,
            )),
            _ => {
                let schema = self.schema.schema();
                let mut p = self.builder.pointer(offset);
                if p.is_null() {
                    if let RawValue::Pointer(_, Some(index)) = default {
                        p.set_from(&schema.stored_value(Some(index))?)?;
                    }
                }
                get_pointer(schema, &ty, p)?
            }
        })
    }

    /// [`get`](Self::get) of the field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`], or as [`get`](Self::get).
    pub fn get_by_name(&mut self, name: &str) -> Result<DynamicValueBuilder<'_, A>> {
        let field = self.schema.field_by_name(name)?;
        self.get(&field)
    }

    /// Sets the field to `value` (a deep copy for pointers), making it the
    /// active member of its union. Integers convert to any integer or
    /// float type they fit; an enum field also takes an enumerant's name
    /// (as `Text`) or its number; a group takes a struct of the group's
    /// schema, field by field.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`], [`Error::ValueOutOfRange`],
    /// [`Error::NoSuchEnumerant`], or the runtime's error (no room, a
    /// malformed source).
    pub fn set(&mut self, field: &Field<'_>, value: DynamicValue<'_>) -> Result<()> {
        let field = self.own_field(field)?;
        if field.is_group() {
            let group = field.group()?;
            let DynamicValue::Struct(src) = &value else {
                return Err(mismatch(&field, group.display_name(), &value));
            };
            if src.schema().id() != group.id() {
                return Err(mismatch(&field, group.display_name(), &value));
            }
            self.activate(&field);
            let mut g = DynamicStructBuilder {
                schema: group,
                builder: self.builder.reborrow(),
            };
            return g.copy_fields(src);
        }
        let ty = field.ty()?;
        let offset = field.offset().unwrap_or(0) as usize;
        let default = field.raw_default().copied().unwrap_or(RawValue::Void);
        let schema = self.schema.schema();
        if ty.is_pointer() {
            // Check before writing the discriminant, so a refused value
            // changes nothing.
            check_pointer_value(&ty, &value, || field_context(&field))?;
            self.activate(&field);
            return set_pointer(&ty, self.builder.pointer(offset), &value);
        }
        let bits = scalar_bits(schema, &ty, &value, || field_context(&field))?;
        self.activate(&field);
        let mask = default.bits().unwrap_or(0);
        store_scalar(&mut self.builder, &ty, offset, bits ^ mask);
        Ok(())
    }

    /// [`set`](Self::set) of the field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`], or as [`set`](Self::set).
    pub fn set_by_name(&mut self, name: &str, value: DynamicValue<'_>) -> Result<()> {
        let field = self.schema.field_by_name(name)?;
        self.set(&field, value)
    }

    /// A new value for the field, made the active member of its union: a
    /// zeroed struct, a group with every field at its default, or an
    /// `AnyPointer` cleared. Lists, text and data take a length:
    /// [`init_list`](Self::init_list).
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] for a field of another type, or the
    /// runtime's error.
    pub fn init(&mut self, field: &Field<'_>) -> Result<DynamicValueBuilder<'_, A>> {
        let field = self.own_field(field)?;
        self.activate(&field);
        if field.is_group() {
            let mut g = DynamicStructBuilder {
                schema: field.group()?,
                builder: self.builder.reborrow(),
            };
            g.clear_all()?;
            return Ok(DynamicValueBuilder::Struct(g));
        }
        let ty = field.ty()?;
        let offset = field.offset().unwrap_or(0) as usize;
        let schema = self.schema.schema();
        match &ty {
            Type::Struct(st) => {
                let s = schema.struct_of(st)?;
                let builder = self.builder.pointer(offset).init_struct(s.size())?;
                Ok(DynamicValueBuilder::Struct(DynamicStructBuilder::new(
                    s, builder,
                )?))
            }
            Type::AnyPointer | Type::Interface(_) => {
                let mut p = self.builder.pointer(offset);
                p.clear();
                Ok(DynamicValueBuilder::AnyPointer(p))
            }
            _ => Err(Error::TypeMismatch {
                context: field_context(&field),
                expected: ty.to_string(),
                found: "a struct to init (lists, text and data: init_list)".into(),
            }),
        }
    }

    /// [`init`](Self::init) of the field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`], or as [`init`](Self::init).
    pub fn init_by_name(&mut self, name: &str) -> Result<DynamicValueBuilder<'_, A>> {
        let field = self.schema.field_by_name(name)?;
        self.init(&field)
    }

    /// A new list of `len` elements (or text of `len` bytes, data of `len`
    /// bytes) for the field, made the active member of its union.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] for a field of another type, or the
    /// runtime's error (no room, a length that cannot be encoded).
    pub fn init_list(&mut self, field: &Field<'_>, len: u32) -> Result<DynamicValueBuilder<'_, A>> {
        let field = self.own_field(field)?;
        let ty = field.ty()?;
        if !matches!(ty, Type::List(_) | Type::Text | Type::Data) {
            return Err(Error::TypeMismatch {
                context: field_context(&field),
                expected: ty.to_string(),
                found: "a list, text or data to init with a length".into(),
            });
        }
        self.activate(&field);
        let offset = field.offset().unwrap_or(0) as usize;
        let schema = self.schema.schema();
        init_pointer(schema, &ty, self.builder.pointer(offset), len)
    }

    /// [`init_list`](Self::init_list) of the field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`], or as [`init_list`](Self::init_list).
    pub fn init_list_by_name(
        &mut self,
        name: &str,
        len: u32,
    ) -> Result<DynamicValueBuilder<'_, A>> {
        let field = self.schema.field_by_name(name)?;
        self.init_list(&field, len)
    }

    /// Sets the field back to its default: a scalar to the schema's
    /// default, a pointer to null, a group's fields each to theirs.
    ///
    /// # Errors
    /// The field belongs to another struct.
    pub fn clear(&mut self, field: &Field<'_>) -> Result<()> {
        let field = self.own_field(field)?;
        self.clear_field(&field)
    }

    /// [`clear`](Self::clear) of the field named `name`.
    ///
    /// # Errors
    /// [`Error::NoSuchField`].
    pub fn clear_by_name(&mut self, name: &str) -> Result<()> {
        let field = self.schema.field_by_name(name)?;
        self.clear_field(&field)
    }

    /// Makes `field` the active member of its union (if it is a member)
    /// and sets it back to its default, as the reference's `clear` does
    /// (the JSON decoder's union tag).
    pub(crate) fn clear_and_activate(&mut self, field: &Field<'_>) -> Result<()> {
        let field = self.own_field(field)?;
        self.activate(&field);
        self.clear_field(&field)
    }

    fn clear_field(&mut self, field: &Field<'a>) -> Result<()> {
        if field.is_group() {
            let mut g = DynamicStructBuilder {
                schema: field.group()?,
                builder: self.builder.reborrow(),
            };
            return g.clear_all();
        }
        let ty = field.ty()?;
        let offset = field.offset().unwrap_or(0) as usize;
        if ty.is_pointer() {
            self.builder.pointer(offset).clear();
        } else {
            store_scalar(&mut self.builder, &ty, offset, 0);
        }
        Ok(())
    }

    /// Every field (and the union's discriminant) back to its default.
    /// Groups nest at most `MAX_GROUP_DEPTH` levels (checked at load).
    fn clear_all(&mut self) -> Result<()> {
        if self.schema.discriminant_count() > 0 {
            self.builder
                .set::<u16>(self.schema.discriminant_offset() as usize, 0);
        }
        let fields: Vec<Field<'a>> = self.schema.fields().collect();
        for f in &fields {
            self.clear_field(f)?;
        }
        Ok(())
    }

    /// Copies every field of `src` (a struct of the same schema) that is
    /// set: the fields outside the union in the schema's order, then the
    /// active union member. Null pointers stay null.
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] for a struct of another schema, or as
    /// [`get`](DynamicStructReader::get) and [`set`](Self::set).
    pub fn copy_fields(&mut self, src: &DynamicStructReader<'_>) -> Result<()> {
        if src.schema().id() != self.schema.id() {
            return Err(Error::TypeMismatch {
                context: self.schema.display_name().into(),
                expected: format!("struct {:#018x}", self.schema.id()),
                found: format!("struct {:#018x}", src.schema().id()),
            });
        }
        let fields: Vec<Field<'a>> = self.schema.non_union_fields().collect();
        for f in fields.iter().chain(src.which()?.as_ref()) {
            if !f.is_group() && f.ty()?.is_pointer() && !src.has(f)? {
                continue;
            }
            let value = src.get(f)?;
            self.set(f, value)?;
        }
        Ok(())
    }
}

/// The builder of the value of pointer type `ty` at `p`, as the generated
/// `get_*` opens it (a null list or text becomes an empty one).
pub(crate) fn get_pointer<'b, A: Arena + ?Sized>(
    schema: &'b Schema<'b>,
    ty: &Type,
    p: PointerBuilder<'b, A>,
) -> Result<DynamicValueBuilder<'b, A>> {
    Ok(match ty {
        Type::Text => {
            let bytes = p.get_text_bytes_mut()?;
            let len = bytes.len();
            DynamicValueBuilder::Text(TextBuilder::new(bytes, len))
        }
        Type::Data => DynamicValueBuilder::Data(p.get_data_mut()?),
        Type::Struct(st) => {
            let s = schema.struct_of(st)?;
            let builder = p.get_struct(s.size())?;
            DynamicValueBuilder::Struct(DynamicStructBuilder::new(s, builder)?)
        }
        Type::List(element) => {
            if p.is_null() {
                return init_pointer(schema, ty, p, 0);
            }
            let builder = match &**element {
                Type::Struct(st) => p.get_struct_list(schema.struct_of(st)?.size())?,
                e => p.get_list(e.element_size())?,
            };
            DynamicValueBuilder::List(DynamicListBuilder::new(
                schema,
                (**element).clone(),
                builder,
            )?)
        }
        _ => DynamicValueBuilder::AnyPointer(p),
    })
}

/// A new value of pointer type `ty` (`len` elements or bytes) at `p`.
pub(crate) fn init_pointer<'b, A: Arena + ?Sized>(
    schema: &'b Schema<'b>,
    ty: &Type,
    p: PointerBuilder<'b, A>,
    len: u32,
) -> Result<DynamicValueBuilder<'b, A>> {
    Ok(match ty {
        Type::Text => DynamicValueBuilder::Text(TextBuilder::new(p.init_text(len)?, 0)),
        Type::Data => DynamicValueBuilder::Data(p.init_data(len)?),
        Type::Struct(st) => {
            let s = schema.struct_of(st)?;
            let builder = p.init_struct(s.size())?;
            DynamicValueBuilder::Struct(DynamicStructBuilder::new(s, builder)?)
        }
        Type::List(element) => {
            let builder = match &**element {
                Type::Struct(st) => p.init_struct_list(len, schema.struct_of(st)?.size())?,
                e => p.init_list(e.element_size(), len)?,
            };
            DynamicValueBuilder::List(DynamicListBuilder::new(
                schema,
                (**element).clone(),
                builder,
            )?)
        }
        _ => {
            let mut p = p;
            p.clear();
            DynamicValueBuilder::AnyPointer(p)
        }
    })
}

/// A list being built by its element type.
pub struct DynamicListBuilder<'a, A: Arena + ?Sized> {
    schema: &'a Schema<'a>,
    element: Type,
    builder: ListBuilder<'a, A>,
}

impl<'a, A: Arena + ?Sized> DynamicListBuilder<'a, A> {
    /// Builds `builder` as a list of `element`.
    ///
    /// # Errors
    /// [`Error::ListElementSize`] when the list's elements cannot hold the
    /// type (a struct list must hold at least a word of data for a scalar
    /// type, a pointer for a pointer type).
    pub fn new(schema: &'a Schema<'a>, element: Type, builder: ListBuilder<'a, A>) -> Result<Self> {
        let want = element.element_size();
        let have = builder.element_size();
        let fits = have == want
            || (have == ElementSize::InlineComposite && {
                let size = builder.with_reader(|r| r.struct_size());
                match want {
                    ElementSize::Void => true,
                    ElementSize::Pointer => size.pointers > 0,
                    _ => size.data_words > 0,
                }
            });
        if !fits {
            return Err(Error::ListElementSize {
                expected: want,
                found: have,
            });
        }
        Ok(DynamicListBuilder {
            schema,
            element,
            builder,
        })
    }

    /// A shorter-lived handle to the same list.
    pub fn reborrow(&mut self) -> DynamicListBuilder<'_, A> {
        DynamicListBuilder {
            schema: self.schema,
            element: self.element.clone(),
            builder: self.builder.reborrow(),
        }
    }

    /// The element type.
    pub fn element_type(&self) -> &Type {
        &self.element
    }

    /// Elements in the list.
    pub fn len(&self) -> u32 {
        self.builder.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.builder.is_empty()
    }

    /// The untyped builder under it.
    pub fn into_list_builder(self) -> ListBuilder<'a, A> {
        self.builder
    }

    /// A generated list builder as a dynamic one (see
    /// [`DynamicListReader::from_typed`]).
    ///
    /// # Errors
    /// As [`DynamicListReader::from_typed`], or as [`new`](Self::new).
    pub fn from_typed<L: ListOwned + Introspect>(
        schema: &'a Schema<'a>,
        builder: L::Builder<'a, A>,
    ) -> Result<Self> {
        let element = list_element_of::<L>()?;
        DynamicListBuilder::new(schema, element, L::into_list_builder(builder))
    }

    /// The list as the generated builder of list type `L`, checked by
    /// element type with its generic bindings (see
    /// [`DynamicListReader::downcast`]).
    ///
    /// # Errors
    /// [`Error::TypeMismatch`] naming both list types when they differ;
    /// [`Error::ListElementSize`] when the list is not encoded as `L`'s
    /// builder writes it (a list of structs holding a scalar type).
    pub fn downcast<L: ListOwned + Introspect>(self) -> Result<L::Builder<'a, A>> {
        check_list::<L>(&self.element)?;
        let (want, have) = (self.element.element_size(), self.builder.element_size());
        if want != have {
            return Err(Error::ListElementSize {
                expected: want,
                found: have,
            });
        }
        Ok(L::wrap_list_builder(self.builder))
    }

    /// Calls `f` with a reader of the list as built so far.
    pub fn with_reader<R>(&self, f: impl FnOnce(DynamicListReader<'_>) -> R) -> R {
        let view = self.builder.reader_view();
        f(DynamicListReader::new(
            self.schema,
            self.element.clone(),
            view.list_reader(),
        ))
    }

    fn check_index(&self, index: u32) -> Result<()> {
        let len = self.len();
        if index >= len {
            return Err(Error::IndexOutOfRange { index, len });
        }
        Ok(())
    }

    /// Element `index`: scalars by value, pointers as builders (a null
    /// list or text element becomes an empty one).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`], or the element holds another kind of
    /// value (the runtime's error).
    pub fn get(&mut self, index: u32) -> Result<DynamicValueBuilder<'_, A>> {
        self.check_index(index)?;
        let b = &self.builder;
        Ok(match &self.element {
            Type::Void => DynamicValueBuilder::Void,
            Type::Bool => DynamicValueBuilder::Bool(b.get_bool(index)),
            Type::Int8 => DynamicValueBuilder::Int8(b.get(index)),
            Type::Int16 => DynamicValueBuilder::Int16(b.get(index)),
            Type::Int32 => DynamicValueBuilder::Int32(b.get(index)),
            Type::Int64 => DynamicValueBuilder::Int64(b.get(index)),
            Type::UInt8 => DynamicValueBuilder::UInt8(b.get(index)),
            Type::UInt16 => DynamicValueBuilder::UInt16(b.get(index)),
            Type::UInt32 => DynamicValueBuilder::UInt32(b.get(index)),
            Type::UInt64 => DynamicValueBuilder::UInt64(b.get(index)),
            Type::Float32 => DynamicValueBuilder::Float32(b.get(index)),
            Type::Float64 => DynamicValueBuilder::Float64(b.get(index)),
            Type::Enum(id) => DynamicValueBuilder::Enum(DynamicEnum::new(
                b.get(index),
                self.schema.enum_schema(*id)?,
            )),
            Type::Struct(st) => {
                let s = self.schema.struct_of(st)?;
                self.check_struct_list()?;
                DynamicValueBuilder::Struct(DynamicStructBuilder::new(
                    s,
                    self.builder.get_struct(index),
                )?)
            }
            ty => {
                let ty = ty.clone();
                get_pointer(self.schema, &ty, self.builder.pointer(index))?
            }
        })
    }

    fn check_struct_list(&self) -> Result<()> {
        let have = self.builder.element_size();
        if have != ElementSize::InlineComposite {
            return Err(Error::ListElementSize {
                expected: ElementSize::InlineComposite,
                found: have,
            });
        }
        Ok(())
    }

    /// Sets element `index` to `value` (a deep copy for pointers and
    /// structs), converting numbers as
    /// [`DynamicStructBuilder::set`] does.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`], [`Error::TypeMismatch`],
    /// [`Error::ValueOutOfRange`], or the runtime's error.
    pub fn set(&mut self, index: u32, value: DynamicValue<'_>) -> Result<()> {
        self.check_index(index)?;
        let context = || format!("element {index} of a List({})", self.element);
        let ty = self.element.clone();
        if let Type::Struct(st) = &ty {
            let DynamicValue::Struct(src) = &value else {
                return Err(Error::TypeMismatch {
                    context: context(),
                    expected: ty.to_string(),
                    found: value.kind().into(),
                });
            };
            if src.schema().id() != st.id() {
                return Err(Error::TypeMismatch {
                    context: context(),
                    expected: ty.to_string(),
                    found: format!("struct {:#018x}", src.schema().id()),
                });
            }
            self.check_struct_list()?;
            self.builder
                .get_struct(index)
                .copy_from(&src.as_struct_reader())?;
            return Ok(());
        }
        if ty.is_pointer() {
            check_pointer_value(&ty, &value, context)?;
            return set_pointer(&ty, self.builder.pointer(index), &value);
        }
        let bits = scalar_bits(self.schema, &ty, &value, context)?;
        let b = &mut self.builder;
        match ty.element_size() {
            ElementSize::Bit => b.set_bool(index, bits != 0),
            ElementSize::Byte => b.set::<u8>(index, bits as u8),
            ElementSize::TwoBytes => b.set::<u16>(index, bits as u16),
            ElementSize::FourBytes => b.set::<u32>(index, bits as u32),
            ElementSize::EightBytes => b.set::<u64>(index, bits),
            _ => {}
        }
        Ok(())
    }

    /// A new list (or text, data) of `len` elements (bytes) at element
    /// `index` of a list of lists (texts, datas).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`], [`Error::TypeMismatch`] for another
    /// element type, or the runtime's error.
    pub fn init(&mut self, index: u32, len: u32) -> Result<DynamicValueBuilder<'_, A>> {
        self.check_index(index)?;
        let ty = self.element.clone();
        if !matches!(ty, Type::List(_) | Type::Text | Type::Data) {
            return Err(Error::TypeMismatch {
                context: format!("element {index} of a List({ty})"),
                expected: ty.to_string(),
                found: "a list, text or data to init with a length".into(),
            });
        }
        init_pointer(self.schema, &ty, self.builder.pointer(index), len)
    }
}
