//! Text bytes as `&str`: the one UTF-8 check every text read makes.

use crate::error::{Error, Result};
use crate::word::Word;

/// `bytes` as `&str`, or [`Error::Utf8`] with the position of the first
/// bad byte, exactly as `core::str::from_utf8` decides. ASCII text (most
/// text in messages) is checked a word at a time by `<[u8]>::is_ascii`:
/// `core::str::from_utf8` takes a byte at a time below 16 bytes, about
/// 100 instructions for a 12-byte name against about 15.
#[inline]
pub(crate) fn text_str(bytes: &[u8]) -> Result<&str> {
    if bytes.is_ascii() {
        // SAFETY: every byte of `bytes` is below 0x80 (`is_ascii` just
        // said so, and `bytes` is a shared borrow: nothing changes it
        // while it lives, the returned `&str` included), and a sequence
        // of bytes below 0x80 is valid UTF-8: each is a one-byte
        // sequence of its own (RFC 3629, section 3).
        return Ok(unsafe { core::str::from_utf8_unchecked(bytes) });
    }
    core::str::from_utf8(bytes).map_err(|e| Error::Utf8 {
        valid_up_to: e.valid_up_to(),
    })
}

/// The text in a list of `count` bytes held in `words` (with up to 7
/// bytes of padding after them): the bytes before its NUL terminator, as
/// `&str`, decided as [`text_str`] decides. Up to 8 words (a text below
/// 64 bytes) that are all ASCII, padding included (a text's words, most
/// often), are tested whole, a word at a time with no byte-at-a-time
/// tail; longer texts go to [`text_str`].
///
/// # Errors
/// [`Error::TextNotTerminated`] when the last of the `count` bytes is not
/// 0 (or there is none, or `count` is past the words);
/// [`Error::Utf8`] as for [`text_str`].
#[inline]
pub(crate) fn text_of_byte_list(words: &[Word], count: usize) -> Result<&str> {
    let bytes = Word::slice_as_bytes(words);
    let last = count.checked_sub(1).and_then(|i| Some((i, *bytes.get(i)?)));
    let Some((len, 0)) = last else {
        return Err(Error::TextNotTerminated { len: count as u64 });
    };
    // `len` is below `bytes.len()`: the byte at `len` exists.
    let (text, _) = bytes.split_at(len);
    // Past 8 words `is_ascii`'s vector loop (in `text_str`) is faster.
    if words.len() > 8 {
        return text_str(text);
    }
    let high = words.iter().fold(0u64, |acc, w| acc | w.to_u64());
    if high & 0x8080_8080_8080_8080 == 0 {
        // SAFETY: no byte of `words` has its top bit set (just tested on
        // each whole word: every byte's top bit is one of the bits the
        // mask keeps, whatever the byte order), so every byte is below
        // 0x80; `text` is a prefix of those bytes, a shared borrow that
        // nothing changes while it lives; and bytes below 0x80 are valid
        // UTF-8, as in `text_str`.
        return Ok(unsafe { core::str::from_utf8_unchecked(text) });
    }
    text_str(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// What `core::str::from_utf8` says of `bytes`: the text, or where
    /// the valid UTF-8 ends.
    fn reference(bytes: &[u8]) -> core::result::Result<&str, usize> {
        core::str::from_utf8(bytes).map_err(|e| e.valid_up_to())
    }

    /// What [`text_str`] says, in the same terms (any other error is a
    /// failure).
    fn ours(bytes: &[u8]) -> core::result::Result<&str, usize> {
        text_str(bytes).map_err(|e| match e {
            Error::Utf8 { valid_up_to } => valid_up_to,
            other => panic!("not a UTF-8 error: {other}"),
        })
    }

    /// Every string of up to 3 bytes over bytes chosen to hit each
    /// branch (ASCII, continuation bytes, lead bytes of 2, 3 and 4 byte
    /// sequences, bytes that never occur, surrogates' lead), at every
    /// offset of a 24-byte ASCII run around it (so every word position
    /// and both sides of the 8- and 16-byte thresholds), gets the same
    /// answer as `core::str::from_utf8`, with the same `valid_up_to`.
    #[test]
    fn agrees_with_core_on_every_short_mix() {
        let alphabet = [
            0x00u8, 0x41, 0x7f, 0x80, 0xbf, 0xc2, 0xc0, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5,
            0xff,
        ];
        // Under Miri (which runs this for the `unsafe` above) the strings
        // of up to 1 byte at a few offsets: the full set takes minutes.
        let (max_len, pads, afters): (usize, &[usize], &[usize]) = if cfg!(miri) {
            (1, &[0, 9, 17], &[0, 13])
        } else {
            (3, &[0, 1, 7, 8, 9, 15, 16, 17, 24], &[0, 1, 8, 13])
        };
        let mut checked = 0;
        let mut buf = Vec::new();
        for len in 0..=max_len {
            let mut idx = vec![0usize; len];
            loop {
                for &pad in pads {
                    for &after in afters {
                        buf.clear();
                        buf.extend(core::iter::repeat_n(b'a', pad));
                        buf.extend(idx.iter().map(|&i| alphabet[i]));
                        buf.extend(core::iter::repeat_n(b'z', after));
                        assert_eq!(ours(&buf), reference(&buf), "{buf:02x?}");
                        checked += 1;
                    }
                }
                // Next combination, as an odometer.
                let mut k = 0;
                while k < len && idx[k] + 1 == alphabet.len() {
                    idx[k] = 0;
                    k += 1;
                }
                if k == len {
                    break;
                }
                idx[k] += 1;
            }
        }
        let combinations: usize = (0..=max_len).map(|l| alphabet.len().pow(l as u32)).sum();
        assert_eq!(checked, pads.len() * afters.len() * combinations);
    }

    /// A text in a byte list's words: for every length below 80 (both sides of the 8-word test), ASCII,
    /// with a wide character, or with a cut one, each with zero padding and
    /// with padding of `0xff` bytes (which the whole-word test sees and
    /// must not count against the text), the answer is `core::str::from_utf8`'s
    /// of the bytes before the terminator; a list without a terminator, an
    /// empty one and a count past the words are `TextNotTerminated` with
    /// the count.
    #[test]
    fn byte_list_texts_agree_with_core_and_need_their_terminator() {
        let step = if cfg!(miri) { 5 } else { 1 };
        for len in (0..80usize).step_by(step) {
            let ascii: Vec<u8> = (0..len).map(|i| b'A' + (i % 26) as u8).collect();
            let mut texts = vec![ascii.clone()];
            if len >= 2 {
                let mut wide = ascii.clone();
                wide.splice(len / 2 - 1..len / 2 + 1, "é".bytes());
                texts.push(wide.clone());
                // The second byte of the character cut off.
                wide[len / 2] = b'x';
                texts.push(wide);
            }
            for text in texts {
                for pad in [0u8, 0xff] {
                    let count = text.len() + 1;
                    let mut bytes = text.clone();
                    bytes.push(0);
                    bytes.resize(count.div_ceil(8) * 8, pad);
                    let words: Vec<Word> = bytes
                        .chunks(8)
                        .map(|c| Word::from_u64(u64::from_le_bytes(c.try_into().unwrap())))
                        .collect();
                    let got = text_of_byte_list(&words, count).map_err(|e| match e {
                        Error::Utf8 { valid_up_to } => valid_up_to,
                        other => panic!("{other}"),
                    });
                    assert_eq!(got, reference(&text), "{bytes:02x?}");
                    // The same bytes, the terminator made part of the text.
                    if let Some(last) = bytes.get_mut(count - 1) {
                        *last = b'!';
                    }
                    let words: Vec<Word> = bytes
                        .chunks(8)
                        .map(|c| Word::from_u64(u64::from_le_bytes(c.try_into().unwrap())))
                        .collect();
                    assert!(matches!(
                        text_of_byte_list(&words, count),
                        Err(Error::TextNotTerminated { len }) if len == count as u64
                    ));
                }
            }
        }
        let zeros = [Word::ZERO; 2];
        assert!(matches!(
            text_of_byte_list(&zeros, 0),
            Err(Error::TextNotTerminated { len: 0 })
        ));
        assert!(matches!(
            text_of_byte_list(&zeros, 17),
            Err(Error::TextNotTerminated { len: 17 })
        ));
        assert_eq!(
            text_of_byte_list(&zeros, 16).ok(),
            Some("\0".repeat(15).as_str())
        );
    }

    /// Real text: ASCII of every length below 100, and the same with one
    /// multi-byte character (valid) or a cut one (invalid) placed at each
    /// position, agree with `core::str::from_utf8`.
    #[test]
    fn agrees_with_core_on_texts_with_one_wide_character() {
        // Under Miri, every length to 40 and a few places in each.
        let (lens, step) = if cfg!(miri) { (41, 7) } else { (100, 1) };
        for len in 0..lens {
            let ascii: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(ours(&ascii), reference(&ascii));
            for at in (0..=len).step_by(step) {
                for wide in ["é", "€", "𝄞"] {
                    let mut t = ascii.clone();
                    t.splice(at..at, wide.bytes());
                    assert_eq!(ours(&t), reference(&t));
                    assert!(ours(&t).is_ok());
                    t.remove(at + wide.len() - 1);
                    assert_eq!(ours(&t), reference(&t));
                    assert_eq!(ours(&t), Err(at));
                }
            }
        }
    }
}
