//! RPC calls over loopback TCP for the same interface
//! (`schema/rpc_bench.capnp`: `add(a, b) -> (sum)`), in one run:
//! capnarena-rpc with its generated typed client and server, capnp-rpc
//! 0.27 with capnpc's, and the C++ reference (libcapnp-rpc, Debian's
//! 0.9.2) with `capnp compile -oc++`'s, through `cxx/rpc_bench.c++`,
//! which the bench builds with g++ and runs as a child (`rpc_cxx/`).
//!
//! One connection: each side runs its server and its client in one
//! thread (a current-thread tokio runtime for the Rust sides, capnp-rpc's
//! types not being `Send`; a kj event loop for C++), over a TCP connection
//! on 127.0.0.1 with `TCP_NODELAY`. Measured, per side:
//! - sequential: one call at a time, awaited before the next: calls per
//!   second, and the p50 and p99 of the calls' latencies;
//! - pipelined: 100 calls in flight (sent, then awaited together): calls
//!   per second;
//! - allocations per call (client and server together), counted over the
//!   sequential calls only (the C++ program counts its malloc, calloc and
//!   realloc calls).
//!
//! Many connections: 64 connections, each with its own server, a client
//! on each making sequential calls, 128,000 calls in all, timed after a
//! warm-up of 50 calls on each: calls per second. Each side as its model
//! allows on 2 threads: capnarena-rpc on one multi-threaded runtime with
//! 2 workers; capnp-rpc on 2 threads, each with a current-thread runtime
//! and 32 of the connections; C++ on 2 threads, each with a kj event loop
//! and 32 of the connections.
//!
//! Every answer is checked. Prints a table (`cargo bench -p
//! capnarena-peers --bench rpc`); no criterion (it reports no
//! percentiles), so the numbers are of one run after a warm-up. Without
//! g++, `capnp` or libcapnp-dev's headers the C++ column says why it is
//! skipped; a C++ build or run that fails is shown after the table and
//! the bench exits with status 1.

#![allow(missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use capnarena_peers::alloc_count::{self, CountingAllocator};

#[path = "rpc_cxx/mod.rs"]
mod rpc_cxx;

/// Whether [`GatedAllocator`] counts.
static COUNTING: AtomicBool = AtomicBool::new(false);

/// [`CountingAllocator`] while [`COUNTING`] is on, `System` otherwise, so
/// the runs on two threads do not share the counter's cache line.
struct GatedAllocator;

// SAFETY: every method forwards to `CountingAllocator` or `System` with the
// caller's arguments unchanged; `CountingAllocator` is `System` with a
// counter, so a block from either may be freed or grown by the other.
unsafe impl GlobalAlloc for GatedAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe {
            if COUNTING.load(Ordering::Relaxed) {
                CountingAllocator.alloc(layout)
            } else {
                System.alloc(layout)
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s
        // contract.
        unsafe {
            if COUNTING.load(Ordering::Relaxed) {
                CountingAllocator.alloc_zeroed(layout)
            } else {
                System.alloc_zeroed(layout)
            }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged; `ptr` came from `System` (directly or
        // through `CountingAllocator`), and the caller upholds `realloc`'s
        // contract.
        unsafe {
            if COUNTING.load(Ordering::Relaxed) {
                CountingAllocator.realloc(ptr, layout, new_size)
            } else {
                System.realloc(ptr, layout, new_size)
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: GatedAllocator = GatedAllocator;

/// capnpc's code for capnp-rpc.
mod rpc_bench_capnp {
    include!(concat!(env!("OUT_DIR"), "/rpc_bench_capnp.rs"));
}

/// capnarena's typed RPC code.
mod ours {
    #![allow(dead_code, clippy::all, missing_docs)]
    include!(concat!(env!("OUT_DIR"), "/capnarena/rpc_bench_capnp.rs"));
}

const WARMUP: u64 = 2_000;
const SEQUENTIAL: u64 = 20_000;
const IN_FLIGHT: u64 = 100;
const PIPELINED: u64 = 100_000;
/// Connections of the many-connections run, split over 2 threads.
const CONNECTIONS: u64 = 64;
/// Warm-up calls on each connection of the many-connections run.
const MANY_WARMUP: u64 = 50;
/// Calls of the many-connections run, in all.
const MANY_CALLS: u64 = 128_000;
/// Threads of the many-connections run.
const THREADS: u64 = 2;

/// One side's one-connection figures.
struct Figures {
    sequential_per_s: f64,
    p50: Duration,
    p99: Duration,
    pipelined_per_s: f64,
    allocs_per_call: Option<f64>,
}

/// Runs the measurements with `call(a, b)` giving `a + b`.
async fn measure<F, Fut>(call: F) -> Figures
where
    F: Fn(u64, u64) -> Fut,
    Fut: std::future::Future<Output = u64>,
{
    for i in 0..WARMUP {
        assert_eq!(call(i, 1).await, i + 1);
    }
    let mut latencies = Vec::with_capacity(SEQUENTIAL as usize);
    alloc_count::reset();
    COUNTING.store(true, Ordering::Relaxed);
    let start = Instant::now();
    for i in 0..SEQUENTIAL {
        let t = Instant::now();
        let sum = call(i, 2).await;
        latencies.push(t.elapsed());
        assert_eq!(sum, i + 2);
    }
    let elapsed = start.elapsed();
    COUNTING.store(false, Ordering::Relaxed);
    // The latencies vector was allocated before counting began.
    let allocs = alloc_count::count();
    latencies.sort();
    let pct = |p: usize| latencies[latencies.len() * p / 100];

    let start = Instant::now();
    let mut i = 0;
    while i < PIPELINED {
        let batch: Vec<_> = (i..i + IN_FLIGHT).map(|j| call(j, 3)).collect();
        for (j, sum) in (i..).zip(futures::future::join_all(batch).await) {
            assert_eq!(sum, j + 3);
        }
        i += IN_FLIGHT;
    }
    let pipelined = start.elapsed();
    Figures {
        sequential_per_s: SEQUENTIAL as f64 / elapsed.as_secs_f64(),
        p50: pct(50),
        p99: pct(99),
        pipelined_per_s: PIPELINED as f64 / pipelined.as_secs_f64(),
        allocs_per_call: Some(allocs as f64 / SEQUENTIAL as f64),
    }
}

/// A connected pair of loopback TCP streams.
async fn tcp_pair() -> (tokio::net::TcpStream, tokio::net::TcpStream) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (a, b) = tokio::join!(tokio::net::TcpStream::connect(addr), listener.accept());
    let (a, (b, _)) = (a.unwrap(), b.unwrap());
    a.set_nodelay(true).unwrap();
    b.set_nodelay(true).unwrap();
    (a, b)
}

/// capnarena's server.
struct OurAdder;

impl ours::adder::Server for OurAdder {
    async fn add(
        self: std::sync::Arc<Self>,
        params: ours::adder::AddParams,
        mut results: ours::adder::AddResults,
    ) -> capnarena_rpc::Result<ours::adder::AddResults> {
        let (a, b) = params.read(|p| Ok((p.get_a(), p.get_b())))?;
        results.get()?.set_sum(a.wrapping_add(b));
        Ok(results)
    }
}

/// Both ends of one capnarena-rpc connection, and the client's adder.
struct OurConnection {
    _server: capnarena_rpc::Connection,
    _client: capnarena_rpc::Connection,
    adder: ours::adder::Client,
}

async fn our_connection() -> OurConnection {
    use capnarena_rpc::{Connection, FromClient, Options};
    let (a, b) = tcp_pair().await;
    let bootstrap = ours::adder::Client::from_server(OurAdder).into_client();
    let server = Connection::new(a, Some(bootstrap), Options::default());
    let client = Connection::new(b, None, Options::default());
    let adder = ours::adder::Client::from_client(client.bootstrap());
    OurConnection {
        _server: server,
        _client: client,
        adder,
    }
}

/// `a + b` through capnarena's client.
fn our_add(adder: &ours::adder::Client, a: u64, b: u64) -> impl Future<Output = u64> + use<> {
    let mut request = adder.add_request();
    let mut p = request.get().unwrap();
    p.set_a(a);
    p.set_b(b);
    let response = request.send().response;
    async move {
        let response = response.await.unwrap();
        response.read(|r| Ok(r.get_sum())).unwrap()
    }
}

async fn capnarena_side() -> Figures {
    let connection = our_connection().await;
    measure(|x, y| our_add(&connection.adder, x, y)).await
}

/// capnarena's many-connections run: calls/s, on one runtime with
/// [`THREADS`] workers.
fn capnarena_many() -> f64 {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(THREADS as usize)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut connections = Vec::new();
        for _ in 0..CONNECTIONS {
            connections.push(our_connection().await);
        }
        // One task a connection, `calls` sequential calls each.
        let run = |calls: u64, b: u64| {
            let tasks: Vec<_> = connections
                .iter()
                .map(|c| {
                    let adder = c.adder.clone();
                    tokio::spawn(async move {
                        for i in 0..calls {
                            assert_eq!(our_add(&adder, i, b).await, i + b);
                        }
                    })
                })
                .collect();
            async move {
                for task in tasks {
                    task.await.unwrap();
                }
            }
        };
        run(MANY_WARMUP, 1).await;
        let start = Instant::now();
        run(MANY_CALLS / CONNECTIONS, 4).await;
        MANY_CALLS as f64 / start.elapsed().as_secs_f64()
    })
}

/// capnp-rpc's server.
struct PeerAdder;

impl rpc_bench_capnp::adder::Server for PeerAdder {
    async fn add(
        self: Rc<Self>,
        params: rpc_bench_capnp::adder::AddParams,
        mut results: rpc_bench_capnp::adder::AddResults,
    ) -> Result<(), capnp::Error> {
        let p = params.get()?;
        results.get().set_sum(p.get_a().wrapping_add(p.get_b()));
        Ok(())
    }
}

/// A capnp-rpc connection on the current `LocalSet`, both ends: the
/// client's adder.
async fn peer_connection() -> rpc_bench_capnp::adder::Client {
    use capnp_rpc::rpc_twoparty_capnp::Side;
    use capnp_rpc::{RpcSystem, twoparty};
    use tokio_util::compat::{TokioAsyncReadCompatExt, TokioAsyncWriteCompatExt};
    let (a, b) = tcp_pair().await;
    let server: rpc_bench_capnp::adder::Client = capnp_rpc::new_client(PeerAdder);
    let (read, write) = a.into_split();
    let network = twoparty::VatNetwork::new(
        read.compat(),
        write.compat_write(),
        Side::Server,
        Default::default(),
    );
    tokio::task::spawn_local(RpcSystem::new(Box::new(network), Some(server.client)));
    let (read, write) = b.into_split();
    let network = twoparty::VatNetwork::new(
        read.compat(),
        write.compat_write(),
        Side::Client,
        Default::default(),
    );
    let mut system = RpcSystem::new(Box::new(network), None);
    let adder: rpc_bench_capnp::adder::Client = system.bootstrap(Side::Server);
    tokio::task::spawn_local(system);
    adder
}

/// `a + b` through capnp-rpc's client.
fn peer_add(
    adder: &rpc_bench_capnp::adder::Client,
    a: u64,
    b: u64,
) -> impl Future<Output = u64> + use<> {
    let mut request = adder.add_request();
    let mut p = request.get();
    p.set_a(a);
    p.set_b(b);
    let promise = request.send().promise;
    async move {
        let response = promise.await.unwrap();
        response.get().unwrap().get_sum()
    }
}

async fn capnp_rpc_side() -> Figures {
    let adder = peer_connection().await;
    measure(|x, y| peer_add(&adder, x, y)).await
}

/// capnp-rpc's many-connections run: calls/s, on [`THREADS`] threads, each
/// with a current-thread runtime and its share of the connections.
fn capnp_rpc_many() -> f64 {
    let barrier = Arc::new(Barrier::new(THREADS as usize + 1));
    let threads: Vec<_> = (0..THREADS)
        .map(|_| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                // The connections' tasks stay on `local` between the two
                // `block_on`s.
                let local = tokio::task::LocalSet::new();
                let adders = local.block_on(&rt, async {
                    let mut adders = Vec::new();
                    for _ in 0..CONNECTIONS / THREADS {
                        adders.push(peer_connection().await);
                    }
                    adders
                });
                let run = |calls: u64, b: u64| {
                    futures::future::join_all(adders.iter().map(|adder| async move {
                        for i in 0..calls {
                            assert_eq!(peer_add(adder, i, b).await, i + b);
                        }
                    }))
                };
                local.block_on(&rt, run(MANY_WARMUP, 1));
                barrier.wait();
                local.block_on(&rt, run(MANY_CALLS / CONNECTIONS, 4));
            })
        })
        .collect();
    barrier.wait();
    let start = Instant::now();
    for thread in threads {
        thread.join().unwrap();
    }
    MANY_CALLS as f64 / start.elapsed().as_secs_f64()
}

/// `x` rounded, with thousands separated by commas: 12,345.
fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs `f` to its end on a current-thread runtime, in a `LocalSet`.
fn on_one_thread<F: Future>(f: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(tokio::task::LocalSet::new().run_until(f))
}

/// A column of the table.
struct Column {
    name: String,
    /// The figures, or what the cells say instead.
    figures: Result<Figures, String>,
    /// The many-connections cell.
    many: String,
}

fn main() {
    // `cargo test --benches` runs bench binaries with no `--bench`: a
    // quick check there, the measurement under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        println!("rpc bench: run with `cargo bench -p capnarena-peers --bench rpc`");
        return;
    }
    let ours = on_one_thread(capnarena_side());
    let ours_many = capnarena_many();
    let peer = on_one_thread(capnp_rpc_side());
    let peer_many = capnp_rpc_many();
    let cxx = rpc_cxx::column(&[
        WARMUP,
        SEQUENTIAL,
        IN_FLIGHT,
        PIPELINED,
        CONNECTIONS,
        MANY_WARMUP,
        MANY_CALLS,
    ]);

    let mut failure = None;
    let cxx = match cxx {
        rpc_cxx::Column::Ran(run) => {
            match run.built_in {
                Some(t) => println!(
                    "C++ program built in {:.1} s (capnp compile -oc++, g++ -O2)",
                    t.as_secs_f64()
                ),
                None => println!("C++ program: an earlier build of the same sources, reused"),
            }
            Column {
                name: format!("C++ libcapnp-rpc {}", run.version),
                figures: Ok(run.figures),
                many: format!(
                    "{} ({THREADS} threads, a kj event loop each)",
                    thousands(run.many_per_s)
                ),
            }
        }
        rpc_cxx::Column::Skipped(why) => Column {
            name: "C++ libcapnp-rpc".into(),
            figures: Err(format!("skipped: {why}")),
            many: String::new(),
        },
        rpc_cxx::Column::Failed(e) => {
            failure = Some(e);
            Column {
                name: "C++ libcapnp-rpc".into(),
                figures: Err("failed (see below)".into()),
                many: String::new(),
            }
        }
    };
    let columns = [
        Column {
            name: "capnarena-rpc".into(),
            figures: Ok(ours),
            many: format!("{} (one runtime, {THREADS} workers)", thousands(ours_many)),
        },
        Column {
            name: "capnp-rpc 0.27".into(),
            figures: Ok(peer),
            many: format!(
                "{} ({THREADS} threads, a runtime each)",
                thousands(peer_many)
            ),
        },
        cxx,
    ];

    let names: Vec<_> = columns.iter().map(|c| c.name.as_str()).collect();
    println!("| over loopback TCP | {} |", names.join(" | "));
    println!("|---|{}", "---:|".repeat(columns.len()));
    // A row of one-connection figures; a column without them says why in
    // the first row.
    let mut first = true;
    let mut row = |what: &str, f: &dyn Fn(&Figures) -> String| {
        let cells: Vec<_> = columns
            .iter()
            .map(|c| match &c.figures {
                Ok(figures) => f(figures),
                Err(why) if first => why.clone(),
                Err(_) => String::new(),
            })
            .collect();
        first = false;
        println!("| {what} | {} |", cells.join(" | "));
    };
    row("sequential calls/s", &|f| thousands(f.sequential_per_s));
    row("latency p50", &|f| {
        format!("{:.1} µs", f.p50.as_secs_f64() * 1e6)
    });
    row("latency p99", &|f| {
        format!("{:.1} µs", f.p99.as_secs_f64() * 1e6)
    });
    row("100 in flight, calls/s", &|f| thousands(f.pipelined_per_s));
    row("allocations per call", &|f| match f.allocs_per_call {
        Some(n) => format!("{n:.1}"),
        None => "n/a".into(),
    });
    let many: Vec<_> = columns.iter().map(|c| c.many.as_str()).collect();
    println!(
        "| {CONNECTIONS} connections, {THREADS} threads, calls/s | {} |",
        many.join(" | ")
    );
    if let Some(e) = failure {
        eprintln!("the C++ column failed: {e}");
        std::process::exit(1);
    }
}
