# Every annotation of /capnp/compat/json.capnp, $Json.flatten included,
# for the owned values' serde impls (conformance/tests/owned_json.rs).
# `Event` and its types are capnarena-dynamic's tests/json/annotations.capnp
# (this project's; the dynamic codec's schema against libcapnp-json);
# `Outer` and the rest add what flattening can nest: prefixes added up over
# three levels, a flattened union whose tag takes its field's name (a
# discriminator with valueName and no name), a struct flattened into a
# flattened union member that has a union of its own, a union with
# valueName and no tag, and flattened struct fields left null.
@0xd4c1a7e0b9f25a63;

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

# Three levels of flattening: prefixes add up ("a_" "b_" "c_").
struct Leaf {
  n @0 :Int32;
  s @1 :Text;
}

struct Middle {
  leaf @0 :Leaf $Json.flatten(prefix = "c_");
  m @1 :Bool;
  shape @2 :Shape $Json.flatten(prefix = "sh_");
}

struct Tagged $Json.discriminator(name = "tt") {
  union {
    none @0 :Void;
    middle @1 :Middle $Json.flatten(prefix = "mid_");
    num @2 :Int64;
  }
}

struct Outer {
  first @0 :Middle $Json.flatten(prefix = "a_");
  deep :group $Json.flatten(prefix = "b_") {
    middle @1 :Middle $Json.flatten();
    extra @2 :UInt16;
  }
  # The tag takes the field's name: "choice".
  choice :union $Json.discriminator(valueName = "choiceValue") $Json.flatten(prefix = "ch.") {
    word @3 :Text;
    count @4 :UInt32;
    empty @5 :Void;
    leaf @6 :Leaf $Json.flatten(prefix = "lf_");
  }
  tagged @7 :Tagged $Json.flatten(prefix = "tg_");
  # No tag: the value under valueName alone.
  untagged :union $Json.discriminator(valueName = "val") {
    p @8 :Int8;
    q @9 :Text;
  }
  last @10 :Text;
}

# A union with valueName whose member nests the struct itself: a value
# given before its tag is kept and read once the tag has come, level by
# level (conformance/tests/stack_ceiling.rs).
struct Chain $Json.discriminator(name = "k", valueName = "v") {
  union {
    end @0 :Void;
    next @1 :Chain;
  }
}
