//! The buttons a script holds (jump, crouch, sprint, use, throw, drop, dash): by field,
//! and by index in the order a script step lists them. Shared by the script
//! format, its player and recorder, the start state and the rewind buffer.

/// The buttons a script holds, in [`Step::buttons`](crate::Step::buttons) order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buttons {
    /// Jump.
    pub jump: bool,
    /// Crouch.
    pub crouch: bool,
    /// Sprint.
    pub sprint: bool,
    /// Use (open or close a door).
    pub use_key: bool,
    /// Throw a ball (held: charging; let go: thrown).
    pub throw: bool,
    /// Drop down through the one-way platform stood on (a press).
    pub drop: bool,
    /// Dash (a press: Q, or the gamepad's west button).
    pub dash: bool,
}

/// How many buttons a script holds.
pub const BUTTON_COUNT: usize = 7;
/// The buttons' names in a script, by index.
pub(crate) const BUTTONS: [&str; BUTTON_COUNT] = ["jump", "crouch", "sprint", "use", "throw", "drop", "dash"];

impl Buttons {
    /// Button `i` (in [`BUTTONS`] order) held.
    pub(crate) fn get(&self, i: usize) -> bool {
        [
            self.jump,
            self.crouch,
            self.sprint,
            self.use_key,
            self.throw,
            self.drop,
            self.dash,
        ][i]
    }

    /// Holds (or lets go of) button `i` (in [`BUTTONS`] order).
    pub(crate) fn set(&mut self, i: usize, v: bool) {
        *[
            &mut self.jump,
            &mut self.crouch,
            &mut self.sprint,
            &mut self.use_key,
            &mut self.throw,
            &mut self.drop,
            &mut self.dash,
        ][i] = v;
    }
}

/// Either held: what two devices (keyboard and gamepad) hold together.
impl std::ops::BitOr for Buttons {
    type Output = Buttons;

    fn bitor(self, other: Buttons) -> Buttons {
        let mut both = self;
        for i in 0..BUTTON_COUNT {
            both.set(i, self.get(i) || other.get(i));
        }
        both
    }
}

impl std::ops::BitOrAssign for Buttons {
    fn bitor_assign(&mut self, other: Buttons) {
        *self = *self | other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_is_set_and_read_by_its_index() {
        assert_eq!(BUTTONS.len(), BUTTON_COUNT);
        for (i, set) in BUTTONS.iter().enumerate() {
            let mut b = Buttons::default();
            b.set(i, true);
            for (j, read) in BUTTONS.iter().enumerate() {
                assert_eq!(b.get(j), i == j, "{set} set, {read} read");
            }
        }
        let mut b = Buttons::default();
        b.set(BUTTONS.iter().position(|n| *n == "dash").unwrap(), true);
        assert_eq!(
            b,
            Buttons {
                dash: true,
                ..Buttons::default()
            }
        );
    }

    #[test]
    fn two_devices_hold_what_either_holds() {
        let keys = Buttons {
            jump: true,
            sprint: true,
            ..Buttons::default()
        };
        let mut pad = Buttons {
            sprint: true,
            dash: true,
            ..Buttons::default()
        };
        let both = keys | pad;
        assert_eq!(
            both,
            Buttons {
                jump: true,
                sprint: true,
                dash: true,
                ..Buttons::default()
            }
        );
        pad |= keys;
        assert_eq!(pad, both);
        assert_eq!(Buttons::default() | Buttons::default(), Buttons::default());
    }
}
