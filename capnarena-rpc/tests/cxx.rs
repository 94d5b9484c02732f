//! Interop with the C++ reference's RPC (Debian's libcapnp-rpc 0.9.2):
//! `tests/interop/peer.c++` is compiled here with g++ against it, with
//! `tests/interop/test.capnp` compiled by `capnp compile -oc++`, and talks
//! to capnarena-rpc over a Unix socket pair (its stdin).
//!
//! Both directions: the C++ side serves and capnarena calls it through
//! every method (bootstrap, calls, pipelining, capabilities both ways,
//! exceptions of each type, unimplemented, cancellation); then capnarena
//! serves and the C++ side calls it the same way.
//!
//! Needs g++, `capnp` and the headers and libraries of libcapnp-dev:
//! without them each test prints a SKIP line and returns, unless
//! `CAPNARENA_REQUIRE_PEER=1`, which makes it fail instead.

mod common;

use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use capnarena::StructSize;
use capnarena_rpc::{Client, Connection, ErrorKind, Options, Stats};
use common::*;

/// Why the peer cannot be built here, or `None` when it can.
fn missing() -> Option<String> {
    let on_path = |tool: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
    };
    for tool in ["g++", "capnp"] {
        if !on_path(tool) {
            return Some(format!("{tool} not on PATH"));
        }
    }
    for header in [
        "/usr/include/capnp/rpc-twoparty.h",
        "/usr/include/kj/async-io.h",
    ] {
        if !Path::new(header).is_file() {
            return Some(format!("{header} missing (install libcapnp-dev)"));
        }
    }
    None
}

/// The built peer, once per test run; `None` (after the SKIP line) when
/// it cannot be built here.
fn peer() -> Option<PathBuf> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    if let Some(why) = missing() {
        let line = format!("SKIP C++ RPC interop: {why}");
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{line}");
        }
        println!("{line}");
        return None;
    }
    let built = BUILT.get_or_init(build);
    match built {
        Ok(p) => Some(p.clone()),
        Err(e) => panic!("building the C++ peer: {e}"),
    }
}

/// Compiles the schema and the peer into the test's scratch directory.
fn build() -> Result<PathBuf, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rpc-cxx-peer");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for f in ["test.capnp", "peer.c++"] {
        std::fs::copy(src.join(f), dir.join(f)).map_err(|e| format!("{f}: {e}"))?;
    }
    let run = |cmd: &mut Command| -> Result<(), String> {
        let out = cmd.current_dir(&dir).output().map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr)))
        }
    };
    run(Command::new("capnp").args(["compile", "-oc++", "test.capnp"]))?;
    run(Command::new("g++").args([
        "-std=c++14",
        "-I.",
        "peer.c++",
        "test.capnp.c++",
        "-o",
        "peer",
        "-lcapnp-rpc",
        "-lcapnp",
        "-lkj-async",
        "-lkj",
    ]))?;
    Ok(dir.join("peer"))
}

/// Starts the peer in `mode` on one end of a socket pair; returns the
/// child and a connection on the other end.
fn start(peer: &Path, mode: &str, bootstrap: Option<Client>) -> (std::process::Child, Connection) {
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
        child,
        Connection::new(stream, bootstrap, Options::default()),
    )
}

/// Waits for the child; returns its stdout, failing on a bad exit.
async fn finish(child: std::process::Child) -> String {
    let out = tokio::task::spawn_blocking(move || child.wait_with_output())
        .await
        .unwrap()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "peer failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// capnarena calls the C++ server through every method: the answers,
/// pipelined calls, a capability each way (the C++ side calls ours back;
/// ours comes back echoed as itself), each exception type, an unknown
/// method, a canceled call; every table empty at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capnarena_calls_cxx_server() {
    let Some(peer) = peer() else { return };
    let (child, conn) = start(&peer, "serve", None);
    let test = conn.bootstrap();

    assert_eq!(add(&test, 40, 2).await.unwrap(), 42);

    // Pipelining: two increments before makeCounter returns.
    let mut request = test.new_call(TEST, MAKE_COUNTER);
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, 10);
    let sent = request.send();
    let counter = sent.pipeline.pointer_field(0).client();
    let first = counter.new_call(COUNTER, INCREMENT).send();
    let second = counter.new_call(COUNTER, INCREMENT).send();
    let value = |r: capnarena_rpc::Response| r.read(|r| Ok(r.get_struct()?.get::<u64>(0)));
    assert_eq!(value(first.response.await.unwrap()).unwrap(), 11);
    assert_eq!(value(second.response.await.unwrap()).unwrap(), 12);
    // Their pipelines hold their questions open.
    drop((first.pipeline, second.pipeline));
    let response = sent.response.await.unwrap();
    let returned = response.cap(0).unwrap();
    assert_eq!(increment(&returned).await.unwrap(), 13);
    drop((response, returned, counter, sent.pipeline));

    // Ours, called back by the C++ server.
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
    assert_eq!(value(request.send().response.await.unwrap()).unwrap(), 10);

    // Ours, echoed: it comes back as itself.
    let mut request = test.new_call(TEST, ECHO_CAP);
    let index = request.add_cap(mine.clone());
    request
        .params()
        .unwrap()
        .init_struct(StructSize::new(0, 1))
        .unwrap()
        .pointer(0)
        .set_capability(index);
    let response = request.send().response.await.unwrap();
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
        let e = request.send().response.await.err().expect("an error");
        assert_eq!(e.kind, kind, "{e}");
        assert!(e.reason.contains("asked to fail"), "{e}");
    }
    let e = test.new_call(TEST, 77).send().response.await.err().unwrap();
    assert_eq!(e.kind, ErrorKind::Unimplemented, "{e}");

    // Canceled: the C++ server's promise never resolves; dropping ours
    // sends Finish, the C++ side answers `canceled` (the question is then
    // gone from the table), and the connection goes on.
    let waiting = test.new_call(TEST, WAIT).send();
    assert_eq!(add(&test, 1, 2).await.unwrap(), 3);
    drop(waiting);
    assert_eq!(add(&test, 2, 3).await.unwrap(), 5);

    drop(test);
    assert!(
        eventually(|| conn.stats() == Stats::default()).await,
        "{:?}",
        conn.stats()
    );
    conn.shutdown().await.unwrap();
    finish(child).await;
}

/// The C++ client calls capnarena's server through every method (its
/// checks are in peer.c++, printed one per line); the canceled call drops
/// the server's future; every table is empty once it hangs up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxx_calls_capnarena_server() {
    let Some(peer) = peer() else { return };
    let server = Arc::new(TestServer::default());
    let (child, conn) = start(&peer, "call", Some(Client::from_arc(server.clone())));
    let stdout = finish(child).await;
    assert!(stdout.ends_with("done\n"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(conn.closed().await.is_ok());
    assert_eq!(conn.stats(), Stats::default());
    assert_eq!(server.waits_started.load(Ordering::SeqCst), 1, "{stdout}");
    assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
}

/// The GENERATED typed client calls the C++ server through every method
/// (`common::typed::call_all`: pipelining, capabilities both ways,
/// inheritance, a generic interface, a stream, exceptions, a canceled
/// call); every table empty at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_client_calls_cxx_server() {
    use capnarena_rpc::FromClient;
    let Some(peer) = peer() else { return };
    let (child, conn) = start(&peer, "serve", None);
    let test = typed::test::Client::from_client(conn.bootstrap());
    typed::call_all(&test).await;
    drop(test);
    assert!(
        eventually(|| conn.stats() == Stats::default()).await,
        "{:?}",
        conn.stats()
    );
    conn.shutdown().await.unwrap();
    finish(child).await;
}

/// The C++ client calls the GENERATED typed server through every method
/// (its checks in peer.c++); the canceled call drops the server's future;
/// every table empty once it hangs up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxx_calls_typed_server() {
    use capnarena_rpc::FromClient;
    let Some(peer) = peer() else { return };
    let server = Arc::new(typed::TypedTest::default());
    let bootstrap = typed::test::Client::from_arc(Arc::clone(&server)).into_client();
    let (child, conn) = start(&peer, "call-more", Some(bootstrap));
    let stdout = finish(child).await;
    assert!(stdout.ends_with("done\n"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    for check in ["named name", "box get", "sink total"] {
        assert!(stdout.contains(&format!("ok {check}\n")), "{stdout}");
    }
    assert!(conn.closed().await.is_ok());
    assert_eq!(conn.stats(), Stats::default());
    assert_eq!(server.waits_started.load(Ordering::SeqCst), 1, "{stdout}");
    assert!(eventually(|| server.waits_dropped.load(Ordering::SeqCst) == 1).await);
}

/// The C++ client pipelines on a capability that capnarena's typed server
/// hands out with `set_pipeline` while its call runs on, and passes it to
/// another call (`receiverAnswer`); the call, which waits for those
/// calls, returns (checks in peer.c++'s `pipelineOnRunningCall`). Without
/// `set_pipeline` the peer would wait forever: it is killed after 60 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxx_pipelines_on_set_pipeline() {
    use capnarena_rpc::FromClient;
    let Some(peer) = peer() else { return };
    let server = Arc::new(typed::Streaming::default());
    server.go.notify_one();
    let bootstrap = typed::test::Client::from_arc(Arc::clone(&server)).into_client();
    let (child, conn) = start(&peer, "pipeline", Some(bootstrap));
    let pid = child.id();
    let stdout = match tokio::time::timeout(Duration::from_secs(60), finish(child)).await {
        Ok(stdout) => stdout,
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("the C++ peer's calls on the pipeline never returned");
        }
    };
    assert!(stdout.ends_with("done\n"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(
        stdout.contains("ok callBack with the pipelined counter\n"),
        "{stdout}"
    );
    assert_eq!(server.returned_at.load(Ordering::SeqCst), 14);
    assert!(conn.closed().await.is_ok());
    assert_eq!(conn.stats(), Stats::default());
}

/// The C++ client calls promise capabilities capnarena's server answers
/// with (a `senderPromise`, then a `Resolve`): calls made before the
/// answer, after it and after the resolution arrive in order; one that
/// resolves to the C++ side's own counter keeps the order through its
/// embargo (`Disembargo` looped back). Checks in peer.c++'s
/// `callPromises`; every table empty after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxx_calls_promises_of_capnarena() {
    let Some(peer) = peer() else { return };
    let bootstrap = Client::from_server(Later(Arc::default()));
    let (child, conn) = start(&peer, "promises", Some(bootstrap));
    let pid = child.id();
    let stdout = match tokio::time::timeout(Duration::from_secs(60), finish(child)).await {
        Ok(stdout) => stdout,
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("the C++ peer's calls on promises never returned");
        }
    };
    assert!(stdout.ends_with("done\n"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(
        stdout.contains("ok own counter through a promise, in order\n"),
        "{stdout}"
    );
    assert!(conn.closed().await.is_ok());
    assert_eq!(conn.stats(), Stats::default());
}
