//! The doors and lifts of a walk, moved by the game's own rules: a door by
//! [`DoorControl`] (as for a player standing at it who presses the use key
//! whenever it has rested two seconds, so it opens and closes again and
//! again), a lift by its schedule; each turns back when it squeezes a
//! walker, as the game's do.

use level::{DoorControl, Level, MoverKind};
use sweep::Pose;

/// Seconds a door rests open or closed before the use key is pressed again.
const DOOR_REST_SECONDS: f32 = 2.0;

/// How far the key-pressing player stands from the door, metres: at it.
const AT_THE_DOOR: f32 = 0.0;

/// One door or lift during a walk.
#[derive(Clone, Copy, Debug)]
pub(super) struct MoverDrive {
    /// A door's state, as the game keeps it.
    door: DoorControl,
    /// Seconds a door rests before the use key is pressed.
    rest_left: f32,
    /// A lift's time on its schedule, seconds.
    lift_s: f64,
}

impl MoverDrive {
    /// Closed, and a second before the first press.
    pub(super) const START: Self = Self {
        door: DoorControl {
            openness: 0.0,
            manual: Some(false),
            moving: 0.0,
        },
        rest_left: 1.0,
        lift_s: 0.0,
    };

    /// Advances by `dt` seconds.
    pub(super) fn advance(&mut self, kind: &MoverKind, dt: f32) {
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
    pub(super) fn turn_back(&mut self, kind: &MoverKind) {
        match kind {
            MoverKind::Door(_) => {
                self.door.squeezed();
                self.rest_left = 0.0;
            }
            MoverKind::Lift(lift) => self.lift_s = lift.turned_back(self.lift_s),
        }
    }
}

/// Where every mover of `level` is, given their drives.
pub(super) fn mover_poses(level: &Level, drives: &[MoverDrive]) -> Vec<Pose> {
    level
        .movers
        .iter()
        .zip(drives)
        .map(|(m, drive)| match m.kind {
            MoverKind::Door(_) => m.pose_at(drive.door.openness),
            MoverKind::Lift(lift) => m.pose_at(lift.openness_at(drive.lift_s)),
        })
        .collect()
}
