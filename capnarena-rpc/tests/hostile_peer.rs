//! A hostile peer over loopback TCP, writing raw rpc.capnp messages, tries
//! to take the process down: deep promise chains (called, and dropped),
//! floods of bootstraps and resolves, capabilities kept waiting, a socket
//! never read, and every limit of `Options` at its edge.
//!
//! The server runs on a multi-thread tokio runtime whose workers have
//! 2 MiB stacks (tokio's default), so a recursion per link of a chain
//! would overflow there and abort the test binary. Each test checks:
//! - the connection ends (or goes on) as the limits say, with the reason;
//! - the heap's peak, counted by this binary's global allocator, stays
//!   within a bound the test states;
//! - every table of the connection is empty after;
//! - a good client on another connection is still served.
//!
//! The tests run one at a time (they share the allocator's counters).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use capnarena::serialize::codec::{Frame, FramedCodec};
use capnarena::{Message, SingleSegmentArena, StructSize};
use capnarena_rpc::rpc_capnp::{message, return_};
use capnarena_rpc::{
    BoxFuture, Client, Connection, Error, ErrorKind, Options, Params, Results, Server, Stats,
};
use common::{COUNTER, ECHO_CAP, INCREMENT, MAKE_COUNTER, TEST, WAIT};
use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::FramedRead;

// ---------------------------------------------------------------------
// The heap, counted: bytes in use and their peak.

struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(bytes: usize) {
    let now = IN_USE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: defers every operation to the system allocator unchanged; only
// counts the bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `System` with `layout` (above).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
            grow(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One test at a time: the counters are the process's.
static SERIAL: Mutex<()> = Mutex::new(());

/// Runs `test` on a runtime whose two workers have 2 MiB stacks, alone;
/// returns the heap's growth at its peak, in bytes, over what was in use
/// when it began.
fn run<F: std::future::Future<Output = ()> + Send + 'static>(test: impl FnOnce() -> F) -> usize {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(2 << 20)
        .enable_all()
        .build()
        .unwrap();
    let base = IN_USE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    // On a worker too: the test's own drops run on a 2 MiB stack.
    runtime.block_on(async { tokio::spawn(test()).await.unwrap() });
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    drop(runtime);
    println!("heap peak: {} KiB over the start", peak >> 10);
    peak
}

// ---------------------------------------------------------------------
// The server.

/// `Test` (common's ids: add, echo a capability, make a counter, wait
/// forever) plus `GATE`, which waits until the gate opens and then
/// answers with a capability to this server, and `BIG`, which answers
/// with a data field of a given size.
#[derive(Default)]
struct Hostile {
    gate: tokio::sync::Notify,
    open: AtomicBool,
    waits_dropped: Arc<AtomicUsize>,
}

const GATE: u16 = 6;
const BIG: u16 = 7;

impl Hostile {
    fn open_gate(&self) {
        self.open.store(true, Ordering::SeqCst);
        self.gate.notify_waiters();
    }
}

/// Counts a drop (a waiting call's future was dropped).
struct DropCount(Arc<AtomicUsize>);

impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Server for Hostile {
    fn dispatch(
        self: Arc<Self>,
        interface_id: u64,
        method_id: u16,
        params: Params,
        mut results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        Box::pin(async move {
            match method_id {
                0 => {
                    let sum = common::word(&params, 0)?.wrapping_add(common::word(&params, 1)?);
                    common::answer_u64(&mut results, sum)?;
                }
                ECHO_CAP => common::answer_cap(&mut results, common::cap0(&params)?)?,
                MAKE_COUNTER => {
                    common::answer_cap(&mut results, Client::from_server(common::Counter::new(0)))?
                }
                WAIT => {
                    let _guard = DropCount(Arc::clone(&self.waits_dropped));
                    std::future::pending::<()>().await;
                }
                GATE => {
                    loop {
                        let notified = self.gate.notified();
                        if self.open.load(Ordering::SeqCst) {
                            break;
                        }
                        notified.await;
                    }
                    common::answer_cap(&mut results, Client::from_arc(self))?;
                }
                BIG => {
                    let len = common::word(&params, 0)? as u32;
                    results
                        .content()?
                        .init_struct(StructSize::new(0, 1))?
                        .pointer(0)
                        .init_data(len)?;
                }
                _ => return Err(Error::method_not_implemented(interface_id, method_id)),
            }
            Ok(results)
        })
    }
}

/// A stream that notes when it is dropped (the connection let go of its
/// socket).
struct Tracked {
    inner: TcpStream,
    dropped: Arc<AtomicBool>,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::SeqCst);
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A connected pair over loopback TCP: the server's end (tracked) and
/// the peer's.
async fn tcp_pair() -> (Tracked, Arc<AtomicBool>, TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (peer, accepted) = tokio::join!(TcpStream::connect(addr), listener.accept());
    let dropped = Arc::new(AtomicBool::new(false));
    let server = Tracked {
        inner: accepted.unwrap().0,
        dropped: Arc::clone(&dropped),
    };
    (server, dropped, peer.unwrap())
}

/// A well-behaved client on a connection of its own to `server` gets an
/// answer, and both sides' tables empty after.
async fn good_client_is_served(server: Arc<Hostile>) {
    let (ours, _, theirs) = tcp_pair().await;
    let s = Connection::new(ours, Some(Client::from_arc(server)), Options::default());
    let c = Connection::new(theirs, None, Options::default());
    let sum = common::add(&c.bootstrap(), 40, 2).await.unwrap();
    assert_eq!(sum, 42);
    let (a, b) = common::settle(&s, &c).await;
    assert_eq!((a, b), (Stats::default(), Stats::default()));
    c.shutdown().await.unwrap();
    let _ = s.closed().await;
}

// ---------------------------------------------------------------------
// The peer: raw messages written in batches, and a reader task that
// notes what comes back.

/// What the peer has been sent.
#[derive(Default)]
struct Log {
    returns: usize,
    /// Descriptions of the returns of watched question ids.
    watched: HashMap<u32, String>,
    abort: Option<String>,
    ended: bool,
}

struct Peer {
    write: OwnedWriteHalf,
    batch: Vec<u8>,
    log: Arc<Mutex<Log>>,
    reader: Option<tokio::task::JoinHandle<()>>,
}

/// Where a call goes.
enum To<'a> {
    Export(u32),
    Answer(u32, &'a [u16]),
}

/// A capability descriptor the peer sends.
enum Cap<'a> {
    SenderHosted(u32),
    ReceiverAnswer(u32, &'a [u16]),
}

type Builder<'a> = message::Builder<'a, SingleSegmentArena>;

/// What a frame is, in short: `return <id> results <word 0>`,
/// `return <id> exception <reason>`, `abort: <reason>`.
fn describe(frame: &Frame) -> (Option<u32>, String) {
    let Ok(reader) = frame.reader() else {
        return (None, "unreadable".into());
    };
    let Ok(root) = reader.get_root::<message::Reader>() else {
        return (None, "unreadable".into());
    };
    match root.which() {
        Ok(message::Which::Abort(Ok(e))) => (None, format!("abort: {}", Error::from_exception(e))),
        Ok(message::Which::Return(Ok(r))) => {
            let id = r.get_answer_id();
            let what = match r.which() {
                Ok(return_::Which::Results(Ok(p))) => {
                    let word = p.get_content().get_struct().map(|s| s.get::<u64>(0));
                    format!("results {}", word.unwrap_or(0))
                }
                Ok(return_::Which::Exception(Ok(e))) => {
                    format!("exception {}", Error::from_exception(e))
                }
                Ok(return_::Which::Canceled) => "canceled".into(),
                _ => "other".into(),
            };
            (Some(id), format!("return {id} {what}"))
        }
        _ => (None, "other".into()),
    }
}

impl Peer {
    /// A peer on `stream`, reading what it is sent unless `reads` is
    /// false (then it never reads a byte).
    fn new(stream: TcpStream, watch: &[u32], reads: bool) -> Self {
        let (read, write) = stream.into_split();
        let log = Arc::new(Mutex::new(Log::default()));
        for &id in watch {
            log.lock().unwrap().watched.insert(id, String::new());
        }
        let reader = reads.then(|| {
            let log = Arc::clone(&log);
            tokio::spawn(async move {
                let mut frames = FramedRead::new(read, FramedCodec::new());
                while let Some(Ok(frame)) = frames.next().await {
                    let (id, what) = describe(&frame);
                    let mut log = log.lock().unwrap();
                    if id.is_some() {
                        log.returns += 1;
                    }
                    if let Some(slot) = id.and_then(|id| log.watched.get_mut(&id)) {
                        *slot = what.clone();
                    }
                    if what.starts_with("abort") {
                        log.abort = Some(what);
                    }
                }
                log.lock().unwrap().ended = true;
            })
        });
        Peer {
            write,
            batch: Vec::new(),
            log,
            reader,
        }
    }

    /// Adds a message built by `build` to the batch.
    fn push(&mut self, build: impl FnOnce(Builder<'_>)) {
        let mut msg = Message::new(SingleSegmentArena::new());
        build(msg.init_root::<Builder<'_>>().unwrap());
        msg.append_to(&mut self.batch);
    }

    fn bootstrap(&mut self, q: u32) {
        self.push(|mut m| m.init_bootstrap().unwrap().set_question_id(q));
    }

    /// A call of `method` as question `q` to `to`, with parameters of
    /// two data words and one pointer (capability 0 when `caps` has one).
    fn call(&mut self, q: u32, to: To<'_>, method: u16, words: [u64; 2], caps: &[Cap<'_>]) {
        self.push(|mut m| {
            let mut call = m.init_call().unwrap();
            call.set_question_id(q);
            call.set_interface_id(TEST);
            call.set_method_id(method);
            {
                let mut target = call.init_target().unwrap();
                match to {
                    To::Export(id) => target.set_imported_cap(id),
                    To::Answer(question, transform) => {
                        let mut pa = target.init_promised_answer().unwrap();
                        pa.set_question_id(question);
                        set_transform(&mut pa, transform);
                    }
                }
            }
            let mut params = call.init_params().unwrap();
            {
                let content = params.get_content();
                let mut content = content.init_struct(StructSize::new(2, 1)).unwrap();
                content.set::<u64>(0, words[0]);
                content.set::<u64>(1, words[1]);
                if !caps.is_empty() {
                    content.pointer(0).set_capability(0);
                }
            }
            if !caps.is_empty() {
                let mut table = params.init_cap_table(caps.len() as u32).unwrap();
                for (i, cap) in caps.iter().enumerate() {
                    let mut d = table.get(i as u32);
                    match cap {
                        Cap::SenderHosted(id) => d.set_sender_hosted(*id),
                        Cap::ReceiverAnswer(question, transform) => {
                            let mut pa = d.init_receiver_answer().unwrap();
                            pa.set_question_id(*question);
                            set_transform(&mut pa, transform);
                        }
                    }
                }
            }
        });
    }

    fn finish(&mut self, q: u32) {
        self.push(|mut m| {
            let mut f = m.init_finish().unwrap();
            f.set_question_id(q);
            f.set_release_result_caps(true);
        });
    }

    /// Writes the batch (or fails quietly once the connection is gone).
    async fn flush(&mut self) {
        let _ = self.write.write_all(&self.batch).await;
        self.batch.clear();
        self.batch.shrink_to_fit();
    }

    fn returns(&self) -> usize {
        self.log.lock().unwrap().returns
    }

    fn watched(&self, q: u32) -> String {
        self.log.lock().unwrap().watched[&q].clone()
    }

    /// Waits until the server has closed the stream; the `Abort` read, if
    /// one came.
    async fn ended(&mut self) -> Option<String> {
        if let Some(reader) = self.reader.take() {
            tokio::time::timeout(Duration::from_secs(60), reader)
                .await
                .expect("the server did not close the stream")
                .unwrap();
        }
        self.log.lock().unwrap().abort.clone()
    }
}

fn set_transform(
    pa: &mut capnarena_rpc::rpc_capnp::promised_answer::Builder<'_, SingleSegmentArena>,
    transform: &[u16],
) {
    if transform.is_empty() {
        return;
    }
    let mut ops = pa.init_transform(transform.len() as u32).unwrap();
    for (i, &f) in transform.iter().enumerate() {
        ops.get(i as u32).set_get_pointer_field(f);
    }
}

/// A server connection with a `Hostile` bootstrap and its peer.
async fn serve(options: Options, watch: &[u32], reads: bool) -> Setup {
    let server = Arc::new(Hostile::default());
    let (ours, dropped, theirs) = tcp_pair().await;
    let conn = Connection::new(ours, Some(Client::from_arc(server.clone())), options);
    Setup {
        conn,
        peer: Peer::new(theirs, watch, reads),
        server,
        dropped,
    }
}

struct Setup {
    conn: Connection,
    peer: Peer,
    server: Arc<Hostile>,
    dropped: Arc<AtomicBool>,
}

impl Setup {
    /// The connection has ended with an error of `kind` whose reason has
    /// `needle`, the peer got an `Abort` saying so (when `abort_sent`),
    /// the stream is closed, every table is empty, and a good client is
    /// still served.
    async fn assert_aborted(mut self, kind: ErrorKind, needle: &str, abort_sent: bool) {
        let e = tokio::time::timeout(Duration::from_secs(60), self.conn.closed())
            .await
            .expect("closed() hung")
            .expect_err("the connection should have been aborted");
        assert_eq!(e.kind, kind, "{e}");
        assert!(e.reason.contains(needle), "{e}");
        if abort_sent {
            let abort = self.peer.ended().await.unwrap_or_default();
            assert!(abort.contains(needle), "the abort sent: {abort:?}");
        }
        self.assert_closed_and_empty().await;
    }

    async fn assert_closed_and_empty(self) {
        assert!(
            common::eventually(|| self.dropped.load(Ordering::SeqCst)).await,
            "the stream was not closed"
        );
        assert!(
            common::eventually(|| self.conn.queued_bytes() == 0).await,
            "{} bytes still queued",
            self.conn.queued_bytes()
        );
        assert!(
            common::eventually(|| self.conn.stats() == Stats::default()).await,
            "{:?}",
            self.conn.stats()
        );
        good_client_is_served(self.server).await;
    }
}

// ---------------------------------------------------------------------
// Promise chains.

/// Builds a chain of `links` promises: question 1 waits at the gate;
/// questions 2..=links+1 are calls pipelined on it, each echoing the
/// capability pipelined on the question before (a promise, as that one
/// has not returned). Once the gate opens they return in order, and
/// promise k resolves to promise k-1: the capability of the last
/// question's results is the head of the chain.
async fn promise_chain(links: u32) -> Setup {
    let limit = links as usize + 16;
    let options = Options {
        max_answers: limit,
        max_waiters: limit,
        max_exports: limit,
        ..Options::default()
    };
    let mut s = serve(options, &[links + 2], true).await;
    s.peer.bootstrap(0);
    s.peer.call(1, To::Answer(0, &[]), GATE, [0, 0], &[]);
    for q in 2..links + 2 {
        s.peer.call(
            q,
            To::Answer(1, &[0]),
            ECHO_CAP,
            [0, 0],
            &[Cap::ReceiverAnswer(q - 1, &[0])],
        );
        if q % 4096 == 0 {
            s.peer.flush().await;
        }
    }
    s.peer.flush().await;
    // Every call is in (queued at the gate) before it opens.
    let all = links as usize + 2;
    assert!(
        common::eventually(|| s.conn.stats().answers == all).await,
        "{:?}",
        s.conn.stats()
    );
    s.server.open_gate();
    assert!(
        common::eventually(|| s.peer.returns() == all).await,
        "{} of {all} returns",
        s.peer.returns()
    );
    s
}

/// The chain the limits allow (max_answers of 50,016: ten times the depth
/// that overflowed the worker's stack when a call followed it by
/// recursion), then a call on its head: it reaches the server at the end
/// of the chain and is answered. The heap stays within 4 KiB a link.
#[test]
fn call_on_a_deep_promise_chain() {
    const LINKS: u32 = 50_000;
    let peak = run(|| async {
        let mut s = promise_chain(LINKS).await;
        let q = LINKS + 2;
        s.peer.call(q, To::Answer(q - 1, &[0]), 0, [40, 2], &[]);
        s.peer.flush().await;
        assert!(
            common::eventually(|| !s.peer.watched(q).is_empty()).await,
            "no return for the call on the chain"
        );
        assert_eq!(s.peer.watched(q), format!("return {q} results 42"));
        // The peer leaves: the chain is dropped with the tables.
        drop(s.peer.write);
        tokio::time::timeout(Duration::from_secs(60), s.conn.closed())
            .await
            .expect("closed() hung")
            .unwrap();
        let Setup {
            conn,
            server,
            dropped,
            ..
        } = s;
        Setup {
            conn,
            peer: Peer::new(tcp_pair().await.2, &[], false),
            server,
            dropped,
        }
        .assert_closed_and_empty()
        .await;
    });
    assert!(peak < LINKS as usize * 4096, "{peak} bytes");
}

/// The same chain, never called, dropped when the peer disconnects: the
/// drop undoes it link by link (by recursion, it overflowed the stack at
/// about 20,000 links).
#[test]
fn deep_promise_chain_dropped_on_disconnect() {
    const LINKS: u32 = 50_000;
    let peak = run(|| async {
        let s = promise_chain(LINKS).await;
        let Setup {
            conn,
            peer,
            server,
            dropped,
        } = s;
        drop(peer);
        tokio::time::timeout(Duration::from_secs(60), conn.closed())
            .await
            .expect("closed() hung")
            .unwrap();
        Setup {
            conn,
            peer: Peer::new(tcp_pair().await.2, &[], false),
            server,
            dropped,
        }
        .assert_closed_and_empty()
        .await;
    });
    assert!(peak < LINKS as usize * 4096, "{peak} bytes");
}

// ---------------------------------------------------------------------
// Floods and limits.

/// Bootstraps are answers: the fifth one held with `max_answers` 4
/// aborts, though none is a call.
#[test]
fn bootstraps_count_against_max_answers() {
    run(|| async {
        let options = Options {
            max_answers: 4,
            ..Options::default()
        };
        let mut s = serve(options, &[], true).await;
        for q in 0..5 {
            s.peer.bootstrap(q);
        }
        s.peer.flush().await;
        s.assert_aborted(ErrorKind::Overloaded, "more than 4 calls in flight", true)
            .await;
    });
}

/// 300,000 bootstraps with the default limits: the connection aborts at
/// the 4,097th, holding no more than 4,096 answers (at most 16 MiB of
/// heap in all, where 300,000 held took 220 MB).
#[test]
fn bootstrap_flood_is_bounded() {
    let peak = run(|| async {
        let mut s = serve(Options::default(), &[], true).await;
        for q in 0..300_000 {
            s.peer.bootstrap(q);
            if q % 4096 == 4095 {
                s.peer.flush().await;
            }
        }
        s.peer.flush().await;
        s.assert_aborted(
            ErrorKind::Overloaded,
            "more than 4096 calls in flight",
            true,
        )
        .await;
    });
    assert!(peak < 16 << 20, "{peak} bytes");
}

/// 300,000 `Resolve`s naming the results of a call still running: each
/// capability they name is dropped at once, and its waiter goes with it
/// (amortized), so the connection holds a handful and goes on.
#[test]
fn resolves_on_a_running_call_leave_no_waiters() {
    let peak = run(|| async {
        let mut s = serve(Options::default(), &[], true).await;
        s.peer.bootstrap(0);
        s.peer.call(1, To::Answer(0, &[]), WAIT, [0, 0], &[]);
        for i in 0..300_000u32 {
            s.peer.push(|mut m| {
                let mut r = m.init_resolve().unwrap();
                r.set_promise_id(i);
                let mut cap = r.init_cap().unwrap();
                let mut pa = cap.init_receiver_answer().unwrap();
                pa.set_question_id(1);
            });
            if i % 4096 == 4095 {
                s.peer.flush().await;
            }
        }
        // A call after them: once it has returned, all were handled.
        s.peer.call(2, To::Answer(0, &[]), 0, [1, 2], &[]);
        s.peer.flush().await;
        assert!(common::eventually(|| s.peer.returns() == 2).await);
        let stats = s.conn.stats();
        assert!(stats.waiters <= 16, "{stats:?}");
        assert_eq!(stats.answers, 3, "{stats:?}");
        s.peer.finish(1);
        s.peer.finish(2);
        s.peer.finish(0);
        s.peer.flush().await;
        assert!(
            common::eventually(|| s.conn.stats().answers == 0).await,
            "{:?}",
            s.conn.stats()
        );
        assert_eq!(s.server.waits_dropped.load(Ordering::SeqCst), 1);
        drop(s.peer.write);
        s.conn.closed().await.unwrap();
        let Setup {
            conn,
            server,
            dropped,
            ..
        } = s;
        Setup {
            conn,
            peer: Peer::new(tcp_pair().await.2, &[], false),
            server,
            dropped,
        }
        .assert_closed_and_empty()
        .await;
    });
    assert!(peak < 16 << 20, "{peak} bytes");
}

/// Capabilities kept waiting on a running call (each held by a call
/// that waits too) past `max_waiters` abort the connection.
#[test]
fn live_waiters_over_the_limit_abort() {
    run(|| async {
        let options = Options {
            max_waiters: 8,
            ..Options::default()
        };
        let mut s = serve(options, &[], true).await;
        s.peer.bootstrap(0);
        s.peer.call(1, To::Answer(0, &[]), WAIT, [0, 0], &[]);
        for q in 2..12 {
            s.peer.call(
                q,
                To::Answer(0, &[]),
                WAIT,
                [0, 0],
                &[Cap::ReceiverAnswer(1, &[0])],
            );
        }
        s.peer.flush().await;
        s.assert_aborted(ErrorKind::Overloaded, "waiting on calls not returned", true)
            .await;
    });
}

/// Calls in flight past `max_answers` abort.
#[test]
fn calls_over_max_answers_abort() {
    run(|| async {
        let options = Options {
            max_answers: 16,
            ..Options::default()
        };
        let mut s = serve(options, &[], true).await;
        s.peer.bootstrap(0);
        for q in 1..17 {
            s.peer.call(q, To::Answer(0, &[]), WAIT, [0, 0], &[]);
        }
        s.peer.flush().await;
        s.assert_aborted(ErrorKind::Overloaded, "more than 16 calls in flight", true)
            .await;
    });
}

/// Capabilities to hold past `max_imports` abort.
#[test]
fn imports_over_max_imports_abort() {
    run(|| async {
        let options = Options {
            max_imports: 8,
            ..Options::default()
        };
        let mut s = serve(options, &[], true).await;
        s.peer.bootstrap(0);
        let caps: Vec<Cap<'_>> = (0..9).map(Cap::SenderHosted).collect();
        s.peer.call(1, To::Answer(0, &[]), WAIT, [0, 0], &caps);
        s.peer.flush().await;
        s.assert_aborted(ErrorKind::Overloaded, "more than 8 capabilities", true)
            .await;
    });
}

/// Exports past `max_exports` (a new counter per call, never released)
/// fail the call that would make one, as overloaded; the connection
/// goes on.
#[test]
fn exports_over_max_exports_fail_the_call() {
    run(|| async {
        let options = Options {
            max_exports: 8,
            ..Options::default()
        };
        // The bootstrap is export 0 (made before the calls are read):
        // seven counters fit, the eighth does not.
        let mut s = serve(options, &[1, 2, 3, 4, 5, 6, 7, 8, 9], true).await;
        s.peer.bootstrap(0);
        for q in 1..9 {
            s.peer.call(q, To::Export(0), MAKE_COUNTER, [0, 0], &[]);
        }
        s.peer.flush().await;
        assert!(common::eventually(|| s.peer.returns() == 9).await);
        let failed: Vec<String> = (1..9)
            .map(|q| s.peer.watched(q))
            .filter(|r| !r.contains("results"))
            .collect();
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert!(failed[0].contains("exception overloaded"), "{failed:?}");
        s.peer.call(9, To::Export(0), 0, [1, 2], &[]);
        s.peer.flush().await;
        assert!(common::eventually(|| !s.peer.watched(9).is_empty()).await);
        assert_eq!(s.peer.watched(9), "return 9 results 3");
        drop(s.peer.write);
        s.conn.closed().await.unwrap();
        let Setup {
            conn,
            server,
            dropped,
            ..
        } = s;
        Setup {
            conn,
            peer: Peer::new(tcp_pair().await.2, &[], false),
            server,
            dropped,
        }
        .assert_closed_and_empty()
        .await;
    });
}

/// Calls the peer makes on its own capability, echoed back through this
/// side, are forwarded to it as this side's questions; past
/// `max_questions` (the peer never answers) the forwarded call fails as
/// overloaded, and the connection goes on.
#[test]
fn forwarded_calls_over_max_questions_fail() {
    run(|| async {
        let options = Options {
            max_questions: 8,
            ..Options::default()
        };
        let mut s = serve(options, &[10, 11], true).await;
        s.peer.bootstrap(0);
        s.peer.call(
            1,
            To::Answer(0, &[]),
            ECHO_CAP,
            [0, 0],
            &[Cap::SenderHosted(5)],
        );
        for q in 2..12 {
            s.peer.call(q, To::Answer(1, &[0]), 0, [1, 2], &[]);
        }
        s.peer.flush().await;
        assert!(
            common::eventually(|| s.peer.returns() == 4).await,
            "{} returns",
            s.peer.returns()
        );
        for q in [10, 11] {
            let r = s.peer.watched(q);
            assert!(r.contains("exception overloaded"), "{r}");
            assert!(r.contains("8 calls in flight"), "{r}");
        }
        assert_eq!(s.conn.stats().questions, 8, "{:?}", s.conn.stats());
        drop(s.peer.write);
        s.conn.closed().await.unwrap();
        let Setup {
            conn,
            server,
            dropped,
            ..
        } = s;
        Setup {
            conn,
            peer: Peer::new(tcp_pair().await.2, &[], false),
            server,
            dropped,
        }
        .assert_closed_and_empty()
        .await;
    });
}

/// A message over `max_message_bytes` aborts before it is read whole.
#[test]
fn message_over_max_message_bytes_aborts() {
    run(|| async {
        let options = Options {
            max_message_bytes: 1 << 16,
            ..Options::default()
        };
        let mut s = serve(options, &[], true).await;
        s.peer.push(|mut m| {
            let mut call = m.init_call().unwrap();
            call.init_params()
                .unwrap()
                .get_content()
                .init_data(1 << 17)
                .unwrap();
        });
        s.peer.flush().await;
        s.assert_aborted(ErrorKind::Failed, "bad message", true)
            .await;
    });
}

/// A peer that sends calls and never reads: the writer waits in the
/// middle of a 32 MiB return (the socket's buffers full); a second
/// return passes `max_queued_bytes`, and the abort drops what is queued
/// at once and closes the socket, though the writer was waiting (it
/// stayed blocked in `write_all` before, holding the queue, with no
/// write timeout to end it).
#[test]
fn peer_that_never_reads_is_closed_and_freed() {
    let peak = run(|| async {
        let options = Options {
            max_queued_bytes: 48 << 20,
            write_timeout: None,
            ..Options::default()
        };
        let mut s = serve(options, &[], false).await;
        s.peer.bootstrap(0);
        s.peer.call(1, To::Answer(0, &[]), BIG, [32 << 20, 0], &[]);
        s.peer.flush().await;
        assert!(common::eventually(|| s.conn.queued_bytes() > 32 << 20).await);
        // Time for the writer to fill the socket's buffers and wait (not
        // a timing assertion: the test passes either way with the fix).
        tokio::time::sleep(Duration::from_millis(300)).await;
        s.peer.call(2, To::Answer(0, &[]), BIG, [32 << 20, 0], &[]);
        s.peer.flush().await;
        let e = tokio::time::timeout(Duration::from_secs(60), s.conn.closed())
            .await
            .expect("closed() hung")
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Overloaded, "{e}");
        assert!(e.reason.contains("over the limit of 50331648"), "{e}");
        // The peer has still read nothing.
        s.assert_closed_and_empty().await;
    });
    assert!(peak < 160 << 20, "{peak} bytes");
}

/// A write that waits on the peer longer than `write_timeout` aborts
/// the connection and closes its socket (here one return larger than
/// the socket's buffers, never read).
#[test]
fn write_waiting_past_write_timeout_aborts() {
    run(|| async {
        let options = Options {
            write_timeout: Some(Duration::from_millis(200)),
            ..Options::default()
        };
        let mut s = serve(options, &[], false).await;
        s.peer.bootstrap(0);
        s.peer.call(1, To::Answer(0, &[]), BIG, [32 << 20, 0], &[]);
        s.peer.flush().await;
        // No abort can be sent: the peer reads nothing.
        s.assert_aborted(ErrorKind::Overloaded, "write_timeout", false)
            .await;
    });
}

// ---------------------------------------------------------------------
// Cancellation.

/// A call another is pipelined on, both dropped by the client: the
/// server's work for both is dropped and every table empties within a
/// round trip (the first ran on until it ended by itself: its answer was
/// kept for the pipelined call, which had been finished too).
#[test]
fn dropping_a_pipelined_upon_call_cancels_it() {
    // The pipelined call dropped first, then the other way round (the
    // first call's finish comes while the second is still queued on it).
    for pipelined_first in [true, false] {
        cancel_pipelined(pipelined_first);
    }
}

fn cancel_pipelined(pipelined_first: bool) {
    run(move || async move {
        let server = Arc::new(Hostile::default());
        let (ours, _, theirs) = tcp_pair().await;
        let s = Connection::new(
            ours,
            Some(Client::from_arc(server.clone())),
            Options::default(),
        );
        let c = Connection::new(theirs, None, Options::default());
        let test = c.bootstrap();
        assert_eq!(common::add(&test, 1, 2).await.unwrap(), 3);
        let first = test.new_call(TEST, WAIT).send();
        let counter = first.pipeline.pointer_field(0).client();
        let second = counter.new_call(COUNTER, INCREMENT).send();
        // Both reached the server: the wait runs, the increment is queued.
        assert!(
            common::eventually(|| s.stats().answers == 3).await,
            "{:?}",
            s.stats()
        );
        if pipelined_first {
            drop(second);
            drop(counter);
            drop(first);
        } else {
            drop(counter);
            drop(first);
            // The finish of the first is sent before the second's.
            tokio::task::yield_now().await;
            drop(second);
        }
        // One round trip later (an add answered after the finishes), the
        // wait's future is gone and the tables are empty.
        assert_eq!(common::add(&test, 2, 3).await.unwrap(), 5);
        assert_eq!(server.waits_dropped.load(Ordering::SeqCst), 1);
        assert_eq!(c.stats().questions, 1, "{:?}", c.stats());
        // The add's own answer goes with its finish, which follows it.
        assert!(
            common::eventually(|| s.stats().answers == 1).await,
            "{:?}",
            s.stats()
        );
        drop(test);
        let (a, b) = common::settle(&s, &c).await;
        assert_eq!((a, b), (Stats::default(), Stats::default()));
        c.shutdown().await.unwrap();
        let _ = s.closed().await;
    });
}
