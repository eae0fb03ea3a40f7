//! [`digest_of`]: a rolled-back value's checksum, bit for bit, through
//! reflection.

use bevy::math::{Quat, Vec3};
use bevy::reflect::{PartialReflect, ReflectRef};
use bevy_ggrs::checksum_hasher;
use std::any::Any;
use std::hash::Hasher;

/// How many bytes of a value are gathered before they go to the hasher
/// (a character's state is about 250).
const GATHERED: usize = 256;

/// A 64-bit digest of `value`, bit for bit: every number by its bits,
/// every enum by its variant, through reflection (so a field added to the
/// state is in the digest without anyone remembering it).
///
/// Two things make it cheap (bevy_ggrs calls it for every character and
/// collider at every save, 8 times in a rollback of 8 ticks): the bytes
/// are gathered and hashed in one piece (bevy_ggrs's checksum hasher,
/// SeaHash's streaming one, gives the same value for the same bytes
/// however the writes split them, and a write of 4 bytes costs it about
/// as much as one of 32), and a `Vec3` or a `Quat` is read whole, not
/// field by field through reflection. The bytes, and so the digest, are
/// those of a write per number; a digest costs half the instructions it
/// did with a write per number (callgrind, the rollback bench: 3,700
/// against 7,000 on average).
pub fn digest_of<T: PartialReflect + ?Sized>(value: &T) -> u64 {
    let mut gathered = Gathered {
        hasher: checksum_hasher(),
        bytes: [0; GATHERED],
        len: 0,
    };
    digest_into(value.as_partial_reflect(), &mut gathered);
    gathered.finish()
}

/// The bytes of a value on their way to `hasher`, in the order and the
/// byte order (little-endian) the hasher's own writes would give them.
struct Gathered<H> {
    hasher: H,
    bytes: [u8; GATHERED],
    len: usize,
}

impl<H: Hasher> Gathered<H> {
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        if self.len + N > GATHERED {
            self.hasher.write(&self.bytes[..self.len]);
            self.len = 0;
        }
        self.bytes[self.len..self.len + N].copy_from_slice(&bytes);
        self.len += N;
    }

    fn f32(&mut self, x: f32) {
        self.put(x.to_bits().to_le_bytes());
    }

    fn u64(&mut self, n: u64) {
        self.put(n.to_le_bytes());
    }

    fn usize(&mut self, n: usize) {
        self.put(n.to_le_bytes());
    }

    fn finish(&mut self) -> u64 {
        self.hasher.write(&self.bytes[..self.len]);
        self.hasher.finish()
    }
}

fn digest_into(value: &dyn PartialReflect, h: &mut Gathered<impl Hasher>) {
    match value.reflect_ref() {
        ReflectRef::Struct(s) => {
            // Reflected as the structs { x, y, z } and { x, y, z, w } of f32.
            let any = value.try_as_reflect().map(|r| r.as_any());
            if let Some(v) = any.and_then(<dyn Any>::downcast_ref::<Vec3>) {
                v.to_array().into_iter().for_each(|x| h.f32(x));
            } else if let Some(q) = any.and_then(<dyn Any>::downcast_ref::<Quat>) {
                q.to_array().into_iter().for_each(|x| h.f32(x));
            } else {
                (0..s.field_len())
                    .filter_map(|i| s.field_at(i))
                    .for_each(|f| digest_into(f, h));
            }
        }
        ReflectRef::TupleStruct(s) => s.iter_fields().for_each(|f| digest_into(f, h)),
        ReflectRef::Tuple(t) => t.iter_fields().for_each(|f| digest_into(f, h)),
        ReflectRef::List(l) => {
            h.usize(l.len());
            l.iter().for_each(|f| digest_into(f, h));
        }
        ReflectRef::Array(a) => a.iter().for_each(|f| digest_into(f, h)),
        ReflectRef::Enum(e) => {
            h.usize(e.variant_index());
            e.iter_fields().for_each(|f| digest_into(f.value(), h));
        }
        // Maps and sets iterate in no fixed order: the state has none.
        ReflectRef::Map(m) => h.usize(m.len()),
        ReflectRef::Set(s) => h.usize(s.len()),
        ReflectRef::Opaque(o) => digest_opaque(o, h),
        #[allow(unreachable_patterns)]
        _ => {}
    }
}

/// A number by its bits (floats have no reflected hash), anything else
/// (integers, `bool`, `Entity`) by its reflected hash, which Bevy keeps
/// the same across processes.
fn digest_opaque(o: &dyn PartialReflect, h: &mut Gathered<impl Hasher>) {
    let any = o.try_as_reflect().map(|r| r.as_any());
    if let Some(v) = any.and_then(<dyn Any>::downcast_ref::<f32>) {
        h.f32(*v);
    } else if let Some(v) = any.and_then(<dyn Any>::downcast_ref::<f64>) {
        h.u64(v.to_bits());
    } else if let Some(v) = o.reflect_hash() {
        h.u64(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::MovementState;
    use bevy::math::Vec3;

    /// Records every write, to hash the same bytes split otherwise.
    #[derive(Default)]
    struct Recorded(Vec<u8>);

    impl Hasher for Recorded {
        fn write(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
        }
        fn finish(&self) -> u64 {
            0
        }
    }

    /// The bytes `value`'s digest hashes.
    fn bytes_of(value: &dyn PartialReflect) -> Vec<u8> {
        let mut recorded = Gathered {
            hasher: Recorded::default(),
            bytes: [0; GATHERED],
            len: 0,
        };
        digest_into(value, &mut recorded);
        recorded.finish();
        recorded.hasher.0
    }

    /// The gathered digest is the one writes of 4 bytes give (as the
    /// digest did before the bytes were gathered: peers on either build
    /// agree), for a character's state (one piece) and a list long enough
    /// to be hashed in several: bevy_ggrs's checksum hasher must give the
    /// same value however the writes split the bytes.
    #[test]
    fn gathered_digest_is_the_digest_of_a_write_per_number() {
        let mut moved = MovementState::default();
        moved.0.position = Vec3::new(1.5, -2.25, 1e-7);
        moved.0.velocity = Vec3::new(-0.0, 3.0, f32::MIN_POSITIVE);
        let long: Vec<f32> = (0..200).map(|i| i as f32 * 0.37).collect();
        // Its length, then each number's bits, little-endian, nothing lost
        // where the pieces meet.
        let mut spelled = long.len().to_le_bytes().to_vec();
        long.iter().for_each(|x| spelled.extend(x.to_bits().to_le_bytes()));
        assert!(spelled.len() > 2 * GATHERED, "the list spans three pieces");
        assert_eq!(bytes_of(&long), spelled);
        let values: [&dyn PartialReflect; 3] = [&MovementState::default(), &moved, &long];
        for value in values {
            let bytes = bytes_of(value);
            let mut per_number = checksum_hasher();
            bytes.chunks(4).for_each(|n| per_number.write(n));
            let mut whole = checksum_hasher();
            whole.write(&bytes);
            let digest = digest_of(value);
            assert_eq!(digest, per_number.finish());
            assert_eq!(digest, whole.finish());
        }
        assert_ne!(digest_of(&MovementState::default()), digest_of(&moved));
    }
}
