//! The moves' events, straight from the tick's report: dash, wall slide
//! and wall jump, mantle, climb, launch, crouch-slide, ledge hang, and
//! water (in, out, under, the water jump).

use super::{EventWriters, TickFacts};
use crate::events::{
    ClimbEnded, ClimbStarted, Dashed, EnteredWater, Launched, LedgeGrabbed, LedgeLetGo, LeftWater, Mantled, SlideEnded,
    SlideStarted, Submerged, WallJumped, WallSlideStarted, WaterJumped,
};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The writers of the moves' events.
#[derive(SystemParam)]
pub(super) struct MoveWriters<'w> {
    dashed: MessageWriter<'w, Dashed>,
    wall_slide: MessageWriter<'w, WallSlideStarted>,
    wall_jumped: MessageWriter<'w, WallJumped>,
    mantled: MessageWriter<'w, Mantled>,
    climb_started: MessageWriter<'w, ClimbStarted>,
    climb_ended: MessageWriter<'w, ClimbEnded>,
    launched: MessageWriter<'w, Launched>,
    slide_started: MessageWriter<'w, SlideStarted>,
    slide_ended: MessageWriter<'w, SlideEnded>,
    ledge_grabbed: MessageWriter<'w, LedgeGrabbed>,
    ledge_let_go: MessageWriter<'w, LedgeLetGo>,
    water: WaterWriters<'w>,
}

/// The writers of the water's events.
#[derive(SystemParam)]
struct WaterWriters<'w> {
    entered: MessageWriter<'w, EnteredWater>,
    left: MessageWriter<'w, LeftWater>,
    submerged: MessageWriter<'w, Submerged>,
    jumped: MessageWriter<'w, WaterJumped>,
}

/// The moves' events, straight from the tick's report.
pub(super) fn moves(w: &mut EventWriters, f: &TickFacts) {
    let (shown, w) = (&mut *w.shown, &mut w.moves);
    let tick = &f.report.tick;
    let character = f.character;
    if let Some(direction) = tick.dashed {
        shown.write(
            &mut w.dashed,
            character,
            None,
            Dashed {
                character,
                direction,
                in_air: !f.stood_at_start(),
            },
        );
    }
    if tick.wall_slide_started
        && let Some(wall) = f.after.moves.wall.or(f.before.moves.wall)
    {
        shown.write(
            &mut w.wall_slide,
            character,
            None,
            WallSlideStarted {
                character,
                normal: wall.normal,
            },
        );
    }
    if let Some(normal) = tick.wall_jumped {
        shown.write(&mut w.wall_jumped, character, None, WallJumped { character, normal });
    }
    // A hang let go of and a mantle may end one another: the let-go first.
    if tick.ledge_let_go {
        shown.write(&mut w.ledge_let_go, character, None, LedgeLetGo { character });
    }
    if tick.ledge_grabbed
        && let Some(hang) = f.after.moves.hang()
    {
        shown.write(
            &mut w.ledge_grabbed,
            character,
            None,
            LedgeGrabbed {
                character,
                normal: hang.normal,
                top: hang.top,
            },
        );
    }
    if let Some(height) = tick.mantled {
        shown.write(&mut w.mantled, character, None, Mantled { character, height });
    }
    // A climb ended and another started in one tick (knocked off a face
    // and pushed back onto it): the end first.
    if tick.climb_ended {
        shown.write(&mut w.climb_ended, character, None, ClimbEnded { character });
    }
    if tick.climb_started {
        shown.write(&mut w.climb_started, character, None, ClimbStarted { character });
    }
    if let Some(velocity) = tick.launched {
        shown.write(&mut w.launched, character, None, Launched { character, velocity });
    }
    // The same for a slide.
    if tick.slide_ended {
        shown.write(&mut w.slide_ended, character, None, SlideEnded { character });
    }
    if tick.slide_started {
        let up = f.up();
        let v = f.after.velocity;
        let speed = (v - up * v.dot(up)).length();
        shown.write(&mut w.slide_started, character, None, SlideStarted { character, speed });
    }
    water(shown, &mut w.water, f);
}

/// The water's events: in (feet), under (eyes), out, the water jump.
fn water(shown: &mut crate::shown::ShownEvents, w: &mut WaterWriters, f: &TickFacts) {
    let tick = &f.report.tick;
    let character = f.character;
    if tick.entered_water {
        let up = f.up();
        shown.write(
            &mut w.entered,
            character,
            None,
            EnteredWater {
                character,
                position: f.after.feet(),
                speed: (-f.before.world_velocity().dot(up)).max(0.0),
            },
        );
    }
    if tick.submerged {
        shown.write(&mut w.submerged, character, None, Submerged { character });
    }
    if tick.water_jumped {
        shown.write(&mut w.jumped, character, None, WaterJumped { character });
    }
    if tick.left_water {
        shown.write(&mut w.left, character, None, LeftWater { character });
    }
}
