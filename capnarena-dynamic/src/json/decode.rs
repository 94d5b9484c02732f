//! Decoding: JSON text that [`validate`](super::parser::validate)
//! accepted, read again value by value straight into a struct builder, by
//! the plan of the schema's annotations (see
//! [`annotations`](super::annotations)).
//!
//! Memory: no tree of the input is built. A list's length is counted by
//! reading ahead over its elements, so the decoder holds only the path
//! of open values (bounded by the depth limit), one string or `Data`
//! value at a time, and per object the members that wait for their
//! union's tag (one per name the schema has). Time is at most the input
//! times the depth of nested lists.
//!
//! Value rules (the reference's, strict where it is loose): `Void` takes
//! `null`; `Bool` a boolean; an integer type a number that is an integer
//! in its range, or a string of one (decimal, or hex after `0x`, with an
//! optional sign; no `-` for unsigned types); a float a number, `null`
//! (NaN) or a string (`"NaN"`, `"Infinity"`, `"-Infinity"`, or a number);
//! `Text` a string; `Data` an array of integers 0-255 (a string with
//! `$base64` or `$hex`); an enum its (JSON) name or its number; a list
//! an array; a struct or group an object. A member given twice is
//! decoded twice (the last wins; a struct or group is built afresh).
//! A member that waits for its union's tag is decoded once, the last
//! given under its name.
//! Members the struct does not have are skipped, or refused with
//! [`JsonLimits::reject_unknown_fields`](super::JsonLimits). A union's
//! tag naming no member is skipped, as are the members it would have
//! flattened, as in the reference. `AnyPointer` and capability fields
//! cannot be decoded (an error, as in the reference).

use std::borrow::Cow;
use std::collections::HashSet;

use capnarena::text::encoding::{EncodingError, decode_base64, decode_hex};
use capnarena::{Arena, Message, SingleSegmentArena};

use super::annotations::{DataForm, FieldPlan, JSON_VALUE, NameKind, Plan, StructPlan};
use super::encode::{Seg, path_string};
use super::error::{Context, JsonError, JsonResult, Position};
use super::parser::{Member, Node, Parser, Value};
use crate::builder::DynamicListBuilder;
use crate::builder::{DynamicStructBuilder, DynamicValueBuilder};
use crate::structs::{Field, StructSchema};
use crate::types::Type;
use crate::value::{DynamicStructReader, DynamicValue};

pub(crate) struct Decoder<'x> {
    pub text: &'x [u8],
    pub plan: &'x Plan,
    pub reject_unknown: bool,
    pub path: Vec<Step<'x>>,
    /// Words the message may still take, and the limit.
    pub budget: u64,
    pub limit_words: u64,
    /// Objects and arrays being decoded (structs, lists, `json.Value`s),
    /// and the stack's address at the outermost (see [`Decoder::enter`]).
    pub depth: usize,
    pub stack_base: usize,
}

/// Copies into the cleared `dst` what the reference moves when it adopts
/// a group: the active union member (activated even when it is a null
/// pointer), then the fields outside the union that are set; nested
/// groups the same way.
fn copy_compact<A: Arena + ?Sized>(
    dst: &mut DynamicStructBuilder<'_, A>,
    src: &DynamicStructReader<'_>,
) -> crate::Result<()> {
    if let Some(member) = src.which()? {
        copy_field(dst, src, &member)?;
    }
    let fields: Vec<Field<'_>> = src.schema().non_union_fields().collect();
    for f in &fields {
        if src.has(f)? {
            copy_field(dst, src, f)?;
        }
    }
    Ok(())
}

fn copy_field<A: Arena + ?Sized>(
    dst: &mut DynamicStructBuilder<'_, A>,
    src: &DynamicStructReader<'_>,
    f: &Field<'_>,
) -> crate::Result<()> {
    if f.is_group() {
        let (DynamicValueBuilder::Struct(mut g), DynamicValue::Struct(s)) =
            (dst.init(f)?, src.get(f)?)
        else {
            return Ok(());
        };
        return copy_compact(&mut g, &s);
    }
    if f.ty()?.is_pointer() && !src.has(f)? {
        return dst.clear_and_activate(f);
    }
    dst.set(f, src.get(f)?)
}

/// Whether a group has a union, or a group nested in it has one.
fn has_union(group: &StructSchema<'_>) -> bool {
    group.discriminant_count() > 0
        || group
            .fields()
            .any(|f| f.is_group() && f.group().is_ok_and(|g| has_union(&g)))
}

/// Words of a struct of `schema`'s size.
fn struct_words(schema: &StructSchema<'_>) -> u64 {
    let size = schema.size();
    u64::from(size.data_words) + u64::from(size.pointers)
}

/// Words a list of `len` elements of `element` takes (a struct list's
/// element size is `struct_size`).
fn list_words(len: u64, element: &Type, struct_size: u64) -> u64 {
    match element {
        Type::Void => 0,
        Type::Bool => len.div_ceil(64),
        Type::Int8 | Type::UInt8 => len.div_ceil(8),
        Type::Int16 | Type::UInt16 | Type::Enum(_) => len.div_ceil(4),
        Type::Int32 | Type::UInt32 | Type::Float32 => len.div_ceil(2),
        Type::Struct(_) => len.saturating_mul(struct_size).saturating_add(1),
        _ => len,
    }
}

/// A step of the path to the value being decoded: a member's name (a
/// field's, or a `json.Value` object's member's) or an index.
pub(crate) enum Step<'x> {
    Name(Cow<'x, str>),
    Index(u32),
}

impl<'x> Decoder<'x> {
    fn context(&self) -> String {
        let path: Vec<Seg<'_>> = self
            .path
            .iter()
            .map(|s| match s {
                Step::Name(n) => Seg::Name(n),
                Step::Index(i) => Seg::Index(*i),
            })
            .collect();
        path_string(&path)
    }

    /// The scalar at `node`, or the kind of the container there.
    fn value(&self, node: Node) -> JsonResult<Value<'x>> {
        Parser::scalar_at(self.text, node)
    }

    /// The kind of the value at `node`, for an error.
    fn kind(&self, node: Node) -> &'static str {
        match self.text.get(node.offset) {
            Some(b'n') => "null",
            Some(b't' | b'f') => "a boolean",
            Some(b'"') => "a string",
            Some(b'[') => "an array",
            Some(b'{') => "an object",
            _ => "a number",
        }
    }

    /// Counts `words` of the message against the limit.
    fn charge(&mut self, node: Node, words: u64) -> JsonResult<()> {
        if words > self.budget {
            return Err(JsonError::MessageTooLarge {
                at: Position::of(self.text, node.offset),
                limit: self.limit_words,
            });
        }
        self.budget -= words;
        Ok(())
    }

    /// The size of the struct a `Type::Struct` names, in words.
    fn struct_type_words(&self, schema: &StructSchema<'_>, ty: &Type) -> JsonResult<u64> {
        match ty {
            Type::Struct(st) => {
                let s = schema.schema().struct_of(st).ctx(|| self.context())?;
                Ok(struct_words(&s))
            }
            _ => Ok(0),
        }
    }

    fn fail(&self, node: Node, message: impl Into<String>) -> JsonError {
        JsonError::Value {
            at: Position::of(self.text, node.offset),
            context: self.context(),
            message: message.into(),
        }
    }

    /// The error of a base64 or hex string (`node`) that does not decode:
    /// placed at the character at fault when the string's text up to it
    /// has no escape (so the decoded offset is the text's), else at the
    /// string.
    #[cold]
    fn bad_encoding(&self, node: Node, e: EncodingError) -> JsonError {
        let start = node.offset + 1;
        let offset = e
            .offset()
            .filter(|&o| {
                self.text
                    .get(start..start + o)
                    .is_some_and(|raw| !raw.contains(&b'\\'))
            })
            .map_or(node.offset, |o| start + o);
        JsonError::Value {
            at: Position::of(self.text, offset),
            context: self.context(),
            message: e.to_string(),
        }
    }

    fn expected(&self, node: Node, what: &str) -> JsonError {
        self.fail(node, format!("expected {what}, found {}", self.kind(node)))
    }

    fn struct_plan(&self, id: u64, node: Node) -> JsonResult<&'x StructPlan> {
        match self.plan.structs.get(&id) {
            Some(p) => Ok(p),
            None => Err(self.fail(
                node,
                format!("struct {id:#018x} is not reachable from the codec's root type"),
            )),
        }
    }

    /// Enters the object or array `node` (a level of the recursion):
    /// checks the stack the levels entered use against
    /// [`STACK_BUDGET`](crate::STACK_BUDGET), measured from the
    /// outermost. (The text reader's depth limit bounds the levels; this
    /// bounds the stack they take, whatever a level's frames are in the
    /// build at hand.)
    fn enter(&mut self, node: Node) -> JsonResult<()> {
        self.depth += 1;
        if self.depth == 1 {
            self.stack_base = crate::stack::address();
        } else if let Some(used) = crate::stack::over_budget(self.stack_base) {
            return Err(JsonError::StackBudget {
                at: Position::of(self.text, node.offset),
                depth: self.depth,
                used,
                budget: crate::STACK_BUDGET,
            });
        }
        Ok(())
    }

    /// Decodes the object `node` into `b`.
    pub(crate) fn decode_struct<A: Arena + ?Sized>(
        &mut self,
        node: Node,
        b: DynamicStructBuilder<'_, A>,
    ) -> JsonResult<()> {
        self.enter(node)?;
        let done = if b.schema().id() == JSON_VALUE {
            self.raw_value(node, b)
        } else {
            self.members(node, b)
        };
        self.depth -= 1;
        done
    }

    /// Decodes the members of the object `node` into `b`.
    fn members<A: Arena + ?Sized>(
        &mut self,
        node: Node,
        mut b: DynamicStructBuilder<'_, A>,
    ) -> JsonResult<()> {
        if self.text.get(node.offset) != Some(&b'{') {
            return Err(self.expected(node, "an object"));
        }
        let plan = self.struct_plan(b.schema().id(), node)?;
        let mut seen: HashSet<Vec<u32>> = HashSet::new();
        // Members that wait for their union's tag: the last of each name
        // (a later one overwrites what an earlier one would write), so
        // at most one a name the plan knows.
        let mut retries: Vec<Member<'x>> = Vec::new();
        let mut upath = Vec::new();
        for m in Parser::members(self.text, node) {
            let m = m?;
            if !self.member(plan, b.reborrow(), &m, &m.0, &mut upath, &mut seen)? {
                retries.retain(|r| r.0 != m.0);
                retries.push(m);
            }
        }
        // Members of flattened union members, and union values, wait for
        // their union's tag; retried while that makes progress.
        while !retries.is_empty() {
            let before = retries.len();
            let mut again = Vec::new();
            for m in retries {
                if !self.member(plan, b.reborrow(), &m, &m.0, &mut upath, &mut seen)? {
                    again.push(m);
                }
            }
            if again.len() == before {
                break;
            }
            retries = again;
        }
        Ok(())
    }

    /// Any JSON value into a `json.Value` struct (a level of the
    /// recursion).
    fn raw<A: Arena + ?Sized>(
        &mut self,
        node: Node,
        b: DynamicStructBuilder<'_, A>,
    ) -> JsonResult<()> {
        self.enter(node)?;
        let done = self.raw_value(node, b);
        self.depth -= 1;
        done
    }

    fn raw_value<A: Arena + ?Sized>(
        &mut self,
        node: Node,
        mut b: DynamicStructBuilder<'_, A>,
    ) -> JsonResult<()> {
        let ctx = |d: &Self| d.context();
        match self.value(node)? {
            Value::Null => b.set_by_name("null", DynamicValue::Void),
            Value::Bool(v) => b.set_by_name("boolean", DynamicValue::Bool(v)),
            Value::Number(n) => b.set_by_name("number", DynamicValue::Float64(n)),
            Value::String(s) => {
                self.charge(node, s.len() as u64 / 8 + 1)?;
                b.set_by_name("string", DynamicValue::Text(&s))
            }
            Value::Array => {
                let len = self.length(node)?;
                self.charge(node, u64::from(len) * struct_words(b.schema()) + 1)?;
                let DynamicValueBuilder::List(mut l) =
                    b.init_list_by_name("array", len).ctx(|| ctx(self))?
                else {
                    return Err(self.fail(node, "json.Value.array is not a list"));
                };
                for (i, item) in Parser::items(self.text, node).enumerate() {
                    let item = item?;
                    self.path.push(Step::Index(i as u32));
                    let DynamicValueBuilder::Struct(e) = l.get(i as u32).ctx(|| ctx(self))? else {
                        return Err(self.fail(item, "a json.Value element is not a struct"));
                    };
                    self.raw(item, e)?;
                    self.path.pop();
                }
                return Ok(());
            }
            Value::Object => {
                let len = self.length(node)?;
                let value_words = struct_words(b.schema());
                self.charge(node, u64::from(len) * value_words + 1)?;
                let DynamicValueBuilder::List(mut l) =
                    b.init_list_by_name("object", len).ctx(|| ctx(self))?
                else {
                    return Err(self.fail(node, "json.Value.object is not a list"));
                };
                for (i, member) in Parser::members(self.text, node).enumerate() {
                    let (name, _, item) = member?;
                    let DynamicValueBuilder::Struct(mut f) = l.get(i as u32).ctx(|| ctx(self))?
                    else {
                        return Err(self.fail(item, "a json.Value member is not a struct"));
                    };
                    self.charge(item, name.len() as u64 / 8 + 1 + value_words)?;
                    f.set_by_name("name", DynamicValue::Text(&name))
                        .ctx(|| ctx(self))?;
                    self.path.push(Step::Name(name));
                    let DynamicValueBuilder::Struct(v) =
                        f.init_by_name("value").ctx(|| ctx(self))?
                    else {
                        return Err(self.fail(item, "a json.Value member's value is not a struct"));
                    };
                    self.raw(item, v)?;
                    self.path.pop();
                }
                return Ok(());
            }
        }
        .ctx(|| ctx(self))
    }

    /// One member, named `name` in `plan`'s struct; `Ok(false)` when it
    /// must wait for its union's tag.
    fn member<A: Arena + ?Sized>(
        &mut self,
        plan: &'x StructPlan,
        mut b: DynamicStructBuilder<'_, A>,
        m: &Member<'x>,
        name: &str,
        upath: &mut Vec<u32>,
        seen: &mut HashSet<Vec<u32>>,
    ) -> JsonResult<bool> {
        let (_, name_at, value) = m;
        let value = *value;
        let Some(kind) = plan.by_name.get(name) else {
            if self.reject_unknown {
                return Err(JsonError::UnknownField {
                    at: Position::of(self.text, *name_at),
                    struct_name: plan.display_name.clone(),
                    name: name.to_string(),
                });
            }
            return Ok(true);
        };
        match *kind {
            NameKind::Normal(i) => {
                let f = field_of(&b, i, plan)?;
                self.field(&mut b, &f, &plan.fields[i as usize], value)?;
                Ok(true)
            }
            NameKind::Flattened(i, prefix_len) => {
                let f = field_of(&b, i, plan)?;
                upath.push(i);
                let r = self.flattened(
                    &mut b,
                    &f,
                    &plan.fields[i as usize],
                    m,
                    &name[prefix_len..],
                    upath,
                    seen,
                );
                upath.pop();
                r
            }
            NameKind::UnionTag => {
                self.union_tag(plan, &mut b, value, name, upath, seen)?;
                Ok(true)
            }
            NameKind::FlattenedFromUnion(prefix_len) => {
                if !seen.contains(upath.as_slice()) {
                    return Ok(false);
                }
                let variant = self.active(&b, value)?;
                let i = variant.index();
                upath.push(i);
                let r = self.flattened(
                    &mut b,
                    &variant,
                    &plan.fields[i as usize],
                    m,
                    &name[prefix_len..],
                    upath,
                    seen,
                );
                upath.pop();
                r
            }
            NameKind::UnionValue => {
                if !seen.contains(upath.as_slice()) {
                    return Ok(false);
                }
                let variant = self.active(&b, value)?;
                self.field(
                    &mut b,
                    &variant,
                    &plan.fields[variant.index() as usize],
                    value,
                )?;
                Ok(true)
            }
        }
    }

    /// The union's tag `value` (of member `name`): activates the member
    /// it names. (Out of [`Decoder::member`], whose frame is on the stack
    /// at every level of nesting.)
    #[inline(never)]
    fn union_tag<A: Arena + ?Sized>(
        &mut self,
        plan: &'x StructPlan,
        b: &mut DynamicStructBuilder<'_, A>,
        value: Node,
        name: &str,
        upath: &[u32],
        seen: &mut HashSet<Vec<u32>>,
    ) -> JsonResult<()> {
        let Value::String(tag) = self.value(value)? else {
            return Err(self.expected(value, "a string (the union's tag)"));
        };
        if let Some(&i) = plan.tags.get(tag.as_ref()) {
            let f = field_of(b, i, plan)?;
            b.clear_and_activate(&f).ctx(|| self.context())?;
            // As the reference: a union's tag names a member once.
            if !seen.insert(upath.to_vec()) {
                return Err(self.fail(value, format!("the union's tag {name:?} is given twice")));
            }
        }
        Ok(())
    }

    fn active<'s, A: Arena + ?Sized>(
        &self,
        b: &DynamicStructBuilder<'s, A>,
        node: Node,
    ) -> JsonResult<Field<'s>> {
        match b.which() {
            Ok(Some(f)) => Ok(f),
            _ => Err(self.fail(node, "the union's tag names no member")),
        }
    }

    /// Member `name` of the flattened field `f`.
    #[allow(clippy::too_many_arguments)]
    fn flattened<A: Arena + ?Sized>(
        &mut self,
        b: &mut DynamicStructBuilder<'_, A>,
        f: &Field<'_>,
        info: &'x FieldPlan,
        m: &Member<'x>,
        name: &str,
        upath: &mut Vec<u32>,
        seen: &mut HashSet<Vec<u32>>,
    ) -> JsonResult<bool> {
        let Some((_, child)) = &info.flatten else {
            return Err(self.fail(
                m.2,
                format!("the union's active member {} is not flattened", f.name()),
            ));
        };
        let child = self.struct_plan(*child, m.2)?;
        // A flattened struct field is made on its first member.
        if !f.is_group() && !b.has(f).ctx(|| self.context())? {
            let ty = f.ty().ctx(|| self.context())?;
            let words = self.struct_type_words(b.schema(), &ty)?;
            self.charge(m.2, words)?;
        }
        let DynamicValueBuilder::Struct(inner) = b.get(f).ctx(|| self.context())? else {
            return Err(self.fail(m.2, "a flattened field is not a struct"));
        };
        self.member(child, inner, m, name, upath, seen)
    }

    /// Decodes `node` into field `f` of `b`.
    fn field<A: Arena + ?Sized>(
        &mut self,
        b: &mut DynamicStructBuilder<'_, A>,
        f: &Field<'_>,
        info: &'x FieldPlan,
        node: Node,
    ) -> JsonResult<()> {
        self.path.push(Step::Name(Cow::Borrowed(&info.name)));
        let ty = f.ty().ctx(|| self.context())?;
        if f.is_group() && has_union(&f.group().ctx(|| self.context())?) {
            self.group_with_union(b, f, node)?;
        } else if f.is_group() || matches!(ty, Type::Struct(_)) {
            if !f.is_group() {
                let words = self.struct_type_words(b.schema(), &ty)?;
                self.charge(node, words)?;
            }
            let DynamicValueBuilder::Struct(inner) = b.init(f).ctx(|| self.context())? else {
                return Err(self.fail(node, "a struct field gave no struct"));
            };
            self.decode_struct(node, inner)?;
        } else if let Type::List(element) = &ty {
            self.list_field(b, f, element, node)?;
        } else {
            self.leaf(b, f, info, &ty, node)?;
        }
        self.path.pop();
        Ok(())
    }

    /// Decodes the array `node` into list field `f` of `b`, of
    /// `element`s (out of [`Decoder::field`], as
    /// [`Decoder::group_with_union`]).
    #[inline(never)]
    fn list_field<A: Arena + ?Sized>(
        &mut self,
        b: &mut DynamicStructBuilder<'_, A>,
        f: &Field<'_>,
        element: &Type,
        node: Node,
    ) -> JsonResult<()> {
        if self.text.get(node.offset) != Some(&b'[') {
            return Err(self.expected(node, "an array"));
        }
        let len = self.length(node)?;
        let size = self.struct_type_words(b.schema(), element)?;
        self.charge(node, list_words(u64::from(len), element, size))?;
        let parent = b.schema().clone();
        let DynamicValueBuilder::List(list) = b.init_list(f, len).ctx(|| self.context())? else {
            return Err(self.fail(node, "a list field gave no list"));
        };
        self.list(node, list, element, &parent)
    }

    /// Decodes `node` into group `f` of `b`, which has a union. (Out of
    /// [`Decoder::field`], whose frame is on the stack at every level of
    /// nesting: the scratch message takes stack.)
    #[inline(never)]
    fn group_with_union<A: Arena + ?Sized>(
        &mut self,
        b: &mut DynamicStructBuilder<'_, A>,
        f: &Field<'_>,
        node: Node,
    ) -> JsonResult<()> {
        // The reference decodes a group into a struct of its own, then
        // moves into the cleared group its fields outside the union
        // and only the active member of each union (of nested groups
        // too): a member set and then replaced leaves nothing behind.
        // Decoded here the same way, through a scratch message.
        let group = f.group().ctx(|| self.context())?;
        let mut scratch = Message::new(SingleSegmentArena::new());
        let root = scratch
            .init_root_struct(group.size())
            .map_err(crate::Error::from)
            .ctx(|| self.context())?;
        let mut decoded = DynamicStructBuilder::new(group, root).ctx(|| self.context())?;
        self.decode_struct(node, decoded.reborrow())?;
        let DynamicValueBuilder::Struct(mut dst) = b.init(f).ctx(|| self.context())? else {
            return Err(self.fail(node, "a group gave no struct"));
        };
        decoded
            .with_reader(|src| copy_compact(&mut dst, &src))
            .ctx(|| self.context())?;
        Ok(())
    }

    /// Decodes `node` into field `f` of `b`, of type `ty`, which holds no
    /// struct or list (out of [`Decoder::field`], as
    /// [`Decoder::group_with_union`]).
    #[inline(never)]
    fn leaf<A: Arena + ?Sized>(
        &mut self,
        b: &mut DynamicStructBuilder<'_, A>,
        f: &Field<'_>,
        info: &'x FieldPlan,
        ty: &Type,
        node: Node,
    ) -> JsonResult<()> {
        if matches!(ty, Type::Data) {
            let bytes = self.data(node, info.data)?;
            self.charge(node, (bytes.len() as u64).div_ceil(8))?;
            b.set(f, DynamicValue::Data(&bytes))
                .ctx(|| self.context())?;
        } else {
            let read = self.value(node)?;
            let v = self.scalar(ty, node, &read)?;
            if let DynamicValue::Text(t) = v {
                self.charge(node, t.len() as u64 / 8 + 1)?;
            }
            b.set(f, v).ctx(|| self.context())?;
        }
        Ok(())
    }

    /// The number of elements of the array (or members of the object)
    /// `node`, counted by reading ahead over them.
    fn length(&self, node: Node) -> JsonResult<u32> {
        let len = Parser::count(self.text, node)?;
        u32::try_from(len).map_err(|_| self.fail(node, format!("an array of {len} elements")))
    }

    /// Decodes the array `node` (of `items`) into `list` (a level of the
    /// recursion).
    fn list<A: Arena + ?Sized>(
        &mut self,
        node: Node,
        list: DynamicListBuilder<'_, A>,
        element: &Type,
        schema: &StructSchema<'_>,
    ) -> JsonResult<()> {
        self.enter(node)?;
        let done = self.elements(node, list, element, schema);
        self.depth -= 1;
        done
    }

    fn elements<A: Arena + ?Sized>(
        &mut self,
        node: Node,
        mut list: DynamicListBuilder<'_, A>,
        element: &Type,
        schema: &StructSchema<'_>,
    ) -> JsonResult<()> {
        for (i, item) in Parser::items(self.text, node).enumerate() {
            let item = item?;
            let i = i as u32;
            self.path.push(Step::Index(i));
            match element {
                Type::Struct(_) => {
                    let DynamicValueBuilder::Struct(s) = list.get(i).ctx(|| self.context())? else {
                        return Err(self.fail(item, "a struct element gave no struct"));
                    };
                    self.decode_struct(item, s)?;
                }
                Type::List(inner) => {
                    if self.text.get(item.offset) != Some(&b'[') {
                        return Err(self.expected(item, "an array"));
                    }
                    let len = self.length(item)?;
                    let size = self.struct_type_words(schema, inner)?;
                    self.charge(item, list_words(u64::from(len), inner, size))?;
                    let DynamicValueBuilder::List(l) = list.init(i, len).ctx(|| self.context())?
                    else {
                        return Err(self.fail(item, "a list element gave no list"));
                    };
                    self.list(item, l, inner, schema)?;
                }
                Type::Data => {
                    let bytes = self.data(item, DataForm::Array)?;
                    self.charge(item, (bytes.len() as u64).div_ceil(8))?;
                    list.set(i, DynamicValue::Data(&bytes))
                        .ctx(|| self.context())?;
                }
                ty => {
                    let read = self.value(item)?;
                    let v = self.scalar(ty, item, &read)?;
                    if let DynamicValue::Text(t) = v {
                        self.charge(item, t.len() as u64 / 8 + 1)?;
                    }
                    list.set(i, v).ctx(|| self.context())?;
                }
            }
            self.path.pop();
        }
        Ok(())
    }

    fn data(&self, node: Node, form: DataForm) -> JsonResult<Vec<u8>> {
        match (form, self.value(node)?) {
            (DataForm::Array, Value::Array) => {
                // The bytes of the message, held once here before they are
                // copied in.
                let mut bytes = Vec::with_capacity(Parser::count(self.text, node)?);
                for (i, item) in Parser::items(self.text, node).enumerate() {
                    let item = item?;
                    match self.value(item)? {
                        Value::Number(n) if n.fract() == 0.0 && (0.0..=255.0).contains(&n) => {
                            bytes.push(n as u8);
                        }
                        _ => {
                            return Err(self.fail(
                                item,
                                format!("byte {i} of Data must be an integer in [0, 255]"),
                            ));
                        }
                    }
                }
                Ok(bytes)
            }
            (DataForm::Array, _) => Err(self.expected(node, "an array of bytes")),
            (DataForm::Base64, Value::String(s)) => {
                decode_base64(&s).map_err(|e| self.bad_encoding(node, e))
            }
            (DataForm::Hex, Value::String(s)) => {
                decode_hex(&s).map_err(|e| self.bad_encoding(node, e))
            }
            (_, _) => Err(self.expected(node, "a string")),
        }
    }

    /// The value `v` (read at `node`) as a value of type `ty`.
    fn scalar<'v>(&self, ty: &Type, node: Node, v: &'v Value<'_>) -> JsonResult<DynamicValue<'v>> {
        Ok(match ty {
            Type::Void => match v {
                Value::Null => DynamicValue::Void,
                _ => return Err(self.expected(node, "null")),
            },
            Type::Bool => match v {
                Value::Bool(b) => DynamicValue::Bool(*b),
                _ => return Err(self.expected(node, "a boolean")),
            },
            Type::Int8 => {
                DynamicValue::Int8(self.integer(node, v, i8::MIN.into(), i8::MAX.into())? as i8)
            }
            Type::Int16 => {
                DynamicValue::Int16(self.integer(node, v, i16::MIN.into(), i16::MAX.into())? as i16)
            }
            Type::Int32 => {
                DynamicValue::Int32(self.integer(node, v, i32::MIN.into(), i32::MAX.into())? as i32)
            }
            Type::Int64 => {
                DynamicValue::Int64(self.integer(node, v, i64::MIN.into(), i64::MAX.into())? as i64)
            }
            Type::UInt8 => DynamicValue::UInt8(self.integer(node, v, 0, u8::MAX.into())? as u8),
            Type::UInt16 => DynamicValue::UInt16(self.integer(node, v, 0, u16::MAX.into())? as u16),
            Type::UInt32 => DynamicValue::UInt32(self.integer(node, v, 0, u32::MAX.into())? as u32),
            Type::UInt64 => DynamicValue::UInt64(self.integer(node, v, 0, u64::MAX.into())? as u64),
            Type::Float32 => DynamicValue::Float32(self.float(node, v)? as f32),
            Type::Float64 => DynamicValue::Float64(self.float(node, v)?),
            Type::Text => match v {
                Value::String(s) => DynamicValue::Text(s),
                _ => return Err(self.expected(node, "a string")),
            },
            Type::Enum(id) => {
                let plan = self.plan.enums.get(id);
                let value = match v {
                    Value::String(s) => match plan.and_then(|p| p.by_name.get(s.as_ref())) {
                        Some(&n) => n,
                        None => {
                            return Err(self.fail(
                                node,
                                format!(
                                    "{s:?} is not an enumerant of {}",
                                    plan.map_or("the enum", |p| p.display_name.as_str())
                                ),
                            ));
                        }
                    },
                    Value::Number(_) => self.integer(node, v, 0, u16::MAX.into())? as u16,
                    _ => return Err(self.expected(node, "an enumerant's name")),
                };
                // The builder takes an enum's number.
                DynamicValue::UInt16(value)
            }
            Type::AnyPointer => return Err(self.fail(node, "an AnyPointer has no JSON form")),
            Type::Interface(_) => return Err(self.fail(node, "a capability has no JSON form")),
            Type::Data | Type::List(_) | Type::Struct(_) => {
                return Err(self.fail(node, "not a scalar type"));
            }
        })
    }

    /// An integer in `[min, max]`, from a number or a string.
    fn integer(&self, node: Node, value: &Value<'_>, min: i128, max: i128) -> JsonResult<i128> {
        let v = match value {
            Value::Number(n) => {
                // Exactly representable integers only; 2^64 bounds both
                // 64-bit types' ranges in f64.
                if n.fract() != 0.0 || !n.is_finite() || n.abs() >= 18446744073709551616.0 {
                    return Err(self.fail(node, format!("{n} is not an integer in [{min}, {max}]")));
                }
                *n as i128
            }
            Value::String(s) => parse_integer(s)
                .ok_or_else(|| self.fail(node, format!("{s:?} is not an integer")))?,
            _ => return Err(self.expected(node, "an integer (a number or a string)")),
        };
        if v < min || v > max {
            return Err(self.fail(node, format!("{v} is out of range [{min}, {max}]")));
        }
        if min == 0 && matches!(value, Value::String(s) if s.starts_with('-')) {
            return Err(self.fail(node, "an unsigned integer with a '-' sign"));
        }
        Ok(v)
    }

    fn float(&self, node: Node, v: &Value<'_>) -> JsonResult<f64> {
        match v {
            Value::Null => Ok(f64::NAN),
            Value::Number(n) => Ok(*n),
            Value::String(s) => s
                .parse::<f64>()
                .map_err(|_| self.fail(node, format!("{s:?} is not a number"))),
            _ => Err(self.expected(node, "a number")),
        }
    }
}

fn field_of<'s, A: Arena + ?Sized>(
    b: &DynamicStructBuilder<'s, A>,
    i: u32,
    plan: &StructPlan,
) -> JsonResult<Field<'s>> {
    b.schema().field(i).ctx(|| plan.display_name.clone())
}

/// `[+-]?(digits | 0x hexdigits)` as an integer; `None` when it is not
/// one or has more than 38 digits.
fn parse_integer(s: &str) -> Option<i128> {
    let (neg, rest) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = match rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
        Some(h) => (16, h),
        None => (10, rest),
    };
    if digits.is_empty() || digits.len() > 38 || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = i128::from_str_radix(digits, radix).ok()?;
    Some(if neg { -v } else { v })
}
