//! The compatibility check over real history: capnproto's own
//! `schema.capnp`, `rpc.capnp` and `compat/json.capnp` at successive
//! releases, each pair compared, and the verdicts asserted are the ones
//! `tests/compat_history/README.md` determines by reading each change.
//!
//! The schema files are not copied into this repository. The test reads
//! them from a clone of github.com/capnproto/capnproto named by
//! `CAPNARENA_CAPNPROTO_GIT` (its git directory), with `git show
//! TAG:path`. Without it the test prints a SKIP line. The clone is not a
//! peer (`CAPNARENA_REQUIRE_PEER` names the reference tool and libraries,
//! which CI installs; no package carries capnproto's history), so it
//! fails only under `CAPNARENA_REQUIRE_CAPNPROTO_GIT=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use capnarena_dynamic::compat::{self, CompatSchema, Rule, Verdict};

/// The releases compared, in order. Releases between them that change
/// none of the three files are left out (v0.8.0 = v0.7.0 for
/// schema.capnp and so on; the README lists them).
const TAGS: &[&str] = &[
    "v0.6.0", "v0.7.0", "v0.8.0", "v0.9.0", "v0.10.0", "v1.0.0", "v1.1.0", "v1.3.0",
];

/// The files, as `c++/src/` names them and as they import each other.
const FILES: &[&str] = &[
    "capnp/schema.capnp",
    "capnp/rpc.capnp",
    "capnp/compat/json.capnp",
];

/// The verdict and the rules found for one file between two releases.
struct Expected {
    file: &'static str,
    from: &'static str,
    to: &'static str,
    worst: Option<Verdict>,
    rules: &'static [Rule],
}

use Rule::*;
use Verdict::*;

/// Every pair with a change the check reports, from the README's table.
/// A pair not listed has no finding at all.
const EXPECTED: &[Expected] = &[
    // Node.SourceInfo and CodeGeneratorRequest.sourceInfo @3.
    Expected {
        file: "capnp/schema.capnp",
        from: "v0.6.0",
        to: "v0.7.0",
        worst: Some(Compatible),
        rules: &[TypeAdded, FieldAdded, SectionGrown],
    },
    // Node.startByte @34 / endByte @35, Node.SourceInfo.Member.startByte
    // @3 / endByte @4, RequestedFile.fileSourceInfo @3 and its
    // FileSourceInfo types.
    Expected {
        file: "capnp/schema.capnp",
        from: "v1.0.0",
        to: "v1.1.0",
        worst: Some(Compatible),
        rules: &[TypeAdded, FieldAdded, SectionGrown],
    },
    // CapDescriptor.attachedFd @6 :UInt8 = 0xff.
    Expected {
        file: "capnp/rpc.capnp",
        from: "v0.7.0",
        to: "v0.8.0",
        worst: Some(Compatible),
        rules: &[FieldAdded],
    },
    // Exception.trace @4 :Text.
    Expected {
        file: "capnp/rpc.capnp",
        from: "v0.8.0",
        to: "v0.9.0",
        worst: Some(Compatible),
        rules: &[FieldAdded, SectionGrown],
    },
    // Call.noPromisePipelining @9, onlyPromisePipeline @10,
    // Return.noFinishNeeded @8, Finish.requireEarlyCancellationWorkaround
    // @2 = true: new numbers, Bool bits in free room.
    Expected {
        file: "capnp/rpc.capnp",
        from: "v0.10.0",
        to: "v1.0.0",
        worst: Some(Compatible),
        rules: &[FieldAdded],
    },
    // JsonValue renamed Value without an explicit id: the implicit ids
    // of JsonValue, JsonValue.Field and JsonValue.Call change, which the
    // page forbids. The annotations are new declarations.
    Expected {
        file: "capnp/compat/json.capnp",
        from: "v0.6.0",
        to: "v0.7.0",
        worst: Some(Incompatible),
        rules: &[TypeAdded, TypeRemoved],
    },
    // Value.raw @7 :Text, a new member of the existing union.
    Expected {
        file: "capnp/compat/json.capnp",
        from: "v0.10.0",
        to: "v1.0.0",
        worst: Some(Compatible),
        rules: &[FieldAdded],
    },
];

/// The git directory of a capnproto clone, or `None` with a SKIP line.
fn capnproto_git() -> Option<PathBuf> {
    let dir = std::env::var_os("CAPNARENA_CAPNPROTO_GIT").map(PathBuf::from);
    if dir.is_none() {
        let skip =
            "SKIP compat_history: set CAPNARENA_CAPNPROTO_GIT to a capnproto clone's git directory";
        assert!(
            std::env::var("CAPNARENA_REQUIRE_CAPNPROTO_GIT").as_deref() != Ok("1"),
            "{skip}"
        );
        println!("{skip}");
    }
    dir
}

/// `c++/src/{name}` at `tag`.
fn show(git: &Path, tag: &str, name: &str) -> Vec<u8> {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(git)
        .arg("show")
        .arg(format!("{tag}:c++/src/{name}"))
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git show {tag}:c++/src/{name} failed");
    out.stdout
}

/// The files of `tag` under a scratch directory (as `c++/src` holds
/// them, c++.capnp included for their imports), each compiled on its own.
fn release(git: &Path, tag: &str) -> Vec<CompatSchema> {
    let dir = std::env::temp_dir().join(format!(
        "capnarena-compat-history-{}/{tag}",
        std::process::id()
    ));
    for name in FILES.iter().chain(&["capnp/c++.capnp"]) {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, show(git, tag, name)).unwrap();
    }
    FILES
        .iter()
        .map(|name| {
            let path = dir.join(name);
            let text = std::fs::read(&path).unwrap();
            let compiler = capnarena_compiler::Compiler::new()
                .no_standard_import()
                .import_path(&dir)
                .src_prefix(&dir);
            CompatSchema::compile_with(compiler, &[(path.display().to_string(), text)])
                .unwrap_or_else(|e| panic!("{tag} {name}: {e}"))
        })
        .collect()
}

/// Each file between successive releases gets the verdict and the rules
/// determined by reading the change; every other pair has no finding.
#[test]
fn capnproto_releases_get_the_verdicts_read_from_their_changes() {
    let Some(git) = capnproto_git() else {
        return;
    };
    let releases: Vec<Vec<CompatSchema>> = TAGS.iter().map(|t| release(&git, t)).collect();
    let mut failures = Vec::new();
    for (i, pair) in releases.windows(2).enumerate() {
        let (from, to) = (TAGS[i], TAGS[i + 1]);
        for (f, name) in FILES.iter().enumerate() {
            let report = compat::check(&pair[0][f], &pair[1][f]);
            let mut rules: Vec<Rule> = report.findings.iter().map(|x| x.rule).collect();
            rules.sort();
            rules.dedup();
            let want = EXPECTED
                .iter()
                .find(|e| e.file == *name && e.from == from && e.to == to);
            let (worst, want_rules) = want.map_or((None, &[][..]), |e| (e.worst, e.rules));
            let mut want_rules = want_rules.to_vec();
            want_rules.sort();
            println!("{name} {from} -> {to}: {:?} {rules:?}", report.worst(&[]));
            for x in &report.findings {
                println!("  {}", x.to_string().lines().next().unwrap_or_default());
            }
            if report.worst(&[]) != worst || rules != want_rules {
                let lines: Vec<String> = report.findings.iter().map(|x| x.to_string()).collect();
                failures.push(format!(
                    "{name} {from} -> {to}: want {worst:?} {want_rules:?}, got:\n{}",
                    lines.join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
