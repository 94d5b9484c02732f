//! The text format's tokens, read one at a time from the text with no
//! allocation: the schema compiler's lexer
//! (its `lex_tokens`) as a cursor. [`check`]
//! finds the first error that lexer reports, at the same place and in the
//! same words, without building its token tree; the parser and the filler
//! then read tokens again where they need them.

/// A lexing or parsing error: byte offset and message.
pub(super) type Fail = (usize, String);

/// Characters that make up operator tokens.
const OP_CHARS: &[u8] = b"!$%&*+-./:<=>?@^|~";

/// Brackets nested past this are refused by the lexer, as the compiler's
/// (`limits::MAX_NESTING`).
pub(super) const MAX_NESTING: u32 = capnarena_compiler::limits::MAX_NESTING;

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn is_alpha(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// One token as the cursor sees it. A bracket is only its opening byte:
/// its items are read by the caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tok {
    Ident,
    Str,
    Binary,
    Int(u64),
    Float(f64),
    Op,
    /// `(`.
    Paren,
    /// `[`.
    Bracket,
}

/// A token and where it is: `end` is past its last byte (for a bracket,
/// past the opening byte only).
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

/// The offset of the first byte at or after `at` that is not whitespace,
/// a byte order mark or a `#` comment.
pub(super) fn skip_trivia(s: &[u8], mut at: usize) -> usize {
    loop {
        match s.get(at) {
            Some(&c) if is_ws(c) => at += 1,
            Some(0xef) if s.get(at + 1) == Some(&0xbb) && s.get(at + 2) == Some(&0xbf) => at += 3,
            Some(b'#') => {
                while let Some(&c) = s.get(at) {
                    at += 1;
                    if c == b'\n' {
                        break;
                    }
                }
            }
            _ => return at,
        }
    }
}

/// The token starting at `at` (trivia already skipped); `None` where no
/// token starts (a comma, a closing bracket, the end, or a byte no token
/// starts with).
pub(super) fn token(s: &[u8], at: usize) -> Result<Option<Token>, Fail> {
    let Some(&c) = s.get(at) else {
        return Ok(None);
    };
    let (tok, end) = if is_alpha(c) {
        let mut p = at;
        while matches!(s.get(p), Some(&c) if c.is_ascii_alphanumeric() || c == b'_') {
            p += 1;
        }
        (Tok::Ident, p)
    } else if c == b'"' {
        (Tok::Str, string(s, at, |_| {})?)
    } else if c == b'0' && s.get(at + 1) == Some(&b'x') && s.get(at + 2) == Some(&b'"') {
        (Tok::Binary, binary(s, at, |_| {})?)
    } else if c.is_ascii_digit() {
        number(s, at)?
    } else if OP_CHARS.contains(&c) {
        let mut p = at;
        while matches!(s.get(p), Some(c) if OP_CHARS.contains(c)) {
            p += 1;
        }
        (Tok::Op, p)
    } else if c == b'(' {
        (Tok::Paren, at + 1)
    } else if c == b'[' {
        (Tok::Bracket, at + 1)
    } else if c == 0 || c == 0xff || c == 0xfe {
        return Err((
            at,
            "Non-UTF-8 input detected. Cap'n Proto schema files must be UTF-8 text.".into(),
        ));
    } else {
        return Ok(None);
    };
    Ok(Some(Token {
        tok,
        start: at,
        end,
    }))
}

/// Checks that all of `s` lexes as the compiler's `lex_tokens` reads it;
/// returns the first error it reports. Nesting is tracked in a bit a
/// level, so nothing is allocated and nothing recurses.
pub(super) fn check(s: &[u8]) -> Result<(), Fail> {
    // One bit a level: set for `(`, clear for `[`.
    let mut parens = [0u64; (MAX_NESTING as usize).div_ceil(64)];
    let mut depth = 0u32;
    let mut pos = 0;
    loop {
        pos = skip_trivia(s, pos);
        if let Some(t) = token(s, pos)? {
            pos = t.end;
            if matches!(t.tok, Tok::Paren | Tok::Bracket) {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err((
                        pos,
                        format!("Nesting deeper than {MAX_NESTING} levels (limits::MAX_NESTING)."),
                    ));
                }
                let (word, bit) = ((depth - 1) as usize / 64, (depth - 1) % 64);
                if t.tok == Tok::Paren {
                    parens[word] |= 1 << bit;
                } else {
                    parens[word] &= !(1 << bit);
                }
            }
            continue;
        }
        // The end of a token sequence.
        if depth == 0 {
            if pos < s.len() {
                return Err((pos, "Parse error.".into()));
            }
            return Ok(());
        }
        let (word, bit) = ((depth - 1) as usize / 64, (depth - 1) % 64);
        let close = if parens[word] & (1 << bit) != 0 {
            b')'
        } else {
            b']'
        };
        match s.get(pos) {
            Some(b',') => pos += 1,
            Some(&c) if c == close => {
                pos += 1;
                depth -= 1;
            }
            _ => {
                return Err((
                    pos,
                    format!("Parse error: expected ',' or '{}'.", close as char),
                ));
            }
        }
    }
}

/// The offset past the bracket opened at `open`, in a text [`check`]
/// accepted: found by brackets, strings and comments alone.
pub(super) fn skip_group(s: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    let mut p = open;
    while let Some(&c) = s.get(p) {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return p + 1;
                }
            }
            b'"' => {
                p += 1;
                while let Some(&c) = s.get(p) {
                    match c {
                        b'"' => break,
                        b'\\' => p += 2,
                        _ => p += 1,
                    }
                }
            }
            b'#' => {
                while s.get(p).is_some_and(|&c| c != b'\n') {
                    p += 1;
                }
            }
            _ => {}
        }
        p += 1;
    }
    p.min(s.len())
}

/// The offset past the token at `t` (past its closing bracket for a
/// bracket), in a checked text.
pub(super) fn token_end(s: &[u8], t: &Token) -> usize {
    match t.tok {
        Tok::Paren | Tok::Bracket => skip_group(s, t.start),
        _ => t.end,
    }
}

/// The offset of the `,` or closing bracket (or the end) that ends the
/// item whose first token (or delimiter, when empty) is at `at`, in a
/// checked text.
pub(super) fn item_end(s: &[u8], mut at: usize) -> usize {
    loop {
        at = skip_trivia(s, at);
        match token(s, at) {
            Ok(Some(t)) => at = token_end(s, &t),
            _ => return at,
        }
    }
}

/// Reads the string literal whose `"` is at `at`, giving each byte it
/// stands for to `out`; returns the offset past its closing quote.
pub(super) fn string(s: &[u8], at: usize, mut out: impl FnMut(u8)) -> Result<usize, Fail> {
    let unterminated = || (at, "Unterminated string literal.".to_string());
    let mut p = at + 1;
    loop {
        let &c = s.get(p).ok_or_else(unterminated)?;
        p += 1;
        match c {
            b'"' => return Ok(p),
            b'\\' => {
                let &e = s.get(p).ok_or_else(unterminated)?;
                p += 1;
                match e {
                    b'a' => out(7),
                    b'b' => out(8),
                    b'f' => out(12),
                    b'n' => out(b'\n'),
                    b'r' => out(b'\r'),
                    b't' => out(b'\t'),
                    b'v' => out(11),
                    b'\'' | b'"' | b'\\' | b'?' => out(e),
                    b'x' => {
                        let mut v = 0u32;
                        let mut n = 0;
                        while n < 2 {
                            match s.get(p).and_then(|&c| (c as char).to_digit(16)) {
                                Some(d) => {
                                    v = v * 16 + d;
                                    p += 1;
                                    n += 1;
                                }
                                None => break,
                            }
                        }
                        if n == 0 {
                            return Err((p, "Parse error: bad \\x escape.".into()));
                        }
                        out(v as u8);
                    }
                    b'0'..=b'7' => {
                        let mut v = u32::from(e - b'0');
                        let mut n = 1;
                        while n < 3 {
                            match s.get(p) {
                                Some(&c @ b'0'..=b'7') => {
                                    v = v * 8 + u32::from(c - b'0');
                                    p += 1;
                                    n += 1;
                                }
                                _ => break,
                            }
                        }
                        out(v as u8);
                    }
                    _ => return Err((p - 2, "Parse error: unknown escape sequence.".into())),
                }
            }
            _ => out(c),
        }
    }
}

/// Reads the binary literal `0x"..."` at `at`, giving each byte to `out`;
/// returns the offset past its closing quote.
pub(super) fn binary(s: &[u8], at: usize, mut out: impl FnMut(u8)) -> Result<usize, Fail> {
    let mut p = at + 3;
    let mut any = false;
    loop {
        while matches!(s.get(p), Some(&c) if is_ws(c)) {
            p += 1;
        }
        match s.get(p) {
            Some(b'"') => {
                p += 1;
                break;
            }
            Some(&c) if c.is_ascii_hexdigit() => {
                let hi = (c as char).to_digit(16).unwrap_or(0);
                let Some(lo) = s.get(p + 1).and_then(|&c| (c as char).to_digit(16)) else {
                    return Err((p, "Parse error: hex bytes come in pairs.".into()));
                };
                out((hi * 16 + lo) as u8);
                any = true;
                p += 2;
            }
            None => return Err((at, "Unterminated binary literal.".into())),
            Some(_) => return Err((p, "Parse error: expected hex digits.".into())),
        }
    }
    if !any {
        return Err((at, "Parse error: empty binary literal.".into()));
    }
    Ok(p)
}

/// The number literal at `at`: decimal, hex and octal integers and
/// floats, as the compiler's lexer reads them (integer forms first, then
/// a float; a letter, `_` or `.` right after is an error).
fn number(s: &[u8], at: usize) -> Result<(Tok, usize), Fail> {
    let alpha_at = |p: usize| matches!(s.get(p), Some(&c) if is_alpha(c) || c == b'.');
    let too_big = || (at, "Integer literal is too big.".to_string());
    if s[at] == b'0' && s.get(at + 1) == Some(&b'x') {
        let mut p = at + 2;
        let mut v: u64 = 0;
        let mut overflow = false;
        while let Some(d) = s.get(p).and_then(|&c| (c as char).to_digit(16)) {
            match v.checked_mul(16).and_then(|v| v.checked_add(u64::from(d))) {
                Some(n) => v = n,
                None => overflow = true,
            }
            p += 1;
        }
        if p > at + 2 && !alpha_at(p) {
            if overflow {
                return Err(too_big());
            }
            return Ok((Tok::Int(v), p));
        }
    } else {
        let radix = if s[at] == b'0' { 8 } else { 10 };
        let mut p = at;
        let mut v: u64 = 0;
        let mut overflow = false;
        while let Some(d) = s.get(p).and_then(|&c| (c as char).to_digit(radix)) {
            match v
                .checked_mul(u64::from(radix))
                .and_then(|v| v.checked_add(u64::from(d)))
            {
                Some(n) => v = n,
                None => overflow = true,
            }
            p += 1;
        }
        if !alpha_at(p) && !matches!(s.get(p), Some(b'0'..=b'9')) {
            if overflow {
                return Err(too_big());
            }
            return Ok((Tok::Int(v), p));
        }
    }
    let digits = |mut p: usize| {
        while matches!(s.get(p), Some(b'0'..=b'9')) {
            p += 1;
        }
        p
    };
    let mut p = digits(at);
    if s.get(p) == Some(&b'.') {
        p = digits(p + 1);
    }
    if matches!(s.get(p), Some(b'e' | b'E')) {
        p += 1;
        if matches!(s.get(p), Some(b'+' | b'-')) {
            p += 1;
        }
        p = digits(p);
    }
    let malformed = || (at, "Parse error: malformed number.".to_string());
    if alpha_at(p) {
        return Err(malformed());
    }
    let text = std::str::from_utf8(&s[at..p]).unwrap_or("");
    // Rust's parser refuses an exponent marker without digits ("1e");
    // strtod reads the prefix.
    let trimmed = text.trim_end_matches(['e', 'E', '+', '-']);
    trimmed
        .parse::<f64>()
        .map(|v| (Tok::Float(v), p))
        .map_err(|_| malformed())
}
