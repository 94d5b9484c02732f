//! The layer under generated code: the quick start's address book built
//! and read by field offsets, with no code generator.
//!
//! The schema (the reference's classic example, trimmed):
//!
//! ```capnp
//! struct Person {
//!   id     @0 :UInt32;
//!   name   @1 :Text;
//!   email  @2 :Text;
//!   phones @3 :List(PhoneNumber);
//!   struct PhoneNumber {
//!     number @0 :Text;
//!     type   @1 :Type;
//!     enum Type { mobile @0; home @1; work @2; }
//!   }
//! }
//! struct AddressBook { people @0 :List(Person); }
//! ```
//!
//! `capnp compile -ocapnp` on it prints where each field lives: `Person` is
//! one data word (`id` at bits [0, 32)) and three pointers (`name`, `email`,
//! `phones`); `PhoneNumber` is one data word (`type` at bits [0, 16)) and one
//! pointer (`number`); `AddressBook` is no data and one pointer.
//!
//! Generated code (see `quickstart.rs`) compiles to these same calls.
//!
//! Run with `cargo run --example hand_offsets`.

use capnarena::{
    ElementSize, Error, Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize,
    words_from_bytes,
};

const ADDRESS_BOOK: StructSize = StructSize::new(0, 1);
const PERSON: StructSize = StructSize::new(1, 3);
const PHONE: StructSize = StructSize::new(1, 1);

const PHONE_TYPES: [&str; 3] = ["mobile", "home", "work"];

/// One person as plain Rust data, to build from and compare against.
struct Person {
    id: u32,
    name: &'static str,
    email: &'static str,
    phones: &'static [(&'static str, u16)],
}

const PEOPLE: [Person; 2] = [
    Person {
        id: 123,
        name: "Alice",
        email: "alice@example.com",
        phones: &[("555-1212", 0)],
    },
    Person {
        id: 456,
        name: "Bob",
        email: "bob@example.com",
        phones: &[("555-4567", 1), ("555-7654", 2)],
    },
];

/// Builds the address book as the root of `msg`.
fn build(msg: &mut Message<SingleSegmentArena>) -> Result<(), Error> {
    let mut book = msg.init_root_struct(ADDRESS_BOOK)?;
    let people_len = u32::try_from(PEOPLE.len()).expect("two people");
    let mut people = book.init_struct_list(0, people_len, PERSON)?;
    for (i, p) in (0u32..).zip(PEOPLE.iter()) {
        let mut person = people.get_struct(i);
        person.set::<u32>(0, p.id);
        person.set_text(0, p.name)?;
        person.set_text(1, p.email)?;
        let phones_len = u32::try_from(p.phones.len()).expect("few phones");
        let mut phones = person.init_struct_list(2, phones_len, PHONE)?;
        for (j, &(number, kind)) in (0u32..).zip(p.phones.iter()) {
            let mut phone = phones.get_struct(j);
            phone.set::<u16>(0, kind);
            phone.set_text(0, number)?;
        }
    }
    Ok(())
}

/// Reads the address book in `reader` and prints it, checking it against
/// what was built.
fn print(reader: &MessageReader<'_>) -> Result<(), Error> {
    let book = reader.root()?;
    let people = book.get_list(0, ElementSize::InlineComposite)?;
    assert_eq!(people.len() as usize, PEOPLE.len());
    for (i, expected) in (0u32..).zip(PEOPLE.iter()) {
        let person = people.get_struct(i);
        let (id, name, email) = (
            person.get::<u32>(0),
            person.get_text(0)?,
            person.get_text(1)?,
        );
        println!("{name} <{email}> (id {id})");
        assert_eq!(
            (id, name, email),
            (expected.id, expected.name, expected.email)
        );
        let phones = person.get_list(2, ElementSize::InlineComposite)?;
        for j in 0..phones.len() {
            let phone = phones.get_struct(j);
            let kind = phone.get::<u16>(0);
            let kind_name = PHONE_TYPES.get(usize::from(kind)).copied().unwrap_or("?");
            println!("  {kind_name} phone: {}", phone.get_text(0)?);
        }
    }
    Ok(())
}

fn main() -> Result<(), Error> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build(&mut msg)?;

    // A single-segment message frames without copying: the segment table
    // sits in reserved space right before the segment.
    let framed = msg.framed_bytes()?;
    println!(
        "framed address book: {} bytes, {} segment(s)",
        framed.len(),
        msg.segment_count()
    );

    // Over the wire the bytes may arrive at any alignment; a reader wants
    // 8-aligned words, so copy once into words and read zero-copy.
    let mut wire = Vec::new();
    msg.append_to(&mut wire);
    let words = words_from_bytes(&wire)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    print(&reader)?;

    // Or read straight into another message's arena, which is reused.
    let mut inbox = Message::new(SingleSegmentArena::new());
    for round in 1..=2 {
        let reader = inbox.read_from_bytes(&wire, ReaderOptions::default())?;
        let people = reader.root()?.get_list(0, ElementSize::InlineComposite)?;
        println!(
            "read into a reused arena, round {round}: {} people",
            people.len()
        );
    }
    Ok(())
}
