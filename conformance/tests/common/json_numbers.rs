//! Comparing JSON texts up to how numbers are spelled: serde_json writes
//! a float's shortest form that reads back (`0.0`, `-1.23e+47`), the
//! reference C's `%.15g` or `%.17g` (`0`, `-1.23e47`). Included with
//! `#[path = "common/json_numbers.rs"] mod json_numbers;`.
#![allow(dead_code)]

/// JSON text cut into number tokens and the text between them (strings
/// kept whole, so digits inside a string are text).
pub fn tokens(json: &str) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    let mut chars = json.chars().peekable();
    let mut text = String::new();
    while let Some(c) = chars.next() {
        if c == '"' {
            text.push(c);
            while let Some(c) = chars.next() {
                text.push(c);
                match c {
                    '\\' => text.extend(chars.next()),
                    '"' => break,
                    _ => {}
                }
            }
        } else if c == '-' || c.is_ascii_digit() {
            if !text.is_empty() {
                out.push((false, std::mem::take(&mut text)));
            }
            let mut number = String::from(c);
            while let Some(&c) = chars.peek() {
                if c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-') {
                    number.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push((true, number));
        } else {
            text.push(c);
        }
    }
    if !text.is_empty() {
        out.push((false, text));
    }
    out
}

/// Checks that `ours` is `reference` up to the spelling of numbers (each
/// the same double, sign of zero included); returns the numbers spelled
/// differently, as (reference, serde_json).
pub fn same_json(name: &str, reference: &str, ours: &str) -> Vec<(String, String)> {
    let (r, o) = (tokens(reference), tokens(ours));
    let context = format!("{name}:\nreference: {reference}\nserde:     {ours}");
    assert_eq!(r.len(), o.len(), "token counts differ, {context}");
    let mut spelled = Vec::new();
    for ((r_number, r), (o_number, o)) in r.iter().zip(&o) {
        assert_eq!(r_number, o_number, "{r:?} against {o:?}, {context}");
        if !r_number {
            assert_eq!(r, o, "{context}");
            continue;
        }
        let (rv, ov): (f64, f64) = (r.parse().expect("number"), o.parse().expect("number"));
        assert_eq!(rv.to_bits(), ov.to_bits(), "{r} against {o}, {context}");
        if r != o {
            spelled.push((r.clone(), o.clone()));
        }
    }
    spelled
}
