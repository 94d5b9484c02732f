//! Promise clients made by `Client::from_promise`: calls queue in order
//! until the resolution and then go there, through chains of promises
//! too; an error, a resolver gone, or a cycle breaks them; the queue is
//! bounded; once resolved to a local server, calls are local; passed to
//! a peer over a connection, the promise is exported as one, resolved
//! by a `Resolve`, and every table is empty after.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use capnarena_rpc::{
    BoxFuture, Client, Connection, Error, ErrorKind, MAX_QUEUED_CALLS, Options, Params, Results,
    Server, Stats,
};
use common::*;
use tokio::sync::oneshot;

/// A promise client and the sender that resolves it.
fn promise() -> (Client, oneshot::Sender<capnarena_rpc::Result<Client>>) {
    let (tx, rx) = oneshot::channel();
    let client = Client::from_promise(async move {
        rx.await
            .unwrap_or_else(|_| Err(Error::failed("the resolver was dropped")))
    });
    (client, tx)
}

/// A counter whose drop is counted.
struct Dropped(Arc<Counter>, Arc<AtomicUsize>);

impl Drop for Dropped {
    fn drop(&mut self) {
        self.1.fetch_add(1, Ordering::SeqCst);
    }
}

impl Server for Dropped {
    fn dispatch(
        self: Arc<Self>,
        interface_id: u64,
        method_id: u16,
        params: Params,
        results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        Arc::clone(&self.0).dispatch(interface_id, method_id, params, results)
    }
}

/// A test server's counter starting at `start`, made by `test`.
async fn make_counter(test: &Client, start: u64) -> Client {
    let mut request = test.new_call(TEST, MAKE_COUNTER);
    request
        .params()
        .unwrap()
        .init_struct(capnarena::StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, start);
    let response = request.send().response.await.unwrap();
    let index = response
        .read(|c| Ok(c.get_struct()?.pointer(0).get_capability()?))
        .unwrap();
    response.cap(index).unwrap()
}

/// Calls made before the resolution queue and reach the resolution in
/// the order they were made, before a call made after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_queued_on_a_promise_arrive_in_order() {
    let (client, resolve) = promise();
    let early: Vec<_> = (0..5)
        .map(|_| client.new_call(COUNTER, INCREMENT).send().response)
        .collect();
    resolve.send(Ok(Client::from_server(Counter::new(10)))).ok();
    let late = increment(&client).await.unwrap();
    let mut values = Vec::new();
    for response in early {
        let r = response.await.unwrap();
        values.push(r.read(|c| Ok(c.get_struct()?.get::<u64>(0))).unwrap());
    }
    assert_eq!(values, vec![11, 12, 13, 14, 15]);
    assert_eq!(late, 16);
}

/// A promise that resolves to an error fails the calls queued on it and
/// those made after, with the error's kind and reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_resolved_to_an_error_breaks_its_calls() {
    let (client, resolve) = promise();
    let early = client.new_call(COUNTER, INCREMENT).send().response;
    resolve
        .send(Err(Error::new(ErrorKind::Disconnected, "gone away")))
        .ok();
    let e = early.await.err().unwrap();
    assert_eq!(
        (e.kind, e.reason.as_str()),
        (ErrorKind::Disconnected, "gone away")
    );
    let e = increment(&client).await.err().unwrap();
    assert_eq!(e.kind, ErrorKind::Disconnected, "{e}");
}

/// A promise whose resolver goes without resolving it fails its calls
/// instead of leaving them waiting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_never_resolved_fails_its_calls() {
    let (client, resolve) = promise();
    let early = client.new_call(COUNTER, INCREMENT).send().response;
    drop(resolve);
    let e = early.await.err().unwrap();
    assert!(e.reason.contains("resolver was dropped"), "{e}");
}

/// Calls pipelined on a call queued on a promise reach the capability of
/// its results.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_pipelined_on_a_queued_call_reach_its_results() {
    let (client, resolve) = promise();
    let mut request = client.new_call(TEST, MAKE_COUNTER);
    request
        .params()
        .unwrap()
        .init_struct(capnarena::StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, 100);
    let sent = request.send();
    let counter = sent.pipeline.pointer_field(0).client();
    let first = counter.new_call(COUNTER, INCREMENT).send().response;
    resolve
        .send(Ok(Client::from_server(TestServer::default())))
        .ok();
    let r = first.await.unwrap();
    assert_eq!(r.read(|c| Ok(c.get_struct()?.get::<u64>(0))).unwrap(), 101);
    assert_eq!(increment(&counter).await.unwrap(), 102);
    drop(sent.response.await.unwrap());
}

/// The queue of a promise holds at most `MAX_QUEUED_CALLS` calls: the
/// next fails as overloaded, with the number; the queued ones still go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_of_a_promise_is_bounded() {
    let (client, resolve) = promise();
    let queued: Vec<_> = (0..MAX_QUEUED_CALLS)
        .map(|_| client.new_call(COUNTER, INCREMENT).send().response)
        .collect();
    let e = client
        .new_call(COUNTER, INCREMENT)
        .send()
        .response
        .await
        .err()
        .unwrap();
    assert_eq!(e.kind, ErrorKind::Overloaded, "{e}");
    assert!(e.reason.contains(&MAX_QUEUED_CALLS.to_string()), "{e}");
    resolve.send(Ok(Client::from_server(Counter::new(0)))).ok();
    let mut expected = 0;
    for response in queued {
        let r = response.await.unwrap();
        expected += 1;
        assert_eq!(
            r.read(|c| Ok(c.get_struct()?.get::<u64>(0))).unwrap(),
            expected
        );
    }
    assert_eq!(expected, MAX_QUEUED_CALLS as u64);
}

/// A promise passed to a peer: the peer's calls made before and after
/// the resolution arrive in order; the resolution's server is freed once
/// the peer lets go, and every table is empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_passed_to_a_peer_resolves_there() {
    let drops = Arc::new(AtomicUsize::new(0));
    let (promised, resolve) = promise();
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Connection::new(a, Some(promised), Options::default());
    let client = Connection::new(b, None, Options::default());
    let remote = client.bootstrap();
    let early: Vec<_> = (0..3)
        .map(|_| remote.new_call(COUNTER, INCREMENT).send().response)
        .collect();
    // The bootstrap and the three calls are in before it resolves.
    assert!(
        eventually(|| server.stats().answers == 4).await,
        "{:?}",
        server.stats()
    );
    resolve
        .send(Ok(Client::from_server(Dropped(
            Arc::new(Counter::new(0)),
            Arc::clone(&drops),
        ))))
        .ok();
    let mut values = Vec::new();
    for response in early {
        let r = response.await.unwrap();
        values.push(r.read(|c| Ok(c.get_struct()?.get::<u64>(0))).unwrap());
    }
    assert_eq!(values, vec![1, 2, 3]);
    assert_eq!(increment(&remote).await.unwrap(), 4);
    drop(remote);
    assert!(
        eventually(|| client.stats() == Stats::default()).await,
        "{:?}",
        client.stats()
    );
    assert!(
        eventually(|| server.stats().exports == 0 && server.stats().answers == 0).await,
        "{:?}",
        server.stats()
    );
    client.shutdown().await.unwrap();
    drop(server);
    assert!(eventually(|| drops.load(Ordering::SeqCst) == 1).await);
}

/// A promise that resolves to a capability of the peer that holds it:
/// the peer's calls on the promise made before the resolution come back
/// to it through this side, and those after too, in order; the peer
/// takes the `Resolve` naming its own capability; every table is empty
/// after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_resolved_to_the_peers_own_capability() {
    let (promised, resolve) = promise();
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Connection::new(a, Some(promised), Options::default());
    let client = Connection::new(
        b,
        Some(Client::from_server(TestServer::default())),
        Options::default(),
    );
    let remote = client.bootstrap();
    let early = remote.new_call(COUNTER, INCREMENT).send().response;
    // A counter the client hosts, imported by the server.
    let import = make_counter(&server.bootstrap(), 50).await;
    resolve.send(Ok(import)).ok();
    let r = early.await.unwrap();
    assert_eq!(r.read(|c| Ok(c.get_struct()?.get::<u64>(0))).unwrap(), 51);
    drop(r);
    assert_eq!(increment(&remote).await.unwrap(), 52);
    drop(remote);
    assert!(
        eventually(|| client.stats().questions == 0 && client.stats().imports == 0).await,
        "{:?}",
        client.stats()
    );
    client.shutdown().await.unwrap();
    assert!(
        eventually(|| server.stats() == Stats::default()).await,
        "{:?}",
        server.stats()
    );
}

/// Counts its calls in `dispatch`, as they are delivered.
struct Tally(Arc<AtomicUsize>);

impl Server for Tally {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        _method_id: u16,
        _params: Params,
        results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { Ok(results) })
    }
}

/// Once a promise has resolved to a local server, a call on it is a
/// local call: delivered inside `send`, with no wait on the promise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_resolved_to_a_local_server_is_called_locally() {
    let calls = Arc::new(AtomicUsize::new(0));
    let (client, resolve) = promise();
    resolve
        .send(Ok(Client::from_server(Tally(Arc::clone(&calls)))))
        .ok();
    client.new_call(0, 0).send().response.await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let sent = client.new_call(0, 0).send();
    assert_eq!(calls.load(Ordering::SeqCst), 2, "not delivered in send");
    sent.response.await.unwrap();
}

/// A promise that resolves to another promise not resolved yet: the
/// calls made on the first reach the end in the order they were made,
/// before and after its resolution (calls on the second are another
/// reference's: no order between them and the first's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_through_a_chain_of_promises_keep_their_order() {
    for _ in 0..20 {
        let (outer, resolve_outer) = promise();
        let (inner, resolve_inner) = promise();
        let first = outer.new_call(COUNTER, INCREMENT).send().response;
        let other = inner.new_call(COUNTER, INCREMENT).send().response;
        resolve_outer.send(Ok(inner.clone())).ok();
        tokio::task::yield_now().await;
        // Queued on the outer promise or, once it has resolved, on the
        // inner one: behind `first` either way.
        let second = outer.new_call(COUNTER, INCREMENT).send().response;
        resolve_inner
            .send(Ok(Client::from_server(Counter::new(0))))
            .ok();
        let mut values = Vec::new();
        for response in [first, other, second] {
            let r = response.await.unwrap();
            values.push(r.read(|c| Ok(c.get_struct()?.get::<u64>(0))).unwrap());
        }
        assert!(values[0] < values[2], "{values:?}");
        values.sort();
        assert_eq!(values, [1, 2, 3]);
    }
}

/// A promise resolved to itself fails its calls instead of passing
/// them round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_resolved_to_itself_fails_its_calls() {
    let (client, resolve) = promise();
    let queued = client.new_call(COUNTER, INCREMENT).send().response;
    resolve.send(Ok(client.clone())).ok();
    let e = queued.await.err().unwrap();
    assert!(e.reason.contains("cycle"), "{e}");
}

/// A call made on a promise goes on when every client of the promise is
/// dropped before it resolves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_outlives_the_promise_clients_it_was_made_on() {
    let (client, resolve) = promise();
    let response = client.new_call(COUNTER, INCREMENT).send().response;
    drop(client);
    resolve.send(Ok(Client::from_server(Counter::new(6)))).ok();
    let r = response.await.unwrap();
    assert_eq!(r.read(|c| Ok(c.get_struct()?.get::<u64>(0))).unwrap(), 7);
}

/// Increments its counter when dropped.
struct DropFlag(Arc<AtomicUsize>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// The future of a promise no one holds any more is dropped, not left
/// running: once the client and the calls made on it are gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_promise_dropped_unresolved_drops_its_future() {
    let dropped = Arc::new(AtomicUsize::new(0));
    let flag = DropFlag(Arc::clone(&dropped));
    let client = Client::from_promise(async move {
        let _flag = flag;
        std::future::pending::<capnarena_rpc::Result<Client>>().await
    });
    let call = client.new_call(COUNTER, INCREMENT).send();
    drop(client);
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        0,
        "dropped while a call waits"
    );
    drop(call);
    assert!(eventually(|| dropped.load(Ordering::SeqCst) == 1).await);
}
