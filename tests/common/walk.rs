//! A full traversal of a message being read, for untrusted-input tests and
//! fuzz targets (which include this file with `#[path]`, so both run the
//! same logic).
//!
//! Every pointer is read as every kind a schema could claim it has
//! (struct, list of each element size, text, data, capability); what it
//! really is (struct or list) is then followed recursively. Every element
//! of every list is read as the list's own kind and as a struct. Each value
//! read goes into a digest, so two traversals of equal content give equal
//! [`Walked`] results whatever their segment layout.
//!
//! [`exercise`] adds what else a caller does with an untrusted message:
//! the canonical check and deep copies, with the properties they must keep.
//!
//! The traversal checks one property on its own: it never gets deeper than
//! the depth it is given (the reader's nesting limit), so a reader that
//! failed to bound nesting makes it panic instead of overflowing the stack.

use capnarena::{
    ElementSize, Error, ListReader, Message, MessageReader, PointerReader, ReaderOptions,
    SingleSegmentArena, StructReader, Word,
};

/// Every element size, in wire order.
pub const ALL_SIZES: [ElementSize; 8] = [
    ElementSize::Void,
    ElementSize::Bit,
    ElementSize::Byte,
    ElementSize::TwoBytes,
    ElementSize::FourBytes,
    ElementSize::EightBytes,
    ElementSize::Pointer,
    ElementSize::InlineComposite,
];

/// What a traversal saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// Structs followed (by pointer, or as elements of a struct list).
    pub structs: u64,
    /// Lists followed.
    pub lists: u64,
    /// List elements visited.
    pub elements: u64,
    /// Errors returned by the reader (every one is expected on hostile
    /// input; what matters is that they are errors, not panics).
    pub errors: u64,
    /// Of `errors`, those that were a traversal or nesting limit.
    pub limit_errors: u64,
    /// A digest of every value and every error kind seen, in order.
    pub digest: u64,
}

impl Walked {
    fn mix(&mut self, v: u64) {
        // FNV-style mixing: order-sensitive, cheap, deterministic.
        self.digest = (self.digest ^ v).wrapping_mul(0x0000_0100_0000_01B3);
    }

    fn note<T>(&mut self, r: capnarena::Result<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors += 1;
                let code = error_code(&e);
                if code <= 2 {
                    self.limit_errors += 1;
                }
                self.mix(0xE000 + code);
                None
            }
        }
    }
}

/// A small number per error kind (limits first), leaving out the numbers
/// an error carries: those name offsets and segments, which differ between
/// a message and its deep copy.
pub fn error_code(e: &Error) -> u64 {
    match e {
        Error::TraversalLimitExceeded { .. } => 1,
        Error::NestingLimitExceeded { .. } => 2,
        Error::OutOfBounds { .. } => 10,
        Error::MissingSegment { .. } => 11,
        Error::BadLandingPad { .. } => 12,
        Error::UnexpectedPointer { .. } => 13,
        Error::IncompatibleList { .. } => 14,
        Error::BadCompositeTag { .. } => 15,
        Error::TextNotTerminated { .. } => 16,
        Error::Utf8 { .. } => 17,
        _ => 99,
    }
}

/// Traverses the whole message from its root pointer. `max_depth` is the
/// reader's nesting limit: no object may be reached through more pointers
/// than that.
///
/// # Panics
/// When the traversal gets deeper than `max_depth`.
pub fn walk_message(reader: &MessageReader<'_>, max_depth: u32) -> Walked {
    let mut w = Walked::default();
    let _ = reader.segment_count();
    if let Some(root) = w.note(reader.root_pointer()) {
        walk_pointer(&root, 0, max_depth, &mut w);
    }
    w
}

/// Reads `p` as every kind, then follows what it is. `depth` is the number
/// of pointers followed to reach the object holding `p`.
pub fn walk_pointer(p: &PointerReader<'_>, depth: u32, max_depth: u32, w: &mut Walked) {
    w.mix(u64::from(p.is_null()));
    if let Some(kind) = w.note(p.kind()) {
        w.mix(kind as u64);
    }
    if let Some(cap) = w.note(p.get_capability()) {
        w.mix(u64::from(cap));
    }
    if let Some(text) = w.note(p.get_text()) {
        w.mix(text.len() as u64);
    }
    if let Some(bytes) = w.note(p.get_text_bytes()) {
        w.mix(bytes.len() as u64);
    }
    if let Some(data) = w.note(p.get_data()) {
        w.mix(
            data.iter()
                .fold(data.len() as u64, |a, &b| a.rotate_left(5) ^ u64::from(b)),
        );
    }
    for size in ALL_SIZES {
        if let Some(list) = w.note(p.get_list(size)) {
            read_list_as(&list, size, w);
        }
    }
    // A null pointer reads as an empty struct or list without following
    // anything, so it costs no nesting level.
    let next = if p.is_null() { depth } else { depth + 1 };
    if let Some(s) = w.note(p.get_struct()) {
        walk_struct(&s, next, max_depth, w);
    }
    if let Some(list) = w.note(p.get_list_any()) {
        walk_list(&list, next, max_depth, w);
    }
}

fn check_depth(depth: u32, max_depth: u32) {
    assert!(
        depth <= max_depth,
        "traversal reached depth {depth}, past the nesting limit {max_depth}"
    );
}

/// Reads a struct's data section and follows each of its pointers.
pub fn walk_struct(s: &StructReader<'_>, depth: u32, max_depth: u32, w: &mut Walked) {
    check_depth(depth, max_depth);
    w.structs += 1;
    read_struct_data(s, w);
    for i in 0..usize::from(s.pointer_count()) {
        walk_pointer(&s.pointer(i), depth, max_depth, w);
    }
    // Past the pointer section: a null pointer, never a read out of bounds.
    w.mix(u64::from(
        s.pointer(usize::from(s.pointer_count())).is_null(),
    ));
}

fn read_struct_data(s: &StructReader<'_>, w: &mut Walked) {
    let size = s.size();
    w.mix(u64::from(size.data_words) << 16 | u64::from(size.pointers));
    w.mix(u64::from(s.data_bits()));
    let bytes = s.data_bytes();
    w.mix(bytes.len() as u64);
    for i in 0..bytes.len().div_ceil(8) + 1 {
        w.mix(s.get::<u64>(i));
    }
    w.mix(u64::from(s.get::<u8>(0)) ^ u64::from(s.get::<u16>(1)) << 8);
    w.mix(u64::from(s.get::<u32>(1)) ^ u64::from(s.get_bool(3)));
    w.mix(s.get::<f64>(0).to_bits());
}

/// Follows every element of a list as what the list says it holds.
pub fn walk_list(list: &ListReader<'_>, depth: u32, max_depth: u32, w: &mut Walked) {
    check_depth(depth, max_depth);
    w.lists += 1;
    let size = list.element_size();
    w.mix(size as u64);
    w.mix(u64::from(list.len()));
    match size {
        ElementSize::InlineComposite => {
            let ss = list.struct_size();
            w.mix(u64::from(ss.data_words) << 16 | u64::from(ss.pointers));
            for i in 0..list.len() {
                w.elements += 1;
                walk_struct(&list.get_struct(i), depth, max_depth, w);
            }
        }
        ElementSize::Pointer => {
            for i in 0..list.len() {
                w.elements += 1;
                walk_pointer(&list.get_pointer(i), depth, max_depth, w);
            }
        }
        other => read_list_as(list, other, w),
    }
}

/// Reads every element of `list` as elements of `size` (the size a schema
/// claimed, which the reader accepted), one level deep: pointers are
/// resolved but not followed further.
fn read_list_as(list: &ListReader<'_>, size: ElementSize, w: &mut Walked) {
    w.mix(u64::from(list.is_empty()));
    for i in 0..list.len() {
        w.elements += 1;
        match size {
            ElementSize::Void => {}
            ElementSize::Bit => w.mix(u64::from(list.get_bool(i))),
            ElementSize::Byte => w.mix(u64::from(list.get::<u8>(i))),
            ElementSize::TwoBytes => w.mix(u64::from(list.get::<u16>(i))),
            ElementSize::FourBytes => w.mix(u64::from(list.get::<u32>(i))),
            ElementSize::EightBytes => w.mix(list.get::<u64>(i)),
            ElementSize::Pointer => {
                let p = list.get_pointer(i);
                if let Some(kind) = w.note(p.kind()) {
                    w.mix(kind as u64);
                }
                if let Some(text) = w.note(p.get_text()) {
                    w.mix(text.len() as u64);
                }
            }
            ElementSize::InlineComposite => {
                let s = list.get_struct(i);
                read_struct_data(&s, w);
                if let Some(kind) = w.note(s.pointer(0).kind()) {
                    w.mix(kind as u64);
                }
            }
        }
    }
    if size == ElementSize::Byte {
        if let Some(bytes) = w.note(list.as_bytes()) {
            w.mix(bytes.len() as u64);
        }
    }
}

/// Everything a caller can do with an untrusted message: traverse it all
/// ([`walk_message`]), check it for canonical form, deep-copy it into a
/// builder (plain and canonical). Returns the first traversal's result.
/// Restores the reader's traversal budget before each step.
///
/// # Panics
/// Only on a broken property:
/// - the traversal got deeper than `options.nesting_limit`;
/// - a plain deep copy that succeeded reads back differently from its
///   source (checked when the source's traversal hit no limit, so that
///   both saw everything);
/// - the canonical form of a readable root is not canonical.
pub fn exercise(reader: &MessageReader<'_>, options: ReaderOptions) -> Walked {
    reader.reset_traversal();
    let walked = walk_message(reader, options.nesting_limit);
    reader.reset_traversal();
    let _ = reader.is_canonical();

    reader.reset_traversal();
    let mut copy = Message::new(SingleSegmentArena::new());
    let copied = match (copy.root_pointer(), reader.root_pointer()) {
        (Ok(mut dst), Ok(src)) => dst.set_from(&src).is_ok(),
        _ => false,
    };
    if copied && walked.limit_errors == 0 {
        let again = walk_message(&copy.reader(), options.nesting_limit);
        assert_eq!(
            walked, again,
            "a deep copy reads differently from its source"
        );
    }

    reader.reset_traversal();
    if let Ok(root) = reader.root() {
        let mut canon = Message::new(SingleSegmentArena::new());
        if let Ok(words) = canon.set_root_canonical(&root) {
            let words = words.to_vec();
            let segs: [&[Word]; 1] = [&words];
            let back = MessageReader::from_segments(&segs, ReaderOptions::default())
                .expect("one segment is within any limit");
            assert_eq!(
                back.is_canonical().ok(),
                Some(true),
                "the canonical form of a readable root is not canonical"
            );
        }
    }
    reader.reset_traversal();
    walked
}
