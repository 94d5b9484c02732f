//! Shared test helpers.
#![allow(dead_code)]

pub mod build;
pub mod hostile;

use capnarena::{AllocError, Arena, SegmentId, Word};

pub mod logtxt;
pub mod walk;

/// `bytes` copied to 8-aligned memory, the last word zero-padded: for
/// tests that hand input of any length, cut words included, to the
/// readers at an aligned address (slice the result back to
/// `bytes.len()`). `capnarena::words_from_bytes` refuses a cut word.
pub fn padded_words(bytes: &[u8]) -> Vec<Word> {
    let mut words = vec![Word::ZERO; bytes.len().div_ceil(8)];
    Word::slice_as_bytes_mut(&mut words)[..bytes.len()].copy_from_slice(bytes);
    words
}

/// An adversarial but legal arena: every allocation gets a segment of its
/// own, sized exactly to the request, so every pointer between objects
/// is a far pointer and every landing pad is double-far (a segment is
/// always full after its one allocation). Requests for one word give
/// one-word segments.
#[derive(Default, Debug)]
pub struct OneWordArena {
    segments: Vec<Vec<Word>>,
    active: usize,
}

impl Arena for OneWordArena {
    fn segment_count(&self) -> u32 {
        self.active as u32
    }

    fn segment(&self, id: SegmentId) -> &[Word] {
        if (id.0 as usize) < self.active {
            &self.segments[id.0 as usize]
        } else {
            &[]
        }
    }

    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        if (id.0 as usize) < self.active {
            &mut self.segments[id.0 as usize]
        } else {
            &mut []
        }
    }

    fn allocate(&mut self, len: u32, _hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        if self.active == self.segments.len() {
            self.segments.push(Vec::new());
        }
        let seg = &mut self.segments[self.active];
        seg.clear();
        seg.resize(len.max(1) as usize, Word::ZERO);
        self.active += 1;
        Ok((SegmentId(self.active as u32 - 1), 0))
    }

    fn reset(&mut self) {
        self.active = 0;
    }
}

/// Reads a vector file from `tests/vectors`.
pub fn vector(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}
