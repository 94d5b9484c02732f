# Exercises every construct the generator handles: defaults of every kind,
# unions (unnamed and named), groups, unions inside groups, nested types,
# constants, imports, `using`, AnyPointer, capabilities, generics and
# interface method structs.
@0xd4c9b2f6a1e0c3b7;

using Imported = import "imported.capnp";
using Shade = Imported.Shade;

enum Kind {
  alpha @0;
  beta @1;
  gamma @2;   # the last one
}

struct Defaults {
  b @0 :Bool = true;
  i8 @1 :Int8 = -8;
  i16 @2 :Int16 = -1600;
  i32 @3 :Int32 = -320000;
  i64 @4 :Int64 = -6400000000;
  u8 @5 :UInt8 = 200;
  u16 @6 :UInt16 = 60000;
  u32 @7 :UInt32 = 4000000000;
  u64 @8 :UInt64 = 18000000000000000000;
  f32 @9 :Float32 = 3.5;
  f64 @10 :Float64 = -2.25e100;
  nan @11 :Float64 = nan;
  inf @12 :Float32 = -inf;
  kind @13 :Kind = gamma;
  text @14 :Text = "hello \"world\"\n";
  data @15 :Data = 0x"de ad be ef";
  point @16 :Imported.Point = (x = 7, y = -9, label = "seven");
  ints @17 :List(Int32) = [1, -2, 3];
  texts @18 :List(Text) = ["a", "bc"];
  points @19 :List(Imported.Point) = [(x = 1), (y = 2, label = "two")];
  bools @20 :List(Bool) = [true, false, true];
  kinds @21 :List(Kind) = [beta, alpha];
  nested @22 :List(List(UInt8)) = [[1, 2], [], [3]];
  shade @23 :Shade = dark;
  noDefault @24 :UInt32;
  zeroDefault @25 :Int64 = 0;
}

struct Shapes {
  # A doc comment on the struct.
  name @0 :Text;   # The shape's name.

  union {
    circle @1 :Float64;       # radius
    square :group {
      side @2 :Float64;
      filled @3 :Bool = true;
    }
    empty @4 :Void;
    label @5 :Text;
    point @6 :Imported.Point;
    kind @7 :Kind;
  }

  style :group {
    color :union {
      rgb @8 :UInt32;
      named @9 :Text;
      none @10 :Void;
    }
    width @11 :Float32 = 1.0;
  }

  tags @12 :List(Text);

  struct Inner {
    value @0 :Int16 = 5;
    enum Mode {
      on @0;
      off @1;
    }
    mode @1 :Mode = off;
  }

  inner @13 :Inner;
  inners @14 :List(Inner);
}

struct Holder {
  any @0 :AnyPointer;
  cap @1 :Service;
  caps @2 :List(Service);
  anys @3 :List(Data);    # List(AnyPointer) is not allowed by capnp 0.9
  lists @4 :List(List(Text));
  voids @5 :List(Void);
  datas @6 :List(Data);
  f64s @7 :List(Float64);
  pair @8 :Pair(Text, Imported.Point);
  type @9 :UInt8;     # a keyword as a field name
  self @10 :Text;
  tree @11 :Tree(Text);
  nodes @12 :List(Tree(Imported.Point).Node);
  entry @13 :Store(Data).Entry;
}

struct Tree(T) {
  value @0 :T;
  children @1 :List(Tree(T));
  union {
    leaf @2 :Void;
    extra @3 :T;
    sub @4 :Tree(T);
  }
  meta :group {
    tag @5 :T;
    count @6 :UInt32;
  }
  struct Node {
    item @0 :T;
  }
  first @7 :Node;
}

interface Store(Key) {
  get @0 (key :Key) -> (value :AnyPointer);
  struct Entry {
    key @0 :Key;
  }
}

struct Pair(Key, Value) {
  key @0 :Key;
  value @1 :Value;
}

interface Service {
  call @0 (request :Text, count :UInt32) -> (reply :Text, kinds :List(Kind));
  ping @1 () -> ();
}

const answer :UInt32 = 42;
const greeting :Text = "hi";
const blob :Data = "raw";
const pi :Float64 = 3.14159;
const favourite :Kind = beta;
const origin :Imported.Point = (x = 0, y = 0, label = "origin");
const primes :List(UInt16) = [2, 3, 5, 7, 11];
const names :List(Text) = ["ann", "bob"];

struct Documented {
  # Schema docs whose lists and quotes continue lazily:
  # - an item
  # continued without indentation
  #
  # > a quote
  # continued without a marker
  value @0 :Text;
  # The generator's own lines follow this list:
  # 1. first
  # 2. second
}
