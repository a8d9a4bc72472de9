//! A small deterministic pseudo-random generator (SplitMix64), so the corpus
//! is the same on every machine and every run.

/// Deterministic random numbers from a seed.
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One word of a non-empty list.
    pub fn word(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A seed mixing several numbers, for one case.
pub fn seed_of(parts: &[u64]) -> u64 {
    let mut r = Rng::new(0);
    let mut h = 0u64;
    for &p in parts {
        r.0 ^= p.wrapping_mul(0xA076_1D64_78BD_642F);
        h ^= r.next();
    }
    h
}
