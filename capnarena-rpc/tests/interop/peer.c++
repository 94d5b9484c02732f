// The C++ reference's RPC (libcapnp-rpc) as a test peer of capnarena-rpc.
// The connection is a socket on stdin (fd 0).
//   peer serve: offers a Test as its bootstrap until the other side hangs up.
//   peer call:  calls the other side's bootstrap Test through every method
//               and prints "ok <check>" per check; exits 1 on the first
//               mismatch, printing what it got.
//   peer call-more: as call, with makeNamed, makeBox, makeSink and hold too.
#include <capnp/rpc-twoparty.h>
#include <kj/async-io.h>
#include <kj/debug.h>
#include <iostream>
#include "test.capnp.h"

namespace {

class CounterImpl final : public Counter::Server {
 public:
  explicit CounterImpl(uint64_t start) : value(start) {}
  kj::Promise<void> increment(IncrementContext context) override {
    context.getResults().setValue(++value);
    return kj::READY_NOW;
  }

 private:
  uint64_t value;
};

class NamedImpl final : public Named::Server {
 public:
  NamedImpl(kj::String nameText, uint64_t start) : nameText(kj::mv(nameText)), value(start) {}
  kj::Promise<void> increment(IncrementContext context) override {
    context.getResults().setValue(++value);
    return kj::READY_NOW;
  }
  kj::Promise<void> name(NameContext context) override {
    context.getResults().setName(nameText);
    return kj::READY_NOW;
  }

 private:
  kj::String nameText;
  uint64_t value;
};

class TextBoxImpl final : public Box<capnp::Text>::Server {
 public:
  explicit TextBoxImpl(kj::String value) : value(kj::mv(value)) {}
  kj::Promise<void> get(GetContext context) override {
    context.getResults().setValue(value);
    return kj::READY_NOW;
  }

 private:
  kj::String value;
};

class SinkImpl final : public Sink::Server {
 public:
  kj::Promise<void> write(WriteContext context) override {
    bytes += context.getParams().getData().size();
    return kj::READY_NOW;
  }
  kj::Promise<void> total(TotalContext context) override {
    context.getResults().setBytes(bytes);
    return kj::READY_NOW;
  }

 private:
  uint64_t bytes = 0;
};

kj::Exception::Type typeOf(uint64_t kind) {
  switch (kind) {
    case 0: return kj::Exception::Type::FAILED;
    case 1: return kj::Exception::Type::OVERLOADED;
    case 2: return kj::Exception::Type::DISCONNECTED;
    default: return kj::Exception::Type::UNIMPLEMENTED;
  }
}

class TestImpl final : public Test::Server {
 public:
  kj::Promise<void> add(AddContext context) override {
    auto p = context.getParams();
    context.getResults().setSum(p.getA() + p.getB());
    return kj::READY_NOW;
  }
  kj::Promise<void> echoCap(EchoCapContext context) override {
    context.getResults().setCap(context.getParams().getCap());
    return kj::READY_NOW;
  }
  kj::Promise<void> makeCounter(MakeCounterContext context) override {
    context.getResults().setCounter(kj::heap<CounterImpl>(context.getParams().getStart()));
    return kj::READY_NOW;
  }
  kj::Promise<void> fail(FailContext context) override {
    return kj::Exception(typeOf(context.getParams().getKind()), __FILE__, __LINE__,
                         kj::heapString("asked to fail"));
  }
  kj::Promise<void> wait(WaitContext context) override {
    // Canceled by the caller's Finish (0.9 cancels only when allowed).
    context.allowCancellation();
    return kj::NEVER_DONE;
  }
  kj::Promise<void> callBack(CallBackContext context) override {
    auto counter = context.getParams().getCounter();
    auto times = context.getParams().getTimes();
    kj::Promise<uint64_t> chain = uint64_t(0);
    for (uint64_t i = 0; i < times; i++) {
      chain = chain.then([counter](uint64_t) mutable {
        return counter.incrementRequest().send().then(
            [](capnp::Response<Counter::IncrementResults>&& r) { return r.getValue(); });
      });
    }
    return chain.then([context](uint64_t last) mutable { context.getResults().setLast(last); });
  }
  kj::Promise<void> makeNamed(MakeNamedContext context) override {
    auto p = context.getParams();
    context.getResults().setNamed(kj::heap<NamedImpl>(kj::heapString(p.getName()), p.getStart()));
    return kj::READY_NOW;
  }
  kj::Promise<void> makeBox(MakeBoxContext context) override {
    context.getResults().setBox(
        kj::heap<TextBoxImpl>(kj::heapString(context.getParams().getValue())));
    return kj::READY_NOW;
  }
  kj::Promise<void> makeSink(MakeSinkContext context) override {
    context.getResults().setSink(kj::heap<SinkImpl>());
    return kj::READY_NOW;
  }
  kj::Promise<void> hold(HoldContext context) override {
    auto holder = context.getParams().getHolder();
    auto counter = holder.getCounter();
    auto label = kj::heapString(holder.getLabel());
    return counter.incrementRequest().send().then(
        [context, counter, label = kj::mv(label)](
            capnp::Response<Counter::IncrementResults>&& r) mutable {
          auto out = context.getResults().initHolder();
          out.setCounter(counter);
          out.setLabel(kj::str(label, " ", r.getValue()));
          out.setBox(kj::heap<TextBoxImpl>(kj::heapString(label)));
        });
  }
};

int failures = 0;

void check(const char* what, bool ok, kj::StringPtr detail = "") {
  if (ok) {
    std::cout << "ok " << what << std::endl;
  } else {
    std::cout << "FAIL " << what << " " << detail.cStr() << std::endl;
    failures++;
  }
}

void callMore(Test::Client test, kj::WaitScope& ws);

void callAll(Test::Client test, kj::WaitScope& ws, bool more) {
  {
    auto req = test.addRequest();
    req.setA(40);
    req.setB(2);
    check("add", req.send().wait(ws).getSum() == 42);
  }
  {
    // Pipelined: increment the counter before makeCounter returns.
    auto req = test.makeCounterRequest();
    req.setStart(10);
    auto promise = req.send();
    auto counter = promise.getCounter();
    auto first = counter.incrementRequest().send();
    auto second = counter.incrementRequest().send();
    auto one = first.wait(ws).getValue();
    check("pipelined increment", one == 11, kj::str(one));
    auto two = second.wait(ws).getValue();
    check("second pipelined increment", two == 12, kj::str(two));
    check("makeCounter returns", promise.wait(ws).hasCounter());
  }
  {
    auto req = test.callBackRequest();
    req.setCounter(kj::heap<CounterImpl>(7));
    req.setTimes(3);
    check("callBack", req.send().wait(ws).getLast() == 10);
  }
  {
    Counter::Client mine = kj::heap<CounterImpl>(100);
    auto req = test.echoCapRequest();
    req.setCap(mine);
    auto echoed = req.send().wait(ws).getCap();
    check("echoed cap calls back here",
          echoed.incrementRequest().send().wait(ws).getValue() == 101);
  }
  for (uint64_t kind = 0; kind < 4; kind++) {
    auto req = test.failRequest();
    req.setKind(kind);
    auto outcome = req.send().then(
        [](auto&&) -> kj::Maybe<kj::Exception> { return nullptr; },
        [](kj::Exception&& e) -> kj::Maybe<kj::Exception> { return kj::mv(e); });
    KJ_IF_MAYBE(e, outcome.wait(ws)) {
      check("fail type", e->getType() == typeOf(kind), kj::str(e->getType()));
      check("fail reason", e->getDescription().endsWith("asked to fail"), e->getDescription());
    } else {
      check("fail", false, "no exception");
    }
  }
  {
    // A method the server does not know.
    auto req = test.typelessRequest(0xa1b2c3d4e5f60001ull, 77, nullptr);
    auto outcome = req.send().then(
        [](auto&&) -> kj::Maybe<kj::Exception> { return nullptr; },
        [](kj::Exception&& e) -> kj::Maybe<kj::Exception> { return kj::mv(e); });
    KJ_IF_MAYBE(e, outcome.wait(ws)) {
      check("unimplemented", e->getType() == kj::Exception::Type::UNIMPLEMENTED,
            kj::str(e->getType()));
    } else {
      check("unimplemented", false, "no exception");
    }
  }
  if (more) callMore(test, ws);
  {
    // Canceled: the request is dropped before it returns, after two
    // round trips behind it (so the server has begun it).
    auto promise = test.waitRequest().send();
    for (int i = 0; i < 2; i++) {
      auto req = test.addRequest();
      req.setA(i);
      check("add while waiting", req.send().wait(ws).getSum() == uint64_t(i));
    }
  }
}

// The methods only the generated typed server implements: inheritance,
// a generic interface, a stream.
void callMore(Test::Client test, kj::WaitScope& ws) {
  {
    // Inheritance: a Named is a Counter; pipelined on makeNamed.
    auto req = test.makeNamedRequest();
    req.setName("seven");
    req.setStart(7);
    auto promise = req.send();
    auto named = promise.getNamed();
    Counter::Client counter = named;
    auto value = counter.incrementRequest().send().wait(ws).getValue();
    check("named increment", value == 8, kj::str(value));
    auto name = named.nameRequest().send().wait(ws);
    check("named name", name.getName() == "seven", name.getName());
  }
  {
    // A generic interface, Box(Text).
    auto req = test.makeBoxRequest();
    req.setValue("boxed");
    auto box = req.send().getBox();
    auto got = box.getRequest().send().wait(ws);
    check("box get", got.getValue() == "boxed", got.getValue());
  }
  {
    // Capabilities in struct fields, both ways: the server calls the
    // holder's counter once and returns it, with a box of the label.
    auto req = test.holdRequest();
    auto holder = req.initHolder();
    holder.setCounter(kj::heap<CounterImpl>(20));
    holder.setLabel("held");
    auto response = req.send().wait(ws);
    auto back = response.getHolder();
    check("hold label", back.getLabel() == "held 21", back.getLabel());
    auto value = back.getCounter().incrementRequest().send().wait(ws).getValue();
    check("held counter", value == 22, kj::str(value));
    auto boxed = back.getBox().getRequest().send().wait(ws);
    check("held box", boxed.getValue() == "held", boxed.getValue());
  }
  {
    // Streaming: writes, then the total.
    auto sink = test.makeSinkRequest().send().getSink();
    kj::Vector<kj::Promise<void>> writes;
    for (int i = 0; i < 5; i++) {
      auto req = sink.writeRequest();
      auto data = req.initData(1000);
      for (auto& b : data) b = i;
      writes.add(req.send());
    }
    for (auto& w : writes) w.wait(ws);
    auto total = sink.totalRequest().send().wait(ws).getBytes();
    check("sink total", total == 5000, kj::str(total));
  }
}

// Against a server whose makeCounter hands out its counter with
// setPipeline and runs on until four increments reached it: two
// pipelined at once, one by callBack (given the pipelined counter, a
// receiverAnswer), one after those returned.
void pipelineOnRunningCall(Test::Client test, kj::WaitScope& ws) {
  auto req = test.makeCounterRequest();
  req.setStart(10);
  auto promise = req.send();
  auto counter = promise.getCounter();
  auto first = counter.incrementRequest().send();
  auto second = counter.incrementRequest().send();
  auto back = test.callBackRequest();
  back.setCounter(counter);
  back.setTimes(1);
  auto calledBack = back.send();
  auto one = first.wait(ws).getValue();
  check("increment on the running call's pipeline", one == 11, kj::str(one));
  auto two = second.wait(ws).getValue();
  check("second increment on the pipeline", two == 12, kj::str(two));
  auto last = calledBack.wait(ws).getLast();
  check("callBack with the pipelined counter", last == 13, kj::str(last));
  auto four = counter.incrementRequest().send().wait(ws).getValue();
  check("increment after", four == 14, kj::str(four));
  check("makeCounter returns", promise.wait(ws).hasCounter());
}

// Against a server whose makeCounter and echoCap answer with promises
// that resolve a moment later: calls made on a promise before the
// answer, after it, and after the resolution arrive in order. echoCap's
// promise resolves to this side's own counter: the calls made before
// come back through the server, and the reference's embargo keeps the
// later, local ones behind them.
void callPromises(Test::Client test, kj::WaitScope& ws) {
  auto req = test.makeCounterRequest();
  req.setStart(10);
  auto made = req.send();
  auto pipelined = made.getCounter();
  auto first = pipelined.incrementRequest().send();
  auto counter = made.wait(ws).getCounter();
  auto second = counter.incrementRequest().send();
  auto one = first.wait(ws).getValue();
  check("increment on a promise before its answer", one == 11, kj::str(one));
  auto two = second.wait(ws).getValue();
  check("increment on a promise after its answer", two == 12, kj::str(two));
  auto three = counter.incrementRequest().send().wait(ws).getValue();
  check("increment on a resolved promise", three == 13, kj::str(three));

  auto echo = test.echoCapRequest();
  echo.setCap(kj::heap<CounterImpl>(40));
  auto echoed = echo.send();
  auto own = echoed.getCap();
  auto a = own.incrementRequest().send();
  auto b = own.incrementRequest().send();
  auto back = echoed.wait(ws).getCap();
  auto c = back.incrementRequest().send();
  auto va = a.wait(ws).getValue();
  auto vb = b.wait(ws).getValue();
  auto vc = c.wait(ws).getValue();
  check("own counter through a promise, in order", va == 41 && vb == 42 && vc == 43,
        kj::str(va, " ", vb, " ", vc));
  // Resolved by now: the reference calls its own object directly.
  kj::evalLater([]() {}).wait(ws);
  auto vd = back.incrementRequest().send().wait(ws).getValue();
  check("own counter after the resolution", vd == 44, kj::str(vd));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: peer serve|call|call-more|pipeline|promises" << std::endl;
    return 2;
  }
  kj::StringPtr mode = argv[1];
  auto io = kj::setupAsyncIo();
  auto stream = io.lowLevelProvider->wrapSocketFd(0);
  if (mode == "serve") {
    capnp::TwoPartyClient side(*stream, kj::heap<TestImpl>(), capnp::rpc::twoparty::Side::SERVER);
    side.onDisconnect().wait(io.waitScope);
    return 0;
  }
  capnp::TwoPartyClient client(*stream);
  if (mode == "pipeline") {
    pipelineOnRunningCall(client.bootstrap().castAs<Test>(), io.waitScope);
  } else if (mode == "promises") {
    callPromises(client.bootstrap().castAs<Test>(), io.waitScope);
  } else {
    callAll(client.bootstrap().castAs<Test>(), io.waitScope, mode == "call-more");
  }
  std::cout << (failures == 0 ? "done" : "failed") << std::endl;
  return failures == 0 ? 0 : 1;
}
