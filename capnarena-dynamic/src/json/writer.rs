//! The JSON text writer: a tree of values to text, short (no whitespace)
//! or pretty, byte for byte as the reference's codec writes them.
//!
//! Pretty layout (the reference's rule): an array or object with more
//! than one element goes one element per line when an element spans
//! lines or is longer than 50 bytes; otherwise it stays on one line with
//! `", "` between elements. A multi-line list opens with `"{ "` (`"[ "`),
//! or, as the value of an object member, moves its first element to the
//! next line; it closes with `" }"` (`" ]"`). Elements indent two spaces
//! per level, and a list of one element adds no level.

use super::number::{push_i64, push_i128, push_number, push_u64, push_u128};
use super::scan::next_to_escape;

/// A JSON value to write.
#[derive(Debug)]
pub(crate) enum Out {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Out>),
    Object(Vec<(String, Out)>),
    /// A call `f(a, b)`: a `json.Value` can hold one.
    Call(String, Vec<Out>),
}

/// The text of `value`.
pub(crate) fn write(value: &Out, pretty: bool) -> String {
    let mut w = JsonWriter::new(pretty);
    w.value(value);
    w.finish()
}

impl JsonWriter {
    /// Writes `value` (a whole tree) as the next value.
    fn value(&mut self, value: &Out) {
        match value {
            Out::Null => self.null(),
            Out::Bool(b) => self.bool(*b),
            Out::Number(n) => self.number(*n),
            Out::String(s) => self.string(s),
            Out::Array(items) => {
                self.begin(Open::Array);
                for item in items {
                    self.value(item);
                }
                self.end();
            }
            Out::Object(members) => {
                self.begin(Open::Object);
                for (name, item) in members {
                    self.key(name);
                    self.value(item);
                }
                self.end();
            }
            Out::Call(function, params) => {
                self.begin(Open::Call(function));
                for item in params {
                    self.value(item);
                }
                self.end();
            }
        }
    }
}

/// What [`JsonWriter::begin`] opens.
#[derive(Clone, Copy)]
pub(crate) enum Open<'a> {
    Array,
    Object,
    /// `function(params...)`.
    Call(&'a str),
}

/// The one writer of JSON text, fed a value at a time (scalars, and the
/// start and end of arrays, objects and calls): what [`write`] drives
/// over a tree and the serde serializer drives over a Rust value.
///
/// Short text goes straight to the output. Pretty text needs each
/// element's text before its container's layout is known, so an open
/// container keeps its elements' text (one buffer, reused across
/// containers at the same depth) and lays it out when it ends. Each
/// container's text is laid out as if at indentation zero, and its
/// container shifts every line break in it by one level when it has more
/// than one element (which it learns only at its end): the same text as
/// laying out at the final depth. (An element's length decides the layout
/// only when it has no line break: one that has a line break is a
/// multi-line container or holds one, and so is longer than 50 bytes at
/// any indentation.)
pub(crate) struct JsonWriter {
    pretty: bool,
    out: String,
    /// Short: whether the next value or key needs a `,` before it.
    need_comma: bool,
    /// Short: the closing bracket of each open container.
    closers: Vec<u8>,
    /// Pretty: the open containers, `frames[..depth]` (the rest are kept
    /// for their buffers).
    frames: Vec<Frame>,
    depth: usize,
}

#[derive(Default)]
struct Frame {
    /// `[`, `{` or `function(`.
    head: String,
    close: char,
    /// Whether a multi-line layout starts on a new line (the value of an
    /// object member; a call always).
    has_prefix: bool,
    /// The elements' text (an object's elements are `"name": value`).
    buf: String,
    /// Where each element ends in `buf`, and whether it has a line break.
    parts: Vec<(usize, bool)>,
    /// Whether an element was laid out over several lines.
    child_multiline: bool,
    /// An object whose last key waits for its value.
    after_key: bool,
}

impl JsonWriter {
    pub(crate) fn new(pretty: bool) -> Self {
        JsonWriter {
            pretty,
            out: String::new(),
            need_comma: false,
            closers: Vec::new(),
            frames: Vec::new(),
            depth: 0,
        }
    }

    /// The text written (the containers begun must all have ended).
    pub(crate) fn finish(self) -> String {
        self.out
    }

    /// Containers open now.
    pub(crate) fn depth(&self) -> usize {
        if self.pretty {
            self.depth
        } else {
            self.closers.len()
        }
    }

    /// Where the next scalar's text goes; in short text, with the comma
    /// before it.
    fn scalar_target(&mut self) -> &mut String {
        if self.pretty {
            match self.depth {
                0 => &mut self.out,
                d => &mut self.frames[d - 1].buf,
            }
        } else {
            if self.need_comma {
                self.out.push(',');
            }
            &mut self.out
        }
    }

    /// A value of the open container (or the whole text) is complete.
    fn value_done(&mut self, has_newline: bool) {
        if self.pretty {
            if let Some(f) = self.depth.checked_sub(1).map(|d| &mut self.frames[d]) {
                f.parts.push((f.buf.len(), has_newline));
                f.after_key = false;
            }
        } else {
            self.need_comma = true;
        }
    }

    pub(crate) fn null(&mut self) {
        self.scalar_target().push_str("null");
        self.value_done(false);
    }

    pub(crate) fn bool(&mut self, b: bool) {
        self.scalar_target()
            .push_str(if b { "true" } else { "false" });
        self.value_done(false);
    }

    /// A finite number (see [`push_number`]).
    pub(crate) fn number(&mut self, v: f64) {
        push_number(v, self.scalar_target());
        self.value_done(false);
    }

    /// An integer, in decimal.
    pub(crate) fn integer(&mut self, v: i64) {
        push_i64(v, self.scalar_target());
        self.value_done(false);
    }

    /// An unsigned integer, in decimal.
    pub(crate) fn unsigned(&mut self, v: u64) {
        push_u64(v, self.scalar_target());
        self.value_done(false);
    }

    /// A 128-bit integer, in decimal.
    pub(crate) fn wide_integer(&mut self, v: i128) {
        push_i128(v, self.scalar_target());
        self.value_done(false);
    }

    /// A 128-bit unsigned integer, in decimal.
    pub(crate) fn wide_unsigned(&mut self, v: u128) {
        push_u128(v, self.scalar_target());
        self.value_done(false);
    }

    pub(crate) fn string(&mut self, s: &str) {
        push_string(s, self.scalar_target());
        self.value_done(false);
    }

    /// The name of the next member of the open object.
    pub(crate) fn key(&mut self, name: &str) {
        if self.pretty {
            if let Some(f) = self.depth.checked_sub(1).map(|d| &mut self.frames[d]) {
                push_string(name, &mut f.buf);
                f.buf.push_str(": ");
                f.after_key = true;
            }
        } else {
            if self.need_comma {
                self.out.push(',');
            }
            push_string(name, &mut self.out);
            self.out.push(':');
            self.need_comma = false;
        }
    }

    /// Opens an array, object or call as the next value.
    pub(crate) fn begin(&mut self, open: Open<'_>) {
        let (head, close) = match open {
            Open::Array => ("[", ']'),
            Open::Object => ("{", '}'),
            Open::Call(function) => (function, ')'),
        };
        if !self.pretty {
            let out = self.scalar_target();
            out.push_str(head);
            if let Open::Call(_) = open {
                out.push('(');
            }
            self.closers.push(close as u8);
            self.need_comma = false;
            return;
        }
        let member = self
            .depth
            .checked_sub(1)
            .is_some_and(|d| self.frames[d].after_key);
        if self.frames.len() == self.depth {
            self.frames.push(Frame::default());
        }
        let f = &mut self.frames[self.depth];
        f.head.clear();
        f.head.push_str(head);
        if let Open::Call(_) = open {
            f.head.push('(');
        }
        f.close = close;
        f.has_prefix = member || matches!(open, Open::Call(_));
        f.buf.clear();
        f.parts.clear();
        f.child_multiline = false;
        f.after_key = false;
        self.depth += 1;
    }

    /// Closes the innermost open container.
    pub(crate) fn end(&mut self) {
        if !self.pretty {
            if let Some(close) = self.closers.pop() {
                self.out.push(char::from(close));
            }
            self.need_comma = true;
            return;
        }
        let Some(d) = self.depth.checked_sub(1) else {
            return;
        };
        let (outer, inner) = self.frames.split_at_mut(d);
        let frame = &inner[0];
        let has_newline = match outer.last_mut() {
            Some(parent) => {
                let (multiline, has_newline) = frame.lay_out(&mut parent.buf);
                parent.child_multiline |= multiline;
                has_newline
            }
            None => frame.lay_out(&mut self.out).1,
        };
        self.depth = d;
        self.value_done(has_newline);
    }
}

impl Frame {
    /// Appends the container's text to `dst`, at indentation zero;
    /// returns whether it went over several lines and whether it has a
    /// line break.
    fn lay_out(&self, dst: &mut String) -> (bool, bool) {
        let mut longest = 0;
        let mut any_newline = false;
        let mut prev = 0;
        for &(end, newline) in &self.parts {
            longest = longest.max(end - prev);
            any_newline |= newline;
            prev = end;
        }
        let n = self.parts.len();
        let multiline = n > 1 && (self.child_multiline || longest > 50);
        // Elements sit one level deeper when there are several.
        let shift = n > 1;
        dst.push_str(&self.head);
        if multiline {
            dst.push_str(if self.has_prefix { "\n  " } else { " " });
        }
        let mut prev = 0;
        for (i, &(end, newline)) in self.parts.iter().enumerate() {
            if i > 0 {
                dst.push_str(if multiline { ",\n  " } else { ", " });
            }
            let part = &self.buf[prev..end];
            if newline && shift {
                // Only layout puts line breaks in the text (strings
                // escape theirs).
                let mut lines = part.split('\n');
                if let Some(first) = lines.next() {
                    dst.push_str(first);
                }
                for line in lines {
                    dst.push_str("\n  ");
                    dst.push_str(line);
                }
            } else {
                dst.push_str(part);
            }
            prev = end;
        }
        if multiline {
            dst.push(' ');
        }
        dst.push(self.close);
        (multiline, multiline || any_newline)
    }
}

/// What each byte becomes in a JSON string: 0 for itself, `u` for
/// `\u00XX`, else the letter after the backslash.
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[0x08] = b'b';
    t[0x0c] = b'f';
    t[b'\n' as usize] = b'n';
    t[b'\r' as usize] = b'r';
    t[b'\t' as usize] = b't';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// `s` as a JSON string: `"` and `\` escaped, the control characters
/// below 0x20 as `\b \f \n \r \t` or `\u00XX`; everything else as is.
/// The spans between escapes are copied whole.
pub(crate) fn push_string(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut run = 0;
    loop {
        let i = next_to_escape(bytes, run);
        let Some(&b) = bytes.get(i) else {
            break;
        };
        let esc = ESCAPE[usize::from(b)];
        // `i` is at an ASCII byte: a char boundary.
        out.push_str(&s[run..i]);
        if esc == b'u' {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push('\\');
            out.push(char::from(esc));
        }
        run = i + 1;
    }
    out.push_str(&s[run..]);
    out.push('"');
}
