//! A peer that breaks the protocol: each violation aborts the connection
//! (an `Abort` sent with the reason, the stream closed, `closed()` an
//! error), never a panic or a hang. The peer here is raw messages built
//! with the generated rpc.capnp builders, over a duplex. Also what such
//! a peer sees of this side's promises: one `Resolve` each, none once
//! released, loopbacks, and `max_exports` against a peer that never
//! releases them.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use capnarena::serialize::codec::{Frame, FramedCodec};
use capnarena::{Message, SingleSegmentArena};
use capnarena_rpc::rpc_capnp::{
    cap_descriptor, disembargo, message, message_target, resolve, return_,
};
use capnarena_rpc::{
    BoxFuture, Client, Connection, Error, ErrorKind, Options, Params, Results, Server,
};
use common::TestServer;
use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncWriteExt, DuplexStream};
use tokio_util::codec::Framed;

type Builder<'a> = message::Builder<'a, SingleSegmentArena>;

/// A connection under test (offering a `TestServer`) and the raw peer.
fn raw(options: Options) -> (Connection, Framed<DuplexStream, FramedCodec>) {
    let (a, b) = tokio::io::duplex(1 << 20);
    let conn = Connection::new(a, Some(Client::from_server(TestServer::default())), options);
    (conn, Framed::new(b, FramedCodec::new()))
}

/// Sends one message built by `build`.
async fn send(peer: &mut Framed<DuplexStream, FramedCodec>, build: impl FnOnce(Builder<'_>)) {
    let mut msg = Message::new(SingleSegmentArena::new());
    build(msg.init_root::<Builder<'_>>().unwrap());
    peer.send(&msg).await.unwrap();
}

/// What a received message is, in short (`"return 0 results"`,
/// `"abort: <reason>"`, ...).
fn describe(frame: &Frame) -> String {
    let reader = frame.reader().unwrap();
    let root = reader.get_root::<message::Reader>().unwrap();
    match root.which().unwrap() {
        message::Which::Abort(e) => format!("abort: {}", Error::from_exception(e.unwrap())),
        message::Which::Return(r) => {
            let r = r.unwrap();
            let kind = match r.which().unwrap() {
                return_::Which::Results(_) => "results".to_string(),
                return_::Which::Exception(e) => {
                    format!("exception {}", Error::from_exception(e.unwrap()))
                }
                return_::Which::Canceled => "canceled".to_string(),
                _ => "other".to_string(),
            };
            format!("return {} {kind}", r.get_answer_id())
        }
        message::Which::Unimplemented(_) => "unimplemented".to_string(),
        message::Which::Bootstrap(b) => format!("bootstrap {}", b.unwrap().get_question_id()),
        message::Which::Resolve(r) => {
            let r = r.unwrap();
            let to = match r.which().unwrap() {
                resolve::Which::Cap(d) => descriptor(d.unwrap()),
                resolve::Which::Exception(e) => {
                    format!("exception {}", Error::from_exception(e.unwrap()))
                }
            };
            format!("resolve {} {to}", r.get_promise_id())
        }
        message::Which::Release(r) => format!("release {}", r.unwrap().get_id()),
        message::Which::Disembargo(d) => {
            let d = d.unwrap();
            let target = match d.get_target().unwrap().which().unwrap() {
                message_target::Which::ImportedCap(id) => format!("import {id}"),
                message_target::Which::PromisedAnswer(_) => "answer".to_string(),
            };
            match d.get_context().which().unwrap() {
                disembargo::context::Which::ReceiverLoopback(e) => {
                    format!("disembargo {target} receiverLoopback {e}")
                }
                _ => format!("disembargo {target} other"),
            }
        }
        _ => "other".to_string(),
    }
}

/// A capability descriptor, in short (`"senderPromise 0"`).
fn descriptor(d: cap_descriptor::Reader<'_>) -> String {
    match d.which().unwrap() {
        cap_descriptor::Which::None => "none".to_string(),
        cap_descriptor::Which::SenderHosted(id) => format!("senderHosted {id}"),
        cap_descriptor::Which::SenderPromise(id) => format!("senderPromise {id}"),
        cap_descriptor::Which::ReceiverHosted(id) => format!("receiverHosted {id}"),
        cap_descriptor::Which::ReceiverAnswer(pa) => {
            format!("receiverAnswer {}", pa.unwrap().get_question_id())
        }
        cap_descriptor::Which::ThirdPartyHosted(_) => "thirdPartyHosted".to_string(),
    }
}

/// The cap table of a return's results, in short.
fn result_caps(frame: &Frame) -> Vec<String> {
    let reader = frame.reader().unwrap();
    let root = reader.get_root::<message::Reader>().unwrap();
    let message::Which::Return(r) = root.which().unwrap() else {
        panic!("not a return: {}", describe(frame));
    };
    let return_::Which::Results(p) = r.unwrap().which().unwrap() else {
        panic!("not results: {}", describe(frame));
    };
    let p = p.unwrap();
    if !p.has_cap_table() {
        return Vec::new();
    }
    p.get_cap_table().unwrap().iter().map(descriptor).collect()
}

/// Reads messages until the stream ends; returns their descriptions.
async fn drain(peer: &mut Framed<DuplexStream, FramedCodec>) -> Vec<String> {
    let mut seen = Vec::new();
    let deadline = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(frame) = peer.next().await {
            match frame {
                Ok(f) => seen.push(describe(&f)),
                Err(e) => {
                    seen.push(format!("bad frame: {e}"));
                    break;
                }
            }
        }
    });
    deadline.await.expect("the connection did not close");
    seen
}

/// The connection ends with an error whose reason contains `needle`, and
/// the last message the peer got is an `Abort` saying so.
async fn assert_aborted(
    conn: Connection,
    mut peer: Framed<DuplexStream, FramedCodec>,
    needle: &str,
) {
    let seen = drain(&mut peer).await;
    let last = seen.last().cloned().unwrap_or_default();
    assert!(
        last.starts_with("abort: ") && last.contains(needle),
        "expected an abort about {needle:?}, got {seen:?}"
    );
    let result = tokio::time::timeout(Duration::from_secs(20), conn.closed())
        .await
        .expect("closed() hung");
    let e = result.expect_err("the connection should have failed");
    assert!(e.reason.contains(needle), "{e}");
    assert_eq!(conn.stats(), capnarena_rpc::Stats::default());
}

/// Bytes that are no message (a segment table declaring a huge segment
/// count) abort the connection.
#[tokio::test]
async fn garbage_aborts() {
    let (conn, mut peer) = raw(Options::default());
    peer.get_mut()
        .write_all(&[0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8])
        .await
        .unwrap();
    assert_aborted(conn, peer, "bad message").await;
}

/// A call on an export that does not exist aborts.
#[tokio::test]
async fn call_on_unknown_export_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        let mut call = m.init_call().unwrap();
        call.set_question_id(0);
        call.init_target().unwrap().set_imported_cap(99);
        call.init_params().unwrap();
    })
    .await;
    assert_aborted(conn, peer, "export 99").await;
}

/// A capability descriptor naming an export that does not exist
/// (receiverHosted 42) aborts.
#[tokio::test]
async fn bad_capability_index_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    send(&mut peer, |mut m| {
        let mut call = m.init_call().unwrap();
        call.set_question_id(1);
        call.init_target()
            .unwrap()
            .init_promised_answer()
            .unwrap()
            .set_question_id(0);
        let mut params = call.init_params().unwrap();
        params
            .init_cap_table(1)
            .unwrap()
            .get(0)
            .set_receiver_hosted(42);
    })
    .await;
    assert_aborted(conn, peer, "receiverHosted 42").await;
}

/// A `Finish` for a question never asked aborts.
#[tokio::test]
async fn finish_of_unknown_question_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        m.init_finish().unwrap().set_question_id(5)
    })
    .await;
    assert_aborted(conn, peer, "finish for question 5").await;
}

/// A second `Finish` for a question aborts (the first one closed it).
#[tokio::test]
async fn double_finish_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(3)
    })
    .await;
    let first = describe(&peer.next().await.unwrap().unwrap());
    assert_eq!(first, "return 3 results");
    for _ in 0..2 {
        send(&mut peer, |mut m| {
            let mut f = m.init_finish().unwrap();
            f.set_question_id(3);
            f.set_release_result_caps(false);
        })
        .await;
    }
    assert_aborted(conn, peer, "finish for question 3").await;
}

/// A `Return` for a question this side never asked aborts.
#[tokio::test]
async fn return_of_unknown_question_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        let mut r = m.init_return().unwrap();
        r.set_answer_id(7);
        r.init_results().unwrap();
    })
    .await;
    assert_aborted(conn, peer, "return for question 7").await;
}

/// Releasing more references than were sent aborts.
#[tokio::test]
async fn release_of_what_is_not_held_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 0 results"
    );
    // The bootstrap was exported once (export 0): two releases is one too many.
    send(&mut peer, |mut m| {
        let mut r = m.init_release().unwrap();
        r.set_id(0);
        r.set_reference_count(2);
    })
    .await;
    assert_aborted(conn, peer, "release of 2 references to export 0").await;
}

/// More calls in flight than the limit aborts with `Overloaded`.
#[tokio::test]
async fn too_many_calls_in_flight_abort() {
    let options = Options {
        max_answers: 3,
        ..Options::default()
    };
    let (conn, mut peer) = raw(options);
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    for q in 1..4 {
        send(&mut peer, |mut m| {
            let mut call = m.init_call().unwrap();
            call.set_question_id(q);
            call.set_interface_id(common::TEST);
            call.set_method_id(common::WAIT);
            call.init_target()
                .unwrap()
                .init_promised_answer()
                .unwrap()
                .set_question_id(0);
            call.init_params().unwrap();
        })
        .await;
    }
    let seen = drain(&mut peer).await;
    assert!(
        seen.last()
            .is_some_and(|m| m.starts_with("abort: overloaded")),
        "{seen:?}"
    );
    let e = conn.closed().await.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Overloaded);
}

/// A message over the size limit aborts before it is read whole.
#[tokio::test]
async fn oversized_message_aborts() {
    let options = Options {
        max_message_bytes: 1024,
        ..Options::default()
    };
    let (conn, mut peer) = raw(options);
    send(&mut peer, |mut m| {
        let mut call = m.init_call().unwrap();
        call.init_params()
            .unwrap()
            .get_content()
            .init_data(4096)
            .unwrap();
    })
    .await;
    assert_aborted(conn, peer, "bad message").await;
}

/// A message of a kind this side does not know (a union member past the
/// schema's) is echoed as `Unimplemented`; the connection goes on.
#[tokio::test]
async fn unknown_message_is_echoed_unimplemented() {
    let (conn, mut peer) = raw(Options::default());
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root_struct(message::STRUCT_SIZE)
        .unwrap()
        .set::<u16>(0, 99);
    peer.send(&msg).await.unwrap();
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "unimplemented"
    );
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 0 results"
    );
    drop(peer);
    assert!(conn.closed().await.is_ok());
}

/// Random words in well-framed messages never panic or hang the
/// connection: it answers, or aborts.
#[tokio::test]
async fn random_messages_never_panic() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..300 {
        let (conn, mut peer) = raw(Options::default());
        let words = 1 + (next() % 12) as u32;
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&words.to_le_bytes());
        // A root pointer to a struct of one data word and one pointer,
        // then random words: mostly messages of some kind, often bad.
        bytes.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
        for _ in 1..words {
            let w = next();
            // Small discriminants and ids, so known kinds come up.
            let w = if next() % 2 == 0 {
                w & 0x0000_0003_0000_000f
            } else {
                w
            };
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        peer.get_mut().write_all(&bytes).await.unwrap();
        peer.get_mut().shutdown().await.unwrap();
        let _ = drain(&mut peer).await;
        let ended = tokio::time::timeout(Duration::from_secs(20), conn.closed()).await;
        assert!(ended.is_ok(), "the connection hung on {bytes:02x?}");
        assert_eq!(conn.stats(), capnarena_rpc::Stats::default());
    }
}

/// A peer that does not read what it is sent has the connection failed
/// as overloaded once more than `max_queued_bytes` wait to be written.
#[tokio::test]
async fn peer_that_does_not_read_overloads() {
    let options = Options {
        max_queued_bytes: 16,
        ..Options::default()
    };
    let (conn, mut peer) = raw(options);
    // The return of a bootstrap is more than 16 bytes.
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    let e = tokio::time::timeout(Duration::from_secs(20), conn.closed())
        .await
        .expect("closed() hung")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Overloaded, "{e}");
    assert!(e.reason.contains("over the limit of 16"), "{e}");
}

/// A promise the peer passes (senderPromise) and later resolves: the
/// capability it resolves to is taken and released at once (the peer is
/// told with a `Release`), the promise itself when its last client goes;
/// a resolution to an exception changes nothing; the connection goes on.
#[tokio::test]
async fn resolve_of_a_promise_releases_its_resolution() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 0 results"
    );
    // Resolutions of promises not (or no longer) held are released too.
    send(&mut peer, |mut m| {
        let mut r = m.init_resolve().unwrap();
        r.set_promise_id(5);
        r.init_cap().unwrap().set_sender_hosted(6);
    })
    .await;
    assert_eq!(describe(&peer.next().await.unwrap().unwrap()), "release 6");
    send(&mut peer, |mut m| {
        let mut r = m.init_resolve().unwrap();
        r.set_promise_id(5);
        r.init_exception().unwrap().set_reason("gone").unwrap();
    })
    .await;
    // An echo of a promise: the promise's import is released once the
    // call's parameters and results are gone (after the finish).
    send(&mut peer, |mut m| {
        let mut call = m.init_call().unwrap();
        call.set_question_id(1);
        call.set_interface_id(common::TEST);
        call.set_method_id(common::ECHO_CAP);
        call.init_target()
            .unwrap()
            .init_promised_answer()
            .unwrap()
            .set_question_id(0);
        let mut params = call.init_params().unwrap();
        params
            .reborrow()
            .get_content()
            .init_struct(capnarena::StructSize::new(0, 1))
            .unwrap()
            .pointer(0)
            .set_capability(0);
        params
            .init_cap_table(1)
            .unwrap()
            .get(0)
            .set_sender_promise(7);
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 1 results"
    );
    send(&mut peer, |mut m| {
        let mut f = m.init_finish().unwrap();
        f.set_question_id(1);
        f.set_release_result_caps(false);
    })
    .await;
    assert_eq!(describe(&peer.next().await.unwrap().unwrap()), "release 7");
    assert_eq!(conn.stats().imports, 0);
    drop(peer);
    assert!(conn.closed().await.is_ok());
}

/// A senderLoopback disembargo of a capability that points back at the
/// peer (its own capability, echoed in results) is answered with a
/// receiverLoopback to it; one of a capability this side hosts aborts.
#[tokio::test]
async fn disembargo_loops_back_or_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 0 results"
    );
    // The peer's capability 3, echoed back by the test server.
    send(&mut peer, |mut m| {
        let mut call = m.init_call().unwrap();
        call.set_question_id(1);
        call.set_interface_id(common::TEST);
        call.set_method_id(common::ECHO_CAP);
        call.init_target()
            .unwrap()
            .init_promised_answer()
            .unwrap()
            .set_question_id(0);
        let mut params = call.init_params().unwrap();
        params
            .reborrow()
            .get_content()
            .init_struct(capnarena::StructSize::new(0, 1))
            .unwrap()
            .pointer(0)
            .set_capability(0);
        params
            .init_cap_table(1)
            .unwrap()
            .get(0)
            .set_sender_hosted(3);
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 1 results"
    );
    send(&mut peer, |mut m| {
        let mut d = m.init_disembargo().unwrap();
        let mut target = d.init_target().unwrap();
        let mut pa = target.init_promised_answer().unwrap();
        pa.set_question_id(1);
        pa.init_transform(1)
            .unwrap()
            .get(0)
            .set_get_pointer_field(0);
        d.init_context().set_sender_loopback(9);
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "disembargo import 3 receiverLoopback 9"
    );
    // The bootstrap (export 0) is this side's own: no loopback for it.
    send(&mut peer, |mut m| {
        let mut d = m.init_disembargo().unwrap();
        d.init_target().unwrap().set_imported_cap(0);
        d.init_context().set_sender_loopback(10);
    })
    .await;
    assert_aborted(conn, peer, "senderLoopback disembargo").await;
}

/// A call the peer echoes back as `Unimplemented` fails with an
/// `Unimplemented` error, and its question is forgotten once dropped.
#[tokio::test]
async fn call_echoed_unimplemented_fails() {
    let (conn, mut peer) = raw(Options::default());
    let remote = conn.bootstrap();
    let sent = remote.new_call(common::TEST, common::ADD).send();
    // The bootstrap, then the call: echo the call.
    for expected in ["bootstrap", "call"] {
        let frame = peer.next().await.unwrap().unwrap();
        let reader = frame.reader().unwrap();
        let root = reader.get_root::<message::Reader>().unwrap();
        let kind = match root.which().unwrap() {
            message::Which::Bootstrap(_) => "bootstrap",
            message::Which::Call(_) => "call",
            _ => "other",
        };
        assert_eq!(kind, expected);
        if kind == "call" {
            let mut msg = Message::new(SingleSegmentArena::new());
            msg.init_root::<Builder<'_>>()
                .unwrap()
                .set_unimplemented(root)
                .unwrap();
            peer.send(&msg).await.unwrap();
        }
    }
    let e = sent.response.await.err().expect("an error");
    assert_eq!(e.kind, ErrorKind::Unimplemented, "{e}");
    drop((remote, sent.pipeline));
    // The call is forgotten; the bootstrap, never answered, waits for its
    // return (its id may not be reused before).
    assert_eq!(conn.stats().questions, 1, "{:?}", conn.stats());
}

/// A server for `question_id_reused_after_its_return_is_free`: method 0
/// answers, once `first` is notified, with a capability to itself (in
/// pointer 0); method 1 blocks in `dispatch` until `go` (so the call
/// runner is held while it delivers calls pipelined on an answer); method
/// 2 marks `dispatched` and answers at once.
struct Gate {
    first: Arc<tokio::sync::Notify>,
    go: std::sync::Mutex<std::sync::mpsc::Receiver<()>>,
    blocked: AtomicBool,
    dispatched: AtomicBool,
}

impl Server for Gate {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        method_id: u16,
        _params: Params,
        mut results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        match method_id {
            0 => Box::pin(async move {
                self.first.notified().await;
                let me = Client::from_arc(self);
                common::answer_cap(&mut results, me)?;
                Ok(results)
            }),
            1 => {
                self.blocked.store(true, Ordering::SeqCst);
                tokio::task::block_in_place(|| {
                    let _ = self.go.lock().unwrap().recv();
                });
                Box::pin(std::future::ready(Ok(results)))
            }
            _ => {
                self.dispatched.store(true, Ordering::SeqCst);
                Box::pin(std::future::ready(Ok(results)))
            }
        }
    }
}

/// A call on the bootstrap (question 0's promised answer) of method
/// `method`, as question `id`.
async fn call_gate(peer: &mut Framed<DuplexStream, FramedCodec>, id: u32, method: u16) {
    send(peer, |mut m| {
        let mut call = m.init_call().unwrap();
        call.set_question_id(id);
        call.set_method_id(method);
        let mut target = call.init_target().unwrap();
        target.init_promised_answer().unwrap().set_question_id(0);
        call.init_params().unwrap();
    })
    .await;
}

/// A peer that finished a call before its return (a call pipelined on
/// its results still queued) may reuse the question id as soon as the
/// return comes: the id is free then, even while this side still
/// delivers the pipelined call. (The answer stayed in the table until the
/// delivery was over, and a new call of the id in between aborted the
/// connection as "in use".)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn question_id_reused_after_its_return_is_free() {
    let (go, go_rx) = std::sync::mpsc::channel();
    let gate = Arc::new(Gate {
        first: Arc::new(tokio::sync::Notify::new()),
        go: std::sync::Mutex::new(go_rx),
        blocked: AtomicBool::new(false),
        dispatched: AtomicBool::new(false),
    });
    let (a, b) = tokio::io::duplex(1 << 20);
    let conn = Connection::new(a, Some(Client::from_arc(gate.clone())), Options::default());
    let mut peer = Framed::new(b, FramedCodec::new());
    send(&mut peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(0)
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 0 results"
    );
    // Question 1 waits for `first`; question 2 is pipelined on its
    // results; question 1 is finished at once.
    call_gate(&mut peer, 1, 0).await;
    send(&mut peer, |mut m| {
        let mut call = m.init_call().unwrap();
        call.set_question_id(2);
        call.set_method_id(1);
        let mut target = call.init_target().unwrap();
        let mut pa = target.init_promised_answer().unwrap();
        pa.set_question_id(1);
        pa.init_transform(1)
            .unwrap()
            .get(0)
            .set_get_pointer_field(0);
        call.init_params().unwrap();
    })
    .await;
    send(&mut peer, |mut m| {
        m.init_finish().unwrap().set_question_id(1);
    })
    .await;
    // Once question 3 has returned, the finish has been handled.
    call_gate(&mut peer, 3, 2).await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 3 results"
    );
    gate.dispatched.store(false, Ordering::SeqCst);
    gate.first.notify_one();
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 1 results"
    );
    assert!(common::eventually(|| gate.blocked.load(Ordering::SeqCst)).await);
    // Question 1 has been finished and has returned: its id is free.
    call_gate(&mut peer, 1, 2).await;
    let dispatched = common::eventually(|| gate.dispatched.load(Ordering::SeqCst)).await;
    go.send(()).unwrap();
    let mut seen = vec![
        describe(&peer.next().await.unwrap().unwrap()),
        describe(&peer.next().await.unwrap().unwrap()),
    ];
    seen.sort();
    assert!(
        dispatched,
        "the new call of question 1 was not delivered: {seen:?}"
    );
    assert_eq!(seen, ["return 1 results", "return 2 results"]);
    drop(peer);
    assert!(conn.closed().await.is_ok());
}

/// A promise client (`Client::from_promise`) offered as the bootstrap,
/// and its resolver.
fn raw_promise() -> (
    Connection,
    Framed<DuplexStream, FramedCodec>,
    tokio::sync::oneshot::Sender<capnarena_rpc::Result<Client>>,
) {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let promise = Client::from_promise(async move {
        rx.await
            .unwrap_or_else(|_| Err(Error::failed("never resolved")))
    });
    let (a, b) = tokio::io::duplex(1 << 20);
    let conn = Connection::new(a, Some(promise), Options::default());
    (conn, Framed::new(b, FramedCodec::new()), tx)
}

/// Asks for the bootstrap as question `id`; returns its cap table.
async fn bootstrap(peer: &mut Framed<DuplexStream, FramedCodec>, id: u32) -> Vec<String> {
    send(peer, |mut m| {
        m.init_bootstrap().unwrap().set_question_id(id)
    })
    .await;
    let frame = peer.next().await.unwrap().unwrap();
    assert_eq!(describe(&frame), format!("return {id} results"));
    result_caps(&frame)
}

/// A server whose drop is counted.
struct Counted(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl Server for Counted {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        _method_id: u16,
        _params: Params,
        results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        Box::pin(async move { Ok(results) })
    }
}

/// A promise sent twice before it resolves is one export, named
/// `senderPromise` both times, and gets one `Resolve`, a new reference
/// to its resolution. The peer's releases of both, counted as the
/// protocol counts them, empty the tables; the resolution is freed with
/// the connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promise_export_resolved_once_and_freed_with_the_connection() {
    let (conn, mut peer, resolver) = raw_promise();
    assert_eq!(bootstrap(&mut peer, 0).await, ["senderPromise 0"]);
    assert_eq!(bootstrap(&mut peer, 1).await, ["senderPromise 0"]);
    assert_eq!(conn.stats().exports, 1);
    let drops = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    resolver
        .send(Ok(Client::from_server(Counted(Arc::clone(&drops)))))
        .ok();
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "resolve 0 senderHosted 1"
    );
    // Once resolved, the promise is sent as what it resolved to.
    assert_eq!(bootstrap(&mut peer, 2).await, ["senderHosted 1"]);
    assert_eq!(conn.stats().exports, 2);
    // The peer's references: two to the promise (its two bootstraps),
    // two to the resolution (the `Resolve` and the third bootstrap).
    for q in 0..3 {
        send(&mut peer, |mut m| {
            let mut f = m.init_finish().unwrap();
            f.set_question_id(q);
            f.set_release_result_caps(false);
        })
        .await;
    }
    for id in 0..2 {
        send(&mut peer, |mut m| {
            let mut r = m.init_release().unwrap();
            r.set_id(id);
            r.set_reference_count(2);
        })
        .await;
    }
    assert!(
        common::eventually(|| conn.stats() == capnarena_rpc::Stats::default()).await,
        "{:?}",
        conn.stats()
    );
    drop(peer);
    assert!(conn.closed().await.is_ok());
    assert_eq!(conn.stats(), capnarena_rpc::Stats::default());
    assert!(common::eventually(|| drops.load(Ordering::SeqCst) == 1).await);
}

/// A promise the peer released before it resolved gets no `Resolve`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promise_released_before_it_resolves_gets_no_resolve() {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let promise = Client::from_promise(async move {
        rx.await
            .unwrap_or_else(|_| Err(Error::failed("never resolved")))
    });
    let (a, b) = tokio::io::duplex(1 << 20);
    let conn = Connection::new(a, Some(promise.clone()), Options::default());
    let mut peer = Framed::new(b, FramedCodec::new());
    assert_eq!(bootstrap(&mut peer, 0).await, ["senderPromise 0"]);
    // The finish releases the results' capabilities (its default).
    send(&mut peer, |mut m| {
        m.init_finish().unwrap().set_question_id(0);
    })
    .await;
    assert!(common::eventually(|| conn.stats().exports == 0).await);
    tx.send(Ok(Client::from_server(TestServer::default()))).ok();
    // Resolved here: a call on it is answered.
    assert_eq!(common::add(&promise, 1, 2).await.unwrap(), 3);
    // The next message the peer gets is the return of a new bootstrap.
    assert_eq!(bootstrap(&mut peer, 1).await, ["senderHosted 0"]);
    drop(peer);
    assert!(conn.closed().await.is_ok());
}

/// A promise resolved to a capability of the peer (its answer to this
/// side's bootstrap): the `Resolve` names it (`receiverAnswer`), and a
/// `Disembargo(senderLoopback)` on the promise is looped back to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disembargo_on_a_promise_resolved_to_the_peer_loops_back() {
    let (conn, mut peer, resolver) = raw_promise();
    assert_eq!(bootstrap(&mut peer, 0).await, ["senderPromise 0"]);
    let theirs = conn.bootstrap();
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "bootstrap 0"
    );
    resolver.send(Ok(theirs)).ok();
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "resolve 0 receiverAnswer 0"
    );
    send(&mut peer, |mut m| {
        let mut d = m.init_disembargo().unwrap();
        d.init_target().unwrap().set_imported_cap(0);
        d.init_context().set_sender_loopback(6);
    })
    .await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "disembargo answer receiverLoopback 6"
    );
    drop(peer);
    assert!(conn.closed().await.is_ok());
}

/// A `Disembargo(senderLoopback)` on a promise not resolved yet aborts
/// the connection, naming the embargo.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disembargo_on_a_promise_not_resolved_aborts() {
    let (conn, mut peer, _resolver) = raw_promise();
    assert_eq!(bootstrap(&mut peer, 0).await, ["senderPromise 0"]);
    send(&mut peer, |mut m| {
        let mut d = m.init_disembargo().unwrap();
        d.init_target().unwrap().set_imported_cap(0);
        d.init_context().set_sender_loopback(4);
    })
    .await;
    assert_aborted(
        conn,
        peer,
        "senderLoopback disembargo 4 of a promise not resolved yet",
    )
    .await;
}

/// A `Disembargo` naming an export that does not exist aborts the
/// connection with the embargo and the export's id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disembargo_of_an_unknown_export_aborts() {
    let (conn, mut peer) = raw(Options::default());
    send(&mut peer, |mut m| {
        let mut d = m.init_disembargo().unwrap();
        d.init_target().unwrap().set_imported_cap(99);
        d.init_context().set_sender_loopback(5);
    })
    .await;
    assert_aborted(conn, peer, "disembargo 5 of export 99, which is not held").await;
}

/// Answers every call with a new promise that never resolves, whose
/// future counts its drop.
struct Unresolved(Arc<std::sync::atomic::AtomicUsize>);

impl Server for Unresolved {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        _method_id: u16,
        _params: Params,
        mut results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        let counted = Counted(Arc::clone(&self.0));
        let promise = Client::from_promise(async move {
            let _counted = counted;
            std::future::pending::<capnarena_rpc::Result<Client>>().await
        });
        Box::pin(async move {
            let index = results.add_cap(promise);
            results.content()?.set_capability(index);
            Ok(results)
        })
    }
}

/// A peer that keeps every promise it is sent and never releases one:
/// past `max_exports` the call that would export one more fails as
/// overloaded, with the numbers, and the connection goes on; when the
/// peer leaves, the tables are empty and every promise's future is
/// dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn promises_never_released_stop_at_max_exports() {
    let futures_dropped = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (a, b) = tokio::io::duplex(1 << 20);
    let options = Options {
        max_exports: 3,
        ..Options::default()
    };
    let server = Client::from_server(Unresolved(Arc::clone(&futures_dropped)));
    let conn = Connection::new(a, Some(server), options);
    let mut peer = Framed::new(b, FramedCodec::new());
    assert_eq!(bootstrap(&mut peer, 0).await, ["senderHosted 0"]);
    for q in 1..=2 {
        call_gate(&mut peer, q, 0).await;
        let frame = peer.next().await.unwrap().unwrap();
        assert_eq!(result_caps(&frame), [format!("senderPromise {q}")]);
    }
    assert_eq!(conn.stats().exports, 3);
    call_gate(&mut peer, 3, 0).await;
    assert_eq!(
        describe(&peer.next().await.unwrap().unwrap()),
        "return 3 exception overloaded: 3 capabilities exported on the connection, its limit"
    );
    drop(peer);
    assert!(conn.closed().await.is_ok());
    assert_eq!(conn.stats(), capnarena_rpc::Stats::default());
    assert!(
        common::eventually(|| futures_dropped.load(Ordering::SeqCst) == 3).await,
        "{} of 3 futures dropped",
        futures_dropped.load(Ordering::SeqCst)
    );
}
