//! Generics and brands.

use std::rc::Rc;

use super::scopes::{Builtin, Resolved, Target};
use super::{Ctx, NK, expr_string};
use crate::ast::*;
use crate::limits;
use crate::schema::{self, *};

#[derive(Debug)]
pub(super) struct BScope {
    pub(super) leaf_id: u64,
    pub(super) leaf_params: usize,
    pub(super) inherited: bool,
    pub(super) params: Vec<BDecl>,
    pub(super) parent: Option<Rc<BScope>>,
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

impl BScope {
    /// A scope with its size and depth computed from its parts.
    pub(super) fn new(
        leaf_id: u64,
        leaf_params: usize,
        inherited: bool,
        params: Vec<BDecl>,
        parent: Option<Rc<BScope>>,
    ) -> Rc<BScope> {
        let mut size = 1u32.saturating_add(parent.as_ref().map_or(0, |p| p.size));
        let mut depth = 1 + parent.as_ref().map_or(0, |p| p.depth);
        for p in &params {
            size = size.saturating_add(p.size());
            depth = depth.max(p.depth().saturating_add(1));
        }
        Rc::new(BScope {
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

#[derive(Clone, Debug)]
pub(super) enum BDecl {
    Decl {
        target: Target,
        brand: Rc<BScope>,
        span: Span,
        text: String,
    },
    Param {
        scope: u64,
        index: u16,
        span: Span,
        text: String,
    },
}

impl BDecl {
    pub(super) fn span(&self) -> Span {
        match self {
            BDecl::Decl { span, .. } | BDecl::Param { span, .. } => *span,
        }
    }
    pub(super) fn text(&self) -> &str {
        match self {
            BDecl::Decl { text, .. } | BDecl::Param { text, .. } => text,
        }
    }
    /// As [`BScope::size`].
    pub(super) fn size(&self) -> u32 {
        match self {
            BDecl::Decl { brand, .. } => brand.size,
            BDecl::Param { .. } => 1,
        }
    }
    /// As [`BScope::depth`].
    pub(super) fn depth(&self) -> u32 {
        match self {
            BDecl::Decl { brand, .. } => brand.depth,
            BDecl::Param { .. } => 1,
        }
    }
}

pub(super) fn simple_scope(leaf: u64) -> Rc<BScope> {
    BScope::new(leaf, 0, false, Vec::new(), None)
}

pub(super) fn pop(s: &Rc<BScope>, leaf: u64) -> Rc<BScope> {
    if s.leaf_id == leaf {
        return s.clone();
    }
    match &s.parent {
        Some(p) => pop(p, leaf),
        None => simple_scope(leaf),
    }
}

/// `d` with the parameters it names looked up in `s` (an alias's brand
/// reached through a branded scope, as the reference re-evaluates it).
/// Each scope written costs one unit of `budget`; once it is spent the
/// rest is left unbound (the caller reports the type as too large), so a
/// rebinding takes time in proportion to [`limits::MAX_TYPE_SIZE`].
pub(super) fn rebind(d: &BDecl, s: &Rc<BScope>, budget: &mut u32) -> BDecl {
    match d {
        BDecl::Param { scope, index, .. } => {
            lookup_param(s, *scope, *index).unwrap_or_else(|| d.clone())
        }
        // Out of budget: the rest stays unbound, marked as too large.
        BDecl::Decl {
            target,
            brand,
            span,
            text,
        } if *budget == 0 => BDecl::Decl {
            target: *target,
            brand: Rc::new(BScope {
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
        BDecl::Decl {
            target,
            brand,
            span,
            text,
        } => BDecl::Decl {
            target: *target,
            brand: rebind_scope(brand, s, budget),
            span: *span,
            text: text.clone(),
        },
    }
}

pub(super) fn params_for(s: &Rc<BScope>, leaf: u64) -> Option<Vec<BDecl>> {
    if s.leaf_id == leaf {
        if s.inherited {
            None
        } else {
            Some(s.params.clone())
        }
    } else {
        s.parent.as_ref().and_then(|p| params_for(p, leaf))
    }
}

pub(super) fn rebind_scope(b: &Rc<BScope>, s: &Rc<BScope>, budget: &mut u32) -> Rc<BScope> {
    *budget = budget.saturating_sub(1);
    let (params, inherited) = if b.inherited && b.leaf_params > 0 {
        match params_for(s, b.leaf_id) {
            Some(p) => (p, false),
            None => (Vec::new(), true),
        }
    } else {
        (
            b.params.iter().map(|p| rebind(p, s, budget)).collect(),
            b.inherited,
        )
    };
    let parent = b.parent.as_ref().map(|p| rebind_scope(p, s, budget));
    BScope::new(b.leaf_id, b.leaf_params, inherited, params, parent)
}

pub(super) fn push(s: &Rc<BScope>, id: u64, params: usize) -> Rc<BScope> {
    BScope::new(id, params, false, Vec::new(), Some(s.clone()))
}

pub(super) fn lookup_param(s: &Rc<BScope>, scope: u64, index: u16) -> Option<BDecl> {
    if s.leaf_id == scope {
        if (index as usize) < s.params.len() {
            Some(s.params[index as usize].clone())
        } else if s.inherited {
            None
        } else {
            Some(BDecl::Decl {
                target: Target::Builtin(Builtin::AnyPointer),
                brand: simple_scope(0),
                span: Span::default(),
                text: "AnyPointer".into(),
            })
        }
    } else {
        s.parent
            .as_ref()
            .and_then(|p| lookup_param(p, scope, index))
    }
}

#[derive(Clone)]
pub(super) struct Implicit<'b> {
    pub(super) scope_id: u64,
    pub(super) names: &'b [Located<String>],
}

pub(super) const NO_IMPLICIT: Implicit<'static> = Implicit {
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

pub(super) fn subst_brand(inner: &Option<Brand>, outer: &Brand) -> Option<Brand> {
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

impl<'a> Ctx<'a> {
    pub(super) fn local_brand(&self, idx: usize) -> Rc<BScope> {
        let n = &self.nodes[idx];
        BScope::new(
            n.id,
            self.param_count(idx),
            true,
            Vec::new(),
            n.parent.map(|p| self.local_brand(p)),
        )
    }

    pub(super) fn is_generic(&self, idx: usize) -> bool {
        let mut p = Some(idx);
        while let Some(i) = p {
            if self.param_count(i) > 0 {
                return true;
            }
            p = self.nodes[i].parent;
        }
        false
    }

    pub(super) fn interpret(&self, brand: &Rc<BScope>, r: Resolved, e: &Expr) -> BDecl {
        match r {
            Resolved::Decl {
                target,
                params,
                scope_id,
            } => {
                let id = match target {
                    Target::Node(t) => self.nodes[t].id,
                    Target::Builtin(b) => 1000 + b as u64,
                };
                let scope = push(&pop(brand, scope_id), id, params);
                BDecl::Decl {
                    target,
                    brand: scope,
                    span: e.span,
                    text: expr_string(e),
                }
            }
            Resolved::Param { scope, index } => match lookup_param(brand, scope, index) {
                Some(b) => b,
                None => BDecl::Param {
                    scope,
                    index,
                    span: e.span,
                    text: expr_string(e),
                },
            },
            Resolved::Branded(b, parent) => {
                let mut budget = limits::MAX_TYPE_SIZE.saturating_add(1);
                rebind(&b, &pop(brand, parent), &mut budget)
            }
        }
    }

    /// The brand levels `compile()` would emit for `s`.
    pub(super) fn brand_levels(&self, s: &Rc<BScope>) -> Vec<Rc<BScope>> {
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

    pub(super) fn compile_brand(&self, file: usize, s: &Rc<BScope>) -> Option<Brand> {
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

    pub(super) fn compile_as_type(&self, file: usize, d: &BDecl) -> Option<Type> {
        match d {
            BDecl::Param { scope, index, .. } => Some(Type::AnyPointer(if *scope == 0 {
                AnyPointer::ImplicitMethodParameter(*index)
            } else {
                AnyPointer::Parameter {
                    scope: *scope,
                    index: *index,
                }
            })),
            BDecl::Decl {
                target,
                brand,
                span,
                text,
            } => match target {
                Target::Node(n) => {
                    let id = self.nodes[*n].id;
                    match self.nodes[*n].kind {
                        NK::Enum => Some(Type::Enum(id, self.compile_brand(file, brand))),
                        NK::Struct => Some(Type::Struct(id, self.compile_brand(file, brand))),
                        NK::Interface => Some(Type::Interface(id, self.compile_brand(file, brand))),
                        _ => {
                            self.error(file, *span, format!("'{text}' is not a type."));
                            None
                        }
                    }
                }
                Target::Builtin(b) => Some(match b {
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
                    Builtin::List => {
                        if brand.params.len() != 1 {
                            self.error(
                                file,
                                *span,
                                "'List' requires exactly one parameter.".into(),
                            );
                            return None;
                        }
                        let elem = self.compile_as_type(file, &brand.params[0])?;
                        // The reference checks the element's unconstrained
                        // kind without checking that it is unconstrained:
                        // for a generic parameter it reads the parameter's
                        // index there, so List(P) of the first (index 0) or
                        // second (index 1) parameter of a scope or method is
                        // refused as List(AnyPointer) or List(AnyStruct).
                        let kind = match &elem {
                            Type::AnyPointer(AnyPointer::Unconstrained(k)) => Some(*k),
                            Type::AnyPointer(AnyPointer::Parameter { index, .. })
                            | Type::AnyPointer(AnyPointer::ImplicitMethodParameter(index)) => {
                                Some(*index)
                            }
                            _ => None,
                        };
                        match kind {
                            Some(0) => {
                                self.error(
                                    file,
                                    *span,
                                    "'List(AnyPointer)' is not supported.".into(),
                                );
                                return None;
                            }
                            Some(1) => {
                                self.error(
                                    file,
                                    *span,
                                    "'List(AnyStruct)' is not supported.".into(),
                                );
                                return None;
                            }
                            _ => {}
                        }
                        Type::List(Box::new(elem))
                    }
                    Builtin::Object => {
                        self.error(file, *span, "As of Cap'n Proto 0.4, 'Object' has been renamed to 'AnyPointer'.  Sorry for the inconvenience, and thanks for being an early adopter.  :)".into());
                        Type::AnyPointer(AnyPointer::Unconstrained(0))
                    }
                    Builtin::AnyPointer => Type::AnyPointer(AnyPointer::Unconstrained(0)),
                    Builtin::AnyStruct => Type::AnyPointer(AnyPointer::Unconstrained(1)),
                    Builtin::AnyList => Type::AnyPointer(AnyPointer::Unconstrained(2)),
                    Builtin::Capability => Type::AnyPointer(AnyPointer::Unconstrained(3)),
                }),
            },
        }
    }

    pub(super) fn compile_type(
        &self,
        scope_node: usize,
        brand: &Rc<BScope>,
        e: &Expr,
        imp: &Implicit<'_>,
    ) -> Option<Type> {
        let d = self.compile_decl_expr(scope_node, brand, e, imp)?;
        self.compile_as_type(self.nodes[scope_node].file, &d)
    }

    // Translation
}
