//! Where declarations are written: file, line and column of each type
//! and member, found by parsing the schema text with the compiler's own
//! parser. A CodeGeneratorRequest of capnp 0.9.2 carries no positions, so
//! positions come from the text, keyed by display name.

use std::collections::HashMap;

#[cfg(feature = "compiler")]
use capnarena_compiler::ast::{Decl, DeclKind, ParamList, Span};

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

#[cfg(feature = "compiler")]
/// Declarations deeper than this are not given positions (the compiler
/// rejects such files anyway; this bounds the walk).
const MAX_DEPTH: usize = 256;

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
        let Ok(statements) = capnarena_compiler::lexer::lex(text) else {
            return;
        };
        let mut errors = Vec::new();
        let file = capnarena_compiler::parser::parse_file(&statements, &mut errors);
        let lines = LineStarts::new(text);
        let at = |span: Span| {
            let (line, column) = lines.line_col(span.start);
            Position {
                file: shown.to_owned(),
                line,
                column,
            }
        };
        // (declaration, its scope's display name, depth), walked without
        // recursion.
        let mut stack: Vec<(&Decl, String, usize)> = file
            .nested
            .iter()
            .rev()
            .map(|d| (d, format!("{request_name}:"), 0))
            .collect();
        while let Some((decl, scope, depth)) = stack.pop() {
            if depth > MAX_DEPTH {
                continue;
            }
            let name = &decl.name.value;
            let full = if scope.ends_with(':') {
                format!("{scope}{name}")
            } else {
                format!("{scope}.{name}")
            };
            let inner = match &decl.kind {
                DeclKind::Struct
                | DeclKind::Enum
                | DeclKind::Interface { .. }
                | DeclKind::Const { .. }
                | DeclKind::Annotation { .. } => {
                    self.nodes.insert(full.clone(), at(decl.name.span));
                    full
                }
                DeclKind::Field { .. } | DeclKind::Enumerant => {
                    self.add_member(&scope, name, at(decl.name.span));
                    continue;
                }
                DeclKind::Method {
                    params, results, ..
                } => {
                    self.add_member(&scope, name, at(decl.name.span));
                    for (list, suffix) in
                        [(Some(params), "$Params"), (results.as_ref(), "$Results")]
                    {
                        if let Some(ParamList::Named(list, _)) = list {
                            let key = format!("{full}{suffix}");
                            for p in list {
                                self.add_member(&key, &p.name.value, at(p.name.span));
                            }
                        }
                    }
                    continue;
                }
                DeclKind::Union if name.is_empty() => scope,
                DeclKind::Union | DeclKind::Group => {
                    self.add_member(&scope, name, at(decl.name.span));
                    self.nodes.insert(full.clone(), at(decl.name.span));
                    full
                }
                DeclKind::File | DeclKind::Using(_) => continue,
            };
            for d in decl.nested.iter().rev() {
                stack.push((d, inner.clone(), depth + 1));
            }
        }
    }
}

/// The byte offsets where lines start.
#[cfg(feature = "compiler")]
struct LineStarts(Vec<u32>);

#[cfg(feature = "compiler")]
impl LineStarts {
    fn new(text: &[u8]) -> LineStarts {
        let mut starts = vec![0];
        for (i, b) in text.iter().enumerate() {
            if *b == b'\n' {
                starts.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
            }
        }
        LineStarts(starts)
    }

    /// 1-based line and byte column of `offset`.
    fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.0.partition_point(|s| *s <= offset).max(1);
        let start = self.0[line - 1];
        (u32::try_from(line).unwrap_or(u32::MAX), offset - start + 1)
    }
}

#[cfg(all(test, feature = "compiler"))]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let lines = LineStarts::new(b"ab\ncd\n\nx");
        assert_eq!(lines.line_col(0), (1, 1));
        assert_eq!(lines.line_col(1), (1, 2));
        assert_eq!(lines.line_col(3), (2, 1));
        assert_eq!(lines.line_col(6), (3, 1));
        assert_eq!(lines.line_col(7), (4, 1));
    }

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
