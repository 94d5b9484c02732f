// The C++ reference's column of benches/peers/benches/rpc.rs: typed RPC
// calls of schema/rpc_bench.capnp's Adder with libcapnp-rpc.
//
// Provenance: written for capnarena, against the public API of Debian's
// libcapnp-rpc 0.9.2 (capnp/rpc-twoparty.h, kj/async-io.h) as its headers
// describe it; no code is copied from the reference's sources or samples.
// The bench compiles it at run time with g++ -O2, next to the code of
// `capnp compile -oc++ rpc_bench.capnp`.
//
// Usage:
//   rpc_bench WARMUP SEQUENTIAL IN_FLIGHT PIPELINED CONNECTIONS MANY_WARMUP MANY_CALLS
// The same constants as rpc.rs, passed by it. Measures what rpc.rs
// measures for the Rust sides:
//   - one connection over loopback TCP (TCP_NODELAY), its server and its
//     client on one kj event loop in one thread: WARMUP calls, then
//     SEQUENTIAL calls one at a time (calls/s, p50 and p99 latency,
//     allocations per call), then PIPELINED calls IN_FLIGHT at a time;
//   - CONNECTIONS connections split over 2 threads, each thread a kj event
//     loop with its half of the connections (servers and clients), each
//     client doing sequential calls: MANY_WARMUP calls per connection,
//     then MANY_CALLS in all, timed from when both threads are warm.
// Every answer is checked; a wrong one fails the program (exit 1).
// Prints one "key value" line per figure on stdout.
//
// Allocations: malloc, calloc and realloc are replaced by counting ones
// that forward to glibc's (__libc_malloc ...); operator new goes through
// malloc, so every allocation of the process (client and server, capnp,
// kj and the C++ library) counts, as the Rust sides' counting global
// allocator does. Counting is on during the sequential calls only.

#include <capnp/rpc-twoparty.h>
#include <kj/async-io.h>
#include <kj/debug.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rpc_bench.capnp.h"

namespace {

std::atomic<bool> counting(false);
std::atomic<uint64_t> allocations(0);

inline void countOne() {
  if (counting.load(std::memory_order_relaxed)) {
    allocations.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* ptr, size_t size);

void* malloc(size_t size) noexcept {
  countOne();
  return __libc_malloc(size);
}

void* calloc(size_t count, size_t size) noexcept {
  countOne();
  return __libc_calloc(count, size);
}

void* realloc(void* ptr, size_t size) noexcept {
  countOne();
  return __libc_realloc(ptr, size);
}
}

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class AdderImpl final : public Adder::Server {
 protected:
  kj::Promise<void> add(AddContext context) override {
    auto params = context.getParams();
    context.getResults().setSum(params.getA() + params.getB());
    return kj::READY_NOW;
  }
};

void setNoDelay(kj::AsyncIoStream& stream) {
  int one = 1;
  stream.setsockopt(IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  int value = 0;
  uint length = sizeof(value);
  stream.getsockopt(IPPROTO_TCP, TCP_NODELAY, &value, &length);
  KJ_REQUIRE(value != 0, "TCP_NODELAY did not stick");
}

// Both ends of one loopback connection, in one event loop: the server side
// offers an AdderImpl, the client side holds its bootstrap.
class Connection {
 public:
  Connection(kj::Own<kj::AsyncIoStream> serverEndParam, kj::Own<kj::AsyncIoStream> clientEndParam)
      : serverEnd(kj::mv(serverEndParam)),
        clientEnd(kj::mv(clientEndParam)),
        serverSide(*serverEnd, kj::heap<AdderImpl>(), capnp::rpc::twoparty::Side::SERVER),
        clientSide(*clientEnd),
        adder(clientSide.bootstrap().castAs<Adder>()) {}

 private:
  kj::Own<kj::AsyncIoStream> serverEnd;
  kj::Own<kj::AsyncIoStream> clientEnd;
  capnp::TwoPartyClient serverSide;
  capnp::TwoPartyClient clientSide;

 public:
  Adder::Client adder;
};

// A listener on 127.0.0.1 (a free port) and the address to reach it.
struct Loopback {
  kj::Own<kj::ConnectionReceiver> listener;
  kj::Own<kj::NetworkAddress> address;
};

Loopback listen(kj::Network& network, kj::WaitScope& ws) {
  auto any = network.parseAddress("127.0.0.1", 0).wait(ws);
  auto listener = any->listen();
  auto address = network.parseAddress("127.0.0.1", listener->getPort()).wait(ws);
  return Loopback{kj::mv(listener), kj::mv(address)};
}

kj::Own<Connection> connect(Loopback& loopback, kj::WaitScope& ws) {
  auto accepted = loopback.listener->accept();
  auto clientEnd = loopback.address->connect().wait(ws);
  auto serverEnd = accepted.wait(ws);
  setNoDelay(*clientEnd);
  setNoDelay(*serverEnd);
  return kj::heap<Connection>(kj::mv(serverEnd), kj::mv(clientEnd));
}

capnp::RemotePromise<Adder::AddResults> send(Adder::Client& adder, uint64_t a, uint64_t b) {
  auto request = adder.addRequest();
  request.setA(a);
  request.setB(b);
  return request.send();
}

void expectSum(uint64_t got, uint64_t a, uint64_t b) {
  KJ_REQUIRE(got == a + b, "wrong sum", got, a, b);
}

// Calls a + b for a in [from, to), one at a time; resolves to the count.
kj::Promise<uint64_t> callsInSequence(Adder::Client adder, uint64_t from, uint64_t to, uint64_t b,
                                      uint64_t done) {
  if (from == to) return done;
  return send(adder, from, b)
      .then([adder, from, to, b, done](capnp::Response<Adder::AddResults>&& response) mutable {
        expectSum(response.getSum(), from, b);
        return callsInSequence(kj::mv(adder), from + 1, to, b, done + 1);
      });
}

// Runs the sequences of every connection together; returns the calls made.
uint64_t callsOnEach(kj::ArrayPtr<kj::Own<Connection>> connections, uint64_t calls, uint64_t b,
                     kj::WaitScope& ws) {
  auto sequences = kj::heapArrayBuilder<kj::Promise<uint64_t>>(connections.size());
  for (auto& connection : connections) {
    sequences.add(callsInSequence(connection->adder, 0, calls, b, 0));
  }
  uint64_t total = 0;
  for (auto n : kj::joinPromises(sequences.finish()).wait(ws)) total += n;
  return total;
}

struct OneConnection {
  double sequentialPerS;
  uint64_t p50Ns;
  uint64_t p99Ns;
  double pipelinedPerS;
  double allocsPerCall;
};

OneConnection oneConnection(uint64_t warmup, uint64_t sequential, uint64_t inFlight,
                            uint64_t pipelined) {
  auto io = kj::setupAsyncIo();
  auto& ws = io.waitScope;
  auto loopback = listen(io.provider->getNetwork(), ws);
  auto connection = connect(loopback, ws);
  auto& adder = connection->adder;

  for (uint64_t i = 0; i < warmup; i++) {
    expectSum(send(adder, i, 1).wait(ws).getSum(), i, 1);
  }

  std::vector<uint64_t> latencies;
  latencies.reserve(sequential);
  allocations.store(0, std::memory_order_relaxed);
  counting.store(true, std::memory_order_relaxed);
  auto start = Clock::now();
  for (uint64_t i = 0; i < sequential; i++) {
    auto t = Clock::now();
    uint64_t sum = send(adder, i, 2).wait(ws).getSum();
    latencies.push_back(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t).count());
    expectSum(sum, i, 2);
  }
  double elapsed = secondsSince(start);
  counting.store(false, std::memory_order_relaxed);
  uint64_t allocs = allocations.load(std::memory_order_relaxed);
  std::sort(latencies.begin(), latencies.end());

  start = Clock::now();
  for (uint64_t i = 0; i < pipelined; i += inFlight) {
    auto batch = kj::heapArrayBuilder<kj::Promise<uint64_t>>(inFlight);
    for (uint64_t j = i; j < i + inFlight; j++) {
      batch.add(send(adder, j, 3).then(
          [](capnp::Response<Adder::AddResults>&& response) { return response.getSum(); }));
    }
    auto sums = kj::joinPromises(batch.finish()).wait(ws);
    for (uint64_t j = 0; j < inFlight; j++) expectSum(sums[j], i + j, 3);
  }
  double pipelinedElapsed = secondsSince(start);

  return OneConnection{
      sequential / elapsed,
      latencies[latencies.size() * 50 / 100],
      latencies[latencies.size() * 99 / 100],
      pipelined / pipelinedElapsed,
      double(allocs) / sequential,
  };
}

// The threads of the many-connections run meet here when warm; the main
// thread starts the clock and lets them go.
class Gate {
 public:
  void arrive() {
    std::lock_guard<std::mutex> lock(mutex);
    arrived++;
    changed.notify_all();
  }
  void arriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex);
    arrived++;
    changed.notify_all();
    changed.wait(lock, [this] { return open; });
  }
  void waitFor(int n) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [this, n] { return arrived >= n; });
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    open = true;
    changed.notify_all();
  }

 private:
  std::mutex mutex;
  std::condition_variable changed;
  int arrived = 0;
  bool open = false;
};

struct ThreadResult {
  uint64_t calls = 0;
  std::string error;
};

void manyThread(uint64_t connections, uint64_t warmup, uint64_t callsEach, Gate& gate,
                ThreadResult& result) {
  bool arrived = false;
  try {
    auto io = kj::setupAsyncIo();
    auto& ws = io.waitScope;
    auto loopback = listen(io.provider->getNetwork(), ws);
    auto all = kj::heapArrayBuilder<kj::Own<Connection>>(connections);
    for (uint64_t i = 0; i < connections; i++) all.add(connect(loopback, ws));
    auto conns = all.finish();
    callsOnEach(conns, warmup, 1, ws);
    arrived = true;
    gate.arriveAndWait();
    result.calls = callsOnEach(conns, callsEach, 4, ws);
  } catch (kj::Exception& e) {
    result.error = kj::str(e).cStr();
  } catch (std::exception& e) {
    result.error = e.what();
  }
  if (!arrived) gate.arrive();
}

// Calls/s of `total` calls over `connections` connections on 2 threads.
double manyConnections(uint64_t connections, uint64_t warmup, uint64_t total) {
  const int threads = 2;
  uint64_t callsEach = total / connections;
  Gate gate;
  std::vector<ThreadResult> results(threads);
  std::vector<std::thread> running;
  for (int t = 0; t < threads; t++) {
    running.emplace_back(manyThread, connections / threads, warmup, callsEach, std::ref(gate),
                         std::ref(results[t]));
  }
  gate.waitFor(threads);
  auto start = Clock::now();
  gate.release();
  for (auto& thread : running) thread.join();
  double elapsed = secondsSince(start);
  uint64_t calls = 0;
  for (auto& result : results) {
    KJ_REQUIRE(result.error.empty(), "a many-connections thread failed", result.error);
    calls += result.calls;
  }
  KJ_REQUIRE(calls == total, "calls made", calls, total);
  return total / elapsed;
}

uint64_t argument(char** argv, int i) {
  char* end = nullptr;
  uint64_t value = strtoull(argv[i], &end, 10);
  KJ_REQUIRE(*argv[i] != '\0' && *end == '\0' && value > 0, "not a positive count", argv[i]);
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    fprintf(stderr,
            "usage: %s WARMUP SEQUENTIAL IN_FLIGHT PIPELINED CONNECTIONS MANY_WARMUP "
            "MANY_CALLS\n",
            argv[0]);
    return 2;
  }
  try {
    uint64_t warmup = argument(argv, 1);
    uint64_t sequential = argument(argv, 2);
    uint64_t inFlight = argument(argv, 3);
    uint64_t pipelined = argument(argv, 4);
    uint64_t connections = argument(argv, 5);
    uint64_t manyWarmup = argument(argv, 6);
    uint64_t manyCalls = argument(argv, 7);
    KJ_REQUIRE(pipelined % inFlight == 0, "PIPELINED must be a multiple of IN_FLIGHT");
    KJ_REQUIRE(connections % 2 == 0 && manyCalls % connections == 0,
               "CONNECTIONS must be even and divide MANY_CALLS");

    auto one = oneConnection(warmup, sequential, inFlight, pipelined);
    double many = manyConnections(connections, manyWarmup, manyCalls);

    printf("version %d.%d.%d\n", CAPNP_VERSION_MAJOR, CAPNP_VERSION_MINOR, CAPNP_VERSION_MICRO);
    printf("sequential_per_s %.1f\n", one.sequentialPerS);
    printf("p50_ns %llu\n", (unsigned long long)one.p50Ns);
    printf("p99_ns %llu\n", (unsigned long long)one.p99Ns);
    printf("pipelined_per_s %.1f\n", one.pipelinedPerS);
    printf("allocs_per_call %.2f\n", one.allocsPerCall);
    printf("many_per_s %.1f\n", many);
    return 0;
  } catch (kj::Exception& e) {
    fprintf(stderr, "rpc_bench: %s\n", kj::str(e).cStr());
    return 1;
  }
}
