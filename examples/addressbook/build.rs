//! Step 2 of 3: compile the schema into `OUT_DIR`.
fn main() -> std::io::Result<()> {
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/addressbook.capnp")
        .compile()
}
