//! Both sides capnarena, over an in-process duplex stream: bootstrap,
//! calls, concurrency, capabilities both ways and their release,
//! pipelining, exceptions, cancellation, shutdown.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use capnarena::StructSize;
use capnarena_rpc::{Client, Connection, ErrorKind, Options, Stats};
use common::*;

/// A server connection offering a `TestServer` and a client connection
/// over one duplex; the server's counters.
fn pair() -> (Connection, Connection, Arc<TestServer>) {
    let server = Arc::new(TestServer::default());
    let (a, b) = tokio::io::duplex(1 << 16);
    let s = Connection::new(
        a,
        Some(Client::from_arc(server.clone())),
        Options::default(),
    );
    let c = Connection::new(b, None, Options::default());
    (s, c, server)
}

/// A call on the bootstrap capability returns the server's answer, and
/// once the client is dropped both connections' tables are empty.
#[tokio::test]
async fn bootstrap_call_and_tables_empty_after() {
    let (s, c, _) = pair();
    let test = c.bootstrap();
    assert_eq!(add(&test, 40, 2).await.unwrap(), 42);
    assert_eq!(add(&test, u64::MAX, 2).await.unwrap(), 1);
    drop(test);
    let (ss, cs) = settle(&s, &c).await;
    assert_eq!((ss, cs), (Stats::default(), Stats::default()));
    c.shutdown().await.unwrap();
    assert!(s.closed().await.is_ok());
}

/// Clones of one client used from many tasks of the multi-threaded
/// runtime at once all get their own answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_from_many_tasks() {
    let (s, c, _) = pair();
    let test = c.bootstrap();
    let mut tasks = Vec::new();
    for t in 0..16u64 {
        let test = test.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..100u64 {
                assert_eq!(add(&test, t * 1000, i).await.unwrap(), t * 1000 + i);
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    drop(test);
    let (ss, cs) = settle(&s, &c).await;
    assert_eq!((ss, cs), (Stats::default(), Stats::default()));
}

/// A capability made by the server is returned, called by the client,
/// passed back to the server (which sees its own object: receiverHosted)
/// and echoed; a client capability is passed to the server, which calls
/// it back. Dropping everything empties every table on both sides.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capabilities_both_ways_and_released() {
    let (s, c, _) = pair();
    let test = c.bootstrap();

    // Server to client.
    let mut request = test.new_call(TEST, MAKE_COUNTER);
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, 100);
    let response = request.send().response.await.unwrap();
    let counter = response
        .cap(
            response
                .read(|r| Ok(r.get_struct()?.pointer(0).get_capability()?))
                .unwrap(),
        )
        .unwrap();
    drop(response);
    assert_eq!(increment(&counter).await.unwrap(), 101);
    // The counter is the one capability held across the connection (the
    // bootstrap's import was released when its question's results were
    // dropped; calls on it go to the question, still open).
    assert!(eventually(|| s.stats().exports == 1 && c.stats().imports == 1).await);

    // Back to the server and echoed: the same import comes back.
    let mut request = test.new_call(TEST, ECHO_CAP);
    let index = request.add_cap(counter.clone());
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(0, 1))
        .unwrap()
        .pointer(0)
        .set_capability(index);
    let response = request.send().response.await.unwrap();
    let echoed = response.cap(0).unwrap();
    assert!(echoed.same_as(&counter), "{echoed:?} is not {counter:?}");
    assert_eq!(increment(&echoed).await.unwrap(), 102);
    drop((response, echoed));

    // Client to server, called back by the server.
    let mine = Client::from_server(Counter::new(7));
    let mut request = test.new_call(TEST, CALL_BACK);
    let index = request.add_cap(mine.clone());
    let mut p = request
        .params()
        .unwrap()
        .init_struct(StructSize::new(1, 1))
        .unwrap();
    p.set::<u64>(0, 3);
    p.pointer(0).set_capability(index);
    let response = request.send().response.await.unwrap();
    assert_eq!(
        response
            .read(|r| Ok(r.get_struct()?.get::<u64>(0)))
            .unwrap(),
        10
    );
    drop(response);
    assert_eq!(increment(&mine).await.unwrap(), 11);

    drop((test, counter, mine));
    let (ss, cs) = settle(&s, &c).await;
    assert_eq!((ss, cs), (Stats::default(), Stats::default()));
}

/// A call on a capability of results not yet returned (promise
/// pipelining) reaches it, on the connection and on a local server, and
/// such calls keep the order they were made in (E-order) however their
/// responses are awaited: the second one's, awaited first, is 12.
#[tokio::test]
async fn pipelined_calls() {
    let (s, c, _) = pair();
    for test in [c.bootstrap(), Client::from_server(TestServer::default())] {
        let mut request = test.new_call(TEST, MAKE_COUNTER);
        request
            .params()
            .unwrap()
            .init_struct(StructSize::new(1, 0))
            .unwrap()
            .set::<u64>(0, 10);
        let sent = request.send();
        let counter = sent.pipeline.pointer_field(0).client();
        // Two calls before the results are awaited.
        let first = counter.new_call(COUNTER, INCREMENT).send();
        let second = counter.new_call(COUNTER, INCREMENT).send();
        let read = |r: capnarena_rpc::Response| r.read(|r| Ok(r.get_struct()?.get::<u64>(0)));
        assert_eq!(read(second.response.await.unwrap()).unwrap(), 12);
        assert_eq!(read(first.response.await.unwrap()).unwrap(), 11);
        // A pointer field with no capability there: a broken capability.
        let nothing = sent.pipeline.pointer_field(3).client();
        assert!(increment(&nothing).await.is_err());
        drop(sent);
        assert_eq!(increment(&counter).await.unwrap(), 13);
    }
    let (ss, cs) = settle(&s, &c).await;
    assert_eq!((ss, cs), (Stats::default(), Stats::default()));
}

/// A server's error reaches the caller with its kind and reason, for
/// every kind; an unknown method is `Unimplemented`.
#[tokio::test]
async fn exceptions_keep_their_kind() {
    let (_s, c, _) = pair();
    let test = c.bootstrap();
    for kind in [
        ErrorKind::Failed,
        ErrorKind::Overloaded,
        ErrorKind::Disconnected,
        ErrorKind::Unimplemented,
    ] {
        let mut request = test.new_call(TEST, FAIL);
        request
            .params()
            .unwrap()
            .init_struct(StructSize::new(1, 0))
            .unwrap()
            .set::<u64>(0, kind_number(kind));
        let Err(e) = request.send().response.await else {
            panic!("no error")
        };
        assert_eq!(e.kind, kind);
        assert_eq!(e.reason, "asked to fail");
    }
    let Err(e) = test.new_call(TEST, 99).send().response.await else {
        panic!("no error")
    };
    assert_eq!(e.kind, ErrorKind::Unimplemented);
    let Err(e) = test.new_call(0x77, 0).send().response.await else {
        panic!("no error")
    };
    assert_eq!(e.kind, ErrorKind::Unimplemented);
}

/// Dropping a call's response (and pipeline) sends `Finish`: the server's
/// future is dropped and the answer forgotten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_call_cancels_it() {
    let (s, c, server) = pair();
    let test = c.bootstrap();
    let sent = test.new_call(TEST, WAIT).send();
    assert!(eventually(|| server.waits_started.load(Ordering::SeqCst) == 1).await);
    assert_eq!(server.waits_dropped.load(Ordering::SeqCst), 0);
    drop(sent);
    assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
    // The bootstrap is all that is left.
    assert_eq!(add(&test, 1, 1).await.unwrap(), 2);
    drop(test);
    let (ss, cs) = settle(&s, &c).await;
    assert_eq!((ss, cs), (Stats::default(), Stats::default()));
}

/// Shutting a connection down fails its calls in flight as disconnected,
/// and the peer sees the connection end.
#[tokio::test]
async fn shutdown_fails_calls_in_flight() {
    let (s, c, server) = pair();
    let test = c.bootstrap();
    let sent = test.new_call(TEST, WAIT).send();
    assert!(eventually(|| server.waits_started.load(Ordering::SeqCst) == 1).await);
    c.shutdown().await.unwrap();
    let Err(e) = sent.response.await else {
        panic!("no error")
    };
    assert_eq!(e.kind, ErrorKind::Disconnected);
    assert!(s.closed().await.is_ok());
    assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
    let Err(e) = add(&test, 1, 2).await else {
        panic!("no error")
    };
    assert_eq!(e.kind, ErrorKind::Disconnected);
}

/// Bootstrap in both directions on one connection.
#[tokio::test]
async fn bootstrap_both_ways() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let x = Connection::new(
        a,
        Some(Client::from_server(Counter::new(0))),
        Options::default(),
    );
    let y = Connection::new(
        b,
        Some(Client::from_server(Counter::new(50))),
        Options::default(),
    );
    assert_eq!(increment(&y.bootstrap()).await.unwrap(), 1);
    assert_eq!(increment(&x.bootstrap()).await.unwrap(), 51);
    let (xs, ys) = settle(&x, &y).await;
    assert_eq!((xs, ys), (Stats::default(), Stats::default()));
}

/// Calls reach an object in the order they were sent (E-order), also
/// when they were pipelined on results not yet in and are delivered once
/// the results come: 200 increments pipelined on a new counter count
/// 1..=200 in the order sent (the counter counts in `dispatch`).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pipelined_calls_keep_their_order() {
    let (s, c, _) = pair();
    let test = c.bootstrap();
    for _ in 0..5 {
        let mut request = test.new_call(TEST, MAKE_COUNTER);
        request
            .params()
            .unwrap()
            .init_struct(StructSize::new(1, 0))
            .unwrap()
            .set::<u64>(0, 0);
        let sent = request.send();
        let counter = sent.pipeline.pointer_field(0).client();
        let calls: Vec<_> = (0..200)
            .map(|_| counter.new_call(COUNTER, INCREMENT).send().response)
            .collect();
        let mut seen = Vec::new();
        for call in calls {
            let r = call.await.unwrap();
            seen.push(r.read(|r| Ok(r.get_struct()?.get::<u64>(0))).unwrap());
        }
        assert_eq!(seen, (1..=200).collect::<Vec<u64>>());
    }
    drop(test);
    let (ss, cs) = settle(&s, &c).await;
    assert_eq!((ss, cs), (Stats::default(), Stats::default()));
}

/// `abort` sends the peer an `Abort` with the reason: both sides end with
/// an error saying it, and calls in flight fail.
#[tokio::test]
async fn abort_reaches_the_peer() {
    let (s, c, server) = pair();
    let test = c.bootstrap();
    let sent = test.new_call(TEST, WAIT).send();
    assert!(eventually(|| server.waits_started.load(Ordering::SeqCst) == 1).await);
    s.abort("maintenance");
    let e = c.closed().await.unwrap_err();
    assert!(e.reason.contains("maintenance"), "{e}");
    let e = s.closed().await.unwrap_err();
    assert!(e.reason.contains("maintenance"), "{e}");
    let Err(e) = sent.response.await else {
        panic!("no error")
    };
    assert!(e.reason.contains("maintenance"), "{e}");
    assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
    assert_eq!((s.stats(), c.stats()), (Stats::default(), Stats::default()));
}

/// The types a caller shares between tasks are `Send + Sync` (clients
/// also `Clone`), and the rest a task moves are `Send`.
#[test]
fn shared_types_are_send_and_sync() {
    fn send_sync_clone<T: Send + Sync + Clone>() {}
    fn send<T: Send>() {}
    send_sync_clone::<Client>();
    send_sync_clone::<capnarena_rpc::Pipeline>();
    send_sync_clone::<capnarena_rpc::Response>();
    send::<capnarena_rpc::Request>();
    send::<capnarena_rpc::Sent>();
    send::<capnarena_rpc::Params>();
    send::<capnarena_rpc::Results>();
    send::<Connection>();
    fn sync<T: Sync>() {}
    sync::<Connection>();
}

/// Regression: a capability pipelined on a call's results, passed in the
/// parameters of another call, stays good when the caller drops its last
/// reference to the first call right after sending (its Finish arrives
/// before the first call has returned). The answer must not be canceled
/// while this side still waits on its results: the callee keeps running
/// it, and the second call reaches the capability. (It failed with "the
/// call was canceled".)
#[tokio::test]
async fn finish_before_return_keeps_answer_referenced_by_params() {
    let (s, c, _) = pair();
    let test = c.bootstrap();
    for round in 0..20u64 {
        let mut request = test.new_call(TEST, MAKE_COUNTER);
        request
            .params()
            .unwrap()
            .init_struct(StructSize::new(1, 0))
            .unwrap()
            .set::<u64>(0, round);
        let counter = request.send().pipeline.pointer_field(0).client();
        let mut request = test.new_call(TEST, CALL_BACK);
        let index = request.add_cap(counter);
        let mut p = request
            .params()
            .unwrap()
            .init_struct(StructSize::new(1, 1))
            .unwrap();
        p.set::<u64>(0, 2);
        p.pointer(0).set_capability(index);
        let response = request.send().response.await.unwrap();
        let last = response.read(|r| Ok(r.get_struct()?.get::<u64>(0)));
        assert_eq!(last.unwrap(), round + 2, "round {round}");
    }
    drop(test);
    let (ss, cs) = settle(&s, &c).await;
    assert_eq!((ss, cs), (Stats::default(), Stats::default()));
}

/// A call whose return came in before the connection ended still reads
/// its results after it ended (the caller waits on the question's entry,
/// which the end keeps, settled, while a handle refers to it), a call
/// still in flight then fails as disconnected, and both entries go with
/// their handles.
#[tokio::test(flavor = "current_thread")]
async fn results_in_before_the_end_are_read_after_it() {
    let (s, c, server) = pair();
    let test = c.bootstrap();
    let mut request = test.new_call(TEST, ADD);
    let mut p = request
        .params()
        .unwrap()
        .init_struct(StructSize::new(2, 0))
        .unwrap();
    p.set::<u64>(0, 20);
    p.set::<u64>(1, 22);
    let first = request.send();
    // Returns come in the order of the calls here (each answered at
    // once): once the second is in, so is the first.
    assert_eq!(add(&test, 1, 2).await.unwrap(), 3);
    let waiting = test.new_call(TEST, WAIT).send();
    assert!(eventually(|| server.waits_started.load(Ordering::SeqCst) == 1).await);
    c.shutdown().await.unwrap();
    let response = first.response.await.unwrap();
    assert_eq!(
        response
            .read(|r| Ok(r.get_struct()?.get::<u64>(0)))
            .unwrap(),
        42
    );
    match waiting.response.await {
        Err(e) => assert_eq!(e.kind, ErrorKind::Disconnected, "{e}"),
        Ok(_) => panic!("a call in flight at the end returned"),
    }
    drop((response, first.pipeline, waiting.pipeline, test));
    assert!(s.closed().await.is_ok());
}

/// Answers method 0 with a future that panics, anything else at once.
struct Panicky;

impl capnarena_rpc::Server for Panicky {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        method_id: u16,
        _params: capnarena_rpc::Params,
        mut results: capnarena_rpc::Results,
    ) -> capnarena_rpc::BoxFuture<capnarena_rpc::Result<capnarena_rpc::Results>> {
        Box::pin(async move {
            if method_id == 0 {
                panic!("a server's bug");
            }
            answer_u64(&mut results, 7)?;
            Ok(results)
        })
    }
}

/// A server's future that panics fails its call with an error; the
/// connection goes on answering (its futures share one task, which the
/// panic must not end). The bound only keeps a broken build from hanging.
#[tokio::test(flavor = "current_thread")]
async fn a_panicking_server_future_fails_only_its_call() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let _s = Connection::new(a, Some(Client::from_server(Panicky)), Options::default());
    let c = Connection::new(b, None, Options::default());
    let cap = c.bootstrap();
    let bound = std::time::Duration::from_secs(20);
    let failed = tokio::time::timeout(bound, cap.new_call(TEST, 0).send().response).await;
    match failed.expect("the panicking call never returned") {
        Err(e) => assert!(e.reason.contains("panicked"), "{e}"),
        Ok(_) => panic!("a panicking call returned results"),
    }
    let fine = tokio::time::timeout(bound, cap.new_call(TEST, 1).send().response).await;
    let response = fine.expect("the next call never returned").unwrap();
    assert_eq!(
        response
            .read(|r| Ok(r.get_struct()?.get::<u64>(0)))
            .unwrap(),
        7
    );
}

/// A local call (a server in this process) whose future panics fails
/// with an error rather than leaving its caller waiting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_local_call_fails() {
    let cap = Client::from_server(Panicky);
    let bound = std::time::Duration::from_secs(20);
    let failed = tokio::time::timeout(bound, cap.new_call(TEST, 0).send().response).await;
    match failed.expect("the panicking local call never returned") {
        Err(e) => assert!(e.reason.contains("panicked"), "{e}"),
        Ok(_) => panic!("a panicking call returned results"),
    }
    let sent = cap.new_call(TEST, 1).send();
    let pipelined = sent.pipeline.pointer_field(0).client();
    drop(pipelined);
    let response = tokio::time::timeout(bound, sent.response).await.unwrap();
    assert_eq!(
        response
            .unwrap()
            .read(|r| Ok(r.get_struct()?.get::<u64>(0)))
            .unwrap(),
        7
    );
}

/// Dropping a local call's response and pipeline drops the server's
/// future (its task is aborted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_local_call_cancels_it() {
    let server = Arc::new(TestServer::default());
    let test = Client::from_arc(server.clone());
    let sent = test.new_call(TEST, WAIT).send();
    assert!(eventually(|| server.waits_started.load(Ordering::SeqCst) == 1).await);
    let pipelined = sent.pipeline.pointer_field(0).client();
    drop(sent);
    // A pipelined client still holds the call.
    tokio::task::yield_now().await;
    assert_eq!(server.waits_dropped.load(Ordering::SeqCst), 0);
    drop(pipelined);
    assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
}
