//! Interop with go-capnp's RPC (`capnproto.org/go/capnp/v3`
//! v3.1.0-alpha.2, MIT licence): `tests/interop/go/main.go` is built
//! here with `go build` and talks to capnarena-rpc over a Unix socket
//! pair (its stdin). Its schema code is generated at test time: go-capnp's
//! `capnpc-go`, built from the module, compiles `tests/interop/go/test.capnp`
//! (`tests/interop/test.capnp` with go-capnp's `$Go` annotations).
//!
//! Both directions: the Go side serves and capnarena calls it through
//! every method (calls, pipelining, capabilities both ways, exceptions of
//! each kind, unimplemented, cancellation), with the order of `Finish`
//! for a question whose pipelined capability another call carries; then
//! capnarena serves and the Go side calls it the same way, and calls
//! promise capabilities capnarena answers with.
//!
//! Needs `go` (1.26, or a toolchain it may fetch) and `capnp` on PATH;
//! the first build fetches go-capnp from the Go module proxy (or
//! `GOPROXY`) into the Go module cache. Without them, or when the peer
//! does not build (an older Go, no network), each test prints a SKIP line
//! and returns, unless `CAPNARENA_REQUIRE_PEER=1`, which makes it fail
//! instead.

mod common;

use std::future::Future;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use capnarena::StructSize;
use capnarena_rpc::{Client, Connection, ErrorKind, Options, Response, Stats};
use common::*;

/// How long any wait on the Go peer may take before the test fails.
const LIMIT: Duration = Duration::from_secs(60);

/// Why the peer cannot be built here, or `None` when it can.
fn missing() -> Option<String> {
    let on_path = |tool: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
    };
    ["go", "capnp"]
        .into_iter()
        .find(|tool| !on_path(tool))
        .map(|tool| format!("{tool} not on PATH"))
}

/// Writes a line to the test's stderr, past libtest's capture (so the
/// SKIP line and the build time show in a passing run).
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The built peer, once per test run; `None` (after the SKIP line) when
/// it cannot be built here.
fn peer() -> Option<PathBuf> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    if let Some(why) = missing() {
        let line = format!("SKIP go-capnp RPC interop: {why}");
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{line}");
        }
        say(&line);
        return None;
    }
    match BUILT.get_or_init(build) {
        Ok(p) => Some(p.clone()),
        // Go may be too old for go-capnp, or its module proxy out of
        // reach (an offline laptop): the peer is missing, as above.
        Err(e) if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() != Ok("1") => {
            let first = e.lines().take(3).collect::<Vec<_>>().join(" / ");
            say(&format!(
                "SKIP go-capnp RPC interop: the peer did not build: {first}"
            ));
            None
        }
        Err(e) => panic!("building the go-capnp peer: {e}"),
    }
}

/// Builds go-capnp's `capnpc-go`, generates the schema's Go package with
/// it and builds the peer, all in the test's scratch directory; prints
/// how long each step took.
fn build() -> Result<PathBuf, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/go");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rpc-go-peer");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir.join("testcapnp")).map_err(|e| e.to_string())?;
    for f in ["go.mod", "go.sum", "main.go", "test.capnp"] {
        std::fs::copy(src.join(f), dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
    }
    let run = |cmd: &mut Command| -> Result<String, String> {
        let out = cmd
            .current_dir(&dir)
            .output()
            .map_err(|e| format!("{cmd:?}: {e}"))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(format!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr)))
        }
    };
    let started = Instant::now();
    // `tool` in go.mod: built with the module's pinned go.sum.
    run(Command::new("go").args([
        "build",
        "-buildvcs=false",
        "-o",
        "capnpc-go",
        "capnproto.org/go/capnp/v3/capnpc-go",
    ]))?;
    let plugin_built = started.elapsed();
    let module = run(Command::new("go").args([
        "list",
        "-m",
        "-f",
        "{{.Dir}}",
        "capnproto.org/go/capnp/v3",
    ]))?;
    // Downloaded by the build above; go list does not download.
    if module.trim().is_empty() {
        return Err("go list -m: capnproto.org/go/capnp/v3 not in the module cache".into());
    }
    let std_dir = Path::new(module.trim()).join("std");
    let plugin = dir.join("capnpc-go");
    run(Command::new("capnp")
        .arg("compile")
        .arg("-I")
        .arg(&std_dir)
        .arg(format!("-o{}:testcapnp", plugin.display()))
        .arg("test.capnp"))?;
    let generated = started.elapsed();
    run(Command::new("go").args(["build", "-buildvcs=false", "-o", "peer", "."]))?;
    let total = started.elapsed();
    say(&format!(
        "go-capnp peer built in {total:.1?}: capnpc-go {plugin_built:.1?}, schema {:.1?}, peer {:.1?}",
        generated - plugin_built,
        total - generated,
    ));
    Ok(dir.join("peer"))
}

/// The peer's process; killed if a test ends (a panic) before it did.
struct Peer(Option<Child>);

impl Drop for Peer {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Peer {
    /// Reads the peer's stdout up to its closing `done` or `failed` line
    /// (the Go client prints one once it has released all it held, then
    /// waits for us to hang up); returns the lines read.
    async fn report(&mut self) -> String {
        let stdout = self.0.as_mut().unwrap().stdout.take().unwrap();
        within("the Go client's report", async {
            tokio::task::spawn_blocking(move || {
                let mut text = String::new();
                for line in BufReader::new(stdout).lines() {
                    let line = line.unwrap();
                    text.push_str(&line);
                    text.push('\n');
                    if line == "done" || line == "failed" {
                        break;
                    }
                }
                text
            })
            .await
            .unwrap()
        })
        .await
    }

    /// Waits for the peer to exit; fails on a bad exit, with its stderr.
    async fn finish(mut self) {
        let child = self.0.take().unwrap();
        let out = within("the Go peer's exit", async {
            tokio::task::spawn_blocking(move || child.wait_with_output())
                .await
                .unwrap()
                .unwrap()
        })
        .await;
        assert!(
            out.status.success(),
            "peer failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Starts the peer in `mode` on one end of a socket pair; returns it and
/// a connection on the other end.
fn start(peer: &Path, mode: &str, bootstrap: Option<Client>) -> (Peer, Connection) {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let child = Command::new(peer)
        .arg(mode)
        .stdin(Stdio::from(OwnedFd::from(theirs)))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    ours.set_nonblocking(true).unwrap();
    let stream = tokio::net::UnixStream::from_std(ours).unwrap();
    (
        Peer(Some(child)),
        Connection::new(stream, bootstrap, Options::default()),
    )
}

/// Awaits `f`, failing the test if it takes longer than [`LIMIT`].
async fn within<T>(what: &str, f: impl Future<Output = T>) -> T {
    match tokio::time::timeout(LIMIT, f).await {
        Ok(v) => v,
        Err(_) => panic!("{what}: nothing within {LIMIT:?}"),
    }
}

/// The first data word of a response's content.
fn value(r: &Response) -> u64 {
    r.read(|r| Ok(r.get_struct()?.get::<u64>(0))).unwrap()
}

/// Sends `echoCap` with `cap`.
fn echo_cap(test: &Client, cap: Client) -> capnarena_rpc::Sent {
    let mut request = test.new_call(TEST, ECHO_CAP);
    let index = request.add_cap(cap);
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(0, 1))
        .unwrap()
        .pointer(0)
        .set_capability(index);
    request.send()
}

/// Sends `makeCounter` starting at `start`.
fn make_counter(test: &Client, start: u64) -> capnarena_rpc::Sent {
    let mut request = test.new_call(TEST, MAKE_COUNTER);
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, start);
    request.send()
}

/// Waits until every table of `conn` is empty (the peer released and
/// finished everything), then hangs up; the peer exits cleanly.
async fn close(conn: Connection, peer: Peer) {
    assert!(
        eventually(|| conn.stats() == Stats::default()).await,
        "{:?}",
        conn.stats()
    );
    within("shutdown", conn.shutdown()).await.unwrap();
    peer.finish().await;
}

/// The Go copy of the schema is the interop schema plus go-capnp's
/// annotations and its own comment lines: the same file id and
/// declarations, so the same ids as the schema the other peers use.
#[test]
fn go_schema_is_the_interop_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop");
    let original = std::fs::read_to_string(dir.join("test.capnp")).unwrap();
    let go = std::fs::read_to_string(dir.join("go/test.capnp")).unwrap();
    let stripped: String = go
        .lines()
        .filter(|l| {
            !(l.starts_with("# Go:") || l.starts_with("using Go ") || l.starts_with("$Go."))
        })
        .flat_map(|l| [l, "\n"])
        .collect();
    assert_eq!(stripped, original);
    assert!(go.contains("$Go.package(") && go.contains("$Go.import("));
}

/// capnarena calls the Go server through every method it serves: the
/// answer of `add`, two increments pipelined on makeCounter's counter
/// before it returns, a capnarena counter called back by Go, the same
/// counter echoed back as itself, each exception kind, an unknown
/// method, a canceled `wait` (Go returns it once our `Finish` cancels
/// it); every table empty at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capnarena_calls_go_server() {
    let Some(peer) = peer() else { return };
    let (peer, conn) = start(&peer, "serve", None);
    let test = conn.bootstrap();

    assert_eq!(within("add", add(&test, 40, 2)).await.unwrap(), 42);

    // Pipelining: two increments before makeCounter returns.
    let sent = make_counter(&test, 10);
    let counter = sent.pipeline.pointer_field(0).client();
    let first = counter.new_call(COUNTER, INCREMENT).send();
    let second = counter.new_call(COUNTER, INCREMENT).send();
    assert_eq!(value(&within("first", first.response).await.unwrap()), 11);
    assert_eq!(value(&within("second", second.response).await.unwrap()), 12);
    drop((first.pipeline, second.pipeline));
    let response = within("makeCounter", sent.response).await.unwrap();
    let returned = response.cap(0).unwrap();
    assert_eq!(within("increment", increment(&returned)).await.unwrap(), 13);
    drop((response, returned, counter, sent.pipeline));

    // Ours, called back three times by the Go server.
    let mine = Client::from_server(Counter::new(7));
    let mut request = test.new_call(TEST, CALL_BACK);
    let index = request.add_cap(mine.clone());
    let mut p = request
        .params()
        .unwrap()
        .init_struct(StructSize::new(1, 1))
        .unwrap();
    p.set::<u64>(0, 3);
    p.pointer(0).set_capability(index);
    let response = within("callBack", request.send().response).await.unwrap();
    assert_eq!(value(&response), 10);
    drop(response);

    // Ours, echoed: it comes back as itself.
    let response = within("echoCap", echo_cap(&test, mine.clone()).response)
        .await
        .unwrap();
    let echoed = response.cap(0).unwrap();
    assert!(echoed.same_as(&mine), "{echoed:?}");
    assert_eq!(increment(&echoed).await.unwrap(), 11);
    drop((response, echoed, mine));

    for kind in [
        ErrorKind::Failed,
        ErrorKind::Overloaded,
        ErrorKind::Disconnected,
        ErrorKind::Unimplemented,
    ] {
        let mut request = test.new_call(TEST, FAIL);
        request
            .params()
            .unwrap()
            .init_struct(StructSize::new(1, 0))
            .unwrap()
            .set::<u64>(0, kind_number(kind));
        let e = within("fail", request.send().response)
            .await
            .err()
            .expect("an error");
        assert_eq!(e.kind, kind, "{e}");
        assert!(e.reason.contains("asked to fail"), "{e}");
    }
    let e = within("method 77", test.new_call(TEST, 77).send().response)
        .await
        .err()
        .expect("an error");
    assert_eq!(e.kind, ErrorKind::Unimplemented, "{e}");

    // Canceled: Go's `wait` returns only when its context is canceled,
    // which our Finish does; the question stays in our table until that
    // return arrives (checked by `close`).
    let waiting = test.new_call(TEST, WAIT).send();
    assert_eq!(within("add", add(&test, 1, 2)).await.unwrap(), 3);
    drop(waiting);
    assert_eq!(within("add", add(&test, 2, 3)).await.unwrap(), 5);

    drop(test);
    close(conn, peer).await;
}

/// The order of `Finish`: capnarena sends makeCounter (question 1), then
/// echoCap carrying makeCounter's pipelined counter (a `receiverAnswer`
/// naming question 1), then drops question 1's response and pipeline at
/// once. Question 1's `Finish` must wait until echoCap has returned:
/// go-capnp resolves the `receiverAnswer` to question 1's answer, and a
/// `Finish` that reaches it before makeCounter has run cancels that call
/// ("received finish before return"), so echoCap echoes a broken
/// capability. echoCap returns the counter, which works. Fifty rounds on
/// one connection, as the Go server's timing varies (without the hold,
/// each of 23 runs failed, most within ten rounds, one at round 22).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finish_waits_for_echo_cap_carrying_a_pipelined_counter() {
    let Some(peer) = peer() else { return };
    let (peer, conn) = start(&peer, "serve", None);
    let test = conn.bootstrap();
    for round in 0..50 {
        let first = make_counter(&test, 10 * round);
        let counter = first.pipeline.pointer_field(0).client();
        let second = echo_cap(&test, counter);
        drop(first);
        let response = within("echoCap", second.response)
            .await
            .unwrap_or_else(|e| panic!("round {round}: echoCap failed: {e}"));
        let echoed = response.cap(0).unwrap();
        let v = within("increment", increment(&echoed))
            .await
            .unwrap_or_else(|e| panic!("round {round}: the echoed counter is broken: {e}"));
        assert_eq!(v, 10 * round + 1, "round {round}");
        drop((response, echoed, second.pipeline));
    }
    drop(test);
    close(conn, peer).await;
}

/// The Go client calls capnarena's server through every method (its
/// checks in main.go's `callAll`, one line each): pipelining, a Go
/// counter called back and echoed back as itself, exceptions, an unknown
/// method, a canceled `wait` (its future here is dropped). Once it has
/// released everything, every table here is empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_calls_capnarena_server() {
    let Some(peer) = peer() else { return };
    let server = Arc::new(TestServer::default());
    let (mut peer, conn) = start(&peer, "call", Some(Client::from_arc(server.clone())));
    let stdout = peer.report().await;
    println!("{stdout}");
    assert!(stdout.ends_with("done\n"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    for check in [
        "second pipelined increment",
        "increment on the returned counter",
        "callBack",
        "echoed cap is ours",
        "echoed cap calls back here",
        "unimplemented",
    ] {
        assert!(stdout.contains(&format!("ok {check}\n")), "{stdout}");
    }
    assert_eq!(stdout.matches("ok fail type\n").count(), 4, "{stdout}");
    assert_eq!(server.waits_started.load(Ordering::SeqCst), 1, "{stdout}");
    assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
    close(conn, peer).await;
}

/// The Go client calls promise capabilities capnarena's server answers
/// with (a `senderPromise`, then a `Resolve`): calls made before the
/// answer, after it and after the resolution reach the counter in order;
/// one that resolves to the Go side's own counter keeps the order of the
/// calls made through us and after, and ends as Go's own object. Checks
/// in main.go's `callPromises`; every table empty after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_calls_promises_of_capnarena() {
    let Some(peer) = peer() else { return };
    let bootstrap = Client::from_server(Later(Arc::default()));
    let (mut peer, conn) = start(&peer, "promises", Some(bootstrap));
    let stdout = peer.report().await;
    println!("{stdout}");
    assert!(stdout.ends_with("done\n"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    for check in [
        "increment on a resolved promise",
        "own counter through a promise, in order",
        "own counter after the resolution",
    ] {
        assert!(stdout.contains(&format!("ok {check}\n")), "{stdout}");
    }
    close(conn, peer).await;
}
