//! Generic structs' plain values (`capnarena_build::Config::owned_values`)
//! take type parameters: the value of `Box(Text)` is
//! `box_::Value<String>`, so a bound field's value is typed, not an
//! `AnyValue`.
//!
//! The schemas are `tests/schemas/owned_generics.capnp` (with serde
//! impls) and the reference's test.capnp (its TestGenerics family). Messages come from the reference
//! (`capnp convert text:canonical`); each is read into a value, written
//! back, and must give the reference's canonical bytes and read back as
//! the same value. Values built in Rust round-trip value -> message ->
//! value, and serialize as the reference's JSON codec writes the message.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use capnarena::typed::value::{AnyValue, ReadStruct, StructValue};
use capnarena::{Message, MessageReader, ReaderOptions, Result, SingleSegmentArena, Word};
use capnarena::{StructReader, words_from_bytes};
use capnarena_conformance::capnproto::c_src_capnp_test_capnp as test_capnp;
use capnarena_conformance::owned_generics_capnp::{
    Mode, box_, grow, loop_, map, outer, person, triple, uses,
};

#[path = "../../tests/common/peer.rs"]
mod peer;

fn schemas_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/schemas")
}

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/capnproto/c++/src/capnp")
}

/// `capnp convert text:canonical SCHEMA ROOT` of `text`, run in `dir`.
fn reference_canonical(
    capnp: &Path,
    dir: &Path,
    schema: &str,
    root: &str,
    text: &str,
) -> Vec<Word> {
    let args = ["convert", "text:canonical", schema, root];
    let out = peer::run(capnp, dir, &args, text.as_bytes())
        .unwrap_or_else(|e| panic!("{root} {text}: {e}"));
    words_from_bytes(&out).expect("whole words")
}

/// The canonical words of struct `root`.
fn canonical(root: &StructReader<'_>) -> Result<Vec<Word>> {
    let mut message = Message::new(SingleSegmentArena::new());
    Ok(message.set_root_canonical(root)?.to_vec())
}

/// `value` as the root of a new message, framed.
fn build<V: StructValue>(value: &V) -> Result<Vec<Word>> {
    let mut message = Message::new(SingleSegmentArena::new());
    value.write_struct(message.init_root_struct(V::STRUCT_SIZE)?)?;
    words_from_bytes(message.framed_bytes()?)
}

/// `value` written into a message and read back is `value` again.
fn value_round_trip<V>(value: &V) -> Result<()>
where
    V: for<'a> ReadStruct<'a> + StructValue + PartialEq + Debug,
{
    let built = build(value)?;
    let reader = MessageReader::from_words(&built, ReaderOptions::default())?;
    assert_eq!(&V::read_struct(reader.root()?)?, value, "value read back");
    Ok(())
}

/// `V` read from the reference's canonical message of `text`, written
/// into a new message whose canonical form is the reference's bytes and
/// which reads back as the same value. Returns the value.
fn round_trip<V>(capnp: &Path, dir: &Path, schema: &str, root: &str, text: &str) -> Result<V>
where
    V: for<'a> ReadStruct<'a> + StructValue + PartialEq + Debug,
{
    let expected = reference_canonical(capnp, dir, schema, root, text);
    let segments = [expected.as_slice()];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    let value = V::read_struct(reader.root()?)?;
    let built = build(&value)?;
    let rebuilt = MessageReader::from_words(&built, ReaderOptions::default())?;
    assert_eq!(
        canonical(&rebuilt.root()?)?,
        expected,
        "{root} {text}: canonical form of the rebuilt message"
    );
    assert_eq!(
        V::read_struct(rebuilt.root()?)?,
        value,
        "{root} {text}: read back"
    );
    Ok(value)
}

fn person(name: &str, age: u32) -> person::Value {
    person::Value {
        name: Some(name.into()),
        age,
    }
}

/// A `Uses` with every bound field set, built in Rust.
fn sample_uses() -> uses::Value {
    uses::Value {
        text: Some(box_::Value {
            value: Some("boxed".into()),
        }),
        data: Some(box_::Value {
            value: Some(vec![1, 2, 3]),
        }),
        person: Some(box_::Value {
            value: Some(person("Ada", 36)),
        }),
        map: Some(map::Value {
            entries: Some(vec![
                map::entry::Value {
                    key: Some("first".into()),
                    value: Some(person("Bo", 7)),
                },
                map::entry::Value {
                    key: Some("second".into()),
                    value: None,
                },
            ]),
        }),
        numbers: Some(box_::Value {
            value: Some(vec![1, 20, 300]),
        }),
        texts: Some(box_::Value {
            value: Some(vec![Some("a".into()), Some("c".into())]),
        }),
        outer: Some(outer::Value {
            inner: Some(outer::inner::Value {
                item: Some(person("In", 1)),
                note: Some("note".into()),
            }),
            plain: Some(outer::plain::Value { n: 5 }),
            group: outer::group::Value {
                t: Some(person("Grouped", 2)),
                count: 9,
            },
            union: outer::WhichValue::Boxed(Some(box_::Value {
                value: Some(person("Member", 3)),
            })),
            list: Some(vec![box_::Value {
                value: Some(person("L", 4)),
            }]),
        }),
        any: None,
        nested: Some(box_::Value {
            value: Some(box_::Value {
                value: Some("twice".into()),
            }),
        }),
        people: Some(vec![box_::Value {
            value: Some(person("Listed", 5)),
        }]),
        bytes: Some(box_::Value {
            value: Some(vec![0, 255]),
        }),
        modes: Some(box_::Value {
            value: Some(vec![Mode::On, Mode::Off]),
        }),
        triple: Some(triple::Value {
            a: Some("a".into()),
            b: Some(box_::Value {
                value: Some(vec![9]),
            }),
            c: Some(vec![1, -2]),
        }),
    }
}

/// Bound fields are typed: a `Box(Text)`'s value is a `String`, a
/// `Map(Text, Person)` entry's key a `String` and value a `person::Value`,
/// an `Outer(Person)`'s union member a `person::Value` (none of this
/// compiles where parameters are erased to `AnyValue`); the value
/// written into a message reads back equal.
#[test]
fn bound_fields_are_typed_and_round_trip() -> Result<()> {
    let value = sample_uses();
    let text: &String = value
        .text
        .as_ref()
        .and_then(|b| b.value.as_ref())
        .expect("text");
    assert_eq!(text.len(), 5);
    let entries = value
        .map
        .as_ref()
        .and_then(|m| m.entries.as_ref())
        .expect("entries");
    let first: &person::Value = entries[0].value.as_ref().expect("first");
    assert_eq!((entries[0].key.as_deref(), first.age), (Some("first"), 7));
    let outer = value.outer.as_ref().expect("outer");
    let outer::WhichValue::Boxed(Some(member)) = &outer.union else {
        panic!("boxed member");
    };
    assert_eq!(member.value.as_ref().map(|p| p.age), Some(3));
    let group_age: u32 = outer.group.t.as_ref().map_or(0, |p| p.age);
    assert_eq!(group_age, 2);
    value_round_trip(&value)?;
    value_round_trip(&uses::Value::default())?;
    Ok(())
}

/// A value reads from a reader of the struct with its brand through
/// `TryFrom`, with the reader's limits, and writes into a builder of
/// any brand through `build`.
#[test]
fn reader_and_builder_conversions() -> Result<()> {
    use capnarena::typed::{Owned, Text};
    let boxed: box_::Value<String> = box_::Value {
        value: Some("hello".into()),
    };
    let mut message = Message::new(SingleSegmentArena::new());
    boxed.build(message.init_root::<box_::Builder<'_, _, Text>>()?)?;
    let words = words_from_bytes(message.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let root: box_::Reader<'_, Text> = reader.get_root()?;
    assert_eq!(root.get_value()?, "hello");
    let read = box_::Value::<String>::try_from(root)?;
    assert_eq!(read, boxed);
    // Read erased: the text as an any pointer's copy.
    let any = box_::Value::<AnyValue>::try_from(root)?;
    let copied = any.value.expect("value");
    let text = copied.with_pointer(|p| <Text as Owned>::read(p).map(String::from))?;
    assert_eq!(text, "hello");
    // Over the traversal limit: the reader's error, not a value.
    let tight = ReaderOptions {
        traversal_limit_words: 1,
        ..ReaderOptions::default()
    };
    let reader = MessageReader::from_words(&words, tight)?;
    let root: box_::Reader<'_, Text> = reader.get_root()?;
    assert!(box_::Value::<String>::try_from(root).is_err());
    Ok(())
}

/// A borrowed value's parameter may borrow: `box_::ValueRef<'a, &'a str>`
/// (an alias of the owned value, which holds nothing of its own that
/// borrows) reads the text in place; `outer::ValueRef<'a, T>` borrows its
/// own text besides.
#[test]
fn borrowed_values_borrow_through_parameters() -> Result<()> {
    let value = sample_uses();
    let built = build(&value)?;
    let reader = MessageReader::from_words(&built, ReaderOptions::default())?;
    let root: uses::Reader<'_> = reader.get_root()?;
    let text: box_::ValueRef<'_, &str> = box_::ValueRef::try_from(root.get_text()?)?;
    assert_eq!(text.value, Some("boxed"));
    let borrowed = uses::ValueRef::try_from(root)?;
    let note: Option<&str> = borrowed
        .outer
        .as_ref()
        .and_then(|o| o.inner.as_ref())
        .and_then(|i| i.note);
    assert_eq!(note, Some("note"));
    let again = build(&borrowed)?;
    let reader = MessageReader::from_words(&again, ReaderOptions::default())?;
    assert_eq!(uses::Value::read_struct(reader.root()?)?, value);
    Ok(())
}

/// `Loop` holds a `Loop` inline through `Box(Loop)` (Box holds its value
/// inline): the field is boxed, so the value has a finite size and a
/// chain of them round-trips. `Grow(T)` recurses polymorphically, so its
/// value is erased (no parameters; its `value` an `AnyValue`).
#[test]
fn containment_through_brands_is_boxed() -> Result<()> {
    let chain = loop_::Value {
        n: 1,
        next: Some(Box::new(box_::Value {
            value: Some(loop_::Value {
                n: 2,
                next: Some(Box::new(box_::Value::default())),
            }),
        })),
    };
    value_round_trip(&chain)?;
    let grow = grow::Value {
        value: None::<AnyValue>,
        next: Some(Box::new(grow::Value::default())),
    };
    value_round_trip(&grow)?;
    Ok(())
}

/// Messages the reference writes of the bound, nested, grouped and union
/// fields read into typed values that write back the same canonical
/// bytes.
#[test]
fn reference_messages_round_trip() -> Result<()> {
    let Some(capnp) = peer::peer() else {
        return Ok(());
    };
    let dir = schemas_dir();
    let text = r#"(text = (value = "boxed"), data = (value = 0x"010203"),
        person = (value = (name = "Ada", age = 36)),
        map = (entries = [(key = "first", value = (name = "Bo", age = 7)), (key = "second")]),
        numbers = (value = [1, 20, 300]), texts = (value = ["a", "c"]),
        outer = (inner = (item = (name = "In", age = 1), note = "note"), plain = (n = 5),
                 group = (t = (name = "Grouped", age = 2), count = 9),
                 boxed = (value = (name = "Member", age = 3)), list = [(value = (name = "L", age = 4))]),
        nested = (value = (value = "twice")), people = [(value = (name = "Listed", age = 5))],
        bytes = (value = [0, 255]), modes = (value = [on, off]),
        triple = (a = "a", b = (value = 0x"09"), c = [1, -2]))"#;
    let value: uses::Value = round_trip(&capnp, &dir, "owned_generics.capnp", "Uses", text)?;
    let member = match value.outer.as_ref().map(|o| &o.union) {
        Some(outer::WhichValue::Boxed(Some(b))) => b.value.as_ref().map(|p| p.age),
        _ => None,
    };
    assert_eq!(member, Some(3));
    assert_eq!(value, sample_uses());
    round_trip::<uses::Value>(
        &capnp,
        &dir,
        "owned_generics.capnp",
        "Uses",
        "(outer = (some = (age = 1)))",
    )?;
    round_trip::<loop_::Value>(
        &capnp,
        &dir,
        "owned_generics.capnp",
        "Loop",
        "(n = 1, next = (value = (n = 2, next = (value = (n = 3)))))",
    )?;
    Ok(())
}

/// The reference's test.capnp: TestUseGenerics' bound generic fields
/// (TestGenerics(TestAllTypes, TestAnyPointer), its Inner and Inner2,
/// TestGenericsWrapper) read from the reference's message as typed
/// values, write back its canonical bytes; the bound `foo` is a
/// `TestAllTypes` value, not an `AnyValue`.
#[test]
fn reference_test_generics_round_trip() -> Result<()> {
    let Some(capnp) = peer::peer() else {
        return Ok(());
    };
    let text = r#"(basic = (foo = (int16Field = 123, textField = "basic"),
                rev = (rev = (foo = (int16Field = 321))), ug = (ugfoo = 7),
                list = [(foo = (int8Field = 1)), ()]),
        inner = (foo = (int16Field = 1)),
        inner2 = (baz = "baz", innerBound = (foo = (int16Field = 3))),
        wrapper = (value = (foo = (int16Field = 4))),
        default = (foo = (int16Field = 5), rev = (foo = "rev")))"#;
    let value: test_capnp::test_use_generics::Value = round_trip(
        &capnp,
        &reference_dir(),
        "test.capnp",
        "TestUseGenerics",
        text,
    )?;
    let basic = value.basic.as_ref().expect("basic");
    let foo: &test_capnp::test_all_types::Value = basic.foo.as_ref().expect("foo");
    assert_eq!(
        (foo.int16_field, foo.text_field.as_deref()),
        (123, Some("basic"))
    );
    let deeper: Option<&test_capnp::test_all_types::Value> = basic
        .rev
        .as_ref()
        .and_then(|r| r.rev.as_ref())
        .and_then(|r| r.foo.as_ref());
    assert_eq!(deeper.map(|f| f.int16_field), Some(321));
    assert!(matches!(
        basic.union,
        test_capnp::test_generics::WhichValue::Ug(test_capnp::test_generics::ug::Value {
            ugfoo: 7
        })
    ));
    let inner2 = value.inner2.as_ref().expect("inner2");
    assert_eq!(inner2.baz.as_deref(), Some("baz"));
    let wrapped = value
        .wrapper
        .as_ref()
        .and_then(|w| w.value.as_ref())
        .and_then(|g| g.foo.as_ref())
        .map(|f| f.int16_field);
    assert_eq!(wrapped, Some(4));
    let default = value.default.as_ref().expect("default");
    let rev_text: Option<&String> = default.rev.as_ref().and_then(|r| r.foo.as_ref());
    assert_eq!(rev_text.map(String::as_str), Some("rev"));
    Ok(())
}

/// serde_json writes a generic struct's value as the reference's JSON
/// codec writes the message (`capnp convert --short binary:json`), and
/// reads that JSON back into the same value.
#[test]
fn serde_matches_reference_json() -> Result<()> {
    let Some(capnp) = peer::peer() else {
        return Ok(());
    };
    let value = sample_uses();
    let mut message = Message::new(SingleSegmentArena::new());
    value.build_root(&mut message)?;
    let framed = message.framed_bytes()?.to_vec();
    let args = [
        "convert",
        "--short",
        "binary:json",
        "owned_generics.capnp",
        "Uses",
    ];
    let out = peer::run(&capnp, &schemas_dir(), &args, &framed).unwrap_or_else(|e| panic!("{e}"));
    let reference = String::from_utf8(out).expect("UTF-8");
    let reference = reference.trim_end_matches('\n');
    let ours = serde_json::to_string(&value).expect("serialize");
    assert_eq!(ours, reference);
    let back: uses::Value = serde_json::from_str(reference).expect("deserialize");
    assert_eq!(back, value);
    Ok(())
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn text() -> impl Strategy<Value = Option<String>> {
        proptest::option::of(".{0,8}")
    }

    fn person() -> impl Strategy<Value = person::Value> {
        (text(), any::<u32>()).prop_map(|(name, age)| person::Value { name, age })
    }

    fn map() -> impl Strategy<Value = map::Value<String, person::Value>> {
        proptest::option::of(proptest::collection::vec(
            (text(), proptest::option::of(person()))
                .prop_map(|(key, value)| map::entry::Value { key, value }),
            0..4,
        ))
        .prop_map(|entries| map::Value { entries })
    }

    fn outer() -> impl Strategy<Value = outer::Value<String>> {
        let union = prop_oneof![
            Just(outer::WhichValue::None),
            text().prop_map(outer::WhichValue::Some),
            proptest::option::of(text().prop_map(|value| box_::Value { value }))
                .prop_map(outer::WhichValue::Boxed),
        ];
        (
            text(),
            text(),
            proptest::option::of(any::<u32>()),
            text(),
            any::<u32>(),
            union,
            proptest::option::of(proptest::collection::vec(
                text().prop_map(|value| box_::Value { value }),
                0..3,
            )),
        )
            .prop_map(|(item, note, plain, t, count, union, list)| outer::Value {
                inner: Some(outer::inner::Value { item, note }),
                plain: plain.map(|n| outer::plain::Value { n }),
                group: outer::group::Value { t, count },
                union,
                list,
            })
    }

    /// value -> message -> value is the identity, and the message read
    /// back and written again keeps its canonical bytes.
    fn check<V>(value: &V) -> Result<()>
    where
        V: for<'a> ReadStruct<'a> + StructValue + PartialEq + Debug,
    {
        let built = build(value)?;
        let reader = MessageReader::from_words(&built, ReaderOptions::default())?;
        let read = V::read_struct(reader.root()?)?;
        assert_eq!(&read, value);
        let again = build(&read)?;
        let rebuilt = MessageReader::from_words(&again, ReaderOptions::default())?;
        assert_eq!(canonical(&rebuilt.root()?)?, canonical(&reader.root()?)?);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Arbitrary `Map(Text, Person)` and `Outer(Text)` values (null
        /// and set pointers, every union member, the group) round-trip.
        #[test]
        fn generic_values_round_trip(map in map(), outer in outer()) {
            check(&map).expect("map");
            check(&outer).expect("outer");
        }
    }
}
