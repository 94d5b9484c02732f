# Every collision the naming rule names (capnarena-codegen/src/names.rs,
# README "Names"), in one schema the reference accepts: each pair or
# group here reached one Rust name before the rule (issue 20).
@0x9900a74c00a8daec;

struct Collisions {
  from @0 :Text;                 # set_from, the builder's deep copy
  fooBar @1 :UInt8;
  fooBAR @2 :UInt8;              # the same snake_case as fooBar
  l @3 :List(UInt8);
  lFromSlice @4 :UInt8;          # l's set_l_from_slice
  t @5 :Text;
  tBytes @6 :UInt16;             # t's get_t_bytes
  texts @7 :List(Text);
  textsFromIter @8 :UInt32;      # texts' set_texts_from_iter
  reborrow @9 :UInt8;            # get_reborrow: prefixed methods never meet reborrow, which, ...
  which @10 :UInt8;
  withReader @11 :UInt8;
  type @12 :UInt8;               # a keyword
  self @13 :Text;

  g :group {                     # module g_, beside struct G's module g
    x @14 :UInt8;
  }
  struct G {
    y @0 :UInt8;
  }

  union {
    fooBaz @15 :UInt8;
    fooBAZ @16 :Text;            # Which::FooBaz and Which::FooBaz_
    ok @17 :Void;
    err @18 :Void;
  }

  # Items named like what a module holds or must not shadow.
  enum Reader { a @0; }
  enum Builder { b @0; }
  enum Owned { c @0; }
  enum Which { d @0; }
  enum WhichBuilder { e @0; }
  enum Params { f @0; }
  enum Result { ok @0; err @1; }
  enum Option { some @0; none @1; }
  enum Ok { x @0; }
  enum Err { x @0; }
  enum Some { x @0; }
  enum None { x @0; }
  struct Std {}
  struct Core {}
  struct Alloc {}
  struct Super {}                # a keyword as a module
  const typeId :UInt64 = 1;      # TYPE_ID
  const structSize :UInt32 = 2;  # STRUCT_SIZE
  const fileId :UInt32 = 3;      # FILE_ID
}

struct Foo {
  a @0 :UInt8;
}

struct FOO {                     # the same snake_case module as Foo
  b @0 :UInt8;
}

enum Mode {
  fooBar @0;
  fooBAR @1;                     # the same variant as fooBar
  self @2;                       # a keyword
}

# Generic parameters named like the generated code's own type parameters
# and types.
struct Gen(A, R, I, Reader) {
  a @0 :A;
  r @1 :R;
  i @2 :I;
  reader @3 :Reader;
}

interface Service {
  call @0 (x :UInt8) -> ();
  struct CallParams {            # the module of call's implicit parameters
    y @0 :UInt8;
  }
  # Named like the items of the typed RPC code in the interface's module.
  enum Client { a @0; }
  enum Server { b @0; }
  enum CallResults { c @0; }
  enum CallPipeline { d @0; }
}

# Generic parameters named like the typed RPC code's own (its server
# type parameter and the module's Client and Server).
interface Relay(Client, Server, S) {
  take @0 (c :Client, s :Server, x :S) -> (y :S);
}

struct Uses {
  gen @0 :Gen(Text, Data, List(UInt8), Foo);
  mode @1 :Mode;
  callParams @2 :Service.CallParams;
}
