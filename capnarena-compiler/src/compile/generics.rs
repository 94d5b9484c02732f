//! Generics and brands: which generic parameters are bound to what, and
//! the schema types declarations compile to.
//!
//! A declaration reached through generic scopes (`Outer(Text).Inner`, or a
//! name used inside a generic struct) carries a [`BrandScope`] chain: per
//! enclosing scope, its parameters' bindings, or "inherited" when they are
//! the scope's own parameters. This reproduces the reference's
//! `BrandScope` and `BrandedDecl` (generics.c++, v0.9.2): pushing and
//! popping scopes as names are looked up, applying parameters, looking a
//! parameter up, re-evaluating an alias's brand where it is used, and
//! compiling the result into a schema `Type` and `Brand` (with the same
//! checks and messages: `List` takes one pointer type, only pointer types
//! bind parameters). [`subst`] applies a compiled `Brand` to a type, as
//! the reference's schema loader does when it checks a value against a
//! generic field.
//!
//! Brands are shared `Rc` trees whose written-out size and depth are
//! tracked in every node, so that no brand grows past
//! [`limits::MAX_TYPE_SIZE`] and [`limits::MAX_TYPE_DEPTH`].

use std::rc::Rc;

use super::decls::{Builtin, DeclTarget, NodeIndex};
use super::{Compilation, NodeKindTag, expr_string};
use crate::ast::*;
use crate::limits;
use crate::schema::{self, *};

/// What a name found in a scope stands for, before the brand it is
/// reached through is applied (the reference's `Resolver::ResolveResult`).
#[derive(Clone, Debug)]
pub(super) enum Resolution {
    /// A declaration.
    Decl {
        /// The declaration.
        target: DeclTarget,
        /// How many generic parameters it declares.
        params: usize,
        /// The id of the scope it was found in (0: the global scope).
        scope_id: u64,
    },
    /// A generic parameter: the `index`-th of the node with id `scope`.
    Param {
        /// The id of the node declaring the parameter.
        scope: u64,
        /// Its position in that node's parameter list.
        index: u16,
    },
    /// An alias that carries its own brand, declared in the node with this
    /// id: its bindings may name that node's parameters, which the brand it
    /// is reached through binds.
    Branded(BrandedDecl, u64),
}

/// One level of a brand, innermost first: the bindings of one scope's
/// generic parameters, with the levels of the enclosing scopes behind
/// it (the compile-time form of a brand; [`schema::BrandScope`] is the
/// form written to the request).
#[derive(Debug)]
pub(super) struct BrandScope {
    /// The id of the scope (node) this level binds; 1000 + a built-in's
    /// place for a built-in (`List`).
    pub(super) leaf_id: u64,
    /// How many generic parameters that scope declares.
    pub(super) leaf_params: usize,
    /// The scope's parameters are its own, unbound (as inside the scope's
    /// own declaration): `params` is empty.
    pub(super) inherited: bool,
    /// The bindings, one per parameter (empty when none were given).
    pub(super) params: Vec<BrandedDecl>,
    /// The level of the enclosing scope.
    pub(super) parent: Option<Rc<BrandScope>>,
    /// The scopes and parameters in this brand written out as a tree (the
    /// type it compiles to is about this big), saturating: shared `Rc`s
    /// let aliases double it on each line, so it is bounded by
    /// [`limits::MAX_TYPE_SIZE`].
    pub(super) size: u32,
    /// The longest path of nested scopes and parameters in it, bounded by
    /// [`limits::MAX_TYPE_DEPTH`]: the walks over a brand and its type
    /// recurse.
    pub(super) depth: u32,
}

impl BrandScope {
    /// A scope with its size and depth computed from its parts.
    pub(super) fn new(
        leaf_id: u64,
        leaf_params: usize,
        inherited: bool,
        params: Vec<BrandedDecl>,
        parent: Option<Rc<BrandScope>>,
    ) -> Rc<BrandScope> {
        let mut size = 1u32.saturating_add(parent.as_ref().map_or(0, |p| p.size));
        let mut depth = 1 + parent.as_ref().map_or(0, |p| p.depth);
        for p in &params {
            size = size.saturating_add(p.size());
            depth = depth.max(p.depth().saturating_add(1));
        }
        Rc::new(BrandScope {
            leaf_id,
            leaf_params,
            inherited,
            params,
            parent,
            size,
            depth,
        })
    }
}

/// What an expression naming a declaration compiles to (the reference's
/// `BrandedDecl`): a declaration with the brand it is reached through, or
/// a generic parameter left unbound. Both keep where they were written and
/// how, for messages.
#[derive(Clone, Debug)]
pub(super) enum BrandedDecl {
    /// A declaration (node or built-in) and its brand.
    Decl {
        /// The declaration.
        target: DeclTarget,
        /// The bindings of its and its enclosing scopes' parameters.
        brand: Rc<BrandScope>,
        /// Where the expression is.
        span: Span,
        /// The expression as written.
        text: String,
    },
    /// The `index`-th generic parameter of the scope with id `scope`
    /// (0: a method's implicit parameters), not bound here.
    Param {
        /// The id of the scope declaring it.
        scope: u64,
        /// Its position in the scope's parameter list.
        index: u16,
        /// Where the expression is.
        span: Span,
        /// The expression as written.
        text: String,
    },
}

impl BrandedDecl {
    /// Where the expression is.
    pub(super) fn span(&self) -> Span {
        match self {
            BrandedDecl::Decl { span, .. } | BrandedDecl::Param { span, .. } => *span,
        }
    }
    /// The expression as written.
    pub(super) fn text(&self) -> &str {
        match self {
            BrandedDecl::Decl { text, .. } | BrandedDecl::Param { text, .. } => text,
        }
    }
    /// As [`BrandScope::size`].
    pub(super) fn size(&self) -> u32 {
        match self {
            BrandedDecl::Decl { brand, .. } => brand.size,
            BrandedDecl::Param { .. } => 1,
        }
    }
    /// As [`BrandScope::depth`].
    pub(super) fn depth(&self) -> u32 {
        match self {
            BrandedDecl::Decl { brand, .. } => brand.depth,
            BrandedDecl::Param { .. } => 1,
        }
    }
}

/// A level for scope `leaf` with no parameters bound and nothing around.
fn unbranded_scope(leaf: u64) -> Rc<BrandScope> {
    BrandScope::new(leaf, 0, false, Vec::new(), None)
}

/// The part of brand `s` from the level of scope `leaf` outwards (the
/// reference's `BrandScope::pop`): the bindings a name found in `leaf`
/// sees. A bare level when `s` does not pass through `leaf`.
fn enclosing_scope(s: &Rc<BrandScope>, leaf: u64) -> Rc<BrandScope> {
    if s.leaf_id == leaf {
        return s.clone();
    }
    match &s.parent {
        Some(p) => enclosing_scope(p, leaf),
        None => unbranded_scope(leaf),
    }
}

/// `d` with the parameters it names looked up in `s` (an alias's brand
/// reached through a branded scope, as the reference re-evaluates it).
/// Each scope written costs one unit of `budget`; once it is spent the
/// rest is left unbound (the caller reports the type as too large), so a
/// rebinding takes time in proportion to [`limits::MAX_TYPE_SIZE`].
fn rebind_decl(d: &BrandedDecl, s: &Rc<BrandScope>, budget: &mut u32) -> BrandedDecl {
    match d {
        BrandedDecl::Param { scope, index, .. } => {
            binding_of(s, *scope, *index).unwrap_or_else(|| d.clone())
        }
        // Out of budget: the rest stays unbound, marked as too large.
        BrandedDecl::Decl {
            target,
            brand,
            span,
            text,
        } if *budget == 0 => BrandedDecl::Decl {
            target: *target,
            brand: Rc::new(BrandScope {
                leaf_id: brand.leaf_id,
                leaf_params: brand.leaf_params,
                inherited: brand.inherited,
                params: Vec::new(),
                parent: None,
                size: u32::MAX,
                depth: brand.depth,
            }),
            span: *span,
            text: text.clone(),
        },
        BrandedDecl::Decl {
            target,
            brand,
            span,
            text,
        } => BrandedDecl::Decl {
            target: *target,
            brand: rebind_scope(brand, s, budget),
            span: *span,
            text: text.clone(),
        },
    }
}

/// The bindings brand `s` gives scope `leaf`'s parameters, when it gives
/// any (None: not bound there, or inherited).
fn explicit_bindings(s: &Rc<BrandScope>, leaf: u64) -> Option<Vec<BrandedDecl>> {
    if s.leaf_id == leaf {
        if s.inherited {
            None
        } else {
            Some(s.params.clone())
        }
    } else {
        s.parent.as_ref().and_then(|p| explicit_bindings(p, leaf))
    }
}

/// Brand level `b` (and those behind it) with the parameters it names
/// looked up in `s`, as [`rebind_decl`] does for a declaration.
fn rebind_scope(b: &Rc<BrandScope>, s: &Rc<BrandScope>, budget: &mut u32) -> Rc<BrandScope> {
    *budget = budget.saturating_sub(1);
    let (params, inherited) = if b.inherited && b.leaf_params > 0 {
        match explicit_bindings(s, b.leaf_id) {
            Some(p) => (p, false),
            None => (Vec::new(), true),
        }
    } else {
        (
            b.params.iter().map(|p| rebind_decl(p, s, budget)).collect(),
            b.inherited,
        )
    };
    let parent = b.parent.as_ref().map(|p| rebind_scope(p, s, budget));
    BrandScope::new(b.leaf_id, b.leaf_params, inherited, params, parent)
}

/// A new innermost level for scope `id` (with `params` parameters,
/// none bound yet) inside brand `s` (the reference's `BrandScope::push`).
pub(super) fn nested_scope(s: &Rc<BrandScope>, id: u64, params: usize) -> Rc<BrandScope> {
    BrandScope::new(id, params, false, Vec::new(), Some(s.clone()))
}

/// What brand `s` binds the `index`-th parameter of scope `scope` to:
/// the binding; AnyPointer when the scope is bound without that many
/// parameters; None when the parameter is unbound (inherited) or `s` does
/// not pass through `scope`.
fn binding_of(s: &Rc<BrandScope>, scope: u64, index: u16) -> Option<BrandedDecl> {
    if s.leaf_id == scope {
        if (index as usize) < s.params.len() {
            Some(s.params[index as usize].clone())
        } else if s.inherited {
            None
        } else {
            Some(BrandedDecl::Decl {
                target: DeclTarget::Builtin(Builtin::AnyPointer),
                brand: unbranded_scope(0),
                span: Span::default(),
                text: "AnyPointer".into(),
            })
        }
    } else {
        s.parent.as_ref().and_then(|p| binding_of(p, scope, index))
    }
}

/// A method's implicit generic parameters (`method[T] (x: T)`), which
/// names in its parameter list may refer to.
#[derive(Clone)]
pub(super) struct ImplicitParams<'b> {
    /// The scope id their [`BrandedDecl::Param`]s carry: the parameter
    /// struct's id, or 0 (the reference's "implicit method parameter").
    pub(super) scope_id: u64,
    /// Their names, in order.
    pub(super) names: &'b [Located<String>],
}

/// No implicit parameters (anywhere outside a method's parameter list).
pub(super) const NO_IMPLICIT_PARAMS: ImplicitParams<'static> = ImplicitParams {
    scope_id: 0,
    names: &[],
};

/// `t` as seen through `brand`: generic parameters bound there replaced by
/// their bindings (unbound ones by AnyPointer), inherited scopes of nested
/// brands by the bindings `brand` gives them.
pub(super) fn subst(t: &Type, brand: &Option<Brand>) -> Type {
    let Some(b) = brand else {
        return t.clone();
    };
    match t {
        Type::AnyPointer(AnyPointer::Parameter { scope, index }) => {
            match b.scopes.iter().find(|s| s.scope_id == *scope) {
                Some(schema::BrandScope {
                    bind: Some(list), ..
                }) => match list.get(*index as usize) {
                    Some(Some(bound)) => bound.clone(),
                    Some(None) => Type::AnyPointer(AnyPointer::Unconstrained(0)),
                    None => t.clone(),
                },
                _ => t.clone(),
            }
        }
        Type::List(e) => Type::List(Box::new(subst(e, brand))),
        Type::Struct(id, inner) => Type::Struct(*id, subst_brand(inner, b)),
        Type::Enum(id, inner) => Type::Enum(*id, subst_brand(inner, b)),
        Type::Interface(id, inner) => Type::Interface(*id, subst_brand(inner, b)),
        _ => t.clone(),
    }
}

/// Brand `inner` (of a type inside a generic declaration) as seen from a
/// use branded `outer`: its inherited levels take `outer`'s bindings, its
/// bound types are substituted in turn.
fn subst_brand(inner: &Option<Brand>, outer: &Brand) -> Option<Brand> {
    let inner = inner.as_ref()?;
    let outer_opt = Some(outer.clone());
    Some(Brand {
        scopes: inner
            .scopes
            .iter()
            .map(|s| match &s.bind {
                None => outer
                    .scopes
                    .iter()
                    .find(|o| o.scope_id == s.scope_id && o.bind.is_some())
                    .cloned()
                    .unwrap_or_else(|| s.clone()),
                Some(list) => schema::BrandScope {
                    scope_id: s.scope_id,
                    bind: Some(
                        list.iter()
                            .map(|t| t.as_ref().map(|t| subst(t, &outer_opt)))
                            .collect(),
                    ),
                },
            })
            .collect(),
    })
}

impl<'a> Compilation<'a> {
    /// The brand inside node `idx`'s own declaration: every enclosing
    /// scope's parameters inherited (unbound).
    pub(super) fn local_brand(&self, idx: NodeIndex) -> Rc<BrandScope> {
        let n = &self.nodes[idx];
        BrandScope::new(
            n.id,
            self.param_count(idx),
            true,
            Vec::new(),
            n.parent.map(|p| self.local_brand(p)),
        )
    }

    /// Whether node `idx` or a scope around it declares generic
    /// parameters.
    pub(super) fn is_generic(&self, idx: NodeIndex) -> bool {
        let mut p = Some(idx);
        while let Some(i) = p {
            if self.param_count(i) > 0 {
                return true;
            }
            p = self.nodes[i].parent;
        }
        false
    }

    /// A name's [`Resolution`] seen through `brand`, the brand of the
    /// scope it was written in (the reference's
    /// `BrandScope::interpretResolve`): a declaration gets the bindings of
    /// the scope it was found in plus a level of its own; a parameter its
    /// binding; a branded alias its brand re-evaluated there.
    pub(super) fn interpret_resolution(
        &self,
        brand: &Rc<BrandScope>,
        r: Resolution,
        e: &Expr,
    ) -> BrandedDecl {
        match r {
            Resolution::Decl {
                target,
                params,
                scope_id,
            } => {
                let id = match target {
                    DeclTarget::Node(t) => self.nodes[t].id,
                    DeclTarget::Builtin(b) => 1000 + b as u64,
                };
                let scope = nested_scope(&enclosing_scope(brand, scope_id), id, params);
                BrandedDecl::Decl {
                    target,
                    brand: scope,
                    span: e.span,
                    text: expr_string(e),
                }
            }
            Resolution::Param { scope, index } => match binding_of(brand, scope, index) {
                Some(b) => b,
                None => BrandedDecl::Param {
                    scope,
                    index,
                    span: e.span,
                    text: expr_string(e),
                },
            },
            Resolution::Branded(b, parent) => {
                let mut budget = limits::MAX_TYPE_SIZE.saturating_add(1);
                rebind_decl(&b, &enclosing_scope(brand, parent), &mut budget)
            }
        }
    }

    /// The brand levels `compile()` would emit for `s`.
    pub(super) fn brand_levels(&self, s: &Rc<BrandScope>) -> Vec<Rc<BrandScope>> {
        let mut out = Vec::new();
        let mut p = Some(s.clone());
        while let Some(sc) = p {
            if !sc.params.is_empty() || (sc.inherited && sc.leaf_params > 0) {
                out.push(sc.clone());
            }
            p = sc.parent.clone();
        }
        out
    }

    /// The schema `Brand` of `s`: one scope per level that binds or
    /// inherits parameters; None when no level does.
    pub(super) fn compile_brand(&self, file: usize, s: &Rc<BrandScope>) -> Option<Brand> {
        let levels = self.brand_levels(s);
        if levels.is_empty() {
            return None;
        }
        let mut scopes = Vec::new();
        for l in levels {
            let bind = if l.inherited {
                None
            } else {
                Some(
                    l.params
                        .iter()
                        .map(|p| Some(self.compile_as_type(file, p).unwrap_or(Type::Void)))
                        .collect(),
                )
            };
            scopes.push(schema::BrandScope {
                scope_id: l.leaf_id,
                bind,
            });
        }
        Some(Brand { scopes })
    }

    /// The schema type declaration `d` stands for (the reference's
    /// `BrandedDecl::compileAsType`): an unbound parameter is a parameter
    /// type; a declaration that is not a type is an error.
    fn compile_as_type(&self, file: usize, d: &BrandedDecl) -> Option<Type> {
        match d {
            BrandedDecl::Param { scope, index, .. } => Some(Type::AnyPointer(if *scope == 0 {
                AnyPointer::ImplicitMethodParameter(*index)
            } else {
                AnyPointer::Parameter {
                    scope: *scope,
                    index: *index,
                }
            })),
            BrandedDecl::Decl {
                target: DeclTarget::Node(n),
                brand,
                span,
                text,
            } => {
                let id = self.nodes[*n].id;
                match self.nodes[*n].kind {
                    NodeKindTag::Enum => Some(Type::Enum(id, self.compile_brand(file, brand))),
                    NodeKindTag::Struct => Some(Type::Struct(id, self.compile_brand(file, brand))),
                    NodeKindTag::Interface => {
                        Some(Type::Interface(id, self.compile_brand(file, brand)))
                    }
                    _ => {
                        self.error(file, *span, format!("'{text}' is not a type."));
                        None
                    }
                }
            }
            BrandedDecl::Decl {
                target: DeclTarget::Builtin(b),
                brand,
                span,
                ..
            } => self.builtin_type(file, *b, brand, *span),
        }
    }

    /// The type built-in `b` stands for, bound by `brand` (`List`'s
    /// element).
    fn builtin_type(
        &self,
        file: usize,
        b: Builtin,
        brand: &BrandScope,
        span: Span,
    ) -> Option<Type> {
        Some(match b {
            Builtin::Void => Type::Void,
            Builtin::Bool => Type::Bool,
            Builtin::Int8 => Type::Int8,
            Builtin::Int16 => Type::Int16,
            Builtin::Int32 => Type::Int32,
            Builtin::Int64 => Type::Int64,
            Builtin::UInt8 => Type::UInt8,
            Builtin::UInt16 => Type::UInt16,
            Builtin::UInt32 => Type::UInt32,
            Builtin::UInt64 => Type::UInt64,
            Builtin::Float32 => Type::Float32,
            Builtin::Float64 => Type::Float64,
            Builtin::Text => Type::Text,
            Builtin::Data => Type::Data,
            Builtin::List => return self.list_type(file, brand, span),
            Builtin::Object => {
                self.error(file, span, "As of Cap'n Proto 0.4, 'Object' has been renamed to 'AnyPointer'.  Sorry for the inconvenience, and thanks for being an early adopter.  :)".into());
                Type::AnyPointer(AnyPointer::Unconstrained(0))
            }
            Builtin::AnyPointer => Type::AnyPointer(AnyPointer::Unconstrained(0)),
            Builtin::AnyStruct => Type::AnyPointer(AnyPointer::Unconstrained(1)),
            Builtin::AnyList => Type::AnyPointer(AnyPointer::Unconstrained(2)),
            Builtin::Capability => Type::AnyPointer(AnyPointer::Unconstrained(3)),
        })
    }

    /// `List(T)` with `T` the one binding of `brand`, refused as the
    /// reference refuses it: without exactly one parameter, and for
    /// `AnyPointer` or `AnyStruct` elements.
    fn list_type(&self, file: usize, brand: &BrandScope, span: Span) -> Option<Type> {
        if brand.params.len() != 1 {
            self.error(file, span, "'List' requires exactly one parameter.".into());
            return None;
        }
        let elem = self.compile_as_type(file, &brand.params[0])?;
        // The reference checks the element's unconstrained kind without
        // checking that it is unconstrained: for a generic parameter it
        // reads the parameter's index there, so List(P) of the first
        // (index 0) or second (index 1) parameter of a scope or method is
        // refused as List(AnyPointer) or List(AnyStruct).
        let kind = match &elem {
            Type::AnyPointer(AnyPointer::Unconstrained(k)) => Some(*k),
            Type::AnyPointer(AnyPointer::Parameter { index, .. })
            | Type::AnyPointer(AnyPointer::ImplicitMethodParameter(index)) => Some(*index),
            _ => None,
        };
        match kind {
            Some(0) => {
                self.error(file, span, "'List(AnyPointer)' is not supported.".into());
                None
            }
            Some(1) => {
                self.error(file, span, "'List(AnyStruct)' is not supported.".into());
                None
            }
            _ => Some(Type::List(Box::new(elem))),
        }
    }

    /// Declaration `target` reached through the unbound level `unbound`,
    /// with its parameters bound to `params` (the reference's
    /// `BrandedDecl::applyParams`). A wrong number of parameters, or a
    /// second application, is an error and leaves it unbound.
    pub(super) fn apply_generic_params(
        &self,
        file: usize,
        e: &Expr,
        target: DeclTarget,
        unbound: Rc<BrandScope>,
        params: Vec<BrandedDecl>,
    ) -> BrandedDecl {
        let brand = if self.param_count_fits(file, e, &unbound, params.len()) {
            if target != DeclTarget::Builtin(Builtin::List) {
                self.check_pointer_params(file, &params);
            }
            BrandScope::new(
                unbound.leaf_id,
                unbound.leaf_params,
                false,
                params,
                unbound.parent.clone(),
            )
        } else {
            unbound
        };
        BrandedDecl::Decl {
            target,
            brand,
            span: e.span,
            text: expr_string(e),
        }
    }

    /// Whether `count` parameters can be applied to level `scope`: it has
    /// none bound yet and declares exactly that many. An error when not.
    fn param_count_fits(&self, file: usize, e: &Expr, scope: &BrandScope, count: usize) -> bool {
        let message = if !scope.params.is_empty() {
            "Double-application of generic parameters."
        } else if count > scope.leaf_params {
            if scope.leaf_params == 0 {
                "Declaration does not accept generic parameters."
            } else {
                "Too many generic parameters."
            }
        } else if count < scope.leaf_params {
            "Not enough generic parameters."
        } else {
            return true;
        };
        self.error(file, e.span, message.into());
        false
    }

    /// An error for each parameter that is not a pointer type (only
    /// structs, interfaces, lists, `Text`, `Data` and `AnyPointer` bind a
    /// generic parameter; unbound parameters pass).
    fn check_pointer_params(&self, file: usize, params: &[BrandedDecl]) {
        for p in params {
            let BrandedDecl::Decl { target, .. } = p else {
                continue;
            };
            let is_pointer = match target {
                DeclTarget::Builtin(b) => matches!(
                    b,
                    Builtin::List | Builtin::Text | Builtin::Data | Builtin::AnyPointer
                ),
                DeclTarget::Node(n) => matches!(
                    self.nodes[*n].kind,
                    NodeKindTag::Struct | NodeKindTag::Interface
                ),
            };
            if !is_pointer {
                self.error(
                    file,
                    p.span(),
                    "Sorry, only pointer types can be used as generic parameters.".into(),
                );
            }
        }
    }

    /// The schema type expression `e` names, written in node `scope_node`
    /// under `brand`.
    pub(super) fn compile_type(
        &self,
        scope_node: NodeIndex,
        brand: &Rc<BrandScope>,
        e: &Expr,
        imp: &ImplicitParams<'_>,
    ) -> Option<Type> {
        let d = self.compile_decl_expr(scope_node, brand, e, imp)?;
        self.compile_as_type(self.nodes[scope_node].file, &d)
    }
}
