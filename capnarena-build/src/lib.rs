//! Compiles Cap'n Proto schemas to typed [capnarena] Rust from a build
//! script, in the style of prost-build and capnpc.
//!
//! ```no_run
//! // build.rs
//! fn main() -> std::io::Result<()> {
//!     capnarena_build::Config::new()
//!         .src_prefix("schema")
//!         .file("schema/addressbook.capnp")
//!         .compile()
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs: the module sits anywhere in the crate.
//! capnarena::include_generated!(pub mod addressbook_capnp);
//! ```
//!
//! Each schema file `foo.capnp` becomes `$OUT_DIR/foo_capnp.rs`. The schemas
//! are compiled in Rust by [`capnarena_compiler`], so no `capnp` binary is
//! needed; [`Config::use_capnp`] (or [`Config::capnp_binary`]) runs the
//! reference `capnp compile -o-` instead. Either way the
//! CodeGeneratorRequest goes to [`capnarena_codegen`], and the generated
//! Rust is the same.
//!
//! [capnarena]: https://docs.rs/capnarena

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to compile and where the Rust goes. Every option is a method;
/// [`compile`](Config::compile) runs it.
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
}

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

    /// The runtime crate's path in generated code (default `::capnarena`).
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.codegen = self.codegen.runtime_path(path);
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
    /// A schema is rejected (every error, as `file:line:col: error:
    /// message` lines), or `capnp` cannot be run (the error says what to
    /// install).
    pub fn request(&self) -> io::Result<Vec<u8>> {
        if !self.use_capnp {
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
            return c.compile().map_err(|d| {
                io::Error::new(io::ErrorKind::InvalidData, format!("schema errors:\n{d}"))
            });
        }
        self.capnp_request()
    }

    /// The request from `capnp compile -o-`.
    fn capnp_request(&self) -> io::Result<Vec<u8>> {
        let capnp = self
            .capnp
            .clone()
            .or_else(|| std::env::var_os("CAPNP").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("capnp"));
        let output = Command::new(&capnp)
            .args(self.capnp_args())
            .output()
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!(
                        "cannot run `{}` to compile Cap'n Proto schemas ({e}): {INSTALL_HINT}",
                        capnp.display()
                    ),
                )
            })?;
        if !output.status.success() {
            return Err(io::Error::other(format!(
                "`{} compile` rejected the schemas ({}):\n{}",
                capnp.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )));
        }
        Ok(output.stdout)
    }

    /// Compiles the files and writes one Rust file per schema file into the
    /// output directory; prints `cargo:rerun-if-changed` for each schema.
    ///
    /// # Errors
    /// No output directory (outside a build script, without
    /// [`out_dir`](Self::out_dir)), no files, a schema rejected, `capnp`
    /// missing or failing (with [`use_capnp`](Self::use_capnp)), or the
    /// generator failing.
    pub fn compile(&self) -> io::Result<()> {
        if self.files.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "no schema files given: call Config::file",
            ));
        }
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    io::Error::new(
                        io::ErrorKind::NotFound,
                        "OUT_DIR is not set: run from a build script or call Config::out_dir",
                    )
                })?,
        };
        let request = self.request()?;
        let files =
            capnarena_codegen::generate(&request, &self.codegen).map_err(io::Error::other)?;
        std::fs::create_dir_all(&out_dir)?;
        for f in files {
            std::fs::write(out_dir.join(&f.name), f.contents)?;
        }
        if std::env::var_os("CARGO").is_some() {
            for f in &self.files {
                println!("cargo:rerun-if-changed={}", f.display());
            }
            println!("cargo:rerun-if-env-changed=CAPNP");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A missing `capnp` is an error that says what to install, not a panic
    /// or a bare "not found".
    #[test]
    fn missing_capnp_says_what_to_install() {
        let dir = std::env::temp_dir().join("capnarena-build-missing-capnp");
        let err = Config::new()
            .file("x.capnp")
            .out_dir(&dir)
            .capnp_binary("/nonexistent/capnp")
            .compile()
            .unwrap_err();
        let text = err.to_string();
        assert_eq!(err.kind(), io::ErrorKind::NotFound, "{text}");
        assert!(text.contains("apt-get install capnproto"), "{text}");
        assert!(text.contains("/nonexistent/capnp"), "{text}");
    }

    /// The built-in compiler reports a bad schema with its position.
    #[test]
    fn schema_errors_have_positions() {
        let dir = std::env::temp_dir().join(format!("capnarena-build-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.capnp");
        std::fs::write(&file, "@0xd4c9b2f6a1e0c3b8;\nstruct A { x @0 :Nope; }\n").unwrap();
        let err = Config::new()
            .file(&file)
            .out_dir(&dir)
            .compile()
            .unwrap_err();
        let text = err.to_string();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{text}");
        assert!(text.contains("bad.capnp:2:"), "{text}");
        assert!(text.contains("Nope"), "{text}");
    }

    /// Without files there is nothing to do, and the error says so.
    #[test]
    fn no_files_is_an_error() {
        let err = Config::new().out_dir("/tmp").compile().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
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
