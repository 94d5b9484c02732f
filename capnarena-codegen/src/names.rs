//! Naming: how schema names become Rust names, and the one rule for
//! collisions. Every identifier the generator takes from a schema passes
//! through this module.
//!
//! # The rule
//! 1. Case: modules (structs, groups, interfaces, a method's implicit
//!    parameter and result structs) and field method stems are
//!    `snake_case`; enums, enumerants, union members in `Which` and
//!    generic parameters are `PascalCase`; constants are
//!    `SCREAMING_SNAKE_CASE`. An annotation `foo` is spelled
//!    `fooAnnotationId`: the constant of its id, `FOO_ANNOTATION_ID`. Words split at lower-to-upper changes and
//!    before the last capital of a run (`HTTPServer` -> `http_server`).
//! 2. Namespaces: the items of one module (nested modules, enums,
//!    constants), the methods of one struct's reader and builder, the
//!    variants of one enum or `Which`, the generic parameters of one
//!    struct. A name is taken when it is a Rust keyword (strict or
//!    reserved, any edition; see [`KEYWORDS`]), or one the generated code
//!    itself uses in that namespace ([`MODULE_RESERVED`],
//!    [`METHOD_RESERVED`], [`TYPE_PARAM_RESERVED`]).
//! 3. A field claims every method it gets: `get_`, `set_`, `has_` and
//!    `init_` + stem, `initn_` + stem (a field whose type is a generic
//!    parameter), and `get_` + stem + `_bytes` (text),
//!    `set_` + stem + `_from_slice` (lists of numbers and bools),
//!    `set_` + stem + `_from_iter` (lists of text and data).
//! 4. Names of one namespace are placed in rank order: first those spelled
//!    as the plain camelCase of their words (`fooBar`, `Foo`; not
//!    `fooBAR`, `FOO`), then by schema spelling (byte order). Each gets its
//!    converted name, with a trailing `_` added while that name (for a
//!    field: any method it claims) is taken. So `type` -> `type_`, an enum
//!    `Reader` -> `Reader_`, a field `from` -> `get_from_` and `set_from_`,
//!    `fooBar` and `fooBAR` -> `foo_bar` and `foo_bar_`, `l` and
//!    `lFromSlice` -> `set_l_from_slice` and `set_l_from_slice_`, a group
//!    `g` and a nested struct `G` -> modules `g_` and `g` (both plain; `G`
//!    sorts first). The names depend on the set of names only, never on
//!    their order in the schema.
//!
//! Generic parameters are placed in scope order, outermost scope first.

use std::collections::HashSet;

/// Rust's strict and reserved keywords of every edition.
pub const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// The items a generated module declares itself, and the prelude's and
/// crates' names it must not shadow: taken among a module's items.
pub const MODULE_RESERVED: &[&str] = &[
    "Reader",
    "Builder",
    "Owned",
    "Which",
    "WhichBuilder",
    "Params",
    "TYPE_ID",
    "STRUCT_SIZE",
    "FILE_ID",
    "Result",
    "Option",
    "Ok",
    "Err",
    "Some",
    "None",
    "std",
    "core",
    "alloc",
];

/// The methods of a generated reader and builder that are not a field's:
/// taken among field methods.
pub const METHOD_RESERVED: &[&str] = &[
    "set_from",
    "reborrow",
    "which",
    "with_reader",
    "write_text",
    "as_struct_reader",
    "total_size",
    "reborrow_as_reader",
    "into_reader",
    "as_struct_builder",
    "into_struct_builder",
];

/// The generated code's own type parameters (the arena `A`; `R` of
/// `with_reader`, `I` of `set_*_from_iter`, the server `S` of an
/// interface's typed RPC code, `D` of a value's `Deserialize`) and the types a struct's or an interface's
/// module names unqualified: taken among generic parameters.
pub const TYPE_PARAM_RESERVED: &[&str] = &[
    "A",
    "R",
    "I",
    "S",
    "Client",
    "Server",
    "Reader",
    "Builder",
    "Owned",
    "Which",
    "WhichBuilder",
    "Params",
    "D",
    "Value",
    "ValueRef",
    "WhichValue",
    "WhichRef",
];

/// How a kind of name is spelled in Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// `snake_case`.
    Snake,
    /// `PascalCase`.
    Pascal,
    /// `SCREAMING_SNAKE_CASE`.
    Screaming,
}

/// `name` converted to `case`, nothing escaped.
pub fn convert(name: &str, case: Case) -> String {
    match case {
        Case::Snake => snake_raw(name),
        Case::Pascal => pascal_raw(name),
        Case::Screaming => snake_raw(name).to_ascii_uppercase(),
    }
}

/// Whether `name` is spelled as the plain camelCase of its words (its
/// first letter in either case): such names rank first.
fn plain(name: &str) -> bool {
    let pascal = pascal_raw(name);
    let mut lower = pascal.clone();
    if let Some(first) = lower.get_mut(..1) {
        first.make_ascii_lowercase();
    }
    name == pascal || name == lower
}

/// The order the names of one namespace are placed in (rule 4), as
/// indexes into `spellings`.
fn rank(spellings: &[&str]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..spellings.len()).collect();
    order.sort_by_key(|&i| (!plain(spellings[i]), spellings[i]));
    order
}

/// Rust names for the schema names `names` (spelling and case) of one
/// namespace where `reserved` is taken, by the rule of the module docs;
/// in the order of `names`.
pub fn assign(names: &[(&str, Case)], reserved: &[&str]) -> Vec<String> {
    let spellings: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
    let mut taken: HashSet<String> = reserved.iter().map(|s| s.to_string()).collect();
    let mut out = vec![String::new(); names.len()];
    for i in rank(&spellings) {
        let (name, case) = names[i];
        let mut rust = convert(name, case);
        while KEYWORDS.contains(&rust.as_str()) || taken.contains(&rust) {
            rust.push('_');
        }
        taken.insert(rust.clone());
        out[i] = rust;
    }
    out
}

/// A field method's form: prefix, then the field's stem, then suffix.
pub type Form = (&'static str, &'static str);

/// The method names of one field: `prefix` + `stem` + `suffix` + `bump`
/// for each of its forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldMethods {
    /// The field's name in `snake_case`.
    pub stem: String,
    /// The trailing underscores that set its methods apart (usually none).
    pub bump: String,
}

impl FieldMethods {
    /// The method of form `(prefix, suffix)`.
    pub fn method(&self, (prefix, suffix): Form) -> String {
        format!("{prefix}{}{suffix}{}", self.stem, self.bump)
    }
}

/// The method names of the fields of one struct (schema name and the
/// forms of the methods each gets), by rules 3 and 4: each method is its
/// form around the field's `snake_case` name, and a trailing `_` is added
/// to all of them while any is taken; in the order of `fields`.
pub fn field_methods(fields: &[(&str, Vec<Form>)]) -> Vec<FieldMethods> {
    let spellings: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    let mut taken: HashSet<String> = METHOD_RESERVED.iter().map(|s| s.to_string()).collect();
    let mut out = vec![
        FieldMethods {
            stem: String::new(),
            bump: String::new()
        };
        fields.len()
    ];
    for i in rank(&spellings) {
        let (name, forms) = &fields[i];
        let mut names = FieldMethods {
            stem: snake_raw(name),
            bump: String::new(),
        };
        while forms.iter().any(|f| taken.contains(&names.method(*f))) {
            names.bump.push('_');
        }
        for f in forms {
            taken.insert(names.method(*f));
        }
        out[i] = names;
    }
    out
}

/// The Rust names of generic parameters `names`, given those the scopes
/// around them took (`taken`): `PascalCase`, with a trailing `_` added
/// while the name is a keyword, in [`TYPE_PARAM_RESERVED`] or taken
/// (`struct Triple(A, B, C)` names its first parameter `A_`).
pub fn type_param(name: &str, taken: &[&str]) -> String {
    let mut rust = pascal_raw(name);
    while KEYWORDS.contains(&rust.as_str())
        || TYPE_PARAM_RESERVED.contains(&rust.as_str())
        || taken.contains(&rust.as_str())
    {
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

/// `snake_case`, unescaped.
pub fn snake_raw(name: &str) -> String {
    words(name).join("_")
}

/// `PascalCase`, unescaped.
fn pascal_raw(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
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

    /// Names follow Rust conventions, and keywords and reserved names get
    /// a trailing underscore.
    #[test]
    fn conversions() {
        let one = |n: &str, c: Case, r: &[&str]| assign(&[(n, c)], r).remove(0);
        assert_eq!(
            one("displayNamePrefixLength", Case::Snake, &[]),
            "display_name_prefix_length"
        );
        assert_eq!(one("type", Case::Snake, MODULE_RESERVED), "type_");
        assert_eq!(one("HTTPServer", Case::Snake, &[]), "http_server");
        assert_eq!(one("uint64", Case::Snake, &[]), "uint64");
        assert_eq!(one("anyPointer", Case::Pascal, &[]), "AnyPointer");
        assert_eq!(one("self", Case::Pascal, &[]), "Self_");
        assert_eq!(one("reader", Case::Pascal, MODULE_RESERVED), "Reader_");
        assert_eq!(one("std", Case::Snake, MODULE_RESERVED), "std_");
        assert_eq!(one("typeId", Case::Screaming, MODULE_RESERVED), "TYPE_ID_");
        assert_eq!(
            one("noDiscriminant", Case::Screaming, &[]),
            "NO_DISCRIMINANT"
        );
        assert_eq!(type_param("a", &[]), "A_");
        assert_eq!(type_param("T", &["T"]), "T_");
        assert_eq!(file_module("/capnp/c++.capnp"), "c_capnp");
        assert_eq!(file_module("schema/all_types.capnp"), "all_types_capnp");
    }

    /// Names that reach the same Rust name are told apart by rank (plain
    /// camelCase first, then spelling), whatever their order.
    #[test]
    fn collisions_do_not_depend_on_order() {
        let names = [
            ("fooBAR", Case::Snake),
            ("fooBar", Case::Snake),
            ("g", Case::Snake),
            ("G", Case::Snake),
        ];
        let got = assign(&names, MODULE_RESERVED);
        assert_eq!(got, ["foo_bar_", "foo_bar", "g_", "g"]);
        let reversed: Vec<_> = names.iter().rev().copied().collect();
        let mut back = assign(&reversed, MODULE_RESERVED);
        back.reverse();
        assert_eq!(back, got);
    }

    /// A field's methods move away from every method another field or the
    /// generated code already has.
    #[test]
    fn field_methods_avoid_taken_methods() {
        const BASE: [Form; 4] = [("get_", ""), ("set_", ""), ("has_", ""), ("init_", "")];
        let list = [BASE.as_slice(), &[("set_", "_from_slice")]].concat();
        let text = [BASE.as_slice(), &[("get_", "_bytes")]].concat();
        let got = field_methods(&[
            ("lFromSlice", BASE.to_vec()),
            ("l", list),
            ("from", text),
            ("tBytes", BASE.to_vec()),
            ("t", [BASE.as_slice(), &[("get_", "_bytes")]].concat()),
        ]);
        let sets: Vec<String> = got.iter().map(|m| m.method(("set_", ""))).collect();
        assert_eq!(
            sets,
            [
                "set_l_from_slice_",
                "set_l",
                "set_from_",
                "set_t_bytes_",
                "set_t"
            ]
        );
        assert_eq!(got[2].method(("get_", "_bytes")), "get_from_bytes_");
        assert_eq!(got[1].method(("set_", "_from_slice")), "set_l_from_slice");
    }
}
