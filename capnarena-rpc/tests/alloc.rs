//! Heap allocations per call after warm-up, counted by a global
//! allocator: a call and its return over a connection (both sides, one
//! process) and a local call. The figures are deterministic on the
//! current-thread runtime and asserted exactly, so a change that allocates
//! more per call (or fewer, which then belongs in the figures) fails here.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use capnarena_rpc::{Client, Connection, Options};
use common::*;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: defers every operation to the system allocator unchanged; only
// counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (above).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations per call, averaged over `n` calls after `n` of warm-up.
async fn per_call(test: &Client, n: u64) -> f64 {
    for i in 0..n {
        assert_eq!(add(test, i, 1).await.unwrap(), i + 1);
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for i in 0..n {
        assert_eq!(add(test, i, 1).await.unwrap(), i + 1);
    }
    (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / n as f64
}

/// A call over a connection, both sides counted, allocates exactly once
/// after warm-up: the server's boxed future, which its `dispatch` makes
/// (a future of the server's own type and size; holding it in reused
/// memory would take unsafe code, which the crate forbids). Messages and
/// frames are reused, the caller waits on its question's entry (no
/// channel, no shared handle), the payloads are held in place, and the
/// connection's call runner polls the server's future in a reused slot
/// (no task per call). A local call allocates 6 times: its two messages
/// (not pooled), the server's boxed future, the task it runs in, the
/// entry its response future and pipeline share, and the results shared
/// by the clones of the response.
#[tokio::test(flavor = "current_thread")]
async fn allocations_per_call() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let _s = Connection::new(
        a,
        Some(Client::from_server(TestServer::default())),
        Options::default(),
    );
    let c = Connection::new(b, None, Options::default());
    let remote = per_call(&c.bootstrap(), 2000).await;
    let local = per_call(&Client::from_server(TestServer::default()), 2000).await;
    println!("allocations per call: {remote:.2} over a connection, {local:.2} local");
    assert_eq!(remote, 1.0);
    assert_eq!(local, 6.0);
    typed_allocations_per_call().await;
}

/// Allocations per typed call (the generated client and server of
/// tests/generated/test_capnp.rs), averaged over `n` after `n` of warm-up.
async fn typed_per_call(test: &typed::test::Client, n: u64) -> f64 {
    for i in 0..n {
        assert_eq!(typed::add(test, i, 1).await.unwrap(), i + 1);
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for i in 0..n {
        assert_eq!(typed::add(test, i, 1).await.unwrap(), i + 1);
    }
    (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / n as f64
}

/// The generated typed client and server allocate no more per call than
/// the untyped API they are written on: 1 over a connection (the boxed
/// future the generated dispatch makes of the method's), 6 locally. (Called by `allocations_per_call`: the count is process-wide,
/// so the measurements run one after the other.)
async fn typed_allocations_per_call() {
    use capnarena_rpc::FromClient;
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = typed::test::Client::from_server(typed::TypedTest::default());
    let _s = Connection::new(a, Some(server.clone().into_client()), Options::default());
    let c = Connection::new(b, None, Options::default());
    let remote = typed_per_call(&typed::test::Client::from_client(c.bootstrap()), 2000).await;
    let local = typed_per_call(&server, 2000).await;
    println!("typed allocations per call: {remote:.2} over a connection, {local:.2} local");
    assert_eq!(remote, 1.0);
    assert_eq!(local, 6.0);
}
