//! How a door responds to the player, the one rule the game and the level
//! checker both drive: it opens by itself while the player is within its
//! trigger distance, the use key (E) opens or closes it from within reach,
//! and it turns back when it would crush the player.

use crate::conventions::DoorSpec;

/// One door's state: how open it is and where it is going.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DoorControl {
    /// 0 = closed … 1 = open.
    pub openness: f32,
    /// Set by the use key (or a squeeze): open or closed whatever the
    /// trigger says, until the player leaves the trigger distance.
    pub manual: Option<bool>,
    /// Where it was heading last tick: +1 opening, −1 closing, 0 still.
    pub moving: f32,
}

impl Default for DoorControl {
    fn default() -> Self {
        Self::closed()
    }
}

impl DoorControl {
    /// A closed door.
    pub fn closed() -> Self {
        Self {
            openness: 0.0,
            manual: None,
            moving: 0.0,
        }
    }

    /// Whether the door wants to be open now.
    pub fn wants_open(&self, spec: &DoorSpec, player_distance: f32) -> bool {
        self.manual.unwrap_or(player_distance <= spec.trigger_radius)
    }

    /// The use key was pressed `player_distance` metres from the door:
    /// within `reach` metres it toggles where the door is going.
    pub fn use_key(&mut self, spec: &DoorSpec, player_distance: f32, reach: f32) -> bool {
        if player_distance > reach {
            return false;
        }
        let open_now = if self.moving != 0.0 {
            self.moving > 0.0
        } else {
            self.wants_open(spec, player_distance)
        };
        self.manual = Some(!open_now);
        true
    }

    /// The door squeezed the player last tick: it goes back the way it came.
    pub fn squeezed(&mut self) {
        if self.moving != 0.0 {
            self.manual = Some(self.moving < 0.0);
        }
    }

    /// Advances by `dt` seconds with the player `player_distance` metres away.
    pub fn advance(&mut self, spec: &DoorSpec, player_distance: f32, dt: f32) {
        if self.manual.is_some() && player_distance > spec.trigger_radius + 1.0 {
            // Out of the trigger zone the door goes back to its own rule.
            self.manual = None;
        }
        let target = if self.wants_open(spec, player_distance) {
            1.0
        } else {
            0.0
        };
        let step = dt / spec.open_seconds.max(1e-3);
        let before = self.openness;
        self.openness = if target > before {
            (before + step).min(1.0)
        } else if target < before {
            (before - step).max(0.0)
        } else {
            before
        };
        self.moving = if self.openness == before {
            0.0
        } else {
            (self.openness - before).signum()
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conventions::DoorMotion;

    fn spec() -> DoorSpec {
        DoorSpec {
            motion: DoorMotion::Slide { offset: None },
            open_seconds: 1.0,
            trigger_radius: 2.5,
        }
    }

    #[test]
    fn opens_near_closes_away_and_the_use_key_overrides() {
        let s = spec();
        let mut d = DoorControl::closed();
        for _ in 0..30 {
            d.advance(&s, 1.0, 1.0 / 60.0);
        }
        assert!((d.openness - 0.5).abs() < 1e-4 && d.moving > 0.0);
        for _ in 0..60 {
            d.advance(&s, 1.0, 1.0 / 60.0);
        }
        assert_eq!(d.openness, 1.0);
        assert_eq!(d.moving, 0.0);
        // E closes it while standing near.
        assert!(d.use_key(&s, 1.0, 3.0));
        for _ in 0..70 {
            d.advance(&s, 1.0, 1.0 / 60.0);
        }
        assert_eq!(d.openness, 0.0);
        // Out of reach, E does nothing.
        assert!(!d.use_key(&s, 5.0, 3.0));
        // Walking away clears the override; far away it stays closed.
        d.advance(&s, 10.0, 1.0 / 60.0);
        assert_eq!(d.manual, None);
        // A squeeze while closing sends it back open.
        d.openness = 0.5;
        d.moving = -1.0;
        d.squeezed();
        d.advance(&s, 1.0, 0.1);
        assert!(d.openness > 0.5);
    }
}
