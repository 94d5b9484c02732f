//! Formatting a file's generated code (parsed with `syn`, printed with
//! `prettyplease`), and, when it does not parse (a generator bug), finding
//! the node and field at fault for the error.

use super::Generator;
use crate::Error;
use crate::model::*;

/// Formats generated Rust like rustfmt would (parse, then print).
pub(super) fn format_rust(code: &str) -> Result<String, ParseFailure> {
    on_parser_stack(|| {
        let file = parse_generated(code).map_err(|e| ParseFailure::new(&e))?;
        Ok(prettyplease::unparse(&file))
    })
    .unwrap_or_else(|e| {
        Err(ParseFailure {
            message: format!("cannot start a thread to format the generated code: {e}"),
            line: 0,
            column: 0,
        })
    })
}

/// Why generated code did not parse, and where (1-based line, 0-based
/// column; line 0 when unknown). Made on the thread that parsed: a span's
/// place is kept in a per-thread table, so it cannot be asked elsewhere.
#[derive(Debug)]
pub(super) struct ParseFailure {
    message: String,
    line: usize,
    column: usize,
}

impl ParseFailure {
    fn new(err: &syn::Error) -> Self {
        let at = err.span().start();
        ParseFailure {
            message: err.to_string(),
            line: at.line,
            column: at.column,
        }
    }
}

/// Parses generated code as a file. Tokens are read first with
/// proc-macro2, whose lexing error carries the place it stopped (syn's
/// own `parse_file` reports a lexing error at the start of the file).
fn parse_generated(code: &str) -> syn::Result<syn::File> {
    let tokens: proc_macro2::TokenStream = code
        .parse()
        .map_err(|e: proc_macro2::LexError| syn::Error::new(e.span(), e))?;
    syn::parse2(tokens)
}

/// Stack for parsing and printing generated code: syn and prettyplease
/// recurse once per level of nesting (tens of KiB a level in a debug
/// build, more in some syn versions than in others), and the deepest
/// nesting the generator accepts (`limits.rs`) must not depend on the
/// stack of the thread that calls it (a build script's main thread).
const PARSER_STACK_BYTES: usize = 64 << 20;

/// Runs `f` on a thread of its own with [`PARSER_STACK_BYTES`] of stack
/// (reserved address space; only what is touched takes memory).
///
/// # Errors
/// The thread could not be started.
fn on_parser_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("capnarena-codegen format".into())
            .stack_size(PARSER_STACK_BYTES)
            .spawn_scoped(scope, f)?;
        match handle.join() {
            Ok(value) => Ok(value),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Finding what made a file's code unparsable (a generator bug): the
/// innermost node whose code does not parse on its own and, in a struct,
/// the field without which it does. Runs only after a failure.
impl Generator<'_> {
    /// The error for a file whose `code` does not parse: the schema file,
    /// node and field, the parser's message and the generated line it
    /// points at (never the whole code, which may be megabytes).
    pub(super) fn format_error(
        &self,
        file: &RequestedFile,
        file_node: &Node,
        code: &str,
        err: &ParseFailure,
    ) -> Error {
        let mut culprit = None;
        let mut scope = file_node;
        while let Some((child, child_err, child_code)) = self
            .children(scope)
            .into_iter()
            .find_map(|c| self.unparsable(c, file.id).map(|(e, t)| (c, e, t)))
        {
            culprit = Some((child, child_err, child_code));
            scope = child;
        }
        let (node, field, message, near) = match &culprit {
            Some((node, e, text)) => (
                Some(node.display_name.clone()),
                self.culprit_field(node, file.id),
                e.message.clone(),
                excerpt(text, e),
            ),
            None => (None, None, err.message.clone(), excerpt(code, err)),
        };
        Error::Format {
            file: file.filename.clone(),
            node,
            field,
            message,
            near,
        }
    }

    /// `node`'s item on its own, with the parser's error, when it does
    /// not parse.
    fn unparsable(&self, node: &Node, file: u64) -> Option<(ParseFailure, String)> {
        let mut text = String::new();
        self.item(&mut text, node, file, 0).ok()?;
        on_parser_stack(|| parse_generated(&text).err().map(|e| ParseFailure::new(&e)))
            .ok()
            .flatten()
            .map(|e| (e, text))
    }

    /// The field of struct `node` without which its item parses.
    fn culprit_field(&self, node: &Node, file: u64) -> Option<String> {
        let NodeKind::Struct(s) = &node.kind else {
            return None;
        };
        s.fields.iter().enumerate().find_map(|(i, f)| {
            let mut without = s.clone();
            without.fields.remove(i);
            let trial = Node {
                kind: NodeKind::Struct(without),
                ..node.clone()
            };
            self.unparsable(&trial, file)
                .is_none()
                .then(|| f.name.clone())
        })
    }
}

/// The line of `code` that `err` points at, trimmed and cut to at most
/// 160 characters around the error's column.
fn excerpt(code: &str, err: &ParseFailure) -> String {
    const WIDTH: usize = 160;
    if err.line == 0 {
        return String::new();
    }
    let Some(line) = code.lines().nth(err.line - 1) else {
        return String::new();
    };
    let chars: Vec<char> = line.chars().collect();
    let start = err.column.saturating_sub(WIDTH / 2).min(chars.len());
    let end = (start + WIDTH).min(chars.len());
    let cut: String = chars[start..end].iter().collect();
    let cut = cut.trim();
    match (start > 0, end < chars.len()) {
        (false, false) => cut.to_string(),
        (true, false) => format!("...{cut}"),
        (false, true) => format!("{cut}..."),
        (true, true) => format!("...{cut}..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    /// Code that does not parse (a generator bug, here a field name with a
    /// line break, which a doc comment line takes as is) is reported with its schema file, node and
    /// field and the generated line at fault, in a short error
    /// (regression, issue 23: the error named no node or field and its
    /// Debug carried the whole generated file).
    #[test]
    fn unparsable_code_names_node_and_field() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/requests/addressbook.bin"
        ))
        .expect("request");
        let words = capnarena::words_from_bytes(&bytes).expect("words");
        let reader = capnarena::MessageReader::from_words(&words, capnarena::ReaderOptions::new())
            .expect("request");
        let mut schema = crate::load::load(&reader).expect("load");
        let person = schema
            .nodes
            .values_mut()
            .find(|n| n.display_name.ends_with(":Person"))
            .expect("Person");
        let NodeKind::Struct(s) = &mut person.kind else {
            panic!("Person is a struct");
        };
        let email = s
            .fields
            .iter_mut()
            .find(|f| f.name == "email")
            .expect("email");
        email.name = "e\nmail".into();
        let options = Options::default();
        let err = Generator::new(&schema, &options)
            .expect("generator")
            .files()
            .expect_err("unparsable code");
        let text = err.to_string();
        for want in [
            "addressbook.capnp does not parse",
            "addressbook.capnp:Person",
            "field e\\nmail",
            "near `mail` field",
        ] {
            assert!(text.contains(want), "{want:?} missing from {text}");
        }
        let debug = format!("{err:?}");
        assert!(debug.len() < 1000, "{} bytes: {debug}", debug.len());
    }
}
