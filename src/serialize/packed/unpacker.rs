//! The resumable [`Unpacker`], and unpacking whole slices with it.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use super::algorithm::{PACKED_LEN, expand, header_len, unpack_whole_items};
use crate::error::{Error, PackedFault, Result};
use crate::word::Word;

/// Where an [`Unpacker`] is between calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The next input byte is a tag.
    Tag,
    /// Collecting the `need` bytes after `tag` (see [`header_len`]); `got`
    /// are in `buf`.
    Header {
        tag: u8,
        buf: [u8; 9],
        got: u8,
        need: u8,
    },
    /// Writing `word` from byte `done`; then a literal run of `run` words.
    Word { word: [u8; 8], done: u8, run: u8 },
    /// Writing zero bytes: `left` more.
    Zeros { left: u16 },
    /// Copying a literal run of `words` words from input to output: `left`
    /// bytes more.
    Literal { left: u16, words: u8 },
}

/// How far one [`Unpacker::unpack`] call got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of input consumed.
    pub consumed: usize,
    /// Bytes of output written.
    pub written: usize,
}

/// An incremental unpacker: give it input and output in pieces of any size
/// and it resumes where it stopped, in the middle of a tag's bytes, a word
/// or a run. It allocates nothing.
///
/// It consumes a tag only when the output has room for at least one byte,
/// so once the output a caller wants is complete, the input not yet
/// consumed starts at the next item (unless the output ended inside a
/// run: see [`pending_output`](Self::pending_output)).
///
/// ```
/// use capnarena::serialize::packed::Unpacker;
///
/// // One zero word and two more, fed one byte at a time.
/// let packed = [0x00, 0x02];
/// let mut out = [0xaau8; 24];
/// let mut u = Unpacker::new();
/// let mut written = 0;
/// for b in packed.chunks(1) {
///     written += u.unpack(b, &mut out[written..]).written;
/// }
/// u.finish()?;
/// assert_eq!((written, out), (24, [0u8; 24]));
/// # Ok::<(), capnarena::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Unpacker {
    step: Step,
    /// Input bytes consumed, in all.
    consumed: u64,
    /// Output bytes written, in all.
    written: u64,
    /// Input offset of the tag of the item in progress.
    item_at: u64,
}

impl Default for Unpacker {
    fn default() -> Self {
        Self::new()
    }
}

impl Unpacker {
    /// An unpacker at the start of packed input.
    pub const fn new() -> Self {
        Unpacker {
            step: Step::Tag,
            consumed: 0,
            written: 0,
            item_at: 0,
        }
    }

    /// Unpacks from `input` into `out` until the input is consumed or the
    /// output is full. Never fails: any bytes are a valid start of packed
    /// input; whether the input ended well is for [`finish`](Self::finish).
    pub fn unpack(&mut self, input: &[u8], out: &mut [u8]) -> Progress {
        let mut i = 0;
        let mut o = 0;
        loop {
            match self.step {
                Step::Tag => {
                    let (ni, no, last) = unpack_whole_items(input, out, i, o);
                    if let Some(at) = last {
                        self.item_at = self.consumed + at as u64;
                        i = ni;
                        o = no;
                    }
                    if o == out.len() || i == input.len() {
                        break;
                    }
                    self.item_at = self.consumed + i as u64;
                    let tag = input[i];
                    // Fast path: the whole header is here and a word fits.
                    if let (Some(src), Some(dst)) = (
                        input[i..].first_chunk::<10>(),
                        out[o..].first_chunk_mut::<8>(),
                    ) {
                        match tag {
                            0x00 => {
                                let len = 8 * (1 + usize::from(src[1]));
                                i += 2;
                                let k = len.min(out.len() - o);
                                out[o..o + k].fill(0);
                                o += k;
                                if k < len {
                                    self.step = Step::Zeros {
                                        left: (len - k) as u16,
                                    };
                                }
                            }
                            0xff => {
                                dst.copy_from_slice(&src[1..9]);
                                i += 10;
                                o += 8;
                                if src[9] != 0 {
                                    self.step = Step::Literal {
                                        left: 8 * u16::from(src[9]),
                                        words: src[9],
                                    };
                                }
                            }
                            _ => {
                                let [_, bytes @ .., _] = src;
                                *dst = expand(tag, bytes);
                                i += usize::from(PACKED_LEN[usize::from(tag)]);
                                o += 8;
                            }
                        }
                        continue;
                    }
                    i += 1;
                    self.step = Step::Header {
                        tag,
                        buf: [0; 9],
                        got: 0,
                        need: header_len(tag),
                    };
                }
                Step::Header {
                    tag,
                    mut buf,
                    mut got,
                    need,
                } => {
                    let k = usize::from(need - got).min(input.len() - i);
                    buf[usize::from(got)..usize::from(got) + k].copy_from_slice(&input[i..i + k]);
                    i += k;
                    got += k as u8;
                    if got < need {
                        self.step = Step::Header {
                            tag,
                            buf,
                            got,
                            need,
                        };
                        break;
                    }
                    let [word @ .., last] = buf;
                    self.step = match tag {
                        0x00 => Step::Zeros {
                            left: 8 * (1 + u16::from(buf[0])),
                        },
                        0xff => Step::Word {
                            word,
                            done: 0,
                            run: last,
                        },
                        _ => Step::Word {
                            word: expand(tag, &word),
                            done: 0,
                            run: 0,
                        },
                    };
                }
                Step::Word { word, done, run } => {
                    if o == out.len() {
                        break;
                    }
                    let k = usize::from(8 - done).min(out.len() - o);
                    out[o..o + k].copy_from_slice(&word[usize::from(done)..usize::from(done) + k]);
                    o += k;
                    let done = done + k as u8;
                    self.step = if done < 8 {
                        Step::Word { word, done, run }
                    } else if run > 0 {
                        Step::Literal {
                            left: 8 * u16::from(run),
                            words: run,
                        }
                    } else {
                        Step::Tag
                    };
                }
                Step::Zeros { left } => {
                    if o == out.len() {
                        break;
                    }
                    let k = usize::from(left).min(out.len() - o);
                    out[o..o + k].fill(0);
                    o += k;
                    let left = left - k as u16;
                    self.step = if left > 0 {
                        Step::Zeros { left }
                    } else {
                        Step::Tag
                    };
                }
                Step::Literal { left, words } => {
                    if o == out.len() || i == input.len() {
                        break;
                    }
                    let k = usize::from(left).min(out.len() - o).min(input.len() - i);
                    out[o..o + k].copy_from_slice(&input[i..i + k]);
                    o += k;
                    i += k;
                    let left = left - k as u16;
                    self.step = if left > 0 {
                        Step::Literal { left, words }
                    } else {
                        Step::Tag
                    };
                }
            }
        }
        self.consumed += i as u64;
        self.written += o as u64;
        Progress {
            consumed: i,
            written: o,
        }
    }

    /// Input bytes consumed so far, in all.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Output bytes written so far, in all.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Bytes of output owed that need no more input: the rest of a word, or
    /// of a zero run, that did not fit in the output. (A literal run still
    /// to copy is not counted: it needs input.)
    pub fn pending_output(&self) -> usize {
        match self.step {
            Step::Word { done, .. } => usize::from(8 - done),
            Step::Zeros { left } => usize::from(left),
            _ => 0,
        }
    }

    /// True between items: the input consumed so far is whole items and
    /// all of their output has been written.
    pub fn is_at_item_boundary(&self) -> bool {
        self.step == Step::Tag
    }

    /// The input offset an error is about: the tag of the item in
    /// progress, or the next tag between items.
    fn fault_offset(&self) -> u64 {
        if self.step == Step::Tag {
            self.consumed
        } else {
            self.item_at
        }
    }

    fn error(&self, fault: PackedFault) -> Error {
        Error::Packed {
            offset: self.fault_offset(),
            fault,
        }
    }

    /// Declares that the input has ended, and that the output so far is all
    /// the output wanted: checks that both ended at an item boundary.
    ///
    /// # Errors
    /// [`Error::Packed`], at the offset of the item's tag, with
    /// [`PackedFault::TagPastEnd`] when the input ends among the bytes a
    /// tag announces, [`PackedFault::LiteralRunPastEnd`] when it ends
    /// inside a literal run, [`PackedFault::OutputFull`] when the last item
    /// unpacks past the output written.
    pub fn finish(&self) -> Result<()> {
        match self.step {
            Step::Tag => Ok(()),
            Step::Header { tag, got, need, .. } => Err(self.error(PackedFault::TagPastEnd {
                tag,
                needed: need,
                available: got,
            })),
            Step::Literal { left, words } => Err(self.error(PackedFault::LiteralRunPastEnd {
                words,
                available: 8 * u64::from(words) - u64::from(left),
            })),
            Step::Word { .. } | Step::Zeros { .. } => Err(self.output_full(self.written)),
        }
    }

    /// The error for input that unpacks past an output of `capacity_bytes`.
    pub(super) fn output_full(&self, capacity_bytes: u64) -> Error {
        self.error(PackedFault::OutputFull { capacity_bytes })
    }
}

/// Unpacks all of `packed` into the front of `out`; returns the words
/// written.
///
/// # Errors
/// [`Error::Packed`] with the byte offset of the item at fault:
/// [`PackedFault::OutputFull`] when the input unpacks to more than
/// `out.len()` words (see [`unpacked_len`]), or the input ends inside an
/// item ([`PackedFault::TagPastEnd`], [`PackedFault::LiteralRunPastEnd`]).
pub fn unpack(packed: &[u8], out: &mut [Word]) -> Result<usize> {
    let mut u = Unpacker::new();
    let out = Word::slice_as_bytes_mut(out);
    let p = u.unpack(packed, out);
    if p.consumed < packed.len() || u.pending_output() > 0 {
        return Err(u.output_full(out.len() as u64));
    }
    u.finish()?;
    Ok(p.written / 8)
}

/// The number of words `packed` unpacks to, found without unpacking.
///
/// # Errors
/// As [`unpack`] when the input ends inside an item.
pub fn unpacked_len(packed: &[u8]) -> Result<u64> {
    let mut i = 0usize;
    let mut words = 0u64;
    while let Some(&tag) = packed.get(i) {
        let need = usize::from(header_len(tag));
        let available = packed.len() - i - 1;
        if available < need {
            return Err(Error::Packed {
                offset: i as u64,
                fault: PackedFault::TagPastEnd {
                    tag,
                    needed: need as u8,
                    available: available as u8,
                },
            });
        }
        let at = i;
        i += 1 + need;
        words += 1;
        match tag {
            0x00 => words += u64::from(packed[i - 1]),
            0xff => {
                let run = packed[i - 1];
                let len = 8 * usize::from(run);
                if packed.len() - i < len {
                    return Err(Error::Packed {
                        offset: at as u64,
                        fault: PackedFault::LiteralRunPastEnd {
                            words: run,
                            available: (packed.len() - i) as u64,
                        },
                    });
                }
                i += len;
                words += u64::from(run);
            }
            _ => {}
        }
    }
    Ok(words)
}

/// Appends the words `packed` unpacks to onto `out`, when there are at
/// most `limit_words` of them; returns how many. The length is found
/// first ([`unpacked_len`]), so `out` grows once, and not at all when it
/// has the room.
///
/// # Errors
/// [`PackedFault::OutputLimit`] (offset 0) when the input unpacks to more
/// than `limit_words` words; the errors of [`unpacked_len`]; an
/// [`Error::Alloc`] when the memory cannot be reserved.
#[cfg(feature = "alloc")]
pub fn unpack_to_vec(packed: &[u8], out: &mut Vec<Word>, limit_words: u64) -> Result<usize> {
    let words = unpacked_len(packed)?;
    if words > limit_words {
        return Err(Error::Packed {
            offset: 0,
            fault: PackedFault::OutputLimit { words, limit_words },
        });
    }
    let alloc_error = || {
        Error::Alloc(crate::arena::AllocError {
            requested: words,
            available: 0,
        })
    };
    let n = usize::try_from(words).map_err(|_| alloc_error())?;
    out.try_reserve(n).map_err(|_| alloc_error())?;
    let start = out.len();
    out.resize(start + n, Word::ZERO);
    unpack(packed, &mut out[start..])
}
