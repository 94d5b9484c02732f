//! The compatibility check over the whole conformance corpus
//! (`conformance/corpus`, 212 schema files of 12 projects): each file
//! compiled in process and compared with itself (no finding) and with a
//! mutated copy (every `:Int32` field made `:Int64`: one finding per
//! such field, or more). The comparison time is printed, not asserted.
//!
//! The conformance crate is not built: the files are compiled here with
//! each project's import paths (as `conformance/src/corpus.rs` lists them).

#[path = "common/corpus.rs"]
mod corpus;

use std::time::{Duration, Instant};

use capnarena_dynamic::compat::{self, Rule};
use corpus::{PROJECTS, compile_project};

/// Every project against itself: no finding; against its mutated copy:
/// every change is a type change of the edited fields or what follows
/// from it (offsets, sections, defaults), and some project has them.
/// The time of the comparisons alone is printed.
#[test]
fn corpus_against_itself_and_a_mutated_copy() {
    let mutate = corpus::widen_int32;
    let mut same_time = Duration::ZERO;
    let mut mutated_time = Duration::ZERO;
    let (mut files, mut mutated_files, mut nodes, mut findings) = (0, 0, 0, 0);
    for project in PROJECTS {
        let name = project.dir;
        for (original, mutated) in compile_project(project, &mutate) {
            files += 1;
            nodes += original.loaded().schema().node_ids().count();
            let start = Instant::now();
            let report = compat::check(&original, &original);
            same_time += start.elapsed();
            assert_eq!(report.findings, [], "{name} differs from itself");

            let Some(mutated) = mutated else { continue };
            mutated_files += 1;
            let start = Instant::now();
            let report = compat::check(&original, &mutated);
            mutated_time += start.elapsed();
            for f in &report.findings {
                assert!(
                    matches!(
                        f.rule,
                        Rule::FieldTypeChanged
                            | Rule::ListElementChanged
                            | Rule::FieldOffsetChanged
                            | Rule::SectionGrown
                            | Rule::DefaultChanged
                            | Rule::UnionDiscriminantChanged
                            | Rule::GenericBindingChanged
                    ),
                    "{name}: {f}"
                );
            }
            findings += report.findings.len();
        }
    }
    assert!(findings > 100, "the mutation changed {findings} things");
    println!(
        "compat over the corpus ({} projects, {files} files, {nodes} nodes with imports): \
         itself {same_time:?}; mutated copy ({mutated_files} files changed) {mutated_time:?}, {findings} findings",
        PROJECTS.len()
    );
}
