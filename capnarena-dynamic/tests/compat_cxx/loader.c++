// The reference's verdict on a schema change: loads every node of the old
// CodeGeneratorRequest into a SchemaLoader, then every node of the new
// one. The loader checks each node against the one of the same id that
// it holds and throws when it finds them incompatible.
//
// Usage: loader OLD.bin NEW.bin
// Prints "compatible", or "incompatible: <reason>"; exit 0 either way,
// 2 when a file cannot be read.

#include <capnp/schema-loader.h>
#include <capnp/schema.capnp.h>
#include <capnp/serialize.h>
#include <kj/exception.h>
#include <fcntl.h>
#include <unistd.h>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: loader OLD.bin NEW.bin" << std::endl;
    return 2;
  }
  capnp::SchemaLoader loader;
  for (int side = 1; side <= 2; side++) {
    int fd = open(argv[side], O_RDONLY);
    if (fd < 0) {
      std::cerr << argv[side] << ": cannot open" << std::endl;
      return 2;
    }
    capnp::StreamFdMessageReader message(fd);
    auto request = message.getRoot<capnp::schema::CodeGeneratorRequest>();
    kj::Maybe<kj::Exception> failure = kj::runCatchingExceptions([&]() {
      for (auto node : request.getNodes()) {
        loader.load(node);
      }
    });
    close(fd);
    KJ_IF_MAYBE(e, failure) {
      if (side == 1) {
        std::cerr << "old schema rejected: " << e->getDescription().cStr() << std::endl;
        return 2;
      }
      std::cout << "incompatible: " << e->getDescription().cStr() << std::endl;
      return 0;
    }
  }
  std::cout << "compatible" << std::endl;
  return 0;
}
