//! What every node's translation checks the same way: where an
//! annotation may be applied, and that ordinals run from @0 with no holes.

use super::Compilation;
use crate::ast::*;

/// What an annotation is applied to: the index of the matching flag among
/// an annotation declaration's targets, in schema.capnp's order
/// (`targetsFile` to `targetsAnnotation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AnnotationTarget {
    /// A file.
    File = 0,
    /// A constant.
    Const = 1,
    /// An enum.
    Enum = 2,
    /// An enumerant.
    Enumerant = 3,
    /// A struct.
    Struct = 4,
    /// A field.
    Field = 5,
    /// A named union.
    Union = 6,
    /// A group.
    Group = 7,
    /// An interface.
    Interface = 8,
    /// A method.
    Method = 9,
    /// A method parameter.
    Param = 10,
    /// An annotation declaration.
    Annotation = 11,
}

/// Checks that ordinals, met in increasing order, run from @0 with no
/// gaps and no repeats (the reference's `DuplicateOrdinalDetector`).
#[derive(Default)]
pub(super) struct OrdinalChecker {
    /// The next ordinal expected.
    expected: u64,
    /// Where the last ordinal in sequence was written, until a duplicate
    /// of it has been reported.
    last: Option<Span>,
    /// The last ordinal in sequence.
    last_value: u64,
}

impl OrdinalChecker {
    /// Checks the next ordinal `o`, reporting a duplicate (and, once,
    /// where it was first used) or a skipped one.
    pub(super) fn check(&mut self, cx: &Compilation<'_>, file: usize, o: &Located<u64>) {
        if o.value < self.expected {
            let message = "Duplicate ordinal number.".to_owned();
            match self.last.take() {
                Some(l) => cx.error_with(
                    file,
                    o.span,
                    message,
                    (
                        file,
                        l,
                        format!("Ordinal @{} originally used here.", self.last_value),
                    ),
                ),
                None => cx.error(file, o.span, message),
            }
        } else if o.value > self.expected {
            cx.error(
                file,
                o.span,
                format!(
                    "Skipped ordinal @{}.  Ordinals must be sequential with no holes.",
                    self.expected
                ),
            );
            self.expected = o.value + 1;
        } else {
            self.expected += 1;
            self.last = Some(o.span);
            self.last_value = o.value;
        }
    }
}
