//! Compile speed: every schema of Debian's libcapnp-dev in one request,
//! compiled by capnarena-compiler in process, by the `capnarena-compile`
//! binary (a spawned process, like a build script would run it) and by
//! `capnp compile -o-` (the reference, spawned), in one criterion group so
//! the ratio comes out of one run. Needs /usr/include/capnp; the reference
//! entry is left out without `capnp` on PATH.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::Path;
use std::process::Command;

use capnarena_compiler::Compiler;
use criterion::{Criterion, criterion_group, criterion_main};

const DIR: &str = "/usr/include/capnp";
const FILES: [&str; 7] = [
    "c++.capnp",
    "schema.capnp",
    "persistent.capnp",
    "rpc.capnp",
    "rpc-twoparty.capnp",
    "stream.capnp",
    "compat/json.capnp",
];

fn ours() -> Vec<u8> {
    let mut c = Compiler::new().working_dir(DIR);
    for f in FILES {
        c = c.file(f);
    }
    c.compile().expect("Debian schemas compile")
}

fn spawned(program: &str, first: &[&str]) -> Vec<u8> {
    let out = Command::new(program)
        .current_dir(DIR)
        .args(first)
        .args(FILES)
        .output()
        .expect("spawn");
    assert!(out.status.success(), "{program} failed");
    out.stdout
}

fn has_capnp() -> bool {
    Command::new("capnp")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn bench(c: &mut Criterion) {
    if !Path::new(DIR).join("schema.capnp").is_file() {
        println!("SKIP compile bench: {DIR} missing (install Debian package libcapnp-dev)");
        return;
    }
    let mut g = c.benchmark_group("compile_debian");
    g.bench_function("capnarena_in_process", |b| b.iter(|| black_box(ours())));
    let exe = env!("CARGO_BIN_EXE_capnarena-compile");
    g.bench_function("capnarena_compile_process", |b| {
        b.iter(|| black_box(spawned(exe, &["-o-"])))
    });
    if has_capnp() {
        g.bench_function("capnp_compile_process", |b| {
            b.iter(|| black_box(spawned("capnp", &["compile", "-o-"])))
        });
    } else {
        println!("SKIP capnp_compile_process: capnp not on PATH");
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
