//! What the two loader targets check about a load's outcome: a clean error
//! with a message, or a level whose every number the game will use is
//! finite and in range, its colliders numbered as documented (statics,
//! parts, movers) with unit one-way directions, its sensors apart.

use crate::signature::Signature;
use glam::Vec3;
use slidewalk_level::conventions::DoorMotion;
use slidewalk_level::layers::BALL_LAYERS;
use slidewalk_level::{Level, LevelError, MoverKind, SensorKind};
use slidewalk_sweep::{CollisionLayers, Ellipsoid, PlacedCollider};
use std::path::Path;

/// A directory that does not exist: relative buffer URIs resolve there, so
/// a fuzzed file never reads the real file system (see
/// [`load_without_files`]).
const NO_DIR: &str = "/nonexistent/slidewalk-fuzz";

/// Loads `bytes` as a level with relative buffer files looked up in a
/// directory that does not exist.
pub fn load_without_files(bytes: &[u8]) -> Result<Level, LevelError> {
    slidewalk_level::load_bytes(bytes, Some(Path::new(NO_DIR)), Path::new("fuzz.glb"))
}

/// Checks a load's outcome; panics when an invariant breaks. Returns a
/// behaviour signature.
pub fn check(result: Result<Level, LevelError>) -> u64 {
    let mut sig = Signature::default();
    match result {
        Err(e) => {
            let message = e.to_string();
            assert!(!message.trim().is_empty(), "an error without a message: {e:?}");
            sig.add(1);
            // The variant and the message's words (numbers removed).
            sig.add_text(message.split(':').nth(1).unwrap_or(&message));
        }
        Ok(level) => {
            sig.add(2);
            check_level(&level, &mut sig);
        }
    }
    sig.finish()
}

fn finite_in(v: f32, lo: f32, hi: f32) -> bool {
    v.is_finite() && (lo..=hi).contains(&v)
}

/// `None`, or a finite unit direction.
fn unit_or_none(d: Option<Vec3>) -> bool {
    d.is_none_or(|d| d.is_finite() && (d.length() - 1.0).abs() < 1e-3)
}

/// The one-way and layered parts and the sensors: finite, with unit
/// directions and surfaces that exist, counted in the report.
fn check_parts_and_sensors(level: &Level, sig: &mut Signature) {
    for p in &level.parts {
        let b = p.collider.bounds();
        assert!(b.min.is_finite() && b.max.is_finite(), "part {}: bounds {b:?}", p.name);
        assert!(
            (p.surface as usize) < level.surfaces.len(),
            "part {}: surface {}",
            p.name,
            p.surface
        );
        assert!(unit_or_none(p.one_way), "part {}: one-way {:?}", p.name, p.one_way);
        assert!(
            p.launch
                .is_none_or(|v| v.is_finite() && v.length() <= slidewalk_level::MAX_LAUNCH_SPEED),
            "part {}: launch {:?}",
            p.name,
            p.launch
        );
        assert!(
            p.conveyor.is_none_or(|v| v.is_finite()
                && v != Vec3::ZERO
                && v.length() <= slidewalk_level::MAX_CONVEYOR_SPEED * 1.0001),
            "part {}: conveyor {:?}",
            p.name,
            p.conveyor
        );
        assert!(
            p.one_way.is_some()
                || p.layers != CollisionLayers::ALL
                || p.climbable
                || p.launch.is_some()
                || p.conveyor.is_some(),
            "part {} is none of one-way, layered, climbable, a launch pad, a conveyor",
            p.name
        );
        sig.add(
            400 + p.one_way.is_some() as u64
                + 2 * (p.layers != CollisionLayers::ALL) as u64
                + 4 * p.climbable as u64
                + 8 * p.launch.is_some() as u64
                + 16 * p.conveyor.is_some() as u64,
        );
    }
    for s in &level.sensors {
        let b = s.collider.bounds();
        assert!(
            b.min.is_finite() && b.max.is_finite(),
            "sensor {}: bounds {b:?}",
            s.name
        );
        assert!(!s.kind.word().trim().is_empty(), "sensor {}: {:?}", s.name, s.kind);
        sig.add(match s.kind {
            SensorKind::Kill => 500,
            SensorKind::Checkpoint => 501,
            SensorKind::Named(_) => 502,
        });
    }
    for w in &level.water {
        let b = w.collider.bounds();
        assert!(b.min.is_finite() && b.max.is_finite(), "water {}: bounds {b:?}", w.name);
        assert!(
            w.pose.translation.is_finite() && w.pose.rotation.is_finite(),
            "water {}: pose {:?}",
            w.name,
            w.pose
        );
        sig.add(550);
    }
    for m in &level.movers {
        assert!(unit_or_none(m.one_way), "{}: one-way {:?}", m.name, m.one_way);
        sig.add(600 + m.one_way.is_some() as u64 + 2 * (m.layers != CollisionLayers::ALL) as u64);
    }
    assert_eq!(
        (level.report.parts, level.report.sensors),
        (level.parts.len(), level.sensors.len())
    );
    let placed = level.placed_at_rest();
    assert_eq!(placed.len(), level.first_mover() + level.movers.len());
    for (c, p) in placed.iter().enumerate() {
        assert!(unit_or_none(p.one_way), "placed {c}: one-way {:?}", p.one_way);
    }
    // A ball dropped through everything that collides: a finite answer.
    let b = PlacedCollider::world_bounds_of(&placed);
    let ball = Ellipsoid::sphere(0.1).expect("valid radius");
    let top = b.center() + Vec3::Y * (b.size().y * 0.5 + 1.0);
    let down = Vec3::NEG_Y * (b.size().y + 2.0);
    if top.is_finite()
        && down.is_finite()
        && let Some(h) = slidewalk_sweep::sweep_with(&ball, top, down, &placed, BALL_LAYERS, ())
    {
        assert!(h.point.is_finite() && (0.0..=1.0).contains(&h.time), "{h:?}");
        assert!(h.collider < placed.len());
    }
}

fn check_level(level: &Level, sig: &mut Signature) {
    if let Some(statics) = &level.statics {
        let b = statics.bounds();
        assert!(b.min.is_finite() && b.max.is_finite(), "static bounds {b:?}");
        let inputs = statics.report().input_triangles;
        assert_eq!(level.static_surfaces.len(), inputs, "a surface per static triangle");
        assert_eq!(
            level.static_analytic.len(),
            inputs,
            "an analytic flag per static triangle"
        );
        sig.add(10 + statics.len().min(64) as u64);
    }
    for s in &level.static_surfaces {
        assert!((*s as usize) < level.surfaces.len(), "surface index {s}");
    }
    for s in &level.surfaces {
        assert!(finite_in(s.friction, 0.0, 1.0), "friction {}", s.friction);
    }
    for spawn in &level.spawns {
        assert!(spawn.position.is_finite() && spawn.yaw.is_finite(), "spawn {spawn:?}");
    }
    sig.add(100 + level.spawns.len().min(4) as u64);
    for a in &level.analytic {
        assert!(a.triangles.start <= a.triangles.end);
        assert!(
            a.triangles.end as usize <= level.static_analytic.len(),
            "analytic range {:?}",
            a.triangles
        );
        let d = a.shape.signed_distance(Vec3::new(0.5, 1.5, -0.5));
        assert!(!d.is_nan(), "signed distance of {} is NaN", a.name);
        if let Some(b) = a.shape.bounds() {
            assert!(b.min.is_finite() && b.max.is_finite(), "bounds of {}: {b:?}", a.name);
        }
        sig.add(200 + matches!(a.shape, slidewalk_sweep::AnalyticShape::Plane(_)) as u64);
    }
    for m in &level.movers {
        let rest = m.rest;
        assert!(
            rest.translation.is_finite(),
            "{}: rest translation {}",
            m.name,
            rest.translation
        );
        assert!(
            rest.rotation.is_finite() && (rest.rotation.length() - 1.0).abs() < 1e-3,
            "{}: rest rotation {}",
            m.name,
            rest.rotation
        );
        let b = m.collider.bounds();
        assert!(b.min.is_finite() && b.max.is_finite(), "{}: bounds {b:?}", m.name);
        for o in [0.0, 0.25, 1.0] {
            let p = m.pose_at(o);
            assert!(
                p.translation.is_finite() && p.rotation.is_finite(),
                "{}: pose at {o} is {p:?}",
                m.name
            );
        }
        match m.kind {
            MoverKind::Door(d) => {
                assert!(d.open_seconds.is_finite() && d.open_seconds > 0.0, "{}: {d:?}", m.name);
                assert!(
                    d.trigger_radius.is_finite() && d.trigger_radius > 0.0,
                    "{}: {d:?}",
                    m.name
                );
                match d.motion {
                    DoorMotion::Hinge { axis, angle } => {
                        assert!(
                            (axis.length() - 1.0).abs() < 1e-3 && angle.is_finite(),
                            "{}: {d:?}",
                            m.name
                        );
                    }
                    DoorMotion::Slide { offset } => {
                        assert!(
                            offset.is_some_and(|o| o.is_finite()),
                            "{}: slide offset {offset:?}",
                            m.name
                        );
                    }
                }
                sig.add(300);
            }
            MoverKind::Lift(l) => {
                assert!(l.travel.is_finite() && l.travel != Vec3::ZERO, "{}: {l:?}", m.name);
                let cycle = l.cycle_seconds();
                assert!(
                    cycle.is_finite() && cycle > 0.0,
                    "{}: a lift cycle of {cycle} s ({l:?})",
                    m.name
                );
                for t in [0.0, 1.0, 7.5, 1e4] {
                    let o = l.openness_at(t);
                    assert!(finite_in(o, 0.0, 1.0), "{}: openness {o} at {t} s ({l:?})", m.name);
                }
                sig.add(301);
            }
        }
    }
    for c in 0..level.first_mover() + level.movers.len() + 1 {
        let f = level.friction(c, 0);
        assert!(finite_in(f, 0.0, 1.0), "friction({c}, 0) = {f}");
    }
    check_parts_and_sensors(level, sig);
    // A ball dropped onto the static geometry: no panic, a finite answer.
    if let Some(statics) = &level.statics {
        let b = statics.bounds();
        let ball = Ellipsoid::sphere(0.1).expect("valid radius");
        let top = b.center() + Vec3::Y * (b.size().y * 0.5 + 1.0);
        if top.is_finite() {
            let hit = slidewalk_sweep::sweep(
                &ball,
                top,
                Vec3::NEG_Y * (b.size().y + 2.0),
                &[PlacedCollider::fixed(statics)],
            );
            if let Some(h) = hit {
                assert!(h.point.is_finite() && (0.0..=1.0).contains(&h.time), "{h:?}");
            }
        }
    }
}
