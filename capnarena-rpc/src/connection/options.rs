//! The limits a connection keeps ([`Options`]) and the sizes of its
//! tables ([`Stats`]).

use std::time::Duration;

use capnarena::ReaderOptions;

/// Limits a connection keeps against its peer (and its own callers).
///
/// A peer that goes past a limit it controls (calls in flight, imports,
/// waiters, queued bytes, message size, a write that waits too long) has
/// the connection aborted. The abort is an `Abort` message with the
/// numbers, when it can be sent. A local caller that would go past a limit
/// of its own (questions, exports) gets an
/// [`ErrorKind::Overloaded`](crate::ErrorKind::Overloaded) error.
///
/// Together they bound what a peer can make a connection hold:
/// - `max_answers`: the peer's calls and bootstraps not yet finished,
///   with their parameters and results, and the calls pipelined on them.
/// - `max_imports`: the peer's capabilities held here.
/// - `max_waiters`: capabilities of answers not yet returned that this
///   side waits on (promised answers named in the peer's messages).
/// - `max_queued_bytes` and `write_timeout`: messages waiting to be
///   written, and how long they may wait.
/// - `max_message_bytes` and `reader`: each message read.
///
/// Promises that resolve to promises make chains as long as the messages
/// that built them. Calls follow a chain, and drops undo it, in a loop:
/// no depth reaches the thread's stack. A call gives up past 1,048,576
/// links (a cycle of promises fails there too).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Calls this side may have in flight (questions), default 4096.
    pub max_questions: usize,
    /// Calls the peer may have in flight (answers), bootstraps included,
    /// default 4096.
    pub max_answers: usize,
    /// Capabilities the peer may have this side hold (imports), default
    /// 16384.
    pub max_imports: usize,
    /// Capabilities this side may export at once, default 16384.
    pub max_exports: usize,
    /// Capabilities of the peer's calls not yet returned that this side
    /// may wait on at once, default 16384. Each promisedAnswer the peer
    /// names (in a cap table, a `Resolve`, a `Disembargo`) on such a call
    /// waits until it returns or the capability is dropped.
    pub max_waiters: usize,
    /// Bytes of messages queued to send; a peer that does not read them
    /// has the connection aborted past this (default 64 MiB).
    pub max_queued_bytes: usize,
    /// The largest message accepted (framed bytes), default 64 MiB.
    pub max_message_bytes: usize,
    /// How long one write may wait for the peer to read, default 30 s.
    /// Past it the connection is aborted and its stream closed. Once a
    /// connection is aborted, queued messages are dropped at once and
    /// the `Abort` gets this long to be written. `None`: no limit. Needs
    /// a runtime with timers (`enable_time`) when it is `Some`.
    pub write_timeout: Option<Duration>,
    /// Limits for reading each message.
    pub reader: ReaderOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_questions: 4096,
            max_answers: 4096,
            max_imports: 16384,
            max_exports: 16384,
            max_waiters: 16384,
            max_queued_bytes: 64 << 20,
            max_message_bytes: 64 << 20,
            write_timeout: Some(Duration::from_secs(30)),
            reader: ReaderOptions::default(),
        }
    }
}

/// Entries in a connection's tables (for tests and monitoring): all zero
/// when every call has finished and every capability has been released.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls sent and not finished.
    pub questions: usize,
    /// Calls received and not finished.
    pub answers: usize,
    /// Capabilities of the peer held here.
    pub imports: usize,
    /// Capabilities of this side held by the peer.
    pub exports: usize,
    /// Capabilities waiting on the peer's calls not yet returned.
    pub waiters: usize,
}
