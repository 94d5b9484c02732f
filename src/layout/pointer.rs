//! Pointer words: decoding and encoding (the encoding spec's "Pointers").

use crate::error::PointerKind;

/// The size of a struct: data section words and pointer count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StructSize {
    /// Words in the data section.
    pub data_words: u16,
    /// Pointers in the pointer section.
    pub pointers: u16,
}

impl StructSize {
    /// A struct of `data_words` data words and `pointers` pointers.
    pub const fn new(data_words: u16, pointers: u16) -> Self {
        StructSize {
            data_words,
            pointers,
        }
    }

    /// Words the struct occupies.
    pub const fn total_words(self) -> u32 {
        self.data_words as u32 + self.pointers as u32
    }
}

/// The element size of a list, as its pointer encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ElementSize {
    /// `Void` elements: no bits.
    Void = 0,
    /// `Bool` elements: one bit each.
    Bit = 1,
    /// One byte per element (`Int8`, `UInt8`, text and data bytes).
    Byte = 2,
    /// Two bytes per element (`Int16`, `UInt16`, enums).
    TwoBytes = 3,
    /// Four bytes per element (`Int32`, `UInt32`, `Float32`).
    FourBytes = 4,
    /// Eight bytes per element (`Int64`, `UInt64`, `Float64`).
    EightBytes = 5,
    /// One pointer per element (lists of text, data, lists, any pointer).
    Pointer = 6,
    /// Structs laid out inline after a tag word.
    InlineComposite = 7,
}

impl ElementSize {
    pub(crate) const fn from_bits(v: u64) -> ElementSize {
        match v & 7 {
            0 => ElementSize::Void,
            1 => ElementSize::Bit,
            2 => ElementSize::Byte,
            3 => ElementSize::TwoBytes,
            4 => ElementSize::FourBytes,
            5 => ElementSize::EightBytes,
            6 => ElementSize::Pointer,
            _ => ElementSize::InlineComposite,
        }
    }

    /// Data bits per element (0 for pointers and inline composites, whose
    /// size comes from the tag word).
    pub const fn data_bits(self) -> u32 {
        match self {
            ElementSize::Void | ElementSize::Pointer | ElementSize::InlineComposite => 0,
            ElementSize::Bit => 1,
            ElementSize::Byte => 8,
            ElementSize::TwoBytes => 16,
            ElementSize::FourBytes => 32,
            ElementSize::EightBytes => 64,
        }
    }

    /// Pointers per element (1 for `Pointer`, 0 otherwise; inline composites
    /// take theirs from the tag word).
    pub const fn pointers(self) -> u32 {
        matches!(self, ElementSize::Pointer) as u32
    }
}

pub(crate) const KIND_STRUCT: u64 = 0;
pub(crate) const KIND_LIST: u64 = 1;
pub(crate) const KIND_FAR: u64 = 2;
pub(crate) const KIND_OTHER: u64 = 3;

/// Largest element count of a list pointer (29 bits), and largest word
/// count of an inline-composite list.
pub(crate) const MAX_LIST_COUNT: u64 = (1 << 29) - 1;
/// Largest struct-list element count of a tag word (30 bits, unsigned).
pub(crate) const MAX_SEGMENT_WORDS: u64 = (1 << 29) - 1;

#[inline]
pub(crate) const fn kind(w: u64) -> u64 {
    w & 3
}

pub(crate) fn pointer_kind(w: u64) -> PointerKind {
    match kind(w) {
        _ if w == 0 => PointerKind::Null,
        KIND_STRUCT => PointerKind::Struct,
        KIND_LIST => PointerKind::List,
        KIND_FAR => PointerKind::Far,
        _ if (w as u32) == KIND_OTHER as u32 => PointerKind::Capability,
        _ => PointerKind::Other,
    }
}

/// Signed word offset of a struct or list pointer (bits 2..32).
#[inline]
pub(crate) const fn offset(w: u64) -> i64 {
    ((w as u32 as i32) >> 2) as i64
}

#[inline]
pub(crate) const fn struct_size(w: u64) -> StructSize {
    StructSize::new((w >> 32) as u16, (w >> 48) as u16)
}

#[inline]
pub(crate) const fn list_element_size(w: u64) -> ElementSize {
    ElementSize::from_bits(w >> 32)
}

#[inline]
pub(crate) const fn list_count(w: u64) -> u64 {
    w >> 35
}

/// Element count of an inline-composite tag word (its offset field, read
/// unsigned).
#[inline]
pub(crate) const fn tag_element_count(w: u64) -> u64 {
    ((w as u32) >> 2) as u64
}

#[inline]
pub(crate) const fn far_is_double(w: u64) -> bool {
    (w >> 2) & 1 == 1
}

#[inline]
pub(crate) const fn far_pad_offset(w: u64) -> u64 {
    ((w as u32) >> 3) as u64
}

#[inline]
pub(crate) const fn far_segment(w: u64) -> u32 {
    (w >> 32) as u32
}

#[inline]
pub(crate) const fn capability_index(w: u64) -> u32 {
    (w >> 32) as u32
}

#[inline]
pub(crate) const fn encode_offset(offset: i64) -> u64 {
    ((offset as i32 as u32) << 2) as u64
}

#[inline]
pub(crate) const fn encode_struct(offset: i64, size: StructSize) -> u64 {
    encode_offset(offset) | ((size.data_words as u64) << 32) | ((size.pointers as u64) << 48)
}

#[inline]
pub(crate) const fn encode_list(offset: i64, size: ElementSize, count: u64) -> u64 {
    encode_offset(offset) | KIND_LIST | ((size as u64) << 32) | (count << 35)
}

#[inline]
pub(crate) const fn encode_far(double: bool, pad_offset: u64, segment: u32) -> u64 {
    KIND_FAR | ((double as u64) << 2) | (pad_offset << 3) | ((segment as u64) << 32)
}

#[inline]
pub(crate) const fn encode_capability(index: u32) -> u64 {
    KIND_OTHER | ((index as u64) << 32)
}

/// The tag word of an inline-composite list of `count` elements of `size`.
#[inline]
pub(crate) const fn encode_tag(count: u64, size: StructSize) -> u64 {
    (((count as u32) << 2) as u64)
        | ((size.data_words as u64) << 32)
        | ((size.pointers as u64) << 48)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Words below are spelled from the encoding spec's bit layouts.
    #[test]
    fn struct_pointer_fields() {
        // offset 3, 2 data words, 1 pointer: 0x0001_0002_0000_000c
        let w = encode_struct(3, StructSize::new(2, 1));
        assert_eq!(w, 0x0001_0002_0000_000c);
        assert_eq!(offset(w), 3);
        assert_eq!(struct_size(w), StructSize::new(2, 1));
        assert_eq!(pointer_kind(w), PointerKind::Struct);
    }

    #[test]
    fn negative_offset_sign_extends() {
        let w = encode_struct(-1, StructSize::new(0, 0));
        assert_eq!(w, 0x0000_0000_ffff_fffc);
        assert_eq!(offset(w), -1);
    }

    #[test]
    fn list_pointer_fields() {
        // offset 0, byte elements, 6 elements: C=2 at bit 32, D=6 at bit 35
        let w = encode_list(0, ElementSize::Byte, 6);
        assert_eq!(w, 0x0000_0032_0000_0001);
        assert_eq!(list_element_size(w), ElementSize::Byte);
        assert_eq!(list_count(w), 6);
    }

    #[test]
    fn far_pointer_fields() {
        // double far, landing pad at word 5 of segment 2
        let w = encode_far(true, 5, 2);
        assert_eq!(w, 0x0000_0002_0000_002e);
        assert!(far_is_double(w));
        assert_eq!(far_pad_offset(w), 5);
        assert_eq!(far_segment(w), 2);
    }

    #[test]
    fn capability_pointer_fields() {
        let w = encode_capability(7);
        assert_eq!(w, 0x0000_0007_0000_0003);
        assert_eq!(pointer_kind(w), PointerKind::Capability);
        assert_eq!(capability_index(w), 7);
    }
}
