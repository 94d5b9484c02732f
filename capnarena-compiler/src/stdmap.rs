//! The iteration order of a `std::unordered_map<uint64_t, T>` in GNU
//! libstdc++ after a sequence of unique insertions.
//!
//! The reference compiler lists source info in the order of such a map
//! (keyed by node id); to write the same request we replay the insertions
//! on a model of libstdc++'s hashtable: identity hash, key modulo the
//! bucket count, the prime rehash policy (max load factor 1, first
//! allocation at 11 buckets, growth to at least twice the buckets), new
//! nodes at the front of their bucket, or at the front of the whole list
//! when the bucket was empty.

/// libstdc++'s bucket counts (from its prime rehash policy), as far as
/// any schema needs.
const PRIMES: &[u64] = &[
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313,
    337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109,
    1193, 1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739,
    4027, 4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011,
    12983, 14033, 15173, 16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223,
    35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233, 67307, 72817, 78779, 85229, 92203,
    99733, 107897, 116731, 126271, 136607, 147793, 159871, 172933, 187091, 202409, 218971, 236897,
    256279, 277261, 299951, 324503, 351061, 379787, 410857, 444487, 480881, 520241, 562841, 608903,
    658753, 712697, 771049, 834181, 902483, 976369,
];
const FAST: [u64; 14] = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];

const BEFORE_BEGIN: usize = usize::MAX;

/// A model of `std::unordered_map<uint64_t, _>`'s node order.
pub struct StdUnorderedMap {
    keys: Vec<u64>,
    next: Vec<Option<usize>>,
    begin: Option<usize>,
    /// Per bucket: the node before the bucket's first node
    /// (`BEFORE_BEGIN` for the list head), or none.
    buckets: Vec<Option<usize>>,
    next_resize: u64,
    index: std::collections::HashSet<u64>,
}

impl Default for StdUnorderedMap {
    fn default() -> Self {
        Self::new()
    }
}

impl StdUnorderedMap {
    /// An empty map (one bucket, nothing allocated).
    pub fn new() -> Self {
        StdUnorderedMap {
            keys: Vec::new(),
            next: Vec::new(),
            begin: None,
            buckets: vec![None],
            next_resize: 0,
            index: Default::default(),
        }
    }

    fn next_bkt(&mut self, n: u64) -> u64 {
        if (n as usize) < FAST.len() {
            if n == 0 {
                return 1;
            }
            self.next_resize = FAST[n as usize];
            return FAST[n as usize];
        }
        let i = PRIMES[6..].partition_point(|&p| p < n) + 6;
        let p = PRIMES.get(i).copied().unwrap_or(u64::MAX);
        self.next_resize = p;
        p
    }

    fn need_rehash(&mut self, n_bkt: u64, n_elt: u64) -> Option<u64> {
        if n_elt + 1 > self.next_resize {
            let min_bkts = (n_elt + 1).max(if self.next_resize != 0 { 0 } else { 11 });
            if min_bkts >= n_bkt {
                return Some(self.next_bkt((min_bkts + 1).max(n_bkt * 2)));
            }
            self.next_resize = n_bkt;
        }
        None
    }

    fn set_next(&mut self, at: usize, v: Option<usize>) {
        if at == BEFORE_BEGIN {
            self.begin = v;
        } else {
            self.next[at] = v;
        }
    }
    fn get_next(&self, at: usize) -> Option<usize> {
        if at == BEFORE_BEGIN {
            self.begin
        } else {
            self.next[at]
        }
    }

    fn rehash(&mut self, n: u64) {
        let mut nb: Vec<Option<usize>> = vec![None; n as usize];
        let mut p = self.begin;
        self.begin = None;
        let mut bbegin = 0usize;
        while let Some(i) = p {
            let nx = self.next[i];
            let b = (self.keys[i] % n) as usize;
            match nb[b] {
                None => {
                    self.next[i] = self.begin;
                    self.begin = Some(i);
                    nb[b] = Some(BEFORE_BEGIN);
                    if self.next[i].is_some() {
                        nb[bbegin] = Some(i);
                    }
                    bbegin = b;
                }
                Some(before) => {
                    let after = self.get_next(before);
                    self.next[i] = after;
                    self.set_next(before, Some(i));
                }
            }
            p = nx;
        }
        self.buckets = nb;
    }

    /// Inserts `key` unless present.
    pub fn insert(&mut self, key: u64) {
        if !self.index.insert(key) {
            return;
        }
        let n_bkt = self.buckets.len() as u64;
        if let Some(n) = self.need_rehash(n_bkt, self.keys.len() as u64) {
            self.rehash(n);
        }
        let n = self.buckets.len() as u64;
        let i = self.keys.len();
        self.keys.push(key);
        self.next.push(None);
        let b = (key % n) as usize;
        match self.buckets[b] {
            Some(before) => {
                let after = self.get_next(before);
                self.next[i] = after;
                self.set_next(before, Some(i));
            }
            None => {
                self.next[i] = self.begin;
                self.begin = Some(i);
                if let Some(nx) = self.next[i] {
                    let nb = (self.keys[nx] % n) as usize;
                    self.buckets[nb] = Some(i);
                }
                self.buckets[b] = Some(BEFORE_BEGIN);
            }
        }
    }

    /// The keys in iteration order.
    pub fn keys_in_order(&self) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.keys.len());
        let mut p = self.begin;
        while let Some(i) = p {
            out.push(self.keys[i]);
            p = self.next[i];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order `capnp compile` 0.9.2 lists the source info of a small
    /// schema (file, annotation foo, Empty, S, enum E, const k inserted in
    /// that order): E, S, Empty, foo, k, file, as its output shows.
    #[test]
    fn six_keys_in_libstdcxx_order() {
        let mut m = StdUnorderedMap::new();
        let keys = [
            11579250332281406999u64,
            11726210982795341202,
            15204790024499725639,
            18283055797183289772,
            9507656894976311144,
            10487475168987182967,
        ];
        for k in keys {
            m.insert(k);
        }
        assert_eq!(
            m.keys_in_order(),
            vec![
                9507656894976311144,
                18283055797183289772,
                15204790024499725639,
                11726210982795341202,
                10487475168987182967,
                11579250332281406999
            ]
        );
    }
}
