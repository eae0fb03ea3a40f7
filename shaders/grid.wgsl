// slidewalk's prototype grid: Bevy's standard PBR material (lighting,
// shadows, fog and textures unchanged) with world-space lines every metre
// and every 25 cm, and a tint saying whether the player can stand on the
// surface: walkable (slope within the controller's limit, measured against
// "up", the opposite of gravity) or too steep. Doors and lifts get their own
// tint and diagonal stripes that move with them.
//
// The Rust side is `src/view/grid.rs` (`GridUniform` must match `Grid`).

#import bevy_pbr::{
    pbr_fragment::pbr_input_from_standard_material,
    pbr_functions::alpha_discard,
}

#ifdef PREPASS_PIPELINE
#import bevy_pbr::{
    prepass_io::{VertexOutput, FragmentOutput},
    pbr_deferred_functions::deferred_output,
}
#else
#import bevy_pbr::{
    forward_io::{VertexOutput, FragmentOutput},
    pbr_functions::{apply_pbr_lighting, main_pass_post_lighting_processing},
    pbr_types::STANDARD_MATERIAL_FLAGS_UNLIT_BIT,
}
#endif

struct Grid {
    // World → grid space: identity for the level, the inverse of the body's
    // pose for a door or lift (its lines and stripes move with it).
    grid_from_world: mat4x4<f32>,
    // Unit vector against gravity, world space.
    up: vec3<f32>,
    // Cosine of the controller's walkable slope limit.
    cos_walkable: f32,
    // Linear RGB tints; alpha is how far the albedo is pulled toward them.
    walkable_tint: vec4<f32>,
    steep_tint: vec4<f32>,
    mover_tint: vec4<f32>,
    // 0 = no lines, 1 = full strength.
    line_strength: f32,
    // 0 = no walkable / steep tint, 1 = the tints' alphas as given.
    slope_tint_strength: f32,
    // 1 = diagonal stripes (doors and lifts), 0 = none.
    stripes: f32,
    _padding: f32,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(100) var<uniform> grid: Grid;

// How much of this pixel is covered by lines every `spacing` metres across
// each grid axis, anti-aliased over `half_width` pixels. `weights` hides
// the lines of an axis the surface does not cross (a floor at y = 0 is not
// one big y line). Lines closer than a few pixels fade out instead of
// shimmering.
fn line_cover(p: vec3<f32>, weights: vec3<f32>, spacing: f32, half_width: f32) -> f32 {
    let q = p / spacing;
    let cells_per_pixel = max(fwidth(q), vec3(1e-6));
    let pixels_to_line = abs(fract(q + 0.5) - 0.5) / cells_per_pixel;
    let cover = 1.0 - clamp(pixels_to_line / half_width, vec3(0.0), vec3(1.0));
    let fade = 1.0 - smoothstep(vec3(0.12), vec3(0.35), cells_per_pixel);
    let c = cover * fade * weights;
    return max(max(c.x, c.y), c.z);
}

@fragment
fn fragment(
    in: VertexOutput,
    @builtin(front_facing) is_front: bool,
) -> FragmentOutput {
    var pbr_input = pbr_input_from_standard_material(in, is_front);
    pbr_input.material.base_color = alpha_discard(pbr_input.material, pbr_input.material.base_color);

    // The triangle's own normal (not the smoothed vertex normal): the
    // collision sees flat triangles, so the tint follows the same slope.
    let world = in.world_position.xyz;
    var face = cross(dpdx(world), dpdy(world));
    if dot(face, face) < 1e-20 {
        face = pbr_input.world_normal;
    }
    face = normalize(face);
    if dot(face, pbr_input.world_normal) < 0.0 {
        face = -face;
    }

    var albedo = pbr_input.material.base_color.rgb;

    // Doors and lifts: their own colour first, so the walkable tint still
    // shows on a lift's floor.
    albedo = mix(albedo, grid.mover_tint.rgb, grid.mover_tint.a);

    // Walkable or too steep, with a narrow soft edge at the limit.
    let up_cos = dot(face, grid.up);
    let walkable = smoothstep(grid.cos_walkable - 0.004, grid.cos_walkable + 0.004, up_cos);
    // Walls and ceilings are plainly not walkable: a lighter steep tint
    // there keeps the strong one for slopes that look climbable but are not.
    let steepness = mix(0.35, 1.0, smoothstep(0.05, 0.3, up_cos));
    let tint = mix(vec4(grid.steep_tint.rgb, grid.steep_tint.a * steepness), grid.walkable_tint, walkable);
    albedo = mix(albedo, tint.rgb, tint.a * grid.slope_tint_strength);

    // Diagonal stripes on doors and lifts, fixed to the body.
    let p = (grid.grid_from_world * vec4(world, 1.0)).xyz;
    if grid.stripes > 0.0 {
        let s = fract((p.x + p.y + p.z) * 2.0);
        let edge = fwidth((p.x + p.y + p.z) * 2.0);
        let band = smoothstep(0.5 - edge, 0.5 + edge, s) - smoothstep(1.0 - edge, 1.0, s);
        albedo = mix(albedo, albedo * 0.45, band * grid.stripes);
    }

    // Metre and 25 cm lines, darkening the albedo.
    let n = abs(normalize((grid.grid_from_world * vec4(face, 0.0)).xyz));
    let weights = 1.0 - smoothstep(vec3(0.8), vec3(0.97), n);
    let metre = line_cover(p, weights, 1.0, 1.2);
    let quarter = line_cover(p, weights, 0.25, 0.7);
    albedo *= 1.0 - max(metre * 0.55, quarter * 0.25) * grid.line_strength;

    pbr_input.material.base_color = vec4(albedo, pbr_input.material.base_color.a);

#ifdef PREPASS_PIPELINE
    let out = deferred_output(in, pbr_input);
#else
    var out: FragmentOutput;
    if (pbr_input.material.flags & STANDARD_MATERIAL_FLAGS_UNLIT_BIT) == 0u {
        out.color = apply_pbr_lighting(pbr_input);
    } else {
        out.color = pbr_input.material.base_color;
    }
    out.color = main_pass_post_lighting_processing(pbr_input, out.color);
#endif
    return out;
}
