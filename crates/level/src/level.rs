//! A loaded level: the static collider, its one-way and layered parts,
//! the movers (doors, lifts), sensors, water, spawn points and surfaces,
//! all in metres with y up.

use crate::conventions::{DoorMotion, DoorSpec, LiftSpec};
use crate::parts::{Sensor, StaticPart, WaterVolume};
use glam::{Quat, Vec3};
use slidewalk_sweep::{AnalyticShape, BuildReport, CollisionLayers, MeshCollider, PlacedCollider, Pose};
use std::ops::Range;

/// Everything the simulation needs from a level file.
#[derive(Clone, Debug)]
pub struct Level {
    /// All static triangles but those of [`Level::parts`],
    /// [`Level::sensors`] and [`Level::water`]. `None` when every mesh is a
    /// mover, a part, a sensor or water (or skipped).
    pub statics: Option<MeshCollider>,
    /// For each input triangle of `statics` (as reported by
    /// [`slidewalk_sweep::SweepHit::triangle`]), its index in `surfaces`.
    pub static_surfaces: Vec<u16>,
    /// Surface properties, indexed by `static_surfaces` and [`Mover::surface`].
    pub surfaces: Vec<Surface>,
    /// For each input triangle of `statics` (indexed like
    /// `static_surfaces`), whether it belongs to a node with an analytic
    /// collider. Those triangles stay in `statics` for the player's
    /// ellipsoid; a sphere sweep uses the exact shapes in `analytic`
    /// instead and skips them, e.g. with [`slidewalk_sweep::sweep_with`] and
    /// a [`slidewalk_sweep::KeepTriangles`] of
    /// `|c| c.collider() != 0 || !level.static_triangle_is_analytic(c.triangle())`
    /// (the static collider placed first).
    pub static_analytic: Vec<bool>,
    /// The analytic colliders (`"collider": "plane" | "cylinder"` nodes), in
    /// file order.
    pub analytic: Vec<AnalyticCollider>,
    /// Static mesh nodes that are one-way, have collision layers, are
    /// climbable or are launch pads or conveyors, each its own collider, in
    /// file order.
    pub parts: Vec<StaticPart>,
    /// Doors and lifts.
    pub movers: Vec<Mover>,
    /// The sensors (`"sensor"` nodes' volumes, not solid), in file order.
    pub sensors: Vec<Sensor>,
    /// The water volumes (`"water": true` nodes' own meshes, not solid),
    /// in file order.
    pub water: Vec<WaterVolume>,
    /// Player spawn points (empty when the level has none).
    pub spawns: Vec<Spawn>,
    /// What was read.
    pub report: LoadReport,
}

/// Per-surface properties.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    /// Name of the node that set it (or "default").
    pub name: String,
    /// 0 (ice) … 1 (normal grip).
    pub friction: f32,
}

/// A player spawn point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spawn {
    /// Where the feet stand, metres.
    pub position: Vec3,
    /// View direction about +y, radians (0 looks along −z).
    pub yaw: f32,
}

/// A door or a lift: a collider that moves rigidly.
#[derive(Clone, Debug)]
pub struct Mover {
    /// The glTF node's name (or `node N`).
    pub name: String,
    /// The glTF node index (the drawn entity of the same node moves with it).
    pub node: usize,
    /// What kind, with its parameters.
    pub kind: MoverKind,
    /// Triangles in the mover's frame (its node's rest pose removed; scale baked in).
    pub collider: MeshCollider,
    /// The node's world pose when closed / at rest.
    pub rest: Pose,
    /// Index in [`Level::surfaces`].
    pub surface: u16,
    /// Which bodies it stops ([`CollisionLayers::ALL`] unless `"layers"` says).
    pub layers: CollisionLayers,
    /// `Some(direction)`: one-way along this unit direction in the mover's
    /// frame (turning with it).
    pub one_way: Option<Vec3>,
    /// Whether the character can climb its faces (`"climbable": true` on
    /// the door or lift node or a parent).
    pub climbable: bool,
}

/// The exact shape a static mesh node asked for, for sphere sweeps (see
/// [`crate::conventions`] for how it is derived from the node).
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyticCollider {
    /// The glTF node's name (or `node N`).
    pub name: String,
    /// The glTF node index.
    pub node: usize,
    /// The plane or cylinder, in world space (metres).
    pub shape: AnalyticShape,
    /// Index in [`Level::surfaces`] (the node's friction).
    pub surface: u16,
    /// The node's triangles in [`Level::statics`], as input triangle
    /// indices (what [`slidewalk_sweep::SweepHit::triangle`] reports); each is
    /// marked in [`Level::static_analytic`].
    pub triangles: Range<u32>,
}

/// Door or lift parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoverKind {
    /// A door (`DoorSpec::motion` has its slide offset resolved).
    Door(DoorSpec),
    /// A lift.
    Lift(LiftSpec),
}

impl Level {
    /// The level's colliders with each door and lift at its pose in `now`
    /// (the level's mover order), moving with its motion from `before` over
    /// `dt` seconds: the static collider first (when there is one), then
    /// the static parts in [`Level::parts`] order, then the movers from
    /// [`Level::first_mover`] on — the numbering [`Level::friction`]
    /// reads. Each carries its layers and one-way direction; sensors and
    /// water are not among them.
    pub fn placed(&self, now: &[Pose], before: &[Pose], dt: f32) -> Vec<PlacedCollider<'_>> {
        let statics = self.statics.iter().map(PlacedCollider::fixed);
        let parts = self.parts.iter().map(StaticPart::placed);
        let movers = self
            .movers
            .iter()
            .zip(now.iter().zip(before))
            .map(|(m, (now, before))| {
                PlacedCollider::from_poses(&m.collider, *before, *now, dt)
                    .with_layers(m.layers)
                    .with_one_way(m.one_way)
            });
        statics.chain(parts).chain(movers).collect()
    }

    /// Index in [`Level::placed`] of the first door or lift (the number of
    /// still colliders before them: the static collider, if any, and the
    /// parts).
    pub fn first_mover(&self) -> usize {
        self.statics.is_some() as usize + self.parts.len()
    }

    /// [`Level::placed`] with every door and lift still at its rest pose.
    pub fn placed_at_rest(&self) -> Vec<PlacedCollider<'_>> {
        let rest: Vec<Pose> = self.movers.iter().map(|m| m.rest).collect();
        self.placed(&rest, &rest, 1.0)
    }

    /// Friction of a surface, 0 (ice) … 1, by collider index and triangle
    /// (its input index), with the colliders numbered as the simulation
    /// places them ([`Level::placed`]): the static collider first (when
    /// there is one), then the parts in [`Level::parts`] order, then the
    /// movers in [`Level::movers`] order. Unknown indices give 1.
    pub fn friction(&self, collider: usize, triangle: u32) -> f32 {
        let first_part = self.statics.is_some() as usize;
        let first_mover = self.first_mover();
        let surface = if collider < first_part {
            self.static_surfaces.get(triangle as usize).copied()
        } else if collider < first_mover {
            self.parts.get(collider - first_part).map(|p| p.surface)
        } else {
            self.movers.get(collider - first_mover).map(|m| m.surface)
        };
        surface
            .and_then(|s| self.surfaces.get(s as usize))
            .map_or(1.0, |s| s.friction)
    }

    /// Whether the static collider's input triangle `triangle` belongs to
    /// an analytic collider's node (false for unknown indices).
    pub fn static_triangle_is_analytic(&self, triangle: u32) -> bool {
        self.static_analytic.get(triangle as usize).copied().unwrap_or(false)
    }
}

impl Mover {
    /// The world pose at `openness` (0 = rest/closed/bottom, 1 = open/far end).
    pub fn pose_at(&self, openness: f32) -> Pose {
        let o = openness.clamp(0.0, 1.0);
        match self.kind {
            MoverKind::Door(DoorSpec {
                motion: DoorMotion::Hinge { axis, angle },
                ..
            }) => Pose {
                rotation: self.rest.rotation * Quat::from_axis_angle(axis, angle * o),
                translation: self.rest.translation,
            },
            MoverKind::Door(DoorSpec {
                motion: DoorMotion::Slide { offset },
                ..
            }) => Pose {
                rotation: self.rest.rotation,
                translation: self.rest.translation + offset.unwrap_or(Vec3::ZERO) * o,
            },
            MoverKind::Lift(lift) => Pose {
                rotation: self.rest.rotation,
                translation: self.rest.translation + lift.travel * o,
            },
        }
    }
}

impl LiftSpec {
    /// Seconds for one way.
    pub fn travel_seconds(&self) -> f32 {
        self.travel.length() / self.speed
    }

    /// Seconds for a whole cycle: pause at rest, go, pause at the far end, return.
    pub fn cycle_seconds(&self) -> f32 {
        2.0 * (self.pause_seconds + self.travel_seconds())
    }

    /// Where the lift is at time `t` seconds after the level starts (0 = rest,
    /// 1 = far end): it waits at rest, travels at constant speed, waits, returns.
    pub fn openness_at(&self, t: f64) -> f32 {
        let cycle = self.cycle_seconds() as f64;
        let mut s = (t.rem_euclid(cycle)) as f32;
        let (pause, go) = (self.pause_seconds, self.travel_seconds());
        if s < pause {
            return 0.0;
        }
        s -= pause;
        if s < go {
            return s / go;
        }
        s -= go;
        if s < pause {
            return 1.0;
        }
        s -= pause;
        (1.0 - s / go).max(0.0)
    }

    /// The schedule time at which the lift is where it is at time `t`
    /// (seconds) but travelling the other way: what a lift that squeezes
    /// something jumps to, so it turns back as a door does. `t` itself
    /// while it waits at either end.
    pub fn turned_back(&self, t: f64) -> f64 {
        let cycle = self.cycle_seconds() as f64;
        let (pause, go) = (self.pause_seconds as f64, self.travel_seconds() as f64);
        let s = t.rem_euclid(cycle);
        let start = t - s;
        if (pause..pause + go).contains(&s) {
            // Going out at openness o: the way back passes o at 2·pause + go + (1 − o)·go.
            let o = (s - pause) / go;
            start + 2.0 * pause + go + (1.0 - o) * go
        } else if s >= 2.0 * pause + go {
            // Coming back at openness o: the way out passes o at pause + o·go.
            let o = 1.0 - (s - 2.0 * pause - go) / go;
            start + pause + o * go
        } else {
            t
        }
    }
}

/// Counts of what a load read and kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadReport {
    /// Nodes visited in the scene(s).
    pub nodes: usize,
    /// Mesh instances (a mesh used by several nodes counts once per node).
    pub mesh_instances: usize,
    /// Triangle primitives read (lists, strips and fans).
    pub primitives: usize,
    /// Point and line primitives skipped, and triangle primitives whose
    /// Draco data could not be decoded (each named in `notices`).
    pub skipped_primitives: usize,
    /// Triangles read from the file (before rejecting bad ones).
    pub triangles: usize,
    /// What the static collider kept and rejected.
    pub statics: BuildReport,
    /// Triangles rejected from movers as non-finite.
    pub mover_rejected_non_finite: usize,
    /// Triangles rejected from movers as degenerate.
    pub mover_rejected_degenerate: usize,
    /// Triangles rejected from static parts, sensors and water as non-finite.
    pub part_rejected_non_finite: usize,
    /// Triangles rejected from static parts, sensors and water as degenerate.
    pub part_rejected_degenerate: usize,
    /// Triangles under `nocollide` nodes.
    pub nocollide_triangles: usize,
    /// Static parts kept ([`Level::parts`]: one-way, layered, climbable,
    /// launch-pad or conveyor nodes).
    pub parts: usize,
    /// Sensors kept ([`Level::sensors`]).
    pub sensors: usize,
    /// Water volumes kept ([`Level::water`]).
    pub water: usize,
    /// Mesh instances that collide as a proxy (`"proxy"`, see
    /// [`crate::conventions`]).
    pub proxies: usize,
    /// Triangles of those meshes, read but replaced by their proxies.
    pub proxied_triangles: usize,
    /// Triangles of the proxies that replaced them.
    pub proxy_triangles: usize,
    /// Meshes left out because their Draco data could not be decoded (and
    /// the file has no uncompressed copy): they do not collide.
    pub undecoded_meshes: Vec<String>,
    /// What the loader ignored, one line each (for example a required
    /// extension for lights, which collision does not need); the game shows
    /// them and level-check prints them. See [`crate::extensions`].
    pub notices: Vec<String>,
}

impl LoadReport {
    /// All rejected triangles (static, parts, sensors and movers).
    pub fn rejected(&self) -> usize {
        self.statics.rejected_non_finite
            + self.statics.rejected_degenerate
            + self.mover_rejected_non_finite
            + self.mover_rejected_degenerate
            + self.part_rejected_non_finite
            + self.part_rejected_degenerate
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_lift_turned_back_is_where_it_was_going_the_other_way() {
        let lift = super::LiftSpec {
            travel: glam::Vec3::new(0.0, 4.0, 0.0),
            speed: 1.5,
            pause_seconds: 2.0,
        };
        let cycle = lift.cycle_seconds() as f64;
        let (pause, go) = (lift.pause_seconds as f64, lift.travel_seconds() as f64);
        let near_a_change = |t: f64| {
            let s = t.rem_euclid(cycle);
            [0.0, pause, pause + go, 2.0 * pause + go, cycle]
                .iter()
                .any(|b| (s - b).abs() < 0.02)
        };
        for k in 0..400 {
            let t = k as f64 * cycle / 173.0 - cycle;
            if near_a_change(t) {
                continue;
            }
            let back = lift.turned_back(t);
            let (o, o_back) = (lift.openness_at(t), lift.openness_at(back));
            assert!((o - o_back).abs() < 1e-4, "t {t}: {o} turned back to {o_back}");
            // A moment later it has moved the other way (or, waiting, not at all).
            let (next, next_back) = (lift.openness_at(t + 0.01), lift.openness_at(back + 0.01));
            let moving = (next - o).abs() > 1e-6;
            if moving {
                assert!((next - o) * (next_back - o_back) < 0.0, "t {t}: did not turn back");
            } else {
                assert_eq!(back, t);
            }
        }
    }

    use super::*;

    #[test]
    fn lift_waits_travels_waits_returns() {
        let lift = LiftSpec {
            travel: Vec3::new(0.0, 3.0, 0.0),
            speed: 1.5,
            pause_seconds: 2.0,
        };
        assert_eq!(lift.cycle_seconds(), 8.0);
        assert_eq!(lift.openness_at(1.0), 0.0);
        assert!((lift.openness_at(3.0) - 0.5).abs() < 1e-6);
        assert_eq!(lift.openness_at(5.0), 1.0);
        assert!((lift.openness_at(7.0) - 0.5).abs() < 1e-6);
        assert_eq!(lift.openness_at(9.0), 0.0);
    }
}
