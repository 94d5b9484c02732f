# Schema to use to test `CompilerCommand::output_path()`.

@0xbc9d501a1b13e0e9;

struct Foo {}

struct Bar {
    foo @0 : Foo;
}
