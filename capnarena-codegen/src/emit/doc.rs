//! Schema doc comments as `#[doc]` attributes, written so that clippy's
//! `doc_lazy_continuation` has nothing to say about them.

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
    for line in doc.trim_end().lines() {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_start();
        let line = if text.is_empty() {
            open = Open::None;
            String::new()
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
}
