//! Where declarations are written: file, line and column of each type
//! and member, found by parsing the schema text with the compiler's own
//! parser. A CodeGeneratorRequest of capnp 0.9.2 carries no positions, so
//! positions come from the text, keyed by display name.

use std::collections::HashMap;

#[cfg(feature = "compiler")]
use capnarena_compiler::outline::{DeclarationKind, declarations};

/// A declaration's place in its file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The file as it was given.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
}

/// Positions by display name (`"file.capnp:Outer.Inner"`), and of members
/// by their scope's display name and their name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Positions {
    nodes: HashMap<String, Position>,
    /// By scope, then by member name: looked up without allocating.
    members: HashMap<String, HashMap<String, Position>>,
}

impl Positions {
    pub(crate) fn node(&self, display_name: &str) -> Option<&Position> {
        self.nodes.get(display_name)
    }

    pub(crate) fn member(&self, scope: &str, name: &str) -> Option<&Position> {
        self.members.get(scope)?.get(name)
    }

    #[cfg(feature = "compiler")]
    fn add_member(&mut self, scope: &str, name: &str, at: Position) {
        self.members
            .entry(scope.to_owned())
            .or_default()
            .insert(name.to_owned(), at);
    }

    /// Adds the declarations of `text`, the file the request names
    /// `request_name`, shown as `shown`. A file that does not parse adds
    /// what its parsed part declares.
    #[cfg(feature = "compiler")]
    pub(crate) fn add_file(&mut self, request_name: &str, shown: &str, text: &[u8]) {
        for d in declarations(text) {
            let at = Position {
                file: shown.to_owned(),
                line: d.span.start.line,
                column: d.span.start.column,
            };
            let scope = format!("{request_name}:{}", d.scope);
            let full = if d.scope.is_empty() {
                format!("{scope}{}", d.name)
            } else {
                format!("{scope}.{}", d.name)
            };
            match d.kind {
                DeclarationKind::Union | DeclarationKind::Group => {
                    self.add_member(&scope, &d.name, at.clone());
                    self.nodes.insert(full, at);
                }
                DeclarationKind::Field
                | DeclarationKind::Enumerant
                | DeclarationKind::Method
                | DeclarationKind::Parameter => self.add_member(&scope, &d.name, at),
                _ => {
                    self.nodes.insert(full, at);
                }
            }
        }
    }
}

#[cfg(all(test, feature = "compiler"))]
mod tests {
    use super::*;

    /// Members are found by their scope's display name: an unnamed
    /// union's in the enclosing struct, a group's in the group, a
    /// method parameter's in the `$Params` struct.
    #[test]
    fn members_are_keyed_by_scope() {
        let mut p = Positions::default();
        p.add_file(
            "a.capnp",
            "dir/a.capnp",
            b"@0xd3bd7ff1e1ed8b6a;\nstruct S {\n  x @0 :Int32;\n  union { y @1 :Void; z @2 :Void; }\n  g :group { w @3 :Text; }\n}\ninterface I { m @0 (p :Int32) -> (); }\n",
        );
        assert_eq!(p.node("a.capnp:S").map(|p| p.line), Some(2));
        assert_eq!(
            p.member("a.capnp:S", "x").map(|p| (p.line, p.column)),
            Some((3, 3))
        );
        assert_eq!(p.member("a.capnp:S", "z").map(|p| p.line), Some(4));
        assert_eq!(p.member("a.capnp:S.g", "w").map(|p| p.line), Some(5));
        assert_eq!(p.member("a.capnp:I.m$Params", "p").map(|p| p.line), Some(7));
        assert_eq!(
            p.member("a.capnp:S", "g").map(|p| p.file.as_str()),
            Some("dir/a.capnp")
        );
    }
}
