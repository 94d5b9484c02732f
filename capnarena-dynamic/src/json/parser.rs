//! The JSON text reader: text to a tree of [`Node`]s that remember where
//! each value starts, with limits on size and nesting.
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

/// A JSON value and the byte offset where it starts.
#[derive(Debug)]
pub(crate) struct Node {
    pub offset: usize,
    pub value: Value,
}

/// A JSON value.
#[derive(Debug)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Node>),
    /// Members in order: name, where the name starts, value.
    Object(Vec<(String, usize, Node)>),
}

impl Value {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// Parses `text` (all of it: one value and whitespace) into a tree.
/// Arrays and objects nest at most `max_depth` levels.
pub(crate) fn parse(text: &[u8], max_depth: usize) -> JsonResult<Node> {
    let (node, end) = parse_prefix(text, 0, max_depth).map_err(|(e, _)| e)?;
    if end < text.len() {
        let p = Parser::new(text, end, max_depth);
        return Err(p.error_at(end, "input remains after the JSON value"));
    }
    Ok(node)
}

/// Parses the value at `start` of `text` (after whitespace); returns it
/// and the offset after it and the whitespace that follows; on an error,
/// also how far the parser read (the end of `text` when it ran out).
pub(crate) fn parse_prefix(
    text: &[u8],
    start: usize,
    max_depth: usize,
) -> Result<(Node, usize), (JsonError, usize)> {
    let mut p = Parser::new(text, start, max_depth);
    p.skip_ws();
    match p.value() {
        Ok(node) => {
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

    fn value(&mut self) -> JsonResult<Node> {
        let offset = self.pos;
        let value = match self.peek() {
            Some(b'n') => self.literal(b"null", Value::Null)?,
            Some(b't') => self.literal(b"true", Value::Bool(true))?,
            Some(b'f') => self.literal(b"false", Value::Bool(false))?,
            Some(b'"') => Value::String(self.string()?),
            Some(b'[') => self.array()?,
            Some(b'{') => self.object()?,
            Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
            _ => return Err(self.unexpected("a JSON value")),
        };
        Ok(Node { offset, value })
    }

    fn literal(&mut self, word: &[u8], value: Value) -> JsonResult<Value> {
        self.word(word)?;
        Ok(value)
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

    fn array(&mut self) -> JsonResult<Value> {
        self.enter()?;
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
        } else {
            loop {
                items.push(self.value()?);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                    }
                    Some(b']') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected("',' or ']'")),
                }
            }
        }
        self.leave();
        Ok(Value::Array(items))
    }

    fn object(&mut self) -> JsonResult<Value> {
        self.enter()?;
        self.pos += 1; // '{'
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                if self.peek() != Some(b'"') {
                    return Err(self.unexpected("a member name (a string)"));
                }
                let name_at = self.pos;
                let name = self.string()?;
                self.skip_ws();
                self.expect(b':', "':'")?;
                self.skip_ws();
                let value = self.value()?;
                members.push((name, name_at, value));
                self.skip_ws();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                    }
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected("',' or '}'")),
                }
            }
        }
        self.leave();
        Ok(Value::Object(members))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
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

    fn string(&mut self) -> JsonResult<String> {
        self.string_cow().map(Cow::into_owned)
    }

    /// Reads the string at the current position (at its `"`): borrowed
    /// from the text when it has no escapes.
    pub(crate) fn string_cow(&mut self) -> JsonResult<Cow<'t, str>> {
        let open = self.pos;
        self.pos += 1; // '"'
        let mut out: Vec<u8> = Vec::new();
        loop {
            let run = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b == 0 {
                    break;
                }
                self.pos += 1;
            }
            let raw: &'t [u8] = &self.text[run..self.pos];
            let raw_str = match core::str::from_utf8(raw) {
                Ok(s) => s,
                Err(e) => {
                    return Err(self.error_at(run + e.valid_up_to(), "the string is not UTF-8"));
                }
            };
            if run == open + 1 && self.peek() == Some(b'"') {
                // No escapes: the text itself.
                self.pos += 1;
                return Ok(Cow::Borrowed(raw_str));
            }
            out.extend_from_slice(raw);
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
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
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
        // The input was checked to be UTF-8 and escapes add whole
        // characters.
        String::from_utf8(out)
            .map(Cow::Owned)
            .map_err(|e| self.error_at(open, format!("the string is not UTF-8: {e}")))
    }
}
