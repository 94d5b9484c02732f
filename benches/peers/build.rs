//! Generates Rust code for `schema/bench.capnp` and `schema/telemetry.capnp`
//! with capnpc, and for `schema/telemetry.capnp` with capnarena-build into
//! `$OUT_DIR/capnarena/` (needs the reference `capnp` tool on PATH; Debian
//! package `capnproto`).

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
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/telemetry.capnp")
        .out_dir(out.join("capnarena"))
        .compile()
        .expect("compiling schema/telemetry.capnp with capnarena-build");
}
