//! Round trips: random values of every wire type are built into a message
//! on every arena, framed by every framing function, read back by every
//! read path into every arena, and deep-copied between messages; what
//! comes out must equal what went in, field by field (floats by bits, so
//! NaN payloads count), with null pointers staying null and empty values
//! staying empty but present.

mod common;

use capnarena::{
    Arena, ElementSize, Error, FixedArena, GrowthPolicy, Message, MessageReader, MultiSegmentArena,
    ReaderOptions, SingleSegmentArena, StructBuilder, StructReader, StructSize, Word,
    words_from_bytes,
};
use common::OneWordArena;
use proptest::prelude::*;

// ---- the value model and its layout ----

/// `Node`: every scalar type in the data section, one pointer of each kind.
const NODE: StructSize = StructSize::new(6, 13);
/// `Elem`, the element of the struct list: two data words, two pointers.
const ELEM: StructSize = StructSize::new(2, 2);
/// `Point`, pointed to by an `Elem`.
const POINT: StructSize = StructSize::new(1, 0);

// Data fields of `Node`, in units of their own size (bools by bit).
const F_BOOLS: usize = 0; // bits [0, 3)
const F_I8: usize = 1; // bytes [1, 2)
const F_I16: usize = 1; // bytes [2, 4)
const F_I32: usize = 1; // bytes [4, 8)
const F_I64: usize = 1; // word 1
const F_U8: usize = 16; // byte 16
const F_U16: usize = 9; // bytes [18, 20)
const F_U32: usize = 5; // bytes [20, 24)
const F_U64: usize = 3; // word 3
const F_F32: usize = 8; // bytes [32, 36)
const F_F64: usize = 5; // word 5

// Pointers of `Node`.
const P_TEXT: usize = 0;
const P_DATA: usize = 1;
const P_VOIDS: usize = 2;
const P_BITS: usize = 3;
const P_BYTES: usize = 4;
const P_TWOS: usize = 5;
const P_FOURS: usize = 6;
const P_EIGHTS: usize = 7;
const P_TEXTS: usize = 8;
const P_DATAS: usize = 9;
const P_ELEMS: usize = 10;
const P_LISTS: usize = 11;
const P_CHILD: usize = 12;

/// Everything a `Node` holds. `None` is a null pointer; `Some` of an empty
/// value is a non-null pointer to an empty text, blob or list.
#[derive(Clone, Debug, Default, PartialEq)]
struct Node {
    bools: [bool; 3],
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    /// An `f32` by its bits (any pattern, NaNs included).
    f32: u32,
    /// An `f64` by its bits.
    f64: u64,
    text: Option<String>,
    data: Option<Vec<u8>>,
    /// A list of `Void`: only its length.
    voids: Option<u32>,
    bits: Option<Vec<bool>>,
    bytes: Option<Vec<i8>>,
    twos: Option<Vec<u16>>,
    /// `f32` elements by their bits.
    fours: Option<Vec<u32>>,
    /// `f64` elements by their bits.
    eights: Option<Vec<u64>>,
    texts: Option<Vec<Option<String>>>,
    datas: Option<Vec<Option<Vec<u8>>>>,
    elems: Option<Vec<Elem>>,
    lists: Option<Vec<Option<Vec<i32>>>>,
    child: Option<Box<Node>>,
}

/// An element of an inline-composite list.
#[derive(Clone, Debug, Default, PartialEq)]
struct Elem {
    a: u64,
    b: i16,
    flag: bool,
    name: Option<String>,
    point: Option<(i32, i32)>,
}

// Fields of `Elem`.
const E_A: usize = 0; // word 0
const E_B: usize = 4; // bytes [8, 10)
const E_FLAG: usize = 80; // bit 80: byte 10, bit 0
const E_NAME: usize = 0;
const E_POINT: usize = 1;

fn write_elem<A: Arena + ?Sized>(s: &mut StructBuilder<'_, A>, e: &Elem) -> capnarena::Result<()> {
    s.set::<u64>(E_A, e.a);
    s.set::<i16>(E_B, e.b);
    s.set_bool(E_FLAG, e.flag);
    if let Some(name) = &e.name {
        s.set_text(E_NAME, name)?;
    }
    if let Some((x, y)) = e.point {
        let mut p = s.init_struct(E_POINT, POINT)?;
        p.set::<i32>(0, x);
        p.set::<i32>(1, y);
    }
    Ok(())
}

/// Writes `n` into the `Node` struct `s` through the public builder API.
fn write_node<A: Arena + ?Sized>(s: &mut StructBuilder<'_, A>, n: &Node) -> capnarena::Result<()> {
    for (i, b) in n.bools.iter().enumerate() {
        s.set_bool(F_BOOLS + i, *b);
    }
    s.set::<i8>(F_I8, n.i8);
    s.set::<i16>(F_I16, n.i16);
    s.set::<i32>(F_I32, n.i32);
    s.set::<i64>(F_I64, n.i64);
    s.set::<u8>(F_U8, n.u8);
    s.set::<u16>(F_U16, n.u16);
    s.set::<u32>(F_U32, n.u32);
    s.set::<u64>(F_U64, n.u64);
    s.set::<f32>(F_F32, f32::from_bits(n.f32));
    s.set::<f64>(F_F64, f64::from_bits(n.f64));
    if let Some(t) = &n.text {
        s.set_text(P_TEXT, t)?;
    }
    if let Some(d) = &n.data {
        s.set_data(P_DATA, d)?;
    }
    if let Some(count) = n.voids {
        s.init_list(P_VOIDS, ElementSize::Void, count)?;
    }
    if let Some(v) = &n.bits {
        let mut l = s.init_list(P_BITS, ElementSize::Bit, v.len() as u32)?;
        for (i, x) in v.iter().enumerate() {
            l.set_bool(i as u32, *x);
        }
    }
    if let Some(v) = &n.bytes {
        let mut l = s.init_list(P_BYTES, ElementSize::Byte, v.len() as u32)?;
        for (i, x) in v.iter().enumerate() {
            l.set::<i8>(i as u32, *x);
        }
    }
    if let Some(v) = &n.twos {
        let mut l = s.init_list(P_TWOS, ElementSize::TwoBytes, v.len() as u32)?;
        for (i, x) in v.iter().enumerate() {
            l.set::<u16>(i as u32, *x);
        }
    }
    if let Some(v) = &n.fours {
        let mut l = s.init_list(P_FOURS, ElementSize::FourBytes, v.len() as u32)?;
        for (i, x) in v.iter().enumerate() {
            l.set::<f32>(i as u32, f32::from_bits(*x));
        }
    }
    if let Some(v) = &n.eights {
        let mut l = s.init_list(P_EIGHTS, ElementSize::EightBytes, v.len() as u32)?;
        for (i, x) in v.iter().enumerate() {
            l.set::<f64>(i as u32, f64::from_bits(*x));
        }
    }
    if let Some(v) = &n.texts {
        let mut l = s.init_list(P_TEXTS, ElementSize::Pointer, v.len() as u32)?;
        for (i, x) in v.iter().enumerate() {
            if let Some(t) = x {
                l.set_text(i as u32, t)?;
            }
        }
    }
    if let Some(v) = &n.datas {
        let mut l = s.init_list(P_DATAS, ElementSize::Pointer, v.len() as u32)?;
        for (i, x) in v.iter().enumerate() {
            if let Some(d) = x {
                l.set_data(i as u32, d)?;
            }
        }
    }
    if let Some(v) = &n.elems {
        let mut l = s.init_struct_list(P_ELEMS, v.len() as u32, ELEM)?;
        for (i, e) in v.iter().enumerate() {
            write_elem(&mut l.get_struct(i as u32), e)?;
        }
    }
    if let Some(v) = &n.lists {
        let mut l = s.init_list(P_LISTS, ElementSize::Pointer, v.len() as u32)?;
        for (i, inner) in v.iter().enumerate() {
            if let Some(inner) = inner {
                let mut li = l.init_list(i as u32, ElementSize::FourBytes, inner.len() as u32)?;
                for (j, x) in inner.iter().enumerate() {
                    li.set::<i32>(j as u32, *x);
                }
            }
        }
    }
    if let Some(c) = &n.child {
        let mut cs = s.init_struct(P_CHILD, NODE)?;
        write_node(&mut cs, c)?;
    }
    Ok(())
}

/// `Some(read())` when pointer `i` of `s` is non-null, `None` when null.
fn opt<T>(
    s: &StructReader<'_>,
    i: usize,
    read: impl FnOnce() -> capnarena::Result<T>,
) -> capnarena::Result<Option<T>> {
    if s.pointer(i).is_null() {
        Ok(None)
    } else {
        read().map(Some)
    }
}

fn read_elem(s: &StructReader<'_>) -> capnarena::Result<Elem> {
    Ok(Elem {
        a: s.get::<u64>(E_A),
        b: s.get::<i16>(E_B),
        flag: s.get_bool(E_FLAG),
        name: opt(s, E_NAME, || Ok(s.get_text(E_NAME)?.to_owned()))?,
        point: opt(s, E_POINT, || {
            let p = s.get_struct(E_POINT)?;
            Ok((p.get::<i32>(0), p.get::<i32>(1)))
        })?,
    })
}

/// Reads a `Node` back through the public reader API.
fn read_node(s: &StructReader<'_>) -> capnarena::Result<Node> {
    Ok(Node {
        bools: [
            s.get_bool(F_BOOLS),
            s.get_bool(F_BOOLS + 1),
            s.get_bool(F_BOOLS + 2),
        ],
        i8: s.get::<i8>(F_I8),
        i16: s.get::<i16>(F_I16),
        i32: s.get::<i32>(F_I32),
        i64: s.get::<i64>(F_I64),
        u8: s.get::<u8>(F_U8),
        u16: s.get::<u16>(F_U16),
        u32: s.get::<u32>(F_U32),
        u64: s.get::<u64>(F_U64),
        f32: s.get::<f32>(F_F32).to_bits(),
        f64: s.get::<f64>(F_F64).to_bits(),
        text: opt(s, P_TEXT, || Ok(s.get_text(P_TEXT)?.to_owned()))?,
        data: opt(s, P_DATA, || Ok(s.get_data(P_DATA)?.to_vec()))?,
        voids: opt(s, P_VOIDS, || {
            Ok(s.get_list(P_VOIDS, ElementSize::Void)?.len())
        })?,
        bits: opt(s, P_BITS, || {
            let l = s.get_list(P_BITS, ElementSize::Bit)?;
            Ok((0..l.len()).map(|i| l.get_bool(i)).collect())
        })?,
        bytes: opt(s, P_BYTES, || {
            let l = s.get_list(P_BYTES, ElementSize::Byte)?;
            Ok((0..l.len()).map(|i| l.get::<i8>(i)).collect())
        })?,
        twos: opt(s, P_TWOS, || {
            let l = s.get_list(P_TWOS, ElementSize::TwoBytes)?;
            Ok((0..l.len()).map(|i| l.get::<u16>(i)).collect())
        })?,
        fours: opt(s, P_FOURS, || {
            let l = s.get_list(P_FOURS, ElementSize::FourBytes)?;
            Ok((0..l.len()).map(|i| l.get::<f32>(i).to_bits()).collect())
        })?,
        eights: opt(s, P_EIGHTS, || {
            let l = s.get_list(P_EIGHTS, ElementSize::EightBytes)?;
            Ok((0..l.len()).map(|i| l.get::<f64>(i).to_bits()).collect())
        })?,
        texts: opt(s, P_TEXTS, || {
            let l = s.get_list(P_TEXTS, ElementSize::Pointer)?;
            (0..l.len())
                .map(|i| {
                    if l.get_pointer(i).is_null() {
                        Ok(None)
                    } else {
                        Ok(Some(l.get_text(i)?.to_owned()))
                    }
                })
                .collect()
        })?,
        datas: opt(s, P_DATAS, || {
            let l = s.get_list(P_DATAS, ElementSize::Pointer)?;
            (0..l.len())
                .map(|i| {
                    if l.get_pointer(i).is_null() {
                        Ok(None)
                    } else {
                        Ok(Some(l.get_data(i)?.to_vec()))
                    }
                })
                .collect()
        })?,
        elems: opt(s, P_ELEMS, || {
            let l = s.get_list(P_ELEMS, ElementSize::InlineComposite)?;
            (0..l.len()).map(|i| read_elem(&l.get_struct(i))).collect()
        })?,
        lists: opt(s, P_LISTS, || {
            let l = s.get_list(P_LISTS, ElementSize::Pointer)?;
            (0..l.len())
                .map(|i| {
                    if l.get_pointer(i).is_null() {
                        return Ok(None);
                    }
                    let li = l.get_list(i, ElementSize::FourBytes)?;
                    Ok(Some((0..li.len()).map(|j| li.get::<i32>(j)).collect()))
                })
                .collect()
        })?,
        child: opt(s, P_CHILD, || {
            Ok(Box::new(read_node(&s.get_struct(P_CHILD)?)?))
        })?,
    })
}

// ---- strategies ----

/// Text: empty, ASCII, and any printable Unicode (multi-byte UTF-8).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z ]{1,24}",
        "\\PC{1,12}",
        "[\u{80}-\u{7ff}\u{800}-\u{ffff}\u{10000}-\u{10ffff}]{1,6}",
    ]
}

fn data() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..40)
}

/// `f32` bits: any pattern, with NaNs (quiet, signalling, with payloads)
/// and infinities and signed zeros made frequent.
fn f32_bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (any::<bool>(), 1u32..(1 << 23)).prop_map(|(s, m)| (u32::from(s) << 31) | 0x7f80_0000 | m),
        Just(0x8000_0000),
        Just(0x7f80_0000),
    ]
}

fn f64_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (any::<bool>(), 1u64..(1 << 52))
            .prop_map(|(s, m)| (u64::from(s) << 63) | 0x7ff0_0000_0000_0000 | m),
        Just(0x8000_0000_0000_0000),
        Just(0xfff0_0000_0000_0000),
    ]
}

fn elem() -> impl Strategy<Value = Elem> {
    (
        any::<u64>(),
        any::<i16>(),
        any::<bool>(),
        prop::option::of(text()),
        prop::option::of(any::<(i32, i32)>()),
    )
        .prop_map(|(a, b, flag, name, point)| Elem {
            a,
            b,
            flag,
            name,
            point,
        })
}

fn list<T: std::fmt::Debug>(
    s: impl Strategy<Value = T>,
    max: usize,
) -> impl Strategy<Value = Option<Vec<T>>> {
    prop::option::of(prop::collection::vec(s, 0..max))
}

/// A `Node` without a child.
fn leaf() -> impl Strategy<Value = Node> {
    let scalars = (
        any::<[bool; 3]>(),
        any::<i8>(),
        any::<i16>(),
        any::<i32>(),
        any::<i64>(),
        any::<u8>(),
        any::<u16>(),
        any::<u32>(),
        any::<u64>(),
        f32_bits(),
        f64_bits(),
    );
    let blobs = (
        prop::option::of(text()),
        prop::option::of(data()),
        prop::option::of(0u32..2000),
        // Up to 140 bits: lists that end inside, and exactly at, a word.
        list(any::<bool>(), 140),
        list(any::<i8>(), 20),
        list(any::<u16>(), 12),
        list(f32_bits(), 10),
        list(f64_bits(), 6),
    );
    let pointers = (
        list(prop::option::of(text()), 6),
        list(prop::option::of(data()), 5),
        list(elem(), 5),
        list(
            prop::option::of(prop::collection::vec(any::<i32>(), 0..8)),
            5,
        ),
    );
    (scalars, blobs, pointers).prop_map(
        |(
            (bools, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64),
            (text, data, voids, bits, bytes, twos, fours, eights),
            (texts, datas, elems, lists),
        )| Node {
            bools,
            i8,
            i16,
            i32,
            i64,
            u8,
            u16,
            u32,
            u64,
            f32,
            f64,
            text,
            data,
            voids,
            bits,
            bytes,
            twos,
            fours,
            eights,
            texts,
            datas,
            elems,
            lists,
            child: None,
        },
    )
}

/// A `Node` with up to three levels of children below it.
fn node() -> impl Strategy<Value = Node> {
    leaf().prop_recursive(3, 4, 1, |inner| {
        (leaf(), prop::option::of(inner)).prop_map(|(mut n, child)| {
            n.child = child.map(Box::new);
            n
        })
    })
}

// ---- arenas ----

/// Words of each `FixedArena` buffer: far more than the largest node.
const FIXED_WORDS: usize = 1 << 14;

/// Every arena under test, by name. The small-segment ones make objects
/// cross segments (single and double far pointers); `tiny-fixed` makes
/// more than 8 segments, past the readers' inline segment tables.
fn arenas(fixed: &mut [Word]) -> Vec<(&'static str, Box<dyn Arena + '_>)> {
    vec![
        ("single", Box::new(SingleSegmentArena::new())),
        (
            "multi-tiny-first",
            Box::new(MultiSegmentArena::new().with_first_segment_words(1)),
        ),
        (
            "multi-tiny-fixed",
            Box::new(
                MultiSegmentArena::new()
                    .with_first_segment_words(2)
                    .with_policy(GrowthPolicy::FixedSize(4)),
            ),
        ),
        ("multi-default", Box::new(MultiSegmentArena::new())),
        ("fixed", Box::new(FixedArena::new(fixed))),
        ("one-word", Box::new(OneWordArena::default())),
    ]
}

// ---- the round trip ----

/// Frames `msg` by every framing function, checks they agree byte for
/// byte, and returns the framed bytes. `framed_bytes` must work exactly
/// when the message has one segment, and its slice must read back
/// zero-copy to `expected`.
fn frame_all<A: Arena>(msg: &mut Message<A>, expected: &Node, arena: &str) -> Vec<u8> {
    let count = msg.segment_count();
    let size = msg.serialized_size();

    // append_to appends after what the Vec holds.
    let mut appended = vec![0xa5u8; 3];
    msg.append_to(&mut appended);
    assert_eq!(
        &appended[..3],
        &[0xa5; 3],
        "{arena}: append_to kept the prefix"
    );
    let appended = appended.split_off(3);
    assert_eq!(appended.len(), size, "{arena}: serialized_size");

    let mut written = Vec::new();
    msg.write_to(&mut written).unwrap();
    assert_eq!(written, appended, "{arena}: write_to == append_to");

    let mut manual = vec![0u8; msg.segment_table_len()];
    let table = msg.write_segment_table(&mut manual).unwrap();
    assert_eq!(table, manual.len());
    assert_eq!(
        u32::from_le_bytes(manual[..4].try_into().unwrap()),
        count - 1,
        "{arena}: segment count in the table"
    );
    for seg in msg.segments() {
        manual.extend_from_slice(seg.as_bytes());
    }
    assert_eq!(manual, appended, "{arena}: table + segments == append_to");

    match msg.framed_bytes() {
        Ok(framed) => {
            assert_eq!(count, 1, "{arena}: framed_bytes of {count} segments");
            assert_eq!(framed, &appended[..], "{arena}: framed_bytes == append_to");
            let reader = MessageReader::from_bytes(framed, ReaderOptions::default()).unwrap();
            assert_eq!(&read_node(&reader.root().unwrap()).unwrap(), expected);
        }
        Err(Error::NotSingleSegment { segments }) => {
            assert!(count > 1, "{arena}: NotSingleSegment for one segment");
            assert_eq!(segments, count);
        }
        Err(e) => panic!("{arena}: framed_bytes: {e}"),
    }
    appended
}

/// Reads the framed `bytes` by every read path, into every arena, and
/// checks each gives back `expected`.
fn read_all(bytes: &[u8], expected: &Node, from: &str) {
    let options = ReaderOptions::default();

    // Zero-copy, from words and from (aligned) bytes.
    let words = words_from_bytes(bytes).unwrap();
    let reader = MessageReader::from_words(&words, options).unwrap();
    assert_eq!(
        &read_node(&reader.root().unwrap()).unwrap(),
        expected,
        "{from}: from_words"
    );
    let reader = MessageReader::from_bytes(Word::slice_as_bytes(&words), options).unwrap();
    assert_eq!(
        &read_node(&reader.root().unwrap()).unwrap(),
        expected,
        "{from}: from_bytes"
    );

    // Copied: unaligned bytes, and a stream of two messages back to back.
    let mut unaligned = vec![0u8; bytes.len() + 1];
    unaligned[1..].copy_from_slice(bytes);
    let stream: Vec<u8> = [bytes, bytes].concat();
    let mut fixed = vec![Word::ZERO; FIXED_WORDS];
    for (name, arena) in arenas(&mut fixed) {
        let mut msg = Message::new(arena);
        {
            let reader = msg.read_from_bytes(&unaligned[1..], options).unwrap();
            let got = read_node(&reader.root().unwrap()).unwrap();
            assert_eq!(&got, expected, "{from}: read_from_bytes into {name}");
        }
        let mut r = &stream[..];
        for i in 0..2 {
            let reader = msg.read_from(&mut r, options).unwrap();
            let got = read_node(&reader.root().unwrap()).unwrap();
            assert_eq!(&got, expected, "{from}: read_from #{i} into {name}");
        }
        assert!(
            matches!(msg.read_from(&mut r, options), Err(Error::EndOfStream)),
            "{from}: stream ends after two messages ({name})"
        );
    }
}

/// Builds `node` on every arena, checks the message reads back in place,
/// frames it every way and reads every framing back every way.
fn round_trip(node: &Node) {
    let mut fixed = vec![Word::from_u64(u64::MAX); FIXED_WORDS];
    let mut first: Option<Vec<u8>> = None;
    for (name, arena) in arenas(&mut fixed) {
        let mut msg = Message::new(arena);
        write_node(&mut msg.init_root_struct(NODE).unwrap(), node).unwrap();
        let in_place = read_node(&msg.reader().root().unwrap()).unwrap();
        assert_eq!(&in_place, node, "{name}: read in place");
        let count = msg.segment_count();
        match name {
            "single" | "fixed" => assert_eq!(count, 1, "{name}: one segment"),
            // The root struct cannot share segment 0 with the root pointer.
            "multi-tiny-first" | "multi-tiny-fixed" | "one-word" => {
                assert!(count > 1, "{name}: {count} segments, so far pointers")
            }
            _ => {}
        }
        let bytes = frame_all(&mut msg, node, name);
        read_all(&bytes, node, name);
        // Every single-segment arena lays the message out identically.
        if msg.segment_count() == 1 {
            match &first {
                Some(f) => assert_eq!(f, &bytes, "{name}: same bytes as the first arena"),
                None => first = Some(bytes),
            }
        }
    }
}

/// Deep-copies `node` (built on a source arena) into a message on every
/// arena, by `set_root`, `copy_from` onto an existing root and
/// `set_from` of the child pointer, and checks each copy reads back equal
/// and frames and re-reads equal.
fn deep_copy(node: &Node) {
    let mut fixed_src = vec![Word::ZERO; FIXED_WORDS];
    for (src_name, src_arena) in arenas(&mut fixed_src) {
        let mut src = Message::new(src_arena);
        write_node(&mut src.init_root_struct(NODE).unwrap(), node).unwrap();
        let mut bytes = Vec::new();
        src.append_to(&mut bytes);
        let words = words_from_bytes(&bytes).unwrap();
        let framed = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
        let sources = [("in place", src.reader()), ("framed", framed)];

        let mut fixed_dst = vec![Word::from_u64(u64::MAX); FIXED_WORDS];
        for (dst_name, dst_arena) in arenas(&mut fixed_dst) {
            let mut dst = Message::new(dst_arena);
            for (how, reader) in &sources {
                let root = reader.root().unwrap();
                let what = format!("{src_name} ({how}) -> {dst_name}");

                dst.set_root(&root).unwrap();
                let got = read_node(&dst.reader().root().unwrap()).unwrap();
                assert_eq!(&got, node, "set_root {what}");
                let mut again = Vec::new();
                dst.append_to(&mut again);
                let again = words_from_bytes(&again).unwrap();
                let reread = MessageReader::from_words(&again, ReaderOptions::default()).unwrap();
                let got = read_node(&reread.root().unwrap()).unwrap();
                assert_eq!(&got, node, "set_root, framed again {what}");

                dst.reset();
                dst.init_root_struct(NODE)
                    .unwrap()
                    .copy_from(&root)
                    .unwrap();
                let got = read_node(&dst.reader().root().unwrap()).unwrap();
                assert_eq!(&got, node, "copy_from {what}");

                dst.reset();
                dst.root_pointer()
                    .unwrap()
                    .set_from(&root.pointer(P_CHILD))
                    .unwrap();
                let got = read_node(&dst.reader().root().unwrap()).unwrap();
                let want = node.child.as_deref().cloned().unwrap_or_default();
                assert_eq!(got, want, "set_from of the child {what}");
                assert_eq!(
                    dst.reader().root_pointer().unwrap().is_null(),
                    node.child.is_none(),
                    "a null child copies to a null root {what}"
                );
                dst.reset();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Build -> every framing -> every read path, on every arena, gives
    /// back the values that went in.
    #[test]
    fn values_round_trip(node in node()) {
        round_trip(&node);
    }

    /// A deep copy from any arena (read in place or from framed bytes)
    /// into any arena gives back the values that went in.
    #[test]
    fn deep_copies_round_trip(node in node()) {
        deep_copy(&node);
    }
}

/// Fixed corner cases the strategies reach only by chance: an all-default
/// node (every pointer null), every pointer set to an empty value, NaN
/// payloads, and a chain of children deeper than the strategy makes.
#[test]
fn corner_cases_round_trip() {
    let empty_everything = Node {
        text: Some(String::new()),
        data: Some(Vec::new()),
        voids: Some(0),
        bits: Some(Vec::new()),
        bytes: Some(Vec::new()),
        twos: Some(Vec::new()),
        fours: Some(Vec::new()),
        eights: Some(Vec::new()),
        texts: Some(vec![None, Some(String::new())]),
        datas: Some(vec![Some(Vec::new()), None]),
        elems: Some(Vec::new()),
        lists: Some(vec![Some(Vec::new()), None]),
        child: Some(Box::default()),
        ..Node::default()
    };
    let nans = Node {
        f32: 0x7f80_0001, // signalling NaN, payload 1
        f64: 0xfff8_0000_dead_beef,
        fours: Some(vec![0xffc0_1234, 0x7fbf_ffff, 0x8000_0000]),
        eights: Some(vec![0x7ff0_0000_0000_0001, 0x7ff8_0000_0000_0000]),
        text: Some("ü€𝄞".to_owned()),
        ..Node::default()
    };
    let mut deep = Node {
        u64: 1,
        ..Node::default()
    };
    for i in 2..20 {
        deep = Node {
            u64: i,
            text: Some(format!("level {i}")),
            child: Some(Box::new(deep)),
            ..Node::default()
        };
    }
    for node in [Node::default(), empty_everything, nans, deep] {
        round_trip(&node);
        deep_copy(&node);
    }
}
