//! Compiles `.capnp` schemas to typed capnarena Rust from `build.rs` (work in progress).
