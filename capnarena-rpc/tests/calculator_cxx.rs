//! The calculator example against the reference's own calculator sample
//! (`calculator-client.c++` and `calculator-server.c++` of capnproto
//! v0.9.2's `c++/samples/`). The sample's programs are not copied into
//! this repository: the test reads them with `git show` from a capnproto
//! clone named by `CAPNARENA_CAPNPROTO_GIT` (its git directory), builds
//! them here with g++ against Debian's libcapnp-rpc, with the schema
//! (`examples/calculator/calculator.capnp`, the same schema and id as the
//! sample's) compiled by `capnp compile -oc++`.
//!
//! Both directions over loopback TCP: the C++ client runs its whole
//! script against the example's server and must exit 0; the example's
//! client runs the same script against the C++ server and must pass each
//! check.
//!
//! Needs g++, `capnp` and the headers and libraries of libcapnp-dev:
//! without them each test prints a SKIP line and returns, unless
//! `CAPNARENA_REQUIRE_PEER=1`, which makes it fail instead. Without the
//! clone it prints a SKIP line too; no package carries the sample, so
//! that is a failure only under `CAPNARENA_REQUIRE_CAPNPROTO_GIT=1`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use capnarena_rpc::{Connection, FromClient, Options};

#[path = "../examples/generated/calculator_capnp.rs"]
#[rustfmt::skip]
#[allow(dead_code, clippy::all, missing_docs)]
mod calculator_capnp;

#[path = "../examples/calculator/service.rs"]
mod service;

use calculator_capnp::calculator;

/// How long one C++ program may run before the test fails.
const DEADLINE: Duration = Duration::from_secs(60);

/// Why the sample cannot be built here, or `None` when it can.
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
    let header = "/usr/include/capnp/ez-rpc.h";
    if !Path::new(header).is_file() {
        return Some(format!("{header} missing (install libcapnp-dev)"));
    }
    None
}

/// The capnproto clone's git directory, or why there is none.
fn capnproto_git() -> Result<PathBuf, String> {
    std::env::var_os("CAPNARENA_CAPNPROTO_GIT")
        .map(PathBuf::from)
        .ok_or_else(|| "set CAPNARENA_CAPNPROTO_GIT to a capnproto clone's git directory".into())
}

/// The built client and server, once per test run; `None` (after the
/// SKIP line) when they cannot be built here.
fn sample() -> Option<&'static (PathBuf, PathBuf)> {
    static BUILT: OnceLock<Result<(PathBuf, PathBuf), String>> = OnceLock::new();
    if let Some(why) = missing() {
        let line = format!("SKIP C++ calculator sample interop: {why}");
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{line}");
        }
        println!("{line}");
        return None;
    }
    if let Err(why) = capnproto_git() {
        let line = format!("SKIP C++ calculator sample interop: {why}");
        if std::env::var("CAPNARENA_REQUIRE_CAPNPROTO_GIT").as_deref() == Ok("1") {
            panic!("{line}");
        }
        println!("{line}");
        return None;
    }
    match BUILT.get_or_init(build) {
        Ok(built) => Some(built),
        Err(e) => panic!("building the C++ calculator sample: {e}"),
    }
}

/// Compiles the schema, then the client and the server side by side.
fn build() -> Result<(PathBuf, PathBuf), String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/calculator");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rpc-calculator-cxx");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::fs::copy(src.join("calculator.capnp"), dir.join("calculator.capnp"))
        .map_err(|e| format!("calculator.capnp: {e}"))?;
    let git = capnproto_git()?;
    for f in ["calculator-client.c++", "calculator-server.c++"] {
        let out = Command::new("git")
            .arg("--git-dir")
            .arg(&git)
            .args(["show", &format!("v0.9.2:c++/samples/{f}")])
            .output()
            .map_err(|e| format!("git show {f}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "git show v0.9.2:c++/samples/{f}: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        std::fs::write(dir.join(f), &out.stdout).map_err(|e| format!("{f}: {e}"))?;
    }
    let finish = |cmd: &Command, child: std::io::Result<Child>| -> Result<(), String> {
        let out = child
            .and_then(Child::wait_with_output)
            .map_err(|e| format!("{cmd:?}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr)))
        }
    };
    let mut capnp = Command::new("capnp");
    capnp
        .current_dir(&dir)
        .args(["compile", "-oc++", "calculator.capnp"])
        .stderr(Stdio::piped());
    let capnp_child = capnp.spawn();
    finish(&capnp, capnp_child)?;
    let gxx = |program: &str| {
        let mut cmd = Command::new("g++");
        cmd.current_dir(&dir)
            .args(["-O2", "-std=c++14", "-I."])
            .arg(format!("{program}.c++"))
            .args(["calculator.capnp.c++", "-o", program])
            .args(["-lcapnp-rpc", "-lcapnp", "-lkj-async", "-lkj"])
            .stderr(Stdio::piped());
        cmd
    };
    let (mut client, mut server) = (gxx("calculator-client"), gxx("calculator-server"));
    let (client_child, server_child) = (client.spawn(), server.spawn());
    finish(&client, client_child)?;
    finish(&server, server_child)?;
    Ok((dir.join("calculator-client"), dir.join("calculator-server")))
}

/// Waits for `child` until [`DEADLINE`]; kills it past that.
fn wait(mut child: Child, what: &str) -> std::process::Output {
    let start = Instant::now();
    while child.try_wait().expect("polling the child").is_none() {
        if start.elapsed() > DEADLINE {
            child.kill().ok();
            let out = child.wait_with_output().expect("reaping the child");
            panic!(
                "{what} still running after {DEADLINE:?}:\n{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child
        .wait_with_output()
        .expect("reading the child's output")
}

/// The sample's C++ client passes each of its checks against the
/// example's server, and exits 0 (its `KJ_ASSERT`s abort otherwise).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxx_client_passes_against_capnarena_server() {
    let Some((client, _)) = sample() else { return };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let calc = calculator::Client::from_server(service::CalculatorImpl);
        let (stream, _) = listener.accept().await.unwrap();
        let conn = Connection::new(stream, Some(calc.client.clone()), Options::default());
        conn.closed().await
    });
    let child = Command::new(client)
        .arg(addr.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = tokio::task::spawn_blocking(move || wait(child, "the C++ client"))
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the C++ client failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    for check in service::CHECKS {
        assert!(
            stdout.contains(&format!("{check}... PASS")),
            "{check}: no PASS in\n{stdout}"
        );
    }
    // The C++ client hung up; the connection ends without a protocol error.
    tokio::time::timeout(DEADLINE, server)
        .await
        .expect("the connection outlived its peer")
        .unwrap()
        .ok();
}

/// The example's client passes the same script against the sample's C++
/// server, every check in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capnarena_client_passes_against_cxx_server() {
    let Some((_, server)) = sample() else { return };
    let mut child = Command::new(server)
        .arg("127.0.0.1:0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its first line: "Listening on port N...".
    let mut line = String::new();
    let stdout = child.stdout.take().unwrap();
    let read = tokio::task::spawn_blocking(move || {
        BufReader::new(stdout).read_line(&mut line).map(|_| line)
    });
    let line = tokio::time::timeout(DEADLINE, read)
        .await
        .expect("the C++ server printed no port")
        .unwrap()
        .unwrap();
    let port: u16 = line
        .trim()
        .strip_prefix("Listening on port ")
        .and_then(|rest| rest.strip_suffix("..."))
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("the C++ server said {line:?}"));

    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let conn = Connection::new(stream, None, Options::default());
    let calc = calculator::Client::from_client(conn.bootstrap());
    let mut passed = Vec::new();
    let script = service::run_script(&calc, |check| passed.push(check.to_owned()));
    let result = tokio::time::timeout(DEADLINE, script).await;
    drop(calc);
    conn.shutdown().await.ok();
    child.kill().ok();
    child.wait().ok();
    result
        .expect("the script outlived its deadline")
        .unwrap_or_else(|e| panic!("after {passed:?} passed: {e}"));
    assert_eq!(passed, service::CHECKS);
}
