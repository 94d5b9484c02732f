@0xc4b1e0d8a7f20a31;
# A generic interface whose methods return capabilities typed by its
# parameter (sandstorm's util.capnp `Assignable(T)` has this shape): the
# typed RPC code's pipelines must compile for it. The `(T)` of `Setter`
# and `Getter` is inherited from `Assignable`.

interface Assignable(T) {
  get @0 () -> (value :T, setter :Setter);
  asGetter @1 () -> (getter :Getter);

  interface Getter {
    get @0 () -> (value :T);
  }

  interface Setter {
    set @0 (value :T) -> ();
  }
}

struct Holder {
  assignable @0 :Assignable(Text);
}
