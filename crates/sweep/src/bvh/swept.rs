//! The swept-sphere walk of the BVH: nodes tested in eSpace against the
//! capsule of the remaining motion and along the direction to them, nearest
//! first, the walk shrinking as the caller finds earlier hits.

use super::tree::{Bvh, SHALLOW, STACK};
use super::wide::{WideNode, lanes};
use crate::prefetch::prefetch;
use glam::{Vec3, Vec4};
use std::ops::Range;

impl Bvh {
    /// Hands `visit` every leaf a swept sphere may touch, nearest node
    /// first, and shrinks the search to the time `visit` returns (the
    /// earliest hit found so far).
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
    ///
    /// A leaf is handed over twice: `entered(first, count)` when the walk
    /// decides to visit it (it is visited later, after the nearer ones:
    /// the caller may start loading its triangles), and
    /// `visit(first..first + count, t_max)` when its turn comes, which
    /// returns the new `t_max`. With `fetch` (a tree larger than the
    /// caches), wide nodes start loading as they are pushed, for the same
    /// reason.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn query_swept(
        &self,
        origin: Vec3,
        inv_scale: Vec3,
        v: Vec3,
        reach: f32,
        t_max: f32,
        fetch: bool,
        entered: impl FnMut(usize, u32),
        visit: impl FnMut(Range<usize>, f32) -> f32,
    ) {
        crate::counts::add(|c| c.walks += 1);
        // The box of the sweep in the tree's frame, with a margin for the
        // rounding of the eSpace tests, picks where the walk starts.
        let scale = inv_scale.recip();
        let radii = scale * reach;
        let moved = v * t_max * scale;
        let slack = radii * 1e-3 + (origin.abs() + moved.abs()) * 1e-6;
        let lo = origin + moved.min(Vec3::ZERO) - radii - slack;
        let hi = origin + moved.max(Vec3::ZERO) + radii + slack;
        let start = self.start(lo, hi);
        if start == super::entry::NOTHING || !lo.cmple(self.bounds.max).all() || !hi.cmpge(self.bounds.min).all() {
            return;
        }
        let sweep = Sweep::new(origin, inv_scale, v, reach);
        // The stack as deep as this tree needs (zeroing a deeper one costs
        // more than a small tree's walk).
        if self.stack_need <= SHALLOW {
            self.walk::<SHALLOW>(&sweep, start, t_max, fetch, entered, visit);
        } else {
            self.walk::<STACK>(&sweep, start, t_max, fetch, entered, visit);
        }
    }

    /// The walk of [`Bvh::query_swept`] from node `start`, with a stack of
    /// `N` entries (at least the tree's `stack_need`).
    #[inline]
    fn walk<const N: usize>(
        &self,
        sweep: &Sweep,
        start: u32,
        mut t_max: f32,
        fetch: bool,
        mut entered: impl FnMut(usize, u32),
        mut visit: impl FnMut(Range<usize>, f32) -> f32,
    ) {
        // (child, count, entry key) as the lanes give them: a wide node
        // when count is 0, else a leaf's slots. (Zeroed, which is a plain
        // memset.) The start, entered at once, is taken first without
        // going through the stack: read back right after the memset, it
        // stalled the walk (the load cannot be forwarded from the memset's
        // wide stores and the start's narrow one together; measured in
        // docs/figures.md's git history, "Two stalls").
        let mut stack = [(0u32, 0u32, 0.0f32); N];
        let mut top = 0usize;
        let mut first = Some((start, 0u32, 0.0f32));
        while let Some((child, count, key)) = first.take().or_else(|| {
            top = top.checked_sub(1)?;
            Some(stack[top])
        }) {
            if key > t_max {
                continue;
            }
            if count > 0 {
                let first = child as usize;
                crate::counts::add(|c| c.candidates += u64::from(count));
                t_max = visit(first..first + count as usize, t_max);
                continue;
            }
            let node = &self.nodes[child as usize];
            let (mask, keys) = sweep.enter(node, t_max);
            crate::counts::add(|c| c.nodes += 1);
            // The lanes entered, pushed farthest first so the nearest is
            // taken next (insertion into the few already pushed).
            let base = top;
            for k in lanes(mask) {
                if !node.used(k) {
                    continue;
                }
                let entry = (node.child[k], node.count[k], keys[k]);
                crate::counts::add(|c| c.entered += 1);
                if entry.1 > 0 {
                    entered(entry.0 as usize, entry.1);
                } else if fetch {
                    prefetch(std::slice::from_ref(&self.nodes[entry.0 as usize]));
                }
                let mut at = top;
                while at > base && stack[at - 1].2 < entry.2 {
                    stack[at] = stack[at - 1];
                    at -= 1;
                }
                stack[at] = entry;
                top += 1;
            }
        }
    }
}

/// A sweep's constants, each axis splatted across the four lanes.
struct Sweep {
    origin: [Vec4; 3],
    inv_scale: [Vec4; 3],
    v: [Vec4; 3],
    inv_v: [Vec4; 3],
    speed: f32,
    reach: f32,
}

impl Sweep {
    fn new(origin: Vec3, inv_scale: Vec3, v: Vec3, reach: f32) -> Self {
        // 1 / v per axis; a huge finite value where v is (nearly) zero, so
        // the slabs never see 0 · ∞.
        let inv_v = Vec3::select(v.abs().cmplt(Vec3::splat(1e-30)), Vec3::splat(1e30), v.recip());
        let lanes = |p: Vec3| [Vec4::splat(p.x), Vec4::splat(p.y), Vec4::splat(p.z)];
        Self {
            origin: lanes(origin),
            inv_scale: lanes(inv_scale),
            v: lanes(v),
            inv_v: lanes(inv_v),
            speed: v.length(),
            reach,
        }
    }

    /// Which of `node`'s four boxes the sweep may reach by `t_max` (bit `k`
    /// for lane `k`; an unused lane's bit means nothing), and each one's
    /// entry key: the entry time, or for a box within reach at once, in
    /// [-1, 0), how far the motion has left to go into it.
    #[inline]
    fn enter(&self, node: &WideNode, t_max: f32) -> (u32, [f32; 4]) {
        let zero = Vec4::ZERO;
        let reach = Vec4::splat(self.reach);
        let mut lo = [zero; 3];
        let mut hi = [zero; 3];
        let mut gap2 = zero;
        let mut near2 = zero;
        let mut towards = zero;
        let mut t_in = zero;
        let mut t_out = Vec4::splat(t_max);
        for a in 0..3 {
            lo[a] = (node.min[a] - self.origin[a]) * self.inv_scale[a];
            hi[a] = (node.max[a] - self.origin[a]) * self.inv_scale[a];
            // The capsule around the remaining segment: the gap from its
            // midpoint to the box.
            let mid = self.v[a] * (0.5 * t_max);
            let gap = (lo[a] - mid).max(mid - hi[a]).max(zero);
            gap2 += gap * gap;
            // The box's point nearest the start, and the motion along it.
            let near = zero.max(lo[a]).min(hi[a]);
            near2 += near * near;
            towards += self.v[a] * near;
            // Slabs of the box grown by `reach`.
            let t0 = (lo[a] - reach) * self.inv_v[a];
            let t1 = (hi[a] + reach) * self.inv_v[a];
            t_in = t_in.max(t0.min(t1));
            t_out = t_out.min(t0.max(t1));
        }
        // (A hair more than the capsule's radius: over a motion far longer
        // than the boxes, 1e17 radii, the gap and the radius are both about
        // half of it and differ by a box's size, below their f32 rounding;
        // without the margin a box the motion meets at its start was
        // passed over, found by the sweep fuzz target's settle check.)
        let radius = (self.reach + 0.5 * self.speed * t_max) * (1.0 + 1e-5);
        let within = gap2.cmple(Vec4::splat(radius * radius));
        // The box lies beyond its point nearest the start along the
        // direction to it; the motion advances along that direction by
        // t_max · max(v·u, 0) / |u| (both scaled by |u| here, less a margin
        // for their rounding).
        let along = towards * t_max;
        let beyond = near2 - along.max(zero) - (near2 + along.abs()) * 1e-6;
        let separated = beyond.cmpgt(zero) & (beyond * beyond).cmpgt(near2 * (self.reach * self.reach));
        let entered = t_in.cmple(t_out);
        let mask = (within & entered).bitmask() & !separated.bitmask();
        // Boxes entered at once (within reach of the start) are ordered by
        // how far the motion has left to go into them: the box the motion
        // goes into most is tried first.
        let at_once = beyond.clamp(zero, Vec4::splat(0.999)) - Vec4::ONE;
        let keys = Vec4::select(t_in.cmpgt(zero), t_in, at_once);
        (mask, keys.to_array())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Ellipsoid, MeshCollider, PlacedCollider, sweep};
    use glam::Vec3;

    /// A 2 mm square a body 6 mm across meets at once, along motions from
    /// 1e3 to 1e19 of its radii: the walk passes no box the motion meets.
    /// Over 1e17 radii the capsule test's gap and radius, both about half
    /// the motion, differed by less than their rounding, and the square's
    /// box was passed over (found by the sweep fuzz target's settle check,
    /// `crates/fuzz/regressions/sweep/settle-motion-1e19-radii-long-passed-a-box-over.bin`).
    #[test]
    fn a_motion_far_longer_than_the_boxes_meets_what_is_at_its_start() {
        let positions = [
            Vec3::new(-0.001, -0.01, -0.001),
            Vec3::new(0.001, -0.01, -0.001),
            Vec3::new(0.001, -0.01, 0.001),
            Vec3::new(-0.001, -0.01, 0.001),
        ];
        let mesh = MeshCollider::build(&positions, &[[0, 1, 2], [0, 2, 3]]).unwrap();
        let placed = [PlacedCollider::fixed(&mesh)];
        let e = Ellipsoid::new(Vec3::new(0.002861328, 0.0054511717, 0.005679688)).unwrap();
        let start = Vec3::new(0.0, -0.012421874, -0.01171875);
        let direction = Vec3::new(14568529000000.0, -4.0, 61644313000000000.0);
        for scale in [1e-16f32, 1e-12, 1e-8, 1e-4, 1e-2, 0.1, 0.5, 1.0] {
            let motion = direction * scale;
            let hit = sweep(&e, start, motion, &placed);
            // Met after 5.63 mm along z (its edge, 1.6 mm below the centre).
            assert!(
                hit.is_some_and(|h| (h.time * motion.z / 0.00563 - 1.0).abs() < 1e-3),
                "{:e} radii: {hit:?}",
                (motion / e.radii()).length()
            );
        }
    }
}
