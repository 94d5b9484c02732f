//! Payloads: a call's parameters or a return's results as received or
//! built, with their capabilities, read in place.

use std::sync::{Arc, OnceLock};

use capnarena::serialize::codec::Frame;
use capnarena::{Message, MessageReader, PointerReader, ReaderOptions, SingleSegmentArena};

use crate::client::{Arena, Client};
use crate::error::{Error, Result};
use crate::rpc_capnp::{message, return_};

/// Where a payload's message is: a frame read off a connection, or a
/// message built in this process (a local call's parameters, owned; its
/// results, shared by the clones of the response).
pub(crate) enum Body {
    Frame(Frame),
    Built(Message<Arena>),
    Shared(Arc<Message<Arena>>),
}

impl Clone for Body {
    fn clone(&self) -> Self {
        match self {
            Body::Frame(f) => Body::Frame(f.clone()),
            Body::Shared(m) => Body::Shared(Arc::clone(m)),
            Body::Built(m) => Body::copy_of(m),
        }
    }
}

impl Body {
    /// A copy of a message built in this process, as a frame of its
    /// bytes, read with the limits its own reader has: none but the
    /// nesting its size allows.
    pub(crate) fn copy_of(m: &Message<Arena>) -> Body {
        let mut bytes = Vec::with_capacity(m.serialized_size());
        m.append_to(&mut bytes);
        let words = bytes.len() as u64 / 8;
        let options = ReaderOptions {
            traversal_limit_words: u64::MAX,
            nesting_limit: u32::try_from(words + 1).unwrap_or(u32::MAX),
            segment_limit: u32::MAX,
        };
        Body::Frame(Frame::new(bytes.into(), options))
    }
}

/// Which part of an rpc `Message` holds the payload.
#[derive(Clone, Copy)]
pub(crate) enum Section {
    /// `call.params`.
    Call,
    /// `return.results`.
    Return,
}

/// A received payload: a message holding a `Payload` (a call's parameters
/// or a return's results) and its capability table, made into clients.
/// Cloned without copying the message (a frame's bytes and a built
/// message are shared).
pub(crate) struct Payload {
    pub(crate) body: Body,
    pub(crate) caps: Vec<Client>,
    pub(crate) section: Section,
    /// An aligned copy of a frame whose bytes are not 8-aligned, made the
    /// first time the payload is read in place (see [`Payload::message`]).
    scratch: OnceLock<Message<Arena>>,
}

impl Clone for Payload {
    fn clone(&self) -> Self {
        Payload::new(self.body.clone(), self.caps.clone(), self.section)
    }
}

impl Payload {
    pub(crate) fn new(body: Body, caps: Vec<Client>, section: Section) -> Self {
        Payload {
            body,
            caps,
            section,
            scratch: OnceLock::new(),
        }
    }

    /// The message holding the payload, read in place (a frame that is
    /// not 8-aligned is copied once, on the first read).
    pub(crate) fn message(&self) -> Result<MessageReader<'_>> {
        match &self.body {
            Body::Frame(frame) if frame.is_aligned() => Ok(frame.reader()?),
            Body::Frame(frame) => {
                if self.scratch.get().is_none() {
                    let mut copy = Message::new(SingleSegmentArena::new());
                    copy.read_from_bytes(frame.as_bytes(), frame.options())?;
                    // Another thread may have set it first: same bytes.
                    let _ = self.scratch.set(copy);
                }
                match self.scratch.get() {
                    Some(copy) => Ok(copy.reader()),
                    None => Err(Error::failed("a payload's copy was not kept")),
                }
            }
            Body::Built(msg) => Ok(msg.reader()),
            Body::Shared(msg) => Ok(msg.reader()),
        }
    }

    /// The payload's content in `message` (which [`message`](Self::message)
    /// gave).
    pub(crate) fn content<'r>(&self, message: &'r MessageReader<'_>) -> Result<PointerReader<'r>> {
        let root = message.get_root::<message::Reader>()?;
        let payload = match (root.which()?, self.section) {
            (message::Which::Call(call), Section::Call) => call?.get_params()?,
            (message::Which::Return(ret), Section::Return) => match ret?.which()? {
                return_::Which::Results(p) => p?,
                _ => return Err(Error::failed("a return without results read as results")),
            },
            _ => return Err(Error::failed("a payload's message is not of its kind")),
        };
        Ok(payload.get_content())
    }

    /// Hands `f` the payload's content.
    pub(crate) fn read<R>(
        &self,
        f: impl for<'r> FnOnce(PointerReader<'r>) -> Result<R>,
    ) -> Result<R> {
        let message = self.message()?;
        f(self.content(&message)?)
    }

    /// The client of capability pointer `index` of the cap table.
    pub(crate) fn cap(&self, index: u32) -> Result<Client> {
        self.caps.get(index as usize).cloned().ok_or_else(|| {
            Error::failed(format!(
                "capability index {index} out of the message's {} capabilities",
                self.caps.len()
            ))
        })
    }

    /// The capability at `transform` (pointer field indexes, struct by
    /// struct) from the content: what a pipelined call on it reaches. A
    /// null pointer there is a broken capability.
    pub(crate) fn cap_at(&self, transform: &[u16]) -> Result<Client> {
        let index = self.read(|content| {
            let mut ptr = content;
            for &field in transform {
                if ptr.is_null() {
                    return Ok(None);
                }
                ptr = ptr.get_struct()?.pointer(usize::from(field));
            }
            if ptr.is_null() {
                return Ok(None);
            }
            Ok(Some(ptr.get_capability()?))
        })?;
        match index {
            Some(i) => self.cap(i),
            None => Ok(Client::broken(Error::failed(format!(
                "no capability at pointer path {transform:?} of the results"
            )))),
        }
    }
}
