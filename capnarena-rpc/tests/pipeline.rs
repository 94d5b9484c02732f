//! Two finer points of promise pipelining at level 1:
//! - a server hands out a capability of its results while its call runs
//!   on (`set_pipeline`), and the caller's pipelined calls reach it then;
//! - a call that carries a pipelined capability of an earlier question
//!   (`receiverAnswer`) holds that question open: its `Finish` waits for
//!   the later call's return.

mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use capnarena::serialize::codec::{Frame, FramedCodec};
use capnarena::{Message, SingleSegmentArena, StructSize};
use capnarena_rpc::rpc_capnp::{cap_descriptor, message};
use capnarena_rpc::{
    BoxFuture, Client, Connection, Error, FromClient, Options, Params, Results, Server, Stats,
};
use common::typed::{Streaming, counter, test};
use futures::{SinkExt, StreamExt};
use tokio::sync::Notify;

/// `set_pipeline` makes a running call's capability usable at once:
/// calls pipelined on it before (queued on the call) are delivered in
/// order, a pipelined capability passed to another call (`callBack`)
/// resolves to it, and a call made after reaches it directly; the method,
/// which waits on those calls, then returns. Without `set_pipeline` the
/// calls wait for a return that waits for them: the test times out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_pipeline_lets_pipelined_calls_reach_a_running_call() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Arc::new(Streaming::default());
    let bootstrap = test::Client::from_arc(Arc::clone(&server)).into_client();
    let serving = Connection::new(a, Some(bootstrap), Options::default());
    let calling = Connection::new(b, None, Options::default());
    let test = test::Client::from_client(calling.bootstrap());

    let mut request = test.make_counter_request();
    request.get().unwrap().set_start(10);
    let sent = request.send();
    let counter = sent.pipeline.get_counter();
    let first = counter.increment_request().send();
    let second = counter.increment_request().send();
    let mut request = test.call_back_request();
    {
        let (mut p, mut caps) = request.get_with_caps().unwrap();
        p.set_counter_client(&mut caps, counter.clone());
        p.set_times(1);
    }
    let called_back = request.send();
    // Everything is in at the server before makeCounter goes on: the
    // bootstrap, makeCounter, two increments queued on it, callBack
    // waiting on its promised counter.
    assert!(
        common::eventually(|| {
            let s = serving.stats();
            s.answers == 5 && s.waiters == 1
        })
        .await,
        "{:?}",
        serving.stats()
    );
    server.go.notify_one();

    let done = tokio::time::timeout(Duration::from_secs(20), async {
        let value = |r: capnarena_rpc::TypedResponse<counter::increment_results::Owned>| {
            r.read(|r| Ok(r.get_value())).unwrap()
        };
        assert_eq!(value(first.response.await.unwrap()), 11);
        assert_eq!(value(second.response.await.unwrap()), 12);
        let last = called_back.response.await.unwrap();
        assert_eq!(last.read(|r| Ok(r.get_last())).unwrap(), 13);
        // Sent after set_pipeline, while makeCounter still runs.
        let third = counter.increment_request().send().response.await.unwrap();
        assert_eq!(value(third), 14);
        sent.response.await.unwrap()
    })
    .await
    .expect("pipelined calls did not reach the running call's capability");
    assert_eq!(server.returned_at.load(Ordering::SeqCst), 14);
    // The results, once returned, name the same counter.
    let returned: counter::Client = done.get_cap(|r| r.get_counter()).unwrap();
    assert_eq!(common::typed::increment(&returned).await.unwrap(), 15);

    drop((done, returned, counter, sent.pipeline, test));
    drop((first.pipeline, second.pipeline, called_back.pipeline));
    let (x, y) = common::settle(&serving, &calling).await;
    assert_eq!((x, y), (Stats::default(), Stats::default()));
}

type Raw = tokio_util::codec::Framed<tokio::io::DuplexStream, FramedCodec>;

/// What a message the raw peer reads is, in short (`"finish 1"`,
/// `"call 2 receiverAnswer 1"`).
fn describe(frame: &Frame) -> String {
    let reader = frame.reader().unwrap();
    let root = reader.get_root::<message::Reader>().unwrap();
    match root.which().unwrap() {
        message::Which::Bootstrap(b) => format!("bootstrap {}", b.unwrap().get_question_id()),
        message::Which::Call(c) => {
            let c = c.unwrap();
            let mut s = format!("call {}", c.get_question_id());
            let params = c.get_params().unwrap();
            if params.has_cap_table() {
                for d in params.get_cap_table().unwrap().iter() {
                    if let cap_descriptor::Which::ReceiverAnswer(pa) = d.which().unwrap() {
                        s += &format!(" receiverAnswer {}", pa.unwrap().get_question_id());
                    }
                }
            }
            s
        }
        message::Which::Finish(f) => format!("finish {}", f.unwrap().get_question_id()),
        message::Which::Release(r) => format!("release {}", r.unwrap().get_id()),
        _ => "other".to_string(),
    }
}

async fn next(peer: &mut Raw) -> String {
    let frame = tokio::time::timeout(Duration::from_secs(20), peer.next())
        .await
        .expect("no message came")
        .unwrap()
        .unwrap();
    describe(&frame)
}

/// Returns empty results for question `id`.
async fn send_return(peer: &mut Raw, id: u32) {
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut root = msg
            .init_root::<message::Builder<'_, SingleSegmentArena>>()
            .unwrap();
        let mut ret = root.init_return().unwrap();
        ret.set_answer_id(id);
        ret.init_results()
            .unwrap()
            .get_content()
            .init_struct(StructSize::new(1, 1))
            .unwrap();
    }
    peer.send(&msg).await.unwrap();
}

/// Dropping a call's response and pipeline right after a later call took
/// one of its pipelined capabilities does not finish it: question 1's
/// `Finish` comes only after question 2 has returned. (A peer may resolve
/// question 2's `receiverAnswer` only while question 1 is open; go-capnp
/// fails the call otherwise.) A third call, sent after the drop, shows
/// that no `Finish` was queued in between.
#[tokio::test]
async fn finish_waits_for_calls_carrying_the_questions_capabilities() {
    let (a, b) = tokio::io::duplex(1 << 20);
    let conn = Connection::new(a, None, Options::default());
    let mut peer: Raw = tokio_util::codec::Framed::new(b, FramedCodec::new());
    let remote = conn.bootstrap();

    let first = remote.new_call(common::TEST, common::MAKE_COUNTER).send();
    let counter = first.pipeline.pointer_field(0).client();
    let mut request = remote.new_call(common::TEST, common::ECHO_CAP);
    let index = request.add_cap(counter);
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(0, 1))
        .unwrap()
        .pointer(0)
        .set_capability(index);
    let second = request.send();
    drop(first);
    let third = remote.new_call(common::TEST, common::ADD).send();

    for expected in ["bootstrap 0", "call 1", "call 2 receiverAnswer 1", "call 3"] {
        assert_eq!(next(&mut peer).await, expected);
    }
    send_return(&mut peer, 2).await;
    let response = tokio::time::timeout(Duration::from_secs(20), second.response)
        .await
        .expect("no return")
        .unwrap();
    assert_eq!(next(&mut peer).await, "finish 1");
    drop((response, second.pipeline));
    assert_eq!(next(&mut peer).await, "finish 2");
    drop(third);
    assert_eq!(next(&mut peer).await, "finish 3");
    // Question 1 and 3 wait for their returns, the bootstrap too.
    assert_eq!(conn.stats().questions, 3, "{:?}", conn.stats());
    drop(remote);
}

/// A server that echoes the capability it is given through
/// `set_pipeline`, drops every other reference to it and fails.
struct PipelineThenFail;

impl Server for PipelineThenFail {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        _method_id: u16,
        params: Params,
        mut results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        Box::pin(async move {
            common::answer_cap(&mut results, common::cap0(&params)?)?;
            results.set_pipeline();
            drop((params, results));
            Err(Error::failed("failed after set_pipeline"))
        })
    }
}

/// The pipeline a server set may hold the last reference to an import
/// (here the caller's counter); it is released once the call has
/// returned, without blocking the connection (its release takes the
/// connection's lock), and both sides' tables empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipeline_holding_the_last_import_is_released() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let serving = Connection::new(
        a,
        Some(Client::from_server(PipelineThenFail)),
        Options::default(),
    );
    let calling = Connection::new(b, None, Options::default());
    let remote = calling.bootstrap();
    let mut request = remote.new_call(common::TEST, common::ECHO_CAP);
    let index = request.add_cap(Client::from_server(common::Counter::new(0)));
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(0, 1))
        .unwrap()
        .pointer(0)
        .set_capability(index);
    let sent = request.send();
    let e = tokio::time::timeout(Duration::from_secs(20), sent.response)
        .await
        .expect("no return")
        .err()
        .expect("an error");
    assert!(e.reason.contains("failed after set_pipeline"), "{e}");
    drop((sent.pipeline, remote));
    let (x, y) = tokio::time::timeout(Duration::from_secs(20), common::settle(&serving, &calling))
        .await
        .expect("the connection is stuck");
    assert_eq!((x, y), (Stats::default(), Stats::default()));
}

/// `set_pipeline` on a local call (a server in this process): the
/// caller's pipelined calls reach the running call's counter, and the
/// call, which waits for four of them, returns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_pipeline_on_a_local_call() {
    let server = Arc::new(Streaming::default());
    server.go.notify_one();
    let test = test::Client::from_arc(Arc::clone(&server));
    let mut request = test.make_counter_request();
    request.get().unwrap().set_start(10);
    let sent = request.send();
    let counter = sent.pipeline.get_counter();
    let done = tokio::time::timeout(Duration::from_secs(20), async {
        for expected in 11..=14 {
            let value = counter.increment_request().send().response.await.unwrap();
            assert_eq!(value.read(|r| Ok(r.get_value())).unwrap(), expected);
        }
        sent.response.await.unwrap()
    })
    .await
    .expect("pipelined calls did not reach the running local call's capability");
    assert_eq!(server.returned_at.load(Ordering::SeqCst), 14);
    let returned: counter::Client = done.get_cap(|r| r.get_counter()).unwrap();
    assert_eq!(common::typed::increment(&returned).await.unwrap(), 15);
}

/// The streaming case (capnproto-rust's streaming example): a method
/// hands out a sink with `set_pipeline` and runs until the caller has
/// streamed 200,000 bytes into it, more than the stream window. The
/// caller's writes on the pipelined sink are flow-controlled: never more
/// than the window in flight.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_into_a_pipelined_sink_is_flow_controlled() {
    const WRITE: usize = 4000;
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Arc::new(Streaming::default());
    let bootstrap = test::Client::from_arc(Arc::clone(&server)).into_client();
    let serving = Connection::new(a, Some(bootstrap), Options::default());
    let calling = Connection::new(b, None, Options::default());
    let test = test::Client::from_client(calling.bootstrap());
    let sent = test.make_sink_request().send();
    let sink = sent.pipeline.get_sink();
    let flow = sink.stream_flow().clone();
    let mut most = 0;
    let done = tokio::time::timeout(Duration::from_secs(20), async {
        for _ in 0..common::typed::SINK_BYTES as usize / WRITE {
            let mut request = sink.write_request();
            request.get().unwrap().set_data(&[1; WRITE]).unwrap();
            request.send().await.unwrap();
            most = most.max(flow.in_flight());
        }
        flow.finish().await.unwrap();
        sent.response.await.unwrap()
    })
    .await
    .expect("the streamed writes did not reach the running call's sink");
    assert!(most <= flow.window(), "{most} bytes in flight, {flow:?}");
    assert_eq!(
        server.sink_returned_at.load(Ordering::SeqCst),
        common::typed::SINK_BYTES
    );
    let total = sink.total_request().send().response.await.unwrap();
    assert_eq!(
        total.read(|r| Ok(r.get_bytes())).unwrap(),
        common::typed::SINK_BYTES
    );
    drop((total, done, sink, flow, sent.pipeline, test));
    let (x, y) = common::settle(&serving, &calling).await;
    assert_eq!((x, y), (Stats::default(), Stats::default()));
}

/// A server that answers with counter A (100) through `set_pipeline`,
/// then (on `second`) sets counter B (200) and calls `set_pipeline`
/// again, tells `set_twice`, and returns B once `go` is notified.
#[derive(Default)]
struct TwoPipelines {
    second: Notify,
    set_twice: Notify,
    go: Notify,
}

impl Server for TwoPipelines {
    fn dispatch(
        self: Arc<Self>,
        _interface_id: u64,
        _method_id: u16,
        _params: Params,
        mut results: Results,
    ) -> BoxFuture<capnarena_rpc::Result<Results>> {
        Box::pin(async move {
            common::answer_cap(&mut results, Client::from_server(common::Counter::new(100)))?;
            results.set_pipeline();
            self.second.notified().await;
            common::answer_cap(&mut results, Client::from_server(common::Counter::new(200)))?;
            results.set_pipeline();
            self.set_twice.notify_one();
            self.go.notified().await;
            Ok(results)
        })
    }
}

/// Only the first `set_pipeline` of a call counts, over a connection and
/// locally alike: calls on the pipeline reach counter A while the call
/// runs; once it returns, its results (counter B) take over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_first_set_pipeline_counts() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Arc::new(TwoPipelines::default());
    let _serving = Connection::new(
        a,
        Some(Client::from_arc(server.clone())),
        Options::default(),
    );
    let calling = Connection::new(b, None, Options::default());
    for target in [calling.bootstrap(), Client::from_arc(server.clone())] {
        let sent = target.new_call(common::TEST, common::MAKE_COUNTER).send();
        let counter = sent.pipeline.pointer_field(0).client();
        let bound = Duration::from_secs(20);
        let pipelined = tokio::time::timeout(bound, common::increment(&counter))
            .await
            .expect("the call on the pipeline did not return");
        assert_eq!(pipelined.unwrap(), 101);
        server.second.notify_one();
        tokio::time::timeout(bound, server.set_twice.notified())
            .await
            .unwrap();
        // Still counter A.
        assert_eq!(common::increment(&counter).await.unwrap(), 102);
        server.go.notify_one();
        let response = sent.response.await.unwrap();
        let index = response
            .read(|r| Ok(r.get_struct()?.pointer(0).get_capability()?))
            .unwrap();
        let returned = response.cap(index).unwrap();
        assert_eq!(common::increment(&returned).await.unwrap(), 201);
    }
}
