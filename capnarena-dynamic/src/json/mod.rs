//! JSON, both ways, by a schema loaded at run time: compatible with the
//! reference implementation's JSON codec (`capnp convert binary:json`
//! and `json:binary`, which apply the `/capnp/compat/json.capnp`
//! annotations).
//!
//! ```
//! use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
//! use capnarena_dynamic::json::{self, JsonLimits, JsonOptions};
//! use capnarena_dynamic::{DynamicStructBuilder, DynamicStructReader, LoadedSchema};
//!
//! let loaded = LoadedSchema::compile(
//!     &capnarena_compiler::Compiler::new().source(
//!         "/demo.capnp",
//!         "@0xd3bd7ff1e1ed8b6a;
//!          struct Item { name @0 :Text; count @1 :UInt64; tags @2 :List(Text); }",
//!     ).file("/demo.capnp"),
//! )?;
//! let schema = loaded.schema();
//! let item = schema.find_struct("demo.capnp:Item")?;
//!
//! // JSON to a message ...
//! let mut msg = Message::new(SingleSegmentArena::new());
//! let b = DynamicStructBuilder::init_root(&mut msg, item.clone())?;
//! json::decode(br#"{"name": "bolt", "count": "7", "tags": ["m8"]}"#, b, &JsonLimits::default())?;
//!
//! // ... and back: 64-bit integers are strings, as in the reference.
//! let bytes = msg.framed_bytes()?.to_vec();
//! let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default())?;
//! let root = DynamicStructReader::root(&reader, item)?;
//! assert_eq!(
//!     json::encode(&root, &JsonOptions::short())?,
//!     r#"{"name":"bolt","count":"7","tags":["m8"]}"#
//! );
//! assert_eq!(
//!     json::encode(&root, &JsonOptions::pretty())?,
//!     r#"{"name": "bolt", "count": "7", "tags": ["m8"]}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Rules
//! Values: see [`encode`]'s and [`decode`]'s notes; the annotations:
//! `name`, `flatten` (with `prefix`), `discriminator` (with `name` and
//! `valueName`), `base64` and `hex` (see the `annotations` rules in
//! [`JsonCodec::new`]). Output is byte for byte the reference's, pretty
//! ([`JsonOptions::pretty`], what `capnp convert` writes by default) or
//! short ([`JsonOptions::short`], its `--short`); the tool adds a newline
//! after each message, which [`encode`] does not.
//!
//! # Through generated code (serde)
//! [`to_string`] writes any `serde::Serialize` value, and [`from_str`] /
//! [`from_slice`] read any `serde::Deserialize` one, in the same text:
//! with the `Serialize` / `Deserialize` impls that `capnarena-codegen`
//! writes for owned and borrowed values (its `serde` option), a value
//! goes to and from the reference's JSON without a schema at run time
//! and without dynamic values, faster, and byte for byte as [`encode`]
//! writes the same message (one writer serves both: [`JsonSerializer`]).
//! [`JsonDeserializer`] reads with the parser and the limits of
//! [`decode`] (the message-size limit aside: no message is built), and
//! reads a stream of documents. The heap the values read take is bounded
//! by the runtime's `serde_support::with_value_limit` (256 MiB by
//! default), whatever the deserializer. JSON annotations are the generated
//! impls' business: today they write the schema's plain names.
//!
//! # Untrusted input
//! [`decode`] reads the text strictly: any error is a [`JsonError`] with
//! the line and column at fault, never a panic. Each limit of
//! [`JsonLimits`] bounds one thing:
//! - `max_input_bytes` bounds the text, and so the time.
//! - `max_depth` bounds the nesting of arrays and objects, and so the
//!   stack (64 levels by default, the reference's).
//! - `max_message_words` bounds the message built, counted as it grows.
//!
//! The decoder builds no tree of the input. It first checks the whole
//! text, allocating nothing, so a syntax error is reported before any
//! value is decoded. Then it reads the text again, value by value,
//! straight into the builder; a list's length is counted by reading
//! ahead over its elements. Its own heap is bounded by the schema and
//! the depth, plus one string or `Data` value at a time. So the peak heap
//! is about the message built (at most twice it) plus a few kilobytes,
//! beside the input the caller holds. The time is at most the input's
//! size times the depth of nested lists.
//!
//! # Differences from the reference
//! Where the reference is loose or wrong, this codec refuses: invalid
//! UTF-8, a NUL byte (the reference stops reading there), lone surrogate
//! escapes, a value other than `null` for `Void`, bytes of `Data` that are
//! not numbers, enum numbers out of range, base64 or hex its decoders
//! report as malformed (which it reads anyway: a bad character skipped,
//! bytes decoded past base64 padding; base64 it reads without error,
//! whitespace and missing padding included, reads alike), and integers
//! in strings with spaces.
//! `\u` escapes with hex letters decode as JSON says (the reference's
//! parser reads `a`-`f` as 0-5).
//!
//! A `json.Value` (`/capnp/compat/json.capnp`'s `Value`, a JSON value
//! held as a struct) is written as the JSON value it holds and read from
//! any JSON value, as the reference does, through dynamic values and
//! through generated code alike; a call it holds is written
//! `function(params...)`, which JSON text has no form of (so it does not
//! read back). A `json.Value` number that is not finite is refused with
//! [`JsonError::Encode`]. The reference writes it bare (`nan`, `inf`),
//! which no JSON reader reads back, its own included.

mod annotations;
mod de;
mod decode;
mod encode;
mod error;
mod number;
mod parser;
mod scan;
mod ser;
mod writer;

use capnarena::{Arena, Message, MessageReader, ReaderOptions, SingleSegmentArena, Word};

pub use annotations::{BASE64, DISCRIMINATOR, FLATTEN, HEX, JSON_VALUE, NAME};
pub use de::{JsonDeserializer, from_slice, from_str};
pub use encode::MAX_ENCODE_DEPTH;
pub use error::{JsonError, JsonResult, Position};
pub use ser::{Compound, JsonSerializer, to_string};

use crate::builder::DynamicStructBuilder;
use crate::structs::StructSchema;
use crate::value::DynamicStructReader;
use error::Context;

/// How [`encode`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonOptions {
    /// Pretty (spaces, and lines for long lists) or short (no
    /// whitespace).
    pub pretty: bool,
}

impl JsonOptions {
    /// Pretty, as `capnp convert ...:json` writes.
    pub fn pretty() -> Self {
        JsonOptions { pretty: true }
    }

    /// Short, as `capnp convert --short ...:json` writes.
    pub fn short() -> Self {
        JsonOptions { pretty: false }
    }
}

impl Default for JsonOptions {
    /// Pretty.
    fn default() -> Self {
        JsonOptions::pretty()
    }
}

/// Limits on the JSON [`decode`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonLimits {
    /// Bytes of input at most (default 64 MiB). Bounds the time a decode
    /// takes.
    pub max_input_bytes: usize,
    /// Levels of nested arrays and objects at most (default 64, the
    /// reference's; at most [`MAX_NESTING_CEILING`]). Bounds the stack.
    pub max_depth: usize,
    /// Words (8 bytes) the message built may take at most (default
    /// 2^25, 256 MiB): JSON as short as `[{}, {}]` can ask for large
    /// structs, so the output is bounded apart from the input. The
    /// decoder's heap stays within about twice this.
    pub max_message_words: u64,
    /// Whether a member the struct does not have is an error (default:
    /// skipped, as the reference does).
    pub reject_unknown_fields: bool,
}

/// The highest [`JsonLimits::max_depth`] allowed: the decoder recurses
/// once a level.
pub const MAX_NESTING_CEILING: usize = 1024;

impl Default for JsonLimits {
    fn default() -> Self {
        JsonLimits {
            max_input_bytes: 64 << 20,
            max_depth: 64,
            max_message_words: 1 << 25,
            reject_unknown_fields: false,
        }
    }
}

/// A codec for one root struct type: the plan of its annotations (and of
/// every struct and enum it reaches), made once, for many messages.
#[derive(Debug)]
pub struct JsonCodec {
    plan: annotations::Plan,
}

impl JsonCodec {
    /// The codec of `root` and the types its fields reach.
    ///
    /// # Errors
    /// [`JsonError::Annotation`] when the schema's JSON annotations are
    /// refused (as the reference refuses them): `flatten` on a field
    /// that is not a struct or group, `discriminator` on a field that is
    /// not a union, `base64`/`hex` on a field that is not `Data`, a
    /// flattening cycle, or two members (or enumerants, union tags) with
    /// the same JSON name; [`JsonError::Dynamic`] when an annotation's
    /// value cannot be read.
    pub fn new(root: &StructSchema<'_>) -> JsonResult<Self> {
        Ok(JsonCodec {
            plan: annotations::plan_for(root)?,
        })
    }

    /// `value` (the root type, or a struct it reaches) as JSON text.
    ///
    /// # Errors
    /// See [`encode`].
    pub fn encode(
        &self,
        value: &DynamicStructReader<'_>,
        options: &JsonOptions,
    ) -> JsonResult<String> {
        let mut e = encode::Encoder {
            plan: &self.plan,
            path: Vec::new(),
            stack_base: crate::stack::address(),
        };
        let out = e.encode_struct(value)?;
        Ok(writer::write(&out, options.pretty))
    }

    /// Reads the JSON object `text` into `builder` (the root type, or a
    /// struct it reaches).
    ///
    /// # Errors
    /// See [`decode`].
    pub fn decode<A: Arena + ?Sized>(
        &self,
        text: &[u8],
        builder: DynamicStructBuilder<'_, A>,
        limits: &JsonLimits,
    ) -> JsonResult<()> {
        if text.len() > limits.max_input_bytes {
            return Err(JsonError::InputTooLarge {
                size: text.len(),
                limit: limits.max_input_bytes,
            });
        }
        self.check_limits(limits)?;
        if let Err(e) = core::str::from_utf8(text) {
            return Err(JsonError::Syntax {
                at: Position::of(text, e.valid_up_to()),
                message: "the input is not UTF-8".into(),
            });
        }
        let tree = parser::validate(text, limits.max_depth)?;
        self.decode_tree(text, tree, builder, limits)
    }

    /// Reads the first JSON object of `text` at or after byte `start`
    /// into `builder`: for a stream of documents (separated by
    /// whitespace, or not at all). Returns the offset after the document
    /// and the whitespace that follows it (where the next document
    /// starts), or `None`, leaving `builder` untouched, when only
    /// whitespace is left. Positions in errors count from the start of
    /// `text`; each document may be up to [`JsonLimits::max_input_bytes`]
    /// long.
    ///
    /// ```
    /// # use capnarena::{Message, SingleSegmentArena};
    /// # use capnarena_dynamic::{DynamicStructBuilder, LoadedSchema};
    /// # use capnarena_dynamic::json::{JsonCodec, JsonLimits};
    /// # let loaded = LoadedSchema::compile(&capnarena_compiler::Compiler::new()
    /// #     .source("/d.capnp", "@0xd3bd7ff1e1ed8b6a; struct P { x @0 :Int32; }").file("/d.capnp"))?;
    /// # let schema = loaded.schema();
    /// # let p = schema.find_struct("d.capnp:P")?;
    /// let codec = JsonCodec::new(&p)?;
    /// let stream = b"{\"x\": 1}\n{\"x\": 2}\n";
    /// let (mut at, mut n) = (0, 0);
    /// loop {
    ///     let mut msg = Message::new(SingleSegmentArena::new());
    ///     let b = DynamicStructBuilder::init_root(&mut msg, p.clone())?;
    ///     match codec.decode_prefix(stream, at, b, &JsonLimits::default())? {
    ///         Some(next) => (at, n) = (next, n + 1),
    ///         None => break,
    ///     }
    /// }
    /// assert_eq!(n, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`JsonError::DocumentTooLarge`], or as [`decode`].
    pub fn decode_prefix<A: Arena + ?Sized>(
        &self,
        text: &[u8],
        start: usize,
        builder: DynamicStructBuilder<'_, A>,
        limits: &JsonLimits,
    ) -> JsonResult<Option<usize>> {
        self.check_limits(limits)?;
        let first = parser::skip_whitespace(text, start);
        if first >= text.len() {
            return Ok(None);
        }
        // The document is read from a window of the limit's size; an
        // error at its end in a longer text is a document over the limit.
        let cut = first.saturating_add(limits.max_input_bytes).min(text.len());
        let window = &text[..cut];
        let (tree, end) = match parser::validate_prefix(window, first, limits.max_depth) {
            Ok(parsed) => parsed,
            Err((e, reached)) => {
                if reached >= cut && cut < text.len() {
                    return Err(JsonError::DocumentTooLarge {
                        at: Position::of(text, first),
                        limit: limits.max_input_bytes,
                    });
                }
                return Err(e);
            }
        };
        self.decode_tree(window, tree, builder, limits)?;
        // Whitespace after the document may run past the window.
        Ok(Some(parser::skip_whitespace(text, end)))
    }

    fn check_limits(&self, limits: &JsonLimits) -> JsonResult<()> {
        if limits.max_depth > MAX_NESTING_CEILING {
            return Err(JsonError::LimitTooHigh {
                what: "max_depth",
                value: limits.max_depth,
                ceiling: MAX_NESTING_CEILING,
            });
        }
        Ok(())
    }

    fn decode_tree<A: Arena + ?Sized>(
        &self,
        text: &[u8],
        tree: parser::Node,
        builder: DynamicStructBuilder<'_, A>,
        limits: &JsonLimits,
    ) -> JsonResult<()> {
        let mut d = decode::Decoder {
            text,
            plan: &self.plan,
            reject_unknown: limits.reject_unknown_fields,
            path: Vec::new(),
            budget: limits.max_message_words,
            limit_words: limits.max_message_words,
            depth: 0,
            stack_base: 0,
        };
        d.decode_struct(tree, builder)
    }
}

/// `value` as JSON text, by the JSON annotations of its schema.
///
/// Values: `Void` is `null`; integers up to 32 bits are numbers, `Int64`
/// and `UInt64` decimal strings; floats numbers, or `"Infinity"`,
/// `"-Infinity"`, `"NaN"`; an enum its name (or number when the schema
/// does not list it); `Data` an array of byte values; a struct an object
/// of its set fields (null pointers left out) followed by its active
/// union member (always written).
///
/// # Errors
/// [`JsonError::Encode`] for an `AnyPointer` or capability that is set
/// (they have no JSON form), [`JsonError::Dynamic`] for a malformed
/// message (or text that is not UTF-8), [`JsonError::Annotation`] for
/// annotations the reference refuses.
pub fn encode(value: &DynamicStructReader<'_>, options: &JsonOptions) -> JsonResult<String> {
    JsonCodec::new(value.schema())?.encode(value, options)
}

/// Reads the JSON object `text` into `builder`, by the JSON annotations
/// of its schema. Members the struct does not have are skipped (unless
/// [`JsonLimits::reject_unknown_fields`]).
///
/// # Errors
/// [`JsonError::InputTooLarge`], [`JsonError::TooDeep`],
/// [`JsonError::MessageTooLarge`],
/// [`JsonError::Syntax`] (text that is not JSON), [`JsonError::Value`]
/// (a value that does not fit its field), [`JsonError::UnknownField`],
/// each with its [`Position`]; [`JsonError::Dynamic`] when building fails
/// (the arena's limit), [`JsonError::Annotation`].
pub fn decode<A: Arena + ?Sized>(
    text: &[u8],
    builder: DynamicStructBuilder<'_, A>,
    limits: &JsonLimits,
) -> JsonResult<()> {
    JsonCodec::new(builder.schema())?.decode(text, builder, limits)
}

/// The framed message `framed` (standard stream framing) with root type
/// `root`, as JSON text: what `capnp convert binary:json` writes (without
/// its newline). `framed` need not be aligned (it is copied when it is
/// not).
///
/// # Errors
/// The message does not read with `options`, or as [`encode`].
pub fn message_to_json(
    root: &StructSchema<'_>,
    framed: &[u8],
    options: ReaderOptions,
    json: &JsonOptions,
) -> JsonResult<String> {
    let wire = |e: capnarena::Error| JsonError::Dynamic {
        context: "the message".into(),
        source: e.into(),
    };
    // Read in place when aligned, from a copy otherwise.
    let owned;
    let words: &[Word] = match Word::try_slice_from_bytes(framed) {
        Some(words) => words,
        None => {
            owned = capnarena::words_from_bytes(framed).map_err(wire)?;
            &owned
        }
    };
    let reader = MessageReader::from_words(words, options).map_err(wire)?;
    let value = DynamicStructReader::root(&reader, root.clone()).ctx(|| "the root".into())?;
    encode(&value, json)
}

/// The JSON object `text` as a message with root type `root`, in
/// standard stream framing: what `capnp convert json:binary` writes (the
/// same message; the layout may differ, the canonical form is the same).
///
/// # Errors
/// As [`decode`].
pub fn json_to_message(
    root: &StructSchema<'_>,
    text: &[u8],
    limits: &JsonLimits,
) -> JsonResult<Vec<u8>> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let b = DynamicStructBuilder::init_root(&mut msg, root.clone()).ctx(|| "the root".into())?;
    decode(text, b, limits)?;
    let mut out = Vec::new();
    msg.append_to(&mut out);
    Ok(out)
}
