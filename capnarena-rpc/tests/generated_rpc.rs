//! Typed RPC code generated for the runtime's test schemas (regenerated
//! by capnarena-codegen/regenerate.sh into tests/generated/): it compiles
//! against this crate, with the names those schemas make collide
//! (names.capnp: an interface with a nested `CallParams` struct beside
//! `call`'s implicit parameters, nested enums named like the RPC code's
//! items, a generic interface whose parameters are named like the RPC
//! code's own) and a generic interface (codegen.capnp's `Store(Key)`);
//! and generic servers answer through the typed clients.

use std::sync::Arc;

use capnarena::typed::Text;
use capnarena_rpc::Result;

#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/codegen_capnp.rs"]
mod codegen_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/imported_capnp.rs"]
mod imported_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/names_capnp.rs"]
mod names_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/rpc_generics_capnp.rs"]
mod rpc_generics_capnp;

// Every other interface schema of the repository, so that the RPC code
// of each compiles (regenerate.sh writes them): the reference's test.capnp
// family (with schema.capnp, which it imports), whose generic interfaces
// have methods that use only some of their parameters
// (`TestGenerics.Interface(Qux).call`,
// `TestImplicitMethodParamsInGeneric(V).call`), and the workspace's own.
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/reference/schema_capnp.rs"]
mod schema_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/reference/test_capnp.rs"]
mod test_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/reference/test_import_capnp.rs"]
mod test_import_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/reference/test_import2_capnp.rs"]
mod test_import2_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/schemas/stream_capnp.rs"]
mod stream_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/schemas/owned_generics_capnp.rs"]
mod owned_generics_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/schemas/text_format_capnp.rs"]
mod text_format_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/schemas/misc_capnp.rs"]
mod misc_capnp;
#[allow(dead_code, clippy::all, missing_docs)]
#[rustfmt::skip]
#[path = "generated/schemas/interfaces_capnp.rs"]
mod interfaces_capnp;

use codegen_capnp::store;

/// A `Store(Text)` that answers `get` with the key's length (as a
/// one-word struct in `value :AnyPointer`).
struct Lengths;

impl store::Server<Text> for Lengths {
    async fn get(
        self: Arc<Self>,
        params: store::GetParams<Text>,
        mut results: store::GetResults<Text>,
    ) -> Result<store::GetResults<Text>> {
        let len = params.read(|p| Ok(p.get_key()?.len() as u64))?;
        let mut r = results.get()?;
        r.get_value()
            .init_struct(capnarena::StructSize::new(1, 0))?
            .set::<u64>(0, len);
        Ok(results)
    }
}

/// A server of `names.capnp`'s `Service`, whose `call` has a sibling
/// struct named `CallParams`.
struct Names;

impl names_capnp::service::Server for Names {}

/// A `Relay(Text, Text, Text)`, whose generic parameters are named
/// `Client`, `Server` and `S` in the schema: answers `take` with `x`.
struct Relay;

impl names_capnp::relay::Server<Text, Text, Text> for Relay {
    async fn take(
        self: Arc<Self>,
        params: names_capnp::relay::TakeParams<Text, Text, Text>,
        mut results: names_capnp::relay::TakeResults<Text, Text, Text>,
    ) -> Result<names_capnp::relay::TakeResults<Text, Text, Text>> {
        let x = params.read(|p| Ok(p.get_x()?.to_string()))?;
        results.get()?.set_y(&x)?;
        Ok(results)
    }
}

/// Names that collide with the typed RPC code's get a `_`: an
/// interface's nested enums named `Client`, `Server`, `CallResults` and
/// `CallPipeline`, and generic parameters named `Client`, `Server` and
/// `S` (which compiled to code naming the wrong items before); the
/// generic interface's client reaches its server.
#[tokio::test]
async fn names_colliding_with_the_rpc_code() {
    use names_capnp::service;
    let _ = (
        service::Client_::A,
        service::Server_::B,
        service::CallResults_::C,
        service::CallPipeline_::D,
    );
    let relay = names_capnp::relay::Client::<Text, Text, Text>::from_server(Relay);
    let mut request = relay.take_request();
    let mut p = request.get().unwrap();
    p.set_c("c").unwrap();
    p.set_s("s").unwrap();
    p.set_x("x").unwrap();
    let response = request.send().response.await.unwrap();
    assert_eq!(response.read(|r| Ok(r.get_y()?.to_string())).unwrap(), "x");
}

/// The generic interface's typed client reaches the generic server (its
/// parameters typed as `Text`); a server that implements no method
/// answers `unimplemented`.
#[tokio::test]
async fn generic_interface_and_colliding_names() {
    let store = store::Client::<Text>::from_server(Lengths);
    let mut request = store.get_request();
    request.get().unwrap().set_key("four").unwrap();
    let response = request.send().response.await.unwrap();
    let len = response.read(|r| Ok(r.get_value().get_struct()?.get::<u64>(0)));
    assert_eq!(len.unwrap(), 4);

    let names = names_capnp::service::Client::from_server(Names);
    let e = names.call_request().send().response.await.err().unwrap();
    assert_eq!(e.kind, capnarena_rpc::ErrorKind::Unimplemented, "{e}");
}

/// A `TestInterface` whose `foo` answers `x` with its label, `i` and `j`.
struct Labeled(&'static str);

impl test_capnp::test_interface::Server for Labeled {
    async fn foo(
        self: Arc<Self>,
        params: test_capnp::test_interface::FooParams,
        mut results: test_capnp::test_interface::FooResults,
    ) -> Result<test_capnp::test_interface::FooResults> {
        let (i, j) = params.read(|p| Ok((p.get_i(), p.get_j())))?;
        results.get()?.set_x(&format!("{} {i} {j}", self.0))?;
        Ok(results)
    }
}

/// The reference's `TestPipeline`: `getCap` answers with `inCap` in
/// `outBox.cap` once `go` is notified; `getCapPipelineOnly` hands out
/// its box through `set_pipeline` and never returns.
#[derive(Default)]
struct Pipelines {
    go: tokio::sync::Notify,
}

impl test_capnp::test_pipeline::Server for Pipelines {
    async fn get_cap(
        self: Arc<Self>,
        params: test_capnp::test_pipeline::GetCapParams,
        mut results: test_capnp::test_pipeline::GetCapResults,
    ) -> Result<test_capnp::test_pipeline::GetCapResults> {
        let in_cap = params.read(|p| p.get_in_cap_client(&params))?;
        self.go.notified().await;
        let (mut r, mut caps) = results.get_with_caps()?;
        r.set_s("boxed")?;
        r.init_out_box()?.set_cap_client(&mut caps, in_cap);
        Ok(results)
    }

    async fn get_cap_pipeline_only(
        self: Arc<Self>,
        _params: test_capnp::test_pipeline::GetCapPipelineOnlyParams,
        mut results: test_capnp::test_pipeline::GetCapPipelineOnlyResults,
    ) -> Result<test_capnp::test_pipeline::GetCapPipelineOnlyResults> {
        {
            let (mut r, mut caps) = results.get_with_caps()?;
            let client = test_capnp::test_interface::Client::from_server(Labeled("only"));
            r.init_out_box()?.set_cap_client(&mut caps, client);
        }
        results.set_pipeline();
        std::future::pending::<()>().await;
        Ok(results)
    }
}

/// Capabilities inside a struct of the results are typed on the
/// pipeline (`outBox` is `test_pipeline::box_::Pipeline`, its `cap` a
/// `test_interface::Client`), over a connection: a call on
/// `getCap`'s `outBox.cap`, made while `getCap` waits, reaches the
/// `inCap` it returns; a call on `getCapPipelineOnly`'s, whose results
/// never arrive, is answered through `set_pipeline` (without pipelining
/// it would wait forever).
#[tokio::test]
async fn capabilities_inside_pipelined_structs_are_typed() {
    use capnarena_rpc::{Connection, FromClient, Options};
    use test_capnp::{test_interface, test_pipeline};

    let (a, b) = tokio::io::duplex(1 << 16);
    let server = Arc::new(Pipelines::default());
    let bootstrap = test_pipeline::Client::from_arc(Arc::clone(&server)).into_client();
    let _serving = Connection::new(a, Some(bootstrap), Options::default());
    let calling = Connection::new(b, None, Options::default());
    let pipelines = test_pipeline::Client::from_client(calling.bootstrap());

    let mut request = pipelines.get_cap_request();
    let (mut p, mut caps) = request.get_with_caps().unwrap();
    p.set_n(1);
    p.set_in_cap_client(
        &mut caps,
        test_interface::Client::from_server(Labeled("in")),
    );
    let sent = request.send();
    let boxed: test_pipeline::box_::Pipeline = sent.pipeline.get_out_box();
    let cap: test_interface::Client = boxed.get_cap();
    let mut foo = cap.foo_request();
    foo.get().unwrap().set_i(7);
    let answer = foo.send().response;
    server.go.notify_one();
    let x = answer.await.unwrap();
    assert_eq!(
        x.read(|r| Ok(r.get_x()?.to_string())).unwrap(),
        "in 7 false"
    );
    let response = sent.response.await.unwrap();
    assert_eq!(
        response.read(|r| Ok(r.get_s()?.to_string())).unwrap(),
        "boxed"
    );

    let only = pipelines.get_cap_pipeline_only_request().send();
    let mut foo = only.pipeline.get_out_box().get_cap().foo_request();
    foo.get().unwrap().set_j(true);
    let x = foo.send().response.await.unwrap();
    assert_eq!(
        x.read(|r| Ok(r.get_x()?.to_string())).unwrap(),
        "only 0 true"
    );
}

/// An `Assignable(Text)`: `get` answers the value held and a `Setter` of
/// it; the setter replaces the value.
#[derive(Default)]
struct Held(std::sync::Mutex<String>);

struct HeldSetter(Arc<Held>);

impl rpc_generics_capnp::assignable::setter::Server<Text> for HeldSetter {
    async fn set(
        self: Arc<Self>,
        params: rpc_generics_capnp::assignable::setter::SetParams<Text>,
        results: rpc_generics_capnp::assignable::setter::SetResults<Text>,
    ) -> Result<rpc_generics_capnp::assignable::setter::SetResults<Text>> {
        let value = params.read(|p| Ok(p.get_value()?.to_string()))?;
        *self.0.0.lock().unwrap() = value;
        Ok(results)
    }
}

impl rpc_generics_capnp::assignable::Server<Text> for Held {
    async fn get(
        self: Arc<Self>,
        _params: rpc_generics_capnp::assignable::GetParams<Text>,
        mut results: rpc_generics_capnp::assignable::GetResults<Text>,
    ) -> Result<rpc_generics_capnp::assignable::GetResults<Text>> {
        use rpc_generics_capnp::assignable::setter;
        let value = self.0.lock().unwrap().clone();
        let setter = setter::Client::<Text>::from_server(HeldSetter(Arc::clone(&self)));
        let (mut r, mut caps) = results.get_with_caps()?;
        r.set_value(&value)?;
        r.set_setter_client(&mut caps, setter);
        Ok(results)
    }
}

/// A generic interface whose results hold a capability typed by its
/// parameter (`Assignable(T)`'s `setter :Setter`, a `Setter(T)`):
/// its pipeline compiles, the pipelined setter (a `Setter<AnyPointer>`
/// there, the pipeline not being generic) converts to the typed
/// `Setter<Text>` and its call reaches the server over a connection.
#[tokio::test]
async fn generic_interfaces_pipeline_their_parameters_capabilities() {
    use capnarena_rpc::{Connection, FromClient, Options};
    use rpc_generics_capnp::assignable;

    let (a, b) = tokio::io::duplex(1 << 16);
    let held = Arc::new(Held::default());
    let bootstrap = assignable::Client::<Text>::from_arc(Arc::clone(&held)).into_client();
    let _serving = Connection::new(a, Some(bootstrap), Options::default());
    let calling = Connection::new(b, None, Options::default());
    let assignable = assignable::Client::<Text>::from_client(calling.bootstrap());

    let sent = assignable.get_request().send();
    let setter =
        assignable::setter::Client::<Text>::from_client(sent.pipeline.get_setter().into_client());
    let mut set = setter.set_request();
    set.get().unwrap().set_value("pipelined").unwrap();
    set.send().response.await.unwrap();
    sent.response.await.unwrap();
    assert_eq!(*held.0.lock().unwrap(), "pipelined");
}
