@0xe1f2a3b4c5d6e7f8;
# Defaults and constants in the schema language's value syntax.

enum Color { red @0; green @1; blue @2 $ann; }
annotation ann(*) :Void;
annotation tagged(struct, field, enumerant, const, union, group) :UInt32;

struct Inner {
  a @0 :Int32 = -7;
  b @1 :Text = "inner";
  c @2 :List(Int16) = [1, -2, 3];
}

struct Defaults $tagged(1) {
  bool @0 :Bool = true;
  i8 @1 :Int8 = -128;
  i16 @2 :Int16 = 32767;
  i32 @3 :Int32 = -2147483648;
  i64 @4 :Int64 = 9223372036854775807;
  u8 @5 :UInt8 = 255;
  u16 @6 :UInt16 = 0xffff;
  u32 @7 :UInt32 = 017;
  u64 @8 :UInt64 = 18446744073709551615;
  f32 @9 :Float32 = 1.25e3;
  f64 @10 :Float64 = -inf;
  nan @11 :Float64 = nan;
  inf @12 :Float32 = inf;
  text @13 :Text = "tab\there \"quoted\" \x41\101";
  data @14 :Data = 0x"de ad be ef";
  data2 @15 :Data = "bytes";
  color @16 :Color = blue;
  inner @17 :Inner = (a = 5, b = "x", c = [7]);
  list @18 :List(Inner) = [(a = 1), (b = "two")];
  texts @19 :List(Text) = ["a", "b" "c"];
  bools @20 :List(Bool) = [true, false, true];
  colors @21 :List(Color) = [red, blue];
  nested @22 :List(List(Int8)) = [[1, 2], [], [3]];
  fromConst @23 :Int32 = .answer;
  fromConstStruct @24 :Inner = .innerConst;
  floatFromInt @25 :Float64 = 42;
  voidField @26 :Void = void;
  union {
    u1 @27 :Int16 = 3 $tagged(2);
    u2 @28 :Text;
    g :group {
      g1 @29 :UInt8 = 9;
      g2 @30 :Bool;
    }
  }
  named :union $tagged(3) {
    n1 @31 :Float32;
    n2 @32 :Inner;
  }
  grp :group $tagged(4) {
    x @33 :Int64 = -1;
    sub :union {
      s1 @34 :Void;
      s2 @35 :UInt32 = 77;
    }
  }
}

const answer :Int32 = 42 $tagged(5);
const innerConst :Inner = (a = 1, b = "c", c = [4, 5]);
const list :List(Float32) = [1.5, -2, inf];
const text :Text = "hello";
const color :Color = green;
const derived :Int64 = .answer;
const point :Defaults = (bool = false, i8 = 1, named = (n1 = 2.5), grp = (sub = (s2 = 1)), g = (g1 = 2));
const big :UInt64 = 0x8000000000000000;
