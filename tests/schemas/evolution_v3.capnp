# Schema evolution, newest version (3 of 3, see evolution_v1.capnp): more
# fields at the end of every struct, in both sections.
@0xd889e902662b9bce;

struct Item {
  id @0 :UInt32;
  name @1 :Text;
  weight @2 :Float64;
  tags @3 :List(Text);
  flag @4 :Bool;
  note @5 :Text;
  score @6 :Int64;
}

struct Small {
  value @0 :UInt8;
  extra @1 :UInt32;
  more @2 :UInt64;
}

struct Named {
  name @0 :Text;
  rank @1 :UInt16;
  alias @2 :Text;
}

struct Root {
  count @0 :UInt16;
  item @1 :Item;
  items @2 :List(Item);
  bytes @3 :List(Small);
  names @4 :List(Named);
  label @5 :Text;
  total @6 :UInt64;
  extra @7 :Item;
  flags @8 :List(Bool);
}
