//! The controller's settings that are not numbers: the on/off ones
//! ([`SWITCHES`]: bunny hopping, catching ledges, a pushed body's mass
//! slowing the pusher) and what a moving platform's velocity leaves with a
//! character leaving it ([`PlatformMomentum`], by name). The panel shows a
//! checkbox each and a choice of three; the JSON form reads and writes
//! them under their field names.

use slidewalk_controller::{ControllerConfig, PlatformMomentum};

/// One on/off setting of [`ControllerConfig`].
#[derive(Clone, Copy, Debug)]
pub struct Switch {
    /// Field name (the settings file's key).
    pub key: &'static str,
    /// What the panel calls it.
    pub label: &'static str,
    /// What turning it on does (the panel's hover text).
    pub help: &'static str,
    get: fn(&ControllerConfig) -> bool,
    pub(super) set: fn(&mut ControllerConfig, bool),
}

impl Switch {
    /// The value in `config`.
    pub fn get(&self, config: &ControllerConfig) -> bool {
        (self.get)(config)
    }
}

macro_rules! switch {
    ($key:ident, $label:expr, $help:expr) => {
        Switch {
            key: stringify!($key),
            label: $label,
            help: $help,
            get: |c| c.$key,
            set: |c, on| c.$key = on,
        }
    };
}

/// Every on/off setting, in the panel's order.
pub const SWITCHES: [Switch; 3] = [
    switch!(
        auto_hop,
        "bunny hop (auto hop)",
        "With jump held, landing jumps again at once, before the ground's friction takes any speed."
    ),
    switch!(
        ledge_grab,
        "catch ledges",
        "Falling past a ledge while moving towards it (or walking off one crouched) hangs from it: jump or forward pulls up, back or crouch lets go."
    ),
    switch!(
        pushed_mass_slows,
        "pushed mass slows",
        "A physics body's mass holds back the character pushing it (off: only the max push force does)."
    ),
];

/// The settings file's key for [`ControllerConfig::platform_momentum`].
pub const PLATFORM_MOMENTUM_KEY: &str = "platform_momentum";

/// The platform momentum choices, in the panel's order, with their hover text.
pub const PLATFORM_MOMENTUM_CHOICES: [(PlatformMomentum, &str); 3] = [
    (
        PlatformMomentum::All,
        "Leaving a moving platform keeps all of its velocity.",
    ),
    (
        PlatformMomentum::Horizontal,
        "Keeps its velocity across \"up\": a lift's rise is dropped, a train's run kept.",
    ),
    (PlatformMomentum::None, "Leaves with the character's own velocity only."),
];

/// The switch called `key`.
pub fn switch(key: &str) -> Option<&'static Switch> {
    SWITCHES.iter().find(|s| s.key == key)
}

/// `config` with the switch `key` on or off, or why not.
pub fn set_switch(config: &ControllerConfig, key: &str, on: bool) -> Result<ControllerConfig, String> {
    let s = switch(key).ok_or_else(|| format!("there is no switch called {key:?}"))?;
    let mut c = *config;
    (s.set)(&mut c, on);
    Ok(c)
}

/// The platform momentum called `name` (`"all"`, `"horizontal"`, `"none"`),
/// or what is wrong with it, naming the key.
pub fn platform_momentum(name: &str) -> Result<PlatformMomentum, String> {
    PlatformMomentum::from_name(name).ok_or_else(|| {
        let names: Vec<String> = PLATFORM_MOMENTUM_CHOICES
            .iter()
            .map(|(m, _)| format!("{:?}", m.name()))
            .collect();
        format!(
            "{PLATFORM_MOMENTUM_KEY} must be one of {}, got {name:?}",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_writes_its_own_field_and_the_choices_are_named() {
        let base = ControllerConfig::default();
        for s in SWITCHES {
            let on = !s.get(&base);
            let c = set_switch(&base, s.key, on).unwrap();
            assert_eq!(s.get(&c), on, "{}", s.key);
            assert_eq!(set_switch(&c, s.key, !on).unwrap(), base, "{}", s.key);
        }
        assert!(set_switch(&base, "auto_jump", true).unwrap_err().contains("no switch"));
        for (m, _) in PLATFORM_MOMENTUM_CHOICES {
            assert_eq!(platform_momentum(m.name()), Ok(m));
        }
        let e = platform_momentum("sideways").unwrap_err();
        assert!(
            e.starts_with("platform_momentum") && e.contains("\"horizontal\""),
            "{e}"
        );
    }
}
