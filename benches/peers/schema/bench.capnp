# Schema for the peer side of capnarena's benchmarks (capnp crate).
# Record shapes follow go-capnp's benchmark suite.
@0xb572b6fe8ed65db5;

# small: a root with two small struct children.
struct Small {
  text @0 :TextHolder;
  blob @1 :DataHolder;
}

struct TextHolder {
  text @0 :Text;
}

# 32 data bytes, no pointers.
struct DataHolder {
  a @0 :UInt64;
  b @1 :UInt64;
  c @2 :UInt64;
  d @3 :UInt64;
}

# growth: a list of 65,536 TextHolder structs, each holding "1234567".
struct Growth {
  items @0 :List(TextHolder);
}

# marshal / unmarshal / decode_stream: go-capnp's A record.
struct Record {
  name @0 :Text;
  birthDay @1 :Int64;
  phone @2 :Text;
  siblings @3 :Int32;
  spouse @4 :Bool;
  money @5 :Float64;
}

# text_copy: a list of texts deep-copied into another message.
struct Texts {
  items @0 :List(Text);
}

# read_all_log: copied field for field from tests/vectors/all_types.capnp
# of the main crate, so that tests/vectors/log.bin reads with it. Field
# numbers and types must stay as they are there (they fix the layout).
struct Log {
  entries @0 :List(Entry);
}

struct Entry {
  timestamp @0 :UInt64;
  level @1 :UInt8;
  message @2 :Text;
  tags @3 :List(Text);
}
