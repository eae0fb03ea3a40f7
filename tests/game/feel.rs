//! The feel course of the demo level, each piece by its script at 30, 60
//! and 144 Hz (each script's `"controller"` turns on what its move needs):
//! the surf ramp ridden to its landing, the strafe-jump run crossed faster
//! than 1.5 × walking speed where a walking jump falls into the pit, the
//! pool dived into and climbed out of by a water jump, the slide under the
//! low bar that stops a standing sprinter, the ledge caught, shimmied 2 m
//! along and climbed, and both walkways carrying a player who stands
//! still. None ends inside geometry.

use super::*;
use bevy_slidewalk::CharacterState;
use slidewalk::sim::player::RunStats;
use slidewalk::sim::script::ScriptRun;

const WALK_SPEED: f32 = 4.5;

/// Plays `text` (a script's JSON) at `hz`, calling `watch` with the
/// player's state and the time (s) after every tick; checks the start at
/// the script's spawn, no penetration (under 1e-3 of the radius), not
/// fallen out, a standing end.
fn play(what: &str, text: &str, hz: f32, mut watch: impl FnMut(f32, &CharacterState)) -> Summary {
    let options = Options {
        tick_hz: Some(hz),
        ..Options::default()
    };
    let script = Script::parse(text).unwrap();
    let ticks = (script.seconds() * hz as f64).ceil() as u64;
    let spawn = script.spawn.expect("a spawn");
    let mut app = headless::app(&options, script);
    app.update();
    app.update();
    for k in 0..ticks + 2 {
        app.update();
        let state = player(&mut app).0;
        if k == 0 {
            // Where the script says: not lifted out of something it overlaps.
            let d = state.feet() - spawn;
            assert!(
                d.y.abs() < 0.01 && d.length() < 0.1,
                "{what} at {hz} Hz: started at {}",
                state.feet()
            );
        }
        let summary = &app.world().resource::<RunStats>().summary;
        watch(summary.ticks as f32 / hz, &state);
        if app.world().resource::<ScriptRun>().done {
            break;
        }
    }
    let s = app.world().resource::<RunStats>().summary.clone();
    assert!(
        s.max_penetration < 1e-3,
        "{what} at {hz} Hz: penetration {}",
        s.max_penetration
    );
    assert!(s.grounded && !s.fell_out, "{what} at {hz} Hz: ended {s:?}");
    assert!(s.ticks + 2 >= ticks, "{what} at {hz} Hz: only {} ticks", s.ticks);
    s
}

fn script_text(name: &str) -> String {
    let path = format!("{}/assets/scripts/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// Plays the script `name` at every rate; `check` sees its summary.
fn each_rate(name: &str, check: impl Fn(f32, &Summary)) {
    for hz in RATES {
        let s = play(name, &script_text(name), hz, |_, _| {});
        println!(
            "{name} at {hz} Hz: feet {}, fastest {:.2} m/s, highest {:.2} m, {} jumps, {} airborne ticks",
            s.final_position, s.max_horizontal_speed, s.max_height, s.jumps, s.airborne_ticks
        );
        check(hz, &s);
    }
}

/// The feet on top of the box `lo … hi` (at its top, within it across).
fn on_top(s: &Summary, (lo, hi): (Vec3, Vec3)) -> bool {
    let f = s.final_position;
    (f.y - hi.y).abs() < 0.01 && f.x > lo.x && f.x < hi.x && f.z > lo.z && f.z < hi.z
}

#[test]
fn the_surf_ramp_is_ridden_along_its_length_to_the_landing() {
    each_rate("surf", |hz, s| {
        // Off the 2.5 m stairs' top, held up by strafing into the 60°
        // slope the whole 14 m: higher than the start, the sprint's speed
        // kept, onto the landing (0.5 m) past the ramp's end, never on the
        // floor.
        assert!(s.max_height > 3.5, "{hz} Hz: highest {}", s.max_height);
        assert!(s.max_horizontal_speed > 7.4, "{hz} Hz: {}", s.max_horizontal_speed);
        let landing = (Vec3::new(-17.0, 0.0, 29.0), Vec3::new(-9.0, 0.5, 34.0));
        assert!(on_top(s, landing), "{hz} Hz: at {}", s.final_position);
        let airborne = s.airborne_ticks as f32 / hz;
        assert!(airborne > 14.0 / 7.5, "{hz} Hz: {airborne} s in the air");
    });
}

#[test]
fn strafe_jumps_cross_the_pit_faster_than_1_5_walking_speeds_and_a_walking_jump_does_not() {
    let far = (Vec3::new(14.8, 0.0, 35.0), Vec3::new(22.8, 1.5, 39.0));
    each_rate("strafe_jump", |hz, s| {
        assert!(s.jumps >= 5, "{hz} Hz: {} jumps", s.jumps);
        assert!(
            s.max_horizontal_speed > 1.5 * WALK_SPEED,
            "{hz} Hz: {} m/s",
            s.max_horizontal_speed
        );
        assert!(on_top(s, far), "{hz} Hz: at {}", s.final_position);
    });
    // The control, the same settings: a walking jump at the edge falls
    // into the pit (its floor); so does one pressed anywhere from 0.6 s
    // before the edge to after it (too late: no jump).
    let pit = |s: &Summary| {
        let f = s.final_position;
        f.y.abs() < 0.01 && f.x > 9.0 && f.x < 14.8 && s.max_horizontal_speed <= WALK_SPEED + 1e-3
    };
    each_rate("strafe_gap_walk_jump", |hz, s| {
        assert_eq!(s.jumps, 1, "{hz} Hz");
        assert!(pit(s), "{hz} Hz: crossed to {}", s.final_position);
    });
    let control = script_text("strafe_gap_walk_jump");
    for walk in [1.0, 1.1, 1.2, 1.25, 1.35, 1.4] {
        let text = control.replace(r#"{"for_s": 1.3, "move""#, &format!(r#"{{"for_s": {walk}, "move""#));
        assert!(
            text.contains(&format!("{walk}, \"move")),
            "the control's walk step moved"
        );
        for hz in RATES {
            let s = play("strafe_gap_walk_jump", &text, hz, |_, _| {});
            assert!(pit(&s), "walking {walk} s at {hz} Hz: crossed to {}", s.final_position);
        }
    }
}

#[test]
fn the_pool_is_dived_to_its_bottom_swum_and_left_by_a_water_jump() {
    for hz in RATES {
        let mut lowest = f32::MAX;
        let s = play(
            "pool_dive_and_climb",
            &script_text("pool_dive_and_climb"),
            hz,
            |_, p| {
                lowest = lowest.min(p.feet().y);
            },
        );
        let swam = s.swim_ticks as f32 / hz;
        println!(
            "pool at {hz} Hz: feet down to {lowest:.2} m, swam {swam:.2} s, out at {}",
            s.final_position
        );
        // 3 m of water: down to the bottom.
        assert!(lowest < 0.3, "{hz} Hz: only down to {lowest}");
        assert!(swam > 2.0, "{hz} Hz: swam {swam} s");
        assert_eq!((s.water_jumps, s.mantles, s.jumps), (1, 1, 0), "{hz} Hz");
        // On the far wall, 0.5 m above the water.
        let far_wall = (Vec3::new(-31.5, 0.0, 11.0), Vec3::new(-24.5, 3.5, 13.0));
        assert!(on_top(&s, far_wall), "{hz} Hz: at {}", s.final_position);
    }
}

#[test]
fn a_slide_passes_under_the_low_bar_that_stops_a_standing_sprint() {
    for hz in RATES {
        let mut crouched_at_end = true;
        let s = play("slide_under_bar", &script_text("slide_under_bar"), hz, |_, p| {
            crouched_at_end = p.crouched;
        });
        println!(
            "slide at {hz} Hz: fastest {:.2} m/s, ended at {}",
            s.max_horizontal_speed, s.final_position
        );
        assert_eq!(s.slides, 1, "{hz} Hz");
        // The sprint's 7.5 m/s and the boost; past the bar (z 17 … 17.3)
        // and down the slope, standing again.
        assert!(s.max_horizontal_speed > 8.0, "{hz} Hz: {}", s.max_horizontal_speed);
        let f = s.final_position;
        assert!(f.y.abs() < 0.01 && f.z < 14.0 && f.z > 8.0, "{hz} Hz: at {f}");
        assert!(!crouched_at_end, "{hz} Hz: still crouched");
    }
    // Sprinting on without crouching: stopped by the bar.
    let standing = script_text("slide_under_bar").replace(r#""crouch": true"#, r#""crouch": false"#);
    for hz in RATES {
        let s = play("slide_under_bar standing", &standing, hz, |_, _| {});
        assert_eq!(s.slides, 0);
        assert!(
            s.final_position.z > 17.3,
            "{hz} Hz: passed the bar: {}",
            s.final_position
        );
    }
}

#[test]
fn a_ledge_is_caught_shimmied_along_for_2_m_and_climbed() {
    for hz in RATES {
        let mut hang = (f32::MAX, f32::MIN);
        let s = play("ledge_hang_shimmy", &script_text("ledge_hang_shimmy"), hz, |_, p| {
            if p.moves.hang().is_some() {
                hang = (hang.0.min(p.position.x), hang.1.max(p.position.x));
            }
        });
        let shimmied = hang.1 - hang.0;
        println!(
            "ledge at {hz} Hz: shimmied {shimmied:.3} m, on top at {}",
            s.final_position
        );
        assert_eq!((s.ledge_grabs, s.mantles, s.jumps), (1, 1, 1), "{hz} Hz");
        assert!((shimmied - 2.0).abs() < 0.05, "{hz} Hz: {shimmied} m");
        // On the 2.5 m block, 2 m along from where it was caught (x 25.5).
        let wall = (Vec3::new(21.0, 0.0, 27.5), Vec3::new(27.0, 2.5, 30.0));
        assert!(on_top(&s, wall), "{hz} Hz: at {}", s.final_position);
        assert!(
            (s.final_position.x - 23.5).abs() < 0.05,
            "{hz} Hz: at {}",
            s.final_position
        );
    }
}

#[test]
fn the_walkways_carry_a_player_who_stands_still_both_ways() {
    for hz in RATES {
        let mut xs = Vec::new();
        let s = play("walkway", &script_text("walkway"), hz, |t, p| xs.push((t, p.feet().x)));
        let at = |t: f32| xs.iter().find(|(time, _)| *time >= t - 1e-4).unwrap().1;
        // Standing on the east walkway from the first tick to 3.3 s: 2 m/s
        // along +x; then stepped across, standing on the west one for the
        // last 3 s: 2 m/s along −x.
        let east = at(3.3) - 7.0;
        let end = xs.last().unwrap().0;
        let west = at(end) - at(end - 2.5);
        println!("walkway at {hz} Hz: {east:.3} m east in 3.3 s, {west:.3} m in the last 2.5 s");
        assert!((east - 6.6).abs() < 0.1, "{hz} Hz: {east}");
        assert!((west + 5.0).abs() < 0.05, "{hz} Hz: {west}");
        assert!(
            (s.final_position.y - 0.2).abs() < 0.01 && (s.final_position.z - 29.75).abs() < 0.75,
            "{hz} Hz: at {}",
            s.final_position
        );
        assert_eq!((s.jumps, s.airborne_ticks), (0, 0), "{hz} Hz");
    }
}
