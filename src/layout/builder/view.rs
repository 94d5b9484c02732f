//! Reading a message while it is built: [`StructBuilder::with_reader`],
//! and [`BuiltView`], a read view kept for as long as the builder is
//! borrowed.

use super::{ListBuilder, StructBuilder};
use crate::arena::Arena;
use crate::layout::pointer::{ElementSize, StructSize};
use crate::layout::reader::StructReader;
use crate::layout::segments::BuilderSegments;
use crate::word::Word;

/// A message under construction seen as segments to read.
struct ArenaSource<'x, A: Arena + ?Sized>(&'x A);

impl<A: Arena + ?Sized> crate::layout::reader::SegmentSource for ArenaSource<'_, A> {
    fn segment_count(&self) -> u32 {
        self.0.segment_count()
    }
    fn segment(&self, id: u32) -> Option<&[Word]> {
        (id < self.0.segment_count()).then(|| BuilderSegments::get(self.0, id))
    }
}

impl<A: Arena + ?Sized> StructBuilder<'_, A> {
    /// Runs `f` on a reader of this struct as built so far (to read back
    /// pointer fields, print it, or copy it). The reader is bounded like an
    /// untrusted one (default nesting limit, and a traversal limit of the
    /// default 8 Mi words), since the arena's words are not checked.
    pub fn with_reader<R>(&self, f: impl for<'r> FnOnce(StructReader<'r>) -> R) -> R {
        // The reader calls the arena: `arena_ref` forgets what is kept.
        let source = ArenaSource(self.arena.arena_ref());
        let defaults = crate::ReaderOptions::default();
        let ctx = crate::layout::reader::ReadContext::new(
            crate::layout::reader::SegStore::snapshot(&source),
            crate::layout::reader::ReaderOptionsCore {
                traversal_limit_words: defaults.traversal_limit_words,
                nesting_limit: defaults.nesting_limit,
            },
        );
        f(StructReader::at_builder(
            &ctx,
            self.segment,
            self.data,
            self.size,
        ))
    }
}

/// A read view of a struct or list under construction, made by
/// [`StructBuilder::reader_view`] or [`ListBuilder::reader_view`] (or their
/// `into_` forms): it holds the message's segments as the arena handed them
/// out when it was made, and the object's place, so a reader of the object
/// can be taken from it for as long as the view lives. The reader is
/// bounded as [`StructBuilder::with_reader`]'s is. Like every reader it is
/// `Send` and `Sync` whatever the arena is.
pub struct BuiltView<'a> {
    ctx: crate::layout::reader::ReadContext<'a>,
    place: ViewPlace,
}

#[derive(Clone, Copy)]
enum ViewPlace {
    Struct {
        segment: u32,
        data: u32,
        size: StructSize,
    },
    List {
        segment: u32,
        start: u32,
        len: u32,
        size: ElementSize,
        step_bits: u64,
        data_bits: u32,
        ptrs: u16,
    },
}

impl<'a> BuiltView<'a> {
    /// A view over `arena`'s segments, taken now.
    fn new<A: Arena + ?Sized>(arena: &'a A, place: ViewPlace) -> Self {
        let defaults = crate::ReaderOptions::default();
        let count = arena.segment_count();
        BuiltView {
            ctx: crate::layout::reader::ReadContext::new(
                crate::layout::reader::SegStore::snapshot_of(count, |id| {
                    BuilderSegments::get(arena, id)
                }),
                crate::layout::reader::ReaderOptionsCore {
                    traversal_limit_words: defaults.traversal_limit_words,
                    nesting_limit: defaults.nesting_limit,
                },
            ),
            place,
        }
    }

    /// The struct, when the view is of a struct builder (an empty struct
    /// otherwise).
    pub fn struct_reader(&self) -> StructReader<'_> {
        match self.place {
            ViewPlace::Struct {
                segment,
                data,
                size,
            } => StructReader::at_builder(&self.ctx, segment, data, size),
            ViewPlace::List { .. } => {
                StructReader::at_builder(&self.ctx, 0, 0, StructSize::new(0, 0))
            }
        }
    }

    /// The list, when the view is of a list builder (an empty list
    /// otherwise).
    pub fn list_reader(&self) -> crate::layout::reader::ListReader<'_> {
        match self.place {
            ViewPlace::List {
                segment,
                start,
                len,
                size,
                step_bits,
                data_bits,
                ptrs,
            } => crate::layout::reader::ListReader::at_builder(
                &self.ctx, segment, start, len, size, step_bits, data_bits, ptrs,
            ),
            ViewPlace::Struct { segment, .. } => crate::layout::reader::ListReader::at_builder(
                &self.ctx,
                segment,
                0,
                0,
                ElementSize::Void,
                0,
                0,
                0,
            ),
        }
    }
}

impl<'a, A: Arena + ?Sized> StructBuilder<'a, A> {
    fn view_place(&self) -> ViewPlace {
        ViewPlace::Struct {
            segment: self.segment,
            data: self.data,
            size: self.size,
        }
    }

    /// A read view of this struct as built so far, for as long as the
    /// builder is borrowed (see [`BuiltView`]).
    pub fn reader_view(&self) -> BuiltView<'_> {
        // The view calls the arena: `arena_ref` forgets what is kept.
        BuiltView::new(self.arena.arena_ref(), self.view_place())
    }

    /// A read view of this struct as built, for the rest of the builder's
    /// lifetime (the builder is given up).
    pub fn into_reader_view(self) -> BuiltView<'a> {
        let place = self.view_place();
        BuiltView::new(self.arena.into_arena(), place)
    }
}

impl<'a, A: Arena + ?Sized> ListBuilder<'a, A> {
    fn view_place(&self) -> ViewPlace {
        ViewPlace::List {
            segment: self.segment,
            start: self.start,
            len: self.len,
            size: self.size,
            step_bits: self.step_bits,
            data_bits: self.data_bits,
            ptrs: self.ptrs,
        }
    }

    /// A read view of this list as built so far, for as long as the
    /// builder is borrowed (see [`BuiltView`]).
    pub fn reader_view(&self) -> BuiltView<'_> {
        BuiltView::new(&*self.arena, self.view_place())
    }

    /// A read view of this list as built, for the rest of the builder's
    /// lifetime (the builder is given up).
    pub fn into_reader_view(self) -> BuiltView<'a> {
        let place = self.view_place();
        BuiltView::new(self.arena, place)
    }

    /// Runs `f` on a reader of this list as built so far.
    pub fn with_reader<R>(
        &self,
        f: impl for<'r> FnOnce(crate::layout::reader::ListReader<'r>) -> R,
    ) -> R {
        f(self.reader_view().list_reader())
    }
}
