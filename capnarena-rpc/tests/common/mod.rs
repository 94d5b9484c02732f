//! A test service for the in-process tests: a `Test` interface (add,
//! echo a capability, make a counter, fail, wait forever, call a
//! capability back) and a `Counter` interface (increment), on the untyped
//! API, with the interface and method ids of a made-up schema.
#![allow(dead_code)]

pub mod typed;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use capnarena::StructSize;
use capnarena_rpc::{BoxFuture, Client, Error, ErrorKind, Params, Result, Results, Server, Stats};

pub const TEST: u64 = 0xa1b2_c3d4_e5f6_0001;
pub const COUNTER: u64 = 0xa1b2_c3d4_e5f6_0002;

pub const ADD: u16 = 0;
pub const ECHO_CAP: u16 = 1;
pub const MAKE_COUNTER: u16 = 2;
pub const FAIL: u16 = 3;
pub const WAIT: u16 = 4;
pub const CALL_BACK: u16 = 5;

pub const INCREMENT: u16 = 0;

/// The `Test` server; counts waits begun and waits dropped.
#[derive(Default)]
pub struct TestServer {
    pub waits_started: Arc<AtomicUsize>,
    pub waits_dropped: Arc<AtomicUsize>,
}

/// Increments a counter when dropped (a wait's future was dropped).
struct DropCount(Arc<AtomicUsize>);

impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn kind_of(n: u64) -> ErrorKind {
    match n {
        0 => ErrorKind::Failed,
        1 => ErrorKind::Overloaded,
        2 => ErrorKind::Disconnected,
        _ => ErrorKind::Unimplemented,
    }
}

pub fn kind_number(k: ErrorKind) -> u64 {
    match k {
        ErrorKind::Failed => 0,
        ErrorKind::Overloaded => 1,
        ErrorKind::Disconnected => 2,
        _ => 3,
    }
}

/// Reads u64 data word `i` of the content struct.
pub fn word(p: &Params, i: usize) -> Result<u64> {
    p.read(|c| Ok(c.get_struct()?.get::<u64>(i)))
}

/// Reads the capability of pointer 0 of the content struct.
pub fn cap0(p: &Params) -> Result<Client> {
    let index = p.read(|c| Ok(c.get_struct()?.pointer(0).get_capability()?))?;
    p.cap(index)
}

/// Sets the results to a struct with `value` in its first data word.
pub fn answer_u64(results: &mut Results, value: u64) -> Result<()> {
    results
        .content()?
        .init_struct(StructSize::new(1, 1))?
        .set::<u64>(0, value);
    Ok(())
}

/// Sets the results to a struct with `cap` in its pointer 0.
pub fn answer_cap(results: &mut Results, cap: Client) -> Result<()> {
    let index = results.add_cap(cap);
    results
        .content()?
        .init_struct(StructSize::new(1, 1))?
        .pointer(0)
        .set_capability(index);
    Ok(())
}

impl Server for TestServer {
    fn dispatch(
        self: Arc<Self>,
        interface_id: u64,
        method_id: u16,
        params: Params,
        mut results: Results,
    ) -> BoxFuture<Result<Results>> {
        Box::pin(async move {
            if interface_id != TEST {
                return Err(Error::method_not_implemented(interface_id, method_id));
            }
            match method_id {
                ADD => {
                    let sum = word(&params, 0)?.wrapping_add(word(&params, 1)?);
                    answer_u64(&mut results, sum)?;
                }
                ECHO_CAP => answer_cap(&mut results, cap0(&params)?)?,
                MAKE_COUNTER => {
                    let start = word(&params, 0)?;
                    answer_cap(&mut results, Client::from_server(Counter::new(start)))?;
                }
                FAIL => {
                    let kind = kind_of(word(&params, 0)?);
                    return Err(Error::new(kind, "asked to fail"));
                }
                WAIT => {
                    let _guard = DropCount(Arc::clone(&self.waits_dropped));
                    self.waits_started.fetch_add(1, Ordering::SeqCst);
                    std::future::pending::<()>().await;
                }
                CALL_BACK => {
                    let cap = cap0(&params)?;
                    let times = word(&params, 0)?;
                    let mut last = 0;
                    for _ in 0..times {
                        last = increment(&cap).await?;
                    }
                    answer_u64(&mut results, last)?;
                }
                _ => return Err(Error::method_not_implemented(interface_id, method_id)),
            }
            Ok(results)
        })
    }
}

/// A counter: `increment` adds one and answers the new value.
pub struct Counter {
    value: AtomicU64,
}

impl Counter {
    pub fn new(start: u64) -> Self {
        Counter {
            value: AtomicU64::new(start),
        }
    }
}

impl Server for Counter {
    fn dispatch(
        self: Arc<Self>,
        interface_id: u64,
        method_id: u16,
        _params: Params,
        mut results: Results,
    ) -> BoxFuture<Result<Results>> {
        // Counted here, not in the future: dispatch is called in the
        // order the calls were sent, the futures run in any order.
        let outcome = if (interface_id, method_id) != (COUNTER, INCREMENT) {
            Err(Error::method_not_implemented(interface_id, method_id))
        } else {
            let v = self.value.fetch_add(1, Ordering::SeqCst) + 1;
            answer_u64(&mut results, v).map(|()| results)
        };
        Box::pin(std::future::ready(outcome))
    }
}

/// Calls `increment` on a counter.
pub async fn increment(counter: &Client) -> Result<u64> {
    let response = counter.new_call(COUNTER, INCREMENT).send().response.await?;
    response.read(|r| Ok(r.get_struct()?.get::<u64>(0)))
}

/// Calls `add` on a test object.
pub async fn add(test: &Client, a: u64, b: u64) -> Result<u64> {
    let mut request = test.new_call(TEST, ADD);
    let mut p = request.params()?.init_struct(StructSize::new(2, 0))?;
    p.set::<u64>(0, a);
    p.set::<u64>(1, b);
    let response = request.send().response.await?;
    response.read(|r| Ok(r.get_struct()?.get::<u64>(0)))
}

/// Waits (yielding to the runtime, up to 10 s) until `f` holds; returns
/// whether it did. Not a timing assertion: the bound only keeps a broken
/// build from hanging.
pub async fn eventually(mut f: impl FnMut() -> bool) -> bool {
    for _ in 0..10_000 {
        if f() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    f()
}

/// Waits until both sides' tables are empty; returns the last stats seen.
pub async fn settle(
    a: &capnarena_rpc::Connection,
    b: &capnarena_rpc::Connection,
) -> (Stats, Stats) {
    eventually(|| a.stats() == Stats::default() && b.stats() == Stats::default()).await;
    (a.stats(), b.stats())
}

/// The test server, but makeCounter and echoCap answer with a promise
/// (`Client::from_promise`) of their capability that resolves 50 ms
/// later (the delay is the scenario: calls reach the promise before its
/// resolution). The peers' interop tests serve it.
pub struct Later(pub Arc<TestServer>);

impl capnarena_rpc::Server for Later {
    fn dispatch(
        self: Arc<Self>,
        interface_id: u64,
        method_id: u16,
        params: capnarena_rpc::Params,
        mut results: capnarena_rpc::Results,
    ) -> capnarena_rpc::BoxFuture<capnarena_rpc::Result<capnarena_rpc::Results>> {
        let cap = match (interface_id, method_id) {
            (TEST, MAKE_COUNTER) => {
                word(&params, 0).map(|start| Client::from_server(Counter::new(start)))
            }
            (TEST, ECHO_CAP) => cap0(&params),
            _ => {
                return capnarena_rpc::Server::dispatch(
                    Arc::clone(&self.0),
                    interface_id,
                    method_id,
                    params,
                    results,
                );
            }
        };
        Box::pin(async move {
            let cap = cap?;
            let promise = Client::from_promise(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok(cap)
            });
            answer_cap(&mut results, promise)?;
            Ok(results)
        })
    }
}
