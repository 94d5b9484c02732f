//! The syntax tree of one schema file, every piece carrying its byte span.

/// A byte range `[start, end)` in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The range `[start, end)`.
    pub fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }
    /// The smallest range covering `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A value with the span it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

/// An expression: a type, a value or a name.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of expression in the schema language.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A non-negative integer literal.
    PositiveInt(u64),
    /// `-N`: the magnitude N.
    NegativeInt(u64),
    /// A floating-point literal (sign applied).
    Float(f64),
    /// A text literal (adjacent literals joined).
    String(Vec<u8>),
    /// `0x"..."`.
    Binary(Vec<u8>),
    /// A bare identifier.
    RelativeName(Located<String>),
    /// `.name`: from the file's top scope.
    AbsoluteName(Located<String>),
    /// `import "path"`.
    Import(Located<String>),
    /// `embed "path"`.
    Embed(Located<String>),
    /// `[a, b, ...]`.
    List(Vec<Expr>),
    /// `(a = x, b = y)` or `(x, y)`.
    Tuple(Vec<Param>),
    /// `f(params)`: generic application.
    Application {
        /// The generic being applied.
        func: Box<Expr>,
        /// Its parameters.
        params: Vec<Param>,
    },
    /// `parent.name`.
    Member {
        /// The scope.
        parent: Box<Expr>,
        /// The member's name.
        name: Located<String>,
    },
}

/// One element of a tuple or application: optionally named.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// `name =`, when given.
    pub name: Option<Located<String>>,
    /// The value.
    pub value: Expr,
}

/// `$name` or `$name(value)` applied to a declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnotationApp {
    /// The annotation's name expression.
    pub name: Expr,
    /// The value; `None` for `$name` alone.
    pub value: Option<Expr>,
}

/// How a declaration is identified.
#[derive(Clone, Debug, PartialEq)]
pub enum DeclId {
    /// No `@` at all.
    Unspecified,
    /// `@0x...`: an explicit 64-bit id.
    Uid(Located<u64>),
    /// `@N`: an ordinal.
    Ordinal(Located<u64>),
}

/// Parameters or results of a method.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamList {
    /// `(a :T, b :U = x)`.
    Named(Vec<MethodParam>, Span),
    /// A struct type naming the whole list.
    Type(Expr),
    /// `stream`.
    Stream(Span),
}

/// One named parameter of a method.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodParam {
    /// Its name.
    pub name: Located<String>,
    /// Its type.
    pub ty: Expr,
    /// Its default, when given.
    pub default: Option<Expr>,
    /// Annotations on it.
    pub annotations: Vec<AnnotationApp>,
    /// The whole parameter.
    pub span: Span,
}

/// The annotation targets, in schema.capnp's order (file, const, enum,
/// enumerant, struct, field, union, group, interface, method, param,
/// annotation).
pub const TARGET_NAMES: [&str; 12] = [
    "file",
    "const",
    "enum",
    "enumerant",
    "struct",
    "field",
    "union",
    "group",
    "interface",
    "method",
    "param",
    "annotation",
];

/// What a declaration declares.
#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// The file itself.
    File,
    /// `using Name = target;`
    Using(Expr),
    /// `const name :Type = value;`
    Const {
        /// Its type.
        ty: Expr,
        /// Its value.
        value: Expr,
    },
    /// `enum Name { ... }`
    Enum,
    /// `name @N;` in an enum.
    Enumerant,
    /// `struct Name { ... }`
    Struct,
    /// `name @N :Type = default;` in a struct.
    Field {
        /// Its type.
        ty: Expr,
        /// Its default, when given.
        default: Option<Expr>,
    },
    /// `union { ... }` or `name :union { ... }`.
    Union,
    /// `name :group { ... }`.
    Group,
    /// `interface Name extends(...) { ... }`
    Interface {
        /// `extends(...)`.
        superclasses: Vec<Expr>,
    },
    /// `name @N [T, U] (params) -> (results);`
    Method {
        /// Implicit generic parameters `[T, U]`.
        implicit_params: Vec<Located<String>>,
        /// The parameters.
        params: ParamList,
        /// The results, when `->` is given.
        results: Option<ParamList>,
    },
    /// `annotation name(targets) :Type;`
    Annotation {
        /// Its value type.
        ty: Expr,
        /// Which declarations it may be applied to ([`TARGET_NAMES`] order).
        targets: [bool; 12],
    },
}

/// One declaration with its nested declarations.
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// Its name (empty for an unnamed union and the file).
    pub name: Located<String>,
    /// `@0x...` or `@N`.
    pub id: DeclId,
    /// Generic parameters `(T, U)`.
    pub params: Vec<Located<String>>,
    /// Annotations applied to it.
    pub annotations: Vec<AnnotationApp>,
    /// The doc comment following it.
    pub doc: Option<Vec<u8>>,
    /// The whole statement.
    pub span: Span,
    /// What it declares.
    pub kind: DeclKind,
    /// Nested declarations, in source order.
    pub nested: Vec<Decl>,
}

impl Decl {
    /// The ordinal, when the id is `@N`.
    pub fn ordinal(&self) -> Option<&Located<u64>> {
        match &self.id {
            DeclId::Ordinal(o) => Some(o),
            _ => None,
        }
    }
}
