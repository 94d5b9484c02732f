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
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use capnarena::typed::FromStructBuilder;
use capnarena::{Message, ReaderOptions, SingleSegmentArena};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{Notify, mpsc, watch};

mod calls;
mod caps;
mod handlers;
mod io;
mod options;

use io::{Writer, read_loop};
pub use options::{Options, Stats};

use crate::client::{AnswerCap, Arena, Client, Hook, Params, Payload, Request, Sent};
use crate::error::{Error, Result};
use crate::rpc_capnp::{message, message_target, payload};
use caps::write_target;

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

/// A call sent and not yet finished. Its response future waits on the
/// entry itself (no channel): the return stores the outcome here and wakes
/// the future, which takes it.
struct Question {
    /// The outcome, from its return until the response future takes it.
    outcome: Option<Result<Payload>>,
    /// The response future's waker while it waits.
    waker: Option<Waker>,
    /// A response future still wants the outcome (false once it has gone,
    /// and for a bootstrap, whose outcome only pipelining reads).
    wanted: bool,
    /// Handles ([`QuestionRef`]) referring to the question: the response
    /// future, the response, pipelines and pipelined clients.
    refs: u32,
    /// Exports made for the parameters' capabilities (released when the
    /// return says `releaseParamCaps`).
    param_exports: Vec<u32>,
    /// The parameters' capabilities, when some are pipelined capabilities
    /// of this connection's questions (sent as `receiverAnswer`): held
    /// until the return, so those questions are not finished while the
    /// peer may still resolve them for this call.
    held: Vec<Client>,
    returned: bool,
    /// A `Finish` has been sent (no client refers to the question).
    finished: bool,
}

impl Question {
    /// A question with one handle referring to it.
    fn new(wanted: bool) -> Self {
        Question {
            outcome: None,
            waker: None,
            wanted,
            refs: 1,
            param_exports: Vec::new(),
            held: Vec::new(),
            returned: false,
            finished: false,
        }
    }

    /// Stores the outcome of the call for the response future, or drops
    /// it (returned, through `garbage`) when no future wants it.
    fn settle(&mut self, outcome: Result<Payload>) -> Option<Result<Payload>> {
        self.returned = true;
        if !self.wanted {
            return Some(outcome);
        }
        self.outcome = Some(outcome);
        if let Some(w) = self.waker.take() {
            w.wake();
        }
        None
    }
}

/// What an answered call left for pipelined calls to reach.
#[derive(Clone)]
enum Returned {
    Results(Payload),
    Error(Error),
}

/// An answer, named by its question id and by the serial number of the
/// call it answers: once the peer has finished a call and had its return,
/// it may reuse the id for another, which a late step of the first (its
/// future ending, a call pipelined on it starting) must not touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AnswerKey {
    pub(super) id: u32,
    pub(super) serial: u64,
}

/// Where the results of a call received on a connection are answered:
/// what `Results::set_pipeline` reaches.
#[derive(Clone)]
pub(crate) struct AnswerSlot {
    pub(crate) conn: Weak<Conn>,
    pub(crate) key: AnswerKey,
}

/// A call received and not yet finished by the peer.
struct Answer {
    /// Which call of the id this is (see [`AnswerKey`]).
    serial: u64,
    /// The call's future on the call runner, dropped when the peer
    /// cancels it.
    task: Option<calls::CallId>,
    returned: Option<Returned>,
    /// The results as the server set them for pipelining while its call
    /// runs on (`Results::set_pipeline`): pipelined calls and
    /// capabilities go there until the call returns.
    pipeline: Option<Returned>,
    /// Returned (or given a pipeline), and the calls queued before are
    /// being delivered: new pipelined calls still queue behind them.
    draining: bool,
    /// Calls pipelined on the results before they were in, by serial
    /// number (the order they came in); one the peer finishes leaves at
    /// once.
    queued: Queue,
    /// Pipelined capabilities waiting for the results: their transforms.
    /// Entries whose capability was dropped are pruned as the list grows.
    waiters: Vec<Waiter>,
    /// Entries of `waiters` left by its last pruning.
    waiters_kept: usize,
    /// The answer this call is queued on (pipelined on its results),
    /// until it is delivered.
    queued_on: Option<AnswerKey>,
    /// Exports made for the results' capabilities (released by a `Finish`
    /// with `releaseResultCaps`).
    result_exports: Vec<u32>,
    /// The peer finished the call before it returned while this side
    /// still waited on its results (a capability pipelined on them came
    /// in the parameters of a later call): the call runs on, and the
    /// answer goes once it has returned. Holds `releaseResultCaps`.
    finished_early: Option<bool>,
}

impl Answer {
    /// Whether this side still waits on the results: calls pipelined on
    /// them, or capabilities of them not yet resolved and still held.
    fn referenced(&self) -> bool {
        !self.queued.is_empty() || self.waiters.iter().any(|(_, p)| p.strong_count() > 0)
    }

    /// What pipelined calls reach now: the results once returned, else
    /// the pipeline the server set; `None` while they must queue.
    fn pipeline(&self) -> Option<&Returned> {
        if self.draining {
            return None;
        }
        self.returned.as_ref().or(self.pipeline.as_ref())
    }

    fn new(serial: u64) -> Self {
        Answer {
            serial,
            task: None,
            returned: None,
            pipeline: None,
            draining: false,
            queued: Queue::new(),
            waiters: Vec::new(),
            waiters_kept: 0,
            queued_on: None,
            result_exports: Vec::new(),
            finished_early: None,
        }
    }
}

/// A capability waiting on an answer's results: its path in them and
/// its promise, while any client holds it.
type Waiter = (Vec<u16>, Weak<crate::promise::Promise>);

/// Resolves the promise of a waiter, if a client still holds it (called
/// without the lock: the last clone may go here, and with it a chain).
fn resolve(promise: &Weak<crate::promise::Promise>, resolution: Result<Client>) {
    if let Some(promise) = promise.upgrade() {
        promise.resolve(resolution);
    }
}

/// Calls pipelined on an answer, by serial number.
type Queue = std::collections::BTreeMap<u64, Queued>;

/// A call pipelined on an answer not yet returned.
struct Queued {
    /// The queued call's own answer.
    key: AnswerKey,
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
    /// The id of the local server or promise exported (one export each).
    key: Option<u64>,
    /// For a promise: the task that sends its `Resolve`, until it has.
    resolver: Option<tokio::task::AbortHandle>,
}

impl Export {
    /// Stops the task waiting to resolve it (it leaves the table).
    fn stop_resolver(&mut self) {
        if let Some(task) = self.resolver.take() {
            task.abort();
        }
    }
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
    /// The questions open when the connection ended, each settled (with
    /// the error, unless it had returned) and kept until its handles go,
    /// so that an outcome already in is still read.
    orphans: IdTable<Question>,
    answers: HashMap<u32, Answer>,
    exports: IdTable<Export>,
    /// Local servers' and promises' ids to their export ids (one export
    /// each).
    export_ids: HashMap<u64, u32>,
    imports: HashMap<u32, Import>,
    bootstrap: Option<Client>,
    /// The serial number of the next answer.
    next_serial: u64,
    /// Entries in the answers' `waiters` lists, in all.
    waiters: usize,
}

enum Outgoing {
    Message(Message<Arena>),
    /// The `Abort` that ends an aborted connection: written even though
    /// the messages queued before it are dropped.
    Abort(Message<Arena>),
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
    /// The calls being answered, run by the connection's call runner.
    calls: calls::Calls,
    /// Set once the connection is aborted: the writer drops what is
    /// queued and stops a write that waits on the peer.
    aborted: watch::Sender<bool>,
    /// The runtime the connection runs on: where the tasks that send
    /// `Resolve` for exported promises go, whatever thread exports them.
    runtime: tokio::runtime::Handle,
}

/// Messages the pool keeps for reuse.
const POOL_SIZE: usize = 64;

/// Where a call goes on the connection.
pub(crate) enum Target {
    Import(u32),
    Answer(u32, Vec<u16>),
}

/// A handle to a question, held by the response future, the response and
/// the pipelined clients; counted in the question's entry (no allocation
/// of its own). When the last handle goes, `Finish` is sent.
pub(crate) struct QuestionRef {
    pub(crate) id: u32,
    pub(crate) conn: Arc<Conn>,
}

impl Clone for QuestionRef {
    fn clone(&self) -> Self {
        if let Some(q) = self.conn.lock().question(self.id) {
            q.refs += 1;
        }
        QuestionRef {
            id: self.id,
            conn: Arc::clone(&self.conn),
        }
    }
}

impl Drop for QuestionRef {
    fn drop(&mut self) {
        self.conn.release_question(self.id);
    }
}

impl State {
    /// A serial number for a new answer.
    fn answer_serial(&mut self) -> u64 {
        self.next_serial += 1;
        self.next_serial
    }

    /// Removes answer `id` from the table (its waiters leave the count).
    fn remove_answer(&mut self, id: u32) -> Option<Answer> {
        let answer = self.answers.remove(&id)?;
        self.waiters -= answer.waiters.len();
        Some(answer)
    }

    /// Takes the waiters of answer `id` (to resolve them).
    fn take_waiters(&mut self, id: u32) -> Vec<Waiter> {
        let Some(answer) = self.answers.get_mut(&id) else {
            return Vec::new();
        };
        let waiters = std::mem::take(&mut answer.waiters);
        answer.waiters_kept = 0;
        self.waiters -= waiters.len();
        waiters
    }

    /// Drops the waiters of every answer whose capability is gone;
    /// returns how many are left.
    fn prune_waiters(&mut self) -> usize {
        let mut left = 0;
        for answer in self.answers.values_mut() {
            answer.waiters.retain(|(_, p)| p.strong_count() > 0);
            answer.waiters_kept = answer.waiters.len();
            left += answer.waiters.len();
        }
        self.waiters = left;
        left
    }

    /// Question `id`: open, or (once the connection has ended) orphaned.
    fn question(&mut self, id: u32) -> Option<&mut Question> {
        if self.closed.is_some() {
            self.orphans.get_mut(id)
        } else {
            self.questions.get_mut(id)
        }
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

    /// The limits its messages are read with (also copies of its own
    /// results, read for pipelined calls).
    pub(crate) fn reader_options(&self) -> ReaderOptions {
        self.options.reader
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
            self.queued.fetch_sub(size, Ordering::Relaxed);
            self.fail_later(Error::overloaded(format!(
                "{queued} bytes queued for the peer, over the limit of {}",
                self.options.max_queued_bytes
            )));
            return;
        }
        self.queue(Outgoing::Message(msg), size);
    }

    /// Hands a message of `size` bytes, already counted, to the writer.
    fn queue(&self, out: Outgoing, size: usize) {
        // The writer has gone only once the connection has ended: the
        // message is dropped, and its bytes leave the count.
        if self.out.send(out).is_err() {
            self.queued.fetch_sub(size, Ordering::Relaxed);
        }
    }

    /// Queues the `Abort` for `error` (past the queue's limit too: the
    /// writer drops everything queued before it).
    fn send_abort(&self, error: &Error) {
        let mut msg = self.message();
        msg.reset();
        let built = msg
            .init_root::<message::Builder<_>>()
            .and_then(|mut root| error.write(root.init_abort()?));
        if built.is_ok() {
            let size = msg.serialized_size();
            self.queued.fetch_add(size, Ordering::Relaxed);
            self.queue(Outgoing::Abort(msg), size);
        }
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

    /// Drops a handle of question `id`; when it was the last, sends a
    /// `Finish` and forgets the question once it has returned too.
    fn release_question(&self, id: u32) {
        let mut garbage = None;
        {
            let mut st = self.lock();
            let Some(q) = st.question(id) else {
                return;
            };
            q.refs = q.refs.saturating_sub(1);
            if q.refs > 0 {
                return;
            }
            if st.closed.is_some() {
                garbage = st.orphans.remove(id);
                drop(st);
                drop(garbage);
                return;
            }
            let Some(q) = st.questions.get_mut(id) else {
                return;
            };
            q.finished = true;
            q.wanted = false;
            q.waker = None;
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

    /// The outcome of question `id` for its response future: ready when
    /// the call has returned (or the connection ended), else `cx`'s waker
    /// is kept to be woken by the return.
    pub(crate) fn poll_outcome(&self, id: u32, cx: &mut Context<'_>) -> Poll<Result<Payload>> {
        let mut st = self.lock();
        let closed = st.closed.clone();
        let Some(q) = st.question(id) else {
            return Poll::Ready(Err(
                closed.unwrap_or_else(|| Error::failed(format!("question {id} is not open")))
            ));
        };
        if let Some(outcome) = q.outcome.take() {
            q.wanted = false;
            return Poll::Ready(outcome);
        }
        if q.returned || !q.wanted {
            return Poll::Ready(Err(Error::failed("response polled after it completed")));
        }
        match &mut q.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            slot => *slot = Some(cx.waker().clone()),
        }
        Poll::Pending
    }

    /// The response future of question `id` is gone before its outcome:
    /// an outcome that comes is dropped.
    pub(crate) fn unwant(&self, id: u32) {
        let garbage = {
            let mut st = self.lock();
            let Some(q) = st.question(id) else {
                return;
            };
            q.wanted = false;
            q.waker = None;
            q.outcome.take()
        };
        drop(garbage);
    }

    /// Sends `request` to `target` as a new question.
    pub(crate) fn send_call(self: Arc<Self>, mut request: Request, target: Target) -> Sent {
        let mut caps = std::mem::take(&mut request.caps);
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
        let id = st.questions.insert(Question::new(true));
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
                // A question named in the cap table stays open (no
                // `Finish`) until this call returns.
                // A promise resolved to one is written as it.
                let names_question = caps.iter().any(|c| {
                    let end = match &c.hook {
                        Hook::Promise(p) => match p.resolved_now() {
                            crate::promise::Now::End(end) => end,
                            crate::promise::Now::Pending(_) => return false,
                        },
                        _ => c.clone(),
                    };
                    matches!(&end.hook, Hook::Answer(a) if Arc::ptr_eq(&a.conn, &self))
                });
                if let Some(q) = st.questions.get_mut(id) {
                    q.param_exports = exports;
                    if names_question {
                        q.held = std::mem::take(&mut caps);
                    }
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
        let question = QuestionRef {
            id,
            conn: Arc::clone(&self),
        };
        Sent::remote(question)
    }

    /// Ends the connection: every question fails with `error`, every
    /// running call is dropped, the tables are emptied. Returns whether
    /// this call ended it (false when it had already ended).
    fn close(&self, error: Error) -> bool {
        let (mut removed, mut dropped, mut held) = (Vec::new(), Vec::new(), Vec::new());
        let (answers, exports, bootstrap);
        {
            let mut st = self.lock();
            if st.closed.is_some() {
                return false;
            }
            st.closed = Some(error.clone());
            // Open questions become orphans, settled with the error
            // unless they had returned; those no handle refers to go.
            let mut orphans = std::mem::replace(&mut st.questions, IdTable::new());
            for id in 0..orphans.slots.len() as u32 {
                let Some(q) = orphans.get_mut(id) else {
                    continue;
                };
                if q.refs == 0 {
                    removed.push(orphans.remove(id));
                } else {
                    held.append(&mut q.held);
                    if !q.returned {
                        dropped.push(q.settle(Err(error.clone())));
                    }
                }
            }
            st.orphans = orphans;
            answers = st.answers.drain().map(|(_, a)| a).collect::<Vec<_>>();
            st.waiters = 0;
            exports = st
                .exports
                .drain()
                .map(|mut e| {
                    e.stop_resolver();
                    e
                })
                .collect::<Vec<_>>();
            st.export_ids.clear();
            st.imports.clear();
            bootstrap = st.bootstrap.take();
        }
        drop(removed);
        drop(dropped);
        drop(held);
        drop(self.close_calls());
        for a in answers {
            for (_, promise) in a.waiters {
                resolve(&promise, Err(error.clone()));
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
            waiters: st.waiters,
        }
    }
}

/// A two-party connection to a peer vat over a byte stream, running in
/// tasks of the tokio runtime it was made on.
///
/// Each side may offer a bootstrap capability (what the peer's
/// [`bootstrap`](Self::bootstrap) returns). The connection runs until the
/// peer closes the stream, a protocol error aborts it (an `Abort` is sent
/// with the reason), or [`shutdown`](Self::shutdown) or
/// [`abort`](Self::abort) ends it. Dropping this handle does not end it:
/// its clients go on working until the peer closes the stream.
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
    /// Outside a tokio runtime (it spawns its reader and writer tasks), and
    /// on a runtime without timers when [`Options::write_timeout`] is set
    /// (here, rather than at the first write that waits).
    pub fn new<S>(stream: S, bootstrap: Option<Client>, options: Options) -> Self
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        if options.write_timeout.is_some() {
            drop(tokio::time::sleep(Duration::ZERO));
        }
        let (read, write) = tokio::io::split(stream);
        let (out, rx) = mpsc::unbounded_channel();
        let (done_tx, done) = watch::channel(None);
        let (aborted, aborted_rx) = watch::channel(false);
        let conn = Arc::new(Conn {
            state: Mutex::new(State {
                closed: None,
                questions: IdTable::new(),
                orphans: IdTable::new(),
                answers: HashMap::new(),
                exports: IdTable::new(),
                export_ids: HashMap::new(),
                imports: HashMap::new(),
                bootstrap,
                next_serial: 0,
                waiters: 0,
            }),
            out,
            queued: AtomicUsize::new(0),
            pool: Mutex::new(Vec::new()),
            options,
            next_generation: AtomicU64::new(1),
            failure: Mutex::new(None),
            wake_reader: Notify::new(),
            done: done_tx,
            calls: calls::Calls::new(),
            aborted,
            runtime: tokio::runtime::Handle::current(),
        });
        let writer = Writer {
            conn: Arc::downgrade(&conn),
            timeout: options.write_timeout,
            aborted: aborted_rx,
        };
        tokio::spawn(writer.run(write, rx));
        tokio::spawn(read_loop(Arc::clone(&conn), read));
        tokio::spawn(Arc::clone(&conn).run_calls());
        Connection { conn, done }
    }

    /// The peer's bootstrap capability. Calls on it are sent at once
    /// (pipelined on the bootstrap question).
    pub fn bootstrap(&self) -> Client {
        let conn = &self.conn;
        let id = {
            let mut st = conn.lock();
            if let Some(e) = &st.closed {
                return Client::broken(e.clone());
            }
            // Its outcome is read only by calls pipelined on it.
            let id = st.questions.insert(Question::new(false));
            if let Err(e) = conn.send_with(|mut root| {
                root.init_bootstrap()?.set_question_id(id);
                Ok(())
            }) {
                st.questions.remove(id);
                return Client::broken(e.into());
            }
            id
        };
        Client {
            hook: Hook::Answer(Arc::new(AnswerCap {
                conn: Arc::clone(conn),
                question: QuestionRef {
                    id,
                    conn: Arc::clone(conn),
                },
                transform: Vec::new(),
            })),
        }
    }

    /// Entries in the connection's tables.
    pub fn stats(&self) -> Stats {
        self.conn.stats()
    }

    /// Bytes of messages queued to be written (bounded by
    /// [`Options::max_queued_bytes`]; zero once the connection has ended
    /// and its writer has stopped).
    pub fn queued_bytes(&self) -> usize {
        self.conn.queued.load(Ordering::Relaxed)
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
