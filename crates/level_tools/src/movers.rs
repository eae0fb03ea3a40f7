//! A level's doors and lifts run tick by tick by the game's own rules: a
//! door by [`DoorControl`] (as for a player standing at it who presses the
//! use key whenever it has rested two seconds, so it opens and closes again
//! and again), a lift by its schedule; each turns back when it squeezes
//! someone, as the game's do. The level checker's walks and the crowd's
//! tests and benchmark run their movers with it.

use slidewalk_level::{DoorControl, Level, MoverKind};
use slidewalk_sweep::{PlacedCollider, Pose};

/// Seconds a door rests open or closed before the use key is pressed again.
const DOOR_REST_SECONDS: f32 = 2.0;

/// How far the key-pressing player stands from the door, metres: at it.
const AT_THE_DOOR: f32 = 0.0;

/// One door or lift on its run.
#[derive(Clone, Copy, Debug)]
struct MoverDrive {
    /// A door's state, as the game keeps it.
    door: DoorControl,
    /// Seconds a door rests before the use key is pressed.
    rest_left: f32,
    /// A lift's time on its schedule, seconds.
    lift_s: f64,
}

impl MoverDrive {
    /// Closed, and a second before the first press.
    const START: Self = Self {
        door: DoorControl {
            openness: 0.0,
            manual: Some(false),
            moving: 0.0,
        },
        rest_left: 1.0,
        lift_s: 0.0,
    };

    /// Advances by `dt` seconds.
    fn advance(&mut self, kind: &MoverKind, dt: f32) {
        match kind {
            MoverKind::Door(spec) => {
                if self.rest_left > 0.0 {
                    self.rest_left -= dt;
                    return;
                }
                if self.door.moving == 0.0 {
                    self.door.use_key(spec, AT_THE_DOOR, AT_THE_DOOR);
                }
                self.door.advance(spec, AT_THE_DOOR, dt);
                if self.door.moving == 0.0 {
                    self.rest_left = DOOR_REST_SECONDS;
                }
            }
            MoverKind::Lift(_) => self.lift_s += dt as f64,
        }
    }

    /// It squeezed a walker: back the way it came.
    fn turn_back(&mut self, kind: &MoverKind) {
        match kind {
            MoverKind::Door(_) => {
                self.door.squeezed();
                self.rest_left = 0.0;
            }
            MoverKind::Lift(lift) => self.lift_s = lift.turned_back(self.lift_s),
        }
    }
}

/// Every door and lift of a level on its run, with where each is now and
/// where it was a tick ago.
#[derive(Clone, Debug)]
pub struct MoverSchedule {
    drives: Vec<MoverDrive>,
    now: Vec<Pose>,
    before: Vec<Pose>,
}

impl MoverSchedule {
    /// Every mover of `level` at rest: doors closed (the first press of the
    /// use key a second away), lifts at the start of their schedule.
    pub fn new(level: &Level) -> Self {
        let rest: Vec<Pose> = level.movers.iter().map(|m| m.rest).collect();
        Self {
            drives: vec![MoverDrive::START; level.movers.len()],
            now: rest.clone(),
            before: rest,
        }
    }

    /// Moves every door and lift of `level` (the level this schedule was
    /// made for) on by `dt` seconds.
    pub fn advance(&mut self, level: &Level, dt: f32) {
        for (drive, m) in self.drives.iter_mut().zip(&level.movers) {
            drive.advance(&m.kind, dt);
        }
        let now = level
            .movers
            .iter()
            .zip(&self.drives)
            .map(|(m, drive)| match m.kind {
                MoverKind::Door(_) => m.pose_at(drive.door.openness),
                MoverKind::Lift(lift) => m.pose_at(lift.openness_at(drive.lift_s)),
            })
            .collect();
        self.before = std::mem::replace(&mut self.now, now);
    }

    /// Where each mover is now, in `level.movers` order.
    pub fn poses(&self) -> &[Pose] {
        &self.now
    }

    /// The level's colliders at this tick's poses: statics first, then the
    /// static parts, then the movers with their motion over the last tick
    /// (`dt` seconds) as velocities ([`Level::placed`]).
    pub fn colliders<'l>(&self, level: &'l Level, dt: f32) -> Vec<PlacedCollider<'l>> {
        level.placed(&self.now, &self.before, dt)
    }

    /// The colliders `pushing` (indices as in [`MoverSchedule::colliders`])
    /// squeezed someone: each door or lift among them turns back.
    pub fn turn_back(&mut self, level: &Level, pushing: impl IntoIterator<Item = usize>) {
        let first_mover = level.first_mover();
        for collider in pushing {
            if let Some(i) = collider.checked_sub(first_mover)
                && let (Some(drive), Some(m)) = (self.drives.get_mut(i), level.movers.get(i))
            {
                drive.turn_back(&m.kind);
            }
        }
    }
}
