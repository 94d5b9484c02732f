//! The text parser as it was before it read the text as a stream: the
//! compiler's lexer and parser build a token tree and an expression tree
//! of the whole text, then the tree is built into the message. Kept here
//! only as the oracle of `tests/text_same.rs`, which checks that the
//! streaming parser accepts the same texts, builds the same messages and
//! reports the same first error at the same place.
#![allow(dead_code)]

use capnarena::Arena;
use capnarena_compiler::__private::{Expr, ExprKind, Param, Span, lex_tokens, parse_expression};

use capnarena_dynamic::DynamicListBuilder;
use capnarena_dynamic::Schema;
use capnarena_dynamic::Type;
use capnarena_dynamic::{DynamicEnum, DynamicValue};
use capnarena_dynamic::{DynamicStructBuilder, DynamicValueBuilder};

/// Largest text read as one message: 16 MiB.
pub(crate) const MAX_TEXT_BYTES: usize = 16 << 20;

/// Deepest nesting of structs, groups and lists in one message's text:
/// 64, the readers' default nesting limit, so whatever is built reads
/// back with default options (the lexer refuses brackets nested past 200
/// before this is reached).
pub(crate) const MAX_TEXT_DEPTH: u32 = 64;

/// Most words one message's text may build: 8 Mi words (64 MiB), the
/// readers' default traversal limit. A short text can ask for a large
/// message (`[(), (), ...]` of a struct of many words); this bounds it.
pub(crate) const MAX_TEXT_WORDS: u64 = 8 << 20;

/// Text that could not be read as a message of the schema: where, and
/// what (the reference's message, such as `Struct has no field named
/// 'x'.`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TextError {
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
pub(crate) fn parse_struct<A: Arena + ?Sized>(
    text: &[u8],
    root: &mut DynamicStructBuilder<'_, A>,
) -> Result<()> {
    let err = |span: Span, message: String| locate(text, span.start, message);
    if text.len() > MAX_TEXT_BYTES {
        return Err(err(
            Span::new(0, 0),
            format!(
                "Text of {} bytes is over the limit of {MAX_TEXT_BYTES} bytes for one message.",
                text.len()
            ),
        ));
    }
    let tokens = lex_tokens(text).map_err(|(span, m)| err(span, m))?;
    if tokens.is_empty() {
        return Err(err(Span::new(0, 0), "Failed to read input.".into()));
    }
    let expr = parse_expression(&tokens).map_err(|(span, m)| err(span, m))?;
    let ExprKind::Tuple(params) = &expr.kind else {
        return Err(err(expr.span, "Input does not contain a struct.".into()));
    };
    let mut filler = Filler { text, words: 0 };
    filler.fill_struct(root, params, 1)
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

/// A value as the expression says it, before it is stored: the
/// reference's `compileValueInner` result.
enum Literal<'e> {
    Void,
    Bool(bool),
    /// A negative integer.
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(&'e [u8]),
    Data(&'e [u8]),
    Enum(u16),
    List(&'e [Expr]),
    Struct(&'e [Param]),
}

struct Filler<'t> {
    text: &'t [u8],
    /// Words the message has taken so far (estimated from what was
    /// initialised: sections, list bodies, text and data).
    words: u64,
}

impl Filler<'_> {
    fn error(&self, span: Span, message: impl Into<String>) -> TextError {
        locate(self.text, span.start, message.into())
    }

    fn wire(&self, span: Span, e: capnarena_dynamic::Error) -> TextError {
        self.error(span, e.to_string())
    }

    fn enter(&self, depth: u32, span: Span) -> Result<u32> {
        if depth >= MAX_TEXT_DEPTH {
            return Err(self.error(
                span,
                format!("Value nests more than {MAX_TEXT_DEPTH} levels deep (structs, groups and lists)."),
            ));
        }
        Ok(depth + 1)
    }

    fn take_words(&mut self, words: u64, span: Span) -> Result<()> {
        self.words = self.words.saturating_add(words);
        if self.words > MAX_TEXT_WORDS {
            return Err(self.error(
                span,
                format!("The message would take more than {MAX_TEXT_WORDS} words."),
            ));
        }
        Ok(())
    }

    fn fill_struct<A: Arena + ?Sized>(
        &mut self,
        b: &mut DynamicStructBuilder<'_, A>,
        params: &[Param],
        depth: u32,
    ) -> Result<()> {
        for p in params {
            let Some(name) = &p.name else {
                return Err(self.error(p.value.span, "Missing field name."));
            };
            let Ok(field) = b.schema().field_by_name(&name.value) else {
                return Err(self.error(
                    name.span,
                    format!("Struct has no field named '{}'.", name.value),
                ));
            };
            if field.is_group() {
                let ExprKind::Tuple(inner) = &p.value.kind else {
                    return Err(self.error(p.value.span, "Type mismatch; expected group."));
                };
                let inner_depth = self.enter(depth, p.value.span)?;
                let g = b.init(&field).map_err(|e| self.wire(p.value.span, e))?;
                let DynamicValueBuilder::Struct(mut g) = g else {
                    return Err(self.error(p.value.span, "Type mismatch; expected group."));
                };
                self.fill_struct(&mut g, inner, inner_depth)?;
                continue;
            }
            let ty = field.ty().map_err(|e| self.wire(name.span, e))?;
            let schema = b.schema().schema();
            let span = p.value.span;
            match self.literal(schema, &p.value, &ty)? {
                Literal::Text(bytes) | Literal::Data(bytes) => {
                    let len = self.blob_len(bytes, span)?;
                    let v = b.init_list(&field, len).map_err(|e| self.wire(span, e))?;
                    if !copy_blob(v, bytes) {
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
                    let DynamicValueBuilder::Struct(mut s) = v else {
                        return Err(self.mismatch(schema, span, &ty));
                    };
                    let size = s.schema().size();
                    self.take_words(u64::from(size.data_words) + u64::from(size.pointers), span)?;
                    self.fill_struct(&mut s, params, inner)?;
                }
                scalar => {
                    let v = self.scalar(schema, scalar, &ty, span)?;
                    b.set(&field, v).map_err(|e| self.wire(span, e))?;
                }
            }
        }
        Ok(())
    }

    fn fill_list<'s, A: Arena + ?Sized>(
        &mut self,
        schema: &'s Schema<'s>,
        l: &mut DynamicListBuilder<'_, A>,
        items: &[Expr],
        element: &Type,
        depth: u32,
    ) -> Result<()> {
        for (i, item) in items.iter().enumerate() {
            let i = i as u32;
            let span = item.span;
            match self.literal(schema, item, element)? {
                Literal::Text(bytes) | Literal::Data(bytes) => {
                    let len = self.blob_len(bytes, span)?;
                    let v = l.init(i, len).map_err(|e| self.wire(span, e))?;
                    if !copy_blob(v, bytes) {
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
                    let DynamicValueBuilder::Struct(mut s) = v else {
                        return Err(self.mismatch(schema, span, element));
                    };
                    self.fill_struct(&mut s, params, inner)?;
                }
                scalar => {
                    let v = self.scalar(schema, scalar, element, span)?;
                    l.set(i, v).map_err(|e| self.wire(span, e))?;
                }
            }
        }
        Ok(())
    }

    /// The length of a text or data value, its words counted.
    fn blob_len(&mut self, bytes: &[u8], span: Span) -> Result<u32> {
        let len = u32::try_from(bytes.len())
            .ok()
            .filter(|&n| n < (1 << 29) - 1)
            .ok_or_else(|| self.error(span, "Text or data is too long for a message."))?;
        self.take_words(u64::from(len).div_ceil(8) + 1, span)?;
        Ok(len)
    }

    /// The length of a list value, its body's words counted.
    fn list_len(
        &mut self,
        items: &[Expr],
        element: &Type,
        schema: &Schema<'_>,
        span: Span,
    ) -> Result<u32> {
        let len = u32::try_from(items.len())
            .ok()
            .filter(|&n| n < 1 << 29)
            .ok_or_else(|| self.error(span, "List is too long for a message."))?;
        let n = u64::from(len);
        let words = match element {
            Type::Void => 0,
            Type::Bool => n.div_ceil(64),
            Type::Int8 | Type::UInt8 => n.div_ceil(8),
            Type::Int16 | Type::UInt16 | Type::Enum(_) => n.div_ceil(4),
            Type::Int32 | Type::UInt32 | Type::Float32 => n.div_ceil(2),
            Type::Struct(st) => {
                let size = schema.struct_of(st).map_err(|e| self.wire(span, e))?.size();
                n * (u64::from(size.data_words) + u64::from(size.pointers)) + 1
            }
            _ => n,
        };
        self.take_words(words + 1, span)?;
        Ok(len)
    }

    fn mismatch(&self, schema: &Schema<'_>, span: Span, ty: &Type) -> TextError {
        self.error(
            span,
            format!("Type mismatch; expected {}.", type_name(schema, ty)),
        )
    }

    /// The expression as a value of `ty`: the reference's
    /// `compileValueInner`, then `compileValue`'s check of the result
    /// against the type.
    fn literal<'e>(&self, schema: &Schema<'_>, e: &'e Expr, ty: &Type) -> Result<Literal<'e>> {
        let lit = match &e.kind {
            ExprKind::RelativeName(name) => {
                let id = name.value.as_str();
                if let Type::Enum(enum_id) = ty {
                    let en = schema
                        .enum_schema(*enum_id)
                        .map_err(|err| self.wire(e.span, err))?;
                    match en.value_by_name(id) {
                        Ok(v) => Literal::Enum(v.value()),
                        Err(_) => return Err(self.error(e.span, "External constants not allowed.")),
                    }
                } else {
                    match id {
                        "void" => Literal::Void,
                        "true" => Literal::Bool(true),
                        "false" => Literal::Bool(false),
                        "nan" => Literal::Float(f64::NAN),
                        "inf" => Literal::Float(f64::INFINITY),
                        _ => return Err(self.error(e.span, "External constants not allowed.")),
                    }
                }
            }
            ExprKind::AbsoluteName(_)
            | ExprKind::Import(_)
            | ExprKind::Application { .. }
            | ExprKind::Member { .. } => {
                return Err(self.error(e.span, "External constants not allowed."));
            }
            ExprKind::Embed(_) => return Err(self.error(e.span, "External embeds not allowed.")),
            ExprKind::PositiveInt(v) => Literal::UInt(*v),
            ExprKind::NegativeInt(m) => {
                if *m > 1 << 63 {
                    return Err(self.error(e.span, "Integer is too big to be negative."));
                }
                // 2^63 is i64::MIN's magnitude: the wrapping negation is exact.
                match (*m as i64).wrapping_neg() {
                    0 => Literal::UInt(0),
                    v => Literal::Int(v),
                }
            }
            ExprKind::Float(f) => Literal::Float(*f),
            ExprKind::String(s) => {
                if matches!(ty, Type::Data) {
                    Literal::Data(s)
                } else {
                    Literal::Text(s)
                }
            }
            ExprKind::Binary(b) => {
                if !matches!(ty, Type::Data) {
                    return Err(self.mismatch(schema, e.span, ty));
                }
                Literal::Data(b)
            }
            ExprKind::List(items) => {
                if !matches!(ty, Type::List(_)) {
                    return Err(self.mismatch(schema, e.span, ty));
                }
                Literal::List(items)
            }
            ExprKind::Tuple(params) => {
                if !matches!(ty, Type::Struct(_)) {
                    return Err(self.mismatch(schema, e.span, ty));
                }
                Literal::Struct(params)
            }
        };
        let fits = match (&lit, ty) {
            (Literal::Void, Type::Void) | (Literal::Bool(_), Type::Bool) => true,
            (Literal::Int(v), _) => match min_of(ty) {
                Some(min) if *v < min => {
                    return Err(self.error(e.span, "Integer value out of range."));
                }
                Some(_) => true,
                None => false,
            },
            (Literal::UInt(v), _) => match max_of(ty) {
                Some(max) if *v > max => {
                    return Err(self.error(e.span, "Integer value out of range."));
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
            return Err(self.mismatch(schema, e.span, ty));
        }
        Ok(lit)
    }

    /// A checked scalar literal as the value the builder stores.
    fn scalar<'s>(
        &self,
        schema: &'s Schema<'s>,
        lit: Literal<'_>,
        ty: &Type,
        span: Span,
    ) -> Result<DynamicValue<'s>> {
        // `literal` checked the range: the casts below are exact, except
        // integers and Float64 into floats, which round as the reference's
        // conversions do (one rounding, straight to the field's width).
        Ok(match (lit, ty) {
            (Literal::Void, _) => DynamicValue::Void,
            (Literal::Bool(b), _) => DynamicValue::Bool(b),
            (Literal::Enum(v), Type::Enum(id)) => {
                let en = schema.enum_schema(*id).map_err(|e| self.wire(span, e))?;
                DynamicValue::Enum(DynamicEnum::new(v, en))
            }
            (Literal::Int(v), t) => int_value(v as i128, t),
            (Literal::UInt(v), t) => int_value(i128::from(v), t),
            (Literal::Float(f), Type::Float32) => DynamicValue::Float32(f as f32),
            (Literal::Float(f), _) => DynamicValue::Float64(f),
            _ => return Err(self.mismatch(schema, span, ty)),
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

/// Copies text or data bytes into the value `init_list` made for them
/// (of their length); `false` when it is neither text nor data of that
/// length.
fn copy_blob<A: Arena + ?Sized>(v: DynamicValueBuilder<'_, A>, bytes: &[u8]) -> bool {
    let dst = match v {
        DynamicValueBuilder::Text(t) => t.into_bytes(),
        DynamicValueBuilder::Data(d) => d,
        _ => return false,
    };
    if dst.len() != bytes.len() {
        return false;
    }
    dst.copy_from_slice(bytes);
    true
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
