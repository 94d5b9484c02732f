# File to be imported from scopes.capnp.

using Go = import "go.capnp";

@0x9c339b0568fe60ba;

$Go.package("otherscopes");
$Go.import("capnproto.org/go/capnp/v3/capnpc-go/testdata/otherscopes");

struct Foo @0xd127518fcfe6191d {
}
