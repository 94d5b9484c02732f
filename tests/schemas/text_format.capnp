# Schema for the text-format tests (tests/text_format.rs): every rule of the
# reference's text printer (capnp 0.9.2, `capnp convert binary:text`) that
# capnarena::text and the generated Debug impls must follow. The field
# offsets the reference compiler chose are in the walker's tables in
# tests/text_format.rs (from `capnp compile -ocapnp text_format.capnp`).
@0xb5f1c2d3e4a59607;

enum Small {
  zero @0;
  one @1;
  two @2;
}

# Small with more enumerants: OddWriter writes values Odd cannot name.
enum Big {
  zero @0;
  one @1;
  two @2;
  three @3;
  four @4;
}

interface Iface {}

struct Point {
  x @0 :Int32;
  y @1 :Int32;
}

# Float formatting: %.15g (%.6g for Float32) unless that fails to read
# back, then %.17g (%.8g); inf, -inf, nan.
struct Floats {
  f32 @0 :Float32;
  f64 @1 :Float64;
  f32s @2 :List(Float32);
  f64s @3 :List(Float64);
}

# C escapes in Text and Data; raw bytes >= 0x80 in Text, octal in Data.
struct Texts {
  text @0 :Text;
  data @1 :Data;
  texts @2 :List(Text);
  datas @3 :List(Data);
}

# Which fields print, and in what order.
struct Shapes {
  b @1 :Int32;            # declared before `a`, printed after it
  a @0 :Int32 = 5;        # a default: printed as the value read
  union {
    ptr @2 :Text;         # discriminant 0 and a pointer: omitted when null
    num @3 :Int32;
    nothing @4 :Void;
    grp :group {
      x @5 :Int32;
      t @6 :Text;
    }
  }
  c @7 :Text = "dflt";    # a null pointer with a default: omitted
  v @8 :Void;             # void: always printed
  outer :group {
    inner :union {
      first @9 :Void;
      second @10 :Int8;
    }
    tail @11 :Bool;
    deeper :group {
      s @12 :List(Text);
    }
  }
  nested @13 :Shapes;
  list @14 :List(Shapes);
}

# A union whose discriminant-0 member is a group: printed even when zero.
struct GroupFirst {
  union {
    g :group {
      p @0 :Text;
    }
    n @1 :Int16;
  }
  after @2 :Int16;
}

# What Odd cannot name: unknown enumerants, an unknown union member,
# opaque pointers, capabilities. Written as OddWriter (same layout).
struct Odd {
  e @0 :Small;
  es @1 :List(Small);
  union {
    a @2 :Void;
    b @3 :Int32;
  }
  any @4 :AnyPointer;
  cap @5 :Iface;
  caps @6 :List(Iface);
  anyNull @7 :AnyPointer;
}

struct OddWriter {
  e @0 :Big;
  es @1 :List(Big);
  union {
    a @2 :Void;
    b @3 :Int32;
    c @8 :Void;
  }
  any @4 :Text;
  cap @5 :AnyPointer;
  caps @6 :AnyPointer;
  anyNull @7 :AnyPointer;
}

# Lists: element kinds, nesting, and the pretty printer's line breaking.
struct Lists {
  voids @0 :List(Void);
  bools @1 :List(Bool);
  ints @2 :List(Int64);
  nested @3 :List(List(List(Int32)));
  texts @4 :List(List(Text));
  points @5 :List(Point);
  empty @6 :List(Floats);
  uints @7 :List(UInt64);
  u8s @8 :List(UInt8);
  i16s @9 :List(Int16);
  e @10 :List(Small);
}
