//! Loading schema files: naming them as the reference does, finding
//! imports and embeds on the import path or beside the file that names
//! them, and mapping byte offsets to lines.
//!
//! Follows the reference's module-loader.c++ and kj's path evaluation
//! (filesystem.c++): every file is known as a *starting directory* (the
//! import directory it was found in, the `--src-prefix` or working
//! directory of a file named on the command line, else `/`) and a path
//! inside it. A `/`-rooted import or embed is looked up under each import
//! directory in turn; any other is taken relative to the importing file's
//! path inside its starting directory. A `..` that would leave the starting
//! directory is an error (`can't use ".." to break out of starting
//! directory`), so nothing outside the import directories and the
//! starting directories of the named files is ever read. Only regular
//! files are read (no directories, FIFOs or devices), each within
//! [`limits::MAX_FILE_BYTES`](crate::limits::MAX_FILE_BYTES), all of them
//! together within [`limits::MAX_INPUT_BYTES`](crate::limits::MAX_INPUT_BYTES).

use std::collections::HashMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use crate::ast::{Decl, DeclKind, Expr, ExprKind, ParamList, Span};
use crate::lexer;
use crate::limits;
use crate::parser;

/// One loaded file.
pub struct SourceFile {
    /// The name the request uses: its path inside its starting directory.
    pub name: String,
    /// The starting directory it was found in (absolute, normalized).
    pub base: PathBuf,
    /// Its path inside `base`, one component each.
    pub rel: Vec<String>,
    /// Byte offsets where lines start.
    pub line_starts: Vec<u32>,
    /// The parsed file.
    pub ast: Decl,
    /// Resolved imports: name as written -> file index, or why not.
    pub imports: HashMap<String, Result<usize, LoadError>>,
    /// For each resolved import, the name its path gives the file (its
    /// path inside the starting directory it was found in). A file
    /// reached by two paths is one file; the reference names it by the
    /// path it was first resolved through while compiling.
    pub reached_as: HashMap<String, String>,
    /// Embedded files: name as written -> content, or why not.
    pub embeds: HashMap<String, Result<Rc<Vec<u8>>, LoadError>>,
}

impl SourceFile {
    /// 1-based (line, column) of byte `offset`.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let col = offset - self.line_starts[line - 1] + 1;
        (line as u32, col)
    }
}

/// Why a file named by an import or embed was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No such file (on any import directory, for a `/`-rooted name).
    NotFound,
    /// The name leaves its starting directory through `..`.
    BreaksOut,
    /// A `/`-rooted name whose rest is absolute again (`//x`).
    Absolute,
    /// A component holds a NUL byte.
    Nul,
    /// It names a directory, FIFO, device or socket.
    NotRegular(&'static str),
    /// It holds more bytes than the limit.
    TooLarge {
        /// Its size.
        size: u64,
        /// The limit it exceeds.
        limit: u64,
    },
    /// Reading it would take the bytes read in all past
    /// [`limits::MAX_INPUT_BYTES`].
    InputTooLarge {
        /// Bytes read before this file.
        read: u64,
        /// This file's size.
        size: u64,
    },
    /// The operating system refused (permissions, I/O error).
    Io(String),
}

impl fmt::Display for LoadError {
    /// The reason, to follow `Import failed: NAME: ` (empty for
    /// `NotFound`, as the reference says no more).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound => Ok(()),
            LoadError::BreaksOut => {
                write!(f, "can't use \"..\" to break out of starting directory")
            }
            LoadError::Absolute => write!(f, "expected a relative path, got absolute"),
            LoadError::Nul => write!(f, "NUL character in path component"),
            LoadError::NotRegular(kind) => write!(f, "not a regular file ({kind})"),
            LoadError::TooLarge { size, limit } => {
                write!(
                    f,
                    "file of {size} bytes is larger than the limit of {limit} bytes (limits::MAX_FILE_BYTES)"
                )
            }
            LoadError::InputTooLarge { read, size } => write!(
                f,
                "{size} more bytes would take the files read past the limit of {} bytes (limits::MAX_INPUT_BYTES; {read} read so far)",
                limits::MAX_INPUT_BYTES
            ),
            LoadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl LoadError {
    /// `PREFIX: NAME`, then `: REASON` unless the file was simply not found.
    pub fn message(&self, prefix: &str, name: &str) -> String {
        match self {
            LoadError::NotFound => format!("{prefix}: {name}"),
            e => format!("{prefix}: {name}: {e}"),
        }
    }
}

/// An error in a file: file index, span, message, and the other places
/// it points at (each a file index, span and message).
#[derive(Clone, Debug)]
pub struct FileError {
    /// The file's index.
    pub file: usize,
    /// Where.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// Places that explain it, such as where a duplicate was first used.
    pub related: Vec<(usize, Span, String)>,
}

impl FileError {
    /// An error at `span` of file `file`, with no related place.
    pub fn new(file: usize, span: Span, message: String) -> FileError {
        FileError {
            file,
            span,
            message,
            related: Vec::new(),
        }
    }
}

/// Lexically normalizes `p` (resolving `.` and `..` without touching the
/// file system), made absolute against `cwd`. Only for paths the caller
/// gave (command-line files, directories); never for names in a schema.
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

/// Evaluates `text` (an import or embed name without its leading `/`, if
/// any) against the path `start` inside a starting directory, as kj's
/// `Path::eval`: empty and `.` components are skipped, `..` removes one
/// and may not leave the starting directory.
pub fn eval_path(start: &[String], text: &str) -> Result<Vec<String>, LoadError> {
    let mut parts = start.to_vec();
    for part in text.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(LoadError::BreaksOut);
                }
            }
            p if p.contains('\0') => return Err(LoadError::Nul),
            p => parts.push(p.to_string()),
        }
    }
    Ok(parts)
}

/// The identity of the file at `path` on disk: device, inode and its last
/// path component (the reference takes files with different names for
/// different files); None when it cannot be looked at.
fn inode_key(path: &Path, last: Option<&String>) -> Option<(u64, u64, String)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some((m.dev(), m.ino(), last?.clone()))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, last);
        None
    }
}

/// How a file's type is named in an error.
fn kind_name(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Reads the regular file at `path`, refusing anything else and anything
/// over `limit` bytes before reading it; the read itself stops one byte
/// past the limit, in case the file grew.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(LoadError::NotFound),
        Err(e) => return Err(LoadError::Io(e.to_string())),
    };
    if !meta.is_file() {
        return Err(LoadError::NotRegular(kind_name(meta.file_type())));
    }
    if meta.len() > limit {
        return Err(LoadError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let file = std::fs::File::open(path).map_err(|e| LoadError::Io(e.to_string()))?;
    // The name may have been replaced between the two looks: check what
    // was opened.
    let meta = file.metadata().map_err(|e| LoadError::Io(e.to_string()))?;
    if !meta.is_file() {
        return Err(LoadError::NotRegular(kind_name(meta.file_type())));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| LoadError::Io(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(LoadError::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The set of loaded files and where to look for imports.
pub struct Loader {
    /// Loaded files, in load order.
    pub files: Vec<SourceFile>,
    /// Import directories, in search order (absolute, normalized).
    pub import_path: Vec<PathBuf>,
    by_path: HashMap<PathBuf, usize>,
    /// Files on disk by (device, inode, last path component): the same
    /// file reached through two directories is loaded once, as the
    /// reference's module loader does (it also compares size, time and
    /// content, which one inode shares).
    by_inode: HashMap<(u64, u64, String), usize>,
    embed_cache: HashMap<PathBuf, Rc<Vec<u8>>>,
    /// Bytes read so far (schemas and embeds), against
    /// [`limits::MAX_INPUT_BYTES`].
    read_bytes: u64,
    /// Errors found while loading and parsing.
    pub errors: Vec<FileError>,
    /// Source text overrides (for tests and fuzzing): path -> text.
    pub overrides: HashMap<PathBuf, Vec<u8>>,
    /// Every file read from disk (schemas and embeds, not overrides), in
    /// the order read, each once.
    pub read_paths: Vec<PathBuf>,
}

/// A file being loaded: its index and the imports not yet followed.
struct Pending {
    idx: usize,
    imports: std::vec::IntoIter<String>,
}

impl Loader {
    /// A loader searching `import_path` for `/`-rooted imports.
    pub fn new(import_path: Vec<PathBuf>) -> Loader {
        Loader {
            files: Vec::new(),
            import_path,
            by_path: HashMap::new(),
            by_inode: HashMap::new(),
            embed_cache: HashMap::new(),
            read_bytes: 0,
            errors: Vec::new(),
            overrides: HashMap::new(),
            read_paths: Vec::new(),
        }
    }

    /// The bytes of `path` (an override, or a regular file within
    /// `limit`), counted against the input limit.
    fn read(&mut self, path: &Path, limit: u64) -> Result<Vec<u8>, LoadError> {
        let bytes = match self.overrides.get(path) {
            Some(t) if t.len() as u64 > limit => {
                return Err(LoadError::TooLarge {
                    size: t.len() as u64,
                    limit,
                });
            }
            Some(t) => t.clone(),
            None => {
                let bytes = read_regular(path, limit)?;
                if !self.read_paths.iter().any(|p| p == path) {
                    self.read_paths.push(path.to_path_buf());
                }
                bytes
            }
        };
        let size = bytes.len() as u64;
        if self.read_bytes + size > limits::MAX_INPUT_BYTES {
            return Err(LoadError::InputTooLarge {
                read: self.read_bytes,
                size,
            });
        }
        self.read_bytes += size;
        Ok(bytes)
    }

    /// Loads the file at `rel` inside starting directory `base`, and
    /// everything it imports; returns its index.
    ///
    /// # Errors
    /// Why the file itself could not be read (its imports' failures are
    /// kept in [`SourceFile::imports`]).
    pub fn load(&mut self, base: PathBuf, rel: Vec<String>) -> Result<usize, LoadError> {
        let (first, _) = self.load_new(base, rel)?;
        // Depth first, as the reference's recursive loading would go, but
        // with the chain of files being loaded on the heap: an import chain
        // of any length takes no stack.
        let mut stack = vec![self.pending(first)];
        while let Some(top) = stack.last_mut() {
            let Some(name) = top.imports.next() else {
                stack.pop();
                continue;
            };
            let idx = top.idx;
            if self.files[idx].imports.contains_key(&name) {
                continue;
            }
            // A failed import is reported where it is used (as the
            // reference does: an import in a declaration nothing reaches
            // is never resolved).
            let found = self.import(idx, &name);
            if let Ok((target, true)) = found {
                stack.push(self.pending(target));
            }
            self.files[idx].imports.insert(name, found.map(|(t, _)| t));
        }
        Ok(first)
    }

    fn pending(&self, idx: usize) -> Pending {
        let mut names = Vec::new();
        find_imports_decl(&self.files[idx].ast, &mut names);
        let names: Vec<String> = names.into_iter().map(|(n, _)| n).collect();
        Pending {
            idx,
            imports: names.into_iter(),
        }
    }

    /// Reads and parses one file (not its imports): `(index, newly
    /// loaded)`.
    fn load_new(&mut self, base: PathBuf, rel: Vec<String>) -> Result<(usize, bool), LoadError> {
        let path = rel.iter().fold(base.clone(), |p, c| p.join(c));
        if let Some(&i) = self.by_path.get(&path) {
            return Ok((i, false));
        }
        let inode = if self.overrides.contains_key(&path) {
            None
        } else {
            inode_key(&path, rel.last())
        };
        if let Some(&i) = inode.as_ref().and_then(|k| self.by_inode.get(k)) {
            self.by_path.insert(path, i);
            return Ok((i, false));
        }
        let bytes = self.read(&path, limits::MAX_FILE_BYTES)?;
        let idx = self.files.len();
        self.by_path.insert(path, idx);
        if let Some(k) = inode {
            self.by_inode.insert(k, idx);
        }
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
            self.errors.push(FileError::new(idx, span, msg));
        }
        if !matches!(ast.id, crate::ast::DeclId::Uid(_)) && !had_errors {
            self.errors.push(FileError::new(
                idx,
                Span::new(0, 0),
                format!(
                    "File does not declare an ID.  I've generated one for you.  Add this line to your file: @0x{:x};",
                    random_id()
                ),
            ));
        }
        let mut embed_names = Vec::new();
        find_embeds_decl(&ast, &mut embed_names);
        self.files.push(SourceFile {
            name: rel.join("/"),
            base,
            rel,
            line_starts,
            ast,
            imports: HashMap::new(),
            reached_as: HashMap::new(),
            embeds: HashMap::new(),
        });
        for name in embed_names {
            if !self.files[idx].embeds.contains_key(&name) {
                let content = self.embed(idx, &name);
                self.files[idx].embeds.insert(name, content);
            }
        }
        Ok((idx, true))
    }

    /// Where `name`, written in file `from`, may be: (starting directory,
    /// path in it) candidates, in search order.
    fn candidates(
        &self,
        from: usize,
        name: &str,
    ) -> Result<Vec<(PathBuf, Vec<String>)>, LoadError> {
        if let Some(rest) = name.strip_prefix('/') {
            if rest.starts_with('/') {
                return Err(LoadError::Absolute);
            }
            let rel = eval_path(&[], rest)?;
            Ok(self
                .import_path
                .iter()
                .map(|dir| (dir.clone(), rel.clone()))
                .collect())
        } else {
            let f = &self.files[from];
            let dir = &f.rel[..f.rel.len().saturating_sub(1)];
            Ok(vec![(f.base.clone(), eval_path(dir, name)?)])
        }
    }

    /// Resolves import `name` of file `from`: `(index, newly loaded)`,
    /// noting the name this path gives the file.
    fn import(&mut self, from: usize, name: &str) -> Result<(usize, bool), LoadError> {
        for (base, rel) in self.candidates(from, name)? {
            let reached_as = rel.join("/");
            match self.load_new(base, rel) {
                Err(LoadError::NotFound) => continue,
                Ok(r) => {
                    self.files[from]
                        .reached_as
                        .insert(name.to_string(), reached_as);
                    return Ok(r);
                }
                Err(e) => return Err(e),
            }
        }
        Err(LoadError::NotFound)
    }

    /// Reads embed `name` of file `from` (once per path, however many
    /// files embed it).
    fn embed(&mut self, from: usize, name: &str) -> Result<Rc<Vec<u8>>, LoadError> {
        for (base, rel) in self.candidates(from, name)? {
            let path = rel.iter().fold(base, |p, c| p.join(c));
            if let Some(b) = self.embed_cache.get(&path) {
                return Ok(b.clone());
            }
            match self.read(&path, limits::MAX_FILE_BYTES) {
                Err(LoadError::NotFound) => continue,
                Err(e) => return Err(e),
                Ok(bytes) => {
                    let bytes = Rc::new(bytes);
                    self.embed_cache.insert(path, bytes.clone());
                    return Ok(bytes);
                }
            }
        }
        Err(LoadError::NotFound)
    }
}

fn find_embeds_expr(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Embed(f) => out.push(f.value.clone()),
        ExprKind::List(items) => items.iter().for_each(|i| find_embeds_expr(i, out)),
        ExprKind::Tuple(ps) => ps.iter().for_each(|p| find_embeds_expr(&p.value, out)),
        ExprKind::Application { func, params } => {
            find_embeds_expr(func, out);
            params.iter().for_each(|p| find_embeds_expr(&p.value, out));
        }
        ExprKind::Member { parent, .. } => find_embeds_expr(parent, out),
        _ => {}
    }
}

/// Every embed a declaration tree names, wherever written (only values
/// may hold one; the compiler reports the others).
fn find_embeds_decl(d: &Decl, out: &mut Vec<String>) {
    let mut exprs: Vec<&Expr> = Vec::new();
    decl_exprs(d, &mut exprs);
    for e in exprs {
        find_embeds_expr(e, out);
    }
    for n in &d.nested {
        find_embeds_decl(n, out);
    }
}

/// The expressions written in declaration `d` itself (not its nested
/// declarations).
fn decl_exprs<'d>(d: &'d Decl, out: &mut Vec<&'d Expr>) {
    fn params<'d>(p: &'d ParamList, out: &mut Vec<&'d Expr>) {
        match p {
            ParamList::Named(ps, _) => {
                for p in ps {
                    out.push(&p.ty);
                    for a in &p.annotations {
                        out.push(&a.name);
                        out.extend(a.value.as_ref());
                    }
                    out.extend(p.default.as_ref());
                }
            }
            ParamList::Type(t) => out.push(t),
            ParamList::Stream(_) => {}
        }
    }
    match &d.kind {
        DeclKind::Using(t) => out.push(t),
        DeclKind::Const { ty, value } => {
            out.push(ty);
            out.push(value);
        }
        DeclKind::Field { ty, default } => {
            out.push(ty);
            out.extend(default.as_ref());
        }
        DeclKind::Annotation { ty, .. } => out.push(ty),
        DeclKind::Interface { superclasses } => out.extend(superclasses.iter()),
        DeclKind::Method {
            params: p, results, ..
        } => {
            params(p, out);
            if let Some(r) = results {
                params(r, out);
            }
        }
        _ => {}
    }
    for a in &d.annotations {
        out.push(&a.name);
        out.extend(a.value.as_ref());
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
