@0xe00000000000000c;
# Uses one struct of lib.capnp, whose unused parts import a missing file.

using import "lib.capnp".Used;
struct T { u @0 :Used; }
