//! A key-value service on tokio: a server and a client speaking the
//! messages of `schema/kvstore.capnp` (a request union of get, put, delete
//! and list; lists of entries and of keys; a status enum) through
//! capnarena's [`FramedCodec`] on tokio-util's [`Framed`].
//!
//! Both sides reuse their messages: a connection keeps one response
//! message (the server) or one request message (the client), reset before
//! each use, so its arena's memory serves every message after the first
//! few; frames are read in place and dropped before the next is decoded,
//! so the read buffer's memory is reused too. After warm-up a request
//! costs no heap allocation on either side, except what the store itself
//! needs for the user's values (a new key, a larger value):
//! `tests/alloc.rs` counts them.
//!
//! The binary (`cargo run -p capnarena-example-kvstore`) runs a server
//! and its clients in one process over 127.0.0.1.

capnarena::include_generated!(pub mod kvstore_capnp);

use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::ops::Bound;
use std::sync::{Arc, Mutex, MutexGuard};

use capnarena::serialize::codec::{Frame, FramedCodec};
use capnarena::{Arena, Message, SingleSegmentArena};
use futures::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

use kvstore_capnp::{Status, request, response};

/// The largest request frame the server accepts (segment table and
/// segments, in bytes); a larger one closes the connection with
/// [`capnarena::Error::FrameTooLarge`]. So no key or value is larger.
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;

/// The most entries a list answers with, whatever its `limit`.
pub const MAX_LIST_ENTRIES: u32 = 1000;

/// The most key and value bytes a list answers with: it stops before the
/// entry that would pass this (but always answers with at least one
/// entry when one matches), and says `more`.
pub const MAX_LIST_BYTES: usize = 1024 * 1024;

/// The largest response frame the client accepts: a value of up to
/// [`MAX_REQUEST_BYTES`], or a list of [`MAX_LIST_BYTES`] of keys and
/// values plus one value of up to [`MAX_REQUEST_BYTES`] and each entry's
/// framing (a list pointer's tag, two pointers and up to 14 bytes of
/// padding: under 48 bytes).
pub const MAX_RESPONSE_BYTES: usize =
    MAX_LIST_BYTES + MAX_REQUEST_BYTES + MAX_LIST_ENTRIES as usize * 48 + 4096;

/// The keys and their values, shared by every connection of a server.
///
/// Its memory is bounded by `max_keys` keys of at most
/// [`MAX_REQUEST_BYTES`] each, with their values.
#[derive(Debug)]
pub struct Store {
    map: Mutex<BTreeMap<String, Vec<u8>>>,
    max_keys: usize,
}

/// What a request asks, read out of its message (the strings borrow the
/// request's frame).
enum Op<'r> {
    Get(&'r str),
    Put(&'r str, &'r [u8]),
    Delete(&'r str),
    List {
        prefix: &'r str,
        limit: u32,
        keys_only: bool,
    },
}

impl<'r> Op<'r> {
    /// Reads the union member that is set, and its fields.
    fn read(req: request::Reader<'r>) -> capnarena::Result<Self> {
        Ok(match req.which()? {
            request::Which::Get(key) => Op::Get(key?),
            request::Which::Put(entry) => {
                let entry = entry?;
                Op::Put(entry.get_key()?, entry.get_value()?)
            }
            request::Which::Delete(key) => Op::Delete(key?),
            request::Which::List(range) => {
                let range = range?;
                Op::List {
                    prefix: range.get_prefix()?,
                    limit: range.get_limit(),
                    keys_only: range.get_keys_only(),
                }
            }
        })
    }
}

impl Store {
    /// An empty store that holds at most `max_keys` keys.
    pub fn new(max_keys: usize) -> Self {
        Store {
            map: Mutex::new(BTreeMap::new()),
            max_keys,
        }
    }

    /// Keys in the store.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True when the store holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, Vec<u8>>> {
        // A connection task that panicked while holding the lock left the
        // map as it was between two whole operations (none of them panics
        // half-way through a change), so the map is still good to use.
        self.map
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Carries out the request `req` (the root of a request message) and
    /// writes its answer into `resp`, which is reset first. A request that
    /// cannot be read is answered with [`Status::BadRequest`] and the
    /// reason.
    ///
    /// Allocates only for the store's contents: a new key (its copy, its
    /// value's, the map's nodes) or a value larger than the buffer of the
    /// value it overwrites; and the text of a bad request's reason.
    ///
    /// # Errors
    /// `resp`'s arena has no room for the answer.
    pub fn answer<A: Arena>(
        &self,
        req: request::Reader<'_>,
        resp: &mut Message<A>,
    ) -> capnarena::Result<()> {
        resp.reset();
        let mut root = resp.init_root::<response::Builder<_>>()?;
        root.set_id(req.get_id());
        let op = match Op::read(req) {
            Ok(op) => op,
            Err(e) => {
                root.set_status(Status::BadRequest);
                return root.set_error(&e.to_string());
            }
        };
        match op {
            Op::Get(key) => match self.lock().get(key) {
                Some(value) => {
                    root.set_status(Status::Ok);
                    root.set_value(value)?;
                }
                None => root.set_status(Status::NotFound),
            },
            Op::Put(key, value) => {
                let mut map = self.lock();
                if let Some(old) = map.get_mut(key) {
                    old.clear();
                    old.extend_from_slice(value);
                    root.set_status(Status::Ok);
                } else if map.len() >= self.max_keys {
                    root.set_status(Status::Full);
                } else {
                    map.insert(key.to_owned(), value.to_vec());
                    root.set_status(Status::Created);
                }
            }
            Op::Delete(key) => {
                let found = self.lock().remove(key).is_some();
                root.set_status(if found { Status::Ok } else { Status::NotFound });
            }
            Op::List {
                prefix,
                limit,
                keys_only,
            } => {
                let map = self.lock();
                let matching = || {
                    map.range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
                        .take_while(|(k, _)| k.starts_with(prefix))
                };
                // How many entries fit the limits; whether more match.
                let (mut n, mut bytes) = (0u32, 0usize);
                let mut more = false;
                for (k, v) in matching() {
                    let size = k.len() + if keys_only { 0 } else { v.len() };
                    if n == limit.min(MAX_LIST_ENTRIES) || (n > 0 && bytes + size > MAX_LIST_BYTES)
                    {
                        more = true;
                        break;
                    }
                    n += 1;
                    bytes += size;
                }
                root.set_status(Status::Ok);
                root.set_more(more);
                if keys_only {
                    let mut keys = root.init_keys(n)?;
                    for (i, (k, _)) in (0..n).zip(matching()) {
                        keys.set(i, k)?;
                    }
                } else {
                    let mut entries = root.init_entries(n)?;
                    for (i, (k, v)) in (0..n).zip(matching()) {
                        let mut entry = entries.get(i);
                        entry.set_key(k)?;
                        entry.set_value(v)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Serves one connection until the client closes it: reads each request
/// frame in place, answers it from `store` through one reused response
/// message. Returns the number of requests served.
///
/// # Errors
/// The connection fails, or a frame is not a message (too large, a bad
/// segment table, cut short): the stream is then out of step with frames,
/// and the connection is dropped.
pub async fn serve_connection(sock: TcpStream, store: Arc<Store>) -> capnarena::Result<u64> {
    sock.set_nodelay(true)?;
    let mut framed = Framed::new(sock, FramedCodec::new().max_frame_bytes(MAX_REQUEST_BYTES));
    // Where a frame whose bytes are not 8-aligned is copied to be read.
    let mut scratch = Message::new(SingleSegmentArena::new());
    let mut resp = Message::new(SingleSegmentArena::new());
    let mut served = 0;
    while let Some(frame) = framed.next().await {
        // The frame shares the read buffer. It and its reader are
        // dropped at the end of this block, before the next decode, which
        // can then reuse that memory.
        {
            let frame = frame?;
            let reader = frame.reader_or_copy(&mut scratch)?;
            match reader.get_root::<request::Reader>() {
                Ok(req) => store.answer(req, &mut resp)?,
                Err(e) => {
                    // No root to take an id from: answer id 0.
                    resp.reset();
                    let mut root = resp.init_root::<response::Builder<_>>()?;
                    root.set_status(Status::BadRequest);
                    root.set_error(&e.to_string())?;
                }
            }
        }
        framed.send(&resp).await?;
        served += 1;
    }
    Ok(served)
}

/// Accepts `connections` connections on `listener`, serves each in its
/// own task until its client closes it, and returns the requests served
/// in all. The first connection that fails ends the count with its error
/// (once every connection has ended).
///
/// # Errors
/// Accepting fails, or a connection fails (see [`serve_connection`]).
pub async fn serve(
    listener: TcpListener,
    store: Arc<Store>,
    connections: usize,
) -> capnarena::Result<u64> {
    let mut tasks = Vec::with_capacity(connections);
    for _ in 0..connections {
        let (sock, _) = listener.accept().await?;
        tasks.push(tokio::spawn(serve_connection(sock, Arc::clone(&store))));
    }
    let mut total = 0;
    let mut first_error = None;
    for task in tasks {
        match task.await {
            Ok(Ok(n)) => total += n,
            Ok(Err(e)) => {
                first_error.get_or_insert(e);
            }
            Err(join) => {
                first_error.get_or_insert(std::io::Error::other(join).into());
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(total),
    }
}

/// What can go wrong on the client's side of a request.
#[derive(Debug)]
pub enum Error {
    /// The connection failed, or a response is not a well-formed message.
    Capnp(capnarena::Error),
    /// The server closed the connection before answering.
    Closed,
    /// A response to another request than the one sent.
    WrongId {
        /// The request's id.
        sent: u64,
        /// The response's id.
        got: u64,
    },
    /// A status, or a union member, that does not answer the request.
    Unexpected {
        /// The request's kind.
        request: &'static str,
        /// The response's status.
        status: Status,
    },
    /// The server could not read the request; its reason.
    BadRequest(String),
    /// A put of a new key into a full store.
    Full,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Capnp(e) => write!(f, "{e}"),
            Error::Closed => write!(f, "the server closed the connection before answering"),
            Error::WrongId { sent, got } => {
                write!(f, "sent request {sent}, got the response to {got}")
            }
            Error::Unexpected { request, status } => {
                write!(f, "a {request} answered with status {}", status.name())
            }
            Error::BadRequest(why) => write!(f, "the server could not read the request: {why}"),
            Error::Full => write!(f, "the store is full"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Capnp(e) => Some(e),
            _ => None,
        }
    }
}

impl From<capnarena::Error> for Error {
    fn from(e: capnarena::Error) -> Self {
        Error::Capnp(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Capnp(e.into())
    }
}

impl From<capnarena::typed::NotInSchema> for Error {
    fn from(e: capnarena::typed::NotInSchema) -> Self {
        Error::Capnp(e.into())
    }
}

/// What a put did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Put {
    /// The key is new.
    Created,
    /// The key's value was overwritten.
    Replaced,
}

/// What a list found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Entries (or keys) in the answer.
    pub count: u32,
    /// Whether more keys match than the answer holds (it stopped at its
    /// limit or the server's).
    pub more: bool,
}

/// A connection to a server, one request at a time. Its request message
/// and its scratch message are reused for every request.
pub struct Client {
    framed: Framed<TcpStream, FramedCodec>,
    request: Message<SingleSegmentArena>,
    scratch: Message<SingleSegmentArena>,
    id: u64,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client").field("id", &self.id).finish()
    }
}

/// Checks a response's id and status, then hands it to `f`.
fn check<R>(
    resp: response::Reader<'_>,
    id: u64,
    f: impl FnOnce(response::Reader<'_>, Status) -> Result<R, Error>,
) -> Result<R, Error> {
    if resp.get_id() != id {
        return Err(Error::WrongId {
            sent: id,
            got: resp.get_id(),
        });
    }
    match resp.get_status()? {
        Status::BadRequest => Err(Error::BadRequest(resp.get_error()?.to_owned())),
        status => f(resp, status),
    }
}

impl Client {
    /// Connects to the server at `addr`.
    ///
    /// # Errors
    /// The connection fails.
    pub async fn connect(addr: SocketAddr) -> Result<Self, Error> {
        let sock = TcpStream::connect(addr).await?;
        sock.set_nodelay(true)?;
        Ok(Client {
            framed: Framed::new(sock, FramedCodec::new().max_frame_bytes(MAX_RESPONSE_BYTES)),
            request: Message::new(SingleSegmentArena::new()),
            scratch: Message::new(SingleSegmentArena::new()),
            id: 0,
        })
    }

    /// Starts the next request: resets the request message, sets its id.
    fn start(&mut self) -> capnarena::Result<request::Builder<'_, SingleSegmentArena>> {
        self.id += 1;
        self.request.reset();
        let mut root = self.request.init_root::<request::Builder<_>>()?;
        root.set_id(self.id);
        Ok(root)
    }

    /// Sends the request message and reads the response's frame.
    async fn round_trip(&mut self) -> Result<Frame, Error> {
        self.framed.send(&self.request).await?;
        match self.framed.next().await {
            Some(frame) => Ok(frame?),
            None => Err(Error::Closed),
        }
    }

    /// Sends the request built, reads the response and hands it to `f`
    /// once its id and status are checked.
    async fn call<R>(
        &mut self,
        f: impl FnOnce(response::Reader<'_>, Status) -> Result<R, Error>,
    ) -> Result<R, Error> {
        let frame = self.round_trip().await?;
        let reader = frame.reader_or_copy(&mut self.scratch)?;
        check(reader.get_root()?, self.id, f)
    }

    /// The value of `key`, copied into `out` (cleared first; it grows
    /// only if the value is larger than its capacity). Returns whether the
    /// key is there (`out` is left empty when not).
    ///
    /// # Errors
    /// See [`Error`].
    pub async fn get(&mut self, key: &str, out: &mut Vec<u8>) -> Result<bool, Error> {
        self.start()?.set_get(key)?;
        out.clear();
        self.call(|resp, status| match (status, resp.which()?) {
            (Status::Ok, response::Which::Value(value)) => {
                out.extend_from_slice(value?);
                Ok(true)
            }
            (Status::NotFound, _) => Ok(false),
            (status, _) => Err(Error::Unexpected {
                request: "get",
                status,
            }),
        })
        .await
    }

    /// Sets `key`'s value.
    ///
    /// # Errors
    /// [`Error::Full`] for a new key when the store is full; see [`Error`].
    pub async fn put(&mut self, key: &str, value: &[u8]) -> Result<Put, Error> {
        let mut root = self.start()?;
        let mut entry = root.init_put()?;
        entry.set_key(key)?;
        entry.set_value(value)?;
        self.call(|_, status| match status {
            Status::Ok => Ok(Put::Replaced),
            Status::Created => Ok(Put::Created),
            Status::Full => Err(Error::Full),
            status => Err(Error::Unexpected {
                request: "put",
                status,
            }),
        })
        .await
    }

    /// Deletes `key`; returns whether it was there.
    ///
    /// # Errors
    /// See [`Error`].
    pub async fn delete(&mut self, key: &str) -> Result<bool, Error> {
        self.start()?.set_delete(key)?;
        self.call(|_, status| match status {
            Status::Ok => Ok(true),
            Status::NotFound => Ok(false),
            status => Err(Error::Unexpected {
                request: "delete",
                status,
            }),
        })
        .await
    }

    /// Builds a list request.
    fn start_list(&mut self, prefix: &str, limit: u32, keys_only: bool) -> capnarena::Result<()> {
        let mut root = self.start()?;
        let mut range = root.init_list()?;
        range.set_prefix(prefix)?;
        range.set_limit(limit);
        range.set_keys_only(keys_only);
        Ok(())
    }

    /// Hands `each` the entries whose keys start with `prefix`, in key
    /// order, at most `limit` (and the server's limits) of them.
    ///
    /// # Errors
    /// See [`Error`].
    pub async fn list(
        &mut self,
        prefix: &str,
        limit: u32,
        mut each: impl FnMut(&str, &[u8]),
    ) -> Result<Listed, Error> {
        self.start_list(prefix, limit, false)?;
        self.call(|resp, status| match (status, resp.which()?) {
            (Status::Ok, response::Which::Entries(entries)) => {
                let entries = entries?;
                for entry in entries.iter() {
                    each(entry.get_key()?, entry.get_value()?);
                }
                Ok(Listed {
                    count: entries.len(),
                    more: resp.get_more(),
                })
            }
            (status, _) => Err(Error::Unexpected {
                request: "list",
                status,
            }),
        })
        .await
    }

    /// As [`list`](Self::list), the keys alone.
    ///
    /// # Errors
    /// See [`Error`].
    pub async fn list_keys(
        &mut self,
        prefix: &str,
        limit: u32,
        mut each: impl FnMut(&str),
    ) -> Result<Listed, Error> {
        self.start_list(prefix, limit, true)?;
        self.call(|resp, status| match (status, resp.which()?) {
            (Status::Ok, response::Which::Keys(keys)) => {
                let keys = keys?;
                for key in keys.iter() {
                    each(key?);
                }
                Ok(Listed {
                    count: keys.len(),
                    more: resp.get_more(),
                })
            }
            (status, _) => Err(Error::Unexpected {
                request: "list",
                status,
            }),
        })
        .await
    }
}
