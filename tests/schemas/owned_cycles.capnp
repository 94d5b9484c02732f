# Structs that hold structs, for the owned values' boxing rule: a struct
# field is held inline unless the field is on a cycle of values holding
# values (through struct fields, groups and union members, across files)
# or the value it holds is large. Lists (a `Vec` already) break no rule.
@0xc37190d532028303;

using B = import "owned_cycles_b.capnp";

struct Point {
  x @0 :Int32;
  y @1 :Int32;
}

# No cycle: both fields inline, `pair`'s points too.
struct Shape {
  point @0 :Point;
  pair @1 :Pair;
  name @2 :Text;
}

struct Pair {
  a @0 :Point;
  b @1 :Point;
}

# A struct holding itself: `next` boxed.
struct Chain {
  value @0 :UInt32;
  next @1 :Chain;
}

# A cycle only through a list: nothing to box.
struct Tree {
  label @0 :Text;
  children @1 :List(Tree);
}

# `item` holds a struct whose list holds this one: inline.
struct Outer {
  item @0 :Inner;
}

struct Inner {
  back @0 :List(Outer);
  point @1 :Point;
}

# A cycle through a group: `inner` (in the group) boxed, `leaf` inline.
struct Grouped {
  g :group {
    inner @0 :Grouped;
    n @1 :UInt8;
  }
  leaf @2 :Point;
}

# A cycle through a union member: `node` boxed, `leaf` inline.
struct Branch {
  union {
    leaf @0 :Point;
    node @1 :Branch;
    none @2 :Void;
  }
}

# Two structs holding each other: both fields boxed, `point` inline.
struct Ping {
  pong @0 :Pong;
}

struct Pong {
  ping @0 :Ping;
  point @1 :Point;
}

# A cycle across files: `remote` boxed (and `B.Remote.back`).
struct Local {
  remote @0 :B.Remote;
  point @1 :Point;
}

# Values growing fourfold per level: `Level2` (over 1 KiB) is boxed in
# `Level3`, the smaller ones inline.
struct Leaf {
  a @0 :Int64;
  b @1 :Int64;
  c @2 :Int64;
  d @3 :Int64;
  e @4 :Int64;
  f @5 :Int64;
  g @6 :Int64;
  h @7 :Int64;
}

struct Level1 {
  a @0 :Leaf;
  b @1 :Leaf;
  c @2 :Leaf;
  d @3 :Leaf;
}

struct Level2 {
  a @0 :Level1;
  b @1 :Level1;
  c @2 :Level1;
  d @3 :Level1;
}

struct Level3 {
  top @0 :Level2;
}
