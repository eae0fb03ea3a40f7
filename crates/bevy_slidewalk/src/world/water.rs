//! The water among the world's sensors ([`Water`](crate::Water)): each a
//! box in its entity's frame, placed by its pose, looked up by point for
//! the depth below its surface. A world without water answers at once.

use super::CollisionWorld;
use super::body::Body;
use crate::rules::SlidewalkLayers;
use glam::Vec3;
use slidewalk_sweep::{Aabb, CollisionLayers, Pose};

/// How far outside a box (metres, in its frame) a point still counts as
/// in it: the float error of placing it, so that the top of one box is in
/// the water box stacked on it.
const EDGE: f32 = 1e-4;

/// One water volume: its collider's bounding box in the entity's frame
/// (its scale applied), where it is, and which bodies it wets.
#[derive(Clone, Copy, Debug)]
pub(super) struct WaterBox {
    local: Aabb,
    pose: Pose,
    layers: CollisionLayers,
}

impl WaterBox {
    pub(super) fn of(body: &Body) -> Self {
        Self {
            local: body.shape.bounds(),
            pose: body.pose,
            layers: body.rules.layers,
        }
    }

    /// How far (metres) a ray from `point` along `up` (unit, world) goes
    /// before it leaves the box, if the point is in it.
    fn exit(&self, point: Vec3, up: Vec3) -> Option<f32> {
        let p = self.pose.inverse_transform_point(point);
        let d = self.pose.rotation.inverse() * up;
        let (min, max) = (self.local.min - EDGE, self.local.max + EDGE);
        if !(p.cmpge(min).all() && p.cmple(max).all()) {
            return None;
        }
        let mut exit = f32::INFINITY;
        for k in 0..3 {
            let t = if d[k] > 0.0 {
                (self.local.max[k] - p[k]) / d[k]
            } else if d[k] < 0.0 {
                (self.local.min[k] - p[k]) / d[k]
            } else {
                continue;
            };
            exit = exit.min(t);
        }
        exit.is_finite().then_some(exit.max(0.0))
    }
}

impl CollisionWorld {
    /// Whether there is any [`Water`](crate::Water).
    pub fn has_water(&self) -> bool {
        !self.sensors.water.is_empty()
    }

    /// How deep `point` (world, metres) is below the surface of the
    /// [`Water`](crate::Water) it is in, along `up` (world, any length:
    /// it is normalised), for a body with `layers`: the distance from the
    /// point along "up" to where it leaves the water, through water boxes
    /// that touch or overlap (each box's own top or side ends it unless
    /// another one goes on from there). `None` when the point is in no
    /// water whose [`SlidewalkLayers`] meet `layers`, or when `up` is zero
    /// or not finite. The cost grows with the number of water volumes;
    /// without any, none.
    pub fn water_depth(&self, point: Vec3, up: Vec3, layers: SlidewalkLayers) -> Option<f32> {
        let water = &self.sensors.water;
        if water.is_empty() {
            return None;
        }
        let up = up.try_normalize()?;
        if !point.is_finite() {
            return None;
        }
        let mut depth = 0.0;
        let mut at = point;
        // Each step leaves one box for good: at most one step per box.
        for _ in 0..water.len() {
            let step = water
                .iter()
                .filter(|w| w.layers.interacts_with(layers.core()))
                .filter_map(|w| w.exit(at, up))
                .fold(0.0f32, f32::max);
            if step <= 0.0 {
                break;
            }
            depth += step;
            at = point + up * depth;
        }
        (depth > 0.0).then_some(depth)
    }
}
