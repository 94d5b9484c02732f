//! A generated module included privately, of which the crate uses one
//! item, compiles without a warning: `include_generated!` marks the module
//! so that the schema items a crate does not use are not reported as dead
//! code (a private module of one small schema gave 45 warnings). The test
//! is that this file builds under `deny(warnings)`.
#![deny(warnings)]

capnarena::include_generated!(mod addressbook_capnp);

use addressbook_capnp::person;
use capnarena::{Message, SingleSegmentArena};

/// The one item the crate uses, read back.
#[test]
fn private_generated_module_builds_without_warnings() -> capnarena::Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root::<person::Builder<_>>()?.set_id(7);
    let reader = msg.reader();
    assert_eq!(reader.get_root::<person::Reader>()?.get_id(), 7);
    Ok(())
}
