//! Schema text to statements of token trees, as the reference lexer cuts
//! them: a statement is tokens ended by `;` or by a `{ ... }` block,
//! parentheses and brackets hold comma-separated token sequences, and the
//! `#` comment lines right after a statement's `;` or `{` (or after its
//! closing `}`) are its doc comment.

use crate::ast::Span;

/// One token. Parenthesized and bracketed lists are single tokens holding
/// their comma-separated items.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// `[A-Za-z_][A-Za-z0-9_]*`
    Ident(String),
    /// A double-quoted string, escapes decoded.
    Str(Vec<u8>),
    /// `0x"0a 1b"`.
    Binary(Vec<u8>),
    /// An integer literal (decimal, `0x` hex or `0` octal).
    Int(u64),
    /// A floating-point literal.
    Float(f64),
    /// A run of operator characters.
    Op(String),
    /// `( a, b )`.
    Paren(Vec<Vec<Token>>),
    /// `[ a, b ]`.
    Bracket(Vec<Vec<Token>>),
}

/// A token with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub tok: Tok,
    /// Where.
    pub span: Span,
}

/// A statement: tokens ended by `;` or a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// The tokens before `;` or `{`.
    pub tokens: Vec<Token>,
    /// The block's statements when it ends with `{ ... }`.
    pub block: Option<Vec<Statement>>,
    /// The doc comment, its bytes as written.
    pub doc: Option<Vec<u8>>,
    /// The whole statement.
    pub span: Span,
}

/// A lexing error: where and what.
pub type LexError = (Span, String);

struct Lexer<'a> {
    s: &'a [u8],
    pos: usize,
    depth: u32,
}

const OP_CHARS: &[u8] = b"!$%&*+-./:<=>?@^|~";
/// Nesting of blocks and lists beyond which input is refused (the
/// recursion would otherwise be bounded only by the input's size).
const MAX_DEPTH: u32 = crate::limits::MAX_NESTING;

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Cuts `text` into statements.
///
/// # Errors
/// The first place the text cannot be lexed, with a message.
pub fn lex(text: &[u8]) -> Result<Vec<Statement>, LexError> {
    let mut lx = Lexer {
        s: text,
        pos: 0,
        depth: 0,
    };
    let stmts = lx.statements()?;
    lx.skip_comments_ws();
    if lx.pos < lx.s.len() {
        let c = lx.s[lx.pos];
        let msg = if c == b'}' {
            "Unmatched '}'.".to_string()
        } else {
            "Parse error.".to_string()
        };
        return Err((lx.span1(), msg));
    }
    Ok(stmts)
}

/// Cuts `text` into one sequence of tokens with no statements around
/// them: a value as the text format writes it (what `capnp convert
/// text:binary` reads), comments and whitespace skipped.
///
/// # Errors
/// The first place the text cannot be lexed (an unclosed string or
/// bracket, a character no token starts with, `;`, `{` or `}`, nesting
/// past [`limits::MAX_NESTING`](crate::limits::MAX_NESTING)), with a message.
pub fn lex_tokens(text: &[u8]) -> Result<Vec<Token>, LexError> {
    let mut lx = Lexer {
        s: text,
        pos: 0,
        depth: 0,
    };
    let tokens = lx.token_sequence()?;
    lx.skip_comments_ws();
    if lx.pos < lx.s.len() {
        return Err((lx.span1(), "Parse error.".to_string()));
    }
    Ok(tokens)
}

impl Lexer<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn peek_at(&self, n: usize) -> Option<u8> {
        self.s.get(self.pos + n).copied()
    }
    fn span1(&self) -> Span {
        Span::new(self.pos as u32, (self.pos + 1).min(self.s.len()) as u32)
    }

    fn skip_ws_boms(&mut self) {
        loop {
            match self.peek() {
                Some(c) if is_ws(c) => self.pos += 1,
                Some(0xef) if self.peek_at(1) == Some(0xbb) && self.peek_at(2) == Some(0xbf) => {
                    self.pos += 3
                }
                _ => break,
            }
        }
    }

    fn skip_comments_ws(&mut self) {
        loop {
            self.skip_ws_boms();
            if self.peek() == Some(b'#') {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == b'\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// The doc comment after `;`, `{` or `}`: optional spaces, at most one
    /// line break, then one or more comment lines (each maybe indented).
    fn doc_comment(&mut self) -> Option<Vec<u8>> {
        let save = self.pos;
        let line_ws = |lx: &mut Self| {
            while let Some(c) = lx.peek() {
                if is_ws(c) && c != b'\n' && c != b'\r' {
                    lx.pos += 1;
                } else {
                    break;
                }
            }
        };
        line_ws(self);
        match self.peek() {
            Some(b'\n') => self.pos += 1,
            Some(b'\r') => {
                self.pos += 1;
                if self.peek() == Some(b'\n') {
                    self.pos += 1;
                }
            }
            _ => {}
        }
        let mut lines: Vec<&[u8]> = Vec::new();
        loop {
            let before = self.pos;
            line_ws(self);
            if self.peek() != Some(b'#') {
                self.pos = before;
                break;
            }
            self.pos += 1;
            if self.peek() == Some(b' ') {
                self.pos += 1;
            }
            let start = self.pos;
            while let Some(c) = self.peek() {
                if c == b'\n' {
                    break;
                }
                self.pos += 1;
            }
            lines.push(&self.s[start..self.pos]);
            if self.peek() == Some(b'\n') {
                self.pos += 1;
            }
        }
        if lines.is_empty() {
            self.pos = save;
            return None;
        }
        let mut out = Vec::new();
        for l in lines {
            out.extend_from_slice(l);
            out.push(b'\n');
        }
        Some(out)
    }

    fn enter(&mut self) -> Result<(), LexError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((
                self.span1(),
                format!("Nesting deeper than {MAX_DEPTH} levels (limits::MAX_NESTING)."),
            ));
        }
        Ok(())
    }

    fn statements(&mut self) -> Result<Vec<Statement>, LexError> {
        let mut out = Vec::new();
        loop {
            self.skip_comments_ws();
            match self.peek() {
                None | Some(b'}') => return Ok(out),
                _ => {}
            }
            out.push(self.statement()?);
        }
    }

    fn statement(&mut self) -> Result<Statement, LexError> {
        let start = self.pos;
        let tokens = self.token_sequence()?;
        match self.peek() {
            Some(b';') => {
                self.pos += 1;
                let end = self.pos;
                let doc = self.doc_comment();
                Ok(Statement {
                    tokens,
                    block: None,
                    doc,
                    span: Span::new(start as u32, end as u32),
                })
            }
            Some(b'{') => {
                self.pos += 1;
                self.enter()?;
                let early = self.doc_comment();
                let inner = self.statements()?;
                if self.peek() != Some(b'}') {
                    return Err((self.span1(), "Expected '}' to close the block.".into()));
                }
                self.pos += 1;
                self.depth -= 1;
                let end = self.pos;
                let late = self.doc_comment();
                Ok(Statement {
                    tokens,
                    block: Some(inner),
                    doc: early.or(late),
                    span: Span::new(start as u32, end as u32),
                })
            }
            None => Err((
                Span::new(self.s.len() as u32, self.s.len() as u32),
                "Parse error: statement not ended by ';' or a block.".into(),
            )),
            Some(_) => Err((self.span1(), "Parse error.".into())),
        }
    }

    fn token_sequence(&mut self) -> Result<Vec<Token>, LexError> {
        let mut out = Vec::new();
        loop {
            self.skip_comments_ws();
            match self.token()? {
                Some(t) => out.push(t),
                None => return Ok(out),
            }
        }
    }

    fn list(&mut self, close: u8) -> Result<Vec<Vec<Token>>, LexError> {
        self.enter()?;
        let mut items = Vec::new();
        loop {
            let seq = self.token_sequence()?;
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    items.push(seq);
                }
                Some(c) if c == close => {
                    self.pos += 1;
                    // `()` is empty; a trailing empty item after a comma is dropped.
                    if !seq.is_empty() {
                        items.push(seq);
                    }
                    self.depth -= 1;
                    return Ok(items);
                }
                _ => {
                    return Err((
                        self.span1(),
                        format!("Parse error: expected ',' or '{}'.", close as char),
                    ));
                }
            }
        }
    }

    fn token(&mut self) -> Result<Option<Token>, LexError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let tok = if c.is_ascii_alphabetic() || c == b'_' {
            while let Some(c) = self.peek() {
                if c.is_ascii_alphanumeric() || c == b'_' {
                    self.pos += 1;
                } else {
                    break;
                }
            }
            Tok::Ident(String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
        } else if c == b'"' {
            Tok::Str(self.string()?)
        } else if c == b'0'
            && matches!(self.peek_at(1), Some(b'x'))
            && self.peek_at(2) == Some(b'"')
        {
            self.pos += 3;
            Tok::Binary(self.hex_binary(start)?)
        } else if c.is_ascii_digit() {
            self.number(start)?
        } else if OP_CHARS.contains(&c) {
            while let Some(c) = self.peek() {
                if OP_CHARS.contains(&c) {
                    self.pos += 1;
                } else {
                    break;
                }
            }
            Tok::Op(String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
        } else if c == b'(' {
            self.pos += 1;
            Tok::Paren(self.list(b')')?)
        } else if c == b'[' {
            self.pos += 1;
            Tok::Bracket(self.list(b']')?)
        } else if c == 0 || c == 0xff || c == 0xfe {
            return Err((
                self.span1(),
                "Non-UTF-8 input detected. Cap'n Proto schema files must be UTF-8 text.".into(),
            ));
        } else {
            return Ok(None);
        };
        Ok(Some(Token {
            tok,
            span: Span::new(start as u32, self.pos as u32),
        }))
    }

    fn not_followed_by_alpha(&self) -> bool {
        !matches!(self.peek(), Some(c) if c.is_ascii_alphabetic() || c == b'_' || c == b'.')
    }

    /// A number literal at `start`: decimal, hex and octal integers and
    /// floats with their exponents, as the reference's lexer reads them.
    /// Longer than most: one scan of the literal's grammar, with the
    /// reference's refusals at each step.
    fn number(&mut self, start: usize) -> Result<Tok, LexError> {
        let too_big = |lx: &Self| {
            (
                Span::new(start as u32, lx.pos as u32),
                "Integer literal is too big.".to_string(),
            )
        };
        // Integer forms first, as the reference tries them before floats.
        let s = self.s;
        if s[start] == b'0' && matches!(s.get(start + 1), Some(b'x')) {
            let mut p = start + 2;
            let mut v: u64 = 0;
            let mut any = false;
            let mut overflow = false;
            while let Some(&c) = s.get(p) {
                let Some(d) = (c as char).to_digit(16) else {
                    break;
                };
                any = true;
                match v.checked_mul(16).and_then(|v| v.checked_add(d as u64)) {
                    Some(n) => v = n,
                    None => overflow = true,
                }
                p += 1;
            }
            if any {
                self.pos = p;
                if self.not_followed_by_alpha() {
                    if overflow {
                        return Err(too_big(self));
                    }
                    return Ok(Tok::Int(v));
                }
            }
            self.pos = start;
        } else {
            let mut p = start;
            let radix = if s[start] == b'0' { 8 } else { 10 };
            let mut v: u64 = 0;
            let mut overflow = false;
            while let Some(&c) = s.get(p) {
                let Some(d) = (c as char).to_digit(radix) else {
                    break;
                };
                match v
                    .checked_mul(radix as u64)
                    .and_then(|v| v.checked_add(d as u64))
                {
                    Some(n) => v = n,
                    None => overflow = true,
                }
                p += 1;
            }
            self.pos = p;
            if self.not_followed_by_alpha() && !matches!(self.peek(), Some(b'0'..=b'9')) {
                if overflow {
                    return Err(too_big(self));
                }
                return Ok(Tok::Int(v));
            }
            self.pos = start;
        }
        // Float: digits [. digits] [e [+-] digits]
        let mut p = start;
        while matches!(s.get(p), Some(b'0'..=b'9')) {
            p += 1;
        }
        if s.get(p) == Some(&b'.') {
            p += 1;
            while matches!(s.get(p), Some(b'0'..=b'9')) {
                p += 1;
            }
        }
        if matches!(s.get(p), Some(b'e' | b'E')) {
            p += 1;
            if matches!(s.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            while matches!(s.get(p), Some(b'0'..=b'9')) {
                p += 1;
            }
        }
        self.pos = p;
        if !self.not_followed_by_alpha() {
            return Err((
                Span::new(start as u32, p as u32),
                "Parse error: malformed number.".into(),
            ));
        }
        let text = std::str::from_utf8(&s[start..p]).unwrap_or("");
        // Rust's parser rejects a trailing exponent marker without digits
        // ("1e"); strtod reads the prefix.
        let trimmed = text.trim_end_matches(['e', 'E', '+', '-']);
        match trimmed.parse::<f64>() {
            Ok(v) => Ok(Tok::Float(v)),
            Err(_) => Err((
                Span::new(start as u32, p as u32),
                "Parse error: malformed number.".into(),
            )),
        }
    }

    fn string(&mut self) -> Result<Vec<u8>, LexError> {
        let start = self.pos;
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err((
                    Span::new(start as u32, self.pos as u32),
                    "Unterminated string literal.".into(),
                ));
            };
            self.pos += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return Err((
                            Span::new(start as u32, self.pos as u32),
                            "Unterminated string literal.".into(),
                        ));
                    };
                    self.pos += 1;
                    match e {
                        b'a' => out.push(7),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'v' => out.push(11),
                        b'\'' | b'"' | b'\\' | b'?' => out.push(e),
                        b'x' => {
                            let mut v: u32 = 0;
                            let mut n = 0;
                            while n < 2 {
                                match self.peek().and_then(|c| (c as char).to_digit(16)) {
                                    Some(d) => {
                                        v = v * 16 + d;
                                        self.pos += 1;
                                        n += 1;
                                    }
                                    None => break,
                                }
                            }
                            if n == 0 {
                                return Err((self.span1(), "Parse error: bad \\x escape.".into()));
                            }
                            out.push(v as u8);
                        }
                        b'0'..=b'7' => {
                            let mut v: u32 = (e - b'0') as u32;
                            let mut n = 1;
                            while n < 3 {
                                match self.peek() {
                                    Some(c @ b'0'..=b'7') => {
                                        v = v * 8 + (c - b'0') as u32;
                                        self.pos += 1;
                                        n += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push(v as u8);
                        }
                        _ => {
                            return Err((
                                Span::new(self.pos as u32 - 2, self.pos as u32),
                                "Parse error: unknown escape sequence.".into(),
                            ));
                        }
                    }
                }
                _ => out.push(c),
            }
        }
        Ok(out)
    }

    fn hex_binary(&mut self, start: usize) -> Result<Vec<u8>, LexError> {
        let mut out = Vec::new();
        loop {
            while matches!(self.peek(), Some(c) if is_ws(c)) {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(c) if c.is_ascii_hexdigit() => {
                    let hi = (c as char).to_digit(16).unwrap_or(0);
                    let lo = self.peek_at(1).and_then(|c| (c as char).to_digit(16));
                    let Some(lo) = lo else {
                        return Err((self.span1(), "Parse error: hex bytes come in pairs.".into()));
                    };
                    out.push((hi * 16 + lo) as u8);
                    self.pos += 2;
                }
                None => {
                    return Err((
                        Span::new(start as u32, self.pos as u32),
                        "Unterminated binary literal.".into(),
                    ));
                }
                Some(_) => return Err((self.span1(), "Parse error: expected hex digits.".into())),
            }
        }
        if out.is_empty() {
            return Err((
                Span::new(start as u32, self.pos as u32),
                "Parse error: empty binary literal.".into(),
            ));
        }
        Ok(out)
    }
}
