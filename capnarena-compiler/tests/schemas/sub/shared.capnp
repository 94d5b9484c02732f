@0xf00dfacecafe0002;
# Imported by imports.capnp.

struct Shared {
  enum Kind { alpha @0; beta @1; }
  kind @0 :Kind;
  name @1 :Text;
}

const limit :UInt16 = 512;
const sharedValue :Shared = (kind = alpha, name = "shared");
struct Unused { n @0 :Int8; }
