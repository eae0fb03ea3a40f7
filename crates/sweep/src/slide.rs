//! Collide-and-slide: move an ellipsoid along a motion, sliding along what
//! it hits (Fauerby 2003 §4, with Quake-style crease handling and an
//! explicit depenetration step).
//!
//! The parts: `types` (the options a call takes, the contacts and result
//! it gives), `collide` (the slide loop and the clipping of the motion to
//! the planes met), `depenetration` (pushing the ellipsoid out of what
//! it overlaps, with the skin kept from surfaces and the eSpace distance to
//! a triangle that the slide loop uses too) and `settle` (a settle onto
//! the plane stood on, proven without a sweep). They import one another only
//! downwards, never this module.

mod collide;
mod depenetration;
mod settle;
mod types;

pub use collide::{collide_and_slide, collide_and_slide_filtered, collide_and_slide_reusing, collide_and_slide_with};
pub use depenetration::{depenetrate, penetration_depth, penetration_depth_with};
pub use settle::{Settled, settle};
pub use types::{Contact, ContactResponse, Ground, SlideOptions, SlidePlane, SlideResult};
