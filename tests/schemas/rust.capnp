# The annotations capnproto-rust's code generator (capnpc) reads, declared
# with the file id and annotation ids of capnproto-rust's own
# `capnpc/rust.capnp` (github.com/capnproto/capnproto-rust, MIT), so that a
# schema written for capnpc, importing that file, generates with capnarena
# unchanged. The ids are what matter; this file is written here.
@0x83b3c14c3c8dd083;

annotation name @0xc2fe4c6d100166d0 (field, struct, enum, enumerant, union, group) :Text;
# The name to generate from, spelled as the schema would spell it
# (camelCase for fields, CamelCase for types).

annotation parentModule @0xabee386cd1450364 (file) :Text;
# The Rust module path, from the crate root, under which this file's
# generated module is included ("foo::bar" for crate::foo::bar::baz_capnp).

annotation option @0xabfef22c4ee1964e (field) :Void;
# Getters of this pointer field return an Option: None while it is null.
