# Imported by codegen.capnp: cross-file references in generated code.
@0xe1b7c2a9d3f40581;

struct Point {
  x @0 :Int32;
  y @1 :Int32;
  label @2 :Text;
}

enum Shade {
  light @0;
  dark @1;
}
