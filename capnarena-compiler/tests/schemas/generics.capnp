@0xa1b2c3d4e5f60718;
# Generics seen through brands: aliases to parameters and to branded
# generics reached through a bound scope, struct literals of generic
# types, a generic annotation, and a struct embedded from a message file
# (sub/box.bin: `capnp encode generics.capnp Box` of
# `(text = "embedded", n = 7)`).

struct Pair(A, B) {
  first @0 :A;
  second @1 :B;
  using First = A;
  using Swapped = Pair(B, A);
  struct Inner {
    a @0 :A;
    b @1 :B;
  }
  inner @2 :Inner;
  annotation tag(struct, field) :A;
  union {
    none @3 :Void;
    both :group {
      x @4 :A;
      y @5 :B;
    }
  }
}

struct Box {
  text @0 :Text;
  n @1 :Int32 = 3;
}

struct Uses $Pair(Text, Box).tag("hello") {
  pair @0 :Pair(Box, Text) = (first = (text = "a", n = 5), second = "b",
                              inner = (a = (n = 1), b = "x"));
  first @1 :Pair(Box, Text).First = (text = "first");
  swapped @2 :Pair(Box, Text).Swapped = (first = "s", second = (n = 9));
  inner @3 :Pair(Text, Data).Inner = (a = "t", b = 0x"00 01");
  nested @4 :Pair(Pair(Text, Box), Data) = (first = (first = "deep", second = (n = 2)));
  unbound @5 :Pair;
  listOfGenerics @6 :List(Pair(Text, Text)) = [(first = "1"), (second = "2")];
  field @7 :Int8 $Pair(Int8Box, Box).tag((v = 4));
}

struct Int8Box { v @0 :Int8; }


const pairConst :Pair(Text, Int8Box) = (first = "c", second = (v = -1));
const embedded :Box = embed "sub/box.bin";
