//! Naming: how schema names become Rust names. One rule for collisions:
//! a name that is a Rust keyword, or that a generated module already uses
//! for its own items (`Reader`, `Builder`, `Owned`, `Which`), gets a
//! trailing underscore (`type` -> `type_`, `Self` -> `Self_`).

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

const RESERVED_ITEMS: &[&str] = &["Reader", "Builder", "Owned", "Which", "TYPE_ID"];

/// `name`, with a trailing underscore when it is a keyword or a reserved
/// item name.
pub fn escape(name: String) -> String {
    if KEYWORDS.contains(&name.as_str()) || RESERVED_ITEMS.contains(&name.as_str()) {
        name + "_"
    } else {
        name
    }
}

/// The type parameters the generated code declares itself (the arena
/// `A`; `R` and `I` of `with_reader` and `set_*_from_iter`) and the types a
/// struct's module names unqualified: a schema's generic parameter may not
/// take these names.
const RESERVED_TYPE_PARAMS: &[&str] = &[
    "A",
    "R",
    "I",
    "Reader",
    "Builder",
    "Owned",
    "Which",
    "WhichBuilder",
    "Params",
];

/// The Rust name of generic parameter `name`, given the names the
/// parameters of the scopes around it already took: `PascalCase`, with a
/// trailing underscore while it is a keyword, a reserved type parameter
/// or taken (`struct Triple(A, B, C)` names its first parameter `A_`).
pub fn type_param(name: &str, taken: &[&str]) -> String {
    let mut rust = pascal(name);
    while RESERVED_TYPE_PARAMS.contains(&rust.as_str()) || taken.contains(&rust.as_str()) {
        rust.push('_');
    }
    rust
}

/// Splits a camelCase or snake_case schema name into lower-case words.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !cur.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            // "fooBar" splits before B; "HTTPServer" splits before the S.
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `snake_case`, unescaped (for method names built from it).
pub fn snake_raw(name: &str) -> String {
    words(name).join("_")
}

/// `snake_case`, escaped: a module name.
pub fn snake(name: &str) -> String {
    escape(snake_raw(name))
}

/// `PascalCase`, escaped: a type or variant name.
pub fn pascal(name: &str) -> String {
    let s: String = words(name)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    escape(s)
}

/// `SCREAMING_SNAKE_CASE`, escaped: a constant name.
pub fn screaming(name: &str) -> String {
    escape(snake_raw(name).to_ascii_uppercase())
}

/// The module a schema file's code goes in: the file's base name without
/// `.capnp`, each run of other characters than ASCII letters and digits
/// made one `_`, then `_capnp` (`c++.capnp` -> `c_capnp`).
pub fn file_module(filename: &str) -> String {
    let base = filename.rsplit('/').next().unwrap_or(filename);
    let stem = base.strip_suffix(".capnp").unwrap_or(base);
    let mut out = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    format!(
        "{}_capnp",
        if trimmed.is_empty() {
            "schema"
        } else {
            trimmed
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names follow Rust conventions and the collision rule in the module
    /// docs.
    #[test]
    fn conversions() {
        assert_eq!(
            snake("displayNamePrefixLength"),
            "display_name_prefix_length"
        );
        assert_eq!(snake("type"), "type_");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("uint64"), "uint64");
        assert_eq!(pascal("anyPointer"), "AnyPointer");
        assert_eq!(pascal("self"), "Self_");
        assert_eq!(pascal("reader"), "Reader_");
        assert_eq!(screaming("noDiscriminant"), "NO_DISCRIMINANT");
        assert_eq!(file_module("/capnp/c++.capnp"), "c_capnp");
        assert_eq!(file_module("schema/all_types.capnp"), "all_types_capnp");
    }
}
