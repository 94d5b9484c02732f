# Generic structs as plain Rust values with type parameters (owned values
# of `Box(T)` are `box::Value<T>`): bound to text, data, structs, lists
# and nothing; nested scopes using the outer parameters; a group and a
# union inheriting them; lists of numbers, bytes and enums; a parameter named like a generated type; a
# containment cycle through a brand; polymorphic recursion (erased); and
# methods with implicit parameters.
@0x88f0ca9d489b5153;

struct Box(T) {
  value @0 :T;
}

struct Map(Key, Value) {
  entries @0 :List(Entry);
  struct Entry {
    key @0 :Key;
    value @1 :Value;
  }
}

struct Person {
  name @0 :Text;
  age @1 :UInt32;
}

struct Outer(T) {
  struct Inner {
    item @0 :T;
    note @1 :Text;
  }
  struct Plain {
    n @0 :UInt32;
  }
  inner @0 :Inner;
  plain @1 :Plain;
  group :group {
    t @2 :T;
    count @3 :UInt32;
  }
  union {
    none @4 :Void;
    some @5 :T;
    boxed @6 :Box(T);
  }
  list @7 :List(Box(T));
}

struct Uses {
  text @0 :Box(Text);
  data @1 :Box(Data);
  person @2 :Box(Person);
  map @3 :Map(Text, Person);
  numbers @4 :Box(List(UInt32));
  texts @5 :Box(List(Text));
  outer @6 :Outer(Person);
  any @7 :Box;
  nested @8 :Box(Box(Text));
  people @9 :List(Box(Person));
  bytes @10 :Box(List(UInt8));
  modes @11 :Box(List(Mode));
  triple @12 :Triple(Text, Box(Data), List(Int16));
}

struct Triple(A, B, C) {
  a @0 :A;
  b @1 :B;
  c @2 :C;
}

enum Mode {
  off @0;
  on @1;
}

# Box holds its value inline, so Loop holds a Loop through Box(Loop): the
# field is boxed.
struct Loop {
  n @0 :UInt32;
  next @1 :Box(Loop);
}

# Each level's value would be a larger type: erased.
struct Grow(T) {
  value @0 :T;
  next @1 :Grow(Box(T));
}

interface Store(T) {
  put @0 [U] (key :T, value :U) -> (old :U);
  get @1 (key :T) -> (found :Box(T));
}
