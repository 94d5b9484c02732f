//! Arenas, readers and writers that break their contracts on purpose, for
//! the tests (and fuzz targets) that check a broken one can only garble a
//! message or make an operation fail: never a panic, an abort or a hang.

use std::cell::Cell;
use std::io;

use capnarena::{AllocError, Arena, SegmentId, Word};

/// What a [`HostileArena`] reports as its segment count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CountFault {
    /// The segments it has.
    #[default]
    Honest,
    /// Always 0.
    Zero,
    /// One more on every call (cycling through 64 more than it has).
    Grows,
    /// A thousand more than it has. (An arena may claim any count; a
    /// message frames as many segments as it claims, the ones it does not
    /// have empty, so a claim of billions costs a table of billions.)
    Inflated,
}

/// What a [`HostileArena`] reports as a segment's room ([`Arena::room`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoomFault {
    /// Nothing (the trait's default).
    #[default]
    Silent,
    /// The words its segment has left (and `allocate_in` takes them).
    Honest,
    /// Always 0: every object looks as if it must go elsewhere.
    Zero,
    /// Always `u32::MAX`: every object looks as if it fits, and
    /// `allocate_in` hands out words past the segment's end.
    Huge,
}

/// The ways a [`HostileArena`] breaks the `Arena` contract.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Never zero: neither on `reset` nor on `allocate` (so a new message
    /// sees what the last one left).
    pub no_zero: bool,
    /// Every allocation but the first of a segment starts one word
    /// earlier than it should: it overlaps the one before.
    pub overlap: bool,
    /// `segment_mut` is this many words shorter than `segment`.
    pub short_mut: u32,
    /// `segment` is this many words shorter than `segment_mut`.
    pub short_read: u32,
    /// What `segment_count` says.
    pub count: CountFault,
    /// `allocate` reports offsets near `u32::MAX`.
    pub huge_offsets: bool,
    /// `allocate` reports the segment after the one it used.
    pub wrong_segment: bool,
    /// What `room` says.
    pub room: RoomFault,
    /// Answers `allocate_far_mut` (the words placed as `allocate` places
    /// them, with the faults above; the two segments' words as
    /// `segment_mut` returns them), rather than the default `None`.
    pub far: bool,
}

impl Faults {
    /// Every combination worth running: each fault alone, and a few
    /// together.
    pub fn all() -> Vec<Faults> {
        let none = Faults::default();
        let mut v = vec![
            none,
            Faults {
                no_zero: true,
                ..none
            },
            Faults {
                overlap: true,
                ..none
            },
            Faults {
                short_mut: 1,
                ..none
            },
            Faults {
                short_mut: 3,
                ..none
            },
            Faults {
                short_read: 1,
                ..none
            },
            Faults {
                short_read: 2,
                ..none
            },
            Faults {
                huge_offsets: true,
                ..none
            },
            Faults {
                wrong_segment: true,
                ..none
            },
            Faults {
                no_zero: true,
                overlap: true,
                ..none
            },
            Faults {
                no_zero: true,
                overlap: true,
                short_mut: 1,
                count: CountFault::Grows,
                ..none
            },
        ];
        for count in [CountFault::Zero, CountFault::Grows, CountFault::Inflated] {
            v.push(Faults { count, ..none });
            v.push(Faults {
                count,
                no_zero: true,
                ..none
            });
        }
        for room in [RoomFault::Honest, RoomFault::Zero, RoomFault::Huge] {
            v.push(Faults { room, ..none });
        }
        v.push(Faults {
            room: RoomFault::Huge,
            overlap: true,
            ..none
        });
        v.push(Faults {
            room: RoomFault::Honest,
            wrong_segment: true,
            no_zero: true,
            ..none
        });
        // Far placement in one call, honest and with the placement faults.
        for f in [
            none,
            Faults {
                huge_offsets: true,
                ..none
            },
            Faults {
                wrong_segment: true,
                ..none
            },
            Faults {
                overlap: true,
                short_mut: 1,
                ..none
            },
        ] {
            v.push(Faults {
                far: true,
                room: RoomFault::Honest,
                ..f
            });
        }
        v
    }
}

/// An arena of fixed-size segments (at most `max_words` words in all)
/// that breaks its contract as its [`Faults`] say.
#[derive(Debug)]
pub struct HostileArena {
    segments: Vec<Vec<Word>>,
    used: Vec<usize>,
    active: usize,
    segment_words: usize,
    max_words: usize,
    faults: Faults,
    count_calls: Cell<u32>,
}

impl HostileArena {
    /// Segments of `segment_words` words (larger for a larger request).
    pub fn new(faults: Faults, segment_words: usize) -> Self {
        HostileArena {
            segments: Vec::new(),
            used: Vec::new(),
            active: 0,
            segment_words: segment_words.max(1),
            max_words: 1 << 16,
            faults,
            count_calls: Cell::new(0),
        }
    }

    fn take(
        &mut self,
        len: u32,
        hint: SegmentId,
        zero: bool,
    ) -> Result<(SegmentId, u32), AllocError> {
        let n = len as usize;
        let err = AllocError {
            requested: u64::from(len),
            available: 0,
        };
        let fits = |a: &Self, i: usize| a.used[i] + n <= a.segments[i].len();
        let hinted = (hint.0 as usize) < self.active && fits(self, hint.0 as usize);
        let index = if hinted {
            hint.0 as usize
        } else if self.active > 0 && fits(self, self.active - 1) {
            self.active - 1
        } else {
            let total: usize = self.segments.iter().take(self.active).map(Vec::len).sum();
            let words = self.segment_words.max(n);
            if total + words > self.max_words {
                return Err(err);
            }
            if self.active == self.segments.len() {
                self.segments.push(vec![Word::ZERO; words]);
                self.used.push(0);
            } else if self.segments[self.active].len() < words {
                // Keep the old words (no_zero) where they reach.
                self.segments[self.active].resize(words, Word::ZERO);
            }
            self.used[self.active] = 0;
            self.active += 1;
            self.active - 1
        };
        let mut start = self.used[index];
        if self.faults.overlap && start > 0 {
            start -= 1;
        }
        let end = start + n;
        if zero && !self.faults.no_zero {
            self.segments[index][start..end].fill(Word::ZERO);
        }
        self.used[index] = self.used[index].max(end);
        let mut offset = start as u32;
        if self.faults.huge_offsets {
            // Near the top: past every segment, and past the offsets a
            // pointer can encode.
            offset = (u32::MAX - 2).wrapping_sub(len).wrapping_add(offset);
        }
        let mut segment = index as u32;
        if self.faults.wrong_segment {
            segment += 1;
        }
        Ok((SegmentId(segment), offset))
    }
}

impl Arena for HostileArena {
    fn segment_count(&self) -> u32 {
        match self.faults.count {
            CountFault::Honest => self.active as u32,
            CountFault::Zero => 0,
            CountFault::Grows => {
                // Up to 64 more (so a test's framings stay small: each
                // frames as many segments as it is told there are).
                let calls = self.count_calls.get().wrapping_add(1) % 64;
                self.count_calls.set(calls);
                (self.active as u32).saturating_add(calls)
            }
            CountFault::Inflated => self.active as u32 + 1000,
        }
    }

    fn segment(&self, id: SegmentId) -> &[Word] {
        let i = id.0 as usize;
        if i >= self.active {
            return &[];
        }
        let len = self.used[i].saturating_sub(self.faults.short_read as usize);
        &self.segments[i][..len]
    }

    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        let i = id.0 as usize;
        if i >= self.active {
            return &mut [];
        }
        let len = self.used[i].saturating_sub(self.faults.short_mut as usize);
        &mut self.segments[i][..len]
    }

    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        self.take(len, hint, true)
    }

    fn allocate_overwritten(
        &mut self,
        len: u32,
        hint: SegmentId,
    ) -> Result<(SegmentId, u32), AllocError> {
        self.take(len, hint, false)
    }

    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        let i = id.0 as usize;
        match self.faults.room {
            RoomFault::Honest
                if i < self.active && self.used[i] + len as usize <= self.segments[i].len() =>
            {
                self.take(len, id, true).ok().map(|(_, o)| o)
            }
            // Words it does not account for: past what `segment` reports.
            RoomFault::Huge if i < self.active => Some(self.used[i] as u32),
            _ => None,
        }
    }

    fn allocate_far_mut(
        &mut self,
        len: u32,
        from: SegmentId,
        zeroed: bool,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])> {
        let f = from.0 as usize;
        if !self.faults.far || f >= self.active {
            return None;
        }
        let newest = SegmentId(self.active as u32 - 1);
        let (reported, offset) = self.take(len, newest, zeroed).ok()?;
        // The words of the segment actually used (the newest, or the one
        // `take` opened), whatever segment it reports.
        let used = if self.faults.wrong_segment {
            reported.0 as usize - 1
        } else {
            reported.0 as usize
        };
        if used == f {
            return None;
        }
        fn cut(seg: &mut [Word], used: usize, short: usize) -> &mut [Word] {
            let len = used.saturating_sub(short).min(seg.len());
            &mut seg[..len]
        }
        let short = self.faults.short_mut as usize;
        let (near_used, far_used) = (self.used[f], self.used[used]);
        let (near, far) = if f < used {
            let (a, b) = self.segments.split_at_mut(used);
            (&mut a[f], &mut b[0])
        } else {
            let (a, b) = self.segments.split_at_mut(f);
            (&mut b[0], &mut a[used])
        };
        Some((
            reported,
            offset,
            cut(near, near_used, short),
            cut(far, far_used, short),
        ))
    }

    fn room(&self, id: SegmentId) -> Option<u32> {
        let i = id.0 as usize;
        match self.faults.room {
            RoomFault::Silent => None,
            RoomFault::Honest if i < self.active => {
                Some((self.segments[i].len() - self.used[i]) as u32)
            }
            RoomFault::Honest | RoomFault::Zero => Some(0),
            RoomFault::Huge => Some(u32::MAX),
        }
    }

    fn reset(&mut self) {
        if !self.faults.no_zero {
            for (seg, used) in self.segments.iter_mut().zip(&self.used) {
                seg[..*used].fill(Word::ZERO);
            }
        }
        self.used.iter_mut().for_each(|u| *u = 0);
        self.active = 0;
    }
}

/// A writer that fails (with `kind`) on the calls numbered in `fail_on`
/// (counting from 0), writes at most `max_chunk` bytes per call, and
/// otherwise appends to `out`.
#[derive(Debug)]
pub struct FlakyWriter {
    pub out: Vec<u8>,
    pub calls: usize,
    pub fail_on: Vec<usize>,
    pub kind: io::ErrorKind,
    pub max_chunk: usize,
}

impl FlakyWriter {
    pub fn new(fail_on: Vec<usize>, kind: io::ErrorKind) -> Self {
        FlakyWriter {
            out: Vec::new(),
            calls: 0,
            fail_on,
            kind,
            max_chunk: usize::MAX,
        }
    }
}

impl io::Write for FlakyWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let call = self.calls;
        self.calls += 1;
        if self.fail_on.contains(&call) {
            return Err(self.kind.into());
        }
        let n = data.len().min(self.max_chunk);
        self.out.extend_from_slice(&data[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A reader that hands out `data` but reports `extra` more bytes read
/// than it copied (up to more than the buffer it was given holds), then
/// ends; it fails with `Interrupted` on every other call when `interrupt`
/// is set.
#[derive(Debug)]
pub struct LyingReader<'a> {
    pub data: &'a [u8],
    pub extra: usize,
    pub interrupt: bool,
    pub calls: usize,
}

impl io::Read for LyingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.interrupt && self.calls % 2 == 1 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.data.is_empty() {
            // The end: an honest 0, or the stream would never end.
            return Ok(0);
        }
        let n = self.data.len().min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n + self.extra)
    }
}
