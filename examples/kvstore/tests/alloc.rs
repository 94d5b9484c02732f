//! Heap allocations per request of the key-value service, client and
//! server together, on tokio's multi-threaded runtime over 127.0.0.1,
//! counted by a `#[global_allocator]` that wraps `std::alloc::System`.
//!
//! The rule: after warm-up (the connections open, and one pass of the
//! same workload run, so every buffer and arena — the codecs' read and
//! write buffers, the request, response and scratch messages, the
//! client's output buffer — has grown to the largest message it sees), a
//! request and its response make 0 heap allocations on the client's and
//! the server's threads together, as long as the store needs none for the
//! user's values: gets of keys present and missing, puts that overwrite a
//! key's value with one of no more bytes than that value's buffer holds,
//! deletes of missing keys, and lists of entries and of keys. The
//! allocations a request may make are the store's own (a put of a new
//! key: the key's and value's copies and the map's nodes; a value larger
//! than the buffer it overwrites) and the text of a bad request's reason.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use capnarena_example_kvstore::{Client, Listed, Put, Store, serve};
use tokio::net::TcpListener;

/// Threads that are not counted.
const OTHER: u8 = 0;
/// The runtime's worker threads: the server's connection tasks.
const WORKER: u8 = 1;
/// The test's thread, which drives the clients.
const DRIVER: u8 = 2;

thread_local! {
    static ROLE: Cell<u8> = const { Cell::new(OTHER) };
}

/// Whether allocations are being counted.
static ON: AtomicBool = AtomicBool::new(false);
/// Allocations counted, on workers and on the driver.
static WORKER_ALLOCS: AtomicU64 = AtomicU64::new(0);
static DRIVER_ALLOCS: AtomicU64 = AtomicU64::new(0);

struct CountingAlloc;

impl CountingAlloc {
    fn note() {
        if ON.load(Ordering::Relaxed) {
            match ROLE.try_with(Cell::get).unwrap_or(OTHER) {
                WORKER => WORKER_ALLOCS.fetch_add(1, Ordering::Relaxed),
                DRIVER => DRIVER_ALLOCS.fetch_add(1, Ordering::Relaxed),
                _ => 0,
            };
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees hold; `note` only touches atomics
// and a const-initialised thread-local without destructor, which
// allocate nothing.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: the caller upholds `alloc`'s contract for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`, as the
        // caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note();
        // SAFETY: `ptr` was allocated by `System` with `layout`, and
        // `new_size` is valid, as the caller guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Allocations `f` makes on the workers and on the driver, in that order.
async fn count<T>(f: impl Future<Output = T>) -> (u64, u64, T) {
    WORKER_ALLOCS.store(0, Ordering::SeqCst);
    DRIVER_ALLOCS.store(0, Ordering::SeqCst);
    ON.store(true, Ordering::SeqCst);
    let out = f.await;
    ON.store(false, Ordering::SeqCst);
    (
        WORKER_ALLOCS.load(Ordering::SeqCst),
        DRIVER_ALLOCS.load(Ordering::SeqCst),
        out,
    )
}

const CLIENTS: usize = 4;
const KEYS: usize = 16;
const VALUE_LEN: usize = 100;
const LIST_LIMIT: u32 = 10;

/// One client and what it works on: its keys, a key no one writes, its
/// value buffer and the buffer `get` copies into (both sized up front:
/// the user's own memory).
struct Worker {
    client: Client,
    prefix: String,
    keys: Vec<String>,
    missing: String,
    value: Vec<u8>,
    out: Vec<u8>,
}

impl Worker {
    async fn new(addr: SocketAddr, id: usize) -> Self {
        let prefix = format!("c{id}/");
        Worker {
            client: Client::connect(addr).await.expect("connect"),
            keys: (0..KEYS).map(|k| format!("{prefix}key{k:02}")).collect(),
            missing: format!("{prefix}missing"),
            prefix,
            value: vec![0; VALUE_LEN],
            out: Vec::with_capacity(VALUE_LEN),
        }
    }

    /// Puts every key (new ones on the first call), with values of
    /// `VALUE_LEN` bytes that depend on `round`.
    async fn put_all(&mut self, round: u8, want: Put) {
        for (k, key) in self.keys.iter().enumerate() {
            self.value.fill(round ^ k as u8);
            let put = self.client.put(key, &self.value).await.expect("put");
            assert_eq!(put, want, "put {key}");
        }
    }

    /// One pass of the zero-allocation workload, after `put_all(round)`:
    /// per key a get, an overwriting put, a get of the new value, a get
    /// and a delete of a missing key; then lists. Returns the requests.
    async fn pass(&mut self, round: u8) -> u64 {
        let mut requests = 0;
        for (k, key) in self.keys.iter().enumerate() {
            assert!(self.client.get(key, &mut self.out).await.expect("get"));
            assert!(self.out.len() == VALUE_LEN && self.out.iter().all(|&b| b == round ^ k as u8));
            let next = round.wrapping_add(1);
            self.value.fill(next ^ k as u8);
            let put = self.client.put(key, &self.value).await.expect("put");
            assert_eq!(put, Put::Replaced);
            assert!(self.client.get(key, &mut self.out).await.expect("get"));
            assert!(self.out.iter().all(|&b| b == next ^ k as u8));
            assert!(
                !self
                    .client
                    .get(&self.missing, &mut self.out)
                    .await
                    .expect("get")
            );
            assert!(!self.client.delete(&self.missing).await.expect("delete"));
            requests += 5;
        }
        let next = round.wrapping_add(1);
        let mut seen = 0;
        let listed = self
            .client
            .list(&self.prefix, LIST_LIMIT, |key, value| {
                assert!(key.starts_with("c") && value.len() == VALUE_LEN);
                assert!(value.iter().all(|&b| b == next ^ seen as u8));
                seen += 1;
            })
            .await
            .expect("list");
        assert_eq!(
            listed,
            Listed {
                count: LIST_LIMIT,
                more: true
            }
        );
        let listed = self
            .client
            .list_keys(&self.prefix, u32::MAX, |key| assert!(key.starts_with("c")))
            .await
            .expect("list keys");
        assert_eq!(
            listed,
            Listed {
                count: KEYS as u32,
                more: false
            }
        );
        requests + 2
    }
}

/// After warm-up, gets, overwriting puts of same-size values, deletes of
/// missing keys and lists make 0 allocations per request, client and
/// server together, 4 clients at once on a multi-threaded runtime; and
/// the counter does see the server's allocations when the store grows
/// (puts of new keys), so its 0 is not blindness.
#[test]
fn requests_allocate_nothing_after_warm_up() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .on_thread_start(|| ROLE.with(|r| r.set(WORKER)))
        .build()
        .expect("runtime");
    ROLE.with(|r| r.set(DRIVER));
    rt.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let store = Arc::new(Store::new(10_000));
        let server = tokio::spawn(serve(listener, Arc::clone(&store), CLIENTS));
        let mut w = Vec::new();
        for id in 0..CLIENTS {
            w.push(Worker::new(addr, id).await);
        }
        let [a, b, c, d] = &mut w[..] else {
            unreachable!("{CLIENTS} clients")
        };

        // Warm-up: the keys made, then one pass of the workload.
        tokio::join!(
            a.put_all(0, Put::Created),
            b.put_all(0, Put::Created),
            c.put_all(0, Put::Created),
            d.put_all(0, Put::Created),
        );
        tokio::join!(a.pass(0), b.pass(0), c.pass(0), d.pass(0));

        // Counted: three more passes.
        let (workers, driver, requests) = count(async {
            let mut requests = 0;
            for round in 1..4 {
                let (ra, rb, rc, rd) =
                    tokio::join!(a.pass(round), b.pass(round), c.pass(round), d.pass(round));
                requests += ra + rb + rc + rd;
            }
            requests
        })
        .await;
        println!(
            "{requests} requests after warm-up: {workers} allocations on the server's \
             threads, {driver} on the clients'"
        );
        assert_eq!(requests, 3 * CLIENTS as u64 * (5 * KEYS as u64 + 2));
        assert_eq!(
            (workers, driver),
            (0, 0),
            "allocations in {requests} requests (server's threads, clients')"
        );

        // The control: puts of new keys allocate in the store, on the
        // server's threads, and the counter sees it.
        let (workers, _, ()) = count(async {
            for k in 0..KEYS {
                let key = format!("new/key{k:02}");
                let put = a.client.put(&key, &a.value).await.expect("put");
                assert_eq!(put, Put::Created);
            }
        })
        .await;
        assert!(
            workers >= KEYS as u64,
            "{KEYS} new keys, {workers} allocations counted on the server's threads"
        );

        drop(w);
        let served = server.await.expect("server task").expect("server");
        assert_eq!(
            served,
            4 * (KEYS as u64 + 4 * (5 * KEYS as u64 + 2)) + KEYS as u64
        );
        assert_eq!(store.len(), CLIENTS * KEYS + KEYS);
    });
}
