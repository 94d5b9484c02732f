//! Generates Rust code for `schema/bench.capnp` with capnpc (needs the
//! reference `capnp` tool on PATH; Debian package `capnproto`).

fn main() {
    println!("cargo:rerun-if-changed=schema/bench.capnp");
    capnpc::CompilerCommand::new()
        .src_prefix("schema")
        .file("schema/bench.capnp")
        .run()
        .expect("compiling schema/bench.capnp with capnpc (is the `capnp` tool installed?)");
}
