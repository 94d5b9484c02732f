//! [`TextBuilder`]: the bytes of a text under construction, filled in
//! place or appended to in `&str` pieces.

use crate::error::{Error, Result};

/// A text field's bytes in the message (its terminator excluded), as
/// `init_x(len)` or `get_x()` hand them out: overwrite them in place
/// through `Deref<Target = [u8]>` (`copy_from_slice`, indexing), or append
/// `&str` pieces with [`push_str`](Self::push_str) from the start of a
/// new text. The text's length was fixed when it was made; bytes not
/// written stay zero.
///
/// ```
/// # #[allow(dead_code)]
/// # #[rustfmt::skip]
/// # #[path = "../../examples/generated/addressbook_capnp.rs"]
/// # mod addressbook_capnp;
/// use addressbook_capnp::person;
/// use capnarena::{Message, SingleSegmentArena};
///
/// let mut msg = Message::new(SingleSegmentArena::new());
/// let mut p = msg.init_root::<person::Builder<_>>()?;
/// let mut name = p.init_name(12)?;
/// name.push_str("Ada")?;
/// name.push_str(" Lovelace")?;
/// assert!(name.push_str("!").is_err()); // 12 bytes is the text's length
/// assert_eq!(p.reborrow_as_reader().get().get_name()?, "Ada Lovelace");
/// # Ok::<(), capnarena::Error>(())
/// ```
pub struct TextBuilder<'a> {
    bytes: &'a mut [u8],
    /// Bytes written by `push_str` so far (where the next piece goes).
    pos: usize,
}

impl<'a> TextBuilder<'a> {
    /// A builder over `bytes` whose next [`push_str`](Self::push_str)
    /// writes at `pos` (clamped to the length).
    pub fn new(bytes: &'a mut [u8], pos: usize) -> Self {
        let pos = pos.min(bytes.len());
        TextBuilder { bytes, pos }
    }

    /// Copies `s` after what was pushed so far.
    ///
    /// # Errors
    /// [`Error::TextFull`] (nothing written) when `s` does not fit in the
    /// rest of the text.
    pub fn push_str(&mut self, s: &str) -> Result<()> {
        let end = self
            .pos
            .checked_add(s.len())
            .filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(Error::TextFull {
                len: self.bytes.len() as u64,
                pos: self.pos as u64,
                pushed: s.len() as u64,
            });
        };
        self.bytes[self.pos..end].copy_from_slice(s.as_bytes());
        self.pos = end;
        Ok(())
    }

    /// Zeroes the text and starts pushing from its start again.
    pub fn clear(&mut self) {
        self.bytes.fill(0);
        self.pos = 0;
    }

    /// Bytes pushed so far.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The text, checked to be UTF-8.
    ///
    /// # Errors
    /// [`Error::Utf8`] with the position of the first bad byte.
    pub fn as_str(&self) -> Result<&str> {
        crate::utf8::text_str(self.bytes)
    }

    /// The bytes, for the builder's whole lifetime.
    pub fn into_bytes(self) -> &'a mut [u8] {
        self.bytes
    }
}

impl core::ops::Deref for TextBuilder<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.bytes
    }
}

impl core::ops::DerefMut for TextBuilder<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        self.bytes
    }
}

impl core::fmt::Debug for TextBuilder<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match core::str::from_utf8(self.bytes) {
            Ok(s) => core::fmt::Debug::fmt(s, f),
            Err(_) => core::fmt::Debug::fmt(&*self.bytes, f),
        }
    }
}

impl PartialEq<[u8]> for TextBuilder<'_> {
    fn eq(&self, other: &[u8]) -> bool {
        *self.bytes == *other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for TextBuilder<'_> {
    fn eq(&self, other: &[u8; N]) -> bool {
        *self.bytes == other[..]
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for TextBuilder<'_> {
    fn eq(&self, other: &&[u8; N]) -> bool {
        *self.bytes == other[..]
    }
}

impl PartialEq<str> for TextBuilder<'_> {
    fn eq(&self, other: &str) -> bool {
        *self.bytes == *other.as_bytes()
    }
}

impl PartialEq<&str> for TextBuilder<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self.bytes == *other.as_bytes()
    }
}
