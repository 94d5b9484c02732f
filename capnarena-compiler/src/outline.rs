//! Where each declaration of a schema file is written, read with the
//! compiler's own lexer and parser. A CodeGeneratorRequest carries no
//! positions; a tool that reports on a schema's types and members (a
//! compatibility check, a linter) finds them here by name.
//!
//! ```
//! use capnarena_compiler::outline::{DeclarationKind, declarations};
//!
//! let text = b"@0xdbb9ad1f14bf0b36;\nstruct S {\n  x @0 :UInt8;\n}\n";
//! let found = declarations(text);
//! let x = found.iter().find(|d| d.name == "x").unwrap();
//! assert_eq!((x.scope.as_str(), x.kind), ("S", DeclarationKind::Field));
//! assert_eq!((x.span.start.line, x.span.start.column), (3, 3));
//! ```

use crate::ast::{Decl, DeclKind, ParamList};
use crate::diagnostic::{Location, Span};

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DeclarationKind {
    /// `struct Name { ... }`
    Struct,
    /// `enum Name { ... }`
    Enum,
    /// `interface Name { ... }`
    Interface,
    /// `const name :Type = value;`
    Const,
    /// `annotation name(targets) :Type;`
    Annotation,
    /// `name :group { ... }`: a member of its struct and a scope of its
    /// own.
    Group,
    /// `name :union { ... }`: a member of its struct and a scope of its
    /// own. An unnamed union is not listed: its members belong to the
    /// enclosing scope, as in the request.
    Union,
    /// A field of a struct, group or union.
    Field,
    /// An enumerant of an enum.
    Enumerant,
    /// A method of an interface.
    Method,
    /// A named parameter or result of a method, in scope
    /// `Interface.method$Params` or `Interface.method$Results`.
    Parameter,
}

/// One declaration: its name, the scope it is declared in, and where its
/// name is written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Declaration {
    /// The enclosing scope as the request's display names spell it after
    /// the file's name: empty at the top of the file, `Outer.Inner`
    /// inside nested declarations, `Iface.method$Params` for parameters.
    pub scope: String,
    /// Its name.
    pub name: String,
    /// What it declares.
    pub kind: DeclarationKind,
    /// Where its name is written.
    pub span: Span,
}

/// Declarations nested deeper than this are left out. The parser refuses
/// blocks nested past `limits::MAX_NESTING` anyway; this bounds the walk.
const MAX_DEPTH: usize = 256;

/// Every declaration of the schema text `text`, in source order. A file
/// that does not parse gives what its parsed part declares; one that does
/// not lex gives none. Using declarations and the file itself are not
/// listed.
pub fn declarations(text: &[u8]) -> Vec<Declaration> {
    let Ok(statements) = crate::lexer::lex(text) else {
        return Vec::new();
    };
    let file = crate::parser::parse_file(&statements, &mut Vec::new());
    let lines = LineStarts::new(text);
    let mut out = Vec::new();
    // (declaration, its scope, depth), walked without recursion.
    let mut stack: Vec<(&Decl, String, usize)> = file
        .nested
        .iter()
        .rev()
        .map(|d| (d, String::new(), 0))
        .collect();
    while let Some((decl, scope, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            continue;
        }
        let name = &decl.name.value;
        let full = if scope.is_empty() {
            name.clone()
        } else {
            format!("{scope}.{name}")
        };
        let kind = match &decl.kind {
            DeclKind::Struct => DeclarationKind::Struct,
            DeclKind::Enum => DeclarationKind::Enum,
            DeclKind::Interface { .. } => DeclarationKind::Interface,
            DeclKind::Const { .. } => DeclarationKind::Const,
            DeclKind::Annotation { .. } => DeclarationKind::Annotation,
            DeclKind::Group => DeclarationKind::Group,
            DeclKind::Union if name.is_empty() => {
                for d in decl.nested.iter().rev() {
                    stack.push((d, scope.clone(), depth + 1));
                }
                continue;
            }
            DeclKind::Union => DeclarationKind::Union,
            DeclKind::Field { .. } => DeclarationKind::Field,
            DeclKind::Enumerant => DeclarationKind::Enumerant,
            DeclKind::Method {
                params, results, ..
            } => {
                out.push(Declaration {
                    scope: scope.clone(),
                    name: name.clone(),
                    kind: DeclarationKind::Method,
                    span: lines.span(decl.name.span),
                });
                for (list, suffix) in [(Some(params), "$Params"), (results.as_ref(), "$Results")] {
                    if let Some(ParamList::Named(list, _)) = list {
                        for p in list {
                            out.push(Declaration {
                                scope: format!("{full}{suffix}"),
                                name: p.name.value.clone(),
                                kind: DeclarationKind::Parameter,
                                span: lines.span(p.name.span),
                            });
                        }
                    }
                }
                continue;
            }
            DeclKind::File | DeclKind::Using(_) => continue,
        };
        out.push(Declaration {
            scope,
            name: name.clone(),
            kind,
            span: lines.span(decl.name.span),
        });
        for d in decl.nested.iter().rev() {
            stack.push((d, full.clone(), depth + 1));
        }
    }
    out
}

/// The byte offsets where lines start.
struct LineStarts(Vec<u32>);

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

    fn location(&self, offset: u32) -> Location {
        let line = self.0.partition_point(|&s| s <= offset).max(1);
        Location {
            offset,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: offset - self.0[line - 1] + 1,
        }
    }

    fn span(&self, span: crate::ast::Span) -> Span {
        Span {
            start: self.location(span.start),
            end: self.location(span.end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scopes follow the request's display names: nested types are
    /// joined by `.`, an unnamed union is transparent, a named union and
    /// a group are both members and scopes, and method parameters sit in
    /// the `$Params` and `$Results` scopes.
    #[test]
    fn scopes_follow_display_names() {
        let text = b"@0xdbb9ad1f14bf0b36;
struct S {
  a @0 :UInt8;
  union { b @1 :Void; c @2 :Void; }
  u :union { d @3 :Void; e @4 :Void; }
  g :group { f @5 :Void; }
  struct N { }
}
enum E { x @0; }
interface I { m @0 (p :UInt8) -> (r :UInt8); }
";
        let got: Vec<(String, String, DeclarationKind)> = declarations(text)
            .into_iter()
            .map(|d| (d.scope, d.name, d.kind))
            .collect();
        let want = [
            ("", "S", DeclarationKind::Struct),
            ("S", "a", DeclarationKind::Field),
            ("S", "b", DeclarationKind::Field),
            ("S", "c", DeclarationKind::Field),
            ("S", "u", DeclarationKind::Union),
            ("S.u", "d", DeclarationKind::Field),
            ("S.u", "e", DeclarationKind::Field),
            ("S", "g", DeclarationKind::Group),
            ("S.g", "f", DeclarationKind::Field),
            ("S", "N", DeclarationKind::Struct),
            ("", "E", DeclarationKind::Enum),
            ("E", "x", DeclarationKind::Enumerant),
            ("", "I", DeclarationKind::Interface),
            ("I", "m", DeclarationKind::Method),
            ("I.m$Params", "p", DeclarationKind::Parameter),
            ("I.m$Results", "r", DeclarationKind::Parameter),
        ];
        let want: Vec<(String, String, DeclarationKind)> = want
            .iter()
            .map(|(s, n, k)| (s.to_string(), n.to_string(), *k))
            .collect();
        assert_eq!(got, want);
    }

    /// A span covers the name: its end is one past the name's last byte.
    #[test]
    fn span_covers_the_name() {
        let d = declarations(b"@0xdbb9ad1f14bf0b36;\nstruct Long {}\n");
        let s = d[0].span;
        assert_eq!((s.start.line, s.start.column), (2, 8));
        assert_eq!((s.end.line, s.end.column), (2, 12));
        assert_eq!(s.end.offset - s.start.offset, 4);
    }

    /// Text that does not lex gives no declarations, and no panic.
    #[test]
    fn unlexable_text_gives_none() {
        assert!(declarations(b"struct S { \"unterminated").is_empty());
    }
}
