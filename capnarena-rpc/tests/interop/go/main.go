// go-capnp's RPC (capnproto.org/go/capnp/v3) as a test peer of
// capnarena-rpc (tests/go.rs). The connection is a Unix socket on stdin.
//
//	peer serve:    offers a Test as its bootstrap until the other side
//	               hangs up.
//	peer call:     calls the other side's bootstrap Test through every
//	               method and prints "ok <check>" per check, or
//	               "FAIL <check> <what it got>"; then "done" (or "failed")
//	               once it has released everything it held, and waits for
//	               the other side to hang up. Exits 1 after a FAIL.
//	peer promises: as call, against a server whose makeCounter and
//	               echoCap answer with promises resolved a moment later.
//
// The package testcapnp is generated from test.capnp by capnpc-go at
// test time (tests/go.rs); it is not committed.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"capnarena.test/rpcpeer/testcapnp"
	"capnproto.org/go/capnp/v3"
	"capnproto.org/go/capnp/v3/exc"
	"capnproto.org/go/capnp/v3/rpc"
	"capnproto.org/go/capnp/v3/rpc/transport"
)

// counter serves Counter: increment adds one and answers the new value.
// A server takes one call at a time, so value needs no lock.
type counter struct{ value uint64 }

func (c *counter) Increment(ctx context.Context, call testcapnp.Counter_increment) error {
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	c.value++
	res.SetValue(c.value)
	return nil
}

// kindOf maps fail's argument to an exception type, as peer.c++ does.
func kindOf(n uint64) exc.Type {
	switch n {
	case 0:
		return exc.Failed
	case 1:
		return exc.Overloaded
	case 2:
		return exc.Disconnected
	default:
		return exc.Unimplemented
	}
}

// testServer serves Test's first six methods; the rest are
// unimplemented here.
type testServer struct{}

func (testServer) Add(ctx context.Context, call testcapnp.Test_add) error {
	args := call.Args()
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	res.SetSum(args.A() + args.B())
	return nil
}

func (testServer) EchoCap(ctx context.Context, call testcapnp.Test_echoCap) error {
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	// SetCap takes a reference of its own: the argument's is borrowed.
	return res.SetCap(call.Args().Cap().AddRef())
}

func (testServer) MakeCounter(ctx context.Context, call testcapnp.Test_makeCounter) error {
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	return res.SetCounter(testcapnp.Counter_ServerToClient(&counter{value: call.Args().Start()}))
}

func (testServer) Fail(ctx context.Context, call testcapnp.Test_fail) error {
	return exc.New(kindOf(call.Args().Kind()), "", "asked to fail")
}

// Wait returns only when the call is canceled (the caller's Finish).
func (testServer) Wait(ctx context.Context, call testcapnp.Test_wait) error {
	call.Go() // let the server take its next calls meanwhile
	<-ctx.Done()
	return ctx.Err()
}

func (testServer) CallBack(ctx context.Context, call testcapnp.Test_callBack) error {
	call.Go()
	args := call.Args()
	cb := args.Counter()
	var last uint64
	for i := uint64(0); i < args.Times(); i++ {
		v, err := increment(ctx, cb)
		if err != nil {
			return err
		}
		last = v
	}
	res, err := call.AllocResults()
	if err != nil {
		return err
	}
	res.SetLast(last)
	return nil
}

func notHere(method string) error {
	return exc.New(exc.Unimplemented, "", method+" is not served by the Go peer")
}

func (testServer) MakeNamed(ctx context.Context, call testcapnp.Test_makeNamed) error {
	return notHere("makeNamed")
}

func (testServer) MakeBox(ctx context.Context, call testcapnp.Test_makeBox) error {
	return notHere("makeBox")
}

func (testServer) MakeSink(ctx context.Context, call testcapnp.Test_makeSink) error {
	return notHere("makeSink")
}

func (testServer) Hold(ctx context.Context, call testcapnp.Test_hold) error {
	return notHere("hold")
}

// increment calls c.increment and waits for its value.
func increment(ctx context.Context, c testcapnp.Counter) (uint64, error) {
	f, release := c.Increment(ctx, nil)
	defer release()
	res, err := f.Struct()
	if err != nil {
		return 0, err
	}
	return res.Value(), nil
}

var failures int

func check(what string, ok bool, got any) {
	if ok {
		fmt.Printf("ok %s\n", what)
	} else {
		fmt.Printf("FAIL %s %v\n", what, got)
		failures++
	}
}

// checkValue checks a call's value, or reports its error.
func checkValue(what string, got uint64, err error, want uint64) {
	if err != nil {
		check(what, false, err)
		return
	}
	check(what, got == want, got)
}

func add(ctx context.Context, test testcapnp.Test, a, b uint64) (uint64, error) {
	f, release := test.Add(ctx, func(p testcapnp.Test_add_Params) error {
		p.SetA(a)
		p.SetB(b)
		return nil
	})
	defer release()
	res, err := f.Struct()
	if err != nil {
		return 0, err
	}
	return res.Sum(), nil
}

// callAll calls the other side's Test through each method.
func callAll(ctx context.Context, test testcapnp.Test) {
	sum, err := add(ctx, test, 40, 2)
	checkValue("add", sum, err, 42)

	{
		// Pipelined: two increments on the counter before makeCounter
		// returns, one on the counter it returned.
		made, release := test.MakeCounter(ctx, func(p testcapnp.Test_makeCounter_Params) error {
			p.SetStart(10)
			return nil
		})
		pipelined := made.Counter()
		first, releaseFirst := pipelined.Increment(ctx, nil)
		second, releaseSecond := pipelined.Increment(ctx, nil)
		one, err := first.Struct()
		if err == nil {
			check("pipelined increment", one.Value() == 11, one.Value())
		} else {
			check("pipelined increment", false, err)
		}
		two, err := second.Struct()
		if err == nil {
			check("second pipelined increment", two.Value() == 12, two.Value())
		} else {
			check("second pipelined increment", false, err)
		}
		releaseFirst()
		releaseSecond()
		res, err := made.Struct()
		if err != nil {
			check("makeCounter returns", false, err)
		} else {
			check("makeCounter returns", res.HasCounter(), res)
			v, err := increment(ctx, res.Counter())
			checkValue("increment on the returned counter", v, err, 13)
		}
		release()
	}

	mine := testcapnp.Counter_ServerToClient(&counter{value: 7})
	{
		// Ours, called back three times.
		f, release := test.CallBack(ctx, func(p testcapnp.Test_callBack_Params) error {
			p.SetTimes(3)
			return p.SetCounter(mine.AddRef())
		})
		res, err := f.Struct()
		if err == nil {
			check("callBack", res.Last() == 10, res.Last())
		} else {
			check("callBack", false, err)
		}
		release()
	}
	{
		// Ours, echoed: it comes back as itself and calls it here.
		f, release := test.EchoCap(ctx, func(p testcapnp.Test_echoCap_Params) error {
			return p.SetCap(mine.AddRef())
		})
		res, err := f.Struct()
		if err != nil {
			check("echoCap", false, err)
		} else {
			echoed := res.Cap()
			check("echoed cap is ours", echoed.IsSame(mine), echoed)
			v, err := increment(ctx, echoed)
			checkValue("echoed cap calls back here", v, err, 11)
		}
		release()
	}
	mine.Release()

	for kind := uint64(0); kind < 4; kind++ {
		f, release := test.Fail(ctx, func(p testcapnp.Test_fail_Params) error {
			p.SetKind(kind)
			return nil
		})
		_, err := f.Struct()
		if err == nil {
			check("fail", false, "no exception")
		} else {
			check("fail type", exc.TypeOf(err) == kindOf(kind), exc.TypeOf(err))
			check("fail reason", strings.Contains(err.Error(), "asked to fail"), err)
		}
		release()
	}
	{
		// A method the server does not know.
		ans, release := capnp.Client(test).SendCall(ctx, capnp.Send{
			Method: capnp.Method{
				InterfaceID:   testcapnp.Test_TypeID,
				MethodID:      77,
				InterfaceName: "test.capnp:Test",
				MethodName:    "unknown",
			},
		})
		_, err := ans.Struct()
		if err == nil {
			check("unimplemented", false, "no exception")
		} else {
			check("unimplemented", exc.TypeOf(err) == exc.Unimplemented, err)
		}
		release()
	}
	{
		// Canceled: released before it returns, after two round trips
		// behind it (so the server has begun it).
		waitCtx, cancel := context.WithCancel(ctx)
		_, release := test.Wait(waitCtx, nil)
		for i := uint64(0); i < 2; i++ {
			sum, err := add(ctx, test, i, 0)
			checkValue("add while waiting", sum, err, i)
		}
		cancel()
		release()
	}
}

// callPromises calls a server whose makeCounter and echoCap answer with
// promises resolved a moment later: calls made on a promise before the
// answer, after it, and after the resolution arrive in order; echoCap's
// promise resolves to this side's own counter.
func callPromises(ctx context.Context, test testcapnp.Test) {
	{
		made, release := test.MakeCounter(ctx, func(p testcapnp.Test_makeCounter_Params) error {
			p.SetStart(10)
			return nil
		})
		first, releaseFirst := made.Counter().Increment(ctx, nil)
		res, err := made.Struct()
		if err != nil {
			check("makeCounter returns", false, err)
			release()
			releaseFirst()
			return
		}
		promised := res.Counter().AddRef()
		release()
		second, releaseSecond := promised.Increment(ctx, nil)
		one, err := first.Struct()
		if err == nil {
			check("increment on a promise before its answer", one.Value() == 11, one.Value())
		} else {
			check("increment on a promise before its answer", false, err)
		}
		two, err := second.Struct()
		if err == nil {
			check("increment on a promise after its answer", two.Value() == 12, two.Value())
		} else {
			check("increment on a promise after its answer", false, err)
		}
		releaseFirst()
		releaseSecond()
		if err := promised.Resolve(ctx); err != nil {
			check("promise resolves", false, err)
		}
		v, err := increment(ctx, promised)
		checkValue("increment on a resolved promise", v, err, 13)
		promised.Release()
	}
	{
		own := testcapnp.Counter_ServerToClient(&counter{value: 40})
		echoed, release := test.EchoCap(ctx, func(p testcapnp.Test_echoCap_Params) error {
			return p.SetCap(own.AddRef())
		})
		pipelined := echoed.Cap()
		a, releaseA := pipelined.Increment(ctx, nil)
		b, releaseB := pipelined.Increment(ctx, nil)
		res, err := echoed.Struct()
		if err != nil {
			check("echoCap returns", false, err)
			release()
			releaseA()
			releaseB()
			own.Release()
			return
		}
		back := res.Cap().AddRef()
		release()
		c, releaseC := back.Increment(ctx, nil)
		values := make([]uint64, 0, 3)
		for _, f := range []testcapnp.Counter_increment_Results_Future{a, b, c} {
			r, err := f.Struct()
			if err != nil {
				check("own counter through a promise", false, err)
				continue
			}
			values = append(values, r.Value())
		}
		releaseA()
		releaseB()
		releaseC()
		check("own counter through a promise, in order",
			len(values) == 3 && values[0] == 41 && values[1] == 42 && values[2] == 43, values)
		if err := back.Resolve(ctx); err != nil {
			check("echoed promise resolves", false, err)
		}
		// Not checked: back.IsSame(own). go-capnp wraps a capability
		// resolved to one of its own exports in an embargo client
		// (handleResolve) and keeps that wrapper after the embargo is
		// lifted, so IsSame stays false.
		v, err := increment(ctx, back)
		checkValue("own counter after the resolution", v, err, 44)
		back.Release()
		own.Release()
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: peer serve|call|promises")
		os.Exit(2)
	}
	mode := os.Args[1]
	sock, err := net.FileConn(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stdin is not a socket:", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	opts := &rpc.Options{Logger: logger}
	if mode == "serve" {
		opts.BootstrapClient = capnp.Client(testcapnp.Test_ServerToClient(testServer{}))
	}
	conn := rpc.NewConn(transport.NewStream(sock), opts)
	if mode != "serve" {
		// A generous bound so a lost answer fails the run, not hangs it.
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		test := testcapnp.Test(conn.Bootstrap(ctx))
		switch mode {
		case "call":
			callAll(ctx, test)
		case "promises":
			callPromises(ctx, test)
		default:
			fmt.Fprintln(os.Stderr, "unknown mode", mode)
			os.Exit(2)
		}
		test.Release()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			check("within 60 s", false, ctx.Err())
		}
		cancel()
		if failures == 0 {
			fmt.Println("done")
		} else {
			fmt.Println("failed")
		}
	}
	// Until the other side hangs up (it checks its tables first).
	<-conn.Done()
	if failures != 0 {
		os.Exit(1)
	}
}
