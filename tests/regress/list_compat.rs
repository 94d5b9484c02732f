//! CVE-2022-46149 class: a list read as an element type its encoding
//! cannot supply. A struct list whose structs have no pointer section read
//! as a list of pointers (e.g. `List(List(T))` or `List(Text)`) would read
//! data words, or words past the list, as pointers; a pointer list read as
//! 8-byte data would expose pointers as numbers. Both must fail with
//! `Error::IncompatibleList` carrying the expected and found element
//! shapes, on the reader side and on the builder side.

use capnarena::{ElementSize, Error, Message, SingleSegmentArena, StructSize, Word};

use super::{msg, reader};

/// CVE-2022-46149: an inline-composite list of 2 structs of (1 data word,
/// 0 pointers) read as a list of pointers.
#[test]
fn struct_list_without_pointers_as_pointer_list() {
    let s0 = msg(&[
        0x0000_0017_0000_0001, // root: list, offset 0, size 7 (composite), 2 words
        0x0000_0001_0000_0008, // tag: 2 elements, 1 data word, 0 ptrs
        0x0000_0001_0000_0000, // element 0 data (looks like a struct pointer)
        0x0000_0001_0000_0001, // element 1 data (looks like a list pointer)
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list(ElementSize::Pointer),
        Error::IncompatibleList {
            expected_data_bits: 0,
            expected_pointers: 1,
            found_data_bits: 64,
            found_pointers: 0,
            ..
        }
    );
}

/// CVE-2022-46149: the same struct list reached as an element of a
/// `List(List(T))`: the outer pointer list is fine, the inner read must
/// fail.
#[test]
fn struct_list_as_inner_list_of_list_of_lists() {
    let s0 = msg(&[
        0x0000_000E_0000_0001, // root: list, offset 0, size 6 (pointer), 1 element
        0x0000_0017_0000_0001, // element 0: list, offset 0, size 7 (composite), 2 words
        0x0000_0001_0000_0008, // tag: 2 elements, 1 data word, 0 ptrs
        0x0000_0001_0000_0000, // struct 0 data
        0x0000_0001_0000_0001, // struct 1 data
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let outer = r
        .root_pointer()
        .unwrap()
        .get_list(ElementSize::Pointer)
        .unwrap();
    assert_eq!(outer.len(), 1);
    assert_err!(
        outer.get_list(0, ElementSize::Pointer),
        Error::IncompatibleList {
            expected_data_bits: 0,
            expected_pointers: 1,
            found_data_bits: 64,
            found_pointers: 0,
            ..
        }
    );
}

/// CVE-2022-46149 class: a list of 2 pointers read as a list of 8-byte
/// data.
#[test]
fn pointer_list_as_eight_byte_list() {
    let s0 = msg(&[
        0x0000_0016_0000_0001, // root: list, offset 0, size 6 (pointer), 2 elements
        0x0000_0000_0000_0000, // element 0: null
        0xFFFF_FFFF_FFFF_FFFC, // element 1: struct, offset -1, huge size (never followed)
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list(ElementSize::EightBytes),
        Error::IncompatibleList {
            expected_data_bits: 64,
            expected_pointers: 0,
            found_data_bits: 0,
            found_pointers: 1,
            ..
        }
    );
}

/// CVE-2022-46149 class: a byte list (e.g. a `Text`) read as a list of
/// pointers (`List(Text)`).
#[test]
fn byte_list_as_pointer_list() {
    let s0 = msg(&[
        0x0000_0042_0000_0001, // root: list, offset 0, size 2 (byte), 8 elements
        0x0000_0001_0000_0000, // 8 bytes that look like a struct pointer
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list(ElementSize::Pointer),
        Error::IncompatibleList {
            expected_data_bits: 0,
            expected_pointers: 1,
            found_data_bits: 8,
            found_pointers: 0,
            ..
        }
    );
}

/// CVE-2022-46149 class: a bit list read as a struct list (bit lists are
/// compatible with nothing but bit lists).
#[test]
fn bit_list_as_struct_list() {
    let s0 = msg(&[
        0x0000_0041_0000_0001, // root: list, offset 0, size 1 (bit), 8 elements
        0x0000_0000_0000_00FF, // 8 set bits
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer()
            .unwrap()
            .get_list(ElementSize::InlineComposite),
        Error::IncompatibleList {
            found_data_bits: 1,
            found_pointers: 0,
            ..
        }
    );
}

/// CVE-2022-46149, builder side: a struct list of (1 data word, 0
/// pointers) built with capnarena, then opened again with
/// `PointerBuilder::get_list(ElementSize::Pointer)`: writing pointers into
/// it would overwrite data words.
#[test]
fn builder_struct_list_as_pointer_list() {
    let mut m = Message::new(SingleSegmentArena::new());
    let mut list = m
        .root_pointer()
        .unwrap()
        .init_struct_list(2, StructSize::new(1, 0))
        .unwrap();
    list.get_struct(0).set::<u64>(0, 0x0000_0001_0000_0000);
    assert_err!(
        m.root_pointer().unwrap().get_list(ElementSize::Pointer),
        Error::IncompatibleList {
            expected_data_bits: 0,
            expected_pointers: 1,
            found_data_bits: 64,
            found_pointers: 0,
            ..
        }
    );
}

/// CVE-2022-46149 class, builder side: a pointer list opened again as
/// 8-byte data.
#[test]
fn builder_pointer_list_as_eight_byte_list() {
    let mut m = Message::new(SingleSegmentArena::new());
    m.root_pointer()
        .unwrap()
        .init_list(ElementSize::Pointer, 2)
        .unwrap();
    assert_err!(
        m.root_pointer().unwrap().get_list(ElementSize::EightBytes),
        Error::IncompatibleList {
            expected_data_bits: 64,
            expected_pointers: 0,
            found_data_bits: 0,
            found_pointers: 1,
            ..
        }
    );
}

/// Control: the struct list of the tests above reads as what it is.
#[test]
fn struct_list_as_struct_list_control() {
    let s0 = msg(&[
        0x0000_0017_0000_0001, // root: list, offset 0, size 7 (composite), 2 words
        0x0000_0001_0000_0008, // tag: 2 elements, 1 data word, 0 ptrs
        0x0000_0000_0000_0007, // element 0 data: 7
        0x0000_0000_0000_0009, // element 1 data: 9
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let list = r
        .root_pointer()
        .unwrap()
        .get_list(ElementSize::InlineComposite)
        .unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list.get_struct(1).get::<u64>(0), 9);
    assert!(list.get_pointer(0).is_null());
}

/// CVE-2022-46149, the other way round: a list of pointers read as a
/// struct list is legal (each element is a struct of 0 data words and 1
/// pointer), and must expose the pointers only as pointers: the data
/// section is empty, so every data read is 0, never the pointer's bits.
#[test]
fn pointer_list_as_struct_list() {
    let s0 = msg(&[
        0x0000_0016_0000_0001, // root: list, offset 0 (word 1), size 6 (pointer), 2 elements
        0x0000_0001_0000_0004, // element 0: struct, offset 1 (word 3), 1 data word
        0x0000_0000_0000_0000, // element 1: null
        0x0000_0000_0000_0063, // word 3: element 0's struct, data 99
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let list = r
        .root_pointer()
        .unwrap()
        .get_list(ElementSize::InlineComposite)
        .unwrap();
    assert_eq!(list.len(), 2);
    let e0 = list.get_struct(0);
    assert_eq!((e0.data_bits(), e0.pointer_count()), (0, 1));
    assert_eq!(e0.get::<u64>(0), 0, "pointer bits must not read as data");
    assert_eq!(e0.get_struct(0).unwrap().get::<u64>(0), 99);
    assert!(list.get_struct(1).pointer(0).is_null());
}

/// CVE-2022-46149 through `set`: a deep copy (`set_from`) of the
/// pointer-less struct list keeps its shape, so the copy refuses to be
/// read as a list of pointers exactly as the source did.
#[test]
fn struct_list_without_pointers_copied_then_read_as_pointers() {
    let s0 = msg(&[
        0x0000_0017_0000_0001, // root: list, offset 0, size 7 (composite), 2 words
        0x0000_0001_0000_0008, // tag: 2 elements, 1 data word, 0 ptrs
        0x0000_0001_0000_0000, // element 0 data (looks like a struct pointer)
        0x0000_0001_0000_0001, // element 1 data (looks like a list pointer)
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let mut m = Message::new(SingleSegmentArena::new());
    m.root_pointer()
        .unwrap()
        .set_from(&r.root_pointer().unwrap())
        .unwrap();
    let copy = m.reader();
    assert_err!(
        copy.root_pointer().unwrap().get_list(ElementSize::Pointer),
        Error::IncompatibleList {
            expected_data_bits: 0,
            expected_pointers: 1,
            found_data_bits: 64,
            found_pointers: 0,
            ..
        }
    );
    // And the builder refuses to open the copy for writing pointers.
    assert_err!(
        m.root_pointer().unwrap().get_list(ElementSize::Pointer),
        Error::IncompatibleList {
            expected_pointers: 1,
            found_data_bits: 64,
            found_pointers: 0,
            ..
        }
    );
}

/// CVE-2022-46149, builder side the other way round: a pointer list
/// opened again as a struct list for writing. Struct elements would be
/// written with the tag layout the list does not have.
#[test]
fn builder_pointer_list_as_struct_list() {
    let mut m = Message::new(SingleSegmentArena::new());
    let mut list = m
        .root_pointer()
        .unwrap()
        .init_list(ElementSize::Pointer, 2)
        .unwrap();
    list.set_text(0, "kept").unwrap();
    assert_err!(
        m.root_pointer()
            .unwrap()
            .get_list(ElementSize::InlineComposite),
        Error::IncompatibleList {
            found_data_bits: 0,
            found_pointers: 1,
            ..
        }
    );
    // The refused open changed nothing.
    let r = m.reader();
    let list = r
        .root_pointer()
        .unwrap()
        .get_list(ElementSize::Pointer)
        .unwrap();
    assert_eq!(list.get_text(0).unwrap(), "kept");
}
