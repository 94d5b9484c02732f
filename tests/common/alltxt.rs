//! A parser for the schema language's value syntax, as used by the message
//! sources `tests/vectors/NAME.txt`: structs `( name = value, .. )`, lists
//! `[ value, .. ]`, double-quoted strings with C escapes, numbers, and bare
//! words (`void`, `true`, `false`, enumerant names).
//!
//! It knows nothing of the wire format or of the schema: it turns the text
//! into a [`Value`] tree, an expectation built independently of the crate
//! under test. Interpreting a value (which field, which type) is the
//! caller's job.

/// One value of the text form.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A struct, union or group: its fields in the order written.
    Struct(Vec<(String, Value)>),
    /// A list.
    List(Vec<Value>),
    /// A number written without a fraction or exponent.
    Int(i128),
    /// A number written with a fraction or exponent (or `inf`/`nan`).
    Float(f64),
    /// A double-quoted string, decoded to bytes (a `Text` or a `Data`).
    Str(Vec<u8>),
    /// A bare word: `void`, `true`, `false` or an enumerant.
    Word(String),
}

impl Value {
    /// The fields of a struct value.
    ///
    /// # Panics
    /// When the value is not a struct.
    pub fn fields(&self) -> &[(String, Value)] {
        match self {
            Value::Struct(f) => f,
            other => panic!("expected a struct value, found {other:?}"),
        }
    }
}

/// Parses one value (the whole text, which must hold nothing else but
/// blanks and `#` comments).
///
/// # Panics
/// On any syntax it does not know, with the byte offset.
pub fn parse(text: &str) -> Value {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
    };
    let v = p.value();
    p.skip_ws();
    if p.at != p.s.len() {
        p.fail("text after the value");
    }
    v
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn fail(&self, what: &str) -> ! {
        let end = (self.at + 40).min(self.s.len());
        let near = String::from_utf8_lossy(&self.s[self.at.min(end)..end]);
        panic!("message text, byte {}: {what} (near {near:?})", self.at)
    }

    fn skip_ws(&mut self) {
        while let Some(&c) = self.s.get(self.at) {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => self.at += 1,
                b'#' => {
                    while self.s.get(self.at).is_some_and(|&c| c != b'\n') {
                        self.at += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) {
        if !self.eat(c) {
            self.fail(&format!("expected `{}`", c as char));
        }
    }

    fn value(&mut self) -> Value {
        match self.peek() {
            Some(b'(') => self.structure(),
            Some(b'[') => self.list(),
            Some(b'"') => Value::Str(self.string()),
            Some(c) if c == b'-' || c.is_ascii_digit() => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let w = self.word();
                match w.as_str() {
                    "inf" => Value::Float(f64::INFINITY),
                    "nan" => Value::Float(f64::NAN),
                    _ => Value::Word(w),
                }
            }
            _ => self.fail("expected a value"),
        }
    }

    fn structure(&mut self) -> Value {
        self.expect(b'(');
        let mut fields = Vec::new();
        if self.eat(b')') {
            return Value::Struct(fields);
        }
        loop {
            let name = self.word();
            if fields.iter().any(|(n, _)| *n == name) {
                self.fail(&format!("field `{name}` given twice"));
            }
            self.expect(b'=');
            let v = self.value();
            fields.push((name, v));
            if !self.eat(b',') {
                self.expect(b')');
                return Value::Struct(fields);
            }
        }
    }

    fn list(&mut self) -> Value {
        self.expect(b'[');
        let mut items = Vec::new();
        if self.eat(b']') {
            return Value::List(items);
        }
        loop {
            items.push(self.value());
            if !self.eat(b',') {
                self.expect(b']');
                return Value::List(items);
            }
        }
    }

    fn word(&mut self) -> String {
        self.skip_ws();
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            self.at += 1;
        }
        if start == self.at {
            self.fail("expected a name");
        }
        String::from_utf8(self.s[start..self.at].to_vec()).unwrap()
    }

    /// `-`? digits, then optionally `.` digits and `e` sign? digits (a
    /// float), or `-inf`.
    fn number(&mut self) -> Value {
        self.skip_ws();
        let start = self.at;
        let neg = self.s.get(self.at) == Some(&b'-');
        if neg {
            self.at += 1;
            if self.s[self.at..].starts_with(b"inf") {
                self.at += 3;
                return Value::Float(f64::NEG_INFINITY);
            }
        }
        let mut float = false;
        while let Some(&c) = self.s.get(self.at) {
            match c {
                b'0'..=b'9' => {}
                b'.' => float = true,
                b'e' | b'E' => {
                    float = true;
                    if matches!(self.s.get(self.at + 1), Some(b'+' | b'-')) {
                        self.at += 1;
                    }
                }
                _ => break,
            }
            self.at += 1;
        }
        let tok = std::str::from_utf8(&self.s[start..self.at]).unwrap();
        if float {
            Value::Float(
                tok.parse()
                    .unwrap_or_else(|_| self.fail(&format!("bad float `{tok}`"))),
            )
        } else {
            Value::Int(
                tok.parse()
                    .unwrap_or_else(|_| self.fail(&format!("bad integer `{tok}`"))),
            )
        }
    }

    /// A double-quoted string with C escapes (`\"`, `\\`, `\'`, `\n`, `\t`,
    /// `\r`, `\xHH`, octal `\NNN`), decoded to bytes.
    fn string(&mut self) -> Vec<u8> {
        self.expect(b'"');
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.at) else {
                self.fail("unterminated string")
            };
            self.at += 1;
            if c == b'"' {
                return out;
            }
            if c != b'\\' {
                out.push(c);
                continue;
            }
            let Some(&e) = self.s.get(self.at) else {
                self.fail("unterminated escape")
            };
            self.at += 1;
            match e {
                b'"' | b'\\' | b'\'' => out.push(e),
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'x' => {
                    let hex = self.s.get(self.at..self.at + 2).unwrap_or_default();
                    let v = std::str::from_utf8(hex)
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .unwrap_or_else(|| self.fail("bad \\x escape"));
                    self.at += 2;
                    out.push(v);
                }
                b'0'..=b'7' => {
                    let mut v = u32::from(e - b'0');
                    for _ in 0..2 {
                        match self.s.get(self.at) {
                            Some(&d @ b'0'..=b'7') => {
                                v = v * 8 + u32::from(d - b'0');
                                self.at += 1;
                            }
                            _ => break,
                        }
                    }
                    out.push(u8::try_from(v).unwrap_or_else(|_| self.fail("octal > 255")));
                }
                _ => self.fail("unknown escape"),
            }
        }
    }
}
