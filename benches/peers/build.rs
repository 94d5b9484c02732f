//! Generates Rust code twice from each schema both sides use: with capnpc
//! for the capnp side (`bench_capnp.rs`, `telemetry_capnp.rs`; capnpc needs
//! the reference `capnp` tool on PATH, Debian package `capnproto`) and with
//! capnarena-build for the capnarena side (`capnarena/bench_capnp.rs`,
//! `capnarena/telemetry_capnp.rs`; compiled in Rust, no tool needed).

fn main() {
    println!("cargo:rerun-if-changed=schema/bench.capnp");
    println!("cargo:rerun-if-changed=schema/telemetry.capnp");
    capnpc::CompilerCommand::new()
        .src_prefix("schema")
        .file("schema/bench.capnp")
        .run()
        .expect("compiling schema/bench.capnp with capnpc (is the `capnp` tool installed?)");
    capnpc::CompilerCommand::new()
        .src_prefix("schema")
        .file("schema/telemetry.capnp")
        .default_parent_module(vec!["realistic".into(), "peer".into()])
        .run()
        .expect("compiling schema/telemetry.capnp with capnpc");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set"));
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/bench.capnp")
        .file("schema/telemetry.capnp")
        .out_dir(out.join("capnarena"))
        .compile()
        .expect("compiling the bench schemas with capnarena-build");
}
