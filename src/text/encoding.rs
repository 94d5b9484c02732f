//! Bytes as text: standard base64 (RFC 4648 section 4, `=` padded) and
//! lower-case hex, the forms of a `Data` field marked `$Json.base64` or
//! `$Json.hex` (`/capnp/compat/json.capnp`).
//!
//! Writing is [`Base64`] and [`Hex`] (`Display`, no allocation); reading
//! is [`decode_base64`] and [`decode_hex`], which follow the reference's
//! JSON codec in what it reads without error (base64: padding optional,
//! whitespace skipped, unused bits ignored; hex digits of either case)
//! but refuse what its decoders report as errors and it reads all the
//! same (any other character, a length that does not end on a byte),
//! with an [`EncodingError`] saying where the fault is, so that each
//! caller places it in its own error.
//!
//! ```
//! use capnarena::text::encoding::{Base64, Hex, decode_base64, decode_hex};
//!
//! assert_eq!(Base64(b"foob").to_string(), "Zm9vYg==");
//! assert_eq!(Hex(&[0x0a, 0xff]).to_string(), "0aff");
//! assert_eq!(decode_base64("Zm9vYg")?, b"foob");
//! assert_eq!(decode_hex("0AfF")?, [0x0a, 0xff]);
//! let err = decode_base64("Zm*v").unwrap_err();
//! assert_eq!(err.to_string(), "character 3 of the base64 is '*'");
//! # Ok::<(), capnarena::text::encoding::EncodingError>(())
//! ```

use core::fmt;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The 64 digits of standard base64, by value.
const BASE64_DIGITS: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Bytes written as standard base64 with `=` padding and no line
/// breaks (`Display`).
#[derive(Clone, Copy, Debug)]
pub struct Base64<'a>(pub &'a [u8]);

/// Bytes written as lower-case hex, two digits a byte (`Display`).
#[derive(Clone, Copy, Debug)]
pub struct Hex<'a>(pub &'a [u8]);

impl fmt::Display for Base64<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.chunks(3) {
            let mut n = 0u32;
            for (i, b) in chunk.iter().enumerate() {
                n |= u32::from(*b) << (16 - 8 * i);
            }
            let mut out = [b'='; 4];
            for (i, c) in out.iter_mut().enumerate().take(chunk.len() + 1) {
                *c = BASE64_DIGITS[((n >> (18 - 6 * i)) & 63) as usize];
            }
            // Base64 digits and `=` are ASCII.
            f.write_str(core::str::from_utf8(&out).map_err(|_| fmt::Error)?)?;
        }
        Ok(())
    }
}

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Which text form of bytes an [`EncodingError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BytesEncoding {
    /// Standard base64.
    Base64,
    /// Hex.
    Hex,
}

impl fmt::Display for BytesEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BytesEncoding::Base64 => "base64",
            BytesEncoding::Hex => "hex",
        })
    }
}

/// Text that is not the bytes encoding it should be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodingError {
    /// The character at byte `offset` of the text (counted from 0; every
    /// character before it is ASCII, so it is also character `offset + 1`)
    /// is no digit of the encoding (nor padding where padding may be).
    BadCharacter {
        /// The encoding.
        encoding: BytesEncoding,
        /// Byte offset of the character in the text.
        offset: usize,
        /// The character.
        found: char,
    },
    /// Base64 whose length does not end on a byte: one digit alone in
    /// the last group of four, or two followed by one `=` only.
    Base64Length {
        /// Characters in the text (whitespace included).
        len: usize,
        /// Base64 digits in the text.
        digits: usize,
        /// `=` in the text.
        padding: usize,
    },
    /// Hex of an odd number of digits.
    HexLength {
        /// Characters in the text.
        len: usize,
    },
}

impl EncodingError {
    /// The byte offset in the text of the character at fault, when one
    /// character is.
    pub fn offset(&self) -> Option<usize> {
        match *self {
            EncodingError::BadCharacter { offset, .. } => Some(offset),
            EncodingError::Base64Length { .. } | EncodingError::HexLength { .. } => None,
        }
    }
}

impl fmt::Display for EncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodingError::BadCharacter {
                encoding,
                offset,
                found,
            } => write!(f, "character {} of the {encoding} is {found:?}", offset + 1),
            EncodingError::Base64Length {
                len,
                digits,
                padding,
            } => write!(
                f,
                "base64 of {len} characters ({digits} digits, {padding} padding) does not end on a byte"
            ),
            EncodingError::HexLength { len } => write!(f, "hex of odd length {len}"),
        }
    }
}

impl core::error::Error for EncodingError {}

#[cfg(feature = "alloc")]
/// The character at byte `offset` of `text`, which is at a character
/// boundary (every byte before it is ASCII).
fn bad_character(encoding: BytesEncoding, text: &str, offset: usize) -> EncodingError {
    EncodingError::BadCharacter {
        encoding,
        offset,
        found: text
            .get(offset..)
            .and_then(|rest| rest.chars().next())
            .unwrap_or(char::REPLACEMENT_CHARACTER),
    }
}

#[cfg(feature = "alloc")]
/// The value of a standard base64 digit.
fn base64_digit(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// The bytes standard base64 `text` encodes (RFC 4648 section 4), read
/// as the reference's JSON codec reads a `$Json.base64` field (its
/// `kj::decodeBase64`, v0.9.2) when that decoder reports no error:
/// whitespace (space, tab, line feed, form feed, carriage return)
/// anywhere is skipped; `=` padding is optional, but when present it
/// completes the last group of four digits (`QQ==`, `QUI=`; not `QQ=`)
/// and nothing but whitespace follows it; the last digit's bits past the
/// data are ignored (`QR==` is `A`, as `QQ==`).
///
/// What that decoder reports as an error, and the reference's codec then
/// reads all the same (skipping the character, or decoding on past the
/// padding: `QQ==QQ` is three bytes there), is refused here: any other
/// character (URL-safe digits, vertical tab, non-ASCII), `=` where no
/// padding may be, and a length that does not end on a byte (one digit
/// alone in the last group, or incomplete padding).
///
/// # Errors
/// [`EncodingError`]: the first character that is no digit nor padding
/// where padding may be, or a length that does not end on a byte.
#[cfg(feature = "alloc")]
pub fn decode_base64(text: &str) -> Result<Vec<u8>, EncodingError> {
    let all = text.as_bytes();
    let mut out = Vec::with_capacity(all.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    let (mut digits, mut padding) = (0usize, 0usize);
    for (i, &c) in all.iter().enumerate() {
        match c {
            b' ' | b'\t' | b'\n' | 0x0c | b'\r' => {}
            b'=' => {
                // Padding follows the second digit of a group (two `=`
                // at most) or its third (one).
                let room = match digits % 4 {
                    2 => 2,
                    3 => 1,
                    _ => 0,
                };
                if padding >= room {
                    return Err(bad_character(BytesEncoding::Base64, text, i));
                }
                padding += 1;
            }
            _ => {
                let d = match base64_digit(c) {
                    Some(d) if padding == 0 => d,
                    _ => return Err(bad_character(BytesEncoding::Base64, text, i)),
                };
                digits += 1;
                // acc keeps fewer than 8 bits between digits, so at most
                // 14 here.
                acc = (acc << 6) | u32::from(d);
                bits += 6;
                if bits >= 8 {
                    bits -= 8;
                    // The byte is acc's bits above the `bits` left over:
                    // < 256.
                    out.push((acc >> bits) as u8);
                    acc &= (1 << bits) - 1;
                }
            }
        }
    }
    if digits % 4 == 1 || (digits % 4 == 2 && padding == 1) {
        return Err(EncodingError::Base64Length {
            len: all.len(),
            digits,
            padding,
        });
    }
    Ok(out)
}

/// The bytes hex `text` encodes: an even number of digits, of either
/// case, nothing else.
///
/// # Errors
/// [`EncodingError`]: an odd length, or the first character that is no
/// hex digit.
#[cfg(feature = "alloc")]
pub fn decode_hex(text: &str) -> Result<Vec<u8>, EncodingError> {
    let b = text.as_bytes();
    if b.len() % 2 != 0 {
        return Err(EncodingError::HexLength { len: b.len() });
    }
    let digit = |i: usize| {
        char::from(b[i])
            .to_digit(16)
            .ok_or_else(|| bad_character(BytesEncoding::Hex, text, i))
    };
    let mut out = Vec::with_capacity(b.len() / 2);
    for i in (0..b.len()).step_by(2) {
        // Two hex digits: at most 255.
        out.push((digit(i)? * 16 + digit(i + 1)?) as u8);
    }
    Ok(out)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// RFC 4648 section 10's base64 and base16 vectors: written and read
    /// back, base64 also without its padding (as the reference reads it).
    #[test]
    fn rfc4648_vectors() {
        let vectors: [(&[u8], &str, &str); 7] = [
            (b"", "", ""),
            (b"f", "Zg==", "66"),
            (b"fo", "Zm8=", "666f"),
            (b"foo", "Zm9v", "666f6f"),
            (b"foob", "Zm9vYg==", "666f6f62"),
            (b"fooba", "Zm9vYmE=", "666f6f6261"),
            (b"foobar", "Zm9vYmFy", "666f6f626172"),
        ];
        for (bytes, base64, hex) in vectors {
            assert_eq!(Base64(bytes).to_string(), base64);
            assert_eq!(Hex(bytes).to_string(), hex);
            assert_eq!(decode_base64(base64).unwrap(), bytes, "{base64}");
            assert_eq!(decode_base64(base64.trim_end_matches('=')).unwrap(), bytes);
            assert_eq!(decode_hex(hex).unwrap(), bytes, "{hex}");
            assert_eq!(decode_hex(&hex.to_uppercase()).unwrap(), bytes, "{hex}");
        }
    }

    /// Every byte value round-trips, through both digits `+` and `/` and
    /// both cases of hex letters.
    #[test]
    fn all_bytes_round_trip() {
        let bytes: Vec<u8> = (0..=255).collect();
        let text = Base64(&bytes).to_string();
        assert!(text.contains('+') && text.contains('/'));
        assert_eq!(decode_base64(&text).unwrap(), bytes);
        assert_eq!(decode_hex(&Hex(&bytes).to_string()).unwrap(), bytes);
        assert_eq!(decode_hex("aBcDeF").unwrap(), [0xab, 0xcd, 0xef]);
    }

    /// What the reference's base64 decoder reads without error is read
    /// alike: whitespace skipped (not vertical tab), padding optional,
    /// bits past the data ignored.
    #[test]
    fn base64_read_as_the_reference() {
        for (text, bytes) in [
            ("Zm9v\nYg==", &b"foob"[..]),
            ("Z m\t9\r\nv\x0cY g = = ", b"foob"),
            ("Zh==", b"f"),
            ("Zm9=", b"fo"),
            ("QR", b"A"),
            (" ", b""),
        ] {
            assert_eq!(decode_base64(text).unwrap(), bytes, "{text:?}");
        }
    }

    /// What the reference's decoders report as errors (and its codec
    /// then skips or misreads) is refused, naming the character (and its
    /// place) or the length at fault.
    #[test]
    fn malformed_text_is_refused_with_its_place() {
        let bad = |encoding, offset, found| EncodingError::BadCharacter {
            encoding,
            offset,
            found,
        };
        let length = |len, digits, padding| EncodingError::Base64Length {
            len,
            digits,
            padding,
        };
        use BytesEncoding::{Base64 as B64, Hex as H};
        for (text, want) in [
            ("Zm9v Yg=", length(8, 6, 1)),
            ("Zm-_", bad(B64, 2, '-')),
            ("Zé=", bad(B64, 1, 'é')),
            ("Z\x0bg==", bad(B64, 1, '\x0b')),
            ("Z=9v", bad(B64, 1, '=')),
            ("=Zg", bad(B64, 0, '=')),
            ("Zg===", bad(B64, 4, '=')),
            ("Zm9==", bad(B64, 4, '=')),
            ("Zm9=Yg==", bad(B64, 4, 'Y')),
            ("Zg==Zg", bad(B64, 4, 'Z')),
            ("Zg=", length(3, 2, 1)),
            ("Z", length(1, 1, 0)),
            ("Zm9vY", length(5, 5, 0)),
        ] {
            assert_eq!(decode_base64(text), Err(want), "{text:?}");
        }
        for (text, want) in [
            ("abc", EncodingError::HexLength { len: 3 }),
            ("0g", bad(H, 1, 'g')),
            ("00 1", bad(H, 2, ' ')),
            ("é", bad(H, 0, 'é')),
            ("+1", bad(H, 0, '+')),
        ] {
            assert_eq!(decode_hex(text), Err(want), "{text:?}");
        }
        assert_eq!(
            decode_base64("A*").unwrap_err().to_string(),
            "character 2 of the base64 is '*'"
        );
        assert_eq!(decode_base64("A*").unwrap_err().offset(), Some(1));
        assert_eq!(
            decode_base64("AQ=").unwrap_err().to_string(),
            "base64 of 3 characters (2 digits, 1 padding) does not end on a byte"
        );
        assert_eq!(
            decode_hex("abc").unwrap_err().to_string(),
            "hex of odd length 3"
        );
        assert_eq!(decode_hex("abc").unwrap_err().offset(), None);
    }
}
