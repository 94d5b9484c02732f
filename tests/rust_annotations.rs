//! A schema written for capnproto-rust's generator, with the `$Rust`
//! annotations of its `rust.capnp` (file id and annotation ids as capnpc's;
//! `tests/schemas/rust.capnp`), generates with capnarena unchanged (issue
//! 23): `$Rust.name` renames a struct, an enum, an enumerant, a field, a
//! group and a union member; `$Rust.parentModule` places an imported file's
//! module, and the importing file's code finds it there; `$Rust.option`
//! makes a pointer field's getters return `Option` (`None` when the
//! pointer is null, a schema default notwithstanding). The text format
//! keeps the schema's own names.

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/renamed_capnp.rs"]
mod renamed_capnp;

/// Where `renamed_parent.capnp`'s `$Rust.parentModule("nested::deeper")`
/// says its module is.
mod nested {
    pub mod deeper {
        #[allow(dead_code)]
        #[rustfmt::skip]
        pub mod renamed_parent_capnp {
            include!("generated/renamed_parent_capnp.rs");
        }
    }
}

use capnarena::{Message, Result, SingleSegmentArena};
use renamed_capnp::{NewColor, new_name};

/// Every renamed item is reached by its new name, and values set through
/// the new names read back through them.
#[test]
fn rust_name_renames_items() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<new_name::Builder<_>>()?;
    root.set_new_field(5);
    root.set_kind("k")?;
    root.set_color(NewColor::NewRed);
    root.init_new_group().set_inner(-2);
    root.set_new_member();
    root.init_from_parent()?.set_value(9);
    let reader = msg.reader();
    let r = reader.get_root::<new_name::Reader>()?;
    assert_eq!((r.get_new_field(), r.get_kind()?), (5, "k"));
    assert_eq!(r.get_color(), Ok(NewColor::NewRed));
    assert_eq!(r.get_new_group().get_inner(), -2);
    assert!(matches!(r.which()?, new_name::Which::NewMember));
    let parent: nested::deeper::renamed_parent_capnp::elsewhere::Reader<'_> =
        r.get_from_parent()?;
    assert_eq!(parent.get_value(), 9);
    // The schema's names, as the reference's text format spells them.
    assert_eq!(NewColor::NewRed.name(), "oldRed");
    assert_eq!(
        format!("{r:?}"),
        "(oldField = 5, type = \"k\", color = oldRed, oldGroup = (inner = -2), \
         oldMember = void, fromParent = (value = 9))"
    );
    Ok(())
}

/// `$Rust.option` fields read `None` until set and `Some` after, on the
/// reader and the builder; setters and `init_` are as for any field; the
/// text format prints them when set.
#[test]
fn rust_option_getters_return_option() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<new_name::Builder<_>>()?;
    assert!(root.get_maybe_text()?.is_none());
    assert!(root.get_maybe_struct()?.is_none());
    {
        let view = root.reborrow_as_reader();
        let r = view.get();
        assert_eq!(r.get_maybe_text()?, None);
        assert!(r.get_maybe_list()?.is_none());
        assert!(r.get_maybe_struct()?.is_none());
        // The schema default does not make a null pointer `Some`.
        assert_eq!(r.get_maybe_data()?, None);
    }
    root.set_maybe_text("t")?;
    root.init_maybe_list(2)?.set(1, 8);
    root.init_maybe_struct()?.set_value(-1);
    root.set_maybe_data(&[])?;
    assert_eq!(root.get_maybe_struct()?.map(|s| s.get_value()), Some(-1));
    let reader = msg.reader();
    let r = reader.get_root::<new_name::Reader>()?;
    assert_eq!(r.get_maybe_text()?, Some("t"));
    assert_eq!(r.get_maybe_list()?.map(|l| l.get(1)), Some(8));
    assert_eq!(r.get_maybe_struct()?.map(|s| s.get_value()), Some(-1));
    assert_eq!(r.get_maybe_data()?, Some(&[][..]));
    assert_eq!(
        format!("{r:?}"),
        "(oldField = 0, color = oldRed, oldGroup = (inner = 0), oldMember = void, \
         maybeText = \"t\", maybeList = [0, 8], maybeStruct = (value = -1), maybeData = \"\")"
    );
    Ok(())
}

/// `$Rust.option` on an `AnyPointer` field (it was ignored): the reader's
/// and the builder's getters give `None` while the pointer is null and
/// `Some` once a value is built in the slot `init_` hands out.
#[test]
fn rust_option_on_any_pointer_field() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<new_name::Builder<_>>()?;
    assert!(root.get_maybe_any().is_none());
    assert!(root.reborrow_as_reader().get().get_maybe_any().is_none());
    root.init_maybe_any()
        .init_as::<capnarena::typed::Text>(2)?
        .push_str("hi")?;
    assert!(root.get_maybe_any().is_some());
    let reader = msg.reader();
    let r = reader.get_root::<new_name::Reader>()?;
    let any = r.get_maybe_any().expect("set");
    assert_eq!(any.get_as::<capnarena::typed::Text>()?, "hi");
    Ok(())
}
