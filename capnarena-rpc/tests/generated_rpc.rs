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
