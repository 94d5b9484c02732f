//! Whether the input looks like the format it is said to be in, from its
//! first bytes: the reference's check before `convert` reads anything
//! (capnp.c++ 0.9.2, `checkPlausibility` and the `isPlausibly*`
//! functions it calls), with its messages. `--quiet` skips it.
//!
//! One difference: the reference takes a root pointer with a negative
//! offset as impossible except for `0xffffffff 0x00000000`, a test meant
//! for the empty struct whose canonical pointer is `0xfffffffc
//! 0x00000000`; so it refuses an empty struct's canonical (or flat) form,
//! which is valid. Here the empty struct's real pointer passes.

use capnarena_dynamic::StructSchema;

use crate::convert::Format;

/// How plausible a prefix is in a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plausibility {
    Impossible,
    Implausible,
    WrongType,
    Plausible,
}

use Plausibility::*;

/// The root type's data and pointer words (an empty struct without a
/// schema, as the reference's default `StructSchema`).
#[derive(Clone, Copy)]
struct Sections {
    data: u32,
    pointers: u32,
}

fn word_at(p: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([p[at], p[at + 1], p[at + 2], p[at + 3]])
}

fn flat(prefix: &[u8], segment_count: u32, root: Sections) -> Plausibility {
    if prefix.len() < 8 {
        return Plausible;
    }
    if prefix[0] & 3 == 2 {
        // A far pointer: its segment must exist.
        let segment = word_at(prefix, 4);
        return if segment == 0 || segment >= segment_count {
            Impossible
        } else {
            Plausible
        };
    }
    if prefix[0] & 3 != 0 {
        return Impossible;
    }
    if prefix[..8] == [0xfc, 0xff, 0xff, 0xff, 0, 0, 0, 0] {
        // The empty struct: offset -1, no sections.
        return Plausible;
    }
    if prefix[3] & 0x80 != 0 {
        // A negative offset.
        return Impossible;
    }
    if prefix[3] & 0xe0 != 0 {
        // An offset past a gigabyte.
        return Implausible;
    }
    let data = u32::from(u16::from_le_bytes([prefix[4], prefix[5]]));
    let pointers = u32::from(u16::from_le_bytes([prefix[6], prefix[7]]));
    if data + pointers > 2048 {
        return Implausible;
    }
    if (data < root.data && pointers > root.pointers)
        || (data > root.data && pointers < root.pointers)
    {
        // Neither an older nor a newer version of the root type.
        return WrongType;
    }
    if data > root.data && data - root.data > 128 {
        return WrongType;
    }
    if pointers > root.pointers && pointers - root.pointers > 128 {
        return WrongType;
    }
    Plausible
}

fn binary(prefix: &[u8], root: Sections) -> Plausibility {
    if prefix.len() < 8 {
        return Plausible;
    }
    let count = u64::from(word_at(prefix, 0)) + 1;
    if count > 65536 {
        return Impossible;
    } else if count > 256 {
        return Implausible;
    }
    if word_at(prefix, 4) > 1 << 27 {
        return Implausible;
    }
    let mut offset = 4 + count as usize * 4;
    if offset % 8 != 0 {
        offset += 4;
    }
    if prefix.len() < offset + 8 {
        return Plausible;
    }
    flat(&prefix[offset..], count as u32, root)
}

/// Unpacks up to 1 KiB of the prefix as the reference does (a zero byte
/// where packing would have left it out is impossible) and checks what
/// comes out.
fn packed(prefix: &[u8], check: impl Fn(&[u8]) -> Plausibility) -> Plausibility {
    let end = prefix.len().min(1024);
    let mut unpacked = Vec::new();
    let mut pos = 0;
    while pos < end {
        let tag = prefix[pos];
        pos += 1;
        let mut bit = 0;
        while bit < 8 && pos < end {
            if tag & (1 << bit) != 0 {
                let b = prefix[pos];
                pos += 1;
                if b == 0 {
                    return Impossible;
                }
                unpacked.push(b);
            } else {
                unpacked.push(0);
            }
            bit += 1;
        }
        if pos == end {
            break;
        }
        if tag == 0 {
            let count = usize::from(prefix[pos]) * 8;
            pos += 1;
            unpacked.resize(unpacked.len() + count, 0);
        } else if tag == 0xff {
            let count = usize::from(prefix[pos]) * 8;
            pos += 1;
            let n = count.min(end - pos);
            unpacked.extend_from_slice(&prefix[pos..pos + n]);
            pos += n;
        }
    }
    check(&unpacked)
}

/// How a literal format's prefix is checked (the reference's
/// `isPlausiblyText` and `isPlausiblyJson`).
struct Literal {
    /// What opens the message: `(` or `{`.
    open: u8,
    /// What starts a comment before it: `#` for text; `#` and `/` for JSON.
    comments: &'static [u8],
    /// What starts a string literal, where the check stops.
    quotes: &'static [u8],
    /// Whether a NUL byte passes (JSON's check reads a C `char` and skips
    /// zero; text's reads it unsigned and refuses it).
    nul_ok: bool,
}

const TEXT: Literal = Literal {
    open: b'(',
    comments: b"#",
    quotes: b"\"'",
    nul_ok: false,
};

const JSON: Literal = Literal {
    open: b'{',
    comments: b"#/",
    quotes: b"\"",
    nul_ok: true,
};

fn literal(prefix: &[u8], format: &Literal) -> Plausibility {
    enum State {
        Preamble,
        Comment,
        Body,
    }
    let mut state = State::Preamble;
    for &c in prefix {
        match state {
            State::Preamble => match c {
                _ if c == format.open => {
                    state = State::Body;
                    continue;
                }
                _ if format.comments.contains(&c) => {
                    state = State::Comment;
                    continue;
                }
                b' ' | b'\n' | b'\r' | b'\t' | 0x0b => {}
                _ => return Impossible,
            },
            State::Comment => {
                if c == b'\n' {
                    state = State::Preamble;
                    continue;
                }
            }
            State::Body => {
                if format.quotes.contains(&c) {
                    // A string literal: stop before it gets complicated.
                    return Plausible;
                }
            }
        }
        let unprintable = (c < 0x20 && !matches!(c, b'\n' | b'\r' | b'\t' | 0x0b)) || c == 0x7f;
        if unprintable && !(c == 0 && format.nul_ok) {
            return Impossible;
        }
    }
    Plausible
}

fn plausibly(format: Format, prefix: &[u8], root: Sections) -> Plausibility {
    match format {
        Format::Binary => binary(prefix, root),
        Format::Packed => packed(prefix, |p| binary(p, root)),
        Format::Flat | Format::Canonical => flat(prefix, 1, root),
        Format::FlatPacked => packed(prefix, |p| flat(p, 1, root)),
        Format::Text => literal(prefix, &TEXT),
        Format::Json => literal(prefix, &JSON),
    }
}

fn plausible_or_wrong_type(p: Plausibility) -> bool {
    matches!(p, Plausible | WrongType)
}

/// The first format the prefix may be in, in the reference's order of
/// candidates (binary, text, packed, json, flat, flat-packed).
fn guess(prefix: &[u8], root: Sections) -> Option<Format> {
    [
        Format::Binary,
        Format::Text,
        Format::Packed,
        Format::Json,
        Format::Flat,
        Format::FlatPacked,
    ]
    .into_iter()
    .find(|&f| plausible_or_wrong_type(plausibly(f, prefix, root)))
}

/// Checks the input's first bytes against its format: `Err` with the
/// reference's message when the input cannot be in it, `Ok(Some(...))`
/// with its warning when it seems unlikely, `Ok(None)` when plausible.
///
/// # Errors
/// The input cannot be in `format`.
pub fn check(
    format: Format,
    prefix: &[u8],
    root: Option<&StructSchema<'_>>,
) -> Result<Option<String>, String> {
    let root = root.map_or(
        Sections {
            data: 0,
            pointers: 0,
        },
        |s| Sections {
            data: u32::from(s.size().data_words),
            pointers: u32::from(s.size().pointers),
        },
    );
    let name = format.name();
    match plausibly(format, prefix, root) {
        Plausible => Ok(None),
        Impossible => Err(match guess(prefix, root) {
            Some(g) => format!(
                "The input is not in \"{name}\" format. It looks like it is in \"{}\" format. Try that instead.",
                g.name()
            ),
            None => format!("The input is not in \"{name}\" format."),
        }),
        Implausible => Ok(Some(match guess(prefix, root) {
            Some(g) => format!(
                "*** WARNING ***\n\
                 The input data does not appear to be in \"{name}\" format. It\n\
                 looks like it may be in \"{g}\" format. I'll try to parse\n\
                 it in \"{name}\" format as you requested, but if it doesn't work,\n\
                 try \"{name}\" instead. Use --quiet to suppress this warning.\n\
                 *** END WARNING ***\n",
                g = g.name()
            ),
            None => format!(
                "*** WARNING ***\n\
                 The input data does not appear to be in \"{name}\" format, nor\n\
                 in any other known format. I'll try to parse it in \"{name}\"\n\
                 format anyway, as you requested. Use --quiet to suppress this warning.\n\
                 *** END WARNING ***\n"
            ),
        })),
        WrongType => Ok(Some(
            if format == Format::Flat
                && plausible_or_wrong_type(plausibly(Format::Binary, prefix, root))
            {
                "*** WARNING ***\n\
                 The input data does not appear to match the schema that you specified. I'll try\n\
                 to parse it anyway, but if it doesn't look right, please verify that you\n\
                 have the right schema. This could also be because the input is not in \"flat\"\n\
                 format; indeed, it looks like this input may be in regular binary format,\n\
                 so you might want to try \"binary\" instead.  Use --quiet to suppress this\n\
                 warning.\n\
                 *** END WARNING ***\n"
                    .to_string()
            } else if format == Format::FlatPacked
                && plausible_or_wrong_type(plausibly(Format::Packed, prefix, root))
            {
                "*** WARNING ***\n\
                 The input data does not appear to match the schema that you specified. I'll try\n\
                 to parse it anyway, but if it doesn't look right, please verify that you\n\
                 have the right schema. This could also be because the input is not in \"flat-packed\"\n\
                 format; indeed, it looks like this input may be in regular packed format,\n\
                 so you might want to try \"packed\" instead.  Use --quiet to suppress this\n\
                 warning.\n\
                 *** END WARNING ***\n"
                    .to_string()
            } else {
                "*** WARNING ***\n\
                 The input data does not appear to be the type that you specified.  I'll try\n\
                 to parse it anyway, but if it doesn't look right, please verify that you\n\
                 have the right type.  Use --quiet to suppress this warning.\n\
                 *** END WARNING ***\n"
                    .to_string()
            },
        )),
    }
}
