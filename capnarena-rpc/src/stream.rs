//! Flow control of streaming calls (methods declared `-> stream`): a
//! window of bytes in flight per capability. A streaming call's `send()`
//! returns once the call is on its way and the window has room, not when
//! it returns; a failed call fails the calls sent after it and
//! [`StreamFlow::finish`].

use std::sync::{Arc, Mutex, MutexGuard};

use capnarena::typed::{AnyPointer, Owned};
use tokio::sync::Notify;

use crate::typed::TypedRequest;
use crate::{Error, Pipeline, Result};

/// The window of a new [`StreamFlow`]: bytes of call messages in flight.
pub const DEFAULT_STREAM_WINDOW: usize = 64 * 1024;

/// The streaming calls in flight to one capability, and their window.
/// Clones share it (a generated client's clones share one).
#[derive(Clone)]
pub struct StreamFlow {
    inner: Arc<Shared>,
}

struct Shared {
    window: usize,
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Default)]
struct State {
    /// Bytes of the messages of calls sent and not returned.
    bytes: usize,
    /// Calls sent and not returned.
    calls: usize,
    /// The first failure of a streaming call.
    error: Option<Error>,
}

impl Default for StreamFlow {
    fn default() -> Self {
        Self::new(DEFAULT_STREAM_WINDOW)
    }
}

impl std::fmt::Debug for StreamFlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let st = self.lock();
        write!(
            f,
            "StreamFlow({} calls, {} of {} bytes)",
            st.calls, st.bytes, self.inner.window
        )
    }
}

impl StreamFlow {
    /// Flow control with a window of `window` bytes (at least one call is
    /// always let through, however large).
    pub fn new(window: usize) -> Self {
        StreamFlow {
            inner: Arc::new(Shared {
                window,
                state: Mutex::new(State::default()),
                changed: Notify::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state is counters only: a panic elsewhere leaves them usable.
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes of streaming calls in flight.
    pub fn in_flight(&self) -> usize {
        self.lock().bytes
    }

    /// The window, in bytes.
    pub fn window(&self) -> usize {
        self.inner.window
    }

    /// Sends `request` once the window has room for its message (or no
    /// call is in flight); returns when it is sent. Its return, in a task
    /// of its own, frees its bytes.
    ///
    /// # Errors
    /// An earlier streaming call on this flow failed.
    pub async fn send<P: Owned>(
        &self,
        request: TypedRequest<P, AnyPointer, Pipeline>,
    ) -> Result<()> {
        let size = request.message_bytes();
        loop {
            let changed = self.inner.changed.notified();
            {
                let mut st = self.lock();
                if let Some(e) = &st.error {
                    return Err(e.clone());
                }
                if st.calls == 0 || st.bytes + size <= self.inner.window {
                    st.bytes += size;
                    st.calls += 1;
                    break;
                }
            }
            changed.await;
        }
        let response = request.send().response;
        let flow = self.clone();
        tokio::spawn(async move {
            let outcome = response.await;
            let mut st = flow.lock();
            st.bytes -= size;
            st.calls -= 1;
            if let Err(e) = outcome {
                st.error.get_or_insert(e);
            }
            drop(st);
            flow.inner.changed.notify_waiters();
        });
        Ok(())
    }

    /// Waits until every streaming call sent has returned.
    ///
    /// # Errors
    /// One of them failed (the first failure).
    pub async fn finish(&self) -> Result<()> {
        loop {
            let changed = self.inner.changed.notified();
            {
                let st = self.lock();
                if let Some(e) = &st.error {
                    return Err(e.clone());
                }
                if st.calls == 0 {
                    return Ok(());
                }
            }
            changed.await;
        }
    }
}

/// A streaming call being built: `get()` its parameters, then
/// `send().await` (flow-controlled by the capability's [`StreamFlow`]).
pub struct StreamRequest<P> {
    request: TypedRequest<P, AnyPointer, Pipeline>,
    flow: StreamFlow,
}

impl<P: Owned> StreamRequest<P> {
    /// A streaming call of `request`, flow-controlled by `flow`.
    pub fn new(request: TypedRequest<P, AnyPointer, Pipeline>, flow: &StreamFlow) -> Self {
        StreamRequest {
            request,
            flow: flow.clone(),
        }
    }

    /// The parameters, to build in place.
    ///
    /// # Errors
    /// The message's arena has no room.
    pub fn get(&mut self) -> Result<P::Builder<'_, crate::CallArena>> {
        self.request.get()
    }

    /// Adds `cap` to the parameters' capabilities (see
    /// [`TypedRequest::add_cap`]).
    pub fn add_cap(&mut self, cap: impl crate::FromClient) -> u32 {
        self.request.add_cap(cap)
    }

    /// Sends the call once the window has room (see [`StreamFlow::send`]).
    ///
    /// # Errors
    /// An earlier streaming call on the capability failed.
    pub async fn send(self) -> Result<()> {
        self.flow.send(self.request).await
    }
}
