//! [`TextWriter`]: messages printed in the text format straight from the
//! reader, by plans of their structs made once per writer.
//!
//! Printing by [`to_text_value`](super::to_text_value) resolves every
//! field's type for every struct it reads and builds a tree of the whole
//! message before printing it. The writer instead keeps, for each struct
//! (and generic binding) it has met, the fields it prints in order with
//! their types resolved, and feeds the values to the runtime's
//! [`Printer`], which lays the pretty form out as they come. What it
//! prints, and which reads fail, are those of `to_text_value` and the
//! tree printer.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use capnarena::text::Printer;
use capnarena::{ListReader, PointerReader, Primitive, StructReader};

use crate::error::{Error, Result};
use crate::model::RawValue;
use crate::nodes::EnumSchema;
use crate::stack::Meter;
use crate::structs::{Field, StructSchema};
use crate::types::{Brand, StructType, Type};

/// Prints messages of one root struct in the text format, as `capnp
/// convert binary:text` does (pretty or `--short`), reusing what it
/// learned of the schema and its buffers from one message to the next.
///
/// ```
/// use capnarena::{Message, SingleSegmentArena};
/// use capnarena_dynamic::{DynamicStructBuilder, LoadedSchema, text};
///
/// let loaded = LoadedSchema::compile(&capnarena_compiler::Compiler::new().source(
///     "/demo.capnp",
///     "@0xd3bd7ff1e1ed8b6a; struct P { x @0 :Int32; tags @1 :List(Text); }",
/// ).file("/demo.capnp"))?;
/// let schema = loaded.schema();
/// let p = schema.find_struct("demo.capnp:P")?;
///
/// let mut msg = Message::new(SingleSegmentArena::new());
/// let mut root = DynamicStructBuilder::init_root(&mut msg, p.clone())?;
/// text::parse_struct(b"(x = -3, tags = [\"a\", \"b\"])", &mut root).map_err(|e| e.to_string())?;
///
/// let mut writer = text::TextWriter::new(p);
/// let reader = msg.reader();
/// assert_eq!(writer.write(reader.root()?, false)?, b"(x = -3, tags = [\"a\", \"b\"])");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TextWriter<'s> {
    root: StructSchema<'s>,
    /// Plans made so far; `root_plan` and the links index them.
    plans: Vec<Arc<StructPlan<'s>>>,
    /// Plans by struct id (more than one when bindings differ).
    by_id: HashMap<u64, Vec<usize>>,
    root_plan: Option<usize>,
    printer: Printer,
    /// The stack the message being written has used.
    meter: Meter,
}

/// A struct's (or group's) fields as the text format prints them.
#[derive(Debug)]
struct StructPlan<'s> {
    /// The generic bindings it was made with.
    brand: Brand,
    /// Where its union's discriminant is (in 16-bit units), if it has one.
    union: Option<usize>,
    fields: Vec<FieldPlan<'s>>,
}

#[derive(Debug)]
struct FieldPlan<'s> {
    name: &'s str,
    discriminant: Option<u16>,
    slot: Slot<'s>,
}

#[derive(Debug)]
enum Slot<'s> {
    /// A group: the parent's data and pointers, read by the group's plan.
    Group(Link),
    /// A value in the data section: its offset in units of its size,
    /// the default's bits.
    Data {
        offset: usize,
        default: u64,
        ty: Scalar<'s>,
    },
    /// A pointer: its index and stored default.
    Pointer {
        index: usize,
        default: Option<u32>,
        ty: Pointee<'s>,
    },
    /// A type that could not be resolved: resolving it again gives the
    /// error, should the field be printed.
    Unresolved(Field<'s>),
}

#[derive(Clone, Copy, Debug)]
enum Scalar<'s> {
    Void,
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float32,
    Float64,
    Enum(EnumSchema<'s>),
}

#[derive(Debug)]
enum Pointee<'s> {
    Text,
    Data,
    Struct(Link),
    /// A list: its elements, and their size on the wire.
    List(Box<Element<'s>>, capnarena::ElementSize),
    AnyPointer,
    Interface,
}

#[derive(Debug)]
enum Element<'s> {
    Scalar(Scalar<'s>),
    Pointer(Pointee<'s>),
}

/// A struct type and, once made, the index of its plan.
#[derive(Debug)]
struct Link {
    ty: StructType,
    plan: OnceLock<usize>,
}

impl Link {
    fn new(ty: StructType) -> Self {
        Link {
            ty,
            plan: OnceLock::new(),
        }
    }
}

impl<'s> TextWriter<'s> {
    /// A writer of messages whose root is a `root`.
    pub fn new(root: StructSchema<'s>) -> Self {
        TextWriter {
            root,
            plans: Vec::new(),
            by_id: HashMap::new(),
            root_plan: None,
            printer: Printer::new(true),
            meter: Meter::new(),
        }
    }

    /// The text of `message` (a struct of the writer's root type), byte
    /// for byte as `capnp convert binary:text` prints it without its final
    /// newline: the pretty form, or the one-line form of `--short` when
    /// `pretty` is false. The bytes stay until the next call.
    ///
    /// # Errors
    /// A read that fails (a malformed pointer, a limit of the reader), as
    /// [`to_text_value`](super::to_text_value) fails.
    pub fn write<'m>(&mut self, message: StructReader<'m>, pretty: bool) -> Result<&[u8]>
    where
        's: 'm,
    {
        self.printer.clear(pretty);
        self.meter = Meter::new();
        let plan = match self.root_plan {
            Some(p) => p,
            None => {
                let p = self.plan_for(self.root.clone())?;
                self.root_plan = Some(p);
                p
            }
        };
        self.write_struct(plan, message)?;
        self.printer.finish().map_err(|_| text_error())
    }

    /// The plan of `schema`, made if it is new.
    fn plan_for(&mut self, schema: StructSchema<'s>) -> Result<usize> {
        if let Some(found) = self.by_id.get(&schema.id()).and_then(|candidates| {
            candidates.iter().copied().find(|&i| {
                self.plans
                    .get(i)
                    .is_some_and(|p| brand_eq(&p.brand, schema.brand()))
            })
        }) {
            return Ok(found);
        }
        let plan = make_plan(&schema)?;
        let index = self.plans.len();
        self.plans.push(Arc::new(plan));
        self.by_id.entry(schema.id()).or_default().push(index);
        Ok(index)
    }

    fn linked(&mut self, link: &Link) -> Result<usize> {
        if let Some(&p) = link.plan.get() {
            return Ok(p);
        }
        let schema = self.root.schema().struct_of(&link.ty)?;
        let p = self.plan_for(schema)?;
        // Set once here; a plan made meanwhile for the same link is the same.
        let _ = link.plan.set(p);
        Ok(p)
    }

    /// Writes struct `r` by `plan` (a level of the recursion: the stack
    /// used since [`TextWriter::write`] began is checked against
    /// [`STACK_BUDGET`](crate::STACK_BUDGET)).
    fn write_struct(&mut self, plan: usize, r: StructReader<'_>) -> Result<()> {
        self.meter.enter()?;
        let done = self.write_members(plan, r);
        self.meter.leave();
        done
    }

    fn write_members(&mut self, plan: usize, r: StructReader<'_>) -> Result<()> {
        let Some(plan) = self.plans.get(plan).cloned() else {
            return Err(text_error());
        };
        // A discriminant that names no member (a newer writer's) prints
        // no member.
        let active = plan.union.and_then(|at| {
            let d: u16 = r.get(at);
            plan.fields.iter().position(|f| f.discriminant == Some(d))
        });
        self.printer.begin_struct();
        for (i, f) in plan.fields.iter().enumerate() {
            let pointer = match &f.slot {
                Slot::Pointer { index, .. } => Some(*index),
                _ => None,
            };
            if let Some(d) = f.discriminant {
                if Some(i) != active {
                    continue;
                }
                // The active member: a null pointer prints (as its
                // default) unless it is the discriminant-0 member.
                if d == 0 && pointer.is_some_and(|p| !r.has_pointer(p)) {
                    continue;
                }
            } else if pointer.is_some_and(|p| !r.has_pointer(p)) {
                continue;
            }
            self.printer.field(f.name);
            self.write_field(f, r)?;
        }
        self.printer.end_struct();
        Ok(())
    }

    fn write_field(&mut self, f: &FieldPlan<'s>, r: StructReader<'_>) -> Result<()> {
        match &f.slot {
            Slot::Group(link) => {
                let plan = self.linked(link)?;
                self.write_struct(plan, r)
            }
            Slot::Data {
                offset,
                default,
                ty,
            } => {
                self.scalar(*ty, *offset, *default, r);
                Ok(())
            }
            Slot::Pointer { index, default, ty } => {
                let mut p: PointerReader<'_> = r.pointer(*index);
                if p.is_null() {
                    if let Some(at) = default {
                        p = self.root.schema().stored_value(Some(*at))?;
                    }
                }
                self.pointee(ty, p)
            }
            Slot::Unresolved(field) => Err(match field.ty() {
                Err(e) => e,
                // Not expected: it failed when the plan was made.
                Ok(_) => text_error(),
            }),
        }
    }

    fn scalar(&mut self, ty: Scalar<'s>, offset: usize, default: u64, r: StructReader<'_>) {
        let p = &mut self.printer;
        match ty {
            Scalar::Void => p.void(),
            Scalar::Bool => p.bool(r.get_bool_or(offset, default != 0)),
            Scalar::Int8 => p.int(r.get_or(offset, i8::from_bits(default)).into()),
            Scalar::Int16 => p.int(r.get_or(offset, i16::from_bits(default)).into()),
            Scalar::Int32 => p.int(r.get_or(offset, i32::from_bits(default)).into()),
            Scalar::Int64 => p.int(r.get_or(offset, i64::from_bits(default))),
            Scalar::UInt8 => p.uint(r.get_or(offset, u8::from_bits(default)).into()),
            Scalar::UInt16 => p.uint(r.get_or(offset, u16::from_bits(default)).into()),
            Scalar::UInt32 => p.uint(r.get_or(offset, u32::from_bits(default)).into()),
            Scalar::UInt64 => p.uint(r.get_or(offset, default)),
            Scalar::Float32 => p.float32(r.get_or(offset, f32::from_bits(default as u32))),
            Scalar::Float64 => p.float64(r.get_or(offset, f64::from_bits(default))),
            Scalar::Enum(e) => enumerant(p, e, r.get_or(offset, u16::from_bits(default))),
        }
    }

    fn pointee(&mut self, ty: &Pointee<'s>, p: PointerReader<'_>) -> Result<()> {
        match ty {
            Pointee::Text => self.printer.text(p.get_text_bytes()?),
            Pointee::Data => self.printer.data(p.get_data()?),
            Pointee::Struct(link) => {
                let s = p.get_struct()?;
                let plan = self.linked(link)?;
                self.write_struct(plan, s)?;
            }
            Pointee::List(element, size) => {
                let l = p.get_list(*size)?;
                self.list(element, l)?;
            }
            Pointee::AnyPointer => self.printer.any_pointer(),
            Pointee::Interface => {
                if !p.is_null() {
                    p.get_capability()?;
                }
                self.printer.capability();
            }
        }
        Ok(())
    }

    /// Writes list `l` (a level of the recursion, as
    /// [`TextWriter::write_struct`]).
    fn list(&mut self, element: &Element<'s>, l: ListReader<'_>) -> Result<()> {
        self.meter.enter()?;
        let done = self.elements(element, l);
        self.meter.leave();
        done
    }

    fn elements(&mut self, element: &Element<'s>, l: ListReader<'_>) -> Result<()> {
        self.printer.begin_list();
        let n = l.len();
        match element {
            Element::Scalar(s) => {
                let pr = &mut self.printer;
                match *s {
                    Scalar::Void => (0..n).for_each(|_| pr.void()),
                    Scalar::Bool => (0..n).for_each(|i| pr.bool(l.get_bool(i))),
                    Scalar::Int8 => (0..n).for_each(|i| pr.int(l.get::<i8>(i).into())),
                    Scalar::Int16 => (0..n).for_each(|i| pr.int(l.get::<i16>(i).into())),
                    Scalar::Int32 => (0..n).for_each(|i| pr.int(l.get::<i32>(i).into())),
                    Scalar::Int64 => (0..n).for_each(|i| pr.int(l.get::<i64>(i))),
                    Scalar::UInt8 => (0..n).for_each(|i| pr.uint(l.get::<u8>(i).into())),
                    Scalar::UInt16 => (0..n).for_each(|i| pr.uint(l.get::<u16>(i).into())),
                    Scalar::UInt32 => (0..n).for_each(|i| pr.uint(l.get::<u32>(i).into())),
                    Scalar::UInt64 => (0..n).for_each(|i| pr.uint(l.get::<u64>(i))),
                    Scalar::Float32 => (0..n).for_each(|i| pr.float32(l.get::<f32>(i))),
                    Scalar::Float64 => (0..n).for_each(|i| pr.float64(l.get::<f64>(i))),
                    Scalar::Enum(e) => (0..n).for_each(|i| enumerant(pr, e, l.get::<u16>(i))),
                }
            }
            Element::Pointer(Pointee::Struct(link)) => {
                let plan = self.linked(link)?;
                for i in 0..n {
                    self.write_struct(plan, l.get_struct(i))?;
                }
            }
            Element::Pointer(ty) => {
                for i in 0..n {
                    self.pointee(ty, l.get_pointer(i))?;
                }
            }
        }
        self.printer.end_list();
        Ok(())
    }
}

fn enumerant(p: &mut Printer, e: EnumSchema<'_>, value: u16) {
    match e.enumerant(value) {
        Some(en) => p.enumerant(en.name()),
        None => p.enum_number(value),
    }
}

/// A formatting failure of the printer (not expected: it writes to
/// memory), as `write_value` reports one.
fn text_error() -> Error {
    Error::Wire(capnarena::Error::Io(std::io::Error::other("text format")))
}

fn make_plan<'s>(schema: &StructSchema<'s>) -> Result<StructPlan<'s>> {
    let union = (schema.discriminant_count() > 0).then(|| schema.discriminant_offset() as usize);
    let mut fields = Vec::with_capacity(schema.fields().len());
    for f in schema.fields() {
        let slot = match slot(&f) {
            Ok(slot) => slot,
            Err(_) => Slot::Unresolved(f.clone()),
        };
        fields.push(FieldPlan {
            name: f.name(),
            discriminant: f.discriminant(),
            slot,
        });
    }
    Ok(StructPlan {
        brand: schema.brand().clone(),
        union,
        fields,
    })
}

fn slot<'s>(f: &Field<'s>) -> Result<Slot<'s>> {
    let ty = f.ty()?;
    if f.is_group() {
        let Type::Struct(st) = ty else {
            return Err(text_error());
        };
        return Ok(Slot::Group(Link::new(st)));
    }
    let offset = f.offset().unwrap_or(0) as usize;
    let default = f.raw_default().copied().unwrap_or(RawValue::Void);
    let schema = f.parent().schema();
    Ok(match element(schema, &ty)? {
        Element::Scalar(s) => Slot::Data {
            offset,
            default: default.bits().unwrap_or(0),
            ty: s,
        },
        Element::Pointer(p) => Slot::Pointer {
            index: offset,
            default: match default {
                RawValue::Pointer(_, index) => index,
                _ => None,
            },
            ty: p,
        },
    })
}

fn element<'s>(schema: &'s crate::Schema<'s>, ty: &Type) -> Result<Element<'s>> {
    Ok(match ty {
        Type::Void => Element::Scalar(Scalar::Void),
        Type::Bool => Element::Scalar(Scalar::Bool),
        Type::Int8 => Element::Scalar(Scalar::Int8),
        Type::Int16 => Element::Scalar(Scalar::Int16),
        Type::Int32 => Element::Scalar(Scalar::Int32),
        Type::Int64 => Element::Scalar(Scalar::Int64),
        Type::UInt8 => Element::Scalar(Scalar::UInt8),
        Type::UInt16 => Element::Scalar(Scalar::UInt16),
        Type::UInt32 => Element::Scalar(Scalar::UInt32),
        Type::UInt64 => Element::Scalar(Scalar::UInt64),
        Type::Float32 => Element::Scalar(Scalar::Float32),
        Type::Float64 => Element::Scalar(Scalar::Float64),
        Type::Enum(id) => Element::Scalar(Scalar::Enum(schema.enum_schema(*id)?)),
        Type::Text => Element::Pointer(Pointee::Text),
        Type::Data => Element::Pointer(Pointee::Data),
        Type::Struct(st) => Element::Pointer(Pointee::Struct(Link::new(st.clone()))),
        Type::List(e) => Element::Pointer(Pointee::List(
            Box::new(element(schema, e)?),
            e.element_size(),
        )),
        Type::AnyPointer => Element::Pointer(Pointee::AnyPointer),
        Type::Interface(_) => Element::Pointer(Pointee::Interface),
    })
}

/// Whether two bindings bind the same types to the same scopes.
fn brand_eq(a: &Brand, b: &Brand) -> bool {
    match (&a.0, &b.0) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            Arc::ptr_eq(x, y)
                || (x.scopes.len() == y.scopes.len()
                    && x.scopes.iter().zip(&y.scopes).all(|((sa, ta), (sb, tb))| {
                        sa == sb
                            && ta.len() == tb.len()
                            && ta.iter().zip(tb.iter()).all(|(p, q)| type_eq(p, q))
                    }))
        }
        _ => false,
    }
}

/// Whether two types are the same, generic bindings included.
fn type_eq(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::List(x), Type::List(y)) => type_eq(x, y),
        (Type::Struct(x), Type::Struct(y)) => x.id == y.id && brand_eq(&x.brand, &y.brand),
        _ => a.same_as(b),
    }
}

/// A writer can move to another thread (one per thread, each with its own
/// plans and buffers).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<TextWriter<'static>>();
};
