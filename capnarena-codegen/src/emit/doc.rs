//! Schema doc comments as `#[doc]` attributes: rendered as text and
//! never run as doctests, and written so that clippy's
//! `doc_lazy_continuation` has nothing to say about them.
//!
//! Rustdoc runs every code block of a doc comment as a doctest unless its
//! fence names another language. A schema's comments hold Cap'n Proto,
//! C++ or prose, never Rust. So every code block of a schema doc is
//! written as a ```` ```text ```` block: a fence without a language gets
//! one, and an indented block (four spaces or more after a blank line)
//! is put in a fence.

use std::borrow::Cow;

use super::writer::Writer;

/// Writes `doc` (a schema doc comment) as doc comment lines.
pub(super) fn doc_attr(out: &mut Writer, doc: Option<&str>) {
    let Some(doc) = doc.filter(|d| !d.trim().is_empty()) else {
        return;
    };
    // Markdown continues a list item or a quote on the lines after it
    // ("lazily"); clippy's doc_lazy_continuation wants such lines
    // indented to the item's text or marked `>`, so they are.
    let mut open = Open::None;
    for line in text_blocks(doc.trim_end()) {
        let (line, code) = match &line {
            DocLine::Code(line) => (line.as_ref(), true),
            DocLine::Prose(line) => (*line, false),
        };
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_start();
        let line = if text.is_empty() {
            open = Open::None;
            String::new()
        } else if code {
            open = Open::None;
            format!(" {line}")
        } else if let Some(marker) = list_marker(text) {
            open = Open::Item(indent + marker);
            format!(" {line}")
        } else if text.starts_with('>') {
            open = Open::Quote;
            format!(" {line}")
        } else {
            match open {
                Open::Item(at) if indent < at => format!(" {:at$}{text}", ""),
                Open::Quote => format!(" > {line}"),
                _ => format!(" {line}"),
            }
        };
        out.doc(&line);
    }
    // The generator's own doc lines often follow, and would continue
    // an open item or quote: such a doc ends with an empty line.
    if open != Open::None {
        out.doc("");
    }
}

/// A line of a schema doc, as it is written.
#[derive(Debug, PartialEq, Eq)]
enum DocLine<'d> {
    /// Markdown prose.
    Prose(&'d str),
    /// A line of a ```` ```text ```` block, its fences included: written
    /// as is.
    Code(Cow<'d, str>),
}

/// The fence that opens a text block.
const TEXT_FENCE: &str = "```text";

/// The lines of `doc`, every code block made a text block: a fenced
/// block without a language (or with Rust's) gets `text`, an indented
/// block is fenced (and unindented by its least indent), and a fence left
/// open is closed.
fn text_blocks(doc: &str) -> Vec<DocLine<'_>> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    // The open fence's character and length, if inside a fenced block.
    let mut fence: Option<(char, usize)> = None;
    let mut after_blank = true;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if let Some((c, len)) = fence {
            if closes_fence(line, c, len) {
                fence = None;
                after_blank = true;
            }
            out.push(DocLine::Code(Cow::Borrowed(line)));
            continue;
        }
        if let Some((c, len, info)) = opening_fence(line) {
            fence = Some((c, len));
            out.push(if runs_as_rust(info) {
                // The same fence, so that its closing line still closes it.
                let indent = &line[..line.len() - line.trim_start().len()];
                let fence = c.to_string().repeat(len);
                DocLine::Code(Cow::Owned(format!("{indent}{fence}text")))
            } else {
                DocLine::Code(Cow::Borrowed(line))
            });
            continue;
        }
        if line.trim().is_empty() {
            after_blank = true;
            out.push(DocLine::Prose(""));
            continue;
        }
        if after_blank && width(line) >= 4 {
            // An indented block: its lines and the blank lines between
            // them.
            let start = i - 1;
            let mut end = i;
            while end < lines.len() && (lines[end].trim().is_empty() || width(lines[end]) >= 4) {
                end += 1;
            }
            while lines[end - 1].trim().is_empty() {
                end -= 1;
            }
            let least = lines[start..end]
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0);
            out.push(DocLine::Code(Cow::Borrowed(TEXT_FENCE)));
            for l in &lines[start..end] {
                let unindented = l.get(least..).unwrap_or_else(|| l.trim_start());
                out.push(DocLine::Code(Cow::Borrowed(unindented)));
            }
            out.push(DocLine::Code(Cow::Borrowed("```")));
            i = end;
            after_blank = false;
            continue;
        }
        after_blank = false;
        out.push(DocLine::Prose(line));
    }
    if let Some((c, len)) = fence {
        // Markdown would run the block on over the generator's own lines.
        out.push(DocLine::Code(Cow::Owned(c.to_string().repeat(len))));
    }
    out
}

/// The column a line's text starts at (a tab reaching the next multiple
/// of four, as in Markdown).
fn width(line: &str) -> usize {
    let mut column = 0;
    for c in line.chars() {
        match c {
            ' ' => column += 1,
            '\t' => column += 4 - column % 4,
            _ => break,
        }
    }
    column
}

/// A Markdown opening fence (up to three spaces, then three or more
/// backticks or tildes): its character, its length and its info string.
fn opening_fence(line: &str) -> Option<(char, usize, &str)> {
    if width(line) > 3 {
        return None;
    }
    let text = line.trim_start();
    let c = text.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = text.len() - text.trim_start_matches(c).len();
    let info = text[len..].trim();
    // A backtick fence's info string has no backtick.
    (len >= 3 && !(c == '`' && info.contains('`'))).then_some((c, len, info))
}

/// Whether `line` closes a fence of `len` characters `c`.
fn closes_fence(line: &str, c: char, len: usize) -> bool {
    let text = line.trim_start();
    width(line) <= 3
        && text.len() - text.trim_start_matches(c).len() >= len
        && text.trim_start_matches(c).trim().is_empty()
}

/// Whether rustdoc runs a fenced block of this info string as a doctest:
/// no language, `rust`, or only rustdoc's own attributes.
fn runs_as_rust(info: &str) -> bool {
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .all(|w| {
            matches!(
                w,
                "rust"
                    | "ignore"
                    | "should_panic"
                    | "no_run"
                    | "compile_fail"
                    | "test_harness"
                    | "standalone_crate"
            ) || w.starts_with("edition")
                || w.starts_with("ignore-")
                || w.starts_with('{')
        })
}

/// What a doc line so far leaves open for the next line to continue.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    None,
    /// A list item whose text starts at this column.
    Item(usize),
    /// A block quote.
    Quote,
}

/// The length of the Markdown list marker `text` starts with (`- `,
/// `* `, `+ `, `1. `, `1) `), if it starts with one.
fn list_marker(text: &str) -> Option<usize> {
    if text.starts_with("- ") || text.starts_with("* ") || text.starts_with("+ ") {
        return Some(2);
    }
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &text[digits..];
    (digits > 0 && (rest.starts_with(". ") || rest.starts_with(") "))).then_some(digits + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A schema doc whose list item or quote continues on unindented
    /// lines is written with those lines indented (or marked `>`), and a
    /// doc that ends inside one gets an empty line, so that the
    /// generator's own doc lines after it start a new paragraph: clippy's
    /// doc_lazy_continuation warned on generated code for go-capnp's
    /// rpc.capnp and blackrock's cluster-rpc.capnp (issue 20).
    #[test]
    fn docs_close_lists_and_quotes() {
        let mut out = Writer::new(0);
        doc_attr(
            &mut out,
            Some("Intro.\n- item\nlazy\n\n> quote\nlazy\n\n12. twelve\nlazy"),
        );
        let lines: Vec<&str> = out.text().lines().collect();
        assert_eq!(
            lines,
            [
                "/// Intro.",
                "/// - item",
                "///   lazy",
                "///",
                "/// > quote",
                "/// > lazy",
                "///",
                "/// 12. twelve",
                "///     lazy",
                "///",
            ]
        );
        let mut plain = Writer::new(1);
        doc_attr(&mut plain, Some("Just text.  \nMo\rre."));
        assert_eq!(
            plain.text(),
            "    /// Just text.\n    #[doc = \" Mo\\rre.\"]\n",
            "trailing spaces dropped; a carriage return, which a `///` line cannot hold, escaped"
        );
    }

    /// Every code block of a schema doc is written as a `text` block, so
    /// rustdoc never runs it as a doctest: an indented block (json.capnp's
    /// `call` member, stream.capnp's `StreamResult` failed as doctests in
    /// code generated for them), a fence without a language or with
    /// Rust's, and a fence left open, which is closed. A fence naming
    /// another language and an indented line continuing a paragraph stay.
    #[test]
    fn code_blocks_become_text_blocks() {
        let mut out = Writer::new(0);
        doc_attr(
            &mut out,
            Some(
                "Examples:\n\n    BinData(0, \"Zm9v\")\n\n      ISODate()\n\nAfter.\n\
                 continued\n    not code\n```\nplain\n```\n```rust,no_run\nrusty\n```\n\
                 ```c++\nkj::Own<T>\n```\n~~~~\nopen",
            ),
        );
        let lines: Vec<&str> = out.text().lines().collect();
        assert_eq!(
            lines,
            [
                "/// Examples:",
                "///",
                "/// ```text",
                "/// BinData(0, \"Zm9v\")",
                "///",
                "///   ISODate()",
                "/// ```",
                "///",
                "/// After.",
                "/// continued",
                "///     not code",
                "/// ```text",
                "/// plain",
                "/// ```",
                "/// ```text",
                "/// rusty",
                "/// ```",
                "/// ```c++",
                "/// kj::Own<T>",
                "/// ```",
                "/// ~~~~text",
                "/// open",
                "/// ~~~~",
            ]
        );
    }
}
