//! The reference's text format: what `capnp convert binary:text` prints.
//!
//! Generated readers and builders implement `Debug` by building a
//! [`TextValue`] tree of the value and printing it here: `{:?}` prints the
//! one-line form of `capnp convert binary:text --short`, `{:#?}` the
//! pretty form of `capnp convert binary:text` (both without the tool's
//! final newline). The rules below are those of the reference
//! implementation, version 0.9.2 (`stringify.c++` and the float and escape
//! routines of its `kj` library), checked against the installed tool by
//! `tests/text_format.rs`.
//!
//! ```
//! use capnarena::text::{TextValue, write_pretty, write_short};
//!
//! let point = TextValue::Struct(vec![("x", TextValue::Int(1)), ("y", TextValue::Int(-2))]);
//! let v = TextValue::Struct(vec![
//!     ("name", TextValue::Text(b"a \"quoted\" name")),
//!     ("where", point),
//!     ("ratio", TextValue::Float64(0.1)),
//!     ("tags", TextValue::List(vec![TextValue::Enum("red"), TextValue::EnumNumber(7)])),
//! ]);
//! let mut short = String::new();
//! write_short(&v, &mut short)?;
//! assert_eq!(
//!     short,
//!     r#"(name = "a \"quoted\" name", where = (x = 1, y = -2), ratio = 0.1, tags = [red, (7)])"#
//! );
//! let mut pretty = String::new();
//! write_pretty(&v, &mut pretty)?;
//! assert_eq!(
//!     pretty,
//!     "( name = \"a \\\"quoted\\\" name\",\n  where = (x = 1, y = -2),\n  ratio = 0.1,\n  tags = [red, (7)] )"
//! );
//! # Ok::<(), core::fmt::Error>(())
//! ```
//!
//! # For the generator: which fields a struct's tree holds, in what order
//!
//! A struct's (or group's) [`TextValue::Struct`] lists `(name, value)`
//! pairs. Walk the `fields` list of the struct's (or group's) schema node
//! (`Node.struct.fields` in the `CodeGeneratorRequest`) **in list order**,
//! which is ordinal order, *not* code order: `b @1; a @0;` prints `a`
//! first, and a group sits where the compiler put it in that list (by its
//! members' ordinals: a group of `@5, @6` comes after `@4` and before
//! `@7`, wherever it was declared). Take each field through the first rule
//! that applies:
//!
//! 1. **Union member** (`discriminantValue != 0xffff`), in the node's
//!    unnamed union: skip it unless its `discriminantValue` equals the
//!    discriminant read from the data section (at `discriminantOffset`,
//!    in 16-bit units). The active member is then included, in its place
//!    in list order, by rules 2 and 3, except that a pointer field with a
//!    null pointer is **included** when its discriminant value is not 0,
//!    as the value a reader returns (`""` for Text and Data, `[]` for a
//!    list, the default struct printed by these rules, `<opaque
//!    pointer>`); the discriminant-0 member with a null pointer is left
//!    out. A discriminant that names no member of the schema (a newer
//!    writer's) includes no member.
//! 2. **Group** (`Field.group`, named unions included): always included,
//!    as a nested [`TextValue::Struct`] built by these rules from the
//!    group's own node (a named union is a group whose fields are all
//!    union members). A group whose fields all drop out prints as `()`.
//! 3. **Slot**: a field of a pointer type (Text, Data, List, struct,
//!    AnyPointer, interface) is included only when its pointer is not
//!    null, even if the schema gives it a non-null default: `t @0 :Text =
//!    "x"` with a null pointer is left out; an empty but present text
//!    prints as `""`. A field of any other type (Void, Bool, numbers,
//!    enums) is always included, with the value a reader returns (schema
//!    default applied), zero or not: `v @3 :Void` prints `v = void`.
//!
//! Names are the schema's own (`Field.name`, `Enumerant.name`: `fooBar`,
//! not the Rust `foo_bar` or `FooBar`), as the reference prints them.
//!
//! This is the reference's `DynamicStruct::Reader::has(field,
//! HasMode::NON_NULL)` (with "discriminant not 0 or has" for the active
//! member) and its printing of non-union fields in `fields`-list order
//! with the active member slotted in before the first non-union field of
//! a higher index.
//!
//! Values: Void [`Void`](TextValue::Void); Bool; Int8..Int64
//! [`Int`](TextValue::Int); UInt8..UInt64 [`UInt`](TextValue::UInt);
//! Float32 [`Float32`](TextValue::Float32) (it prints with fewer digits
//! than the same number as Float64); Text the bytes before the NUL
//! terminator; Data; an enum [`TextValue::enumerant`] (the enumerant's
//! name, or `(7)` for a value the schema does not name); a struct
//! [`Struct`](TextValue::Struct); a list [`List`](TextValue::List) of its
//! elements, each by the same value rules (a null element of a
//! `List(Text)` or `List(Data)` is `""`, of a list of lists `[]`: what the
//! reader returns for a null element); AnyPointer
//! [`AnyPointer`](TextValue::AnyPointer) (prints `<opaque pointer>`,
//! whatever it points to); an interface
//! [`Capability`](TextValue::Capability) (prints `<external capability>`);
//! a read that failed [`Error`](TextValue::Error).
//!
//! # Printing rules
//!
//! - Void `void`; Bool `true`/`false`; integers in decimal.
//! - Floats like C's `printf("%.15g")` (Float32: `"%.6g"`), or `"%.17g"`
//!   (`"%.8g"`) when the shorter form does not read back as the same
//!   number (a subnormal Float32 always takes the longer form), with the
//!   `+` of the exponent dropped: `0.1`, `1e20`, `1e-05`, `-0`,
//!   `3.1415926535897931`; `inf`, `-inf`, `nan`. Float32's 8 digits do
//!   not always identify the float (9 would): the reference prints
//!   -1046121963061248 as `-1.046122e15`, which reads back as its
//!   neighbour -1046122030170112; so does this module, to match.
//! - Text and Data in double quotes with C escapes: `\a \b \f \n \r \t
//!   \v \' \" \\`, other bytes below 0x20 and 0x7f as three octal digits
//!   (`\000`). Data bytes from 0x80 also print in octal; Text bytes from
//!   0x80 are copied as they are (UTF-8 prints as itself). Where such
//!   bytes are not valid UTF-8 the reference writes them raw, which a
//!   Rust string cannot hold: [`write_short`] and [`write_pretty`] write
//!   each such byte as an octal escape instead (the same byte when read
//!   back by the reference's parser), and [`write_short_bytes`] and
//!   [`write_pretty_bytes`] give the reference's exact bytes.
//! - Struct `(a = 1, b = 2)`, list `[1, 2]`, empty `()` and `[]`; enum
//!   names bare, unknown enumerants `(7)`.
//! - Pretty form: a list or struct stays on one line when every element
//!   (for a struct every `name = value`) is at most 24 bytes long when
//!   printed and has no line break, and, for a struct only, the elements
//!   add up to at most 64 bytes. Otherwise each element goes on its own
//!   line, indented by two spaces per level, separated by `,` and ending
//!   in ` )` or ` ]`. The first element follows the opening bracket after
//!   one space, except in a field's value (`name = (`), where it starts a
//!   new line. Lengths count the reference's bytes. So a struct breaks
//!   when one of its fields does not fit in 24 bytes, while a list of any
//!   number of short elements stays on one line.
//! - A read error (which makes the reference tool fail outright) prints
//!   as `<error: ...>` with the error's message, in place of the value.
//!
//! # Limits
//!
//! Printing never panics. It allocates nothing beyond what the caller's
//! writer does; each struct or list costs time proportional to its size
//! plus at most about 25 bytes of look-ahead per element. Printing
//! recurses once per level of nesting of the tree; trees built from
//! readers are as deep as the reader's nesting limit allows (64 by
//! default), so the stack is bounded by that limit. A tree built by hand
//! is bounded only by its own depth (dropping it recurses as deeply).

// The value tree is `value`; the printer `print`, with the float forms in
// `float`; the printer that needs no tree (what the dynamic reader's
// text writer drives) `stream`; what generated code calls (`TextVisitor`, `fmt_text` and the
// `TreeBuilder` it feeds) `visitor`, the one part that needs no `alloc`
// (without it a generated `Debug` impl says the text form needs it). This
// module imports nothing of `typed`: `typed` and generated code call it.

pub mod encoding;
#[cfg(feature = "alloc")]
mod float;
#[cfg(feature = "alloc")]
mod print;
#[cfg(feature = "alloc")]
mod stream;
#[cfg(all(test, feature = "alloc"))]
mod tests;
#[cfg(feature = "alloc")]
mod value;
pub(crate) mod visitor;

#[cfg(feature = "alloc")]
pub use print::{fmt_debug, write_pretty, write_pretty_bytes, write_short, write_short_bytes};
#[cfg(feature = "alloc")]
pub use stream::Printer;
#[cfg(feature = "alloc")]
pub use value::TextValue;
pub use visitor::TextVisitor;
#[cfg(feature = "alloc")]
pub use visitor::TreeBuilder;
