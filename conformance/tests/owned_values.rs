//! Owned and borrowed values (`capnarena_build::Config::owned_values`):
//! reading a message into `foo::Value` / `foo::ValueRef<'_>` and writing
//! it back loses nothing.
//!
//! The messages are the reference's: the wire-compatibility vectors
//! (`tests/vectors`, written by `capnp`, with the reference's canonical
//! form of each) and the reference's `testdata/` messages of test.capnp.
//! Each check is that the value read from a message, written into a new
//! message, has the same canonical form as the original (the reference's
//! `.canonical` file where there is one), reads back as an equal value,
//! and that every framing of a vector reads as the same value.

use std::fmt::Debug;
use std::path::PathBuf;

use capnarena::serialize::packed::unpack_to_vec;
use capnarena::typed::value::{ReadStruct, StructValue};
use capnarena::{Message, MessageReader, ReaderOptions, Result, SingleSegmentArena, Word};
use capnarena::{StructReader, words_from_bytes};
use capnarena_conformance::all_types_capnp::{all_types, log};
use capnarena_conformance::capnproto::c_src_capnp_test_capnp as test_capnp;

/// A file of the repository's wire-compatibility vectors.
fn vector(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/vectors")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A file of the reference's testdata directory.
fn testdata(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/capnproto/c++/src/capnp/testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Options that accept the vectors with a segment per word.
fn options() -> ReaderOptions {
    ReaderOptions {
        segment_limit: 4096,
        ..ReaderOptions::default()
    }
}

/// The canonical words of struct `root`.
fn canonical(root: &StructReader<'_>) -> Result<Vec<Word>> {
    let mut message = Message::new(SingleSegmentArena::new());
    Ok(message.set_root_canonical(root)?.to_vec())
}

/// `value` written as the root of a new message, framed.
fn build<V: StructValue>(value: &V) -> Result<Vec<Word>> {
    let mut message = Message::new(SingleSegmentArena::new());
    value.write_struct(message.init_root_struct(V::STRUCT_SIZE)?)?;
    words_from_bytes(message.framed_bytes()?)
}

/// Reads `V` from the root of `words` (framed).
fn read_framed<V: for<'a> ReadStruct<'a>>(words: &[Word]) -> Result<V> {
    let reader = MessageReader::from_words(words, options())?;
    V::read_struct(reader.root()?)
}

/// The round trip of one message: `V` read from `root`, written into a
/// new message, has `root`'s canonical form (`expected`) and reads back
/// equal. Returns the value.
fn round_trip<V>(root: StructReader<'_>, expected: &[Word]) -> Result<V>
where
    V: for<'a> ReadStruct<'a> + StructValue + PartialEq + Debug,
{
    let value = V::read_struct(root)?;
    let built = build(&value)?;
    let reader = MessageReader::from_words(&built, options())?;
    assert_eq!(
        canonical(&reader.root()?)?,
        expected,
        "canonical form of the rebuilt message"
    );
    let again = V::read_struct(reader.root()?)?;
    assert_eq!(
        format!("{again:?}"),
        format!("{value:?}"),
        "value read back"
    );
    Ok(value)
}

/// [`round_trip`] of the borrowed value `$module::ValueRef<'_>`, which
/// borrows from `$root`'s message (so it cannot be a `for<'a>` bound).
macro_rules! borrowed_round_trip {
    ($module:ident, $root:expr, $expected:expr) => {{
        let value = <$module::ValueRef<'_> as ReadStruct<'_>>::read_struct($root)?;
        let built = build(&value)?;
        let reader = MessageReader::from_words(&built, options())?;
        assert_eq!(
            canonical(&reader.root()?)?,
            $expected,
            "borrowed: canonical form"
        );
        let again = <$module::ValueRef<'_> as ReadStruct<'_>>::read_struct(reader.root()?)?;
        assert_eq!(
            format!("{again:?}"),
            format!("{value:?}"),
            "borrowed: read back"
        );
        Ok::<(), capnarena::Error>(())
    }};
}

/// The canonical vector `name` (one segment, no table) as a reader root.
fn with_canonical<R>(words: &[Word], f: impl FnOnce(StructReader<'_>) -> Result<R>) -> Result<R> {
    let segments = [words];
    let reader = MessageReader::from_segments(&segments, options())?;
    f(reader.root()?)
}

/// Every framing of vector `name`, read as `V`, equals the value of its
/// canonical form, and the canonical form survives the round trip (owned
/// and borrowed).
fn check_vector<V>(name: &str) -> Result<()>
where
    V: for<'a> ReadStruct<'a> + StructValue + PartialEq + Debug,
{
    let canonical_words = words_from_bytes(&vector(&format!("{name}.canonical")))?;
    let value: V = with_canonical(&canonical_words, |root| round_trip(root, &canonical_words))?;
    for framing in ["bin", "seg1.bin", "seg3.bin", "seg16.bin"] {
        let words = words_from_bytes(&vector(&format!("{name}.{framing}")))?;
        let read: V = read_framed(&words)?;
        assert_eq!(
            format!("{read:?}"),
            format!("{value:?}"),
            "{name}.{framing}"
        );
    }
    let mut unpacked = Vec::new();
    unpack_to_vec(&vector(&format!("{name}.packed")), &mut unpacked, u64::MAX)?;
    let read: V = read_framed(&unpacked)?;
    assert_eq!(format!("{read:?}"), format!("{value:?}"), "{name}.packed");
    let flat = words_from_bytes(&vector(&format!("{name}.flat")))?;
    let read: V = with_canonical(&flat, |root| V::read_struct(root))?;
    assert_eq!(format!("{read:?}"), format!("{value:?}"), "{name}.flat");
    Ok(())
}

/// Every AllTypes vector (empty, scalars, lists, full): owned and
/// borrowed values round-trip to the reference's canonical bytes, and
/// every framing reads as the same value.
#[test]
fn vectors_round_trip() -> Result<()> {
    for name in ["empty", "scalars", "lists", "full"] {
        check_vector::<all_types::Value>(name)?;
        let words = words_from_bytes(&vector(&format!("{name}.canonical")))?;
        with_canonical(&words, |root| borrowed_round_trip!(all_types, root, words))?;
    }
    Ok(())
}

/// The Log vector (a list of 2,000-odd structs with text lists; 1,186
/// segments in its seg1 framing) round-trips the same way.
#[test]
fn log_vector_round_trips() -> Result<()> {
    check_vector::<log::Value>("log")?;
    let words = words_from_bytes(&vector("log.canonical"))?;
    with_canonical(&words, |root| borrowed_round_trip!(log, root, words))
}

/// The reference's testdata messages of test.capnp (TestAllTypes in
/// one segment and in 125, and TestLists) round-trip to their canonical
/// form, owned and borrowed, and the segmented one reads as the
/// one-segment one.
#[test]
fn reference_testdata_round_trips() -> Result<()> {
    use test_capnp::{test_all_types, test_lists};
    let binary = words_from_bytes(&testdata("binary"))?;
    let segmented = words_from_bytes(&testdata("segmented"))?;
    let lists = words_from_bytes(&testdata("lists.binary"))?;
    let mut values = Vec::new();
    for words in [&binary, &segmented] {
        let reader = MessageReader::from_words(words, options())?;
        let expected = canonical(&reader.root()?)?;
        let value: test_all_types::Value = round_trip(reader.root()?, &expected)?;
        borrowed_round_trip!(test_all_types, reader.root()?, expected)?;
        values.push(format!("{value:?}"));
    }
    assert_eq!(values[0], values[1], "segmented reads as binary");
    let reader = MessageReader::from_words(&lists, options())?;
    let expected = canonical(&reader.root()?)?;
    round_trip::<test_lists::Value>(reader.root()?, &expected)?;
    borrowed_round_trip!(test_lists, reader.root()?, expected)?;
    Ok(())
}

/// `Default` is the value of a struct fresh from `init` (every data
/// field at its schema default, every pointer null), for structs whose
/// defaults are not zero (TestDefaults, TestUnionDefaults' groups).
#[test]
fn default_is_a_fresh_struct() -> Result<()> {
    use test_capnp::test_defaults;
    let mut message = Message::new(SingleSegmentArena::new());
    message.init_root_struct(<test_defaults::Value as StructValue>::STRUCT_SIZE)?;
    let words = words_from_bytes(message.framed_bytes()?)?;
    let fresh: test_defaults::Value = read_framed(&words)?;
    assert_eq!(fresh, test_defaults::Value::default());
    assert_eq!(fresh.int32_field, -12345678, "a schema default, not zero");
    assert!(fresh.text_field.is_none(), "a null pointer");
    Ok(())
}

/// A text field that is not UTF-8 and an enum value the schema does not
/// list are errors, not values: the reader's errors come through.
#[test]
fn bad_text_and_unknown_enum_are_errors() -> Result<()> {
    let mut message = Message::new(SingleSegmentArena::new());
    let mut b = message.init_root::<all_types::Builder<_>>()?;
    b.as_struct_builder().set::<u16>(18, 7); // enumField: Color has 0..=2
    let words = words_from_bytes(message.framed_bytes()?)?;
    let err = read_framed::<all_types::Value>(&words).unwrap_err();
    assert!(err.to_string().contains('7'), "{err}");

    let mut message = Message::new(SingleSegmentArena::new());
    let mut b = message.init_root::<all_types::Builder<_>>()?;
    b.as_struct_builder()
        .pointer(0)
        .set_text_bytes(&[0xff, 0xfe])?;
    let words = words_from_bytes(message.framed_bytes()?)?;
    assert!(read_framed::<all_types::Value>(&words).is_err());
    let reader = MessageReader::from_words(&words, options())?;
    let root = reader.get_root::<all_types::Reader<'_>>()?;
    assert!(all_types::ValueRef::try_from(root).is_err());
    Ok(())
}
