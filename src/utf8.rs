//! Text bytes as `&str`: the one UTF-8 check every text read makes.

use crate::error::{Error, Result};

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
