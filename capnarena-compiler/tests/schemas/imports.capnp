@0xf00dfacecafe0001;
# Imports (relative and from the standard import path), `using`,
# absolute names, file annotations, embeds and constants from other files.

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("test::imports");
using import "sub/shared.capnp".Shared;
using Json = import "/capnp/compat/json.capnp";
using Other = import "sub/shared.capnp";

struct UsesImports $Json.discriminator(name = "kind") {
  shared @0 :Shared;
  other @1 :Other.Shared.Kind = beta;
  value @2 :Json.Value;
  fromOther @3 :UInt16 = Other.limit;
  abs @4 : .Local;
  embedded @5 :Text = embed "sub/embedded.txt";
  embeddedData @6 :Data = embed "sub/embedded.txt";
  union {
    a @7 :Void;
    b @8 :Int32 $Json.name("bee");
  }
}

struct Local {
  x @0 :Int32 $Cxx.name("xx");
}

const fromImport :Other.Shared = Other.sharedValue;
