//! Loads a CodeGeneratorRequest into the [`Store`], reading it with the
//! typed `schema.capnp` readers of `capnarena-codegen`, then checks what
//! the dynamic readers and builders rely on (see [`check`]).
//!
//! The request is untrusted input: it is read with a traversal limit of
//! [`TRAVERSAL_PER_WORD`] times its size and a nesting limit of
//! [`NESTING_LIMIT`], types nest at most [`MAX_TYPE_DEPTH`] levels and
//! groups [`MAX_GROUP_DEPTH`], so loading takes time and memory in
//! proportion to the request and bounded stack.

use std::collections::{HashMap, HashSet};

use capnarena::{
    ElementSize, Message, MessageReader, PointerReader, ReaderOptions, SingleSegmentArena, Word,
};
use capnarena_codegen::schema_capnp::{
    annotation, brand, code_generator_request, field, node, type_, value,
};

use crate::error::{Error, Result};
use crate::model::*;

/// Levels of a type as the request spells it: each `List` and each type
/// bound as a generic argument adds one.
pub const MAX_TYPE_DEPTH: u32 = 64;

/// Levels of groups inside groups below a struct.
pub const MAX_GROUP_DEPTH: u64 = 64;

/// Pointers nested in the request, as read.
const NESTING_LIMIT: u32 = 1024;

/// Times its own size in words that a request may be traversed: it is
/// read once and each pointer value copied once.
const TRAVERSAL_PER_WORD: u64 = 4;

/// How a request of `words` is read.
pub(crate) fn reader_options(words: usize) -> ReaderOptions {
    ReaderOptions::new()
        .traversal_limit_words((words as u64).saturating_mul(TRAVERSAL_PER_WORD))
        .nesting_limit(NESTING_LIMIT)
}

/// Loads the request whose root is `request`.
pub(crate) fn load(request: code_generator_request::Reader<'_>) -> Result<Store> {
    let mut files = Vec::new();
    for f in request.get_requested_files()? {
        files.push((
            f.get_id(),
            String::from_utf8_lossy(f.get_filename_bytes()?).into_owned(),
        ));
    }
    load_nodes(request.get_nodes()?, files)
}

/// Loads `nodes`, in their order (the stored values follow it), with the
/// requested files `files`.
pub(crate) fn load_nodes<'r>(
    nodes_in: impl IntoIterator<Item = node::Reader<'r>>,
    files: Vec<(u64, String)>,
) -> Result<Store> {
    let mut loader = Loader { values: Vec::new() };
    let mut nodes = HashMap::new();
    let mut names = HashMap::new();
    for n in nodes_in {
        let node = loader.node(n)?;
        names.insert(node.display_name.clone(), node.id);
        let id = node.id;
        if nodes.insert(id, node).is_some() {
            return Err(Error::DuplicateNode { id });
        }
    }
    let values = store_values(&loader.values)?;
    let store = Store {
        nodes,
        names,
        files,
        values,
    };
    check(&store)?;
    Ok(store)
}

/// The pointer values, copied into one framed message whose root is a
/// list of them and a last, null pointer.
fn store_values(values: &[PointerReader<'_>]) -> Result<Vec<Word>> {
    let mut msg = Message::new(SingleSegmentArena::new());
    // One more, left null: what a null default reads from.
    let count = u32::try_from(values.len() + 1).map_err(|_| Error::Limit {
        what: "pointer values",
        node: 0,
        found: values.len() as u64,
        limit: u64::from(u32::MAX - 1),
    })?;
    let mut list = msg.root_pointer()?.init_list(ElementSize::Pointer, count)?;
    for (i, p) in (0..count).zip(values) {
        list.pointer(i).set_from(p)?;
    }
    let mut bytes = Vec::new();
    msg.append_to(&mut bytes);
    Ok(capnarena::words_from_bytes(&bytes)?)
}

/// A reader over the stored values.
pub(crate) fn values_reader(words: &[Word]) -> Result<MessageReader<'_>> {
    // The values were copied by this crate and are read again on every
    // use of a default: the traversal limit would only count uses.
    Ok(MessageReader::from_words(
        words,
        ReaderOptions::new()
            .traversal_limit_words(u64::MAX)
            .nesting_limit(NESTING_LIMIT),
    )?)
}

struct Loader<'r> {
    values: Vec<PointerReader<'r>>,
}

fn text(bytes: capnarena::Result<&[u8]>) -> Result<String> {
    Ok(String::from_utf8_lossy(bytes?).into_owned())
}

impl<'r> Loader<'r> {
    fn node(&mut self, n: node::Reader<'r>) -> Result<Node> {
        let id = n.get_id();
        let mut parameters = Vec::new();
        for p in n.get_parameters()? {
            parameters.push(text(p.get_name_bytes())?);
        }
        let mut nested = Vec::new();
        for x in n.get_nested_nodes()? {
            nested.push((text(x.get_name_bytes())?, x.get_id()));
        }
        let annotations = self.annotations(n.get_annotations()?, id)?;
        let kind = match n.which()? {
            node::Which::File => NodeKind::File,
            node::Which::Struct(s) => {
                let mut fields = Vec::new();
                for f in s.get_fields()? {
                    fields.push(self.field(f, id)?);
                }
                NodeKind::Struct(StructNode {
                    data_words: s.get_data_word_count(),
                    pointers: s.get_pointer_count(),
                    is_group: s.get_is_group(),
                    discriminant_count: s.get_discriminant_count(),
                    discriminant_offset: s.get_discriminant_offset(),
                    fields,
                })
            }
            node::Which::Enum(e) => {
                let mut enumerants = Vec::new();
                for x in e.get_enumerants()? {
                    enumerants.push(EnumerantNode {
                        name: text(x.get_name_bytes())?,
                        code_order: x.get_code_order(),
                        annotations: self.annotations(x.get_annotations()?, id)?,
                    });
                }
                NodeKind::Enum(EnumNode { enumerants })
            }
            node::Which::Interface(i) => {
                let mut methods = Vec::new();
                for m in i.get_methods()? {
                    let mut implicit_parameters = Vec::new();
                    for p in m.get_implicit_parameters()? {
                        implicit_parameters.push(text(p.get_name_bytes())?);
                    }
                    methods.push(MethodNode {
                        name: text(m.get_name_bytes())?,
                        code_order: m.get_code_order(),
                        implicit_parameters,
                        param_struct: m.get_param_struct_type(),
                        param_brand: load_brand(m.get_param_brand()?, id, 0)?,
                        result_struct: m.get_result_struct_type(),
                        result_brand: load_brand(m.get_result_brand()?, id, 0)?,
                        annotations: self.annotations(m.get_annotations()?, id)?,
                    });
                }
                let mut superclasses = Vec::new();
                for s in i.get_superclasses()? {
                    superclasses.push((s.get_id(), load_brand(s.get_brand()?, id, 0)?));
                }
                NodeKind::Interface(InterfaceNode {
                    methods,
                    superclasses,
                })
            }
            node::Which::Const(c) => NodeKind::Const(ConstNode {
                ty: load_type(c.get_type()?, id, 0)?,
                value: self.value(c.get_value()?)?,
            }),
            node::Which::Annotation(a) => NodeKind::Annotation(AnnotationNode {
                ty: load_type(a.get_type()?, id, 0)?,
                targets: [
                    a.get_targets_file(),
                    a.get_targets_const(),
                    a.get_targets_enum(),
                    a.get_targets_enumerant(),
                    a.get_targets_struct(),
                    a.get_targets_field(),
                    a.get_targets_union(),
                    a.get_targets_group(),
                    a.get_targets_interface(),
                    a.get_targets_method(),
                    a.get_targets_param(),
                    a.get_targets_annotation(),
                ],
            }),
        };
        Ok(Node {
            id,
            display_name: text(n.get_display_name_bytes())?,
            prefix_len: n.get_display_name_prefix_length(),
            scope_id: n.get_scope_id(),
            parameters,
            is_generic: n.get_is_generic(),
            nested,
            annotations,
            kind,
        })
    }

    fn field(&mut self, f: field::Reader<'r>, node: u64) -> Result<FieldNode> {
        let discriminant = match f.get_discriminant_value() {
            field::NO_DISCRIMINANT => None,
            d => Some(d),
        };
        let ordinal = match f.get_ordinal().which()? {
            field::ordinal::Which::Implicit => None,
            field::ordinal::Which::Explicit(n) => Some(n),
        };
        let kind = match f.which()? {
            field::Which::Slot(s) => FieldKind::Slot {
                offset: s.get_offset(),
                ty: load_type(s.get_type()?, node, 0)?,
                default: self.value(s.get_default_value()?)?,
                had_explicit_default: s.get_had_explicit_default(),
            },
            field::Which::Group(g) => FieldKind::Group(g.get_type_id()),
        };
        Ok(FieldNode {
            name: text(f.get_name_bytes())?,
            code_order: f.get_code_order(),
            discriminant,
            ordinal,
            annotations: self.annotations(f.get_annotations()?, node)?,
            kind,
        })
    }

    fn annotations(
        &mut self,
        list: capnarena::typed::StructListReader<'r, annotation::Owned>,
        node: u64,
    ) -> Result<Vec<AnnotationUse>> {
        let mut out = Vec::with_capacity(list.len() as usize);
        for a in list {
            out.push(AnnotationUse {
                id: a.get_id(),
                value: self.value(a.get_value()?)?,
                brand: load_brand(a.get_brand()?, node, 0)?,
            });
        }
        Ok(out)
    }

    fn value(&mut self, v: value::Reader<'r>) -> Result<RawValue> {
        use value::Which as W;
        let kind = match v.which()? {
            W::Void => return Ok(RawValue::Void),
            W::Bool(b) => return Ok(RawValue::Bool(b)),
            W::Int8(x) => return Ok(RawValue::Int8(x)),
            W::Int16(x) => return Ok(RawValue::Int16(x)),
            W::Int32(x) => return Ok(RawValue::Int32(x)),
            W::Int64(x) => return Ok(RawValue::Int64(x)),
            W::Uint8(x) => return Ok(RawValue::UInt8(x)),
            W::Uint16(x) => return Ok(RawValue::UInt16(x)),
            W::Uint32(x) => return Ok(RawValue::UInt32(x)),
            W::Uint64(x) => return Ok(RawValue::UInt64(x)),
            W::Float32(x) => return Ok(RawValue::Float32(x.to_bits())),
            W::Float64(x) => return Ok(RawValue::Float64(x.to_bits())),
            W::Enum(x) => return Ok(RawValue::Enum(x)),
            W::Interface => return Ok(RawValue::Interface),
            // Every pointer member of `Value` is its pointer 0; Text is
            // kept as its bytes (a default need not be UTF-8).
            W::Text(_) => "text",
            W::Data(_) => "data",
            W::List(_) => "list",
            W::Struct(_) => "struct",
            W::AnyPointer(_) => "anyPointer",
        };
        let p = v.as_struct_reader().pointer(0);
        if p.is_null() {
            return Ok(RawValue::Pointer(kind, None));
        }
        let index = u32::try_from(self.values.len()).map_err(|_| Error::Limit {
            what: "pointer values",
            node: 0,
            found: self.values.len() as u64,
            limit: u64::from(u32::MAX),
        })?;
        self.values.push(p);
        Ok(RawValue::Pointer(kind, Some(index)))
    }
}

/// The type `t`, `depth` levels down in a type of node `node`.
fn load_type(t: type_::Reader<'_>, node: u64, depth: u32) -> Result<RawType> {
    use type_::Which as W;
    if depth > MAX_TYPE_DEPTH {
        return Err(Error::Limit {
            what: "levels of nesting in a type",
            node,
            found: u64::from(depth),
            limit: u64::from(MAX_TYPE_DEPTH),
        });
    }
    Ok(match t.which()? {
        W::Void => RawType::Void,
        W::Bool => RawType::Bool,
        W::Int8 => RawType::Int8,
        W::Int16 => RawType::Int16,
        W::Int32 => RawType::Int32,
        W::Int64 => RawType::Int64,
        W::Uint8 => RawType::UInt8,
        W::Uint16 => RawType::UInt16,
        W::Uint32 => RawType::UInt32,
        W::Uint64 => RawType::UInt64,
        W::Float32 => RawType::Float32,
        W::Float64 => RawType::Float64,
        W::Text => RawType::Text,
        W::Data => RawType::Data,
        W::List(l) => RawType::List(Box::new(load_type(l.get_element_type()?, node, depth + 1)?)),
        W::Enum(e) => RawType::Enum(e.get_type_id()),
        W::Struct(s) => RawType::Struct(s.get_type_id(), load_brand(s.get_brand()?, node, depth)?),
        W::Interface(i) => {
            RawType::Interface(i.get_type_id(), load_brand(i.get_brand()?, node, depth)?)
        }
        W::AnyPointer(a) => match a.which()? {
            type_::any_pointer::Which::Parameter(p) => RawType::Param {
                scope: p.get_scope_id(),
                index: p.get_parameter_index(),
            },
            type_::any_pointer::Which::ImplicitMethodParameter(_) => RawType::ImplicitMethodParam,
            type_::any_pointer::Which::Unconstrained(_) => RawType::AnyPointer,
        },
    })
}

/// A brand `depth` levels down: its bound types are a level further down.
fn load_brand(b: brand::Reader<'_>, node: u64, depth: u32) -> Result<RawBrand> {
    let mut scopes = Vec::new();
    for scope in b.get_scopes()? {
        let bindings = match scope.which()? {
            brand::scope::Which::Inherit => None,
            brand::scope::Which::Bind(list) => {
                let mut bound = Vec::new();
                for binding in list? {
                    bound.push(match binding.which()? {
                        brand::binding::Which::Unbound => None,
                        brand::binding::Which::Type(t) => Some(load_type(t?, node, depth + 1)?),
                    });
                }
                Some(bound)
            }
        };
        scopes.push((scope.get_scope_id(), bindings));
    }
    Ok(RawBrand(scopes))
}

/// Checks what reading and building by the schema rely on, so that a
/// dynamic reader or builder never indexes outside a struct or loops:
/// every field lies inside its struct's sections, every union's
/// discriminant too; every group is a group of the struct that uses it
/// (same scope, same size, used once), nested at most
/// [`MAX_GROUP_DEPTH`] levels; every type names a node of its kind; every
/// default value and constant is of its type's kind.
pub(crate) fn check(store: &Store) -> Result<()> {
    let mut groups_used = HashSet::new();
    for node in store.nodes.values() {
        match &node.kind {
            NodeKind::Struct(s) => check_struct(store, node, s, &mut groups_used)?,
            NodeKind::Const(c) => {
                check_type(store, &c.ty, node.id)?;
                check_value(&c.ty, &c.value, node.id)?;
            }
            NodeKind::Annotation(a) => check_type(store, &a.ty, node.id)?,
            NodeKind::Interface(i) => {
                for m in &i.methods {
                    for (id, brand) in [
                        (m.param_struct, &m.param_brand),
                        (m.result_struct, &m.result_brand),
                    ] {
                        expect_kind(store, id, "struct")?;
                        check_brand(store, brand, node.id)?;
                    }
                }
                for (id, brand) in &i.superclasses {
                    expect_kind(store, *id, "interface")?;
                    check_brand(store, brand, node.id)?;
                }
            }
            NodeKind::File | NodeKind::Enum(_) => {}
        }
    }
    Ok(())
}

fn check_struct(
    store: &Store,
    node: &Node,
    s: &StructNode,
    groups_used: &mut HashSet<u64>,
) -> Result<()> {
    let data_bits = u64::from(s.data_words) * 64;
    if s.discriminant_count > 0 {
        let end = (u64::from(s.discriminant_offset) + 1) * 16;
        if end > data_bits {
            return Err(Error::FieldOutOfBounds {
                struct_id: node.id,
                field: u32::MAX,
                what: "discriminant offset",
                offset: s.discriminant_offset,
                bits: 16,
                section: data_bits,
            });
        }
    }
    if s.is_group {
        // The chain of groups above this one ends at a struct within the
        // bound (so walking groups down from any struct is bounded too).
        let mut parent = store.nodes.get(&node.scope_id);
        let mut depth = 1;
        while let Some(p) = parent {
            let NodeKind::Struct(ps) = &p.kind else { break };
            if !ps.is_group {
                break;
            }
            depth += 1;
            if depth > MAX_GROUP_DEPTH {
                return Err(Error::Limit {
                    what: "levels of groups",
                    node: node.id,
                    found: depth,
                    limit: MAX_GROUP_DEPTH,
                });
            }
            parent = store.nodes.get(&p.scope_id);
        }
    }
    for (index, f) in s.fields.iter().enumerate() {
        let index = index as u32;
        match &f.kind {
            FieldKind::Slot {
                offset,
                ty,
                default,
                ..
            } => {
                check_type(store, ty, node.id)?;
                check_value(ty, default, node.id)?;
                let (bits, section, what) = match ty.data_bits() {
                    Some(0) => continue,
                    Some(bits) => (bits, data_bits, "data offset"),
                    None => (64, u64::from(s.pointers) * 64, "pointer"),
                };
                if (u64::from(*offset) + 1) * u64::from(bits) > section {
                    return Err(Error::FieldOutOfBounds {
                        struct_id: node.id,
                        field: index,
                        what,
                        offset: *offset,
                        bits,
                        section,
                    });
                }
            }
            FieldKind::Group(g) => {
                let bad = |problem: String| Error::BadGroup {
                    group: *g,
                    parent: node.id,
                    field: index,
                    problem,
                };
                let group = store.nodes.get(g).ok_or(Error::MissingNode { id: *g })?;
                let NodeKind::Struct(gs) = &group.kind else {
                    return Err(Error::WrongNodeKind {
                        id: *g,
                        expected: "struct",
                        found: group.kind.name(),
                    });
                };
                if !gs.is_group {
                    return Err(bad("the node is not a group".into()));
                }
                if group.scope_id != node.id {
                    return Err(bad(format!("its scope is {:#018x}", group.scope_id)));
                }
                if (gs.data_words, gs.pointers) != (s.data_words, s.pointers) {
                    return Err(bad(format!(
                        "it is {} data words and {} pointers, its parent {} and {}",
                        gs.data_words, gs.pointers, s.data_words, s.pointers
                    )));
                }
                if !groups_used.insert(*g) {
                    return Err(bad("another field uses it too".into()));
                }
            }
        }
    }
    Ok(())
}

fn expect_kind(store: &Store, id: u64, expected: &'static str) -> Result<()> {
    let node = store.nodes.get(&id).ok_or(Error::MissingNode { id })?;
    if node.kind.name() != expected {
        return Err(Error::WrongNodeKind {
            id,
            expected,
            found: node.kind.name(),
        });
    }
    Ok(())
}

/// Every node `ty` names exists and is of its kind (recursion bounded by
/// [`MAX_TYPE_DEPTH`], checked at load).
fn check_type(store: &Store, ty: &RawType, node: u64) -> Result<()> {
    match ty {
        RawType::List(t) => check_type(store, t, node),
        RawType::Enum(id) => expect_kind(store, *id, "enum"),
        RawType::Struct(id, brand) => {
            expect_kind(store, *id, "struct")?;
            check_brand(store, brand, node)
        }
        RawType::Interface(id, brand) => {
            expect_kind(store, *id, "interface")?;
            check_brand(store, brand, node)
        }
        _ => Ok(()),
    }
}

fn check_brand(store: &Store, brand: &RawBrand, node: u64) -> Result<()> {
    for (_, bindings) in &brand.0 {
        for t in bindings.iter().flatten().flatten() {
            check_type(store, t, node)?;
        }
    }
    Ok(())
}

/// The value is of the kind its type needs.
pub(crate) fn check_value(ty: &RawType, value: &RawValue, node: u64) -> Result<()> {
    let fits = match (ty, value) {
        (RawType::Void, RawValue::Void)
        | (RawType::Bool, RawValue::Bool(_))
        | (RawType::Int8, RawValue::Int8(_))
        | (RawType::Int16, RawValue::Int16(_))
        | (RawType::Int32, RawValue::Int32(_))
        | (RawType::Int64, RawValue::Int64(_))
        | (RawType::UInt8, RawValue::UInt8(_))
        | (RawType::UInt16, RawValue::UInt16(_))
        | (RawType::UInt32, RawValue::UInt32(_))
        | (RawType::UInt64, RawValue::UInt64(_))
        | (RawType::Float32, RawValue::Float32(_))
        | (RawType::Float64, RawValue::Float64(_))
        | (RawType::Enum(_), RawValue::Enum(_))
        | (RawType::Interface(..), RawValue::Interface) => true,
        (RawType::Text, RawValue::Pointer(k, _)) => *k == "text",
        (RawType::Data, RawValue::Pointer(k, _)) => *k == "data",
        (RawType::List(_), RawValue::Pointer(k, _)) => *k == "list",
        (RawType::Struct(..), RawValue::Pointer(k, _)) => *k == "struct",
        (
            RawType::AnyPointer | RawType::Param { .. } | RawType::ImplicitMethodParam,
            RawValue::Pointer(..),
        ) => true,
        // A field of a generic parameter's type has a null default of any
        // pointer kind; an interface field's default is `interface`.
        _ => false,
    };
    if fits {
        Ok(())
    } else {
        Err(Error::BadValue {
            node,
            expected: format!("{ty:?}"),
            found: value.kind(),
        })
    }
}
