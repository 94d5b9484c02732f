//! Finding the next byte of a string that is not copied as it is, eight
//! bytes at a time (a SIMD-within-a-register test on a `u64`), for the
//! writer's escapes and the reader's string ends.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `v` below `n` (`n` at most 0x80); exact
/// for the lowest such byte, which is all the callers use.
fn below(v: u64, n: u8) -> u64 {
    v.wrapping_sub(ONES * u64::from(n)) & !v & HIGHS
}

/// The high bit of each byte of `v` equal to `b` (lowest one exact).
fn equal(v: u64, b: u8) -> u64 {
    below(v ^ (ONES * u64::from(b)), 1)
}

/// Where the first byte at or after `from` that a JSON string must
/// escape is (`"`, `\` or below 0x20), or `bytes.len()`.
pub(crate) fn next_to_escape(bytes: &[u8], from: usize) -> usize {
    next(
        bytes,
        from,
        |v| below(v, 0x20) | equal(v, b'"') | equal(v, b'\\'),
        |b| b < 0x20 || b == b'"' || b == b'\\',
    )
}

/// Where the first `"`, `\` or NUL byte at or after `from` is (what ends
/// a run of a string being read), or `bytes.len()`.
pub(crate) fn next_string_stop(bytes: &[u8], from: usize) -> usize {
    next(
        bytes,
        from,
        |v| equal(v, 0) | equal(v, b'"') | equal(v, b'\\'),
        |b| b == 0 || b == b'"' || b == b'\\',
    )
}

fn next(
    bytes: &[u8],
    from: usize,
    word_test: impl Fn(u64) -> u64,
    byte_test: impl Fn(u8) -> bool,
) -> usize {
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let hits = word_test(u64::from_le_bytes(word));
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&b) = bytes.get(at) {
        if byte_test(b) {
            return at;
        }
        at += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word test finds what a byte-by-byte search finds, for every
    /// byte value at every place of a word and after other special bytes.
    #[test]
    fn same_as_byte_by_byte() {
        for special in 0..=255u8 {
            for place in 0..20 {
                let mut bytes = vec![b'a'; 20];
                bytes[3] = 0xc3;
                bytes[4] = 0xa9;
                bytes[place] = special;
                for from in [0, 1, 5, 9] {
                    let esc = (from..20)
                        .find(|&i| bytes[i] < 0x20 || bytes[i] == b'"' || bytes[i] == b'\\')
                        .unwrap_or(20);
                    assert_eq!(next_to_escape(&bytes, from), esc, "{special:#x} at {place}");
                    let stop = (from..20)
                        .find(|&i| matches!(bytes[i], 0 | b'"' | b'\\'))
                        .unwrap_or(20);
                    assert_eq!(
                        next_string_stop(&bytes, from),
                        stop,
                        "{special:#x} at {place}"
                    );
                }
            }
        }
    }
}
