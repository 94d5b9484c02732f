# The interface of the interop tests: the methods, ids and field layouts
# that tests/common/mod.rs serves and calls through the untyped API.
@0xd8a3b5e1c2f40a11;

interface Test @0xa1b2c3d4e5f60001 {
  add @0 (a :UInt64, b :UInt64) -> (sum :UInt64);
  echoCap @1 (cap :Counter) -> (cap :Counter);
  makeCounter @2 (start :UInt64) -> (counter :Counter);
  fail @3 (kind :UInt64) -> ();
  wait @4 () -> ();
  callBack @5 (counter :Counter, times :UInt64) -> (last :UInt64);
}

interface Counter @0xa1b2c3d4e5f60002 {
  increment @0 () -> (value :UInt64);
}
