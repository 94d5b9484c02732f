//! The connection's reader and writer tasks: frames read off the stream
//! and handled one by one, queued messages written with every wait on
//! the peer bounded.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::task::Poll;
use std::time::Duration;

use capnarena::serialize::codec::FramedCodec;
use futures_util::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, watch};
use tokio_util::codec::FramedRead;

use super::{Conn, Outgoing, POOL_SIZE, Violation};
use crate::error::Error;

pub(super) async fn read_loop<R: AsyncRead + Unpin + Send + 'static>(conn: Arc<Conn>, read: R) {
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
                conn.aborted.send_replace(true);
                conn.send_abort(&e);
            }
            Err(e)
        }
    };
    let _ = conn.out.send(Outgoing::Shutdown);
    let _ = conn.done.send(Some(result));
}

/// The writer task's side of a connection.
pub(super) struct Writer {
    pub(super) conn: Weak<Conn>,
    pub(super) timeout: Option<Duration>,
    pub(super) aborted: watch::Receiver<bool>,
}

/// Why a write did not complete.
enum Stop {
    Io(std::io::Error),
    /// It waited longer than `write_timeout` for the peer to read.
    TimedOut(Duration),
    /// The connection was aborted while it waited.
    Aborted,
}

impl Writer {
    /// Writes the queued messages until the connection ends, then closes
    /// the stream. Every wait on the peer is bounded by the timeout, and
    /// an abort cuts a waiting write short; either way the stream is
    /// dropped and what is queued freed.
    pub(super) async fn run<W: AsyncWrite + Unpin + Send + 'static>(
        mut self,
        write: W,
        mut rx: mpsc::UnboundedReceiver<Outgoing>,
    ) {
        let mut write = tokio::io::BufWriter::new(write);
        let mut clean = true;
        while let Some(out) = rx.recv().await {
            let (mut msg, abort) = match out {
                Outgoing::Message(m) => (m, false),
                Outgoing::Abort(m) => (m, true),
                Outgoing::Shutdown => break,
            };
            let size = msg.serialized_size();
            let written = if abort || !*self.aborted.borrow() {
                let bytes = match msg.framed_bytes() {
                    Ok(bytes) => std::borrow::Cow::Borrowed(bytes),
                    Err(_) => {
                        let mut bytes = Vec::new();
                        msg.append_to(&mut bytes);
                        std::borrow::Cow::Owned(bytes)
                    }
                };
                self.bounded(write.write_all(&bytes), !abort).await
            } else {
                // Aborted: what was queued before the `Abort` is dropped.
                Ok(())
            };
            let Some(c) = self.conn.upgrade() else { break };
            c.queued.fetch_sub(size, Ordering::Relaxed);
            msg.reset();
            {
                let mut pool = c.pool.lock().unwrap_or_else(|p| p.into_inner());
                if pool.len() < POOL_SIZE {
                    pool.push(msg);
                }
            }
            let flushed = match written {
                Ok(()) if rx.is_empty() => self.bounded(write.flush(), !abort).await,
                other => other,
            };
            if let Err(stop) = flushed {
                clean = false;
                if let Some(e) = self.error(stop) {
                    c.fail_later(e);
                }
                break;
            }
        }
        // What is still queued is dropped now, its bytes uncounted.
        rx.close();
        let conn = self.conn.upgrade();
        while let Ok(out) = rx.try_recv() {
            if let (Outgoing::Message(m) | Outgoing::Abort(m), Some(c)) = (&out, &conn) {
                c.queued.fetch_sub(m.serialized_size(), Ordering::Relaxed);
            }
        }
        drop(conn);
        if clean {
            let _ = self.bounded(write.flush(), false).await;
            let _ = self.bounded(write.shutdown(), false).await;
        }
    }

    /// Runs the write `io`: at once when it can go on, else within the
    /// timeout and (when `interruptible`) until the connection is aborted.
    async fn bounded(
        &mut self,
        io: impl Future<Output = std::io::Result<()>>,
        interruptible: bool,
    ) -> std::result::Result<(), Stop> {
        let mut io = std::pin::pin!(io);
        // Polled once first: a write that does not wait touches no timer.
        let first = std::future::poll_fn(|cx| Poll::Ready(io.as_mut().poll(cx))).await;
        if let Poll::Ready(result) = first {
            return result.map_err(Stop::Io);
        }
        let aborted = async {
            if interruptible {
                let _ = self.aborted.wait_for(|a| *a).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        let deadline = async {
            match self.timeout {
                Some(t) => tokio::time::sleep(t).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            result = io => result.map_err(Stop::Io),
            () = aborted => Err(Stop::Aborted),
            () = deadline => Err(Stop::TimedOut(self.timeout.unwrap_or_default())),
        }
    }

    /// The error that ends the connection for `stop` (none for an abort:
    /// the connection has ended already).
    fn error(&self, stop: Stop) -> Option<Error> {
        match stop {
            Stop::Io(e) => Some(e.into()),
            Stop::TimedOut(t) => Some(Error::overloaded(format!(
                "a write waited {} ms for the peer to read, the limit (write_timeout)",
                t.as_millis()
            ))),
            Stop::Aborted => None,
        }
    }
}
