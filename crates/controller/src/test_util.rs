//! Test courses and a small simulation harness, shared by the tests, the
//! benchmark and the behaviour table: geometry built in a canonical frame
//! (metres, y up, walking along −z), placed in the world by any rotation
//! (so the same course runs under any gravity), movers posed by time, and
//! every tick checked by brute force for penetration and non-finite values.

use crate::{CharacterState, Controller, ControllerConfig, Intent, Surroundings, TickReport};
use glam::{Quat, Vec3};
use slidewalk_sweep::test_util::{Soup, min_espace_distance};
use slidewalk_sweep::{Ellipsoid, MeshCollider, PlacedCollider, Pose};

/// Adds a 1 m thick slab whose top is `y`, spanning x and z in `-half..half`.
pub fn slab(s: &mut Soup, half: f32, y: f32) {
    s.cuboid(Vec3::new(-half, y - 1.0, -half), Vec3::new(half, y, half));
}

/// Adds a ramp of `angle_deg` climbing along −z from the ground at
/// `foot_z` to `height`, `width` wide (centred on x = 0), with a platform
/// `platform` metres deep at its top. Returns the z of the crest.
pub fn ramp(s: &mut Soup, foot_z: f32, angle_deg: f32, height: f32, width: f32, platform: f32) -> f32 {
    let run = height / angle_deg.to_radians().tan();
    let crest = foot_z - run;
    let (x0, x1) = (-width / 2.0, width / 2.0);
    let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    // Slope, back and sides of the wedge.
    s.quad(
        p(x0, 0.0, foot_z),
        p(x1, 0.0, foot_z),
        p(x1, height, crest),
        p(x0, height, crest),
    );
    s.tri(p(x0, 0.0, foot_z), p(x0, height, crest), p(x0, 0.0, crest));
    s.tri(p(x1, 0.0, foot_z), p(x1, 0.0, crest), p(x1, height, crest));
    s.cuboid(p(x0, 0.0, crest - platform), p(x1, height, crest));
    crest
}

/// Adds a flight of `steps` risers of `rise` metres with treads `run` deep,
/// going up along −z from `front_z`, `width` wide centred on x = 0, and a
/// landing `landing` deep. Returns the z of the landing's far edge.
pub fn stairs(s: &mut Soup, front_z: f32, rise: f32, run: f32, steps: u32, landing: f32, width: f32) -> f32 {
    let mut z = front_z;
    for i in 0..steps {
        let depth = if i + 1 == steps { landing } else { run };
        s.cuboid(
            Vec3::new(-width / 2.0, 0.0, z - depth),
            Vec3::new(width / 2.0, rise * (i + 1) as f32, z),
        );
        z -= depth;
    }
    z
}

/// A collider that moves: its pose as a function of time (seconds).
pub struct Mover {
    /// Triangles in the mover's own frame (canonical frame).
    pub collider: MeshCollider,
    /// Pose at time t, canonical frame.
    pub pose: Box<dyn Fn(f64) -> Pose>,
    /// Friction of its surface.
    pub friction: f32,
    /// Its steep faces can be climbed.
    pub climbable: bool,
}

/// What one tick did, in the canonical frame.
#[derive(Clone, Debug)]
pub struct Tick {
    /// Centre after the tick (canonical frame), metres.
    pub position: Vec3,
    /// Own velocity (canonical frame), m/s.
    pub velocity: Vec3,
    /// Standing on ground after the tick.
    pub grounded: bool,
    /// Time at the end of the tick, seconds.
    pub time: f64,
    /// The controller's report.
    pub report: TickReport,
    /// Smallest eSpace distance to any triangle (1 = touching).
    pub clearance: f32,
}

/// A character on a course: the controller, its state, the colliders, the
/// clock, and the frame the course is placed in.
pub struct Sim {
    /// The controller.
    pub controller: Controller,
    /// The character.
    pub state: CharacterState,
    /// Static colliders with their friction (index = collider index).
    pub statics: Vec<(MeshCollider, f32)>,
    /// Moving colliders (indices after the statics).
    pub movers: Vec<Mover>,
    /// Which statics are one-way along the canonical +Y (by index).
    pub one_way: Vec<usize>,
    /// Which statics are climbable (by index).
    pub climbable: Vec<usize>,
    /// Statics that are launch pads (by index), with their velocity (canonical frame, m/s).
    pub launch_pads: Vec<(usize, Vec3)>,
    /// Statics that are conveyors (by index), with their surface velocity (canonical frame, m/s).
    pub conveyors: Vec<(usize, Vec3)>,
    /// Boxes of water (canonical frame, min and max corners, metres).
    pub water: Vec<(Vec3, Vec3)>,
    /// Seconds simulated.
    pub time: f64,
    /// Tick length, seconds.
    pub dt: f32,
    /// World from canonical: the course and everything in it is rotated by this.
    pub frame: Quat,
    /// Panic on any tick that ends penetrating (by more than 1e-4 of the
    /// radius) or non-finite, unless the tick reported `crushed`.
    pub check: bool,
}

impl Sim {
    /// A course (canonical frame) placed by `frame`, with the character's
    /// feet at `feet` (canonical) and gravity turned with the frame.
    pub fn new(mut config: ControllerConfig, course: &Soup, frame: Quat, feet: Vec3, hz: f32) -> Self {
        config.gravity = frame * config.gravity;
        let controller = Controller::new(config).expect("valid test config");
        let world_soup = Soup {
            positions: course.positions.iter().map(|p| frame * *p).collect(),
            triangles: course.triangles.clone(),
        };
        let collider = MeshCollider::build(&world_soup.positions, &world_soup.triangles).expect("course has triangles");
        Self {
            state: CharacterState::standing_at(frame * feet, controller.config()),
            controller,
            statics: vec![(collider, 1.0)],
            movers: Vec::new(),
            one_way: Vec::new(),
            climbable: Vec::new(),
            launch_pads: Vec::new(),
            conveyors: Vec::new(),
            water: Vec::new(),
            time: 0.0,
            dt: 1.0 / hz,
            frame,
            check: true,
        }
    }

    /// Adds another static collider (canonical frame) with its friction.
    pub fn add_static(&mut self, soup: &Soup, friction: f32) {
        let positions: Vec<Vec3> = soup.positions.iter().map(|p| self.frame * *p).collect();
        let collider = MeshCollider::build(&positions, &soup.triangles).expect("collider has triangles");
        self.statics.push((collider, friction));
    }

    /// Adds a static collider (canonical frame) that is one-way along the
    /// canonical +Y: solid from above only (a platform to jump up through
    /// and drop down through).
    pub fn add_one_way(&mut self, soup: &Soup, friction: f32) {
        self.one_way.push(self.statics.len());
        self.add_static(soup, friction);
    }

    /// Adds a static collider (canonical frame) whose steep faces can be climbed.
    pub fn add_climbable(&mut self, soup: &Soup) {
        self.climbable.push(self.statics.len());
        self.add_static(soup, 1.0);
    }

    /// Adds a static collider (canonical frame) that launches a character
    /// standing on it at `velocity` (canonical frame, m/s).
    pub fn add_launch_pad(&mut self, soup: &Soup, velocity: Vec3) {
        self.launch_pads.push((self.statics.len(), velocity));
        self.add_static(soup, 1.0);
    }

    /// Adds a static collider (canonical frame) that is a conveyor moving
    /// its surface at `velocity` (canonical frame, m/s).
    pub fn add_conveyor(&mut self, soup: &Soup, velocity: Vec3) {
        self.conveyors.push((self.statics.len(), velocity));
        self.add_static(soup, 1.0);
    }

    /// Adds a box of water (canonical frame, corners in metres; its
    /// surface is its top along the canonical +Y).
    pub fn add_water(&mut self, min: Vec3, max: Vec3) {
        self.water.push((min, max));
    }

    /// Adds a mover: `soup` in its own frame, posed (canonical frame) by `pose(t)`.
    pub fn add_mover(&mut self, soup: &Soup, friction: f32, pose: impl Fn(f64) -> Pose + 'static) {
        self.add_mover_with(soup, friction, false, pose);
    }

    /// Adds a mover whose steep faces can be climbed (a ladder on a lift).
    pub fn add_climbable_mover(&mut self, soup: &Soup, pose: impl Fn(f64) -> Pose + 'static) {
        self.add_mover_with(soup, 1.0, true, pose);
    }

    fn add_mover_with(&mut self, soup: &Soup, friction: f32, climbable: bool, pose: impl Fn(f64) -> Pose + 'static) {
        let positions: Vec<Vec3> = soup.positions.iter().map(|p| self.frame * *p).collect();
        let collider = MeshCollider::build(&positions, &soup.triangles).expect("mover has triangles");
        let frame = self.frame;
        self.movers.push(Mover {
            collider,
            // Conjugate by the frame: rotate the canonical pose into the world.
            pose: Box::new(move |t| {
                let p = pose(t);
                Pose {
                    rotation: frame * p.rotation * frame.inverse(),
                    translation: frame * p.translation,
                }
            }),
            friction,
            climbable,
        });
    }

    /// The colliders at the end of the tick that ends at `t`, with their
    /// motion over that tick as velocities.
    fn placed<'s>(
        statics: &'s [(MeshCollider, f32)],
        movers: &'s [Mover],
        one_way: (&[usize], Vec3),
        dt: f32,
        t: f64,
    ) -> Vec<PlacedCollider<'s>> {
        let mut placed: Vec<PlacedCollider<'_>> = statics
            .iter()
            .enumerate()
            .map(|(i, (c, _))| PlacedCollider::fixed(c).with_one_way(one_way.0.contains(&i).then_some(one_way.1)))
            .collect();
        for m in movers {
            let (now, before) = ((m.pose)(t), (m.pose)(t - dt as f64));
            placed.push(PlacedCollider::from_poses(&m.collider, before, now, dt));
        }
        placed
    }

    /// One tick with `intent` given in the canonical frame.
    pub fn tick(&mut self, intent: Intent) -> Tick {
        let t = self.time + self.dt as f64;
        let placed = Self::placed(
            &self.statics,
            &self.movers,
            (&self.one_way, self.frame * Vec3::Y),
            self.dt,
            t,
        );
        let before = self.state;
        let frictions: Vec<f32> = self
            .statics
            .iter()
            .map(|(_, f)| *f)
            .chain(self.movers.iter().map(|m| m.friction))
            .collect();
        let friction = move |c: usize, _t: u32| frictions.get(c).copied().unwrap_or(1.0);
        let statics = self.statics.len();
        let climbable =
            |c: usize| self.climbable.contains(&c) || c.checked_sub(statics).is_some_and(|m| self.movers[m].climbable);
        let frame = self.frame;
        let pads = &self.launch_pads;
        let launch_pad = move |c: usize| pads.iter().find(|(i, _)| *i == c).map(|(_, v)| frame * *v);
        let belts = &self.conveyors;
        let conveyor = move |c: usize| belts.iter().find(|(i, _)| *i == c).map(|(_, v)| frame * *v);
        let pools = &self.water;
        let water = move |p: Vec3, _up: Vec3| {
            let p = frame.inverse() * p;
            pools
                .iter()
                .filter(|(min, max)| p.cmpge(*min).all() && p.cmple(*max).all())
                .map(|(_, max)| max.y - p.y)
                .reduce(f32::max)
        };
        let world = Surroundings::new(&placed)
            .with_friction(&friction)
            .with_climbable(&climbable)
            .with_launch_pads(&launch_pad)
            .with_conveyors(&conveyor)
            .with_water(&water);
        let intent = Intent {
            direction: self.frame * intent.direction,
            facing: self.frame * intent.facing,
            launch: self.frame * intent.launch,
            ..intent
        };
        let report = self
            .controller
            .tick(&mut self.state, &intent, &world, self.dt)
            .expect("valid tick");
        let clearance = clearance_after(&before, &self.state, report.dropped, &placed);
        if self.check && !report.crushed {
            assert!(
                self.state.position.is_finite() && self.state.velocity.is_finite(),
                "non-finite state at t = {t}: {:?}",
                self.state
            );
            let depth = crate::penetration_after_tick(
                &before,
                &self.state,
                report.dropped,
                &placed,
                slidewalk_sweep::CollisionLayers::ALL,
            );
            assert!(
                depth <= 1e-4 && clearance >= 1.0 - 1e-4,
                "penetrating by {depth:.2e} of the radius (brute force: {:.2e}) at t = {t}, canonical position {}",
                1.0 - clearance,
                self.frame.inverse() * self.state.position
            );
        }
        self.time = t;
        Tick {
            position: self.frame.inverse() * self.state.position,
            velocity: self.frame.inverse() * self.state.velocity,
            grounded: self.state.grounded(),
            time: t,
            report,
            clearance,
        }
    }

    /// Replaces the configuration where the character is now (see
    /// [`Controller::reconfigure`]); the new radii must fit, unpenetrating.
    pub fn reconfigure(&mut self, config: ControllerConfig) -> Result<(), crate::ReconfigureError> {
        let placed = Self::placed(
            &self.statics,
            &self.movers,
            (&self.one_way, self.frame * Vec3::Y),
            self.dt,
            self.time,
        );
        let result = self
            .controller
            .reconfigure(config, &mut self.state, &Surroundings::new(&placed));
        if self.check {
            let clearance = clearance(&self.state, &placed);
            assert!(
                clearance >= 1.0 - 1e-4,
                "reconfigured into geometry: clearance {clearance}"
            );
        }
        result
    }

    /// Ticks for `seconds` with the same intent.
    pub fn run(&mut self, seconds: f32, intent: Intent) -> Vec<Tick> {
        let n = (seconds / self.dt).round() as usize;
        (0..n).map(|_| self.tick(intent)).collect()
    }

    /// Centre in the canonical frame, metres.
    pub fn position(&self) -> Vec3 {
        self.frame.inverse() * self.state.position
    }

    /// Feet in the canonical frame, metres.
    pub fn feet(&self) -> Vec3 {
        self.frame.inverse() * self.state.feet()
    }
}

/// Smallest eSpace distance from the character to any placed triangle (brute force).
pub fn clearance(state: &CharacterState, placed: &[PlacedCollider<'_>]) -> f32 {
    clearance_after(state, state, false, placed)
}

/// Smallest eSpace distance from the character after a tick (`after`) to
/// any placed triangle that is solid for it, by brute force over every
/// triangle (no BVH): those [`crate::solid_after_tick`] keeps, the rule of
/// [`crate::penetration_after_tick`] (one-way surfaces count only where
/// they held the body at the tick's start, in both its shapes, it ended
/// over them and no drop through them was under way or `dropped`).
pub fn clearance_after(
    before: &CharacterState,
    after: &CharacterState,
    dropped: bool,
    placed: &[PlacedCollider<'_>],
) -> f32 {
    let Ok(e) = Ellipsoid::new(after.radii) else {
        return f32::NAN;
    };
    placed
        .iter()
        .enumerate()
        .map(|(ci, p)| {
            let tris: Vec<[Vec3; 3]> = (0..p.mesh.len())
                .filter(|&slot| crate::solid_after_tick(before, after, dropped, ci, p, slot))
                .map(|slot| p.mesh.triangle(slot).map(|v| p.pose.transform_point(v)))
                .collect();
            min_espace_distance(&e, after.position, &tris)
        })
        .fold(f32::INFINITY, f32::min)
}

/// Walk forward (−z in the canonical frame) at full speed.
pub fn forward() -> Intent {
    Intent {
        direction: Vec3::NEG_Z,
        ..Intent::default()
    }
}

/// The frames the "any gravity" tests use: y up, x up (gravity −x), −z up (gravity +z).
pub fn gravity_frames() -> [(&'static str, Quat); 3] {
    [
        ("gravity -y", Quat::IDENTITY),
        ("gravity -x", Quat::from_rotation_arc(Vec3::Y, Vec3::X)),
        ("gravity +z", Quat::from_rotation_arc(Vec3::Y, Vec3::NEG_Z)),
    ]
}
