//! A two-party connection: the protocol of rpc.capnp (level 1) over any
//! `AsyncRead + AsyncWrite`, with its four tables (questions, answers,
//! imports, exports). Follows the roles of the reference's rpc.c++
//! (`RpcConnectionState`), written anew.
//!
//! The tables sit behind one mutex per connection, held only for table
//! changes and to queue a message (never across an await, never while a
//! client is dropped: what must be dropped is moved out and dropped after
//! the lock is released, since dropping an import takes the lock again).
//! A reader task decodes frames and handles each message; a writer task
//! writes the queued messages and returns their arenas to a pool.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use bytes::Bytes;
use capnarena::serialize::codec::{Frame, FramedCodec};
use capnarena::typed::FromStructBuilder;
use capnarena::{Message, ReaderOptions, SingleSegmentArena};
use futures_util::{FutureExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio_util::codec::FramedRead;

use crate::client::{
    AnswerCap, Arena, Body, BoxFuture, Client, Hook, Params, Payload, Request, Results, Section,
    Sent,
};
use crate::error::{Error, Result};
use crate::rpc_capnp::{
    cap_descriptor, disembargo, message, message_target, payload, promised_answer, return_,
};

/// Limits a connection keeps against its peer (and its own callers).
///
/// A peer that goes past a limit it controls (calls in flight, imports,
/// message size) has the connection aborted; a local caller that would go
/// past one (questions, exports) gets an [`ErrorKind::Overloaded`](crate::ErrorKind::Overloaded) error.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Calls this side may have in flight (questions), default 4096.
    pub max_questions: usize,
    /// Calls the peer may have in flight (answers), default 4096.
    pub max_answers: usize,
    /// Capabilities the peer may have this side hold (imports), default
    /// 16384.
    pub max_imports: usize,
    /// Capabilities this side may export at once, default 16384.
    pub max_exports: usize,
    /// Bytes of messages queued to send; a peer that does not read them
    /// has the connection aborted past this (default 64 MiB).
    pub max_queued_bytes: usize,
    /// The largest message accepted (framed bytes), default 64 MiB.
    pub max_message_bytes: usize,
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
            max_queued_bytes: 64 << 20,
            max_message_bytes: 64 << 20,
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
}

/// A table of entries under small integer ids, reusing freed ids (lowest
/// first is not promised; the most recently freed is taken).
struct IdTable<T> {
    slots: Vec<Option<T>>,
    free: Vec<u32>,
    len: usize,
}

impl<T> IdTable<T> {
    fn new() -> Self {
        IdTable {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
        }
    }

    fn insert(&mut self, value: T) -> u32 {
        self.len += 1;
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = Some(value);
                id
            }
            None => {
                self.slots.push(Some(value));
                self.slots.len() as u32 - 1
            }
        }
    }

    fn get(&self, id: u32) -> Option<&T> {
        self.slots.get(id as usize).and_then(Option::as_ref)
    }

    fn get_mut(&mut self, id: u32) -> Option<&mut T> {
        self.slots.get_mut(id as usize).and_then(Option::as_mut)
    }

    fn remove(&mut self, id: u32) -> Option<T> {
        let v = self.slots.get_mut(id as usize)?.take()?;
        self.free.push(id);
        self.len -= 1;
        Some(v)
    }

    fn drain(&mut self) -> impl Iterator<Item = T> + '_ {
        self.free.clear();
        self.len = 0;
        self.slots.drain(..).flatten()
    }
}

/// A call sent and not yet finished.
struct Question {
    /// Where the results go; taken when they arrive.
    tx: Option<oneshot::Sender<Result<Arc<Payload>>>>,
    /// Exports made for the parameters' capabilities (released when the
    /// return says `releaseParamCaps`).
    param_exports: Vec<u32>,
    returned: bool,
    /// A `Finish` has been sent (no client refers to the question).
    finished: bool,
}

/// What an answered call left for pipelined calls to reach.
#[derive(Clone)]
enum Returned {
    Results(Arc<Payload>),
    Error(Error),
}

/// A call received and not yet finished by the peer.
struct Answer {
    /// The task running the call, aborted when the peer cancels it.
    task: Option<tokio::task::AbortHandle>,
    returned: Option<Returned>,
    /// Returned, and the calls queued before are being delivered: new
    /// pipelined calls still queue behind them.
    draining: bool,
    /// Calls pipelined on the results before they were in, in order.
    queued: Vec<Queued>,
    /// Pipelined capabilities waiting for the results: their transforms.
    waiters: Vec<(Vec<u16>, oneshot::Sender<Result<Client>>)>,
    /// Exports made for the results' capabilities (released by a `Finish`
    /// with `releaseResultCaps`).
    result_exports: Vec<u32>,
}

impl Answer {
    fn new() -> Self {
        Answer {
            task: None,
            returned: None,
            draining: false,
            queued: Vec::new(),
            waiters: Vec::new(),
            result_exports: Vec::new(),
        }
    }
}

/// A call pipelined on an answer not yet returned.
struct Queued {
    id: u32,
    interface_id: u64,
    method_id: u16,
    params: Params,
    transform: Vec<u16>,
    redirect: bool,
}

impl Returned {
    /// The capability at `transform` of these results.
    fn cap_at(&self, transform: &[u16]) -> Client {
        match self {
            Returned::Results(p) => p.cap_at(transform).unwrap_or_else(Client::broken),
            Returned::Error(e) => Client::broken(e.clone()),
        }
    }
}

/// A capability of this side that the peer holds, with the number of
/// times it has been sent (the peer's references).
struct Export {
    client: Client,
    refs: u32,
    local_id: Option<u64>,
}

/// A capability of the peer held here: the client (while any clone of it
/// lives) and the references the peer counts for it.
struct Import {
    client: Weak<ImportClient>,
    generation: u64,
    refs: u32,
}

/// The tables of a connection.
struct State {
    /// Why the connection ended, once it has.
    closed: Option<Error>,
    questions: IdTable<Question>,
    answers: HashMap<u32, Answer>,
    exports: IdTable<Export>,
    /// Local servers' ids to their export ids (one export per server).
    export_ids: HashMap<u64, u32>,
    imports: HashMap<u32, Import>,
    bootstrap: Option<Client>,
}

enum Outgoing {
    Message(Message<Arena>),
    Shutdown,
}

/// The shared part of a connection: what clients of it hold.
pub(crate) struct Conn {
    state: Mutex<State>,
    out: mpsc::UnboundedSender<Outgoing>,
    queued: AtomicUsize,
    pool: Mutex<Vec<Message<Arena>>>,
    options: Options,
    next_generation: AtomicU64,
    /// Set when the connection must end from a place that cannot end it
    /// itself (holding the lock); the reader task then ends it.
    failure: Mutex<Option<Error>>,
    wake_reader: Notify,
    done: watch::Sender<Option<Result<(), Error>>>,
}

/// Messages the pool keeps for reuse.
const POOL_SIZE: usize = 64;

/// Where a call goes on the connection.
pub(crate) enum Target {
    Import(u32),
    Answer(u32, Vec<u16>),
}

/// A question, referred to by the response future, the response and the
/// pipelined clients; when the last reference goes, `Finish` is sent.
pub(crate) struct QuestionRef {
    pub(crate) id: u32,
    conn: Arc<Conn>,
}

impl Drop for QuestionRef {
    fn drop(&mut self) {
        self.conn.finish_question(self.id);
    }
}

/// A capability imported from the peer; releases it when dropped.
pub(crate) struct ImportClient {
    pub(crate) id: u32,
    pub(crate) conn: Arc<Conn>,
    generation: u64,
}

impl Drop for ImportClient {
    fn drop(&mut self) {
        self.conn.release_import(self.id, self.generation);
    }
}

/// A protocol violation of the peer: the connection is aborted with it.
struct Violation(Error);

impl From<capnarena::Error> for Violation {
    fn from(e: capnarena::Error) -> Self {
        Violation(Error::failed(format!("malformed message: {e}")))
    }
}

impl From<capnarena::typed::NotInSchema> for Violation {
    fn from(e: capnarena::typed::NotInSchema) -> Self {
        Violation(Error::failed(format!("malformed message: {e}")))
    }
}

fn violation<T>(reason: impl Into<String>) -> std::result::Result<T, Violation> {
    Err(Violation(Error::failed(reason)))
}

/// Clients and other values to drop once the lock is released.
type Garbage = Vec<Client>;

impl Conn {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held left the tables between two
        // whole changes only if it came from outside them (none of the
        // table code panics), so the state is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A message to build, from the pool when one is there.
    pub(crate) fn message(&self) -> Message<Arena> {
        let pooled = self.pool.lock().unwrap_or_else(|p| p.into_inner()).pop();
        pooled.unwrap_or_else(|| Message::new(SingleSegmentArena::new()))
    }

    /// Queues `msg` for the writer. Past the queue's limit the connection
    /// is failed (the peer does not read).
    fn send(&self, msg: Message<Arena>) {
        let size = msg.serialized_size();
        let queued = self.queued.fetch_add(size, Ordering::Relaxed) + size;
        if queued > self.options.max_queued_bytes {
            self.fail_later(Error::overloaded(format!(
                "{queued} bytes queued for the peer, over the limit of {}",
                self.options.max_queued_bytes
            )));
            return;
        }
        // The writer has gone only once the connection has ended.
        let _ = self.out.send(Outgoing::Message(msg));
    }

    /// Builds and queues a message with `build` (its errors are this
    /// side's: a message that cannot be built is not sent).
    fn send_with(
        &self,
        build: impl FnOnce(message::Builder<'_, Arena>) -> capnarena::Result<()>,
    ) -> capnarena::Result<()> {
        let mut msg = self.message();
        msg.reset();
        build(msg.init_root::<message::Builder<_>>()?)?;
        self.send(msg);
        Ok(())
    }

    fn fail_later(&self, e: Error) {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(e);
        self.wake_reader.notify_one();
    }

    /// Sends a `Finish` for a question no one refers to any more; forgets
    /// the question once it has returned too.
    fn finish_question(&self, id: u32) {
        let mut garbage = None;
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return;
            }
            let Some(q) = st.questions.get_mut(id) else {
                return;
            };
            q.finished = true;
            if q.returned {
                garbage = st.questions.remove(id);
            }
            let sent = self.send_with(|mut root| {
                let mut f = root.init_finish()?;
                f.set_question_id(id);
                f.set_release_result_caps(false);
                Ok(())
            });
            if let Err(e) = sent {
                self.fail_later(Error::failed(format!("building a finish: {e}")));
            }
        }
        drop(garbage);
    }

    /// The last clone of import `id` (of `generation`) is gone: releases
    /// the peer's references, unless a newer client took the entry over.
    fn release_import(&self, id: u32, generation: u64) {
        let mut st = self.lock();
        if st.closed.is_some() {
            return;
        }
        let Some(import) = st.imports.get(&id) else {
            return;
        };
        if import.generation != generation {
            return;
        }
        let refs = import.refs;
        st.imports.remove(&id);
        if let Err(e) = self.send_with(|mut root| {
            let mut r = root.init_release()?;
            r.set_id(id);
            r.set_reference_count(refs);
            Ok(())
        }) {
            self.fail_later(Error::failed(format!("building a release: {e}")));
        }
    }

    /// Sends `request` to `target` as a new question.
    pub(crate) fn send_call(self: Arc<Self>, mut request: Request, target: Target) -> Sent {
        let (tx, rx) = oneshot::channel();
        let caps = std::mem::take(&mut request.caps);
        let mut msg = std::mem::replace(&mut request.msg, Message::new(SingleSegmentArena::new()));
        let mut st = self.lock();
        if let Some(e) = &st.closed {
            return Sent::failed(e.clone());
        }
        if st.questions.len >= self.options.max_questions {
            return Sent::failed(Error::overloaded(format!(
                "{} calls in flight on the connection, its limit",
                st.questions.len
            )));
        }
        let id = st.questions.insert(Question {
            tx: Some(tx),
            param_exports: Vec::new(),
            returned: false,
            finished: false,
        });
        let built = (|| -> Result<Vec<u32>> {
            let root = msg.root_pointer()?.get_struct(message::STRUCT_SIZE)?;
            let mut call = root
                .into_pointer(0)
                .get_struct(crate::rpc_capnp::call::STRUCT_SIZE)?;
            call.set::<u32>(0, id);
            write_target(
                message_target::Builder::from_struct_builder(
                    call.reborrow()
                        .pointer(0)
                        .init_struct(message_target::STRUCT_SIZE)?,
                ),
                &target,
            )?;
            let payload = payload::Builder::from_struct_builder(
                call.into_pointer(1).get_struct(payload::STRUCT_SIZE)?,
            );
            self.write_cap_table(&mut st, payload, &caps)
        })();
        match built {
            Ok(exports) => {
                if let Some(q) = st.questions.get_mut(id) {
                    q.param_exports = exports;
                }
            }
            Err(e) => {
                st.questions.remove(id);
                drop(st);
                return Sent::failed(e);
            }
        }
        self.send(msg);
        drop(st);
        drop(caps);
        let question = Arc::new(QuestionRef {
            id,
            conn: Arc::clone(&self),
        });
        Sent::remote(self, question, rx)
    }

    /// Fills `payload`'s cap table with a descriptor for each of `caps`,
    /// exporting what this side hosts; returns the export ids used.
    fn write_cap_table(
        self: &Arc<Self>,
        st: &mut State,
        mut payload: payload::Builder<'_, Arena>,
        caps: &[Client],
    ) -> Result<Vec<u32>> {
        let mut exports = Vec::new();
        if caps.is_empty() {
            return Ok(exports);
        }
        let mut table = payload.init_cap_table(caps.len() as u32)?;
        for (i, cap) in caps.iter().enumerate() {
            let mut d = table.get(i as u32);
            match &cap.hook {
                Hook::Import(imp) if Arc::ptr_eq(&imp.conn, self) => d.set_receiver_hosted(imp.id),
                Hook::Answer(a) if Arc::ptr_eq(&a.conn, self) => {
                    let mut pa = d.init_receiver_answer()?;
                    pa.set_question_id(a.question.id);
                    write_transform(&mut pa, &a.transform)?;
                }
                _ => {
                    let id = self.export(st, cap)?;
                    exports.push(id);
                    d.set_sender_hosted(id);
                }
            }
        }
        Ok(exports)
    }

    /// Adds a reference of the peer to `cap`'s export (made if new).
    fn export(&self, st: &mut State, cap: &Client) -> Result<u32> {
        let local_id = match &cap.hook {
            Hook::Local(l) => Some(l.id),
            _ => None,
        };
        if let Some(id) = local_id.and_then(|l| st.export_ids.get(&l).copied()) {
            if let Some(e) = st.exports.get_mut(id) {
                e.refs += 1;
                return Ok(id);
            }
        }
        if st.exports.len >= self.options.max_exports {
            return Err(Error::overloaded(format!(
                "{} capabilities exported on the connection, its limit",
                st.exports.len
            )));
        }
        let id = st.exports.insert(Export {
            client: cap.clone(),
            refs: 1,
            local_id,
        });
        if let Some(l) = local_id {
            st.export_ids.insert(l, id);
        }
        Ok(id)
    }

    /// Drops `count` of the peer's references to export `id`.
    fn release_export(
        &self,
        st: &mut State,
        id: u32,
        count: u32,
        garbage: &mut Garbage,
    ) -> std::result::Result<(), Violation> {
        let Some(e) = st.exports.get_mut(id) else {
            return violation(format!("release of export {id}, which is not held"));
        };
        if e.refs < count {
            return violation(format!(
                "release of {count} references to export {id}, which has {}",
                e.refs
            ));
        }
        e.refs -= count;
        if e.refs == 0 {
            if let Some(e) = st.exports.remove(id) {
                if let Some(l) = e.local_id {
                    st.export_ids.remove(&l);
                }
                garbage.push(e.client);
            }
        }
        Ok(())
    }

    /// The client a received capability descriptor names.
    fn import_cap(
        self: &Arc<Self>,
        st: &mut State,
        d: cap_descriptor::Reader<'_>,
    ) -> std::result::Result<Client, Violation> {
        Ok(match d.which()? {
            cap_descriptor::Which::None => Client::broken(Error::failed("null capability")),
            cap_descriptor::Which::SenderHosted(id) | cap_descriptor::Which::SenderPromise(id) => {
                self.import(st, id)?
            }
            cap_descriptor::Which::ReceiverHosted(id) => match st.exports.get(id) {
                Some(e) => e.client.clone(),
                None => return violation(format!("receiverHosted {id}: no such export")),
            },
            cap_descriptor::Which::ReceiverAnswer(pa) => {
                let pa = pa?;
                let transform = read_transform(pa)?;
                self.answer_cap(st, pa.get_question_id(), transform)?
            }
            cap_descriptor::Which::ThirdPartyHosted(_) => {
                return violation("thirdPartyHosted capability on a two-party connection");
            }
        })
    }

    /// One more reference to import `id`.
    fn import(self: &Arc<Self>, st: &mut State, id: u32) -> std::result::Result<Client, Violation> {
        if let Some(import) = st.imports.get_mut(&id) {
            import.refs = import.refs.saturating_add(1);
            if let Some(client) = import.client.upgrade() {
                return Ok(Client {
                    hook: Hook::Import(client),
                });
            }
            // The last client is being dropped: a new one takes the entry
            // (and the references counted so far) over.
            let generation = self.next_generation.fetch_add(1, Ordering::Relaxed);
            let client = Arc::new(ImportClient {
                id,
                conn: Arc::clone(self),
                generation,
            });
            import.client = Arc::downgrade(&client);
            import.generation = generation;
            return Ok(Client {
                hook: Hook::Import(client),
            });
        }
        if st.imports.len() >= self.options.max_imports {
            return Err(Violation(Error::overloaded(format!(
                "the peer sent more than {} capabilities to hold",
                self.options.max_imports
            ))));
        }
        let generation = self.next_generation.fetch_add(1, Ordering::Relaxed);
        let client = Arc::new(ImportClient {
            id,
            conn: Arc::clone(self),
            generation,
        });
        st.imports.insert(
            id,
            Import {
                client: Arc::downgrade(&client),
                generation,
                refs: 1,
            },
        );
        Ok(Client {
            hook: Hook::Import(client),
        })
    }

    /// The capability at `transform` of the results of answer `id`: known
    /// when it has returned, a promise otherwise.
    fn answer_cap(
        &self,
        st: &mut State,
        id: u32,
        transform: Vec<u16>,
    ) -> std::result::Result<Client, Violation> {
        let Some(answer) = st.answers.get_mut(&id) else {
            return violation(format!(
                "promisedAnswer of question {id}, which is not open"
            ));
        };
        Ok(match &answer.returned {
            Some(returned) if !answer.draining => returned.cap_at(&transform),
            _ => {
                let (tx, rx) = oneshot::channel();
                answer.waiters.push((transform, tx));
                let resolution: BoxFuture<Result<Client>> = Box::pin(async move {
                    rx.await.unwrap_or_else(|_| {
                        Err(Error::disconnected(
                            "the connection ended before the answer",
                        ))
                    })
                });
                Client::promise(resolution.shared())
            }
        })
    }

    /// Handles one message from the peer.
    fn handle(self: &Arc<Self>, frame: Frame) -> std::result::Result<(), Violation> {
        let mut scratch;
        let reader = if frame.is_aligned() {
            frame.reader()?
        } else {
            scratch = Message::new(SingleSegmentArena::new());
            frame.reader_or_copy(&mut scratch)?
        };
        let root = reader.get_root::<message::Reader>()?;
        let which = match root.which() {
            Ok(w) => w,
            Err(_) => return self.send_unimplemented(root),
        };
        match which {
            message::Which::Call(call) => self.handle_call(&frame, call?),
            message::Which::Return(ret) => self.handle_return(&frame, ret?),
            message::Which::Finish(f) => {
                let f = f?;
                self.handle_finish(f.get_question_id(), f.get_release_result_caps())
            }
            message::Which::Release(r) => {
                let r = r?;
                let mut garbage = Vec::new();
                let result = {
                    let mut st = self.lock();
                    self.release_export(&mut st, r.get_id(), r.get_reference_count(), &mut garbage)
                };
                drop(garbage);
                result
            }
            message::Which::Bootstrap(b) => self.handle_bootstrap(b?.get_question_id()),
            message::Which::Abort(e) => {
                let e = Error::from_exception(e?);
                Err(Violation(Error::disconnected(format!(
                    "the peer aborted the connection: {e}"
                ))))
            }
            message::Which::Unimplemented(m) => self.handle_unimplemented(m?),
            message::Which::Resolve(r) => self.handle_resolve(r?),
            message::Which::Disembargo(d) => self.handle_disembargo(root, d?),
            message::Which::ObsoleteSave(_)
            | message::Which::ObsoleteDelete(_)
            | message::Which::Provide(_)
            | message::Which::Accept(_)
            | message::Which::Join(_) => self.send_unimplemented(root),
        }
    }

    fn send_unimplemented(&self, root: message::Reader<'_>) -> std::result::Result<(), Violation> {
        self.send_with(|mut m| m.set_unimplemented(root))?;
        Ok(())
    }

    fn handle_call(
        self: &Arc<Self>,
        frame: &Frame,
        call: crate::rpc_capnp::call::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        let id = call.get_question_id();
        let interface_id = call.get_interface_id();
        let method_id = call.get_method_id();
        let params = call.get_params()?;
        let target = call.get_target()?;
        let redirect = !matches!(
            call.get_send_results_to().which()?,
            crate::rpc_capnp::call::send_results_to::Which::Caller
        );
        // Declared before the lock: clients made under it are dropped
        // after it is released, also on an early return.
        let mut caps = Vec::new();
        let mut st = self.lock();
        if st.closed.is_some() {
            return Ok(());
        }
        if st.answers.contains_key(&id) {
            return violation(format!("call with question id {id}, which is in use"));
        }
        if st.answers.len() >= self.options.max_answers {
            return Err(Violation(Error::overloaded(format!(
                "the peer has more than {} calls in flight",
                self.options.max_answers
            ))));
        }
        if params.has_cap_table() {
            for d in params.get_cap_table()?.iter() {
                caps.push(self.import_cap(&mut st, d)?);
            }
        }
        // The target, or the answer (and path) to queue the call on.
        let target = match target.which()? {
            message_target::Which::ImportedCap(cap) => match st.exports.get(cap) {
                Some(e) => Ok(e.client.clone()),
                None => return violation(format!("call on export {cap}, which is not held")),
            },
            message_target::Which::PromisedAnswer(pa) => {
                let pa = pa?;
                let question = pa.get_question_id();
                let transform = read_transform(pa)?;
                match st.answers.get(&question) {
                    None => {
                        return violation(format!(
                            "promisedAnswer of question {question}, which is not open"
                        ));
                    }
                    Some(a) => match &a.returned {
                        Some(returned) if !a.draining => Ok(returned.cap_at(&transform)),
                        _ => Err((question, transform)),
                    },
                }
            }
        };
        st.answers.insert(id, Answer::new());
        let params = Params {
            payload: Payload {
                body: Body::Frame(frame.clone()),
                caps: std::mem::take(&mut caps),
                section: Section::Call,
            },
        };
        match target {
            Ok(target) => {
                drop(st);
                self.start_call(id, target, interface_id, method_id, params, redirect);
            }
            Err((question, transform)) => {
                if let Some(a) = st.answers.get_mut(&question) {
                    a.queued.push(Queued {
                        id,
                        interface_id,
                        method_id,
                        params,
                        transform,
                        redirect,
                    });
                }
            }
        }
        Ok(())
    }

    /// Delivers call `id` to `target` (its `dispatch` runs now, so calls
    /// reach an object in order) and runs it in a task of its own, whose
    /// end sends the return. Called without the lock.
    fn start_call(
        self: &Arc<Self>,
        id: u32,
        target: Client,
        interface_id: u64,
        method_id: u16,
        params: Params,
        redirect: bool,
    ) {
        let future = match Results::new(self.message(), id) {
            Ok(_) if redirect => Box::pin(std::future::ready(Err(Error::unimplemented(
                "results sent elsewhere than the caller (level 3)",
            )))),
            Ok(results) => target.call_incoming(interface_id, method_id, params, results),
            Err(e) => Box::pin(std::future::ready(Err(e))) as BoxFuture<_>,
        };
        let conn = Arc::clone(self);
        let task = tokio::spawn(async move {
            let result = future.await;
            conn.answer(id, result);
        });
        let mut st = self.lock();
        match st.answers.get_mut(&id) {
            Some(a) if a.returned.is_none() => a.task = Some(task.abort_handle()),
            Some(_) => {}
            // Canceled (finished) before it started.
            None => task.abort(),
        }
    }

    /// Sends the return of answer `id`, once its call is done; then
    /// delivers the calls pipelined on it, in order, and resolves the
    /// capabilities waiting for it.
    fn answer(self: &Arc<Self>, id: u32, result: Result<Results>) {
        let (msg, caps) = match result {
            Ok(Results { msg, caps }) => (Ok(msg), caps),
            Err(e) => (Err(e), Vec::new()),
        };
        let returned = {
            let mut st = self.lock();
            if st.closed.is_some() || !st.answers.contains_key(&id) {
                return;
            }
            let outcome = match msg {
                Ok(msg) => self.send_results(&mut st, msg, &caps),
                Err(e) => Err(e),
            };
            let returned = match outcome {
                Ok((payload, exports)) => {
                    if let Some(a) = st.answers.get_mut(&id) {
                        a.result_exports = exports;
                    }
                    Returned::Results(payload)
                }
                Err(e) => {
                    let sent = self.send_with(|mut root| {
                        let mut ret = root.init_return()?;
                        ret.set_answer_id(id);
                        ret.set_release_param_caps(false);
                        e.write(ret.init_exception()?)
                    });
                    if let Err(err) = sent {
                        self.fail_later(Error::failed(format!("building a return: {err}")));
                    }
                    Returned::Error(e)
                }
            };
            if let Some(a) = st.answers.get_mut(&id) {
                a.task = None;
                a.draining = true;
                a.returned = Some(returned.clone());
            }
            returned
        };
        // Calls queued while the call ran go first, in order; calls that
        // arrive meanwhile queue behind them until the queue is empty.
        let waiters = loop {
            let batch = {
                let mut st = self.lock();
                let Some(a) = st.answers.get_mut(&id) else {
                    break Vec::new();
                };
                if a.queued.is_empty() {
                    a.draining = false;
                    break std::mem::take(&mut a.waiters);
                }
                std::mem::take(&mut a.queued)
            };
            self.deliver_queued(batch, Some(&returned));
        };
        for (transform, tx) in waiters {
            let _ = tx.send(Ok(returned.cap_at(&transform)));
        }
        drop(caps);
    }

    /// Delivers calls queued on an answer: to the capabilities of its
    /// results, or failed as canceled when it never returned.
    fn deliver_queued(self: &Arc<Self>, calls: Vec<Queued>, returned: Option<&Returned>) {
        for q in calls {
            let target = match returned {
                Some(r) => r.cap_at(&q.transform),
                None => Client::broken(Error::failed("the call was canceled")),
            };
            self.start_call(
                q.id,
                target,
                q.interface_id,
                q.method_id,
                q.params,
                q.redirect,
            );
        }
    }

    /// Writes the cap table of `results` and queues them; keeps a copy of
    /// the message (and the capabilities) for pipelined calls.
    fn send_results(
        self: &Arc<Self>,
        st: &mut State,
        mut msg: Message<Arena>,
        caps: &[Client],
    ) -> Result<(Arc<Payload>, Vec<u32>)> {
        let exports = {
            let root = msg.root_pointer()?.get_struct(message::STRUCT_SIZE)?;
            let ret = root.into_pointer(0).get_struct(return_::STRUCT_SIZE)?;
            let payload = payload::Builder::from_struct_builder(
                ret.into_pointer(0).get_struct(payload::STRUCT_SIZE)?,
            );
            self.write_cap_table(st, payload, caps)?
        };
        // Pipelined calls read the results from a copy; with no
        // capabilities there is nothing for them to reach.
        let body = if caps.is_empty() {
            Body::Frame(Frame::new(Bytes::new(), self.options.reader))
        } else {
            let mut bytes = Vec::with_capacity(msg.serialized_size());
            msg.append_to(&mut bytes);
            Body::Frame(Frame::new(Bytes::from(bytes), self.options.reader))
        };
        self.send(msg);
        Ok((
            Arc::new(Payload {
                body,
                caps: caps.to_vec(),
                section: Section::Return,
            }),
            exports,
        ))
    }

    fn handle_return(
        self: &Arc<Self>,
        frame: &Frame,
        ret: return_::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        let id = ret.get_answer_id();
        // Declared before the lock (see handle_call).
        let mut caps = Vec::new();
        let mut garbage: Garbage = Vec::new();
        let mut dropped_payload = None;
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return Ok(());
            }
            match st.questions.get(id) {
                Some(q) if !q.returned => {}
                Some(_) => return violation(format!("second return for question {id}")),
                None => return violation(format!("return for question {id}, which is not open")),
            }
            let outcome = match ret.which()? {
                return_::Which::Results(p) => {
                    let p = p?;
                    if p.has_cap_table() {
                        for d in p.get_cap_table()?.iter() {
                            caps.push(self.import_cap(&mut st, d)?);
                        }
                    }
                    Ok(Arc::new(Payload {
                        body: Body::Frame(frame.clone()),
                        caps: std::mem::take(&mut caps),
                        section: Section::Return,
                    }))
                }
                return_::Which::Exception(e) => Err(Error::from_exception(e?)),
                return_::Which::Canceled => Err(Error::failed("the call was canceled")),
                _ => return violation(format!("return for question {id} of a level 3 kind")),
            };
            if ret.get_release_param_caps() {
                let exports = st
                    .questions
                    .get_mut(id)
                    .map(|q| std::mem::take(&mut q.param_exports))
                    .unwrap_or_default();
                for e in exports {
                    self.release_export(&mut st, e, 1, &mut garbage)?;
                }
            }
            let Some(q) = st.questions.get_mut(id) else {
                return Ok(());
            };
            q.returned = true;
            let tx = q.tx.take();
            if q.finished {
                st.questions.remove(id);
                dropped_payload = Some(outcome);
            } else if let Some(tx) = tx {
                if let Err(outcome) = tx.send(outcome) {
                    dropped_payload = Some(outcome);
                }
            }
        }
        drop(dropped_payload);
        drop(garbage);
        Ok(())
    }

    fn handle_finish(
        self: &Arc<Self>,
        id: u32,
        release_result_caps: bool,
    ) -> std::result::Result<(), Violation> {
        let mut garbage: Garbage = Vec::new();
        let mut removed = None;
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return Ok(());
            }
            let Some(answer) = st.answers.remove(&id) else {
                return violation(format!("finish for question {id}, which is not open"));
            };
            let answer = removed.insert(answer);
            if answer.returned.is_none() {
                // Canceled: the call's future is dropped, and the return
                // says so.
                if let Some(task) = &answer.task {
                    task.abort();
                }
                if let Err(e) = self.send_with(|mut root| {
                    let mut ret = root.init_return()?;
                    ret.set_answer_id(id);
                    ret.set_release_param_caps(false);
                    ret.set_canceled();
                    Ok(())
                }) {
                    self.fail_later(Error::failed(format!("building a return: {e}")));
                }
            } else if release_result_caps {
                for e in std::mem::take(&mut answer.result_exports) {
                    self.release_export(&mut st, e, 1, &mut garbage)?;
                }
            }
        }
        if let Some(mut removed) = removed {
            // Calls pipelined on it still get delivered (or fail).
            let queued = std::mem::take(&mut removed.queued);
            self.deliver_queued(queued, removed.returned.as_ref());
            for (transform, tx) in removed.waiters {
                let _ = tx.send(match &removed.returned {
                    Some(r) => Ok(r.cap_at(&transform)),
                    None => Err(Error::failed("the call was canceled")),
                });
            }
        }
        drop(garbage);
        Ok(())
    }

    fn handle_bootstrap(self: &Arc<Self>, id: u32) -> std::result::Result<(), Violation> {
        let mut st = self.lock();
        if st.closed.is_some() {
            return Ok(());
        }
        if st.answers.contains_key(&id) {
            return violation(format!("bootstrap with question id {id}, which is in use"));
        }
        let returned = match st.bootstrap.clone() {
            Some(cap) => {
                let outcome = (|| -> Result<(Arc<Payload>, Vec<u32>)> {
                    let mut results = Results::new(self.message(), id)?;
                    results.content()?.set_capability(0);
                    self.send_results(&mut st, results.msg, std::slice::from_ref(&cap))
                })();
                match outcome {
                    Ok((payload, exports)) => (Returned::Results(payload), exports),
                    Err(e) => return Err(Violation(e)),
                }
            }
            None => {
                let e = Error::failed("this side of the connection has no bootstrap capability");
                self.send_with(|mut root| {
                    let mut ret = root.init_return()?;
                    ret.set_answer_id(id);
                    ret.set_release_param_caps(false);
                    e.write(ret.init_exception()?)
                })?;
                (Returned::Error(e), Vec::new())
            }
        };
        let mut answer = Answer::new();
        answer.returned = Some(returned.0);
        answer.result_exports = returned.1;
        st.answers.insert(id, answer);
        Ok(())
    }

    fn handle_unimplemented(
        self: &Arc<Self>,
        echoed: message::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        // A call or bootstrap of ours the peer does not implement fails
        // like a return with an exception; anything else echoed is
        // something this side never sends.
        let id = match echoed.which()? {
            message::Which::Call(c) => c?.get_question_id(),
            message::Which::Bootstrap(b) => b?.get_question_id(),
            _ => return Ok(()),
        };
        let mut outcome = None;
        {
            let mut st = self.lock();
            if let Some(q) = st.questions.get_mut(id) {
                if !q.returned {
                    q.returned = true;
                    if let Some(tx) = q.tx.take() {
                        outcome = Some(tx);
                    }
                    if q.finished {
                        st.questions.remove(id);
                    }
                }
            }
        }
        if let Some(tx) = outcome {
            let _ = tx.send(Err(Error::unimplemented(
                "the peer does not implement the call",
            )));
        }
        Ok(())
    }

    fn handle_resolve(
        self: &Arc<Self>,
        r: crate::rpc_capnp::resolve::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        // Calls keep going to the promise, which the peer forwards; the
        // capability it resolved to is taken and released at once, so the
        // peer's count of it stays right.
        let resolved = {
            let mut st = self.lock();
            if st.closed.is_some() {
                return Ok(());
            }
            match r.which()? {
                crate::rpc_capnp::resolve::Which::Cap(d) => Some(self.import_cap(&mut st, d?)?),
                crate::rpc_capnp::resolve::Which::Exception(_) => None,
            }
        };
        drop(resolved);
        Ok(())
    }

    fn handle_disembargo(
        self: &Arc<Self>,
        root: message::Reader<'_>,
        d: disembargo::Reader<'_>,
    ) -> std::result::Result<(), Violation> {
        let embargo = match d.get_context().which()? {
            disembargo::context::Which::SenderLoopback(e) => e,
            disembargo::context::Which::ReceiverLoopback(_) => {
                return violation("receiverLoopback disembargo, though none was sent");
            }
            _ => return self.send_unimplemented(root),
        };
        let target = d.get_target()?;
        let cap = {
            let mut st = self.lock();
            match target.which()? {
                message_target::Which::ImportedCap(id) => match st.exports.get(id) {
                    Some(e) => e.client.clone(),
                    None => return violation(format!("disembargo of export {id}, not held")),
                },
                message_target::Which::PromisedAnswer(pa) => {
                    let pa = pa?;
                    let transform = read_transform(pa)?;
                    self.answer_cap(&mut st, pa.get_question_id(), transform)?
                }
            }
        };
        // The capability must point back at the peer: the loopback is
        // sent to where it points there.
        let back = match &cap.hook {
            Hook::Import(i) if Arc::ptr_eq(&i.conn, self) => Target::Import(i.id),
            Hook::Answer(a) if Arc::ptr_eq(&a.conn, self) => {
                Target::Answer(a.question.id, a.transform.clone())
            }
            _ => return violation("senderLoopback disembargo of a capability not the peer's"),
        };
        self.send_with(|mut root| {
            let mut out = root.init_disembargo()?;
            write_target(out.init_target()?, &back)?;
            out.init_context().set_receiver_loopback(embargo);
            Ok(())
        })?;
        drop(cap);
        Ok(())
    }

    /// Ends the connection: every question fails with `error`, every
    /// running call is dropped, the tables are emptied. Returns whether
    /// this call ended it (false when it had already ended).
    fn close(&self, error: Error) -> bool {
        let (questions, answers, exports, bootstrap);
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return false;
            }
            st.closed = Some(error.clone());
            questions = st.questions.drain().collect::<Vec<_>>();
            answers = st.answers.drain().map(|(_, a)| a).collect::<Vec<_>>();
            exports = st.exports.drain().collect::<Vec<_>>();
            st.export_ids.clear();
            st.imports.clear();
            bootstrap = st.bootstrap.take();
        }
        for q in questions {
            if let Some(tx) = q.tx {
                let _ = tx.send(Err(error.clone()));
            }
        }
        for a in answers {
            if let Some(t) = &a.task {
                t.abort();
            }
            for (_, tx) in a.waiters {
                let _ = tx.send(Err(error.clone()));
            }
        }
        drop(exports);
        drop(bootstrap);
        true
    }

    fn stats(&self) -> Stats {
        let st = self.lock();
        Stats {
            questions: st.questions.len,
            answers: st.answers.len(),
            imports: st.imports.len(),
            exports: st.exports.len,
        }
    }
}

fn write_target(
    mut t: message_target::Builder<'_, Arena>,
    target: &Target,
) -> capnarena::Result<()> {
    match target {
        Target::Import(id) => t.set_imported_cap(*id),
        Target::Answer(q, transform) => {
            let mut pa = t.init_promised_answer()?;
            pa.set_question_id(*q);
            write_transform(&mut pa, transform)?;
        }
    }
    Ok(())
}

fn write_transform(
    pa: &mut promised_answer::Builder<'_, Arena>,
    transform: &[u16],
) -> capnarena::Result<()> {
    if transform.is_empty() {
        return Ok(());
    }
    let mut ops = pa.init_transform(transform.len() as u32)?;
    for (i, &f) in transform.iter().enumerate() {
        ops.get(i as u32).set_get_pointer_field(f);
    }
    Ok(())
}

/// Transforms longer than this are refused (a pointer path deeper than
/// the reader's nesting limit could never be followed anyway).
const MAX_TRANSFORM: u32 = 64;

fn read_transform(pa: promised_answer::Reader<'_>) -> std::result::Result<Vec<u16>, Violation> {
    let mut out = Vec::new();
    if !pa.has_transform() {
        return Ok(out);
    }
    let ops = pa.get_transform()?;
    if ops.len() > MAX_TRANSFORM {
        return violation(format!(
            "a promisedAnswer transform of {} ops, over the limit of {MAX_TRANSFORM}",
            ops.len()
        ));
    }
    for op in ops.iter() {
        match op.which()? {
            promised_answer::op::Which::Noop => {}
            promised_answer::op::Which::GetPointerField(f) => out.push(f),
        }
    }
    Ok(out)
}

/// A two-party connection to a peer vat over a byte stream, running in
/// tasks of the tokio runtime it was made on.
///
/// Each side may offer a bootstrap capability (what the peer's
/// [`bootstrap`](Self::bootstrap) returns). The connection runs until the
/// peer closes the stream, a protocol error aborts it (an `Abort` is sent
/// with the reason), or [`shutdown`](Self::shutdown) or
/// [`abort`](Self::abort) ends it.
pub struct Connection {
    conn: Arc<Conn>,
    done: watch::Receiver<Option<Result<(), Error>>>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("stats", &self.conn.stats())
            .finish()
    }
}

impl Connection {
    /// Starts a connection over `stream`, offering `bootstrap` to the peer.
    ///
    /// # Panics
    /// Outside a tokio runtime (it spawns its reader and writer tasks).
    pub fn new<S>(stream: S, bootstrap: Option<Client>, options: Options) -> Self
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (read, write) = tokio::io::split(stream);
        let (out, rx) = mpsc::unbounded_channel();
        let (done_tx, done) = watch::channel(None);
        let conn = Arc::new(Conn {
            state: Mutex::new(State {
                closed: None,
                questions: IdTable::new(),
                answers: HashMap::new(),
                exports: IdTable::new(),
                export_ids: HashMap::new(),
                imports: HashMap::new(),
                bootstrap,
            }),
            out,
            queued: AtomicUsize::new(0),
            pool: Mutex::new(Vec::new()),
            options,
            next_generation: AtomicU64::new(1),
            failure: Mutex::new(None),
            wake_reader: Notify::new(),
            done: done_tx,
        });
        tokio::spawn(write_loop(Arc::downgrade(&conn), write, rx));
        tokio::spawn(read_loop(Arc::clone(&conn), read));
        Connection { conn, done }
    }

    /// The peer's bootstrap capability. Calls on it are sent at once
    /// (pipelined on the bootstrap question).
    pub fn bootstrap(&self) -> Client {
        let conn = &self.conn;
        let (tx, rx) = oneshot::channel();
        let id = {
            let mut st = conn.lock();
            if let Some(e) = &st.closed {
                return Client::broken(e.clone());
            }
            let id = st.questions.insert(Question {
                tx: Some(tx),
                param_exports: Vec::new(),
                returned: false,
                finished: false,
            });
            if let Err(e) = conn.send_with(|mut root| {
                root.init_bootstrap()?.set_question_id(id);
                Ok(())
            }) {
                st.questions.remove(id);
                return Client::broken(e.into());
            }
            id
        };
        drop(rx);
        Client {
            hook: Hook::Answer(Arc::new(AnswerCap {
                conn: Arc::clone(conn),
                question: Arc::new(QuestionRef {
                    id,
                    conn: Arc::clone(conn),
                }),
                transform: Vec::new(),
            })),
        }
    }

    /// Entries in the connection's tables.
    pub fn stats(&self) -> Stats {
        self.conn.stats()
    }

    /// Aborts the connection: sends the peer an `Abort` with `reason`,
    /// fails every call in flight and closes the stream.
    pub fn abort(&self, reason: impl Into<String>) {
        self.conn.fail_later(Error::failed(reason));
    }

    /// Ends the connection cleanly: calls in flight fail with
    /// [`ErrorKind::Disconnected`](crate::ErrorKind::Disconnected), queued messages are written, the
    /// stream's write half is shut down. Returns once the connection has
    /// ended, with why it ended if not by this shutdown.
    ///
    /// # Errors
    /// The connection had already ended with an error.
    pub async fn shutdown(self) -> Result<()> {
        let ended_here = self
            .conn
            .close(Error::disconnected("the connection was shut down"));
        if ended_here {
            let _ = self.conn.out.send(Outgoing::Shutdown);
            self.conn.wake_reader.notify_one();
        }
        let result = self.closed().await;
        if ended_here { Ok(()) } else { result }
    }

    /// Waits until the connection ends: `Ok` when the peer closed it (or it
    /// was shut down), the error otherwise.
    ///
    /// # Errors
    /// The connection was aborted, by either side, or its stream failed.
    pub async fn closed(&self) -> Result<()> {
        let mut done = self.done.clone();
        loop {
            if let Some(result) = done.borrow_and_update().clone() {
                return result;
            }
            if done.changed().await.is_err() {
                return Err(Error::disconnected("the connection's tasks are gone"));
            }
        }
    }
}

async fn read_loop<R: AsyncRead + Unpin + Send + 'static>(conn: Arc<Conn>, read: R) {
    let codec = FramedCodec::with_options(conn.options.reader)
        .max_frame_bytes(conn.options.max_message_bytes);
    let mut frames = FramedRead::new(read, codec);
    let outcome: Result<(), Error> = loop {
        let failure = conn
            .failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(e) = failure {
            break Err(e);
        }
        if conn.lock().closed.is_some() {
            break Ok(());
        }
        tokio::select! {
            frame = frames.next() => match frame {
                None => break Ok(()),
                Some(Err(e)) => break Err(Error::failed(format!("bad message from the peer: {e}"))),
                Some(Ok(frame)) => {
                    if let Err(Violation(e)) = conn.handle(frame) {
                        break Err(e);
                    }
                }
            },
            _ = conn.wake_reader.notified() => {}
        }
    };
    let result = match outcome {
        Ok(()) => {
            conn.close(Error::disconnected("the peer closed the connection"));
            Ok(())
        }
        Err(e) => {
            if conn.close(e.clone()) {
                let _ = conn.send_with(|mut root| e.write(root.init_abort()?));
            }
            Err(e)
        }
    };
    let _ = conn.out.send(Outgoing::Shutdown);
    let _ = conn.done.send(Some(result));
}

async fn write_loop<W: AsyncWrite + Unpin + Send + 'static>(
    conn: Weak<Conn>,
    write: W,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
) {
    let mut write = tokio::io::BufWriter::new(write);
    while let Some(out) = rx.recv().await {
        let mut msg = match out {
            Outgoing::Message(m) => m,
            Outgoing::Shutdown => break,
        };
        let written = match msg.framed_bytes() {
            Ok(bytes) => write.write_all(bytes).await,
            Err(_) => {
                let mut bytes = Vec::new();
                msg.append_to(&mut bytes);
                write.write_all(&bytes).await
            }
        };
        let size = msg.serialized_size();
        let Some(c) = conn.upgrade() else { break };
        c.queued.fetch_sub(size, Ordering::Relaxed);
        msg.reset();
        {
            let mut pool = c.pool.lock().unwrap_or_else(|p| p.into_inner());
            if pool.len() < POOL_SIZE {
                pool.push(msg);
            }
        }
        if let Err(e) = written {
            c.fail_later(e.into());
            break;
        }
        if rx.is_empty() {
            if let Err(e) = write.flush().await {
                c.fail_later(e.into());
                break;
            }
        }
    }
    let _ = write.flush().await;
    let _ = write.shutdown().await;
}

impl From<Violation> for Error {
    fn from(v: Violation) -> Self {
        v.0
    }
}

impl From<Error> for Violation {
    fn from(e: Error) -> Self {
        Violation(e)
    }
}
