//! Writes a [`Request`] as a framed CodeGeneratorRequest message with the
//! capnarena runtime's hand-offset API. Every offset here is schema.capnp's
//! layout (`capnp compile -ocapnp /usr/include/capnp/schema.capnp` lists
//! them); this is the one file that would switch to generated bindings.

use capnarena::{
    Arena, ElementSize, Message, PointerBuilder, Result, SingleSegmentArena, StructBuilder,
    StructSize,
};

use crate::schema::*;

const REQUEST: StructSize = StructSize::new(0, 4);
const VERSION: StructSize = StructSize::new(1, 0);
const NODE: StructSize = StructSize::new(5, 6);
const PARAMETER: StructSize = StructSize::new(0, 1);
const NESTED_NODE: StructSize = StructSize::new(1, 1);
const SOURCE_INFO: StructSize = StructSize::new(1, 2);
const MEMBER: StructSize = StructSize::new(0, 1);
const FIELD: StructSize = StructSize::new(3, 4);
const ENUMERANT: StructSize = StructSize::new(1, 2);
const SUPERCLASS: StructSize = StructSize::new(1, 1);
const METHOD: StructSize = StructSize::new(3, 5);
const TYPE: StructSize = StructSize::new(3, 1);
const BRAND: StructSize = StructSize::new(0, 1);
const SCOPE: StructSize = StructSize::new(2, 1);
const BINDING: StructSize = StructSize::new(1, 1);
const VALUE: StructSize = StructSize::new(2, 1);
const ANNOTATION: StructSize = StructSize::new(1, 2);
const REQUESTED_FILE: StructSize = StructSize::new(1, 2);
const IMPORT: StructSize = StructSize::new(1, 1);

/// The capnp version this compiler's output claims (the reference it
/// matches: 0.9.2).
pub const CAPNP_VERSION: (u16, u8, u8) = (0, 9, 2);

/// The request as a framed message (segment table and one segment).
///
/// # Errors
/// A runtime error while building (a message too large to encode).
pub fn emit(req: &Request) -> Result<Vec<u8>> {
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut root = msg.init_root_struct(REQUEST)?;
        let n = req.nodes.len() as u32;
        let mut nodes = root.init_struct_list(0, n, NODE)?;
        for (i, node) in req.nodes.iter().enumerate() {
            write_node(&mut nodes.get_struct(i as u32), node)?;
        }
        let mut files =
            root.init_struct_list(1, req.requested_files.len() as u32, REQUESTED_FILE)?;
        for (i, f) in req.requested_files.iter().enumerate() {
            let mut b = files.get_struct(i as u32);
            b.set::<u64>(0, f.id);
            b.set_text(0, &f.filename)?;
            let mut imports = b.init_struct_list(1, f.imports.len() as u32, IMPORT)?;
            for (j, (id, name)) in f.imports.iter().enumerate() {
                let mut ib = imports.get_struct(j as u32);
                ib.set::<u64>(0, *id);
                ib.set_text(0, name)?;
            }
        }
        let mut v = root.init_struct(2, VERSION)?;
        v.set::<u16>(0, CAPNP_VERSION.0);
        v.set::<u8>(2, CAPNP_VERSION.1);
        v.set::<u8>(3, CAPNP_VERSION.2);
        let mut infos = root.init_struct_list(3, req.source_info.len() as u32, SOURCE_INFO)?;
        for (i, si) in req.source_info.iter().enumerate() {
            let mut b = infos.get_struct(i as u32);
            b.set::<u64>(0, si.id);
            if let Some(doc) = &si.doc {
                b.pointer(0).set_text_bytes(doc)?;
            }
            if let Some(members) = &si.members {
                let mut ml = b.init_struct_list(1, members.len() as u32, MEMBER)?;
                for (j, m) in members.iter().enumerate() {
                    if let Some(doc) = m {
                        ml.get_struct(j as u32).pointer(0).set_text_bytes(doc)?;
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    msg.append_to(&mut out);
    Ok(out)
}

/// Writes node `n` into `b`, a `schema.capnp` `Node`. Longer than most:
/// one arm per node kind, each writing that kind's fields in the schema's
/// order.
fn write_node<A: Arena>(b: &mut StructBuilder<'_, A>, n: &Node) -> Result<()> {
    b.set::<u64>(0, n.id);
    b.set_text(0, &n.display_name)?;
    b.set::<u32>(2, n.display_name_prefix_length);
    b.set::<u64>(2, n.scope_id);
    if let Some(params) = &n.parameters {
        let mut l = b.init_struct_list(5, params.len() as u32, PARAMETER)?;
        for (i, p) in params.iter().enumerate() {
            l.get_struct(i as u32).set_text(0, p)?;
        }
    }
    b.set_bool(288, n.is_generic);
    if let Some(nested) = &n.nested_nodes {
        let mut l = b.init_struct_list(1, nested.len() as u32, NESTED_NODE)?;
        for (i, (name, id)) in nested.iter().enumerate() {
            let mut e = l.get_struct(i as u32);
            e.set_text(0, name)?;
            e.set::<u64>(0, *id);
        }
    }
    if let Some(anns) = &n.annotations {
        write_annotations(b.pointer(2), anns)?;
    }
    match &n.kind {
        NodeKind::File => b.set::<u16>(6, 0),
        NodeKind::Struct(s) => {
            b.set::<u16>(6, 1);
            b.set::<u16>(7, s.data_words);
            b.set::<u16>(12, s.pointers);
            b.set::<u16>(13, 7); // preferredListEncoding = inlineComposite
            b.set_bool(224, s.is_group);
            b.set::<u16>(15, s.discriminant_count);
            b.set::<u32>(8, s.discriminant_offset);
            if let Some(fields) = &s.fields {
                let mut l = b.init_struct_list(3, fields.len() as u32, FIELD)?;
                for (i, f) in fields.iter().enumerate() {
                    write_field(&mut l.get_struct(i as u32), f)?;
                }
            }
        }
        NodeKind::Enum(es) => {
            b.set::<u16>(6, 2);
            let mut l = b.init_struct_list(3, es.len() as u32, ENUMERANT)?;
            for (i, e) in es.iter().enumerate() {
                let mut eb = l.get_struct(i as u32);
                eb.set_text(0, &e.name)?;
                eb.set::<u16>(0, e.code_order);
                if let Some(a) = &e.annotations {
                    write_annotations(eb.pointer(1), a)?;
                }
            }
        }
        NodeKind::Interface {
            methods,
            superclasses,
        } => {
            b.set::<u16>(6, 3);
            let mut l = b.init_struct_list(3, methods.len() as u32, METHOD)?;
            for (i, m) in methods.iter().enumerate() {
                write_method(&mut l.get_struct(i as u32), m)?;
            }
            let mut l = b.init_struct_list(4, superclasses.len() as u32, SUPERCLASS)?;
            for (i, (id, brand)) in superclasses.iter().enumerate() {
                let mut sb = l.get_struct(i as u32);
                sb.set::<u64>(0, *id);
                if let Some(br) = brand {
                    write_brand(sb.pointer(0), br)?;
                }
            }
        }
        NodeKind::Const { ty, value } => {
            b.set::<u16>(6, 4);
            write_type(b.pointer(3), ty)?;
            write_value(b.pointer(4), value)?;
        }
        NodeKind::Annotation { ty, targets } => {
            b.set::<u16>(6, 5);
            write_type(b.pointer(3), ty)?;
            for (i, t) in targets.iter().enumerate() {
                b.set_bool(112 + i, *t);
            }
        }
    }
    Ok(())
}

fn write_field<A: Arena>(b: &mut StructBuilder<'_, A>, f: &Field) -> Result<()> {
    b.set_text(0, &f.name)?;
    b.set::<u16>(0, f.code_order);
    if let Some(a) = &f.annotations {
        write_annotations(b.pointer(1), a)?;
    }
    b.set::<u16>(1, f.discriminant_value ^ 0xffff);
    match &f.kind {
        FieldKind::Slot {
            offset,
            ty,
            default,
            explicit_default,
        } => {
            b.set::<u16>(4, 0);
            b.set::<u32>(1, *offset);
            write_type(b.pointer(2), ty)?;
            write_value(b.pointer(3), default)?;
            b.set_bool(128, *explicit_default);
        }
        FieldKind::Group(id) => {
            b.set::<u16>(4, 1);
            b.set::<u64>(2, *id);
        }
    }
    match f.ordinal {
        None => b.set::<u16>(5, 0),
        Some(o) => {
            b.set::<u16>(5, 1);
            b.set::<u16>(6, o);
        }
    }
    Ok(())
}

fn write_method<A: Arena>(b: &mut StructBuilder<'_, A>, m: &Method) -> Result<()> {
    b.set_text(0, &m.name)?;
    b.set::<u16>(0, m.code_order);
    let mut l = b.init_struct_list(4, m.implicit_parameters.len() as u32, PARAMETER)?;
    for (i, p) in m.implicit_parameters.iter().enumerate() {
        l.get_struct(i as u32).set_text(0, p)?;
    }
    b.set::<u64>(1, m.param_struct_type);
    if let Some(br) = &m.param_brand {
        write_brand(b.pointer(2), br)?;
    }
    b.set::<u64>(2, m.result_struct_type);
    if let Some(br) = &m.result_brand {
        write_brand(b.pointer(3), br)?;
    }
    if let Some(a) = &m.annotations {
        write_annotations(b.pointer(1), a)?;
    }
    Ok(())
}

fn write_annotations<A: Arena>(p: PointerBuilder<'_, A>, anns: &[Annotation]) -> Result<()> {
    let mut l = p.init_struct_list(anns.len() as u32, ANNOTATION)?;
    for (i, a) in anns.iter().enumerate() {
        let mut b = l.get_struct(i as u32);
        b.set::<u64>(0, a.id);
        write_brand(b.pointer(1), &a.brand)?;
        write_value(b.pointer(0), &a.value)?;
    }
    Ok(())
}

fn write_brand<A: Arena>(p: PointerBuilder<'_, A>, br: &Brand) -> Result<()> {
    let mut b = p.init_struct(BRAND)?;
    if br.scopes.is_empty() {
        return Ok(());
    }
    let mut l = b.init_struct_list(0, br.scopes.len() as u32, SCOPE)?;
    for (i, s) in br.scopes.iter().enumerate() {
        let mut sb = l.get_struct(i as u32);
        sb.set::<u64>(0, s.scope_id);
        match &s.bind {
            None => sb.set::<u16>(4, 1),
            Some(bindings) => {
                sb.set::<u16>(4, 0);
                let mut bl = sb.init_struct_list(0, bindings.len() as u32, BINDING)?;
                for (j, binding) in bindings.iter().enumerate() {
                    let mut bb = bl.get_struct(j as u32);
                    match binding {
                        None => bb.set::<u16>(0, 0),
                        Some(t) => {
                            bb.set::<u16>(0, 1);
                            write_type(bb.pointer(0), t)?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn write_type<A: Arena>(p: PointerBuilder<'_, A>, t: &Type) -> Result<()> {
    let mut b = p.init_struct(TYPE)?;
    let tag: u16 = match t {
        Type::Void => 0,
        Type::Bool => 1,
        Type::Int8 => 2,
        Type::Int16 => 3,
        Type::Int32 => 4,
        Type::Int64 => 5,
        Type::UInt8 => 6,
        Type::UInt16 => 7,
        Type::UInt32 => 8,
        Type::UInt64 => 9,
        Type::Float32 => 10,
        Type::Float64 => 11,
        Type::Text => 12,
        Type::Data => 13,
        Type::List(e) => {
            write_type(b.pointer(0), e)?;
            14
        }
        Type::Enum(id, brand) | Type::Struct(id, brand) | Type::Interface(id, brand) => {
            b.set::<u64>(1, *id);
            if let Some(br) = brand {
                write_brand(b.pointer(0), br)?;
            }
            match t {
                Type::Enum(..) => 15,
                Type::Struct(..) => 16,
                _ => 17,
            }
        }
        Type::AnyPointer(a) => {
            match a {
                AnyPointer::Unconstrained(k) => {
                    b.set::<u16>(4, 0);
                    b.set::<u16>(5, *k);
                }
                AnyPointer::Parameter { scope, index } => {
                    b.set::<u16>(4, 1);
                    b.set::<u64>(2, *scope);
                    b.set::<u16>(5, *index);
                }
                AnyPointer::ImplicitMethodParameter(i) => {
                    b.set::<u16>(4, 2);
                    b.set::<u16>(5, *i);
                }
            }
            18
        }
    };
    b.set::<u16>(0, tag);
    Ok(())
}

/// Writes `v` as a `schema.capnp` `Value` at `p`. Longer than most: one
/// arm per value kind (the union's nineteen members), each a store.
fn write_value<A: Arena>(p: PointerBuilder<'_, A>, v: &Value) -> Result<()> {
    let mut b = p.init_struct(VALUE)?;
    let tag: u16 = match v {
        Value::Void => 0,
        Value::Bool(x) => {
            b.set_bool(16, *x);
            1
        }
        Value::Int8(x) => {
            b.set::<i8>(2, *x);
            2
        }
        Value::Int16(x) => {
            b.set::<i16>(1, *x);
            3
        }
        Value::Int32(x) => {
            b.set::<i32>(1, *x);
            4
        }
        Value::Int64(x) => {
            b.set::<i64>(1, *x);
            5
        }
        Value::UInt8(x) => {
            b.set::<u8>(2, *x);
            6
        }
        Value::UInt16(x) => {
            b.set::<u16>(1, *x);
            7
        }
        Value::UInt32(x) => {
            b.set::<u32>(1, *x);
            8
        }
        Value::UInt64(x) => {
            b.set::<u64>(1, *x);
            9
        }
        Value::Float32(x) => {
            b.set::<f32>(1, *x);
            10
        }
        Value::Float64(x) => {
            b.set::<f64>(1, *x);
            11
        }
        Value::Text(t) => {
            if let Some(t) = t {
                b.pointer(0).set_text_bytes(t)?;
            }
            12
        }
        Value::Data(d) => {
            if let Some(d) = d {
                b.set_data(0, d)?;
            }
            13
        }
        Value::List(p) => {
            if let Some(p) = p {
                write_ptr(b.pointer(0), p)?;
            }
            14
        }
        Value::Enum(x) => {
            b.set::<u16>(1, *x);
            15
        }
        Value::Struct(p) => {
            if let Some(p) = p {
                write_ptr(b.pointer(0), p)?;
            }
            16
        }
        Value::Interface => 17,
        Value::AnyPointer(p) => {
            if let Some(p) = p {
                write_ptr(b.pointer(0), p)?;
            }
            18
        }
        // The compiler resolves every pending value before emitting; an
        // unresolved one would be a compiler bug, written as void.
        Value::Pending(_) => 0,
    };
    b.set::<u16>(0, tag);
    Ok(())
}

fn fill_struct<A: Arena>(b: &mut StructBuilder<'_, A>, s: &StructVal) -> Result<()> {
    for (i, byte) in s.data.iter().enumerate() {
        if *byte != 0 {
            b.set::<u8>(i, *byte);
        }
    }
    for (i, p) in s.ptrs.iter().enumerate() {
        if let Some(p) = p {
            write_ptr(b.pointer(i), p)?;
        }
    }
    Ok(())
}

/// Limits for reading an embedded message: the reference reads embeds
/// without limits; a schema's own files are trusted as much as its text,
/// so only the pointer depth keeps its default here.
pub(crate) fn embed_options() -> capnarena::ReaderOptions {
    capnarena::ReaderOptions {
        traversal_limit_words: u64::MAX,
        ..capnarena::ReaderOptions::default()
    }
}

/// Writes a pointer value (a default or constant) into `p`. Recurses once
/// per level of the value, which the compiler bounds
/// ([`limits::MAX_RECURSION`](crate::limits::MAX_RECURSION)); the cases
/// that do not recurse are in [`write_leaf`], so that each level's frame
/// stays small.
fn write_ptr<A: Arena>(p: PointerBuilder<'_, A>, v: &Ptr) -> Result<()> {
    match v {
        Ptr::Struct(s) => {
            let size = StructSize::new((s.data.len() / 8) as u16, s.ptrs.len() as u16);
            let mut b = init_struct(p, size)?;
            fill_struct(&mut b, s)
        }
        Ptr::List(ListVal::Pointers(ps)) => {
            let mut lb = init_list(p, ElementSize::Pointer, ps.len() as u32)?;
            for (i, e) in ps.iter().enumerate() {
                if let Some(e) = e {
                    write_ptr(lb.pointer(i as u32), e)?;
                }
            }
            Ok(())
        }
        Ptr::List(ListVal::Structs {
            data_words,
            pointers,
            elems,
        }) => {
            let mut lb = init_struct_list(
                p,
                elems.len() as u32,
                StructSize::new(*data_words, *pointers),
            )?;
            for (i, e) in elems.iter().enumerate() {
                fill_struct(&mut lb.get_struct(i as u32), e)?;
            }
            Ok(())
        }
        leaf => write_leaf(p, leaf),
    }
}

// The builder's allocations are inlined into their callers (they are hot
// paths of the runtime); called here through these out-of-line wrappers,
// they stay out of `write_ptr`'s frame, which the value's depth multiplies.

#[inline(never)]
fn init_struct<A: Arena>(
    p: PointerBuilder<'_, A>,
    size: StructSize,
) -> Result<StructBuilder<'_, A>> {
    p.init_struct(size)
}

#[inline(never)]
fn init_list<A: Arena>(
    p: PointerBuilder<'_, A>,
    size: ElementSize,
    count: u32,
) -> Result<capnarena::ListBuilder<'_, A>> {
    p.init_list(size, count)
}

#[inline(never)]
fn init_struct_list<A: Arena>(
    p: PointerBuilder<'_, A>,
    count: u32,
    size: StructSize,
) -> Result<capnarena::ListBuilder<'_, A>> {
    p.init_struct_list(count, size)
}

/// The pointer values with nothing nested: text, data, an embedded
/// message (copied with constant stack), lists of primitives.
#[inline(never)]
fn write_leaf<A: Arena>(p: PointerBuilder<'_, A>, v: &Ptr) -> Result<()> {
    match v {
        Ptr::Text(t) => p.set_text_bytes(t),
        Ptr::Data(d) => p.set_data(d),
        Ptr::Message(bytes) => {
            let words = capnarena::words_from_bytes(bytes)?;
            let reader = capnarena::MessageReader::from_words(&words, embed_options())?;
            let root = reader.root()?;
            let mut p = p;
            p.set_struct(&root)
        }
        // Nested values: `write_ptr` writes them and never passes them here.
        Ptr::Struct(_) => write_ptr(p, v),
        Ptr::List(l) => match l {
            ListVal::Void(n) => p.init_list(ElementSize::Void, *n).map(|_| ()),
            ListVal::Bits(bits) => {
                let mut lb = p.init_list(ElementSize::Bit, bits.len() as u32)?;
                for (i, x) in bits.iter().enumerate() {
                    lb.set_bool(i as u32, *x);
                }
                Ok(())
            }
            ListVal::Bytes { width, data } => {
                let (size, w) = match width {
                    1 => (ElementSize::Byte, 1),
                    2 => (ElementSize::TwoBytes, 2),
                    4 => (ElementSize::FourBytes, 4),
                    _ => (ElementSize::EightBytes, 8),
                };
                let count = (data.len() / w) as u32;
                let mut lb = p.init_list(size, count)?;
                for (i, byte) in data.iter().enumerate() {
                    // Element i*w/w byte by byte: a one-byte view of the list.
                    let elem = (i / w) as u32;
                    let shift = (i % w) * 8;
                    match w {
                        1 => lb.set::<u8>(elem, *byte),
                        2 => {
                            let old: u16 = lb.get(elem);
                            lb.set::<u16>(elem, old | (u16::from(*byte) << shift));
                        }
                        4 => {
                            let old: u32 = lb.get(elem);
                            lb.set::<u32>(elem, old | (u32::from(*byte) << shift));
                        }
                        _ => {
                            let old: u64 = lb.get(elem);
                            lb.set::<u64>(elem, old | (u64::from(*byte) << shift));
                        }
                    }
                }
                Ok(())
            }
            ListVal::Pointers(_) | ListVal::Structs { .. } => write_ptr(p, v),
        },
    }
}
