//! The crate's one error type.

use core::fmt;

use crate::arena::AllocError;

/// What kind of pointer was found where another was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerKind {
    /// The all-zero pointer.
    Null,
    /// A struct pointer.
    Struct,
    /// A list pointer.
    List,
    /// A far pointer (only seen where a landing pad must hold a near pointer).
    Far,
    /// A capability pointer (an index into the message's capability table).
    Capability,
    /// A pointer of kind "other" that is not a capability.
    Other,
}

impl core::fmt::Display for PointerKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let s = match self {
            PointerKind::Null => "null",
            PointerKind::Struct => "struct",
            PointerKind::List => "list",
            PointerKind::Far => "far",
            PointerKind::Capability => "capability",
            PointerKind::Other => "other",
        };
        f.write_str(s)
    }
}

/// What is wrong with packed input (see [`Error::Packed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PackedFault {
    /// The input ends inside the bytes that a tag announces (one per set
    /// bit; for tag `0xff` also the literal-run count, for tag `0x00` the
    /// zero-run count).
    TagPastEnd {
        /// The tag byte.
        tag: u8,
        /// Bytes the tag needs after it.
        needed: u8,
        /// Bytes left in the input after the tag.
        available: u8,
    },
    /// The input ends inside a literal run (the words after a `0xff` tag's
    /// word and count).
    LiteralRunPastEnd {
        /// Words the run count declares.
        words: u8,
        /// Bytes left in the input after the count.
        available: u64,
    },
    /// The input unpacks past the end of the output: past the buffer
    /// given, or past the end of the message being read (whose segment
    /// table says where it ends).
    OutputFull {
        /// Bytes the output holds.
        capacity_bytes: u64,
    },
    /// The input unpacks to more words than the limit allows.
    OutputLimit {
        /// Words the input unpacks to.
        words: u64,
        /// The limit in words.
        limit_words: u64,
    },
}

impl core::fmt::Display for PackedFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            PackedFault::TagPastEnd {
                tag,
                needed,
                available,
            } => write!(
                f,
                "tag {tag:#04x} needs {needed} more bytes, the input has {available}"
            ),
            PackedFault::LiteralRunPastEnd { words, available } => write!(
                f,
                "literal run of {words} words ({} bytes), the input has {available}",
                u64::from(words) * 8
            ),
            PackedFault::OutputFull { capacity_bytes } => {
                write!(
                    f,
                    "unpacks past the end of the output ({capacity_bytes} bytes)"
                )
            }
            PackedFault::OutputLimit { words, limit_words } => {
                write!(
                    f,
                    "unpacks to {words} words, past the limit of {limit_words}"
                )
            }
        }
    }
}

/// Everything that can go wrong building, framing or reading a message.
///
/// Variants are grouped by what the caller can do: raise a limit, give more
/// memory, or reject the input. Each carries the numbers that explain it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    // ---- memory: give the arena more room ----
    /// The arena could not provide the words asked for.
    Alloc(AllocError),
    /// The arena broke its contract (see the `Arena` implementer notes).
    ArenaContract {
        /// Which rule was broken.
        what: &'static str,
        /// Segment involved.
        segment: u32,
        /// Word offset involved.
        offset: u64,
        /// Word count involved.
        len: u64,
    },
    /// A list or blob is too large to encode (element count or word size
    /// past the 29- or 32-bit fields of a pointer).
    TooLarge {
        /// Elements asked for.
        count: u64,
        /// Bits per element, pointers included.
        bits_per_element: u64,
        /// The largest count that could be encoded.
        max_count: u64,
    },

    // ---- limits: raise them in `ReaderOptions` if the input is trusted ----
    /// The message has more segments than the reader accepts.
    SegmentLimitExceeded {
        /// Segments declared by the segment table.
        count: u64,
        /// `ReaderOptions::segment_limit`.
        limit: u32,
    },
    /// Reading charged more words than the traversal limit allows.
    TraversalLimitExceeded {
        /// `ReaderOptions::traversal_limit_words`.
        limit: u64,
        /// Words the read that failed asked for.
        requested: u64,
    },
    /// Decoding into plain Rust values (the generated `Value`s and
    /// `ValueRef`s) would allocate more than the traversal budget has
    /// left: each decoded list element or boxed struct is charged its size
    /// in memory, in words, beyond what reading it charged.
    DecodeLimitExceeded {
        /// Values being decoded (a list's elements, or one boxed struct).
        elements: u64,
        /// Bytes each takes in memory.
        element_bytes: u64,
        /// Words charged for them beyond what reading them charged.
        extra_words: u64,
        /// Words of traversal budget left before them.
        remaining: u64,
        /// `ReaderOptions::traversal_limit_words`.
        limit: u64,
    },
    /// A message declares more words than the traversal limit allows.
    MessageTooLarge {
        /// Total words in the segment table.
        declared: u64,
        /// `ReaderOptions::traversal_limit_words`.
        limit: u64,
    },
    /// Pointers nest deeper than the nesting limit.
    NestingLimitExceeded {
        /// `ReaderOptions::nesting_limit`.
        limit: u32,
    },
    /// More segments than fit in the reader's inline table, built without
    /// the `alloc` feature.
    TooManySegmentsWithoutAlloc {
        /// Segments in the message.
        count: u64,
        /// Inline capacity.
        inline: usize,
    },

    /// A deep copy nested deeper than its fixed work list holds, built
    /// without the `alloc` feature (with it, the list grows on the heap, up
    /// to the source's nesting limit).
    CopyTooDeepWithoutAlloc {
        /// Levels of nesting reached.
        depth: u64,
        /// Levels the fixed work list holds.
        inline: usize,
    },
    /// `total_size` reached objects nested deeper than its fixed work list
    /// holds, without the `alloc` feature (which lifts the bound, up to the
    /// reader's nesting limit).
    SizeTooDeepWithoutAlloc {
        /// Levels of nesting reached.
        depth: u64,
        /// Levels the fixed work list holds.
        inline: usize,
    },
    /// Zeroing what an overwritten pointer reached met objects nested
    /// deeper than its fixed work list holds, without the `alloc` feature
    /// (with it, the list grows on the heap, up to the message's size).
    ZeroTooDeepWithoutAlloc {
        /// Levels of nesting reached.
        depth: u64,
        /// Levels the fixed work list holds.
        inline: usize,
    },
    /// What an overwritten pointer pointed to (a malformed pointer, read
    /// from a peer) overlaps the object that replaced it: those words are
    /// not zeroed.
    OldObjectOverlapsNew {
        /// Segment of the old object (or landing pad).
        segment: u32,
        /// Its first word.
        offset: u64,
        /// Its words.
        len: u64,
    },

    // ---- framing: the input is not a well-formed framed message ----
    /// The input ended before the framing said it would.
    Truncated {
        /// Bytes the framing requires (from the start of the message).
        needed: u64,
        /// Bytes present.
        available: u64,
    },
    /// A frame declares more bytes than a codec's frame limit allows.
    FrameTooLarge {
        /// Bytes of the frame (segment table and segments) its table declares.
        declared: u64,
        /// The codec's limit in bytes.
        limit: u64,
    },
    /// A codec's decoder was given more input after it failed: it
    /// refuses everything until it is reset (`reset()`), because the
    /// stream is no longer in step with its frames.
    DecoderFailed,
    /// A stream ended cleanly before the first byte of a message.
    EndOfStream,
    /// Input left over after the message, where exactly one was expected.
    TrailingData {
        /// Bytes after the message.
        extra: u64,
    },
    /// Zero-copy reading needs 8-aligned input whose length is a multiple of 8.
    Unaligned {
        /// The input's address modulo 8.
        address_mod_8: usize,
        /// The input's length in bytes.
        len: usize,
    },
    /// An output buffer is too small.
    BufferTooSmall {
        /// Bytes needed.
        needed: u64,
        /// Bytes available.
        available: u64,
    },
    /// Malformed packed input, or packed input that unpacks to more words
    /// than the output takes.
    Packed {
        /// Byte offset in the packed input of the tag (or run count) at
        /// fault, from the start of the input (of the message, when a
        /// message is read).
        offset: u64,
        /// What was wrong, with its numbers.
        fault: PackedFault,
    },
    /// Bytes given to a packing writer do not end on a word boundary, so
    /// the last bytes cannot be packed.
    PartialWord {
        /// Bytes of the unfinished word (1 to 7).
        bytes: u8,
    },

    // ---- content: the message's pointers are malformed ----
    /// A pointer's target lies (partly) outside its segment.
    OutOfBounds {
        /// Segment the target is in.
        segment: u32,
        /// First word of the target (may be negative for a bad offset).
        start: i64,
        /// Words the target spans.
        len: u64,
        /// Words in the segment.
        segment_len: u64,
    },
    /// A far pointer names a segment the message does not have.
    MissingSegment {
        /// Segment named.
        segment: u32,
        /// Segments present.
        count: u32,
    },
    /// A far pointer's landing pad holds the wrong kind of pointer.
    BadLandingPad {
        /// Segment of the landing pad.
        segment: u32,
        /// Word offset of the landing pad.
        offset: u64,
        /// What was wrong.
        what: &'static str,
    },
    /// A pointer of one kind was found where another was expected.
    UnexpectedPointer {
        /// What the read asked for.
        expected: PointerKind,
        /// What the message holds.
        found: PointerKind,
    },
    /// A list's elements cannot be read as the requested element type.
    IncompatibleList {
        /// Data bits per element the read needs.
        expected_data_bits: u32,
        /// Pointers per element the read needs.
        expected_pointers: u32,
        /// Data bits per element on the wire.
        found_data_bits: u32,
        /// Pointers per element on the wire.
        found_pointers: u32,
        /// Extra note for bit lists.
        bit_note: &'static str,
    },
    /// An existing struct is smaller than the size a builder asked for.
    /// Builders no longer return it: they move such a struct into a larger
    /// one, as the reference does (see
    /// [`PointerBuilder::get_struct`](crate::PointerBuilder::get_struct)).
    StructTooSmall {
        /// Size of the struct in the message.
        found: crate::layout::StructSize,
        /// Size asked for.
        expected: crate::layout::StructSize,
    },
    /// An inline-composite list's tag word disagrees with its pointer.
    BadCompositeTag {
        /// What was wrong.
        what: &'static str,
        /// Element count from the tag.
        elements: u64,
        /// Words per element from the tag.
        element_words: u64,
        /// Words the list pointer declares (tag excluded).
        list_words: u64,
    },
    /// A text is not NUL-terminated (or is empty, with no room for the NUL).
    TextNotTerminated {
        /// Bytes in the text's list, terminator position included.
        len: u64,
    },
    /// A piece pushed onto a text builder does not fit in the text's
    /// length (fixed when the text was made).
    TextFull {
        /// The text's length in bytes.
        len: u64,
        /// Bytes pushed so far.
        pos: u64,
        /// Bytes of the piece refused.
        pushed: u64,
    },
    /// The items of a list made in one allocation changed between the pass
    /// that sized it and the pass that wrote it (an iterator whose clone
    /// yields other items, or more or fewer than its `len`); the list's
    /// words are left zero.
    ItemsChanged {
        /// Items the list was sized for.
        items: u64,
        /// Words the list was sized for (pointers and blobs).
        words: u64,
    },
    /// A text is not valid UTF-8.
    Utf8 {
        /// Bytes of valid UTF-8 before the error.
        valid_up_to: usize,
    },
    /// A single message can only be handed out as one contiguous framed
    /// slice when it has one segment.
    NotSingleSegment {
        /// Segments in the message.
        segments: u32,
    },

    // ---- schema ----
    /// An enum field or element holds a value the schema does not list.
    NotInSchema {
        /// The value on the wire.
        value: u16,
    },

    // ---- io ----
    /// An I/O error from a reader or writer.
    #[cfg(feature = "std")]
    Io(std::io::Error),
    /// A reader reported reading more bytes than the buffer it was given
    /// holds (a broken `io::Read`); nothing it returned is used.
    ReadPastBuffer {
        /// Bytes the reader said it read.
        reported: u64,
        /// Bytes the buffer held.
        buffer: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Alloc(inner) => fmt::Display::fmt(inner, f),
            Error::ArenaContract {
                what,
                segment,
                offset,
                len,
            } => {
                write!(
                    f,
                    "arena contract violated: {what} (segment {segment}, offset {offset}, len {len})"
                )
            }
            Error::TooLarge {
                count,
                bits_per_element,
                max_count,
            } => {
                write!(
                    f,
                    "object too large to encode: {count} elements of {bits_per_element} bits (max {max_count} elements)"
                )
            }
            Error::SegmentLimitExceeded { count, limit } => {
                write!(
                    f,
                    "message has {count} segments, more than the limit of {limit}"
                )
            }
            Error::TraversalLimitExceeded { limit, requested } => {
                write!(
                    f,
                    "traversal limit of {limit} words exceeded (reading {requested} more words)"
                )
            }
            Error::DecodeLimitExceeded {
                elements,
                element_bytes,
                extra_words,
                remaining,
                limit,
            } => {
                write!(
                    f,
                    "decoding {elements} values of {element_bytes} bytes each needs {extra_words} \
                     more words of the traversal budget, {remaining} of the limit of {limit} are left"
                )
            }
            Error::MessageTooLarge { declared, limit } => {
                write!(
                    f,
                    "message declares {declared} words, more than the traversal limit of {limit}"
                )
            }
            Error::NestingLimitExceeded { limit } => {
                write!(f, "nesting limit of {limit} exceeded")
            }
            Error::TooManySegmentsWithoutAlloc { count, inline } => {
                write!(
                    f,
                    "message has {count} segments; without the `alloc` feature at most {inline} are supported"
                )
            }
            Error::CopyTooDeepWithoutAlloc { depth, inline } => {
                write!(
                    f,
                    "deep copy nested {depth} levels; without the `alloc` feature at most {inline} are supported"
                )
            }
            Error::SizeTooDeepWithoutAlloc { depth, inline } => {
                write!(
                    f,
                    "total_size nested {depth} levels; without the `alloc` feature at most {inline} are supported"
                )
            }
            Error::ZeroTooDeepWithoutAlloc { depth, inline } => {
                write!(
                    f,
                    "zeroing an overwritten object nested {depth} levels; without the `alloc` feature at most {inline} are supported"
                )
            }
            Error::OldObjectOverlapsNew {
                segment,
                offset,
                len,
            } => {
                write!(
                    f,
                    "the object an overwritten pointer pointed to (segment {segment}, {len} words at {offset}) overlaps the new object"
                )
            }
            Error::Truncated { needed, available } => {
                write!(f, "input truncated: need {needed} bytes, have {available}")
            }
            Error::FrameTooLarge { declared, limit } => {
                write!(
                    f,
                    "frame declares {declared} bytes, more than the frame limit of {limit}"
                )
            }
            Error::DecoderFailed => f.write_str(
                "the decoder failed earlier in this stream; reset it before decoding another",
            ),
            Error::EndOfStream => f.write_str("end of stream before a message"),
            Error::TrailingData { extra } => {
                write!(f, "{extra} bytes after the end of the message")
            }
            Error::Unaligned { address_mod_8, len } => {
                write!(
                    f,
                    "input not word-aligned: address % 8 = {address_mod_8}, length {len} bytes"
                )
            }
            Error::BufferTooSmall { needed, available } => {
                write!(
                    f,
                    "output buffer too small: need {needed} bytes, have {available}"
                )
            }
            Error::Packed { offset, fault } => {
                write!(f, "packed input rejected at byte {offset}: {fault}")
            }
            Error::PartialWord { bytes } => {
                write!(f, "packed output ends {bytes} bytes into a word")
            }
            Error::OutOfBounds {
                segment,
                start,
                len,
                segment_len,
            } => {
                write!(
                    f,
                    "pointer target out of bounds: segment {segment}, words [{start}, {start}+{len}) but segment has {segment_len} words"
                )
            }
            Error::MissingSegment { segment, count } => {
                write!(
                    f,
                    "far pointer to segment {segment}, but the message has {count} segments"
                )
            }
            Error::BadLandingPad {
                segment,
                offset,
                what,
            } => {
                write!(
                    f,
                    "far pointer landing pad in segment {segment} at word {offset} is invalid: {what}"
                )
            }
            Error::UnexpectedPointer { expected, found } => {
                write!(f, "expected a {expected} pointer, found a {found} pointer")
            }
            Error::IncompatibleList {
                expected_data_bits,
                expected_pointers,
                found_data_bits,
                found_pointers,
                bit_note,
            } => {
                write!(
                    f,
                    "list elements ({found_data_bits} data bits, {found_pointers} pointers{bit_note}) cannot be read as elements of {expected_data_bits} data bits, {expected_pointers} pointers"
                )
            }
            Error::StructTooSmall { found, expected } => {
                write!(
                    f,
                    "existing struct ({found:?}) is smaller than the requested {expected:?}"
                )
            }
            Error::BadCompositeTag {
                what,
                elements,
                element_words,
                list_words,
            } => {
                write!(
                    f,
                    "inline-composite list tag invalid: {what} ({elements} elements of {element_words} words in {list_words} words)"
                )
            }
            Error::TextNotTerminated { len } => {
                write!(f, "text of {len} bytes is not NUL-terminated")
            }
            Error::TextFull { len, pos, pushed } => {
                write!(
                    f,
                    "text of {len} bytes has {pos} pushed; {pushed} more do not fit"
                )
            }
            Error::ItemsChanged { items, words } => {
                write!(
                    f,
                    "list items changed after the list was sized ({items} items in {words} words)"
                )
            }
            Error::Utf8 { valid_up_to } => {
                write!(
                    f,
                    "text is not valid UTF-8 (valid up to byte {valid_up_to})"
                )
            }
            Error::NotSingleSegment { segments } => {
                write!(
                    f,
                    "message has {segments} segments; a contiguous framed slice needs exactly 1"
                )
            }
            Error::NotInSchema { value } => {
                write!(f, "enum value {value} is not in the schema")
            }
            #[cfg(feature = "std")]
            Error::Io(inner) => write!(f, "i/o error: {inner}"),
            Error::ReadPastBuffer { reported, buffer } => {
                write!(
                    f,
                    "reader reported {reported} bytes read into a buffer of {buffer} bytes"
                )
            }
        }
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            // `Alloc` shows its inner error as its own message, so the
            // chain continues below it, not at it.
            Error::Alloc(inner) => core::error::Error::source(inner),
            #[cfg(feature = "std")]
            Error::Io(inner) => Some(inner),
            _ => None,
        }
    }
}

impl From<AllocError> for Error {
    fn from(inner: AllocError) -> Self {
        Error::Alloc(inner)
    }
}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    fn from(inner: std::io::Error) -> Self {
        Error::Io(inner)
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;
