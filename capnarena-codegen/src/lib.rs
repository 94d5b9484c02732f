//! Generates typed Rust for the [capnarena] runtime from a Cap'n Proto
//! `CodeGeneratorRequest`: what `capnp compile -o-` (or capnarena's own
//! schema compiler) writes for a set of `.capnp` files.
//!
//! Most users never call this crate: `capnarena-build` runs it from a
//! build script, and the `capnpc-capnarena` binary runs it as a `capnp
//! compile` plugin (`capnp compile -ocapnarena schema.capnp`).
//!
//! ```no_run
//! let request = std::fs::read("request.bin")?;
//! for file in capnarena_codegen::generate(&request, &capnarena_codegen::Options::default())? {
//!     std::fs::write(&file.name, file.contents)?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is generated
//! One module per schema file (`foo.capnp` -> `foo_capnp.rs`, included with
//! `capnarena::include_generated!(pub mod foo_capnp)`); inside it, for each
//! struct `Foo` a module `foo` with `Reader<'a>`, `Builder<'a, A>`, `Owned`
//! and, for a union, `Which`; a `#[repr(u16)]` Rust enum per schema enum; a
//! module per interface holding its method parameter and result structs;
//! constants; and for each annotation `foo` the constant of its id,
//! `FOO_ANNOTATION_ID`, so that reflection code compares an annotation's
//! id with a name, not a number. Generated code names other items by
//! relative paths, so the
//! module may sit anywhere; another schema file's module is taken to be a
//! sibling unless [`Options::module_path`] says where it is.
//!
//! # RPC
//! With [`Options::rpc`] (off by default, so that the code needs no RPC
//! crate), each interface's module also holds typed RPC code written
//! against `capnarena-rpc` (named by [`Options::rpc_path`]): a `Client`
//! with a `*_request()` per method and a `{Method}Pipeline` per method
//! whose results hold capabilities or structs, `{Method}Params` and
//! `{Method}Results` aliases, a `Server` trait (the traits of the
//! interfaces it extends as supertraits) and its `dispatch`, and `From`
//! conversions to the clients of extended interfaces. A generic interface
//! takes its parameters; a streaming method's request is flow-controlled.
//! The names `Client`, `Server`, `dispatch`, `dispatch_method` and those
//! ending in `Pipeline`, `Params` and `Results` are then taken in the
//! interface's module. A capability field's generic arguments are not
//! carried to its client (a `Box(Text)` field's pipeline gives
//! `box_::Client` with `AnyPointer`; `FromClient` converts it), nor are a
//! superclass's (`extends(Box(Text))` is served as `Box(AnyPointer)`).
//!
//! # Unions
//! A union member has no getter on the reader or the builder: `which()`
//! (on both; a builder's gives `WhichBuilder`, with builders of pointer
//! and group members, or `Which` when every member is a plain value) is
//! the one way to a member's value. Members share the union's bits and
//! pointer slots, so a getter of an inactive member would return another
//! member's data; a getter that checked the discriminant would cost a
//! compare on every call and answer with an error or a default that looks
//! like data, so the question is asked once, as capnproto-rust does.
//! Setters and `init_*` write the discriminant; `has_x()` of a pointer
//! member is `false` unless the member is the active one (the reference's
//! `hasX()`).
//!
//! # Names
//! Schema names become Rust names by one rule for every identifier the
//! generator emits (modules, types, constants, field methods, variants,
//! type parameters): Rust's case for each kind, then a trailing `_` for a
//! name that is a keyword, one the generated code uses in that namespace
//! (`Reader`, `set_from`, the arena parameter `A`, `Result`, `std`, ...) or
//! one another schema name took first, names being placed plain camelCase
//! first, then in byte order of their spelling (never by declaration
//! order). The full rule, with its reserved names, is in the capnarena crate
//! docs' "Names" section; `tests/schemas/names.capnp` holds every
//! collision it settles.
//!
//! Generic structs (`struct Pair(Key, Value)`) take their parameters, and
//! those of the scopes around them, as type parameters of `Reader`,
//! `Builder` and `Owned` (each an [`Owned`](capnarena::typed::Owned) type,
//! defaulting to `AnyPointer`); a use such as `Pair(Text, Point)` names
//! `pair::Owned<Text, point::Owned>`; any type can be an argument (lists,
//! lists of generics, generics of generics). A generic type named without
//! arguments (`Pair`, or `Outer.Inner` inside `Outer(T)`) has its
//! parameters bound to `AnyPointer`, as schema.capnp says of a brand that
//! leaves a scope out; a nested type named plainly inside its generic
//! scope (`Inner`) inherits the scope's parameters. A union's `Which` has
//! no type parameters: members of a parameter's type appear in it as any
//! pointers. A method's implicit parameters read as `AnyPointer`. `Debug`
//! prints a field of a parameter's type as the type bound to it
//! ([`Owned::write_text`](capnarena::typed::Owned::write_text)).
//!
//! # Limits
//! A request is read as untrusted input: a malformed one is an [`Error`],
//! never a panic, a stack overflow or memory out of proportion to its size.
//! It is read with a traversal limit of four times its own size in words
//! and a nesting limit of 1024 pointers. Then, before anything is generated:
//! - nodes nest as a tree (nested nodes, groups and the parameter and
//!   result structs of methods; no node reached twice, no loop), at most
//!   32 levels deep below their file;
//! - a type nests at most 16 levels (`List(List(...))`, and types bound as
//!   generic arguments);
//! - a node has at most 64 generic parameters with those of its scopes;
//! - names are schema identifiers (1 to 256 ASCII letters, digits and
//!   underscores); display names and file names are at most 4096 bytes,
//!   with no control characters.
//!
//! Code generated within these limits is generated on a 2 MiB thread (a
//! build script's main thread), in debug builds too.
//!
//! # Formatting
//! The generated code is written already formatted, as `rustfmt`
//! (edition 2024, default settings) formats it: the generator needs no
//! parser or formatter, and the output passes `rustfmt --check`.
//!
//! [capnarena]: https://docs.rs/capnarena

use std::collections::BTreeMap;

mod emit;
mod limits;
mod load;
mod model;
mod names;
/// Bindings for `schema.capnp` (the CodeGeneratorRequest), generated by
/// this crate from itself and checked in; a test regenerates them.
#[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags, rustdoc::bare_urls)]
#[rustfmt::skip]
pub mod schema_capnp;

/// Generation options.
#[derive(Clone, Debug)]
pub struct Options {
    module_paths: BTreeMap<String, String>,
    /// Where every schema file's module sits, from the crate root, when
    /// neither `module_path` nor `$Rust.parentModule` says.
    pub(crate) default_parent_module: Option<Vec<String>>,
    runtime_path: String,
    /// The RPC crate's path, when typed RPC code is generated.
    rpc_path: Option<String>,
    pub(crate) owned_values: bool,
    pub(crate) serde: bool,
    pub(crate) schema_nodes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            module_paths: BTreeMap::new(),
            default_parent_module: None,
            runtime_path: "::capnarena".into(),
            rpc_path: None,
            owned_values: false,
            serde: false,
            schema_nodes: false,
        }
    }
}

impl Options {
    /// Default options: imported files are sibling modules, the runtime is
    /// the `capnarena` crate.
    pub fn new() -> Self {
        Self::default()
    }

    /// Says where the generated module of schema file `file` (named as in
    /// the request, e.g. `/capnp/c++.capnp` or `foo.capnp`) lives, as a Rust
    /// path (`crate::schemas::foo_capnp`, `::other_crate::foo_capnp`), for
    /// files that import it.
    pub fn module_path(mut self, file: impl Into<String>, rust_path: impl Into<String>) -> Self {
        self.module_paths.insert(file.into(), rust_path.into());
        self
    }

    /// Says that the generated module of every schema file sits under the
    /// module `path` of the crate, given part by part (`["schemas"]` for
    /// `crate::schemas::foo_capnp`; none for the crate root): code that
    /// names an imported file's types names them there, not in a sibling
    /// module. capnpc's option of the same name. A file's
    /// [`module_path`](Self::module_path) or `$Rust.parentModule` wins
    /// over it.
    ///
    /// ```
    /// let options = capnarena_codegen::Options::new().default_parent_module(["schemas"]);
    /// # let _ = options;
    /// ```
    pub fn default_parent_module<S: Into<String>>(
        mut self,
        path: impl IntoIterator<Item = S>,
    ) -> Self {
        self.default_parent_module = Some(path.into_iter().map(Into::into).collect());
        self
    }

    /// Also generates, for each struct `Foo`, plain Rust values of it:
    /// `foo::Value` (owned: `String`, `Vec`, `Box` of nested values) and
    /// `foo::ValueRef<'a>` (text and data borrowed from the message), with
    /// `Clone`, `Debug`, `PartialEq`, `Default` (the schema's defaults),
    /// `TryFrom<foo::Reader>` and `build` / `build_root` into a builder or
    /// a message (see the runtime's `typed::value`). A generic struct's
    /// values take the parameters they use as type parameters, bound to
    /// the values of a use's arguments (`Box(Text)`: `box_::Value<String>`;
    /// unbound: `AnyValue`); a struct recursing through ever larger
    /// arguments keeps them erased. Off by default: it
    /// adds code, and build time, that only users of the values need.
    pub fn owned_values(mut self, on: bool) -> Self {
        self.owned_values = on;
        self
    }

    /// Also generates `serde` impls (turning [`Options::owned_values`] on):
    /// `Serialize` of `foo::Value` and `foo::ValueRef<'a>`, `Deserialize`
    /// of `foo::Value`, and both of every enum, in the form of the
    /// reference's JSON codec (`capnp convert binary:json`): schema field
    /// names, `Int64` / `UInt64` as decimal strings, non-finite floats as
    /// `"NaN"` / `"Infinity"` / `"-Infinity"`, data as arrays of numbers,
    /// enums by name, null pointers left out. The impls are written out
    /// (no derive) and name serde through the runtime's re-export, so the
    /// generated code needs the runtime's `serde` feature and nothing
    /// else. Off by default.
    pub fn serde(mut self, on: bool) -> Self {
        self.serde = on;
        if on {
            self.owned_values = true;
        }
        self
    }

    /// Also compiles each struct's, enum's and interface's schema node into
    /// the generated code, as `capnarena-dynamic` loads it at run time: the
    /// node as the CodeGeneratorRequest holds it (with the nodes of a
    /// struct's groups), in a `static` [`typed::SchemaNode`] that also
    /// names the nodes of the types it uses, handed out through
    /// [`typed::HasSchema`] by a struct's `Owned`, an enum, and an
    /// interface's `Owned` (a marker type this option adds to the
    /// interface's module). Generated builders also implement
    /// [`typed::IntoStructBuilder`], and each file's module gets
    /// `SCHEMA_NODES`, every struct, enum and interface of the file.
    ///
    /// Every file the generated code imports must be generated with the
    /// option too (their nodes are named by path); the one node named
    /// without an import, `StreamResult` of `/capnp/stream.capnp` (the
    /// result of `-> stream` methods), is written into the interface's
    /// schema node unless its file is generated here or placed by
    /// [`Options::module_path`]. Annotation
    /// declarations are not included: a loaded schema holds each
    /// annotation's id and value, but reads the value typed only with the
    /// declaration's node. Off by default: it adds each node's bytes to the
    /// program.
    ///
    /// [`typed::SchemaNode`]: capnarena::typed::SchemaNode
    /// [`typed::HasSchema`]: capnarena::typed::HasSchema
    /// [`typed::IntoStructBuilder`]: capnarena::typed::IntoStructBuilder
    pub fn schema_nodes(mut self, on: bool) -> Self {
        self.schema_nodes = on;
        self
    }

    /// The path of the runtime crate in generated code (default
    /// `::capnarena`), for a crate that renames the dependency.
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.runtime_path = path.into();
        self
    }

    /// Whether each interface also gets typed RPC code (a `Client`, a
    /// `Server` trait and its `dispatch`, see capnarena-rpc's README),
    /// written against the `capnarena-rpc` crate. Off by default, so that
    /// schemas with interfaces compile without that crate (and tokio).
    pub fn rpc(mut self, on: bool) -> Self {
        self.rpc_path = on.then(|| "::capnarena_rpc".into());
        self
    }

    /// Generates typed RPC code (as [`rpc`](Self::rpc)) naming the RPC
    /// crate by `path`, for a crate that renames the dependency or
    /// re-exports it.
    pub fn rpc_path(mut self, path: impl Into<String>) -> Self {
        self.rpc_path = Some(path.into());
        self
    }
}

/// One generated Rust file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// File name (`foo_capnp.rs`).
    pub name: String,
    /// Rust source, formatted as rustfmt formats it.
    pub contents: String,
}

/// Why generation failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The request could not be read.
    Request(capnarena::Error),
    /// A node the request refers to is missing from it.
    MissingNode {
        /// The id referred to.
        id: u64,
    },
    /// A construct the generator cannot express.
    Unsupported {
        /// What it is.
        what: String,
    },
    /// The request goes past a limit the generator sets on its input, so
    /// that the stack and memory generation takes stay bounded (see
    /// `SECURITY.md`).
    Limit {
        /// What was counted.
        what: &'static str,
        /// The node where it was counted (0 for the request as a whole).
        node: u64,
        /// How many there were (at least; counting stops past the limit).
        found: u64,
        /// The most allowed.
        limit: u64,
    },
    /// The request's nodes do not nest as a tree: `node` is reached a
    /// second time through nested nodes, groups or method parameter
    /// structs (nested twice, or in a loop), or its scopes loop.
    BadNesting {
        /// The node reached again.
        node: u64,
        /// How it was reached.
        what: &'static str,
    },
    /// A name that generated code spells out is not a schema identifier
    /// (1 to 256 ASCII letters, digits and underscores), or a display or
    /// file name holds a control character.
    BadName {
        /// The node whose name it is (the file's, for a requested file).
        node: u64,
        /// Which name.
        what: &'static str,
        /// Its first 64 characters.
        name: String,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Request(e) => write!(f, "reading the CodeGeneratorRequest: {e}"),
            Error::MissingNode { id } => write!(f, "the request has no node {id:#x}"),
            Error::Unsupported { what } => write!(f, "cannot generate {what}"),
            Error::Limit {
                what,
                node,
                found,
                limit,
            } => write!(
                f,
                "node {node:#x}: {what}: {found}, more than the limit of {limit}"
            ),
            Error::BadName { node, what, name } => {
                write!(f, "node {node:#x}: bad name ({what}): {name:?}")
            }
            Error::BadNesting { node, what } => {
                write!(f, "node {node:#x} {what}; the nodes do not nest as a tree")
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<capnarena::Error> for Error {
    fn from(e: capnarena::Error) -> Self {
        Error::Request(e)
    }
}

impl From<capnarena::typed::NotInSchema> for Error {
    fn from(e: capnarena::typed::NotInSchema) -> Self {
        Error::Request(e.into())
    }
}

/// Generates Rust for every file the request asks for. `request` is the
/// framed message as `capnp compile -o-` writes it.
///
/// The request is read with a traversal limit of four times its own size
/// in words (a request that reads as much more than it holds reaches
/// objects through several pointers), so what is loaded from it is in
/// proportion to its size; its nodes must nest as a tree within the limits of
/// [`limits`](crate#limits) before any code is generated.
///
/// # Errors
/// The request is malformed, refers to nodes it does not hold, or goes
/// past a limit ([`Error::Limit`], [`Error::BadNesting`],
/// [`Error::BadName`]).
pub fn generate(request: &[u8], options: &Options) -> Result<Vec<GeneratedFile>, Error> {
    let words = capnarena::words_from_bytes(request)?;
    let reader = capnarena::MessageReader::from_words(&words, limits::reader_options(&words))?;
    let schema = load::load(&reader, options.schema_nodes)?;
    limits::check(&schema)?;
    emit::Generator::new(&schema, options)?.files()
}
