//! Dynamic list builders: lists of any element type built by the schema,
//! through the runtime calls the generated typed lists make.

use capnarena::typed::{Introspect, ListOwned};
use capnarena::{Arena, ElementSize, ListBuilder};

use crate::builder::{
    DynamicStructBuilder, DynamicValueBuilder, check_pointer_value, get_pointer, init_pointer,
    scalar_bits, set_pointer,
};
use crate::error::{Error, Result};
use crate::generated::{check_list, list_element_of};
use crate::schema::Schema;
use crate::types::Type;
use crate::value::{DynamicEnum, DynamicListReader, DynamicValue};

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
