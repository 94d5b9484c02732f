//! Loading schema files: naming them as the reference does, finding
//! imports on the import path, and mapping byte offsets to lines.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::ast::{Decl, DeclKind, Expr, ExprKind, ParamList, Span};
use crate::lexer;
use crate::parser;

/// One loaded file.
pub struct SourceFile {
    /// The name the request uses: relative to the `--src-prefix` or
    /// import directory it was found in, or to the working directory.
    pub name: String,
    /// Its absolute, lexically normalized path.
    pub path: PathBuf,
    /// Byte offsets where lines start.
    pub line_starts: Vec<u32>,
    /// The parsed file.
    pub ast: Decl,
    /// Resolved imports: name as written -> file index (None: not found).
    pub imports: HashMap<String, Option<usize>>,
}

impl SourceFile {
    /// 1-based (line, column) of byte `offset`.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let col = offset - self.line_starts[line - 1] + 1;
        (line as u32, col)
    }
}

/// An error in a file: file index, span, message.
pub type FileError = (usize, Span, String);

/// Lexically normalizes `p` (resolving `.` and `..` without touching the
/// file system), made absolute against `cwd`.
pub fn normalize(cwd: &Path, p: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    };
    let mut out = PathBuf::from("/");
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(s) => out.push(s),
            _ => {}
        }
    }
    out
}

fn rel_string(p: &Path) -> String {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The set of loaded files and where to look for imports.
pub struct Loader {
    /// Loaded files, in load order.
    pub files: Vec<SourceFile>,
    /// Import directories, in search order.
    pub import_path: Vec<PathBuf>,
    by_path: HashMap<PathBuf, usize>,
    /// Errors found while loading and parsing.
    pub errors: Vec<FileError>,
    /// Source text overrides (for tests and fuzzing): path -> text.
    pub overrides: HashMap<PathBuf, Vec<u8>>,
}

impl Loader {
    /// A loader searching `import_path` for `/`-rooted imports.
    pub fn new(import_path: Vec<PathBuf>) -> Loader {
        Loader {
            files: Vec::new(),
            import_path,
            by_path: HashMap::new(),
            errors: Vec::new(),
            overrides: HashMap::new(),
        }
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        if let Some(t) = self.overrides.get(path) {
            return Some(t.clone());
        }
        if !path.is_file() {
            return None;
        }
        std::fs::read(path).ok()
    }

    /// Loads the file at absolute `path` named `name`, and everything it
    /// imports; returns its index, or None when it cannot be read.
    pub fn load(&mut self, path: PathBuf, name: String) -> Option<usize> {
        if let Some(&i) = self.by_path.get(&path) {
            return Some(i);
        }
        let bytes = self.read(&path)?;
        let idx = self.files.len();
        self.by_path.insert(path.clone(), idx);
        let mut line_starts = vec![0u32];
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        let mut perrs = Vec::new();
        let ast = match lexer::lex(&bytes) {
            Ok(stmts) => parser::parse_file(&stmts, &mut perrs),
            Err(e) => {
                perrs.push(e);
                parser::parse_file(&[], &mut Vec::new())
            }
        };
        let had_errors = !perrs.is_empty();
        for (span, msg) in perrs {
            self.errors.push((idx, span, msg));
        }
        if !matches!(ast.id, crate::ast::DeclId::Uid(_)) && !had_errors {
            self.errors.push((
                idx,
                Span::new(0, 0),
                format!(
                    "File does not declare an ID.  I've generated one for you.  Add this line to your file: @0x{:x};",
                    random_id()
                ),
            ));
        }
        let mut names = Vec::new();
        find_imports_decl(&ast, &mut names);
        self.files.push(SourceFile {
            name,
            path: path.clone(),
            line_starts,
            ast,
            imports: HashMap::new(),
        });
        for (name, _) in names {
            if self.files[idx].imports.contains_key(&name) {
                continue;
            }
            // A failed import is reported where it is used (as the
            // reference does: an import in a declaration nothing reaches
            // is never resolved).
            let found = self.import(&path, &name);
            self.files[idx].imports.insert(name, found);
        }
        Some(idx)
    }

    fn import(&mut self, from: &Path, name: &str) -> Option<usize> {
        if let Some(rest) = name.strip_prefix('/') {
            for i in 0..self.import_path.len() {
                let dir = self.import_path[i].clone();
                let p = normalize(&dir, Path::new(rest));
                if self.by_path.contains_key(&p) || self.read(&p).is_some() {
                    let rel = p
                        .strip_prefix(&dir)
                        .map(rel_string)
                        .unwrap_or_else(|_| rel_string(&p));
                    return self.load(p, rel);
                }
            }
            None
        } else {
            let dir = from.parent().unwrap_or(Path::new("/"));
            let p = normalize(dir, Path::new(name));
            // Name it relative to the importing file's own naming base.
            let from_idx = self.by_path.get(from).copied();
            let base_name = from_idx
                .map(|i| self.files[i].name.clone())
                .unwrap_or_default();
            let base_dir = Path::new(&base_name)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let rel = rel_string(&normalize(Path::new("/"), &base_dir.join(name)));
            if self.by_path.contains_key(&p) || self.read(&p).is_some() {
                self.load(p, rel)
            } else {
                None
            }
        }
    }
}

fn find_imports_expr(e: &Expr, out: &mut Vec<(String, Span)>) {
    match &e.kind {
        ExprKind::Import(f) => out.push((f.value.clone(), f.span)),
        ExprKind::List(items) => items.iter().for_each(|i| find_imports_expr(i, out)),
        ExprKind::Tuple(ps) => ps.iter().for_each(|p| find_imports_expr(&p.value, out)),
        ExprKind::Application { func, params } => {
            find_imports_expr(func, out);
            params.iter().for_each(|p| find_imports_expr(&p.value, out));
        }
        ExprKind::Member { parent, .. } => find_imports_expr(parent, out),
        _ => {}
    }
}

fn find_imports_params(p: &ParamList, out: &mut Vec<(String, Span)>, all: bool) {
    match p {
        ParamList::Named(ps, _) => {
            for p in ps {
                find_imports_expr(&p.ty, out);
                for a in &p.annotations {
                    find_imports_expr(&a.name, out);
                    if all {
                        if let Some(v) = &a.value {
                            find_imports_expr(v, out);
                        }
                    }
                }
                if all {
                    if let Some(d) = &p.default {
                        find_imports_expr(d, out);
                    }
                }
            }
        }
        ParamList::Type(t) => find_imports_expr(t, out),
        ParamList::Stream(s) => out.push(("/capnp/stream.capnp".into(), *s)),
    }
}

/// Every import a declaration tree mentions (types, values, annotations),
/// in source order: all of them must be loadable.
fn find_imports_decl(d: &Decl, out: &mut Vec<(String, Span)>) {
    match &d.kind {
        DeclKind::Using(t) => find_imports_expr(t, out),
        DeclKind::Const { ty, value } => {
            find_imports_expr(ty, out);
            find_imports_expr(value, out);
        }
        DeclKind::Field { ty, default } => {
            find_imports_expr(ty, out);
            if let Some(v) = default {
                find_imports_expr(v, out);
            }
        }
        DeclKind::Annotation { ty, .. } => find_imports_expr(ty, out),
        DeclKind::Interface { superclasses } => {
            superclasses.iter().for_each(|s| find_imports_expr(s, out))
        }
        DeclKind::Method {
            params, results, ..
        } => {
            find_imports_params(params, out, true);
            if let Some(r) = results {
                find_imports_params(r, out, true);
            }
        }
        _ => {}
    }
    for a in &d.annotations {
        find_imports_expr(&a.name, out);
        if let Some(v) = &a.value {
            find_imports_expr(v, out);
        }
    }
    for n in &d.nested {
        find_imports_decl(n, out);
    }
}

/// The imports the request lists for a file (type imports only, as the
/// reference: no values), sorted by name.
pub fn request_imports(d: &Decl, out: &mut std::collections::BTreeSet<String>) {
    let mut v = Vec::new();
    fn walk(d: &Decl, v: &mut Vec<(String, Span)>) {
        match &d.kind {
            DeclKind::Using(t) => find_imports_expr(t, v),
            DeclKind::Const { ty, .. } => find_imports_expr(ty, v),
            DeclKind::Field { ty, .. } => find_imports_expr(ty, v),
            DeclKind::Interface { superclasses } => {
                superclasses.iter().for_each(|s| find_imports_expr(s, v))
            }
            DeclKind::Method {
                params, results, ..
            } => {
                find_imports_params(params, v, false);
                if let Some(r) = results {
                    find_imports_params(r, v, false);
                }
            }
            _ => {}
        }
        for a in &d.annotations {
            find_imports_expr(&a.name, v);
        }
        for n in &d.nested {
            walk(n, v);
        }
    }
    walk(d, &mut v);
    out.extend(v.into_iter().map(|(n, _)| n));
}

/// A fresh random file id (top bit set), for the missing-id message.
fn random_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish() | (1 << 63)
}
