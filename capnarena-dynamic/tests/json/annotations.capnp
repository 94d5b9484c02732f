# Every annotation of /capnp/compat/json.capnp in the combinations the
# reference's codec accepts, beyond its own compat/json-test.capnp: a
# struct's discriminator with valueName, flattened struct fields and
# groups with prefixes, flattened and named unions, base64 and hex in and
# out of unions, annotated enumerants in lists.
@0xb5e1f0b8a5c3d2e1;

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
  inner @1 :Inner $Json.flatten(prefix = "in_");
  meta :group $Json.flatten(prefix = "m.") {
    level @2 :Level;
    levels @3 :List(Level);
    raw @4 :Data $Json.base64;
  }
  union {
    click :group $Json.flatten() {
      x @5 :Int16;
      y @6 :Int16;
    }
    key @7 :Inner $Json.flatten(prefix = "k_");
    idle @8 :Void;
    note @9 :Text $Json.name("message");
  }
  shapes @10 :List(Shape);
  payload :union $Json.discriminator(name = "payloadType") $Json.flatten(prefix = "p_") {
    none @11 :Void;
    bytes @12 :Data $Json.base64;
    text @13 :Text;
  }
  named :union $Json.name("renamedUnion") {
    a @14 :Bool;
    b @15 :Float32 $Json.name("bee");
  }
  plain :union $Json.discriminator() {
    u @16 :UInt8;
    v @17 :Text;
  }
}
