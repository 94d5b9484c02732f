//! The C++ reference's column of the RPC bench: `cxx/rpc_bench.c++`
//! (libcapnp-rpc), built here at run time and run as a child process.
//!
//! The build goes to `rpc-bench-cxx/` next to the bench binary:
//! `capnp compile -oc++ rpc_bench.capnp`, then `g++ -std=c++14 -O2`
//! against libcapnp-rpc, libcapnp, libkj-async and libkj. It is redone
//! only when the program, the schema or the flags changed. The program
//! gets the bench's constants as arguments and prints `key value` lines
//! (see its head comment). Every child (capnp, g++, the program) is
//! killed when it outlives its time limit.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::Figures;

const SOURCE: &str = include_str!("../../cxx/rpc_bench.c++");
const SCHEMA: &str = include_str!("../../schema/rpc_bench.capnp");

const GXX_ARGS: &[&str] = &[
    "-std=c++14",
    "-O2",
    "-I.",
    "rpc_bench.c++",
    "rpc_bench.capnp.c++",
    "-o",
    "rpc_bench",
    "-pthread",
    "-lcapnp-rpc",
    "-lcapnp",
    "-lkj-async",
    "-lkj",
];

const BUILD_TIMEOUT: Duration = Duration::from_secs(300);
const RUN_TIMEOUT: Duration = Duration::from_secs(180);

/// What the C++ column holds.
pub enum Column {
    /// It ran: its figures.
    Ran(Run),
    /// It cannot be built here (a tool or the headers are missing).
    Skipped(String),
    /// The build or the run failed, or timed out.
    Failed(String),
}

/// The C++ program's figures.
pub struct Run {
    /// libcapnp's version, as the headers it was built with give it.
    pub version: String,
    /// The one-connection figures.
    pub figures: Figures,
    /// Calls/s over many connections on 2 threads.
    pub many_per_s: f64,
    /// The build's time, or `None` when an earlier build was reused.
    pub built_in: Option<Duration>,
}

/// Builds (if needed) and runs the C++ program with `args`.
pub fn column(args: &[u64]) -> Column {
    if let Some(why) = missing() {
        return Column::Skipped(why);
    }
    let dir = match scratch_dir() {
        Ok(dir) => dir,
        Err(e) => return Column::Failed(e),
    };
    let built_in = match build(&dir) {
        Ok(t) => t,
        Err(e) => return Column::Failed(format!("building the C++ program: {e}")),
    };
    let mut cmd = Command::new(dir.join("rpc_bench"));
    cmd.args(args.iter().map(u64::to_string));
    let out = match run_bounded(&mut cmd, RUN_TIMEOUT) {
        Ok(out) => out,
        Err(e) => return Column::Failed(format!("running the C++ program: {e}")),
    };
    match parse(&out) {
        Ok((version, figures, many_per_s)) => Column::Ran(Run {
            version,
            figures,
            many_per_s,
            built_in,
        }),
        Err(e) => Column::Failed(e),
    }
}

/// Why the program cannot be built here, or `None` when it can.
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
    for header in ["capnp/rpc-twoparty.h", "kj/async-io.h"] {
        if !["/usr/include", "/usr/local/include"]
            .iter()
            .any(|dir| Path::new(dir).join(header).is_file())
        {
            return Some(format!("no {header} (install libcapnp-dev)"));
        }
    }
    None
}

/// `rpc-bench-cxx/` in the bench binary's directory (under the target dir).
fn scratch_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("the bench's own path: {e}"))?;
    let parent = exe.parent().ok_or("the bench binary has no directory")?;
    Ok(parent.join("rpc-bench-cxx"))
}

/// Builds the program in `dir` unless the build there is of the same
/// sources and flags; returns the time taken, `None` for a reused build.
fn build(dir: &Path) -> Result<Option<Duration>, String> {
    let io = |what: &str, e: std::io::Error| format!("{what} in {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(|e| io("creating", e))?;
    let stamp = format!("{GXX_ARGS:?}\n{SCHEMA}\n{SOURCE}");
    let binary = dir.join("rpc_bench");
    let stamp_file = dir.join("built-from");
    if binary.is_file() && std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp) {
        return Ok(None);
    }
    for stale in [&binary, &stamp_file] {
        if stale.exists() {
            std::fs::remove_file(stale).map_err(|e| io("removing", e))?;
        }
    }
    std::fs::write(dir.join("rpc_bench.c++"), SOURCE).map_err(|e| io("writing", e))?;
    std::fs::write(dir.join("rpc_bench.capnp"), SCHEMA).map_err(|e| io("writing", e))?;
    let start = Instant::now();
    run_bounded(
        Command::new("capnp")
            .args(["compile", "-oc++", "rpc_bench.capnp"])
            .current_dir(dir),
        BUILD_TIMEOUT,
    )?;
    run_bounded(
        Command::new("g++").args(GXX_ARGS).current_dir(dir),
        BUILD_TIMEOUT,
    )?;
    let took = start.elapsed();
    std::fs::write(&stamp_file, stamp).map_err(|e| io("writing", e))?;
    Ok(Some(took))
}

/// Runs `cmd` to its end, within `timeout` (else kills it); its stdout on
/// success, else what went wrong with its stderr.
fn run_bounded(cmd: &mut Command, timeout: Duration) -> Result<String, String> {
    let what = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{what}: {e}"))?;
    // Drained on threads, so a full pipe cannot stall the child.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            outcome => {
                let _ = child.kill();
                let _ = child.wait();
                // The drain threads are left: a grandchild (g++'s cc1plus)
                // may still hold the pipes.
                return Err(match outcome {
                    Err(e) => format!("{what}: waiting: {e}; killed"),
                    _ => format!("{what}: still running after {timeout:?}; killed"),
                });
            }
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if status.success() {
        Ok(stdout)
    } else {
        Err(format!("{what}: {status}\n{stderr}"))
    }
}

/// The program's `key value` lines: its version, one-connection figures
/// and many-connections calls/s.
fn parse(out: &str) -> Result<(String, Figures, f64), String> {
    let lines: HashMap<&str, &str> = out.lines().filter_map(|l| l.split_once(' ')).collect();
    let get = |key: &str| {
        lines
            .get(key)
            .copied()
            .ok_or_else(|| format!("no `{key}` in the C++ program's output:\n{out}"))
    };
    let number = |key: &str| {
        get(key)?
            .parse::<f64>()
            .map_err(|e| format!("`{key}` in the C++ program's output: {e}"))
    };
    let nanos = |key: &str| -> Result<Duration, String> {
        let ns = get(key)?
            .parse::<u64>()
            .map_err(|e| format!("`{key}` in the C++ program's output: {e}"))?;
        Ok(Duration::from_nanos(ns))
    };
    let figures = Figures {
        sequential_per_s: number("sequential_per_s")?,
        p50: nanos("p50_ns")?,
        p99: nanos("p99_ns")?,
        pipelined_per_s: number("pipelined_per_s")?,
        allocs_per_call: Some(number("allocs_per_call")?),
    };
    Ok((get("version")?.to_string(), figures, number("many_per_s")?))
}
