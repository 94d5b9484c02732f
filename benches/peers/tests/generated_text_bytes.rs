//! The byte getters generated for `Text` fields (`get_name_bytes`) and
//! `TextListReader::get_bytes`: the capnarena side of the benchmarks reads
//! texts with them, as the capnp side reads `text::Reader::as_bytes`, so
//! neither side pays a UTF-8 check the other does not.

#[allow(dead_code, missing_docs)]
#[rustfmt::skip]
#[path = "../../../tests/generated/codegen_capnp.rs"]
mod codegen_capnp;
#[allow(dead_code, missing_docs)]
#[rustfmt::skip]
#[path = "../../../tests/generated/imported_capnp.rs"]
mod imported_capnp;

use capnarena::{Error, Message, MessageReader, ReaderOptions, SingleSegmentArena};
use capnarena_peers::capnarena_side::bench_capnp::{record, texts};

/// A text field holding bytes that are not UTF-8 reads as those exact
/// bytes through `get_name_bytes`, while `get_name` refuses them with the
/// position of the first bad byte; a valid text reads the same both ways.
#[test]
fn text_field_bytes_skip_the_utf8_check() -> capnarena::Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut r = msg.init_root::<record::Builder<_>>()?;
    r.init_name(3)?.copy_from_slice(&[b'A', 0xff, b'B']);
    r.set_phone("555-0100")?;
    let reader = MessageReader::from_bytes(msg.framed_bytes()?, ReaderOptions::default())?;
    let rec = reader.get_root::<record::Reader>()?;
    assert_eq!(rec.get_name_bytes()?, &[b'A', 0xff, b'B']);
    assert!(matches!(
        rec.get_name(),
        Err(Error::Utf8 { valid_up_to: 1 })
    ));
    assert_eq!(rec.get_phone_bytes()?, b"555-0100");
    assert_eq!(rec.get_phone()?, "555-0100");
    Ok(())
}

/// `TextListReader::get_bytes` gives each element's bytes, terminator
/// excluded, whether or not they are UTF-8; `get` checks them.
#[test]
fn text_list_bytes_skip_the_utf8_check() -> capnarena::Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<texts::Builder<_>>()?;
    let mut items = root.init_items(3)?;
    items.set(0, "ok")?;
    items.init(1, 1)?.copy_from_slice(&[0xc3]);
    let reader = MessageReader::from_bytes(msg.framed_bytes()?, ReaderOptions::default())?;
    let items = reader.get_root::<texts::Reader>()?.get_items()?;
    assert_eq!(items.get_bytes(0)?, b"ok");
    assert_eq!(items.get_bytes(1)?, &[0xc3]);
    assert!(matches!(items.get(1), Err(Error::Utf8 { valid_up_to: 0 })));
    // Element 2 was never set: a null pointer reads as the empty text.
    assert_eq!(items.get_bytes(2)?, b"");
    Ok(())
}

/// A text field with a schema default (`text @14 :Text = "hello
/// \"world\"\n"` in tests/schemas/codegen.capnp) reads the default's
/// bytes while unset and the stored bytes once set.
#[test]
fn text_field_bytes_apply_the_schema_default() -> capnarena::Result<()> {
    use codegen_capnp::defaults;
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root::<defaults::Builder<_>>()?;
    let reader = MessageReader::from_bytes(msg.framed_bytes()?, ReaderOptions::default())?;
    let d = reader.get_root::<defaults::Reader>()?;
    assert_eq!(d.get_text_bytes()?, b"hello \"world\"\n");

    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root::<defaults::Builder<_>>()?.set_text("set")?;
    let reader = MessageReader::from_bytes(msg.framed_bytes()?, ReaderOptions::default())?;
    let d = reader.get_root::<defaults::Reader>()?;
    assert_eq!(d.get_text_bytes()?, b"set");
    Ok(())
}
