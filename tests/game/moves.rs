//! The moves course of the demo level, each piece by its script at 30,
//! 60 and 144 Hz with the game's default settings (every move on): the
//! shaft wall-jumped to its top, the ledges of 0.9 and 1.3 m mantled and
//! the one of 1.8 m not, the ladder climbed, the gap crossed by a dash and
//! not by a plain jump, the platform reached by an air jump, the launch
//! pad throwing the player onto its platform. None ends inside geometry.

use super::*;

/// Plays `name` at every rate; checks no penetration and a standing end.
fn each_rate(name: &str, check: impl Fn(f32, &Summary)) {
    for hz in RATES {
        let s = run(name, hz);
        assert!(
            s.max_penetration < 1e-3,
            "{name} at {hz} Hz: penetration {}",
            s.max_penetration
        );
        assert!(s.grounded && !s.fell_out, "{name} at {hz} Hz: ended {s:?}");
        check(hz, &s);
    }
}

fn feet_near(s: &Summary, y: f32, z: (f32, f32)) -> bool {
    let f = s.final_position;
    (f.y - y).abs() < 0.01 && f.z < z.0 && f.z > z.1
}

#[test]
fn the_shaft_is_climbed_by_wall_jumps() {
    each_rate("wall_jump_shaft", |hz, s| {
        assert!(s.wall_jumps >= 15 && s.air_jumps == 0, "{hz} Hz: {s:?}");
        // On moves_shaft_top (7 m, z −33.5 … −37).
        assert!(
            feet_near(s, 7.0, (-33.5, -37.0)),
            "{hz} Hz: ended at {}",
            s.final_position
        );
    });
}

#[test]
fn ledges_of_0_9_and_1_3_m_are_mantled_and_1_8_m_is_not() {
    for (name, top) in [("mantle_090", 0.9), ("mantle_130", 1.3)] {
        each_rate(name, |hz, s| {
            assert_eq!((s.mantles, s.jumps), (1, 0), "{name} at {hz} Hz");
            assert!(
                feet_near(s, top, (-33.0, -35.0)),
                "{name} at {hz} Hz: at {}",
                s.final_position
            );
        });
    }
    // Too high: the press jumps instead, and even in the air it stays out of reach.
    each_rate("mantle_180", |hz, s| {
        assert_eq!((s.mantles, s.jumps), (0, 1), "{hz} Hz");
        assert!(s.final_position.y.abs() < 0.01 && s.max_height < 1.1, "{hz} Hz: {s:?}");
    });
}

#[test]
fn the_ladder_is_climbed_to_its_top() {
    each_rate("ladder", |hz, s| {
        // 4 m at 2.5 m/s: about 1.3 s on the face, then over the top.
        let seconds = s.climb_ticks as f32 / hz;
        assert!(seconds > 1.0 && seconds < 2.0, "{hz} Hz: climbed {seconds} s");
        assert!(feet_near(s, 4.0, (-33.0, -35.0)), "{hz} Hz: at {}", s.final_position);
    });
}

#[test]
fn a_dash_crosses_the_gap_and_a_plain_jump_does_not() {
    each_rate("dash_gap", |hz, s| {
        assert_eq!((s.jumps, s.dashes), (1, 1), "{hz} Hz");
        // On moves_dash_to (1 m, z −21 … −25).
        assert!(feet_near(s, 1.0, (-21.0, -25.0)), "{hz} Hz: at {}", s.final_position);
    });
    each_rate("gap_jump", |hz, s| {
        assert_eq!((s.jumps, s.dashes), (1, 0), "{hz} Hz");
        // In the gap, on the floor.
        assert!(feet_near(s, 0.0, (-12.5, -21.0)), "{hz} Hz: at {}", s.final_position);
    });
}

#[test]
fn the_air_jump_platform_is_reached_by_an_air_jump() {
    each_rate("air_jump", |hz, s| {
        assert_eq!((s.jumps, s.air_jumps, s.wall_jumps), (2, 1, 0), "{hz} Hz");
        // On moves_air_jump (1.9 m, z −32 … −35).
        assert!(feet_near(s, 1.9, (-32.0, -35.0)), "{hz} Hz: at {}", s.final_position);
    });
}

#[test]
fn the_launch_pad_throws_the_player_onto_its_platform() {
    each_rate("launch_pad", |hz, s| {
        assert_eq!(s.launches, 1, "{hz} Hz");
        // 12 m/s up from the 0.1 m pad: v²/2g = 7.34 m above it.
        let apex = s.max_height - 0.1;
        assert!((apex / 7.34 - 1.0).abs() < 0.02, "{hz} Hz: apex {apex}");
        // On moves_launch_top (6 m, z −32.75 … −35.75).
        assert!(feet_near(s, 6.0, (-32.75, -35.75)), "{hz} Hz: at {}", s.final_position);
    });
}
