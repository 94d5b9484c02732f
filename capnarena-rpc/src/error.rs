//! Errors of calls and connections: the protocol's `Exception`, with its
//! type, as a Rust error.

use std::fmt;

use crate::rpc_capnp::exception;

/// What kind of failure an [`Error`] is: the four types of the protocol's
/// `Exception` (rpc.capnp), which say what a caller may do about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Something went wrong and trying again will not help.
    Failed,
    /// A resource ran out (a limit was reached); trying again later may work.
    Overloaded,
    /// The connection to the object was lost; calls on a new connection
    /// may work.
    Disconnected,
    /// The object does not implement the method (or the peer does not
    /// implement the message).
    Unimplemented,
}

impl ErrorKind {
    /// The kind of an `Exception.Type` read off the wire.
    pub fn from_wire(t: exception::Type) -> Self {
        match t {
            exception::Type::Failed => ErrorKind::Failed,
            exception::Type::Overloaded => ErrorKind::Overloaded,
            exception::Type::Disconnected => ErrorKind::Disconnected,
            exception::Type::Unimplemented => ErrorKind::Unimplemented,
        }
    }

    /// The `Exception.Type` sent for this kind.
    pub fn to_wire(self) -> exception::Type {
        match self {
            ErrorKind::Failed => exception::Type::Failed,
            ErrorKind::Overloaded => exception::Type::Overloaded,
            ErrorKind::Disconnected => exception::Type::Disconnected,
            ErrorKind::Unimplemented => exception::Type::Unimplemented,
        }
    }

    fn name(self) -> &'static str {
        match self {
            ErrorKind::Failed => "failed",
            ErrorKind::Overloaded => "overloaded",
            ErrorKind::Disconnected => "disconnected",
            ErrorKind::Unimplemented => "unimplemented",
        }
    }
}

/// A call or a connection failed: the kind and the reason, as an
/// `Exception` carries them (a server's error reaches the caller with both).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// Why, in words.
    pub reason: String,
}

impl Error {
    /// An error of `kind` for `reason`.
    pub fn new(kind: ErrorKind, reason: impl Into<String>) -> Self {
        Error {
            kind,
            reason: reason.into(),
        }
    }

    /// A [`ErrorKind::Failed`] error.
    pub fn failed(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::Failed, reason)
    }

    /// An [`ErrorKind::Overloaded`] error.
    pub fn overloaded(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::Overloaded, reason)
    }

    /// A [`ErrorKind::Disconnected`] error.
    pub fn disconnected(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::Disconnected, reason)
    }

    /// An [`ErrorKind::Unimplemented`] error.
    pub fn unimplemented(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unimplemented, reason)
    }

    /// The method `method_id` of interface `interface_id` is not
    /// implemented (what a server answers for a method it does not know).
    pub fn method_not_implemented(interface_id: u64, method_id: u16) -> Self {
        Self::unimplemented(format!(
            "method {method_id} of interface {interface_id:#018x} not implemented"
        ))
    }

    /// Reads an `Exception` off the wire (an unreadable reason is replaced
    /// by a note saying so).
    pub fn from_exception(e: exception::Reader<'_>) -> Self {
        let kind = e
            .get_type()
            .map(ErrorKind::from_wire)
            .unwrap_or(ErrorKind::Failed);
        let reason = match e.get_reason() {
            Ok(r) => r.to_owned(),
            Err(err) => format!("(unreadable reason: {err})"),
        };
        Error { kind, reason }
    }

    /// Writes this error into an `Exception` being built.
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn write<A: capnarena::Arena + ?Sized>(
        &self,
        mut e: exception::Builder<'_, A>,
    ) -> capnarena::Result<()> {
        e.set_type(self.kind.to_wire());
        e.set_reason(&self.reason)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.reason)
    }
}

impl std::error::Error for Error {}

impl From<capnarena::Error> for Error {
    fn from(e: capnarena::Error) -> Self {
        Error::failed(e.to_string())
    }
}

impl From<capnarena::typed::NotInSchema> for Error {
    fn from(e: capnarena::typed::NotInSchema) -> Self {
        Error::failed(e.to_string())
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::disconnected(e.to_string())
    }
}

/// Results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
