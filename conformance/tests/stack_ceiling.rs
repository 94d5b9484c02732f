//! Untrusted JSON and text nested as deep as the limits allow keeps to a
//! default thread's stack (2 MiB, what `std::thread::spawn` gives), in
//! the debug test profile too: each reader below, given input at its
//! nesting ceiling and one level past it, returns a value or an `Err`,
//! and never overflows the stack (which would abort this test binary).
//! The figures this rests on (the stack a level takes, the depth
//! reached) are printed, not asserted.
//!
//! The readers: the generated `Deserialize` impls driven by
//! `capnarena_dynamic::json::from_str` (input borrowed) and
//! `JsonDeserializer::from_slice` over a copy, by serde_json (borrowed
//! `from_str` and owned `from_reader`; serde_json stops at 128 levels
//! itself), the dynamic JSON decoder (`json::decode`, `max_depth` up to
//! `MAX_NESTING_CEILING`), the text parser (`text::parse_struct`, whose
//! lexer refuses brackets nested past 200), and on a message nested
//! `MAX_ENCODE_DEPTH` deep, the JSON encoder and the text printers.

use std::path::PathBuf;

use capnarena::typed::value::WriteStruct;
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
use capnarena_conformance::all_types_capnp::all_types;
use capnarena_conformance::json_flatten_capnp::chain;
use capnarena_dynamic::json::{
    self, JsonDeserializer, JsonError, JsonLimits, JsonOptions, MAX_ENCODE_DEPTH,
    MAX_NESTING_CEILING,
};
use capnarena_dynamic::{
    DynamicStructBuilder, DynamicStructReader, LoadedSchema, STACK_BUDGET, text,
};

/// A default spawned thread's stack.
const THREAD_STACK: usize = 2 << 20;

/// Runs `f` on a thread with a 2 MiB stack.
fn on_small_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(THREAD_STACK)
        .spawn(f)
        .expect("spawns")
        .join()
        .expect("the thread finishes")
}

/// `AllTypes` nested `levels` deep through `structField` as JSON:
/// `levels` objects, the innermost empty.
fn nested_json(levels: usize) -> String {
    let outer = "{\"structField\": ".repeat(levels - 1);
    format!("{outer}{{}}{}", "}".repeat(levels - 1))
}

/// How many levels a value read from `nested_json(levels)` has.
fn depth_of(v: &all_types::Value) -> usize {
    let mut depth = 1;
    let mut at = v;
    while let Some(inner) = &at.struct_field {
        depth += 1;
        at = inner;
    }
    depth
}

/// The limits with the nesting at its ceiling.
fn ceiling() -> JsonLimits {
    JsonLimits {
        max_depth: MAX_NESTING_CEILING,
        ..JsonLimits::default()
    }
}

/// Reads `nested_json(n)` with `read` (which returns the depth of what
/// it read) on a 2 MiB thread, from one level past the ceiling down: each
/// `Err` must be `TooDeep` at the ceiling or `StackBudget` naming the
/// depth, the stack used (over the budget) and the budget, and the
/// deepest input it leaves must then read (or fail in the same way at a
/// lower depth, when another part of the reader passes the budget
/// first). Returns the deepest input read.
fn settle(what: &'static str, read: fn(&str) -> Result<usize, JsonError>) -> usize {
    settle_on(what, nested_json, read)
}

/// [`settle`] over the texts `make` gives for each depth.
fn settle_on(
    what: &'static str,
    make: fn(usize) -> String,
    read: fn(&str) -> Result<usize, JsonError>,
) -> usize {
    on_small_thread(move || {
        let mut levels = MAX_NESTING_CEILING + 1;
        loop {
            let next = match read(&make(levels)) {
                Ok(depth) => {
                    assert_eq!(depth, levels, "{what}: the value read");
                    assert!(levels <= MAX_NESTING_CEILING, "{what}: past the ceiling");
                    return levels;
                }
                Err(JsonError::StackBudget {
                    depth,
                    used,
                    budget,
                    ..
                }) => {
                    assert_eq!(budget, STACK_BUDGET);
                    assert!(used > budget, "{used} bytes over {budget}");
                    println!(
                        "{what}: {depth} levels use {used} bytes ({} a level)",
                        used / (depth - 1)
                    );
                    assert!(depth > 64, "the reference's default nesting fits: {depth}");
                    depth - 1
                }
                Err(JsonError::TooDeep { limit, .. }) => {
                    assert_eq!(limit, MAX_NESTING_CEILING);
                    MAX_NESTING_CEILING
                }
                Err(e) => panic!("{what}: {e}"),
            };
            assert!(next < levels, "{what}: {next} levels after {levels}");
            levels = next;
        }
    })
}

/// Through `json::from_str` (strings borrowed from the input) with the
/// nesting limit at its ceiling: past it, or past the stack budget, is
/// an `Err` on a 2 MiB thread, and the deepest input accepted reads
/// there. (Bug: the generated impls took 23.6 KB of stack a level in a
/// debug build and overflowed a 2 MiB thread from about 88 levels,
/// within `max_depth`, aborting the process.)
#[test]
fn generated_serde_borrowed_input_within_the_stack() {
    let deepest = settle("from_str", |text| {
        json::from_str::<all_types::Value>(text, &ceiling()).map(|v| depth_of(&v))
    });
    println!("from_str: the deepest read is {deepest}");
}

/// The same through a `JsonDeserializer` over bytes of its own (a
/// stream reader's use, no string borrowed by the value).
#[test]
fn generated_serde_owned_input_within_the_stack() {
    settle("JsonDeserializer::from_slice", |text| {
        let owned = text.as_bytes().to_vec();
        let mut de = JsonDeserializer::from_slice(&owned, &ceiling())?;
        de.next::<all_types::Value>().map(|v| depth_of(&v))
    });
}

/// Through serde_json, which stops at 128 levels itself (our stack
/// budget is not involved): its deepest input reads on a 2 MiB thread,
/// borrowed (`from_str`) and owned (`from_reader`), and deeper input is
/// its recursion error.
#[test]
fn serde_json_within_the_stack() {
    let (borrowed, owned, deeper) = on_small_thread(|| {
        let ok = serde_json::from_str::<all_types::Value>(&nested_json(127));
        let bytes = nested_json(127).into_bytes();
        let from_reader = serde_json::from_reader::<_, all_types::Value>(bytes.as_slice());
        let deeper = serde_json::from_str::<all_types::Value>(&nested_json(MAX_NESTING_CEILING));
        (
            ok.map(|v| depth_of(&v)),
            from_reader.map(|v| depth_of(&v)),
            deeper.map(|v| depth_of(&v)),
        )
    });
    assert_eq!(borrowed.expect("127 levels read"), 127);
    assert_eq!(owned.expect("127 levels read"), 127);
    let e = deeper.expect_err("serde_json refuses 1024 levels");
    assert!(e.to_string().contains("recursion limit"), "{e}");
}

/// The vectors' schema, loaded for the dynamic path.
fn schema() -> LoadedSchema {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .src_prefix(&dir)
            .file(dir.join("all_types.capnp")),
    )
    .expect("all_types.capnp compiles")
}

/// `json::decode` of `text` into a new `AllTypes` message under
/// `limits`: the message's bytes, or the error.
fn decode(loaded: &LoadedSchema, text: &[u8], limits: &JsonLimits) -> Result<Vec<u8>, JsonError> {
    let schema = loaded.schema();
    let root = schema
        .find_struct("all_types.capnp:AllTypes")
        .expect("AllTypes");
    let mut msg = Message::new(SingleSegmentArena::new());
    let b = DynamicStructBuilder::init_root(&mut msg, root).expect("root");
    json::decode(text, b, limits)?;
    let mut out = Vec::new();
    msg.append_to(&mut out);
    Ok(out)
}

/// How many levels the `AllTypes` message `bytes` nests through
/// `structField`.
fn message_depth(bytes: &[u8]) -> usize {
    let words = capnarena::words_from_bytes(bytes).expect("words");
    let options = ReaderOptions {
        nesting_limit: 4 * MAX_NESTING_CEILING as u32,
        ..ReaderOptions::default()
    };
    let reader = MessageReader::from_words(&words, options).expect("reads");
    let mut at = reader.get_root_as::<all_types::Owned>().expect("root");
    let mut depth = 1;
    while at.has_struct_field() {
        at = at.get_struct_field().expect("nested");
        depth += 1;
    }
    depth
}

/// The dynamic JSON decoder (text to a tree, the tree into a builder)
/// with `max_depth` at its ceiling, on a 2 MiB thread: past the ceiling,
/// or past the stack budget, is an `Err`, and the deepest input accepted
/// builds. (Bug: at 27 KB of stack a level in a debug build it
/// could not pass about 75 levels on a 2 MiB thread and aborted the process;
/// the text reader building its tree, 5.5 KB a level, overflowed it
/// before 1,024.)
#[test]
fn dynamic_json_decode_within_the_stack() {
    settle("json::decode", |text| {
        let loaded = schema();
        decode(&loaded, text.as_bytes(), &ceiling()).map(|bytes| message_depth(&bytes))
    });
}

/// `(structField = ` nested `levels` deep in the text format.
fn nested_text(levels: usize) -> String {
    format!(
        "{}(){}",
        "(structField = ".repeat(levels - 1),
        ")".repeat(levels - 1)
    )
}

/// The text parser on a 2 MiB thread: text nested to the lexer's
/// bracket limit (200) and past it, and a long chain of unary minus
/// signs (no brackets), are each an `Err`, never an overflow. (A guard:
/// the lexer's bracket limit and the 64 levels the parser fills bound
/// it, and it held before the stack budget too.)
#[test]
fn text_parse_within_the_stack() {
    let errors = on_small_thread(|| {
        let loaded = schema();
        let schema = loaded.schema();
        let root = schema
            .find_struct("all_types.capnp:AllTypes")
            .expect("AllTypes");
        let mut out = Vec::new();
        for text in [
            nested_text(200),
            nested_text(201),
            nested_text(100_000),
            format!("(int32Field = {}1)", "-".repeat(100_000)),
        ] {
            let mut msg = Message::new(SingleSegmentArena::new());
            let mut b = DynamicStructBuilder::init_root(&mut msg, root.clone()).expect("root");
            out.push(text::parse_struct(text.as_bytes(), &mut b).map_err(|e| e.to_string()));
        }
        out
    });
    for e in errors {
        let e = e.expect_err("too deep");
        println!("text: {e}");
    }
}

/// An `AllTypes` message nested `levels` deep through `structField`,
/// built on a large thread (the owned value's writer recurses).
fn nested_message(levels: usize) -> Vec<u8> {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut value = all_types::Value::default();
            for _ in 1..levels {
                value = all_types::Value {
                    struct_field: Some(Box::new(value)),
                    ..all_types::Value::default()
                };
            }
            let mut msg = Message::new(SingleSegmentArena::new());
            let root = msg.init_root_struct(all_types::STRUCT_SIZE).expect("root");
            value.write_struct(root).expect("builds");
            let mut out = Vec::new();
            msg.append_to(&mut out);
            out
        })
        .expect("spawns")
        .join()
        .expect("the thread finishes")
}

/// What the JSON encoder and the text printers made of a message: the
/// text's length, or the error (`true` when it is the stack budget's).
type Printed = Result<usize, (bool, String)>;

/// The message `bytes` (of `levels` levels) encoded as JSON
/// (`message_to_json`), printed as text (`text::write_struct`) and as a
/// value tree (`text::to_text_value`, then `text::write_value`), on a
/// 2 MiB thread, under a nesting limit that lets it read.
fn encode_and_print(bytes: Vec<u8>) -> [Printed; 3] {
    on_small_thread(move || {
        let loaded = schema();
        let schema = loaded.schema();
        let root = schema
            .find_struct("all_types.capnp:AllTypes")
            .expect("AllTypes");
        let options = ReaderOptions {
            nesting_limit: 4 * MAX_ENCODE_DEPTH as u32,
            ..ReaderOptions::default()
        };
        let encoded = match json::message_to_json(&root, &bytes, options, &JsonOptions::default()) {
            Ok(s) => Ok(s.len()),
            Err(e @ JsonError::Encode { .. }) => {
                let text = e.to_string();
                Err((text.contains("too deeply for the stack"), text))
            }
            Err(e) => Err((false, e.to_string())),
        };
        let words = capnarena::words_from_bytes(&bytes).expect("words");
        let reader = MessageReader::from_words(&words, options).expect("reads");
        let value = DynamicStructReader::root(&reader, root.clone()).expect("root");
        let text_error = |e: capnarena_dynamic::Error| {
            let budget = matches!(
                e,
                capnarena_dynamic::Error::StackBudget { used, budget, .. }
                    if budget == STACK_BUDGET && used > budget
            );
            (budget, e.to_string())
        };
        let mut out = Vec::new();
        let printed = text::write_struct(&value, true, &mut out)
            .map(|()| out.len())
            .map_err(text_error);
        let tree = text::to_text_value(&value).map_err(text_error);
        let tree = tree.and_then(|t| {
            let mut out = Vec::new();
            text::write_value(&t, true, &mut out)
                .map(|()| out.len())
                .map_err(text_error)
        });
        [encoded, printed, tree]
    })
}

/// A message nested `MAX_ENCODE_DEPTH` deep (the JSON encoder's own
/// limit), read under a nesting limit that lets it through: the JSON
/// encoder and the text printers each give its text or the stack
/// budget's `Err` on a 2 MiB thread, and a message nested as deep as the
/// default nesting limit (64) prints through all three. (Bug: the JSON
/// encoder, 10.7 KB of stack a level in a debug build, and the text
/// printer, 8.5 KB, overflowed a 2 MiB thread well within
/// `MAX_ENCODE_DEPTH`, aborting the process.)
#[test]
fn encode_and_print_within_the_stack() {
    let deep = encode_and_print(nested_message(MAX_ENCODE_DEPTH));
    for (what, r) in ["JSON", "text", "text tree"].iter().zip(&deep) {
        match r {
            Ok(len) => println!("{what}: {MAX_ENCODE_DEPTH} levels print, {len} bytes"),
            Err((true, e)) => println!("{what}: {}", &e[e.len().saturating_sub(120)..]),
            Err((false, e)) => panic!("{what}: {e}"),
        }
    }
    let default = encode_and_print(nested_message(64));
    for (what, r) in ["JSON", "text", "text tree"].iter().zip(default) {
        r.unwrap_or_else(|(_, e)| panic!("{what} of 64 levels: {e}"));
    }
}

/// `Chain` nested `levels` deep, each level's value given before its
/// tag (so kept, and read once the tag has come).
fn kept_chain(levels: usize) -> String {
    let outer = "{\"v\": ".repeat(levels - 1);
    let inner = ", \"k\": \"next\"}".repeat(levels - 1);
    format!("{outer}{{\"k\": \"end\"}}{inner}")
}

/// How many levels a `Chain` read from `kept_chain(levels)` has.
fn chain_depth(v: &chain::Value) -> usize {
    let mut depth = 1;
    let mut at = v;
    while let chain::WhichValue::Next(Some(inner)) = &at.union {
        depth += 1;
        at = inner;
    }
    depth
}

/// Values kept until their union's tag and read afterwards (a `Chain`
/// whose every level gives its value before its tag), nested as deep as
/// the limits allow, through `json::from_str` at the ceiling and
/// serde_json, on a 2 MiB thread: 64 levels read, deeper input is a
/// value or an `Err`, never an overflow. (Bug: a kept value is read
/// again from its copy once its tag has come, outside the JSON reader's
/// measure of the stack, and kept values nested 271 levels, which that
/// measure let through, overflowed the thread and aborted the process;
/// a kept value may now nest 64 levels.)
#[test]
fn kept_values_within_the_stack() {
    let results = on_small_thread(|| {
        let mut out = Vec::new();
        for levels in [64, 65, 66, 200, 271, MAX_NESTING_CEILING] {
            let text = kept_chain(levels);
            let ours = json::from_str::<chain::Value>(&text, &ceiling())
                .map(|v| chain_depth(&v))
                .map_err(|e| e.to_string());
            let theirs = serde_json::from_str::<chain::Value>(&text)
                .map(|v| chain_depth(&v))
                .map_err(|e| e.to_string());
            out.push((levels, ours, theirs));
        }
        out
    });
    for (levels, ours, theirs) in results {
        let cut = |r: &Result<usize, String>| match r {
            Ok(d) => format!("Ok({d})"),
            Err(e) => e.chars().take(100).collect(),
        };
        println!(
            "kept, {levels} levels: {} / serde_json: {}",
            cut(&ours),
            cut(&theirs)
        );
        if levels == 64 {
            assert_eq!(ours, Ok(64));
            assert_eq!(theirs, Ok(64));
        }
        if let Ok(depth) = ours {
            assert_eq!(depth, levels);
        }
    }
}
