//! Expressions: values, names, lists, tuples, applications and member
//! access, as the reference parser reads them (a text-format value is one
//! expression, [`parse_expression`]).

use super::*;

/// Parses `tokens` (from [`lex_tokens`](crate::lexer::lex_tokens)) as
/// one expression, the whole sequence: a value in the text format.
///
/// # Errors
/// Where the expression cannot be parsed (the furthest token any
/// alternative reached, as the reference reports it), `Extra tokens in
/// input.` when tokens follow a whole expression, or a depth limit
/// ([`limits::MAX_EXPRESSION_DEPTH`], [`limits::MAX_NESTING`]).
pub fn parse_expression(tokens: &[Token]) -> Result<Expr, ParseError> {
    let mut p = P::sub(tokens);
    let e = p.expr();
    if let Some(limit) = p.limit.take() {
        return Err(limit);
    }
    if let Some(first) = p.errors.first() {
        return Err(first.clone());
    }
    let at = |i: usize| {
        tokens
            .get(i)
            .map(|t| t.span)
            .or_else(|| tokens.last().map(|t| Span::new(t.span.end, t.span.end)))
            .unwrap_or(Span::new(0, 0))
    };
    match e {
        Some(e) if p.at_end() => Ok(e),
        Some(_) => Err((at(p.pos), "Extra tokens in input.".into())),
        None => Err((at(p.best.get().max(p.pos)), "Parse error.".into())),
    }
}

/// Member and application suffixes one expression may chain (`a.b.c`,
/// `F(x)(y)`): later stages recurse on them.
const MAX_SUFFIXES: usize = 256;

impl P<'_> {
    pub(super) fn expr(&mut self) -> Option<Expr> {
        let mut base = self.base_expr()?;
        let mut depth = self.depth;
        let mut suffixes = 0usize;
        loop {
            if depth > limits::MAX_EXPRESSION_DEPTH {
                let e = (
                    base.span,
                    format!(
                        "Expression nests more than {} levels deep (members, parameters, lists and tuples; limits::MAX_EXPRESSION_DEPTH).",
                        limits::MAX_EXPRESSION_DEPTH
                    ),
                );
                self.limit = self.limit.take().or(Some(e.clone()));
                self.errors.push(e);
                return None;
            }
            suffixes += 1;
            if suffixes > MAX_SUFFIXES {
                let e = (
                    base.span,
                    format!(
                        "Expression has more than {MAX_SUFFIXES} member or parameter suffixes."
                    ),
                );
                self.limit = self.limit.take().or(Some(e.clone()));
                self.errors.push(e);
                return None;
            }
            let save = self.pos;
            if self.op(".") {
                if let Some(name) = self.ident() {
                    let span = Span::new(base.span.start, name.span.end);
                    depth += 1;
                    base = Expr {
                        kind: ExprKind::Member {
                            parent: Box::new(base),
                            name,
                        },
                        span,
                    };
                    continue;
                }
                self.pos = save;
                break;
            }
            if let Some(Token {
                tok: Tok::Paren(lists),
                span,
            }) = self.peek()
            {
                self.bump();
                let params = self.items(lists, |p| p.param())?;
                depth = depth.max(self.depth) + 1;
                let span = Span::new(base.span.start, span.end);
                base = Expr {
                    kind: ExprKind::Application {
                        func: Box::new(base),
                        params,
                    },
                    span,
                };
                continue;
            }
            break;
        }
        self.depth = depth;
        Some(base)
    }

    /// An expression without suffixes; sets `self.depth` to its depth.
    /// Longer than most: one arm per kind of expression start (literal,
    /// name, list, tuple, import, embed), in the grammar's order.
    fn base_expr(&mut self) -> Option<Expr> {
        self.depth = 1;
        let t = self.peek()?;
        let span = t.span;
        let mk = |kind, span| Some(Expr { kind, span });
        match &t.tok {
            Tok::Int(v) => {
                self.bump();
                mk(ExprKind::PositiveInt(*v), span)
            }
            Tok::Float(v) => {
                self.bump();
                mk(ExprKind::Float(*v), span)
            }
            Tok::Op(o) if o == "-" => {
                self.bump();
                let n = self.peek()?;
                let s = span.to(n.span);
                match &n.tok {
                    Tok::Int(v) => {
                        self.bump();
                        mk(ExprKind::NegativeInt(*v), n.span)
                    }
                    Tok::Float(v) => {
                        self.bump();
                        mk(ExprKind::Float(-*v), n.span)
                    }
                    Tok::Ident(i) if i == "inf" => {
                        self.bump();
                        mk(ExprKind::Float(f64::NEG_INFINITY), s)
                    }
                    _ => None,
                }
            }
            Tok::Op(o) if o == "." => {
                self.bump();
                let name = self.ident()?;
                let s = span.to(name.span);
                mk(ExprKind::AbsoluteName(name), s)
            }
            Tok::Str(_) => {
                let mut text = Vec::new();
                let mut end = span.end;
                while let Some(Token {
                    tok: Tok::Str(s),
                    span,
                }) = self.peek()
                {
                    text.extend_from_slice(s);
                    end = span.end;
                    self.bump();
                }
                mk(ExprKind::String(text), Span::new(span.start, end))
            }
            Tok::Binary(b) => {
                self.bump();
                mk(ExprKind::Binary(b.clone()), span)
            }
            Tok::Bracket(lists) => {
                self.bump();
                let items = self.items(lists, |p| p.expr())?;
                self.depth += 1;
                mk(ExprKind::List(items), span)
            }
            Tok::Paren(lists) => {
                self.bump();
                let mut params = self.items(lists, |p| p.param())?;
                if params.len() == 1 && params[0].name.is_none() {
                    return params.pop().map(|p| p.value);
                }
                self.depth += 1;
                mk(ExprKind::Tuple(params), span)
            }
            Tok::Ident(i) if (i == "import" || i == "embed") => {
                let save = self.pos;
                self.bump();
                if let Some(Token {
                    tok: Tok::Str(s),
                    span: sspan,
                }) = self.peek()
                {
                    self.bump();
                    let file = Located {
                        value: String::from_utf8_lossy(s).into_owned(),
                        span: *sspan,
                    };
                    let whole = span.to(*sspan);
                    return if i == "import" {
                        mk(ExprKind::Import(file), whole)
                    } else {
                        mk(ExprKind::Embed(file), whole)
                    };
                }
                self.pos = save;
                let name = self.ident()?;
                mk(ExprKind::RelativeName(name), span)
            }
            Tok::Ident(_) => {
                let name = self.ident()?;
                mk(ExprKind::RelativeName(name), span)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_tokens;

    fn parse(text: &str) -> Result<Expr, ParseError> {
        parse_expression(&lex_tokens(text.as_bytes())?)
    }

    /// A text-format value parses whole: a tuple of named values, with
    /// comments and nested lists; what follows a whole expression, an
    /// unfinished one, and statement syntax are errors at their place.
    #[test]
    fn one_expression() {
        let e = parse("# c\n(a = 1, b = [-2, 3.5], c = \"x\" \"y\", d = (e = 0x\"01\"))").unwrap();
        let ExprKind::Tuple(params) = e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(params.len(), 4);
        assert_eq!(params[2].value.kind, ExprKind::String(b"xy".to_vec()));
        let (span, msg) = parse("(a = 1) x").unwrap_err();
        assert_eq!((span.start, msg.as_str()), (8, "Extra tokens in input."));
        assert_eq!(parse("(a = )").unwrap_err().1, "Parse error.");
        assert_eq!(parse("(a = 1);").unwrap_err().0.start, 7);
        assert!(lex_tokens(b"(a = \"1)").is_err());
    }
}
