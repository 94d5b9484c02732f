#[allow(missing_docs, clippy::all)]
pub mod bench_capnp {
    include!(concat!(env!("OUT_DIR"), "/bench_capnp.rs"));
}
