//! With the `schema_nodes` option: each struct's, enum's and interface's
//! schema node compiled in (`typed::SchemaNode`, handed out through
//! `typed::HasSchema`), the builders' `typed::IntoStructBuilder`, and each
//! file's `SCHEMA_NODES`.

use super::Generator;
use super::writer::Writer;
use crate::Error;
use crate::model::*;

/// The name of the file module's list of every node of the file.
pub(super) const FILE_LIST: &str = "SCHEMA_NODES";

/// Names the option adds to every scope module's namespace.
pub(super) const RESERVED: &[&str] = &[FILE_LIST];

/// `StreamResult` of `/capnp/stream.capnp`: the result struct of every
/// `-> stream` method, which the compiler names without the schema
/// importing its file (so the user may not generate it).
const STREAM_RESULT: u64 = 0x995f9a3377c0b16e;

impl Generator<'_> {
    /// The `HasSchema` and `Introspect` impls of `ty`, generic over the
    /// parameters `params` (scope, index, name; the node's and its
    /// scopes'), for node `node`, written at `depth` modules below file
    /// `file`'s module.
    pub(super) fn has_schema_impl(
        &self,
        out: &mut Writer,
        node: &Node,
        params: &[(u64, u16, String)],
        ty: &str,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let impl_head = if params.is_empty() {
            "impl".to_string()
        } else {
            let bounds: Vec<String> = params
                .iter()
                .map(|(_, _, p)| format!("{p}: {rt}::typed::Owned + {rt}::typed::Introspect"))
                .collect();
            format!("impl<{}>", bounds.join(", "))
        };
        // The node, then its groups (depth first, in field order), whose
        // types this node's dependencies include.
        let mut nodes = Vec::new();
        let mut refs = Vec::new();
        let mut annotations: Vec<u64> = Vec::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let bytes = n.encoded.as_ref().ok_or(Error::Unsupported {
                what: format!("the schema node of {:#x}: not encoded", n.id),
            })?;
            nodes.push(byte_string(bytes));
            refs.extend(n.refs.iter().copied());
            for a in &n.annotation_refs {
                if !annotations.contains(a) {
                    annotations.push(*a);
                }
            }
            if let NodeKind::Struct(s) = &n.kind {
                for f in s.fields.iter().rev() {
                    if let FieldKind::Group { type_id } = f.kind {
                        stack.push(self.node(type_id)?);
                    }
                }
            }
        }
        let own: Vec<u64> = self.group_ids(node)?;
        let mut deps = Vec::new();
        // StreamResult's node, when written here rather than named.
        let mut stream_result = None;
        for id in refs {
            if id == node.id || own.contains(&id) {
                continue;
            }
            let dep = if id == STREAM_RESULT && !self.has_module(id) {
                let n = self.node(id)?;
                let bytes = n.encoded.as_ref().ok_or(Error::Unsupported {
                    what: format!("the schema node of {id:#x}: not encoded"),
                })?;
                stream_result = Some(byte_string(bytes));
                "stream_result".to_string()
            } else {
                format!(
                    "<{} as HasSchema>::schema_node",
                    self.schema_type(id, file, depth)?
                )
            };
            if !deps.contains(&dep) {
                deps.push(dep);
            }
        }
        // The declarations of the annotations applied here, written here
        // (their files need not be generated), each with the types its
        // value names; one whose value names a type without a generated
        // module is left out (its value is then read by id only).
        let mut declarations = Vec::new();
        for id in annotations {
            let Some(decl) = self.schema.nodes.get(&id) else {
                continue;
            };
            let Some(bytes) = decl.encoded.as_ref() else {
                continue;
            };
            let decl_deps: Option<Vec<String>> = decl
                .refs
                .iter()
                .map(|r| {
                    self.has_module(*r)
                        .then(|| self.schema_type(*r, file, depth).ok())
                        .flatten()
                        .map(|t| format!("<{t} as HasSchema>::schema_node"))
                })
                .collect();
            let Some(decl_deps) = decl_deps else {
                continue;
            };
            let name = format!("annotation_{}", declarations.len());
            deps.push(name.clone());
            declarations.push((name, decl, byte_string(bytes), decl_deps));
        }
        out.open_impl(&format!("{impl_head} {rt}::typed::HasSchema for {ty}"));
        out.open_fn(&format!(
            "fn schema_node() -> &'static {rt}::typed::SchemaNode"
        ));
        // Short names, so the statics' types stay on a line at any depth
        // (the paths of the dependencies start at `super::`, never at a
        // name these could shadow).
        if deps.iter().any(|d| d.contains("HasSchema"))
            || declarations.iter().any(|(_, _, _, d)| !d.is_empty())
        {
            out.line(&format!("use {rt}::typed::HasSchema;"));
        }
        out.line(&format!("use {rt}::typed::SchemaNode;"));
        if let Some(bytes) = stream_result {
            out.docs("`StreamResult` (`/capnp/stream.capnp`), whose file is not generated here.");
            out.open_fn("fn stream_result() -> &'static SchemaNode");
            out.assign("static NODES: &[&[u8]]", &format!("&[{bytes}]"), ";");
            out.assign(
                "static NODE: SchemaNode",
                &format!("SchemaNode::new({STREAM_RESULT:#x}, NODES, &[])"),
                ";",
            );
            out.line("&NODE");
            out.close();
        }
        for (name, decl, bytes, decl_deps) in &declarations {
            out.docs(&format!(
                "The declaration of annotation `{}`.",
                decl.short_name()
            ));
            out.open_fn(&format!("fn {name}() -> &'static SchemaNode"));
            out.assign("static NODES: &[&[u8]]", &format!("&[{bytes}]"), ";");
            out.assign(
                "static DEPENDENCIES: &[fn() -> &'static SchemaNode]",
                &format!("&[{}]", decl_deps.join(", ")),
                ";",
            );
            out.assign(
                "static NODE: SchemaNode",
                &format!("SchemaNode::new({:#x}, NODES, DEPENDENCIES)", decl.id),
                ";",
            );
            out.line("&NODE");
            out.close();
        }
        out.assign(
            "static NODES: &[&[u8]]",
            &format!("&[{}]", nodes.join(", ")),
            ";",
        );
        out.assign(
            "static DEPENDENCIES: &[fn() -> &'static SchemaNode]",
            &format!("&[{}]", deps.join(", ")),
            ";",
        );
        out.assign(
            "static NODE: SchemaNode",
            &format!("SchemaNode::new({:#x}, NODES, DEPENDENCIES)", node.id),
            ";",
        );
        out.line("&NODE");
        out.close();
        if !params.is_empty() {
            let bindings: Vec<String> = params
                .iter()
                .map(|(scope, index, p)| {
                    format!(
                        "{rt}::typed::Binding::new({scope:#x}, {index}, <{p} as {rt}::typed::Introspect>::introspect)"
                    )
                })
                .collect();
            out.open_fn(&format!("fn brand() -> &'static [{rt}::typed::Binding]"));
            // An inline const: a `&'static` slice that names the
            // parameters, one per instantiation.
            out.open("const");
            out.line(&format!("&[{}]", bindings.join(", ")));
            out.close();
            out.close();
        }
        out.close();
        let schema_type = match &node.kind {
            NodeKind::Enum(_) => format!(
                "{rt}::typed::SchemaType::Enum(<Self as {rt}::typed::HasSchema>::schema_node)"
            ),
            NodeKind::Interface(_) => format!(
                "{rt}::typed::SchemaType::Interface {{ node: <Self as {rt}::typed::HasSchema>::schema_node, brand: <Self as {rt}::typed::HasSchema>::brand }}"
            ),
            _ => format!(
                "{rt}::typed::SchemaType::Struct {{ node: <Self as {rt}::typed::HasSchema>::schema_node, brand: <Self as {rt}::typed::HasSchema>::brand }}"
            ),
        };
        out.open_impl(&format!("{impl_head} {rt}::typed::Introspect for {ty}"));
        out.open_fn(&format!("fn introspect() -> {rt}::typed::SchemaType"));
        out.line(&schema_type);
        out.close();
        out.close();
        Ok(())
    }

    /// Whether node `id`'s file has a generated module that code here can
    /// name: it is requested, or placed by `module_path` or
    /// `$Rust.parentModule`.
    fn has_module(&self, id: u64) -> bool {
        let Some(place) = self.places.get(&id) else {
            return false;
        };
        self.schema.requested.iter().any(|f| f.id == place.file)
            || self
                .file_names
                .get(&place.file)
                .is_some_and(|name| self.options.module_paths.contains_key(name))
            || self
                .schema
                .nodes
                .get(&place.file)
                .is_some_and(|n| n.parent_module.is_some())
    }

    /// The ids of the groups under struct `node`, at any depth.
    fn group_ids(&self, node: &Node) -> Result<Vec<u64>, Error> {
        let mut ids = Vec::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if let NodeKind::Struct(s) = &n.kind {
                for f in &s.fields {
                    if let FieldKind::Group { type_id } = f.kind {
                        ids.push(type_id);
                        stack.push(self.node(type_id)?);
                    }
                }
            }
        }
        Ok(ids)
    }

    /// The generated type of node `id` that implements `HasSchema`, named
    /// from `depth` modules below file `file`'s module.
    fn schema_type(&self, id: u64, file: u64, depth: usize) -> Result<String, Error> {
        let path = self.path_to(id, file, depth)?;
        match &self.node(id)?.kind {
            NodeKind::Enum(_) => Ok(path),
            NodeKind::Struct(s) if !s.is_group => Ok(format!("{path}::Owned")),
            NodeKind::Interface(_) => Ok(format!("{path}::Owned")),
            _ => Err(Error::Unsupported {
                what: format!("a schema node naming node {id:#x}, which has no type"),
            }),
        }
    }

    /// An interface's `Owned` marker and its `HasSchema` impl, in the
    /// interface's module (`depth` modules below file `file`'s).
    pub(super) fn interface_schema(
        &self,
        out: &mut Writer,
        node: &Node,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        out.docs("Names the interface's schema node (through `typed::HasSchema`).");
        out.line("pub struct Owned;");
        self.has_schema_impl(out, node, &[], "Owned", file, depth)
    }

    /// The file module's `SCHEMA_NODES`: the `schema_node` function of
    /// every struct, enum and interface of `file`: the file's own, then
    /// those nested in each, scope by scope.
    pub(super) fn file_schema_nodes(&self, out: &mut Writer, file: &Node) -> Result<(), Error> {
        let mut fns = Vec::new();
        let mut stack = vec![file];
        while let Some(scope) = stack.pop() {
            let children = self.children(scope);
            for child in &children {
                if matches!(&child.kind, NodeKind::Struct(s) if !s.is_group)
                    || matches!(child.kind, NodeKind::Enum(_) | NodeKind::Interface(_))
                {
                    fns.push(format!(
                        "<{} as {}::typed::HasSchema>::schema_node",
                        self.schema_type(child.id, file.id, 0)?,
                        self.runtime
                    ));
                }
            }
            stack.extend(children.into_iter().rev());
        }
        let rt = &self.runtime;
        out.docs("The schema node of every struct, enum and interface of the file.");
        out.assign(
            &format!("pub const {FILE_LIST}: &[fn() -> &'static {rt}::typed::SchemaNode]"),
            &format!("&[{}]", fns.join(", ")),
            ";",
        );
        Ok(())
    }
}

/// `bytes` as a byte string literal: printable ASCII as itself, `\0` for
/// a zero not followed by a digit (which would read as an octal escape to
/// a human, and to clippy), `\xNN` for the rest.
fn byte_string(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2 + 3);
    s.push_str("b\"");
    for (i, &b) in bytes.iter().enumerate() {
        let digit_next = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        match b {
            0 if !digit_next => s.push_str("\\0"),
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => {
                use std::fmt::Write as _;
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    /// Bytes are written as Rust reads them back: a zero before a digit
    /// as `\x00` (`\01` would look like an octal escape, which Rust does
    /// not have and clippy refuses), quotes and backslashes escaped.
    #[test]
    fn byte_string_escapes() {
        assert_eq!(
            super::byte_string(b"\0a\x001\"\\\x7f~"),
            r#"b"\0a\x001\"\\\x7f~""#
        );
        assert_eq!(super::byte_string(b""), r#"b"""#);
        assert_eq!(super::byte_string(b"\0\0"), r#"b"\0\0""#);
    }
}
