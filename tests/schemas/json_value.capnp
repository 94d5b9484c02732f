# Fields of type /capnp/compat/json.capnp's Value, which the reference's
# JSON codec writes as the JSON value they hold (not as structs) and reads
# from any JSON value: a field, lists of them, a union member, one under
# a $Json.discriminator's valueName (held until its tag), one in a
# Value.Field, and the struct nested in itself.
@0xa144b5d8130b00d0;

using Json = import "/capnp/compat/json.capnp";

struct Holder {
  value @0 :Json.Value;
  values @1 :List(Json.Value);
  nested @2 :List(List(Json.Value));
  member @3 :Json.Value.Field;
  inner @4 :Holder;
  choice :union {
    raw @5 :Json.Value;
    text @6 :Text;
  }
  held :union $Json.flatten() $Json.discriminator(name = "kind", valueName = "payload") {
    json @7 :Json.Value;
    count @8 :UInt32;
  }
  after @9 :Text;
}
