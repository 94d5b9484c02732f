@0xe00000000000000b;
# Imported by top.capnp, which uses only `Used`: the broken import in
# `Unused` is never resolved, so it is not an error.

using L = import "other.capnp";
struct Used { a @0 :Int32; }
struct Unused { b @0 :import "missing.capnp".X; }
