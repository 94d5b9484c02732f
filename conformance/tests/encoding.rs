//! The reference's encoding tests (c++/src/capnp/encoding-test.c++ and
//! test-util.c++ at v0.9.2), written again on the API capnarena generates
//! for the reference's test.capnp: the test message built and checked
//! (`initTestMessage` / `checkTestMessage`), every value of every encoding
//! of it in `testdata/`, the message built byte-equal to the reference's,
//! its `Debug` equal to the reference's text format, defaults, lists,
//! unions, groups and upgrades.
//!
//! The expected values are the reference's own (its test code and its
//! testdata files); nothing here compares capnarena with itself.

use capnarena::serialize::packed::{pack_to_vec, unpack_to_vec};
use capnarena::typed::{BoolList, Owned, PrimitiveList, StructList};
use capnarena::{
    Arena, GrowthPolicy, Message, MessageReader, MultiSegmentArena, ReaderOptions, Result,
    SingleSegmentArena, Word, words_from_bytes,
};
use capnarena_conformance::capnproto::c_src_capnp_test_capnp as test_capnp;
use test_capnp::{
    TestEnum, test_all_types, test_any_pointer, test_constants, test_defaults, test_generics,
    test_groups, test_interleaved_groups, test_list_defaults, test_lists, test_nested_types,
    test_new_union_version, test_new_version, test_old_union_version, test_old_version, test_union,
    test_union_defaults, test_unnamed_union, test_use_generics, test_whole_float_default,
};

/// `corpus/capnproto/c++/src/capnp/testdata/NAME`.
fn testdata(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/capnproto/c++/src/capnp/testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The elements of a list reader.
fn items<L: IntoIterator>(list: L) -> Vec<L::Item> {
    list.into_iter().collect()
}

/// The elements of a text or data list reader (each read may fail).
fn texts<'a, T: ?Sized + 'a, L: IntoIterator<Item = Result<&'a T>>>(list: L) -> Result<Vec<&'a T>> {
    list.into_iter().collect()
}

/// `genericInitTestMessage`: the same calls, on the builder of
/// TestAllTypes or TestDefaults (which have the same fields).
macro_rules! init_test_message {
    ($b:expr) => {{
        let b = &mut $b;
        b.set_void_field();
        b.set_bool_field(true);
        b.set_int8_field(-123);
        b.set_int16_field(-12345);
        b.set_int32_field(-12345678);
        b.set_int64_field(-123456789012345);
        b.set_u_int8_field(234);
        b.set_u_int16_field(45678);
        b.set_u_int32_field(3456789012);
        b.set_u_int64_field(12345678901234567890);
        b.set_float32_field(1234.5);
        b.set_float64_field(-123e45);
        b.set_text_field("foo")?;
        b.set_data_field(b"bar")?;
        {
            let mut sub = b.init_struct_field()?;
            sub.set_void_field();
            sub.set_bool_field(true);
            sub.set_int8_field(-12);
            sub.set_int16_field(3456);
            sub.set_int32_field(-78901234);
            sub.set_int64_field(56789012345678);
            sub.set_u_int8_field(90);
            sub.set_u_int16_field(1234);
            sub.set_u_int32_field(56789012);
            sub.set_u_int64_field(345678901234567890);
            sub.set_float32_field(-1.25e-10);
            sub.set_float64_field(345.0);
            sub.set_text_field("baz")?;
            sub.set_data_field(b"qux")?;
            {
                let mut sub_sub = sub.init_struct_field()?;
                sub_sub.set_text_field("nested")?;
                sub_sub
                    .init_struct_field()?
                    .set_text_field("really nested")?;
            }
            sub.set_enum_field(TestEnum::Baz);

            sub.init_void_list(3)?;
            sub.set_bool_list_from_slice(&[false, true, false, true, true])?;
            sub.set_int8_list_from_slice(&[12, -34, -0x80, 0x7f])?;
            sub.set_int16_list_from_slice(&[1234, -5678, -0x8000, 0x7fff])?;
            sub.set_int32_list_from_slice(&[12345678, -90123456, -0x7fffffff - 1, 0x7fffffff])?;
            sub.set_int64_list_from_slice(&[
                123456789012345,
                -678901234567890,
                -0x7fffffffffffffff - 1,
                0x7fffffffffffffff,
            ])?;
            sub.set_u_int8_list_from_slice(&[12, 34, 0, 0xff])?;
            sub.set_u_int16_list_from_slice(&[1234, 5678, 0, 0xffff])?;
            sub.set_u_int32_list_from_slice(&[12345678, 90123456, 0, 0xffffffff])?;
            sub.set_u_int64_list_from_slice(&[
                123456789012345,
                678901234567890,
                0,
                0xffffffffffffffff,
            ])?;
            sub.set_float32_list_from_slice(&[0.0, 1234567.0, 1e37, -1e37, 1e-37, -1e-37])?;
            sub.set_float64_list_from_slice(&[
                0.0,
                123456789012345.0,
                1e306,
                -1e306,
                1e-306,
                -1e-306,
            ])?;
            sub.set_text_list_from_iter(["quux", "corge", "grault"])?;
            sub.set_data_list_from_iter([&b"garply"[..], b"waldo", b"fred"])?;
            {
                let mut list = sub.init_struct_list(3)?;
                list.get(0).set_text_field("x structlist 1")?;
                list.get(1).set_text_field("x structlist 2")?;
                list.get(2).set_text_field("x structlist 3")?;
            }
            let mut enums = sub.init_enum_list(3)?;
            enums.set(0, TestEnum::Qux);
            enums.set(1, TestEnum::Bar);
            enums.set(2, TestEnum::Grault);
        }
        b.set_enum_field(TestEnum::Corge);

        b.init_void_list(6)?;
        b.set_bool_list_from_slice(&[true, false, false, true])?;
        b.set_int8_list_from_slice(&[111, -111])?;
        b.set_int16_list_from_slice(&[11111, -11111])?;
        b.set_int32_list_from_slice(&[111111111, -111111111])?;
        b.set_int64_list_from_slice(&[1111111111111111111, -1111111111111111111])?;
        b.set_u_int8_list_from_slice(&[111, 222])?;
        b.set_u_int16_list_from_slice(&[33333, 44444])?;
        b.set_u_int32_list_from_slice(&[3333333333])?;
        b.set_u_int64_list_from_slice(&[11111111111111111111])?;
        b.set_float32_list_from_slice(&[5555.5, f32::INFINITY, f32::NEG_INFINITY, f32::NAN])?;
        b.set_float64_list_from_slice(&[7777.75, f64::INFINITY, f64::NEG_INFINITY, f64::NAN])?;
        b.set_text_list_from_iter(["plugh", "xyzzy", "thud"])?;
        b.set_data_list_from_iter([&b"oops"[..], b"exhausted", b"rfc3092"])?;
        {
            let mut list = b.init_struct_list(3)?;
            list.get(0).set_text_field("structlist 1")?;
            list.get(1).set_text_field("structlist 2")?;
            list.get(2).set_text_field("structlist 3")?;
        }
        let mut enums = b.init_enum_list(2)?;
        enums.set(0, TestEnum::Foo);
        enums.set(1, TestEnum::Garply);
    }};
}

/// `genericCheckTestMessage`: every value `init_test_message!` sets, on a
/// reader of TestAllTypes or TestDefaults.
macro_rules! check_test_message {
    ($r:expr) => {{
        let r = $r;
        r.get_void_field();
        assert!(r.get_bool_field());
        assert_eq!(r.get_int8_field(), -123);
        assert_eq!(r.get_int16_field(), -12345);
        assert_eq!(r.get_int32_field(), -12345678);
        assert_eq!(r.get_int64_field(), -123456789012345);
        assert_eq!(r.get_u_int8_field(), 234);
        assert_eq!(r.get_u_int16_field(), 45678);
        assert_eq!(r.get_u_int32_field(), 3456789012);
        assert_eq!(r.get_u_int64_field(), 12345678901234567890);
        assert_eq!(r.get_float32_field(), 1234.5);
        assert_eq!(r.get_float64_field(), -123e45);
        assert_eq!(r.get_text_field()?, "foo");
        assert_eq!(r.get_data_field()?, b"bar");
        {
            let sub = r.get_struct_field()?;
            sub.get_void_field();
            assert!(sub.get_bool_field());
            assert_eq!(sub.get_int8_field(), -12);
            assert_eq!(sub.get_int16_field(), 3456);
            assert_eq!(sub.get_int32_field(), -78901234);
            assert_eq!(sub.get_int64_field(), 56789012345678);
            assert_eq!(sub.get_u_int8_field(), 90);
            assert_eq!(sub.get_u_int16_field(), 1234);
            assert_eq!(sub.get_u_int32_field(), 56789012);
            assert_eq!(sub.get_u_int64_field(), 345678901234567890);
            assert_eq!(sub.get_float32_field(), -1.25e-10);
            assert_eq!(sub.get_float64_field(), 345.0);
            assert_eq!(sub.get_text_field()?, "baz");
            assert_eq!(sub.get_data_field()?, b"qux");
            {
                let sub_sub = sub.get_struct_field()?;
                assert_eq!(sub_sub.get_text_field()?, "nested");
                assert_eq!(
                    sub_sub.get_struct_field()?.get_text_field()?,
                    "really nested"
                );
            }
            assert_eq!(sub.get_enum_field()?, TestEnum::Baz);

            assert_eq!(sub.get_void_list()?.len(), 3);
            assert_eq!(
                items(sub.get_bool_list()?),
                [false, true, false, true, true]
            );
            assert_eq!(items(sub.get_int8_list()?), [12, -34, -0x80, 0x7f]);
            assert_eq!(items(sub.get_int16_list()?), [1234, -5678, -0x8000, 0x7fff]);
            assert_eq!(
                items(sub.get_int32_list()?),
                [12345678, -90123456, -0x7fffffff - 1, 0x7fffffff]
            );
            assert_eq!(
                items(sub.get_int64_list()?),
                [
                    123456789012345,
                    -678901234567890,
                    -0x7fffffffffffffff - 1,
                    0x7fffffffffffffff
                ]
            );
            assert_eq!(items(sub.get_u_int8_list()?), [12, 34, 0, 0xff]);
            assert_eq!(items(sub.get_u_int16_list()?), [1234, 5678, 0, 0xffff]);
            assert_eq!(
                items(sub.get_u_int32_list()?),
                [12345678, 90123456, 0, 0xffffffff]
            );
            assert_eq!(
                items(sub.get_u_int64_list()?),
                [123456789012345, 678901234567890, 0, 0xffffffffffffffff]
            );
            assert_eq!(
                items(sub.get_float32_list()?),
                [0.0, 1234567.0, 1e37, -1e37, 1e-37, -1e-37]
            );
            assert_eq!(
                items(sub.get_float64_list()?),
                [0.0, 123456789012345.0, 1e306, -1e306, 1e-306, -1e-306]
            );
            assert_eq!(texts(sub.get_text_list()?)?, ["quux", "corge", "grault"]);
            assert_eq!(
                texts(sub.get_data_list()?)?,
                [&b"garply"[..], b"waldo", b"fred"]
            );
            {
                let list = sub.get_struct_list()?;
                assert_eq!(list.len(), 3);
                assert_eq!(list.get(0).get_text_field()?, "x structlist 1");
                assert_eq!(list.get(1).get_text_field()?, "x structlist 2");
                assert_eq!(list.get(2).get_text_field()?, "x structlist 3");
            }
            assert_eq!(
                items(sub.get_enum_list()?)
                    .into_iter()
                    .collect::<core::result::Result<Vec<_>, _>>()?,
                [TestEnum::Qux, TestEnum::Bar, TestEnum::Grault]
            );
        }
        assert_eq!(r.get_enum_field()?, TestEnum::Corge);

        assert_eq!(r.get_void_list()?.len(), 6);
        assert_eq!(items(r.get_bool_list()?), [true, false, false, true]);
        assert_eq!(items(r.get_int8_list()?), [111, -111]);
        assert_eq!(items(r.get_int16_list()?), [11111, -11111]);
        assert_eq!(items(r.get_int32_list()?), [111111111, -111111111]);
        assert_eq!(
            items(r.get_int64_list()?),
            [1111111111111111111, -1111111111111111111]
        );
        assert_eq!(items(r.get_u_int8_list()?), [111, 222]);
        assert_eq!(items(r.get_u_int16_list()?), [33333, 44444]);
        assert_eq!(items(r.get_u_int32_list()?), [3333333333]);
        assert_eq!(items(r.get_u_int64_list()?), [11111111111111111111]);
        {
            let list = items(r.get_float32_list()?);
            assert_eq!(list.len(), 4);
            assert_eq!(list[..3], [5555.5, f32::INFINITY, f32::NEG_INFINITY]);
            assert!(list[3].is_nan());
        }
        {
            let list = items(r.get_float64_list()?);
            assert_eq!(list.len(), 4);
            assert_eq!(list[..3], [7777.75, f64::INFINITY, f64::NEG_INFINITY]);
            assert!(list[3].is_nan());
        }
        assert_eq!(texts(r.get_text_list()?)?, ["plugh", "xyzzy", "thud"]);
        assert_eq!(
            texts(r.get_data_list()?)?,
            [&b"oops"[..], b"exhausted", b"rfc3092"]
        );
        {
            let list = r.get_struct_list()?;
            assert_eq!(list.len(), 3);
            assert_eq!(list.get(0).get_text_field()?, "structlist 1");
            assert_eq!(list.get(1).get_text_field()?, "structlist 2");
            assert_eq!(list.get(2).get_text_field()?, "structlist 3");
        }
        assert_eq!(
            items(r.get_enum_list()?)
                .into_iter()
                .collect::<core::result::Result<Vec<_>, _>>()?,
            [TestEnum::Foo, TestEnum::Garply]
        );
    }};
}

/// `genericCheckTestMessageAllZero`: a TestAllTypes with nothing set.
fn check_all_zero(r: test_all_types::Reader<'_>) -> Result<()> {
    assert!(!r.get_bool_field());
    assert_eq!(r.get_int8_field(), 0);
    assert_eq!(r.get_int16_field(), 0);
    assert_eq!(r.get_int32_field(), 0);
    assert_eq!(r.get_int64_field(), 0);
    assert_eq!(r.get_u_int8_field(), 0);
    assert_eq!(r.get_u_int16_field(), 0);
    assert_eq!(r.get_u_int32_field(), 0);
    assert_eq!(r.get_u_int64_field(), 0);
    assert_eq!(r.get_float32_field(), 0.0);
    assert_eq!(r.get_float64_field(), 0.0);
    assert_eq!(r.get_text_field()?, "");
    assert_eq!(r.get_data_field()?, b"");
    {
        let sub = r.get_struct_field()?;
        assert!(!sub.get_bool_field());
        assert_eq!(sub.get_int32_field(), 0);
        assert_eq!(sub.get_text_field()?, "");
        assert_eq!(sub.get_struct_field()?.get_text_field()?, "");
        assert_eq!(sub.get_enum_field()?, TestEnum::Foo);
        assert_eq!(sub.get_bool_list()?.len(), 0);
        assert_eq!(sub.get_struct_list()?.len(), 0);
    }
    assert_eq!(r.get_enum_field()?, TestEnum::Foo);
    assert_eq!(r.get_void_list()?.len(), 0);
    assert_eq!(r.get_bool_list()?.len(), 0);
    assert_eq!(r.get_int8_list()?.len(), 0);
    assert_eq!(r.get_int16_list()?.len(), 0);
    assert_eq!(r.get_int32_list()?.len(), 0);
    assert_eq!(r.get_int64_list()?.len(), 0);
    assert_eq!(r.get_u_int8_list()?.len(), 0);
    assert_eq!(r.get_u_int16_list()?.len(), 0);
    assert_eq!(r.get_u_int32_list()?.len(), 0);
    assert_eq!(r.get_u_int64_list()?.len(), 0);
    assert_eq!(r.get_float32_list()?.len(), 0);
    assert_eq!(r.get_float64_list()?.len(), 0);
    assert_eq!(r.get_text_list()?.len(), 0);
    assert_eq!(r.get_data_list()?.len(), 0);
    assert_eq!(r.get_struct_list()?.len(), 0);
    assert_eq!(r.get_enum_list()?.len(), 0);
    Ok(())
}

/// `genericInitListDefaults`: TestListDefaults.lists built by hand.
fn init_list_defaults<A: Arena>(b: &mut test_list_defaults::Builder<'_, A>) -> Result<()> {
    let mut lists = b.init_lists()?;
    lists.init_list0(2)?;
    lists.init_list1(4)?;
    lists.init_list8(2)?;
    lists.init_list16(2)?;
    lists.init_list32(2)?;
    lists.init_list64(2)?;
    lists.init_list_p(2)?;
    lists.get_list0()?.get(0).set_f();
    lists.get_list0()?.get(1).set_f();
    lists.get_list1()?.get(0).set_f(true);
    lists.get_list1()?.get(1).set_f(false);
    lists.get_list1()?.get(2).set_f(true);
    lists.get_list1()?.get(3).set_f(true);
    lists.get_list8()?.get(0).set_f(123);
    lists.get_list8()?.get(1).set_f(45);
    lists.get_list16()?.get(0).set_f(12345);
    lists.get_list16()?.get(1).set_f(6789);
    lists.get_list32()?.get(0).set_f(123456789);
    lists.get_list32()?.get(1).set_f(234567890);
    lists.get_list64()?.get(0).set_f(1234567890123456);
    lists.get_list64()?.get(1).set_f(2345678901234567);
    lists.get_list_p()?.get(0).set_f("foo")?;
    lists.get_list_p()?.get(1).set_f("bar")?;
    {
        let mut l = lists.init_int32_list_list(3)?;
        l.init(0, 3)?.set_from_iter([1, 2, 3]);
        l.init(1, 2)?.set_from_iter([4, 5]);
        l.init(2, 1)?.set_from_iter([12341234]);
    }
    {
        let mut l = lists.init_text_list_list(3)?;
        for (i, words) in [&["foo", "bar"][..], &["baz"], &["qux", "corge"]]
            .iter()
            .enumerate()
        {
            let mut t = l.init(i as u32, words.len() as u32)?;
            for (j, w) in words.iter().enumerate() {
                t.set(j as u32, w)?;
            }
        }
    }
    {
        let mut l = lists.init_struct_list_list(2)?;
        let mut e = l.init(0, 2)?;
        e.get(0).set_int32_field(123);
        e.get(1).set_int32_field(456);
        let mut e = l.init(1, 1)?;
        e.get(0).set_int32_field(789);
    }
    Ok(())
}

/// `genericCheckListDefaults`, on a TestLists.
fn check_lists(lists: test_lists::Reader<'_>) -> Result<()> {
    assert_eq!(lists.get_list0()?.len(), 2);
    assert_eq!(lists.get_list1()?.len(), 4);
    assert_eq!(lists.get_list8()?.len(), 2);
    assert_eq!(lists.get_list16()?.len(), 2);
    assert_eq!(lists.get_list32()?.len(), 2);
    assert_eq!(lists.get_list64()?.len(), 2);
    assert_eq!(lists.get_list_p()?.len(), 2);
    let l1 = lists.get_list1()?;
    assert_eq!(
        [
            l1.get(0).get_f(),
            l1.get(1).get_f(),
            l1.get(2).get_f(),
            l1.get(3).get_f()
        ],
        [true, false, true, true]
    );
    let l8 = lists.get_list8()?;
    assert_eq!([l8.get(0).get_f(), l8.get(1).get_f()], [123, 45]);
    let l16 = lists.get_list16()?;
    assert_eq!([l16.get(0).get_f(), l16.get(1).get_f()], [12345, 6789]);
    let l32 = lists.get_list32()?;
    assert_eq!(
        [l32.get(0).get_f(), l32.get(1).get_f()],
        [123456789, 234567890]
    );
    let l64 = lists.get_list64()?;
    assert_eq!(
        [l64.get(0).get_f(), l64.get(1).get_f()],
        [1234567890123456, 2345678901234567]
    );
    let lp = lists.get_list_p()?;
    assert_eq!([lp.get(0).get_f()?, lp.get(1).get_f()?], ["foo", "bar"]);
    {
        let l = lists.get_int32_list_list()?;
        assert_eq!(l.len(), 3);
        assert_eq!(items(l.get(0)?), [1, 2, 3]);
        assert_eq!(items(l.get(1)?), [4, 5]);
        assert_eq!(items(l.get(2)?), [12341234]);
    }
    {
        let l = lists.get_text_list_list()?;
        assert_eq!(l.len(), 3);
        assert_eq!(texts(l.get(0)?)?, ["foo", "bar"]);
        assert_eq!(texts(l.get(1)?)?, ["baz"]);
        assert_eq!(texts(l.get(2)?)?, ["qux", "corge"]);
    }
    {
        let l = lists.get_struct_list_list()?;
        assert_eq!(l.len(), 2);
        let e = l.get(0)?;
        assert_eq!(e.len(), 2);
        assert_eq!(e.get(0).get_int32_field(), 123);
        assert_eq!(e.get(1).get_int32_field(), 456);
        let e = l.get(1)?;
        assert_eq!(e.len(), 1);
        assert_eq!(e.get(0).get_int32_field(), 789);
    }
    Ok(())
}

/// The test message, built in `msg`.
fn build_test_message<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    let mut root = msg.init_root::<test_all_types::Builder<'_, A>>()?;
    init_test_message!(root);
    Ok(())
}

/// Encoding.AllTypes: the test message built in one segment reads back
/// with every value, through the builder's reader and through the framed
/// bytes.
#[test]
fn all_types() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build_test_message(&mut msg)?;
    msg.get_root::<test_all_types::Builder<'_, _>>()?
        .with_reader(|r| -> Result<()> {
            check_test_message!(r);
            Ok(())
        })?;
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    check_test_message!(reader.get_root::<test_all_types::Reader<'_>>()?);
    Ok(())
}

/// Encoding.AllTypesMultiSegment: built with every object in a segment of
/// its own (the reference's FIXED_SIZE allocation of zero words), the
/// message reads back with every value.
#[test]
fn all_types_multi_segment() -> Result<()> {
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(1)
        .with_policy(GrowthPolicy::FixedSize(1));
    let mut msg = Message::new(arena);
    build_test_message(&mut msg)?;
    // Each object (a text or data list and its elements are one) lands in
    // a segment of its own: more than 40 of them, far pointers between.
    assert!(msg.segment_count() > 40, "{} segments", msg.segment_count());
    let mut framed = Vec::new();
    msg.append_to(&mut framed);
    let words = words_from_bytes(&framed)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    check_test_message!(reader.get_root::<test_all_types::Reader<'_>>()?);
    Ok(())
}

/// Reads `words` (framed) as TestAllTypes and checks every value.
fn check_framed(words: &[Word]) -> Result<()> {
    let reader = MessageReader::from_words(words, ReaderOptions::default())?;
    check_test_message!(reader.get_root::<test_all_types::Reader<'_>>()?);
    Ok(())
}

/// Reads `words` (one segment, no table) as TestAllTypes and checks every
/// value.
fn check_flat(words: &[Word]) -> Result<()> {
    let segments = [words];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    check_test_message!(reader.get_root::<test_all_types::Reader<'_>>()?);
    Ok(())
}

/// Unpacks a packed stream.
fn unpacked(packed: &[u8]) -> Result<Vec<Word>> {
    let mut words = Vec::new();
    unpack_to_vec(packed, &mut words, 1 << 20)?;
    Ok(words)
}

/// testdata/binary (framed, one segment): every value.
#[test]
fn testdata_binary() -> Result<()> {
    check_framed(&words_from_bytes(&testdata("binary"))?)
}

/// testdata/flat (the segment alone): every value.
#[test]
fn testdata_flat() -> Result<()> {
    check_flat(&words_from_bytes(&testdata("flat"))?)
}

/// testdata/packed (framed, packed): every value.
#[test]
fn testdata_packed() -> Result<()> {
    check_framed(&unpacked(&testdata("packed"))?)
}

/// testdata/packedflat (the segment alone, packed): every value.
#[test]
fn testdata_packedflat() -> Result<()> {
    check_flat(&unpacked(&testdata("packedflat"))?)
}

/// testdata/segmented (framed, 125 segments, far and double-far
/// pointers): every value.
#[test]
fn testdata_segmented() -> Result<()> {
    let bytes = testdata("segmented");
    assert_eq!(bytes[..4], [124, 0, 0, 0], "125 segments");
    check_framed(&words_from_bytes(&bytes)?)
}

/// testdata/segmented-packed: every value.
#[test]
fn testdata_segmented_packed() -> Result<()> {
    check_framed(&unpacked(&testdata("segmented-packed"))?)
}

/// testdata/lists.binary: a TestLists holding TestListDefaults' default
/// lists, every value.
#[test]
fn testdata_lists() -> Result<()> {
    let words = words_from_bytes(&testdata("lists.binary"))?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    check_lists(reader.get_root::<test_lists::Reader<'_>>()?)
}

/// The test message built in a SingleSegmentArena is byte for byte the
/// reference's: testdata/binary framed, testdata/flat its segment, and
/// packed, testdata/packed and testdata/packedflat.
#[test]
fn built_byte_equal_to_testdata() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build_test_message(&mut msg)?;
    let framed = msg.framed_bytes()?.to_vec();
    assert_eq!(
        framed,
        testdata("binary"),
        "framed bytes differ from testdata/binary"
    );
    let segment = msg.segment(0).expect("one segment");
    assert_eq!(segment.as_bytes(), &testdata("flat")[..]);
    let mut packed = Vec::new();
    pack_to_vec(&words_from_bytes(&framed)?, &mut packed);
    assert_eq!(packed, testdata("packed"));
    let mut packed_flat = Vec::new();
    pack_to_vec(segment.words(), &mut packed_flat);
    assert_eq!(packed_flat, testdata("packedflat"));
    Ok(())
}

/// `{:?}` of the test message is testdata/short.txt and `{:#?}` is
/// testdata/pretty.txt, the reference's text format (less the trailing
/// newline its tool writes), for the reader and the builder alike.
#[test]
fn debug_is_the_reference_text() -> Result<()> {
    let short = String::from_utf8(testdata("short.txt")).expect("utf-8");
    let pretty = String::from_utf8(testdata("pretty.txt")).expect("utf-8");
    let words = words_from_bytes(&testdata("binary"))?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let root = reader.get_root::<test_all_types::Reader<'_>>()?;
    assert_eq!(format!("{root:?}\n"), short);
    assert_eq!(format!("{root:#?}\n"), pretty);
    let mut msg = Message::new(SingleSegmentArena::new());
    build_test_message(&mut msg)?;
    let b = msg.get_root::<test_all_types::Builder<'_, _>>()?;
    assert_eq!(format!("{b:?}\n"), short);
    assert_eq!(format!("{b:#?}\n"), pretty);
    Ok(())
}

/// Encoding.Defaults / DefaultsFromEmptyMessage: a TestDefaults with
/// nothing set reads as the test message (its defaults are the test
/// message's values).
#[test]
fn defaults() -> Result<()> {
    let empty = [Word::ZERO];
    let segments = [&empty[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    check_test_message!(reader.get_root::<test_defaults::Reader<'_>>()?);
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root::<test_defaults::Builder<'_, _>>()?;
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    check_test_message!(reader.get_root::<test_defaults::Reader<'_>>()?);
    Ok(())
}

/// Encoding.DefaultInitialization: reading a TestDefaults' fields through
/// its builder copies the defaults in; the message then holds them.
#[test]
fn default_initialization() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut b = msg.init_root::<test_defaults::Builder<'_, _>>()?;
        // The builder getters of pointer fields copy the default in.
        b.get_text_field()?;
        b.get_data_field()?;
        b.get_struct_field()?;
        b.get_void_list()?;
        b.get_bool_list()?;
        b.get_int8_list()?;
        b.get_int16_list()?;
        b.get_int32_list()?;
        b.get_int64_list()?;
        b.get_u_int8_list()?;
        b.get_u_int16_list()?;
        b.get_u_int32_list()?;
        b.get_u_int64_list()?;
        b.get_float32_list()?;
        b.get_float64_list()?;
        b.get_text_list()?;
        b.get_data_list()?;
        b.get_struct_list()?;
        b.get_enum_list()?;
        b.with_reader(|r| -> Result<()> {
            check_test_message!(r);
            Ok(())
        })?;
        assert!(b.has_struct_field() && b.has_text_list() && b.has_enum_list());
    }
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let r = reader.get_root::<test_defaults::Reader<'_>>()?;
    assert!(r.has_struct_field() && r.has_text_list() && r.has_enum_list());
    check_test_message!(r);
    Ok(())
}

/// Encoding.DefaultsFromEmptyMessage for TestAllTypes: every field zero,
/// every pointer empty.
#[test]
fn all_zero_from_empty_message() -> Result<()> {
    let empty = [Word::ZERO];
    let segments = [&empty[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    check_all_zero(reader.get_root::<test_all_types::Reader<'_>>()?)
}

/// Encoding.ListDefaults: TestListDefaults' default value holds the lists.
#[test]
fn list_defaults() -> Result<()> {
    let empty = [Word::ZERO];
    let segments = [&empty[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    check_lists(
        reader
            .get_root::<test_list_defaults::Reader<'_>>()?
            .get_lists()?,
    )
}

/// Encoding.BuildListDefaults: the lists built by hand read back, and lay
/// out as the reference's testdata/lists.binary does (the same TestLists
/// as a root, byte for byte).
#[test]
fn build_list_defaults() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut b = msg.init_root::<test_list_defaults::Builder<'_, _>>()?;
        init_list_defaults(&mut b)?;
    }
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    check_lists(
        reader
            .get_root::<test_list_defaults::Reader<'_>>()?
            .get_lists()?,
    )?;

    // As a root of its own, the same lists are testdata/lists.binary.
    let lists = reader
        .get_root::<test_list_defaults::Reader<'_>>()?
        .get_lists()?;
    let mut copy = Message::new(SingleSegmentArena::new());
    copy.set_root(&lists.as_struct_reader())?;
    assert_eq!(copy.framed_bytes()?, &testdata("lists.binary")[..]);
    Ok(())
}

/// Encoding.Unions: a union reads as its first member until another is
/// set, then as the member set last.
#[test]
fn unions() -> Result<()> {
    use test_union::union0::Which;
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_union::Builder<'_, _>>()?;
    root.with_reader(|r| assert!(matches!(r.get_union0().which(), Ok(Which::U0f0s0))));
    root.get_union0().set_u0f0s1(true);
    root.with_reader(|r| assert!(matches!(r.get_union0().which(), Ok(Which::U0f0s1(true)))));
    root.get_union0().set_u0f0s8(123);
    root.with_reader(|r| assert!(matches!(r.get_union0().which(), Ok(Which::U0f0s8(123)))));
    Ok(())
}

/// The four discriminants of a TestUnion and the bit offset of the first
/// set bit after them, in a message holding only what `set` wrote (the
/// reference's `initUnion`).
fn union_state(
    set: impl FnOnce(&mut test_union::Builder<'_, SingleSegmentArena>) -> Result<()>,
) -> Result<([u8; 4], i32)> {
    let mut msg = Message::new(SingleSegmentArena::new());
    set(&mut msg.init_root::<test_union::Builder<'_, _>>()?)?;
    let segment = msg.segment(0).expect("one segment").as_bytes();
    assert!(segment.len() > 16, "{} bytes", segment.len());
    let mut offset = -1;
    for (i, &byte) in segment[16..].iter().enumerate() {
        if byte != 0 {
            offset = i as i32 * 8 + byte.trailing_zeros() as i32;
            break;
        }
    }
    Ok(([segment[8], segment[10], segment[12], segment[14]], offset))
}

/// Encoding.UnionLayout: where each member of each of TestUnion's four
/// unions lands, and the discriminant it writes (the reference's table).
#[test]
fn union_layout() -> Result<()> {
    macro_rules! case {
        ($d:expr, $off:expr, |$b:ident| $set:expr) => {
            assert_eq!(
                union_state(|$b| {
                    $set;
                    Ok(())
                })?,
                ($d, $off),
                "{}",
                stringify!($set)
            );
        };
    }
    case!([0, 0, 0, 0], -1, |b| b.get_union0().set_u0f0s0());
    case!([1, 0, 0, 0], 0, |b| b.get_union0().set_u0f0s1(true));
    case!([2, 0, 0, 0], 0, |b| b.get_union0().set_u0f0s8(1));
    case!([3, 0, 0, 0], 0, |b| b.get_union0().set_u0f0s16(1));
    case!([4, 0, 0, 0], 0, |b| b.get_union0().set_u0f0s32(1));
    case!([5, 0, 0, 0], 0, |b| b.get_union0().set_u0f0s64(1));
    case!([6, 0, 0, 0], 448, |b| b.get_union0().set_u0f0sp("1")?);
    case!([7, 0, 0, 0], -1, |b| b.get_union0().set_u0f1s0());
    case!([8, 0, 0, 0], 0, |b| b.get_union0().set_u0f1s1(true));
    case!([9, 0, 0, 0], 0, |b| b.get_union0().set_u0f1s8(1));
    case!([10, 0, 0, 0], 0, |b| b.get_union0().set_u0f1s16(1));
    case!([11, 0, 0, 0], 0, |b| b.get_union0().set_u0f1s32(1));
    case!([12, 0, 0, 0], 0, |b| b.get_union0().set_u0f1s64(1));
    case!([13, 0, 0, 0], 448, |b| b.get_union0().set_u0f1sp("1")?);

    case!([0, 0, 0, 0], -1, |b| b.get_union1().set_u1f0s0());
    case!([0, 1, 0, 0], 65, |b| b.get_union1().set_u1f0s1(true));
    case!([0, 2, 0, 0], 65, |b| b.get_union1().set_u1f1s1(true));
    case!([0, 3, 0, 0], 72, |b| b.get_union1().set_u1f0s8(1));
    case!([0, 4, 0, 0], 72, |b| b.get_union1().set_u1f1s8(1));
    case!([0, 5, 0, 0], 80, |b| b.get_union1().set_u1f0s16(1));
    case!([0, 6, 0, 0], 80, |b| b.get_union1().set_u1f1s16(1));
    case!([0, 7, 0, 0], 96, |b| b.get_union1().set_u1f0s32(1));
    case!([0, 8, 0, 0], 96, |b| b.get_union1().set_u1f1s32(1));
    case!([0, 9, 0, 0], 128, |b| b.get_union1().set_u1f0s64(1));
    case!([0, 10, 0, 0], 128, |b| b.get_union1().set_u1f1s64(1));
    case!([0, 11, 0, 0], 512, |b| b.get_union1().set_u1f0sp("1")?);
    case!([0, 12, 0, 0], 512, |b| b.get_union1().set_u1f1sp("1")?);

    case!([0, 13, 0, 0], -1, |b| b.get_union1().set_u1f2s0());
    case!([0, 14, 0, 0], 65, |b| b.get_union1().set_u1f2s1(true));
    case!([0, 15, 0, 0], 72, |b| b.get_union1().set_u1f2s8(1));
    case!([0, 16, 0, 0], 80, |b| b.get_union1().set_u1f2s16(1));
    case!([0, 17, 0, 0], 96, |b| b.get_union1().set_u1f2s32(1));
    case!([0, 18, 0, 0], 128, |b| b.get_union1().set_u1f2s64(1));
    case!([0, 19, 0, 0], 512, |b| b.get_union1().set_u1f2sp("1")?);

    case!([0, 0, 0, 0], 192, |b| b.get_union2().set_u2f0s1(true));
    case!([0, 0, 0, 0], 193, |b| b.get_union3().set_u3f0s1(true));
    case!([0, 0, 1, 0], 200, |b| b.get_union2().set_u2f0s8(1));
    case!([0, 0, 0, 1], 208, |b| b.get_union3().set_u3f0s8(1));
    case!([0, 0, 2, 0], 224, |b| b.get_union2().set_u2f0s16(1));
    case!([0, 0, 0, 2], 240, |b| b.get_union3().set_u3f0s16(1));
    case!([0, 0, 3, 0], 256, |b| b.get_union2().set_u2f0s32(1));
    case!([0, 0, 0, 3], 288, |b| b.get_union3().set_u3f0s32(1));
    case!([0, 0, 4, 0], 320, |b| b.get_union2().set_u2f0s64(1));
    case!([0, 0, 0, 4], 384, |b| b.get_union3().set_u3f0s64(1));
    Ok(())
}

/// Encoding.UnnamedUnion: an unnamed union's members through the
/// struct's own `which`, and its discriminant where the reference puts it.
#[test]
fn unnamed_union() -> Result<()> {
    use test_unnamed_union::Which;
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_unnamed_union::Builder<'_, _>>()?;
    root.with_reader(|r| assert!(matches!(r.which(), Ok(Which::Foo(0)))));
    root.set_bar(321);
    root.with_reader(|r| assert!(matches!(r.which(), Ok(Which::Bar(321)))));
    root.set_foo(123);
    root.with_reader(|r| assert!(matches!(r.which(), Ok(Which::Foo(123)))));
    // The reference's schema puts the discriminant at 16-bit offset 2
    // (bytes 4..6 of the data section) and bar at 32-bit offset 2.
    root.set_bar(0x0102);
    let data = msg.segment(0).expect("segment").as_bytes()[8..24].to_vec();
    assert_eq!(data[4..6], [1, 0], "discriminant of bar at 16-bit offset 2");
    assert_eq!(data[8..12], [2, 1, 0, 0], "bar at 32-bit offset 2");
    Ok(())
}

/// Encoding.Groups: each member group of a union of groups, set and read.
#[test]
fn groups() -> Result<()> {
    use test_groups::groups::Which;
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_groups::Builder<'_, _>>()?;
    {
        let mut groups = root.get_groups();
        let mut foo = groups.init_foo();
        foo.set_corge(12345678);
        foo.set_grault(123456789012345);
        foo.set_garply("foobar")?;
    }
    root.with_reader(|r| -> Result<()> {
        let Which::Foo(foo) = r.get_groups().which()? else {
            panic!("foo is set")
        };
        assert_eq!(foo.get_corge(), 12345678);
        assert_eq!(foo.get_grault(), 123456789012345);
        assert_eq!(foo.get_garply()?, "foobar");
        Ok(())
    })?;
    {
        let mut groups = root.get_groups();
        let mut bar = groups.init_bar();
        bar.set_corge(23456789);
        bar.set_grault("barbaz")?;
        bar.set_garply(234567890123456);
    }
    root.with_reader(|r| -> Result<()> {
        let Which::Bar(bar) = r.get_groups().which()? else {
            panic!("bar is set")
        };
        assert_eq!(bar.get_corge(), 23456789);
        assert_eq!(bar.get_grault()?, "barbaz");
        assert_eq!(bar.get_garply(), 234567890123456);
        Ok(())
    })?;
    {
        let mut groups = root.get_groups();
        let mut baz = groups.init_baz();
        baz.set_corge(34567890);
        baz.set_grault("bazqux")?;
        baz.set_garply("quxquux")?;
    }
    root.with_reader(|r| -> Result<()> {
        let Which::Baz(baz) = r.get_groups().which()? else {
            panic!("baz is set")
        };
        assert_eq!(baz.get_corge(), 34567890);
        assert_eq!(baz.get_grault()?, "bazqux");
        assert_eq!(baz.get_garply()?, "quxquux");
        Ok(())
    })
}

/// Encoding.InterleavedGroups: two groups whose fields interleave in the
/// data and pointer sections; initialising one zeroes it and leaves the
/// other untouched.
#[test]
fn interleaved_groups() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_interleaved_groups::Builder<'_, _>>()?;
    {
        let mut g = root.get_group1();
        g.set_foo(12345678);
        g.set_bar(123456789012345);
        let mut corge = g.init_corge();
        corge.set_grault(987654321098765);
        corge.set_garply(12345);
        corge.set_plugh("plugh")?;
        corge.set_xyzzy("xyzzy")?;
        g.set_waldo("waldo")?;
    }
    {
        let mut g = root.get_group2();
        g.set_foo(23456789);
        g.set_bar(234567890123456);
        let mut corge = g.init_corge();
        corge.set_grault(876543210987654);
        corge.set_garply(23456);
        corge.set_plugh("hgulp")?;
        corge.set_xyzzy("yzzyx")?;
        g.set_waldo("odlaw")?;
    }
    root.with_reader(|r| -> Result<()> {
        use test_interleaved_groups::group1::Which;
        let g = r.get_group1();
        assert_eq!(g.get_foo(), 12345678);
        assert_eq!(g.get_bar(), 123456789012345);
        let Which::Corge(corge) = g.which()? else {
            panic!("corge is set")
        };
        assert_eq!(corge.get_grault(), 987654321098765);
        assert_eq!(corge.get_garply(), 12345);
        assert_eq!(corge.get_plugh()?, "plugh");
        assert_eq!(corge.get_xyzzy()?, "xyzzy");
        assert_eq!(g.get_waldo()?, "waldo");
        Ok(())
    })?;
    root.init_group1();
    root.with_reader(|r| -> Result<()> {
        use test_interleaved_groups::group1::Which;
        let g = r.get_group1();
        assert_eq!(g.get_foo(), 0);
        assert_eq!(g.get_bar(), 0);
        assert!(matches!(g.which()?, Which::Qux(0)));
        assert!(!g.has_waldo());
        use test_interleaved_groups::group2::Which as Which2;
        let g = r.get_group2();
        assert_eq!(g.get_foo(), 23456789);
        assert_eq!(g.get_bar(), 234567890123456);
        let Which2::Corge(corge) = g.which()? else {
            panic!("corge is set")
        };
        assert_eq!(corge.get_grault(), 876543210987654);
        assert_eq!(corge.get_garply(), 23456);
        assert_eq!(corge.get_plugh()?, "hgulp");
        assert_eq!(corge.get_xyzzy()?, "yzzyx");
        assert_eq!(g.get_waldo()?, "odlaw");
        Ok(())
    })
}

/// Encoding.UnionDefault: struct defaults that set union members (named
/// and unnamed unions) read as the schema says.
#[test]
fn union_default() -> Result<()> {
    let empty = [Word::ZERO];
    let segments = [&empty[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    let r = reader.get_root::<test_union_defaults::Reader<'_>>()?;
    {
        let f = r.get_s16s8s64s8_set()?;
        assert!(matches!(
            f.get_union0().which()?,
            test_union::union0::Which::U0f0s16(321)
        ));
        assert!(matches!(
            f.get_union1().which()?,
            test_union::union1::Which::U1f0s8(123)
        ));
        assert!(matches!(
            f.get_union2().which()?,
            test_union::union2::Which::U2f0s64(12345678901234567)
        ));
        assert!(matches!(
            f.get_union3().which()?,
            test_union::union3::Which::U3f0s8(55)
        ));
    }
    {
        let f = r.get_s0sps1s32_set()?;
        assert!(matches!(
            f.get_union0().which()?,
            test_union::union0::Which::U0f1s0
        ));
        let test_union::union1::Which::U1f0sp(text) = f.get_union1().which()? else {
            panic!("u1f0sp is set")
        };
        assert_eq!(text?, "foo");
        assert!(matches!(
            f.get_union2().which()?,
            test_union::union2::Which::U2f0s1(true)
        ));
        assert!(matches!(
            f.get_union3().which()?,
            test_union::union3::Which::U3f0s32(12345678)
        ));
    }
    {
        let f = r.get_unnamed1()?;
        assert!(matches!(f.which()?, test_unnamed_union::Which::Foo(123)));
        assert!(!f.has_before());
        assert!(!f.has_after());
    }
    {
        let f = r.get_unnamed2()?;
        assert!(matches!(f.which()?, test_unnamed_union::Which::Bar(321)));
        assert_eq!(f.get_before()?, "foo");
        assert_eq!(f.get_after()?, "bar");
    }
    Ok(())
}

/// `root.anyPointerField` as a reader.
fn any_reader<'r>(root: test_any_pointer::Reader<'r>) -> capnarena::PointerReader<'r> {
    root.get_any_pointer_field()
}

/// Encoding.ListUpgrade, reader side: a List(UInt16) reads as List(UInt8)
/// (each element's low byte), as a list of one-byte structs, and as
/// itself; not as List(UInt32); as a list of 32-bit structs each field
/// reads as its default, the elements being too small to hold it.
#[test]
fn list_upgrade_reader() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
    PrimitiveList::<u16>::set_slice(root.get_any_pointer_field(), &[12, 34, 56])?;
    root.with_reader(|r| -> Result<()> {
        let p = any_reader(r);
        assert_eq!(items(<PrimitiveList<u8> as Owned>::read(p)?), [12, 34, 56]);
        let l = <StructList<test_lists::struct8::Owned> as Owned>::read(p)?;
        assert_eq!(l.len(), 3);
        assert_eq!(
            [l.get(0).get_f(), l.get(1).get_f(), l.get(2).get_f()],
            [12, 34, 56]
        );
        assert!(<PrimitiveList<u32> as Owned>::read(p).is_err());
        let l = <StructList<test_lists::struct32::Owned> as Owned>::read(p)?;
        assert_eq!(l.len(), 3);
        assert_eq!(
            [l.get(0).get_f(), l.get(1).get_f(), l.get(2).get_f()],
            [0, 0, 0]
        );
        assert_eq!(items(<PrimitiveList<u16> as Owned>::read(p)?), [12, 34, 56]);
        Ok(())
    })
}

/// Encoding.ListUpgrade, builder side: getting a List(UInt16) as a list of
/// one-byte structs through the builder upgrades it in place; it still
/// reads as List(UInt16) and List(UInt8) afterwards.
#[test]
fn list_upgrade_builder() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
    PrimitiveList::<u16>::set_slice(root.get_any_pointer_field(), &[12, 34, 56])?;
    {
        let mut l =
            <StructList<test_lists::struct8::Owned> as Owned>::get(root.get_any_pointer_field())?;
        assert_eq!(l.len(), 3);
        assert_eq!(
            [l.get(0).get_f(), l.get(1).get_f(), l.get(2).get_f()],
            [12, 34, 56]
        );
    }
    let l = <PrimitiveList<u16> as Owned>::get(root.get_any_pointer_field())?;
    assert_eq!([l.get(0), l.get(1), l.get(2)], [12, 34, 56]);
    root.with_reader(|r| -> Result<()> {
        assert_eq!(
            items(<PrimitiveList<u8> as Owned>::read(any_reader(r))?),
            [12, 34, 56]
        );
        assert_eq!(
            items(<PrimitiveList<u16> as Owned>::read(any_reader(r))?),
            [12, 34, 56]
        );
        Ok(())
    })
}

/// Encoding.BitListDowngrade (reader side): a List(UInt16) does not read
/// as List(Bool), reads as a list of one-bit structs (bit 0 of each
/// element), and still as itself.
#[test]
fn bit_list_downgrade() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
    let values = [0x1201, 0x3400, 0x5601, 0x7801];
    PrimitiveList::<u16>::set_slice(root.get_any_pointer_field(), &values)?;
    root.with_reader(|r| -> Result<()> {
        let p = any_reader(r);
        assert!(<BoolList as Owned>::read(p).is_err());
        let l = <StructList<test_lists::struct1::Owned> as Owned>::read(p)?;
        assert_eq!(l.len(), 4);
        assert_eq!(
            [
                l.get(0).get_f(),
                l.get(1).get_f(),
                l.get(2).get_f(),
                l.get(3).get_f()
            ],
            [true, false, true, true]
        );
        assert_eq!(items(<PrimitiveList<u16> as Owned>::read(p)?), values);
        Ok(())
    })
}

/// Encoding.BitListDowngradeFromStruct (reader side): a list of
/// one-bit structs (inline composite) does not read as List(Bool), and
/// reads as a list of one-bit structs.
#[test]
fn bit_list_downgrade_from_struct() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
    {
        let mut l = <StructList<test_lists::struct1c::Owned> as Owned>::init(
            root.get_any_pointer_field(),
            4,
        )?;
        l.get(0).set_f(true);
        l.get(1).set_f(false);
        l.get(2).set_f(true);
        l.get(3).set_f(true);
    }
    root.with_reader(|r| -> Result<()> {
        let p = any_reader(r);
        assert!(<BoolList as Owned>::read(p).is_err());
        let l = <StructList<test_lists::struct1::Owned> as Owned>::read(p)?;
        assert_eq!(l.len(), 4);
        assert_eq!(
            [
                l.get(0).get_f(),
                l.get(1).get_f(),
                l.get(2).get_f(),
                l.get(3).get_f()
            ],
            [true, false, true, true]
        );
        Ok(())
    })
}

/// Encoding.BitListUpgrade: a List(Bool) does not read as a list of
/// structs, from a reader or a builder.
#[test]
fn bit_list_upgrade() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
    BoolList::set_slice(root.get_any_pointer_field(), &[true, false, true, true])?;
    root.with_reader(|r| {
        assert!(<StructList<test_lists::struct1::Owned> as Owned>::read(any_reader(r)).is_err())
    });
    assert!(
        <StructList<test_lists::struct1::Owned> as Owned>::get(root.get_any_pointer_field())
            .is_err()
    );
    Ok(())
}

/// Upgrades on the reader side (what encoding-test's struct upgrade tests
/// read back): a TestOldVersion reads as a TestNewVersion whose new fields
/// are their defaults; a TestNewVersion reads as a TestOldVersion.
#[test]
fn upgrade_struct_reader() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut old = msg.init_root::<test_old_version::Builder<'_, _>>()?;
        old.set_old1(123);
        old.set_old2("foo")?;
        let mut sub = old.init_old3()?;
        sub.set_old1(456);
        sub.set_old2("bar")?;
    }
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let new = reader.get_root::<test_new_version::Reader<'_>>()?;
    assert_eq!(new.get_old1(), 123);
    assert_eq!(new.get_old2()?, "foo");
    assert_eq!(new.get_new1(), 987);
    assert_eq!(new.get_new2()?, "baz");
    let sub = new.get_old3()?;
    assert_eq!(sub.get_old1(), 456);
    assert_eq!(sub.get_old2()?, "bar");
    assert_eq!(sub.get_new1(), 987);
    assert_eq!(sub.get_new2()?, "baz");

    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut new = msg.init_root::<test_new_version::Builder<'_, _>>()?;
        new.set_old1(234);
        new.set_old2("qux")?;
        new.set_new1(321);
        new.set_new2("quux")?;
    }
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let old = reader.get_root::<test_old_version::Reader<'_>>()?;
    assert_eq!(old.get_old1(), 234);
    assert_eq!(old.get_old2()?, "qux");
    Ok(())
}

/// Encoding.UpgradeStructInBuilder: getting a TestOldVersion as a
/// TestNewVersion through the builder moves it to a larger struct (the
/// old copy zeroed, the segment grown), keeps its values and gives the
/// new fields their defaults; going back and forth keeps every value and
/// allocates only what the new text needs (sizes as the reference
/// counts them).
#[test]
fn upgrade_struct_in_builder() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
    {
        let mut old = <test_old_version::Owned as Owned>::init(root.get_any_pointer_field(), 0)?;
        old.set_old1(123);
        old.set_old2("foo")?;
        let mut sub = old.init_old3()?;
        sub.set_old1(456);
        sub.set_old2("bar")?;
    }
    let size = msg.segment(0).expect("segment").len_words();
    let old_at = old_struct_words(&msg);
    let size2;
    {
        let mut root = msg.get_root::<test_any_pointer::Builder<'_, _>>()?;
        let mut new = <test_new_version::Owned as Owned>::get(root.get_any_pointer_field())?;
        // The builder getters of text fields copy a default in, as the
        // reference's do.
        assert_eq!(new.get_old1(), 123);
        assert_eq!(&*new.get_old2()?, b"foo");
        assert_eq!(new.get_new1(), 987);
        assert_eq!(&*new.get_new2()?, b"baz");
        let mut sub = new.get_old3()?;
        assert_eq!(sub.get_old1(), 456);
        assert_eq!(&*sub.get_old2()?, b"bar");
        assert_eq!(sub.get_new1(), 987);
        assert_eq!(&*sub.get_new2()?, b"baz");
    }
    {
        let seg = msg.segment(0).expect("segment");
        size2 = seg.len_words();
        assert!(size2 > size, "the structs moved: {size} -> {size2} words");
        // The old struct's words were zeroed when it moved.
        assert!(old_at.iter().all(|&i| seg.words()[i] == Word::ZERO));
    }
    {
        let mut root = msg.get_root::<test_any_pointer::Builder<'_, _>>()?;
        let mut new = <test_new_version::Owned as Owned>::get(root.get_any_pointer_field())?;
        new.set_old1(234);
        new.set_old2("qux")?;
        new.set_new1(321);
        new.set_new2("quux")?;
        let mut sub = new.get_old3()?;
        sub.set_old1(567);
        sub.set_old2("corge")?;
        sub.set_new1(654);
        sub.set_new2("grault")?;
    }
    // Four small texts set: four words more (the two defaults were copied
    // in above, as the reference counts "six" from before them).
    let size3 = msg.segment(0).expect("segment").len_words();
    assert_eq!(size3, size2 + 4);
    {
        let mut root = msg.get_root::<test_any_pointer::Builder<'_, _>>()?;
        let mut old = <test_old_version::Owned as Owned>::get(root.get_any_pointer_field())?;
        assert_eq!(old.get_old1(), 234);
        let mut sub = old.get_old3()?;
        assert_eq!(sub.get_old1(), 567);
        sub.set_old1(678);
        sub.set_old2("waldo")?;
        old.set_old1(345);
        old.set_old2("garply")?;
    }
    // Two small texts: two words more.
    let size4 = msg.segment(0).expect("segment").len_words();
    assert_eq!(size4, size3 + 2);
    {
        let mut root = msg.get_root::<test_any_pointer::Builder<'_, _>>()?;
        let new = <test_new_version::Owned as Owned>::get(root.get_any_pointer_field())?;
        new.with_reader(|r| -> Result<()> {
            assert_eq!(r.get_old1(), 345);
            assert_eq!(r.get_old2()?, "garply");
            assert_eq!(r.get_new1(), 321);
            assert_eq!(r.get_new2()?, "quux");
            let sub = r.get_old3()?;
            assert_eq!(sub.get_old1(), 678);
            assert_eq!(sub.get_old2()?, "waldo");
            assert_eq!(sub.get_new1(), 654);
            assert_eq!(sub.get_new2()?, "grault");
            Ok(())
        })?;
    }
    // Nothing new written: the structs were already large enough.
    assert_eq!(msg.segment(0).expect("segment").len_words(), size4);
    Ok(())
}

/// The indexes of the words of the TestOldVersion the any pointer of the
/// root points to (its data word and two pointers).
fn old_struct_words<A: Arena>(msg: &Message<A>) -> Vec<usize> {
    let words = msg.segment(0).expect("segment").words();
    // Word 0: root pointer; word 1: TestAnyPointer's one pointer, an
    // offset from the word after it to the struct.
    let p = u64::from_le_bytes(
        Word::slice_as_bytes(&words[1..2])
            .try_into()
            .expect("8 bytes"),
    );
    let offset = ((p as u32 as i32) >> 2) as isize;
    let start = (2 + offset) as usize;
    (start..start + 3).collect()
}

/// Encoding.UpgradeUnion: a TestOldUnionVersion with `b` set reads, through
/// the builder, as a TestNewUnionVersion with `b` set.
#[test]
fn upgrade_union() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root::<test_old_union_version::Builder<'_, _>>()?
        .set_b(123);
    let root = msg.get_root::<test_new_union_version::Builder<'_, _>>()?;
    root.with_reader(|r| {
        assert!(matches!(
            r.which(),
            Ok(test_new_union_version::Which::B(123))
        ))
    });
    Ok(())
}

/// The sub-struct checks of `checkTestMessage` (what TestConstants'
/// structConst holds).
fn check_sub_struct(sub: test_all_types::Reader<'_>) -> Result<()> {
    sub.get_void_field();
    assert!(sub.get_bool_field());
    assert_eq!(sub.get_int8_field(), -12);
    assert_eq!(sub.get_int16_field(), 3456);
    assert_eq!(sub.get_int32_field(), -78901234);
    assert_eq!(sub.get_int64_field(), 56789012345678);
    assert_eq!(sub.get_u_int8_field(), 90);
    assert_eq!(sub.get_u_int16_field(), 1234);
    assert_eq!(sub.get_u_int32_field(), 56789012);
    assert_eq!(sub.get_u_int64_field(), 345678901234567890);
    assert_eq!(sub.get_float32_field(), -1.25e-10);
    assert_eq!(sub.get_float64_field(), 345.0);
    assert_eq!(sub.get_text_field()?, "baz");
    assert_eq!(sub.get_data_field()?, b"qux");
    assert_eq!(sub.get_struct_field()?.get_text_field()?, "nested");
    assert_eq!(
        sub.get_struct_field()?
            .get_struct_field()?
            .get_text_field()?,
        "really nested"
    );
    assert_eq!(sub.get_enum_field()?, TestEnum::Baz);
    assert_eq!(sub.get_void_list()?.len(), 3);
    assert_eq!(
        items(sub.get_bool_list()?),
        [false, true, false, true, true]
    );
    assert_eq!(items(sub.get_int8_list()?), [12, -34, -0x80, 0x7f]);
    assert_eq!(items(sub.get_int16_list()?), [1234, -5678, -0x8000, 0x7fff]);
    assert_eq!(
        items(sub.get_int32_list()?),
        [12345678, -90123456, -0x7fffffff - 1, 0x7fffffff]
    );
    assert_eq!(
        items(sub.get_int64_list()?),
        [
            123456789012345,
            -678901234567890,
            -0x7fffffffffffffff - 1,
            0x7fffffffffffffff
        ]
    );
    assert_eq!(items(sub.get_u_int8_list()?), [12, 34, 0, 0xff]);
    assert_eq!(items(sub.get_u_int16_list()?), [1234, 5678, 0, 0xffff]);
    assert_eq!(
        items(sub.get_u_int32_list()?),
        [12345678, 90123456, 0, 0xffffffff]
    );
    assert_eq!(
        items(sub.get_u_int64_list()?),
        [123456789012345, 678901234567890, 0, 0xffffffffffffffff]
    );
    assert_eq!(
        items(sub.get_float32_list()?),
        [0.0, 1234567.0, 1e37, -1e37, 1e-37, -1e-37]
    );
    assert_eq!(
        items(sub.get_float64_list()?),
        [0.0, 123456789012345.0, 1e306, -1e306, 1e-306, -1e-306]
    );
    assert_eq!(texts(sub.get_text_list()?)?, ["quux", "corge", "grault"]);
    assert_eq!(
        texts(sub.get_data_list()?)?,
        [&b"garply"[..], b"waldo", b"fred"]
    );
    let list = sub.get_struct_list()?;
    assert_eq!(list.len(), 3);
    assert_eq!(list.get(0).get_text_field()?, "x structlist 1");
    assert_eq!(list.get(1).get_text_field()?, "x structlist 2");
    assert_eq!(list.get(2).get_text_field()?, "x structlist 3");
    assert_eq!(
        items(sub.get_enum_list()?)
            .into_iter()
            .collect::<core::result::Result<Vec<_>, _>>()?,
        [TestEnum::Qux, TestEnum::Bar, TestEnum::Grault]
    );
    Ok(())
}

/// Encoding.Constants: every constant of TestConstants.
#[test]
fn constants() -> Result<()> {
    use test_constants as c;
    let () = c::VOID_CONST;
    const { assert!(c::BOOL_CONST) };
    assert_eq!(c::INT8_CONST, -123);
    assert_eq!(c::INT16_CONST, -12345);
    assert_eq!(c::INT32_CONST, -12345678);
    assert_eq!(c::INT64_CONST, -123456789012345);
    assert_eq!(c::UINT8_CONST, 234);
    assert_eq!(c::UINT16_CONST, 45678);
    assert_eq!(c::UINT32_CONST, 3456789012);
    assert_eq!(c::UINT64_CONST, 12345678901234567890);
    assert_eq!(c::FLOAT32_CONST, 1234.5);
    assert_eq!(c::FLOAT64_CONST, -123e45);
    assert_eq!(c::TEXT_CONST, "foo");
    assert_eq!(c::DATA_CONST, b"bar");
    check_sub_struct(c::STRUCT_CONST.get()?)?;
    assert_eq!(c::ENUM_CONST, TestEnum::Corge);
    assert_eq!(c::VOID_LIST_CONST.get()?.len(), 6);
    assert_eq!(items(c::BOOL_LIST_CONST.get()?), [true, false, false, true]);
    assert_eq!(items(c::INT8_LIST_CONST.get()?), [111, -111]);
    assert_eq!(items(c::INT16_LIST_CONST.get()?), [11111, -11111]);
    assert_eq!(items(c::INT32_LIST_CONST.get()?), [111111111, -111111111]);
    assert_eq!(
        items(c::INT64_LIST_CONST.get()?),
        [1111111111111111111, -1111111111111111111]
    );
    assert_eq!(items(c::UINT8_LIST_CONST.get()?), [111, 222]);
    assert_eq!(items(c::UINT16_LIST_CONST.get()?), [33333, 44444]);
    assert_eq!(items(c::UINT32_LIST_CONST.get()?), [3333333333]);
    assert_eq!(items(c::UINT64_LIST_CONST.get()?), [11111111111111111111]);
    let l = items(c::FLOAT32_LIST_CONST.get()?);
    assert_eq!(l[..3], [5555.5, f32::INFINITY, f32::NEG_INFINITY]);
    assert!(l.len() == 4 && l[3].is_nan());
    let l = items(c::FLOAT64_LIST_CONST.get()?);
    assert_eq!(l[..3], [7777.75, f64::INFINITY, f64::NEG_INFINITY]);
    assert!(l.len() == 4 && l[3].is_nan());
    assert_eq!(
        texts(c::TEXT_LIST_CONST.get()?)?,
        ["plugh", "xyzzy", "thud"]
    );
    assert_eq!(
        texts(c::DATA_LIST_CONST.get()?)?,
        [&b"oops"[..], b"exhausted", b"rfc3092"]
    );
    let l = c::STRUCT_LIST_CONST.get()?;
    assert_eq!(l.len(), 3);
    assert_eq!(l.get(0).get_text_field()?, "structlist 1");
    assert_eq!(l.get(1).get_text_field()?, "structlist 2");
    assert_eq!(l.get(2).get_text_field()?, "structlist 3");
    assert_eq!(
        items(c::ENUM_LIST_CONST.get()?)
            .into_iter()
            .collect::<core::result::Result<Vec<_>, _>>()?,
        [TestEnum::Foo, TestEnum::Garply]
    );
    Ok(())
}

/// Encoding.GlobalConstants: file-level constants, one derived from
/// another.
#[test]
fn global_constants() -> Result<()> {
    assert_eq!(test_capnp::GLOBAL_INT, 12345);
    assert_eq!(test_capnp::GLOBAL_TEXT, "foobar");
    assert_eq!(test_capnp::GLOBAL_STRUCT.get()?.get_int32_field(), 54321);
    let r = test_capnp::DERIVED_CONSTANT.get()?;
    assert_eq!(r.get_u_int32_field(), 12345);
    assert_eq!(r.get_text_field()?, "foo");
    assert_eq!(
        texts(r.get_struct_field()?.get_text_list()?)?,
        ["quux", "corge", "grault"]
    );
    assert_eq!(items(r.get_int16_list()?), [11111, -11111]);
    let l = r.get_struct_list()?;
    assert_eq!(l.len(), 3);
    assert_eq!(l.get(0).get_text_field()?, "structlist 1");
    assert_eq!(l.get(1).get_text_field()?, "structlist 2");
    assert_eq!(l.get(2).get_text_field()?, "structlist 3");
    Ok(())
}

/// Encoding.Embeds: `embed` of testdata/packed, short.txt and binary: the
/// packed bytes unpack to the test message, the text is the message's
/// `Debug`, the struct is the test message.
#[test]
fn embeds() -> Result<()> {
    check_framed(&unpacked(test_capnp::EMBEDDED_DATA)?)?;
    let mut msg = Message::new(SingleSegmentArena::new());
    build_test_message(&mut msg)?;
    let root = msg.get_root::<test_all_types::Builder<'_, _>>()?;
    assert_eq!(format!("{root:?}\n"), test_capnp::EMBEDDED_TEXT);
    check_test_message!(test_capnp::EMBEDDED_STRUCT.get()?);
    Ok(())
}

/// Encoding.WholeFloatDefault: float defaults and constants written as
/// whole numbers.
#[test]
fn whole_float_default() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let root = msg.init_root::<test_whole_float_default::Builder<'_, _>>()?;
    assert_eq!(root.get_field(), 123.0);
    assert_eq!(root.get_big_field(), 2e30);
    assert_eq!(test_whole_float_default::CONSTANT, 456.0);
    assert_eq!(test_whole_float_default::BIG_CONSTANT, 4e30);
    Ok(())
}

/// Encoding.DefaultFloatPlusNan: NaN set over a non-zero float default
/// reads back as NaN.
#[test]
fn default_float_plus_nan() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_defaults::Builder<'_, _>>()?;
    root.set_float32_field(f32::NAN);
    root.set_float64_field(f64::NAN);
    assert!(root.get_float32_field().is_nan());
    assert!(root.get_float64_field().is_nan());
    Ok(())
}

/// Encoding.Has: pointer fields are unset in a new struct and set after
/// the test message is built, seen from the builder and its reader.
#[test]
fn has() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_all_types::Builder<'_, _>>()?;
    let has = |b: &test_all_types::Builder<'_, SingleSegmentArena>| {
        let own = [
            b.has_text_field(),
            b.has_data_field(),
            b.has_struct_field(),
            b.has_int32_list(),
        ];
        let read = b.with_reader(|r| {
            [
                r.has_text_field(),
                r.has_data_field(),
                r.has_struct_field(),
                r.has_int32_list(),
            ]
        });
        (own, read)
    };
    assert_eq!(has(&root), ([false; 4], [false; 4]));
    init_test_message!(root);
    assert_eq!(has(&root), ([true; 4], [true; 4]));
    Ok(())
}

/// Encoding.StructSetters: the test message copied as a root, into a
/// struct field and into an any pointer keeps every value.
#[test]
fn struct_setters() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build_test_message(&mut msg)?;
    let root = msg.get_root::<test_all_types::Builder<'_, _>>()?;
    root.with_reader(|r| -> Result<()> {
        let mut m2 = Message::new(SingleSegmentArena::new());
        m2.set_root(&r.as_struct_reader())?;
        m2.get_root::<test_all_types::Builder<'_, _>>()?
            .with_reader(|r2| -> Result<()> {
                check_test_message!(r2);
                Ok(())
            })?;

        let mut m2 = Message::new(SingleSegmentArena::new());
        let mut root2 = m2.init_root::<test_all_types::Builder<'_, _>>()?;
        root2.set_struct_field(r)?;
        root2.with_reader(|r2| -> Result<()> {
            check_test_message!(r2.get_struct_field()?);
            Ok(())
        })?;

        let mut m2 = Message::new(SingleSegmentArena::new());
        let mut root2 = m2.init_root::<test_any_pointer::Builder<'_, _>>()?;
        <test_all_types::Owned as Owned>::set(root2.get_any_pointer_field(), r)?;
        root2.with_reader(|r2| -> Result<()> {
            check_test_message!(<test_all_types::Owned as Owned>::read(any_reader(r2))?);
            Ok(())
        })
    })
}

/// Encoding.OneBitStructSetters: an element of a list of one-bit structs
/// copied as a root keeps its bit.
#[test]
fn one_bit_struct_setters() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_lists::Builder<'_, _>>()?;
    let bits = [true, true, false, true, true, false, true, false];
    {
        let mut list = root.init_list1(8)?;
        for (i, &bit) in bits.iter().enumerate() {
            list.get(i as u32).set_f(bit);
        }
    }
    root.with_reader(|r| -> Result<()> {
        let list = r.get_list1()?;
        for i in [2u32, 6] {
            let mut m2 = Message::new(SingleSegmentArena::new());
            m2.set_root(&list.get(i).as_struct_reader())?;
            let got = m2
                .get_root::<test_lists::struct1::Builder<'_, _>>()?
                .get_f();
            assert_eq!(got, bits[i as usize], "element {i}");
        }
        Ok(())
    })
}

/// Encoding.ZeroOldObject: initialising the root again zeroes the old
/// one, its sub-struct and its struct list (they read as all zero).
#[test]
fn zero_old_object() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build_test_message(&mut msg)?;
    let before = msg.segment(0).expect("segment").words().to_vec();
    msg.init_root::<test_all_types::Builder<'_, _>>()?;
    // Read the old objects where they were: the old root pointer's
    // target, in the segment as it is now.
    let now = msg.segment(0).expect("segment").words().to_vec();
    let mut old = now.clone();
    old[0] = before[0];
    let segments = [&old[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    let old_root = reader.get_root::<test_all_types::Reader<'_>>()?;
    check_all_zero(old_root)?;
    // Its sub-objects are zeroed with it: its pointers are null now.
    assert!(!old_root.has_struct_field() && !old_root.has_struct_list());
    // The words the old sub-struct and struct list held are zero too: of
    // the words the old message used, only the new root's are set.
    let new_root_words = 1 + 6 + 20;
    let set = now.iter().filter(|w| **w != Word::ZERO).count();
    assert!(set <= new_root_words, "{set} words still set");
    Ok(())
}

/// Encoding.SmallStructLists: TestListDefaults.lists built element by
/// element lays out exactly as the default value the reference compiled
/// (copied into a message by the builder's getter).
#[test]
fn small_struct_lists() -> Result<()> {
    let mut built = Message::new(SingleSegmentArena::new());
    {
        let mut root = built.init_root::<test_list_defaults::Builder<'_, _>>()?;
        let sl = root.init_lists()?;
        sl.with_reader(|r| -> Result<()> {
            assert_eq!(r.get_list0()?.len(), 0);
            assert_eq!(r.get_list1()?.len(), 0);
            assert_eq!(r.get_list8()?.len(), 0);
            assert_eq!(r.get_list16()?.len(), 0);
            assert_eq!(r.get_list32()?.len(), 0);
            assert_eq!(r.get_list64()?.len(), 0);
            assert_eq!(r.get_list_p()?.len(), 0);
            assert_eq!(r.get_int32_list_list()?.len(), 0);
            assert_eq!(r.get_text_list_list()?.len(), 0);
            assert_eq!(r.get_struct_list_list()?.len(), 0);
            Ok(())
        })?;
    }
    let mut built = Message::new(SingleSegmentArena::new());
    {
        let mut root = built.init_root::<test_list_defaults::Builder<'_, _>>()?;
        init_list_defaults(&mut root)?;
    }
    let mut defaulted = Message::new(SingleSegmentArena::new());
    defaulted
        .init_root::<test_list_defaults::Builder<'_, _>>()?
        .get_lists()?;
    assert_eq!(
        built.segment(0).expect("segment").as_bytes(),
        defaulted.segment(0).expect("segment").as_bytes()
    );
    Ok(())
}

/// testdata/annotated-json.binary (a TestJsonAnnotations of
/// compat/json-test.capnp, the binary twin of testdata/annotated.json):
/// every value, groups, unions and the JSON value tree included.
#[test]
fn testdata_annotated_json() -> Result<()> {
    use capnarena_conformance::capnproto::c_src_capnp_compat_json_capnp::value;
    use capnarena_conformance::capnproto::c_src_capnp_compat_json_test_capnp::{
        TestJsonAnnotatedEnum as E, test_json_annotations as t, test_json_annotations3 as t3,
    };
    let words = words_from_bytes(&testdata("annotated-json.binary"))?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let r = reader.get_root::<t::Reader<'_>>()?;
    assert_eq!(r.get_some_field()?, "foo");
    let g = r.get_a_group();
    assert_eq!(g.get_flat_foo(), 123);
    assert_eq!(g.get_flat_bar()?, "abc");
    assert!(g.get_flat_baz().get_hello());
    assert_eq!(g.get_double_flat().get_flat_qux()?, "cba");
    let g = r.get_prefixed_group();
    assert_eq!(
        g.get_foo()?,
        "this is a long string in order to force multi-line pretty printing"
    );
    assert_eq!(g.get_bar(), 321);
    assert!(g.get_baz().get_hello());
    assert_eq!(g.get_more_prefix().get_qux()?, "fed");
    let t::a_union::Which::Bar(bar) = r.get_a_union().which()? else {
        panic!("aUnion.bar is set")
    };
    assert_eq!(bar.get_bar_member(), 789);
    assert_eq!(bar.get_multi_member()?, "ghi");
    assert_eq!(r.get_dependency()?.get_foo()?, "corge");
    assert_eq!(r.get_simple_group().get_grault()?, "garply");
    assert_eq!(
        items(r.get_enums()?)
            .into_iter()
            .collect::<core::result::Result<Vec<_>, _>>()?,
        [E::Qux, E::Bar, E::Foo, E::Baz]
    );
    let value::Which::Array(array) = r.get_inner_json()?.which()? else {
        panic!("innerJson is an array")
    };
    let array = array?;
    assert_eq!(array.len(), 3);
    assert!(matches!(array.get(0).which()?, value::Which::Number(123.0)));
    let value::Which::String(s) = array.get(1).which()? else {
        panic!("a string")
    };
    assert_eq!(s?, "hello");
    let value::Which::Object(fields) = array.get(2).which()? else {
        panic!("an object")
    };
    let fields = fields?;
    assert_eq!(fields.len(), 1);
    assert_eq!(fields.get(0).get_name()?, "object");
    assert!(matches!(
        fields.get(0).get_value()?.which()?,
        value::Which::Boolean(true)
    ));
    assert!(!r.has_custom_field_handler());
    assert_eq!(r.get_test_base64()?, b"fred");
    assert_eq!(r.get_test_hex()?, b"plugh");
    assert!(matches!(
        r.get_b_union().which()?,
        t::b_union::Which::Bar(678)
    ));
    let t3::Which::Bar(flat) = r.get_external_union()?.which()? else {
        panic!("externalUnion.bar is set")
    };
    assert_eq!(flat?.get_value()?, "cba");
    assert!(matches!(
        r.get_union_with_void().which()?,
        t::union_with_void::Which::VoidValue
    ));
    Ok(())
}

/// Encoding.NestedTypes: enums nested in a struct and in a struct nested
/// in it, as field types and defaults.
#[test]
fn nested_types() -> Result<()> {
    use test_nested_types::{NestedEnum, nested_struct};
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_nested_types::Builder<'_, _>>()?;
    root.with_reader(|r| -> Result<()> {
        assert_eq!(r.get_outer_nested_enum()?, NestedEnum::Bar);
        assert_eq!(r.get_inner_nested_enum()?, nested_struct::NestedEnum::Quux);
        let nested = r.get_nested_struct()?;
        assert_eq!(nested.get_outer_nested_enum()?, NestedEnum::Bar);
        assert_eq!(
            nested.get_inner_nested_enum()?,
            nested_struct::NestedEnum::Quux
        );
        Ok(())
    })?;
    root.set_inner_nested_enum(nested_struct::NestedEnum::Baz);
    root.with_reader(|r| -> Result<()> {
        assert_eq!(r.get_inner_nested_enum()?, nested_struct::NestedEnum::Baz);
        Ok(())
    })
}

/// Encoding.Using: fields typed through `using` aliases.
#[test]
fn using() -> Result<()> {
    use test_nested_types::{NestedEnum, nested_struct};
    let mut msg = Message::new(SingleSegmentArena::new());
    let root = msg.init_root::<test_capnp::test_using::Builder<'_, _>>()?;
    root.with_reader(|r| -> Result<()> {
        assert_eq!(r.get_outer_nested_enum()?, NestedEnum::Bar);
        assert_eq!(r.get_inner_nested_enum()?, nested_struct::NestedEnum::Quux);
        Ok(())
    })
}

/// Encoding.Imports: structs of test-import.capnp and test-import2.capnp
/// whose fields are types of test.capnp and of schema.capnp (generated in
/// other modules of this crate), built and read back; TestImport2.bar
/// holds the schema node of TestAllTypes, taken from the request
/// capnarena-compiler writes for test.capnp and read through the code
/// generated for schema.capnp.
#[test]
fn imports() -> Result<()> {
    use capnarena_conformance::capnproto::c_src_capnp_schema_capnp::code_generator_request;
    use capnarena_conformance::capnproto::c_src_capnp_test_import_capnp::test_import;
    use capnarena_conformance::capnproto::c_src_capnp_test_import2_capnp::test_import2;

    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_import::Builder<'_, _>>()?;
    let mut field = root.init_field()?;
    init_test_message!(field);
    root.with_reader(|r| -> Result<()> {
        check_test_message!(r.get_field()?);
        Ok(())
    })?;

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/capnproto/c++/src");
    let request = capnarena_compiler::Compiler::new()
        .working_dir(&dir)
        .no_standard_import()
        .import_path(".")
        .file("capnp/test.capnp")
        .compile()
        .expect("test.capnp compiles");
    let words = words_from_bytes(&request)?;
    let request = MessageReader::from_words(&words, ReaderOptions::default())?;
    let node = request
        .get_root::<code_generator_request::Reader<'_>>()?
        .get_nodes()?
        .iter()
        .find(|n| n.get_id() == test_all_types::TYPE_ID)
        .expect("TestAllTypes in the request");

    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_import2::Builder<'_, _>>()?;
    let mut foo = root.init_foo()?;
    init_test_message!(foo);
    root.set_bar(node)?;
    let mut baz = root.init_baz()?;
    let mut field = baz.init_field()?;
    init_test_message!(field);
    root.with_reader(|r| -> Result<()> {
        check_test_message!(r.get_foo()?);
        let bar = r.get_bar()?;
        assert_eq!(bar.get_id(), test_all_types::TYPE_ID);
        assert_eq!(bar.get_display_name()?, "capnp/test.capnp:TestAllTypes");
        check_test_message!(r.get_baz()?.get_field()?);
        Ok(())
    })
}

/// Encoding.ListSetters (the copying half; capnarena has no orphans):
/// every list of TestListDefaults.lists copied from one message into
/// another, nested lists element by element, reads back in full.
#[test]
fn list_setters() -> Result<()> {
    let mut src_msg = Message::new(SingleSegmentArena::new());
    init_list_defaults(&mut src_msg.init_root::<test_list_defaults::Builder<'_, _>>()?)?;
    let words = words_from_bytes(src_msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let src = reader
        .get_root::<test_list_defaults::Reader<'_>>()?
        .get_lists()?;

    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut root = msg.init_root::<test_list_defaults::Builder<'_, _>>()?;
        let mut dst = root.init_lists()?;
        dst.set_list0(src.get_list0()?)?;
        dst.set_list1(src.get_list1()?)?;
        dst.set_list8(src.get_list8()?)?;
        dst.set_list16(src.get_list16()?)?;
        dst.set_list32(src.get_list32()?)?;
        dst.set_list64(src.get_list64()?)?;
        dst.set_list_p(src.get_list_p()?)?;
        {
            let from = src.get_int32_list_list()?;
            let mut to = dst.init_int32_list_list(3)?;
            for i in 0..3 {
                to.set(i, from.get(i)?)?;
            }
        }
        {
            let from = src.get_text_list_list()?;
            let mut to = dst.init_text_list_list(3)?;
            for i in 0..3 {
                to.set(i, from.get(i)?)?;
            }
        }
        {
            let from = src.get_struct_list_list()?;
            let mut to = dst.init_struct_list_list(2)?;
            for i in 0..2 {
                to.set(i, from.get(i)?)?;
            }
        }
    }
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    check_lists(
        reader
            .get_root::<test_list_defaults::Reader<'_>>()?
            .get_lists()?,
    )
}

/// Encoding.SetListToEmpty: each list field of TestAllTypes set from an
/// empty list (the reader of an unset field) is set, and empty.
#[test]
fn set_list_to_empty() -> Result<()> {
    let empty_words = [Word::ZERO];
    let segments = [&empty_words[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    let e = reader.get_root::<test_all_types::Reader<'_>>()?;
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_all_types::Builder<'_, _>>()?;
    root.set_void_list(e.get_void_list()?)?;
    root.set_bool_list(e.get_bool_list()?)?;
    root.set_u_int8_list(e.get_u_int8_list()?)?;
    root.set_u_int16_list(e.get_u_int16_list()?)?;
    root.set_u_int32_list(e.get_u_int32_list()?)?;
    root.set_u_int64_list(e.get_u_int64_list()?)?;
    root.set_int8_list(e.get_int8_list()?)?;
    root.set_int16_list(e.get_int16_list()?)?;
    root.set_int32_list(e.get_int32_list()?)?;
    root.set_int64_list(e.get_int64_list()?)?;
    root.set_float32_list(e.get_float32_list()?)?;
    root.set_float64_list(e.get_float64_list()?)?;
    root.set_text_list(e.get_text_list()?)?;
    root.set_data_list(e.get_data_list()?)?;
    root.set_struct_list(e.get_struct_list()?)?;
    root.with_reader(|r| -> Result<()> {
        let set = [
            r.has_void_list(),
            r.has_bool_list(),
            r.has_u_int8_list(),
            r.has_u_int16_list(),
            r.has_u_int32_list(),
            r.has_u_int64_list(),
            r.has_int8_list(),
            r.has_int16_list(),
            r.has_int32_list(),
            r.has_int64_list(),
            r.has_float32_list(),
            r.has_float64_list(),
            r.has_text_list(),
            r.has_data_list(),
            r.has_struct_list(),
        ];
        assert_eq!(set, [true; 15], "every list field is set");
        let lens = [
            r.get_void_list()?.len(),
            r.get_bool_list()?.len(),
            r.get_u_int8_list()?.len(),
            r.get_u_int16_list()?.len(),
            r.get_u_int32_list()?.len(),
            r.get_u_int64_list()?.len(),
            r.get_int8_list()?.len(),
            r.get_int16_list()?.len(),
            r.get_int32_list()?.len(),
            r.get_int64_list()?.len(),
            r.get_float32_list()?.len(),
            r.get_float64_list()?.len(),
            r.get_text_list()?.len(),
            r.get_data_list()?.len(),
            r.get_struct_list()?.len(),
        ];
        assert_eq!(lens, [0; 15]);
        Ok(())
    })
}

/// Encoding.Generics: generic structs bound to TestAllTypes (directly, in
/// nested generics, through a wrapper) and unbound (their `foo` an any
/// pointer), each holding the test message.
#[test]
fn generics() -> Result<()> {
    use capnarena::typed::AnyPointer;
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_use_generics::Builder<'_, _>>()?;
    {
        let mut basic = root.init_basic()?;
        let mut foo = basic.init_foo()?;
        init_test_message!(foo);
    }
    {
        let mut inner = root.init_inner()?;
        let mut foo = inner.init_foo()?;
        init_test_message!(foo);
    }
    {
        let mut inner2 = root.init_inner2()?;
        inner2.set_baz("foo")?;
        let mut bound = inner2.init_inner_bound()?;
        let mut foo = bound.init_foo()?;
        init_test_message!(foo);
    }
    {
        let mut inner2 = root.get_inner2()?;
        let mut unbound = inner2.init_inner_unbound()?;
        let mut foo = <test_all_types::Owned as Owned>::init(unbound.get_foo()?, 0)?;
        init_test_message!(foo);
    }
    {
        let mut unspecified = root.init_unspecified()?;
        let mut foo = <test_all_types::Owned as Owned>::init(unspecified.get_foo()?, 0)?;
        init_test_message!(foo);
    }
    {
        let mut wrapper = root.init_wrapper()?;
        let mut value = wrapper.init_value()?;
        let mut foo = value.init_foo()?;
        init_test_message!(foo);
    }
    root.with_reader(|r| -> Result<()> {
        check_test_message!(r.get_basic()?.get_foo()?);
        check_test_message!(r.get_inner()?.get_foo()?);
        assert_eq!(r.get_inner2()?.get_baz()?, "foo");
        check_test_message!(r.get_inner2()?.get_inner_bound()?.get_foo()?);
        check_test_message!(<test_all_types::Owned as Owned>::read(
            r.get_inner2()?.get_inner_unbound()?.get_foo()?
        )?);
        check_test_message!(<test_all_types::Owned as Owned>::read(
            r.get_unspecified()?.get_foo()?
        )?);
        check_test_message!(r.get_wrapper()?.get_value()?.get_foo()?);
        // `basic` (pointer 0) read unbound (the reference's `asGeneric<>()`):
        // foo is an any pointer holding the test message.
        let unbound = <test_generics::Owned<AnyPointer, AnyPointer> as Owned>::read(
            r.as_struct_reader().pointer(0),
        )?;
        check_test_message!(<test_all_types::Owned as Owned>::read(unbound.get_foo()?)?);
        Ok(())
    })
}

/// Encoding.GenericDefaults: defaults of generic struct fields, bound and
/// nested.
#[test]
fn generic_defaults() -> Result<()> {
    let empty = [Word::ZERO];
    let segments = [&empty[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    let r = reader.get_root::<test_use_generics::Reader<'_>>()?;
    assert_eq!(r.get_default()?.get_foo()?.get_int16_field(), 123);
    assert_eq!(r.get_default_inner()?.get_foo()?.get_int16_field(), 123);
    assert_eq!(r.get_default_inner()?.get_bar()?, "text");
    assert_eq!(
        r.get_default_user()?
            .get_basic()?
            .get_foo()?
            .get_int16_field(),
        123
    );
    let w = r.get_default_wrapper()?.get_value()?;
    assert_eq!(w.get_foo()?, "text");
    assert_eq!(w.get_rev()?.get_foo()?.get_int16_field(), 321);
    let w = r.get_default_wrapper2()?.get_value()?.get_value()?;
    assert_eq!(w.get_foo()?, "text");
    assert_eq!(w.get_rev()?.get_foo()?.get_int16_field(), 321);
    Ok(())
}

/// Encoding.AnyPointerConstants: a constant whose fields are any pointers
/// (of any kind, any struct, any list) holding a struct and a list.
#[test]
fn any_pointer_constants() -> Result<()> {
    let r = test_capnp::ANY_POINTER_CONSTANTS.get()?;
    let read_struct = |p| <test_all_types::Owned as Owned>::read(p);
    assert_eq!(
        read_struct(r.get_any_kind_as_struct())?.get_text_field()?,
        "baz"
    );
    assert_eq!(
        read_struct(r.get_any_struct_as_struct())?.get_text_field()?,
        "baz"
    );
    let read_list = |p| <PrimitiveList<i32> as Owned>::read(p);
    assert_eq!(read_list(r.get_any_kind_as_list())?.get(0), 111111111);
    assert_eq!(read_list(r.get_any_list_as_list())?.get(0), 111111111);
    Ok(())
}

/// The words of segment 0 after the root pointer (the reference's
/// `root.totalSize()` for a message holding only the root and what it
/// points to).
fn words_after_root<A: Arena>(msg: &Message<A>) -> u32 {
    msg.segment(0).expect("segment").len_words() - 1
}

/// Encoding.HasEmptyStruct / HasEmptyList / HasEmptyStructList: an empty
/// struct, an empty List(Int32) and an empty list of structs set in an
/// any pointer make it set; the first two take no words, the last its tag
/// word.
#[test]
fn has_empty() -> Result<()> {
    for (what, words) in [("struct", 1), ("list", 1), ("struct list", 2)] {
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
        assert!(!root.has_any_pointer_field());
        assert!(!root.with_reader(|r| r.has_any_pointer_field()));
        match what {
            "struct" => {
                <test_capnp::test_empty_struct::Owned as Owned>::init(
                    root.get_any_pointer_field(),
                    0,
                )?;
            }
            "list" => {
                <PrimitiveList<i32> as Owned>::init(root.get_any_pointer_field(), 0)?;
            }
            _ => {
                <StructList<test_all_types::Owned> as Owned>::init(
                    root.get_any_pointer_field(),
                    0,
                )?;
            }
        }
        assert!(root.has_any_pointer_field(), "{what}");
        assert!(root.with_reader(|r| r.has_any_pointer_field()), "{what}");
        assert_eq!(words_after_root(&msg), words, "{what}");
    }
    Ok(())
}

/// Encoding.VoidListAmplification: a List(Void) of 2^28 elements takes a
/// few words; reading it as a list of TestAllTypes is refused, and so is
/// copying it (each element is charged against the traversal limit).
#[test]
fn void_list_amplification() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<test_any_pointer::Builder<'_, _>>()?;
    <capnarena::typed::VoidList as Owned>::init(root.get_any_pointer_field(), 1 << 28)?;
    assert_eq!(msg.segment_count(), 1);
    assert!(msg.segment(0).expect("segment").len_words() < 16);
    let words = words_from_bytes(msg.framed_bytes()?)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let root = reader.get_root::<test_any_pointer::Reader<'_>>()?;
    let as_structs =
        <StructList<test_all_types::Owned> as Owned>::read(root.get_any_pointer_field());
    assert!(as_structs.is_err(), "2^28 void elements read as structs");
    let mut copy = Message::new(SingleSegmentArena::new());
    assert!(copy.set_root(&root.as_struct_reader()).is_err());
    Ok(())
}

/// Encoding.DefaultInitializationMultiSegment: a TestDefaults' defaults
/// copied in by its builder getters, every object in a segment of its
/// own, read back as the test message.
#[test]
fn default_initialization_multi_segment() -> Result<()> {
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(1)
        .with_policy(GrowthPolicy::FixedSize(1));
    let mut msg = Message::new(arena);
    {
        let mut b = msg.init_root::<test_defaults::Builder<'_, _>>()?;
        b.get_text_field()?;
        b.get_data_field()?;
        b.get_struct_field()?;
        b.get_void_list()?;
        b.get_bool_list()?;
        b.get_int8_list()?;
        b.get_int16_list()?;
        b.get_int32_list()?;
        b.get_int64_list()?;
        b.get_u_int8_list()?;
        b.get_u_int16_list()?;
        b.get_u_int32_list()?;
        b.get_u_int64_list()?;
        b.get_float32_list()?;
        b.get_float64_list()?;
        b.get_text_list()?;
        b.get_data_list()?;
        b.get_struct_list()?;
        b.get_enum_list()?;
    }
    assert!(msg.segment_count() > 20, "{} segments", msg.segment_count());
    let mut framed = Vec::new();
    msg.append_to(&mut framed);
    let words = words_from_bytes(&framed)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let r = reader.get_root::<test_defaults::Reader<'_>>()?;
    assert!(r.has_struct_field() && r.has_text_list() && r.has_enum_list());
    check_test_message!(r);
    Ok(())
}
