# Schema evolution, oldest version (1 of 3): what `tests/evolution.rs`
# builds with and opens messages of the other versions with. Versions 2
# and 3 (evolution_v2.capnp, evolution_v3.capnp) add fields at the end of
# each struct, and version 2 upgrades `bytes` and `names` from lists of
# primitives and texts to lists of structs whose first field is that
# primitive or text, as the encoding spec allows.
@0xd199356f8fa074d9;

struct Item {
  id @0 :UInt32;
  name @1 :Text;
}

struct Root {
  count @0 :UInt16;
  item @1 :Item;
  items @2 :List(Item);
  bytes @3 :List(UInt8);
  names @4 :List(Text);
}
