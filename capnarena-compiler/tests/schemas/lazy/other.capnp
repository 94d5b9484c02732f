@0xe00000000000000a;
struct S { a @0 :Int32; }
