//! The typed RPC code's options: off by default (no trace of the RPC
//! crate), on with `rpc(true)`, the crate's path configurable; no
//! `unsafe` in what is generated.

use capnarena_codegen::{Options, generate};

/// The calculator example's request, written by the reference tool.
fn request() -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/requests/calculator.bin");
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn code(options: &Options) -> String {
    let files = generate(&request(), options).expect("generation");
    assert_eq!(files.len(), 1);
    files.into_iter().next().unwrap().contents
}

/// Without the option, interfaces get only their id and method structs:
/// the code names no RPC crate, so it builds without one.
#[test]
fn rpc_is_off_by_default() {
    let text = code(&Options::default());
    assert!(!text.contains("capnarena_rpc"));
    assert!(!text.contains("pub trait Server"));
    assert!(text.contains("pub mod evaluate_params"));
}

/// With it, each interface has a client, a server trait and a dispatch,
/// naming the RPC crate by the path given, and nothing `unsafe`.
#[test]
fn rpc_code_names_the_crate_by_its_path() {
    let text = code(&Options::default().rpc(true));
    for item in ["pub struct Client", "pub trait Server", "pub fn dispatch<"] {
        assert_eq!(text.matches(item).count(), 3, "{item}");
    }
    assert!(text.contains("::capnarena_rpc::TypedRequest"));
    let renamed = code(&Options::default().rpc_path("crate::rpc"));
    assert!(!renamed.contains("::capnarena_rpc"));
    // Only the path differs (and, the lines being of other lengths,
    // where they break).
    let tokens = |s: &str| s.split_whitespace().collect::<String>();
    assert!(
        tokens(&renamed.replace("crate::rpc::", "::capnarena_rpc::")) == tokens(&text),
        "more than the path differs"
    );
    assert!(!text.contains("unsafe"));
}
