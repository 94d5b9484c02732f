//! Loads the CodeGeneratorRequest into the plain model, reading it with the
//! crate's own generated `schema.capnp` bindings.

use capnarena::{Message, MessageReader, PointerReader, SingleSegmentArena};

use crate::Error;
use crate::limits::MAX_TYPE_DEPTH;
use crate::model::*;

type Result<T> = std::result::Result<T, Error>;
use crate::schema_capnp::{annotation, brand, code_generator_request, field, node, type_, value};

/// `$Rust.name(text)` of capnproto-rust's `rust.capnp` (file id
/// `0x83b3c14c3c8dd083`), whose annotations capnpc honours, so a schema
/// written for capnpc generates here unchanged (field, struct, enum, enumerant, union, group): the
/// name to generate from, in the schema's spelling conventions.
pub const RUST_NAME: u64 = 0xc2fe4c6d100166d0;
/// `$Rust.parentModule(text)` (file): the Rust module path, from the crate
/// root, under which the file's generated module is included.
pub const RUST_PARENT_MODULE: u64 = 0xabee386cd1450364;

/// `$Rust.option` (field, `Void`): getters of the pointer field return
/// `Option`, `None` when the pointer is null (on an AnyPointer field it
/// changes nothing: an any-pointer reader already tells null from set).
pub const RUST_OPTION: u64 = 0xabfef22c4ee1964e;

/// `$Json.name` (`/capnp/compat/json.capnp`).
pub const JSON_NAME: u64 = 0xfa5b1fd61c2e7c3d;
/// `$Json.flatten`.
pub const JSON_FLATTEN: u64 = 0x82d3e852af0336bf;
/// `$Json.discriminator`.
pub const JSON_DISCRIMINATOR: u64 = 0xcfa794e8d19a0162;
/// `$Json.base64`.
pub const JSON_BASE64: u64 = 0xd7d879450a253e4b;
/// `$Json.hex`.
pub const JSON_HEX: u64 = 0xf061e22f0ae5c7b5;

/// Text field `index` of the struct annotation value `p` (`None`: null).
fn struct_text(p: &PointerReader<'_>, index: usize) -> Result<Option<String>> {
    if p.is_null() {
        return Ok(None);
    }
    let field = p.get_struct()?.pointer(index);
    if field.is_null() {
        return Ok(None);
    }
    Ok(Some(field.get_text()?.to_string()))
}

/// `$Json.discriminator` among `list`.
fn json_discriminator(
    list: capnarena::typed::StructListReader<'_, annotation::Owned>,
) -> Result<Option<JsonDiscriminator>> {
    for a in list {
        if a.get_id() == JSON_DISCRIMINATOR {
            if let value::Which::Struct(p) = a.get_value()?.which()? {
                return Ok(Some(JsonDiscriminator {
                    name: struct_text(&p, 0)?,
                    value_name: struct_text(&p, 1)?,
                }));
            }
            return Ok(Some(JsonDiscriminator::default()));
        }
    }
    Ok(None)
}

/// A field's `/capnp/compat/json.capnp` annotations.
fn json_field(
    list: capnarena::typed::StructListReader<'_, annotation::Owned>,
) -> Result<JsonField> {
    let mut json = JsonField {
        name: text_annotation(list, JSON_NAME)?,
        discriminator: json_discriminator(list)?,
        ..JsonField::default()
    };
    for a in list {
        match a.get_id() {
            JSON_FLATTEN => {
                json.flatten = Some(match a.get_value()?.which()? {
                    value::Which::Struct(p) => struct_text(&p, 0)?.unwrap_or_default(),
                    _ => String::new(),
                });
            }
            JSON_BASE64 => json.data = JsonData::Base64,
            JSON_HEX => json.data = JsonData::Hex,
            _ => {}
        }
    }
    Ok(json)
}

/// The text value of the annotation `id` among `list`, if present.
fn text_annotation(
    list: capnarena::typed::StructListReader<'_, annotation::Owned>,
    id: u64,
) -> Result<Option<String>> {
    for a in list {
        if a.get_id() == id {
            if let value::Which::Text(t) = a.get_value()?.which()? {
                return Ok(Some(t?.to_string()));
            }
        }
    }
    Ok(None)
}

/// A doc comment for the generated Rust, which must be UTF-8: the
/// reference (and capnarena-compile) keep a comment's bytes as written,
/// so bytes that are not UTF-8 become U+FFFD here.
fn opt_doc(s: &[u8]) -> Option<String> {
    if s.is_empty() {
        None
    } else {
        Some(String::from_utf8_lossy(s).into_owned())
    }
}

/// The words of a one-segment message whose root is a copy of `p`, or
/// `None` when `p` is null.
fn pointer_words(p: &PointerReader<'_>) -> Result<Option<Vec<u64>>> {
    if p.is_null() {
        return Ok(None);
    }
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.root_pointer()?.set_from(p)?;
    Ok(msg
        .segment(0)
        .map(|seg| seg.words().iter().map(|w| w.to_u64()).collect()))
}

/// Refuses a type `depth` levels down in a type of node `node` when that
/// is past [`MAX_TYPE_DEPTH`].
fn type_depth(node: u64, depth: u32) -> Result<()> {
    if depth > MAX_TYPE_DEPTH {
        return Err(Error::Limit {
            what: "levels of nesting in a type",
            node,
            found: u64::from(depth),
            limit: u64::from(MAX_TYPE_DEPTH),
        });
    }
    Ok(())
}

/// The type `t`, `depth` levels down in a type of node `node` (0 for a
/// field's or constant's own type): refused past [`MAX_TYPE_DEPTH`] before
/// going down another level, so the recursion here, and in generating code
/// for the type, stays shallow.
fn load_type(t: type_::Reader<'_>, node: u64, depth: u32) -> Result<Type> {
    use type_::Which as W;
    type_depth(node, depth)?;
    Ok(match t.which()? {
        W::Void => Type::Void,
        W::Bool => Type::Bool,
        W::Int8 => Type::Int8,
        W::Int16 => Type::Int16,
        W::Int32 => Type::Int32,
        W::Int64 => Type::Int64,
        W::Uint8 => Type::UInt8,
        W::Uint16 => Type::UInt16,
        W::Uint32 => Type::UInt32,
        W::Uint64 => Type::UInt64,
        W::Float32 => Type::Float32,
        W::Float64 => Type::Float64,
        W::Text => Type::Text,
        W::Data => Type::Data,
        W::List(l) => Type::List(Box::new(load_type(l.get_element_type()?, node, depth + 1)?)),
        W::Enum(e) => Type::Enum(e.get_type_id()),
        W::Struct(s) => Type::Struct(s.get_type_id(), load_brand(s.get_brand()?, node, depth)?),
        W::Interface(i) => {
            Type::Interface(i.get_type_id(), load_brand(i.get_brand()?, node, depth)?)
        }
        W::AnyPointer(a) => match a.which()? {
            type_::any_pointer::Which::Parameter(p) => Type::Param {
                scope: p.get_scope_id(),
                index: p.get_parameter_index(),
            },
            _ => Type::AnyPointer,
        },
    })
}

/// The brand of a struct type `depth` levels down: its bound types are a
/// level further down.
fn load_brand(b: brand::Reader<'_>, node: u64, depth: u32) -> Result<Brand> {
    let mut scopes = Vec::new();
    for scope in b.get_scopes()? {
        let bindings = match scope.which()? {
            brand::scope::Which::Inherit => None,
            brand::scope::Which::Bind(list) => Some(
                list?
                    .iter()
                    .map(|binding| match binding.which()? {
                        brand::binding::Which::Unbound => Ok(None),
                        brand::binding::Which::Type(t) => Ok(Some(load_type(t?, node, depth + 1)?)),
                    })
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        scopes.push((scope.get_scope_id(), bindings));
    }
    Ok(Brand(scopes))
}

fn load_value(v: value::Reader<'_>) -> Result<Value> {
    use value::Which as W;
    Ok(match v.which()? {
        W::Void => Value::Void,
        W::Bool(b) => Value::Bool(b),
        W::Int8(x) => Value::Int(i64::from(x) as u64),
        W::Int16(x) => Value::Int(i64::from(x) as u64),
        W::Int32(x) => Value::Int(i64::from(x) as u64),
        W::Int64(x) => Value::Int(x as u64),
        W::Uint8(x) => Value::Int(u64::from(x)),
        W::Uint16(x) => Value::Int(u64::from(x)),
        W::Uint32(x) => Value::Int(u64::from(x)),
        W::Uint64(x) => Value::Int(x),
        W::Float32(x) => Value::Float32(x.to_bits()),
        W::Float64(x) => Value::Float64(x.to_bits()),
        // The bytes as they are, UTF-8 or not (the reference accepts and
        // writes either): the union's one pointer, read without the check.
        W::Text(_) => Value::Text(v.as_struct_reader().pointer(0).get_text_bytes()?.to_vec()),
        W::Data(d) => Value::Data(d?.to_vec()),
        W::List(p) | W::Struct(p) | W::AnyPointer(p) => Value::Pointer(pointer_words(&p)?),
        W::Enum(e) => Value::Enum(e),
        W::Interface => Value::Interface,
    })
}

fn load_field(f: field::Reader<'_>, node: u64) -> Result<Field> {
    let discriminant = f.get_discriminant_value();
    let kind = match f.which()? {
        field::Which::Group(g) => FieldKind::Group {
            type_id: g.get_type_id(),
        },
        field::Which::Slot(s) => FieldKind::Slot {
            offset: s.get_offset(),
            ty: load_type(s.get_type()?, node, 0)?,
            default: load_value(s.get_default_value()?)?,
        },
    };
    Ok(Field {
        name: f.get_name()?.to_string(),
        rust_name: text_annotation(f.get_annotations()?, RUST_NAME)?,
        option: f
            .get_annotations()?
            .iter()
            .any(|a| a.get_id() == RUST_OPTION),
        code_order: f.get_code_order(),
        json: json_field(f.get_annotations()?)?,
        discriminant: (discriminant != field::NO_DISCRIMINANT).then_some(discriminant),
        kind,
        doc: None,
    })
}

/// Adds `id` to `out` unless it is there.
fn add_ref(id: u64, out: &mut Vec<u64>) {
    if !out.contains(&id) {
        out.push(id);
    }
}

/// Adds to `out` the struct, enum and interface nodes `t` names, with the
/// types its brand binds (an interface's too, which the model does not
/// keep), `depth` levels down in a type of node `node` (bounded as
/// [`load_type`] is).
fn type_refs(t: type_::Reader<'_>, node: u64, depth: u32, out: &mut Vec<u64>) -> Result<()> {
    use type_::Which as W;
    type_depth(node, depth)?;
    match t.which()? {
        W::List(l) => type_refs(l.get_element_type()?, node, depth + 1, out)?,
        W::Enum(e) => add_ref(e.get_type_id(), out),
        W::Struct(s) => {
            add_ref(s.get_type_id(), out);
            brand_refs(s.get_brand()?, node, depth, out)?;
        }
        W::Interface(i) => {
            add_ref(i.get_type_id(), out);
            brand_refs(i.get_brand()?, node, depth, out)?;
        }
        _ => {}
    }
    Ok(())
}

/// [`type_refs`] of every type `brand` binds, a level further down.
fn brand_refs(b: brand::Reader<'_>, node: u64, depth: u32, out: &mut Vec<u64>) -> Result<()> {
    for scope in b.get_scopes()? {
        if let brand::scope::Which::Bind(list) = scope.which()? {
            for binding in list? {
                if let brand::binding::Which::Type(t) = binding.which()? {
                    type_refs(t?, node, depth + 1, out)?;
                }
            }
        }
    }
    Ok(())
}

/// The struct, enum and interface nodes node `n` names: its fields'
/// types, its methods' parameter and result structs, its superclasses,
/// with the types their brands bind; each once, not itself.
fn node_refs(n: node::Reader<'_>) -> Result<Vec<u64>> {
    let id = n.get_id();
    let mut out = Vec::new();
    match n.which()? {
        node::Which::Struct(s) => {
            for f in s.get_fields()? {
                if let field::Which::Slot(slot) = f.which()? {
                    type_refs(slot.get_type()?, id, 0, &mut out)?;
                }
            }
        }
        node::Which::Interface(i) => {
            for m in i.get_methods()? {
                add_ref(m.get_param_struct_type(), &mut out);
                brand_refs(m.get_param_brand()?, id, 0, &mut out)?;
                add_ref(m.get_result_struct_type(), &mut out);
                brand_refs(m.get_result_brand()?, id, 0, &mut out)?;
            }
            for s in i.get_superclasses()? {
                add_ref(s.get_id(), &mut out);
                brand_refs(s.get_brand()?, id, 0, &mut out)?;
            }
        }
        // An annotation declaration names the types of its value.
        node::Which::Annotation(a) => type_refs(a.get_type()?, id, 0, &mut out)?,
        _ => {}
    }
    out.retain(|r| *r != id);
    Ok(out)
}

/// The annotation declarations applied to node `n`, its fields,
/// enumerants and methods, each once, in the order met.
fn annotation_refs(n: node::Reader<'_>) -> Result<Vec<u64>> {
    let mut out = Vec::new();
    let mut add = |list: capnarena::typed::StructListReader<'_, annotation::Owned>| {
        for a in list {
            add_ref(a.get_id(), &mut out);
        }
    };
    add(n.get_annotations()?);
    match n.which()? {
        node::Which::Struct(s) => {
            for f in s.get_fields()? {
                add(f.get_annotations()?);
            }
        }
        node::Which::Enum(e) => {
            for x in e.get_enumerants()? {
                add(x.get_annotations()?);
            }
        }
        node::Which::Interface(i) => {
            for m in i.get_methods()? {
                add(m.get_annotations()?);
            }
        }
        _ => {}
    }
    Ok(out)
}

/// The bytes of a one-segment message whose root is a copy of node `n`.
fn encode_node(n: node::Reader<'_>) -> Result<Vec<u8>> {
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.root_pointer()?.set_struct(&n.as_struct_reader())?;
    Ok(msg
        .segment(0)
        .map(|seg| {
            seg.words()
                .iter()
                .flat_map(|w| w.to_u64().to_le_bytes())
                .collect()
        })
        .unwrap_or_default())
}

fn load_node(n: node::Reader<'_>, encode: bool) -> Result<Node> {
    let id = n.get_id();
    let nested = n
        .get_nested_nodes()?
        .iter()
        .map(|e| Ok((e.get_name()?.to_string(), e.get_id())))
        .collect::<Result<Vec<_>>>()?;
    let kind = match n.which()? {
        node::Which::File => NodeKind::File,
        node::Which::Struct(s) => NodeKind::Struct(StructNode {
            data_words: s.get_data_word_count(),
            pointers: s.get_pointer_count(),
            is_group: s.get_is_group(),
            discriminant_count: s.get_discriminant_count(),
            discriminant_offset: s.get_discriminant_offset(),
            fields: s
                .get_fields()?
                .iter()
                .map(|f| load_field(f, id))
                .collect::<Result<_>>()?,
        }),
        node::Which::Enum(e) => NodeKind::Enum(
            e.get_enumerants()?
                .iter()
                .map(|e| {
                    Ok(Enumerant {
                        name: e.get_name()?.to_string(),
                        rust_name: text_annotation(e.get_annotations()?, RUST_NAME)?,
                        json_name: text_annotation(e.get_annotations()?, JSON_NAME)?,
                        doc: None,
                    })
                })
                .collect::<Result<_>>()?,
        ),
        node::Which::Interface(i) => NodeKind::Interface(
            i.get_methods()?
                .iter()
                .map(|m| {
                    Ok(Method {
                        name: m.get_name()?.to_string(),
                        param_struct: m.get_param_struct_type(),
                        result_struct: m.get_result_struct_type(),
                    })
                })
                .collect::<Result<_>>()?,
        ),
        node::Which::Const(c) => NodeKind::Const {
            ty: load_type(c.get_type()?, id, 0)?,
            value: load_value(c.get_value()?)?,
        },
        node::Which::Annotation(_) => NodeKind::Annotation,
    };
    Ok(Node {
        id,
        rust_name: text_annotation(n.get_annotations()?, RUST_NAME)?,
        parent_module: text_annotation(n.get_annotations()?, RUST_PARENT_MODULE)?,
        display_name: n.get_display_name()?.to_string(),
        prefix_len: n.get_display_name_prefix_length(),
        scope_id: n.get_scope_id(),
        nested,
        parameters: n
            .get_parameters()?
            .iter()
            .map(|p| Ok(p.get_name()?.to_string()))
            .collect::<Result<_>>()?,
        superclasses: match n.which()? {
            node::Which::Interface(i) => i.get_superclasses()?.iter().map(|s| s.get_id()).collect(),
            _ => Vec::new(),
        },
        refs: if encode { node_refs(n)? } else { Vec::new() },
        annotation_refs: if encode {
            annotation_refs(n)?
        } else {
            Vec::new()
        },
        encoded: if encode { Some(encode_node(n)?) } else { None },
        json_discriminator: json_discriminator(n.get_annotations()?)?,
        kind,
        doc: None,
    })
}

/// Reads a request into the model; with `encode`, each node's bytes too
/// (`Options::schema_nodes`).
pub fn load(request: &MessageReader<'_>, encode: bool) -> Result<Schema> {
    let root = request.get_root::<code_generator_request::Reader<'_>>()?;
    let mut schema = Schema::default();
    for n in root.get_nodes()? {
        let node = load_node(n, encode)?;
        schema.nodes.insert(node.id, node);
    }
    for info in root.get_source_info()? {
        let Some(node) = schema.nodes.get_mut(&info.get_id()) else {
            continue;
        };
        node.doc = opt_doc(info.get_doc_comment_bytes()?);
        for (m, member) in info.get_members()?.iter().enumerate() {
            let doc = opt_doc(member.get_doc_comment_bytes()?);
            match &mut node.kind {
                NodeKind::Struct(s) => {
                    if let Some(f) = s.fields.get_mut(m) {
                        f.doc = doc;
                    }
                }
                NodeKind::Enum(e) => {
                    if let Some(e) = e.get_mut(m) {
                        e.doc = doc;
                    }
                }
                _ => {}
            }
        }
    }
    for f in root.get_requested_files()? {
        schema.requested.push(RequestedFile {
            id: f.get_id(),
            filename: f.get_filename()?.to_string(),
        });
    }
    Ok(schema)
}
