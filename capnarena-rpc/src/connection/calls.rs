//! The calls a connection answers, run by one task of the connection (its
//! call runner) rather than a task each: the futures of the servers sit in
//! reused slots, each slot with a waker made once, so that after warm-up
//! starting, running and ending a call allocates nothing of its own (the
//! future a server returns is the server's).
//!
//! A slot's waker queues the slot on the runner's ready list and wakes the
//! runner, which polls the queued futures outside every lock; a call done
//! is answered from there. Canceling a call drops its future (at once, or
//! after the poll it is in).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll, Wake, Waker};

use futures_util::task::AtomicWaker;

use super::{AnswerKey, Conn};
use crate::client::{BoxFuture, Results};
use crate::error::{Error, Result};

/// A running call's slot, named with the slot's generation (a slot is
/// reused once its call is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CallId {
    index: u32,
    generation: u64,
}

/// The calls of a connection.
pub(super) struct Calls {
    slots: Mutex<Slots>,
    /// The runner's waker.
    runner: AtomicWaker,
}

struct Slots {
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// Slots woken and not yet polled.
    ready: Vec<u32>,
    /// The connection has ended: the runner stops.
    closed: bool,
}

struct Slot {
    /// The call's future; out of the slot while the runner polls it.
    future: Option<BoxFuture<Result<Results>>>,
    answer: AnswerKey,
    generation: u64,
    /// In use by a call.
    busy: bool,
    /// Canceled while being polled: dropped after the poll.
    canceled: bool,
    waker: Arc<SlotWaker>,
}

/// Wakes one slot (made once per slot, reused by its calls; a wake meant
/// for an earlier call of the slot polls the next one once more, which a
/// future allows).
struct SlotWaker {
    index: u32,
    queued: AtomicBool,
    conn: Weak<Conn>,
}

impl Wake for SlotWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if self.queued.swap(true, Ordering::AcqRel) {
            return;
        }
        if let Some(conn) = self.conn.upgrade() {
            conn.calls.lock().ready.push(self.index);
            conn.calls.runner.wake();
        }
    }
}

impl Calls {
    pub(super) fn new() -> Self {
        Calls {
            slots: Mutex::new(Slots {
                slots: Vec::new(),
                free: Vec::new(),
                ready: Vec::new(),
                closed: false,
            }),
            runner: AtomicWaker::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Slots> {
        // Only whole changes are made under the lock (no code in it
        // panics), so a poisoned lock still holds a usable table.
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Conn {
    /// Runs `future`, the call of `answer`, on the call runner;
    /// its end sends the return. `None` once the connection has ended (the
    /// future is dropped).
    pub(super) fn start_future(
        self: &Arc<Self>,
        answer: AnswerKey,
        future: BoxFuture<Result<Results>>,
    ) -> Option<CallId> {
        let mut slots = self.calls.lock();
        if slots.closed {
            drop(slots);
            drop(future);
            return None;
        }
        let index = match slots.free.pop() {
            Some(i) => i,
            None => {
                let index = slots.slots.len() as u32;
                let waker = Arc::new(SlotWaker {
                    index,
                    queued: AtomicBool::new(false),
                    conn: Arc::downgrade(self),
                });
                slots.slots.push(Slot {
                    future: None,
                    answer,
                    generation: 0,
                    busy: false,
                    canceled: false,
                    waker,
                });
                index
            }
        };
        let slot = &mut slots.slots[index as usize];
        slot.future = Some(future);
        slot.answer = answer;
        slot.generation += 1;
        slot.busy = true;
        slot.canceled = false;
        let id = CallId {
            index,
            generation: slot.generation,
        };
        let first = !slot.waker.queued.swap(true, Ordering::AcqRel);
        if first {
            slots.ready.push(index);
        }
        drop(slots);
        self.calls.runner.wake();
        Some(id)
    }

    /// Cancels call `id`: returns its future, to drop once no lock is held
    /// (dropping it may release capabilities), or marks it to be dropped
    /// after the poll it is in.
    pub(super) fn cancel_future(&self, id: CallId) -> Option<BoxFuture<Result<Results>>> {
        let mut slots = self.calls.lock();
        let slot = slots.slots.get_mut(id.index as usize)?;
        if !slot.busy || slot.generation != id.generation {
            return None;
        }
        match slot.future.take() {
            Some(future) => {
                slot.busy = false;
                slots.free.push(id.index);
                Some(future)
            }
            None => {
                slot.canceled = true;
                None
            }
        }
    }

    /// Ends the runner and cancels every call: returns the futures, to
    /// drop once no lock is held.
    pub(super) fn close_calls(&self) -> Vec<BoxFuture<Result<Results>>> {
        let mut slots = self.calls.lock();
        slots.closed = true;
        let mut futures = Vec::new();
        let Slots {
            slots: all, free, ..
        } = &mut *slots;
        for (i, slot) in all.iter_mut().enumerate() {
            if !slot.busy {
                continue;
            }
            match slot.future.take() {
                Some(f) => {
                    futures.push(f);
                    slot.busy = false;
                    free.push(i as u32);
                }
                None => slot.canceled = true,
            }
        }
        drop(slots);
        self.calls.runner.wake();
        futures
    }

    /// The call runner: polls the futures of the slots woken, answers the
    /// calls done; ends when the connection does.
    pub(super) async fn run_calls(self: Arc<Self>) {
        let mut batch = Vec::new();
        std::future::poll_fn(|cx| self.poll_calls(cx, &mut batch)).await;
    }

    fn poll_calls(self: &Arc<Self>, cx: &mut Context<'_>, batch: &mut Vec<u32>) -> Poll<()> {
        self.calls.runner.register(cx.waker());
        {
            let mut slots = self.calls.lock();
            if slots.closed {
                return Poll::Ready(());
            }
            // Both lists keep their capacity: no allocation once warm.
            std::mem::swap(batch, &mut slots.ready);
        }
        for index in batch.drain(..) {
            let taken = {
                let mut slots = self.calls.lock();
                let Some(slot) = slots.slots.get_mut(index as usize) else {
                    continue;
                };
                slot.waker.queued.store(false, Ordering::Release);
                match slot.future.take() {
                    Some(f) => Some((f, Arc::clone(&slot.waker), slot.answer)),
                    None => None,
                }
            };
            let Some((mut future, waker, answer)) = taken else {
                continue;
            };
            let waker = Waker::from(waker);
            // A server's future that panics fails its call (and only it:
            // the runner goes on with the connection's other calls).
            let polled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                future.as_mut().poll(&mut Context::from_waker(&waker))
            }))
            .unwrap_or_else(|_| Poll::Ready(Err(Error::failed("the server's future panicked"))));
            let mut slots = self.calls.lock();
            let slot = &mut slots.slots[index as usize];
            match polled {
                Poll::Pending if !slot.canceled => {
                    slot.future = Some(future);
                    continue;
                }
                _ => {
                    let canceled = slot.canceled;
                    slot.busy = false;
                    slot.canceled = false;
                    slots.free.push(index);
                    drop(slots);
                    drop(future);
                    if let (Poll::Ready(result), false) = (polled, canceled) {
                        self.answer(answer, result);
                    }
                }
            }
        }
        // More woken meanwhile: polled on the next turn, after the other
        // tasks of the runtime have had theirs.
        if !self.calls.lock().ready.is_empty() {
            cx.waker().wake_by_ref();
        }
        Poll::Pending
    }
}
