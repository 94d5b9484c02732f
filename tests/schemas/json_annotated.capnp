# The /capnp/compat/json.capnp annotations that the owned values' serde
# impls follow ($Json.name on fields, unions and enumerants,
# $Json.discriminator with name and valueName on a struct's union and on
# a named union, $Json.base64, $Json.hex), after the annotated schema of
# capnarena-dynamic's JSON tests (flattening left out).
@0x8f73219f1545277e;

using Json = import "/capnp/compat/json.capnp";

enum Level {
  low @0 $Json.name("LOW");
  high @1 $Json.name("hi-gh");
  other @2;
}

struct Inner {
  x @0 :Int32 $Json.name("ex");
  tags @1 :List(Text);
}

struct Shape $Json.discriminator(name = "kind", valueName = "data") {
  union {
    circle @0 :Float64;
    square @1 :Inner;
    nothing @2 :Void;
    blob @3 :Data $Json.hex;
  }
}

struct Event $Json.discriminator(name = "t") {
  id @0 :UInt64 $Json.name("event-id");
  inner @1 :Inner;
  level @2 :Level;
  levels @3 :List(Level);
  raw @4 :Data $Json.base64;
  union {
    click :group {
      x @5 :Int16;
      y @6 :Int16;
    }
    key @7 :Inner;
    idle @8 :Void;
    note @9 :Text $Json.name("message");
  }
  shapes @10 :List(Shape);
  payload :union $Json.discriminator(name = "payloadType") {
    none @11 :Void;
    bytes @12 :Data $Json.base64;
    text @13 :Text;
  }
  named :union $Json.name("renamedUnion") {
    a @14 :Bool;
    b @15 :Float32 $Json.name("bee");
  }
}
