//! Nothing an overwritten or abandoned object wrote stays in a message
//! (the reference zeroes old objects: layout.c++, `zeroObject`; its test
//! Encoding.ZeroOldObject). Every word no pointer reaches from the root is
//! zero, after any sequence of sets, inits, clears, capability sets and
//! upgrades, on every arena, far pointers included. The reachable words
//! are found by a walker written here from the encoding spec, not by the
//! crate's reader.
//!
//! Zeroing treats the old words as untrusted (a message read from a peer
//! and then modified): hostile old pointers give an error or are skipped,
//! never a panic, a hang or a deep stack.

use capnarena::{
    AllocError, Arena, ElementSize, Error, FixedArena, GrowthPolicy, Message, MultiSegmentArena,
    ReaderOptions, SegmentId, SingleSegmentArena, StructBuilder, StructSize, Word,
};
use proptest::prelude::*;

/// The words of each segment of `msg`, as they go on the wire.
fn segments<A: Arena>(msg: &Message<A>) -> Vec<Vec<u64>> {
    msg.segments()
        .map(|s| s.words().iter().map(|w| w.to_u64()).collect())
        .collect()
}

/// Marks the words reachable from the root pointer (word 0 of segment 0):
/// pointers, landing pads, objects (a struct list's tag and all its words).
struct Reach<'m> {
    segs: &'m [Vec<u64>],
    marks: Vec<Vec<bool>>,
}

impl Reach<'_> {
    fn mark(&mut self, s: u32, from: u64, len: u64) {
        let seg = &mut self.marks[s as usize];
        let (from, len) = (from as usize, len as usize);
        assert!(from + len <= seg.len(), "object out of bounds");
        seg[from..from + len].iter_mut().for_each(|m| *m = true);
    }

    fn word(&self, s: u32, i: u64) -> u64 {
        self.segs[s as usize][i as usize]
    }

    /// Follows every pointer below the root, with an explicit work list.
    fn walk(&mut self) {
        let mut todo = vec![(0u32, 0u64)];
        while let Some((s, p)) = todo.pop() {
            self.mark(s, p, 1);
            let w = self.word(s, p);
            if w == 0 {
                continue;
            }
            let offset = |w: u64| i64::from((w as u32 as i32) >> 2);
            let (ts, start, tag) = match w & 3 {
                0 | 1 => (s, (p as i64 + 1 + offset(w)) as u64, w),
                2 => {
                    let ps = (w >> 32) as u32;
                    let pad = u64::from((w as u32) >> 3);
                    if (w >> 2) & 1 == 0 {
                        self.mark(ps, pad, 1);
                        let tag = self.word(ps, pad);
                        (ps, (pad as i64 + 1 + offset(tag)) as u64, tag)
                    } else {
                        self.mark(ps, pad, 2);
                        let far = self.word(ps, pad);
                        (
                            (far >> 32) as u32,
                            u64::from((far as u32) >> 3),
                            self.word(ps, pad + 1),
                        )
                    }
                }
                _ => continue,
            };
            if tag & 3 == 0 {
                let (d, n) = ((tag >> 32) & 0xffff, tag >> 48);
                self.mark(ts, start, d + n);
                todo.extend((0..n).map(|i| (ts, start + d + i)));
                continue;
            }
            let count = tag >> 35;
            let bits = [0, 1, 8, 16, 32, 64, 0, 0][((tag >> 32) & 7) as usize];
            match (tag >> 32) & 7 {
                6 => {
                    self.mark(ts, start, count);
                    todo.extend((0..count).map(|i| (ts, start + i)));
                }
                7 => {
                    self.mark(ts, start, count + 1);
                    let t = self.word(ts, start);
                    let (n, d, ptrs) = (u64::from((t as u32) >> 2), (t >> 32) & 0xffff, t >> 48);
                    for e in 0..n {
                        let at = start + 1 + e * (d + ptrs) + d;
                        todo.extend((0..ptrs).map(|i| (ts, at + i)));
                    }
                }
                _ => self.mark(ts, start, (count * bits).div_ceil(64)),
            }
        }
    }
}

/// The non-zero words no pointer reaches from the root, as
/// (segment, word, value).
fn stale_words<A: Arena>(msg: &Message<A>) -> Vec<(usize, usize, u64)> {
    let segs = segments(msg);
    let mut reach = Reach {
        segs: &segs,
        marks: segs.iter().map(|s| vec![false; s.len()]).collect(),
    };
    reach.walk();
    let mut stale = Vec::new();
    for (s, (words, marks)) in segs.iter().zip(&reach.marks).enumerate() {
        for (i, (&w, &m)) in words.iter().zip(marks).enumerate() {
            if w != 0 && !m {
                stale.push((s, i, w));
            }
        }
    }
    stale
}

/// A source message to copy from: a struct with data, a text and a
/// sub-struct with a list of texts.
fn source() -> Message<SingleSegmentArena> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root_struct(StructSize::new(2, 2)).unwrap();
    root.set::<u64>(0, 0x1111_2222_3333_4444);
    root.set_text(0, "copied text").unwrap();
    let mut sub = root.init_struct(1, StructSize::new(1, 1)).unwrap();
    sub.set::<u64>(0, 0x5555);
    let mut list = sub.init_list(0, ElementSize::Pointer, 2).unwrap();
    list.set_text(0, "a").unwrap();
    list.set_text(1, "bb").unwrap();
    msg
}

/// One step of a random edit.
#[derive(Clone, Debug)]
enum Op {
    InitRoot(u16, u16),
    InitStruct(u16, u16),
    SetText(usize),
    SetData(usize),
    InitList(u8, u32),
    InitStructList(u32, u16, u16),
    SetTextList(u8),
    CopyStruct,
    Capability,
    ClearPointer,
    Clear,
    UpgradeStruct(u16, u16),
    UpgradeList(u16, u16),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => (0..3u16, 1..4u16).prop_map(|(d, p)| Op::InitRoot(d, p)),
        3 => (0..3u16, 0..4u16).prop_map(|(d, p)| Op::InitStruct(d, p)),
        2 => (0..20usize).prop_map(Op::SetText),
        1 => (0..20usize).prop_map(Op::SetData),
        2 => (0..8u8, 0..12u32).prop_map(|(e, n)| Op::InitList(e, n)),
        2 => (0..4u32, 0..3u16, 0..3u16).prop_map(|(n, d, p)| Op::InitStructList(n, d, p)),
        1 => (0..4u8).prop_map(Op::SetTextList),
        1 => Just(Op::CopyStruct),
        1 => Just(Op::Capability),
        1 => Just(Op::ClearPointer),
        1 => Just(Op::Clear),
        2 => (0..4u16, 0..5u16).prop_map(|(d, p)| Op::UpgradeStruct(d, p)),
        1 => (0..3u16, 0..3u16).prop_map(|(d, p)| Op::UpgradeList(d, p)),
    ]
}

const SIZES: [ElementSize; 7] = [
    ElementSize::Void,
    ElementSize::Bit,
    ElementSize::Byte,
    ElementSize::TwoBytes,
    ElementSize::FourBytes,
    ElementSize::EightBytes,
    ElementSize::Pointer,
];

/// Applies `op` to pointer `index` of `s` (or to the root). Errors (a full
/// fixed arena, an upgrade the encoding refuses) are part of the test:
/// the property must hold after them too.
fn apply<A: Arena>(s: &mut StructBuilder<'_, A>, index: usize, op: &Op) -> capnarena::Result<()> {
    let filler = |b: &mut StructBuilder<'_, A>| -> capnarena::Result<()> {
        let size = b.size();
        if size.data_words > 0 {
            b.set::<u64>(0, 0xfeed_f00d);
        }
        if size.pointers > 0 {
            b.set_text(0, "inner")?;
        }
        Ok(())
    };
    match *op {
        Op::InitRoot(..) => unreachable!("applied to the message"),
        Op::InitStruct(d, p) => {
            let mut b = s.init_struct(index, StructSize::new(d, p))?;
            filler(&mut b)?;
        }
        Op::SetText(n) => s.set_text(index, &"t".repeat(n))?,
        Op::SetData(n) => s.set_data(index, &vec![0xab; n])?,
        Op::InitList(e, n) => {
            let size = SIZES[usize::from(e) % SIZES.len()];
            let mut list = s.init_list(index, size, n)?;
            if size == ElementSize::Pointer {
                for i in 0..n {
                    list.set_text(i, "element")?;
                }
            } else {
                for i in 0..n {
                    match size {
                        ElementSize::Bit => list.set_bool(i, true),
                        ElementSize::Byte => list.set::<u8>(i, 0x5a),
                        ElementSize::TwoBytes => list.set::<u16>(i, 0x5a5a),
                        ElementSize::FourBytes => list.set::<u32>(i, 0x5a5a_5a5a),
                        ElementSize::EightBytes => list.set::<u64>(i, u64::MAX),
                        _ => {}
                    }
                }
            }
        }
        Op::InitStructList(n, d, p) => {
            let mut list = s.init_struct_list(index, n, StructSize::new(d, p))?;
            for i in 0..n {
                filler(&mut list.get_struct(i))?;
            }
        }
        Op::SetTextList(n) => {
            let items: Vec<String> = (0..n).map(|i| "x".repeat(usize::from(i) * 5)).collect();
            s.set_text_list(index, items.iter().map(String::as_str))?;
        }
        Op::CopyStruct => {
            let src = source();
            s.pointer(index).set_struct(&src.reader().root().unwrap())?;
        }
        Op::Capability => s.pointer(index).set_capability(3),
        Op::ClearPointer => s.clear_pointer(index),
        Op::Clear => s.pointer(index).clear(),
        Op::UpgradeStruct(d, p) => {
            let mut b = s.get_struct(index, StructSize::new(d, p))?;
            filler(&mut b)?;
        }
        Op::UpgradeList(d, p) => {
            let mut list = s.pointer(index).get_struct_list(StructSize::new(d, p))?;
            if let Some(last) = list.len().checked_sub(1) {
                filler(&mut list.get_struct(last))?;
            }
        }
    }
    Ok(())
}

/// Runs `ops` on `msg`, each at the struct `path` leads to, and checks
/// after each that every unreachable word is zero.
fn run<A: Arena>(msg: &mut Message<A>, ops: &[(Vec<u8>, u8, Op)]) {
    msg.init_root_struct(StructSize::new(1, 3)).unwrap();
    for (step, (path, index, op)) in ops.iter().enumerate() {
        if let Op::InitRoot(d, p) = *op {
            let _ = msg.init_root_struct(StructSize::new(d, p));
        } else if let Ok(mut s) = msg.get_root_struct(StructSize::new(0, 0)) {
            // Down the path while it leads to structs with pointers.
            for &i in path {
                let n = s.size().pointers;
                if n == 0 {
                    break;
                }
                let i = usize::from(i) % usize::from(n);
                let child_is_struct = s.has_pointer(i)
                    && s.reborrow()
                        .into_pointer(i)
                        .get_struct(StructSize::new(0, 0))
                        .is_ok_and(|c| c.size().pointers > 0);
                if !child_is_struct {
                    break;
                }
                s = s.into_pointer(i).get_struct(StructSize::new(0, 0)).unwrap();
            }
            let n = s.size().pointers;
            if n > 0 {
                let _ = apply(&mut s, usize::from(*index) % usize::from(n), op);
            }
        }
        let stale = stale_words(msg);
        assert!(
            stale.is_empty(),
            "after step {step} ({op:?}): unreachable words left: {stale:x?}"
        );
    }
}

/// A multi-segment arena that answers only the trait's required calls:
/// objects that land elsewhere get their landing pads allocated apart,
/// and double-far pointers when the object's segment is full.
struct Plain(MultiSegmentArena);

impl Arena for Plain {
    fn segment_count(&self) -> u32 {
        self.0.segment_count()
    }
    fn segment(&self, id: SegmentId) -> &[Word] {
        self.0.segment(id)
    }
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        self.0.segment_mut(id)
    }
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        self.0.allocate(len, hint)
    }
    fn reset(&mut self) {
        self.0.reset()
    }
}

fn tiny_segments(words: u32) -> MultiSegmentArena {
    MultiSegmentArena::new()
        .with_first_segment_words(words)
        .with_policy(GrowthPolicy::FixedSize(words))
}

fn ops() -> impl Strategy<Value = Vec<(Vec<u8>, u8, Op)>> {
    proptest::collection::vec(
        (proptest::collection::vec(0..4u8, 0..3), 0..4u8, op()),
        1..24,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    /// One growable segment.
    #[test]
    fn single_segment_keeps_no_stale_words(ops in ops()) {
        run(&mut Message::new(SingleSegmentArena::new()), &ops);
    }

    /// Segments of a few words: far pointers, landing pads placed with
    /// their objects.
    #[test]
    fn tiny_segments_keep_no_stale_words(ops in ops(), words in 2..6u32) {
        run(&mut Message::new(tiny_segments(words)), &ops);
    }

    /// Segments of a few words through the trait's required calls only:
    /// landing pads apart from their objects, double far pointers.
    #[test]
    fn plain_arena_keeps_no_stale_words(ops in ops(), words in 2..6u32) {
        run(&mut Message::new(Plain(tiny_segments(words))), &ops);
    }

    /// A caller's buffer, small enough to run out now and then.
    #[test]
    fn fixed_arena_keeps_no_stale_words(ops in ops(), words in 64..400usize) {
        let mut buf = vec![Word::ZERO; words];
        run(&mut Message::new(FixedArena::new(&mut buf)), &ops);
    }
}

/// Encoding.ZeroOldObject, by hand offsets: a new root leaves nothing of
/// the old one, its sub-struct, its list of texts or its struct list. Set
/// twice, a text leaves nothing of the first one.
#[test]
fn a_new_root_zeroes_the_old_tree() {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root_struct(StructSize::new(2, 3)).unwrap();
    root.set::<u64>(0, u64::MAX);
    root.set_text(0, "first").unwrap();
    root.set_text(0, "second").unwrap();
    let mut sub = root.init_struct(1, StructSize::new(1, 1)).unwrap();
    sub.set::<u64>(0, 7);
    sub.set_text_list(0, ["a", "b"]).unwrap();
    let mut list = root.init_struct_list(2, 2, StructSize::new(1, 1)).unwrap();
    list.get_struct(1).set_text(0, "element").unwrap();
    assert_eq!(stale_words(&msg), [], "the first text was zeroed");
    let before = msg.segment(0).unwrap().words().len();
    msg.init_root_struct(StructSize::new(1, 0)).unwrap();
    let words = segments(&msg).remove(0);
    assert_eq!(words.len(), before + 1, "the new root after the old words");
    let set: Vec<_> = words.iter().enumerate().filter(|(_, w)| **w != 0).collect();
    // Only the root pointer is set: the new root's one data word is zero.
    assert_eq!(set.len(), 1, "{set:x?}");
}

/// Builds a chain of `depth` structs below a root (each: one data word,
/// one pointer to the next).
fn chain<A: Arena>(msg: &mut Message<A>, depth: u32) {
    let size = StructSize::new(1, 1);
    let mut s = msg.init_root_struct(size).unwrap();
    s.set::<u64>(0, 1);
    for level in 1..=depth {
        s = s.into_pointer(0).init_struct(size).unwrap();
        s.set::<u64>(0, u64::from(level) + 1);
    }
}

/// A 100,000-level chain, and a tree whose every struct has two nested
/// children (its work list grows with the depth), are zeroed whole when
/// the root is set again, on a 64 KiB thread.
#[test]
fn deep_old_objects_are_zeroed_on_a_64_kib_stack() {
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(|| {
            let mut msg = Message::new(MultiSegmentArena::new());
            chain(&mut msg, 100_000);
            msg.init_root_struct(StructSize::new(0, 0)).unwrap();
            assert_eq!(stale_words(&msg), []);
            // Each struct's first pointer leads on, its second to a leaf:
            // the first is not the last pointer, so each level keeps a
            // frame.
            let mut msg = Message::new(SingleSegmentArena::new());
            let mut s = msg.init_root_struct(StructSize::new(0, 2)).unwrap();
            for _ in 0..5_000 {
                s.set_text(1, "leaf").unwrap();
                s = s
                    .into_pointer(0)
                    .init_struct(StructSize::new(0, 2))
                    .unwrap();
            }
            msg.init_root_struct(StructSize::new(0, 0)).unwrap();
            assert_eq!(stale_words(&msg), []);
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Frames `words` (segment 0) as one message.
fn framed(words: &[u64]) -> Vec<u8> {
    let mut out = vec![0u8; 8];
    out[4..8].copy_from_slice(&(words.len() as u32).to_le_bytes());
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Old words from a peer, read into a message and then overwritten:
/// garbage is an error or skipped, never a panic or a hang, and the slot
/// is null or the new value afterwards.
#[test]
fn hostile_old_pointers_are_errors_not_panics() {
    let cases: [(&str, Vec<u64>); 5] = [
        (
            // Root: struct of 0 data words, 1 pointer, at word 1.
            // Word 1: a struct pointer to offset 1,000,000 (out of bounds).
            "out of bounds",
            vec![0x0001_0000_0000_0000, 0x0000_0001_003d_0900],
        ),
        (
            // Word 1: points at itself (offset -1): a cycle.
            "cycle",
            vec![0x0001_0000_0000_0000, 0x0001_0000_ffff_fffc],
        ),
        (
            // Word 1: a far pointer into segment 9 (missing).
            "missing segment",
            vec![0x0001_0000_0000_0000, 0x0000_0009_0000_000a],
        ),
        (
            // Word 1: a composite list of 1 word whose tag claims 5
            // elements of 1 word.
            "bad tag",
            vec![
                0x0001_0000_0000_0000,
                0x0000_000f_0000_0001,
                0x0000_0001_0000_0014,
                0,
            ],
        ),
        (
            // Words 1-3: three pointers to the same struct of 2 pointers
            // that point back at words 1-2: shared and cyclic.
            "shared",
            vec![
                0x0003_0000_0000_0000,
                0x0002_0000_0000_0008,
                0x0002_0000_0000_0004,
                0x0002_0000_0000_0000,
                0x0002_0000_ffff_fff0,
                0x0002_0000_ffff_fff0,
            ],
        ),
    ];
    for (what, words) in cases {
        for clear in [false, true] {
            let mut msg = Message::new(SingleSegmentArena::new());
            msg.read_from_bytes(&framed(&words), ReaderOptions::default())
                .unwrap();
            let mut root = msg.get_root_struct(StructSize::new(0, 1)).unwrap();
            if clear {
                root.clear_pointer(0);
            } else {
                match root.set_text(0, "new") {
                    Ok(()) => {}
                    Err(
                        Error::OutOfBounds { .. }
                        | Error::MissingSegment { .. }
                        | Error::BadCompositeTag { .. }
                        | Error::TraversalLimitExceeded { .. }
                        | Error::OldObjectOverlapsNew { .. },
                    ) => {}
                    Err(e) => panic!("{what}: {e:?}"),
                }
            }
            let reader = msg.reader();
            let root = reader.root().unwrap();
            let p = root.pointer(0);
            assert!(
                p.is_null() || root.get_text(0).unwrap() == "new",
                "{what}: the slot is null or the new text"
            );
        }
    }
}

/// Setting a text, data or an empty list again through one struct builder
/// takes the out-of-line path, which keeps no data section for the
/// struct: the data written after each set still lands, the old objects
/// are zeroed, and nothing but the root's tree is left.
#[test]
fn sets_over_set_slots_keep_later_data_writes() {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root_struct(StructSize::new(1, 3)).unwrap();
    root.set_text(0, "first text, three words").unwrap();
    root.set_data(1, b"old data").unwrap();
    let mut list = root.init_list(2, ElementSize::FourBytes, 3).unwrap();
    for i in 0..3 {
        list.set::<u32>(i, 0xdead_0000 + i);
    }
    for round in 0..3u32 {
        root.set_text(0, "second").unwrap();
        root.set::<u32>(0, round);
        root.set_data(1, b"new").unwrap();
        root.set::<u32>(1, round + 10);
        root.init_list(2, ElementSize::FourBytes, 0).unwrap();
        root.set::<u16>(1, 7);
    }
    let stale = stale_words(&msg);
    assert!(stale.is_empty(), "unreachable words left: {stale:x?}");
    let reader = msg.reader();
    let root = reader.root().unwrap();
    assert_eq!((root.get::<u16>(0), root.get::<u16>(1)), (2, 7));
    assert_eq!(root.get::<u32>(1), 12);
    assert_eq!(root.get_text(0).unwrap(), "second");
    assert_eq!(root.get_data(1).unwrap(), b"new");
    assert_eq!(root.get_list(2, ElementSize::FourBytes).unwrap().len(), 0);
}
