//! Generates Rust code for `schema/bench.capnp` twice, from the one schema
//! both sides of every scenario use: with capnpc for the capnp side
//! (`bench_capnp.rs`) and with capnarena-build for the capnarena side
//! (`capnarena/bench_capnp.rs`). Both need the reference `capnp` tool on
//! PATH (Debian package `capnproto`).

fn main() {
    println!("cargo:rerun-if-changed=schema/bench.capnp");
    capnpc::CompilerCommand::new()
        .src_prefix("schema")
        .file("schema/bench.capnp")
        .run()
        .expect("compiling schema/bench.capnp with capnpc (is the `capnp` tool installed?)");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set"));
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/bench.capnp")
        .out_dir(out.join("capnarena"))
        .compile()
        .expect("compiling schema/bench.capnp with capnarena-build");
}
