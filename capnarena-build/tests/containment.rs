//! A schema compiled through the build helper reads nothing it was not
//! given: the built-in compiler's containment rules (imports and embeds
//! stay under the import directories and the starting directory of each
//! named file) hold through `Config` as they do through the compiler's
//! own API.

use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "capnarena-build-containment-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("schema")).expect("mkdir");
    std::fs::write(dir.join("secret.txt"), "top secret\n").expect("write");
    dir
}

/// An embed that climbs out of the `--src-prefix` directory, and an
/// absolute embed, are schema errors (regression: both read the file,
/// and its text went into the generated Rust).
#[test]
fn escaping_embeds_are_schema_errors() {
    let dir = scratch("embed");
    let secret = dir.join("secret.txt");
    for name in ["../secret.txt".to_string(), secret.display().to_string()] {
        let schema = dir.join("schema/t.capnp");
        std::fs::write(
            &schema,
            format!("@0xd0a4c1b3e2f50608;\nconst c :Text = embed \"{name}\";\n"),
        )
        .expect("write");
        let err = capnarena_build::Config::new()
            .no_standard_import()
            .src_prefix(dir.join("schema"))
            .file(&schema)
            .out_dir(dir.join("out"))
            .request()
            .expect_err("escaping embed compiled");
        let text = err.to_string();
        assert!(
            text.contains(&format!(
                "t.capnp:2:23: error: Couldn't read file for embed: {name}"
            )),
            "{text}"
        );
        assert!(!text.contains("top secret"));
    }
}
