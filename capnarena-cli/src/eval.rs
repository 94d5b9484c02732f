//! `eval`: the value of a constant, or of a struct field's default, or of
//! a member or list element within one, as the reference's `capnp eval`
//! (capnp.c++ 0.9.2, `evalConst`) finds and prints it.

use capnarena::text::TextValue;
use capnarena::{MessageReader, Word};
use capnarena_dynamic::{DynamicStructReader, DynamicValue, Schema, Type, text};

/// One step of the name: a member and the subscripts after it
/// (`list[4][2]`).
#[derive(Debug, PartialEq)]
pub struct Part {
    /// The member's name.
    pub name: String,
    /// Its subscripts.
    pub subscripts: Vec<u64>,
}

/// `a.b[1][2].c` as its parts.
///
/// # Errors
/// `invalid syntax` (the reference's words) for anything else.
pub fn parse_name(name: &str) -> Result<Vec<Part>, String> {
    let invalid = || "invalid syntax".to_string();
    let mut parts = Vec::new();
    let mut rest = name;
    loop {
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let ident = &rest[..end];
        if ident.is_empty() || ident.as_bytes()[0].is_ascii_digit() {
            return Err(invalid());
        }
        rest = &rest[end..];
        let mut subscripts = Vec::new();
        while let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']').ok_or_else(invalid)?;
            let n: u64 = after[..close].parse().map_err(|_| invalid())?;
            subscripts.push(n);
            rest = &after[close + 1..];
        }
        parts.push(Part {
            name: ident.to_string(),
            subscripts,
        });
        if rest.is_empty() {
            return Ok(parts);
        }
        rest = rest.strip_prefix('.').ok_or_else(invalid)?;
        if rest.is_empty() {
            return Err(invalid());
        }
    }
}

/// What `eval` found: a struct (which every output format can write) or
/// another value (text only).
pub enum Found<'a> {
    /// A struct value.
    Struct(DynamicStructReader<'a>),
    /// Any other value, as the text format prints it.
    Other(TextValue<'a>),
}

/// The one-word message whose root is null: a struct's default value.
pub static EMPTY: [Word; 1] = [Word::ZERO];

/// Evaluates `parts` in the file `file_id` of `schema`; `empty` reads as
/// the default of a struct named directly.
///
/// # Errors
/// The reference's messages: `'X' is not defined.`, `'X' cannot be
/// evaluated.`, `'X' has no member 'Y'.`, `'X' is not a struct.`, `'X' is
/// not a list.`, `'X[4]' is out-of-bounds.`, or a read error.
pub fn evaluate<'a>(
    schema: &'a Schema<'a>,
    file_id: u64,
    parts: &[Part],
    empty: &'a MessageReader<'a>,
) -> Result<Found<'a>, String> {
    let e = |e: capnarena_dynamic::Error| e.to_string();
    // Walk the scopes while the names are nodes.
    let mut scope = file_id;
    let mut pos = 0;
    let mut stopped_at_subscript = false;
    while pos < parts.len() {
        let found = schema
            .nested(scope)
            .map_err(e)?
            .find(|(n, _)| *n == parts[pos].name)
            .map(|(_, id)| id);
        let Some(id) = found else { break };
        scope = id;
        if !parts[pos].subscripts.is_empty() {
            stopped_at_subscript = true;
            break;
        }
        pos += 1;
    }
    let short = schema
        .display_name(scope)
        .map(|d| d.rsplit([':', '.']).next().unwrap_or(d).to_string())
        .map_err(e)?;
    let mut value: DynamicValue<'a>;
    let mut text_override: Option<&'a [u8]> = None;
    match schema.node_kind(scope).map_err(e)? {
        "const" => {
            let c = schema.const_schema(scope).map_err(e)?;
            if matches!(c.ty().map_err(e)?, Type::Text) {
                text_override = Some(c.text_bytes().map_err(e)?);
                value = DynamicValue::Void;
            } else {
                value = c.value().map_err(e)?;
            }
        }
        "struct" => {
            if pos == parts.len() {
                return Err(format!("'{short}' cannot be evaluated."));
            }
            let st = schema.struct_schema(scope).map_err(e)?;
            value = DynamicValue::Struct(DynamicStructReader::root(empty, st).map_err(e)?);
        }
        _ => {
            return Err(if stopped_at_subscript {
                format!("'{short}' is not a list.")
            } else if pos < parts.len() {
                format!("'{}' is not defined.", parts[pos].name)
            } else {
                format!("'{short}' cannot be evaluated.")
            });
        }
    }
    // The rest of the path: struct members, each with its subscripts.
    let mut i = pos;
    while i < parts.len() {
        let part = &parts[i];
        if !stopped_at_subscript {
            let previous = if i == 0 {
                short.clone()
            } else {
                parts[i - 1].name.clone()
            };
            let DynamicValue::Struct(s) = &value else {
                return Err(format!("'{previous}' is not a struct."));
            };
            let Ok(field) = s.schema().field_by_name(&part.name) else {
                return Err(format!("'{previous}' has no member '{}'.", part.name));
            };
            text_override = None;
            if !field.is_group() && matches!(field.ty().map_err(e)?, Type::Text) {
                text_override = Some(s.get_text_bytes(&field).map_err(e)?);
            }
            value = s.get(&field).or_else(|err| {
                if text_override.is_some() {
                    Ok(DynamicValue::Void)
                } else {
                    Err(e(err))
                }
            })?;
        }
        for (k, &subscript) in part.subscripts.iter().enumerate() {
            let DynamicValue::List(l) = &value else {
                return Err(if k > 0 {
                    format!(
                        "'{}{}' is not a list.",
                        part.name,
                        brackets(&part.subscripts[..k])
                    )
                } else {
                    format!("'{}' is not a list.", part.name)
                });
            };
            if subscript >= u64::from(l.len()) {
                return Err(format!(
                    "'{}{}' is out-of-bounds.",
                    part.name,
                    brackets(&part.subscripts[..=k])
                ));
            }
            let index = subscript as u32;
            text_override = None;
            if matches!(l.element_type(), Type::Text) {
                text_override = Some(l.get_text_bytes(index).map_err(e)?);
                value = DynamicValue::Void;
            } else {
                value = l.get(index).map_err(e)?;
            }
        }
        stopped_at_subscript = false;
        i += 1;
    }
    if let Some(bytes) = text_override {
        return Ok(Found::Other(TextValue::Text(bytes)));
    }
    Ok(match value {
        DynamicValue::Struct(s) => Found::Struct(s),
        other => Found::Other(text::value_to_text(other).map_err(e)?),
    })
}

fn brackets(subscripts: &[u64]) -> String {
    subscripts.iter().map(|s| format!("[{s}]")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names parse into members and subscripts, and malformed names are
    /// refused with the reference's words.
    #[test]
    fn names() {
        let p = parse_name("a.b[4][2].c").unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[1].subscripts, [4, 2]);
        for bad in ["", "a.", ".a", "a[", "a[x]", "a b", "1a", "a..b"] {
            assert_eq!(parse_name(bad).unwrap_err(), "invalid syntax", "{bad:?}");
        }
    }
}
