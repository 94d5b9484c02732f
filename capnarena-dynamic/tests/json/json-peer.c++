// The reference's JSON codec (libcapnp-json), called directly, for the
// JSON tests of capnarena-dynamic: a schema parsed at run time, its
// annotations applied with JsonCodec::handleByAnnotation.
//
// Usage: json-peer MODE SCHEMA_FILE IMPORT_DIR ROOT_STRUCT
//   MODE encode-pretty | encode-short: a framed message on stdin, its JSON
//        on stdout (no newline);
//   MODE decode: JSON on stdin, the framed message on stdout.
// An error goes to stderr with exit status 1.

#include <capnp/compat/json.h>
#include <capnp/message.h>
#include <capnp/schema-parser.h>
#include <capnp/serialize.h>
#include <kj/exception.h>
#include <kj/io.h>
#include <kj/string.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>

static std::string readStdin() {
  std::string all;
  char buf[65536];
  for (;;) {
    ssize_t n = read(0, buf, sizeof(buf));
    if (n < 0) throw std::runtime_error("reading stdin");
    if (n == 0) return all;
    all.append(buf, static_cast<size_t>(n));
  }
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s MODE SCHEMA_FILE IMPORT_DIR ROOT_STRUCT\n", argv[0]);
    return 2;
  }
  kj::StringPtr mode = argv[1];
  try {
    capnp::SchemaParser parser;
    kj::StringPtr imports[] = {argv[3]};
    auto file = parser.parseDiskFile(argv[2], argv[2], imports);
    auto root = file.getNested(argv[4]).asStruct();

    capnp::JsonCodec codec;
    codec.handleByAnnotation(root);
    if (mode == "encode-pretty" || mode == "encode-short") {
      codec.setPrettyPrint(mode == "encode-pretty");
      capnp::ReaderOptions options;
      options.traversalLimitInWords = 1ull << 40;
      capnp::StreamFdMessageReader reader(0, options);
      auto text = codec.encode(reader.getRoot<capnp::DynamicStruct>(root));
      kj::FdOutputStream(1).write(text.begin(), text.size());
    } else if (mode == "decode") {
      std::string text = readStdin();
      capnp::MallocMessageBuilder message;
      auto builder = message.initRoot<capnp::DynamicStruct>(root);
      codec.decode(kj::ArrayPtr<const char>(text.data(), text.size()), builder);
      capnp::writeMessageToFd(1, message);
    } else {
      fprintf(stderr, "unknown mode %s\n", mode.cStr());
      return 2;
    }
  } catch (const kj::Exception& e) {
    fprintf(stderr, "%s\n", kj::str(e).cStr());
    return 1;
  } catch (const std::exception& e) {
    fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
