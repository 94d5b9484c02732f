//! The JSON text reader. [`validate`] checks a whole text with no
//! allocation and no recursion; the decoder then reads the checked text
//! again by [`Node`]s, the offsets where values start, so no tree of the
//! input is built. The serde deserializer reads with [`Parser`] too.
//!
//! The grammar is the reference codec's: whitespace is space, tab, CR and
//! LF; numbers are `-? (0 | [1-9][0-9]*) (. [0-9]*)? ([eE] [+-]? [0-9]*)?`
//! read as the nearest `f64` (a number that does not read, such as `1e`,
//! is an error); strings take the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`
//! (a surrogate pair makes one character); one value, then only
//! whitespace, makes the input. Unlike the reference, a NUL byte is an
//! error rather than the end of the input, a lone surrogate escape is an
//! error, and `\u` escapes with the hex digits `a`-`f` decode as JSON
//! says (the reference reads them as 0-5).

use std::borrow::Cow;

use super::error::{JsonError, JsonResult, Position};
use super::scan::next_string_stop;

/// A JSON value of a text that [`validate`] accepted: the byte offset
/// where it starts. What it holds is read again from the text when the
/// decoder needs it ([`Parser::scalar_at`], [`Parser::items`],
/// [`Parser::members`]), so no tree of the input is ever built.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub offset: usize,
}

/// A JSON value as the decoder reads it: a scalar with its content, or
/// the kind of a container.
#[derive(Debug)]
pub(crate) enum Value<'t> {
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'t, str>),
    Array,
    Object,
}

/// Checks that `text` (all of it: one value and whitespace) is JSON whose
/// arrays and objects nest at most `max_depth` levels. Allocates nothing
/// and reports the first error, as a parser of the whole text would.
pub(crate) fn validate(text: &[u8], max_depth: usize) -> JsonResult<Node> {
    let (node, end) = validate_prefix(text, 0, max_depth).map_err(|(e, _)| e)?;
    if end < text.len() {
        let p = Parser::new(text, end, max_depth);
        return Err(p.error_at(end, "input remains after the JSON value"));
    }
    Ok(node)
}

/// Checks the value at `start` of `text` (after whitespace); returns it
/// and the offset after it and the whitespace that follows; on an error,
/// also how far the check read (the end of `text` when it ran out).
pub(crate) fn validate_prefix(
    text: &[u8],
    start: usize,
    max_depth: usize,
) -> Result<(Node, usize), (JsonError, usize)> {
    let mut p = Parser::new(text, start, max_depth);
    p.skip_ws();
    let node = Node { offset: p.pos };
    match p.skip_value() {
        Ok(()) => {
            p.skip_ws();
            Ok((node, p.pos))
        }
        Err(e) => Err((e, p.pos)),
    }
}

/// The offset of the first byte at or after `start` that is not JSON
/// whitespace.
pub(crate) fn skip_whitespace(text: &[u8], start: usize) -> usize {
    let mut i = start;
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = text.get(i) {
        i += 1;
    }
    i
}

/// The offset after the value at `at` of a text [`validate`] accepted:
/// found by brackets and quotes alone, without checking again. (On a
/// text that was not checked it stops somewhere, never out of bounds.)
fn skip_checked(text: &[u8], at: usize) -> usize {
    let mut i = at;
    let mut depth = 0usize;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => {
                i = skip_checked_string(text, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' if depth == 0 => return i,
            b']' | b'}' if depth == 1 => return i + 1,
            b']' | b'}' => depth -= 1,
            b',' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// The offset after the string whose `"` is at `at`, in a checked text.
fn skip_checked_string(text: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    i
}

/// The open arrays and objects of [`Parser::skip_value`]: one bit a
/// level (set for an object), for [`MAX_NESTING_CEILING`] levels.
///
/// [`MAX_NESTING_CEILING`]: super::MAX_NESTING_CEILING
struct Levels {
    objects: [u64; super::MAX_NESTING_CEILING / 64],
    len: usize,
}

impl Levels {
    fn push(&mut self, object: bool) -> bool {
        let Some(word) = self.objects.get_mut(self.len / 64) else {
            return false;
        };
        let bit = 1u64 << (self.len % 64);
        if object {
            *word |= bit;
        } else {
            *word &= !bit;
        }
        self.len += 1;
        true
    }

    /// Whether the innermost open level is an object; `None` at the top.
    fn top(&self) -> Option<bool> {
        let i = self.len.checked_sub(1)?;
        Some(self.objects[i / 64] & (1 << (i % 64)) != 0)
    }
}

/// The elements of an array (see [`Parser::items`]).
pub(crate) struct Items<'t> {
    p: Parser<'t>,
    done: bool,
}

impl Iterator for Items<'_> {
    type Item = JsonResult<Node>;

    fn next(&mut self) -> Option<JsonResult<Node>> {
        if self.done {
            return None;
        }
        fused(&mut self.done, self.p.next_item())
    }
}

/// The next element of an iterator over a parser's output: none once the
/// parser said so or failed, and `done` set then.
fn fused<T>(done: &mut bool, r: JsonResult<Option<T>>) -> Option<JsonResult<T>> {
    let out = r.transpose();
    *done = !matches!(out, Some(Ok(_)));
    out
}

/// A member of an object: its name, where the name starts, its value.
pub(crate) type Member<'t> = (Cow<'t, str>, usize, Node);

/// The members of an object (see [`Parser::members`]).
pub(crate) struct Members<'t> {
    p: Parser<'t>,
    done: bool,
}

impl<'t> Iterator for Members<'t> {
    type Item = JsonResult<Member<'t>>;

    fn next(&mut self) -> Option<JsonResult<Member<'t>>> {
        if self.done {
            return None;
        }
        fused(&mut self.done, self.p.next_member())
    }
}

/// The reader of JSON text, a token at a time: what [`parse`] builds its
/// tree with, and the serde deserializer reads values with.
pub(crate) struct Parser<'t> {
    pub(crate) text: &'t [u8],
    /// The offset of the next byte to read.
    pub(crate) pos: usize,
    /// Arrays and objects open now, and the most allowed.
    depth: usize,
    max_depth: usize,
    /// The stack's address at the outermost array or object open (see
    /// [`Parser::enter`]).
    stack_base: usize,
    /// `text` as a `str`, when it is known to be UTF-8 as a whole: then
    /// a string's runs are slices of it, not checked again.
    utf8: Option<&'t str>,
}

fn describe(b: Option<u8>) -> String {
    match b {
        None => "the end of the input".into(),
        Some(b) if b.is_ascii_graphic() => format!("{:?}", b as char),
        Some(b) => format!("byte {b:#04x}"),
    }
}

impl<'t> Parser<'t> {
    /// A parser of `text` from byte `start`.
    pub(crate) fn new(text: &'t [u8], start: usize, max_depth: usize) -> Self {
        Parser {
            text,
            pos: start,
            depth: 0,
            max_depth,
            stack_base: 0,
            utf8: None,
        }
    }

    /// A parser of `text`, all of it UTF-8, from byte `start`.
    pub(crate) fn of_str(text: &'t str, start: usize, max_depth: usize) -> Self {
        Parser {
            utf8: Some(text),
            ..Parser::new(text.as_bytes(), start, max_depth)
        }
    }

    pub(crate) fn error_at(&self, offset: usize, message: impl Into<String>) -> JsonError {
        JsonError::Syntax {
            at: Position::of(self.text, offset),
            message: message.into(),
        }
    }

    pub(crate) fn unexpected(&self, expected: &str) -> JsonError {
        let found = describe(self.peek());
        self.error_at(self.pos, format!("expected {expected}, found {found}"))
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    pub(crate) fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    pub(crate) fn expect(&mut self, b: u8, what: &str) -> JsonResult<()> {
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    /// Reads the literal `word` (`null`, `true`, `false`).
    pub(crate) fn word(&mut self, word: &[u8]) -> JsonResult<()> {
        let end = self.pos + word.len();
        if self.text.get(self.pos..end) == Some(word) {
            self.pos = end;
            return Ok(());
        }
        // Point at the first byte that differs.
        let same = word
            .iter()
            .zip(&self.text[self.pos..])
            .take_while(|(a, b)| a == b)
            .count();
        self.pos += same;
        Err(self.unexpected(&format!("{:?}", String::from_utf8_lossy(word))))
    }

    /// Opens an array or object (at the current position): checks the
    /// depth limit, and the stack that the levels open use against
    /// [`STACK_BUDGET`](crate::STACK_BUDGET), measured from the
    /// outermost. The recursion that reads the levels (this module's
    /// tree builder, or through the serde deserializer the `Deserialize`
    /// impls it runs) calls this once a level, so it stops there with an
    /// error rather than overflowing the stack.
    pub(crate) fn enter(&mut self) -> JsonResult<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(JsonError::TooDeep {
                at: Position::of(self.text, self.pos),
                limit: self.max_depth,
            });
        }
        if self.depth == 1 {
            self.stack_base = crate::stack::address();
        } else if let Some(used) = crate::stack::over_budget(self.stack_base) {
            return Err(JsonError::StackBudget {
                at: Position::of(self.text, self.pos),
                depth: self.depth,
                used,
                budget: crate::STACK_BUDGET,
            });
        }
        Ok(())
    }

    /// Closes the array or object [`Parser::enter`] opened.
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Reads past the value at the current position, checking it: the
    /// grammar, the depth limit and the errors of a parser that builds
    /// the value, with no allocation and no recursion.
    pub(crate) fn skip_value(&mut self) -> JsonResult<()> {
        let outer = self.depth;
        let mut levels = Levels {
            objects: [0; super::MAX_NESTING_CEILING / 64],
            len: 0,
        };
        loop {
            // At a value.
            match self.peek() {
                Some(b'n') => self.word(b"null")?,
                Some(b't') => self.word(b"true")?,
                Some(b'f') => self.word(b"false")?,
                Some(b'"') => self.skip_string()?,
                Some(b'-' | b'0'..=b'9') => self.check_number()?,
                Some(open @ (b'[' | b'{')) => {
                    self.enter()?;
                    let object = open == b'{';
                    if !levels.push(object) {
                        return Err(JsonError::TooDeep {
                            at: Position::of(self.text, self.pos),
                            limit: levels.len,
                        });
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                        self.leave();
                        levels.len -= 1;
                    } else {
                        if object {
                            self.member_name()?;
                        }
                        continue;
                    }
                }
                _ => return Err(self.unexpected("a JSON value")),
            }
            // After a value: close the levels it ends.
            loop {
                let Some(object) = levels.top() else {
                    debug_assert_eq!(self.depth, outer);
                    return Ok(());
                };
                self.skip_ws();
                let close = if object { b'}' } else { b']' };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                        if object {
                            self.member_name()?;
                        }
                        break;
                    }
                    Some(c) if c == close => {
                        self.pos += 1;
                        self.leave();
                        levels.len -= 1;
                    }
                    _ if object => return Err(self.unexpected("',' or '}'")),
                    _ => return Err(self.unexpected("',' or ']'")),
                }
            }
        }
    }

    /// Reads a member's name, the `:` after it and the whitespace around
    /// it; returns the name (kept only when `keep`) and where it starts.
    fn member_name_kept(&mut self, keep: bool) -> JsonResult<(Cow<'t, str>, usize)> {
        if self.peek() != Some(b'"') {
            return Err(self.unexpected("a member name (a string)"));
        }
        let at = self.pos;
        let name = self.string_kept(keep)?;
        self.skip_ws();
        self.expect(b':', "':'")?;
        self.skip_ws();
        Ok((name, at))
    }

    fn member_name(&mut self) -> JsonResult<()> {
        self.member_name_kept(false).map(drop)
    }

    /// The value at `node` of a checked text: its content when it is a
    /// scalar, its kind when it is an array or object.
    pub(crate) fn scalar_at(text: &'t [u8], node: Node) -> JsonResult<Value<'t>> {
        let mut p = Parser::new(text, node.offset, 0);
        Ok(match p.peek() {
            Some(b'n') => Value::Null,
            Some(b't') => Value::Bool(true),
            Some(b'f') => Value::Bool(false),
            Some(b'"') => Value::String(p.string_cow()?),
            Some(b'[') => Value::Array,
            Some(b'{') => Value::Object,
            _ => Value::Number(p.number()?),
        })
    }

    /// The elements of the array at `node` of a checked text, in order.
    pub(crate) fn items(text: &'t [u8], node: Node) -> Items<'t> {
        let mut p = Parser::new(text, node.offset + 1, super::MAX_NESTING_CEILING);
        p.skip_ws();
        Items { p, done: false }
    }

    /// The members of the object at `node` of a checked text, in order.
    pub(crate) fn members(text: &'t [u8], node: Node) -> Members<'t> {
        let mut p = Parser::new(text, node.offset + 1, super::MAX_NESTING_CEILING);
        p.skip_ws();
        Members { p, done: false }
    }

    /// How many elements the array (or members the object) at `node` of
    /// a checked text has: read ahead over them, without keeping any.
    pub(crate) fn count(text: &'t [u8], node: Node) -> JsonResult<usize> {
        let mut i = node.offset + 1;
        let mut depth = 0usize;
        let mut n = 0;
        let mut empty = true;
        while let Some(&b) = text.get(i) {
            match b {
                b'"' => {
                    i = skip_checked_string(text, i);
                    empty = false;
                    continue;
                }
                b'[' | b'{' => depth += 1,
                b']' | b'}' if depth == 0 => return Ok(if empty { 0 } else { n + 1 }),
                b']' | b'}' => depth -= 1,
                b',' if depth == 0 => n += 1,
                _ => {}
            }
            empty &= matches!(b, b' ' | b'\t' | b'\n' | b'\r');
            i += 1;
        }
        Err(Parser::new(text, node.offset, 0)
            .error_at(node.offset, "the array or object is not closed"))
    }

    /// The next element of an array, the parser at it (or at the `]`).
    fn next_item(&mut self) -> JsonResult<Option<Node>> {
        if self.peek() == Some(b']') {
            return Ok(None);
        }
        let node = Node { offset: self.pos };
        self.pos = skip_checked(self.text, self.pos);
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                self.skip_ws();
            }
            Some(b']') => {}
            _ => return Err(self.unexpected("',' or ']'")),
        }
        Ok(Some(node))
    }

    /// The next member of an object, the parser at it (or at the `}`).
    fn next_member(&mut self) -> JsonResult<Option<Member<'t>>> {
        if self.peek() == Some(b'}') {
            return Ok(None);
        }
        let (name, at) = self.member_name_kept(true)?;
        let node = Node { offset: self.pos };
        self.pos = skip_checked(self.text, self.pos);
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                self.skip_ws();
            }
            Some(b'}') => {}
            _ => return Err(self.unexpected("',' or '}'")),
        }
        Ok(Some((name, at, node)))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    /// Reads past a number, checking that it reads as [`Parser::number`]
    /// would (the grammar leaves one way to fail: an exponent without
    /// digits), without converting it.
    fn check_number(&mut self) -> JsonResult<()> {
        let (start, _) = self.number_span()?;
        if let Some(b'e' | b'E' | b'+' | b'-') = self.text.get(self.pos - 1) {
            return self.number_value(start).map(drop);
        }
        Ok(())
    }

    fn number(&mut self) -> JsonResult<f64> {
        let (start, _) = self.number_span()?;
        self.number_value(start)
    }

    /// The value of the number from `start` to the current position
    /// (a span [`Parser::number_span`] read).
    pub(crate) fn number_value(&self, start: usize) -> JsonResult<f64> {
        // The slice is ASCII by construction.
        let s = core::str::from_utf8(&self.text[start..self.pos]).unwrap_or("");
        s.parse::<f64>()
            .map_err(|_| self.error_at(start, format!("{s:?} is not a number")))
    }

    /// Reads past a number's text: returns where it starts and whether
    /// it is an integer (no fraction, no exponent).
    pub(crate) fn number_span(&mut self) -> JsonResult<(usize, bool)> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.unexpected("a digit")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.pos += 1;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.digits();
        }
        Ok((start, integer))
    }

    fn hex4(&mut self) -> JsonResult<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.unexpected("a hex digit of a \\u escape")),
            };
            v = (v << 4) | u32::from(d);
            self.pos += 1;
        }
        Ok(v)
    }

    /// Reads the string at the current position (at its `"`): borrowed
    /// from the text when it has no escapes.
    pub(crate) fn string_cow(&mut self) -> JsonResult<Cow<'t, str>> {
        self.string_kept(true)
    }

    /// Reads past the string at the current position (at its `"`),
    /// checking it as [`Parser::string_cow`] does, without keeping it.
    fn skip_string(&mut self) -> JsonResult<()> {
        self.string_kept(false).map(drop)
    }

    /// [`Parser::string_cow`], or when not `keep`, the empty string
    /// after the same checks (no allocation).
    fn string_kept(&mut self, keep: bool) -> JsonResult<Cow<'t, str>> {
        let open = self.pos;
        self.pos += 1; // '"'
        let mut out: Vec<u8> = Vec::new();
        loop {
            let run = self.pos;
            self.pos = next_string_stop(self.text, run);
            let raw: &'t [u8] = &self.text[run..self.pos];
            // The run starts after `"` or an escape and ends before `"`,
            // `\` or NUL: on char boundaries of a text known to be UTF-8.
            let known = self.utf8.and_then(|all| all.get(run..self.pos));
            let raw_str = match known {
                Some(s) => s,
                None => match core::str::from_utf8(raw) {
                    Ok(s) => s,
                    Err(e) => {
                        return Err(self.error_at(run + e.valid_up_to(), "the string is not UTF-8"));
                    }
                },
            };
            if run == open + 1 && self.peek() == Some(b'"') {
                // No escapes: the text itself.
                self.pos += 1;
                return Ok(Cow::Borrowed(raw_str));
            }
            if keep {
                out.extend_from_slice(raw);
            }
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    let escape = self.pos;
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let hi = self.hex4()?;
                            self.pos -= 1; // the common advance below
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                self.pos += 1;
                                if self.text.get(self.pos..self.pos + 2) != Some(b"\\u") {
                                    return Err(self.error_at(
                                        escape,
                                        format!("\\u{hi:04x} is a high surrogate without a low one after it"),
                                    ));
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                self.pos -= 1;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error_at(
                                        escape,
                                        format!("\\u{hi:04x} is followed by \\u{lo:04x}, not a low surrogate"),
                                    ));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(c) => c,
                                None => {
                                    return Err(self.error_at(
                                        escape,
                                        format!("\\u{code:04x} is a lone low surrogate"),
                                    ));
                                }
                            }
                        }
                        _ => return Err(self.unexpected("an escape (\" \\ / b f n r t u)")),
                    };
                    self.pos += 1;
                    let mut buf = [0u8; 4];
                    if keep {
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                }
                Some(_) => return Err(self.error_at(self.pos, "a NUL byte inside a string")),
                None => {
                    return Err(self.error_at(
                        open,
                        "the string that starts here is not closed before the end of the input",
                    ));
                }
            }
        }
        // Each run was checked to be UTF-8 and escapes add whole
        // characters.
        String::from_utf8(out)
            .map(Cow::Owned)
            .map_err(|e| self.error_at(open, format!("the string is not UTF-8: {e}")))
    }
}
