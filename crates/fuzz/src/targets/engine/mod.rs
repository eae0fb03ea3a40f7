//! Target `engine`: bevy_slidewalk's characters among Avian's bodies
//! through `bevy_slidewalk_avian`. A headless app (`MinimalPlugins`,
//! Avian's `PhysicsPlugins`, the plugin and the mirror, one thread, time
//! by `TimeUpdateStrategy::ManualDuration` at 1, 2 or 4 frames a tick or
//! 3 ticks a frame), fresh for each input: static, kinematic and dynamic
//! Avian bodies of every shape the mirror handles (cuboids, balls,
//! capsules, cylinders, cones, rounded boxes, convex hulls, triangle
//! meshes, compounds; on the body or on a child entity, turned and
//! scaled), kinematic bodies moved by their velocity, dynamic ones set
//! going and thrown at the characters; colliders added, removed,
//! reshaped, made sensors or ignored mid-run; one to three characters
//! (some with an `InnerBody`, some pushing harder or lighter) walking,
//! sprinting, crouching, jumping and dashing; at most 300 ticks.
//!
//! Every tick is checked from inside the app, at the poses the
//! characters swept against (`check.rs` lists the checks): finite
//! characters and bodies, contacts only with solid mirrored colliders, no
//! character inside a collider's triangles unless crushed, none inside
//! Avian's own shape of a static or kinematic collider by more than its
//! skin once it was clear of it; and nothing panicking.

mod check;
mod ops;
mod scene;
mod shapes;

use arbitrary::Unstructured;
use ops::Case;
use scene::Scene;
use std::fmt::Write;

/// The target.
pub fn run(data: &[u8]) -> u64 {
    let Ok(case) = Case::generate(&mut Unstructured::new(data)) else {
        return 0;
    };
    let mut scene = Scene::new(case.floor);
    for op in &case.ops {
        scene.apply(op);
    }
    let mut s = crate::signature::Signature::default();
    for &code in &scene.checks().codes {
        s.add(code);
    }
    s.finish()
}

/// Seeds: bytes of several kinds (the generator makes a case of any bytes).
pub fn seeds() -> Vec<Vec<u8>> {
    vec![
        vec![0; 256],
        vec![0x80; 512],
        (0..=255u8).cycle().take(1024).collect(),
        (0..=255u8).rev().cycle().take(1024).collect(),
        (0..2048u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect(),
    ]
}

/// The case the bytes stand for: the floor and each operation.
pub fn describe(data: &[u8]) -> String {
    match Case::generate(&mut Unstructured::new(data)) {
        Ok(case) => {
            let floor = ["none", "a 40 m static box", "a static half-space"][case.floor as usize];
            let mut out = format!("floor: {floor}\n");
            for (i, op) in case.ops.iter().enumerate() {
                let _ = writeln!(out, "{i:3}: {op:?}");
            }
            out
        }
        Err(e) => format!("no case: {e}"),
    }
}
