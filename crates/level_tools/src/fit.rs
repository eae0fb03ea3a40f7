//! How well each analytic collider's triangles fit its exact shape.

use slidewalk_level::Level;
use slidewalk_sweep::AnalyticShape;

/// How an analytic collider's triangles (what the player collides with and
/// what is drawn) fit its exact shape (what balls meet).
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyticFit {
    /// The node's name.
    pub name: String,
    /// `"plane"` or `"cylinder"`.
    pub kind: &'static str,
    /// Its triangles kept in the static collider.
    pub triangles: usize,
    /// Farthest any corner of those triangles is from the shape's surface,
    /// metres: 0 for a quad on the plane or a tessellated cylinder whose
    /// vertices are on the circle (its faces are then inside by the sagitta).
    pub max_vertex_distance: f32,
}

/// The fit of each of the level's analytic colliders, in [`Level::analytic`] order.
pub fn analytic_fit(level: &Level) -> Vec<AnalyticFit> {
    let mut fits: Vec<AnalyticFit> = level
        .analytic
        .iter()
        .map(|a| AnalyticFit {
            name: a.name.clone(),
            kind: match a.shape {
                AnalyticShape::Plane(_) => "plane",
                AnalyticShape::Cylinder(_) => "cylinder",
            },
            triangles: 0,
            max_vertex_distance: 0.0,
        })
        .collect();
    let Some(statics) = &level.statics else { return fits };
    for slot in 0..statics.len() {
        let triangle = statics.input_index(slot);
        // The analytic nodes' triangle ranges are in increasing order.
        let k = level.analytic.partition_point(|a| a.triangles.end <= triangle);
        let Some(a) = level.analytic.get(k).filter(|a| a.triangles.contains(&triangle)) else {
            continue;
        };
        let fit = &mut fits[k];
        fit.triangles += 1;
        for corner in statics.triangle(slot) {
            fit.max_vertex_distance = fit.max_vertex_distance.max(a.shape.signed_distance(corner).abs());
        }
    }
    fits
}
