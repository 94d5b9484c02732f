//! The schema file a command names, compiled in process, and the names
//! looked up in it.

use capnarena_compiler::Compiler;
use capnarena_dynamic::{LoadedSchema, Schema};

/// Where imports are looked for: `-I` and `--no-standard-import`.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// `-I DIR`, in order.
    pub import_paths: Vec<String>,
    /// `--no-standard-import`.
    pub no_standard_import: bool,
}

/// Compiles `file` (and what it imports) and loads it: with `only`, as
/// the reference loads a schema for a type or constant it is given, only
/// the declaration that name reaches and what it depends on (see
/// [`Compiler::declaration`]), so that errors elsewhere in the file or in
/// files only other declarations import do not stop the command.
///
/// # Errors
/// The compiler's diagnostics, one `file:line:col: error: message` line
/// each, or the loader's error.
pub fn load(
    file: &str,
    imports: &ImportOptions,
    only: Option<&str>,
) -> Result<LoadedSchema, String> {
    let mut compiler = Compiler::new();
    if let Some(name) = only {
        compiler = compiler.declaration(name);
    }
    for dir in &imports.import_paths {
        compiler = compiler.import_path(dir);
    }
    if imports.no_standard_import {
        compiler = compiler.no_standard_import();
    }
    let compiler = compiler.file(file);
    match LoadedSchema::compile(&compiler) {
        Ok(s) => Ok(s),
        Err(capnarena_dynamic::Error::Compile(d)) => Err(d.to_string().trim_end().to_string()),
        Err(e) => Err(format!("{file}: {e}")),
    }
}

/// The id of the file the command named (the one requested file).
pub fn file_id(schema: &Schema<'_>) -> Result<u64, String> {
    schema
        .files()
        .next()
        .map(|(id, _)| id)
        .ok_or_else(|| "the schema has no file".to_string())
}

/// The node named by the `.`-separated path `parts` under `scope`.
///
/// # Errors
/// `Not defined: NAME`, with the 1-based byte range of NAME in `whole`.
pub fn lookup(schema: &Schema<'_>, scope: u64, name: &str) -> Result<u64, String> {
    let mut id = scope;
    let mut start = 0usize;
    for part in name.split('.') {
        let found = schema
            .nested(id)
            .map_err(|e| e.to_string())?
            .find(|(n, _)| *n == part)
            .map(|(_, i)| i);
        match found {
            Some(next) => id = next,
            None => {
                return Err(format!(
                    "{}-{}: Not defined: {part}",
                    start + 1,
                    start + part.len()
                ));
            }
        }
        start += part.len() + 1;
    }
    Ok(id)
}
