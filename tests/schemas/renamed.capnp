# capnproto-rust's $Rust annotations (tests/schemas/rust.capnp declares
# them with capnpc's ids): each renamed item is generated under the name the
# annotation gives, and the text format keeps the schema's names; the
# getters of an option field return an Option.
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
  maybeText @7 :Text $Rust.option;
  maybeList @8 :List(Int32) $Rust.option;
  maybeStruct @9 :Parent.Elsewhere $Rust.option;
  maybeData @10 :Data = 0x"01 02" $Rust.option;
  maybeAny @11 :AnyPointer $Rust.option;
}

enum OldColor $Rust.name("NewColor") {
  oldRed @0 $Rust.name("newRed");
  blue @1;
}
