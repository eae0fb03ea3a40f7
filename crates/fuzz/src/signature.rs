//! `Signature`: a cheap fingerprint of what a target's run did (which
//! branch an error took, how many contacts, ...). The driver keeps an input
//! in its corpus when its signature is new: a little feedback without
//! coverage instrumentation.

/// An order-sensitive hash of small behaviour codes (FNV-1a over `u64`s).
#[derive(Clone, Copy, Debug)]
pub struct Signature(u64);

impl Default for Signature {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Signature {
    /// Mixes one behaviour code in.
    pub fn add(&mut self, code: u64) {
        for byte in code.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Mixes a text in (an error message with its numbers removed, say).
    pub fn add_text(&mut self, text: &str) {
        for byte in text.bytes().filter(|b| !b.is_ascii_digit()) {
            self.add(byte as u64);
        }
    }

    /// The fingerprint.
    pub fn finish(self) -> u64 {
        self.0
    }
}

/// FNV-1a of a byte string (names of saved inputs).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
