// slidewalk's explosion: a camera-facing quad (turned to the camera on the
// CPU each frame) drawn additively with no depth write, so overlapping
// explosions brighten each other and never hide what is behind them. A
// hot core and a ragged flame front grow with age while the whole fades.
//
// The Rust side is `src/view/balls.rs` (`ExplosionUniform` must match
// `Explosion`).

#import bevy_pbr::forward_io::VertexOutput

struct Explosion {
    // Linear RGB of the flame's edge; alpha is the overall brightness.
    colour: vec4<f32>,
    // 0 at the impact, 1 when it is gone.
    age: f32,
    // Varies the flame's shape from one explosion to the next.
    seed: f32,
    padding: vec2<f32>,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> explosion: Explosion;

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    let p = in.uv * 2.0 - 1.0;
    let r = length(p);
    let angle = atan2(p.y, p.x);
    let age = clamp(explosion.age, 0.0, 1.0);
    let s = explosion.seed;
    // A ragged front: a few sines around the circle, turning as it burns.
    let ragged = 0.82
        + 0.10 * sin(angle * 5.0 + s * 17.0 + age * 6.0)
        + 0.08 * sin(angle * 11.0 - s * 29.0 - age * 9.0);
    // The fireball fills the quad as it ages and thins out from the middle.
    let front = ragged * (0.55 + 0.45 * age);
    let body = 1.0 - smoothstep(front * 0.35, front, r);
    let hollow = mix(1.0, smoothstep(0.0, front * 0.8, r), age);
    let core = 1.0 - smoothstep(0.0, 0.35 * (1.0 - age) + 0.02, r);
    let fade = (1.0 - age) * (1.0 - age);
    let flame = mix(explosion.colour.rgb, vec3<f32>(1.0, 0.92, 0.65), core);
    let light = (body * hollow * 1.4 + core * 2.5) * fade * explosion.colour.a;
    // Premultiplied with zero alpha: pure addition to what is behind.
    return vec4<f32>(flame * light, 0.0);
}
