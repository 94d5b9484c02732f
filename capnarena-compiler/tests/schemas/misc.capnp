@0xe000000000000001;
# Generic superclasses, method generics in lists, unions inside groups
# inside unions, lists of data, lists and structs as defaults and
# constants, an annotation on every kind of target.
interface Base(T) { get @0 () -> (t :T); }
interface Derived extends(Base(Text), Other) {
  put @0 [U, V, W] (u :U, v :V, w :List(W)) -> (ok :Bool);
}
interface Other { ping @0 (); }
struct S {
  union {
    a @0 :Void;
    g :group {
      union {
        x @1 :Int8;
        y @2 :Int64;
      }
      z @3 :Text;
    }
    n :union {
      p @4 :Float32;
      q @5 :List(Float64) = [1, 2.5, -inf];
    }
  }
  cap @6 :Derived;
  caps @7 :List(Other);
  anyList @8 :AnyList;
  ds @9 :List(Data) = [0x"ff", "abc"];
  e @10 :List(List(Text)) = [["a"], [], ["b", "c"]];
  s @11 :List(S);
  self @12 :S = (a = void);
}
const c :List(S) = [(g = (x = 1, z = "q")), (n = (q = [3]))];
annotation everywhere(*) :List(Int32);
const v :Void = void $everywhere([1, 2]);
