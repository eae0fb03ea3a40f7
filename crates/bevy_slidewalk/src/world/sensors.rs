//! The collision world's sensors: colliders marked
//! [`SlidewalkSensor`](crate::SlidewalkSensor) are never placed (nothing
//! collides with them); a grid over their boxes finds the few near an
//! ellipsoid, each then tested exactly. Those that are water are listed
//! apart (`water`).

use super::CollisionWorld;
use super::water::WaterBox;
use crate::rules::SlidewalkLayers;
use bevy::prelude::*;
use glam::Vec3;
use slidewalk_sweep::{Aabb, BoxGrid, Ellipsoid, ellipsoid_overlaps_volume};

/// The sensor bodies (indices into the world's bodies) and a grid over
/// their boxes, in the same order.
#[derive(Default)]
pub(super) struct Sensors {
    bodies: Vec<usize>,
    grid: BoxGrid,
    /// The sensors that are water.
    pub water: Vec<WaterBox>,
    /// A sensor moved since the grid was made.
    pub moved: bool,
}

impl CollisionWorld {
    /// Remakes the sensors' list and grid from the bodies.
    pub(super) fn rebuild_sensors(&mut self) {
        let bodies: Vec<usize> = (0..self.bodies.len())
            .filter(|&i| self.bodies[i].rules.sensor)
            .collect();
        let boxes: Vec<Aabb> = bodies
            .iter()
            .map(|&i| {
                let b = &self.bodies[i];
                b.pose.transform_aabb(b.shape.bounds())
            })
            .collect();
        let water = bodies
            .iter()
            .map(|&i| &self.bodies[i])
            .filter(|b| b.rules.water)
            .map(WaterBox::of)
            .collect();
        self.sensors = Sensors {
            grid: BoxGrid::build(&boxes),
            bodies,
            water,
            moved: false,
        };
    }

    /// Number of sensor colliders.
    pub fn sensor_count(&self) -> usize {
        self.sensors.bodies.len()
    }

    /// Appends to `out` every [`SlidewalkSensor`](crate::SlidewalkSensor)
    /// entity the ellipsoid centred at `centre` (metres) overlaps (touching
    /// its triangles or inside the volume they close) whose
    /// [`SlidewalkLayers`] meet `layers`, in the order the sensors were
    /// added. A grid over the sensors' boxes finds the candidates: the
    /// cost grows with the sensors near the ellipsoid, not with all of
    /// them.
    pub fn overlapping_sensors(
        &self,
        ellipsoid: &Ellipsoid,
        centre: Vec3,
        layers: SlidewalkLayers,
        out: &mut Vec<Entity>,
    ) {
        let reach = Aabb::from_corners(centre, centre).expand(ellipsoid.radii() * 1.001);
        let mut near = Vec::new();
        self.sensors.grid.query(&reach, &mut near);
        for k in near {
            let body = &self.bodies[self.sensors.bodies[k as usize]];
            if layers.core().interacts_with(body.rules.layers)
                && ellipsoid_overlaps_volume(ellipsoid, centre, &body.placed(self.dt, false))
            {
                out.push(body.entity);
            }
        }
    }
}
