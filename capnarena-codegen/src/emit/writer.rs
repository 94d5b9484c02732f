//! The line writer the emitters write through: it keeps the indentation
//! (blocks are opened and closed), writes doc comments, and lays out each
//! line to the width as rustfmt would ([`super::layout`]), so that the
//! generated file needs no formatting afterwards.

use super::layout::{INDENT, Mode, WIDTH, fits, layout, signature};

/// Generated code being written, at an indentation level.
pub(super) struct Writer {
    text: String,
    depth: usize,
}

impl Writer {
    /// An empty writer whose lines are indented `depth` levels.
    pub(super) fn new(depth: usize) -> Self {
        Writer {
            text: String::new(),
            depth,
        }
    }

    /// The code written.
    pub(super) fn into_text(self) -> String {
        self.text
    }

    /// The code written so far.
    #[cfg(test)]
    pub(super) fn text(&self) -> &str {
        &self.text
    }

    /// How many bytes have been written (a place to come back to).
    pub(super) fn len(&self) -> usize {
        self.text.len()
    }

    /// Adds `#[allow(clippy::type_complexity)]` before every `#[inline]`
    /// line written since byte `start`.
    pub(super) fn allow_complex_types_since(&mut self, start: usize) {
        let tail = self.text.split_off(start);
        for line in tail.split_inclusive('\n') {
            if line.trim() == "#[inline]" {
                let indent = line.len() - line.trim_start().len();
                self.text.push_str(&line[..indent]);
                self.text.push_str("#[allow(clippy::type_complexity)]\n");
            }
            self.text.push_str(line);
        }
    }

    /// Appends what `other` wrote (at its own indentation).
    pub(super) fn append(&mut self, other: &Writer) {
        self.text.push_str(&other.text);
    }

    fn indent(&self) -> usize {
        self.depth * INDENT
    }

    /// Writes `text` (which may hold its own line breaks, indented) as a
    /// line at the current indentation.
    fn push_line(&mut self, text: &str) {
        self.text.push_str(&" ".repeat(self.indent()));
        self.text.push_str(text);
        self.text.push('\n');
    }

    /// A line of expression code: a statement with its `;`, an
    /// attribute, a match arm written whole.
    pub(super) fn line(&mut self, code: &str) {
        let indent = self.indent();
        // A statement's `;` (or an item's `,`) follows the expression.
        let (code, end) = match code.strip_suffix([';', ',']) {
            Some(expression) => (expression, &code[expression.len()..]),
            None => (code, ""),
        };
        let text = layout(code, Mode::Expression, indent, indent, end.len());
        self.push_line(&format!("{text}{end}"));
    }

    /// A line of a type: a struct field, an enum variant.
    pub(super) fn type_line(&mut self, code: &str) {
        let indent = self.indent();
        let text = layout(code, Mode::Type, indent, indent, 0);
        self.push_line(&text);
    }

    /// `left = right` and `end` (`;`): the right side on the same line
    /// when it fits, else on the next line, one level deeper, when that
    /// is better (rustfmt's choice for `let`, `const` and `static`).
    pub(super) fn assign(&mut self, left: &str, right: &str, end: &str) {
        self.assign_in(left, right, end, Mode::Expression);
    }

    /// [`Self::assign`] of a type (`type Name = Type;`).
    pub(super) fn assign_type(&mut self, left: &str, right: &str, end: &str) {
        self.assign_in(left, right, end, Mode::Type);
    }

    fn assign_in(&mut self, left: &str, right: &str, end: &str, mode: Mode) {
        let indent = self.indent();
        let left = layout(left, Mode::Type, indent, indent, 2);
        let column = last_line_width(&left, indent) + 3;
        let same_line = layout(right, mode, indent, column, end.len());
        if !same_line.contains('\n') && fits(&same_line, column, end.len()) {
            self.push_line(&format!("{left} = {same_line}{end}"));
            return;
        }
        let inner = indent + INDENT;
        let next_line = layout(right, mode, inner, inner, end.len());
        let same_fits = fits(&same_line, column, end.len());
        // An array on one line after the `=` keeps a column free (rustfmt's
        // shape for it there); a call may end at the last column.
        let bracketed = !next_line.contains('\n') && next_line.ends_with(']');
        let next_fits = fits(&next_line, inner, end.len() + usize::from(bracketed));
        let use_next = match (same_fits, next_fits) {
            (true, true) => prefer_next_line(&same_line, &next_line),
            (false, true) => true,
            _ => false,
        };
        if use_next {
            let pad = " ".repeat(inner);
            self.push_line(&format!("{left} =\n{pad}{next_line}{end}"));
        } else {
            self.push_line(&format!("{left} = {same_line}{end}"));
        }
    }

    /// A match arm `pattern => value,`: on one line when it fits, else
    /// the value broken after `=>` or in a block, as rustfmt chooses.
    pub(super) fn arm(&mut self, pattern: &str, value: &str) {
        let indent = self.indent();
        let column = indent + pattern.chars().count() + 4;
        let same_line = layout(value, Mode::Expression, indent, column, 1);
        if !same_line.contains('\n') && fits(&same_line, column, 1) {
            self.push_line(&format!("{pattern} => {same_line},"));
            return;
        }
        let inner = indent + INDENT;
        let next_line = layout(value, Mode::Expression, inner, inner, 0);
        let same_fits = fits(&same_line, column, 1);
        let block = if same_fits && fits(&next_line, inner, 0) {
            prefer_next_line(&same_line, &next_line)
        } else {
            !same_fits
        };
        if block {
            let pad = " ".repeat(inner);
            let close = " ".repeat(indent);
            self.push_line(&format!("{pattern} => {{\n{pad}{next_line}\n{close}}}"));
        } else {
            self.push_line(&format!("{pattern} => {same_line},"));
        }
    }

    /// `head {`, then one level deeper until [`Self::close`].
    pub(super) fn open(&mut self, head: &str) {
        let indent = self.indent();
        let text = layout(head, Mode::Type, indent, indent, 2);
        self.push_line(&format!("{text} {{"));
        self.depth += 1;
    }

    /// A trait's header and `{`, then one level deeper: the brace on a
    /// line of its own when the header is broken (its generic parameters
    /// one a line), as rustfmt puts it.
    pub(super) fn open_trait(&mut self, head: &str) {
        let indent = self.indent();
        let text = layout(head, Mode::Type, indent, indent, 2);
        let brace = if text.contains('\n') {
            format!("\n{}{{", " ".repeat(indent))
        } else {
            " {".to_string()
        };
        self.push_line(&format!("{text}{brace}"));
        self.depth += 1;
    }

    /// `match value {` or `if condition {`, then one level deeper.
    pub(super) fn open_expression(&mut self, head: &str) {
        let indent = self.indent();
        let text = layout(head, Mode::Expression, indent, indent, 2);
        // The brace follows a broken head that ends with closing brackets
        // (`)`), as rustfmt's `last_line_extendable`.
        let last = text.rsplit('\n').next().unwrap_or_default().trim_start();
        let extendable = last
            .chars()
            .all(|c| matches!(c, ')' | ']' | '}' | '?' | '>'));
        let brace = if text.contains('\n') && !extendable {
            format!("\n{}{{", " ".repeat(indent))
        } else {
            " {".to_string()
        };
        self.push_line(&format!("{text}{brace}"));
        self.depth += 1;
    }

    /// A function's signature and `{`, then its body one level deeper.
    /// The brace goes on a line of its own when the signature's last
    /// line leaves no room for it, counting that line's indentation
    /// twice when the signature is broken, as rustfmt does.
    pub(super) fn open_fn(&mut self, signature_code: &str) {
        let indent = self.indent();
        let text = signature(signature_code, indent);
        let last_line = match text.rsplit_once('\n') {
            Some((_, last)) => last.chars().count(),
            None => text.chars().count(),
        };
        let brace = if indent + last_line + 2 > WIDTH {
            format!("\n{}{{", " ".repeat(indent))
        } else {
            " {".to_string()
        };
        self.push_line(&format!("{text}{brace}"));
        self.depth += 1;
    }

    /// A function with a `where` clause: the signature, then `where`,
    /// `bounds` one a line, and `{` on a line of its own.
    pub(super) fn open_fn_where(&mut self, signature_code: &str, bounds: &[&str]) {
        let indent = self.indent();
        let text = signature(signature_code, indent);
        self.push_line(&text);
        self.push_line("where");
        self.depth += 1;
        for bound in bounds {
            self.type_line(&format!("{bound},"));
        }
        self.depth -= 1;
        self.push_line("{");
        self.depth += 1;
    }

    /// An `impl` header (`impl<G> Trait for Type`) and `{`, then its
    /// items one level deeper.
    pub(super) fn open_impl(&mut self, header: &str) {
        let text = self.impl_header(header);
        if text.contains('\n') {
            self.push_line(&text);
            self.push_line("{");
        } else {
            self.push_line(&format!("{text} {{"));
        }
        self.depth += 1;
    }

    /// An `impl` with no items: `header {}`, or the header and `{` `}`
    /// on lines of their own when the header is broken.
    pub(super) fn empty_impl(&mut self, header: &str) {
        let text = self.impl_header(header);
        if text.contains('\n') {
            self.push_line(&text);
            self.push_line("{");
            self.push_line("}");
        } else {
            self.push_line(&format!("{text} {{}}"));
        }
    }

    /// An `impl` header laid out as rustfmt does: on one line when it
    /// fits with ` {`; else `impl<G>` and the trait on the first line
    /// when they fit, the trait or the type on the next line one level
    /// deeper; else the generic parameters one a line.
    fn impl_header(&self, header: &str) -> String {
        let indent = self.indent();
        let width = |text: &str| text.chars().count();
        let (generics, rest) = split_impl_generics(header);
        let (trait_part, self_type) = match rest.split_once(" for ") {
            Some((trait_part, self_type)) => (Some(trait_part), self_type),
            None => (None, rest),
        };
        let pad = format!("\n{}", " ".repeat(indent + INDENT));
        let mut text = if indent + width(generics) <= WIDTH {
            generics.to_string()
        } else {
            layout(generics, Mode::Type, indent, indent, 0)
        };
        if let Some(trait_part) = trait_part {
            if last_line_width(&text, indent) + 1 + width(trait_part) <= WIDTH {
                text = format!("{text} {trait_part}");
            } else {
                text = format!("{text}{pad}{trait_part}");
            }
        }
        // rustfmt's budget for the type: ` for` (or ` `), ` {`, and the
        // last line's width without the indentation of a first line.
        let used = match text.rsplit_once('\n') {
            Some((_, last)) => width(last),
            None => width(&text),
        };
        let overhead = if trait_part.is_some() { 4 } else { 0 } + 2 + 1;
        let keyword = if trait_part.is_some() { "for " } else { "" };
        if used + overhead + width(self_type) <= WIDTH {
            format!("{text} {keyword}{self_type}")
        } else {
            format!("{text}{pad}{keyword}{self_type}")
        }
    }

    /// `head`, which ends with an opening bracket, then one level deeper
    /// until [`Self::close_raw`] (a call whose arguments are written one
    /// a line).
    pub(super) fn open_raw(&mut self, head: &str) {
        self.push_line(head);
        self.depth += 1;
    }

    /// Closes what [`Self::open_raw`] opened with `tail` (`);`).
    pub(super) fn close_raw(&mut self, tail: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.push_line(tail);
    }

    /// `} else {` between the branches of an `if`.
    pub(super) fn else_branch(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.push_line("} else {");
        self.depth += 1;
    }

    /// Closes the innermost block: `}`.
    pub(super) fn close(&mut self) {
        self.close_with("");
    }

    /// Closes the innermost block with `}` and `tail` (`)`, `;`, `,`).
    pub(super) fn close_with(&mut self, tail: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.push_line(&format!("}}{tail}"));
    }

    /// One line of a doc comment (`text` as the doc attribute holds it,
    /// usually starting with a space). A line a `///` comment cannot
    /// hold (a carriage return) is written as a `#[doc]` attribute.
    pub(super) fn doc(&mut self, text: &str) {
        let text = text.trim_end_matches(' ');
        if text.contains('\r') {
            self.push_line(&format!("#[doc = {text:?}]"));
        } else {
            self.push_line(&format!("///{text}"));
        }
    }

    /// The generator's own doc lines, one a `\n`, each after a space.
    pub(super) fn docs(&mut self, text: &str) {
        for line in text.split('\n') {
            if line.is_empty() {
                self.doc("");
            } else {
                self.doc(&format!(" {line}"));
            }
        }
    }
}

/// `impl<G>` (or `impl`) and what follows it, split.
fn split_impl_generics(header: &str) -> (&str, &str) {
    if !header.starts_with("impl<") {
        return header.split_once(' ').unwrap_or((header, ""));
    }
    let mut depth = 0usize;
    let mut previous = ' ';
    for (index, c) in header.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if previous != '-' && previous != '=' => {
                depth -= 1;
                if depth == 0 {
                    let (generics, rest) = header.split_at(index + 1);
                    return (generics, rest.trim_start());
                }
            }
            _ => {}
        }
        previous = c;
    }
    (header, "")
}

/// The width of the last line of `text`, whose first line starts at
/// column `column`.
fn last_line_width(text: &str, column: usize) -> usize {
    match text.rsplit_once('\n') {
        Some((_, last)) => last.chars().count(),
        None => column + text.chars().count(),
    }
}

/// rustfmt's `prefer_next_line`: the value on the next line is better
/// when it is one line there, much shorter there, or keeps its opening
/// bracket where the same-line version opens one.
fn prefer_next_line(same_line: &str, next_line: &str) -> bool {
    let first_ends = |text: &str, c: char| text.split('\n').next().is_some_and(|l| l.ends_with(c));
    !next_line.contains('\n')
        || same_line.matches('\n').count() > next_line.matches('\n').count() + 1
        || ['(', '{', '[']
            .iter()
            .any(|&c| first_ends(same_line, c) && !first_ends(next_line, c))
}
