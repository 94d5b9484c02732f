//! Compiles Cap'n Proto schemas to typed [capnarena] Rust from a build
//! script, in the style of prost-build and capnpc.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), capnarena_build::Error> {
//!     capnarena_build::Config::new()
//!         .src_prefix("schema")
//!         .file("schema/addressbook.capnp")
//!         .compile()
//! }
//! ```
//!
//! A schema error then fails the build with one line per error, as a
//! compiler prints them (cargo shows them under `--- stderr`):
//!
//! ```text
//! Error: 1 error in the Cap'n Proto schemas:
//! schema/addressbook.capnp:12:17: error: Not defined: Strin
//! ```
//!
//! Each file is named as given to [`Config::file`] (or found under an
//! [`Config::import_path`] directory, spelled as given), so an editor can
//! jump to it. [`Error`]'s `Debug` is that text, which is what `main`
//! prints; an [`io::Error`] made from it (`?` in a function returning
//! `io::Result`) carries the same text but prints it inside `Custom {
//! .. }`.
//!
//! The build script is rerun when a schema, a schema it imports or a file
//! it embeds changes; the compiler's warnings become `cargo:warning`
//! lines.
//!
//! In the crate, `capnarena::include_generated!(pub mod addressbook_capnp);`
//! includes the module, anywhere in the crate. The README's example of
//! it is compiled against a real `OUT_DIR` by the doctests of the
//! workspace's `examples/addressbook`.
//!
//! Each schema file `foo.capnp` becomes `$OUT_DIR/foo_capnp.rs`. The schemas
//! are compiled in Rust by [`capnarena_compiler`], so no `capnp` binary is
//! needed; [`Config::use_capnp`] (or [`Config::capnp_binary`]) runs the
//! reference `capnp compile -o-` instead. Either way the
//! CodeGeneratorRequest goes to [`capnarena_codegen`], and the generated
//! Rust is the same.
//!
//! [capnarena]: https://docs.rs/capnarena

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

#[cfg(feature = "compat")]
mod compat;

/// A rule of the compatibility check, for [`Config::compat_allow`]
/// (feature `compat`).
#[cfg(feature = "compat")]
pub use capnarena_dynamic::compat::Rule as CompatRule;

/// Why [`Config::compile`] failed.
///
/// Its `Debug` is its `Display`, the readable text: a build script's
/// `fn main() -> Result<(), capnarena_build::Error>` prints it as is,
/// one schema error per line.
#[non_exhaustive]
pub enum Error {
    /// No schema files were given.
    NoFiles,
    /// `OUT_DIR` is not set (not run from a build script) and no
    /// [`Config::out_dir`] was given.
    NoOutDir,
    /// The built-in compiler rejected the schemas: every error, each
    /// with its file (as the user named it), line and column.
    Schema(capnarena_compiler::Diagnostics),
    /// The `capnp` tool could not be run.
    CapnpNotRun {
        /// The binary tried.
        binary: PathBuf,
        /// Why it did not run.
        error: io::Error,
    },
    /// `capnp compile` rejected the schemas.
    CapnpFailed {
        /// The binary run.
        binary: PathBuf,
        /// Its exit status.
        status: ExitStatus,
        /// What it printed (its errors, one per line).
        stderr: String,
    },
    /// The generator failed (a request it cannot read, or a generator
    /// bug; the error names the schema file, node and field).
    Generate(capnarena_codegen::Error),
    /// The schemas changed incompatibly since the compatibility snapshot
    /// (`Config::compat_snapshot`, feature `compat`).
    Incompatible {
        /// The snapshot compared against.
        snapshot: PathBuf,
        /// Each incompatible change, as `file:line:col: error[rule]:
        /// message` with the old declaration on a second line.
        findings: Vec<String>,
    },
    /// The compatibility snapshot could not be read, loaded or written.
    Snapshot {
        /// The snapshot.
        path: PathBuf,
        /// Why.
        problem: String,
    },
    /// A generated file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoFiles => write!(f, "no schema files given: call Config::file"),
            Error::NoOutDir => write!(
                f,
                "OUT_DIR is not set: run from a build script or call Config::out_dir"
            ),
            Error::Schema(d) => {
                let n = d.0.len();
                write!(
                    f,
                    "{n} error{} in the Cap'n Proto schemas:",
                    if n == 1 { "" } else { "s" }
                )?;
                for d in &d.0 {
                    write!(f, "\n{d}")?;
                }
                Ok(())
            }
            Error::CapnpNotRun { binary, error } => write!(
                f,
                "cannot run `{}` to compile Cap'n Proto schemas ({error}): {INSTALL_HINT}",
                binary.display()
            ),
            Error::CapnpFailed {
                binary,
                status,
                stderr,
            } => write!(
                f,
                "`{} compile` rejected the schemas ({status}):\n{}",
                binary.display(),
                stderr.trim_end()
            ),
            Error::Generate(e) => write!(f, "generating Rust: {e}"),
            Error::Incompatible { snapshot, findings } => {
                let n = findings.len();
                write!(
                    f,
                    "{n} incompatible change{} to the Cap'n Proto schemas since the snapshot {}:",
                    if n == 1 { "" } else { "s" },
                    snapshot.display()
                )?;
                for line in findings {
                    write!(f, "\n{line}")?;
                }
                write!(
                    f,
                    "\nIf the break is intended, write the snapshot anew: {UPDATE_ENV}=1 cargo build"
                )
            }
            Error::Snapshot { path, problem } => {
                write!(f, "compatibility snapshot {}: {problem}", path.display())
            }
            Error::Write { path, error } => write!(f, "writing {}: {error}", path.display()),
        }
    }
}

impl fmt::Debug for Error {
    /// The same text as `Display`: what a build script's `main` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Schema(d) => Some(d),
            Error::CapnpNotRun { error, .. } | Error::Write { error, .. } => Some(error),
            Error::Generate(e) => Some(e),
            _ => None,
        }
    }
}

impl From<Error> for io::Error {
    /// An `io::Error` of the matching kind carrying the error, for build
    /// scripts that return `io::Result`.
    fn from(e: Error) -> io::Error {
        let kind = match &e {
            Error::NoFiles => io::ErrorKind::InvalidInput,
            Error::NoOutDir => io::ErrorKind::NotFound,
            Error::Schema(_) => io::ErrorKind::InvalidData,
            Error::CapnpNotRun { error, .. } | Error::Write { error, .. } => error.kind(),
            Error::Incompatible { .. } | Error::Snapshot { .. } => io::ErrorKind::InvalidData,
            Error::CapnpFailed { .. } | Error::Generate(_) => io::ErrorKind::Other,
        };
        io::Error::new(kind, e)
    }
}

/// What to compile and where the Rust goes. Every option is a method;
/// [`compile`](Config::compile) runs it.
///
/// # Examples
///
/// In a build script, `compile()` writes into `OUT_DIR` (see the crate
/// docs). Here it writes into a directory of its own:
///
/// ```
/// use std::fs;
///
/// let dir = std::env::temp_dir().join(format!("capnarena-build-doc-{}", std::process::id()));
/// fs::create_dir_all(&dir)?;
/// let schema = "@0xe3c1d1b4f1d2a7e5;\nstruct Point { x @0 :Int32; y @1 :Int32; }\n";
/// fs::write(dir.join("point.capnp"), schema)?;
///
/// capnarena_build::Config::new()
///     .src_prefix(&dir)
///     .file(dir.join("point.capnp"))
///     .out_dir(&dir)
///     .compile()?;
///
/// let rust = fs::read_to_string(dir.join("point_capnp.rs"))?;
/// assert!(rust.contains("pub mod point"));
/// # fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Config {
    files: Vec<PathBuf>,
    import_paths: Vec<PathBuf>,
    src_prefixes: Vec<PathBuf>,
    no_standard_import: bool,
    out_dir: Option<PathBuf>,
    capnp: Option<PathBuf>,
    use_capnp: bool,
    codegen: capnarena_codegen::Options,
    #[cfg(feature = "compat")]
    compat: Option<compat::Check>,
}

/// The environment variable that makes `Config::compat_snapshot` write
/// the snapshot instead of checking against it.
pub const UPDATE_ENV: &str = "CAPNARENA_COMPAT_UPDATE";

const INSTALL_HINT: &str = "install the Cap'n Proto tool (Debian/Ubuntu: `apt-get install capnproto`; \
     Fedora: `dnf install capnproto`; macOS: `brew install capnp`), or set CAPNP=/path/to/capnp";

impl Config {
    /// An empty configuration.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a schema file to compile.
    pub fn file(mut self, path: impl AsRef<Path>) -> Self {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Adds schema files to compile.
    pub fn files<P: AsRef<Path>>(mut self, paths: impl IntoIterator<Item = P>) -> Self {
        self.files
            .extend(paths.into_iter().map(|p| p.as_ref().to_path_buf()));
        self
    }

    /// Adds a directory searched for `import "/..."` (as `capnp compile -I`).
    pub fn import_path(mut self, dir: impl AsRef<Path>) -> Self {
        self.import_paths.push(dir.as_ref().to_path_buf());
        self
    }

    /// A prefix stripped from file names before they name the generated
    /// module (as `capnp compile --src-prefix`).
    pub fn src_prefix(mut self, prefix: impl AsRef<Path>) -> Self {
        self.src_prefixes.push(prefix.as_ref().to_path_buf());
        self
    }

    /// Do not search the standard import directories (`/usr/include`,
    /// `/usr/local/include`) for imports.
    pub fn no_standard_import(mut self) -> Self {
        self.no_standard_import = true;
        self
    }

    /// Where the Rust files go (default: `OUT_DIR`, as cargo sets it for
    /// build scripts).
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Compile with the reference `capnp` tool instead of the built-in
    /// compiler: the binary named by `CAPNP` in the environment, else
    /// `capnp` on `PATH`.
    pub fn use_capnp(mut self) -> Self {
        self.use_capnp = true;
        self
    }

    /// Compile with the `capnp` binary at `path` (implies
    /// [`use_capnp`](Self::use_capnp)).
    pub fn capnp_binary(mut self, path: impl AsRef<Path>) -> Self {
        self.capnp = Some(path.as_ref().to_path_buf());
        self.use_capnp = true;
        self
    }

    /// Says where the generated module of an imported schema file lives
    /// (see [`capnarena_codegen::Options::module_path`]); by default it is
    /// a sibling of the importing file's module.
    pub fn module_path(mut self, file: impl Into<String>, rust_path: impl Into<String>) -> Self {
        self.codegen = self.codegen.module_path(file, rust_path);
        self
    }

    /// Says that every schema file's generated module sits under the
    /// module `path` of the crate, given part by part (see
    /// [`capnarena_codegen::Options::default_parent_module`]): capnpc's
    /// `default_parent_module`. By default an imported file's module is a
    /// sibling of the importing file's.
    pub fn default_parent_module<S: Into<String>>(
        mut self,
        path: impl IntoIterator<Item = S>,
    ) -> Self {
        self.codegen = self.codegen.default_parent_module(path);
        self
    }

    /// The runtime crate's path in generated code (default `::capnarena`).
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.codegen = self.codegen.runtime_path(path);
        self
    }

    /// Whether interfaces also get typed RPC code, a client and a server
    /// trait per interface (see [`capnarena_codegen::Options::rpc`]). Off
    /// by default: the code then needs the `capnarena-rpc` crate (and
    /// tokio) as a dependency of the crate that includes it.
    pub fn rpc(mut self, on: bool) -> Self {
        self.codegen = self.codegen.rpc(on);
        self
    }

    /// Typed RPC code naming the RPC crate by `path` (see
    /// [`capnarena_codegen::Options::rpc_path`]).
    pub fn rpc_path(mut self, path: impl Into<String>) -> Self {
        self.codegen = self.codegen.rpc_path(path);
        self
    }

    /// Also generate each struct's plain Rust values, `foo::Value` (owned)
    /// and `foo::ValueRef<'a>` (borrowing text and data), with their
    /// conversions from readers and into builders (see
    /// [`capnarena_codegen::Options::owned_values`]). Off by default: the
    /// values add code, and so build time, that only their users need.
    pub fn owned_values(mut self, on: bool) -> Self {
        self.codegen = self.codegen.owned_values(on);
        self
    }

    /// Also generate `serde` impls of the plain values and enums, in the
    /// reference's JSON form (turns [`Config::owned_values`] on; see
    /// [`capnarena_codegen::Options::serde`]). The generated code then
    /// needs the `capnarena` dependency's `serde` feature. Off by default.
    pub fn serde(mut self, on: bool) -> Self {
        self.codegen = self.codegen.serde(on);
        self
    }

    /// Also compile each struct's, enum's and interface's schema node into
    /// the generated code, for loading run-time schemas from the generated
    /// types (`capnarena-dynamic`; see
    /// [`capnarena_codegen::Options::schema_nodes`]). Off by default.
    pub fn schema_nodes(mut self, on: bool) -> Self {
        self.codegen = self.codegen.schema_nodes(on);
        self
    }

    /// Checks the compiled schemas against the snapshot at `path`, a saved
    /// CodeGeneratorRequest of an earlier version, as `buf breaking`
    /// checks against the last release. Feature `compat`.
    ///
    /// ```no_run
    /// // build.rs
    /// fn main() -> Result<(), capnarena_build::Error> {
    ///     capnarena_build::Config::new()
    ///         .src_prefix("schema")
    ///         .file("schema/addressbook.capnp")
    ///         .compat_snapshot("schema/addressbook.compat.bin")
    ///         .compile()
    /// }
    /// ```
    ///
    /// Commit the snapshot. Write it, and write it anew at each release,
    /// with the variable [`UPDATE_ENV`] set:
    ///
    /// ```text
    /// CAPNARENA_COMPAT_UPDATE=1 cargo build
    /// ```
    ///
    /// When the file exists, [`compile`](Self::compile) compares it (old)
    /// with the schemas (new) by `capnarena_dynamic::compat`'s rules. A
    /// wire-incompatible change fails the build with
    /// [`Error::Incompatible`], one `file:line:col: error[rule]: message`
    /// line per change. A change that breaks only text, JSON or source
    /// names (a rename) is a cargo warning. When the file is missing,
    /// nothing is checked and a cargo warning says so. With
    /// [`UPDATE_ENV`] set to `1`, the request is written to `path` and
    /// nothing is checked. No other file is read or written.
    #[cfg(feature = "compat")]
    pub fn compat_snapshot(mut self, path: impl AsRef<Path>) -> Self {
        let allowed = self.compat.take().map(|c| c.allowed).unwrap_or_default();
        self.compat = Some(compat::Check {
            snapshot: path.as_ref().to_path_buf(),
            allowed,
        });
        self
    }

    /// Accepts changes of `rule` in the [`compat_snapshot`](Self::compat_snapshot)
    /// check: they are warnings, not errors. Feature `compat`.
    #[cfg(feature = "compat")]
    pub fn compat_allow(mut self, rule: CompatRule) -> Self {
        let check = self.compat.get_or_insert_with(compat::Check::default);
        check.allowed.push(rule);
        self
    }

    /// The `capnp compile -o-` arguments for this configuration.
    fn capnp_args(&self) -> Vec<String> {
        let mut args = vec!["compile".to_string(), "-o-".to_string()];
        for p in &self.src_prefixes {
            args.push(format!("--src-prefix={}", p.display()));
        }
        for p in &self.import_paths {
            args.push(format!("-I{}", p.display()));
        }
        if self.no_standard_import {
            args.push("--no-standard-import".into());
        }
        args.extend(self.files.iter().map(|f| f.display().to_string()));
        args
    }

    /// The CodeGeneratorRequest for the files (framed), from the built-in
    /// compiler or, with [`use_capnp`](Self::use_capnp), `capnp compile -o-`.
    ///
    /// # Errors
    /// A schema is rejected ([`Error::Schema`], every error as a `file:line:col:
    /// error: message` line), or `capnp` cannot be run or fails.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::fs;
    ///
    /// let dir = std::env::temp_dir().join(format!("capnarena-build-req-{}", std::process::id()));
    /// fs::create_dir_all(&dir)?;
    /// fs::write(dir.join("empty.capnp"), "@0xe3c1d1b4f1d2a7e7;\n")?;
    ///
    /// // What `capnp compile -o-` writes: a framed message.
    /// let request = capnarena_build::Config::new().file(dir.join("empty.capnp")).request()?;
    /// assert_eq!(request.len() % 8, 0);
    /// # fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn request(&self) -> Result<Vec<u8>, Error> {
        self.request_to(&mut io::sink())
    }

    /// The request, with the cargo directives of the compile written to
    /// `cargo`: `rerun-if-changed` for every file read (with `capnp`, the
    /// named files only) and a `warning` per compiler warning.
    fn request_to(&self, cargo: &mut dyn Write) -> Result<Vec<u8>, Error> {
        if self.use_capnp {
            for f in &self.files {
                directive(cargo, "rerun-if-changed", &f.display().to_string());
            }
            directive(cargo, "rerun-if-env-changed", "CAPNP");
            return self.capnp_request(cargo);
        }
        let mut c = capnarena_compiler::Compiler::new();
        for p in &self.src_prefixes {
            c = c.src_prefix(p);
        }
        for p in &self.import_paths {
            c = c.import_path(p);
        }
        if self.no_standard_import {
            c = c.no_standard_import();
        }
        for f in &self.files {
            c = c.file(f);
        }
        let report = c.compile_report();
        for path in &report.files_read {
            directive(cargo, "rerun-if-changed", &path.display().to_string());
        }
        // A named file that could not be read: watch it too, so that
        // creating it reruns the build.
        for f in &self.files {
            if !f.is_file() {
                directive(cargo, "rerun-if-changed", &f.display().to_string());
            }
        }
        for w in &report.warnings {
            let text = if w.file.is_empty() {
                w.message.clone()
            } else {
                w.to_string()
            };
            directive(cargo, "warning", &text);
        }
        report.request.map_err(Error::Schema)
    }

    /// The request from `capnp compile -o-`; what it prints on success
    /// (its warnings) goes to `cargo` as warnings.
    fn capnp_request(&self, cargo: &mut dyn Write) -> Result<Vec<u8>, Error> {
        let capnp = self
            .capnp
            .clone()
            .or_else(|| std::env::var_os("CAPNP").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("capnp"));
        let output = match Command::new(&capnp).args(self.capnp_args()).output() {
            Ok(o) => o,
            Err(error) => {
                return Err(Error::CapnpNotRun {
                    binary: capnp,
                    error,
                });
            }
        };
        if !output.status.success() {
            return Err(Error::CapnpFailed {
                binary: capnp,
                status: output.status,
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            });
        }
        for line in String::from_utf8_lossy(&output.stderr).lines() {
            if !line.trim().is_empty() {
                directive(cargo, "warning", line);
            }
        }
        Ok(output.stdout)
    }

    /// Compiles the files and writes one Rust file per schema file into the
    /// output directory. Run by cargo (from a build script), it prints
    /// `cargo:rerun-if-changed` for every file the compile read (the
    /// schemas, the schemas they import, the files they embed; with
    /// [`use_capnp`](Self::use_capnp), the named schemas) and a
    /// `cargo:warning` line per compiler warning.
    ///
    /// # Errors
    /// No output directory (outside a build script, without
    /// [`out_dir`](Self::out_dir)), no files, a schema rejected, `capnp`
    /// missing or failing (with [`use_capnp`](Self::use_capnp)), the
    /// generator failing, or a file not written. The error's `Debug`
    /// is readable text, one schema error per line.
    ///
    /// # Examples
    ///
    /// A schema error names the file, line and column:
    ///
    /// ```
    /// use std::fs;
    ///
    /// let dir = std::env::temp_dir().join(format!("capnarena-build-err-{}", std::process::id()));
    /// fs::create_dir_all(&dir)?;
    /// let schema = "@0xe3c1d1b4f1d2a7e6;\nstruct Point { x @0 :Int32; y @1 :Strin; }\n";
    /// fs::write(dir.join("point.capnp"), schema)?;
    ///
    /// let err = capnarena_build::Config::new()
    ///     .file(dir.join("point.capnp"))
    ///     .out_dir(&dir)
    ///     .compile()
    ///     .unwrap_err();
    /// let text = format!("{err:?}");
    /// assert!(text.contains("point.capnp:2:"), "{text}");
    /// assert!(text.contains("Strin"), "{text}");
    /// # fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compile(&self) -> Result<(), Error> {
        let mut cargo = Vec::new();
        let update = std::env::var_os(UPDATE_ENV).is_some_and(|v| v == "1");
        let result = self.compile_env(&mut cargo, update);
        if std::env::var_os("CARGO").is_some() {
            print!("{}", String::from_utf8_lossy(&cargo));
        }
        result
    }

    /// [`compile`](Self::compile), with cargo's directives written to
    /// `cargo`, not updating a compatibility snapshot.
    #[cfg(test)]
    fn compile_to(&self, cargo: &mut dyn Write) -> Result<(), Error> {
        self.compile_env(cargo, false)
    }

    /// [`compile`](Self::compile), with cargo's directives written to
    /// `cargo`; `update`: write the compatibility snapshot, do not check.
    fn compile_env(&self, cargo: &mut dyn Write, update: bool) -> Result<(), Error> {
        if self.files.is_empty() {
            return Err(Error::NoFiles);
        }
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let request = self.request_to(cargo)?;
        #[cfg(feature = "compat")]
        if let Some(check) = &self.compat {
            check.run(&request, &self.files, update, cargo)?;
        }
        #[cfg(not(feature = "compat"))]
        let _ = update;
        let files =
            capnarena_codegen::generate(&request, &self.codegen).map_err(Error::Generate)?;
        std::fs::create_dir_all(&out_dir).map_err(|error| Error::Write {
            path: out_dir.clone(),
            error,
        })?;
        for f in files {
            let path = out_dir.join(&f.name);
            std::fs::write(&path, f.contents).map_err(|error| Error::Write { path, error })?;
        }
        Ok(())
    }
}

/// Writes `cargo:KEY=VALUE`, on one line (a line break in the value
/// would end the directive).
fn directive(cargo: &mut dyn Write, key: &str, value: &str) {
    let value = value.replace(['\n', '\r'], " ");
    let _ = writeln!(cargo, "cargo:{key}={value}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory of its own for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("capnarena-build-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A missing `capnp` is an error that says what to install, not a panic
    /// or a bare "not found", and keeps its kind as an `io::Error`.
    #[test]
    fn missing_capnp_says_what_to_install() {
        let dir = scratch("missing-capnp");
        let err = Config::new()
            .file("x.capnp")
            .out_dir(&dir)
            .capnp_binary("/nonexistent/capnp")
            .compile()
            .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("apt-get install capnproto"), "{text}");
        assert!(text.contains("/nonexistent/capnp"), "{text}");
        assert_eq!(io::Error::from(err).kind(), io::ErrorKind::NotFound);
    }

    /// A schema error fails the build as a compiler reports it: what a
    /// build script's `main` prints (`Error: ` and the error's `Debug`)
    /// has one `path:line:col: error: message` line per error, the path
    /// as given to `file` and `import_path` (regression, issue 23: the
    /// README's `io::Result` main printed one Debug line with escaped
    /// line breaks, and the paths relative to the src prefix and the
    /// import directory).
    #[test]
    fn schema_errors_print_one_per_line() {
        let dir = scratch("bad");
        std::fs::create_dir_all(dir.join("schema")).unwrap();
        std::fs::create_dir_all(dir.join("inc/lib")).unwrap();
        std::fs::write(
            dir.join("schema/bad.capnp"),
            "@0xd4c9b2f6a1e0c3b8;\nusing L = import \"/lib/l.capnp\";\nstruct A { x @0 :Nope; l @1 :L.L; }\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("inc/lib/l.capnp"),
            "@0xd4c9b2f6a1e0c3b9;\nstruct L { y @0 :Nope2; }\n",
        )
        .unwrap();
        let schema = dir.join("schema/bad.capnp");
        let inc = dir.join("inc");
        let err = Config::new()
            .no_standard_import()
            .src_prefix(dir.join("schema"))
            .import_path(&inc)
            .file(&schema)
            .out_dir(dir.join("out"))
            .compile()
            .unwrap_err();
        let printed = format!("Error: {err:?}");
        assert_eq!(
            printed.lines().collect::<Vec<_>>(),
            [
                "Error: 2 errors in the Cap'n Proto schemas:".to_string(),
                format!("{}:3:18: error: Not defined: Nope", schema.display()),
                format!(
                    "{}/lib/l.capnp:2:18: error: Not defined: Nope2",
                    inc.display()
                ),
            ]
        );
        assert_eq!(err.to_string(), format!("{err:?}"));
        // Through `?` into an io::Error, the text is kept, line breaks
        // and all.
        let io = io::Error::from(err);
        assert_eq!(io.kind(), io::ErrorKind::InvalidData);
        assert!(format!("{io:?}").contains(&format!(
            "\n{}:3:18: error: Not defined: Nope\n",
            schema.display()
        )));
    }

    /// Every file the compile read is watched: the named schema, the
    /// schema it imports (found under an import directory) and the file
    /// it embeds, so editing any of them reruns the build script
    /// (regression: only the named schemas were, so an edited import or
    /// embed left stale generated code).
    #[test]
    fn every_file_read_is_watched() {
        let dir = scratch("rerun");
        std::fs::create_dir_all(dir.join("schema")).unwrap();
        std::fs::create_dir_all(dir.join("inc/lib")).unwrap();
        std::fs::write(
            dir.join("schema/a.capnp"),
            "@0xd4c9b2f6a1e0c3b8;\nusing L = import \"/lib/l.capnp\";\nconst e :Data = embed \"blob.bin\";\nstruct A { l @0 :L.L; }\n",
        )
        .unwrap();
        std::fs::write(dir.join("schema/blob.bin"), b"\x01\x02").unwrap();
        std::fs::write(
            dir.join("inc/lib/l.capnp"),
            "@0xd4c9b2f6a1e0c3b9;\nstruct L { y @0 :UInt8; }\n",
        )
        .unwrap();
        let mut cargo = Vec::new();
        Config::new()
            .no_standard_import()
            .src_prefix(dir.join("schema"))
            .import_path(dir.join("inc"))
            .file(dir.join("schema/a.capnp"))
            .out_dir(dir.join("out"))
            .compile_to(&mut cargo)
            .unwrap();
        let cargo = String::from_utf8(cargo).unwrap();
        let lines: Vec<&str> = cargo.lines().collect();
        for file in ["schema/a.capnp", "inc/lib/l.capnp", "schema/blob.bin"] {
            let want = format!("cargo:rerun-if-changed={}", dir.join(file).display());
            assert!(lines.contains(&want.as_str()), "{want} missing:\n{cargo}");
        }
        assert!(dir.join("out/a_capnp.rs").is_file());
    }

    /// The compiler's warnings reach cargo as `cargo:warning` lines, one
    /// line each, from the built-in compiler and from `capnp` (regression:
    /// they were dropped).
    #[test]
    fn warnings_become_cargo_warnings() {
        // One file reached through two paths: as `inc/x.capnp` by the
        // relative import and as `x.capnp` under the import directory
        // `inc`, the reference's overlapping-directories warning.
        let dir = scratch("warn");
        std::fs::create_dir_all(dir.join("inc")).unwrap();
        std::fs::write(
            dir.join("a.capnp"),
            "@0xd4c9b2f6a1e0c3b8;\nusing X = import \"inc/x.capnp\";\nusing Y = import \"/x.capnp\";\nstruct A { x @0 :X.X; y @1 :Y.X; }\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("inc/x.capnp"),
            "@0xd4c9b2f6a1e0c3b9;\nstruct X { y @0 :UInt8; }\n",
        )
        .unwrap();
        let config = Config::new()
            .no_standard_import()
            .src_prefix(&dir)
            .import_path(dir.join("inc"))
            .file(dir.join("a.capnp"))
            .out_dir(dir.join("out"));
        // The built-in compiler, then (when installed) the reference tool.
        let mut runs = vec![config.clone()];
        if let Some(capnp) = which_capnp() {
            runs.push(config.capnp_binary(capnp));
        }
        for config in runs {
            let mut cargo = Vec::new();
            config.compile_to(&mut cargo).unwrap();
            let cargo = String::from_utf8(cargo).unwrap();
            let warnings: Vec<&str> = cargo
                .lines()
                .filter(|l| l.starts_with("cargo:warning="))
                .collect();
            // The built-in compiler's one warning; `capnp` prints
            // context lines (and its own notes) around it.
            assert!(
                warnings.iter().any(|w| w
                    .contains("Found exactly the same source file mapped at two different paths.")),
                "{cargo}"
            );
            if !config.use_capnp {
                assert_eq!(warnings.len(), 1, "{cargo}");
            }
        }
    }

    /// `capnp` on PATH, or `None` with a SKIP line (a failure under
    /// `CAPNARENA_REQUIRE_PEER=1`).
    fn which_capnp() -> Option<PathBuf> {
        let found = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join("capnp"))
                .find(|p| p.is_file())
        });
        if found.is_none() {
            let skip = "SKIP the reference's warnings: capnp not on PATH (install Debian package capnproto)";
            if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
                panic!("{skip}");
            }
            let _ = writeln!(io::stdout(), "{skip}");
        }
        found
    }

    /// Without files there is nothing to do, and the error says so.
    #[test]
    fn no_files_is_an_error() {
        let err = Config::new().out_dir("/tmp").compile().unwrap_err();
        assert!(matches!(err, Error::NoFiles));
        assert_eq!(io::Error::from(err).kind(), io::ErrorKind::InvalidInput);
    }

    /// The options map onto `capnp compile`'s arguments in order.
    #[test]
    fn capnp_arguments() {
        let c = Config::new()
            .src_prefix("schema")
            .import_path("inc")
            .no_standard_import()
            .file("schema/a.capnp")
            .file("schema/b.capnp");
        assert_eq!(
            c.capnp_args(),
            [
                "compile",
                "-o-",
                "--src-prefix=schema",
                "-Iinc",
                "--no-standard-import",
                "schema/a.capnp",
                "schema/b.capnp"
            ]
        );
    }
}
