# Schema evolution, version 2 of 3 (see evolution_v1.capnp): new fields
# at the end of `Item` and `Root`; `bytes` and `names` become lists of
# structs whose first field is the old element.
@0xf820f5df94534707;

struct Item {
  id @0 :UInt32;
  name @1 :Text;
  weight @2 :Float64;
  tags @3 :List(Text);
  flag @4 :Bool;
}

struct Small {
  value @0 :UInt8;
  extra @1 :UInt32;
}

struct Named {
  name @0 :Text;
  rank @1 :UInt16;
}

struct Root {
  count @0 :UInt16;
  item @1 :Item;
  items @2 :List(Item);
  bytes @3 :List(Small);
  names @4 :List(Named);
  label @5 :Text;
  total @6 :UInt64;
}
