//! Text to a message: a struct literal of the schema language built
//! through the dynamic builders, as `capnp convert text:binary` (0.9.2)
//! reads it.
//!
//! The text is read in three passes, none of which builds a tree of it.
//! First it is lexed as the schema compiler's lexer
//! (its `lex_tokens`) reads it, so literals,
//! escapes, comments and numbers read exactly as in a `.capnp` file.
//! Then it is checked as one expression, as the compiler's
//! `parse_expression` parses it. Both
//! passes report the first error those would, at the same place, and
//! allocate nothing. Last, the values are read again, token by token,
//! straight into the builders; a list's length is counted by reading its
//! items ahead.
//!
//! Values are checked against the schema by the rules of the reference's
//! `ValueTranslator` (node-translator.c++, `compileValue` and
//! `fillStructValue`) as its `TextCodec` (serialize-text.c++) uses them:
//! no constants, imports or embeds (the reference's text codec has no
//! schema scope to find them in and refuses them), integers range-checked
//! for their field's type and accepted for floats, a string for `Data` as
//! its bytes, `nan` and `inf` for floats, enumerants by name, groups as
//! nested tuples. Messages keep the reference's wording.
//!
//! The text is untrusted. Each limit bounds one thing:
//! - [`MAX_TEXT_BYTES`] bounds the input.
//! - The lexer's nesting limit (200 brackets) bounds the recursion of the
//!   syntax check.
//! - [`MAX_TEXT_DEPTH`] bounds the nesting of the values built.
//! - [`MAX_TEXT_WORDS`] bounds the message, counted before each part is
//!   made.
//!
//! The heap taken is the message's arena and the error's message: at
//! most about twice the message, plus a few kilobytes. The time is
//! linear in the text for each level of list nesting: a list is read
//! once to count its items and once to fill them. Every error is a
//! [`TextError`] with its line and column.

use capnarena::Arena;

use super::lex::{self, Tok, Token, item_end, skip_group, skip_trivia, token};
use super::syntax;
use crate::builder::DynamicListBuilder;
use crate::builder::{DynamicStructBuilder, DynamicValueBuilder};
use crate::schema::Schema;
use crate::types::Type;
use crate::value::{DynamicEnum, DynamicValue};

/// Largest text read as one message: 16 MiB.
pub const MAX_TEXT_BYTES: usize = 16 << 20;

/// Deepest nesting of structs, groups and lists in one message's text:
/// 64, the readers' default nesting limit, so whatever is built reads
/// back with default options (the lexer refuses brackets nested past 200
/// before this is reached).
pub const MAX_TEXT_DEPTH: u32 = 64;

/// Most words one message's text may build: 8 Mi words (64 MiB), the
/// readers' default traversal limit. A short text can ask for a large
/// message (`[(), (), ...]` of a struct of many words); this bounds it.
pub const MAX_TEXT_WORDS: u64 = 8 << 20;

/// Text that could not be read as a message of the schema: where, and
/// what (the reference's message, such as `Struct has no field named
/// 'x'.`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// 1-based line of the text where the problem starts.
    pub line: u32,
    /// 1-based column (in bytes) on that line.
    pub column: u32,
    /// Byte offset in the text.
    pub offset: u32,
    /// What is wrong.
    pub message: String,
}

impl core::fmt::Display for TextError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for TextError {}

type Result<T> = core::result::Result<T, TextError>;

/// Fills `root` from `text`, a struct literal `( name = value, ... )`:
/// what `capnp convert text:binary` reads for one message. Fields are set
/// in the order written (a later assignment to the same field replaces
/// the earlier one; a group is cleared when assigned, as the reference
/// does).
///
/// # Errors
/// A [`TextError`] at the first problem: text that does not lex or parse
/// (`Parse error.`), empty text (`Failed to read input.`), more after the
/// struct (`Extra tokens in input.`), something other than a struct
/// (`Input does not contain a struct.`), an unknown field, a value of the
/// wrong type or out of range, a name of a constant (`External constants
/// not allowed.`), or a limit passed. `root` may then be partly filled.
pub fn parse_struct<A: Arena + ?Sized>(
    text: &[u8],
    root: &mut DynamicStructBuilder<'_, A>,
) -> Result<()> {
    let err = |(at, message): lex::Fail| locate(text, at as u32, message);
    if text.len() > MAX_TEXT_BYTES {
        return Err(err((
            0,
            format!(
                "Text of {} bytes is over the limit of {MAX_TEXT_BYTES} bytes for one message.",
                text.len()
            ),
        )));
    }
    lex::check(text).map_err(err)?;
    let first = skip_trivia(text, 0);
    if first == text.len() {
        return Err(err((0, "Failed to read input.".into())));
    }
    syntax::check(text).map_err(err)?;
    let view = view(text, first);
    let Val::Tuple(open) = view.val else {
        return Err(err((view.at, "Input does not contain a struct.".into())));
    };
    let mut filler = Filler { text, words: 0 };
    filler.fill_struct(root, open, 1)
}

/// Line and column of byte `offset` in `text`.
fn locate(text: &[u8], offset: u32, message: String) -> TextError {
    let before = &text[..(offset as usize).min(text.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() as u32 + 1;
    let line_start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    TextError {
        line,
        column: (before.len() - line_start) as u32 + 1,
        offset,
        message,
    }
}

/// What an expression of a checked text is, as the compiler's parser
/// would have built it; offsets where its parts start.
#[derive(Clone, Copy)]
enum Val {
    /// A relative name: the identifier's start and end.
    Name(usize, usize),
    /// An absolute name, an import, a member or an application.
    External,
    Embed,
    PosInt(u64),
    /// A negative integer: its magnitude.
    NegInt(u64),
    Float(f64),
    /// Strings in a row: the first one's `"`.
    Str(usize),
    /// `0x"..."`: its start.
    Binary(usize),
    /// `[`.
    List(usize),
    /// `(`, of a tuple (not a parenthesized value).
    Tuple(usize),
}

/// An expression and its start as the compiler spans it (where errors
/// about it are reported).
#[derive(Clone, Copy)]
struct View {
    val: Val,
    at: usize,
}

fn tok(s: &[u8], at: usize) -> Option<Token> {
    token(s, at).ok().flatten()
}

/// The tuple item at `at` when it is `name = value`: the name's token and
/// where the value starts.
fn named(s: &[u8], at: usize) -> Option<(Token, usize)> {
    let name = tok(s, at).filter(|t| t.tok == Tok::Ident)?;
    let eq_at = skip_trivia(s, name.end);
    let eq = tok(s, eq_at).filter(|t| t.tok == Tok::Op && &s[t.start..t.end] == b"=")?;
    Some((name, skip_trivia(s, eq.end)))
}

/// The item after the one starting at `at` in a bracket: its start, or
/// `None` after the last.
fn next_item(s: &[u8], at: usize) -> Option<usize> {
    let end = item_end(s, at);
    if s.get(end) != Some(&b',') {
        return None;
    }
    let next = skip_trivia(s, end + 1);
    (!matches!(s.get(next), Some(b')' | b']'))).then_some(next)
}

/// The first item of the bracket opened at `open`, `None` when empty.
fn first_item(s: &[u8], open: usize) -> Option<usize> {
    let at = skip_trivia(s, open + 1);
    (!matches!(s.get(at), Some(b')' | b']'))).then_some(at)
}

/// The one item of the parentheses opened at `open` when it has exactly
/// one and it has no name: where it starts, and the offset past the
/// closing parenthesis. The item is read once.
fn single_item(s: &[u8], open: usize) -> Option<(usize, usize)> {
    let f = first_item(s, open)?;
    if named(s, f).is_some() {
        return None;
    }
    let mut end = item_end(s, f);
    if s.get(end) == Some(&b',') {
        // A trailing empty item after a comma is dropped.
        end = skip_trivia(s, end + 1);
    }
    (s.get(end) == Some(&b')')).then_some((f, end + 1))
}

/// The expression starting at `at` of a checked text. Reads its tokens
/// again (and the brackets it opens, to find what follows them).
fn view(s: &[u8], at: usize) -> View {
    let Some(t) = tok(s, at) else {
        return View {
            val: Val::External,
            at,
        };
    };
    let text = &s[t.start..t.end];
    let (val, start, end) = match t.tok {
        Tok::Int(v) => (Val::PosInt(v), t.start, t.end),
        Tok::Float(v) => (Val::Float(v), t.start, t.end),
        Tok::Op if text == b"-" => match tok(s, skip_trivia(s, t.end)) {
            Some(n) => match n.tok {
                Tok::Int(v) => (Val::NegInt(v), n.start, n.end),
                Tok::Float(v) => (Val::Float(-v), n.start, n.end),
                _ => (Val::Float(f64::NEG_INFINITY), t.start, n.end),
            },
            None => (Val::External, t.start, t.end),
        },
        Tok::Op => {
            // `.name`: an absolute name.
            let end = tok(s, skip_trivia(s, t.end)).map_or(t.end, |n| n.end);
            (Val::External, t.start, end)
        }
        Tok::Str => {
            let mut end = t.end;
            while let Some(n) = tok(s, skip_trivia(s, end)).filter(|n| n.tok == Tok::Str) {
                end = n.end;
            }
            (Val::Str(t.start), t.start, end)
        }
        Tok::Binary => (Val::Binary(t.start), t.start, t.end),
        Tok::Bracket => (Val::List(t.start), t.start, skip_group(s, t.start)),
        Tok::Paren => match single_item(s, t.start) {
            // A parenthesized value: the value itself.
            Some((f, end)) => {
                let inner = view(s, f);
                (inner.val, inner.at, end)
            }
            None => (Val::Tuple(t.start), t.start, skip_group(s, t.start)),
        },
        Tok::Ident => {
            let file = tok(s, skip_trivia(s, t.end)).filter(|n| n.tok == Tok::Str);
            match (text, file) {
                (b"import", Some(n)) => (Val::External, t.start, n.end),
                (b"embed", Some(n)) => (Val::Embed, t.start, n.end),
                _ => (Val::Name(t.start, t.end), t.start, t.end),
            }
        }
    };
    // A member or an application follows: a name of something external.
    let val = if tok(s, skip_trivia(s, end)).is_some() {
        Val::External
    } else {
        val
    };
    View { val, at: start }
}

/// A value as the expression says it, before it is stored: the
/// reference's `compileValueInner` result.
enum Literal {
    Void,
    Bool(bool),
    /// A negative integer.
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(Val),
    Data(Val),
    Enum(u16),
    List(usize),
    Struct(usize),
}

struct Filler<'t> {
    text: &'t [u8],
    /// Words the message has taken so far (estimated from what was
    /// initialised: sections, list bodies, text and data).
    words: u64,
}

impl Filler<'_> {
    fn error(&self, at: usize, message: impl Into<String>) -> TextError {
        locate(self.text, at as u32, message.into())
    }

    fn wire(&self, at: usize, e: crate::Error) -> TextError {
        self.error(at, e.to_string())
    }

    fn enter(&self, depth: u32, at: usize) -> Result<u32> {
        if depth >= MAX_TEXT_DEPTH {
            return Err(self.error(
                at,
                format!("Value nests more than {MAX_TEXT_DEPTH} levels deep (structs, groups and lists)."),
            ));
        }
        Ok(depth + 1)
    }

    fn take_words(&mut self, words: u64, at: usize) -> Result<()> {
        self.words = self.words.saturating_add(words);
        if self.words > MAX_TEXT_WORDS {
            return Err(self.error(
                at,
                format!("The message would take more than {MAX_TEXT_WORDS} words."),
            ));
        }
        Ok(())
    }

    /// Fills `b` from the tuple opened at `open`.
    fn fill_struct<A: Arena + ?Sized>(
        &mut self,
        b: &mut DynamicStructBuilder<'_, A>,
        open: usize,
        depth: u32,
    ) -> Result<()> {
        let s = self.text;
        let mut item = first_item(s, open);
        while let Some(at) = item {
            item = next_item(s, at);
            let Some((name_tok, value_at)) = named(s, at) else {
                return Err(self.error(view(s, at).at, "Missing field name."));
            };
            // An identifier is ASCII.
            let name = core::str::from_utf8(&s[name_tok.start..name_tok.end]).unwrap_or("");
            let Ok(field) = b.schema().field_by_name(name) else {
                return Err(self.error(
                    name_tok.start,
                    format!("Struct has no field named '{name}'."),
                ));
            };
            let value = view(s, value_at);
            let span = value.at;
            if field.is_group() {
                let Val::Tuple(inner) = value.val else {
                    return Err(self.error(span, "Type mismatch; expected group."));
                };
                let inner_depth = self.enter(depth, span)?;
                let g = b.init(&field).map_err(|e| self.wire(span, e))?;
                let DynamicValueBuilder::Struct(mut g) = g else {
                    return Err(self.error(span, "Type mismatch; expected group."));
                };
                self.fill_struct(&mut g, inner, inner_depth)?;
                continue;
            }
            let ty = field.ty().map_err(|e| self.wire(name_tok.start, e))?;
            let schema = b.schema().schema();
            match self.literal(schema, &value, &ty)? {
                Literal::Text(blob) | Literal::Data(blob) => {
                    let len = self.blob_len(blob, span)?;
                    let v = b.init_list(&field, len).map_err(|e| self.wire(span, e))?;
                    if !self.copy_blob(v, blob) {
                        return Err(self.mismatch(schema, span, &ty));
                    }
                }
                Literal::List(items) => {
                    let inner = self.enter(depth, span)?;
                    let Type::List(element) = &ty else {
                        return Err(self.mismatch(schema, span, &ty));
                    };
                    let len = self.list_len(items, element, schema, span)?;
                    let v = b.init_list(&field, len).map_err(|e| self.wire(span, e))?;
                    let DynamicValueBuilder::List(mut l) = v else {
                        return Err(self.mismatch(schema, span, &ty));
                    };
                    self.fill_list(schema, &mut l, items, element, inner)?;
                }
                Literal::Struct(params) => {
                    let inner = self.enter(depth, span)?;
                    let v = b.init(&field).map_err(|e| self.wire(span, e))?;
                    let DynamicValueBuilder::Struct(mut st) = v else {
                        return Err(self.mismatch(schema, span, &ty));
                    };
                    let size = st.schema().size();
                    self.take_words(u64::from(size.data_words) + u64::from(size.pointers), span)?;
                    self.fill_struct(&mut st, params, inner)?;
                }
                scalar => {
                    let v = self.scalar(schema, scalar, &ty, span)?;
                    b.set(&field, v).map_err(|e| self.wire(span, e))?;
                }
            }
        }
        Ok(())
    }

    /// Fills `l` from the items of the list opened at `open`.
    fn fill_list<'s, A: Arena + ?Sized>(
        &mut self,
        schema: &'s Schema<'s>,
        l: &mut DynamicListBuilder<'_, A>,
        open: usize,
        element: &Type,
        depth: u32,
    ) -> Result<()> {
        let s = self.text;
        let mut item = first_item(s, open);
        let mut i = 0u32;
        while let Some(at) = item {
            item = next_item(s, at);
            let value = view(s, at);
            let span = value.at;
            match self.literal(schema, &value, element)? {
                Literal::Text(blob) | Literal::Data(blob) => {
                    let len = self.blob_len(blob, span)?;
                    let v = l.init(i, len).map_err(|e| self.wire(span, e))?;
                    if !self.copy_blob(v, blob) {
                        return Err(self.mismatch(schema, span, element));
                    }
                }
                Literal::List(inner_items) => {
                    let inner = self.enter(depth, span)?;
                    let Type::List(inner_element) = element else {
                        return Err(self.mismatch(schema, span, element));
                    };
                    let len = self.list_len(inner_items, inner_element, schema, span)?;
                    let v = l.init(i, len).map_err(|e| self.wire(span, e))?;
                    let DynamicValueBuilder::List(mut inner_list) = v else {
                        return Err(self.mismatch(schema, span, element));
                    };
                    self.fill_list(schema, &mut inner_list, inner_items, inner_element, inner)?;
                }
                Literal::Struct(params) => {
                    let inner = self.enter(depth, span)?;
                    let v = l.get(i).map_err(|e| self.wire(span, e))?;
                    let DynamicValueBuilder::Struct(mut st) = v else {
                        return Err(self.mismatch(schema, span, element));
                    };
                    self.fill_struct(&mut st, params, inner)?;
                }
                scalar => {
                    let v = self.scalar(schema, scalar, element, span)?;
                    l.set(i, v).map_err(|e| self.wire(span, e))?;
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Gives each byte of a text or data value to `out`: strings in a row
    /// decoded and joined, or a binary literal's bytes.
    fn blob_bytes(&self, blob: Val, mut out: impl FnMut(u8)) {
        let s = self.text;
        // The text was checked: these reads do not fail.
        match blob {
            Val::Str(mut at) => {
                while let Some(t) = tok(s, at).filter(|t| t.tok == Tok::Str) {
                    let _ = lex::string(s, t.start, &mut out);
                    at = skip_trivia(s, t.end);
                }
            }
            Val::Binary(at) => {
                let _ = lex::binary(s, at, out);
            }
            _ => {}
        }
    }

    /// The length of a text or data value, its words counted.
    fn blob_len(&mut self, blob: Val, at: usize) -> Result<u32> {
        let mut n = 0usize;
        self.blob_bytes(blob, |_| n += 1);
        let len = u32::try_from(n)
            .ok()
            .filter(|&n| n < (1 << 29) - 1)
            .ok_or_else(|| self.error(at, "Text or data is too long for a message."))?;
        self.take_words(u64::from(len).div_ceil(8) + 1, at)?;
        Ok(len)
    }

    /// Copies text or data bytes into the value `init_list` made for them
    /// (of their length); `false` when it is neither text nor data of that
    /// length.
    fn copy_blob<A: Arena + ?Sized>(&self, v: DynamicValueBuilder<'_, A>, blob: Val) -> bool {
        let dst = match v {
            DynamicValueBuilder::Text(t) => t.into_bytes(),
            DynamicValueBuilder::Data(d) => d,
            _ => return false,
        };
        let mut i = 0usize;
        let mut fits = true;
        self.blob_bytes(blob, |b| {
            match dst.get_mut(i) {
                Some(d) => *d = b,
                None => fits = false,
            }
            i += 1;
        });
        fits && i == dst.len()
    }

    /// The length of the list opened at `open` (its items counted by
    /// reading ahead), its body's words counted.
    fn list_len(
        &mut self,
        open: usize,
        element: &Type,
        schema: &Schema<'_>,
        at: usize,
    ) -> Result<u32> {
        let mut count = 0usize;
        let mut item = first_item(self.text, open);
        while let Some(i) = item {
            count += 1;
            item = next_item(self.text, i);
        }
        let len = u32::try_from(count)
            .ok()
            .filter(|&n| n < 1 << 29)
            .ok_or_else(|| self.error(at, "List is too long for a message."))?;
        let n = u64::from(len);
        let words = match element {
            Type::Void => 0,
            Type::Bool => n.div_ceil(64),
            Type::Int8 | Type::UInt8 => n.div_ceil(8),
            Type::Int16 | Type::UInt16 | Type::Enum(_) => n.div_ceil(4),
            Type::Int32 | Type::UInt32 | Type::Float32 => n.div_ceil(2),
            Type::Struct(st) => {
                let size = schema.struct_of(st).map_err(|e| self.wire(at, e))?.size();
                n * (u64::from(size.data_words) + u64::from(size.pointers)) + 1
            }
            _ => n,
        };
        self.take_words(words + 1, at)?;
        Ok(len)
    }

    fn mismatch(&self, schema: &Schema<'_>, at: usize, ty: &Type) -> TextError {
        self.error(
            at,
            format!("Type mismatch; expected {}.", type_name(schema, ty)),
        )
    }

    /// The expression as a value of `ty`: the reference's
    /// `compileValueInner`, then `compileValue`'s check of the result
    /// against the type.
    fn literal(&self, schema: &Schema<'_>, e: &View, ty: &Type) -> Result<Literal> {
        let lit = match e.val {
            Val::Name(start, end) => {
                // An identifier is ASCII.
                let id = core::str::from_utf8(&self.text[start..end]).unwrap_or("");
                if let Type::Enum(enum_id) = ty {
                    let en = schema
                        .enum_schema(*enum_id)
                        .map_err(|err| self.wire(e.at, err))?;
                    match en.value_by_name(id) {
                        Ok(v) => Literal::Enum(v.value()),
                        Err(_) => return Err(self.error(e.at, "External constants not allowed.")),
                    }
                } else {
                    match id {
                        "void" => Literal::Void,
                        "true" => Literal::Bool(true),
                        "false" => Literal::Bool(false),
                        "nan" => Literal::Float(f64::NAN),
                        "inf" => Literal::Float(f64::INFINITY),
                        _ => return Err(self.error(e.at, "External constants not allowed.")),
                    }
                }
            }
            Val::External => return Err(self.error(e.at, "External constants not allowed.")),
            Val::Embed => return Err(self.error(e.at, "External embeds not allowed.")),
            Val::PosInt(v) => Literal::UInt(v),
            Val::NegInt(m) => {
                if m > 1 << 63 {
                    return Err(self.error(e.at, "Integer is too big to be negative."));
                }
                // 2^63 is i64::MIN's magnitude: the wrapping negation is exact.
                match (m as i64).wrapping_neg() {
                    0 => Literal::UInt(0),
                    v => Literal::Int(v),
                }
            }
            Val::Float(f) => Literal::Float(f),
            Val::Str(_) => {
                if matches!(ty, Type::Data) {
                    Literal::Data(e.val)
                } else {
                    Literal::Text(e.val)
                }
            }
            Val::Binary(_) => {
                if !matches!(ty, Type::Data) {
                    return Err(self.mismatch(schema, e.at, ty));
                }
                Literal::Data(e.val)
            }
            Val::List(open) => {
                if !matches!(ty, Type::List(_)) {
                    return Err(self.mismatch(schema, e.at, ty));
                }
                Literal::List(open)
            }
            Val::Tuple(open) => {
                if !matches!(ty, Type::Struct(_)) {
                    return Err(self.mismatch(schema, e.at, ty));
                }
                Literal::Struct(open)
            }
        };
        let fits = match (&lit, ty) {
            (Literal::Void, Type::Void) | (Literal::Bool(_), Type::Bool) => true,
            (Literal::Int(v), _) => match min_of(ty) {
                Some(min) if *v < min => {
                    return Err(self.error(e.at, "Integer value out of range."));
                }
                Some(_) => true,
                None => false,
            },
            (Literal::UInt(v), _) => match max_of(ty) {
                Some(max) if *v > max => {
                    return Err(self.error(e.at, "Integer value out of range."));
                }
                Some(_) => true,
                None => false,
            },
            (Literal::Float(_), Type::Float32 | Type::Float64) => true,
            (Literal::Text(_), Type::Text) | (Literal::Data(_), Type::Data) => true,
            (Literal::Enum(_), Type::Enum(_)) => true,
            (Literal::List(_), Type::List(_)) | (Literal::Struct(_), Type::Struct(_)) => true,
            _ => false,
        };
        if !fits {
            return Err(self.mismatch(schema, e.at, ty));
        }
        Ok(lit)
    }

    /// A checked scalar literal as the value the builder stores.
    fn scalar<'s>(
        &self,
        schema: &'s Schema<'s>,
        lit: Literal,
        ty: &Type,
        at: usize,
    ) -> Result<DynamicValue<'s>> {
        // `literal` checked the range: the casts below are exact, except
        // integers and Float64 into floats, which round as the reference's
        // conversions do (one rounding, straight to the field's width).
        Ok(match (lit, ty) {
            (Literal::Void, _) => DynamicValue::Void,
            (Literal::Bool(b), _) => DynamicValue::Bool(b),
            (Literal::Enum(v), Type::Enum(id)) => {
                let en = schema.enum_schema(*id).map_err(|e| self.wire(at, e))?;
                DynamicValue::Enum(DynamicEnum::new(v, en))
            }
            (Literal::Int(v), t) => int_value(v as i128, t),
            (Literal::UInt(v), t) => int_value(i128::from(v), t),
            (Literal::Float(f), Type::Float32) => DynamicValue::Float32(f as f32),
            (Literal::Float(f), _) => DynamicValue::Float64(f),
            _ => return Err(self.mismatch(schema, at, ty)),
        })
    }
}

/// An integer checked to fit `ty` as the value the builder stores.
fn int_value(v: i128, ty: &Type) -> DynamicValue<'static> {
    match ty {
        Type::Int8 => DynamicValue::Int8(v as i8),
        Type::Int16 => DynamicValue::Int16(v as i16),
        Type::Int32 => DynamicValue::Int32(v as i32),
        Type::Int64 => DynamicValue::Int64(v as i64),
        Type::UInt8 => DynamicValue::UInt8(v as u8),
        Type::UInt16 => DynamicValue::UInt16(v as u16),
        Type::UInt32 => DynamicValue::UInt32(v as u32),
        Type::Float32 => {
            if v < 0 {
                DynamicValue::Float32(v as i64 as f32)
            } else {
                DynamicValue::Float32(v as u64 as f32)
            }
        }
        Type::Float64 => {
            if v < 0 {
                DynamicValue::Float64(v as i64 as f64)
            } else {
                DynamicValue::Float64(v as u64 as f64)
            }
        }
        _ => DynamicValue::UInt64(v as u64),
    }
}

/// The smallest value of an integer (or float) type; `None` for other types.
fn min_of(ty: &Type) -> Option<i64> {
    Some(match ty {
        Type::Int8 => i8::MIN.into(),
        Type::Int16 => i16::MIN.into(),
        Type::Int32 => i32::MIN.into(),
        Type::Int64 | Type::Float32 | Type::Float64 => i64::MIN,
        Type::UInt8 | Type::UInt16 | Type::UInt32 | Type::UInt64 => 0,
        _ => return None,
    })
}

/// The largest value of an integer (or float) type; `None` for other types.
fn max_of(ty: &Type) -> Option<u64> {
    Some(match ty {
        Type::Int8 => i8::MAX as u64,
        Type::Int16 => i16::MAX as u64,
        Type::Int32 => i32::MAX as u64,
        Type::Int64 => i64::MAX as u64,
        Type::UInt8 => u8::MAX.into(),
        Type::UInt16 => u16::MAX.into(),
        Type::UInt32 => u32::MAX.into(),
        Type::UInt64 | Type::Float32 | Type::Float64 => u64::MAX,
        _ => return None,
    })
}

/// The type's name as the reference's `makeTypeName` writes it in
/// `Type mismatch; expected ...` (a struct or enum by its own name).
fn type_name(schema: &Schema<'_>, ty: &Type) -> String {
    match ty {
        Type::List(e) => format!("List({})", type_name(schema, e)),
        Type::Struct(st) => schema
            .struct_of(st)
            .map(|s| s.name().to_string())
            .unwrap_or_else(|_| ty.to_string()),
        Type::Enum(id) => schema
            .enum_schema(*id)
            .map(|e| e.name().to_string())
            .unwrap_or_else(|_| ty.to_string()),
        Type::Interface(id) => schema
            .interface_schema(*id)
            .map(|i| short(i.display_name()).to_string())
            .unwrap_or_else(|_| ty.to_string()),
        _ => ty.to_string(),
    }
}

/// A display name past its scope's prefix (`file.capnp:Outer.Inner` ->
/// `Inner`).
fn short(display: &str) -> &str {
    display.rsplit([':', '.']).next().unwrap_or(display)
}
