//! Compiles the schema into `OUT_DIR` (the pure-Rust schema compiler, so
//! no `capnp` binary is needed).
fn main() -> Result<(), capnarena_build::Error> {
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/kvstore.capnp")
        .compile()
}
