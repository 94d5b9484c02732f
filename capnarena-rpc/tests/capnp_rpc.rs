//! Interop with capnproto-rust's RPC (the `capnp-rpc` crate, 0.27) in
//! both directions, over an in-process duplex: capnarena calls a counter
//! capnp-rpc serves (calls, an unknown method), and capnp-rpc calls
//! capnarena's test server (a call, calls pipelined on a capability of
//! results not yet in, an exception with its type, calls pipelined on a
//! capability a running call handed out with `set_pipeline`, a promise
//! capability that resolves later: to a capnarena object, to an error,
//! and to capnp-rpc's own object, with capnp-rpc's embargo); every table
//! of the capnarena side is empty after. capnp-rpc has no `Send` types, so both sides run on
//! one thread (a tokio `LocalSet`). Contents cross between the two
//! libraries' messages as framed bytes, as the untyped APIs have them.

mod common;

use std::cell::Cell;
use std::ops::Deref;
use std::rc::Rc;

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
use capnarena_rpc::{Client, Connection, ErrorKind, Options, Stats};
use capnp::any_pointer;
use capnp::capability::{DispatchCallResult, FromClientHook, FromServer, Promise};
use capnp_rpc::rpc_twoparty_capnp::Side;
use capnp_rpc::{RpcSystem, twoparty};
use common::*;
use tokio_util::compat::{TokioAsyncReadCompatExt, TokioAsyncWriteCompatExt};

/// A struct of one data word holding `value`, framed by capnarena.
fn word_struct(value: u64) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root_struct(StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, value);
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// Word `index` of the struct `p` points to, read by capnarena from a
/// capnp copy of it.
fn read_word(p: any_pointer::Reader<'_>, index: usize) -> u64 {
    let mut copy = capnp::message::Builder::new_default();
    copy.set_root(p).unwrap();
    let bytes = capnp::serialize::write_message_to_words(&copy);
    let words = capnarena::words_from_bytes(&bytes).unwrap();
    let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    reader.root().unwrap().get::<u64>(index)
}

/// Sets `p` to a struct of one data word holding `value`.
fn set_word(mut p: any_pointer::Builder<'_>, value: u64) {
    let bytes = word_struct(value);
    let mut slice = &bytes[..];
    let msg =
        capnp::serialize::read_message_from_flat_slice(&mut slice, Default::default()).unwrap();
    p.set_as::<any_pointer::Owned>(msg.get_root::<any_pointer::Reader>().unwrap())
        .unwrap();
}

/// A counter served by capnp-rpc, untyped.
struct PeerCounter {
    value: Cell<u64>,
}

#[derive(Clone)]
struct PeerDispatch(Rc<PeerCounter>);

impl Deref for PeerDispatch {
    type Target = PeerCounter;
    fn deref(&self) -> &PeerCounter {
        &self.0
    }
}

impl capnp::capability::Server for PeerDispatch {
    fn dispatch_call(
        self,
        interface_id: u64,
        method_id: u16,
        _params: capnp::capability::Params<any_pointer::Owned>,
        mut results: capnp::capability::Results<any_pointer::Owned>,
    ) -> DispatchCallResult {
        if (interface_id, method_id) != (COUNTER, INCREMENT) {
            return DispatchCallResult::new(
                Promise::err(capnp::Error::unimplemented("not a counter method".into())),
                false,
            );
        }
        let v = self.value.get() + 1;
        self.value.set(v);
        set_word(results.get(), v);
        DispatchCallResult::new(Promise::ok(()), false)
    }

    fn as_ptr(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }
}

/// An untyped capnp-rpc client made from a `PeerCounter`.
struct PeerClient(capnp::capability::Client);

impl FromClientHook for PeerClient {
    fn new(hook: Box<dyn capnp::private::capability::ClientHook>) -> Self {
        PeerClient(capnp::capability::Client::new(hook))
    }
    fn into_client_hook(self) -> Box<dyn capnp::private::capability::ClientHook> {
        self.0.hook
    }
    fn as_client_hook(&self) -> &dyn capnp::private::capability::ClientHook {
        &*self.0.hook
    }
}

impl FromServer<PeerCounter> for PeerClient {
    type Dispatch = PeerDispatch;
    fn from_server(s: Rc<PeerCounter>) -> PeerDispatch {
        PeerDispatch(s)
    }
}

/// capnp-rpc's side of a duplex: an RPC system offering `bootstrap`,
/// spawned on the local set; returns its bootstrap of the other side.
fn capnp_side(
    stream: tokio::io::DuplexStream,
    side: Side,
    bootstrap: Option<capnp::capability::Client>,
) -> capnp::capability::Client {
    let (read, write) = tokio::io::split(stream);
    let network = twoparty::VatNetwork::new(
        read.compat(),
        write.compat_write(),
        side,
        Default::default(),
    );
    let mut system = RpcSystem::new(Box::new(network), bootstrap);
    let other = system.bootstrap(match side {
        Side::Client => Side::Server,
        Side::Server => Side::Client,
    });
    tokio::task::spawn_local(system);
    other
}

/// capnarena calls a counter served by capnp-rpc: answers in order, an
/// unknown method is `Unimplemented`, tables empty after.
#[tokio::test(flavor = "current_thread")]
async fn capnarena_calls_capnp_rpc() {
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let (a, b) = tokio::io::duplex(1 << 16);
            let counter: PeerClient = capnp_rpc::new_client(PeerCounter {
                value: Cell::new(40),
            });
            // Its bootstrap of this side is not used: dropped, it is finished.
            drop(capnp_side(a, Side::Server, Some(counter.0)));
            let conn = Connection::new(b, None, Options::default());
            let remote = conn.bootstrap();
            assert_eq!(increment(&remote).await.unwrap(), 41);
            assert_eq!(increment(&remote).await.unwrap(), 42);
            let e = remote
                .new_call(COUNTER, 9)
                .send()
                .response
                .await
                .err()
                .unwrap();
            assert_eq!(e.kind, ErrorKind::Unimplemented, "{e}");
            drop(remote);
            assert!(
                eventually(|| conn.stats() == Stats::default()).await,
                "{:?}",
                conn.stats()
            );
        })
        .await;
}

/// capnp-rpc calls capnarena's test server: add, a call pipelined on the
/// counter makeCounter returns, and an exception with its type.
#[tokio::test(flavor = "current_thread")]
async fn capnp_rpc_calls_capnarena() {
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let (a, b) = tokio::io::duplex(1 << 16);
            let conn = Connection::new(
                a,
                Some(Client::from_server(TestServer::default())),
                Options::default(),
            );
            let test = capnp_side(b, Side::Client, None);
            // Everything capnp-rpc holds is dropped at the end of the block.
            {
                let mut request =
                    test.new_call::<any_pointer::Owned, any_pointer::Owned>(TEST, ADD, None);
                {
                    let bytes = {
                        let mut msg = Message::new(SingleSegmentArena::new());
                        let mut s = msg.init_root_struct(StructSize::new(2, 0)).unwrap();
                        s.set::<u64>(0, 40);
                        s.set::<u64>(1, 2);
                        let mut out = Vec::new();
                        msg.append_to(&mut out);
                        out
                    };
                    let mut slice = &bytes[..];
                    let msg = capnp::serialize::read_message_from_flat_slice(
                        &mut slice,
                        Default::default(),
                    )
                    .unwrap();
                    request
                        .get()
                        .set_as::<any_pointer::Owned>(
                            msg.get_root::<any_pointer::Reader>().unwrap(),
                        )
                        .unwrap();
                }
                let response = request.send().promise.await.unwrap();
                assert_eq!(read_word(response.get().unwrap(), 0), 42);

                // Pipelined: increment the counter before makeCounter returns.
                let mut request = test.new_call::<any_pointer::Owned, any_pointer::Owned>(
                    TEST,
                    MAKE_COUNTER,
                    None,
                );
                set_word(request.get(), 10);
                let sent = request.send();
                let counter = capnp::capability::Client::new(
                    sent.pipeline.noop().get_pointer_field(0).as_cap(),
                );
                let first = counter
                    .new_call::<any_pointer::Owned, any_pointer::Owned>(COUNTER, INCREMENT, None)
                    .send();
                let second = counter
                    .new_call::<any_pointer::Owned, any_pointer::Owned>(COUNTER, INCREMENT, None)
                    .send();
                assert_eq!(
                    read_word(first.promise.await.unwrap().get().unwrap(), 0),
                    11
                );
                assert_eq!(
                    read_word(second.promise.await.unwrap().get().unwrap(), 0),
                    12
                );
                drop(sent.promise.await.unwrap());

                let mut request =
                    test.new_call::<any_pointer::Owned, any_pointer::Owned>(TEST, FAIL, None);
                set_word(request.get(), kind_number(ErrorKind::Overloaded));
                let e = request.send().promise.await.err().unwrap();
                assert_eq!(e.kind, capnp::ErrorKind::Overloaded, "{e}");
                assert!(e.extra.contains("asked to fail"), "{e}");
            }
            drop(test);
            assert!(
                eventually(|| conn.stats() == Stats::default()).await,
                "{:?}",
                conn.stats()
            );
        })
        .await;
}

/// capnp-rpc pipelines on a capnarena server's `set_pipeline`:
/// makeCounter hands out its counter and runs on until four increments
/// reached it (two pipelined at once, two more once those returned).
/// Without `set_pipeline` the increments would wait for makeCounter's
/// return, and it for them: the test times out.
#[tokio::test(flavor = "current_thread")]
async fn capnp_rpc_pipelines_on_set_pipeline() {
    use capnarena_rpc::FromClient;
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let server = Arc::new(typed::Streaming::default());
            // makeCounter goes on at once.
            server.go.notify_one();
            let (a, b) = tokio::io::duplex(1 << 16);
            let bootstrap = typed::test::Client::from_arc(Arc::clone(&server)).into_client();
            let conn = Connection::new(a, Some(bootstrap), Options::default());
            let test = capnp_side(b, Side::Client, None);
            {
                let mut request = test.new_call::<any_pointer::Owned, any_pointer::Owned>(
                    TEST,
                    MAKE_COUNTER,
                    None,
                );
                set_word(request.get(), 10);
                let sent = request.send();
                let counter = capnp::capability::Client::new(
                    sent.pipeline.noop().get_pointer_field(0).as_cap(),
                );
                let increment = || {
                    counter
                        .new_call::<any_pointer::Owned, any_pointer::Owned>(
                            COUNTER, INCREMENT, None,
                        )
                        .send()
                        .promise
                };
                let first = increment();
                let second = increment();
                let done = tokio::time::timeout(std::time::Duration::from_secs(20), async {
                    assert_eq!(read_word(first.await.unwrap().get().unwrap(), 0), 11);
                    assert_eq!(read_word(second.await.unwrap().get().unwrap(), 0), 12);
                    assert_eq!(read_word(increment().await.unwrap().get().unwrap(), 0), 13);
                    assert_eq!(read_word(increment().await.unwrap().get().unwrap(), 0), 14);
                    sent.promise.await.unwrap()
                })
                .await
                .expect("calls pipelined on set_pipeline's counter did not reach it");
                drop(done);
            }
            assert_eq!(server.returned_at.load(Ordering::SeqCst), 14);
            drop(test);
            assert!(
                eventually(|| conn.stats() == Stats::default()).await,
                "{:?}",
                conn.stats()
            );
        })
        .await;
}

/// capnp-rpc between the GENERATED typed client and server: capnarena's
/// typed client calls capnp-rpc, whose bootstrap is its import of
/// capnarena's typed server on a second connection, so every call,
/// return, capability (both ways), pipelined call, exception and Finish
/// passes through capnp-rpc as callee of the one and caller of the other
/// (`common::typed::call_all`). The canceled call's server future is
/// dropped; capnarena's tables on both connections are empty at the end.
#[tokio::test(flavor = "current_thread")]
async fn typed_calls_through_capnp_rpc() {
    use capnarena_rpc::FromClient;
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let server = Arc::new(typed::TypedTest::default());
            let (a, b) = tokio::io::duplex(1 << 16);
            let bootstrap = typed::test::Client::from_arc(Arc::clone(&server)).into_client();
            let serving = Connection::new(a, Some(bootstrap), Options::default());
            let relayed = capnp_side(b, Side::Client, None);
            let (c, d) = tokio::io::duplex(1 << 16);
            drop(capnp_side(c, Side::Server, Some(relayed)));
            let calling = Connection::new(d, None, Options::default());
            let test = typed::test::Client::from_client(calling.bootstrap());
            typed::call_all(&test).await;
            drop(test);
            assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
            assert_eq!(server.waits_started.load(Ordering::SeqCst), 1);
            // Left: the canceled wait's question (capnp-rpc forwards the
            // cancellation but sends no Return for it), and on the serving
            // side capnp-rpc's bootstrap, which it holds while it runs.
            let settled =
                |s: Stats| s.questions <= 1 && Stats { questions: 0, ..s } == Stats::default();
            eventually(|| settled(calling.stats()) && serving.stats().answers <= 1).await;
            let left = calling.stats();
            assert!(left.questions <= 1, "{left:?}");
            assert_eq!(
                Stats {
                    questions: 0,
                    ..left
                },
                Stats::default()
            );
            calling.shutdown().await.unwrap();
            assert!(
                eventually(|| serving.stats() == Stats::default()).await,
                "{:?}",
                serving.stats()
            );
        })
        .await;
}

/// A server whose methods answer with a promise client
/// (`Client::from_promise`) that the test resolves later: `GET_LATER`
/// with what the test gives, `ECHO_LATER` with the capability its
/// parameters hold (or what the test gives instead).
#[derive(Default)]
struct Promiser {
    pending: std::sync::Mutex<Vec<Pending>>,
}

/// A promise handed out and not resolved yet: the capability the call
/// carried, if any, and the resolver.
type Pending = (
    Option<Client>,
    tokio::sync::oneshot::Sender<capnarena_rpc::Result<Client>>,
);

const PROMISER: u64 = 0xa1b2_c3d4_e5f6_0009;
const GET_LATER: u16 = 0;
const ECHO_LATER: u16 = 1;

impl capnarena_rpc::Server for Promiser {
    fn dispatch(
        self: std::sync::Arc<Self>,
        interface_id: u64,
        method_id: u16,
        params: capnarena_rpc::Params,
        mut results: capnarena_rpc::Results,
    ) -> capnarena_rpc::BoxFuture<capnarena_rpc::Result<capnarena_rpc::Results>> {
        let outcome = (|| {
            let carried = match (interface_id, method_id) {
                (PROMISER, GET_LATER) => None,
                (PROMISER, ECHO_LATER) => {
                    let index = params.read(|c| Ok(c.get_capability()?))?;
                    Some(params.cap(index)?)
                }
                _ => {
                    return Err(capnarena_rpc::Error::method_not_implemented(
                        interface_id,
                        method_id,
                    ));
                }
            };
            let (tx, rx) = tokio::sync::oneshot::channel();
            self.pending.lock().unwrap().push((carried, tx));
            let promise = Client::from_promise(async move {
                rx.await
                    .unwrap_or_else(|_| Err(capnarena_rpc::Error::failed("never resolved")))
            });
            let index = results.add_cap(promise);
            results.content()?.set_capability(index);
            Ok(results)
        })();
        Box::pin(std::future::ready(outcome))
    }
}

impl Promiser {
    /// Resolves the oldest promise handed out with what `with` makes of
    /// the capability its call carried.
    fn resolve_next(&self, with: impl FnOnce(Option<Client>) -> capnarena_rpc::Result<Client>) {
        let (carried, resolver) = self.pending.lock().unwrap().remove(0);
        resolver.send(with(carried)).ok();
    }
}

/// capnp-rpc's call on a capability, untyped, as a future of the word
/// it answers.
fn peer_increment(
    cap: &capnp::capability::Client,
) -> impl std::future::Future<Output = Result<u64, capnp::Error>> + 'static {
    let sent = cap
        .new_call::<any_pointer::Owned, any_pointer::Owned>(COUNTER, INCREMENT, None)
        .send();
    async move { Ok(read_word(sent.promise.await?.get()?, 0)) }
}

/// A capnarena server answers capnp-rpc with a promise capability that
/// resolves later: calls made on it before the answer (pipelined),
/// after the answer but before the resolution, and after it arrive in
/// order and succeed; capnp-rpc learns the resolution from a `Resolve`;
/// every table is empty after.
#[tokio::test(flavor = "current_thread")]
async fn capnp_rpc_calls_a_promise_that_resolves_later() {
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let server = std::sync::Arc::new(Promiser::default());
            let (a, b) = tokio::io::duplex(1 << 16);
            let conn = Connection::new(
                a,
                Some(Client::from_arc(server.clone())),
                Options::default(),
            );
            let test = capnp_side(b, Side::Client, None);
            {
                let sent = test
                    .new_call::<any_pointer::Owned, any_pointer::Owned>(PROMISER, GET_LATER, None)
                    .send();
                let pipelined = capnp::capability::Client::new(sent.pipeline.noop().as_cap());
                let first = peer_increment(&pipelined);
                let response = sent.promise.await.unwrap();
                let promise: capnp::capability::Client =
                    response.get().unwrap().get_as_capability().unwrap();
                let second = peer_increment(&promise);
                // Both calls are queued on the promise before it resolves.
                assert!(eventually(|| conn.stats().answers >= 3).await);
                server.resolve_next(|_| Ok(Client::from_server(Counter::new(10))));
                assert_eq!(first.await.unwrap(), 11);
                assert_eq!(second.await.unwrap(), 12);
                assert_eq!(peer_increment(&promise).await.unwrap(), 13);
                assert_eq!(peer_increment(&pipelined).await.unwrap(), 14);
            }
            drop(test);
            assert!(
                eventually(|| conn.stats() == Stats::default()).await,
                "{:?}",
                conn.stats()
            );
        })
        .await;
}

/// A promise that resolves to an error breaks capnp-rpc's calls on it,
/// those queued and those made after, with the error's type.
#[tokio::test(flavor = "current_thread")]
async fn capnp_rpc_calls_on_a_promise_broken_by_an_error_fail() {
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let server = std::sync::Arc::new(Promiser::default());
            let (a, b) = tokio::io::duplex(1 << 16);
            let conn = Connection::new(
                a,
                Some(Client::from_arc(server.clone())),
                Options::default(),
            );
            let test = capnp_side(b, Side::Client, None);
            {
                let sent = test
                    .new_call::<any_pointer::Owned, any_pointer::Owned>(PROMISER, GET_LATER, None)
                    .send();
                let promise = capnp::capability::Client::new(sent.pipeline.noop().as_cap());
                let queued = peer_increment(&promise);
                assert!(eventually(|| conn.stats().answers >= 2).await);
                server.resolve_next(|_| {
                    Err(capnarena_rpc::Error::new(
                        ErrorKind::Overloaded,
                        "no counter today",
                    ))
                });
                let e = queued.await.err().unwrap();
                assert_eq!(e.kind, capnp::ErrorKind::Overloaded, "{e}");
                assert!(e.extra.contains("no counter today"), "{e}");
                let e = peer_increment(&promise).await.err().unwrap();
                assert_eq!(e.kind, capnp::ErrorKind::Overloaded, "{e}");
                drop(sent.promise.await.unwrap());
            }
            drop(test);
            assert!(
                eventually(|| conn.stats() == Stats::default()).await,
                "{:?}",
                conn.stats()
            );
        })
        .await;
}

/// A promise that resolves to capnp-rpc's own capability: the calls
/// capnp-rpc made on the promise come back to it through capnarena; on
/// the `Resolve`, capnp-rpc embargoes its new calls, now local, behind a
/// `Disembargo` that capnarena loops back after the forwarded calls. The
/// counter sees every call in the order it was made.
#[tokio::test(flavor = "current_thread")]
async fn capnp_rpc_promise_resolved_to_its_own_capability_keeps_order() {
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async {
            let server = std::sync::Arc::new(Promiser::default());
            let (a, b) = tokio::io::duplex(1 << 16);
            let conn = Connection::new(
                a,
                Some(Client::from_arc(server.clone())),
                Options::default(),
            );
            let test = capnp_side(b, Side::Client, None);
            {
                let own: PeerClient = capnp_rpc::new_client(PeerCounter {
                    value: Cell::new(40),
                });
                let mut request = test
                    .new_call::<any_pointer::Owned, any_pointer::Owned>(PROMISER, ECHO_LATER, None);
                request.get().set_as_capability(own.0.hook.add_ref());
                let sent = request.send();
                let promise = capnp::capability::Client::new(sent.pipeline.noop().as_cap());
                let mut calls = vec![peer_increment(&promise), peer_increment(&promise)];
                assert!(eventually(|| conn.stats().answers >= 3).await);
                server.resolve_next(|carried| Ok(carried.unwrap()));
                // Made while the Resolve is on its way, and after.
                calls.push(peer_increment(&promise));
                tokio::task::yield_now().await;
                calls.push(peer_increment(&promise));
                for _ in 0..10 {
                    tokio::task::yield_now().await;
                }
                calls.push(peer_increment(&promise));
                let mut values = Vec::new();
                for call in calls {
                    values.push(call.await.unwrap());
                }
                assert_eq!(values, vec![41, 42, 43, 44, 45]);
                drop(sent.promise.await.unwrap());
            }
            drop(test);
            assert!(
                eventually(|| conn.stats() == Stats::default()).await,
                "{:?}",
                conn.stats()
            );
        })
        .await;
}
