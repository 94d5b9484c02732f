//! The thread-safety that `src/typed.rs`'s docs state: what a server
//! method or a caller reads parameters and results with is `Send` and
//! `Sync`, so it may be held across an `.await` in a server's future,
//! which must be `Send`. These are compile-time assertions: the file fails
//! to build if a field that is not `Send` or `Sync` creeps into one of
//! these types.

#[path = "generated/test_capnp.rs"]
#[rustfmt::skip]
#[allow(dead_code, clippy::all, missing_docs)]
mod test_capnp;

use capnarena_rpc::{Root, TypedParams, TypedResponse};
use test_capnp::test::{wait_params, wait_results};

fn send_sync<T: Send + Sync>() {}

/// Parameters, a response, the root they hand out and the generated
/// reader under it.
#[test]
fn typed_readers_are_send_and_sync() {
    send_sync::<TypedParams<wait_params::Owned>>();
    send_sync::<TypedResponse<wait_results::Owned>>();
    send_sync::<Root<'static, wait_params::Owned>>();
    send_sync::<wait_params::Reader<'static>>();
}
