//! Arbitrary text as a message in the text format, read by
//! `capnarena_dynamic::text::parse_struct` as a `AllTypes` of
//! `tests/vectors/all_types.capnp` (every kind of field: scalars, text,
//! data, structs, enums, lists of each, a union, a group, AnyPointer).
//! Properties:
//! - No panic, no hang, whatever the bytes.
//! - An error has a place inside the text: line 1 or more and at most its
//!   line count, column 1 or more, offset at most its length.
//! - A success builds a message that reads back and prints
//!   (`write_struct`, pretty and short), and each printed text parses
//!   again into a message of the same size.
//! - The parser's heap, counted by this target's global allocator, peaks
//!   at most at twice what the message it built holds plus 64 KiB: no
//!   tree of the text is ever built.
#![no_main]

use std::sync::OnceLock;

use capnarena::{Message, SingleSegmentArena};
use capnarena_dynamic::{DynamicStructBuilder, DynamicStructReader, LoadedSchema, text};
use libfuzzer_sys::fuzz_target;
use peak_heap::{PeakHeap, measure};

#[global_allocator]
static HEAP: PeakHeap = PeakHeap;

/// Room for an error's message and the parser's own state.
const SLACK: usize = 64 << 10;

const SCHEMA: &str = include_str!("../../tests/vectors/all_types.capnp");

fn schema() -> &'static LoadedSchema {
    static LOADED: OnceLock<LoadedSchema> = OnceLock::new();
    LOADED.get_or_init(|| {
        LoadedSchema::compile(
            &capnarena_compiler::Compiler::new()
                .no_standard_import()
                .working_dir("/fuzz")
                .source("/fuzz/all_types.capnp", SCHEMA)
                .file("all_types.capnp"),
        )
        .expect("all_types.capnp compiles")
    })
}

/// Parses `text` into `msg`; on success returns the root's size in words.
fn parse(msg: &mut Message<SingleSegmentArena>, text: &[u8]) -> Result<u64, text::TextError> {
    let loaded = schema();
    let schema = loaded.schema();
    let root = schema
        .find_struct("all_types.capnp:AllTypes")
        .expect("AllTypes");
    msg.reset();
    let mut b = DynamicStructBuilder::init_root(msg, root).expect("a root");
    text::parse_struct(text, &mut b)?;
    let reader = msg.reader();
    let size = reader
        .root()
        .expect("the built message reads back")
        .total_size()
        .expect("the built message is within the default limits");
    Ok(size.word_count)
}

fuzz_target!(|data: &[u8]| {
    // The schema is compiled once, before the measure.
    schema();
    let ((msg, parsed), heap) = measure(|| {
        let mut msg = Message::new(SingleSegmentArena::new());
        let parsed = parse(&mut msg, data);
        (msg, parsed)
    });
    assert!(
        heap.peak <= 2 * heap.held + SLACK,
        "peak heap {} B over twice the {} B the message holds + {SLACK} B",
        heap.peak,
        heap.held
    );
    match parsed {
        Err(e) => {
            let lines = data.iter().filter(|&&c| c == b'\n').count() as u32 + 1;
            assert!(e.line >= 1 && e.line <= lines, "line outside the text: {e}");
            assert!(e.column >= 1, "column 0: {e}");
            assert!(e.offset as usize <= data.len(), "offset past the end: {e}");
        }
        Ok(words) => {
            let loaded = schema();
            let schema = loaded.schema();
            let root = schema
                .find_struct("all_types.capnp:AllTypes")
                .expect("AllTypes");
            let reader = msg.reader();
            let r = DynamicStructReader::root(&reader, root).expect("root");
            let mut printed = [Vec::new(), Vec::new()];
            for (pretty, out) in [true, false].into_iter().zip(printed.iter_mut()) {
                text::write_struct(&r, pretty, out).expect("a built message prints");
            }
            let mut again = Message::new(SingleSegmentArena::new());
            for text in &printed {
                let back = parse(&mut again, text).unwrap_or_else(|e| {
                    panic!(
                        "printed text does not parse: {e}: {}",
                        String::from_utf8_lossy(text)
                    )
                });
                assert_eq!(back, words, "the printed text builds another size");
            }
        }
    }
});
