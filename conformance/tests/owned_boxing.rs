//! Struct fields of owned values are held inline unless boxing is needed
//! (`tests/schemas/owned_cycles.capnp`): a field is `Option<Box<_>>`
//! exactly when it is on a cycle of values holding values (through
//! struct fields, groups, union members, across files; not lists) or
//! holds a value over the size limit, and the values keep their round
//! trips with the reference's messages (`capnp convert text:canonical`)
//! as the oracle.

use std::any::type_name_of_val;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

use capnarena::typed::value::{ReadStruct, StructValue};
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructReader, Word};
use capnarena::{Result, words_from_bytes};
use capnarena_conformance::owned_cycles::owned_cycles_b_capnp::remote;
use capnarena_conformance::owned_cycles::owned_cycles_capnp::*;

#[path = "../../tests/common/peer.rs"]
mod peer;

/// Whether a field's type is boxed, by its type's name.
fn boxed<T>(field: &T) -> bool {
    type_name_of_val(field).contains("Box<")
}

/// Each struct field of the schema is boxed or inline as the rule says:
/// inline without a cycle (also when the only cycle is through a list),
/// boxed on a cycle through itself, a group, a union member, another
/// struct or another file, and boxed when the value held is over 1 KiB.
#[test]
fn boxed_exactly_on_cycles_and_large_values() {
    let shape = shape::Value::default();
    let pair = pair::Value::default();
    let outer = outer::Value::default();
    let inner = inner::Value::default();
    let grouped = grouped::Value::default();
    let ping = ping::Value::default();
    let pong = pong::Value::default();
    let local = local::Value::default();
    let remote = remote::Value::default();
    let level2 = level2::Value::default();
    let level3 = level3::Value::default();
    let fields: [(&str, bool, bool); 15] = [
        ("Shape.point", boxed(&shape.point), false),
        ("Shape.pair", boxed(&shape.pair), false),
        ("Pair.a", boxed(&pair.a), false),
        ("Outer.item", boxed(&outer.item), false),
        ("Inner.point", boxed(&inner.point), false),
        ("Chain.next", boxed(&chain::Value::default().next), true),
        ("Grouped.g.inner", boxed(&grouped.g.inner), true),
        ("Grouped.leaf", boxed(&grouped.leaf), false),
        ("Ping.pong", boxed(&ping.pong), true),
        ("Pong.ping", boxed(&pong.ping), true),
        ("Pong.point", boxed(&pong.point), false),
        ("Local.remote", boxed(&local.remote), true),
        ("Remote.back", boxed(&remote.back), true),
        ("Level2.a", boxed(&level2.a), false),
        ("Level3.top", boxed(&level3.top), true),
    ];
    for (name, is_boxed, expected) in fields {
        assert_eq!(is_boxed, expected, "{name}");
    }
    let node = branch::WhichValue::Node(None);
    let leaf = branch::WhichValue::Leaf(None);
    match (&node, &leaf) {
        (branch::WhichValue::Node(n), branch::WhichValue::Leaf(l)) => {
            assert!(boxed(n), "Branch.node");
            assert!(!boxed(l), "Branch.leaf");
        }
        _ => unreachable!("built just above"),
    }
    assert!(
        !type_name_of_val(&tree::Value::default().children).contains("Box<"),
        "Tree.children"
    );
    assert!(
        std::mem::size_of::<level3::Value>() < 64,
        "Level3 holds its 1 KiB value boxed"
    );
}

/// `capnp convert text:canonical owned_cycles.capnp ROOT` of `text`.
fn reference_canonical(capnp: &Path, root: &str, text: &str) -> Vec<Word> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/schemas");
    let args = ["convert", "text:canonical", "owned_cycles.capnp", root];
    let out = peer::run(capnp, &dir, &args, text.as_bytes())
        .unwrap_or_else(|e| panic!("{root} {text}: {e}"));
    words_from_bytes(&out).expect("whole words")
}

/// The canonical words of struct `root`.
fn canonical(root: &StructReader<'_>) -> Result<Vec<Word>> {
    let mut message = Message::new(SingleSegmentArena::new());
    Ok(message.set_root_canonical(root)?.to_vec())
}

/// `V` read from the reference's canonical message of `text`; written
/// into a new message, whose canonical form is the reference's bytes and
/// which reads back as the same value. Returns the value.
fn round_trip<V>(capnp: &Path, root: &str, text: &str) -> Result<V>
where
    V: for<'a> ReadStruct<'a> + StructValue + PartialEq + Debug,
{
    let expected = reference_canonical(capnp, root, text);
    let segments = [expected.as_slice()];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    let value = V::read_struct(reader.root()?)?;
    let mut message = Message::new(SingleSegmentArena::new());
    value.write_struct(message.init_root_struct(V::STRUCT_SIZE)?)?;
    let built = words_from_bytes(message.framed_bytes()?)?;
    let rebuilt = MessageReader::from_words(&built, ReaderOptions::default())?;
    assert_eq!(
        canonical(&rebuilt.root()?)?,
        expected,
        "{root} {text}: canonical form of the rebuilt message"
    );
    let again = V::read_struct(rebuilt.root()?)?;
    assert_eq!(again, value, "{root} {text}: value read back");
    Ok(value)
}

/// Messages of every struct of the schema, nested through inline and
/// boxed fields, groups, unions, lists and the other file, round-trip
/// byte for byte (canonical) and value for value.
#[test]
fn reference_messages_round_trip() -> Result<()> {
    let Some(capnp) = peer::peer() else {
        return Ok(());
    };
    let capnp = capnp.as_path();
    let shape: shape::Value = round_trip(
        capnp,
        "Shape",
        r#"(point = (x = 1, y = -2), pair = (a = (x = 3, y = 4), b = (x = 5, y = 6)), name = "square")"#,
    )?;
    assert_eq!(
        shape.pair.and_then(|p| p.b),
        Some(point::Value { x: 5, y: 6 })
    );
    let chain: chain::Value = round_trip(
        capnp,
        "Chain",
        "(value = 1, next = (value = 2, next = (value = 3)))",
    )?;
    let third = chain.next.and_then(|c| c.next).expect("third link");
    assert_eq!((third.value, third.next), (3, None));
    round_trip::<tree::Value>(
        capnp,
        "Tree",
        r#"(label = "root", children = [(label = "a", children = [(label = "a1")]), (label = "b")])"#,
    )?;
    round_trip::<outer::Value>(
        capnp,
        "Outer",
        "(item = (back = [(item = (point = (x = 7, y = 8)))], point = (x = 1, y = 1)))",
    )?;
    let grouped: grouped::Value = round_trip(
        capnp,
        "Grouped",
        "(g = (inner = (g = (n = 2), leaf = (x = 9, y = 9)), n = 1), leaf = (x = 1, y = 2))",
    )?;
    assert_eq!(grouped.g.inner.map(|i| i.g.n), Some(2));
    let branch: branch::Value =
        round_trip(capnp, "Branch", "(node = (node = (leaf = (x = 5, y = 6))))")?;
    assert!(matches!(branch.union, branch::WhichValue::Node(Some(_))));
    round_trip::<branch::Value>(capnp, "Branch", "(none = void)")?;
    round_trip::<ping::Value>(
        capnp,
        "Ping",
        "(pong = (ping = (pong = (point = (x = 1, y = 2))), point = (x = 3, y = 4)))",
    )?;
    let local: local::Value = round_trip(
        capnp,
        "Local",
        r#"(remote = (back = (point = (x = 1, y = 2)), label = "far"), point = (x = 3, y = 4))"#,
    )?;
    assert_eq!(
        local.remote.and_then(|r| r.back).and_then(|l| l.point),
        Some(point::Value { x: 1, y: 2 })
    );
    let level3: level3::Value = round_trip(
        capnp,
        "Level3",
        "(top = (a = (a = (a = 1, h = 8), d = (b = 2)), d = (c = (c = 3))))",
    )?;
    let top = level3.top.expect("top");
    assert_eq!(top.a.and_then(|l| l.a).map(|l| (l.a, l.h)), Some((1, 8)));
    Ok(())
}

/// A null struct field and a non-null one of all defaults stay apart
/// inline: the reference's `()` reads as `None`, its `(point = ())` as
/// `Some` of the defaults, and each writes back its own bytes.
#[test]
fn null_and_default_struct_fields_differ() -> Result<()> {
    let Some(capnp) = peer::peer() else {
        return Ok(());
    };
    let null: shape::Value = round_trip(&capnp, "Shape", "()")?;
    let default: shape::Value = round_trip(&capnp, "Shape", "(point = ())")?;
    assert_eq!(null.point, None);
    assert_eq!(default.point, Some(point::Value::default()));
    assert_ne!(null, default);
    Ok(())
}
