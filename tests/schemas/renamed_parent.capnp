# A file whose generated module the including crate puts under
# `crate::nested::deeper`, as $Rust.parentModule says; files importing it
# refer to its items there.
@0xbee12a9676d7f668;

using Rust = import "rust.capnp";
$Rust.parentModule("nested::deeper");

struct Elsewhere {
  value @0 :Int64;
}
