//! Avian's collider shapes (parry's) as the triangles characters collide
//! with, in the shape's own frame and unscaled: polyhedra and meshes as
//! they are; curved shapes (balls, capsules, cylinders, cones, rounded
//! ones) as polyhedra that hold them, every face on or outside the true
//! surface, so a character never sinks into a barrel by the facets'
//! depth; compounds part by part; a half-space as a square 2 km across.

use avian3d::parry::math::Pose;
use avian3d::parry::shape::{Ball, ConvexPolyhedron, Shape, SupportMap, TypedShape};
use bevy::math::Vec3;
use bevy_slidewalk::bodies::{HALF_SPACE_TILES, half_space_square};

/// Segments around a curved shape's axis (a ball has half as many from
/// pole to pole): faces 15° wide, 0.9% of the radius deep before they are
/// pushed out to hold the curve.
pub const SEGMENTS: u32 = 24;

/// Half the side of the square a half-space becomes, metres.
pub const HALF_SPACE_HALF_SIDE: f32 = 1000.0;

/// A shape's triangles: positions (metres, the shape's frame) and three
/// indices each, and the kinds of parts left out (no area to stand on).
#[derive(Default, Debug)]
pub struct Triangles {
    /// Corners, metres.
    pub positions: Vec<Vec3>,
    /// Three indices into `positions` each.
    pub triangles: Vec<[u32; 3]>,
    /// The kinds of parts left out ("segment", "polyline", a custom shape).
    pub left_out: Vec<&'static str>,
}

impl Triangles {
    /// Appends a part placed by `pose` in this shape's frame.
    fn push(&mut self, pose: &Pose, (positions, triangles): (Vec<Vec3>, Vec<[u32; 3]>)) {
        let base = self.positions.len() as u32;
        self.positions
            .extend(positions.into_iter().map(|p| pose.transform_point(p)));
        self.triangles
            .extend(triangles.into_iter().map(|t| t.map(|i| i + base)));
    }
}

/// The triangles of `shape`, in its frame.
pub fn triangles_of(shape: &dyn Shape) -> Triangles {
    let mut out = Triangles::default();
    add(&mut out, &Pose::IDENTITY, shape);
    out
}

fn add(out: &mut Triangles, pose: &Pose, shape: &dyn Shape) {
    let n = SEGMENTS;
    match shape.as_typed_shape() {
        TypedShape::Cuboid(c) => out.push(pose, c.to_trimesh()),
        TypedShape::ConvexPolyhedron(c) => out.push(pose, c.to_trimesh()),
        TypedShape::TriMesh(m) => out.push(pose, (m.vertices().to_vec(), m.indices().to_vec())),
        TypedShape::HeightField(h) => out.push(pose, h.to_trimesh()),
        TypedShape::Voxels(v) => out.push(pose, v.to_trimesh()),
        TypedShape::Triangle(t) => out.push(pose, (vec![t.a, t.b, t.c], vec![[0, 1, 2]])),
        TypedShape::Ball(b) => out.push(pose, holding(b.to_trimesh(n, n / 2), b)),
        TypedShape::Capsule(c) => out.push(pose, holding(c.to_trimesh(n, n / 2), c)),
        TypedShape::Cylinder(c) => out.push(pose, holding(c.to_trimesh(n), c)),
        TypedShape::Cone(c) => out.push(pose, holding(c.to_trimesh(n), c)),
        // Rounded shapes: their inner shape (held) grown by the border.
        TypedShape::RoundCuboid(r) => out.push(pose, rounded(r.inner_shape.to_trimesh().0, r.border_radius)),
        TypedShape::RoundCylinder(r) => {
            let inner = holding(r.inner_shape.to_trimesh(n), &r.inner_shape).0;
            out.push(pose, rounded(inner, r.border_radius));
        }
        TypedShape::RoundCone(r) => {
            let inner = holding(r.inner_shape.to_trimesh(n), &r.inner_shape).0;
            out.push(pose, rounded(inner, r.border_radius));
        }
        TypedShape::RoundConvexPolyhedron(r) => out.push(pose, rounded(r.inner_shape.to_trimesh().0, r.border_radius)),
        TypedShape::RoundTriangle(r) => {
            let t = &r.inner_shape;
            out.push(pose, rounded(vec![t.a, t.b, t.c], r.border_radius));
        }
        TypedShape::HalfSpace(h) => {
            // A square on the boundary plane, facing out, in tiles.
            out.push(
                pose,
                half_space_square(h.normal, HALF_SPACE_HALF_SIDE, HALF_SPACE_TILES),
            );
        }
        TypedShape::Compound(c) => {
            for (part_pose, part) in c.shapes() {
                add(out, &(*pose * *part_pose), part.as_ref());
            }
        }
        TypedShape::Segment(_) => out.left_out.push("segment"),
        TypedShape::Polyline(_) => out.left_out.push("polyline"),
        TypedShape::Custom(_) => out.left_out.push("custom shape"),
    }
}

/// The polyhedron `mesh` of a curved convex shape, scaled out to hold it
/// (`bevy_slidewalk::bodies::holding` with the shape's support).
fn holding((positions, triangles): (Vec<Vec3>, Vec<[u32; 3]>), shape: &impl SupportMap) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let positions = bevy_slidewalk::bodies::holding(positions, &triangles, |d| shape.local_support_point(d));
    (positions, triangles)
}

/// A rounded shape, `border` (metres) around the convex polyhedron of
/// `inner` corners: the hull of the corners each grown by a polyhedron
/// that holds a ball of `border` (the inner polyhedron swept by one that
/// holds the ball holds the inner one swept by the ball). It stands at most
/// 2% of `border` off the true shape. Empty if parry finds no hull.
fn rounded(inner: Vec<Vec3>, border: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let unit = Ball::new(1.0);
    let ball = holding(unit.to_trimesh(SEGMENTS, SEGMENTS / 2), &unit).0;
    let points: Vec<Vec3> = inner
        .iter()
        .flat_map(|corner| ball.iter().map(move |p| *corner + *p * border))
        .collect();
    match ConvexPolyhedron::from_convex_hull(&points) {
        Some(hull) => hull.to_trimesh(),
        None => (Vec::new(), Vec::new()),
    }
}
