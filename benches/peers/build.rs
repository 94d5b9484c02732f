//! Generates Rust code twice from each schema both sides use: with capnpc
//! for the capnp side (`bench_capnp.rs`, `telemetry_capnp.rs`; capnpc needs
//! the reference `capnp` tool on PATH, Debian package `capnproto`) and with
//! capnarena-build for the capnarena side (`capnarena/bench_capnp.rs`,
//! `capnarena/telemetry_capnp.rs`; compiled in Rust, no tool needed).
//! The four schemas of the data-set suite (`schema/rsb/`, see its
//! `PROVENANCE.md`) go to `rsb/` and `capnarena/rsb/` the same way, the
//! latter with plain Rust values and their serde impls (`Config::serde`,
//! which implies `owned_values`: the owned-value columns against prost,
//! and the JSON benchmark's generated path). The
//! RPC benchmark's `schema/rpc_bench.capnp` gets capnpc's code (for
//! capnp-rpc) and capnarena's with typed RPC code (`Config::rpc`).

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
    const RSB: [&str; 4] = [
        "schema/rsb/log.capnp",
        "schema/rsb/mesh.capnp",
        "schema/rsb/minecraft_savedata.capnp",
        "schema/rsb/mk48.capnp",
    ];
    let mut peer = capnpc::CompilerCommand::new();
    peer.src_prefix("schema/rsb")
        .output_path(out.join("rsb"))
        .default_parent_module(vec!["rsb".into(), "peer".into()]);
    let mut ours = capnarena_build::Config::new()
        .src_prefix("schema/rsb")
        .out_dir(out.join("capnarena/rsb"))
        .serde(true);
    for f in RSB {
        println!("cargo:rerun-if-changed={f}");
        peer.file(f);
        ours = ours.file(f);
    }
    std::fs::create_dir_all(out.join("rsb")).expect("creating OUT_DIR/rsb");
    peer.run()
        .expect("compiling the data-set schemas (schema/rsb) with capnpc");
    ours.compile()
        .expect("compiling the data-set schemas (schema/rsb) with capnarena-build");
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/bench.capnp")
        .file("schema/telemetry.capnp")
        .out_dir(out.join("capnarena"))
        .compile()
        .expect("compiling the bench schemas with capnarena-build");
    // The RPC benchmark's interface: capnpc's client and server for
    // capnp-rpc, capnarena's typed RPC code for capnarena-rpc.
    println!("cargo:rerun-if-changed=schema/rpc_bench.capnp");
    capnpc::CompilerCommand::new()
        .src_prefix("schema")
        .file("schema/rpc_bench.capnp")
        .run()
        .expect("compiling schema/rpc_bench.capnp with capnpc");
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/rpc_bench.capnp")
        .out_dir(out.join("capnarena"))
        .rpc(true)
        .compile()
        .expect("compiling schema/rpc_bench.capnp with capnarena-build");
}
