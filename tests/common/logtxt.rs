//! A small parser for the text form of a `Log` message (`tests/vectors/log.txt`
//! and the reference's rendering `log.expected`): just enough of the schema
//! language's value syntax for `( entries = [ (timestamp = .., level = ..,
//! message = "..", tags = [".."]), .. ] )`.
//!
//! It knows nothing of the wire format, so the entries it yields are an
//! independent expectation to hold a reader's output against.

/// One `Entry` of a `Log`, with the schema's defaults for fields the text
/// leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub timestamp: u64,
    pub level: u8,
    pub message: String,
    pub tags: Vec<String>,
}

/// Parses the text of a `Log` message into its entries.
///
/// # Panics
/// On any syntax it does not know, with the byte offset.
pub fn parse_log(text: &str) -> Vec<Entry> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
    };
    let mut entries = Vec::new();
    p.expect(b'(');
    loop {
        if p.eat(b')') {
            break;
        }
        let field = p.ident();
        p.expect(b'=');
        match field.as_str() {
            "entries" => {
                p.list(|p| entries.push(p.entry()));
            }
            other => p.fail(&format!("unknown Log field `{other}`")),
        }
        if !p.eat(b',') {
            p.expect(b')');
            break;
        }
    }
    p.skip_ws();
    if p.at != p.s.len() {
        p.fail("text after the message");
    }
    entries
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn fail(&self, what: &str) -> ! {
        let near = String::from_utf8_lossy(&self.s[self.at..(self.at + 40).min(self.s.len())]);
        panic!("log text, byte {}: {what} (near {near:?})", self.at)
    }

    fn skip_ws(&mut self) {
        while self.at < self.s.len() {
            match self.s[self.at] {
                b' ' | b'\t' | b'\n' | b'\r' => self.at += 1,
                b'#' => {
                    while self.at < self.s.len() && self.s[self.at] != b'\n' {
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

    fn ident(&mut self) -> String {
        self.skip_ws();
        let start = self.at;
        while self.at < self.s.len()
            && (self.s[self.at].is_ascii_alphanumeric() || self.s[self.at] == b'_')
        {
            self.at += 1;
        }
        if start == self.at {
            self.fail("expected a field name");
        }
        String::from_utf8(self.s[start..self.at].to_vec()).unwrap()
    }

    fn unsigned(&mut self) -> u64 {
        self.skip_ws();
        let start = self.at;
        while self.at < self.s.len() && self.s[self.at].is_ascii_digit() {
            self.at += 1;
        }
        let digits = std::str::from_utf8(&self.s[start..self.at]).unwrap();
        digits
            .parse()
            .unwrap_or_else(|_| self.fail("expected an unsigned integer"))
    }

    /// A double-quoted string with C-style escapes (`\"`, `\\`, `\n`,
    /// `\t`, `\xHH`, octal `\NNN`), decoded as bytes then UTF-8.
    fn string(&mut self) -> String {
        self.expect(b'"');
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.at) else {
                self.fail("unterminated string")
            };
            self.at += 1;
            match c {
                b'"' => break,
                b'\\' => {
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
                _ => out.push(c),
            }
        }
        String::from_utf8(out).unwrap_or_else(|_| self.fail("string is not UTF-8"))
    }

    /// `[ item, item, .. ]`, calling `item` for each.
    fn list(&mut self, mut item: impl FnMut(&mut Self)) {
        self.expect(b'[');
        if self.eat(b']') {
            return;
        }
        loop {
            item(self);
            if !self.eat(b',') {
                self.expect(b']');
                return;
            }
        }
    }

    fn entry(&mut self) -> Entry {
        let mut e = Entry::default();
        self.expect(b'(');
        if self.eat(b')') {
            return e;
        }
        loop {
            let field = self.ident();
            self.expect(b'=');
            match field.as_str() {
                "timestamp" => e.timestamp = self.unsigned(),
                "level" => {
                    let v = self.unsigned();
                    e.level = u8::try_from(v).unwrap_or_else(|_| self.fail("level > 255"));
                }
                "message" => e.message = self.string(),
                "tags" => {
                    let mut tags = Vec::new();
                    self.list(|p| tags.push(p.string()));
                    e.tags = tags;
                }
                other => self.fail(&format!("unknown Entry field `{other}`")),
            }
            if !self.eat(b',') {
                self.expect(b')');
                return e;
            }
        }
    }
}
