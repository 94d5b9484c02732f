//! The check at run time: a peer's schema, as it sent it, against ours,
//! restricted to the types the two sides exchange.

use std::collections::HashSet;

use capnarena::typed::SchemaNode;
use capnarena::{Message, MessageReader, SingleSegmentArena};
use capnarena_codegen::schema_capnp::code_generator_request;

use super::compare::{Comparer, Side};
use super::source::Positions;
use super::{CompatSchema, Finding, Location, Report, Rule};
use crate::error::{Error, Result};
use crate::load;
use crate::model::*;
use crate::schema::LoadedSchema;

/// Bounds on a schema a peer sends ([`check_peer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerLimits {
    /// Bytes of the framed request. Loading takes memory in proportion
    /// to them. Default 1 MiB: schema.capnp and rpc.capnp together are
    /// about 60 KiB.
    pub max_bytes: usize,
    /// Nodes in the request. Default 4096.
    pub max_nodes: u32,
}

impl Default for PeerLimits {
    fn default() -> PeerLimits {
        PeerLimits {
            max_bytes: 1 << 20,
            max_nodes: 4096,
        }
    }
}

/// The request a program sends as its schema for [`check_peer`]: the
/// nodes of the generated types `roots` and of every type they name
/// (generated with schema nodes, `Config::schema_nodes(true)`), as a
/// framed CodeGeneratorRequest with no requested files. The peer loads
/// it as [`LoadedSchema::from_generated`] loads the same roots.
///
/// # Errors
/// As [`LoadedSchema::from_generated`].
pub fn request_from_generated(
    roots: impl IntoIterator<Item = &'static SchemaNode>,
) -> Result<Vec<u8>> {
    crate::generated::with_generated_nodes(roots, |nodes| {
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut request: code_generator_request::Builder<'_, _> = msg.init_root()?;
        let count = u32::try_from(nodes.len()).map_err(|_| Error::Limit {
            what: "generated nodes",
            node: 0,
            found: nodes.len() as u64,
            limit: u64::from(u32::MAX),
        })?;
        let mut list = request.init_nodes(count)?;
        for (i, node) in (0..count).zip(nodes) {
            list.set(i, node)?;
        }
        let mut out = Vec::new();
        msg.append_to(&mut out);
        Ok(out)
    })
}

/// Loads the schema a peer sent: a framed CodeGeneratorRequest, whose
/// requested files may be empty (any set of nodes, such as generated
/// code's). The bytes are copied once when unaligned.
///
/// # Errors
/// [`Error::Limit`] when the bytes or the node count exceed `limits`;
/// otherwise as [`LoadedSchema::from_request_bytes`]: a malformed
/// message, or a schema whose types name missing nodes.
pub fn load_peer(bytes: &[u8], limits: &PeerLimits) -> Result<LoadedSchema> {
    if bytes.len() > limits.max_bytes {
        return Err(Error::Limit {
            what: "bytes of a peer's schema",
            node: 0,
            found: bytes.len() as u64,
            limit: limits.max_bytes as u64,
        });
    }
    let words = capnarena::words_from_bytes(bytes)?;
    let size: usize = words.len();
    let reader = MessageReader::from_words(&words, load::reader_options(size))?;
    let request: code_generator_request::Reader<'_> = reader.get_root()?;
    let nodes = request.get_nodes()?.len();
    if nodes > limits.max_nodes {
        return Err(Error::Limit {
            what: "nodes of a peer's schema",
            node: 0,
            found: u64::from(nodes),
            limit: u64::from(limits.max_nodes),
        });
    }
    LoadedSchema::from_request(request)
}

/// Compares the schema a peer sent (`theirs`, a framed
/// CodeGeneratorRequest) with `ours`, for the types `roots` the two
/// sides exchange and every type those name. The peer's schema is the
/// report's old side and ours the new: [`Breaks::new_reading_old`](super::Breaks)
/// is us reading what they send, `old_reading_new` them reading ours.
///
/// ```
/// use capnarena_dynamic::LoadedSchema;
/// use capnarena_dynamic::compat::{self, PeerLimits, Rule};
///
/// let compile = |text: &str| {
///     capnarena_compiler::Compiler::new()
///         .source("/app.capnp", text.as_bytes().to_vec())
///         .file("/app.capnp")
///         .compile()
/// };
/// let v1 = "@0xd3bd7ff1e1ed8b6a;\nstruct Item { name @0 :Text; count @1 :UInt32; }\nstruct Other { x @0 :Int8; }\n";
/// let v2 = v1.replace("count @1 :UInt32", "count @1 :UInt64").replace("x @0 :Int8", "x @0 :Text");
/// let ours = LoadedSchema::from_request_bytes(&compile(v1)?)?;
/// let item = ours.schema().find("app.capnp:Item")?;
/// let theirs = compile(&v2)?; // what the peer sent
/// let report = compat::check_peer(&ours, &theirs, &[item], &PeerLimits::default())?;
/// // Only Item is exchanged: Other's change is not reported.
/// let rules: Vec<Rule> = report.findings.iter().map(|f| f.rule).collect();
/// assert_eq!(rules, [Rule::FieldTypeChanged]);
/// assert!(!report.is_wire_compatible(&[]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The work is in proportion to the two schemas' sizes, bounded by
/// `limits`, so it can run for each connection. A root the peer lacks is
/// [`Rule::RootMissing`]; one we lack is a removed type.
///
/// # Errors
/// As [`load_peer`]: the peer's schema is over `limits` or malformed.
pub fn check_peer(
    ours: &LoadedSchema,
    theirs: &[u8],
    roots: &[u64],
    limits: &PeerLimits,
) -> Result<Report> {
    let theirs = load_peer(theirs, limits)?;
    let none = Positions::default();
    let (old, new) = (
        Side {
            loaded: &theirs,
            positions: &none,
        },
        Side {
            loaded: ours,
            positions: &none,
        },
    );
    Ok(reachable_report(old, new, roots))
}

/// [`check`](super::check) restricted to the types `roots` and every
/// type reachable from them in either schema: through fields, list
/// elements, generic bindings, method parameters and results, and
/// superclasses.
pub fn check_reachable(old: &CompatSchema, new: &CompatSchema, roots: &[u64]) -> Report {
    reachable_report(old.side(), new.side(), roots)
}

fn reachable_report(old: Side<'_>, new: Side<'_>, roots: &[u64]) -> Report {
    let (o, n) = (old.loaded.store(), new.loaded.store());
    let mut ids = reachable(o, roots);
    ids.extend(reachable(n, roots));
    let mut findings = Comparer::new(old, new).only(&ids).run();
    // A root only the new side has is not an addition: the old side
    // cannot take part in the exchange.
    for root in roots {
        if o.nodes.contains_key(root) {
            continue;
        }
        let at = n.nodes.get(root).map(|node| Location {
            name: node.display_name.clone(),
            position: None,
        });
        if let Some(at) = &at {
            findings.retain(|f| !(f.rule == Rule::TypeAdded && f.new.as_ref() == Some(at)));
        }
        let name = at
            .as_ref()
            .map_or_else(|| format!("{root:#018x}"), |a| a.name.clone());
        let message = format!(
            "{name} is exchanged, but the old side's schema has no node {root:#018x}{}",
            if at.is_none() {
                " (nor has the new side's)"
            } else {
                ""
            }
        );
        findings.push(Finding {
            rule: Rule::RootMissing,
            old: None,
            new: at,
            message,
        });
    }
    Report { findings }
}

/// The ids reachable from `roots` in `store` (roots included, present
/// or not), walked without recursion; each node is visited once.
fn reachable(store: &Store, roots: &[u64]) -> HashSet<u64> {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut nodes: Vec<u64> = roots.to_vec();
    let mut types: Vec<&RawType> = Vec::new();
    while let Some(id) = nodes.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(node) = store.nodes.get(&id) else {
            continue;
        };
        match &node.kind {
            NodeKind::Struct(s) => {
                for f in &s.fields {
                    match &f.kind {
                        FieldKind::Slot { ty, .. } => types.push(ty),
                        FieldKind::Group(g) => nodes.push(*g),
                    }
                }
            }
            NodeKind::Interface(i) => {
                for m in &i.methods {
                    nodes.push(m.param_struct);
                    nodes.push(m.result_struct);
                    push_brand(&m.param_brand, &mut types);
                    push_brand(&m.result_brand, &mut types);
                }
                for (id, brand) in &i.superclasses {
                    nodes.push(*id);
                    push_brand(brand, &mut types);
                }
            }
            NodeKind::Enum(_) | NodeKind::File | NodeKind::Const(_) | NodeKind::Annotation(_) => {}
        }
        // Each type is taken apart once: the work is the size of the
        // types written in the node.
        while let Some(ty) = types.pop() {
            match ty {
                RawType::List(inner) => types.push(inner),
                RawType::Enum(id) => nodes.push(*id),
                RawType::Struct(id, brand) | RawType::Interface(id, brand) => {
                    nodes.push(*id);
                    push_brand(brand, &mut types);
                }
                _ => {}
            }
        }
    }
    seen
}

fn push_brand<'s>(brand: &'s RawBrand, types: &mut Vec<&'s RawType>) {
    for (_, bindings) in &brand.0 {
        types.extend(bindings.iter().flatten().flatten());
    }
}
