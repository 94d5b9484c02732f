//! What a failed compile reports: each error with the range of text it
//! is about, and the other places that explain it.

use std::fmt;

/// A place in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Location {
    /// Byte offset from the start of the file.
    pub offset: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
}

/// A range of a source file: from `start` up to, not including, `end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub start: Location,
    /// One past the last byte.
    pub end: Location,
}

/// Another place an error points at, such as where a duplicated ordinal
/// or id was first used.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Related {
    /// The file, named as [`Diagnostic::file`] is.
    pub file: String,
    /// The range it points at.
    pub span: Span,
    /// What is there, in the reference's words (`Ordinal @0 originally
    /// used here.`).
    pub message: String,
}

/// One error: where, what, and the places that explain it.
///
/// Displayed as the reference `capnp` prints it, one
/// `file:line:column: error: message` line for the error and one for
/// each related place.
///
/// ```
/// let errors = capnarena_compiler::Compiler::new()
///     .source("/s/a.capnp", "@0xdbb9ad1f14bf0b36;\nstruct S { a @0 :UInt8; b @0 :UInt8; }\n")
///     .working_dir("/s")
///     .file("a.capnp")
///     .compile()
///     .unwrap_err();
/// let d = &errors.0[0];
/// assert_eq!(d.message, "Duplicate ordinal number.");
/// let span = d.span.unwrap();
/// assert_eq!((span.start.line, span.start.column, span.end.column), (2, 28, 29));
/// assert_eq!(d.related[0].message, "Ordinal @0 originally used here.");
/// assert_eq!(d.related[0].span.start.column, 15);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Diagnostic {
    /// The file as the user named it, so that an editor can open it: the
    /// starting directory it was found in spelled as given to
    /// [`Compiler::src_prefix`](crate::Compiler::src_prefix) or
    /// [`Compiler::import_path`](crate::Compiler::import_path), then its
    /// path inside (relative to the working directory when found there,
    /// absolute when found under `/`), as the reference prints errors; a
    /// file that could not be read, as given to
    /// [`Compiler::file`](crate::Compiler::file).
    pub file: String,
    /// The range of text the error is about; `None` when it has no place
    /// (an unreadable file, a warning).
    pub span: Option<Span>,
    /// What is wrong, in the reference's words.
    pub message: String,
    /// Other places the error points at, in the order the reference
    /// prints them.
    pub related: Vec<Related>,
}

impl Diagnostic {
    /// An error with no place in a file.
    pub(crate) fn general(file: String, message: String) -> Diagnostic {
        Diagnostic {
            file,
            span: None,
            message,
            related: Vec::new(),
        }
    }

    /// The 1-based line where the error starts, 0 when it has no place.
    pub fn line(&self) -> u32 {
        self.span.map_or(0, |s| s.start.line)
    }

    /// The 1-based column in bytes where the error starts, 0 when it has
    /// no place.
    pub fn column(&self) -> u32 {
        self.span.map_or(0, |s| s.start.column)
    }
}

impl fmt::Display for Diagnostic {
    /// The error's line, then one line per related place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            None => write!(f, "{}: error: {}", self.file, self.message)?,
            Some(s) => write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, s.start.line, s.start.column, self.message
            )?,
        }
        for r in &self.related {
            write!(
                f,
                "\n{}:{}:{}: error: {}",
                r.file, r.span.start.line, r.span.start.column, r.message
            )?;
        }
        Ok(())
    }
}

/// Every error of a failed compile, in the order found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    /// One `file:line:col: error: message` line per error and related
    /// place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
