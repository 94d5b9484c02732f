//! The check that a lexed text is one expression of the schema language,
//! as the compiler's `parse_expression` parses its tokens: the same
//! grammar, the same first error at the same place, but read straight
//! from the text by the cursor of [`super::lex`], with no token or
//! expression tree. Recursion follows the brackets, which the lexer
//! bounded at [`MAX_NESTING`](super::lex::MAX_NESTING) levels.

use std::cell::Cell;

use capnarena_compiler::limits::MAX_EXPRESSION_DEPTH;

use super::lex::{Fail, Tok, Token, skip_trivia, token, token_end};

/// Member and application suffixes one expression may chain, as the
/// compiler's parser allows.
const MAX_SUFFIXES: usize = 256;

/// The errors found so far: the first parse error and the first limit
/// passed (a limit is reported before any parse error).
#[derive(Default)]
struct Errs {
    first: Option<Fail>,
    limit: Option<Fail>,
}

impl Errs {
    fn push(&mut self, e: Fail) {
        if self.first.is_none() {
            self.first = Some(e);
        }
    }

    fn limit(&mut self, e: Fail) {
        if self.limit.is_none() {
            self.limit = Some(e.clone());
        }
        self.push(e);
    }
}

/// Checks that `s`, which [`super::lex::check`] accepted, is one whole
/// expression; the first error as the compiler's parser reports it.
pub(super) fn check(s: &[u8]) -> Result<(), Fail> {
    let mut errs = Errs::default();
    let mut p = P::new(s, skip_trivia(s, 0));
    let e = p.expr(&mut errs);
    if let Some(limit) = errs.limit {
        return Err(limit);
    }
    if let Some(first) = errs.first {
        return Err(first);
    }
    match e {
        Some(_) if p.at_end() => Ok(()),
        Some(_) => Err((p.pos, "Extra tokens in input.".into())),
        None => Err((p.fail_at(), "Parse error.".into())),
    }
}

/// The parser over one comma-separated item (or the whole text): the
/// compiler's parser state, with token indices as text offsets.
struct P<'s> {
    s: &'s [u8],
    /// The start of the next token (or of the delimiter ending the item).
    pos: usize,
    /// The end of the last token taken.
    prev_end: Option<usize>,
    /// The start of the furthest token looked at.
    best: Cell<Option<usize>>,
    /// The depth of the last expression parsed.
    depth: u32,
}

/// What an item of a tuple was: named or not, and where its value's
/// expression starts.
struct Param {
    named: bool,
    value: usize,
}

impl<'s> P<'s> {
    fn new(s: &'s [u8], pos: usize) -> Self {
        P {
            s,
            pos,
            prev_end: None,
            best: Cell::new(None),
            depth: 0,
        }
    }

    fn peek(&self) -> Option<Token> {
        let t = token(self.s, self.pos).ok().flatten()?;
        let best = self.best.get().map_or(t.start, |b| b.max(t.start));
        self.best.set(Some(best));
        Some(t)
    }

    /// Takes a token that is not a bracket.
    fn bump(&mut self, t: &Token) {
        self.prev_end = Some(t.end);
        self.pos = skip_trivia(self.s, t.end);
    }

    fn at_end(&self) -> bool {
        !matches!(token(self.s, self.pos), Ok(Some(_)))
    }

    fn save(&self) -> (usize, Option<usize>) {
        (self.pos, self.prev_end)
    }

    fn restore(&mut self, (pos, prev_end): (usize, Option<usize>)) {
        self.pos = pos;
        self.prev_end = prev_end;
    }

    fn text(&self, t: &Token) -> &'s [u8] {
        &self.s[t.start..t.end]
    }

    /// Where the compiler's parser reports a failure of this item: the
    /// token after the furthest one looked at (or the next one, if
    /// further), else the end of the item's last token, else offset 0.
    fn fail_at(&self) -> usize {
        match self.best.get() {
            Some(b) if b >= self.pos => {
                let Ok(Some(t)) = token(self.s, b) else {
                    return b;
                };
                let end = token_end(self.s, &t);
                let next = skip_trivia(self.s, end);
                match token(self.s, next) {
                    Ok(Some(_)) => next,
                    _ => end,
                }
            }
            _ => {
                if !self.at_end() {
                    self.pos
                } else {
                    self.prev_end.unwrap_or(0)
                }
            }
        }
    }

    fn op(&mut self, op: &[u8]) -> bool {
        match self.peek() {
            Some(t) if t.tok == Tok::Op && self.text(&t) == op => {
                self.bump(&t);
                true
            }
            _ => false,
        }
    }

    fn ident(&mut self) -> Option<Token> {
        match self.peek() {
            Some(t) if t.tok == Tok::Ident => {
                self.bump(&t);
                Some(t)
            }
            _ => None,
        }
    }

    /// An expression; its start as the compiler spans it.
    fn expr(&mut self, errs: &mut Errs) -> Option<usize> {
        let start = self.base_expr(errs)?;
        let mut depth = self.depth;
        let mut suffixes = 0usize;
        loop {
            if depth > MAX_EXPRESSION_DEPTH {
                errs.limit((
                    start,
                    format!(
                        "Expression nests more than {MAX_EXPRESSION_DEPTH} levels deep (members, parameters, lists and tuples; limits::MAX_EXPRESSION_DEPTH)."
                    ),
                ));
                return None;
            }
            suffixes += 1;
            if suffixes > MAX_SUFFIXES {
                errs.limit((
                    start,
                    format!(
                        "Expression has more than {MAX_SUFFIXES} member or parameter suffixes."
                    ),
                ));
                return None;
            }
            let save = self.save();
            if self.op(b".") {
                if self.ident().is_some() {
                    depth += 1;
                    continue;
                }
                self.restore(save);
                break;
            }
            if let Some(t) = self.peek().filter(|t| t.tok == Tok::Paren) {
                self.items(&t, errs, |p, errs| p.param(errs))?;
                depth = depth.max(self.depth) + 1;
                continue;
            }
            break;
        }
        self.depth = depth;
        Some(start)
    }

    /// An expression without suffixes; its start, and its depth in
    /// `self.depth`.
    fn base_expr(&mut self, errs: &mut Errs) -> Option<usize> {
        self.depth = 1;
        let t = self.peek()?;
        match t.tok {
            Tok::Int(_) | Tok::Float(_) | Tok::Binary => {
                self.bump(&t);
                Some(t.start)
            }
            Tok::Op if self.text(&t) == b"-" => {
                self.bump(&t);
                let n = self.peek()?;
                match n.tok {
                    Tok::Int(_) | Tok::Float(_) => {
                        self.bump(&n);
                        Some(n.start)
                    }
                    Tok::Ident if self.text(&n) == b"inf" => {
                        self.bump(&n);
                        Some(t.start)
                    }
                    _ => None,
                }
            }
            Tok::Op if self.text(&t) == b"." => {
                self.bump(&t);
                self.ident()?;
                Some(t.start)
            }
            Tok::Str => {
                while let Some(n) = self.peek().filter(|n| n.tok == Tok::Str) {
                    self.bump(&n);
                }
                Some(t.start)
            }
            Tok::Bracket => {
                self.items(&t, errs, |p, errs| p.expr(errs))?;
                self.depth += 1;
                Some(t.start)
            }
            Tok::Paren => {
                let single = self.items(&t, errs, |p, errs| p.param(errs))?;
                if let Some(Param {
                    named: false,
                    value,
                }) = single
                {
                    return Some(value);
                }
                self.depth += 1;
                Some(t.start)
            }
            Tok::Ident if matches!(self.text(&t), b"import" | b"embed") => {
                let save = self.save();
                self.bump(&t);
                if let Some(n) = self.peek().filter(|n| n.tok == Tok::Str) {
                    self.bump(&n);
                    return Some(t.start);
                }
                self.restore(save);
                self.ident()?;
                Some(t.start)
            }
            Tok::Ident => {
                self.ident()?;
                Some(t.start)
            }
            Tok::Op => None,
        }
    }

    fn param(&mut self, errs: &mut Errs) -> Option<Param> {
        let save = self.save();
        if self.ident().is_some() {
            if self.op(b"=") {
                let value = self.expr(errs)?;
                return Some(Param { named: true, value });
            }
            self.restore(save);
        }
        let value = self.expr(errs)?;
        Some(Param {
            named: false,
            value,
        })
    }

    /// Parses each item of the bracket `open` whole by `f` and takes the
    /// bracket; the item when there is exactly one. `self.depth` is the
    /// deepest item's.
    fn items<T>(
        &mut self,
        open: &Token,
        errs: &mut Errs,
        f: impl Fn(&mut P<'s>, &mut Errs) -> Option<T>,
    ) -> Option<Option<T>> {
        let s = self.s;
        let mut pos = skip_trivia(s, open.end);
        let mut deepest = 0;
        let mut only = None;
        let mut count = 0usize;
        loop {
            if matches!(s.get(pos), Some(b')' | b']')) {
                // `()` is empty; a trailing empty item after a comma is dropped.
                pos += 1;
                break;
            }
            let mut p = P::new(s, pos);
            let v = f(&mut p, errs);
            deepest = deepest.max(p.depth);
            self.depth = deepest;
            match v {
                Some(v) if p.at_end() => {
                    count += 1;
                    only = (count == 1).then_some(v);
                }
                _ => {
                    errs.push((p.fail_at(), "Parse error.".into()));
                    return None;
                }
            }
            if s.get(p.pos) == Some(&b',') {
                pos = skip_trivia(s, p.pos + 1);
            } else {
                pos = p.pos + 1;
                break;
            }
        }
        self.depth = deepest;
        self.prev_end = Some(pos);
        self.pos = skip_trivia(s, pos);
        Some(only)
    }
}
