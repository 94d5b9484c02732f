//! The generated typed client and server (tests/generated/test_capnp.rs)
//! between two capnarena connections in one process: every method of the
//! interop schema, then every table empty and the canceled call's server
//! future dropped.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use capnarena_rpc::{Client, Connection, FromClient, Options, Stats};
use common::typed::*;

/// A typed client calls a typed server through every method (see
/// `call_all`); the canceled `wait` drops the server's future; both
/// connections' tables are empty at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_client_calls_typed_server() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Arc::new(TypedTest::default());
    let bootstrap = test::Client::from_arc(Arc::clone(&server)).into_client();
    let serving = Connection::new(a, Some(bootstrap), Options::default());
    let calling = Connection::new(b, None, Options::default());
    let test = test::Client::from_client(calling.bootstrap());
    call_all(&test).await;
    drop(test);
    let (x, y) = common::settle(&serving, &calling).await;
    assert_eq!((x, y), (Stats::default(), Stats::default()));
    assert_eq!(server.waits_started.load(Ordering::SeqCst), 1);
    assert!(common::eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
    calling.shutdown().await.unwrap();
}

/// The typed client of a server in this process (no connection): the same
/// answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_client_calls_local_server() {
    let test = test::Client::from_server(TypedTest::default());
    call_all(&test).await;
    let _: Client = test.into_client();
}
