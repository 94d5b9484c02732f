//! The compatibility check of [`Config::compat_snapshot`](crate::Config::compat_snapshot):
//! the compiled request against a saved one, by
//! `capnarena_dynamic::compat`'s rules.

use std::io::Write;
use std::path::{Path, PathBuf};

use capnarena_dynamic::compat::{self, CompatSchema, Rule, Verdict};

use crate::{Error, UPDATE_ENV, directive};

/// What to check against, and what to accept.
#[derive(Clone, Debug, Default)]
pub(crate) struct Check {
    pub(crate) snapshot: PathBuf,
    pub(crate) allowed: Vec<Rule>,
}

impl Check {
    /// Checks `request` (the schemas `files` compiled) against the
    /// snapshot, or writes it there when `update`. Cargo reruns the build
    /// when the snapshot or [`UPDATE_ENV`] changes.
    ///
    /// # Errors
    /// [`Error::Incompatible`] with each wire-incompatible change not
    /// allowed; [`Error::Snapshot`] when the snapshot cannot be read,
    /// loaded or written, or the request cannot be loaded.
    pub(crate) fn run(
        &self,
        request: &[u8],
        files: &[PathBuf],
        update: bool,
        cargo: &mut dyn Write,
    ) -> Result<(), Error> {
        let path = &self.snapshot;
        directive(cargo, "rerun-if-changed", &path.display().to_string());
        directive(cargo, "rerun-if-env-changed", UPDATE_ENV);
        let problem = |problem: String| Error::Snapshot {
            path: path.clone(),
            problem,
        };
        if update {
            std::fs::write(path, request).map_err(|e| problem(format!("not written: {e}")))?;
            let note = format!(
                "wrote the compatibility snapshot {} ({} bytes); commit it",
                path.display(),
                request.len()
            );
            directive(cargo, "warning", &note);
            return Ok(());
        }
        let old = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let note = format!(
                    "no compatibility snapshot at {}: nothing checked (write it with {UPDATE_ENV}=1 cargo build)",
                    path.display()
                );
                directive(cargo, "warning", &note);
                return Ok(());
            }
            Err(e) => return Err(problem(format!("not read: {e}"))),
        };
        let old = CompatSchema::from_request_bytes(&old)
            .map_err(|e| problem(format!("not a CodeGeneratorRequest: {e}")))?;
        let mut new = CompatSchema::from_request_bytes(request)
            .map_err(|e| problem(format!("the compiled schemas do not load: {e}")))?;
        new = with_positions(new, files);
        let report = compat::check(&old, &new);
        let mut errors = Vec::new();
        for finding in &report.findings {
            let allowed = self.allowed.contains(&finding.rule);
            match finding.verdict() {
                Verdict::Incompatible if !allowed => errors.push(finding.to_string()),
                Verdict::Incompatible | Verdict::BinaryOnly => {
                    let first = finding.to_string();
                    let line = first.lines().next().unwrap_or_default();
                    directive(cargo, "warning", line);
                }
                Verdict::Compatible => {}
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::Incompatible {
                snapshot: path.clone(),
                findings: errors,
            })
        }
    }
}

/// `schema` with the positions of its requested files' declarations,
/// read from the files given to the build (the ones the compiler read),
/// each matched to the request's name for it by its path's last
/// components.
fn with_positions(mut schema: CompatSchema, files: &[PathBuf]) -> CompatSchema {
    let names: Vec<String> = schema
        .loaded()
        .schema()
        .files()
        .map(|(_, n)| n.to_owned())
        .collect();
    for name in names {
        let found = files.iter().find(|f| ends_with(f, &name));
        if let Some(file) = found {
            if let Ok(text) = std::fs::read(file) {
                schema = schema.with_source(&name, &file.display().to_string(), &text);
            }
        }
    }
    schema
}

/// Whether `path` ends with the components of `name` (`"dir/a.capnp"`).
fn ends_with(path: &Path, name: &str) -> bool {
    let name = Path::new(name.trim_start_matches('/'));
    path.ends_with(name)
}

#[cfg(test)]
mod tests {
    use crate::{CompatRule, Config, Error};
    use std::path::PathBuf;

    /// A scratch directory holding `schema/app.capnp` with `text`.
    fn project(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "capnarena-build-compat-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("schema")).unwrap();
        std::fs::write(dir.join("schema/app.capnp"), text).unwrap();
        dir
    }

    const V1: &str =
        "@0xd3bd7ff1e1ed8b6a;\nstruct Item {\n  name @0 :Text;\n  count @1 :UInt32;\n}\n";

    fn config(dir: &std::path::Path) -> Config {
        Config::new()
            .no_standard_import()
            .src_prefix(dir.join("schema"))
            .file(dir.join("schema/app.capnp"))
            .out_dir(dir.join("out"))
            .compat_snapshot(dir.join("schema/app.compat.bin"))
    }

    /// Runs the build of `dir` with the schema `text`: its result and the
    /// cargo lines it printed.
    fn build(dir: &std::path::Path, text: &str, c: Config) -> (Result<(), Error>, String) {
        std::fs::write(dir.join("schema/app.capnp"), text).unwrap();
        let mut cargo = Vec::new();
        let r = c.compile_env(&mut cargo, false);
        (r, String::from_utf8(cargo).unwrap())
    }

    /// The snapshot is written only on request; without it the build
    /// passes with a warning that names the variable to set; once it is
    /// written, a compatible change (a field added) passes silently.
    #[test]
    fn snapshot_written_on_request_then_checked() {
        let dir = project("write", V1);
        let snapshot = dir.join("schema/app.compat.bin");
        let (r, cargo) = build(&dir, V1, config(&dir));
        r.unwrap();
        assert!(!snapshot.exists());
        assert!(
            cargo.contains("cargo:warning=no compatibility snapshot at")
                && cargo.contains("CAPNARENA_COMPAT_UPDATE=1 cargo build"),
            "{cargo}"
        );
        let mut cargo = Vec::new();
        config(&dir).compile_env(&mut cargo, true).unwrap();
        let written = std::fs::read(&snapshot).unwrap();
        assert_eq!(written, config(&dir).request().unwrap());
        let cargo = String::from_utf8(cargo).unwrap();
        assert!(
            cargo.contains(&format!("cargo:rerun-if-changed={}", snapshot.display()))
                && cargo.contains("cargo:rerun-if-env-changed=CAPNARENA_COMPAT_UPDATE"),
            "{cargo}"
        );
        let v2 = V1.replace("}\n", "  tag @2 :Text;\n}\n");
        let (r, cargo) = build(&dir, &v2, config(&dir));
        r.unwrap();
        assert!(!cargo.contains("cargo:warning"), "{cargo}");
        assert!(dir.join("out/app_capnp.rs").is_file());
    }

    /// A wire-incompatible change fails the build with one compiler-like
    /// line per change, at the changed field's line and column in the
    /// file as given, and no code is generated; a rename is a warning.
    #[test]
    fn incompatible_change_fails_the_build() {
        let dir = project("break", V1);
        config(&dir).compile_env(&mut Vec::new(), true).unwrap();
        std::fs::remove_dir_all(dir.join("out")).unwrap();
        let v2 = V1
            .replace("count @1 :UInt32", "count @1 :UInt64")
            .replace("name @0", "title @0");
        let (r, cargo) = build(&dir, &v2, config(&dir));
        let err = r.unwrap_err();
        assert!(matches!(err, Error::Incompatible { .. }), "{err}");
        let text = format!("{err:?}");
        let lines: Vec<&str> = text.lines().collect();
        let schema = dir.join("schema/app.capnp");
        assert_eq!(
            lines[0],
            format!(
                "1 incompatible change to the Cap'n Proto schemas since the snapshot {}:",
                dir.join("schema/app.compat.bin").display()
            )
        );
        assert!(
            lines[1].starts_with(&format!(
                "{}:4:3: error[field-type-changed]:",
                schema.display()
            )),
            "{text}"
        );
        assert!(
            text.ends_with("CAPNARENA_COMPAT_UPDATE=1 cargo build"),
            "{text}"
        );
        assert!(
            cargo.contains(&format!(
                "cargo:warning={}:3:3: warning[field-renamed]",
                schema.display()
            )),
            "{cargo}"
        );
        assert!(!dir.join("out/app_capnp.rs").exists());
        // Allowed, the same change is a warning and the build passes.
        let (r, cargo) = build(
            &dir,
            &v2,
            config(&dir).compat_allow(CompatRule::FieldTypeChanged),
        );
        r.unwrap();
        assert!(
            cargo.contains("error[field-type-changed]"),
            "allowed changes still show: {cargo}"
        );
    }

    /// A snapshot that is not a request is an error naming the file, not
    /// a panic and not a silent pass.
    #[test]
    fn corrupt_snapshot_is_an_error() {
        let dir = project("corrupt", V1);
        std::fs::write(dir.join("schema/app.compat.bin"), b"not a message").unwrap();
        let (r, _) = build(&dir, V1, config(&dir));
        let err = r.unwrap_err();
        assert!(matches!(err, Error::Snapshot { .. }), "{err}");
        assert!(err.to_string().contains("app.compat.bin"), "{err}");
    }
}
