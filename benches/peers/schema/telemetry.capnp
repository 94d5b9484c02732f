# Schema of the realistic scenarios (benches/realistic.rs): messages shaped
# like device telemetry and mesh-network state. Both libraries generate their
# code from this one file (capnpc for capnp, capnarena-build for capnarena).
@0xae36e6765b0f8507;

# tree: one report from a device, a deep tree of small structs.
struct Report {
  deviceId @0 :UInt64;
  seq @1 :UInt32;
  timestamp @2 :Int64;
  flags @3 :List(Bool);
  header @4 :Header;
  sensors @5 :List(Sensor);
  firmware @6 :Data;
  routes @7 :List(List(UInt16));
}

struct Header {
  version @0 :UInt16;
  kind @1 :Kind;
  origin @2 :Position;
  source :union {
    direct @3 :Void;
    relay @4 :UInt32;
    gateway @5 :Gateway;
  }
}

enum Kind {
  periodic @0;
  event @1;
  alarm @2;
  boot @3;
}

struct Position {
  lat @0 :Float64;
  lon @1 :Float64;
  alt @2 :Float32;
}

struct Gateway {
  id @0 :UInt32;
  rssi @1 :Int16;
  mac @2 :Data;
}

struct Sensor {
  id @0 :UInt16;
  quality @1 :UInt8;
  flags @2 :List(Bool);
  samples @3 :List(Float64);
  reading :union {
    temperature @4 :Float32;
    position @5 :Position;
    raw @6 :Data;
    status @7 :Status;
  }
  calibration @8 :Calibration;
}

struct Status {
  code @0 :UInt16;
  ok @1 :Bool;
}

struct Calibration {
  offset @0 :Float32;
  scale @1 :Float32;
  hops @2 :List(List(UInt16));
}

# mesh: a large list of nodes, each holding pointers to small structs.
struct Mesh {
  nodes @0 :List(Node);
}

struct Node {
  id @0 :UInt32;
  parent @1 :UInt32;
  battery @2 :Float32;
  up @3 :Bool;
  position @4 :Position;
  link @5 :Link;
}

struct Link {
  peer @0 :UInt32;
  rssi @1 :Int16;
  snr @2 :Float32;
}

# stream: one small reading (about 140 bytes framed).
struct Sample {
  deviceId @0 :UInt64;
  timestamp @1 :Int64;
  value @2 :Float64;
  sensor @3 :UInt16;
  alarm @4 :Bool;
  position @5 :Position;
  unit @6 :Text;
  recent @7 :List(Float32);
}
