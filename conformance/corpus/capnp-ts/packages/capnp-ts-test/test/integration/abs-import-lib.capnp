@0xd3a8f0aa8c1b4d11;

struct AbsPoint {
  x @0 :Float64;
  y @1 :Float64;
}
