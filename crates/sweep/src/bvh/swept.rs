//! The swept-sphere walk of the BVH: nodes tested in eSpace against the
//! capsule of the remaining motion and along the direction to them, nearest
//! first, the walk shrinking as the caller finds earlier hits.

use super::{Bvh, MAX_DEPTH};
use glam::{Vec3, Vec3A};

impl Bvh {
    /// Calls `visit(slot)` for every leaf slot a swept sphere may touch,
    /// nearest node first, and shrinks the search to the time `visit`
    /// returns (the earliest hit found so far).
    ///
    /// The sweep is given in the frame where the body is a sphere of radius
    /// `reach` (eSpace, with `reach` a little over 1 for rounding): its centre
    /// starts at `origin` (the BVH's frame, metres), each BVH-frame offset is
    /// scaled by `inv_scale` (1 / the ellipsoid's radii), and it moves by
    /// `v · t` for `t` in `[0, t_max]`. A node is entered only when
    ///
    /// * the capsule around the remaining segment (its midpoint, radius
    ///   `reach` plus half its length) reaches the node's box,
    /// * the motion goes far enough towards the box: the box lies beyond its
    ///   point `u` nearest the start along `u`, and the centre advances along
    ///   `u` by at most `t_max · max(v·u, 0) / |u|` (this culls the boxes a
    ///   resting or sliding body is close to but does not move towards, the
    ///   bulk of a finely tessellated prop), and
    /// * the segment enters the box grown by `reach` at a time no later than
    ///   the current `t_max` (slab test; that time also orders the children,
    ///   and among children the sweep is within reach of at once, the one
    ///   the motion goes into most comes first: the earliest hit is then
    ///   found sooner, and the walk shrinks sooner).
    ///
    /// Each bound holds every point within `reach` of the segment, so no
    /// slot whose triangle the sphere touches by `t_max` is skipped. `v`
    /// must be finite.
    #[inline]
    pub(crate) fn query_swept(
        &self,
        origin: Vec3,
        inv_scale: Vec3,
        v: Vec3,
        reach: f32,
        mut t_max: f32,
        mut visit: impl FnMut(usize) -> f32,
    ) {
        let origin = Vec3A::from(origin);
        let inv_scale = Vec3A::from(inv_scale);
        let v = Vec3A::from(v);
        let speed = v.length();
        // 1 / v per axis; a huge finite value where v is (nearly) zero, so the
        // slabs never see 0 · ∞.
        let inv_v = Vec3A::select(v.abs().cmplt(Vec3A::splat(1e-30)), Vec3A::splat(1e30), v.recip());
        let nodes = &self.nodes;
        // The entry time of node `i`, or None when the sweep cannot reach it by `t_max`.
        let enter = |i: u32, t_max: f32| -> Option<f32> {
            let n = &nodes[i as usize];
            let lo = (Vec3A::from(n.min) - origin) * inv_scale;
            let hi = (Vec3A::from(n.max) - origin) * inv_scale;
            let mid = v * (0.5 * t_max);
            let gap = (lo - mid).max(mid - hi).max(Vec3A::ZERO);
            let radius = reach + 0.5 * speed * t_max;
            if gap.length_squared() > radius * radius {
                return None;
            }
            // The box lies beyond its point nearest the start along the
            // direction to it; the motion advances along that direction by
            // t_max · max(v·u, 0) / |u| (both scaled by |u| here, less a
            // margin for their rounding).
            let near = Vec3A::ZERO.clamp(lo, hi);
            let along = t_max * v.dot(near);
            let beyond = near.length_squared() - along.max(0.0) - 1e-6 * (near.length_squared() + along.abs());
            if beyond > 0.0 && beyond * beyond > reach * reach * near.length_squared() {
                return None;
            }
            let t0 = (lo - reach) * inv_v;
            let t1 = (hi + reach) * inv_v;
            let enter = t0.min(t1).max_element().max(0.0);
            let exit = t0.max(t1).min_element().min(t_max);
            // Boxes entered at once (within reach of the start) are ordered
            // by how far the motion has left to go into them, as a key in
            // [-1, 0): the box the motion goes into most is tried first.
            let key = if enter > 0.0 {
                enter
            } else {
                beyond.clamp(0.0, 0.999) - 1.0
            };
            (enter <= exit).then_some(key)
        };
        let mut stack = [(0u32, 0.0f32); MAX_DEPTH + 2];
        let mut top = 0usize;
        if let Some(t) = enter(0, t_max) {
            stack[0] = (0, t);
            top = 1;
        }
        while top > 0 {
            top -= 1;
            let (i, entered) = stack[top];
            if entered > t_max {
                continue;
            }
            let node = &nodes[i as usize];
            if node.count > 0 {
                let first = node.index as usize;
                for slot in first..first + node.count as usize {
                    t_max = visit(slot);
                }
                continue;
            }
            if node.index == u32::MAX {
                continue;
            }
            let (a, b) = (node.index, node.index + 1);
            match (enter(a, t_max), enter(b, t_max)) {
                (Some(ta), Some(tb)) => {
                    // The nearer child is popped first.
                    let (near, far) = if tb < ta {
                        ((b, tb), (a, ta))
                    } else {
                        ((a, ta), (b, tb))
                    };
                    stack[top] = far;
                    stack[top + 1] = near;
                    top += 2;
                }
                (Some(ta), None) => {
                    stack[top] = (a, ta);
                    top += 1;
                }
                (None, Some(tb)) => {
                    stack[top] = (b, tb);
                    top += 1;
                }
                (None, None) => {}
            }
        }
    }
}
