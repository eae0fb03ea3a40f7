//! The buttons a script holds (jump, crouch, sprint, use, throw, drop): by field,
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
}

/// How many buttons a script holds.
pub const BUTTON_COUNT: usize = 6;
/// The buttons' names in a script, by index.
pub(crate) const BUTTONS: [&str; BUTTON_COUNT] = ["jump", "crouch", "sprint", "use", "throw", "drop"];

impl Buttons {
    /// Button `i` (in [`BUTTONS`] order) held.
    pub(crate) fn get(&self, i: usize) -> bool {
        [self.jump, self.crouch, self.sprint, self.use_key, self.throw, self.drop][i]
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
        ][i] = v;
    }
}
