//! A stress test over loopback TCP on the generated typed API: one
//! multi-threaded server, many client connections, many tasks per client
//! calling at once: plain calls, pipelined chains, capabilities passed
//! both ways (called back, echoed) and dropped. Every answer is checked,
//! every call counted; at the end every table of every connection is
//! empty, and the heap went back to where it started, its peak bounded.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use capnarena_rpc::{Connection, FromClient, Options, Stats};
use common::typed::*;

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` with the same arguments;
// the counters are only statistics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (the caller upholds `alloc`'s contract).
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded as is (`ptr` came from `alloc` with `layout`).
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const CLIENTS: u64 = 8;
const TASKS: u64 = 8;
const ROUNDS: u64 = 50;
/// Calls of `Test` each round makes (add, makeCounter, callBack, echoCap),
/// counted by the server; and calls of counters, counted by the rounds.
const TEST_CALLS_PER_ROUND: u64 = 4;
const COUNTER_CALLS_PER_ROUND: u64 = 6;

/// One round of one task: an add; a counter made and incremented twice
/// through pipelining, then once directly; the task's own counter called
/// back three times by the server and echoed back as itself; all dropped.
async fn round(test: &test::Client, seed: u64) {
    assert_eq!(add(test, seed, 7).await.unwrap(), seed + 7);

    let mut request = test.make_counter_request();
    request.get().unwrap().set_start(seed);
    let sent = request.send();
    let counter = sent.pipeline.get_counter();
    let (one, two) = (
        counter.increment_request().send(),
        counter.increment_request().send(),
    );
    let value = |r: capnarena_rpc::TypedResponse<counter::increment_results::Owned>| {
        r.read(|r| Ok(r.get_value())).unwrap()
    };
    assert_eq!(value(one.response.await.unwrap()), seed + 1);
    assert_eq!(value(two.response.await.unwrap()), seed + 2);
    assert_eq!(increment(&counter).await.unwrap(), seed + 3);
    drop((counter, sent));

    let mine = counter::Client::from_server(TypedCounter::new(seed));
    let mut request = test.call_back_request();
    let index = request.add_cap(mine.clone());
    let mut p = request.get().unwrap();
    p.set_times(3);
    p.set_counter(index);
    let response = request.send().response.await.unwrap();
    assert_eq!(response.read(|r| Ok(r.get_last())).unwrap(), seed + 3);

    let mut request = test.echo_cap_request();
    let index = request.add_cap(mine.clone());
    request.get().unwrap().set_cap(index);
    let response = request.send().response.await.unwrap();
    let echoed: counter::Client = response
        .cap(response.read(|r| Ok(r.get_cap()?)).unwrap())
        .unwrap();
    assert!(echoed.client.same_as(&mine.client));
}

/// Many clients over loopback TCP, many concurrent calls each: every
/// answer right (asserted in `round`), every call counted, every table
/// empty at the end, the heap's peak bounded and its live bytes back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_clients_many_calls_over_tcp() {
    let start_live = LIVE.load(Ordering::Relaxed);
    PEAK.store(start_live, Ordering::Relaxed);

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = Arc::new(TypedTest::default());
    let bootstrap = test::Client::from_arc(Arc::clone(&server));
    let accept = tokio::spawn(async move {
        let mut conns = Vec::new();
        for _ in 0..CLIENTS {
            let (stream, _) = listener.accept().await.unwrap();
            stream.set_nodelay(true).unwrap();
            let boot = bootstrap.clone().into_client();
            conns.push(Connection::new(stream, Some(boot), Options::default()));
        }
        conns
    });

    let mut clients = Vec::new();
    for c in 0..CLIENTS {
        clients.push(tokio::spawn(async move {
            let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
            stream.set_nodelay(true).unwrap();
            let conn = Connection::new(stream, None, Options::default());
            let test = test::Client::from_client(conn.bootstrap());
            let mut tasks = Vec::new();
            for t in 0..TASKS {
                let test = test.clone();
                tasks.push(tokio::spawn(async move {
                    for r in 0..ROUNDS {
                        round(&test, (c * TASKS + t) * 1_000_000 + r * 1000).await;
                    }
                }));
            }
            for t in tasks {
                t.await.unwrap();
            }
            drop(test);
            assert!(
                common::eventually(|| conn.stats() == Stats::default()).await,
                "client {c}: {:?}",
                conn.stats()
            );
            conn
        }));
    }
    let mut client_conns = Vec::new();
    for c in clients {
        client_conns.push(c.await.unwrap());
    }
    let server_conns = accept.await.unwrap();
    for (i, conn) in server_conns.iter().enumerate() {
        assert!(
            common::eventually(|| conn.stats() == Stats::default()).await,
            "server connection {i}: {:?}",
            conn.stats()
        );
    }
    let rounds = CLIENTS * TASKS * ROUNDS;
    assert_eq!(
        server.calls.load(Ordering::SeqCst),
        rounds * TEST_CALLS_PER_ROUND
    );
    let calls = rounds * (TEST_CALLS_PER_ROUND + COUNTER_CALLS_PER_ROUND);
    for conn in client_conns {
        conn.shutdown().await.unwrap();
    }
    for conn in &server_conns {
        assert!(conn.closed().await.is_ok());
    }
    drop(server_conns);
    drop(server);

    let peak = PEAK.load(Ordering::Relaxed) - start_live;
    // Yields until the runtime's tasks of the closed connections are gone.
    let settled =
        common::eventually(|| LIVE.load(Ordering::Relaxed).saturating_sub(start_live) < 1 << 20)
            .await;
    let left = LIVE.load(Ordering::Relaxed).saturating_sub(start_live);
    println!("{calls} calls; heap peak {peak} bytes over the start, {left} left");
    assert!(peak < 16 << 20, "heap peak {peak} bytes");
    assert!(
        settled,
        "{left} bytes still live after every connection closed"
    );
}
