//! Typed RPC code generated for the runtime's test schemas (regenerated
//! by capnarena-codegen/regenerate.sh into tests/generated/): it compiles
//! against this crate, with the names those schemas make collide
//! (names.capnp: an interface with a nested `CallParams` struct beside
//! `call`'s implicit parameters) and a generic interface
//! (codegen.capnp's `Store(Key)`); and a generic server answers through
//! the typed client.

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
