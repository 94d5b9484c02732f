//! The interop service on the GENERATED typed API (tests/generated/
//! test_capnp.rs, from tests/interop/test.capnp with typed RPC code): a
//! `Test` server, its counters, a named counter (`Named extends Counter`),
//! a text box (`Box(Text)`) and a sink (a `stream` method); and
//! `call_all`, which calls a `Test` through every method with the typed
//! client and checks each answer.
#![allow(dead_code)]

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use capnarena::typed::Text;
use capnarena_rpc::{Error, ErrorKind, Result};

#[path = "../generated/test_capnp.rs"]
#[rustfmt::skip]
#[allow(dead_code, clippy::all, missing_docs)]
pub mod test_capnp;

pub use test_capnp::{box_, counter, named, sink, test};

/// The typed `Test` server; counts waits begun and waits dropped.
#[derive(Default)]
pub struct TypedTest {
    /// Calls of add, echoCap, makeCounter and callBack answered.
    pub calls: AtomicU64,
    pub waits_started: AtomicUsize,
    pub waits_dropped: Arc<AtomicUsize>,
}

/// Increments a counter when dropped (a wait's future was dropped).
struct DropCount(Arc<AtomicUsize>);

impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

pub fn kind_of(n: u64) -> ErrorKind {
    match n {
        0 => ErrorKind::Failed,
        1 => ErrorKind::Overloaded,
        2 => ErrorKind::Disconnected,
        _ => ErrorKind::Unimplemented,
    }
}

impl test::Server for TypedTest {
    async fn add(
        self: Arc<Self>,
        params: test::AddParams,
        mut results: test::AddResults,
    ) -> Result<test::AddResults> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let (a, b) = params.read(|p| Ok((p.get_a(), p.get_b())))?;
        results.get()?.set_sum(a.wrapping_add(b));
        Ok(results)
    }

    async fn echo_cap(
        self: Arc<Self>,
        params: test::EchoCapParams,
        mut results: test::EchoCapResults,
    ) -> Result<test::EchoCapResults> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let cap: counter::Client = params.get_cap(|p| p.get_cap())?;
        results.set_cap(cap, |mut r, i| r.set_cap(i))?;
        Ok(results)
    }

    async fn make_counter(
        self: Arc<Self>,
        params: test::MakeCounterParams,
        mut results: test::MakeCounterResults,
    ) -> Result<test::MakeCounterResults> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let start = params.read(|p| Ok(p.get_start()))?;
        let index = results.add_cap(counter::Client::from_server(TypedCounter::new(start)));
        results.get()?.set_counter(index);
        Ok(results)
    }

    async fn fail(
        self: Arc<Self>,
        params: test::FailParams,
        results: test::FailResults,
    ) -> Result<test::FailResults> {
        let kind = kind_of(params.read(|p| Ok(p.get_kind()))?);
        drop(results);
        Err(Error::new(kind, "asked to fail"))
    }

    async fn wait(
        self: Arc<Self>,
        _params: test::WaitParams,
        _results: test::WaitResults,
    ) -> Result<test::WaitResults> {
        let _guard = DropCount(Arc::clone(&self.waits_dropped));
        self.waits_started.fetch_add(1, Ordering::SeqCst);
        std::future::pending().await
    }

    async fn call_back(
        self: Arc<Self>,
        params: test::CallBackParams,
        mut results: test::CallBackResults,
    ) -> Result<test::CallBackResults> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let (index, times) = params.read(|p| Ok((p.get_counter()?, p.get_times())))?;
        let cap: counter::Client = params.cap(index)?;
        let mut last = 0;
        for _ in 0..times {
            last = increment(&cap).await?;
        }
        results.get()?.set_last(last);
        Ok(results)
    }

    async fn make_named(
        self: Arc<Self>,
        params: test::MakeNamedParams,
        mut results: test::MakeNamedResults,
    ) -> Result<test::MakeNamedResults> {
        let (name, start) = params.read(|p| Ok((p.get_name()?.to_string(), p.get_start())))?;
        let named = named::Client::from_server(TypedNamed {
            name,
            counter: TypedCounter::new(start),
        });
        let index = results.add_cap(named);
        results.get()?.set_named(index);
        Ok(results)
    }

    async fn make_box(
        self: Arc<Self>,
        params: test::MakeBoxParams,
        mut results: test::MakeBoxResults,
    ) -> Result<test::MakeBoxResults> {
        let value = params.read(|p| Ok(p.get_value()?.to_string()))?;
        let index = results.add_cap(box_::Client::<Text>::from_server(TextBox(value)));
        results.get()?.set_box(index);
        Ok(results)
    }

    async fn hold(
        self: Arc<Self>,
        params: test::HoldParams,
        mut results: test::HoldResults,
    ) -> Result<test::HoldResults> {
        let (counter, label) = {
            let root = params.reader()?;
            let holder = root.get()?.get_holder()?;
            (
                holder.get_counter_client(&params)?,
                holder.get_label()?.to_string(),
            )
        };
        let value = increment(&counter).await?;
        let (mut r, mut caps) = results.get_with_caps()?;
        let mut holder = r.init_holder()?;
        holder.set_label(&format!("{label} {value}"))?;
        holder.set_box_client(&mut caps, box_::Client::from_server(TextBox(label)));
        holder.set_counter_client(&mut caps, counter);
        Ok(results)
    }

    async fn make_sink(
        self: Arc<Self>,
        _params: test::MakeSinkParams,
        mut results: test::MakeSinkResults,
    ) -> Result<test::MakeSinkResults> {
        let index = results.add_cap(sink::Client::from_server(TypedSink::default()));
        results.get()?.set_sink(index);
        Ok(results)
    }
}

/// A counter: `increment` adds one and answers the new value.
pub struct TypedCounter {
    value: AtomicU64,
}

impl TypedCounter {
    pub fn new(start: u64) -> Self {
        TypedCounter {
            value: AtomicU64::new(start),
        }
    }

    /// Counts at once (when the call is dispatched, so in the order calls
    /// were sent), then answers.
    fn bump(
        &self,
        mut results: counter::IncrementResults,
    ) -> std::future::Ready<Result<counter::IncrementResults>> {
        let value = self.value.fetch_add(1, Ordering::SeqCst) + 1;
        let set = results.get().map(|mut r| r.set_value(value));
        std::future::ready(set.map(|()| results))
    }
}

impl counter::Server for TypedCounter {
    fn increment(
        self: Arc<Self>,
        _params: counter::IncrementParams,
        results: counter::IncrementResults,
    ) -> impl Future<Output = Result<counter::IncrementResults>> + Send + 'static {
        self.bump(results)
    }
}

/// A named counter: a `Named`, so a `Counter` too.
pub struct TypedNamed {
    name: String,
    counter: TypedCounter,
}

impl counter::Server for TypedNamed {
    fn increment(
        self: Arc<Self>,
        _params: counter::IncrementParams,
        results: counter::IncrementResults,
    ) -> impl Future<Output = Result<counter::IncrementResults>> + Send + 'static {
        self.counter.bump(results)
    }
}

impl named::Server for TypedNamed {
    async fn name(
        self: Arc<Self>,
        _params: named::NameParams,
        mut results: named::NameResults,
    ) -> Result<named::NameResults> {
        results.get()?.set_name(&self.name)?;
        Ok(results)
    }
}

/// A `Box(Text)` holding a text.
pub struct TextBox(pub String);

impl box_::Server<Text> for TextBox {
    async fn get(
        self: Arc<Self>,
        _params: box_::GetParams<Text>,
        mut results: box_::GetResults<Text>,
    ) -> Result<box_::GetResults<Text>> {
        results.get()?.set_value(&self.0)?;
        Ok(results)
    }
}

/// A sink: counts the bytes written to it.
#[derive(Default)]
pub struct TypedSink {
    bytes: AtomicU64,
}

impl sink::Server for TypedSink {
    fn write(
        self: Arc<Self>,
        params: sink::WriteParams,
    ) -> impl Future<Output = Result<()>> + Send + 'static {
        // Counted at dispatch, in the order the writes were sent.
        let counted = params.read(|p| Ok(p.get_data()?.len() as u64));
        if let Ok(n) = counted {
            self.bytes.fetch_add(n, Ordering::SeqCst);
        }
        std::future::ready(counted.map(|_| ()))
    }

    async fn total(
        self: Arc<Self>,
        _params: sink::TotalParams,
        mut results: sink::TotalResults,
    ) -> Result<sink::TotalResults> {
        results.get()?.set_bytes(self.bytes.load(Ordering::SeqCst));
        Ok(results)
    }
}

/// `increment` through the typed client.
pub async fn increment(counter: &counter::Client) -> Result<u64> {
    let response = counter.increment_request().send().response.await?;
    response.read(|r| Ok(r.get_value()))
}

/// `add` through the typed client.
pub async fn add(test: &test::Client, a: u64, b: u64) -> Result<u64> {
    let mut request = test.add_request();
    let mut p = request.get()?;
    p.set_a(a);
    p.set_b(b);
    let response = request.send().response.await?;
    response.read(|r| Ok(r.get_sum()))
}

/// Calls `test` through every method with the typed client, checking
/// each answer: pipelining, a capability of ours called back and echoed
/// back as itself, inheritance, a generic interface, a stream, each
/// exception type, and a canceled call. `ours_is_local`: whether `test`'s
/// echo of our capability comes back as the very same client (over a
/// connection it does).
pub async fn call_all(test: &test::Client) {
    assert_eq!(add(test, 40, 2).await.unwrap(), 42);

    // Pipelining: two increments before makeCounter returns.
    let mut request = test.make_counter_request();
    request.get().unwrap().set_start(10);
    let sent = request.send();
    let counter = sent.pipeline.get_counter();
    let first = counter.increment_request().send();
    let second = counter.increment_request().send();
    let value = |r: capnarena_rpc::TypedResponse<counter::increment_results::Owned>| {
        r.read(|r| Ok(r.get_value())).unwrap()
    };
    assert_eq!(value(first.response.await.unwrap()), 11);
    assert_eq!(value(second.response.await.unwrap()), 12);
    let response = sent.response.await.unwrap();
    let returned: counter::Client = response
        .cap(response.read(|r| Ok(r.get_counter()?)).unwrap())
        .unwrap();
    assert_eq!(increment(&returned).await.unwrap(), 13);
    drop((response, returned, counter, sent.pipeline));

    // Ours, called back by the server.
    let mine = counter::Client::from_server(TypedCounter::new(7));
    let mut request = test.call_back_request();
    let index = request.add_cap(mine.clone());
    let mut p = request.get().unwrap();
    p.set_times(3);
    p.set_counter(index);
    let response = request.send().response.await.unwrap();
    assert_eq!(response.read(|r| Ok(r.get_last())).unwrap(), 10);

    // Ours, echoed: it comes back as itself.
    let mut request = test.echo_cap_request();
    request
        .set_cap(mine.clone(), |mut p, i| p.set_cap(i))
        .unwrap();
    let response = request.send().response.await.unwrap();
    let echoed: counter::Client = response.get_cap(|r| r.get_cap()).unwrap();
    assert!(echoed.client.same_as(&mine.client), "{echoed:?}");
    assert_eq!(increment(&echoed).await.unwrap(), 11);
    drop((response, echoed, mine));

    // Inheritance: a Named, pipelined, called as a Counter and as itself.
    let mut request = test.make_named_request();
    let mut p = request.get().unwrap();
    p.set_name("seven").unwrap();
    p.set_start(7);
    let sent = request.send();
    let named = sent.pipeline.get_named();
    assert_eq!(increment(&named.clone().into()).await.unwrap(), 8);
    let name = named.name_request().send().response.await.unwrap();
    assert_eq!(
        name.read(|r| Ok(r.get_name()?.to_string())).unwrap(),
        "seven"
    );
    drop((name, named, sent));

    // A generic interface: Box(Text).
    let mut request = test.make_box_request();
    request.get().unwrap().set_value("boxed").unwrap();
    let sent = request.send();
    // The pipeline's client is of the field's brand, `Box(Text)`.
    let boxed: box_::Client<Text> = sent.pipeline.get_box();
    let got = boxed.get_request().send().response.await.unwrap();
    assert_eq!(
        got.read(|r| Ok(r.get_value()?.to_string())).unwrap(),
        "boxed"
    );
    drop((got, boxed, sent));

    // Capabilities in the fields of a struct, typed both ways: ours goes
    // in the parameters' holder, is called once by the server and comes
    // back as itself in the results' holder, beside a box of the label.
    let mine = counter::Client::from_server(TypedCounter::new(20));
    let mut request = test.hold_request();
    let (mut p, mut caps) = request.get_with_caps().unwrap();
    let mut holder = p.init_holder().unwrap();
    holder.set_counter_client(&mut caps, mine.clone());
    holder.set_label("held").unwrap();
    let response = request.send().response.await.unwrap();
    let (back, label, boxed) = {
        let root = response.reader().unwrap();
        let holder = root.get().unwrap().get_holder().unwrap();
        (
            holder.get_counter_client(&response).unwrap(),
            holder.get_label().unwrap().to_string(),
            holder.get_box_client(&root).unwrap(),
        )
    };
    assert_eq!(label, "held 21");
    assert!(back.client.same_as(&mine.client));
    assert_eq!(increment(&back).await.unwrap(), 22);
    let got = boxed.get_request().send().response.await.unwrap();
    assert_eq!(
        got.read(|r| Ok(r.get_value()?.to_string())).unwrap(),
        "held"
    );
    drop((got, boxed, back, mine, response));

    // A stream: five writes, then the total.
    let sink = test.make_sink_request().send().pipeline.get_sink();
    for i in 0..5u8 {
        let mut request = sink.write_request();
        request.get().unwrap().set_data(&[i; 1000]).unwrap();
        request.send().await.unwrap();
    }
    sink.stream_flow().finish().await.unwrap();
    let total = sink.total_request().send().response.await.unwrap();
    assert_eq!(total.read(|r| Ok(r.get_bytes())).unwrap(), 5000);
    drop((total, sink));

    for (n, kind) in [
        ErrorKind::Failed,
        ErrorKind::Overloaded,
        ErrorKind::Disconnected,
        ErrorKind::Unimplemented,
    ]
    .into_iter()
    .enumerate()
    {
        let mut request = test.fail_request();
        request.get().unwrap().set_kind(n as u64);
        let e = request.send().response.await.err().expect("an error");
        assert_eq!(e.kind, kind, "{e}");
        assert!(e.reason.contains("asked to fail"), "{e}");
    }

    // Canceled: dropping the request sends Finish; the connection goes on.
    let waiting = test.wait_request().send();
    assert_eq!(add(test, 1, 2).await.unwrap(), 3);
    drop(waiting);
    assert_eq!(add(test, 2, 3).await.unwrap(), 5);
}

/// A counter that tells `changed` after each increment.
pub struct SignalingCounter {
    value: AtomicU64,
    changed: Arc<tokio::sync::Notify>,
}

impl counter::Server for SignalingCounter {
    /// Counts at once (in the order calls were sent), then answers.
    fn increment(
        self: Arc<Self>,
        _params: counter::IncrementParams,
        mut results: counter::IncrementResults,
    ) -> impl Future<Output = Result<counter::IncrementResults>> + Send + 'static {
        let value = self.value.fetch_add(1, Ordering::SeqCst) + 1;
        self.changed.notify_one();
        let set = results.get().map(|mut r| r.set_value(value));
        std::future::ready(set.map(|()| results))
    }
}

/// A `Test` server whose `makeCounter` waits for `go`, returns its
/// counter through `set_pipeline`, and keeps running until that counter
/// reached `start + 4`: only calls on the counter it handed out end it.
/// `callBack` calls the counter it is given `times` times. `makeSink`
/// returns its sink through `set_pipeline` and keeps running until
/// `SINK_BYTES` were written to it.
#[derive(Default)]
pub struct Streaming {
    pub go: tokio::sync::Notify,
    /// The value `makeCounter`'s counter had when the call returned.
    pub returned_at: AtomicU64,
    /// The bytes `makeSink`'s sink had when the call returned.
    pub sink_returned_at: AtomicU64,
}

/// What `Streaming`'s `makeSink` waits for: more than the stream window
/// (64 KiB), so the caller's flow control holds writes back meanwhile.
pub const SINK_BYTES: u64 = 200_000;

/// A sink that counts the bytes written and tells `changed` after each
/// write.
pub struct SignalingSink {
    bytes: AtomicU64,
    changed: Arc<tokio::sync::Notify>,
}

impl sink::Server for SignalingSink {
    fn write(
        self: Arc<Self>,
        params: sink::WriteParams,
    ) -> impl Future<Output = Result<()>> + Send + 'static {
        let counted = params.read(|p| Ok(p.get_data()?.len() as u64));
        if let Ok(n) = counted {
            self.bytes.fetch_add(n, Ordering::SeqCst);
            self.changed.notify_one();
        }
        std::future::ready(counted.map(|_| ()))
    }

    async fn total(
        self: Arc<Self>,
        _params: sink::TotalParams,
        mut results: sink::TotalResults,
    ) -> Result<sink::TotalResults> {
        results.get()?.set_bytes(self.bytes.load(Ordering::SeqCst));
        Ok(results)
    }
}

impl test::Server for Streaming {
    async fn make_sink(
        self: Arc<Self>,
        _params: test::MakeSinkParams,
        mut results: test::MakeSinkResults,
    ) -> Result<test::MakeSinkResults> {
        let changed = Arc::new(tokio::sync::Notify::new());
        let sink = Arc::new(SignalingSink {
            bytes: AtomicU64::new(0),
            changed: Arc::clone(&changed),
        });
        let index = results.add_cap(sink::Client::from_arc(Arc::clone(&sink)));
        results.get()?.set_sink(index);
        results.set_pipeline();
        while sink.bytes.load(Ordering::SeqCst) < SINK_BYTES {
            changed.notified().await;
        }
        self.sink_returned_at
            .store(sink.bytes.load(Ordering::SeqCst), Ordering::SeqCst);
        Ok(results)
    }

    async fn make_counter(
        self: Arc<Self>,
        params: test::MakeCounterParams,
        mut results: test::MakeCounterResults,
    ) -> Result<test::MakeCounterResults> {
        let start = params.read(|p| Ok(p.get_start()))?;
        self.go.notified().await;
        let changed = Arc::new(tokio::sync::Notify::new());
        let counter = Arc::new(SignalingCounter {
            value: AtomicU64::new(start),
            changed: Arc::clone(&changed),
        });
        let client = counter::Client::from_arc(Arc::clone(&counter));
        {
            let (mut r, mut caps) = results.get_with_caps()?;
            r.set_counter_client(&mut caps, client);
        }
        results.set_pipeline();
        while counter.value.load(Ordering::SeqCst) < start + 4 {
            changed.notified().await;
        }
        self.returned_at
            .store(counter.value.load(Ordering::SeqCst), Ordering::SeqCst);
        Ok(results)
    }

    async fn call_back(
        self: Arc<Self>,
        params: test::CallBackParams,
        mut results: test::CallBackResults,
    ) -> Result<test::CallBackResults> {
        let (index, times) = params.read(|p| Ok((p.get_counter()?, p.get_times())))?;
        let cap: counter::Client = params.cap(index)?;
        let mut last = 0;
        for _ in 0..times {
            last = increment(&cap).await?;
        }
        results.get()?.set_last(last);
        Ok(results)
    }
}
