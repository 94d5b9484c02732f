//! The golden fixtures' generated code compiles (clippy-clean with the
//! workspace lints, as part of this crate's tests) and reads schema
//! defaults: each fixture module is included here as it is checked in.

#![allow(dead_code)]

#[path = "fixtures/any_pointer_capnp.rs"]
mod any_pointer_capnp;
#[path = "fixtures/const_capnp.rs"]
mod const_capnp;
#[path = "fixtures/enum_capnp.rs"]
mod enum_capnp;
#[path = "fixtures/generic_capnp.rs"]
mod generic_capnp;
#[path = "fixtures/group_capnp.rs"]
mod group_capnp;
#[path = "fixtures/group_union_capnp.rs"]
mod group_union_capnp;
#[path = "fixtures/interface_field_capnp.rs"]
mod interface_field_capnp;
#[path = "fixtures/lists_capnp.rs"]
mod lists_capnp;
#[path = "fixtures/nested_struct_capnp.rs"]
mod nested_struct_capnp;
#[path = "fixtures/scalars_capnp.rs"]
mod scalars_capnp;
#[path = "fixtures/text_data_capnp.rs"]
mod text_data_capnp;
#[path = "fixtures/union_capnp.rs"]
mod union_capnp;

use capnarena::{Message, SingleSegmentArena};

/// A new struct reads its schema defaults: scalars, an enum, text, data,
/// a list and a struct (the fixtures' defaults, from the schemas).
#[test]
fn new_structs_read_schema_defaults() {
    let mut message = Message::new(SingleSegmentArena::new());
    let scalars = message
        .init_root::<scalars_capnp::scalars::Builder<'_, _>>()
        .expect("root");
    assert!(scalars.get_flag_on());
    assert_eq!(scalars.get_tiny(), -5);
    assert_eq!(scalars.get_medium(), 123456);
    assert_eq!(scalars.get_big(), 18_000_000_000_000_000_000);
    assert_eq!(scalars.get_precise(), -2.25);
    assert_eq!(scalars.get_shade(), Ok(scalars_capnp::Shade::Dark));

    let mut message = Message::new(SingleSegmentArena::new());
    let blobs = message
        .init_root::<text_data_capnp::blobs::Builder<'_, _>>()
        .expect("root");
    blobs.with_reader(|reader| {
        assert_eq!(reader.get_greeting().expect("text"), "hello \"world\"\n");
        assert_eq!(reader.get_magic().expect("data"), [0xca, 0xfe, 0xba, 0xbe]);
    });

    let mut message = Message::new(SingleSegmentArena::new());
    let lists = message
        .init_root::<lists_capnp::lists::Builder<'_, _>>()
        .expect("root");
    lists.with_reader(|reader| {
        let ints: Vec<i32> = reader.get_ints().expect("list").iter().collect();
        assert_eq!(ints, [1, 2, 3]);
    });

    let mut message = Message::new(SingleSegmentArena::new());
    let outer = message
        .init_root::<nested_struct_capnp::outer::Builder<'_, _>>()
        .expect("root");
    outer.with_reader(|reader| {
        let origin = reader.get_origin().expect("struct");
        assert_eq!((origin.get_x(), origin.get_y()), (1, -1));
    });
    assert_eq!(const_capnp::ANSWER, 42);
}
