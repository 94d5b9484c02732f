//! Shared test helpers: the workspace's test vectors and schemas, and the
//! schema of `all_types.capnp` loaded through the compiler.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use capnarena::{Arena, MessageReader, ReaderOptions, Word};
use capnarena_dynamic::{
    DynamicListBuilder, DynamicListReader, DynamicStructBuilder, DynamicStructReader, DynamicValue,
    Field, LoadedSchema, Result,
};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

/// `tests/vectors` of the workspace.
pub fn vectors_dir() -> PathBuf {
    workspace().join("tests/vectors")
}

/// The bytes of vector file `name`.
pub fn vector(name: &str) -> Vec<u8> {
    let path = vectors_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The vector messages (each `NAME.txt` of tests/vectors).
pub const VECTORS: [&str; 5] = ["empty", "scalars", "lists", "full", "log"];

/// The framings of each vector: standard framing, one segment, and
/// written on segments of 1, 3 and 16 words (far and double-far pointers).
pub const FRAMED: [&str; 4] = ["bin", "seg1.bin", "seg3.bin", "seg16.bin"];

/// The root struct of vector `name`.
pub fn root_type(name: &str) -> &'static str {
    if name == "log" { "Log" } else { "AllTypes" }
}

/// Options that read every vector (log.seg1.bin has 1,186 segments).
pub fn options() -> ReaderOptions {
    ReaderOptions::new().segment_limit(4096)
}

/// `bytes` as words.
pub fn words(bytes: &[u8]) -> Vec<Word> {
    capnarena::words_from_bytes(bytes).expect("a whole number of words")
}

/// A reader of framed words.
pub fn framed(words: &[Word]) -> MessageReader<'_> {
    MessageReader::from_words(words, options()).expect("a framed vector")
}

/// `all_types.capnp`, compiled in process.
pub fn all_types() -> LoadedSchema {
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .no_standard_import()
            .src_prefix(vectors_dir())
            .file(vectors_dir().join("all_types.capnp")),
    )
    .expect("all_types.capnp compiles")
}

/// The fields a dynamic reader visits: those outside the union, then the
/// active member.
pub fn visit<'a>(d: &DynamicStructReader<'a>) -> Vec<Field<'a>> {
    let mut fields: Vec<_> = d.schema().non_union_fields().collect();
    fields.extend(d.which().expect("a known union member"));
    fields
}

/// Copies `src` into `dst` element by element with the dynamic builder:
/// fields outside the union in the schema's order, then the active
/// member; null pointers stay null.
pub fn dyn_deep_copy<A: Arena + ?Sized>(
    dst: &mut DynamicStructBuilder<'_, A>,
    src: &DynamicStructReader<'_>,
) -> Result<()> {
    for f in visit(src) {
        if f.is_group() {
            let mut g = dst.init(&f)?.into_struct()?;
            dyn_deep_copy(&mut g, &src.get(&f)?.into_struct()?)?;
            continue;
        }
        if f.ty()?.is_pointer() && !src.has(&f)? {
            continue;
        }
        match src.get(&f)? {
            DynamicValue::Struct(s) => dyn_deep_copy(&mut dst.init(&f)?.into_struct()?, &s)?,
            DynamicValue::List(l) => {
                dyn_copy_list(&mut dst.init_list(&f, l.len())?.into_list()?, &l)?
            }
            DynamicValue::Text(t) => dst
                .init_list(&f, t.len() as u32)?
                .into_text()?
                .push_str(t)?,
            DynamicValue::Data(d) => dst
                .init_list(&f, d.len() as u32)?
                .into_data()?
                .copy_from_slice(d),
            v => dst.set(&f, v)?,
        }
    }
    Ok(())
}

pub fn dyn_copy_list<A: Arena + ?Sized>(
    dst: &mut DynamicListBuilder<'_, A>,
    src: &DynamicListReader<'_>,
) -> Result<()> {
    for i in 0..src.len() {
        let struct_elements = matches!(src.element_type(), capnarena_dynamic::Type::Struct(_));
        if !struct_elements
            && src.element_type().is_pointer()
            && src.as_list_reader().get_pointer(i).is_null()
        {
            continue;
        }
        match src.get(i)? {
            DynamicValue::Struct(s) => dyn_deep_copy(&mut dst.get(i)?.into_struct()?, &s)?,
            DynamicValue::List(l) => dyn_copy_list(&mut dst.init(i, l.len())?.into_list()?, &l)?,
            DynamicValue::Text(t) => dst.init(i, t.len() as u32)?.into_text()?.push_str(t)?,
            DynamicValue::Data(d) => dst.init(i, d.len() as u32)?.into_data()?.copy_from_slice(d),
            v => dst.set(i, v)?,
        }
    }
    Ok(())
}
