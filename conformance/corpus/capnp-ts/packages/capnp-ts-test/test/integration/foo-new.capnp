@0xe0b7ff464fbc7ee1;
struct Foo {
  bar @0 :Text;
  baz @1 :Text;
}
