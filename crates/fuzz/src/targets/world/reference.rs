//! The `world` target's brute-force reference: each recorded tick checked
//! against the colliders' own geometry placed by their `GlobalTransform`s
//! (not the plugin's collision world, which is what is under test), with
//! the core's measures (`clearance_after`, `closest_point_on_triangle`).
//!
//! Checked every tick:
//! * every collider's `GlobalTransform` is its transform composed with its
//!   ancestors' (the plugin propagates them at its tick);
//! * every active character's state is finite and its config valid (an
//!   invalid one is refused and the last valid one written back);
//! * no contact or ground names an entity that is not a collider now (a
//!   despawned one, one whose `SlidewalkCollider` was taken), a sensor, or a
//!   collider whose layers do not meet the character's;
//! * no active character ends the tick inside a solid it meets unless the
//!   tick reports it `crushed` (docs/plugin.md: a mover that moves into a
//!   character pushes it; one that squeezes it against something else
//!   reports `crushed`; a character spawned, teleported or given a
//!   collider inside it is pushed out the same way): clearance at least
//!   1 − 1e-4 of the radius, layers honoured, a one-way collider counted
//!   only where the tick began in front of it (`clearance_after`);
//! * `EnteredSensor` and `LeftSensor` pair up: no leave without an enter,
//!   no second enter, no pair left with a character or sensor that is gone
//!   (despawned, or no longer a sensor), and the pairs are exactly the
//!   overlaps the reference finds (where it finds them beyond rounding).

use super::record::{CharacterSeen, ColliderSeen, TickSeen};
use super::shapes::ShapeData;
use bevy::prelude::Entity;
use bevy_slidewalk::sweep::{Ellipsoid, MeshCollider, PlacedCollider, closest_point_on_triangle};
use glam::{Affine3A, Mat3, Vec3};
use slidewalk_controller::test_util::clearance_after;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// A collider's triangles placed in the world, kept while its transform
/// and shape stay the same.
struct Placed {
    global: Affine3A,
    shape: Arc<ShapeData>,
    triangles: Vec<[Vec3; 3]>,
    /// Built from `triangles` (none when the build keeps none).
    mesh: Option<MeshCollider>,
}

/// What the reference knows between ticks.
#[derive(Default)]
pub struct Reference {
    /// (sensor, character) pairs the messages say overlap.
    inside: HashSet<(Entity, Entity)>,
    placed: HashMap<Entity, Placed>,
    /// Behaviour codes seen (the signature).
    pub codes: BTreeSet<u64>,
    /// Ticks checked.
    pub ticks: u64,
}

/// Whether two transforms agree to rounding.
fn same_transform(a: &Affine3A, b: &Affine3A) -> bool {
    let (a, b) = (a.to_cols_array(), b.to_cols_array());
    let size = a.iter().chain(&b).fold(1.0f32, |m, v| m.max(v.abs()));
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-4 * size)
}

/// A one-way collider's solid side in the world: its local direction
/// turned as a normal is (by the inverse transpose of the linear part).
fn world_one_way(global: &Affine3A, local: Vec3) -> Option<Vec3> {
    let local = local.try_normalize()?;
    (Mat3::from(global.matrix3).inverse().transpose() * local).try_normalize()
}

/// Smallest eSpace distance from an ellipsoid to the triangles.
fn espace_distance(radii: Vec3, centre: Vec3, triangles: &[[Vec3; 3]]) -> f32 {
    triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|p| (p - centre) / radii);
            closest_point_on_triangle(Vec3::ZERO, a, b, c).length()
        })
        .fold(f32::INFINITY, f32::min)
}

/// Whether an ellipsoid overlaps a sensor (touches its triangles or has
/// its centre inside), or `None` when rounding could decide either way.
fn sensor_overlap(radii: Vec3, centre: Vec3, sensor: &ColliderSeen, triangles: &[[Vec3; 3]]) -> Option<bool> {
    let d = espace_distance(radii, centre, triangles);
    if d < 1.0 - 1e-3 {
        return Some(true);
    }
    if d <= 1.0 + 1e-3 {
        return None;
    }
    // Not touching: inside only if the centre is (exactly known for a
    // box; the plugin's ray test on other shapes is not repeated here).
    let half = sensor.shape.closed_box?;
    let local = sensor.global.inverse().transform_point3(centre);
    Some(local.abs().cmplt(half).all())
}

impl Reference {
    /// Checks one tick (panics naming the broken rule).
    pub fn check(&mut self, tick: &TickSeen) {
        self.ticks += 1;
        let colliders: HashMap<Entity, &ColliderSeen> = tick.colliders.iter().map(|c| (c.entity, c)).collect();
        self.placed.retain(|e, _| colliders.contains_key(e));
        for c in &tick.colliders {
            assert!(
                same_transform(&c.global, &c.expected),
                "collider {}: GlobalTransform {:?} after the plugin's tick, its transforms give {:?}",
                c.entity,
                c.global,
                c.expected
            );
            self.place(c);
        }
        for ch in tick.characters.iter().filter(|c| c.active) {
            self.check_character(ch, &colliders);
        }
        self.check_sensors(tick, &colliders);
    }

    /// Places a collider's triangles where its `GlobalTransform` puts them
    /// (a mirror's winding reversed, as Bevy draws it), unless already there.
    fn place(&mut self, c: &ColliderSeen) {
        if let Some(p) = self.placed.get(&c.entity)
            && p.global == c.global
            && Arc::ptr_eq(&p.shape, &c.shape)
        {
            return;
        }
        let mirror = Mat3::from(c.global.matrix3).determinant() < 0.0;
        let triangles: Vec<[Vec3; 3]> = c
            .shape
            .triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|p| c.global.transform_point3(p));
                if mirror { [a, c, b] } else { [a, b, c] }
            })
            .collect();
        let mesh = MeshCollider::from_triangles(&triangles).ok();
        self.placed.insert(
            c.entity,
            Placed {
                global: c.global,
                shape: c.shape.clone(),
                triangles,
                mesh,
            },
        );
    }

    fn check_character(&mut self, ch: &CharacterSeen, colliders: &HashMap<Entity, &ColliderSeen>) {
        let (state, report) = (&ch.after, &ch.report.tick);
        assert!(
            state.position.is_finite() && state.velocity.is_finite(),
            "character {}: non-finite state {state:?}",
            ch.entity
        );
        assert!(
            ch.config_valid,
            "character {}: an invalid config kept after a tick",
            ch.entity
        );
        let met = ch.report.ground.as_ref().and_then(|g| g.entity);
        for e in ch.report.contact_entities.iter().flatten().chain(&met) {
            let Some(c) = colliders.get(e) else {
                panic!(
                    "character {}: a contact with {e}, which is not a collider now",
                    ch.entity
                );
            };
            assert!(!c.sensor, "character {}: a contact with sensor {e}", ch.entity);
            assert!(
                c.layers.interacts_with(ch.layers),
                "character {}: a contact with {e}, whose layers {:?} do not meet its {:?}",
                ch.entity,
                c.layers,
                ch.layers
            );
            self.codes.insert(1 + u64::from(c.one_way.is_some()));
        }
        for (i, flag) in [
            report.ground.is_some(),
            report.crushed,
            report.pushed != Vec3::ZERO,
            report.carried != Vec3::ZERO,
            report.stepped,
            report.snapped,
            report.landed,
            report.jumped,
            report.dropped,
            report.climbing,
            report.mantled.is_some(),
            report.launched.is_some(),
            report.dashed.is_some(),
            report.wall_sliding,
            report.air_jump,
        ]
        .into_iter()
        .enumerate()
        {
            if flag {
                self.codes.insert(100 + i as u64);
            }
        }
        let Some((before, unsure)) = ch.before else {
            return;
        };
        if report.crushed {
            return;
        }
        let Ok(ellipsoid) = Ellipsoid::new(state.radii) else {
            panic!("character {}: radii {} after a tick", ch.entity, state.radii);
        };
        let mut clearance = f32::INFINITY;
        for c in colliders.values() {
            if c.sensor || !c.layers.interacts_with(ch.layers) {
                continue;
            }
            let Some(mesh) = self.placed.get(&c.entity).and_then(|p| p.mesh.as_ref()) else {
                continue;
            };
            let one_way = c.one_way.and_then(|d| world_one_way(&c.global, d));
            let mut from = before;
            if let Some(up) = one_way {
                if unsure {
                    // The plugin moved or reshaped it before the tick: where
                    // it began is not known here.
                    continue;
                }
                // Judged from a little behind where it began, so that
                // rounding never counts a surface it was not in front of.
                from.position -= up * 2e-3 * before.radii.max_element();
            }
            let placed = PlacedCollider::fixed(mesh).with_one_way(one_way);
            clearance = clearance.min(clearance_after(&from, state, report.dropped, &[placed]));
        }
        // Far from the origin rounding alone is bigger than 1e-4 of a radius.
        let reach = state.position.abs().max_element() + 1.0;
        let tolerance = 1e-4 + 16.0 * f32::EPSILON * reach / ellipsoid.radii().min_element();
        assert!(
            clearance >= 1.0 - tolerance,
            "character {}: inside a solid by {:.2e} of its radius at {}, not crushed (began at {})",
            ch.entity,
            1.0 - clearance,
            state.position,
            before.position
        );
    }

    fn check_sensors(&mut self, tick: &TickSeen, colliders: &HashMap<Entity, &ColliderSeen>) {
        for pair in &tick.left {
            assert!(
                self.inside.remove(pair),
                "left sensor {} (character {}) never entered",
                pair.0,
                pair.1
            );
            self.codes.insert(10);
        }
        for pair in &tick.entered {
            assert!(
                self.inside.insert(*pair),
                "entered sensor {} (character {}) twice",
                pair.0,
                pair.1
            );
            self.codes.insert(11);
        }
        let characters: HashMap<Entity, &CharacterSeen> = tick.characters.iter().map(|c| (c.entity, c)).collect();
        for &(sensor, character) in &self.inside {
            assert!(
                colliders.get(&sensor).is_some_and(|s| s.sensor),
                "character {character} still in sensor {sensor}, which is gone or no longer a sensor"
            );
            assert!(
                characters.contains_key(&character),
                "despawned character {character} still in sensor {sensor}"
            );
        }
        for sensor in tick.colliders.iter().filter(|c| c.sensor) {
            let triangles = &self.placed[&sensor.entity].triangles;
            for ch in &tick.characters {
                let pair = (sensor.entity, ch.entity);
                let overlap = if sensor.layers.interacts_with(ch.layers) {
                    sensor_overlap(ch.after.radii, ch.after.position, sensor, triangles)
                } else {
                    Some(false)
                };
                if let Some(overlap) = overlap {
                    assert_eq!(
                        self.inside.contains(&pair),
                        overlap,
                        "sensor {} and character {} at {}: the messages say in = {}, the reference {overlap}",
                        sensor.entity,
                        ch.entity,
                        ch.after.position,
                        !overlap
                    );
                }
            }
        }
    }

    /// The signature: the set of behaviours seen.
    pub fn signature(&self) -> u64 {
        let mut s = crate::signature::Signature::default();
        for &code in &self.codes {
            s.add(code);
        }
        s.finish()
    }
}
