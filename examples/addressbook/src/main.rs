//! An address book service's message code, as a user's crate writes it:
//! 1. the schema in `schema/addressbook.capnp`;
//! 2. `build.rs` runs `capnarena_build::Config::new()...compile()`;
//! 3. one line includes the generated module, anywhere in the crate.
//!
//! Run with `cargo run -p capnarena-example-addressbook`.

// Step 3 of 3.
capnarena::include_generated!(pub mod addressbook_capnp);

use addressbook_capnp::{address_book, person};
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};

fn main() -> capnarena::Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut book = msg.init_root::<address_book::Builder<_>>()?;
    let mut people = book.init_people(1)?;
    let mut alice = people.get(0);
    alice.set_id(123);
    alice.set_name("Alice")?;
    alice.set_email("alice@example.com")?;
    let mut phones = alice.init_phones(1)?;
    phones.get(0).set_number("555-1212")?;
    phones.get(0).set_type(person::phone_number::Type::Mobile);
    alice.get_employment().set_school("MIT")?;

    let bytes = msg.framed_bytes()?.to_vec();
    let mut inbox = Message::new(SingleSegmentArena::new());
    let reader: MessageReader<'_> = inbox.read_from_bytes(&bytes, ReaderOptions::default())?;
    let book = reader.get_root::<address_book::Reader>()?;
    for person in book.get_people()? {
        println!("{} <{}>", person.get_name()?, person.get_email()?);
        if let person::employment::Which::School(school) = person.get_employment().which()? {
            println!("  studies at {}", school?);
        }
    }
    Ok(())
}
