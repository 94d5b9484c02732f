//! A Cap'n Proto schema compiler in pure Rust: `.capnp` files in, a
//! CodeGeneratorRequest out — the same request `capnp compile -o-` (0.9.2)
//! writes for the same files, with no C++ tool installed.
//!
//! ```no_run
//! let request: Vec<u8> = capnarena_compiler::Compiler::new()
//!     .src_prefix("schemas")
//!     .file("schemas/app.capnp")
//!     .compile()
//!     .map_err(|d| d.to_string())?;
//! # Ok::<(), String>(())
//! ```
//!
//! The API is [`Compiler`], what it returns ([`Report`], [`Diagnostics`]),
//! [`outline`] (where each declaration of a file is written), [`limits`]
//! and, with feature `codegen`, the command ([`cli`]).
//!
//! Stages, one module each, all private: `lexer` (text to statements of
//! token trees), `parser` (statements to the `ast`), `files` (naming
//! files, imports), `compile` (a folder, one file per concept: scopes and
//! names, generics, node translation, struct members, values, the
//! request's node order), `layout` (field offsets), `ids` (derived ids),
//! `emit` (the message, built with the capnarena runtime).

// The command's `-ocapnarena` output runs the generator (feature
// `codegen`, on by default; capnarena-build turns it off).
#[cfg(feature = "codegen")]
pub mod cli;
mod compile;
mod diagnostic;
mod emit;
mod files;
mod layout;
pub mod limits;
mod md5;
pub mod outline;
mod parser;
mod stdmap;

// Not part of the API: what only this workspace's tests and fuzz
// targets reach (see the module's own docs).
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

use __private::{ast, ids, lexer, schema};

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

pub use diagnostic::{Diagnostic, Diagnostics, Location, Related, Span};
pub use emit::CAPNP_VERSION;

/// What to compile and where to look for imports: `capnp compile`'s
/// options as methods.
#[derive(Clone, Debug, Default)]
pub struct Compiler {
    import_paths: Vec<PathBuf>,
    no_standard_import: bool,
    src_prefixes: Vec<PathBuf>,
    files: Vec<PathBuf>,
    cwd: Option<PathBuf>,
    sources: HashMap<PathBuf, Vec<u8>>,
    only: Option<String>,
}

/// The standard import directories `capnp` searches after `-I` ones.
pub const STANDARD_IMPORT_PATHS: [&str; 2] = ["/usr/local/include", "/usr/include"];

impl Compiler {
    /// No files yet, the standard import path on.
    pub fn new() -> Compiler {
        Compiler::default()
    }

    /// `-I DIR`: a directory searched for `/`-rooted imports, before the
    /// standard ones.
    pub fn import_path(mut self, dir: impl AsRef<Path>) -> Compiler {
        self.import_paths.push(dir.as_ref().to_path_buf());
        self
    }

    /// `--no-standard-import`: do not search /usr/local/include and
    /// /usr/include.
    pub fn no_standard_import(mut self) -> Compiler {
        self.no_standard_import = true;
        self
    }

    /// `--src-prefix=DIR`: files under DIR are named relative to it.
    pub fn src_prefix(mut self, dir: impl AsRef<Path>) -> Compiler {
        self.src_prefixes.push(dir.as_ref().to_path_buf());
        self
    }

    /// A file to compile (a requested file of the request).
    pub fn file(mut self, path: impl AsRef<Path>) -> Compiler {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// The directory relative paths are taken from (default: the process's
    /// working directory).
    pub fn working_dir(mut self, dir: impl AsRef<Path>) -> Compiler {
        self.cwd = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Compiles only declaration `name` (a `.`-separated path such as
    /// `Outer.Inner`; where only a leading part names declarations, the
    /// declaration that part names) of each requested file and what it
    /// depends on, as `capnp convert`, `decode` and `eval` load the type
    /// or constant they are given: the request holds the file's node, the
    /// declaration, the scopes it is nested in and every node it depends
    /// on, transitively. Errors in declarations it does not reach, and in
    /// files only those import, are not reported (the reference never
    /// compiles them). When no leading part of `name` is declared, the
    /// request holds the file's node alone.
    pub fn declaration(mut self, name: impl Into<String>) -> Compiler {
        self.only = Some(name.into());
        self
    }

    /// Uses `text` as the content of `path` instead of reading the file
    /// system (for tests, fuzzing and build tools holding schemas in
    /// memory).
    pub fn source(mut self, path: impl AsRef<Path>, text: impl Into<Vec<u8>>) -> Compiler {
        self.sources
            .insert(path.as_ref().to_path_buf(), text.into());
        self
    }

    /// Compiles the files into a framed CodeGeneratorRequest message.
    ///
    /// # Errors
    /// Every problem found in the schemas (or an unreadable file), each
    /// with its file, line and column.
    pub fn compile(&self) -> Result<Vec<u8>, Diagnostics> {
        let req = self.compile_request()?;
        emit::emit(&req).map_err(|e| {
            Diagnostics(vec![Diagnostic::general(
                String::new(),
                format!("could not build the request message: {e}"),
            )])
        })
    }

    /// As [`compile`](Self::compile), with the warnings of the run and
    /// every file it read from disk: what a build tool or a command needs.
    ///
    /// The warnings are the reference's: one when a file is reached
    /// through two paths, e.g. `-I` and a relative import, which usually
    /// means overlapping `-I` and `--src-prefix` directories. A warning
    /// has no place. The files read are the schemas, their imports and
    /// embedded files, not [`source`](Self::source) texts: a change to
    /// any of them may change the request. Paths are absolute and
    /// normalized.
    pub fn compile_report(&self) -> Report {
        let (request, warnings, files_read) = self.compile_request_full();
        let request = request.and_then(|req| {
            emit::emit(&req).map_err(|e| {
                Diagnostics(vec![Diagnostic::general(
                    String::new(),
                    format!("could not build the request message: {e}"),
                )])
            })
        });
        Report {
            request,
            warnings,
            files_read,
        }
    }

    /// Compiles the files into the request's content, as the compiler
    /// holds it. Not part of the API: for this crate's own tests and
    /// fuzz target, which check that content field by field.
    ///
    /// # Errors
    /// As [`compile`](Self::compile).
    #[doc(hidden)]
    pub fn compile_request(&self) -> Result<schema::Request, Diagnostics> {
        self.compile_request_full().0
    }

    /// Where files are looked for and how the user spelled each place:
    /// the working directory, the import path (`-I`, then the standard
    /// directories that exist), the `--src-prefix` directories, all
    /// normalized.
    fn search_paths(&self) -> SearchPaths {
        let cwd = self
            .cwd
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        let cwd = files::normalize(Path::new("/"), &cwd);
        let mut import_path: Vec<PathBuf> = self
            .import_paths
            .iter()
            .map(|p| files::normalize(&cwd, p))
            .collect();
        if !self.no_standard_import {
            for p in STANDARD_IMPORT_PATHS {
                if Path::new(p).is_dir() {
                    import_path.push(PathBuf::from(p));
                }
            }
        }
        let prefixes: Vec<PathBuf> = self
            .src_prefixes
            .iter()
            .map(|p| files::normalize(&cwd, p))
            .collect();
        // How the user spelled each starting directory: a `--src-prefix`
        // first (the order `capnarena-build` passes them to `capnp`), then
        // `-I` and the standard directories.
        let mut spellings: Vec<(PathBuf, String)> = Vec::new();
        let given = self.src_prefixes.iter().chain(&self.import_paths);
        for (abs, p) in prefixes.iter().chain(&import_path).zip(given) {
            spellings.push((abs.clone(), p.display().to_string()));
        }
        for p in STANDARD_IMPORT_PATHS {
            spellings.push((PathBuf::from(p), p.to_string()));
        }
        let spelled = Spelled {
            cwd: cwd.clone(),
            dirs: spellings,
        };
        SearchPaths {
            cwd,
            import_path,
            prefixes,
            spelled,
        }
    }

    /// The request, the warnings and the files read.
    #[allow(clippy::type_complexity)]
    fn compile_request_full(
        &self,
    ) -> (
        Result<schema::Request, Diagnostics>,
        Vec<Diagnostic>,
        Vec<PathBuf>,
    ) {
        let SearchPaths {
            cwd,
            import_path,
            prefixes,
            spelled,
        } = self.search_paths();
        let mut loader = files::Loader::new(import_path);
        for (p, t) in &self.sources {
            loader
                .overrides
                .insert(files::normalize(&cwd, p), t.clone());
        }
        let mut requested = Vec::new();
        let mut general = Vec::new();
        for f in &self.files {
            let abs = files::normalize(&cwd, f);
            let (base, rel) = starting_directory(&abs, &prefixes, &cwd);
            let name = rel.join("/");
            match loader.load(base, rel) {
                Ok(i) => requested.push((i, name)),
                Err(e) => general.push(Diagnostic::general(
                    f.display().to_string(),
                    match e {
                        files::LoadError::NotFound => "no such file".into(),
                        e => e.to_string(),
                    },
                )),
            }
        }
        let mut files = std::mem::take(&mut loader.files);
        let load_errors = std::mem::take(&mut loader.errors);
        let read = std::mem::take(&mut loader.read_paths);
        // A second compile, knowing what the first reached (as the
        // reference, whose loader is lazy, would know), when that changes
        // the result: a file reached by two paths takes the name of the
        // path resolved first, and the reached files' nodes take their ids
        // before those of files no compiled import names.
        let mut known = Vec::new();
        let mut pass = 0;
        loop {
            let cx = compile::Compilation::with_reached(&files, known);
            let out = cx.request(&requested, self.only.as_deref());
            let renamed = cx.renamed_files();
            let reached = cx.reached_files();
            let again = !renamed.is_empty() || (reached.contains(&false) && cx.had_id_collision());
            if pass == 1 || !again {
                let (request, warnings) = finish(
                    &files,
                    &cx,
                    out,
                    &requested,
                    general,
                    load_errors,
                    &reached,
                    &spelled,
                );
                return (request, warnings, read);
            }
            drop(cx);
            for (i, name) in renamed {
                files[i].name = name;
            }
            known = reached;
            pass += 1;
        }
    }
}

/// Where a compile looks for files (see `Compiler::search_paths`).
struct SearchPaths {
    cwd: PathBuf,
    import_path: Vec<PathBuf>,
    prefixes: Vec<PathBuf>,
    spelled: Spelled,
}

/// What a compile gives a build tool: the request or the errors, the
/// warnings, and the files it read.
#[derive(Clone, Debug)]
pub struct Report {
    /// The framed CodeGeneratorRequest, or every error found.
    pub request: Result<Vec<u8>, Diagnostics>,
    /// The warnings (see [`Compiler::compile_report`]).
    pub warnings: Vec<Diagnostic>,
    /// Every file read from disk: the schemas, their imports and
    /// embedded files, absolute and normalized, each once.
    pub files_read: Vec<PathBuf>,
}

/// The starting directories as the user spelled them, for naming files in
/// diagnostics.
struct Spelled {
    cwd: PathBuf,
    /// (absolute normalized directory, as given); the first match wins.
    dirs: Vec<(PathBuf, String)>,
}

impl Spelled {
    /// How the reference names `file` in an error: the working directory
    /// is left out, `/` is written as the root, any other starting
    /// directory as the user gave it, with one `/` before the path inside.
    fn name(&self, file: &files::SourceFile) -> String {
        let rel = file.rel.join("/");
        if file.base == self.cwd {
            return rel;
        }
        let dir = match self.dirs.iter().find(|(abs, _)| *abs == file.base) {
            Some((_, given)) => given.clone(),
            None => file.base.display().to_string(),
        };
        if dir.ends_with('/') {
            format!("{dir}{rel}")
        } else {
            format!("{dir}/{rel}")
        }
    }
}

/// The request and warnings from a compile's nodes and errors.
#[allow(clippy::too_many_arguments)]
fn finish(
    files: &[files::SourceFile],
    cx: &compile::Compilation<'_>,
    (nodes, source_info): (Vec<schema::Node>, Vec<schema::SourceInfo>),
    requested: &[(usize, String)],
    general: Vec<Diagnostic>,
    load_errors: Vec<files::FileError>,
    reached: &[bool],
    spelled: &Spelled,
) -> (Result<schema::Request, Diagnostics>, Vec<Diagnostic>) {
    let warnings: Vec<Diagnostic> = cx
        .second_path()
        .map(|(path, other)| Diagnostic::general(
            String::new(),
            format!(
                "Found exactly the same source file mapped at two different paths. This suggests that your -I and --src-prefix flags are overlapping or inconsistent. Remember, these flags should only specify directories that are logical 'roots' of the source tree. It should never be the case that one of the import directories contains another one of them.; path = {path}; other.path = {other}"
            ),
        ))
        .into_iter()
        .collect();
    // A file no compiled import names is one the reference never loads:
    // its parse errors are not the compile's.
    let mut errors: Vec<files::FileError> = load_errors
        .into_iter()
        .filter(|e| reached.get(e.file).copied().unwrap_or(true))
        .collect();
    errors.extend(cx.take_errors());
    let mut diags = general;
    // The same error may be found twice (a node translated for two
    // users): each line is reported once, as the reference does.
    let mut seen = std::collections::HashSet::new();
    for e in errors {
        let f = &files[e.file];
        let d = Diagnostic {
            file: spelled.name(f),
            span: Some(span_in(f, e.span)),
            message: e.message,
            related: Vec::new(),
        };
        let mut related = Vec::new();
        for (fi, span, message) in e.related {
            let rf = &files[fi];
            let r = Related {
                file: spelled.name(rf),
                span: span_in(rf, span),
                message,
            };
            if seen.insert((r.file.clone(), r.span.start, r.message.clone())) {
                related.push(r);
            }
        }
        if seen.insert((
            d.file.clone(),
            d.span.unwrap_or_default().start,
            d.message.clone(),
        )) {
            diags.push(Diagnostic { related, ..d });
        } else {
            // Already reported: its related places that were not still
            // are, each on its own line.
            diags.extend(related.into_iter().map(|r| Diagnostic {
                file: r.file,
                span: Some(r.span),
                message: r.message,
                related: Vec::new(),
            }));
        }
    }
    if !diags.is_empty() {
        return (Err(Diagnostics(diags)), warnings);
    }
    let mut requested_files = Vec::new();
    for (fi, _) in requested {
        let f = &files[*fi];
        let mut names = BTreeSet::new();
        files::request_imports(&f.ast, &mut names);
        let imports = names
            .into_iter()
            .filter_map(|n| {
                let target = *f.imports.get(&n)?.as_ref().ok()?;
                Some((cx.file_id(target), n))
            })
            .collect();
        requested_files.push(schema::RequestedFile {
            id: cx.file_id(*fi),
            filename: f.name.clone(),
            imports,
        });
    }
    (
        Ok(schema::Request {
            nodes,
            requested_files,
            source_info,
        }),
        warnings,
    )
}

/// `span` of file `f`, with the line and column of each end.
fn span_in(f: &files::SourceFile, span: ast::Span) -> Span {
    let at = |offset: u32| {
        let (line, column) = f.line_col(offset);
        Location {
            offset,
            line,
            column,
        }
    };
    Span {
        start: at(span.start),
        end: at(span.end),
    }
}

/// Where the reference places a file named on the command line: its
/// starting directory and its path inside it. The directory is the
/// longest `--src-prefix` holding it, else the working directory when
/// under it, else `/`; the path names the file in the request.
fn starting_directory(abs: &Path, prefixes: &[PathBuf], cwd: &Path) -> (PathBuf, Vec<String>) {
    let parts = |base: &Path| -> Option<Vec<String>> {
        let r = abs.strip_prefix(base).ok()?;
        let v: Vec<String> = r
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        (!v.is_empty()).then_some(v)
    };
    let mut best: Option<(usize, &Path, Vec<String>)> = None;
    for p in prefixes {
        if let Some(r) = parts(p) {
            let len = p.as_os_str().len();
            if best.as_ref().is_none_or(|(l, _, _)| len > *l) {
                best = Some((len, p, r));
            }
        }
    }
    if let Some((_, p, r)) = best {
        return (p.to_path_buf(), r);
    }
    if let Some(r) = parts(cwd) {
        return (cwd.to_path_buf(), r);
    }
    (
        PathBuf::from("/"),
        parts(Path::new("/")).unwrap_or_default(),
    )
}

/// The README's examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
