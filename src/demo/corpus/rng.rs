//! A tiny seeded generator (SplitMix64): the corpus must be the same on
//! every machine and every build, so it owns its randomness instead of
//! depending on a crate's stream staying stable across versions.

#[derive(Clone, Debug)]
pub struct Rng(u64);

/// FNV-1a of a label, to derive independent streams from one seed.
const fn label_hash(label: &str) -> u64 {
    let bytes = label.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// An independent stream for one topic (tail, body, rigger, ...), so
    /// forcing one feature of a case does not reshuffle the others.
    pub fn fork(&self, label: &str) -> Rng {
        let mut r = Rng(self.0 ^ label_hash(label));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in [lo, hi] (inclusive).
    pub fn int(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }

    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next_u64() % items.len() as u64) as usize]
    }
}

/// A deterministic share in [0, 1) from a position and a salt: the same for
/// every seam copy of a vertex, like a learned rigger's output.
pub fn position_share(p: glam::Vec3, salt: u64) -> f32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
    for x in [p.x, p.y, p.z] {
        h = (h ^ x.to_bits() as u64).wrapping_mul(0x0100_0000_01b3);
    }
    let mut r = Rng::new(h);
    r.unit()
}
