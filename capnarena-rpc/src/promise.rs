//! Promise clients: capabilities not known yet, what they resolve to,
//! and the calls made on them meanwhile.
//!
//! A promise made by [`Client::from_promise`] queues the calls made on it
//! and delivers them, in order, to its resolution before any later call
//! goes there (the reference's `QueuedClient` in capability.c++ plays this
//! part). The capabilities of a local call's pipeline are such promises
//! too (in a tokio runtime), so calls on them keep their order however
//! their responses are awaited. The promises a connection makes for
//! capabilities of answers not yet returned wait for their resolution in
//! each call instead: the peer orders those calls.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use futures_util::FutureExt;
use futures_util::future::Shared;
use tokio::sync::oneshot;

use crate::client::{
    BoxFuture, Client, Hook, NEXT_SERVER_ID, Pipeline, Request, ResponseFuture, Sent,
};
use crate::error::{Error, Result};

/// A capability not known yet: what it resolves to, shared by every call
/// waiting on it.
///
/// A promise may resolve to another promise, so a peer can build a chain
/// as long as the messages it sends. Chains are followed in a loop
/// ([`follow`], [`Promise::resolved_now`]) and dropped in a loop
/// ([`Drop`] below), never by recursion, so the depth of a chain never
/// reaches the thread's stack.
pub(crate) struct Promise {
    /// Names the promise in a connection's export table: one export per
    /// promise, so one `Resolve` for it.
    pub(crate) id: u64,
    source: Source,
    /// The first client past the chain that is no promise, once a call
    /// has followed it (later calls go there at once).
    end: OnceLock<Client>,
}

/// Where a promise's resolution comes from.
enum Source {
    /// Set once by [`Promise::resolve`]: by a connection (a capability
    /// of a call not yet returned, which waits on it through a weak
    /// reference), or by the task of [`Client::from_promise`].
    Cell {
        slot: OnceLock<Result<Client>>,
        resolved: tokio::sync::Notify,
        /// Calls made before the resolution, in order (`from_promise`'s
        /// promises only). The slot is set under this lock, once the
        /// queue is empty: a call sees either the queue or the slot.
        queue: Option<Mutex<VecDeque<QueuedCall>>>,
        /// Never sent: dropped with the promise, it tells the task of
        /// [`Client::from_promise`] that no one waits for the resolution.
        _alive: Option<oneshot::Sender<()>>,
    },
    /// The outcome of a future, shared by its awaiters (a capability of
    /// a local call's pipeline). `None` only while the promise is dropped.
    Future(Option<Shared<BoxFuture<Result<Client>>>>),
}

/// The most links of a promise chain a call follows. Past it (a chain
/// that long, or a promise that resolves to itself through others) the
/// call fails: a cycle must not spin forever.
pub(crate) const MAX_PROMISE_CHAIN: usize = 1 << 20;

/// The most calls a promise of [`Client::from_promise`] queues before it
/// resolves. A call past it fails as overloaded.
pub const MAX_QUEUED_CALLS: usize = 16384;

/// A call made on a promise before its resolution: sent there when it
/// comes, its response and pipeline handed to the caller's futures.
struct QueuedCall {
    /// Aimed at nothing while queued: a target naming the promise would
    /// keep it alive from its own queue.
    request: Request,
    response: oneshot::Sender<ResponseFuture>,
    pipeline: oneshot::Sender<Pipeline>,
}

impl QueuedCall {
    /// Sends the call to `target`, unless its caller has gone.
    fn deliver(self, target: &Client) {
        if self.response.is_closed() && self.pipeline.is_closed() {
            return;
        }
        let mut request = self.request;
        request.target = target.clone();
        let sent = request.send();
        let _ = self.response.send(sent.response);
        let _ = self.pipeline.send(sent.pipeline);
    }
}

/// How far a promise's chain is known now.
pub(crate) enum Now {
    /// Its end: a client that is no promise.
    End(Client),
    /// The first link not resolved yet.
    Pending(Arc<Promise>),
}

/// What [`Promise::enqueue`] did with a call.
pub(crate) enum Enqueued {
    Queued(Sent),
    /// The promise resolved meanwhile: the chain is to be looked at again.
    Resolved(Request),
    /// The promise has no queue: the call waits for the resolution itself.
    NoQueue(Request),
}

fn lock(queue: &Mutex<VecDeque<QueuedCall>>) -> std::sync::MutexGuard<'_, VecDeque<QueuedCall>> {
    // No code panics while holding it; the queue stays whole.
    queue.lock().unwrap_or_else(|p| p.into_inner())
}

impl Promise {
    fn with_source(source: Source) -> Arc<Self> {
        Arc::new(Promise {
            id: NEXT_SERVER_ID.fetch_add(1, Ordering::Relaxed),
            source,
            end: OnceLock::new(),
        })
    }

    /// A promise resolved by [`resolve`](Self::resolve); calls on it wait
    /// for the resolution each.
    pub(crate) fn cell() -> Arc<Self> {
        Self::with_source(Source::Cell {
            slot: OnceLock::new(),
            resolved: tokio::sync::Notify::new(),
            queue: None,
            _alive: None,
        })
    }

    /// A promise resolved by [`resolve`](Self::resolve) that queues the
    /// calls made on it until then.
    /// Also returns what ends when the promise is dropped.
    fn queued() -> (Arc<Self>, oneshot::Receiver<()>) {
        let (alive, gone) = oneshot::channel();
        let promise = Self::with_source(Source::Cell {
            slot: OnceLock::new(),
            resolved: tokio::sync::Notify::new(),
            queue: Some(Mutex::new(VecDeque::new())),
            _alive: Some(alive),
        });
        (promise, gone)
    }

    /// A promise of what `resolution` gives.
    pub(crate) fn new(resolution: BoxFuture<Result<Client>>) -> Arc<Self> {
        Self::with_source(Source::Future(Some(resolution.shared())))
    }

    /// Whether calls made on it queue until it resolves (and a
    /// connection exports it as a promise, with a `Resolve` to follow).
    pub(crate) fn queues(&self) -> bool {
        matches!(&self.source, Source::Cell { queue: Some(_), .. })
    }

    /// Resolves a promise made by [`cell`](Self::cell) or
    /// [`queued`](Self::queued), once (a second resolution is dropped).
    /// The calls queued go to the resolution first, in order; calls made
    /// meanwhile queue behind them.
    pub(crate) fn resolve(&self, resolution: Result<Client>) {
        let Source::Cell {
            slot,
            resolved,
            queue,
            ..
        } = &self.source
        else {
            return;
        };
        // A cycle through promises that queue would pass their calls
        // round forever; other cycles fail where a call follows them.
        let resolution = match resolution {
            Ok(client) if queue.is_some() && self.leads_back(&client) => Err(Error::failed(
                "a promise resolved to itself (a cycle of promises)",
            )),
            other => other,
        };
        match queue {
            None => {
                let _ = slot.set(resolution);
            }
            Some(queue) => {
                let target = match &resolution {
                    Ok(client) => client.clone(),
                    Err(e) => Client::broken(e.clone()),
                };
                loop {
                    let batch = {
                        let mut calls = lock(queue);
                        if calls.is_empty() {
                            let _ = slot.set(resolution);
                            break;
                        }
                        std::mem::take(&mut *calls)
                    };
                    for call in batch {
                        call.deliver(&target);
                    }
                }
            }
        }
        resolved.notify_waiters();
    }

    /// Whether `client`'s chain, as far as it is resolved, reaches this
    /// promise.
    fn leads_back(&self, client: &Client) -> bool {
        let Hook::Promise(first) = &client.hook else {
            return false;
        };
        let mut current = Arc::clone(first);
        for _ in 0..MAX_PROMISE_CHAIN {
            if std::ptr::eq(Arc::as_ptr(&current), self) {
                return true;
            }
            if current.end.get().is_some() {
                return false;
            }
            match current.peek() {
                Some(Ok(Client {
                    hook: Hook::Promise(p),
                })) => current = p,
                _ => return false,
            }
        }
        true
    }

    /// The resolution of this link, if it is in.
    fn peek(&self) -> Option<Result<Client>> {
        match &self.source {
            Source::Cell { slot, .. } => slot.get().cloned(),
            Source::Future(Some(f)) => f.peek().cloned(),
            Source::Future(None) => Some(Err(Error::failed("a promise read while dropped"))),
        }
    }

    /// The chain as far as it is resolved now, followed in a loop: its
    /// end, or its first link still pending. A call on a promise whose
    /// end is known goes there directly (a promise that resolved to a
    /// local object is called locally).
    pub(crate) fn resolved_now(self: &Arc<Self>) -> Now {
        if let Some(end) = self.end.get() {
            return Now::End(end.clone());
        }
        let mut current = Arc::clone(self);
        // The links walked past: each learns the end too, so the next
        // walk from any of them is short (a chain is walked once).
        let mut walked = Vec::new();
        for _ in 0..MAX_PROMISE_CHAIN {
            let next = match current.peek() {
                None => return Now::Pending(current),
                Some(Err(e)) => Client::broken(e),
                Some(Ok(next)) => next,
            };
            let end = match next.hook {
                Hook::Promise(p) => match p.end.get() {
                    Some(end) => end.clone(),
                    None => {
                        walked.push(std::mem::replace(&mut current, p));
                        continue;
                    }
                },
                hook => Client { hook },
            };
            let _ = current.end.set(end.clone());
            for link in &walked {
                let _ = link.end.set(end.clone());
            }
            return Now::End(end);
        }
        Now::End(Client::broken(chain_too_long()))
    }

    /// Queues `request` until the promise resolves, when it has a queue.
    pub(crate) fn enqueue(self: &Arc<Self>, mut request: Request) -> Enqueued {
        let Source::Cell {
            slot,
            queue: Some(queue),
            ..
        } = &self.source
        else {
            return Enqueued::NoQueue(request);
        };
        let mut calls = lock(queue);
        if slot.get().is_some() {
            return Enqueued::Resolved(request);
        }
        if calls.len() >= MAX_QUEUED_CALLS {
            return Enqueued::Queued(Sent::failed(Error::overloaded(format!(
                "{} calls queued on a promise not resolved yet, the limit (MAX_QUEUED_CALLS)",
                calls.len()
            ))));
        }
        // No allocation: an empty reason.
        request.target = Client::broken(Error::failed(String::new()));
        let (response_tx, response_rx) = oneshot::channel();
        let (pipeline_tx, pipeline_rx) = oneshot::channel();
        calls.push_back(QueuedCall {
            request,
            response: response_tx,
            pipeline: pipeline_tx,
        });
        drop(calls);
        Enqueued::Queued(Sent::deferred(Arc::clone(self), response_rx, pipeline_rx))
    }

    /// What this promise resolves to (one link of its chain).
    async fn next(&self) -> Result<Client> {
        match &self.source {
            Source::Cell { slot, resolved, .. } => loop {
                if let Some(r) = slot.get() {
                    return r.clone();
                }
                let mut notified = std::pin::pin!(resolved.notified());
                notified.as_mut().enable();
                if let Some(r) = slot.get() {
                    return r.clone();
                }
                notified.await;
            },
            Source::Future(Some(f)) => f.clone().await,
            Source::Future(None) => Err(Error::failed("a promise awaited while dropped")),
        }
    }

    /// Unhooks the promise this one resolved to, if any.
    fn take_next(&mut self) -> Option<Arc<Promise>> {
        match &mut self.source {
            Source::Cell { slot, .. } => match slot.take() {
                Some(Ok(Client {
                    hook: Hook::Promise(p),
                })) => Some(p),
                _ => None,
            },
            Source::Future(future) => {
                let shared = future.take()?;
                let link = match shared.peek() {
                    Some(Ok(Client {
                        hook: Hook::Promise(p),
                    })) => Some(Arc::clone(p)),
                    _ => None,
                };
                // Drops this link's copy of the next one (unless another
                // awaiter holds the future): ours is left.
                drop(shared);
                link
            }
        }
    }
}

fn chain_too_long() -> Error {
    Error::failed(format!(
        "a promise chain of more than {MAX_PROMISE_CHAIN} links (or a cycle)"
    ))
}

/// The client at the end of `promise`'s chain: the first that is not a
/// promise, followed link by link in one loop.
pub(crate) async fn follow(promise: Arc<Promise>) -> Result<Client> {
    if let Some(end) = promise.end.get() {
        return Ok(end.clone());
    }
    let mut current = Arc::clone(&promise);
    for _ in 0..MAX_PROMISE_CHAIN {
        let next = current.next().await?;
        let next = match next.hook {
            Hook::Promise(p) => match p.end.get() {
                Some(end) => end.clone(),
                None => {
                    current = p;
                    continue;
                }
            },
            hook => Client { hook },
        };
        // Another caller may have set it first: the same client.
        let _ = promise.end.set(next.clone());
        return Ok(next);
    }
    Err(chain_too_long())
}

impl Drop for Promise {
    /// Drops the chain behind this promise link by link: each link this
    /// promise held last is unhooked from its resolution before it goes,
    /// so no drop reaches the next link from inside the previous one.
    fn drop(&mut self) {
        let mut next = self.take_next();
        while let Some(link) = next.take() {
            if let Some(mut last) = Arc::into_inner(link) {
                next = last.take_next();
            }
        }
    }
}

/// Resolves its promise with an error if the task of
/// [`Client::from_promise`] ends without a resolution (its future
/// panicked, or the runtime shut down).
struct ResolveOnDrop {
    promise: Weak<Promise>,
    resolution: Option<Result<Client>>,
}

impl Drop for ResolveOnDrop {
    fn drop(&mut self) {
        let resolution = self.resolution.take().unwrap_or_else(|| {
            Err(Error::failed(
                "the future of a promise client ended without a resolution",
            ))
        });
        if let Some(promise) = self.promise.upgrade() {
            promise.resolve(resolution);
        }
    }
}

impl Client {
    /// A capability that `resolution` gives later: a promise client.
    ///
    /// Calls made on it before `resolution` is ready queue, in order, and
    /// go to the client it gives once it is, before any later call. An
    /// `Err` breaks them: each fails with that error. Passed to a peer,
    /// it is exported as a promise, and the peer is sent a `Resolve`
    /// when it resolves. Once resolved, calls go straight to the
    /// resolution: to a local server, they are local calls.
    ///
    /// This is capnp-rpc's `new_promise_client`, the reference's
    /// `newPromiseClient`. `resolution` runs in a task of its own, and is
    /// dropped unfinished once every clone of the client, and every
    /// call made on it, is gone.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use capnarena_rpc::{BoxFuture, Client, Params, Results, Server};
    /// # struct Echo;
    /// # impl Server for Echo {
    /// #     fn dispatch(self: Arc<Self>, _: u64, _: u16, _: Params, r: Results)
    /// #         -> BoxFuture<capnarena_rpc::Result<Results>> { Box::pin(async move { Ok(r) }) }
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> capnarena_rpc::Result<()> {
    /// let (tx, rx) = tokio::sync::oneshot::channel::<Client>();
    /// let later = Client::from_promise(async move {
    ///     rx.await.map_err(|_| capnarena_rpc::Error::failed("never resolved"))
    /// });
    /// // Queued until the resolution comes.
    /// let early = later.new_call(0x1234, 0).send();
    /// tx.send(Client::from_server(Echo)).ok();
    /// early.response.await?;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Panics
    /// Outside a tokio runtime (the resolution runs in a task).
    pub fn from_promise<F>(resolution: F) -> Client
    where
        F: Future<Output = Result<Client>> + Send + 'static,
    {
        let (promise, gone) = Promise::queued();
        let guard = ResolveOnDrop {
            promise: Arc::downgrade(&promise),
            resolution: None,
        };
        tokio::spawn(async move {
            // Moved whole into the task: it resolves when the task ends.
            let mut guard = guard;
            let resolved = async move {
                match resolution.await {
                    // A promise that does not queue is waited for here:
                    // what a queuing promise resolves to delivers calls in
                    // order.
                    Ok(Client {
                        hook: Hook::Promise(p),
                    }) if !p.queues() => follow(p).await,
                    other => other,
                }
            };
            tokio::select! {
                resolution = resolved => guard.resolution = Some(resolution),
                // Every client and call of the promise is gone: the
                // future is dropped, unfinished.
                _ = gone => {}
            }
        });
        Client {
            hook: Hook::Promise(promise),
        }
    }
}
