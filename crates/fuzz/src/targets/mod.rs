//! The fuzz targets, one module each.

pub mod balls;
pub mod controller;
pub mod engine;
pub mod level_check;
pub mod level_glb;
pub mod level_json;
mod move_extras;
pub mod net;
pub mod sweep;
pub mod world;
