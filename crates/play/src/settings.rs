//! The player's settings — controller tunables, which debug overlays are
//! on, panel and view choices, the gamepad's look — saved as JSON in the user's config
//! directory on every change and restored at the next start. A file that
//! cannot be read or holds bad values gives a warning and the defaults
//! for what was bad, never a crash.

use crate::tuning::{config_from_json, config_to_json};
use serde_json::{Value, json};
use slidewalk_controller::ControllerConfig;
use std::path::{Path, PathBuf};

/// A debug overlay, toggled by its function key and in the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Overlay {
    /// This tick's contact points and normals, by kind and role (F1).
    Contacts,
    /// A translucent quad per contact plane, fading over a second (F2).
    SlidePlanes,
    /// The ellipsoid and the intended and actual velocities (F3).
    Ellipsoid,
    /// Past positions, a few seconds (F4).
    Trail,
    /// The BVH nodes the tick's sweeps reach (F5).
    Bvh,
    /// Door and lift colliders (F6).
    Movers,
    /// The ground normal and its slope against the walkable limit (F7).
    Ground,
    /// The crosshair (F8), on by default.
    Crosshair,
    /// The level's one-way surfaces and layered parts, its sensors and
    /// the doors' trigger zones (F9).
    Filters,
}

impl Overlay {
    /// Every overlay, in function-key order (F1 first).
    pub const ALL: [Overlay; 9] = [
        Overlay::Contacts,
        Overlay::SlidePlanes,
        Overlay::Ellipsoid,
        Overlay::Trail,
        Overlay::Bvh,
        Overlay::Movers,
        Overlay::Ground,
        Overlay::Crosshair,
        Overlay::Filters,
    ];

    /// Name in the settings file.
    pub fn key(self) -> &'static str {
        match self {
            Overlay::Contacts => "contacts",
            Overlay::SlidePlanes => "slide_planes",
            Overlay::Ellipsoid => "ellipsoid",
            Overlay::Trail => "trail",
            Overlay::Bvh => "bvh",
            Overlay::Movers => "movers",
            Overlay::Ground => "ground",
            Overlay::Crosshair => "crosshair",
            Overlay::Filters => "one_way_and_sensors",
        }
    }

    /// What the panel calls it.
    pub fn label(self) -> &'static str {
        match self {
            Overlay::Contacts => "contacts",
            Overlay::SlidePlanes => "slide planes",
            Overlay::Ellipsoid => "ellipsoid and velocities",
            Overlay::Trail => "trail",
            Overlay::Bvh => "BVH nodes visited",
            Overlay::Movers => "door and lift colliders",
            Overlay::Ground => "ground normal and slope",
            Overlay::Crosshair => "crosshair",
            Overlay::Filters => "one-way surfaces and sensors",
        }
    }

    /// Function key number (1 = F1).
    pub fn function_key(self) -> usize {
        Self::ALL.iter().position(|o| *o == self).unwrap_or(0) + 1
    }

    fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.key() == key)
    }
}

/// Everything the player can set and keep.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The controller's tunables.
    pub controller: ControllerConfig,
    /// Overlays switched on.
    pub overlays: Vec<Overlay>,
    /// The tuning panel is open.
    pub panel_open: bool,
    /// The x and z radii move together.
    pub lock_xz: bool,
    /// The camera follows from behind instead of the eyes.
    pub third_person: bool,
    /// The prototype grid also on materials with their own textures (G);
    /// untextured ones always have it.
    pub grid_everywhere: bool,
    /// The small HUD (state, speed, fps) is shown.
    pub hud: bool,
    /// Frames wait for the display's refresh (no tearing, no wasted frames).
    pub vsync: bool,
    /// The gamepad's look speed, a multiple of the default turn rate
    /// (within [`GAMEPAD_SENSITIVITY_RANGE`]).
    pub gamepad_sensitivity: f32,
    /// The right stick pushed up looks down (as a flight stick does).
    pub gamepad_invert_y: bool,
}

/// The gamepad look sensitivities a settings file may hold (1 is the
/// default turn rate).
pub const GAMEPAD_SENSITIVITY_RANGE: std::ops::RangeInclusive<f32> = 0.1..=5.0;

impl Default for Settings {
    fn default() -> Self {
        Self {
            controller: demo_controller(),
            overlays: vec![Overlay::Crosshair],
            panel_open: false,
            lock_xz: true,
            third_person: false,
            grid_everywhere: false,
            hud: true,
            vsync: true,
            gamepad_sensitivity: 1.0,
            gamepad_invert_y: false,
        }
    }
}

/// The game's controller: every move on ([`ControllerConfig::with_every_move`])
/// and what suits the demo of the feel's rules: bunny hops, swimming at
/// 3.5 m/s, the crouch-slide from 5 m/s (a 2 m/s boost), catching ledges,
/// hard landings above 12 m/s (a fall of about 7 m) for 0.4 s.
///
/// Two stay off, as they change how the scripts in `assets/scripts/`
/// play (the game's tests): Quake's air control (`air_speed_cap`), which
/// leaves too little steering to reach the launch pad's platform, and
/// Quake's friction (`stop_speed`), under which the default friction
/// (40 m/s², as much as the acceleration) leaves no walking at all and a
/// Quake-like one (10 m/s²) runs the air jump's landing off its platform.
fn demo_controller() -> ControllerConfig {
    ControllerConfig {
        auto_hop: true,
        swim_speed: 3.5,
        slide_min_speed: 5.0,
        slide_speed_boost: 2.0,
        ledge_grab: true,
        hard_landing_speed: 12.0,
        hard_landing_time: 0.4,
        ..ControllerConfig::default().with_every_move()
    }
}

impl Settings {
    /// Whether `overlay` is on.
    pub fn shows(&self, overlay: Overlay) -> bool {
        self.overlays.contains(&overlay)
    }

    /// Switches `overlay` on or off.
    pub fn show(&mut self, overlay: Overlay, on: bool) {
        self.overlays.retain(|o| *o != overlay);
        if on {
            self.overlays.push(overlay);
            self.overlays.sort();
        }
    }

    /// The settings as JSON text.
    pub fn to_json(&self) -> String {
        let overlays: Vec<&str> = self.overlays.iter().map(|o| o.key()).collect();
        let root = json!({
            "version": 1,
            "controller": config_to_json(&self.controller),
            "overlays": overlays,
            "panel_open": self.panel_open,
            "lock_xz": self.lock_xz,
            "third_person": self.third_person,
            "grid_everywhere": self.grid_everywhere,
            "hud": self.hud,
            "vsync": self.vsync,
            "gamepad_sensitivity": self.gamepad_sensitivity,
            "gamepad_invert_y": self.gamepad_invert_y,
        });
        serde_json::to_string_pretty(&root).expect("JSON of plain values")
    }

    /// Settings from JSON text, with a warning for everything that was
    /// not understood (and the default used for it).
    pub fn from_json(text: &str) -> (Settings, Vec<String>) {
        let mut s = Settings::default();
        let root: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return (s, vec![format!("not JSON ({e})")]),
        };
        let Some(root) = root.as_object() else {
            return (s, vec!["the top level must be an object".into()]);
        };
        let mut warnings = Vec::new();
        for (key, value) in root {
            let flag = |w: &mut Vec<String>| match value.as_bool() {
                Some(b) => Some(b),
                None => {
                    w.push(format!("{key} must be true or false, got {value}"));
                    None
                }
            };
            match key.as_str() {
                "version" => {
                    if value.as_u64() != Some(1) {
                        warnings.push(format!("version must be 1 (the only one there is), got {value}"));
                    }
                }
                "controller" => {
                    let (c, w) = config_from_json(value);
                    s.controller = c;
                    warnings.extend(w);
                }
                "overlays" => match value.as_array() {
                    Some(items) => {
                        s.overlays.clear();
                        for item in items {
                            match item.as_str().and_then(Overlay::from_key) {
                                Some(o) => s.show(o, true),
                                None => warnings.push(format!("unknown overlay {item}")),
                            }
                        }
                    }
                    None => warnings.push(format!("overlays must be a list of names, got {value}")),
                },
                "panel_open" => s.panel_open = flag(&mut warnings).unwrap_or(s.panel_open),
                "lock_xz" => s.lock_xz = flag(&mut warnings).unwrap_or(s.lock_xz),
                "third_person" => s.third_person = flag(&mut warnings).unwrap_or(s.third_person),
                "grid_everywhere" => s.grid_everywhere = flag(&mut warnings).unwrap_or(s.grid_everywhere),
                "hud" => s.hud = flag(&mut warnings).unwrap_or(s.hud),
                "vsync" => s.vsync = flag(&mut warnings).unwrap_or(s.vsync),
                // Both optional: files saved before gamepads keep the defaults.
                "gamepad_sensitivity" => match value.as_f64() {
                    Some(v) if GAMEPAD_SENSITIVITY_RANGE.contains(&(v as f32)) => s.gamepad_sensitivity = v as f32,
                    _ => warnings.push(format!(
                        "gamepad_sensitivity must be a number between {} and {}, got {value}",
                        GAMEPAD_SENSITIVITY_RANGE.start(),
                        GAMEPAD_SENSITIVITY_RANGE.end()
                    )),
                },
                "gamepad_invert_y" => s.gamepad_invert_y = flag(&mut warnings).unwrap_or(s.gamepad_invert_y),
                other => warnings.push(format!("unknown setting {other:?}")),
            }
        }
        (s, warnings)
    }

    /// Reads the settings at `path`. A missing file gives the defaults
    /// quietly; an unreadable or bad one the defaults (for what was bad)
    /// and a warning naming the file.
    pub fn load(path: &Path) -> (Settings, Option<String>) {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Settings::default(), None),
            Err(e) => {
                return (
                    Settings::default(),
                    Some(format!(
                        "cannot read settings {}: {e}; using the defaults",
                        path.display()
                    )),
                );
            }
        };
        let (s, warnings) = Settings::from_json(&text);
        let warning = (!warnings.is_empty()).then(|| {
            format!(
                "settings {}: {}; defaults used for those",
                path.display(),
                warnings.join("; ")
            )
        });
        (s, warning)
    }

    /// Reads the settings at `path` strictly, for a headless run (which
    /// has no screen to warn on): a missing, unreadable or partly bad
    /// file is an error naming the file and what was wrong.
    pub fn read(path: &Path) -> Result<Settings, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read settings {}: {e}", path.display()))?;
        match Settings::from_json(&text) {
            (s, warnings) if warnings.is_empty() => Ok(s),
            (_, warnings) => Err(format!("settings {}: {}", path.display(), warnings.join("; "))),
        }
    }

    /// Writes the settings to `path` (its folder made if need be), whole
    /// or not at all: a crash mid-write leaves the old file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let fail = |e: std::io::Error| format!("cannot save settings to {}: {e}", path.display());
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        let partial = path.with_extension("json.partial");
        std::fs::write(&partial, self.to_json()).map_err(fail)?;
        std::fs::rename(&partial, path).map_err(fail)
    }
}

/// Where the settings live: `$SLIDEWALK_CONFIG_DIR/settings.json` if set,
/// else the platform's config directory (`$XDG_CONFIG_HOME` or
/// `~/.config` on Linux, `~/Library/Application Support` on macOS,
/// `%APPDATA%` on Windows) + `slidewalk/settings.json`.
pub fn default_settings_path() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("SLIDEWALK_CONFIG_DIR") {
        return Some(dir.join("settings.json"));
    }
    let base = if cfg!(windows) {
        var("APPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library/Application Support"))
    } else {
        var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|h| h.join(".config")))
    };
    base.map(|b| b.join("slidewalk").join("settings.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("slidewalk-settings-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("nested").join("settings.json")
    }

    #[test]
    fn saved_settings_load_back_the_same() {
        let path = temp("roundtrip");
        let mut s = Settings::default();
        s.controller.walk_speed = 6.25;
        s.controller.gravity = glam::Vec3::new(0.0, -1.62, 0.0);
        s.show(Overlay::Contacts, true);
        s.show(Overlay::Crosshair, false);
        s.panel_open = true;
        s.third_person = true;
        s.grid_everywhere = true;
        s.hud = false;
        s.vsync = false;
        s.gamepad_sensitivity = 2.35;
        s.gamepad_invert_y = true;
        s.save(&path).unwrap();
        assert_eq!(Settings::load(&path), (s, None));
    }

    #[test]
    fn missing_unreadable_and_bad_files_give_defaults_and_say_why() {
        let path = temp("bad");
        assert_eq!(Settings::load(&path), (Settings::default(), None));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        for (text, says) in [
            ("{{{", "not JSON"),
            ("[1]", "object"),
            (r#"{"overlays": ["contacts", "lasers"]}"#, "unknown overlay \"lasers\""),
            (r#"{"panel_open": "yes"}"#, "true or false"),
            (r#"{"vsync": 0}"#, "vsync must be true or false"),
            (
                r#"{"gamepad_sensitivity": 0}"#,
                "gamepad_sensitivity must be a number between 0.1 and 5",
            ),
            (
                r#"{"gamepad_sensitivity": "fast"}"#,
                "gamepad_sensitivity must be a number",
            ),
            (r#"{"gamepad_sensitivity": 1e300}"#, "between 0.1 and 5"),
            (r#"{"gamepad_invert_y": 1}"#, "gamepad_invert_y must be true or false"),
            (r#"{"controller": {"walk_speed": -1}}"#, "walk_speed"),
            (r#"{"colour": 1}"#, "unknown setting"),
            (r#"{"version": "banana"}"#, "version must be 1"),
            (
                r#"{"overlays": {"contacts": true}}"#,
                "overlays must be a list of names",
            ),
            (r#"{"controller": [4.5]}"#, "controller settings must be an object"),
        ] {
            std::fs::write(&path, text).unwrap();
            let (s, warning) = Settings::load(&path);
            let warning = warning.unwrap_or_else(|| panic!("{text}: no warning"));
            assert!(
                warning.contains(says) && warning.contains("settings.json"),
                "{text}: {warning}"
            );
            // A "controller" object's missing or refused fields take
            // ControllerConfig::default()'s values (the moves off); without
            // one the game's defaults (the moves on).
            let expected = if text.contains("\"controller\"") {
                ControllerConfig::default()
            } else {
                Settings::default().controller
            };
            assert_eq!(s.controller, expected, "{text}");
        }
        // The good parts of a partly bad file are kept.
        std::fs::write(&path, r#"{"overlays": ["contacts", "lasers"], "panel_open": true}"#).unwrap();
        let (s, _) = Settings::load(&path);
        assert_eq!(s.overlays, vec![Overlay::Contacts]);
        assert!(s.panel_open);
        // A folder where the file should be: unreadable, defaults, a warning.
        let dir = path.parent().unwrap().join("dir.json");
        std::fs::create_dir_all(&dir).unwrap();
        let (s, warning) = Settings::load(&dir);
        assert_eq!(s, Settings::default());
        assert!(warning.unwrap().contains("cannot read"));
    }

    #[test]
    fn a_headless_read_refuses_what_a_window_would_warn_about() {
        let path = temp("strict");
        let e = Settings::read(&path).unwrap_err();
        assert!(e.contains("cannot read settings") && e.contains("settings.json"), "{e}");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        for (text, says) in [
            ("", "not JSON"),
            ("\u{0}\u{1}garbage", "not JSON"),
            (
                r#"{"controller": {"walk_speed": "NaN"}}"#,
                "walk_speed must be a number",
            ),
            (
                r#"{"controller": {"standing_radii": [0.4, 1e300, 0.4]}}"#,
                "standing_radii must be between",
            ),
            (
                r#"{"controller": {"gravity": {"y": -9.81}}}"#,
                "gravity must be [x, y, z]",
            ),
            (r#"{"controller": {"slide_iterations": 1e30}}"#, "between 1 and 32"),
            (r#"{"hud": null}"#, "hud must be true or false"),
        ] {
            std::fs::write(&path, text).unwrap();
            let e = Settings::read(&path).unwrap_err();
            assert!(e.contains(says) && e.contains("settings.json"), "{text}: {e}");
        }
        std::fs::write(&path, r#"{"controller": {"walk_speed": 1}}"#).unwrap();
        assert_eq!(Settings::read(&path).unwrap().controller.walk_speed, 1.0);
        let e = Settings::read(path.parent().unwrap()).unwrap_err();
        assert!(e.contains("cannot read settings"), "{e}");
    }

    #[test]
    fn files_saved_before_gamepads_load_with_the_gamepad_defaults() {
        let old = r#"{"version": 1, "overlays": ["crosshair"], "panel_open": false, "lock_xz": true,
            "third_person": true, "grid_everywhere": false, "hud": true, "vsync": true}"#;
        let (s, warnings) = Settings::from_json(old);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(s.third_person);
        assert_eq!(s.gamepad_sensitivity, 1.0);
        assert!(!s.gamepad_invert_y);
        // A bad sensitivity: the default for it, the rest kept.
        let (s, warnings) = Settings::from_json(r#"{"gamepad_sensitivity": -3, "gamepad_invert_y": true}"#);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(s.gamepad_sensitivity, 1.0);
        assert!(s.gamepad_invert_y);
        let (s, warnings) = Settings::from_json(r#"{"gamepad_sensitivity": 0.1}"#);
        assert!(warnings.is_empty() && s.gamepad_sensitivity == 0.1, "{warnings:?}");
    }

    #[test]
    fn overlays_are_numbered_by_function_key() {
        assert_eq!(Overlay::Contacts.function_key(), 1);
        assert_eq!(Overlay::Crosshair.function_key(), 8);
        assert!(Settings::default().shows(Overlay::Crosshair));
        assert!(!Settings::default().shows(Overlay::Contacts));
    }
}
