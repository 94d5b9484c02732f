@0x997ccd7814c156ca;

struct Foo {}
