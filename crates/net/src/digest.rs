//! A small stable 64-bit hash (FNV-1a) for digests both peers compare.

/// FNV-1a 64-bit: the same bytes give the same digest on every machine,
/// every Rust version and every run (unlike `DefaultHasher`), so two
/// peers can compare digests of their level files and settings.
///
/// Not a cryptographic hash: it tells honest peers apart, nothing more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digest {
    state: u64,
}

/// FNV-1a 64's offset basis.
const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64's prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

impl Default for Digest {
    fn default() -> Self {
        Self::new()
    }
}

impl Digest {
    /// A digest of nothing yet.
    pub fn new() -> Self {
        Self { state: OFFSET_BASIS }
    }

    /// Adds raw bytes (no length: `"ab"` then `"c"` equals `"abc"`).
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.state ^= u64::from(b);
            self.state = self.state.wrapping_mul(PRIME);
        }
    }

    /// Adds a number as its 8 little-endian bytes.
    pub fn write_u64(&mut self, n: u64) {
        self.write_bytes(&n.to_le_bytes());
    }

    /// Adds a float by its bits (4 little-endian bytes): `0.0` and `-0.0`
    /// differ, and so do two NaNs with different payloads.
    pub fn write_f32(&mut self, x: f32) {
        self.write_bytes(&x.to_bits().to_le_bytes());
    }

    /// Adds a text as its length in bytes ([`write_u64`](Self::write_u64))
    /// then its UTF-8 bytes, so `("ab", "c")` and `("a", "bc")` differ.
    pub fn write_str(&mut self, text: &str) {
        self.write_u64(text.len() as u64);
        self.write_bytes(text.as_bytes());
    }

    /// The digest of everything written so far (writing may go on).
    pub fn finish(&self) -> u64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_fnv1a_64_values() {
        assert_eq!(Digest::new().finish(), 0xcbf2_9ce4_8422_2325);
        let mut d = Digest::new();
        d.write_bytes(b"a");
        assert_eq!(d.finish(), 0xaf63_dc4c_8601_ec8c);
        let mut d = Digest::new();
        d.write_bytes(b"foobar");
        assert_eq!(d.finish(), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn strings_are_delimited_and_floats_go_by_bits() {
        let of = |parts: &[&str]| {
            let mut d = Digest::new();
            parts.iter().for_each(|p| d.write_str(p));
            d.finish()
        };
        assert_ne!(of(&["ab", "c"]), of(&["a", "bc"]));
        assert_eq!(of(&["ab", "c"]), of(&["ab", "c"]));
        let bits = |x: f32| {
            let mut d = Digest::new();
            d.write_f32(x);
            d.finish()
        };
        assert_ne!(bits(0.0), bits(-0.0));
        assert_eq!(bits(9.81), bits(9.81));
        let mut a = Digest::new();
        a.write_u64(1);
        let mut b = Digest::new();
        b.write_bytes(&[1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(a, b);
    }
}
