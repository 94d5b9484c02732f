//! Not part of the API: it changes without notice. What only this
//! workspace's tests and fuzz targets reach. The compiler's tests and
//! its fuzz target check the request's content field by field, through
//! `schema` and `ids`. capnarena-dynamic's text parser reads a text as
//! the compiler's expression grammar, and its tests check it against
//! the compiler's own lexer and parser, `lex_tokens` and
//! `parse_expression`, on every text.
//!
//! The modules are declared here, not at the crate root, so that they
//! are hidden with this module: a hidden re-export of a private module's
//! item would still put that item in rustdoc's list of public items.

#[path = "ast.rs"]
pub mod ast;
#[path = "ids.rs"]
pub mod ids;
#[path = "lexer.rs"]
pub mod lexer;
#[path = "schema.rs"]
pub mod schema;

/// The compiler's parse of one expression (`parser/expr.rs`). A
/// function here, not a re-export: see the module docs.
///
/// # Errors
/// Where the tokens stop being an expression, and why.
pub fn parse_expression(tokens: &[lexer::Token]) -> Result<Expr, (Span, String)> {
    crate::parser::parse_expression(tokens)
}
pub use ast::{Expr, ExprKind, Located, Param, Span};
pub use lexer::lex_tokens;
