//! Compiles every `.capnp` file under `/usr/include/capnp` (Debian's
//! libcapnp-dev) with capnarena-build, and writes `mods.rs` including each
//! generated module.

use std::path::{Path, PathBuf};

fn schemas(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            schemas(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "capnp") {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    let root = Path::new("/usr/include/capnp");
    let mut files = Vec::new();
    schemas(root, &mut files).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("{}: {e} (install libcapnp-dev)", root.display()),
        )
    })?;
    files.sort();
    capnarena_build::Config::new()
        .src_prefix("/usr/include")
        .files(&files)
        .compile()?;
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut mods = String::new();
    for f in &files {
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let module = format!(
            "{}_capnp",
            stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
                .trim_matches('_')
        );
        let module = module.replace("__", "_");
        mods.push_str(&format!("capnarena::include_generated!(\n    #[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags, rustdoc::bare_urls)]\n    pub mod {module}\n);\n"));
    }
    std::fs::write(out.join("mods.rs"), mods)?;
    println!("cargo:rerun-if-changed=/usr/include/capnp");
    Ok(())
}
