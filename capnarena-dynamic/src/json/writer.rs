//! The JSON text writer: a tree of values to text, short (no whitespace)
//! or pretty, byte for byte as the reference's codec writes them.
//!
//! Pretty layout (the reference's rule): an array or object with more
//! than one element goes one element per line when an element spans
//! lines or is longer than 50 bytes; otherwise it stays on one line with
//! `", "` between elements. A multi-line list opens with `"{ "` (`"[ "`),
//! or, as the value of an object member, moves its first element to the
//! next line; it closes with `" }"` (`" ]"`). Elements indent two spaces
//! per level, and a list of one element adds no level.

/// A JSON value to write.
#[derive(Debug)]
pub(crate) enum Out {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Out>),
    Object(Vec<(String, Out)>),
    /// A call `f(a, b)`: a `json.Value` can hold one.
    Call(String, Vec<Out>),
}

/// The text of `value`.
pub(crate) fn write(value: &Out, pretty: bool) -> String {
    if pretty {
        let mut multiline = false;
        pretty_value(value, 0, &mut multiline, false)
    } else {
        let mut out = String::new();
        short_value(value, &mut out);
        out
    }
}

fn short_value(value: &Out, out: &mut String) {
    match value {
        Out::Null => out.push_str("null"),
        Out::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Out::Number(n) => push_number(*n, out),
        Out::String(s) => push_string(s, out),
        Out::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                short_value(item, out);
            }
            out.push(']');
        }
        Out::Object(members) => {
            out.push('{');
            for (i, (name, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_string(name, out);
                out.push(':');
                short_value(item, out);
            }
            out.push('}');
        }
        Out::Call(function, params) => {
            out.push_str(function);
            out.push('(');
            for (i, item) in params.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                short_value(item, out);
            }
            out.push(')');
        }
    }
}

fn pretty_value(value: &Out, indent: usize, multiline: &mut bool, has_prefix: bool) -> String {
    match value {
        Out::Array(items) => {
            let sub = indent + usize::from(items.len() > 1);
            let mut child_multiline = false;
            let parts: Vec<String> = items
                .iter()
                .map(|v| pretty_value(v, sub, &mut child_multiline, false))
                .collect();
            let mut out = String::from("[");
            join(
                parts,
                child_multiline,
                indent,
                multiline,
                has_prefix,
                &mut out,
            );
            out.push(']');
            out
        }
        Out::Object(members) => {
            let sub = indent + usize::from(members.len() > 1);
            let mut child_multiline = false;
            let parts: Vec<String> = members
                .iter()
                .map(|(name, v)| {
                    let mut s = String::new();
                    push_string(name, &mut s);
                    s.push_str(": ");
                    s.push_str(&pretty_value(v, sub, &mut child_multiline, true));
                    s
                })
                .collect();
            let mut out = String::from("{");
            join(
                parts,
                child_multiline,
                indent,
                multiline,
                has_prefix,
                &mut out,
            );
            out.push('}');
            out
        }
        Out::Call(function, params) => {
            let sub = indent + usize::from(params.len() > 1);
            let mut child_multiline = false;
            let parts: Vec<String> = params
                .iter()
                .map(|v| pretty_value(v, sub, &mut child_multiline, false))
                .collect();
            let mut out = function.clone();
            out.push('(');
            join(parts, child_multiline, indent, multiline, true, &mut out);
            out.push(')');
            out
        }
        other => {
            let mut out = String::new();
            short_value(other, &mut out);
            out
        }
    }
}

fn join(
    parts: Vec<String>,
    child_multiline: bool,
    indent: usize,
    multiline: &mut bool,
    has_prefix: bool,
    out: &mut String,
) {
    let longest = parts.iter().map(String::len).max().unwrap_or(0);
    if parts.len() > 1 && (child_multiline || longest > 50) {
        *multiline = true;
        let space = " ".repeat((indent + 1) * 2);
        if has_prefix {
            out.push('\n');
            out.push_str(&space);
        } else {
            out.push(' ');
        }
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                out.push_str(",\n");
                out.push_str(&space);
            }
            out.push_str(p);
        }
        out.push(' ');
    } else {
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(p);
        }
    }
}

/// `s` as a JSON string: `"` and `\` escaped, the control characters
/// below 0x20 as `\b \f \n \r \t` or `\u00XX`; everything else as is.
pub(crate) fn push_string(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let mut run = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0..=0x1f => Some(""),
            _ => None,
        };
        if let Some(esc) = esc {
            out.push_str(&s[run..i]);
            if esc.is_empty() {
                out.push_str("\\u00");
                out.push(HEX[usize::from(b >> 4)] as char);
                out.push(HEX[usize::from(b & 15)] as char);
            } else {
                out.push_str(esc);
            }
            run = i + 1;
        }
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// A finite number as the reference writes it: C's `%.15g`, or `%.17g`
/// when 15 digits do not read back as the same number, without the `+`
/// of a positive exponent (`1e22`, `1e-05`, `0.1`, `-0`, `123456`).
pub(crate) fn push_number(v: f64, out: &mut String) {
    if v.is_nan() {
        out.push_str("nan");
        return;
    }
    if v.is_infinite() {
        out.push_str(if v > 0.0 { "inf" } else { "-inf" });
        return;
    }
    let s15 = format_g(v, 15);
    if s15.parse::<f64>() == Ok(v) {
        out.push_str(&s15);
    } else {
        out.push_str(&format_g(v, 17));
    }
}

/// C's `%.{precision}g` of a finite `v`, with no `+` in the exponent.
fn format_g(v: f64, precision: usize) -> String {
    // The exponent C's %e would show at this precision (after rounding).
    let sci = format!("{:.*e}", precision - 1, v);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let p = precision as i32;
    if exp < -4 || exp >= p {
        // Scientific: trailing zeros (and point) dropped, exponent of at
        // least two digits.
        let m = trim_zeros(mantissa);
        let sign = if exp < 0 { "-" } else { "" };
        format!("{m}e{sign}{:02}", exp.unsigned_abs())
    } else {
        let decimals = (p - 1 - exp) as usize;
        let fixed = format!("{v:.decimals$}");
        trim_zeros(&fixed).to_string()
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(v: f64) -> String {
        let mut s = String::new();
        push_number(v, &mut s);
        s
    }

    /// Numbers are written as C's `%.15g` (then `%.17g`) writes them,
    /// as glibc's printf prints these values.
    #[test]
    fn numbers_as_printf_g() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-2.25e300, "-2.25e300"),
            (6.02214076e23, "6.02214076e23"),
            (1e22, "1e22"),
            (1e15, "1e15"),
            (123456789012345.0, "123456789012345"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (0.1, "0.1"),
            (f64::from(0.1f32), "0.10000000149011612"),
            (1.0 / 3.0, "0.33333333333333331"),
            (4294967295.0, "4294967295"),
            (f64::MAX, "1.7976931348623157e308"),
            (5e-324, "4.94065645841247e-324"),
        ];
        for (v, want) in cases {
            assert_eq!(num(*v), *want, "{v:e}");
        }
    }
}
