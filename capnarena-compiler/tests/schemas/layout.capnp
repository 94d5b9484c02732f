@0xc0ffee1234567891;
# Layout corner cases: unions in unions, groups in unions, retroactive
# unionization and hole filling across unions.

struct Mixed {
  a @0 :Bool;
  b @1 :UInt64;
  c @2 :UInt8;
  u :union {
    x @3 :UInt16;
    y :group {
      y1 @4 :UInt32;
      y2 @5 :Bool;
      y3 @6 :Text;
    }
    z :union {
      z1 @7 :UInt8;
      z2 @8 :Float64;
      z3 @9 :Void;
    }
  }
  d @10 :Int16;
  union {
    e @11 :Bool;
    f @12 :List(Bool);
    h @13 :Data;
  }
  i @14 :UInt32;
}

struct Retro {
  old @0 :Int32;
  u @2! :union {
    first @1 :Int8;
    second @3 :Int64;
  }
}

struct Nest {
  struct Deeper {
    struct Deepest { v @0 :Void; }
    d @0 :Deepest;
  }
  dd @0 :Deeper;
  e @1 :Deeper.Deepest;
}

struct Empty {}

enum Big { a @0; b @1; c @2; d @3; e @4; f @5; g @6; h @7; i @8; j @9; }
