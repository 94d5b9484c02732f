# Names from capnproto-rust's $Rust annotations (tests/schemas/rust.capnp
# declares them with capnpc's ids): each renamed item is generated under the
# name the annotation gives, and the text format keeps the schema's names.
@0xa2b38bfa84e1f55d;

using Rust = import "rust.capnp";
using Parent = import "renamed_parent.capnp";

struct OldName $Rust.name("NewName") {
  oldField @0 :UInt32 $Rust.name("newField");
  type @1 :Text $Rust.name("kind");
  color @2 :OldColor;
  oldGroup :group $Rust.name("newGroup") {
    inner @3 :Int16;
  }
  union {
    oldMember @4 :Void $Rust.name("newMember");
    other @5 :Text;
  }
  fromParent @6 :Parent.Elsewhere;
}

enum OldColor $Rust.name("NewColor") {
  oldRed @0 $Rust.name("newRed");
  blue @1;
}
