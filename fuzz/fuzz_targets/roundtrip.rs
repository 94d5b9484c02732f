//! A random message (structs, lists of every element size, text, data,
//! capabilities, nested to a bounded depth) built on every arena, framed
//! with every framing function, read back on every read path and compared
//! with what was built. Its canonical form must be the same whatever arena
//! built it, and must check as canonical.
#![no_main]

use std::io::Cursor;

use arbitrary::{Result as ArbResult, Unstructured};
use capnarena::{
    Arena, ElementSize, FixedArena, GrowthPolicy, Message, MessageReader, MultiSegmentArena,
    PointerBuilder, PointerReader, ReaderOptions, SingleSegmentArena, StructBuilder, StructReader,
    StructSize, Word, words_from_bytes,
};
use libfuzzer_sys::fuzz_target;

mod shared;
use shared::common::OneWordArena;

#[derive(Debug)]
struct S {
    data: Vec<u64>,
    ptrs: Vec<V>,
}

#[derive(Debug)]
enum V {
    Null,
    Cap(u32),
    Struct(S),
    Text(Vec<u8>),
    Data(Vec<u8>),
    Void(u32),
    Bits(Vec<bool>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    Ptrs(Vec<V>),
    Structs(StructSize, Vec<S>),
}

const MAX_DEPTH: u32 = 6;

fn small_len(u: &mut Unstructured<'_>, max: usize) -> ArbResult<usize> {
    Ok(usize::from(u.arbitrary::<u8>()?) % (max + 1))
}

fn gen_struct(u: &mut Unstructured<'_>, size: StructSize, depth: u32) -> ArbResult<S> {
    let mut data = Vec::with_capacity(usize::from(size.data_words));
    for _ in 0..size.data_words {
        // Mostly zero words, so canonical trimming has work to do.
        data.push(if u.arbitrary::<bool>()? {
            u.arbitrary()?
        } else {
            0
        });
    }
    let mut ptrs = Vec::with_capacity(usize::from(size.pointers));
    for _ in 0..size.pointers {
        ptrs.push(gen_value(u, depth + 1)?);
    }
    Ok(S { data, ptrs })
}

fn gen_size(u: &mut Unstructured<'_>) -> ArbResult<StructSize> {
    Ok(StructSize::new(
        small_len(u, 3)? as u16,
        small_len(u, 3)? as u16,
    ))
}

fn vec_of<T: for<'a> arbitrary::Arbitrary<'a>>(
    u: &mut Unstructured<'_>,
    max: usize,
) -> ArbResult<Vec<T>> {
    let n = small_len(u, max)?;
    (0..n).map(|_| u.arbitrary()).collect()
}

fn gen_value(u: &mut Unstructured<'_>, depth: u32) -> ArbResult<V> {
    let leaf = depth >= MAX_DEPTH;
    Ok(match u.arbitrary::<u8>()? % 13 {
        0 => V::Null,
        1 => V::Cap(u.arbitrary()?),
        2 if !leaf => {
            let size = gen_size(u)?;
            V::Struct(gen_struct(u, size, depth)?)
        }
        3 => V::Text(vec_of(u, 40)?),
        4 => V::Data(vec_of(u, 40)?),
        5 => V::Void(u32::from(u.arbitrary::<u16>()?)),
        6 => V::Bits(vec_of(u, 130)?),
        7 => V::U8(vec_of(u, 20)?),
        8 => V::U16(vec_of(u, 20)?),
        9 => V::U32(vec_of(u, 20)?),
        10 => V::U64(vec_of(u, 20)?),
        11 if !leaf => {
            let n = small_len(u, 5)?;
            V::Ptrs(
                (0..n)
                    .map(|_| gen_value(u, depth + 1))
                    .collect::<ArbResult<_>>()?,
            )
        }
        12 if !leaf => {
            let size = gen_size(u)?;
            let n = small_len(u, 5)?;
            V::Structs(
                size,
                (0..n)
                    .map(|_| gen_struct(u, size, depth + 1))
                    .collect::<ArbResult<_>>()?,
            )
        }
        _ => V::Null,
    })
}

fn build_ptr<A: Arena + ?Sized>(mut p: PointerBuilder<'_, A>, v: &V) -> capnarena::Result<()> {
    match v {
        V::Null => p.clear(),
        V::Cap(i) => p.set_capability(*i),
        V::Struct(s) => fill(p.init_struct(size_of(s))?, s)?,
        V::Text(t) => p.set_text_bytes(t)?,
        V::Data(d) => p.set_data(d)?,
        V::Void(n) => {
            p.init_list(ElementSize::Void, *n)?;
        }
        V::Bits(b) => {
            let mut l = p.init_list(ElementSize::Bit, b.len() as u32)?;
            for (i, &x) in b.iter().enumerate() {
                l.set_bool(i as u32, x);
            }
        }
        V::U8(x) => {
            let mut l = p.init_list(ElementSize::Byte, x.len() as u32)?;
            for (i, &x) in x.iter().enumerate() {
                l.set::<u8>(i as u32, x);
            }
        }
        V::U16(x) => {
            let mut l = p.init_list(ElementSize::TwoBytes, x.len() as u32)?;
            for (i, &x) in x.iter().enumerate() {
                l.set::<u16>(i as u32, x);
            }
        }
        V::U32(x) => {
            let mut l = p.init_list(ElementSize::FourBytes, x.len() as u32)?;
            for (i, &x) in x.iter().enumerate() {
                l.set::<u32>(i as u32, x);
            }
        }
        V::U64(x) => {
            let mut l = p.init_list(ElementSize::EightBytes, x.len() as u32)?;
            for (i, &x) in x.iter().enumerate() {
                l.set::<u64>(i as u32, x);
            }
        }
        V::Ptrs(vs) => {
            let mut l = p.init_list(ElementSize::Pointer, vs.len() as u32)?;
            for (i, v) in vs.iter().enumerate() {
                build_ptr(l.pointer(i as u32), v)?;
            }
        }
        V::Structs(size, ss) => {
            let mut l = p.init_struct_list(ss.len() as u32, *size)?;
            for (i, s) in ss.iter().enumerate() {
                fill(l.get_struct(i as u32), s)?;
            }
        }
    }
    Ok(())
}

fn size_of(s: &S) -> StructSize {
    StructSize::new(s.data.len() as u16, s.ptrs.len() as u16)
}

fn fill<A: Arena + ?Sized>(mut b: StructBuilder<'_, A>, s: &S) -> capnarena::Result<()> {
    for (i, &w) in s.data.iter().enumerate() {
        b.set::<u64>(i, w);
    }
    for (i, v) in s.ptrs.iter().enumerate() {
        build_ptr(b.pointer(i), v)?;
    }
    Ok(())
}

type Check = Result<(), String>;

fn ensure(ok: bool, what: impl FnOnce() -> String) -> Check {
    if ok { Ok(()) } else { Err(what()) }
}

fn e(err: capnarena::Error) -> String {
    format!("read error: {err:?}")
}

/// Compares what `p` points to with `v`. `exact`: struct sizes must match
/// (false for canonical form, which trims trailing zero words and nulls).
fn check_ptr(p: &PointerReader<'_>, v: &V, exact: bool) -> Check {
    ensure(p.is_null() == matches!(v, V::Null), || {
        format!("null-ness of {v:?}")
    })?;
    match v {
        V::Null => Ok(()),
        V::Cap(i) => ensure(p.get_capability().map_err(e)? == *i, || "capability".into()),
        V::Struct(s) => check_struct(&p.get_struct().map_err(e)?, s, exact),
        V::Text(t) => ensure(p.get_text_bytes().map_err(e)? == &t[..], || "text".into()),
        V::Data(d) => ensure(p.get_data().map_err(e)? == &d[..], || "data".into()),
        V::Void(n) => ensure(
            p.get_list(ElementSize::Void).map_err(e)?.len() == *n,
            || "void".into(),
        ),
        V::Bits(b) => {
            let l = p.get_list(ElementSize::Bit).map_err(e)?;
            ensure(l.len() as usize == b.len(), || "bits len".into())?;
            ensure(
                b.iter()
                    .enumerate()
                    .all(|(i, &x)| l.get_bool(i as u32) == x),
                || "bits".into(),
            )
        }
        V::U8(x) => {
            let l = p.get_list(ElementSize::Byte).map_err(e)?;
            ensure(
                (0..l.len()).map(|i| l.get::<u8>(i)).eq(x.iter().copied()),
                || "u8".into(),
            )
        }
        V::U16(x) => {
            let l = p.get_list(ElementSize::TwoBytes).map_err(e)?;
            ensure(
                (0..l.len()).map(|i| l.get::<u16>(i)).eq(x.iter().copied()),
                || "u16".into(),
            )
        }
        V::U32(x) => {
            let l = p.get_list(ElementSize::FourBytes).map_err(e)?;
            ensure(
                (0..l.len()).map(|i| l.get::<u32>(i)).eq(x.iter().copied()),
                || "u32".into(),
            )
        }
        V::U64(x) => {
            let l = p.get_list(ElementSize::EightBytes).map_err(e)?;
            ensure(
                (0..l.len()).map(|i| l.get::<u64>(i)).eq(x.iter().copied()),
                || "u64".into(),
            )
        }
        V::Ptrs(vs) => {
            let l = p.get_list(ElementSize::Pointer).map_err(e)?;
            ensure(l.len() as usize == vs.len(), || "pointer list len".into())?;
            vs.iter()
                .enumerate()
                .try_for_each(|(i, v)| check_ptr(&l.get_pointer(i as u32), v, exact))
        }
        V::Structs(size, ss) => {
            let l = p.get_list(ElementSize::InlineComposite).map_err(e)?;
            ensure(l.len() as usize == ss.len(), || "struct list len".into())?;
            ensure(l.element_size() == ElementSize::InlineComposite, || {
                "struct list kind".into()
            })?;
            ensure(!exact || l.struct_size() == *size, || {
                "struct list element size".into()
            })?;
            ss.iter()
                .enumerate()
                .try_for_each(|(i, s)| check_struct(&l.get_struct(i as u32), s, exact))
        }
    }
}

fn check_struct(r: &StructReader<'_>, s: &S, exact: bool) -> Check {
    ensure(!exact || r.size() == size_of(s), || {
        format!("struct size {:?} vs {:?}", r.size(), size_of(s))
    })?;
    for (i, &w) in s.data.iter().enumerate() {
        ensure(r.get::<u64>(i) == w, || format!("data word {i}"))?;
    }
    s.ptrs
        .iter()
        .enumerate()
        .try_for_each(|(i, v)| check_ptr(&r.pointer(i), v, exact))
}

fn check_message(what: &str, r: &MessageReader<'_>, root: &S, exact: bool) {
    let got = r
        .root()
        .map_err(e)
        .and_then(|s| check_struct(&s, root, exact));
    if let Err(msg) = got {
        panic!("{what}: {msg}\nbuilt: {root:#?}");
    }
}

/// Builds `root` in `msg`, checks every framing and read path, and
/// returns the canonical words (`None` when a `FixedArena` ran out of room).
fn roundtrip<A: Arena>(name: &str, mut msg: Message<A>, root: &S) -> Option<Vec<Word>> {
    let built = msg
        .init_root_struct(size_of(root))
        .and_then(|b| fill(b, root));
    match built {
        Ok(()) => {}
        Err(capnarena::Error::Alloc(_)) if name == "fixed" => return None,
        Err(err) => panic!("{name}: build failed: {err:?}"),
    }
    // The message was built here, so it is trusted: a one-word-segment
    // arena can give it more segments than the default limit of 512.
    let options = ReaderOptions::default().segment_limit(u32::MAX);
    check_message(&format!("{name} in place"), &msg.reader(), root, true);

    let mut framed = Vec::new();
    msg.append_to(&mut framed);
    assert_eq!(
        framed.len(),
        msg.serialized_size(),
        "{name}: serialized_size"
    );
    let mut written = Vec::new();
    msg.write_to(&mut written).expect("write to a Vec");
    assert_eq!(written, framed, "{name}: write_to differs from append_to");
    if msg.segment_count() == 1 {
        let contiguous = msg.framed_bytes().expect("one segment").to_vec();
        assert_eq!(
            contiguous, framed,
            "{name}: framed_bytes differs from append_to"
        );
    }

    let words = words_from_bytes(&framed).unwrap();
    let r = MessageReader::from_words(&words, options).expect("from_words");
    check_message(&format!("{name} from_words"), &r, root, true);
    let mut back = Message::new(SingleSegmentArena::new());
    let r = back
        .read_from(Cursor::new(&framed), options)
        .expect("read_from");
    check_message(&format!("{name} read_from"), &r, root, true);
    let mut back = Message::new(MultiSegmentArena::new().with_first_segment_words(1));
    let r = back
        .read_from_bytes(&framed, options)
        .expect("read_from_bytes");
    check_message(&format!("{name} read_from_bytes"), &r, root, true);

    let mut canon = Message::new(SingleSegmentArena::new());
    let words = canon
        .set_root_canonical(&msg.reader().root().expect("root"))
        .expect("canonicalize")
        .to_vec();
    let segs: [&[Word]; 1] = [&words];
    let cr = MessageReader::from_segments(&segs, options).expect("one segment");
    check_message(&format!("{name} canonical"), &cr, root, false);
    assert_eq!(
        cr.is_canonical().ok(),
        Some(true),
        "{name}: canonical form not canonical"
    );
    Some(words)
}

fuzz_target!(|input: &[u8]| {
    let mut u = Unstructured::new(input);
    let Ok(size) = gen_size(&mut u) else { return };
    let Ok(root) = gen_struct(&mut u, size, 0) else {
        return;
    };
    let first = u.arbitrary::<u8>().unwrap_or(0);

    let single = roundtrip("single", Message::new(SingleSegmentArena::new()), &root);
    let multi = MultiSegmentArena::new()
        .with_first_segment_words(u32::from(first % 8))
        .with_policy(GrowthPolicy::FixedSize(u32::from(first / 8 % 8) + 1));
    let multi = roundtrip("multi", Message::new(multi), &root);
    let one_word = roundtrip("one_word", Message::new(OneWordArena::default()), &root);
    let mut buf = vec![Word::from_u64(u64::MAX); 1 << 12];
    let fixed = roundtrip("fixed", Message::new(FixedArena::new(&mut buf)), &root);

    assert_eq!(multi, single, "canonical form differs: multi vs single");
    assert_eq!(
        one_word, single,
        "canonical form differs: one_word vs single"
    );
    if fixed.is_some() {
        assert_eq!(fixed, single, "canonical form differs: fixed vs single");
    }
});
