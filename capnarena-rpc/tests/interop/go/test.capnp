# The interface of the interop tests: the methods, ids and field layouts
# that tests/common/mod.rs serves and calls through the untyped API, and
# that tests/generated/test_capnp.rs (generated with typed RPC code) serves
# and calls through the typed API.
@0xd8a3b5e1c2f40a11;
# Go: the copy of ../test.capnp that go-capnp's capnpc-go compiles (it
# Go: needs the two annotations below). The same file id and
# Go: declarations, so the same node ids; tests/go.rs checks that this
# Go: file without its "Go" lines is ../test.capnp.
using Go = import "/go.capnp";
$Go.package("testcapnp");
$Go.import("capnarena.test/rpcpeer/testcapnp");

interface Test @0xa1b2c3d4e5f60001 {
  add @0 (a :UInt64, b :UInt64) -> (sum :UInt64);
  echoCap @1 (cap :Counter) -> (cap :Counter);
  makeCounter @2 (start :UInt64) -> (counter :Counter);
  fail @3 (kind :UInt64) -> ();
  wait @4 () -> ();
  callBack @5 (counter :Counter, times :UInt64) -> (last :UInt64);
  makeNamed @6 (name :Text, start :UInt64) -> (named :Named);
  makeBox @7 (value :Text) -> (box :Box(Text));
  makeSink @8 () -> (sink :Sink);
  hold @9 (holder :Holder) -> (holder :Holder);
}

# Capabilities in the fields of a struct: `hold` calls the holder's
# counter once and returns a holder of that counter, its label with the
# count, and a box of the label. (The union's capability member is read
# and set in tests/typed.rs.)
struct Holder {
  counter @0 :Counter;
  label @1 :Text;
  box @2 :Box(Text);
  union {
    none @3 :Void;
    named @4 :Named;
  }
}

interface Counter @0xa1b2c3d4e5f60002 {
  increment @0 () -> (value :UInt64);
}

# A counter with a name: inheritance (`extends`).
interface Named @0xa1b2c3d4e5f60003 extends(Counter) {
  name @0 () -> (name :Text);
}

# A generic interface.
interface Box @0xa1b2c3d4e5f60004 (T) {
  get @0 () -> (value :T);
}

# A streaming method: `write` returns once the bytes are taken.
interface Sink @0xa1b2c3d4e5f60005 {
  write @0 (data :Data) -> stream;
  total @1 () -> (bytes :UInt64);
}
