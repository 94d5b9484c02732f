//! The `Deserialize` side of the generated serde impls: the
//! `StructFields` code that reads each JSON member of a (flattened)
//! struct into its place, and the code that reads members held until
//! their union's tag has come.

use super::*;

impl Generator<'_> {
    /// The code reading member `name` of `flat` (at `access`, a place)
    /// from `d`; `key` is the member's whole JSON name.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn set_code(
        &self,
        flat: &Flat<'_>,
        name: &str,
        key: &str,
        access: &str,
        depth: usize,
        support: &str,
        code: &mut Vec<Code>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let error = |message: String| {
            format!(
                "return ::core::result::Result::Err(<D::Error as {rt}::serde::de::Error>::custom({message:?}))"
            )
        };
        let c = &flat.c;
        let union = format!("{access}.{}", c.union_field);
        let Some(kind) = flat.kind(name) else {
            code.push(Code::Line(format!("{support}::skip(d)?;")));
            return Ok(());
        };
        match kind {
            Kind::Normal(i) => {
                let f = &c.s.fields[i];
                let value = self.read_value(f, support);
                match flat.variant(i) {
                    Some(variant) if self.field_value_ty(f, c)? == "()" => {
                        code.push(Code::Line(format!("let () = {support}::next(d)?;")));
                        code.push(Code::Line(format!("{union} = {}::{variant};", flat.which)));
                    }
                    Some(variant) => code.push(Code::Line(format!(
                        "{union} = {}::{variant}({value});",
                        flat.which
                    ))),
                    // A plain field is read in place (see `set_field`'s
                    // arms below).
                    None if f.json.data == JsonData::Array => code.push(Code::Line(format!(
                        "{support}::next_into(d, &mut {access}.{})?;",
                        self.value_field(f)
                    ))),
                    None => code.push(Code::Line(format!(
                        "{access}.{} = {value};",
                        self.value_field(f)
                    ))),
                }
            }
            Kind::Flattened(i, len) => {
                let f = &c.s.fields[i];
                let Some((_, child)) = &flat.flat[i] else {
                    return Ok(());
                };
                let place = format!("{access}.{}", self.value_field(f));
                if matches!(f.kind, FieldKind::Group { .. }) {
                    self.set_code(child, &name[len..], key, &place, depth, support, code)?;
                } else {
                    let v = format!("v{depth}");
                    code.push(Code::Line(format!(
                        "let {v} = {place}.get_or_insert_with(::core::default::Default::default);"
                    )));
                    self.set_code(child, &name[len..], key, &v, depth + 1, support, code)?;
                }
            }
            Kind::Tag => {
                let tags: Vec<String> = c
                    .members
                    .iter()
                    .map(|(f, _)| format!("{:?}", json_key(f)))
                    .collect();
                code.push(Code::Open(format!(
                    "if let ::core::option::Option::Some(k) = {support}::next_tag(d, &[{}])?",
                    tags.join(", ")
                )));
                code.push(Code::Open(format!(
                    "if !{support}::first_tag(seen, {})",
                    flat.slot.unwrap_or(0)
                )));
                code.push(Code::Line(format!(
                    "{};",
                    error(format!("the union's tag {key:?} is given twice"))
                )));
                code.push(Code::Close);
                // As the reference, the tag activates its member afresh.
                code.push(Code::Open(format!("{union} = match k")));
                let last = c.members.len() - 1;
                for (k, (f, variant)) in c.members.iter().enumerate() {
                    let pattern = if k == last {
                        "_".to_string()
                    } else {
                        k.to_string()
                    };
                    let fresh = if self.field_value_ty(f, c)? == "()" {
                        format!("{}::{variant}", flat.which)
                    } else {
                        format!(
                            "{}::{variant}(::core::default::Default::default())",
                            flat.which
                        )
                    };
                    code.push(Code::Arm(pattern, fresh));
                }
                code.push(Code::CloseWith(";".into()));
                code.push(Code::Close);
            }
            Kind::FromUnion(len) => {
                let suffix = &name[len..];
                let v = format!("v{depth}");
                code.push(Code::Open(format!("match &mut {union}")));
                for (f, variant) in &c.members {
                    let i = flat.field_index(f);
                    let void = self.field_value_ty(f, c)? == "()";
                    let bare = if void {
                        format!("{}::{variant}", flat.which)
                    } else {
                        format!("{}::{variant}(..)", flat.which)
                    };
                    match flat.flat.get(i).and_then(Option::as_ref) {
                        Some((_, child)) if child.kind(suffix).is_some() => {
                            code.push(Code::Open(format!("{}::{variant}({v}) =>", flat.which)));
                            if matches!(f.kind, FieldKind::Group { .. }) {
                                self.set_code(child, suffix, key, &v, depth + 1, support, code)?;
                            } else {
                                let inner = format!("v{}", depth + 1);
                                code.push(Code::Line(format!(
                                    "let {inner} = {v}.get_or_insert_with(::core::default::Default::default);"
                                )));
                                self.set_code(
                                    child,
                                    suffix,
                                    key,
                                    &inner,
                                    depth + 2,
                                    support,
                                    code,
                                )?;
                            }
                            code.push(Code::Close);
                        }
                        Some(_) => code.push(Code::Arm(bare, format!("{support}::skip(d)?"))),
                        None => code.push(Code::Arm(
                            bare,
                            error(format!(
                                "{key:?} is a member of a flattened union member, and the active member {:?} is not flattened",
                                f.name
                            )),
                        )),
                    }
                }
                code.push(Code::Close);
            }
            Kind::Value => {
                let v = format!("v{depth}");
                code.push(Code::Open(format!("match &mut {union}")));
                for (f, variant) in &c.members {
                    if self.field_value_ty(f, c)? == "()" {
                        code.push(Code::Arm(
                            format!("{}::{variant}", flat.which),
                            format!("{support}::skip(d)?"),
                        ));
                    } else {
                        code.push(Code::Arm(
                            format!("{}::{variant}({v})", flat.which),
                            format!("*{v} = {}", self.read_value(f, support)),
                        ));
                    }
                }
                code.push(Code::Close);
            }
        }
        Ok(())
    }

    /// The code of `ready` for member `name` of `flat` (at `access`):
    /// statements returning `false` while a tag it needs has not come, or
    /// `None` when it can never be read (its union has no tag).
    pub(super) fn ready_code(
        &self,
        flat: &Flat<'_>,
        name: &str,
        access: &str,
        depth: usize,
        support: &str,
    ) -> Result<Option<Vec<Code>>, Error> {
        let c = &flat.c;
        let union = format!("{access}.{}", c.union_field);
        let mut code = Vec::new();
        match flat.kind(name) {
            None | Some(Kind::Normal(_) | Kind::Tag) => {}
            Some(Kind::Flattened(i, len)) => {
                let f = &c.s.fields[i];
                let Some((_, child)) = &flat.flat[i] else {
                    return Ok(Some(code));
                };
                let place = format!("{access}.{}", self.value_field(f));
                if matches!(f.kind, FieldKind::Group { .. }) {
                    return self.ready_code(child, &name[len..], &place, depth, support);
                }
                let v = format!("v{depth}");
                let Some(inner) = self.ready_code(child, &name[len..], &v, depth + 1, support)?
                else {
                    return Ok(None);
                };
                if inner.is_empty() {
                    return Ok(Some(code));
                }
                // A null struct has had no tag.
                if codes_mention(&inner, &v) {
                    code.push(Code::Open(format!(
                        "let ::core::option::Option::Some({v}) = &{place} else"
                    )));
                    code.push(Code::Line("return false;".into()));
                    code.push(Code::CloseWith(";".into()));
                } else {
                    code.push(Code::Open(format!("if {place}.is_none()")));
                    code.push(Code::Line("return false;".into()));
                    code.push(Code::Close);
                }
                code.extend(inner);
            }
            Some(Kind::Value) => {
                let Some(slot) = flat.slot else {
                    return Ok(None);
                };
                code.push(Code::Open(format!("if !{support}::tag_seen(seen, {slot})")));
                code.push(Code::Line("return false;".into()));
                code.push(Code::Close);
            }
            Some(Kind::FromUnion(len)) => {
                let Some(slot) = flat.slot else {
                    return Ok(None);
                };
                code.push(Code::Open(format!("if !{support}::tag_seen(seen, {slot})")));
                code.push(Code::Line("return false;".into()));
                code.push(Code::Close);
                let suffix = &name[len..];
                let v = format!("v{depth}");
                for (f, variant) in &c.members {
                    let i = flat.field_index(f);
                    let Some((_, child)) = flat.flat.get(i).and_then(Option::as_ref) else {
                        continue;
                    };
                    if !child.waits(suffix) {
                        continue;
                    }
                    let group = matches!(f.kind, FieldKind::Group { .. });
                    let inner_var = if group {
                        v.clone()
                    } else {
                        format!("v{}", depth + 1)
                    };
                    let inner = self.ready_code(child, suffix, &inner_var, depth + 2, support)?;
                    let mut body = Vec::new();
                    let uses = match &inner {
                        None => {
                            body.push(Code::Line("return false;".into()));
                            false
                        }
                        Some(lines) if group => {
                            body.extend(lines.iter().cloned());
                            codes_mention(lines, &v)
                        }
                        Some(lines) => {
                            let mut inner_body = Vec::new();
                            if codes_mention(lines, &inner_var) {
                                inner_body.push(Code::Open(format!(
                                    "let ::core::option::Option::Some({inner_var}) = {v} else"
                                )));
                                inner_body.push(Code::Line("return false;".into()));
                                inner_body.push(Code::CloseWith(";".into()));
                            } else {
                                inner_body.push(Code::Open(format!("if {v}.is_none()")));
                                inner_body.push(Code::Line("return false;".into()));
                                inner_body.push(Code::Close);
                            }
                            inner_body.extend(lines.iter().cloned());
                            body.extend(inner_body);
                            true
                        }
                    };
                    let pattern = if uses {
                        format!("{}::{variant}({v})", flat.which)
                    } else {
                        format!("{}::{variant}(..)", flat.which)
                    };
                    code.push(Code::Open(format!("if let {pattern} = &{union}")));
                    code.extend(body);
                    code.push(Code::Close);
                }
            }
        }
        Ok(Some(code))
    }

    pub(super) fn value_deserialize(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
        flat: &Flat<'_>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        let mut slots = 0;
        count_slots(flat, &mut slots);
        let names: Vec<String> = flat.names.iter().map(|(k, _)| format!("{k:?}")).collect();
        // A parameter's value is read from any deserializer.
        let bound = format!("for<'v> {support}::DeserializeValue<'v>");
        let ty = c.self_ty();
        out.open_impl(&format!(
            "impl{} {support}::StructFields for {ty}",
            c.impl_generics(&[], &bound)
        ));
        out.line(&format!(
            "const NAME: &'static str = {:?};",
            node.short_name()
        ));
        out.assign(
            "const FIELDS: &'static [&'static str]",
            &format!("&[{}]", names.join(", ")),
            ";",
        );
        if slots > 0 {
            out.line(&format!("const UNIONS: usize = {slots};"));
        }
        // `ready` of the members that wait for a tag.
        let mut ready = Vec::new();
        for (i, (name, _)) in flat.names.iter().enumerate() {
            if flat.waits(name) {
                match self.ready_code(flat, name, "self", 1, &support)? {
                    None => ready.push((i, vec![Code::Line("false".into())])),
                    Some(mut lines) => {
                        lines.push(Code::Line("true".into()));
                        ready.push((i, lines));
                    }
                }
            }
        }
        if !ready.is_empty() {
            let seen = if ready.iter().any(|(_, lines)| codes_mention(lines, "seen")) {
                "seen"
            } else {
                "_seen"
            };
            let never = ready
                .iter()
                .all(|(_, lines)| matches!(lines.as_slice(), [Code::Line(l)] if l == "false"));
            if never {
                // Only members that can never be read (their union has no
                // tag): `matches!`, as clippy has it.
                let mut runs: Vec<(usize, usize)> = Vec::new();
                for (i, _) in &ready {
                    match runs.last_mut() {
                        Some((_, end)) if *end + 1 == *i => *end = *i,
                        _ => runs.push((*i, *i)),
                    }
                }
                let indexes: Vec<String> = runs
                    .iter()
                    .map(|&(a, b)| match a == b {
                        true => a.to_string(),
                        false => format!("{a}..={b}"),
                    })
                    .collect();
                out.open_fn("fn ready(&self, _seen: &[bool], index: usize) -> bool");
                out.line(&format!(
                    "!::core::matches!(index, {})",
                    indexes.join(" | ")
                ));
            } else {
                out.open_fn(&format!(
                    "fn ready(&self, {seen}: &[bool], index: usize) -> bool"
                ));
                out.open_expression("match index");
                for (i, lines) in &ready {
                    write_arm(out, &i.to_string(), lines);
                }
                out.arm("_", "true");
                out.close();
            }
            out.close();
        }
        let mut arms = Vec::new();
        for (name, _) in &flat.names {
            let mut code = Vec::new();
            self.set_code(flat, name, name, "self", 1, &support, &mut code)?;
            arms.push(code);
        }
        let uses_seen = arms.iter().any(|a| codes_mention(a, "seen"));
        let signature = |index: &str| {
            let seen = if uses_seen { "seen" } else { "_seen" };
            format!(
                "fn set_field<'de, D: {rt}::serde::Deserializer<'de>>(&mut self, {seen}: &mut [bool], {index}: usize, d: D) -> ::core::result::Result<(), D::Error>"
            )
        };
        if arms.is_empty() {
            out.open_fn(&signature("_index"));
            out.line(&format!("{support}::skip(d)"));
        } else {
            // The match is the function's value, and an arm that is one
            // call (`next_into`, `skip`) is that call's result: in an
            // unoptimized build every arm's temporaries take stack of
            // their own, in a frame that is on the stack once for each
            // level of nesting the input has.
            out.open_fn(&signature("index"));
            out.open_expression("match index");
            for (i, lines) in arms.iter().enumerate() {
                write_result_arm(out, &i.to_string(), lines);
            }
            out.arm("_", &format!("{support}::skip(d)"));
            out.close();
        }
        out.close();
        out.close();
        let de_generics = c.impl_generics(&["'de"], &bound);
        out.open_impl(&format!(
            "impl{de_generics} {rt}::serde::Deserialize<'de> for {ty}"
        ));
        out.open_fn(&format!(
            "fn deserialize<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error>"
        ));
        out.line(&format!("{support}::deserialize_struct(d)"));
        out.close();
        out.close();
        out.open_impl(&format!(
            "impl{de_generics} {support}::DeserializeValue<'de> for {ty}"
        ));
        out.open_fn(&format!(
            "fn deserialize_value<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error>"
        ));
        out.line(&format!("{support}::deserialize_struct(d)"));
        out.close();
        out.open_fn(&format!(
            "fn deserialize_boxed<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<{rt}::typed::value::Box<Self>, D::Error>"
        ));
        out.line(&format!("{support}::deserialize_struct_boxed(d)"));
        out.close();
        out.close();
        Ok(())
    }
}

/// The unions with a tag in `flat` and what it flattens.
fn count_slots(flat: &Flat<'_>, slots: &mut usize) {
    if flat.slot.is_some() {
        *slots += 1;
    }
    for (_, child) in flat.flat.iter().flatten() {
        count_slots(child, slots);
    }
}

/// Writes an arm of `set_field`'s match, whose value is the function's
/// result: one statement `call?;` as `pattern => call`, otherwise
/// `pattern => { code Ok(()) }`.
fn write_result_arm(out: &mut Writer, pattern: &str, code: &[Code]) {
    if let [Code::Line(line)] = code {
        if let Some(call) = line.strip_suffix("?;") {
            out.arm(pattern, call);
            return;
        }
    }
    let mut block = code.to_vec();
    block.push(Code::Line("Ok(())".into()));
    out.open(&format!("{pattern} =>"));
    write_codes(out, &block);
    out.close();
}

/// Writes `pattern => { code }` (or on one line, when it is one line).
fn write_arm(out: &mut Writer, pattern: &str, code: &[Code]) {
    if let [Code::Line(line)] = code {
        out.arm(pattern, line.trim_end_matches(';'));
        return;
    }
    out.open(&format!("{pattern} =>"));
    write_codes(out, code);
    out.close();
}

/// Writes the lines of `code`.
fn write_codes(out: &mut Writer, code: &[Code]) {
    for line in code {
        match line {
            Code::Line(l) => out.line(l),
            Code::Open(h) => out.open_expression(h),
            Code::Close => out.close(),
            Code::CloseWith(t) => out.close_with(t),
            Code::Arm(p, v) => out.arm(p, v),
        }
    }
}
