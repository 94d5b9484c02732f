@0x9bbc59b4f632f2e3;

struct Bar {}
