//! Untrusted-input regression suite: hand-written hostile messages, one
//! file per attack class under `tests/regress/`, each test asserting the
//! specific [`capnarena::Error`] variant (and its numbers) the encoding
//! spec implies, never just "some error".

mod common;

#[path = "regress/mod.rs"]
mod regress;
