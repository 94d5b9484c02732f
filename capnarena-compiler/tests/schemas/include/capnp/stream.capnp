@0x86c366a91393f3f8;
# A stand-in for capnp/stream.capnp (same ids) so tests need no installed
# schemas; the reference tests use the real one.

struct StreamResult @0x995f9a3377c0b16e {}
