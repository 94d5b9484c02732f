//! Derived ids, as the reference derives them: the first eight bytes of
//! an MD5 digest read big-endian, with the top bit set.

fn from_digest(bytes: &[u8]) -> u64 {
    let digest = crate::md5::digest(bytes);
    let mut v = 0u64;
    for b in &digest[..8] {
        v = (v << 8) | u64::from(*b);
    }
    v | (1 << 63)
}

/// The id of a declaration named `name` without an explicit id, nested
/// in the node `parent`: MD5(parent id little-endian ++ name).
pub fn child_id(parent: u64, name: &str) -> u64 {
    let mut b = parent.to_le_bytes().to_vec();
    b.extend_from_slice(name.as_bytes());
    from_digest(&b)
}

/// The id of the `index`th group or named union of struct `parent`
/// (index in the parent's member order): MD5(parent LE ++ index LE16).
pub fn group_id(parent: u64, index: u16) -> u64 {
    let mut b = parent.to_le_bytes().to_vec();
    b.extend_from_slice(&index.to_le_bytes());
    from_digest(&b)
}

/// The id of method `ordinal`'s implicit parameter (`results` false) or
/// result struct of interface `parent`: MD5(parent LE ++ ordinal LE16 ++
/// results as one byte).
pub fn method_params_id(parent: u64, ordinal: u16, results: bool) -> u64 {
    let mut b = parent.to_le_bytes().to_vec();
    b.extend_from_slice(&ordinal.to_le_bytes());
    b.push(u8::from(results));
    from_digest(&b)
}
