//! The framed codec on real TCP sockets over loopback (127.0.0.1 only):
//! an echo server that checks every message, 32 concurrent clients of 500
//! messages each, and hostile clients alongside them.
//!
//! Message sizes are random from 16 bytes to 16 KiB, one in fifty up to
//! 1 MiB; clients write each message in random splits (some one byte at a
//! time). Every message must come back once, in order, byte-identical,
//! while clients sending garbage, segment tables over the limits, a
//! truncated frame or disconnecting mid-frame get their connection closed
//! by the server with the matching error, and the server keeps serving
//! everyone else. The process's peak RSS is printed and bounded.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use capnarena::serialize::codec::{Frame, FramedCodec};
use capnarena::{Error, Message, ReaderOptions, SingleSegmentArena, StructSize};
use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Framed, FramedRead};

const CLIENTS: u64 = 32;
const MESSAGES: u64 = 500;
/// The server's frame limit: the largest message (1 MiB of data and its
/// framing) fits, 4 MiB frames do not.
const MAX_FRAME: usize = 1024 * 1024 + 4096;
const ROOT: StructSize = StructSize::new(2, 1);

// ---- the server's heap, counted ----

thread_local! {
    /// Whether this thread is one of the server runtime's.
    static SERVER_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Bytes allocated and not yet freed on the server's threads, and their
/// peak. (The server's memory never crosses to the clients' threads: its
/// buffers and frames stay in its tasks.)
static SERVER_LIVE: AtomicI64 = AtomicI64::new(0);
static SERVER_PEAK: AtomicI64 = AtomicI64::new(0);

struct ServerHeap;

impl ServerHeap {
    fn add(delta: i64) {
        if SERVER_THREAD.try_with(Cell::get).unwrap_or(false) {
            let now = SERVER_LIVE.fetch_add(delta, Ordering::Relaxed) + delta;
            SERVER_PEAK.fetch_max(now, Ordering::Relaxed);
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees hold; `add` only touches a
// const-initialised thread-local without destructor and atomics, which
// allocate nothing.
unsafe impl GlobalAlloc for ServerHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::add(layout.size() as i64);
        // SAFETY: the caller upholds `alloc`'s contract for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::add(layout.size() as i64);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Self::add(-(layout.size() as i64));
        // SAFETY: `ptr` was allocated by `System` with `layout`, as the
        // caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::add(new_size as i64 - layout.size() as i64);
        // SAFETY: `ptr` was allocated by `System` with `layout`, and
        // `new_size` is valid, as the caller guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: ServerHeap = ServerHeap;

/// splitmix64: a small, good, deterministic generator.
struct Rng(u64);

impl Rng {
    fn new(a: u64, b: u64) -> Self {
        Rng(a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_add(0x1234_5678))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
}

/// Random bytes that payloads are cut from (each payload a slice at a
/// random offset, so no per-byte work per message).
fn pool() -> Arc<Vec<u8>> {
    let mut rng = Rng::new(7, 7);
    let bytes = (0..(2 << 20) / 8)
        .flat_map(|_| rng.next().to_le_bytes())
        .collect();
    Arc::new(bytes)
}

/// Message `seq` of client `conn`: the root holds both numbers and a
/// payload of 16 bytes to 16 KiB, one in fifty up to 1 MiB.
fn build(msg: &mut Message<SingleSegmentArena>, conn: u64, seq: u64, pool: &[u8]) {
    let mut rng = Rng::new(conn, seq);
    let len = if rng.next() % 50 == 0 {
        rng.range(16, 1 << 20)
    } else {
        rng.range(16, 16 << 10)
    };
    let at = rng.range(0, pool.len() - len);
    msg.reset();
    let mut root = msg.init_root_struct(ROOT).unwrap();
    root.set::<u64>(0, conn);
    root.set::<u64>(1, seq);
    root.set_data(0, &pool[at..at + len]).unwrap();
}

/// Writes `bytes` in random pieces: one message in ten starts with up to
/// 512 single-byte writes; the rest in pieces of 1 byte to 64 KiB.
async fn write_split(w: &mut (impl AsyncWriteExt + Unpin), bytes: &[u8], rng: &mut Rng) {
    let mut at = 0;
    if rng.next() % 10 == 0 {
        let bytewise = bytes.len().min(512);
        while at < bytewise {
            w.write_all(&bytes[at..at + 1]).await.unwrap();
            at += 1;
        }
    }
    while at < bytes.len() {
        let max = [1, 64, 4096, 65536][rng.range(0, 3)];
        let n = rng.range(1, max).min(bytes.len() - at);
        w.write_all(&bytes[at..at + n]).await.unwrap();
        at += n;
    }
}

/// How the server ended a connection.
#[derive(Debug)]
#[allow(dead_code)] // the fields are read through `Debug` when a test fails
enum Outcome {
    /// The client closed after this many messages, all in order.
    Served(u64),
    /// The server closed the connection on this error.
    Failed(Error),
    /// A message arrived out of order (never expected).
    OutOfOrder { expected: u64, got: u64 },
}

type Outcomes = Arc<Mutex<HashMap<SocketAddr, Outcome>>>;

/// One connection: read frames, check each (root, sequence, payload
/// pointer), echo it; on any error, record it and close.
async fn serve_one(sock: TcpStream, peer: SocketAddr, outcomes: Outcomes) {
    let codec = FramedCodec::with_options(ReaderOptions::default())
        .max_frame_bytes(MAX_FRAME)
        .sends::<Frame>();
    let mut framed = Framed::new(sock, codec);
    let mut scratch = Message::new(SingleSegmentArena::new());
    let mut seq = 0;
    let outcome = loop {
        let frame = match framed.next().await {
            None => break Outcome::Served(seq),
            Some(Err(e)) => break Outcome::Failed(e),
            Some(Ok(f)) => f,
        };
        let checked = frame.reader_or_copy(&mut scratch).and_then(|r| {
            let root = r.root()?;
            root.get_data(0)?;
            Ok(root.get::<u64>(1))
        });
        match checked {
            Err(e) => break Outcome::Failed(e),
            Ok(got) if got != seq => break Outcome::OutOfOrder { expected: seq, got },
            Ok(_) => {}
        }
        if let Err(e) = framed.send(frame).await {
            break Outcome::Failed(e);
        }
        seq += 1;
    };
    drop(framed);
    outcomes.lock().unwrap().insert(peer, outcome);
}

/// A well-behaved client: writes its messages in random splits from one
/// task, reads the echoes from another and compares each, byte for
/// byte, with the message it rebuilds.
async fn good_client(addr: SocketAddr, conn: u64, pool: Arc<Vec<u8>>) -> (SocketAddr, u64) {
    let sock = TcpStream::connect(addr).await.unwrap();
    sock.set_nodelay(true).unwrap();
    let local = sock.local_addr().unwrap();
    let (rd, mut wr) = sock.into_split();
    let reader_pool = pool.clone();
    let reader = tokio::spawn(async move {
        let codec = FramedCodec::new().max_frame_bytes(MAX_FRAME);
        let mut echoes = FramedRead::new(rd, codec);
        let mut want = Message::new(SingleSegmentArena::new());
        for seq in 0..MESSAGES {
            let echo = echoes.next().await.expect("an echo").unwrap();
            build(&mut want, conn, seq, &reader_pool);
            assert!(
                echo.as_bytes() == want.framed_bytes().unwrap(),
                "client {conn}: echo of message {seq} differs"
            );
        }
        assert!(
            echoes.next().await.is_none(),
            "client {conn}: more echoes than messages"
        );
    });
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut rng = Rng::new(conn, u64::MAX);
    let mut sent = 0;
    for seq in 0..MESSAGES {
        build(&mut msg, conn, seq, &pool);
        let bytes = msg.framed_bytes().unwrap();
        sent += bytes.len() as u64;
        write_split(&mut wr, bytes, &mut rng).await;
    }
    wr.shutdown().await.unwrap();
    reader.await.unwrap();
    (local, sent)
}

/// What a hostile client does after sending its bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    /// Waits for the server to close the connection.
    Wait,
    /// Shuts down its writing side (the stream ends), then waits.
    HalfClose,
    /// Drops the connection at once.
    Vanish,
}

/// A hostile client: sends `bytes`, then does `then`; checks that the
/// server closes a connection it waits on without answering. Returns its
/// address.
async fn hostile_client(addr: SocketAddr, bytes: Vec<u8>, then: Then) -> SocketAddr {
    let mut sock = TcpStream::connect(addr).await.unwrap();
    let local = sock.local_addr().unwrap();
    sock.write_all(&bytes).await.unwrap();
    if then == Then::HalfClose {
        sock.shutdown().await.unwrap();
    }
    if then != Then::Vanish {
        // The server closes: reading ends (or the connection is reset).
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(30), sock.read_to_end(&mut rest)).await;
        assert!(read.is_ok(), "server left a hostile connection open");
        assert!(rest.is_empty(), "server answered a hostile client");
    }
    local
}

/// Peak resident set of this process, from /proc (Linux), in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The whole scenario (see the file's doc comment).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_echo_with_hostile_clients() {
    // The server runs on a runtime of its own, one worker thread, whose
    // heap is counted.
    let server_rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .on_thread_start(|| SERVER_THREAD.with(|s| s.set(true)))
        .build()
        .unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let outcomes: Outcomes = Arc::default();
    let server_outcomes = outcomes.clone();
    server_rt.spawn(async move {
        let listener = TcpListener::from_std(listener).unwrap();
        loop {
            let (sock, peer) = listener.accept().await.unwrap();
            tokio::spawn(serve_one(sock, peer, server_outcomes.clone()));
        }
    });
    let pool = pool();

    let mut good = Vec::new();
    for conn in 0..CLIENTS {
        good.push(tokio::spawn(good_client(addr, conn, pool.clone())));
    }

    // The hostile clients, while the good ones run.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut valid = Message::new(SingleSegmentArena::new());
    build(&mut valid, 99, 0, &pool);
    let valid = valid.framed_bytes().unwrap().to_vec();
    let frame_len = valid.len() as u64;
    let words = |w: &[u64]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    type Check = fn(&Error) -> bool;
    let hostile: Vec<(&str, Vec<u8>, Then, Check)> = vec![
        // "GET " read as a segment count: 0x2054_4547 + 1 segments.
        (
            "garbage",
            b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            Then::Wait,
            |e| {
                matches!(
                    e,
                    Error::SegmentLimitExceeded {
                        count: 0x2054_4548,
                        limit: 512
                    }
                )
            },
        ),
        // A well-framed message whose root pointer points far outside it.
        (
            "garbage root",
            words(&[1 << 32, 0x0000_0001_7fff_fffc]),
            Then::Wait,
            |e| matches!(e, Error::OutOfBounds { .. }),
        ),
        ("600 segments", words(&[599]), Then::Wait, |e| {
            matches!(
                e,
                Error::SegmentLimitExceeded {
                    count: 600,
                    limit: 512
                }
            )
        }),
        // One segment of 2^24 words (128 MiB): over the traversal limit.
        (
            "huge segment",
            words(&[0x0100_0000 << 32]),
            Then::Wait,
            |e| {
                matches!(
                    e,
                    Error::MessageTooLarge {
                        declared: 0x0100_0000,
                        ..
                    }
                )
            },
        ),
        // 4 MiB: within the traversal limit, over the frame limit.
        (
            "frame over the limit",
            words(&[0x0008_0000 << 32]),
            Then::Wait,
            |e| {
                matches!(
                    e,
                    Error::FrameTooLarge {
                        declared: 0x0040_0008,
                        ..
                    }
                )
            },
        ),
        // Half a valid frame, then the end of the stream.
        (
            "truncated",
            valid[..valid.len() / 2].to_vec(),
            Then::HalfClose,
            |_| true,
        ),
        // A 1 MiB frame's table and 1,000 bytes, then the socket is gone.
        (
            "disconnect mid-frame",
            {
                let mut b = words(&[0x0002_0000 << 32]);
                b.extend_from_slice(&[0x5a; 1000]);
                b
            },
            Then::Vanish,
            |e| {
                matches!(
                    e,
                    Error::Truncated {
                        needed: 0x0010_0008,
                        available: 1008
                    }
                ) || matches!(e, Error::Io(_))
            },
        ),
    ];
    let mut hostile_addrs = Vec::new();
    for (name, bytes, then, check) in hostile {
        let local = hostile_client(addr, bytes, then).await;
        hostile_addrs.push((name, local, check));
    }

    let mut good_addrs = Vec::new();
    let mut bytes = 0;
    for g in good {
        let (a, sent) = g.await.unwrap();
        good_addrs.push(a);
        bytes += sent;
    }

    // Every connection's outcome is recorded when its task ends.
    let all = good_addrs.len() + hostile_addrs.len();
    for _ in 0..3000 {
        if outcomes.lock().unwrap().len() >= all {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server_rt.shutdown_background();
    let outcomes = outcomes.lock().unwrap();
    for (conn, a) in good_addrs.iter().enumerate() {
        match outcomes.get(a) {
            Some(Outcome::Served(n)) => assert_eq!(*n, MESSAGES, "client {conn}"),
            other => panic!("client {conn}: {other:?}"),
        }
    }
    for (name, a, check) in &hostile_addrs {
        match outcomes.get(a) {
            Some(Outcome::Failed(e)) if *name == "truncated" => assert!(
                matches!(e, Error::Truncated { needed, available } if *needed == frame_len && *available == frame_len / 2),
                "{name}: {e:?}"
            ),
            Some(Outcome::Failed(e)) => assert!(check(e), "{name}: {e:?}"),
            other => panic!("{name}: {other:?}"),
        }
    }
    let rss = peak_rss_kib();
    let server_peak = SERVER_PEAK.load(Ordering::Relaxed);
    println!(
        "{} clients x {} messages ({} MiB) echoed; server heap peak {} KiB; \
         process peak RSS {} KiB (clients and server)",
        CLIENTS,
        MESSAGES,
        bytes >> 20,
        server_peak >> 10,
        rss.map_or("unknown".into(), |k| k.to_string())
    );
    // Per connection the server holds at most a read buffer and a write
    // buffer (each at most twice the frame limit, as buffers double) and a
    // scratch message for unaligned frames (one frame): 5 frame limits.
    let bound = CLIENTS as i64 * 5 * MAX_FRAME as i64;
    assert!(
        server_peak < bound,
        "server heap peak {server_peak} bytes, bound {bound}"
    );
}
