//! The compatibility check at run time (`compat::check_peer`): our schema
//! from generated code's nodes (`tests/generated/all_types_capnp.rs`),
//! the peer's as the request it sends; only the exchanged types count,
//! and a hostile request is an error within its limits.

mod common;

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/all_types_capnp.rs"]
mod all_types_capnp;

use std::time::Instant;

use capnarena::typed::HasSchema;
use capnarena_dynamic::compat::{self, PeerLimits, Rule};
use capnarena_dynamic::{Error, LoadedSchema};
use common::vectors_dir;

/// all_types.capnp as the peer has it: the file's text with `edit`
/// applied, compiled to the request the peer would send.
fn peer_request(edit: impl Fn(String) -> String) -> Vec<u8> {
    let path = vectors_dir().join("all_types.capnp");
    let text = edit(std::fs::read_to_string(&path).unwrap());
    capnarena_compiler::Compiler::new()
        .no_standard_import()
        .source("/all_types.capnp", text.into_bytes())
        .file("/all_types.capnp")
        .compile()
        .expect("the edited schema compiles")
}

/// Our side: every type of all_types.capnp, from the generated code.
fn ours() -> LoadedSchema {
    LoadedSchema::from_generated(all_types_capnp::SCHEMA_NODES.iter().map(|n| n())).unwrap()
}

fn id<T: HasSchema>() -> u64 {
    T::schema_node().id()
}

/// The same schema on both sides reports nothing: generated code's nodes
/// and the compiler's request hold the same types.
#[test]
fn same_schema_reports_nothing() {
    let theirs = peer_request(|t| t);
    let report = compat::check_peer(
        &ours(),
        &theirs,
        &[id::<all_types_capnp::all_types::Owned>()],
        &PeerLimits::default(),
    )
    .unwrap();
    assert_eq!(report.findings, []);
}

/// A peer whose Point.y is an Int64 and whose Color has one more
/// enumerant: both reach AllTypes (through structList's Labeled and
/// through enumField) and are reported, with us as the new side; Entry's
/// change is not, since AllTypes does not reach Entry. Exchanging Log
/// instead reports Entry's change alone.
#[test]
fn only_exchanged_types_are_reported() {
    let theirs = peer_request(|t| {
        t.replace("  y @1 :Int32;", "  y @1 :Int64;")
            .replace("  blue @2;\n", "  blue @2;\n  yellow @3;\n")
            .replace("  level @1 :UInt8;", "  level @1 :UInt16;")
    });
    let ours = ours();
    let limits = PeerLimits::default();
    let all = id::<all_types_capnp::all_types::Owned>();
    let report = compat::check_peer(&ours, &theirs, &[all], &limits).unwrap();
    let mut got: Vec<(Rule, String)> = report
        .findings
        .iter()
        .map(|f| {
            let at = f.old.as_ref().or(f.new.as_ref()).unwrap();
            (f.rule, at.name.clone())
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (
                Rule::EnumerantRemoved,
                "all_types.capnp:Color.yellow".into()
            ),
            (Rule::FieldTypeChanged, "all_types.capnp:Point.y".into()),
            // Their Point is two data words, ours one.
            (Rule::SectionShrunk, "all_types.capnp:Point".into()),
        ],
        "{report:#?}"
    );
    // The peer's yellow is an unknown value to us: we break reading them.
    let removed = &report
        .findings
        .iter()
        .find(|f| f.rule == Rule::EnumerantRemoved);
    assert!(removed.unwrap().rule.breaks().new_reading_old);

    let log = id::<all_types_capnp::log::Owned>();
    let report = compat::check_peer(&ours, &theirs, &[log], &limits).unwrap();
    let got: Vec<(Rule, &str)> = report
        .findings
        .iter()
        .map(|f| (f.rule, f.new.as_ref().unwrap().name.as_str()))
        .collect();
    assert_eq!(
        got,
        [(Rule::FieldTypeChanged, "all_types.capnp:Entry.level")]
    );
}

/// The other way round: the peer runs the generated code and sends its
/// nodes (`request_from_generated`); we run a modified schema. The nodes
/// load as `from_generated` loads them, and the check finds our change
/// with us as the new side.
#[test]
fn generated_code_sends_its_nodes() {
    let sent =
        compat::request_from_generated(all_types_capnp::SCHEMA_NODES.iter().map(|n| n())).unwrap();
    assert_eq!(
        compat::load_peer(&sent, &PeerLimits::default()).unwrap(),
        ours()
    );
    let modified = peer_request(|t| t.replace("  weight @2 :Float64;", "  weight @2 :Float32;"));
    let service = LoadedSchema::from_request_bytes(&modified).unwrap();
    let labeled = id::<all_types_capnp::labeled::Owned>();
    let report = compat::check_peer(&service, &sent, &[labeled], &PeerLimits::default()).unwrap();
    let got: Vec<(Rule, &str, &str)> = report
        .findings
        .iter()
        .map(|f| {
            (
                f.rule,
                f.old.as_ref().unwrap().name.as_str(),
                f.new.as_ref().unwrap().name.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [(
            Rule::FieldTypeChanged,
            "all_types.capnp:Labeled.weight",
            "all_types.capnp:Labeled.weight"
        )],
        "{report:#?}"
    );
}

/// A root the peer does not have is not an addition: the two sides do
/// not share it, and the check says so with an incompatible finding.
#[test]
fn root_missing_on_the_peer_is_reported() {
    let theirs = peer_request(|t| {
        let start = t.find("struct Log {").unwrap();
        let end = start + t[start..].find("}\n").unwrap() + 2;
        format!("{}{}", &t[..start], &t[end..])
    });
    let log = id::<all_types_capnp::log::Owned>();
    let report = compat::check_peer(&ours(), &theirs, &[log], &PeerLimits::default()).unwrap();
    let rules: Vec<Rule> = report.findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::RootMissing], "{report:#?}");
    assert!(!report.is_wire_compatible(&[]));
}

/// Hostile input: a request over the byte or node limit is refused before
/// it is loaded, with the numbers; garbage and truncated requests are
/// errors, never panics.
#[test]
fn hostile_requests_are_errors_within_limits() {
    let ours = ours();
    let theirs = peer_request(|t| t);
    let roots = [id::<all_types_capnp::all_types::Owned>()];
    let small = PeerLimits {
        max_bytes: 64,
        ..PeerLimits::default()
    };
    match compat::check_peer(&ours, &theirs, &roots, &small) {
        Err(Error::Limit { found, limit, .. }) => {
            assert_eq!((found, limit), (theirs.len() as u64, 64));
        }
        other => panic!("{other:?}"),
    }
    let few = PeerLimits {
        max_nodes: 3,
        ..PeerLimits::default()
    };
    match compat::check_peer(&ours, &theirs, &roots, &few) {
        Err(Error::Limit {
            limit: 3, found, ..
        }) => assert!(found > 3, "{found}"),
        other => panic!("{other:?}"),
    }
    assert!(
        compat::check_peer(&ours, b"not a message at all", &roots, &Default::default()).is_err()
    );
    for cut in [0, 8, 16, theirs.len() / 2, theirs.len() - 8] {
        assert!(
            compat::check_peer(&ours, &theirs[..cut], &roots, &Default::default()).is_err(),
            "cut at {cut}"
        );
    }
    // A segment table that claims a huge segment is refused, not
    // allocated.
    let mut claim = vec![0u8; 16];
    claim[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(compat::check_peer(&ours, &claim, &roots, &Default::default()).is_err());
}

/// The cost of one check, for the record (printed, not asserted): the
/// peer's request loaded and compared with ours, for all_types.capnp
/// and for schema.capnp (CodeGeneratorRequest and all it names).
#[test]
fn per_check_cost() {
    let ours_all = ours();
    let theirs_all = peer_request(|t| t);
    let roots = [id::<all_types_capnp::all_types::Owned>()];
    let schema_capnp = common::workspace().join("conformance/corpus/capnproto/c++/src/capnp");
    let request = capnarena_compiler::Compiler::new()
        .src_prefix(&schema_capnp)
        .import_path(schema_capnp.join("../.."))
        .file(schema_capnp.join("schema.capnp"))
        .compile()
        .unwrap();
    let ours_schema = LoadedSchema::from_request_bytes(&request).unwrap();
    let cgr = ours_schema
        .schema()
        .find("schema.capnp:CodeGeneratorRequest")
        .unwrap();
    for (name, ours, theirs, root) in [
        ("all_types.capnp AllTypes", &ours_all, &theirs_all, roots[0]),
        (
            "schema.capnp CodeGeneratorRequest",
            &ours_schema,
            &request,
            cgr,
        ),
    ] {
        let limits = PeerLimits::default();
        let runs = 50;
        let start = Instant::now();
        for _ in 0..runs {
            let report = compat::check_peer(ours, theirs, &[root], &limits).unwrap();
            assert_eq!(report.findings, []);
        }
        let each = start.elapsed() / runs;
        println!(
            "check_peer {name}: {} bytes from the peer, {each:?} per check (debug build unless --release)",
            theirs.len()
        );
    }
}
