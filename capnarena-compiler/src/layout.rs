//! Field placement: which bits of the data section and which pointer slot
//! each field gets, and where each union keeps its discriminant.
//!
//! The rules are the reference compiler's, so offsets match it exactly:
//! fields are placed in ordinal order; a data field takes the smallest free
//! hole that fits it (a struct has at most one hole of each power-of-two
//! size from 1 to 32 bits) or a new word at the end; members of a union
//! share space: each union member is a group with its own view of the
//! union's data locations, which it may grow into neighbouring holes; a
//! union's 16-bit discriminant is placed when its second member gets its
//! first field (or when the union's own ordinal comes up, or at the end).

/// Up to one hole of each size 2^0..2^5 bits; `holes[lg]` is the hole's
/// offset in units of its size, 0 meaning none (offset 0 is always taken
/// by the first field).
#[derive(Clone, Copy, Default, Debug)]
struct HoleSet {
    holes: [u32; 6],
}

impl HoleSet {
    fn try_allocate(&mut self, lg: u32) -> Option<u32> {
        if lg >= 6 {
            return None;
        }
        if self.holes[lg as usize] != 0 {
            let r = self.holes[lg as usize];
            self.holes[lg as usize] = 0;
            return Some(r);
        }
        let next = self.try_allocate(lg + 1)?;
        let r = next * 2;
        self.holes[lg as usize] = r + 1;
        Some(r)
    }

    fn add_holes_at_end(&mut self, mut lg: u32, mut offset: u32, limit: u32) {
        while lg < limit {
            self.holes[lg as usize] = offset;
            lg += 1;
            offset = offset.div_ceil(2);
        }
    }

    fn try_expand(&mut self, old_lg: u32, old_offset: u32, factor: u32) -> bool {
        if factor == 0 {
            return true;
        }
        if old_lg >= 6 {
            return false;
        }
        if self.holes[old_lg as usize] != old_offset + 1 {
            return false;
        }
        if self.try_expand(old_lg + 1, old_offset >> 1, factor - 1) {
            self.holes[old_lg as usize] = 0;
            true
        } else {
            false
        }
    }

    fn smallest_at_least(&self, lg: u32) -> Option<u32> {
        (lg..6).find(|&i| self.holes[i as usize] != 0)
    }
}

/// A place fields are added to: the struct itself or a group (a union
/// member) of a union.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The struct's own sections.
    Top,
    /// Group `n` (see [`Layout::new_group`]).
    Group(usize),
}

#[derive(Clone, Copy, Debug)]
struct DataLocation {
    lg: u32,
    offset: u32,
}

#[derive(Debug)]
struct Union {
    parent: Scope,
    group_count: u32,
    discriminant: Option<u32>,
    data: Vec<DataLocation>,
    pointers: Vec<u32>,
}

#[derive(Clone, Copy, Default, Debug)]
struct Usage {
    used: bool,
    lg_used: u32,
    holes: HoleSet,
}

#[derive(Debug)]
struct Group {
    union: usize,
    usage: Vec<Usage>,
    pointer_usage: usize,
    has_members: bool,
}

/// The layout of one struct while its fields are placed.
#[derive(Debug, Default)]
pub struct Layout {
    /// Data section size so far, in words.
    pub data_words: u32,
    /// Pointer section size so far.
    pub pointers: u32,
    holes: HoleSet,
    unions: Vec<Union>,
    groups: Vec<Group>,
    /// Set when a placement hit the case the reference refuses (its issue
    /// 344: an expansion inside nested unions).
    pub refused: bool,
}

impl Layout {
    /// An empty struct.
    pub fn new() -> Layout {
        Layout::default()
    }

    /// A new union whose members live in `parent`; returns its index.
    pub fn new_union(&mut self, parent: Scope) -> usize {
        self.unions.push(Union {
            parent,
            group_count: 0,
            discriminant: None,
            data: Vec::new(),
            pointers: Vec::new(),
        });
        self.unions.len() - 1
    }

    /// A new member group of union `u`; returns its scope.
    pub fn new_group(&mut self, u: usize) -> Scope {
        self.groups.push(Group {
            union: u,
            usage: Vec::new(),
            pointer_usage: 0,
            has_members: false,
        });
        Scope::Group(self.groups.len() - 1)
    }

    /// Union `u`'s discriminant offset (in 16-bit units), once placed.
    pub fn discriminant(&self, u: usize) -> Option<u32> {
        self.unions[u].discriminant
    }

    /// Places union `u`'s discriminant if it has none; true if it placed it.
    pub fn add_discriminant(&mut self, u: usize) -> bool {
        if self.unions[u].discriminant.is_some() {
            return false;
        }
        let parent = self.unions[u].parent;
        let off = self.add_data(parent, 4);
        self.unions[u].discriminant = Some(off);
        true
    }

    fn group_add_member(&mut self, g: usize) {
        if !self.groups[g].has_members {
            self.groups[g].has_members = true;
            let u = self.groups[g].union;
            self.unions[u].group_count += 1;
            if self.unions[u].group_count == 2 {
                self.add_discriminant(u);
            }
        }
    }

    /// Records a zero-sized field in `scope`.
    pub fn add_void(&mut self, scope: Scope) {
        if let Scope::Group(g) = scope {
            self.group_add_member(g);
            let u = self.groups[g].union;
            let parent = self.unions[u].parent;
            self.add_void(parent);
        }
    }

    /// Places a pointer field in `scope`; returns its pointer index.
    pub fn add_pointer(&mut self, scope: Scope) -> u32 {
        match scope {
            Scope::Top => {
                self.pointers += 1;
                self.pointers - 1
            }
            Scope::Group(g) => {
                self.group_add_member(g);
                let u = self.groups[g].union;
                let used = self.groups[g].pointer_usage;
                self.groups[g].pointer_usage += 1;
                if used < self.unions[u].pointers.len() {
                    self.unions[u].pointers[used]
                } else {
                    let parent = self.unions[u].parent;
                    let p = self.add_pointer(parent);
                    self.unions[u].pointers.push(p);
                    p
                }
            }
        }
    }

    /// Places a data field of 2^`lg` bits in `scope`; returns its offset
    /// in units of its size.
    pub fn add_data(&mut self, scope: Scope, lg: u32) -> u32 {
        match scope {
            Scope::Top => {
                if let Some(h) = self.holes.try_allocate(lg) {
                    return h;
                }
                let offset = self.data_words << (6 - lg);
                self.data_words += 1;
                self.holes.add_holes_at_end(lg, offset + 1, 6);
                offset
            }
            Scope::Group(g) => self.group_add_data(g, lg),
        }
    }

    fn group_add_data(&mut self, g: usize, lg: u32) -> u32 {
        self.group_add_member(g);
        let u = self.groups[g].union;
        let mut best: Option<(u32, usize)> = None;
        for i in 0..self.unions[u].data.len() {
            if self.groups[g].usage.len() == i {
                self.groups[g].usage.push(Usage::default());
            }
            let loc = self.unions[u].data[i];
            if let Some(h) = smallest_hole_at_least(&self.groups[g].usage[i], loc, lg) {
                if best.is_none_or(|(b, _)| h < b) {
                    best = Some((h, i));
                }
            }
        }
        if let Some((_, i)) = best {
            let loc = self.unions[u].data[i];
            return allocate_from_hole(&mut self.groups[g].usage[i], loc, lg);
        }
        for i in 0..self.unions[u].data.len() {
            if let Some(r) = self.try_allocate_by_expanding(g, i, lg) {
                return r;
            }
        }
        let parent = self.unions[u].parent;
        let off = self.add_data(parent, lg);
        self.unions[u].data.push(DataLocation { lg, offset: off });
        self.groups[g].usage.push(Usage {
            used: true,
            lg_used: lg,
            holes: HoleSet::default(),
        });
        off
    }

    /// Tries to grow location `i` of union `u` to 2^`new_lg` bits.
    fn location_expand_to(&mut self, u: usize, i: usize, new_lg: u32) -> bool {
        let loc = self.unions[u].data[i];
        if new_lg <= loc.lg {
            return true;
        }
        let parent = self.unions[u].parent;
        if self.try_expand_data(parent, loc.lg, loc.offset, new_lg - loc.lg) {
            let l = &mut self.unions[u].data[i];
            l.offset >>= new_lg - loc.lg;
            l.lg = new_lg;
            true
        } else {
            false
        }
    }

    fn try_allocate_by_expanding(&mut self, g: usize, i: usize, lg: u32) -> Option<u32> {
        let u = self.groups[g].union;
        let usage = self.groups[g].usage[i];
        if !usage.used {
            if self.location_expand_to(u, i, lg) {
                let loc = self.unions[u].data[i];
                let us = &mut self.groups[g].usage[i];
                us.used = true;
                us.lg_used = lg;
                Some(loc.offset << (loc.lg - lg))
            } else {
                None
            }
        } else {
            let new_size = usage.lg_used.max(lg) + 1;
            if self.try_expand_usage(g, i, new_size, true) {
                let loc = self.unions[u].data[i];
                let r = self.groups[g].usage[i].holes.try_allocate(lg)?;
                Some((loc.offset << (loc.lg - lg)) + r)
            } else {
                None
            }
        }
    }

    fn try_expand_usage(&mut self, g: usize, i: usize, desired: u32, new_holes: bool) -> bool {
        let u = self.groups[g].union;
        if desired > self.unions[u].data[i].lg && !self.location_expand_to(u, i, desired) {
            return false;
        }
        let us = &mut self.groups[g].usage[i];
        if new_holes {
            us.holes.add_holes_at_end(us.lg_used, 1, desired);
        } else {
            self.refused = true;
        }
        us.lg_used = desired;
        true
    }

    /// Tries to widen a field already placed in `scope` at (`old_lg`,
    /// `old_offset`) by 2^`factor` using the space right after it.
    pub fn try_expand_data(
        &mut self,
        scope: Scope,
        old_lg: u32,
        old_offset: u32,
        factor: u32,
    ) -> bool {
        match scope {
            Scope::Top => self.holes.try_expand(old_lg, old_offset, factor),
            Scope::Group(g) => {
                let bad = old_lg + factor > 6 || (old_offset & ((1 << factor) - 1)) != 0;
                let u = self.groups[g].union;
                for i in 0..self.groups[g].usage.len() {
                    let loc = self.unions[u].data[i];
                    if loc.lg >= old_lg && old_offset >> (loc.lg - old_lg) == loc.offset {
                        let local = old_offset - (loc.offset << (loc.lg - old_lg));
                        let usage = self.groups[g].usage[i];
                        let r = if local == 0 && usage.lg_used == old_lg {
                            self.try_expand_usage(g, i, old_lg + factor, false)
                        } else {
                            self.groups[g].usage[i]
                                .holes
                                .try_expand(old_lg, local, factor)
                        };
                        if bad && r {
                            self.refused = true;
                        }
                        return r && !bad;
                    }
                }
                false
            }
        }
    }
}

fn smallest_hole_at_least(usage: &Usage, loc: DataLocation, lg: u32) -> Option<u32> {
    if !usage.used {
        (lg <= loc.lg).then_some(loc.lg)
    } else if lg >= usage.lg_used {
        (lg < loc.lg).then_some(lg)
    } else if let Some(h) = usage.holes.smallest_at_least(lg) {
        Some(h)
    } else {
        (usage.lg_used < loc.lg).then_some(usage.lg_used)
    }
}

fn allocate_from_hole(usage: &mut Usage, loc: DataLocation, lg: u32) -> u32 {
    let result;
    if !usage.used {
        result = 0;
        usage.used = true;
        usage.lg_used = lg;
    } else if lg >= usage.lg_used {
        usage.holes.add_holes_at_end(usage.lg_used, 1, lg);
        usage.lg_used = lg + 1;
        result = 1;
    } else if let Some(h) = usage.holes.try_allocate(lg) {
        result = h;
    } else {
        result = 1 << (usage.lg_used - lg);
        usage.holes.add_holes_at_end(lg, result + 1, usage.lg_used);
        usage.lg_used += 1;
    }
    (loc.offset << (loc.lg - lg)) + result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Offsets schema.capnp's `Node` struct gets from the reference (the
    /// `capnp compile -ocapnp` comments in libcapnp-dev's schema.capnp
    /// listing: id bits [0,64), displayNamePrefixLength [64,96), union
    /// tag [96,112), dataWordCount [112,128), scopeId [128,192), ...),
    /// placed here in ordinal order with the same union and group shape.
    #[test]
    fn node_struct_offsets_match_the_reference() {
        let mut l = Layout::new();
        let top = Scope::Top;
        assert_eq!(l.add_data(top, 6), 0); // id @0 :UInt64 -> bits 0
        assert_eq!(l.add_pointer(top), 0); // displayName @1
        assert_eq!(l.add_data(top, 5), 2); // displayNamePrefixLength -> bits 64
        assert_eq!(l.add_data(top, 6), 2); // scopeId -> bits 128
        assert_eq!(l.add_pointer(top), 1); // nestedNodes
        assert_eq!(l.add_pointer(top), 2); // annotations
        let u = l.new_union(top);
        let file = l.new_group(u);
        let st = l.new_group(u);
        let en = l.new_group(u);
        l.add_void(file); // file @6
        assert_eq!(l.add_data(st, 4), 7); // dataWordCount -> bits 112 (tag took 96)
        assert_eq!(l.discriminant(u), Some(6)); // tag bits [96, 112)
        assert_eq!(l.add_data(st, 4), 12); // pointerCount -> bits 192
        assert_eq!(l.add_data(st, 4), 13); // preferredListEncoding -> bits 208
        assert_eq!(l.add_data(st, 0), 224); // isGroup -> bit 224
        assert_eq!(l.add_data(st, 4), 15); // discriminantCount -> bits 240
        assert_eq!(l.add_data(st, 5), 8); // discriminantOffset -> bits 256
        assert_eq!(l.add_pointer(st), 3); // fields -> ptr 3
        assert_eq!(l.add_pointer(en), 3); // enumerants shares ptr 3
    }

    /// A lone Bool then a UInt64: the bool takes bit 0 of word 0 and the
    /// UInt64 word 1 (a new word), as every reference layout shows.
    #[test]
    fn small_field_then_word_field() {
        let mut l = Layout::new();
        assert_eq!(l.add_data(Scope::Top, 0), 0);
        assert_eq!(l.add_data(Scope::Top, 6), 1);
        assert_eq!(l.add_data(Scope::Top, 3), 1); // a byte fills the hole at byte 1
        assert_eq!(l.data_words, 2);
    }
}
