//! `Controller::tick`'s own checks: bad states refused and left alone.

use super::*;

#[test]
fn bad_states_are_refused_and_left_alone() {
    // Found by the fuzzer (crates/fuzz): a negative air time was accepted
    // and stayed negative, stretching the coyote time.
    let controller = Controller::new(ControllerConfig::default()).unwrap();
    let world = Surroundings::new(&[]);
    let good = CharacterState::standing_at(Vec3::ZERO, controller.config());
    let bad = [
        CharacterState { air_time: -1.0, ..good },
        CharacterState {
            jump_buffer: -0.5,
            ..good
        },
        CharacterState {
            position: Vec3::NAN,
            ..good
        },
        CharacterState {
            radii: Vec3::ZERO,
            ..good
        },
        // (It became infinite in the tick.)
        CharacterState {
            velocity: Vec3::new(-3.4028235e38, 0.0, 0.0),
            ..good
        },
    ];
    for state in bad {
        let mut s = state;
        let e = controller
            .tick(&mut s, &Intent::default(), &world, 1.0 / 60.0)
            .unwrap_err();
        assert_eq!(e, TickError::BadState);
        assert!(e.to_string().contains("negative time"), "{e}");
        assert_eq!(format!("{s:?}"), format!("{state:?}"));
    }
    let mut s = good;
    controller.tick(&mut s, &Intent::default(), &world, 1.0 / 60.0).unwrap();
}
