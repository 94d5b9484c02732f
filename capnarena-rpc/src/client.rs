//! The untyped call API: [`Client`], [`Request`], [`Response`],
//! [`Pipeline`], and the [`Server`] trait with its [`Params`] and
//! [`Results`].
//!
//! A client is one of: a local server, an import of a connection (a
//! capability the peer hosts), a pipelined promise on a question of a
//! connection (`promisedAnswer`), a promise that resolves later to another
//! client, or a broken capability that fails every call.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::task::{Context, Poll};

use capnarena::serialize::codec::Frame;
use capnarena::{Message, PointerBuilder, PointerReader, SingleSegmentArena};
use futures_util::FutureExt;
use futures_util::future::Shared;
use futures_util::task::AtomicWaker;

use crate::connection::{AnswerSlot, Conn, ImportClient, QuestionRef};
use crate::error::{Error, Result};
pub(crate) use crate::payload::{Body, Payload, Section};
use crate::promise::{Enqueued, Now, Promise, follow};
use crate::rpc_capnp::{message, return_};

/// A boxed, sendable future: what [`Server::dispatch`] returns.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// The messages of calls are built in single-segment arenas (one framed
/// byte slice each, written with no copy).
pub(crate) type Arena = SingleSegmentArena;

/// An object that answers calls: the untyped server side of an interface.
///
/// `dispatch` is called once per call, with the call's interface and
/// method ids, its parameters and the results to fill, in the order the
/// calls were sent to the object (E-order: a connection calls it from its
/// reader, pipelined calls in order once their target is known); the
/// future it returns runs concurrently with the connection's other calls
/// and hands the results back when done. A connection's calls are polled
/// by one task of its own (the call runner, which wakes each future on its
/// own and allocates nothing per call); a local call runs in a task of its
/// own. So a server's work that holds a thread for long (computation,
/// blocking) belongs in a task the future spawns, or other calls of the
/// connection wait for it. Work whose order matters belongs in `dispatch`
/// itself, before the future is returned. An `Err` reaches the
/// caller as an exception of the error's kind. Dropping the future
/// (the caller canceled the call) is how a call is canceled.
pub trait Server: Send + Sync + 'static {
    /// Answers one call.
    fn dispatch(
        self: Arc<Self>,
        interface_id: u64,
        method_id: u16,
        params: Params,
        results: Results,
    ) -> BoxFuture<Result<Results>>;
}

/// A local server, with an id that names it in a connection's export table.
pub(crate) struct LocalServer {
    pub(crate) id: u64,
    pub(crate) server: Arc<dyn Server>,
}

/// A pipelined capability: the one at `transform` in the results of a
/// question not yet answered (or answered, but not yet finished).
pub(crate) struct AnswerCap {
    pub(crate) conn: Arc<Conn>,
    pub(crate) question: QuestionRef,
    pub(crate) transform: Vec<u16>,
}

#[derive(Clone)]
pub(crate) enum Hook {
    Local(Arc<LocalServer>),
    Import(Arc<ImportClient>),
    Answer(Arc<AnswerCap>),
    Promise(Arc<Promise>),
    Broken(Error),
}

/// A capability: a reference to an object, local or remote, that calls
/// can be made on.
///
/// `Clone + Send + Sync`: clones share the reference, and any task may call
/// through any clone at the same time. A remote capability is released
/// (the peer told with a `Release`) when its last clone is dropped.
#[derive(Clone)]
pub struct Client {
    pub(crate) hook: Hook,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.hook {
            Hook::Local(l) => write!(f, "Client::Local({})", l.id),
            Hook::Import(i) => write!(f, "Client::Import({})", i.id),
            Hook::Answer(a) => write!(f, "Client::Answer({}, {:?})", a.question.id, a.transform),
            Hook::Promise(_) => write!(f, "Client::Promise"),
            Hook::Broken(e) => write!(f, "Client::Broken({e})"),
        }
    }
}

/// Ids of local servers and promises: what names them in an export table.
pub(crate) static NEXT_SERVER_ID: AtomicU64 = AtomicU64::new(1);

impl Client {
    /// A client calling `server` in this process (to call locally, or to
    /// pass to a peer, which then calls it through the connection).
    pub fn from_server(server: impl Server) -> Self {
        Self::from_arc(Arc::new(server))
    }

    /// As [`from_server`](Self::from_server), for a server already shared.
    pub fn from_arc(server: Arc<dyn Server>) -> Self {
        Client {
            hook: Hook::Local(Arc::new(LocalServer {
                id: NEXT_SERVER_ID.fetch_add(1, Ordering::Relaxed),
                server,
            })),
        }
    }

    /// A capability that fails every call with `error`.
    pub fn broken(error: Error) -> Self {
        Client {
            hook: Hook::Broken(error),
        }
    }

    /// A promise of the client `resolution` gives (a capability of a
    /// pipeline whose call runs in this process). In a tokio runtime it is
    /// a [`from_promise`](Self::from_promise) promise: calls made on it
    /// queue and reach the capability in the order they were made, however
    /// their responses are awaited, and a peer it is passed to gets a
    /// `Resolve`. Outside one (no task can wait for the resolution), each
    /// call waits for it when its response is first polled.
    pub(crate) fn promise(resolution: BoxFuture<Result<Client>>) -> Self {
        if tokio::runtime::Handle::try_current().is_ok() {
            return Client::from_promise(resolution);
        }
        Client {
            hook: Hook::Promise(Promise::new(resolution)),
        }
    }

    /// Starts a call of method `method_id` of interface `interface_id`:
    /// build its parameters in [`Request::params`], then
    /// [`send`](Request::send) it.
    pub fn new_call(&self, interface_id: u64, method_id: u16) -> Request {
        let msg = match &self.hook {
            Hook::Import(i) => i.conn.message(),
            Hook::Answer(a) => a.conn.message(),
            _ => Message::new(SingleSegmentArena::new()),
        };
        Request {
            msg,
            caps: Vec::new(),
            target: self.clone(),
            interface_id,
            method_id,
            started: false,
        }
    }

    /// Whether `self` and `other` are the same reference (clones of one
    /// client, or one import of a connection).
    pub fn same_as(&self, other: &Client) -> bool {
        match (&self.hook, &other.hook) {
            (Hook::Local(a), Hook::Local(b)) => a.id == b.id,
            (Hook::Import(a), Hook::Import(b)) => Arc::ptr_eq(a, b),
            (Hook::Answer(a), Hook::Answer(b)) => {
                Arc::ptr_eq(&a.conn, &b.conn)
                    && a.question.id == b.question.id
                    && a.transform == b.transform
            }
            _ => false,
        }
    }

    /// Delivers a call that arrived as `params` to this client, filling
    /// `results`: a local server answers it; a remote one gets the call
    /// forwarded (its content and capabilities copied into a new request).
    pub(crate) fn call_incoming(
        self,
        interface_id: u64,
        method_id: u16,
        params: Params,
        results: Results,
    ) -> BoxFuture<Result<Results>> {
        match self.hook {
            Hook::Local(local) => {
                Arc::clone(&local.server).dispatch(interface_id, method_id, params, results)
            }
            Hook::Broken(e) => Box::pin(std::future::ready(Err(e))),
            Hook::Promise(promise) => match promise.resolved_now() {
                // Resolved: the call goes to the end of the chain (no
                // promise), locally when it is local.
                Now::End(end) => end.call_incoming(interface_id, method_id, params, results),
                // Queued on the promise, in order with the calls made there.
                Now::Pending(p) if p.queues() => Client {
                    hook: Hook::Promise(promise),
                }
                .forward(interface_id, method_id, params, results),
                // Followed to its end first: the call made there is no
                // promise's, so futures never nest one per link.
                Now::Pending(_) => Box::pin(async move {
                    let target = follow(promise).await?;
                    target
                        .call_incoming(interface_id, method_id, params, results)
                        .await
                }),
            },
            Hook::Import(_) | Hook::Answer(_) => {
                self.forward(interface_id, method_id, params, results)
            }
        }
    }

    /// Forwards a call that arrived as `params`: its content and
    /// capabilities copied into a new request, sent now.
    fn forward(
        self,
        interface_id: u64,
        method_id: u16,
        params: Params,
        mut results: Results,
    ) -> BoxFuture<Result<Results>> {
        {
            let mut request = self.new_call(interface_id, method_id);
            let copied = params
                .payload
                .read(|content| Ok(request.params()?.set_from(&content)?));
            request.caps = params.payload.caps.clone();
            drop(params);
            if let Err(e) = copied {
                return Box::pin(std::future::ready(Err(e)));
            }
            // Sent now, not when the future is first polled: calls
            // forwarded to one capability keep their order.
            let sent = request.send();
            Box::pin(async move {
                let response = sent.response.await?;
                response
                    .payload
                    .read(|content| Ok(results.content()?.set_from(&content)?))?;
                results.caps = response.payload.caps.clone();
                Ok(results)
            })
        }
    }
}

/// A call's parameters, as the server receives them.
pub struct Params {
    pub(crate) payload: Payload,
}

impl Params {
    /// Hands `f` the parameters' content (for a method, a struct with a
    /// field per parameter). The reader lives only inside `f`: it is not
    /// `Send`, so it must not be held across an await.
    ///
    /// # Errors
    /// The message is malformed, or `f`'s error.
    pub fn read<R>(&self, f: impl for<'r> FnOnce(PointerReader<'r>) -> Result<R>) -> Result<R> {
        self.payload.read(f)
    }

    /// The capability a capability pointer of the parameters names (its
    /// index, from [`PointerReader::get_capability`]).
    ///
    /// # Errors
    /// No capability of that index came with the call.
    pub fn cap(&self, index: u32) -> Result<Client> {
        self.payload.cap(index)
    }

    /// Capabilities that came with the call.
    pub fn cap_count(&self) -> u32 {
        self.payload.caps.len() as u32
    }
}

/// A call's results, as the server builds them: a message prepared as a
/// `Return`, whose content the server fills, and the capabilities it
/// passes back.
pub struct Results {
    pub(crate) msg: Message<Arena>,
    pub(crate) caps: Vec<Client>,
    /// Where [`set_pipeline`](Self::set_pipeline) puts the pipeline:
    /// the answer of a call received on a connection, or the caller's
    /// side of a local call.
    pub(crate) pipeline_to: Option<PipelineTo>,
}

/// Where a call's pipeline goes before the call returns.
pub(crate) enum PipelineTo {
    Answer(AnswerSlot),
    Local(Weak<LocalCall>),
}

/// A local call in flight, shared by its response future and its
/// pipeline: the outcome once the server's task has it, and the pipeline
/// its server may set before. The task holds it weakly; when the
/// caller's last handle goes, the task is aborted.
pub(crate) struct LocalCall {
    /// The first pipeline the server set (a later one is dropped:
    /// capabilities of the first may have been resolved already).
    pipeline: OnceLock<Payload>,
    outcome: OnceLock<Result<Response>>,
    /// Tells the pipelined capabilities waiting that either came.
    changed: tokio::sync::Notify,
    /// The response future's waker.
    waker: AtomicWaker,
    /// The server's task.
    task: OnceLock<tokio::task::AbortHandle>,
}

impl Drop for LocalCall {
    fn drop(&mut self) {
        if let Some(task) = self.task.get() {
            task.abort();
        }
    }
}

impl LocalCall {
    /// Sets the outcome (once) and wakes whoever waits.
    fn complete(&self, outcome: Result<Response>) {
        let _ = self.outcome.set(outcome);
        self.changed.notify_waiters();
        self.waker.wake();
    }

    /// The capability at `transform` of the results once in, or of the
    /// pipeline the server set before.
    async fn cap_at(&self, transform: &[u16]) -> Result<Client> {
        loop {
            let mut changed = std::pin::pin!(self.changed.notified());
            changed.as_mut().enable();
            if let Some(outcome) = self.outcome.get() {
                return match outcome {
                    Ok(response) => response.payload.cap_at(transform),
                    Err(e) => Err(e.clone()),
                };
            }
            if let Some(pipeline) = self.pipeline.get() {
                return pipeline.cap_at(transform);
            }
            changed.await;
        }
    }
}

/// Completes a local call when the server's task ends: with the results
/// it stored, or (the task panicked) an error.
struct Completion {
    call: Weak<LocalCall>,
    outcome: Option<Result<Response>>,
}

impl Drop for Completion {
    fn drop(&mut self) {
        if let Some(call) = self.call.upgrade() {
            let outcome = self
                .outcome
                .take()
                .unwrap_or_else(|| Err(Error::failed("the server's task panicked")));
            call.complete(outcome);
        }
    }
}

impl Results {
    /// Results in `msg` (reset first), a `Return` for `answer_id`.
    pub(crate) fn new(mut msg: Message<Arena>, answer_id: u32) -> Result<Self> {
        msg.reset();
        {
            let mut root = msg.init_root::<message::Builder<_>>()?;
            let mut ret = root.init_return()?;
            ret.set_answer_id(answer_id);
            ret.set_release_param_caps(false);
            ret.init_results()?;
        }
        Ok(Results {
            msg,
            caps: Vec::new(),
            pipeline_to: None,
        })
    }

    /// The results' content, to build in place (for a method, a struct
    /// with a field per result).
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn content(&mut self) -> Result<PointerBuilder<'_, Arena>> {
        results_content(&mut self.msg)
    }

    /// The results' content and their capabilities, to build both at
    /// once.
    pub(crate) fn content_and_caps(
        &mut self,
    ) -> Result<(PointerBuilder<'_, Arena>, &mut Vec<Client>)> {
        Ok((results_content(&mut self.msg)?, &mut self.caps))
    }

    /// Adds `cap` to the results' capabilities and returns its index, to
    /// point a capability pointer of the content at
    /// ([`PointerBuilder::set_capability`]).
    pub fn add_cap(&mut self, cap: Client) -> u32 {
        self.caps.push(cap);
        self.caps.len() as u32 - 1
    }

    /// Lets calls pipelined on these results reach their capabilities
    /// now, while the call runs on.
    ///
    /// ```no_run
    /// # use capnarena_rpc::{Client, Results};
    /// # fn f(results: &mut Results, stream: Client) -> capnarena_rpc::Result<()> {
    /// let index = results.add_cap(stream);
    /// results.content()?.set_capability(index);
    /// results.set_pipeline();
    /// // ... the call goes on; the caller already calls `stream`.
    /// # Ok(()) }
    /// ```
    ///
    /// It takes a snapshot of the results as built so far: their content
    /// and capabilities. The caller's calls on a capability of its
    /// pipeline go to the capability at that path of the snapshot: those
    /// queued so far at once, in order, and later ones as they come.
    /// Capabilities of the pipeline that the caller passed in other calls
    /// resolve there too. Once the call returns, its results take over.
    /// Only the first `set_pipeline` of a call counts: a later one does
    /// nothing. It works on a call that came over a connection and on a
    /// local call (a [`Client::from_server`] called in this process).
    ///
    /// This is how a method hands out a capability and keeps running
    /// (capnp-rpc's `set_pipeline`, the reference's `setPipeline`). The
    /// call may then wait on calls the caller makes on that capability;
    /// without it, those calls wait for the call's return.
    pub fn set_pipeline(&mut self) {
        match &self.pipeline_to {
            None => {}
            Some(PipelineTo::Answer(slot)) => {
                let Some(conn) = slot.conn.upgrade() else {
                    return;
                };
                let mut bytes = Vec::with_capacity(self.msg.serialized_size());
                self.msg.append_to(&mut bytes);
                let frame = Frame::new(bytes.into(), conn.reader_options());
                let payload = Payload::new(Body::Frame(frame), self.caps.clone(), Section::Return);
                conn.set_pipeline(slot.key, payload);
            }
            Some(PipelineTo::Local(call)) => {
                let Some(call) = call.upgrade() else {
                    return;
                };
                if call.pipeline.get().is_some() {
                    return;
                }
                let body = Body::copy_of(&self.msg);
                let _ = call
                    .pipeline
                    .set(Payload::new(body, self.caps.clone(), Section::Return));
                call.changed.notify_waiters();
            }
        }
    }

    /// The payload these results make, as a local caller reads them.
    pub(crate) fn into_payload(self) -> Payload {
        Payload::new(Body::Shared(Arc::new(self.msg)), self.caps, Section::Return)
    }
}

/// The content pointer of a message built as `return.results`.
pub(crate) fn results_content(msg: &mut Message<Arena>) -> Result<PointerBuilder<'_, Arena>> {
    payload_content(msg, MESSAGE_RETURN, 0)
}

/// The content pointer of a message built as `call.params`.
pub(crate) fn params_content(msg: &mut Message<Arena>) -> Result<PointerBuilder<'_, Arena>> {
    payload_content(msg, MESSAGE_CALL, 1)
}

/// `Message.call`'s and `Message.return`'s discriminants (rpc.capnp).
const MESSAGE_CALL: u16 = 2;
const MESSAGE_RETURN: u16 = 3;

/// The content pointer of the payload in pointer `field` of the member
/// `which` of a message built by this crate.
fn payload_content(
    msg: &mut Message<Arena>,
    which: u16,
    field: usize,
) -> Result<PointerBuilder<'_, Arena>> {
    let root = msg.root_pointer()?.get_struct(message::STRUCT_SIZE)?;
    if root.get::<u16>(0) != which {
        return Err(Error::failed("a message built for another purpose"));
    }
    let member = root.into_pointer(0).get_struct(if which == MESSAGE_CALL {
        crate::rpc_capnp::call::STRUCT_SIZE
    } else {
        return_::STRUCT_SIZE
    })?;
    Ok(member
        .into_pointer(field)
        .get_struct(crate::rpc_capnp::payload::STRUCT_SIZE)?
        .into_pointer(0))
}

/// A call being built: its parameters are written in place in the message
/// that will be sent.
pub struct Request {
    pub(crate) msg: Message<Arena>,
    pub(crate) caps: Vec<Client>,
    pub(crate) target: Client,
    pub(crate) interface_id: u64,
    pub(crate) method_id: u16,
    started: bool,
}

impl Request {
    /// Makes the message a `Call` of the request's method, once.
    fn start(&mut self) -> Result<()> {
        if !self.started {
            self.msg.reset();
            let mut root = self.msg.init_root::<message::Builder<_>>()?;
            let mut call = root.init_call()?;
            call.set_interface_id(self.interface_id);
            call.set_method_id(self.method_id);
            call.init_params()?;
            self.started = true;
        }
        Ok(())
    }

    /// The parameters' content, to build in place.
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn params(&mut self) -> Result<PointerBuilder<'_, Arena>> {
        self.start()?;
        params_content(&mut self.msg)
    }

    /// The parameters' content and their capabilities, to build both at
    /// once.
    pub(crate) fn params_and_caps(
        &mut self,
    ) -> Result<(PointerBuilder<'_, Arena>, &mut Vec<Client>)> {
        self.start()?;
        Ok((params_content(&mut self.msg)?, &mut self.caps))
    }

    /// Adds `cap` to the parameters' capabilities and returns its index,
    /// to point a capability pointer of the content at
    /// ([`PointerBuilder::set_capability`]).
    pub fn add_cap(&mut self, cap: Client) -> u32 {
        self.caps.push(cap);
        self.caps.len() as u32 - 1
    }

    /// Sends the call. The response arrives through
    /// [`Sent::response`]; calls on capabilities of the results can be
    /// made at once through [`Sent::pipeline`] (promise pipelining).
    /// Dropping the response future and every pipeline of a call that has
    /// not returned cancels it.
    pub fn send(mut self) -> Sent {
        if let Err(e) = self.start() {
            return Sent::failed(e);
        }
        match self.target.hook.clone() {
            Hook::Local(local) => send_local(local, self),
            Hook::Import(import) => {
                let conn = Arc::clone(&import.conn);
                conn.send_call(self, crate::connection::Target::Import(import.id))
            }
            Hook::Answer(answer) => {
                let conn = Arc::clone(&answer.conn);
                let target =
                    crate::connection::Target::Answer(answer.question.id, answer.transform.clone());
                conn.send_call(self, target)
            }
            Hook::Promise(promise) => {
                let mut request = self;
                // Bounded: each turn finds a link resolved since the last.
                for _ in 0..crate::promise::MAX_PROMISE_CHAIN {
                    request = match promise.resolved_now() {
                        Now::End(end) => return request.retarget(end).send(),
                        Now::Pending(p) => match p.enqueue(request) {
                            Enqueued::Queued(sent) => return sent,
                            Enqueued::Resolved(request) => request,
                            Enqueued::NoQueue(request) => return request.wait_and_send(promise),
                        },
                    };
                }
                Sent::failed(Error::failed(
                    "a promise chain kept changing while a call was sent",
                ))
            }
            Hook::Broken(e) => Sent::failed(e),
        }
    }

    /// Sends the call once `promise` has resolved, when the response or
    /// the pipeline is first polled.
    fn wait_and_send(self, promise: Arc<Promise>) -> Sent {
        let future: BoxFuture<Result<Response>> = Box::pin(async move {
            // The end of the chain, no promise: sent from there.
            let target = follow(promise).await?;
            // Built for the promise; re-aimed at what it became.
            let request = self.retarget(target);
            request.send().response.await
        });
        Sent::shared(future.shared())
    }

    /// The same call, for another target (the message moves into a
    /// connection's pool only when sent).
    fn retarget(mut self, target: Client) -> Request {
        self.target = target;
        self
    }
}

/// Runs a call on a local server in a task of its own.
fn send_local(local: Arc<LocalServer>, request: Request) -> Sent {
    let Request {
        msg,
        caps,
        interface_id,
        method_id,
        ..
    } = request;
    let params = Params {
        payload: Payload::new(Body::Built(msg), caps, Section::Call),
    };
    let mut results = match Results::new(Message::new(SingleSegmentArena::new()), 0) {
        Ok(r) => r,
        Err(e) => return Sent::failed(e),
    };
    let call = Arc::new(LocalCall {
        pipeline: OnceLock::new(),
        outcome: OnceLock::new(),
        changed: tokio::sync::Notify::new(),
        waker: AtomicWaker::new(),
        task: OnceLock::new(),
    });
    results.pipeline_to = Some(PipelineTo::Local(Arc::downgrade(&call)));
    // Dispatched now: calls reach the server in the order they were made.
    let future = Arc::clone(&local.server).dispatch(interface_id, method_id, params, results);
    let completion = Completion {
        call: Arc::downgrade(&call),
        outcome: None,
    };
    let task = tokio::spawn(async move {
        // Owned by the task: dropped when it ends, panics or is aborted.
        let mut completion = completion;
        let outcome = future.await.map(|results| Response {
            payload: results.into_payload(),
            _question: None,
        });
        completion.outcome = Some(outcome);
    });
    let _ = call.task.set(task.abort_handle());
    Sent {
        response: ResponseFuture {
            inner: ResponseInner::Local(Arc::clone(&call)),
        },
        pipeline: Pipeline {
            inner: PipelineInner::Local(call),
            transform: Vec::new(),
        },
    }
}

/// A sent call: its response to come, and a pipeline to call
/// capabilities of its results before they arrive.
pub struct Sent {
    /// The results (or the error) when the call returns.
    pub response: ResponseFuture,
    /// Capabilities of the results, usable before they arrive.
    pub pipeline: Pipeline,
}

impl Sent {
    pub(crate) fn failed(e: Error) -> Self {
        Sent {
            response: ResponseFuture {
                inner: ResponseInner::Failed(Some(e.clone())),
            },
            pipeline: Pipeline {
                inner: PipelineInner::Broken(e),
                transform: Vec::new(),
            },
        }
    }

    fn shared(shared: Shared<BoxFuture<Result<Response>>>) -> Self {
        Sent {
            response: ResponseFuture {
                inner: ResponseInner::Shared(shared.clone()),
            },
            pipeline: Pipeline {
                inner: PipelineInner::Shared(shared),
                transform: Vec::new(),
            },
        }
    }

    /// A call queued on a promise: its response and pipeline come
    /// through the channels once it is sent to the resolution.
    /// Both hold `promise` until the call is sent: a call made on a
    /// promise goes on when every client of it is dropped.
    pub(crate) fn deferred(
        promise: Arc<Promise>,
        response: tokio::sync::oneshot::Receiver<ResponseFuture>,
        pipeline: tokio::sync::oneshot::Receiver<Pipeline>,
    ) -> Self {
        let never_sent = || Error::failed("a call queued on a promise was dropped unsent");
        let held = Arc::clone(&promise);
        let pipeline: BoxFuture<Result<Pipeline>> = Box::pin(async move {
            let sent = pipeline.await.map_err(|_| never_sent());
            drop(held);
            sent
        });
        Sent {
            response: ResponseFuture {
                inner: ResponseInner::Deferred(Box::pin(async move {
                    let sent = response.await.map_err(|_| never_sent());
                    drop(promise);
                    sent?.await
                })),
            },
            pipeline: Pipeline {
                inner: PipelineInner::Deferred(pipeline.shared()),
                transform: Vec::new(),
            },
        }
    }

    pub(crate) fn remote(question: QuestionRef) -> Self {
        Sent {
            response: ResponseFuture {
                inner: ResponseInner::Remote {
                    question: Some(question.clone()),
                },
            },
            pipeline: Pipeline {
                inner: PipelineInner::Remote { question },
                transform: Vec::new(),
            },
        }
    }
}

/// The results of a call.
#[derive(Clone)]
pub struct Response {
    pub(crate) payload: Payload,
    /// Keeps the question open (no `Finish`) while the response lives.
    pub(crate) _question: Option<QuestionRef>,
}

impl Response {
    /// Hands `f` the results' content (see [`Params::read`]).
    ///
    /// # Errors
    /// The message is malformed, or `f`'s error.
    pub fn read<R>(&self, f: impl for<'r> FnOnce(PointerReader<'r>) -> Result<R>) -> Result<R> {
        self.payload.read(f)
    }

    /// The capability a capability pointer of the results names.
    ///
    /// # Errors
    /// No capability of that index came with the results.
    pub fn cap(&self, index: u32) -> Result<Client> {
        self.payload.cap(index)
    }

    /// Capabilities that came with the results.
    pub fn cap_count(&self) -> u32 {
        self.payload.caps.len() as u32
    }
}

enum ResponseInner {
    /// Waits on the question's entry in its connection (the handle is
    /// taken when the outcome is).
    Remote {
        question: Option<QuestionRef>,
    },
    Shared(Shared<BoxFuture<Result<Response>>>),
    /// Waits on the local call's entry.
    Local(Arc<LocalCall>),
    /// A call queued on a promise, sent once it resolves.
    Deferred(BoxFuture<Result<Response>>),
    Failed(Option<Error>),
}

/// The response of a sent call, to await. Dropping it (with every
/// pipeline of the call) cancels a call that has not returned.
pub struct ResponseFuture {
    inner: ResponseInner,
}

impl Drop for ResponseFuture {
    fn drop(&mut self) {
        // Gone before its outcome: the outcome is not kept for it.
        if let ResponseInner::Remote { question: Some(q) } = &self.inner {
            q.conn.unwant(q.id);
        }
    }
}

impl Future for ResponseFuture {
    type Output = Result<Response>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.inner {
            ResponseInner::Remote { question } => {
                let Some(q) = question else {
                    return Poll::Ready(Err(Error::failed("response polled after it completed")));
                };
                match q.conn.poll_outcome(q.id, cx) {
                    Poll::Pending => Poll::Pending,
                    Poll::Ready(Ok(payload)) => Poll::Ready(Ok(Response {
                        payload,
                        _question: question.take(),
                    })),
                    Poll::Ready(Err(e)) => {
                        *question = None;
                        Poll::Ready(Err(e))
                    }
                }
            }
            ResponseInner::Shared(shared) => shared.poll_unpin(cx),
            ResponseInner::Local(call) => {
                call.waker.register(cx.waker());
                match call.outcome.get() {
                    Some(outcome) => Poll::Ready(outcome.clone()),
                    None => Poll::Pending,
                }
            }
            ResponseInner::Deferred(future) => future.as_mut().poll(cx),
            ResponseInner::Failed(e) => Poll::Ready(Err(e
                .take()
                .unwrap_or_else(|| Error::failed("response polled after it completed")))),
        }
    }
}

#[derive(Clone)]
enum PipelineInner {
    Remote {
        question: QuestionRef,
    },
    Shared(Shared<BoxFuture<Result<Response>>>),
    Local(Arc<LocalCall>),
    /// The pipeline of a call queued on a promise, once it is sent.
    Deferred(Shared<BoxFuture<Result<Pipeline>>>),
    Broken(Error),
}

/// The results of a call not yet returned, as far as capabilities in them
/// go: a path of pointer fields from the content to a capability.
#[derive(Clone)]
pub struct Pipeline {
    inner: PipelineInner,
    transform: Vec<u16>,
}

impl Pipeline {
    /// The pipeline of pointer field `index` of the struct here.
    pub fn pointer_field(&self, index: u16) -> Pipeline {
        let mut p = self.clone();
        p.transform.push(index);
        p
    }

    /// The capability here: calls on it are sent at once, to be delivered
    /// when the results are in (by the peer, for a remote call).
    pub fn client(&self) -> Client {
        match &self.inner {
            PipelineInner::Remote { question } => Client {
                hook: Hook::Answer(Arc::new(AnswerCap {
                    conn: Arc::clone(&question.conn),
                    question: question.clone(),
                    transform: self.transform.clone(),
                })),
            },
            PipelineInner::Shared(shared) => {
                let shared = shared.clone();
                let transform = self.transform.clone();
                Client::promise(Box::pin(
                    async move { shared.await?.payload.cap_at(&transform) },
                ))
            }
            PipelineInner::Local(call) => {
                let call = Arc::clone(call);
                let transform = self.transform.clone();
                Client::promise(Box::pin(async move { call.cap_at(&transform).await }))
            }
            PipelineInner::Deferred(shared) => {
                let shared = shared.clone();
                let transform = self.transform.clone();
                Client::promise(Box::pin(async move {
                    let mut pipeline = shared.await?;
                    pipeline.transform.extend_from_slice(&transform);
                    Ok(pipeline.client())
                }))
            }
            PipelineInner::Broken(e) => Client::broken(e.clone()),
        }
    }
}
