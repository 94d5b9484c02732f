@0x9e1812b9b1d9d4e5;

struct Foo {
    numbers @0 :List(Int16);
}
