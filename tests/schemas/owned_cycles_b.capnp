# The other half of owned_cycles.capnp's cycle across files.
@0xec8bb97f326f08f7;

using A = import "owned_cycles.capnp";

struct Remote {
  back @0 :A.Local;
  label @1 :Text;
}
