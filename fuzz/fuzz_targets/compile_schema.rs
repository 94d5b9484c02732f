//! Arbitrary text as a schema file, compiled by capnarena-compiler.
//!
//! The input is the file `fuzz.capnp` (bytes as they are, not necessarily
//! UTF-8), in a virtual directory that also holds `other.capnp` (a small
//! valid schema it may import) and an import directory with a stand-in
//! `capnp/stream.capnp`; nothing is read from disk. Properties:
//! - No panic, no hang (libFuzzer's timeout), whatever the text.
//! - An error is a list of diagnostics, each naming a file of the run with
//!   a line and column inside that file's text (or no position).
//! - A success is a framed CodeGeneratorRequest that capnarena reads back:
//!   one requested file, as many nodes as the compiled request, the first
//!   node's id and name as compiled; and compiling again gives the same
//!   bytes.
#![no_main]

use capnarena::{ElementSize, MessageReader, ReaderOptions, words_from_bytes};
use capnarena_compiler::Compiler;
use libfuzzer_sys::fuzz_target;

const OTHER: &str = "@0xd00dfeedd00dfeed;\nstruct Shared { a @0 :Int32 = 5; b @1 :Text; enum E { x @0; y @1; } }\nconst k :UInt16 = 7;\nannotation note(*) :Text;\ninterface Api(T) { get @0 () -> (t :T); }\n";
const STREAM: &str = "@0x86c366a91393f3f8;\nstruct StreamResult @0x995f9a3377c0b16e {}\n";

fn compiler(data: &[u8]) -> Compiler {
    Compiler::new()
        .no_standard_import()
        .working_dir("/fuzz")
        .import_path("/fuzz/include")
        .source("/fuzz/fuzz.capnp", data.to_vec())
        .source("/fuzz/other.capnp", OTHER)
        .source("/fuzz/include/capnp/stream.capnp", STREAM)
        .file("fuzz.capnp")
}

fn lines(text: &[u8]) -> u32 {
    text.iter().filter(|b| **b == b'\n').count() as u32 + 1
}

fuzz_target!(|data: &[u8]| {
    match compiler(data).compile_request() {
        Err(diags) => {
            assert!(!diags.0.is_empty(), "an error with no diagnostic");
            for d in &diags.0 {
                let text = match d.file.as_str() {
                    "fuzz.capnp" => data,
                    "other.capnp" => OTHER.as_bytes(),
                    "include/capnp/stream.capnp" | "capnp/stream.capnp" => STREAM.as_bytes(),
                    f => panic!("diagnostic for unknown file {f:?}: {d}"),
                };
                assert!(d.line() <= lines(text), "line past the end: {d}");
                assert!((d.line() == 0) == (d.column() == 0), "half a position: {d}");
            }
        }
        Ok(request) => {
            let bytes = compiler(data).compile().expect("compiles twice");
            assert_eq!(bytes, compiler(data).compile().expect("compiles thrice"));
            let words = words_from_bytes(&bytes).expect("the request is whole words");
            let reader = MessageReader::from_words(&words, ReaderOptions::default())
                .expect("the request is a framed message");
            let root = reader.root().expect("root struct");
            let nodes = root
                .get_list(0, ElementSize::InlineComposite)
                .expect("nodes");
            assert_eq!(nodes.len() as usize, request.nodes.len());
            if let Some(first) = request.nodes.first() {
                let n = nodes.get_struct(0);
                assert_eq!(n.get::<u64>(0), first.id);
                assert_eq!(n.get_text(0).expect("display name"), first.display_name);
            }
            let files = root
                .get_list(1, ElementSize::InlineComposite)
                .expect("requested files");
            assert_eq!(files.len(), 1);
        }
    }
});
