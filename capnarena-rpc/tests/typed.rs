//! The generated typed client and server (tests/generated/test_capnp.rs)
//! between two capnarena connections in one process: every method of the
//! interop schema, then every table empty and the canceled call's server
//! future dropped.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// A sink whose writes wait at a gate; counts the writes begun.
struct GatedSink {
    begun: AtomicUsize,
    gate: tokio::sync::Semaphore,
}

impl sink::Server for GatedSink {
    fn write(self: Arc<Self>, _params: sink::WriteParams) -> impl capnarena_rpc::ServerFuture<()> {
        self.begun.fetch_add(1, Ordering::SeqCst);
        async move {
            self.gate.acquire().await.unwrap().forget();
            Ok(())
        }
    }
}

/// Streaming calls are flow-controlled: with the server holding every
/// write, the sender stops once the window (64 KiB of messages) is full,
/// with no more in flight than the window; released, every write goes
/// through and `finish` returns once they all have.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_calls_stop_at_the_window() {
    const WRITES: usize = 40;
    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Arc::new(GatedSink {
        begun: AtomicUsize::new(0),
        gate: tokio::sync::Semaphore::new(0),
    });
    let bootstrap = sink::Client::from_arc(Arc::clone(&server)).into_client();
    let serving = Connection::new(a, Some(bootstrap), Options::default());
    let calling = Connection::new(b, None, Options::default());
    let sink = sink::Client::from_client(calling.bootstrap());
    let sent = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (sink, sent) = (sink.clone(), Arc::clone(&sent));
        tokio::spawn(async move {
            for _ in 0..WRITES {
                let mut request = sink.write_request();
                request.get().unwrap().set_data(&[7; 4000]).unwrap();
                request.send().await.unwrap();
                sent.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    let flow = sink.stream_flow().clone();
    // Blocked: every write sent has begun on the server, and the next
    // one would not fit.
    let blocked = common::eventually(|| {
        let n = sent.load(Ordering::SeqCst);
        n > 0 && server.begun.load(Ordering::SeqCst) == n && flow.in_flight() + 4000 > flow.window()
    })
    .await;
    let n = sent.load(Ordering::SeqCst);
    assert!(blocked, "{n} sent, {flow:?}");
    println!("blocked after {n} writes: {flow:?}");
    assert!(n < WRITES, "all {n} writes sent past a full window");
    assert!(flow.in_flight() <= flow.window(), "{flow:?}");
    assert!(flow.in_flight() >= n * 4000, "{flow:?}");

    server.gate.add_permits(WRITES);
    writer.await.unwrap();
    flow.finish().await.unwrap();
    assert_eq!(server.begun.load(Ordering::SeqCst), WRITES);
    assert_eq!(flow.in_flight(), 0);
    drop((sink, flow));
    let (x, y) = common::settle(&serving, &calling).await;
    assert_eq!((x, y), (Stats::default(), Stats::default()));
}

/// A sink that fails the write whose first byte is 3.
struct FailingSink;

impl sink::Server for FailingSink {
    async fn write(self: Arc<Self>, params: sink::WriteParams) -> capnarena_rpc::Result<()> {
        match params.read(|p| Ok(p.get_data()?.first().copied()))? {
            Some(3) => Err(capnarena_rpc::Error::failed("bad write")),
            _ => Ok(()),
        }
    }
}

/// A failed streaming call fails the stream: a later `send` or `finish`
/// returns its error.
#[tokio::test]
async fn a_failed_streaming_call_fails_the_stream() {
    let sink = sink::Client::from_server(FailingSink);
    let mut failed = None;
    for i in 0..10u8 {
        let mut request = sink.write_request();
        request.get().unwrap().set_data(&[i]).unwrap();
        if let Err(e) = request.send().await {
            failed = Some(e);
            break;
        }
    }
    let e = match failed {
        Some(e) => e,
        None => sink.stream_flow().finish().await.expect_err("an error"),
    };
    assert!(e.reason.contains("bad write"), "{e}");
    assert!(sink.stream_flow().finish().await.is_err());
}

/// The typed accessors of a generated struct's capability fields: the
/// getter reads the client the field's index names among the message's
/// capabilities (an index past them is an error, and a union's member
/// reads only while it is the member set); the setter adds the client to
/// the message's capabilities and points the field (and the union's
/// discriminant) at it.
#[test]
fn capability_fields_read_and_set_typed_clients() {
    use capnarena::{Message, SingleSegmentArena};
    use capnarena_rpc::{CapTable, Error, Result};
    use common::typed::test_capnp::holder;

    /// Capabilities by index.
    struct Table(Vec<Client>);
    impl CapTable for Table {
        fn cap_client(&self, index: u32) -> Result<Client> {
            let cap = self.0.get(index as usize).cloned();
            cap.ok_or_else(|| Error::failed(format!("no capability {index}")))
        }
    }

    let counter = counter::Client::from_server(TypedCounter::new(0));
    let other = Client::broken(Error::failed("not this one"));
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root::<holder::Builder<_>>()
        .unwrap()
        .set_counter(1);
    let reader = msg.reader();
    let h = reader.get_root::<holder::Reader>().unwrap();
    let table = Table(vec![other.clone(), counter.clone().into_client()]);
    let read: counter::Client = h.get_counter_client(&table).unwrap();
    assert!(read.client.same_as(&counter.client));
    assert!(h.get_counter_client(&Table(vec![other])).is_err());
    match h.get_named_client(&table) {
        Err(e) => assert!(e.to_string().contains("not the union member set"), "{e}"),
        Ok(_) => panic!("read `named` while `none` is set"),
    }

    let test = test::Client::from_server(TypedTest::default());
    let mut request = test.hold_request();
    let (mut p, mut caps) = request.get_with_caps().unwrap();
    let mut h = p.init_holder().unwrap();
    h.set_counter_client(&mut caps, counter.clone());
    let named = named::Client::from_client(Client::broken(Error::failed("a named")));
    h.set_named_client(&mut caps, named);
    assert_eq!(caps.len(), 2);
    let view = h.reborrow_as_reader();
    assert_eq!(view.get().get_counter().unwrap(), 0);
    assert!(matches!(
        view.get().which(),
        Ok(holder::Which::Named(Ok(1)))
    ));
}
