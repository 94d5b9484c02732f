//! Builders for the messages of `tests/vectors/NAME.txt`, through the
//! crate's public builder API, with the field offsets of
//! `tests/vectors/all_types.layout.capnp`.
//!
//! `full`, `scalars` and `lists` are transcribed by hand from their `.txt`;
//! `log` (300 entries) is parsed from `log.txt` by the shared parser in
//! `tests/common/logtxt.rs`.

use capnarena::{Arena, ElementSize, Message, Result, StructBuilder, StructSize};

use super::logtxt::{Entry, parse_log};

/// `AllTypes`: 56 bytes, 24 pointers.
pub const ALL_TYPES: StructSize = StructSize::new(7, 24);
/// `Labeled`: 8 bytes, 2 pointers.
pub const LABELED: StructSize = StructSize::new(1, 2);
/// `Point`: 8 bytes, no pointers.
pub const POINT: StructSize = StructSize::new(1, 0);
/// `Log`: no data, 1 pointer.
pub const LOG: StructSize = StructSize::new(0, 1);
/// `Entry`: 16 bytes, 2 pointers.
pub const ENTRY: StructSize = StructSize::new(2, 2);

/// `AllTypes` field indexes: data fields in units of their own size
/// (bit offset / bit width), bools by bit, pointers by pointer index.
pub mod all_types {
    pub const BOOL_FIELD: usize = 0; // bits [0, 1)
    pub const INT8_FIELD: usize = 1; // bits [8, 16)
    pub const INT16_FIELD: usize = 1; // bits [16, 32)
    pub const INT32_FIELD: usize = 1; // bits [32, 64)
    pub const INT64_FIELD: usize = 1; // bits [64, 128)
    pub const UINT8_FIELD: usize = 16; // bits [128, 136)
    pub const UINT16_FIELD: usize = 9; // bits [144, 160)
    pub const UINT32_FIELD: usize = 5; // bits [160, 192)
    pub const UINT64_FIELD: usize = 3; // bits [192, 256)
    pub const FLOAT32_FIELD: usize = 8; // bits [256, 288)
    pub const FLOAT64_FIELD: usize = 5; // bits [320, 384)
    pub const ENUM_FIELD: usize = 18; // bits [288, 304)
    pub const CHOICE_TAG: usize = 19; // bits [304, 320)
    pub const CHOICE_COUNT: usize = 12; // bits [384, 416)
    pub const GROUP_A: usize = 26; // bits [416, 432)

    pub const TEXT_FIELD: usize = 0;
    pub const DATA_FIELD: usize = 1;
    pub const STRUCT_FIELD: usize = 2;
    pub const VOID_LIST: usize = 3;
    pub const BOOL_LIST: usize = 4;
    pub const INT8_LIST: usize = 5;
    pub const INT16_LIST: usize = 6;
    pub const INT32_LIST: usize = 7;
    pub const INT64_LIST: usize = 8;
    pub const UINT8_LIST: usize = 9;
    pub const UINT16_LIST: usize = 10;
    pub const UINT32_LIST: usize = 11;
    pub const UINT64_LIST: usize = 12;
    pub const FLOAT32_LIST: usize = 13;
    pub const FLOAT64_LIST: usize = 14;
    pub const TEXT_LIST: usize = 15;
    pub const DATA_LIST: usize = 16;
    pub const STRUCT_LIST: usize = 17;
    pub const ENUM_LIST: usize = 18;
    pub const LIST_OF_LISTS: usize = 19;
    pub const POINT_LIST: usize = 20;
    /// `choice.name` (tag 2) or `choice.point` (tag 3).
    pub const CHOICE_PTR: usize = 21;
    pub const GROUP_B: usize = 22;

    pub const CHOICE_COUNT_TAG: u16 = 1;
    pub const CHOICE_NAME_TAG: u16 = 2;
    pub const CHOICE_POINT_TAG: u16 = 3;
}

/// `Color` enumerants.
pub const RED: u16 = 0;
pub const GREEN: u16 = 1;
pub const BLUE: u16 = 2;

/// Builds the message named `name` (`full`, `scalars`, `lists`, `log`).
///
/// # Panics
/// On an unknown name.
pub fn build_named<A: Arena>(name: &str, msg: &mut Message<A>) -> Result<()> {
    match name {
        "full" => build_full(msg),
        "scalars" => build_scalars(msg),
        "lists" => build_lists(msg),
        "log" => build_log(msg),
        _ => panic!("no builder for vector {name:?}"),
    }
}

fn set_point<A: Arena + ?Sized>(p: &mut StructBuilder<'_, A>, x: i32, y: i32) {
    p.set::<i32>(0, x);
    p.set::<i32>(1, y);
}

/// `tests/vectors/full.txt`.
pub fn build_full<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    use all_types::*;
    let mut root = msg.init_root_struct(ALL_TYPES)?;
    // voidField = void: nothing to store.
    root.set_bool(BOOL_FIELD, true);
    root.set::<i8>(INT8_FIELD, -7);
    root.set::<i16>(INT16_FIELD, 1234);
    root.set::<i32>(INT32_FIELD, -123456);
    root.set::<i64>(INT64_FIELD, 1234567890123);
    root.set::<u8>(UINT8_FIELD, 200);
    root.set::<u16>(UINT16_FIELD, 40000);
    root.set::<u32>(UINT32_FIELD, 3000000000);
    root.set::<u64>(UINT64_FIELD, 12345678901234567890);
    root.set::<f32>(FLOAT32_FIELD, 1.25);
    root.set::<f64>(FLOAT64_FIELD, 6.02214076e23);
    root.set_text(TEXT_FIELD, "hello, capnarena")?;
    root.set_data(DATA_FIELD, b"\x00\x01\x02\xfe\xff")?;
    {
        // structField = ( int32Field = 42, textField = "nested",
        //   structField = ( uint8Field = 9, textList = ["deep"] ) )
        let mut nested = root.init_struct(STRUCT_FIELD, ALL_TYPES)?;
        nested.set::<i32>(INT32_FIELD, 42);
        nested.set_text(TEXT_FIELD, "nested")?;
        let mut deep = nested.init_struct(STRUCT_FIELD, ALL_TYPES)?;
        deep.set::<u8>(UINT8_FIELD, 9);
        deep.init_list(TEXT_LIST, ElementSize::Pointer, 1)?
            .set_text(0, "deep")?;
    }
    root.set::<u16>(ENUM_FIELD, GREEN);
    root.init_list(VOID_LIST, ElementSize::Void, 3)?;
    {
        let bits = [true, false, true, true, false, false, false, true, true];
        let mut l = root.init_list(BOOL_LIST, ElementSize::Bit, bits.len() as u32)?;
        for (i, b) in bits.into_iter().enumerate() {
            l.set_bool(i as u32, b);
        }
    }
    {
        let v: [i8; 5] = [-1, 0, 1, 127, -128];
        let mut l = root.init_list(INT8_LIST, ElementSize::Byte, v.len() as u32)?;
        for (i, x) in v.into_iter().enumerate() {
            l.set::<i8>(i as u32, x);
        }
    }
    {
        let mut l = root.init_list(INT16_LIST, ElementSize::TwoBytes, 2)?;
        l.set::<i16>(0, -300);
        l.set::<i16>(1, 300);
    }
    {
        let v: [i32; 5] = [1, -2, 3, -4, 5];
        let mut l = root.init_list(INT32_LIST, ElementSize::FourBytes, v.len() as u32)?;
        for (i, x) in v.into_iter().enumerate() {
            l.set::<i32>(i as u32, x);
        }
    }
    {
        let v: [i64; 3] = [i64::MAX, i64::MIN, 0];
        let mut l = root.init_list(INT64_LIST, ElementSize::EightBytes, v.len() as u32)?;
        for (i, x) in v.into_iter().enumerate() {
            l.set::<i64>(i as u32, x);
        }
    }
    {
        let v: [u8; 3] = [0, 1, 255];
        let mut l = root.init_list(UINT8_LIST, ElementSize::Byte, v.len() as u32)?;
        for (i, x) in v.into_iter().enumerate() {
            l.set::<u8>(i as u32, x);
        }
    }
    {
        let mut l = root.init_list(UINT16_LIST, ElementSize::TwoBytes, 2)?;
        l.set::<u16>(0, 65535);
        l.set::<u16>(1, 1);
    }
    {
        let mut l = root.init_list(UINT32_LIST, ElementSize::FourBytes, 2)?;
        l.set::<u32>(0, 4294967295);
        l.set::<u32>(1, 7);
    }
    {
        let v: [u64; 3] = [u64::MAX, 0, 42];
        let mut l = root.init_list(UINT64_LIST, ElementSize::EightBytes, v.len() as u32)?;
        for (i, x) in v.into_iter().enumerate() {
            l.set::<u64>(i as u32, x);
        }
    }
    {
        let v: [f32; 3] = [0.5, -1.5, 1e10];
        let mut l = root.init_list(FLOAT32_LIST, ElementSize::FourBytes, v.len() as u32)?;
        for (i, x) in v.into_iter().enumerate() {
            l.set::<f32>(i as u32, x);
        }
    }
    {
        let mut l = root.init_list(FLOAT64_LIST, ElementSize::EightBytes, 2)?;
        l.set::<f64>(0, std::f64::consts::PI); // 3.141592653589793 in lists.txt
        l.set::<f64>(1, -0.0);
    }
    {
        let v = ["alpha", "", "gamma with spaces", "unicode \u{2713}"];
        let mut l = root.init_list(TEXT_LIST, ElementSize::Pointer, v.len() as u32)?;
        for (i, t) in v.into_iter().enumerate() {
            l.set_text(i as u32, t)?;
        }
    }
    {
        let v: [&[u8]; 3] = [b"", b"\x00", b"abc"];
        let mut l = root.init_list(DATA_LIST, ElementSize::Pointer, v.len() as u32)?;
        for (i, d) in v.into_iter().enumerate() {
            l.set_data(i as u32, d)?;
        }
    }
    {
        // [ (label = "first", point = (x = 1, y = 2), weight = 0.5),
        //   (label = "second", weight = -1.0),
        //   (point = (x = -3, y = 4)) ]
        let mut l = root.init_struct_list(STRUCT_LIST, 3, LABELED)?;
        {
            let mut e = l.get_struct(0);
            e.set_text(0, "first")?;
            set_point(&mut e.init_struct(1, POINT)?, 1, 2);
            e.set::<f64>(0, 0.5);
        }
        {
            let mut e = l.get_struct(1);
            e.set_text(0, "second")?;
            e.set::<f64>(0, -1.0);
        }
        set_point(&mut l.get_struct(2).init_struct(1, POINT)?, -3, 4);
    }
    {
        let v = [RED, GREEN, BLUE, RED];
        let mut l = root.init_list(ENUM_LIST, ElementSize::TwoBytes, v.len() as u32)?;
        for (i, x) in v.into_iter().enumerate() {
            l.set::<u16>(i as u32, x);
        }
    }
    {
        let v: [&[i32]; 4] = [&[1, 2, 3], &[], &[4], &[5, 6]];
        let mut l = root.init_list(LIST_OF_LISTS, ElementSize::Pointer, v.len() as u32)?;
        for (i, inner) in v.into_iter().enumerate() {
            let mut li = l.init_list(i as u32, ElementSize::FourBytes, inner.len() as u32)?;
            for (j, x) in inner.iter().enumerate() {
                li.set::<i32>(j as u32, *x);
            }
        }
    }
    {
        let v = [(1, -1), (2, -2), (i32::MAX, i32::MIN)];
        let mut l = root.init_struct_list(POINT_LIST, v.len() as u32, POINT)?;
        for (i, (x, y)) in v.into_iter().enumerate() {
            set_point(&mut l.get_struct(i as u32), x, y);
        }
    }
    root.set::<u16>(CHOICE_TAG, CHOICE_NAME_TAG);
    root.set_text(CHOICE_PTR, "union text")?;
    root.set::<u16>(GROUP_A, 7);
    root.set_text(GROUP_B, "group text")?;
    Ok(())
}

/// `tests/vectors/scalars.txt`.
pub fn build_scalars<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    use all_types::*;
    let mut root = msg.init_root_struct(ALL_TYPES)?;
    root.set_bool(BOOL_FIELD, true);
    root.set::<i8>(INT8_FIELD, i8::MIN);
    root.set::<i16>(INT16_FIELD, i16::MIN);
    root.set::<i32>(INT32_FIELD, i32::MIN);
    root.set::<i64>(INT64_FIELD, i64::MIN);
    root.set::<u8>(UINT8_FIELD, u8::MAX);
    root.set::<u16>(UINT16_FIELD, u16::MAX);
    root.set::<u32>(UINT32_FIELD, u32::MAX);
    root.set::<u64>(UINT64_FIELD, u64::MAX);
    root.set::<f32>(FLOAT32_FIELD, 3.5);
    root.set::<f64>(FLOAT64_FIELD, -2.25e300);
    root.set::<u16>(ENUM_FIELD, BLUE);
    root.set::<u16>(CHOICE_TAG, CHOICE_COUNT_TAG);
    root.set::<u32>(CHOICE_COUNT, 123456);
    root.set::<u16>(GROUP_A, 4660);
    root.set_text(GROUP_B, "grouped")?;
    Ok(())
}

/// `tests/vectors/lists.txt`.
pub fn build_lists<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    use all_types::*;
    let mut root = msg.init_root_struct(ALL_TYPES)?;
    root.init_list(VOID_LIST, ElementSize::Void, 0)?;
    {
        // 65 true, then false, then true.
        let mut l = root.init_list(BOOL_LIST, ElementSize::Bit, 67)?;
        for i in 0..67 {
            l.set_bool(i, i != 65);
        }
    }
    root.init_list(INT8_LIST, ElementSize::Byte, 0)?;
    {
        let mut l = root.init_list(TEXT_LIST, ElementSize::Pointer, 3)?;
        for i in 0..3 {
            l.set_text(i, "")?;
        }
    }
    root.init_list(DATA_LIST, ElementSize::Pointer, 0)?;
    root.init_struct_list(STRUCT_LIST, 4, LABELED)?;
    {
        let mut l = root.init_list(LIST_OF_LISTS, ElementSize::Pointer, 3)?;
        for i in 0..3 {
            l.init_list(i, ElementSize::FourBytes, 0)?;
        }
    }
    root.init_struct_list(POINT_LIST, 0, POINT)?;
    root.set::<u16>(CHOICE_TAG, CHOICE_POINT_TAG);
    set_point(&mut root.init_struct(CHOICE_PTR, POINT)?, 10, 20);
    Ok(())
}

/// `tests/vectors/log.txt`, parsed by [`log_entries`].
pub fn build_log<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    let entries = log_entries();
    let mut root = msg.init_root_struct(LOG)?;
    let mut list = root.init_struct_list(0, entries.len() as u32, ENTRY)?;
    for (i, e) in entries.iter().enumerate() {
        let mut s = list.get_struct(i as u32);
        s.set::<u64>(0, e.timestamp); // bits [0, 64)
        s.set::<u8>(8, e.level); // bits [64, 72)
        s.set_text(0, &e.message)?;
        let mut tags = s.init_list(1, ElementSize::Pointer, e.tags.len() as u32)?;
        for (j, t) in e.tags.iter().enumerate() {
            tags.set_text(j as u32, t)?;
        }
    }
    Ok(())
}

/// The entries of `tests/vectors/log.txt`, parsed by the shared parser of
/// `tests/common/logtxt.rs`.
pub fn log_entries() -> Vec<Entry> {
    let text = String::from_utf8(super::vector("log.txt")).expect("log.txt is UTF-8");
    parse_log(&text)
}
