//! RPC calls over loopback TCP: capnarena-rpc with its generated typed
//! client and server against capnp-rpc 0.27 with capnpc's, for the same
//! interface (`schema/rpc_bench.capnp`: `add(a, b) -> (sum)`), in one run.
//! Each side runs its server and its client on one current-thread tokio
//! runtime (capnp-rpc's types are not `Send`), over a TCP connection on
//! 127.0.0.1 with `TCP_NODELAY`.
//!
//! Measured, per side:
//! - sequential: one call at a time, awaited before the next: calls per
//!   second, and the p50 and p99 of the calls' latencies;
//! - pipelined: 100 calls in flight (sent, then awaited together): calls
//!   per second;
//! - allocations per call (client and server together), counted over the
//!   sequential run.
//!
//! Every answer is checked. Prints a table (`cargo bench -p
//! capnarena-peers --bench rpc`); no criterion (it reports no
//! percentiles), so the numbers are of one run after a warm-up.

#![allow(missing_docs)]

use std::rc::Rc;
use std::time::{Duration, Instant};

use capnarena_peers::alloc_count::{self, CountingAllocator};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

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

/// One side's figures.
struct Figures {
    sequential_per_s: f64,
    p50: Duration,
    p99: Duration,
    pipelined_per_s: f64,
    allocs_per_call: f64,
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
    let start = Instant::now();
    for i in 0..SEQUENTIAL {
        let t = Instant::now();
        let sum = call(i, 2).await;
        latencies.push(t.elapsed());
        assert_eq!(sum, i + 2);
    }
    let elapsed = start.elapsed();
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
        allocs_per_call: allocs as f64 / SEQUENTIAL as f64,
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

async fn capnarena_side() -> Figures {
    use capnarena_rpc::{Connection, FromClient, Options};
    let (a, b) = tcp_pair().await;
    let bootstrap = ours::adder::Client::from_server(OurAdder).into_client();
    let _server = Connection::new(a, Some(bootstrap), Options::default());
    let client = Connection::new(b, None, Options::default());
    let adder = ours::adder::Client::from_client(client.bootstrap());
    measure(|x, y| {
        let mut request = adder.add_request();
        let mut p = request.get().unwrap();
        p.set_a(x);
        p.set_b(y);
        let response = request.send().response;
        async move {
            let response = response.await.unwrap();
            response.read(|r| Ok(r.get_sum())).unwrap()
        }
    })
    .await
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

async fn capnp_rpc_side() -> Figures {
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
    measure(|x, y| {
        let mut request = adder.add_request();
        let mut p = request.get();
        p.set_a(x);
        p.set_b(y);
        let promise = request.send().promise;
        async move {
            let response = promise.await.unwrap();
            response.get().unwrap().get_sum()
        }
    })
    .await
}

fn main() {
    // `cargo test --benches` runs bench binaries with no `--bench`: a
    // quick check there, the measurement under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        println!("rpc bench: run with `cargo bench -p capnarena-peers --bench rpc`");
        return;
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let ours = rt.block_on(tokio::task::LocalSet::new().run_until(capnarena_side()));
    let peer = rt.block_on(tokio::task::LocalSet::new().run_until(capnp_rpc_side()));
    println!("| over loopback TCP, one thread | capnarena-rpc | capnp-rpc 0.27 |");
    println!("|---|---|---|");
    let row = |what: &str, f: &dyn Fn(&Figures) -> String| {
        println!("| {what} | {} | {} |", f(&ours), f(&peer));
    };
    row("sequential calls/s", &|f| {
        format!("{:.0}", f.sequential_per_s)
    });
    row("latency p50", &|f| {
        format!("{:.1} µs", f.p50.as_secs_f64() * 1e6)
    });
    row("latency p99", &|f| {
        format!("{:.1} µs", f.p99.as_secs_f64() * 1e6)
    });
    row("100 in flight, calls/s", &|f| {
        format!("{:.0}", f.pipelined_per_s)
    });
    row("allocations per call", &|f| {
        format!("{:.1}", f.allocs_per_call)
    });
}
