@0xd3a4b5c6e7f80912;
# Interfaces, methods with named and struct parameter lists, implicit
# generic parameters, streaming, superclasses and generic interfaces.

using Stream = import "/capnp/stream.capnp";

struct Point {
  x @0 :Float64;
  y @1 :Float64;
}

interface Shape {
  # A shape.
  area @0 () -> (area :Float64);
  # Its area.
  move @1 (dx :Float64 = 1.5, dy :Float64, label :Text = "moved") -> (to :Point);
  name @2 Point -> Point;
}

interface Circle extends(Shape) {
  radius @0 () -> (r :Float64 $annot("r"));
  scale @1 [T] (by :T) -> (result :T);
  upload @2 (chunk :Data) -> stream;
}

annotation annot(field, param, method, interface) :Text;

interface Container(T) {
  get @0 (index :UInt32) -> (value :T);
  put @1 (value :T) -> ();
  struct Entry {
    key @0 :Text;
    value @1 :T;
  }
  entries @2 () -> (list :List(Entry));
  sub @3 () -> (c :Container(Text));
}

struct Holder(K, V) {
  key @0 :K;
  value @1 :V;
  inner @2 :Holder(Text, K);
  nested @3 :Nested;
  struct Nested {
    k @0 :K;
  }
}

struct UsesGenerics {
  a @0 :Holder(Text, Data);
  b @1 :Holder(Point, List(Text)).Nested;
  c @2 :Container(Point);
  d @3 :Holder;
  e @4 :AnyPointer;
  f @5 :AnyStruct;
  g @6 :AnyList;
  h @7 :Capability;
  i @8 :Circle;
}

using PointHolder = Holder(Point, Point);

struct UsesAlias {
  p @0 :PointHolder;
}
