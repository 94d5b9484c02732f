//! The JSON codec's error type, and positions in the input text.

/// A place in the JSON text: line and column count from 1; the column
/// counts characters (Unicode scalar values), not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Line, from 1 (lines end at `\n`).
    pub line: u32,
    /// Column, from 1, in characters.
    pub column: u32,
    /// Byte offset from the start of the text, from 0.
    pub offset: usize,
}

impl Position {
    /// The position of byte `offset` of `text`.
    pub(crate) fn of(text: &[u8], offset: usize) -> Position {
        let offset = offset.min(text.len());
        let before = &text[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        // Characters: every byte that does not continue a UTF-8 sequence.
        let column = before[line_start..]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count()
            + 1;
        Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
            offset,
        }
    }
}

impl core::fmt::Display for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What went wrong encoding a value as JSON or decoding JSON into a
/// builder. Decoding errors carry the [`Position`] of the text at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// The text is not JSON (as the reference's parser reads it).
    #[error("JSON syntax error at {at}: {message}")]
    Syntax {
        /// Where.
        at: Position,
        /// What was expected or found.
        message: String,
    },
    /// The input is longer than [`JsonLimits::max_input_bytes`](crate::json::JsonLimits).
    #[error("JSON input of {size} bytes is over the limit of {limit} bytes")]
    InputTooLarge {
        /// The input's size in bytes.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A document of a stream ([`JsonCodec::decode_prefix`](crate::json::JsonCodec::decode_prefix))
    /// runs past [`JsonLimits::max_input_bytes`](crate::json::JsonLimits).
    #[error("the JSON document at {at} is longer than the limit of {limit} bytes")]
    DocumentTooLarge {
        /// Where the document starts.
        at: Position,
        /// The limit.
        limit: usize,
    },
    /// Arrays and objects nest deeper than the limit.
    #[error("JSON nested too deeply at {at}: more than {limit} levels of arrays and objects")]
    TooDeep {
        /// The array or object that is one level too deep.
        at: Position,
        /// The limit.
        limit: usize,
    },
    /// The arrays and objects nested so far use more stack than
    /// [`STACK_BUDGET`](crate::STACK_BUDGET) allows: nesting within the
    /// depth limit that the reader (the JSON text reader, the decoder, or
    /// through [`JsonDeserializer`](crate::json::JsonDeserializer) the
    /// `Deserialize` impls it runs) could not finish on a default
    /// thread's stack.
    #[error(
        "JSON nested too deeply at {at} for the stack: {depth} levels use {used} bytes, over the budget of {budget}"
    )]
    StackBudget {
        /// The array or object whose level passed the budget.
        at: Position,
        /// Its level (1 for the outermost array or object).
        depth: usize,
        /// The bytes of stack used from the outermost level to it.
        used: usize,
        /// The budget.
        budget: usize,
    },
    /// The message built would take more words than
    /// [`JsonLimits::max_message_words`](crate::json::JsonLimits).
    #[error("at {at}: the message would take more than {limit} words (8-byte units)")]
    MessageTooLarge {
        /// The value whose allocation would pass the limit.
        at: Position,
        /// The limit.
        limit: u64,
    },
    /// A limit asked for is over what the codec allows.
    #[error("{what} of {value} is over the ceiling of {ceiling}")]
    LimitTooHigh {
        /// Which limit.
        what: &'static str,
        /// The value asked for.
        value: usize,
        /// The highest value allowed.
        ceiling: usize,
    },
    /// A JSON value does not fit the field or element it is for.
    #[error("at {at}: {context}: {message}")]
    Value {
        /// Where the value starts.
        at: Position,
        /// The field or element (by its schema name).
        context: String,
        /// What was expected and found.
        message: String,
    },
    /// An object names a field the struct does not have, and
    /// [`JsonLimits::reject_unknown_fields`](crate::json::JsonLimits) is set.
    #[error("at {at}: {struct_name} has no field named {name:?} in JSON")]
    UnknownField {
        /// Where the name starts.
        at: Position,
        /// The struct.
        struct_name: String,
        /// The name.
        name: String,
    },
    /// The schema's JSON annotations (`/capnp/compat/json.capnp`) cannot
    /// be applied, as the reference's codec refuses them too.
    #[error("JSON annotations of {node}: {message}")]
    Annotation {
        /// The struct, field or enum.
        node: String,
        /// What is wrong.
        message: String,
    },
    /// A value has no JSON form (a capability, an `AnyPointer`), or the
    /// message is too deep to encode.
    #[error("cannot encode {context} as JSON: {message}")]
    Encode {
        /// The field or element.
        context: String,
        /// Why.
        message: String,
    },
    /// Reading the message or building the value failed (a malformed
    /// message, a limit of the reader, an arena with no room).
    #[error("{context}: {source}")]
    Dynamic {
        /// The field or element being read or built.
        context: String,
        /// The error.
        #[source]
        source: crate::Error,
    },
}

impl JsonError {
    /// The position in the JSON text, for decoding errors that have one.
    pub fn position(&self) -> Option<Position> {
        match self {
            JsonError::Syntax { at, .. }
            | JsonError::TooDeep { at, .. }
            | JsonError::StackBudget { at, .. }
            | JsonError::Value { at, .. }
            | JsonError::MessageTooLarge { at, .. }
            | JsonError::DocumentTooLarge { at, .. }
            | JsonError::UnknownField { at, .. } => Some(*at),
            _ => None,
        }
    }
}

/// `Result` with a [`JsonError`].
pub type JsonResult<T> = core::result::Result<T, JsonError>;

/// Adds context to the dynamic layer's errors.
pub(crate) trait Context<T> {
    fn ctx(self, context: impl FnOnce() -> String) -> JsonResult<T>;
}

impl<T> Context<T> for crate::Result<T> {
    fn ctx(self, context: impl FnOnce() -> String) -> JsonResult<T> {
        self.map_err(|source| JsonError::Dynamic {
            context: context(),
            source,
        })
    }
}

/// A place not yet known: what a serde error made by `custom` carries
/// until the deserializer places it (line 0 is no line).
pub(crate) const NOWHERE: Position = Position {
    line: 0,
    column: 0,
    offset: 0,
};

/// A field name or list index on the way down to a value.
pub(crate) enum Step<'a> {
    Name(&'a str),
    Index(usize),
}

impl JsonError {
    /// `self`, with `step` put before the context (the path from the
    /// root to the value at fault), for errors that have one.
    pub(crate) fn within(mut self, step: Step<'_>) -> JsonError {
        if let JsonError::Encode { context, .. } | JsonError::Value { context, .. } = &mut self {
            let mut s = match step {
                Step::Name(n) => n.to_string(),
                Step::Index(i) => format!("[{i}]"),
            };
            if !context.is_empty() && !context.starts_with('[') {
                s.push('.');
            }
            s.push_str(context);
            *context = s;
        }
        self
    }

    /// `self`, with an empty context named as the root.
    pub(crate) fn at_root(mut self) -> JsonError {
        if let JsonError::Encode { context, .. } | JsonError::Value { context, .. } = &mut self {
            if context.is_empty() {
                *context = "the root".into();
            }
        }
        self
    }
}

/// What a serde `Serialize` impl reports: a value with no JSON form.
impl serde::ser::Error for JsonError {
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        JsonError::Encode {
            context: String::new(),
            message: msg.to_string(),
        }
    }
}

/// What a serde `Deserialize` impl reports: a value that does not fit
/// (placed at the value by the deserializer).
impl serde::de::Error for JsonError {
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        JsonError::Value {
            at: NOWHERE,
            context: String::new(),
            message: msg.to_string(),
        }
    }
}
