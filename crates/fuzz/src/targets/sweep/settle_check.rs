//! The sweep target's check of `settle`: it answers only what the slide
//! that stops at its first contact answers, bit for bit.

use crate::signature::Signature;
use glam::Vec3;
use slidewalk_sweep::{ContactResponse, Ellipsoid, PlacedCollider, SlideOptions, collide_and_slide_filtered, settle};

/// Settles from `start` along `motion` with a short and a long reach and
/// compares each answer with the Stop slide's.
pub fn check(
    e: &Ellipsoid,
    start: Vec3,
    motion: Vec3,
    world: &[PlacedCollider<'_>],
    options: &SlideOptions,
    sig: &mut Signature,
) {
    let stopped = collide_and_slide_filtered(e, start, motion, world, options, (), |_| ContactResponse::Stop);
    for reach in [0.01, 1.0] {
        if let Some(settled) = settle(e, start, motion, world, options, (), reach) {
            let bits = |p: Vec3| p.to_array().map(f32::to_bits);
            assert_eq!(
                bits(settled.position),
                bits(stopped.position),
                "settled at {}, the slide stopped at {}",
                settled.position,
                stopped.position
            );
            assert_eq!(
                stopped.contacts.as_slice(),
                &[settled.contact],
                "settle's contact against the slide's"
            );
            sig.add(60 + u64::from(reach > 0.5));
        }
    }
}
