//! `convert`: a stream of messages from one format to another, as the
//! reference's `capnp convert` (capnp.c++, 0.9.2: `readOneAndConvert`,
//! `writeConversion`, `readOneText`) reads and writes them.
//!
//! Each format is one arm of [`Format`], of [`read_messages`] (how a
//! stream of it is cut into messages) and of [`write_message`] (how one
//! message is written in it).

use std::cell::RefCell;
use std::io::{BufRead, Read, Write};

use capnarena::serialize::packed::{PackedReader, pack_to_vec};
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructReader, Word};
use capnarena_dynamic::json::{JsonCodec, JsonLimits, JsonOptions};
use capnarena_dynamic::text::TextWriter;
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
    /// JSON, as the reference's JSON codec writes and reads it.
    Json,
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
            "json" => Format::Json,
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
            Format::Json => "json",
        }
    }

    /// Whether reading or writing it needs the root type.
    pub fn needs_schema(self) -> bool {
        matches!(self, Format::Text | Format::Json)
    }
}

/// What converting from one format to another needs besides the bytes:
/// the root type, and for JSON its codec (the plan of its annotations),
/// made once for the whole stream.
pub struct Codecs<'s> {
    root: Option<&'s StructSchema<'s>>,
    json: Option<JsonCodec>,
    /// The text writer, kept from one message to the next (its plans of
    /// the structs and its buffers).
    text: Option<RefCell<TextWriter<'s>>>,
}

impl<'s> Codecs<'s> {
    /// For reading or writing `formats` with root type `root`.
    ///
    /// # Errors
    /// A format needs the root type and none was given, or the root type's
    /// JSON annotations are refused (as the reference refuses them).
    pub fn new(root: Option<&'s StructSchema<'s>>, formats: &[Format]) -> Result<Self, String> {
        for f in formats {
            if f.needs_schema() && root.is_none() {
                return Err(format!("format requires schema: {}", f.name()));
            }
        }
        let json = match root {
            Some(r) if formats.contains(&Format::Json) => {
                Some(JsonCodec::new(r).map_err(|e| e.to_string())?)
            }
            _ => None,
        };
        let text = match root {
            Some(r) if formats.contains(&Format::Text) => {
                Some(RefCell::new(TextWriter::new(r.clone())))
            }
            _ => None,
        };
        Ok(Codecs { root, json, text })
    }

    fn root(&self, format: Format) -> Result<&'s StructSchema<'s>, String> {
        self.root
            .ok_or_else(|| format!("format requires schema: {}", format.name()))
    }

    fn json(&self) -> Result<&JsonCodec, String> {
        self.json
            .as_ref()
            .ok_or_else(|| "format requires schema: json".to_string())
    }
}

/// How messages are written.
#[derive(Clone, Copy, Debug)]
pub struct WriteOptions {
    /// Text and JSON in the pretty form (`false`: `--short`).
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
    let codecs = Codecs::new(root, &[from, to])?;
    let mut write = |n: u64, message: StructReader<'_>| {
        write_message(to, &codecs, options, message, out).map_err(|e| at_message(n, &e))
    };
    read_messages(from, &codecs, input, &mut write)
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
    codecs: &Codecs<'_>,
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
            let limit = options.traversal_limit_words;
            let words = if from == Format::FlatPacked {
                read_words(&mut PackedReader::new(&mut *input), limit, "flat-packed")?
            } else {
                read_words(&mut *input, limit, "flat")?
            };
            let Some(words) = words else {
                return Ok(());
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
            let schema = codecs.root(from)?;
            let parse = |text: &[u8], mut builder: DynamicStructBuilder<'_, SingleSegmentArena>| {
                text::parse_struct(text, &mut builder)
                    .map_err(|e| (e.line, e.column, e.message.to_string()))
            };
            read_literals(input, schema, Cutter::TEXT, "text", &parse, each)
        }
        Format::Json => {
            let schema = codecs.root(from)?;
            let codec = codecs.json()?;
            let limits = JsonLimits::default();
            let parse = |text: &[u8], builder: DynamicStructBuilder<'_, SingleSegmentArena>| {
                codec.decode(text, builder, &limits).map_err(|e| {
                    let at = e.position();
                    (
                        at.map_or(1, |p| p.line),
                        at.map_or(1, |p| p.column),
                        e.to_string(),
                    )
                })
            };
            read_literals(input, schema, Cutter::JSON, "json", &parse, each)
        }
    }
}

/// The parse of one literal message (text or JSON) into a builder of the
/// root type: an error is its line, column (from 1, in the message) and
/// what is wrong.
type ParseLiteral<'p> = dyn Fn(&[u8], DynamicStructBuilder<'_, SingleSegmentArena>) -> Result<(), (u32, u32, String)>
    + 'p;

/// Cuts a stream of text or JSON messages (`kind`) as `cutter` says,
/// parses each with `parse` into a reused message, and hands each root to
/// `each`; an error names its line and column in the stream.
fn read_literals(
    input: &mut dyn BufRead,
    schema: &StructSchema<'_>,
    cutter: Cutter,
    kind: &str,
    parse: &ParseLiteral<'_>,
    each: &mut dyn FnMut(u64, StructReader<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let options = reader_options();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut one = Vec::new();
    // Where the message starts in the stream: line (from 0) and column
    // (from 0) of its first byte.
    let mut at = Place::default();
    let mut n = 0u64;
    loop {
        one.clear();
        let Some(len) =
            read_one_literal(input, cutter, kind, &mut one).map_err(|e| at_message(n + 1, &e))?
        else {
            return Ok(());
        };
        n += 1;
        msg.reset();
        let builder = DynamicStructBuilder::init_root(&mut msg, schema.clone())
            .map_err(|e| at_message(n, &e.to_string()))?;
        parse(&one[..len], builder).map_err(|(line, column, message)| {
            let (line, column) = at.of(line, column);
            at_message(
                n,
                &format!("(capnp {kind} input):{line}:{column}: {message}"),
            )
        })?;
        at.advance(&one);
        let reader = msg.reader_with_options(options);
        let root = reader.root().map_err(|e| at_message(n, &e.to_string()))?;
        each(n, root)?;
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

    /// The 1-based line and column in the stream of an error at `line`
    /// and `column` (1-based) of the message that starts here.
    fn of(&self, line: u32, column: u32) -> (u64, u64) {
        let column = if line == 1 {
            self.column + u64::from(column)
        } else {
            u64::from(column)
        };
        (self.line + u64::from(line), column)
    }
}

/// Reads all of `input` as the words of one flat message (`kind`);
/// `None` when it is empty. Straggler bytes past the last whole word are
/// left out, as the reference does. Memory: the words read, in a buffer
/// that at most doubles; never more than `limit_words` words.
///
/// # Errors
/// The input holds more than `limit_words` words (the readers' traversal
/// limit: no message that large could be read), or reading fails.
fn read_words(
    input: &mut dyn Read,
    limit_words: u64,
    kind: &str,
) -> Result<Option<Vec<Word>>, String> {
    let limit_bytes = usize::try_from(limit_words.saturating_mul(8)).unwrap_or(usize::MAX);
    let mut words: Vec<Word> = Vec::new();
    let mut filled = 0usize; // bytes
    loop {
        if filled == words.len() * 8 {
            if filled > limit_bytes {
                return Err(at_message(
                    1,
                    &format!(
                        "a {kind} message of more than {limit_bytes} bytes ({limit_words} words, \
                         the traversal limit)"
                    ),
                ));
            }
            // Grow by doubling, to one word past the limit at most: a
            // word past it tells an input over the limit.
            let cap_words = limit_bytes / 8 + 1;
            let target = words.len().saturating_mul(2).max(512).min(cap_words);
            words.resize(target, Word::ZERO);
        }
        let bytes = Word::slice_as_bytes_mut(&mut words);
        match input.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(at_message(1, &format!("reading the input: {e}"))),
        }
    }
    if filled == 0 {
        return Ok(None);
    }
    words.truncate(filled / 8);
    Ok(Some(words))
}

/// Where a stream of text or JSON messages is cut, as the reference's
/// `readOneText` and `readOneJson` cut them: at the first opening bracket
/// (`(` or `{`) outside a comment that opens a new outermost one after
/// one has closed. Comments run from `#` (and for JSON `//`) to the end of
/// the line. The last message runs to the end of the input.
///
/// Text: as in the reference, brackets inside string literals count (its
/// cutter does not track strings), so the cut is the reference's byte for
/// byte. JSON: strings are tracked (with their escapes), so a brace or a
/// `#` inside a string does not cut; the reference's cutter means to do
/// this but never enters its string states, and fails on a stream whose
/// strings hold braces.
#[derive(Clone, Copy)]
struct Cutter {
    open: u8,
    close: u8,
    /// JSON: `//` comments and string literals.
    json: bool,
}

impl Cutter {
    const TEXT: Cutter = Cutter {
        open: b'(',
        close: b')',
        json: false,
    };
    const JSON: Cutter = Cutter {
        open: b'{',
        close: b'}',
        json: true,
    };
}

/// Where a [`Cutter`] is in the bytes of a message.
#[derive(Default)]
struct CutState {
    depth: u32,
    saw_close: bool,
    comment: bool,
    /// After a `/` (JSON): a second one starts a comment.
    slash: bool,
    /// Inside a string literal (JSON), and after its backslash.
    string: bool,
    escape: bool,
    /// Bytes of the message scanned before the current chunk.
    scanned: usize,
    /// Where the outermost bracket closed (the offset past it).
    close_end: usize,
    /// Whether anything but white space and comments follows it.
    junk: bool,
}

impl CutState {
    /// Scans `bytes`, the next bytes of the message: the offset of the
    /// opening bracket that starts the next message, if they hold it.
    fn scan(&mut self, cutter: Cutter, bytes: &[u8]) -> Option<usize> {
        let found = self.scan_bytes(cutter, bytes);
        self.scanned += found.unwrap_or(bytes.len());
        found
    }

    /// How much of the message's `len` bytes holds the message itself:
    /// for JSON, up to its closing brace when only white space and
    /// comments follow it (the JSON parser reads no comments); otherwise
    /// all of it.
    fn message_len(&self, cutter: Cutter, len: usize) -> usize {
        if cutter.json && self.saw_close && !self.junk {
            self.close_end
        } else {
            len
        }
    }

    fn scan_bytes(&mut self, cutter: Cutter, bytes: &[u8]) -> Option<usize> {
        for (i, &c) in bytes.iter().enumerate() {
            if self.comment {
                self.comment = c != b'\n';
                continue;
            }
            if self.string {
                if self.escape {
                    self.escape = false;
                } else if c == b'\\' {
                    self.escape = true;
                } else if c == b'"' {
                    self.string = false;
                }
                continue;
            }
            if std::mem::take(&mut self.slash) {
                if c == b'/' {
                    self.comment = true;
                    continue;
                }
                // A lone `/`: not a comment.
                self.junk |= self.saw_close && self.depth == 0;
            }
            let after_close = self.saw_close && self.depth == 0;
            if after_close && !matches!(c, b'#' | b'/' | b' ' | b'\t' | b'\r' | b'\n' | 0x0b) {
                self.junk |= c != cutter.open;
            }
            match c {
                b'#' => self.comment = true,
                b'/' if cutter.json => self.slash = true,
                b'"' if cutter.json => self.string = true,
                _ if c == cutter.open => {
                    if self.depth == 0 && self.saw_close {
                        return Some(i);
                    }
                    self.depth = self.depth.saturating_add(1);
                }
                _ if c == cutter.close && self.depth > 0 => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        self.saw_close = true;
                        self.close_end = self.scanned + i + 1;
                        self.junk = false;
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// Reads the next text or JSON (`kind`) message of `input` into `one`, as
/// `cutter` cuts them: how many of its first bytes hold the message (see
/// [`CutState::message_len`]), `None` at the end of the input. One
/// message is held at a time, at most [`text::MAX_TEXT_BYTES`].
fn read_one_literal(
    input: &mut dyn BufRead,
    cutter: Cutter,
    kind: &str,
    one: &mut Vec<u8>,
) -> Result<Option<usize>, String> {
    let mut state = CutState::default();
    loop {
        let chunk = input
            .fill_buf()
            .map_err(|e| format!("reading the input: {e}"))?;
        if chunk.is_empty() {
            return Ok((!one.is_empty()).then(|| state.message_len(cutter, one.len())));
        }
        let (take, done) = match state.scan(cutter, chunk) {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if one.len() + take > text::MAX_TEXT_BYTES {
            return Err(format!(
                "a {kind} message of more than {} bytes (the limit for one message)",
                text::MAX_TEXT_BYTES
            ));
        }
        one.extend_from_slice(&chunk[..take]);
        input.consume(take);
        if done {
            return Ok(Some(state.message_len(cutter, one.len())));
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
    codecs: &Codecs<'_>,
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
            codecs.root(to)?;
            let Some(writer) = &codecs.text else {
                return Err("format requires schema: text".to_string());
            };
            let mut writer = writer.borrow_mut();
            let text = writer
                .write(message, options.pretty)
                .map_err(|e| e.to_string())?;
            out.write_all(text).map_err(io)?;
            out.write_all(b"\n").map_err(io)?;
        }
        Format::Json => {
            let reader = DynamicStructReader::new(codecs.root(to)?.clone(), message);
            let json_options = if options.pretty {
                JsonOptions::pretty()
            } else {
                JsonOptions::short()
            };
            let mut text = codecs
                .json()?
                .encode(&reader, &json_options)
                .map_err(|e| e.to_string())?;
            text.push('\n');
            out.write_all(text.as_bytes()).map_err(io)?;
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
