//! [`Printer`]: the text format written while a value is walked, without
//! building a [`TextValue`](super::TextValue) tree first.

use alloc::vec::Vec;

use super::float::Float;
use super::print::{BytesSink, MAX_INLINE_RECORD, MAX_INLINE_VALUE, quoted};

/// Writes the text format as a value is walked: call the methods in the
/// order the value's parts print (see [the module docs](super) for which
/// fields a struct prints), then take the bytes with
/// [`finish`](Printer::finish). The output is byte for byte what
/// [`write_pretty_bytes`](super::write_pretty_bytes) (or, not pretty,
/// [`write_short_bytes`](super::write_short_bytes)) prints for the same
/// value as a tree.
///
/// The pretty form's line breaking is decided as the elements arrive: each
/// struct or list is written on one line until an element does not fit
/// (longer than 24 bytes, a line break in it, or a struct's elements past
/// 64 bytes), and then the elements written so far get their line breaks
/// in place, and in every struct or list around it still on one line (a
/// move of the bytes written so far, once per struct or list that
/// breaks). The printer holds its buffers across
/// [`clear`](Printer::clear), so printing a stream of messages allocates
/// only while a message is larger than every one before it.
///
/// ```
/// use capnarena::text::Printer;
///
/// let mut p = Printer::new(true);
/// p.begin_struct();
/// p.field("name");
/// p.text(b"a rather long name, over 24 bytes");
/// p.field("tags");
/// p.begin_list();
/// p.int(1);
/// p.float64(0.5);
/// p.end_list();
/// p.end_struct();
/// assert_eq!(
///     p.finish()?,
///     b"( name = \"a rather long name, over 24 bytes\",\n  tags = [1, 0.5] )"
/// );
/// # Ok::<(), core::fmt::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Printer {
    out: Vec<u8>,
    pretty: bool,
    /// The open structs and lists, innermost last.
    frames: Vec<Frame>,
    /// Where each element of the open frames still on one line starts
    /// (each frame's from its `first_start`).
    starts: Vec<usize>,
    /// A float that could not be formatted (never expected; reported by
    /// `finish` rather than dropped).
    failed: bool,
}

/// An open struct or list.
#[derive(Clone, Copy, Debug)]
struct Frame {
    list: bool,
    /// The indent level of its elements when it breaks.
    amount: usize,
    /// After `name = ` (a line break follows the bracket when it breaks)
    /// rather than on its own (a space).
    prefixed: bool,
    /// Elements begun.
    count: usize,
    /// Still on one line.
    inline: bool,
    /// A struct's elements' lengths so far (while inline).
    total: usize,
    /// Its first element's entry in `starts`.
    first_start: usize,
    /// Where the current element starts (a struct's: at the name).
    element: usize,
}

impl Printer {
    /// A printer of the pretty form (`capnp convert binary:text`), or of
    /// the one-line form (`--short`) when `pretty` is false.
    pub fn new(pretty: bool) -> Self {
        Printer {
            pretty,
            ..Printer::default()
        }
    }

    /// Forgets what was printed (keeping the buffers) and prints the next
    /// value in the pretty form or not.
    pub fn clear(&mut self, pretty: bool) {
        self.out.clear();
        self.frames.clear();
        self.starts.clear();
        self.failed = false;
        self.pretty = pretty;
    }

    /// The text printed, once every struct and list begun has ended.
    ///
    /// # Errors
    /// A struct or list is still open (the walk was cut short), or a
    /// float could not be formatted (not expected: every form fits).
    pub fn finish(&self) -> Result<&[u8], core::fmt::Error> {
        if self.failed || !self.frames.is_empty() {
            return Err(core::fmt::Error);
        }
        Ok(&self.out)
    }

    /// `void`.
    pub fn void(&mut self) {
        self.scalar(b"void");
    }

    /// `true` or `false`.
    pub fn bool(&mut self, value: bool) {
        self.scalar(if value { b"true" } else { b"false" });
    }

    /// A signed integer.
    pub fn int(&mut self, value: i64) {
        let mut buf = [0u8; 20];
        let digits = decimal(value.unsigned_abs(), &mut buf);
        self.begin_value();
        if value < 0 {
            self.out.push(b'-');
        }
        self.out.extend_from_slice(digits);
        self.end_value(false);
    }

    /// An unsigned integer.
    pub fn uint(&mut self, value: u64) {
        let mut buf = [0u8; 20];
        let digits = decimal(value, &mut buf);
        self.scalar(digits);
    }

    /// A `Float32` (fewer digits than the same number as a `Float64`).
    pub fn float32(&mut self, value: f32) {
        match Float::f32(value) {
            Ok(s) => self.scalar(s.as_str().as_bytes()),
            Err(_) => self.failed = true,
        }
    }

    /// A `Float64`.
    pub fn float64(&mut self, value: f64) {
        match Float::f64(value) {
            Ok(s) => self.scalar(s.as_str().as_bytes()),
            Err(_) => self.failed = true,
        }
    }

    /// A `Text`'s bytes (without its terminator; not necessarily UTF-8).
    pub fn text(&mut self, value: &[u8]) {
        self.quoted(value, false);
    }

    /// A `Data` blob.
    pub fn data(&mut self, value: &[u8]) {
        self.quoted(value, true);
    }

    /// An enumerant the schema names.
    pub fn enumerant(&mut self, name: &str) {
        self.scalar(name.as_bytes());
    }

    /// An enum value the schema does not name: `(7)`.
    pub fn enum_number(&mut self, value: u16) {
        let mut buf = [0u8; 20];
        let digits = decimal(value.into(), &mut buf);
        self.begin_value();
        self.out.push(b'(');
        self.out.extend_from_slice(digits);
        self.out.push(b')');
        self.end_value(false);
    }

    /// A non-null `AnyPointer`: `<opaque pointer>`.
    pub fn any_pointer(&mut self) {
        self.scalar(b"<opaque pointer>");
    }

    /// A capability: `<external capability>`.
    pub fn capability(&mut self) {
        self.scalar(b"<external capability>");
    }

    /// A struct (or group) begins; give each field with
    /// [`field`](Self::field) before its value.
    pub fn begin_struct(&mut self) {
        self.begin(false, b'(');
    }

    /// The next value is the current struct's field `name`.
    pub fn field(&mut self, name: &str) {
        self.begin_element();
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b" = ");
    }

    /// The current struct ends.
    pub fn end_struct(&mut self) {
        self.end(b')');
    }

    /// A list begins; its elements follow.
    pub fn begin_list(&mut self) {
        self.begin(true, b'[');
    }

    /// The current list ends.
    pub fn end_list(&mut self) {
        self.end(b']');
    }

    fn scalar(&mut self, bytes: &[u8]) {
        self.begin_value();
        self.out.extend_from_slice(bytes);
        self.end_value(false);
    }

    fn quoted(&mut self, bytes: &[u8], binary: bool) {
        self.begin_value();
        if quoted(bytes, binary, &mut BytesSink(&mut self.out)).is_err() {
            self.failed = true;
        }
        self.end_value(false);
    }

    /// Before a value: a list's element begins here (a struct's began
    /// with its field name).
    fn begin_value(&mut self) {
        if self.frames.last().is_some_and(|f| f.list) {
            self.begin_element();
        }
    }

    /// After a value: its element ends (`broke`: with a line break in it).
    fn end_value(&mut self, broke: bool) {
        if !self.pretty {
            return;
        }
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if !frame.inline {
            return;
        }
        let len = self.out.len().saturating_sub(frame.element);
        frame.total = frame.total.saturating_add(len);
        let fits =
            !broke && len <= MAX_INLINE_VALUE && (frame.list || frame.total <= MAX_INLINE_RECORD);
        if !fits {
            self.break_inline_frames();
        }
    }

    /// The separator before an element of the innermost frame.
    fn begin_element(&mut self) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        if frame.count > 0 {
            if frame.inline {
                self.out.extend_from_slice(b", ");
            } else {
                self.out.push(b',');
                newline(frame.amount, &mut self.out);
            }
        }
        frame.count += 1;
        frame.element = self.out.len();
        if self.pretty && frame.inline {
            self.starts.push(frame.element);
        }
    }

    fn begin(&mut self, list: bool, bracket: u8) {
        self.begin_value();
        let (amount, prefixed) = match self.frames.last() {
            Some(parent) => (parent.amount + 1, !parent.list),
            None => (1, false),
        };
        self.frames.push(Frame {
            list,
            amount,
            prefixed,
            count: 0,
            inline: true,
            total: 0,
            first_start: self.starts.len(),
            element: 0,
        });
        self.out.push(bracket);
    }

    fn end(&mut self, bracket: u8) {
        let Some(frame) = self.frames.pop() else {
            self.failed = true;
            return;
        };
        // Its element starts (those of a frame broken while inner frames
        // were open stay until here).
        self.starts.truncate(frame.first_start);
        if !frame.inline {
            self.out.push(b' ');
        }
        self.out.push(bracket);
        self.end_value(!frame.inline);
    }

    /// The innermost frame does not fit on one line, nor then do the
    /// frames around it still on one line (its text is inside their last
    /// element): each of them, outermost first, puts its elements so far
    /// on their own lines. Breaking the enclosing frames now, rather than
    /// when their elements end, moves only the text written so far.
    fn break_inline_frames(&mut self) {
        // A frame breaks with all the frames around it, so those still on
        // one line are the innermost.
        let first = self
            .frames
            .iter()
            .rposition(|f| !f.inline)
            .map_or(0, |i| i + 1);
        for i in first..self.frames.len() {
            let shift = self.break_frame(i);
            // The frames inside moved with the last element.
            let inner_starts = self
                .frames
                .get(i + 1)
                .map_or(self.starts.len(), |f| f.first_start);
            for f in self.frames.iter_mut().skip(i + 1) {
                f.element += shift;
            }
            for s in self.starts.get_mut(inner_starts..).unwrap_or_default() {
                *s += shift;
            }
        }
    }

    /// Puts the elements of frame `index` so far (the last one running to
    /// the end of `out`) on their own lines; returns how far the last one
    /// moved.
    fn break_frame(&mut self, index: usize) -> usize {
        let end_starts = self
            .frames
            .get(index + 1)
            .map_or(self.starts.len(), |f| f.first_start);
        let Some(frame) = self.frames.get_mut(index) else {
            return 0;
        };
        frame.inline = false;
        let starts = self
            .starts
            .get(frame.first_start..end_starts)
            .unwrap_or(&[]);
        let Some(last) = starts.len().checked_sub(1) else {
            return 0;
        };
        // Old: `(` e0 `, ` e1 `, ` ... ek, up to the end of `out`. New:
        // `(` open e0 sep e1 sep ... ek.
        let open_len = if frame.prefixed {
            1 + 2 * frame.amount
        } else {
            1
        };
        let sep_len = 2 + 2 * frame.amount;
        let old_len = self.out.len();
        let grow = open_len + last * (sep_len - 2);
        self.out.resize(old_len + grow, b' ');
        // Move each element to its place, last first (every element moves
        // right, by more the later it is), then write the separator
        // before it.
        let mut end = old_len;
        for (i, &start) in starts.iter().enumerate().rev() {
            let shift = open_len + i * (sep_len - 2);
            self.out.copy_within(start..end, start + shift);
            let sep_at = start + shift;
            if i > 0 {
                write_break(&mut self.out, sep_at - sep_len, sep_len, true, true);
                // The old separator `, ` was before `start`.
                end = start - 2;
            } else {
                let prefixed = frame.prefixed;
                write_break(&mut self.out, sep_at - open_len, open_len, false, prefixed);
            }
        }
        frame.element += grow;
        grow
    }
}

/// Overwrites `out[at..at + len]` with a break: `,` and a newline
/// (between elements, `comma`), a newline (after the opening bracket of a
/// field's value, `newline`) or nothing, then spaces to the end.
fn write_break(out: &mut [u8], at: usize, len: usize, comma: bool, newline: bool) {
    let Some(place) = out.get_mut(at..at.saturating_add(len)) else {
        return;
    };
    place.fill(b' ');
    let mut lead = place.iter_mut();
    if comma {
        if let Some(b) = lead.next() {
            *b = b',';
        }
    }
    if newline {
        if let Some(b) = lead.next() {
            *b = b'\n';
        }
    }
}

/// A newline and `2 * amount` spaces.
fn newline(amount: usize, out: &mut Vec<u8>) {
    out.push(b'\n');
    out.resize(out.len() + 2 * amount, b' ');
}

/// `value` in decimal, at the end of `buf`.
fn decimal(mut value: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(slot) = buf.get_mut(at) {
            *slot = b'0' + (value % 10) as u8;
        }
        value /= 10;
        if value == 0 || at == 0 {
            break;
        }
    }
    buf.get(at..).unwrap_or(&[])
}
