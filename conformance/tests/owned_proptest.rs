//! Property tests of owned values over `AllTypes` (tests/vectors), the
//! schema with every field kind: for arbitrary values (every scalar,
//! null and empty pointers, every list kind, nested structs, every union
//! member, the group, any pointers),
//! - value -> message -> value is the identity (owned and borrowed);
//! - message -> value -> message keeps the canonical bytes.
//!
//! Values are compared by `Debug`, which tells NaNs apart from numbers
//! (`PartialEq` would call a NaN unequal to itself).

use capnarena::typed::value::{AnyValue, ReadStruct, StructValue};
use capnarena::{Message, MessageReader, ReaderOptions, Result, SingleSegmentArena, Word};
use capnarena_conformance::all_types_capnp::{Color, all_types, labeled, point};
use proptest::prelude::*;

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Red), Just(Color::Green), Just(Color::Blue)]
}

fn text() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(".{0,12}")
}

fn list<T: Strategy>(element: T) -> impl Strategy<Value = Option<Vec<T::Value>>> {
    proptest::option::of(proptest::collection::vec(element, 0..5))
}

fn point() -> impl Strategy<Value = point::Value> {
    (any::<i32>(), any::<i32>()).prop_map(|(x, y)| point::Value { x, y })
}

fn labeled() -> impl Strategy<Value = labeled::Value> {
    (text(), proptest::option::of(point()), any::<f64>()).prop_map(|(label, point, weight)| {
        labeled::Value {
            label,
            point,
            weight,
        }
    })
}

/// An any pointer holding a text, a struct or a list, copied into an
/// `AnyValue` from a message of its own.
fn any_value() -> impl Strategy<Value = AnyValue> {
    (0..3u8, ".{0,8}", any::<i32>()).prop_map(|(kind, text, n)| {
        let mut m = Message::new(SingleSegmentArena::new());
        let root = m.root_pointer().expect("root");
        match kind {
            0 => root.set_text(&text).expect("text"),
            1 => {
                let mut s = root.init_struct(point::STRUCT_SIZE).expect("struct");
                s.set::<i32>(0, n);
            }
            _ => root.set_data(text.as_bytes()).expect("data"),
        }
        let words = capnarena::words_from_bytes(m.framed_bytes().expect("frame")).expect("words");
        let reader = MessageReader::from_words(&words, ReaderOptions::default()).expect("read");
        AnyValue::from_pointer(&reader.root_pointer().expect("root")).expect("copy")
    })
}

fn choice() -> impl Strategy<Value = all_types::choice::Value> {
    use all_types::choice::{Value, WhichValue};
    prop_oneof![
        Just(WhichValue::None),
        any::<u32>().prop_map(WhichValue::Count),
        text().prop_map(WhichValue::Name),
        proptest::option::of(point()).prop_map(WhichValue::Point),
    ]
    .prop_map(|union| Value { union })
}

/// An `AllTypes` whose `structField` is `inner` (one level of nesting).
fn all_types(inner: Option<all_types::Value>) -> impl Strategy<Value = all_types::Value> {
    let scalars = (
        any::<bool>(),
        any::<i8>(),
        any::<i16>(),
        any::<i32>(),
        any::<i64>(),
        any::<u8>(),
        any::<u16>(),
        any::<u32>(),
        any::<u64>(),
        any::<f32>(),
        any::<f64>(),
        color(),
    );
    let lists = (
        list(Just(())),
        list(any::<bool>()),
        list(any::<i8>()),
        list(any::<i16>()),
        list(any::<i32>()),
        list(any::<i64>()),
        list(any::<u8>()),
        list(any::<u16>()),
        list(any::<u32>()),
        list(any::<u64>()),
        list(any::<f32>()),
        list(any::<f64>()),
    );
    let pointers = (
        text(),
        proptest::option::of(proptest::collection::vec(any::<u8>(), 0..10)),
        list(text()),
        list(proptest::option::of(proptest::collection::vec(
            any::<u8>(),
            0..4,
        ))),
        list(labeled()),
        list(color()),
        list(proptest::option::of(proptest::collection::vec(
            any::<i32>(),
            0..4,
        ))),
        list(point()),
        choice(),
        (any::<u16>(), text()),
        proptest::option::of(any_value()),
    );
    (scalars, lists, pointers).prop_map(move |(s, l, p)| all_types::Value {
        void_field: (),
        bool_field: s.0,
        int8_field: s.1,
        int16_field: s.2,
        int32_field: s.3,
        int64_field: s.4,
        uint8_field: s.5,
        uint16_field: s.6,
        uint32_field: s.7,
        uint64_field: s.8,
        float32_field: s.9,
        float64_field: s.10,
        enum_field: s.11,
        text_field: p.0,
        data_field: p.1,
        struct_field: inner.clone().map(Box::new),
        void_list: l.0,
        bool_list: l.1,
        int8_list: l.2,
        int16_list: l.3,
        int32_list: l.4,
        int64_list: l.5,
        uint8_list: l.6,
        uint16_list: l.7,
        uint32_list: l.8,
        uint64_list: l.9,
        float32_list: l.10,
        float64_list: l.11,
        text_list: p.2,
        data_list: p.3,
        struct_list: p.4,
        enum_list: p.5,
        list_of_lists: p.6,
        point_list: p.7,
        choice: p.8,
        group: all_types::group::Value { a: p.9.0, b: p.9.1 },
        any_field: p.10,
    })
}

fn nested() -> impl Strategy<Value = all_types::Value> {
    proptest::option::of(all_types(None)).prop_flat_map(all_types)
}

/// `value` as the root of a new message: framed words.
fn build<V: StructValue>(value: &V) -> Result<Vec<Word>> {
    let mut m = Message::new(SingleSegmentArena::new());
    value.write_struct(m.init_root_struct(V::STRUCT_SIZE)?)?;
    capnarena::words_from_bytes(m.framed_bytes()?)
}

fn canonical(words: &[Word]) -> Result<Vec<Word>> {
    let reader = MessageReader::from_words(words, ReaderOptions::default())?;
    let mut m = Message::new(SingleSegmentArena::new());
    Ok(m.set_root_canonical(&reader.root()?)?.to_vec())
}

fn check(value: &all_types::Value) -> Result<()> {
    let words = build(value)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let back = all_types::Value::read_struct(reader.root()?)?;
    assert_eq!(
        format!("{back:?}"),
        format!("{value:?}"),
        "owned: value -> message -> value"
    );
    let borrowed = all_types::ValueRef::read_struct(reader.root()?)?;
    let rebuilt = build(&borrowed)?;
    assert_eq!(
        canonical(&rebuilt)?,
        canonical(&words)?,
        "borrowed: same canonical bytes"
    );

    // message -> value -> message, from the canonical form.
    let canonical_words = canonical(&words)?;
    let segments = [canonical_words.as_slice()];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    let from_canonical = all_types::Value::read_struct(reader.root()?)?;
    assert_eq!(
        canonical(&build(&from_canonical)?)?,
        canonical_words,
        "canonical round trip"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Arbitrary AllTypes values survive both round trips.
    #[test]
    fn all_types_round_trips(value in nested()) {
        check(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
}

/// The default value round-trips too (every data field zero, every
/// pointer null, the union at its first member).
#[test]
fn default_round_trips() -> Result<()> {
    let value = all_types::Value::default();
    check(&value)?;
    Ok(())
}
