//! Target `world`: the Bevy plugin's collision world under a game's churn.
//! A headless app (`MinimalPlugins`, the plugin, time driven by
//! `TimeUpdateStrategy::ManualDuration`), fresh for each input, driven
//! through the plugin's public components only: colliders spawned (boxes
//! of triangles, Bevy `Cuboid` meshes, a shared prebuilt box, slabs,
//! ramps, loose triangles with bad ones among them) and despawned, moved,
//! turned, scaled (mirrored too), re-parented under each other or plain
//! entities, drifting every tick or every frame; `OneWay`,
//! `SlidewalkLayers`, `SlidewalkSensor`, `Climbable` and `LaunchPad` given and
//! taken; characters spawned and despawned, reconfigured (invalid configs
//! too), given layers, intents and impulses, teleported by their state,
//! by their transform or into a collider, made inactive; and frames of
//! a quarter tick to four ticks each, at 30, 60, 64 or 144 Hz.
//!
//! Every tick is checked against a brute-force reference built from the
//! same entities (`reference.rs` lists the checks): transforms
//! propagated, no contact with what is not a solid for the character
//! (a despawned collider, a sensor, other layers), no character ending
//! inside a solid it meets unless crushed, sensor messages paired and
//! matching the overlaps, nothing panicking.

mod ops;
mod record;
mod reference;
mod scene;
mod shapes;

use arbitrary::Unstructured;
use ops::Case;
use reference::Reference;
use scene::Scene;
use std::fmt::Write;

/// The target.
pub fn run(data: &[u8]) -> u64 {
    let Ok(case) = Case::generate(&mut Unstructured::new(data)) else {
        return 0;
    };
    let mut scene = Scene::new(case.hz, case.floor);
    let mut reference = Reference::default();
    for op in &case.ops {
        scene.apply(op);
        for tick in scene.take_ticks() {
            reference.check(&tick);
        }
    }
    reference.signature()
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

/// The case the bytes stand for: the tick, the floor and each operation.
pub fn describe(data: &[u8]) -> String {
    match Case::generate(&mut Unstructured::new(data)) {
        Ok(case) => {
            let mut out = format!("{} Hz, floor {}\n", case.hz, case.floor);
            for (i, op) in case.ops.iter().enumerate() {
                let _ = writeln!(out, "{i:3}: {op:?}");
            }
            out
        }
        Err(e) => format!("no case: {e}"),
    }
}
