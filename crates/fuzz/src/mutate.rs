//! The fuzzer's mutations: byte flips, interesting 32-bit values (float
//! specials, lengths), arithmetic, deletions, insertions, duplications,
//! splices with another input and JSON number swaps, with a small seedable
//! RNG.

/// A small, fast, seedable RNG (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// An RNG from a seed.
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// 32-bit values that break parsers and geometry: float specials, length
/// and index edge cases.
const INTERESTING_U32: &[u32] = &[
    0,
    1,
    2,
    3,
    4,
    0x7f,
    0x80,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_fffe,
    0xffff_ffff,
    0x7fc0_0000, // NaN
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7f7f_ffff, // f32::MAX
    0x0000_0001, // smallest subnormal
    0x0080_0000, // smallest normal
    0x7149_f2ca, // 1e30
    0x0da2_4260, // 1e-30
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
];

/// Number spellings to put in JSON texts in place of a number.
const INTERESTING_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1e39",
    "-1e39",
    "1e308",
    "1e-45",
    "1e-50",
    "3.4028235e38",
    "340282356779733661637539395458142568448",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "9007199254740993",
    "0.5",
    "1e30",
    "-1e30",
    "1e-30",
    "65535",
    "65536",
    "2147483648",
    "5126",
    "5125",
    "5123",
    "5121",
    "34962",
];

/// One random edit of `data` (may use `other`, another corpus input, to splice).
pub fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8], max_len: usize) {
    let len = data.len();
    match rng.below(12) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = rng.next_u64() as u8;
        }
        2 if len > 0 => {
            let i = rng.below(len);
            data[i] = [0u8, 0xff, 0x7f, 0x80, 1, b'"', b'[', b'{', b',', b'-', b'e'][rng.below(11)];
        }
        3 if len >= 4 => {
            let i = rng.below(len - 3);
            let v = INTERESTING_U32[rng.below(INTERESTING_U32.len())];
            let bytes = if rng.one_in(2) {
                v.to_le_bytes()
            } else {
                v.to_be_bytes()
            };
            data[i..i + 4].copy_from_slice(&bytes);
        }
        4 if len > 0 => {
            // Small arithmetic on a byte or a little-endian u32.
            let i = rng.below(len);
            let delta = (rng.below(35) as i32 - 17) as u32;
            if i + 4 <= len && rng.one_in(2) {
                let v = u32::from_le_bytes(data[i..i + 4].try_into().expect("4 bytes"));
                data[i..i + 4].copy_from_slice(&v.wrapping_add(delta).to_le_bytes());
            } else {
                data[i] = data[i].wrapping_add(delta as u8);
            }
        }
        5 if len > 1 => {
            // Delete a range.
            let i = rng.below(len);
            let most = if rng.one_in(4) { len } else { 16 };
            let n = 1 + rng.below((len - i).min(most));
            data.drain(i..i + n);
        }
        6 if len < max_len => {
            // Insert random or repeated bytes.
            let i = rng.below(len + 1);
            let n = 1 + rng.below(16.min(max_len - len));
            let byte = rng.next_u64() as u8;
            let random = rng.one_in(2);
            let fill: Vec<u8> = (0..n)
                .map(|_| if random { rng.next_u64() as u8 } else { byte })
                .collect();
            data.splice(i..i, fill);
        }
        7 if len > 1 && len < max_len => {
            // Duplicate a range.
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(64).min(max_len - len));
            let piece = data[i..i + n].to_vec();
            let at = rng.below(len + 1);
            data.splice(at..at, piece);
        }
        8 if !other.is_empty() => {
            // Splice: a prefix of this, a piece of the other.
            let cut = rng.below(len + 1);
            let from = rng.below(other.len());
            let n = 1 + rng.below(other.len() - from);
            data.truncate(cut);
            data.extend_from_slice(&other[from..from + n]);
            data.truncate(max_len);
        }
        9 => {
            // Replace a run of digits (a JSON number, a length) by an interesting one.
            if let Some((i, j)) = pick_number(rng, data) {
                let n = INTERESTING_NUMBERS[rng.below(INTERESTING_NUMBERS.len())].as_bytes();
                data.splice(i..j, n.iter().copied());
                data.truncate(max_len);
            }
        }
        10 if len > 0 => {
            data.truncate(rng.below(len));
        }
        _ => {
            // Overwrite a range with random bytes.
            if len > 0 {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(8));
                for b in &mut data[i..i + n] {
                    *b = rng.next_u64() as u8;
                }
            }
        }
    }
}

/// A random maximal run of ASCII number characters in `data` (start, end).
fn pick_number(rng: &mut Rng, data: &[u8]) -> Option<(usize, usize)> {
    if data.is_empty() {
        return None;
    }
    let is_num = |b: u8| b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'e' | b'E' | b'+');
    // Look from a random place for the next digit (a few tries).
    for _ in 0..4 {
        let from = rng.below(data.len());
        if let Some(k) = data[from..].iter().position(u8::is_ascii_digit) {
            let mut i = from + k;
            while i > 0 && is_num(data[i - 1]) {
                i -= 1;
            }
            let mut j = from + k;
            while j < data.len() && is_num(data[j]) {
                j += 1;
            }
            return Some((i, j));
        }
    }
    None
}
