//! The `engine` target's Avian shapes: every kind the mirror handles
//! (cuboids, balls, capsules, cylinders, cones, rounded boxes, convex
//! hulls, triangle meshes, compounds), drawn from the fuzzer's bytes and
//! built as Avian colliders.

use crate::draw;
use arbitrary::{Result, Unstructured};
use avian3d::prelude::Collider as AvianCollider;
use glam::{Quat, Vec3};

/// A part of a compound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Part {
    Cuboid(Vec3),
    Ball(f32),
    Capsule(f32, f32),
    Cylinder(f32, f32),
}

/// A triangle mesh.
#[derive(Clone, Debug, PartialEq)]
pub enum Mesh {
    /// A closed box (parry's own triangulation).
    Box(Vec3),
    /// A closed wedge rising along +x.
    Wedge(Vec3),
    /// An open 4 × 4 grid of heights, 1 m apart.
    Grid([f32; 16]),
}

/// An Avian collider shape, metres (Avian's constructors' arguments).
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Half extents.
    Cuboid(Vec3),
    Ball(f32),
    /// Radius, length between the caps' centres.
    Capsule(f32, f32),
    /// Radius, height.
    Cylinder(f32, f32),
    /// Radius, height.
    Cone(f32, f32),
    /// Half extents of the inner box, border radius.
    RoundCuboid(Vec3, f32),
    /// Points of a convex hull (never flat).
    Hull(Vec<Vec3>),
    Trimesh(Mesh),
    /// Parts placed in the compound's frame.
    Compound(Vec<(Vec3, Quat, Part)>),
}

impl Shape {
    /// Whether a scale other than uniform keeps Avian's scaled shape and
    /// the mirror's the same: Avian scales a compound's parts in their own
    /// frames (a turned part is scaled along its own axes, the mirror
    /// along the compound's), and a rounded shape's border not at all (so
    /// a rounded box is only grown, never shrunk).
    pub(super) fn scale_ok(&self, scale: Vec3) -> bool {
        match self {
            Shape::Compound(parts) => {
                scale.x == scale.y && scale.y == scale.z || parts.iter().all(|(_, r, _)| *r == Quat::IDENTITY)
            }
            Shape::RoundCuboid(..) => scale.min_element() >= 1.0,
            _ => true,
        }
    }

    /// Whether a dynamic body may have it (Avian's own contacts need a
    /// volume: no triangle meshes).
    pub(super) fn solid(&self) -> bool {
        !matches!(self, Shape::Trimesh(_))
    }
}

fn half(u: &mut Unstructured<'_>) -> Result<Vec3> {
    Ok(Vec3::new(
        draw::in_range(u, 0.1, 2.5)?,
        draw::in_range(u, 0.05, 1.5)?,
        draw::in_range(u, 0.1, 2.5)?,
    ))
}

fn part(u: &mut Unstructured<'_>) -> Result<Part> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => Part::Cuboid(half(u)? * 0.5),
        1 => Part::Ball(draw::in_range(u, 0.1, 1.0)?),
        2 => Part::Capsule(draw::in_range(u, 0.1, 0.6)?, draw::in_range(u, 0.0, 1.5)?),
        _ => Part::Cylinder(draw::in_range(u, 0.1, 1.0)?, draw::in_range(u, 0.1, 1.5)?),
    })
}

pub(super) fn shape(u: &mut Unstructured<'_>) -> Result<Shape> {
    Ok(match u.int_in_range(0u8..=10)? {
        0 | 1 => Shape::Cuboid(half(u)?),
        2 => Shape::Ball(draw::in_range(u, 0.1, 1.5)?),
        3 => Shape::Capsule(draw::in_range(u, 0.1, 1.0)?, draw::in_range(u, 0.0, 2.0)?),
        4 => Shape::Cylinder(draw::in_range(u, 0.1, 2.0)?, draw::in_range(u, 0.1, 2.0)?),
        5 => Shape::Cone(draw::in_range(u, 0.1, 2.0)?, draw::in_range(u, 0.1, 2.0)?),
        6 => Shape::RoundCuboid(half(u)? * 0.8, draw::in_range(u, 0.02, 0.3)?),
        7 => {
            // A tetrahedron and more points: a hull with a volume (Avian's
            // mass of a flat one is not finite, and its step panics).
            let size = draw::in_range(u, 0.3, 1.5)?;
            let mut points: Vec<Vec3> = [(1.0, 1.0, 1.0), (1.0, -1.0, -1.0), (-1.0, 1.0, -1.0), (-1.0, -1.0, 1.0)]
                .map(|(x, y, z)| Vec3::new(x, y, z) * size)
                .into();
            for _ in 0..u.int_in_range(0u8..=6)? {
                points.push(draw::sane_vec3(u, 1.5)?);
            }
            Shape::Hull(points)
        }
        8 => Shape::Trimesh(match u.int_in_range(0u8..=2)? {
            0 => Mesh::Box(half(u)?),
            1 => Mesh::Wedge(half(u)?),
            _ => {
                let mut heights = [0.0; 16];
                for h in &mut heights {
                    *h = draw::in_range(u, -0.5, 0.5)?;
                }
                Mesh::Grid(heights)
            }
        }),
        _ => {
            let n = u.int_in_range(1u8..=3)?;
            let parts = (0..n)
                .map(|_| {
                    let rotation = if u.ratio(1u8, 2)? {
                        Quat::IDENTITY
                    } else {
                        draw::rotation(u)?
                    };
                    Ok((draw::sane_vec3(u, 1.5)?, rotation, part(u)?))
                })
                .collect::<Result<_>>()?;
            Shape::Compound(parts)
        }
    })
}

/// A shape a dynamic body may have.
pub(super) fn solid_shape(u: &mut Unstructured<'_>) -> Result<Shape> {
    let s = shape(u)?;
    Ok(if s.solid() { s } else { Shape::Cuboid(Vec3::splat(0.4)) })
}

/// How far an Avian collider reaches from its entity's origin at `scale`.
pub(super) fn reach_of(collider: &AvianCollider, scale: Vec3) -> f32 {
    let aabb = collider.shape().compute_local_aabb();
    aabb.mins.abs().max(aabb.maxs.abs()).length() * scale.max_element()
}

fn part_collider(p: &Part) -> AvianCollider {
    match *p {
        Part::Cuboid(h) => AvianCollider::cuboid(2.0 * h.x, 2.0 * h.y, 2.0 * h.z),
        Part::Ball(r) => AvianCollider::sphere(r),
        Part::Capsule(r, l) => AvianCollider::capsule(r, l),
        Part::Cylinder(r, h) => AvianCollider::cylinder(r, h),
    }
}

/// The Avian collider a [`Shape`] stands for.
pub fn collider(shape: &Shape) -> AvianCollider {
    match shape {
        Shape::Cuboid(h) => AvianCollider::cuboid(2.0 * h.x, 2.0 * h.y, 2.0 * h.z),
        Shape::Ball(r) => AvianCollider::sphere(*r),
        Shape::Capsule(r, l) => AvianCollider::capsule(*r, *l),
        Shape::Cylinder(r, h) => AvianCollider::cylinder(*r, *h),
        Shape::Cone(r, h) => AvianCollider::cone(*r, *h),
        Shape::RoundCuboid(h, b) => AvianCollider::round_cuboid(2.0 * h.x, 2.0 * h.y, 2.0 * h.z, *b),
        Shape::Hull(points) => {
            AvianCollider::convex_hull(points.clone()).unwrap_or_else(|| AvianCollider::cuboid(0.5, 0.5, 0.5))
        }
        Shape::Trimesh(mesh) => {
            let (vertices, indices) = trimesh(mesh);
            AvianCollider::trimesh(vertices, indices)
        }
        Shape::Compound(parts) => {
            AvianCollider::compound(parts.iter().map(|(p, r, s)| (*p, *r, part_collider(s))).collect())
        }
    }
}

fn trimesh(mesh: &Mesh) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    match mesh {
        Mesh::Box(h) => avian3d::parry::shape::Cuboid::new(*h).to_trimesh(),
        Mesh::Wedge(h) => {
            // Bottom corners 0..4, the high edge 4..6 over x = +h.x.
            let v = vec![
                Vec3::new(-h.x, -h.y, -h.z),
                Vec3::new(h.x, -h.y, -h.z),
                Vec3::new(h.x, -h.y, h.z),
                Vec3::new(-h.x, -h.y, h.z),
                Vec3::new(h.x, h.y, -h.z),
                Vec3::new(h.x, h.y, h.z),
            ];
            let i = vec![
                [0, 1, 2],
                [0, 2, 3],
                [0, 5, 4],
                [0, 3, 5],
                [1, 4, 5],
                [1, 5, 2],
                [0, 4, 1],
                [3, 2, 5],
            ];
            (v, i)
        }
        Mesh::Grid(heights) => {
            let v = (0..16)
                .map(|k| Vec3::new((k % 4) as f32 - 1.5, heights[k], (k / 4) as f32 - 1.5))
                .collect();
            let mut i = Vec::new();
            for z in 0..3u32 {
                for x in 0..3u32 {
                    let a = z * 4 + x;
                    i.push([a, a + 4, a + 1]);
                    i.push([a + 1, a + 4, a + 5]);
                }
            }
            (v, i)
        }
    }
}
