//! `bytes` interop (feature `bytes`): framing a message into any
//! [`BufMut`], reading one from any [`Buf`], plain or packed.

use bytes::{Buf, BufMut};

use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::SegmentSource;
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};
use crate::serialize::frame::{framed_len, packed_end_of_message, segments_of, with_table_words};
use crate::serialize::packed::{MAX_ITEM_LEN, Unpacker, max_packed_len, pack_prefix, packed_len};
use crate::serialize::{Source, read_message};
use crate::word::Word;

/// Frames `src` (segment table, then segments) into `out`.
///
/// # Errors
/// [`Error::BufferTooSmall`] when `out` has less room than the frame;
/// nothing is written then.
pub(crate) fn put_framed<S: SegmentSource + ?Sized>(src: &S, out: &mut impl BufMut) -> Result<()> {
    let count = src.segment_count();
    if count == 1 {
        // The common case: the table is one word, built on the stack.
        let seg = Word::slice_as_bytes(src.segment(0).unwrap_or(&[]));
        let needed = 8 + seg.len() as u64;
        if (out.remaining_mut() as u64) < needed {
            return Err(Error::BufferTooSmall {
                needed,
                available: out.remaining_mut() as u64,
            });
        }
        let mut table = [0u8; 8];
        table[4..].copy_from_slice(&((seg.len() / 8) as u32).to_le_bytes());
        out.put_slice(&table);
        out.put_slice(seg);
        return Ok(());
    }
    let needed = framed_len(src);
    if (out.remaining_mut() as u64) < needed {
        return Err(Error::BufferTooSmall {
            needed,
            available: out.remaining_mut() as u64,
        });
    }
    out.put_u32_le(count.wrapping_sub(1));
    for seg in segments_of(src) {
        out.put_u32_le(seg.len() as u32);
    }
    if count % 2 == 0 {
        out.put_u32_le(0);
    }
    for seg in segments_of(src) {
        out.put_slice(Word::slice_as_bytes(seg));
    }
    Ok(())
}

/// Packs `src` framed (the table and each segment packed on their own, as
/// the reference does) into `out`, through a stack buffer.
///
/// # Errors
/// [`Error::BufferTooSmall`] when `out` has less room than the packed
/// frame; nothing is written then.
pub(crate) fn put_packed<S: SegmentSource + ?Sized>(src: &S, out: &mut impl BufMut) -> Result<()> {
    let bound = max_packed_len((framed_len(src) / 8) as usize) as u64;
    let room = out.remaining_mut() as u64;
    if room < bound {
        // Not room for the worst case: find the exact size.
        let table = with_table_words(src, packed_len) as u64;
        let needed = table + segments_of(src).map(|s| packed_len(s) as u64).sum::<u64>();
        if room < needed {
            return Err(Error::BufferTooSmall {
                needed,
                available: room,
            });
        }
    }
    let mut buf = [0u8; 2 * MAX_ITEM_LEN];
    let mut filled = 0;
    let mut part = |mut words: &[Word]| {
        while !words.is_empty() {
            let p = pack_prefix(words, &mut buf[filled..]);
            words = &words[p.words..];
            filled += p.bytes;
            if !words.is_empty() {
                out.put_slice(&buf[..filled]);
                filled = 0;
            }
        }
    };
    with_table_words(src, &mut part);
    for seg in segments_of(src) {
        part(seg);
    }
    out.put_slice(&buf[..filled]);
    Ok(())
}

/// Packs `src` framed into the end of `out` directly (no staging buffer):
/// for a growable byte buffer such as `BytesMut`.
#[cfg(feature = "tokio")]
pub(crate) fn extend_packed<S: SegmentSource + ?Sized>(
    src: &S,
    out: &mut bytes::BytesMut,
) -> Result<()> {
    use crate::serialize::packed::pack;
    out.reserve(max_packed_len((framed_len(src) / 8) as usize));
    let mut part = |words: &[Word]| -> Result<()> {
        let start = out.len();
        out.resize(start + max_packed_len(words.len()), 0);
        let n = pack(words, &mut out[start..])?;
        out.truncate(start + n);
        Ok(())
    };
    with_table_words(src, &mut part)?;
    for seg in segments_of(src) {
        part(seg)?;
    }
    Ok(())
}

/// Framed input from a [`Buf`].
struct BufSource<'b, B>(&'b mut B);

impl<B: Buf> Source for BufSource<'_, B> {
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize> {
        let n = dst.len().min(self.0.remaining());
        self.0.copy_to_slice(&mut dst[..n]);
        Ok(n)
    }
}

/// Packed input from a [`Buf`], consuming exactly the message's bytes.
struct PackedBufSource<'b, B> {
    buf: &'b mut B,
    unpacker: Unpacker,
}

impl<B: Buf> Source for PackedBufSource<'_, B> {
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize> {
        let mut done = 0;
        while done < dst.len() {
            let input = self.buf.chunk();
            if input.is_empty() && self.unpacker.pending_output() == 0 {
                break;
            }
            let p = self.unpacker.unpack(input, &mut dst[done..]);
            self.buf.advance(p.consumed);
            done += p.written;
        }
        Ok(done)
    }

    fn consumed_any(&self) -> bool {
        self.unpacker.consumed() > 0
    }

    fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
        packed_end_of_message(&self.unpacker, message_bytes)
    }
}

impl<A: Arena> Message<A> {
    /// Appends the framed message (segment table, then segments) to `out`,
    /// any [`BufMut`]: a `BytesMut`, a `Vec<u8>`, a `&mut [u8]`. Allocates
    /// nothing beyond what `out` does to grow.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 9);
    /// let mut out = BytesMut::new();
    /// msg.append_to_buf(&mut out)?;
    /// msg.append_to_buf(&mut out)?;
    ///
    /// let mut input = out.freeze();
    /// let mut back = Message::new(SingleSegmentArena::new());
    /// let mut n = 0;
    /// while let Some(reader) = back.try_read_from_buf(&mut input, ReaderOptions::default())? {
    ///     assert_eq!(reader.root()?.get::<u64>(0), 9);
    ///     n += 1;
    /// }
    /// assert_eq!(n, 2);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] when `out` has less room than
    /// [`serialized_size`](Self::serialized_size) (a `&mut [u8]`, say);
    /// nothing is written then.
    pub fn append_to_buf(&self, out: &mut impl BufMut) -> Result<()> {
        put_framed(self, out)
    }

    /// Appends the message packed to `out`: the bytes of
    /// [`write_packed_to`](Self::write_packed_to). Allocates nothing for
    /// up to 31 segments beyond what `out` does to grow.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] when `out` has less room than the packed
    /// message; nothing is written then.
    pub fn append_packed_to_buf(&self, out: &mut impl BufMut) -> Result<()> {
        put_packed(self, out)
    }

    /// Reads one framed message from `buf` into this message's arena,
    /// consuming exactly its bytes, and returns a reader over it (the only
    /// view of what was read; see
    /// [Reading into a message](Message#reading-into-a-message)). The
    /// segment table is checked against `options` before anything is
    /// allocated; with a warmed arena and at most 8 segments nothing is.
    ///
    /// # Errors
    /// [`Error::EndOfStream`] when `buf` is empty; [`Error::Truncated`] when
    /// it ends inside the message (what was read of it is consumed); a
    /// limit exceeded; or the arena has no room.
    pub fn read_from_buf(
        &mut self,
        buf: &mut impl Buf,
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        self.try_read_from_buf(buf, options)?
            .ok_or(Error::EndOfStream)
    }

    /// As [`read_from_buf`](Self::read_from_buf), for a buffer of several
    /// messages: `Ok(None)` when `buf` is empty.
    ///
    /// # Errors
    /// As [`read_from_buf`](Self::read_from_buf), less
    /// [`Error::EndOfStream`].
    pub fn try_read_from_buf(
        &mut self,
        buf: &mut impl Buf,
        options: ReaderOptions,
    ) -> Result<Option<MessageReader<'_>>> {
        read_message(self, &mut BufSource(buf), &options)
    }

    /// As [`read_from_buf`](Self::read_from_buf) for a packed message:
    /// consumes exactly its packed bytes.
    ///
    /// # Errors
    /// As [`read_packed_from`](Self::read_packed_from).
    pub fn read_packed_from_buf(
        &mut self,
        buf: &mut impl Buf,
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        self.try_read_packed_from_buf(buf, options)?
            .ok_or(Error::EndOfStream)
    }

    /// As [`read_packed_from_buf`](Self::read_packed_from_buf), for a
    /// buffer of several messages: `Ok(None)` when `buf` is empty.
    ///
    /// # Errors
    /// As [`read_packed_from`](Self::read_packed_from), less
    /// [`Error::EndOfStream`].
    pub fn try_read_packed_from_buf(
        &mut self,
        buf: &mut impl Buf,
        options: ReaderOptions,
    ) -> Result<Option<MessageReader<'_>>> {
        let mut src = PackedBufSource {
            buf,
            unpacker: Unpacker::new(),
        };
        read_message(self, &mut src, &options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MultiSegmentArena, SingleSegmentArena, StructSize};
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    /// A message of several segments (one-word-ish segments from a tiny
    /// growth policy) holding `n` texts.
    fn multi(n: u32) -> Message<MultiSegmentArena> {
        let arena = MultiSegmentArena::new()
            .with_first_segment_words(3)
            .with_policy(crate::GrowthPolicy::FixedSize(4));
        let mut msg = Message::new(arena);
        let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
        root.set::<u32>(0, n);
        let mut list = root.init_list(0, crate::ElementSize::Pointer, n).unwrap();
        for i in 0..n {
            list.set_text(i, &alloc::format!("text number {i}"))
                .unwrap();
        }
        msg
    }

    /// `append_to_buf` writes the bytes `append_to` writes, for one and
    /// for many segments (a table with and without padding), and refuses a
    /// too-small `&mut [u8]` without writing into it.
    #[test]
    fn append_to_buf_matches_append_to() {
        for n in [0, 1, 5, 40] {
            let msg = multi(n);
            let mut want = Vec::new();
            msg.append_to(&mut want);
            let mut got = bytes::BytesMut::new();
            msg.append_to_buf(&mut got).unwrap();
            assert_eq!(&got[..], &want[..], "n = {n}");
            let mut packed_want = Vec::new();
            msg.append_packed_to(&mut packed_want);
            let mut packed = Vec::new();
            msg.append_packed_to_buf(&mut packed).unwrap();
            assert_eq!(packed, packed_want, "n = {n}");
            let mut direct = bytes::BytesMut::new();
            extend_packed_for_test(&msg, &mut direct);
            assert_eq!(&direct[..], &packed_want[..], "n = {n}");

            let mut small = alloc::vec![0xaau8; want.len() - 1];
            let mut slot = &mut small[..];
            let e = msg.append_to_buf(&mut slot).unwrap_err();
            assert!(matches!(e, Error::BufferTooSmall { needed, available }
                if needed == want.len() as u64 && available == want.len() as u64 - 1));
            assert!(small.iter().all(|&b| b == 0xaa));
            let mut small = alloc::vec![0xaau8; packed_want.len() - 1];
            let mut slot = &mut small[..];
            let e = msg.append_packed_to_buf(&mut slot).unwrap_err();
            assert!(matches!(e, Error::BufferTooSmall { needed, .. }
                if needed == packed_want.len() as u64));
            let mut exact = alloc::vec![0u8; packed_want.len()];
            let mut slot = &mut exact[..];
            msg.append_packed_to_buf(&mut slot).unwrap();
            assert_eq!(exact, packed_want);
        }
    }

    #[cfg(feature = "tokio")]
    fn extend_packed_for_test(msg: &Message<MultiSegmentArena>, out: &mut bytes::BytesMut) {
        extend_packed(msg, out).unwrap();
    }

    #[cfg(not(feature = "tokio"))]
    fn extend_packed_for_test(msg: &Message<MultiSegmentArena>, out: &mut bytes::BytesMut) {
        let mut v = Vec::new();
        msg.append_packed_to(&mut v);
        out.extend_from_slice(&v);
    }

    /// Reading from a `Buf` made of many small chunks (a chain of 3-byte
    /// pieces) gives every message back, consumes exactly each message's
    /// bytes, plain and packed, and a cut message is `Truncated`.
    #[test]
    fn read_from_chunked_buf() {
        let msgs: Vec<_> = [0, 3, 40].into_iter().map(multi).collect();
        let mut plain = Vec::new();
        let mut packed = Vec::new();
        for m in &msgs {
            m.append_to(&mut plain);
            m.append_packed_to(&mut packed);
        }
        fn chunked(bytes: &[u8]) -> impl Buf + '_ {
            let mut pieces = bytes.chunks(3);
            let first: Box<dyn Buf> = Box::new(pieces.next().unwrap_or(&[]));
            pieces.fold(first, |acc, p| -> Box<dyn Buf> { Box::new(acc.chain(p)) })
        }
        let options = ReaderOptions::default();
        let mut back = Message::new(SingleSegmentArena::new());
        let mut input = chunked(&plain);
        for m in &msgs {
            let r = back.read_from_buf(&mut input, options).unwrap();
            assert_eq!(
                r.root().unwrap().get::<u32>(0),
                m.reader().root().unwrap().get::<u32>(0)
            );
            let list = r
                .root()
                .unwrap()
                .get_list(0, crate::ElementSize::Pointer)
                .unwrap();
            assert_eq!(list.len(), m.reader().root().unwrap().get::<u32>(0));
        }
        assert!(
            back.try_read_from_buf(&mut input, options)
                .unwrap()
                .is_none()
        );
        let mut input = chunked(&packed);
        for m in &msgs {
            let r = back.read_packed_from_buf(&mut input, options).unwrap();
            assert_eq!(
                r.root().unwrap().get::<u32>(0),
                m.reader().root().unwrap().get::<u32>(0)
            );
        }
        assert!(matches!(
            back.read_packed_from_buf(&mut input, options),
            Err(Error::EndOfStream)
        ));
        let cut = &plain[..plain.len() - 1];
        let mut input = chunked(cut);
        back.read_from_buf(&mut input, options).unwrap();
        back.read_from_buf(&mut input, options).unwrap();
        let Err(e) = back.read_from_buf(&mut input, options) else {
            panic!("a cut message read whole");
        };
        let last = msgs[2].serialized_size() as u64;
        assert!(
            matches!(e, Error::Truncated { needed, available }
            if needed == last && available == last - 1),
            "{e:?}"
        );
    }
}
