//! `ListReader::struct_elements` (behind every generated struct list's
//! `iter()`) cuts the list's bytes into elements once instead of checking
//! each element's bounds: whatever the list's element size, it must yield
//! exactly the structs `ListReader::get_struct(i)` reads, element by
//! element, from the front, from the back, and interleaved.

use capnarena::{
    ElementSize, ListReader, Message, MessageReader, ReaderOptions, SingleSegmentArena,
    StructReader, StructSize,
};
use proptest::prelude::*;

/// Everything a reader of element `i` can observe: its size, data bytes,
/// and each pointer's target read as a text (or the error it gives).
fn observe(s: &StructReader<'_>) -> (StructSize, Vec<u8>, Vec<String>) {
    let ptrs = (0..usize::from(s.pointer_count()) + 1)
        .map(|k| match s.pointer(k).get_text_bytes() {
            Ok(b) => format!("{b:?}"),
            Err(e) => format!("error {e}"),
        })
        .collect();
    (s.size(), s.data_bytes().to_vec(), ptrs)
}

/// The `list_index`-th list of the root, read with no size check.
fn with_list<R>(bytes: &[u8], index: usize, f: impl FnOnce(ListReader<'_>) -> R) -> R {
    let reader = MessageReader::from_bytes(bytes, ReaderOptions::default()).unwrap();
    let root = reader.root().unwrap();
    f(root.pointer(index).get_list_any().unwrap())
}

/// Builds a root whose pointers hold a list of each element size, `n`
/// elements each, filled from `seed`; returns the framed message.
fn build(n: u32, seed: u64, data_words: u16, ptrs: u16) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root_struct(StructSize::new(0, 8)).unwrap();
    let sizes = [
        ElementSize::Void,
        ElementSize::Bit,
        ElementSize::Byte,
        ElementSize::TwoBytes,
        ElementSize::FourBytes,
        ElementSize::EightBytes,
    ];
    let v = |i: u32| seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(i);
    for (k, size) in sizes.into_iter().enumerate() {
        let mut l = root.init_list(k, size, n).unwrap();
        for i in 0..n {
            match size {
                ElementSize::Void => {}
                ElementSize::Bit => l.set_bool(i, v(i) & 1 == 1),
                ElementSize::Byte => l.set::<u8>(i, v(i) as u8),
                ElementSize::TwoBytes => l.set::<u16>(i, v(i) as u16),
                ElementSize::FourBytes => l.set::<u32>(i, v(i) as u32),
                _ => l.set::<u64>(i, v(i)),
            }
        }
    }
    let mut texts = root.init_list(6, ElementSize::Pointer, n).unwrap();
    for i in 0..n {
        if i % 3 != 0 {
            texts.set_text(i, &format!("t{}", v(i) % 1000)).unwrap();
        }
    }
    let mut structs = root
        .init_struct_list(7, n, StructSize::new(data_words, ptrs))
        .unwrap();
    for i in 0..n {
        let mut s = structs.get_struct(i);
        for w in 0..usize::from(data_words) {
            s.set::<u64>(w, v(i) ^ w as u64);
        }
        for p in 0..usize::from(ptrs) {
            if (i as usize + p) % 2 == 0 {
                s.set_text(p, &format!("e{i}.{p}")).unwrap();
            }
        }
    }
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

fn aligned(bytes: &[u8]) -> Vec<capnarena::Word> {
    capnarena::words_from_bytes(bytes).unwrap()
}

proptest! {
    /// Front-to-back, back-to-front and interleaved iteration yield the
    /// elements `get_struct(i)` reads, with the lengths `len()` says, for
    /// lists of every element size (void and bit lists read as empty
    /// structs) and struct lists of every shape, including zero-sized.
    #[test]
    fn elements_match_get_struct(
        n in 0u32..40,
        seed: u64,
        data_words in 0u16..4,
        ptrs in 0u16..4,
        pattern in proptest::collection::vec(any::<bool>(), 0..90),
    ) {
        let words = aligned(&build(n, seed, data_words, ptrs));
        let bytes = capnarena::Word::slice_as_bytes(&words);
        for index in 0..8 {
            with_list(bytes, index, |list| {
                let want: Vec<_> = (0..list.len()).map(|i| observe(&list.get_struct(i))).collect();
                let it = list.struct_elements();
                prop_assert_eq!(it.len(), want.len());
                let fwd: Vec<_> = it.map(|s| observe(&s)).collect();
                prop_assert_eq!(&fwd, &want, "list {} forward", index);
                let mut back: Vec<_> = list.struct_elements().rev().map(|s| observe(&s)).collect();
                back.reverse();
                prop_assert_eq!(&back, &want, "list {} backward", index);
                // Interleaved: take from either end as `pattern` says.
                let mut it = list.struct_elements();
                let (mut lo, mut hi) = (0usize, want.len());
                for &front in pattern.iter().chain(std::iter::repeat(&true)).take(want.len() + 2) {
                    let got = if front { it.next() } else { it.next_back() };
                    match got {
                        Some(s) => {
                            let i = if front { lo += 1; lo - 1 } else { hi -= 1; hi };
                            prop_assert_eq!(&observe(&s), &want[i], "list {} element {}", index, i);
                        }
                        None => prop_assert_eq!(lo, hi),
                    }
                    prop_assert_eq!(it.len(), hi - lo);
                }
                Ok(())
            })?;
        }
    }
}

/// The elements of a struct list with data and pointers read back the
/// values they were built with, in order.
#[test]
fn struct_list_elements_hold_what_was_built() {
    let words = aligned(&build(25, 7, 2, 2));
    let bytes = capnarena::Word::slice_as_bytes(&words);
    with_list(bytes, 7, |list| {
        let v = |i: u64| 7u64.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i;
        for (i, s) in list.struct_elements().enumerate() {
            assert_eq!(s.get::<u64>(0), v(i as u64), "element {i} word 0");
            assert_eq!(s.get::<u64>(1), v(i as u64) ^ 1, "element {i} word 1");
            let text = s.pointer(i % 2).get_text_bytes().unwrap();
            assert_eq!(text, format!("e{i}.{}", i % 2).as_bytes(), "element {i}");
        }
    });
}
