//! Step 2 of 3: compile the schema into `OUT_DIR`.
fn main() -> Result<(), capnarena_build::Error> {
    capnarena_build::Config::new()
        .src_prefix("schema")
        .file("schema/addressbook.capnp")
        .compile()
}
