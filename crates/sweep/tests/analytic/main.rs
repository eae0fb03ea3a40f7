//! Proves the analytic colliders' sphere sweeps exact: against an
//! independent f64 reference (the first root of the convex distance along
//! the path), against their meshed versions swept by the collision core
//! (a big quad for the plane, a 256-segment closed cylinder), and on
//! hand-computed cases (falling on the plane, head-on at the side, straight
//! down onto a cap, onto the rim at 45°).
//!
//! # Tolerances, and why
//!
//! * **Reference** (`LATE`, `EARLY`: 1e-5 m of travel): the analytic contact
//!   may come neither later nor earlier than the reference's by more than
//!   that. The reference finds the minimum of the convex distance by
//!   golden-section search and the first root by bisection, in f64, with
//!   the capped-cylinder distance written here independently of the crate.
//!   Hit/no-hit may differ only when the path grazes (`GRAZE`: its closest
//!   approach is within 1e-6 m of the radius).
//! * **Meshes**: the 256-gon is inscribed in the circle, so the meshed solid
//!   lies inside the true one and every point of the true solid is within
//!   the sagitta `s = R(1 − cos(π/256))` of it. Hence, with `t(ρ)` the
//!   analytic contact time of a sphere of radius `ρ`,
//!   `t(r) ≤ t_mesh(r) ≤ t(r − s)`, and at the mesh's contact the true
//!   distance is in `[r − s, r]`. These are checked to `MESH_TOL` (1e-4 m),
//!   the core's f32 error at these sizes in eSpace (its own exactness tests
//!   allow 1e-5 of the scale). The plane has no tessellation error (`s = 0`).
//!
//! `cargo test -p slidewalk_sweep --test analytic -- --nocapture` prints the measured figures.
//!
//! The parts: `reference` (the independent f64 reference), `cases` (random
//! sweeps around a shape), `closed_form` (hand-computed cases),
//! `vs_reference` (random cases against the reference) and `vs_meshes`
//! (against the meshed shapes swept by the collision core).

mod cases;
mod closed_form;
mod reference;
mod vs_meshes;
mod vs_reference;
