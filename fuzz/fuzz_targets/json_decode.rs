//! The JSON decoder of capnarena-dynamic on untrusted text, by two
//! schemas: the test vectors' `all_types.capnp` and the reference's
//! annotation test schema (`compat/json-test.capnp`: names, flattening,
//! discriminated unions, base64, hex, `json.Value`).
//!
//! The first byte picks the root type (`AllTypes`, `Log`,
//! `TestJsonAnnotations`); the rest is the JSON text. Properties:
//! - No panic, no stack overflow, whatever the text (nesting limit 64).
//! - An error with a position points inside the input.
//! - For `AllTypes` and `Log`: a message that decodes encodes (pretty and
//!   short), both encodings decode to the same message (canonical bytes
//!   equal), and encoding that again gives the same text.
//! - The serde deserializer (`json::from_slice`, the generated path's
//!   reader) reads the text as the decoder's parser does: it refuses it
//!   exactly when the decoder's error is about the text (syntax, UTF-8,
//!   nesting), with the same error at the same position.
//! - Memory: the heap the decoder takes, counted by this binary's global
//!   allocator, peaks at most at twice what the message it built holds
//!   plus 64 KiB, whether it succeeds or not (no tree of the input).
#![no_main]

use std::sync::OnceLock;

use capnarena::{Message, SingleSegmentArena, StructReader};
use capnarena_compiler::Compiler;
use capnarena_dynamic::json::{self, JsonLimits, JsonOptions};
use capnarena_dynamic::{DynamicStructBuilder, DynamicStructReader, LoadedSchema, StructSchema};
use libfuzzer_sys::fuzz_target;
use peak_heap::{PeakHeap, measure};

#[global_allocator]
static HEAP: PeakHeap = PeakHeap;

/// The decoder's own state beside the message: plan, path, one string.
const SLACK: usize = 64 << 10;

const ALL_TYPES: &str = include_str!("../../tests/vectors/all_types.capnp");
const JSON_CAPNP: &str =
    include_str!("../../conformance/corpus/capnproto/c++/src/capnp/compat/json.capnp");
const JSON_TEST: &str =
    include_str!("../../conformance/corpus/capnproto/c++/src/capnp/compat/json-test.capnp");
const CXX: &str = include_str!("../../conformance/corpus/capnproto/c++/src/capnp/c++.capnp");

fn schemas() -> &'static (LoadedSchema, LoadedSchema) {
    static S: OnceLock<(LoadedSchema, LoadedSchema)> = OnceLock::new();
    S.get_or_init(|| {
        let all = LoadedSchema::compile(
            &Compiler::new()
                .no_standard_import()
                .src_prefix("/v")
                .source("/v/all_types.capnp", ALL_TYPES)
                .file("/v/all_types.capnp"),
        )
        .expect("all_types.capnp compiles");
        let annotated = LoadedSchema::compile(
            &Compiler::new()
                .no_standard_import()
                .src_prefix("/inc")
                .import_path("/inc")
                .source("/inc/capnp/compat/json.capnp", JSON_CAPNP)
                .source("/inc/capnp/c++.capnp", CXX)
                .source("/inc/capnp/compat/json-test.capnp", JSON_TEST)
                .file("/inc/capnp/compat/json-test.capnp"),
        )
        .expect("json-test.capnp compiles");
        (all, annotated)
    })
}

/// Whether `e` is about the text itself rather than what it holds.
fn text_error(e: &json::JsonError) -> bool {
    matches!(
        e,
        json::JsonError::Syntax { .. } | json::JsonError::TooDeep { .. }
    )
}

fn decode(root: &StructSchema<'_>, text: &[u8]) -> Option<Message<SingleSegmentArena>> {
    let ((msg, decoded), heap) = measure(|| {
        let mut msg = Message::new(SingleSegmentArena::new());
        let b = DynamicStructBuilder::init_root(&mut msg, root.clone()).expect("room for a root");
        let decoded = json::decode(text, b, &JsonLimits::default());
        (msg, decoded)
    });
    assert!(
        heap.peak <= 2 * heap.held + SLACK,
        "peak heap {} B over twice the {} B the message holds + {SLACK} B",
        heap.peak,
        heap.held
    );
    let serde = json::from_slice::<capnarena::serde::de::IgnoredAny>(text, &JsonLimits::default());
    match (&decoded, &serde) {
        (Err(d), Err(s)) if text_error(d) => assert_eq!(d.to_string(), s.to_string()),
        (Err(d), Ok(_)) => assert!(!text_error(d), "the decoder refuses, serde reads: {d}"),
        (_, Err(s)) => panic!("serde refuses what the decoder reads as JSON: {s}"),
        (Ok(()), Ok(_)) => {}
    }
    match decoded {
        Ok(()) => Some(msg),
        Err(e) => {
            if let Some(p) = e.position() {
                assert!(
                    p.offset <= text.len() && p.line >= 1 && p.column >= 1,
                    "{e}"
                );
            }
            let _ = e.to_string();
            None
        }
    }
}

fn encode(
    root: &StructSchema<'_>,
    msg: &Message<SingleSegmentArena>,
    options: &JsonOptions,
) -> String {
    let reader = msg.reader();
    let r: StructReader<'_> = reader.root().expect("a struct root");
    json::encode(&DynamicStructReader::new(root.clone(), r), options)
        .expect("a decoded message encodes")
}

fn canonical(msg: &Message<SingleSegmentArena>) -> Vec<u8> {
    let reader = msg.reader();
    let root: StructReader<'_> = reader.root().expect("a struct root");
    let mut out = Message::new(SingleSegmentArena::new());
    let words = out.set_root_canonical(&root).expect("canonicalizes");
    capnarena::Word::slice_as_bytes(words).to_vec()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let (all, annotated) = schemas();
    let (all, annotated) = (all.schema(), annotated.schema());
    let (root, round_trip) = match pick % 3 {
        0 => (all.find_struct("all_types.capnp:AllTypes").unwrap(), true),
        1 => (all.find_struct("all_types.capnp:Log").unwrap(), true),
        _ => (
            annotated
                .find_struct("capnp/compat/json-test.capnp:TestJsonAnnotations")
                .unwrap(),
            false,
        ),
    };
    let Some(msg) = decode(&root, text) else {
        return;
    };
    if !round_trip {
        return;
    }
    let first = canonical(&msg);
    for options in [JsonOptions::pretty(), JsonOptions::short()] {
        let out = encode(&root, &msg, &options);
        let again = decode(&root, out.as_bytes()).expect("our own JSON decodes");
        assert_eq!(canonical(&again), first, "round trip through {out}");
        assert_eq!(encode(&root, &again, &options), out);
    }
});
