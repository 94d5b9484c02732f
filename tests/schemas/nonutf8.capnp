@0xc1f0a6e3d2b49587;
# Text values that are not UTF-8. The reference accepts them and keeps the
# bytes as written; the generated code must carry those exact bytes
# (tests/nonutf8.rs).

annotation note(struct, field) :Text;

const bytes :Text = "\xff\xfe";
const plain :Text = "fine";

struct Holder $note("\xfe") {
  text @0 :Text = "a\xffb" $note("\xff");
  choice :union {
    none @1 :Void;
    member @2 :Text = "\xc3(";
  }
}
