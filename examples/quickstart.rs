//! Quick start: build an address book with code generated from
//! `examples/addressbook/schema/addressbook.capnp`, frame it, read it back, print it.
//!
//! A crate of your own generates this code from `build.rs` with
//! `capnarena-build` (see `examples/addressbook/`); this example includes
//! the checked-in copy, so it runs without the `capnp` tool.
//!
//! Run with `cargo run -p quickstart`.

use capnarena::{Error, Message, MessageReader, ReaderOptions, SingleSegmentArena};

// The example uses part of the generated API; a library would `pub` it.
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/addressbook_capnp.rs"]
mod addressbook_capnp;

use addressbook_capnp::{address_book, person};
use person::phone_number::Type as PhoneType;

/// One person as plain Rust data, to build from and compare against.
struct Person {
    id: u32,
    name: &'static str,
    email: &'static str,
    phones: &'static [(&'static str, PhoneType)],
    employer: Option<&'static str>,
}

const PEOPLE: [Person; 2] = [
    Person {
        id: 123,
        name: "Alice",
        email: "alice@example.com",
        phones: &[("555-1212", PhoneType::Mobile)],
        employer: Some("MIT"),
    },
    Person {
        id: 456,
        name: "Bob",
        email: "bob@example.com",
        phones: &[("555-4567", PhoneType::Home), ("555-7654", PhoneType::Work)],
        employer: None,
    },
];

/// Builds the address book as the root of `msg`.
fn build(msg: &mut Message<SingleSegmentArena>) -> Result<(), Error> {
    let mut book = msg.init_root::<address_book::Builder<_>>()?;
    let mut people = book.init_people(PEOPLE.len() as u32)?;
    for (i, p) in (0u32..).zip(PEOPLE.iter()) {
        let mut person = people.get(i);
        person.set_id(p.id);
        person.set_name(p.name)?;
        person.set_email(p.email)?;
        let mut phones = person.init_phones(p.phones.len() as u32)?;
        for (j, &(number, kind)) in (0u32..).zip(p.phones.iter()) {
            let mut phone = phones.get(j);
            phone.set_number(number)?;
            phone.set_type(kind);
        }
        // Union setters write the discriminant too.
        let mut employment = person.get_employment();
        match p.employer {
            Some(name) => employment.set_employer(name)?,
            None => employment.set_unemployed(),
        }
    }
    Ok(())
}

/// Reads the address book in `reader` and prints it, checking it against
/// what was built.
fn print(reader: &MessageReader<'_>) -> Result<(), Error> {
    let book = reader.get_root::<address_book::Reader>()?;
    let people = book.get_people()?;
    assert_eq!(people.len() as usize, PEOPLE.len());
    for (person, expected) in people.iter().zip(PEOPLE.iter()) {
        let (id, name, email) = (person.get_id(), person.get_name()?, person.get_email()?);
        println!("{name} <{email}> (id {id})");
        assert_eq!(
            (id, name, email),
            (expected.id, expected.name, expected.email)
        );
        for phone in person.get_phones()? {
            println!(
                "  {} phone: {}",
                phone.get_type()?.name(),
                phone.get_number()?
            );
        }
        match person.get_employment().which()? {
            person::employment::Which::Employer(e) => println!("  works at {}", e?),
            person::employment::Which::School(s) => println!("  studies at {}", s?),
            person::employment::Which::Unemployed => println!("  unemployed"),
            person::employment::Which::SelfEmployed => println!("  self-employed"),
        }
    }
    Ok(())
}

fn main() -> Result<(), Error> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build(&mut msg)?;

    // A single-segment message frames without copying: the segment table
    // sits in reserved space right before the segment, so the framed bytes
    // are 8-aligned and read in place.
    let framed = msg.framed_bytes()?;
    println!("framed address book: {} bytes", framed.len());
    let reader = MessageReader::from_bytes(framed, ReaderOptions::default())?;
    print(&reader)?;

    // Bytes off the wire: read into another message's arena, which is
    // reused from one message to the next.
    let mut wire = Vec::new();
    msg.append_to(&mut wire);
    let mut inbox = Message::new(SingleSegmentArena::new());
    for round in 1..=2 {
        let reader = inbox.read_from_bytes(&wire, ReaderOptions::default())?;
        let book = reader.get_root::<address_book::Reader>()?;
        println!(
            "read into a reused arena, round {round}: {} people",
            book.get_people()?.len()
        );
    }
    Ok(())
}
