//! Schema compatibility: is a change to a schema safe to deploy?
//!
//! [`check`] compares an old and a new schema and lists every change
//! between them. Nodes are matched by id; struct fields by ordinal, with
//! groups and unions flattened into their struct; enumerants and methods
//! by number; a name that moved to another member is caught. Each
//! [`Finding`] names its [`Rule`] (a stable kebab-case code), the
//! declaration on each side with file, line and column when the schema
//! came from text, and what breaks for whom.
//!
//! ```
//! use capnarena_dynamic::compat::{self, CompatSchema, Rule, Verdict};
//!
//! let old = CompatSchema::compile_sources(&[(
//!     "/app.capnp",
//!     "@0xd3bd7ff1e1ed8b6a;\nstruct Item {\n  name @0 :Text;\n  count @1 :UInt32;\n}\n",
//! )])?;
//! let new = CompatSchema::compile_sources(&[(
//!     "/app.capnp",
//!     "@0xd3bd7ff1e1ed8b6a;\nstruct Item {\n  name @0 :Text;\n  count @1 :UInt64;\n  tag @2 :Text;\n}\n",
//! )])?;
//! let report = compat::check(&old, &new);
//! let rules: Vec<Rule> = report.findings.iter().map(|f| f.rule).collect();
//! assert!(rules.contains(&Rule::FieldTypeChanged)); // count: UInt32 -> UInt64
//! assert!(rules.contains(&Rule::FieldAdded)); // tag @2
//! assert_eq!(report.worst(&[]), Some(Verdict::Incompatible));
//! let changed = report.findings.iter().find(|f| f.rule == Rule::FieldTypeChanged).unwrap();
//! let at = changed.new.as_ref().and_then(|l| l.position.as_ref()).unwrap();
//! assert_eq!((at.file.as_str(), at.line, at.column), ("/app.capnp", 4, 3));
//! # Ok::<(), capnarena_dynamic::Error>(())
//! ```
//!
//! # The rules
//! They are the page's ("Evolving Your Protocol" on capnproto.org's
//! schema language page); each [`Rule`] quotes its sentence. Three
//! verdicts: [`Verdict::Compatible`], [`Verdict::BinaryOnly`] (the wire
//! is unchanged, text, JSON or generated source is not: renames) and
//! [`Verdict::Incompatible`]. [`Rule::breaks`] says which direction
//! breaks: new programs reading old messages, old programs reading new
//! ones (for interfaces: old clients of new servers and the reverse).
//!
//! # Against the reference
//! The reference's `SchemaLoader` (libcapnp) also checks two versions of
//! a node when it loads the second, and the tests use it as an oracle
//! where it decides. It differs on purpose in these cases:
//! - It is symmetric and keeps the newer node: it accepts a removed
//!   field, enumerant, method or union member, since the other version
//!   may be the newer. Here a removal is an error: old readers of new
//!   messages lose the data.
//! - It matches members by position and ignores names, so two
//!   same-typed fields or enumerants that swap numbers pass. Here the
//!   name moving to another number is [`Rule::NameMoved`].
//! - It does not compare Text, Data, list or struct defaults, or generic
//!   bindings. Here each is an error.
//! - It accepts a list of structs turned back into a list of its `@0`
//!   type, the upgrade's other direction. Here that is
//!   [`Rule::ListElementChanged`]: old readers of new messages see only
//!   the first field.
//! - libcapnp 0.9.2 still upgrades `List(Bool)` to a list of structs,
//!   which the page now forbids. Here that is [`Rule::ListElementChanged`].
//! - It rejects a type made generic, the page's own example. Here that is
//!   [`Rule::MadeGeneric`] when every use binds the parameter to the type
//!   it replaced, [`Rule::GenericBindingChanged`] otherwise.
//!
//! # At run time
//! [`check_peer`] compares the schema a peer sends (a CodeGeneratorRequest
//! of any set of nodes, such as generated code carries) with the
//! program's own, for the types the two exchange only. Loading the
//! peer's schema is bounded by [`PeerLimits`]. [`request_from_generated`]
//! makes the request a program sends from its generated code's nodes.
//!
//! `tests/compat_cxx.rs` runs the reference on each pair of
//! `tests/compat.rs`'s kinds in both directions and checks that every
//! disagreement is one of these.
//!
//! # Limits
//! The comparison takes time in proportion to the two schemas: each node
//! pair is compared once and members are found by hash. It never loops
//! on a cycle of struct types and walks groups without recursion. Types
//! are compared to the depth loading allows ([`crate::limits::MAX_TYPE_DEPTH`]).
//! Annotations (such as `$Json.name`) and constant values are not
//! compared.

mod compare;
mod peer;
mod rules;
mod source;

use std::fmt;

pub use peer::{PeerLimits, check_peer, check_reachable, load_peer, request_from_generated};
pub use rules::{Breaks, Rule, Verdict};
pub use source::Position;

use crate::error::Result;
use crate::schema::LoadedSchema;
use source::Positions;

/// One side of a comparison: a loaded schema and, when it came from
/// text, where its declarations are written.
#[derive(Clone, Debug)]
pub struct CompatSchema {
    loaded: LoadedSchema,
    positions: Positions,
}

impl CompatSchema {
    /// A loaded schema without source positions (from a saved request, or
    /// from generated code's nodes).
    pub fn new(loaded: LoadedSchema) -> CompatSchema {
        CompatSchema {
            loaded,
            positions: Positions::default(),
        }
    }

    /// A framed CodeGeneratorRequest (what `capnp compile -o-` writes).
    ///
    /// # Errors
    /// As [`LoadedSchema::from_request_bytes`].
    pub fn from_request_bytes(bytes: &[u8]) -> Result<CompatSchema> {
        Ok(CompatSchema::new(LoadedSchema::from_request_bytes(bytes)?))
    }

    /// Compiles the files `files` (path and text) with the pure-Rust
    /// compiler and keeps their declarations' positions. Imports are found
    /// as [`capnarena_compiler::Compiler::new`] finds them.
    ///
    /// # Errors
    /// [`crate::Error::Compile`] with every diagnostic, or as
    /// [`LoadedSchema::from_request_bytes`].
    #[cfg(feature = "compiler")]
    pub fn compile_sources<P: AsRef<str>, T: AsRef<[u8]>>(
        files: &[(P, T)],
    ) -> Result<CompatSchema> {
        CompatSchema::compile_with(capnarena_compiler::Compiler::new(), files)
    }

    /// As [`compile_sources`](Self::compile_sources), with a compiler set
    /// up by the caller (import paths, source prefixes).
    ///
    /// # Errors
    /// As [`compile_sources`](Self::compile_sources).
    #[cfg(feature = "compiler")]
    pub fn compile_with<P: AsRef<str>, T: AsRef<[u8]>>(
        mut compiler: capnarena_compiler::Compiler,
        files: &[(P, T)],
    ) -> Result<CompatSchema> {
        for (path, text) in files {
            compiler = compiler
                .source(path.as_ref(), text.as_ref().to_vec())
                .file(path.as_ref());
        }
        let loaded = LoadedSchema::compile(&compiler)?;
        let names: Vec<String> = loaded.schema().files().map(|(_, n)| n.to_owned()).collect();
        let mut side = CompatSchema::new(loaded);
        for (i, (path, text)) in files.iter().enumerate() {
            let path = path.as_ref();
            // The request names a file by its path under its starting
            // directory: the same as given, without a leading `/` or `./`.
            let name = names
                .iter()
                .find(|n| path.trim_start_matches("./").trim_start_matches('/') == n.as_str())
                .or_else(|| names.iter().find(|n| path.ends_with(&format!("/{n}"))))
                .or_else(|| names.get(i));
            if let Some(name) = name {
                side.positions.add_file(name, path, text.as_ref());
            }
        }
        Ok(side)
    }

    /// Adds the positions of the declarations in `text`, the file the
    /// request names `request_name` (`"app.capnp"`), shown as `path` in
    /// findings: for a schema loaded from a saved request whose sources
    /// are at hand. Needs the `compiler` feature, whose parser finds the
    /// declarations.
    #[cfg(feature = "compiler")]
    pub fn with_source(mut self, request_name: &str, path: &str, text: &[u8]) -> CompatSchema {
        self.positions.add_file(request_name, path, text);
        self
    }

    /// The loaded schema.
    pub fn loaded(&self) -> &LoadedSchema {
        &self.loaded
    }

    fn side(&self) -> compare::Side<'_> {
        compare::Side {
            loaded: &self.loaded,
            positions: &self.positions,
        }
    }
}

impl From<LoadedSchema> for CompatSchema {
    fn from(loaded: LoadedSchema) -> CompatSchema {
        CompatSchema::new(loaded)
    }
}

/// A declaration in one of the two schemas.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// Its display name (`"app.capnp:Item.count"`).
    pub name: String,
    /// Where it is written, when the schema came from text.
    pub position: Option<Position>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.position {
            Some(p) => write!(f, "{}:{}:{}", p.file, p.line, p.column),
            None => f.write_str(&self.name),
        }
    }
}

/// One change between the schemas.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    /// The kind of change.
    pub rule: Rule,
    /// The declaration in the old schema (`None`: added).
    pub old: Option<Location>,
    /// The declaration in the new schema (`None`: removed).
    pub new: Option<Location>,
    /// What changed and what breaks for whom.
    pub message: String,
}

impl Finding {
    /// The verdict of its rule.
    pub fn verdict(&self) -> Verdict {
        self.rule.verdict()
    }
}

impl fmt::Display for Finding {
    /// `file:line:col: error[rule]: message`, as a compiler writes it
    /// (`warning` for binary-only changes, `note` for compatible ones),
    /// then the old declaration when both are known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.verdict() {
            Verdict::Incompatible => "error",
            Verdict::BinaryOnly => "warning",
            Verdict::Compatible => "note",
        };
        let main = self.new.as_ref().or(self.old.as_ref());
        if let Some(at) = main {
            write!(f, "{at}: ")?;
        }
        write!(f, "{level}[{}]: {}", self.rule.code(), self.message)?;
        if let (Some(old), Some(_)) = (&self.old, &self.new) {
            write!(f, "\n  {old}: note: the old declaration")?;
        }
        Ok(())
    }
}

/// Every change found, in a stable order: node by node (by id), member
/// by member (by number).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The changes.
    pub findings: Vec<Finding>,
}

impl Report {
    /// The worst verdict among the findings whose rule is not in
    /// `allowed` (`None`: nothing changed, or only allowed changes).
    pub fn worst(&self, allowed: &[Rule]) -> Option<Verdict> {
        self.findings
            .iter()
            .filter(|f| !allowed.contains(&f.rule))
            .map(Finding::verdict)
            .max()
    }

    /// Whether old and new programs still exchange messages, counting the
    /// rules in `allowed` as accepted.
    pub fn is_wire_compatible(&self, allowed: &[Rule]) -> bool {
        self.worst(allowed) != Some(Verdict::Incompatible)
    }
}

/// Compares `old` with `new` and lists every change (see the module
/// docs).
pub fn check(old: &CompatSchema, new: &CompatSchema) -> Report {
    Report {
        findings: compare::Comparer::new(old.side(), new.side()).run(),
    }
}
