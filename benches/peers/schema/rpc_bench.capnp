# The RPC benchmark's interface (benches/rpc.rs): one small call.
@0xc7d3a9e5b1f20a44;

interface Adder {
  add @0 (a :UInt64, b :UInt64) -> (sum :UInt64);
}
