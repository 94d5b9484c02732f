// The reference builder's side of tests/far_layout.rs: rebuilds the `Log`
// message read from stdin field by field, in the order
// tests/common/build.rs `build_log` uses, on a
// MallocMessageBuilder(N, AllocationStrategy::FIXED_SIZE) (N = argv[1]),
// and writes it framed to stdout.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <cstdlib>
#include <unistd.h>
#include "all_types.capnp.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  unsigned words = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  capnp::StreamFdMessageReader input(0);
  auto src = input.getRoot<Log>().getEntries();
  capnp::MallocMessageBuilder message(words, capnp::AllocationStrategy::FIXED_SIZE);
  auto entries = message.initRoot<Log>().initEntries(src.size());
  for (unsigned i = 0; i < src.size(); ++i) {
    auto e = entries[i];
    e.setTimestamp(src[i].getTimestamp());
    e.setLevel(src[i].getLevel());
    e.setMessage(src[i].getMessage());
    auto from = src[i].getTags();
    auto tags = e.initTags(from.size());
    for (unsigned j = 0; j < from.size(); ++j) tags.set(j, from[j]);
  }
  capnp::writeMessageToFd(1, message);
  return 0;
}
