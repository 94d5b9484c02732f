//! Statements to declarations: the schema language's grammar, tried
//! alternative by alternative like the reference parser, with the error
//! placed at the furthest token any alternative reached.

use crate::ast::*;
use crate::lexer::{Statement, Tok, Token};
use crate::limits;

mod expr;

pub use expr::parse_expression;

/// An error found while parsing: where and what.
pub type ParseError = (Span, String);

#[derive(Clone, Copy, PartialEq)]
enum Level {
    File,
    Struct,
    Interface,
    Enum,
}

/// Parses a file's statements into its root declaration. Errors go to
/// `errors`; statements that fail to parse are left out.
pub fn parse_file(statements: &[Statement], errors: &mut Vec<ParseError>) -> Decl {
    let mut file = Decl {
        name: Located {
            value: String::new(),
            span: Span::default(),
        },
        id: DeclId::Unspecified,
        params: Vec::new(),
        annotations: Vec::new(),
        doc: None,
        span: Span::default(),
        kind: DeclKind::File,
        nested: Vec::new(),
    };
    for st in statements {
        let Some(decl) = parse_statement(st, Level::File, errors) else {
            continue;
        };
        match decl {
            Parsed::NakedId(id, doc, span) => {
                if matches!(file.id, DeclId::Uid(_)) {
                    errors.push((span, "File can only have one ID.".into()));
                } else {
                    file.id = DeclId::Uid(id);
                    file.doc = doc;
                }
            }
            Parsed::NakedAnnotation(a) => file.annotations.push(a),
            Parsed::Decl(d) => file.nested.push(d),
        }
    }
    file
}

enum Parsed {
    Decl(Decl),
    NakedId(Located<u64>, Option<Vec<u8>>, Span),
    NakedAnnotation(AnnotationApp),
}

/// What a statement's head parses to, and which level its block holds.
struct Head {
    decl: Parsed,
    block: Option<Level>,
    errors: Vec<ParseError>,
}

type Alt = for<'x, 'y> fn(&'x mut P<'y>) -> Option<Head>;

/// One statement at `level` (file, struct, interface, ...): the first of
/// the level's alternatives that parses it whole, as the reference's
/// parser tries them, or the errors of the one that got furthest. Longer
/// than most: the table of alternatives per level and the choice among
/// their results read best in one place.
fn parse_statement(st: &Statement, level: Level, errors: &mut Vec<ParseError>) -> Option<Parsed> {
    let toks = &st.tokens;
    let alts: &[Alt] = match level {
        Level::File => &[
            |p| p.using_decl(),
            |p| p.const_decl(),
            |p| p.annotation_decl(),
            |p| p.enum_decl(),
            |p| p.struct_decl(),
            |p| p.interface_decl(),
            |p| p.naked_id(),
            |p| p.naked_annotation(),
        ],
        Level::Struct => &[
            |p| p.union_decl(),
            |p| p.field_decl(),
            |p| p.group_decl(),
            |p| p.using_decl(),
            |p| p.const_decl(),
            |p| p.annotation_decl(),
            |p| p.enum_decl(),
            |p| p.struct_decl(),
            |p| p.interface_decl(),
        ],
        Level::Interface => &[
            |p| p.method_decl(),
            |p| p.using_decl(),
            |p| p.const_decl(),
            |p| p.annotation_decl(),
            |p| p.enum_decl(),
            |p| p.struct_decl(),
            |p| p.interface_decl(),
        ],
        Level::Enum => &[|p| p.enumerant_decl()],
    };
    let mut best = 0usize;
    let mut head = None;
    let mut limit = None;
    for alt in alts {
        let mut p = P::sub(toks);
        let r = alt(&mut p);
        best = best.max(p.best.get()).max(p.pos);
        limit = limit.or(p.limit.take());
        if let Some(mut h) = r {
            if p.pos == toks.len() {
                h.errors = p.errors;
                head = Some(h);
                break;
            }
        }
    }
    let Some(mut head) = head else {
        if let Some(e) = limit {
            errors.push(e);
            return None;
        }
        let at = if best < toks.len() {
            toks[best].span.start
        } else if let Some(last) = toks.last() {
            last.span.end
        } else {
            st.span.start
        };
        errors.push((Span::new(at, at), "Parse error.".into()));
        return None;
    };
    errors.append(&mut head.errors);
    match &mut head.decl {
        Parsed::Decl(d) => {
            d.doc = st.doc.clone();
            d.span = st.span;
            match (&st.block, head.block) {
                (None, Some(_)) => errors.push((
                    st.span,
                    "This statement should end with a block, not a semicolon.".into(),
                )),
                (Some(_), None) => errors.push((
                    st.span,
                    "This statement should end with a semicolon, not a block.".into(),
                )),
                (Some(block), Some(inner)) => {
                    for s in block {
                        if let Some(Parsed::Decl(n)) = parse_statement(s, inner, errors) {
                            d.nested.push(n);
                        }
                    }
                }
                (None, None) => {}
            }
        }
        Parsed::NakedId(_, doc, span) => {
            *doc = st.doc.clone();
            *span = st.span;
            if st.block.is_some() {
                errors.push((
                    st.span,
                    "This statement should end with a semicolon, not a block.".into(),
                ));
            }
        }
        Parsed::NakedAnnotation(_) => {
            if st.block.is_some() {
                errors.push((
                    st.span,
                    "This statement should end with a semicolon, not a block.".into(),
                ));
            }
        }
    }
    Some(head.decl)
}

struct P<'a> {
    toks: &'a [Token],
    pos: usize,
    /// One past the furthest token any matcher examined: the reference's
    /// token matchers consume a token and then reject it, so a failed
    /// match still advances its notion of how far parsing got.
    best: std::cell::Cell<usize>,
    errors: Vec<ParseError>,
    /// The depth of the expression `expr` (or `base_expr`) last returned,
    /// and after `items`, the deepest of the items' expressions: trees
    /// deeper than [`limits::MAX_EXPRESSION_DEPTH`] are refused as they
    /// are built, as every later walk over them recurses.
    depth: u32,
    /// A limit the statement ran into (expression depth, suffixes): the
    /// error reported for it, instead of a bare "Parse error.", when no
    /// reading of the statement succeeds.
    limit: Option<ParseError>,
}

fn empty_name(span: Span) -> Located<String> {
    Located {
        value: String::new(),
        span,
    }
}

impl<'a> P<'a> {
    fn sub(toks: &'a [Token]) -> P<'a> {
        P {
            toks,
            pos: 0,
            best: std::cell::Cell::new(0),
            errors: Vec::new(),
            depth: 0,
            limit: None,
        }
    }
    fn peek(&self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.best.set(self.best.get().max(self.pos + 1));
        }
        t
    }
    fn bump(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
            self.best.set(self.best.get().max(self.pos));
        }
        t
    }
    fn at_end(&self) -> bool {
        self.pos == self.toks.len()
    }
    fn op(&mut self, s: &str) -> bool {
        if let Some(Token {
            tok: Tok::Op(o), ..
        }) = self.peek()
        {
            if o == s {
                self.bump();
                return true;
            }
        }
        false
    }
    fn keyword(&mut self, s: &str) -> bool {
        if let Some(Token {
            tok: Tok::Ident(o), ..
        }) = self.peek()
        {
            if o == s {
                self.bump();
                return true;
            }
        }
        false
    }
    fn ident(&mut self) -> Option<Located<String>> {
        if let Some(Token {
            tok: Tok::Ident(o),
            span,
        }) = self.peek()
        {
            self.bump();
            return Some(Located {
                value: o.clone(),
                span: *span,
            });
        }
        None
    }
    fn int(&mut self) -> Option<Located<u64>> {
        if let Some(Token {
            tok: Tok::Int(v),
            span,
        }) = self.peek()
        {
            self.bump();
            return Some(Located {
                value: *v,
                span: *span,
            });
        }
        None
    }

    fn uid(&mut self) -> Option<Located<u64>> {
        let save = self.pos;
        if !self.op("@") {
            return None;
        }
        let Some(v) = self.int() else {
            self.pos = save;
            return None;
        };
        if v.value < (1u64 << 63) {
            self.errors.push((
                v.span,
                "Invalid ID.  Please generate a new one with 'capnpc -i'.".into(),
            ));
        }
        Some(v)
    }
    fn ordinal(&mut self) -> Option<Located<u64>> {
        let save = self.pos;
        if !self.op("@") {
            return None;
        }
        let Some(v) = self.int() else {
            self.pos = save;
            return None;
        };
        if v.value >= 65536 {
            self.errors
                .push((v.span, "Ordinals cannot be greater than 65535.".into()));
        }
        Some(v)
    }
    fn opt_uid(&mut self) -> DeclId {
        match self.uid() {
            Some(v) => DeclId::Uid(v),
            None => DeclId::Unspecified,
        }
    }

    /// Each comma-separated item of a paren/bracket token parsed whole by `f`.
    fn items<T>(
        &mut self,
        lists: &'a [Vec<Token>],
        f: impl Fn(&mut P<'a>) -> Option<T>,
    ) -> Option<Vec<T>> {
        let mut out = Vec::new();
        let mut deepest = 0;
        for item in lists {
            let mut p = P::sub(item);
            let v = f(&mut p);
            deepest = deepest.max(p.depth);
            self.depth = deepest;
            self.limit = self.limit.take().or(p.limit.take());
            self.errors.append(&mut p.errors);
            match v {
                Some(v) if p.at_end() => out.push(v),
                _ => {
                    let at = item
                        .get(p.best.get().max(p.pos))
                        .map(|t| t.span.start)
                        .or_else(|| item.last().map(|t| t.span.end))
                        .unwrap_or(0);
                    self.errors.push((Span::new(at, at), "Parse error.".into()));
                    return None;
                }
            }
        }
        self.depth = deepest;
        Some(out)
    }

    fn paren_idents(&mut self) -> Option<Vec<Located<String>>> {
        let save = self.pos;
        if let Some(Token {
            tok: Tok::Paren(lists),
            ..
        }) = self.peek()
        {
            self.bump();
            match self.items(lists, |p| p.ident()) {
                Some(v) => return Some(v),
                None => {
                    self.pos = save;
                    return None;
                }
            }
        }
        None
    }

    fn annotations(&mut self) -> Vec<AnnotationApp> {
        let mut out = Vec::new();
        loop {
            let save = self.pos;
            if !self.op("$") {
                break;
            }
            match self.expr() {
                Some(e) => out.push(annotation_from_expr(e)),
                None => {
                    self.pos = save;
                    break;
                }
            }
        }
        out
    }

    // ---- expressions ----

    fn param(&mut self) -> Option<Param> {
        let save = self.pos;
        if let Some(name) = self.ident() {
            if self.op("=") {
                let value = self.expr()?;
                return Some(Param {
                    name: Some(name),
                    value,
                });
            }
            self.pos = save;
        }
        let value = self.expr()?;
        Some(Param { name: None, value })
    }

    // ---- declarations ----

    fn decl(
        name: Located<String>,
        id: DeclId,
        params: Vec<Located<String>>,
        annotations: Vec<AnnotationApp>,
        kind: DeclKind,
    ) -> Parsed {
        Parsed::Decl(Decl {
            name,
            id,
            params,
            annotations,
            doc: None,
            span: Span::default(),
            kind,
            nested: Vec::new(),
        })
    }

    fn head(decl: Parsed, block: Option<Level>) -> Option<Head> {
        Some(Head {
            decl,
            block,
            errors: Vec::new(),
        })
    }

    fn using_decl(&mut self) -> Option<Head> {
        if !self.keyword("using") {
            return None;
        }
        let save = self.pos;
        let mut name = None;
        if let Some(n) = self.ident() {
            if self.op("=") {
                name = Some(n);
            } else {
                self.pos = save;
            }
        }
        let target = self.expr()?;
        let name = match name {
            Some(n) => n,
            None => match &target.kind {
                ExprKind::Member { name, .. } => name.clone(),
                _ => {
                    self.errors.push((
                        target.span,
                        "'using' declaration without '=' must specify a named declaration from a different scope.".into(),
                    ));
                    empty_name(target.span)
                }
            },
        };
        Self::head(
            Self::decl(
                name,
                DeclId::Unspecified,
                vec![],
                vec![],
                DeclKind::Using(target),
            ),
            None,
        )
    }

    fn const_decl(&mut self) -> Option<Head> {
        if !self.keyword("const") {
            return None;
        }
        let name = self.ident()?;
        let id = self.opt_uid();
        if !self.op(":") {
            return None;
        }
        let ty = self.expr()?;
        if !self.op("=") {
            return None;
        }
        let value = self.expr()?;
        let ann = self.annotations();
        Self::head(
            Self::decl(name, id, vec![], ann, DeclKind::Const { ty, value }),
            None,
        )
    }

    fn annotation_decl(&mut self) -> Option<Head> {
        if !self.keyword("annotation") {
            return None;
        }
        let name = self.ident()?;
        let id = self.opt_uid();
        let Some(Token {
            tok: Tok::Paren(lists),
            ..
        }) = self.peek()
        else {
            return None;
        };
        self.bump();
        let targets_raw = self.items(lists, |p| {
            if let Some(t) = p.peek() {
                if let Tok::Op(o) = &t.tok {
                    if o == "*" {
                        p.bump();
                        return Some(Located {
                            value: "*".to_string(),
                            span: t.span,
                        });
                    }
                }
            }
            p.ident()
        })?;
        let mut targets = [false; 12];
        let n = targets_raw.len();
        for t in &targets_raw {
            if t.value == "*" {
                if n > 1 {
                    self.errors.push((
                        t.span,
                        "Wildcard should not be specified together with other targets.".into(),
                    ));
                }
                targets = [true; 12];
            } else if let Some(i) = TARGET_NAMES.iter().position(|x| *x == t.value) {
                if targets[i] {
                    self.errors
                        .push((t.span, "Duplicate target specification.".into()));
                }
                targets[i] = true;
            } else {
                self.errors
                    .push((t.span, "Not a valid annotation target.".into()));
            }
        }
        if !self.op(":") {
            return None;
        }
        let ty = self.expr()?;
        let ann = self.annotations();
        Self::head(
            Self::decl(name, id, vec![], ann, DeclKind::Annotation { ty, targets }),
            None,
        )
    }

    fn enum_decl(&mut self) -> Option<Head> {
        if !self.keyword("enum") {
            return None;
        }
        let name = self.ident()?;
        let id = self.opt_uid();
        let ann = self.annotations();
        Self::head(
            Self::decl(name, id, vec![], ann, DeclKind::Enum),
            Some(Level::Enum),
        )
    }

    fn struct_decl(&mut self) -> Option<Head> {
        if !self.keyword("struct") {
            return None;
        }
        let name = self.ident()?;
        let id = self.opt_uid();
        let params = self.paren_idents().unwrap_or_default();
        let ann = self.annotations();
        Self::head(
            Self::decl(name, id, params, ann, DeclKind::Struct),
            Some(Level::Struct),
        )
    }

    fn interface_decl(&mut self) -> Option<Head> {
        if !self.keyword("interface") {
            return None;
        }
        let name = self.ident()?;
        let id = self.opt_uid();
        let params = self.paren_idents().unwrap_or_default();
        let mut superclasses = Vec::new();
        if self.keyword("extends") {
            let Some(Token {
                tok: Tok::Paren(lists),
                ..
            }) = self.peek()
            else {
                return None;
            };
            self.bump();
            superclasses = self.items(lists, |p| p.expr())?;
        }
        let ann = self.annotations();
        Self::head(
            Self::decl(name, id, params, ann, DeclKind::Interface { superclasses }),
            Some(Level::Interface),
        )
    }

    fn naked_id(&mut self) -> Option<Head> {
        let v = self.uid()?;
        Self::head(Parsed::NakedId(v, None, Span::default()), None)
    }

    fn naked_annotation(&mut self) -> Option<Head> {
        if !self.op("$") {
            return None;
        }
        let e = self.expr()?;
        Self::head(Parsed::NakedAnnotation(annotation_from_expr(e)), None)
    }

    fn enumerant_decl(&mut self) -> Option<Head> {
        let name = self.ident()?;
        let ord = self.ordinal()?;
        let ann = self.annotations();
        Self::head(
            Self::decl(name, DeclId::Ordinal(ord), vec![], ann, DeclKind::Enumerant),
            None,
        )
    }

    fn field_decl(&mut self) -> Option<Head> {
        let name = self.ident()?;
        let ord = self.ordinal()?;
        if !self.op(":") {
            return None;
        }
        let ty = self.expr()?;
        let mut default = None;
        let save = self.pos;
        if self.op("=") {
            match self.expr() {
                Some(e) => default = Some(e),
                None => self.pos = save,
            }
        }
        let ann = self.annotations();
        Self::head(
            Self::decl(
                name,
                DeclId::Ordinal(ord),
                vec![],
                ann,
                DeclKind::Field { ty, default },
            ),
            None,
        )
    }

    fn union_decl(&mut self) -> Option<Head> {
        if let Some(Token {
            tok: Tok::Ident(k),
            span,
        }) = self.peek()
        {
            if k == "union" && self.toks.len() == 1 {
                self.bump();
                return Self::head(
                    Self::decl(
                        empty_name(*span),
                        DeclId::Unspecified,
                        vec![],
                        vec![],
                        DeclKind::Union,
                    ),
                    Some(Level::Struct),
                );
            }
        }
        let name = self.ident()?;
        let id;
        if let Some(ord) = self.ordinal() {
            let excl = self.op("!");
            let colon = self.op(":");
            if !excl {
                self.errors.push((ord.span, "As of Cap'n Proto v0.3, it is no longer necessary to assign numbers to unions. However, removing the number will break binary compatibility. If this is an old protocol and you need to retain compatibility, please add an exclamation point after the number to indicate that it is really needed, e.g. `foo @1! :union {`. If this is a new protocol or compatibility doesn't matter, just remove the @n entirely. Sorry for the inconvenience, and thanks for being an early adopter!  :)".into()));
            }
            if !colon {
                self.errors.push((ord.span, "As of Cap'n Proto v0.3, the 'union' keyword should be prefixed with a colon for named unions, e.g. `foo :union {`.".into()));
            }
            id = DeclId::Ordinal(ord);
        } else if self.op(":") {
            id = DeclId::Unspecified;
        } else {
            return None;
        }
        if !self.keyword("union") {
            return None;
        }
        let ann = self.annotations();
        Self::head(
            Self::decl(name, id, vec![], ann, DeclKind::Union),
            Some(Level::Struct),
        )
    }

    fn group_decl(&mut self) -> Option<Head> {
        let name = self.ident()?;
        if !self.op(":") {
            return None;
        }
        if !self.keyword("group") {
            return None;
        }
        let ann = self.annotations();
        Self::head(
            Self::decl(name, DeclId::Unspecified, vec![], ann, DeclKind::Group),
            Some(Level::Struct),
        )
    }

    fn param_list(&mut self) -> Option<ParamList> {
        let t = self.peek()?;
        if let Tok::Paren(lists) = &t.tok {
            self.bump();
            let params = self.items(lists, |p| {
                let start = p.peek()?.span;
                let name = p.ident()?;
                if !p.op(":") {
                    return None;
                }
                let ty = p.expr()?;
                let mut default = None;
                let save = p.pos;
                if p.op("=") {
                    match p.expr() {
                        Some(e) => default = Some(e),
                        None => p.pos = save,
                    }
                }
                let annotations = p.annotations();
                let end = p.toks[p.pos - 1].span;
                Some(MethodParam {
                    name,
                    ty,
                    default,
                    annotations,
                    span: start.to(end),
                })
            })?;
            return Some(ParamList::Named(params, t.span));
        }
        if let Tok::Ident(k) = &t.tok {
            if k == "stream" {
                self.bump();
                return Some(ParamList::Stream(t.span));
            }
        }
        Some(ParamList::Type(self.expr()?))
    }

    fn method_decl(&mut self) -> Option<Head> {
        let name = self.ident()?;
        let ord = self.ordinal()?;
        let mut implicit_params = Vec::new();
        if let Some(Token {
            tok: Tok::Bracket(lists),
            ..
        }) = self.peek()
        {
            self.bump();
            implicit_params = self.items(lists, |p| p.ident())?;
        }
        let params = self.param_list()?;
        let mut results = None;
        if self.op("->") {
            results = Some(self.param_list()?);
        }
        let ann = self.annotations();
        Self::head(
            Self::decl(
                name,
                DeclId::Ordinal(ord),
                vec![],
                ann,
                DeclKind::Method {
                    implicit_params,
                    params,
                    results,
                },
            ),
            None,
        )
    }
}

fn annotation_from_expr(e: Expr) -> AnnotationApp {
    match e.kind {
        ExprKind::Application { func, mut params } => {
            if params.len() == 1 && params[0].name.is_none() {
                let v = params.pop().map(|p| p.value);
                AnnotationApp {
                    name: *func,
                    value: v,
                }
            } else {
                AnnotationApp {
                    name: *func,
                    value: Some(Expr {
                        kind: ExprKind::Tuple(params),
                        span: e.span,
                    }),
                }
            }
        }
        _ => AnnotationApp {
            name: e,
            value: None,
        },
    }
}
