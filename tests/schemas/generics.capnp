# Generic structs bound to every kind of type (issue 20): lists, lists of
# generics, generics of generics, nested generic arguments, a generic of
# three parameters, a nested type named without parameters (unbound: its
# parameters are AnyPointer), and a union member of a parameter's type.
@0xed6c4127a57b473d;

struct Box(T) $label("a box") {
  value @0 :T $weight(on);
}

struct Triple(A, B, C) {
  a @0 :A;
  b @1 :B;
  c @2 :C;
}

struct Outer(T) {
  struct Inner {
    item @0 :T;
  }
  inner @0 :Inner;              # inherits T
  innerUnbound @1 :Outer.Inner; # no brand: T is AnyPointer here
  self @2 :Outer;               # the struct itself, unbound
  union {
    none @3 :Void;
    some @4 :T;
    count @5 :UInt32;
  }
}

struct Uses {
  bytes @0 :Box(List(UInt8));                       # the smallest case that failed
  nested @1 :Box(Box(Text));                        # a generic of a generic
  boxes @2 :List(Box(Data));                        # a list of generics
  listOfBoxes @3 :Box(List(Box(Text)));             # a generic of a list of generics
  deep @4 :Box(List(List(Box(Text))));              # nested lists in an argument
  triple @5 :Triple(Text, Box(Data), List(Int16));  # three parameters
  outer @6 :Outer(Box(Text));
  floats @7 :Box(List(Float32));
  enums @8 :Box(List(Mode));
  unbound @9 :Box;                                  # named without parameters
}

# Types long enough for clippy's type_complexity, in accessors and in a
# union's Which and WhichBuilder.
struct Deep(X, Y, Z) {
  union {
    lists @0 :List(List(List(Box(Deep(X, Y, Z)))));
    x @1 :X;
    boxes @2 :Box(List(List(Box(Y))));
    group :group {
      z @3 :Z;
      inner :union {
        texts @4 :List(List(Box(Text)));
        y @5 :Y;
      }
    }
    nested @6 :Deep(Box(X), List(Box(Y)), Box(Box(Z)));
  }
  five @7 :List(List(List(List(List(Text)))));
}

struct Quad(A, B, C, D) {
  a @0 :A;
  b @1 :B;
  c @2 :C;
  d @3 :D;
}

struct MoreUses {
  deep @0 :Deep(Text, Data, Box(List(Text)));
  quad @1 :Quad(Box(Text), Box(Data), Box(Text), Box(Data));
}

enum Mode $label("a mode") {
  off @0 $label("nothing");
  on @1;
}

# Annotations, read from the generated types' schema nodes: one of Text,
# one whose value is of an enum of this file.
annotation label(struct, enum, enumerant) :Text;
annotation weight(field) :Mode;
