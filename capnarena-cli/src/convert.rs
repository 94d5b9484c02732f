//! `convert`: a stream of messages from one format to another, as the
//! reference's `capnp convert` (capnp.c++, 0.9.2: `readOneAndConvert`,
//! `writeConversion`, `readOneText`) reads and writes them.
//!
//! Each format is one arm of [`Format`], of [`read_messages`] (how a
//! stream of it is cut into messages) and of [`write_message`] (how one
//! message is written in it); a new format (JSON) is one more arm in each.

use std::io::{BufRead, Write};

use capnarena::serialize::packed::{pack_to_vec, unpack_to_vec};
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructReader, Word};
use capnarena_dynamic::{DynamicStructBuilder, DynamicStructReader, StructSchema, text};

use crate::arena::ReferenceArena;

/// A message format of `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Standard stream framing: a segment table, then the segments.
    Binary,
    /// The binary framing, packed.
    Packed,
    /// One segment without a table (the whole input is one message).
    Flat,
    /// Flat, packed.
    FlatPacked,
    /// The canonical form: one segment, no table.
    Canonical,
    /// The schema language's struct literal.
    Text,
}

impl Format {
    /// The format named `name` as `capnp convert` spells it.
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name {
            "binary" => Format::Binary,
            "packed" => Format::Packed,
            "flat" => Format::Flat,
            "flat-packed" => Format::FlatPacked,
            "canonical" => Format::Canonical,
            "text" => Format::Text,
            _ => return None,
        })
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Binary => "binary",
            Format::Packed => "packed",
            Format::Flat => "flat",
            Format::FlatPacked => "flat-packed",
            Format::Canonical => "canonical",
            Format::Text => "text",
        }
    }

    /// Whether reading or writing it needs the root type.
    pub fn needs_schema(self) -> bool {
        matches!(self, Format::Text)
    }
}

/// How messages are written.
#[derive(Clone, Copy, Debug)]
pub struct WriteOptions {
    /// Text in the pretty form (`false`: `--short`).
    pub pretty: bool,
    /// `--segment-size=N`: binary and packed output built on segments of
    /// N words; otherwise the reference's default builder (a first
    /// segment of 1,024 words, then growing).
    pub segment_words: Option<u32>,
}

/// The limits messages are read with: the readers' defaults (the
/// reference tool lifts its limits for this debugging command; capnarena
/// keeps them, so no input can make it recurse or allocate without
/// bound), with the reference stream reader's segment limit (fewer than
/// 512).
pub fn reader_options() -> ReaderOptions {
    ReaderOptions::default().segment_limit(511)
}

/// Reads every message of `input` in format `from` and writes each to
/// `out` in format `to`, in order.
///
/// # Errors
/// The first message that cannot be read or written: what is wrong, and
/// which message (counted from 1). Messages before it are written.
pub fn convert(
    from: Format,
    to: Format,
    root: Option<&StructSchema<'_>>,
    options: WriteOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), String> {
    let mut write = |n: u64, message: StructReader<'_>| {
        write_message(to, root, options, message, out).map_err(|e| at_message(n, &e))
    };
    read_messages(from, root, input, &mut write)
}

fn at_message(n: u64, e: &str) -> String {
    format!("message {n}: {e}")
}

/// Cuts `input` in format `from` into messages and hands each root to
/// `each` with its number (from 1).
///
/// # Errors
/// As [`convert`].
pub fn read_messages(
    from: Format,
    root: Option<&StructSchema<'_>>,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(u64, StructReader<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let options = reader_options();
    let mut n = 0u64;
    match from {
        Format::Binary | Format::Packed => {
            let mut msg = Message::new(SingleSegmentArena::new());
            loop {
                n += 1;
                let read = if from == Format::Binary {
                    msg.try_read_from(&mut *input, options)
                } else {
                    msg.try_read_packed_from(&mut *input, options)
                };
                let reader = match read {
                    Ok(Some(reader)) => reader,
                    Ok(None) => return Ok(()),
                    Err(e) => return Err(at_message(n, &e.to_string())),
                };
                let root = reader.root().map_err(|e| at_message(n, &e.to_string()))?;
                each(n, root)?;
            }
        }
        Format::Flat | Format::Canonical | Format::FlatPacked => {
            let bytes = read_all(input)?;
            if bytes.is_empty() {
                return Ok(());
            }
            let words = if from == Format::FlatPacked {
                let mut words = Vec::new();
                unpack_to_vec(&bytes, &mut words, options.traversal_limit_words)
                    .map_err(|e| at_message(1, &e.to_string()))?;
                words
            } else {
                // Straggler bytes past the last whole word are left out,
                // as the reference does.
                bytes
                    .chunks_exact(8)
                    .map(|c| {
                        let mut w = Word::ZERO;
                        Word::slice_as_bytes_mut(core::slice::from_mut(&mut w)).copy_from_slice(c);
                        w
                    })
                    .collect()
            };
            let segments = [&words[..]];
            let reader = MessageReader::from_segments(&segments, options)
                .map_err(|e| at_message(1, &e.to_string()))?;
            if from == Format::Canonical
                && !reader
                    .is_canonical()
                    .map_err(|e| at_message(1, &e.to_string()))?
            {
                return Err(at_message(
                    1,
                    "expected message.isCanonical(): the input is not in canonical form",
                ));
            }
            let root = reader.root().map_err(|e| at_message(1, &e.to_string()))?;
            each(1, root)
        }
        Format::Text => {
            let schema = root.ok_or("format requires schema: text")?;
            let mut msg = Message::new(SingleSegmentArena::new());
            let mut one = Vec::new();
            // Where the message starts in the stream: line (from 0) and
            // column (from 0) of its first byte.
            let mut at = Place::default();
            loop {
                one.clear();
                if !read_text_message(input, &mut one).map_err(|e| at_message(n + 1, &e))? {
                    return Ok(());
                }
                n += 1;
                msg.reset();
                let mut builder = DynamicStructBuilder::init_root(&mut msg, schema.clone())
                    .map_err(|e| at_message(n, &e.to_string()))?;
                text::parse_struct(&one, &mut builder).map_err(|e| {
                    let (line, column) = at.of(&e);
                    at_message(
                        n,
                        &format!("(capnp text input):{line}:{column}: {}", e.message),
                    )
                })?;
                at.advance(&one);
                let reader = msg.reader_with_options(options);
                let root = reader.root().map_err(|e| at_message(n, &e.to_string()))?;
                each(n, root)?;
            }
        }
    }
}

/// A place in a text stream: lines before it, and bytes since the last
/// line break.
#[derive(Default)]
struct Place {
    line: u64,
    column: u64,
}

impl Place {
    /// Moves past `bytes`.
    fn advance(&mut self, bytes: &[u8]) {
        match bytes.iter().rposition(|&c| c == b'\n') {
            Some(last) => {
                self.line += bytes.iter().filter(|&&c| c == b'\n').count() as u64;
                self.column = (bytes.len() - last - 1) as u64;
            }
            None => self.column += bytes.len() as u64,
        }
    }

    /// The 1-based line and column in the stream of an error in the
    /// message that starts here.
    fn of(&self, e: &text::TextError) -> (u64, u64) {
        let line = self.line + u64::from(e.line);
        let column = if e.line == 1 {
            self.column + u64::from(e.column)
        } else {
            u64::from(e.column)
        };
        (line, column)
    }
}

fn read_all(input: &mut dyn BufRead) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| format!("reading the input: {e}"))?;
    Ok(bytes)
}

/// Where the reference's `readOneText` cuts a stream of text messages:
/// at the first `(` outside a comment that opens a new outermost
/// parenthesis after one has closed. As in the reference, parentheses
/// inside string literals count (its cutter does not track strings), and
/// the last message runs to the end of the input.
#[derive(Default)]
struct TextCutter {
    depth: u32,
    saw_close: bool,
    comment: bool,
}

impl TextCutter {
    /// Scans `bytes`, the next bytes of the message: the offset of the
    /// `(` that starts the next message, if they hold it.
    fn scan(&mut self, bytes: &[u8]) -> Option<usize> {
        for (i, &c) in bytes.iter().enumerate() {
            if self.comment {
                self.comment = c != b'\n';
                continue;
            }
            match c {
                b'#' => self.comment = true,
                b'(' => {
                    if self.depth == 0 && self.saw_close {
                        return Some(i);
                    }
                    self.depth = self.depth.saturating_add(1);
                }
                b')' if self.depth > 0 => {
                    self.depth -= 1;
                    self.saw_close |= self.depth == 0;
                }
                _ => {}
            }
        }
        None
    }
}

/// Reads the next text message of `input` into `one`, as the reference
/// cuts them; `false` at the end of the input. One message is held at a
/// time, at most [`text::MAX_TEXT_BYTES`].
fn read_text_message(input: &mut dyn BufRead, one: &mut Vec<u8>) -> Result<bool, String> {
    let mut cutter = TextCutter::default();
    loop {
        let chunk = input
            .fill_buf()
            .map_err(|e| format!("reading the input: {e}"))?;
        if chunk.is_empty() {
            return Ok(!one.is_empty());
        }
        let (take, done) = match cutter.scan(chunk) {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if one.len() + take > text::MAX_TEXT_BYTES {
            return Err(format!(
                "a text message of more than {} bytes (the limit for one message)",
                text::MAX_TEXT_BYTES
            ));
        }
        one.extend_from_slice(&chunk[..take]);
        input.consume(take);
        if done {
            return Ok(true);
        }
    }
}

/// Writes one message in format `to`, as the reference's
/// `writeConversion` does: a copy of it built anew (binary and packed),
/// one segment of the size the reference allocates (flat), the
/// canonical form, or its text and a newline.
///
/// # Errors
/// The message cannot be read whole (a malformed pointer, a limit), or
/// the output fails.
pub fn write_message(
    to: Format,
    root_type: Option<&StructSchema<'_>>,
    options: WriteOptions,
    message: StructReader<'_>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let e = |e: capnarena::Error| e.to_string();
    let io = |e: std::io::Error| format!("writing the output: {e}");
    match to {
        Format::Binary | Format::Packed => {
            // The reference's MallocMessageBuilder(N, FIXED_SIZE), or its
            // default MallocMessageBuilder (1,024 words, then growing).
            let arena = match options.segment_words {
                Some(n) => ReferenceArena::fixed(n),
                None => ReferenceArena::growing(1024),
            };
            let mut msg = Message::new(arena);
            msg.set_root(&message).map_err(e)?;
            if to == Format::Binary {
                msg.write_to(&mut *out).map_err(e)?;
            } else {
                msg.write_packed_to(&mut *out).map_err(e)?;
            }
        }
        Format::Flat | Format::FlatPacked => {
            let words = flat_words(&message).map_err(e)?;
            if to == Format::Flat {
                out.write_all(Word::slice_as_bytes(&words)).map_err(io)?;
            } else {
                let mut packed = Vec::new();
                pack_to_vec(&words, &mut packed);
                out.write_all(&packed).map_err(io)?;
            }
        }
        Format::Canonical => {
            let mut msg = Message::new(SingleSegmentArena::new());
            let words = msg.set_root_canonical(&message).map_err(e)?;
            out.write_all(Word::slice_as_bytes(words)).map_err(io)?;
        }
        Format::Text => {
            let schema = root_type.ok_or("format requires schema: text")?;
            let reader = DynamicStructReader::new(schema.clone(), message);
            let mut text = Vec::new();
            text::write_struct(&reader, options.pretty, &mut text).map_err(|e| e.to_string())?;
            text.push(b'\n');
            out.write_all(&text).map_err(io)?;
        }
    }
    Ok(())
}

/// The message copied into one segment behind its root pointer, zero
/// padded to the reference's size for it: the message's total size plus
/// the root pointer.
fn flat_words(message: &StructReader<'_>) -> capnarena::Result<Vec<Word>> {
    let size = message.total_size()?.word_count;
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.set_root(message)?;
    let mut words: Vec<Word> = msg
        .segment(0)
        .map(|s| s.words().to_vec())
        .unwrap_or_default();
    let want = usize::try_from(size.saturating_add(1)).unwrap_or(usize::MAX);
    if words.len() < want {
        words.resize(want, Word::ZERO);
    }
    Ok(words)
}
