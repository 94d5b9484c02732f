//! CVE-2015-2311 class: text whose NUL terminator is missing, including a
//! zero-length byte list (no room for the NUL at all). Reading must not
//! look past the list for a terminator: `Error::TextNotTerminated` with
//! the list's length. A deep copy keeps the bytes as they are, so reading
//! the copy gives the same error (and never reads out of bounds).

use capnarena::{Error, Message, SingleSegmentArena, Word};

use super::reader;

/// CVE-2015-2311: a text pointer to a byte list of 0 elements has no NUL.
/// As `Data` it is simply empty.
#[test]
fn zero_length_text() {
    let s0 = super::msg(&[
        0x0000_0002_0000_0001, // root: list, offset 0, size 2 (byte), 0 elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let p = r.root_pointer().unwrap();
    assert_err!(p.get_text(), Error::TextNotTerminated { len: 0 });
    assert_err!(p.get_text_bytes(), Error::TextNotTerminated { len: 0 });
    assert_eq!(p.get_data().unwrap(), b"");
}

/// CVE-2015-2311: "abc" with the zero padding after the list's 3 bytes:
/// the padding is not part of the list, so it is not a terminator.
#[test]
fn text_nul_only_in_padding() {
    let s0 = super::msg(&[
        0x0000_001A_0000_0001, // root: list, offset 0, size 2 (byte), 3 elements
        0x0000_0000_0063_6261, // 'a' 'b' 'c', then 5 padding zero bytes
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_text(),
        Error::TextNotTerminated { len: 3 }
    );
}

/// CVE-2015-2311: 8 non-NUL bytes filling the segment's last word: the
/// terminator would be the first byte past the segment.
#[test]
fn text_fills_last_word() {
    let s0 = super::msg(&[
        0x0000_0042_0000_0001, // root: list, offset 0, size 2 (byte), 8 elements
        0x6867_6665_6463_6261, // "abcdefgh", no NUL; the segment ends here
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_text(),
        Error::TextNotTerminated { len: 8 }
    );
}

/// CVE-2015-2311 through deep copy: `Message::set_root` copies a struct
/// whose text field is a 0-element byte list; the copy's text must fail
/// the same way.
#[test]
fn zero_length_text_after_set_root() {
    let s0 = super::msg(&[
        0x0001_0000_0000_0000, // root: struct, offset 0, 0 data, 1 ptr (word 1)
        0x0000_0002_0000_0001, // ptr 0: list, offset 0, size 2 (byte), 0 elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let mut m = Message::new(SingleSegmentArena::new());
    m.set_root(&r.root().unwrap()).unwrap();
    let copy = m.reader();
    let root = copy.root().unwrap();
    assert!(root.has_pointer(0), "the copy kept the non-null pointer");
    assert_err!(root.get_text(0), Error::TextNotTerminated { len: 0 });
}

/// CVE-2015-2311 through deep copy: `PointerBuilder::set_from` copies an
/// unterminated "abc"; the copy has the same 3 bytes and no NUL.
#[test]
fn unterminated_text_after_set_from() {
    let s0 = super::msg(&[
        0x0000_001A_0000_0001, // root: list, offset 0, size 2 (byte), 3 elements
        0x0000_0000_0063_6261, // 'a' 'b' 'c', then padding
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let mut m = Message::new(SingleSegmentArena::new());
    m.root_pointer()
        .unwrap()
        .set_from(&r.root_pointer().unwrap())
        .unwrap();
    let copy = m.reader();
    let p = copy.root_pointer().unwrap();
    assert_eq!(p.get_data().unwrap(), b"abc");
    assert_err!(p.get_text(), Error::TextNotTerminated { len: 3 });
}

/// CVE-2015-2311 through deep copy: `set_from` of a 0-element byte list.
#[test]
fn zero_length_text_after_set_from() {
    let s0 = super::msg(&[
        0x0000_0002_0000_0001, // root: list, offset 0, size 2 (byte), 0 elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let mut m = Message::new(SingleSegmentArena::new());
    m.root_pointer()
        .unwrap()
        .set_from(&r.root_pointer().unwrap())
        .unwrap();
    let copy = m.reader();
    let p = copy.root_pointer().unwrap();
    assert!(!p.is_null(), "a 0-element list is not a null pointer");
    assert_err!(p.get_text(), Error::TextNotTerminated { len: 0 });
}
