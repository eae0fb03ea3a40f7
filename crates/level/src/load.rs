//! glTF → `Level`: walks the scene's node hierarchy, reads every triangle
//! primitive (lists, strips, fans; any index width or none), applies the
//! level conventions and builds the static collider and one collider per mover.

use crate::buffers::load_buffers;
use crate::conventions::{AnalyticKind, DoorMotion, Role, read_node};
use crate::error::LevelError;
use crate::level::{AnalyticCollider, Level, LoadReport, Mover, MoverKind, Spawn, Surface};
use crate::{draco, extensions};
use glam::{Mat3, Mat4, Vec3};
use gltf::accessor::DataType;
use gltf::mesh::Mode;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use sweep::proxy::{ProxyMesh, ProxyShape};
use sweep::{Aabb, AnalyticShape, BuildError, Cylinder, MeshCollider, Plane, Pose};

/// Farthest a spawn point may be from the origin on any axis, metres
/// (beyond it an `f32` position is coarser than 6 cm).
const SPAWN_LIMIT: f32 = 1e6;

/// Loads a level from a `.glb` or `.gltf` file (external or embedded buffers).
pub fn load(path: impl AsRef<Path>) -> Result<Level, LevelError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| LevelError::Io {
        path: path.to_owned(),
        source,
    })?;
    load_bytes(&bytes, path.parent(), path)
}

/// Loads a level from the bytes of a `.glb` or `.gltf` file. External
/// buffers are looked up in `base_dir`; `label` names the file in errors.
/// Extensions are treated as [`crate::extensions`] lists them; those
/// ignored are named in [`LoadReport::notices`].
pub fn load_bytes(bytes: &[u8], base_dir: Option<&Path>, label: &Path) -> Result<Level, LevelError> {
    let (gltf, notices) = parse(bytes, label)?;
    let buffers = load_buffers(&gltf, base_dir, label)?;
    let mut builder = Builder {
        path: label.to_owned(),
        buffers,
        report: LoadReport {
            notices,
            ..Default::default()
        },
        ..Default::default()
    };
    builder.surfaces.push(Surface {
        name: "default".into(),
        friction: 1.0,
    });
    for node in root_nodes(&gltf) {
        builder.visit(
            &gltf,
            node,
            Mat4::IDENTITY,
            Inherited {
                mover: None,
                nocollide: false,
                surface: 0,
            },
        )?;
    }
    builder.finish()
}

/// Parses and validates the glTF by the rules of [`crate::extensions`]: a
/// required extension that does not change geometry is ignored (with a
/// notice), compressed geometry is read. Validation problems only with what is drawn (textures,
/// images, materials, samplers) do not refuse it either: its geometry is
/// what the level needs, and it stays walkable even where it cannot be drawn.
fn parse(bytes: &[u8], label: &Path) -> Result<(gltf::Gltf, Vec<String>), LevelError> {
    let not_gltf = |problems: Vec<String>| LevelError::not_gltf(label, problems);
    // The gltf crate subtracts the 12-byte header from the length a GLB
    // header gives without checking it (gltf 1.4.1, binary.rs): a smaller
    // one overflows, a panic in builds with overflow checks (`cargo run`).
    if let Some(length) = bytes
        .strip_prefix(b"glTF")
        .and_then(|rest| rest.get(4..8))
        .map(|l| u32::from_le_bytes([l[0], l[1], l[2], l[3]]))
        .filter(|&length| length < 12)
    {
        return Err(not_gltf(vec![format!(
            "its GLB header gives the file a length of {length} bytes, less than the header's own 12"
        )]));
    }
    let raw = gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| not_gltf(vec![e.to_string()]))?;
    let mut notices = Vec::new();
    for name in raw.extensions_required() {
        notices.extend(extensions::ignored_notice(name));
    }
    // The gltf crate's validator indexes the accessors a POSITION attribute
    // names without checking them (gltf-json 1.4.1, mesh.rs): the fuzzer
    // found that an out-of-range index panics there. Caught, it is an error.
    let validated = std::panic::catch_unwind(|| gltf::Gltf::from_slice(bytes)).map_err(|_| {
        not_gltf(vec![
            "an accessor index is out of range (the glTF validator failed on it)".into(),
        ])
    })?;
    let errors = match validated {
        Ok(gltf) => return Ok((gltf, notices)),
        Err(gltf::Error::Validation(errors)) => errors,
        Err(e) => return Err(not_gltf(vec![e.to_string()])),
    };
    let about_drawing = |path: &gltf::json::Path| {
        ["textures", "images", "materials", "samplers", "extensionsRequired"]
            .iter()
            .any(|drawn| path.as_str().starts_with(drawn))
    };
    // Accessors a Draco-compressed primitive names need no data of their
    // own. Read from the JSON as written: the document is not validated, so
    // its accessor indices may be out of range (the fuzzer's finding).
    let draco_accessors: Vec<String> = raw
        .as_json()
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .filter(|p| {
            p.extensions
                .as_ref()
                .is_some_and(|e| e.others.contains_key(extensions::DRACO))
        })
        .flat_map(|p| p.attributes.values().chain(&p.indices).map(|i| i.value()))
        .map(|i| format!("accessors[{i}]."))
        .collect();
    let problems: Vec<String> = errors
        .iter()
        .filter(|(path, _)| !about_drawing(path))
        .filter(|(path, _)| !draco_accessors.iter().any(|a| path.as_str().starts_with(a.as_str())))
        .map(|(path, error)| format!("{}: {error}", path.as_str()))
        .collect();
    if problems.is_empty() {
        return Ok((raw, notices));
    }
    Err(not_gltf(problems))
}

/// The nodes to start from: the default scene's, else the first scene's,
/// else every node that is nobody's child.
fn root_nodes(gltf: &gltf::Gltf) -> Vec<gltf::Node<'_>> {
    if let Some(scene) = gltf.default_scene().or_else(|| gltf.scenes().next()) {
        return scene.nodes().collect();
    }
    let mut is_child = vec![false; gltf.nodes().len()];
    for node in gltf.nodes() {
        for child in node.children() {
            is_child[child.index()] = true;
        }
    }
    gltf.nodes().filter(|n| !is_child[n.index()]).collect()
}

/// What a node passes down to its children.
#[derive(Clone, Copy)]
struct Inherited {
    /// Index of the mover being collected.
    mover: Option<usize>,
    nocollide: bool,
    surface: u16,
}

/// A mover while its triangles are being collected (world space).
struct MoverDraft {
    name: String,
    node: usize,
    role: Role,
    rest: Pose,
    world: Vec<[Vec3; 3]>,
    surface: u16,
}

#[derive(Default)]
struct Builder {
    path: PathBuf,
    buffers: Vec<Vec<u8>>,
    positions: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    static_surfaces: Vec<u16>,
    surfaces: Vec<Surface>,
    movers: Vec<MoverDraft>,
    analytic: Vec<AnalyticCollider>,
    spawns: Vec<Spawn>,
    report: LoadReport,
    depth: usize,
    /// Each mesh's proxy by (mesh index, shape), fitted once for all the
    /// nodes and GPU instances that draw it.
    proxies: HashMap<(usize, ProxyShape), Option<ProxyMesh>>,
}

impl Builder {
    fn visit(
        &mut self,
        doc: &gltf::Document,
        node: gltf::Node<'_>,
        parent: Mat4,
        inherited: Inherited,
    ) -> Result<(), LevelError> {
        // A cyclic hierarchy is invalid glTF; refuse it instead of recursing forever.
        if self.depth > 256 {
            return Err(self.bad_node(&node, "node hierarchy is deeper than 256 levels (a cycle?)".into()));
        }
        self.report.nodes += 1;
        let world = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        let extras = node.extras().as_ref().map(|raw| raw.get());
        let conv = read_node(node.name(), extras).map_err(|reason| self.bad_node(&node, reason))?;
        let mut here = inherited;
        if let Some(friction) = conv.friction {
            self.surfaces.push(Surface {
                name: node_name(&node),
                friction,
            });
            here.surface = (self.surfaces.len() - 1).min(u16::MAX as usize) as u16;
        }
        match &conv.role {
            Role::Spawn => {
                let forward = world.transform_vector3(Vec3::NEG_Z);
                let position = world.transform_point3(Vec3::ZERO);
                // Where the player is put: NaN or far out would break every tick.
                if !(position.is_finite() && position.abs().max_element() <= SPAWN_LIMIT) {
                    return Err(self.bad_node(
                        &node,
                        format!(
                            "a spawn point must be within {SPAWN_LIMIT:e} m of the origin on every axis, \
                             but its transform puts it at [{}]",
                            position
                                .to_array()
                                .map(|x| if x.abs() < 1e9 {
                                    format!("{x}")
                                } else {
                                    format!("{x:e}")
                                })
                                .join(", ")
                        ),
                    ));
                }
                self.spawns.push(Spawn {
                    position,
                    yaw: (-forward.x).atan2(-forward.z),
                });
            }
            Role::NoCollide => here.nocollide = true,
            Role::Door(_) | Role::Lift(_) if here.mover.is_none() && !here.nocollide => {
                let (_, rotation, translation) = world.to_scale_rotation_translation();
                self.movers.push(MoverDraft {
                    name: node_name(&node),
                    node: node.index(),
                    role: conv.role.clone(),
                    rest: Pose {
                        rotation: rotation.normalize(),
                        translation,
                    },
                    world: Vec::new(),
                    surface: here.surface,
                });
                here.mover = Some(self.movers.len() - 1);
            }
            _ => {}
        }
        if let (Some(kind), true) = (conv.collider, here.mover.is_some() || here.nocollide) {
            return Err(self.bad_node(
                &node,
                format!(
                    "\"collider\": {:?} is for static geometry, but this node is part of a door, lift or no-collide node",
                    kind.word()
                ),
            ));
        }
        // Sparse accessors are bounds-checked only while read: caught, corrupt data is an error.
        let instances = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            instance_transforms(doc, &node, &self.buffers)
        }))
        .unwrap_or_else(|_| Err(format!("{}: accessor data is corrupt", extensions::INSTANCING)))
        .map_err(|reason| self.bad_node(&node, reason))?;
        if let (Some(kind), Some(_)) = (conv.collider, &instances) {
            return Err(self.bad_node(
                &node,
                format!(
                    "\"collider\": {:?} needs a node drawn once, not copied by {}",
                    kind.word(),
                    extensions::INSTANCING
                ),
            ));
        }
        if let (Some(mesh), Some(instances)) = (node.mesh(), &instances) {
            for instance in instances {
                self.report.mesh_instances += 1;
                self.read_mesh(doc, &mesh, &(world * *instance), here, conv.proxy)?;
            }
        } else if let Some(mesh) = node.mesh() {
            self.report.mesh_instances += 1;
            let first = self.triangles.len() as u32;
            let local = self.read_mesh(doc, &mesh, &world, here, conv.proxy)?;
            if let Some(kind) = conv.collider {
                let shape = analytic_shape(kind, &world, local).map_err(|reason| self.bad_node(&node, reason))?;
                self.analytic.push(AnalyticCollider {
                    name: node_name(&node),
                    node: node.index(),
                    shape,
                    surface: here.surface,
                    triangles: first..self.triangles.len() as u32,
                });
            }
        } else if let Some(kind) = conv.collider {
            return Err(self.bad_node(
                &node,
                format!("\"collider\": {:?} needs a mesh on the node itself", kind.word()),
            ));
        }
        self.depth += 1;
        for child in node.children() {
            self.visit(doc, child, world, here)?;
        }
        self.depth -= 1;
        Ok(())
    }

    /// Reads a mesh instance's triangles into the static collider or its
    /// mover (or, with `proxy`, the proxy's fitted to all its primitives'
    /// positions in the node's frame); returns the bounds of its positions
    /// in the node's frame.
    fn read_mesh(
        &mut self,
        doc: &gltf::Document,
        mesh: &gltf::Mesh<'_>,
        world: &Mat4,
        here: Inherited,
        proxy: Option<ProxyShape>,
    ) -> Result<Aabb, LevelError> {
        let mut local = Aabb::EMPTY;
        let mut proxy_points = Vec::new();
        let mesh_name = mesh
            .name()
            .map(str::to_owned)
            .unwrap_or_else(|| format!("mesh {}", mesh.index()));
        for (p, primitive) in mesh.primitives().enumerate() {
            let (positions, triangles) = match read_primitive(doc, &primitive, &self.buffers) {
                Ok(Some(data)) => data,
                Ok(None) => {
                    self.report.skipped_primitives += 1;
                    continue;
                }
                Err(PrimitiveError::Draco(reason)) => {
                    // A mesh the decoder fails on leaves the rest of the
                    // level walkable; a notice (one per mesh) says what is missing.
                    self.report.skipped_primitives += 1;
                    if !self.report.undecoded_meshes.contains(&mesh_name) {
                        self.report.undecoded_meshes.push(mesh_name.clone());
                        self.report
                            .notices
                            .push(format!("mesh {mesh_name:?} does not collide: {reason}"));
                    }
                    continue;
                }
                Err(PrimitiveError::Accessor(reason)) => {
                    return Err(LevelError::BadAccessor {
                        path: self.path.clone(),
                        mesh: mesh_name,
                        primitive: p,
                        reason,
                    });
                }
                Err(PrimitiveError::Index { index, vertex_count }) => {
                    return Err(LevelError::IndexOutOfRange {
                        path: self.path.clone(),
                        mesh: mesh_name,
                        primitive: p,
                        index,
                        vertex_count,
                    });
                }
            };
            self.report.primitives += 1;
            self.report.triangles += triangles.len();
            local = local.union(Aabb::from_points(positions.iter().copied()));
            if proxy.is_some() {
                // Only the corners that triangles use: a buffer may hold more.
                proxy_points.extend(triangles.iter().flatten().map(|&i| positions[i as usize]));
                self.report.proxied_triangles += triangles.len();
                continue;
            }
            self.add_triangles(&positions, &triangles, world, here);
        }
        if let Some(shape) = proxy {
            let key = (mesh.index(), shape);
            if !self.proxies.contains_key(&key) {
                let made = sweep::proxy::proxy_mesh(shape, &proxy_points);
                if let Some(m) = made.as_ref().filter(|m| m.shape != shape) {
                    self.report.notices.push(format!(
                        "mesh {mesh_name:?}: \"proxy\": {:?} of a mesh without volume collides as its {} instead",
                        shape.word(),
                        m.shape.word()
                    ));
                }
                self.proxies.insert(key, made);
            }
            if let Some(made) = self.proxies[&key].clone() {
                self.report.proxies += 1;
                self.report.proxy_triangles += made.triangles.len();
                self.add_triangles(&made.positions, &made.triangles, world, here);
            }
        }
        Ok(local)
    }

    /// Adds triangles (`positions` in the node's frame, placed by `world`)
    /// to the static collider or the mover `here` is in, or counts them
    /// under a no-collide node.
    fn add_triangles(&mut self, positions: &[Vec3], triangles: &[[u32; 3]], world: &Mat4, here: Inherited) {
        let positions: Vec<Vec3> = positions.iter().map(|v| world.transform_point3(*v)).collect();
        if here.nocollide {
            self.report.nocollide_triangles += triangles.len();
        } else if let Some(m) = here.mover {
            let draft = &mut self.movers[m];
            draft
                .world
                .extend(triangles.iter().map(|t| t.map(|i| positions[i as usize])));
        } else {
            let base = self.positions.len() as u32;
            self.positions.extend_from_slice(&positions);
            self.triangles.extend(triangles.iter().map(|t| t.map(|i| i + base)));
            self.static_surfaces
                .extend(std::iter::repeat_n(here.surface, triangles.len()));
        }
    }

    fn bad_node(&self, node: &gltf::Node<'_>, reason: String) -> LevelError {
        LevelError::BadConvention {
            path: self.path.clone(),
            node: node_name(node),
            reason,
        }
    }

    fn finish(mut self) -> Result<Level, LevelError> {
        let statics = match MeshCollider::build(&self.positions, &self.triangles) {
            Ok(c) => {
                self.report.statics = *c.report();
                Some(c)
            }
            Err(BuildError::NoTriangles(r)) => {
                self.report.statics = r;
                None
            }
            Err(e @ BuildError::IndexOutOfRange { .. }) => unreachable!("indices were checked while reading: {e}"),
        };
        let mut movers = Vec::new();
        for draft in std::mem::take(&mut self.movers) {
            let local: Vec<[Vec3; 3]> = draft
                .world
                .iter()
                .map(|t| t.map(|p| draft.rest.inverse_transform_point(p)))
                .collect();
            let collider = match MeshCollider::from_triangles(&local) {
                Ok(c) => c,
                Err(e) => {
                    return Err(LevelError::BadConvention {
                        path: self.path.clone(),
                        node: draft.name,
                        reason: format!(
                            "a door or lift needs triangles of its own (in its mesh or its children's): {e}"
                        ),
                    });
                }
            };
            self.report.mover_rejected_non_finite += collider.report().rejected_non_finite;
            self.report.mover_rejected_degenerate += collider.report().rejected_degenerate;
            let kind = match draft.role {
                Role::Door(mut spec) => {
                    if let DoorMotion::Slide { offset: None } = spec.motion {
                        let width = collider.bounds().size().x;
                        spec.motion = DoorMotion::Slide {
                            offset: Some(draft.rest.rotation * Vec3::X * width * 0.95),
                        };
                    }
                    MoverKind::Door(spec)
                }
                Role::Lift(spec) => MoverKind::Lift(spec),
                _ => unreachable!("only doors and lifts become movers"),
            };
            movers.push(Mover {
                name: draft.name,
                node: draft.node,
                kind,
                collider,
                rest: draft.rest,
                surface: draft.surface,
            });
        }
        if statics.is_none() && movers.is_empty() {
            return Err(LevelError::NoTriangles {
                path: self.path,
                triangles: self.report.triangles,
                rejected: self.report.rejected(),
                why: self
                    .report
                    .notices
                    .iter()
                    .find(|n| n.contains("does not collide"))
                    .cloned(),
            });
        }
        let mut static_analytic = vec![false; self.triangles.len()];
        for a in &self.analytic {
            static_analytic[a.triangles.start as usize..a.triangles.end as usize].fill(true);
        }
        Ok(Level {
            statics,
            static_surfaces: self.static_surfaces,
            static_analytic,
            analytic: self.analytic,
            surfaces: self.surfaces,
            movers,
            spawns: self.spawns,
            report: self.report,
        })
    }
}

/// The analytic shape a node asks for, in world space, from its world
/// transform and the bounds of its mesh in its own frame (see the table in
/// [`crate::conventions`]). A message saying what is wrong otherwise.
fn analytic_shape(kind: AnalyticKind, world: &Mat4, local: Aabb) -> Result<AnalyticShape, String> {
    let word = kind.word();
    if local.min.cmpgt(local.max).any() {
        return Err(format!("\"collider\": {word:?} needs triangles in the node's own mesh"));
    }
    let linear = Mat3::from_mat4(*world);
    let singular = || format!("\"collider\": {word:?} needs a finite, invertible node transform");
    match kind {
        AnalyticKind::Plane => {
            let tolerance = 1e-4 * local.size().max_element().max(1.0);
            if local.min.y.abs() > tolerance || local.max.y.abs() > tolerance {
                return Err(format!(
                    "\"collider\": \"plane\" needs a mesh flat in the node's y = 0 plane \
                     (the plane's normal is the node's +Y), but it spans y = {} … {}",
                    local.min.y, local.max.y
                ));
            }
            // The normal of the transformed plane y = 0 (the node's +Y when rigid).
            let normal = linear.inverse().transpose() * Vec3::Y;
            Plane::new(world.transform_point3(Vec3::ZERO), normal)
                .map(AnalyticShape::Plane)
                .ok_or_else(singular)
        }
        AnalyticKind::Cylinder => {
            let (x, y, z) = (linear.x_axis, linear.y_axis, linear.z_axis);
            let (sx, sz) = (x.length(), z.length());
            let square = |a: Vec3, b: Vec3| a.dot(b).abs() <= 1e-3 * a.length() * b.length();
            if (sx - sz).abs() > 1e-3 * sx.max(sz) || !square(x, z) || !square(x, y) || !square(y, z) {
                return Err(format!(
                    "\"collider\": \"cylinder\" would be elliptic or oblique: the node's world transform \
                     scales its local x by {sx} and z by {sz}{} (scale x and z alike, without shear)",
                    if square(x, z) && square(x, y) && square(y, z) {
                        ""
                    } else {
                        " and shears its axes"
                    }
                ));
            }
            let centre = local.center();
            let base = world.transform_point3(Vec3::new(centre.x, local.min.y, centre.z));
            let (radius, height) = (local.size().x / 2.0 * sx, local.size().y * y.length());
            Cylinder::new(base, y, height, radius)
                .map(AnalyticShape::Cylinder)
                .ok_or_else(singular)
        }
    }
}

fn node_name(node: &gltf::Node<'_>) -> String {
    node.name()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("node {}", node.index()))
}

enum PrimitiveError {
    Accessor(String),
    Index {
        index: u32,
        vertex_count: usize,
    },
    /// Draco data `draco-core` cannot decode, without an uncompressed copy.
    Draco(String),
}

/// Positions (node space) and index triples of one primitive.
type PrimitiveTriangles = (Vec<Vec3>, Vec<[u32; 3]>);

/// Positions (node space) and triangles of one primitive; `None` for points and lines.
fn read_primitive(
    doc: &gltf::Document,
    primitive: &gltf::Primitive<'_>,
    buffers: &[Vec<u8>],
) -> Result<Option<PrimitiveTriangles>, PrimitiveError> {
    let mode = primitive.mode();
    if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
        return Ok(None);
    }
    // Draco data, where it decodes or the file has no uncompressed copy.
    let uncompressed_copy = primitive
        .get(&gltf::Semantic::Positions)
        .is_some_and(|p| p.view().is_some());
    if let Some(ext) = primitive.extension_value(extensions::DRACO)
        && let Some(decoded) = match draco::decode(doc, ext, buffers) {
            Ok(decoded) => Some(decoded),
            Err(_) if uncompressed_copy => None,
            Err(reason) => return Err(PrimitiveError::Draco(reason)),
        }
    {
        let (positions, triangles) = decoded;
        if let Some(&index) = triangles.iter().flatten().find(|&&i| i as usize >= positions.len()) {
            return Err(PrimitiveError::Index {
                index,
                vertex_count: positions.len(),
            });
        }
        return Ok(Some((positions, triangles)));
    }
    let position = primitive
        .get(&gltf::Semantic::Positions)
        .ok_or(PrimitiveError::Accessor("no POSITION attribute".into()))?;
    if position.dimensions() != gltf::accessor::Dimensions::Vec3 || position.data_type() == DataType::U32 {
        return Err(PrimitiveError::Accessor(format!(
            "POSITION must be a VEC3 of floats or (KHR_mesh_quantization) 8- or 16-bit integers, is {:?} {:?}",
            position.data_type(),
            position.dimensions()
        )));
    }
    check_accessor(&position, buffers).map_err(PrimitiveError::Accessor)?;
    if let Some(indices) = primitive.indices() {
        check_accessor(&indices, buffers).map_err(PrimitiveError::Accessor)?;
    }
    let reader = primitive.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let positions = read_vec3s(&position, buffers).unwrap_or_default();
        let indices: Option<Vec<u32>> = reader.read_indices().map(|i| i.into_u32().collect());
        (positions, indices)
    }));
    let (positions, indices) = read.map_err(|_| PrimitiveError::Accessor("accessor data is corrupt".into()))?;
    let indices = indices.unwrap_or_else(|| (0..positions.len() as u32).collect());
    if let Some(&index) = indices.iter().find(|&&i| i as usize >= positions.len()) {
        return Err(PrimitiveError::Index {
            index,
            vertex_count: positions.len(),
        });
    }
    let n = indices.len();
    let triangles: Vec<[u32; 3]> = match mode {
        Mode::Triangles => indices.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
        Mode::TriangleStrip => (0..n.saturating_sub(2))
            .map(|i| {
                if i % 2 == 0 {
                    [indices[i], indices[i + 1], indices[i + 2]]
                } else {
                    [indices[i + 1], indices[i], indices[i + 2]]
                }
            })
            .collect(),
        Mode::TriangleFan => (1..n.saturating_sub(1))
            .map(|i| [indices[i], indices[i + 1], indices[0]])
            .collect(),
        _ => unreachable!(),
    };
    Ok(Some((positions, triangles)))
}

/// The elements of a VEC3 accessor as floats: `f32`, or 8- and 16-bit
/// integers as `KHR_mesh_quantization` allows them (normalised ones mapped
/// to −1 … 1 or 0 … 1 as the glTF spec says, others taken as they are).
/// `None` when the accessor's data cannot be reached.
fn read_vec3s(accessor: &gltf::Accessor<'_>, buffers: &[Vec<u8>]) -> Option<Vec<Vec3>> {
    fn read<T: gltf::accessor::Item + Copy>(
        accessor: &gltf::Accessor<'_>,
        buffers: &[Vec<u8>],
        to_f32: impl Fn(T) -> f32,
    ) -> Option<Vec<Vec3>> {
        let iter =
            gltf::accessor::Iter::<[T; 3]>::new(accessor.clone(), |b| buffers.get(b.index()).map(Vec::as_slice))?;
        Some(iter.map(|v| Vec3::from_array(v.map(&to_f32))).collect())
    }
    let normalized = accessor.normalized();
    match accessor.data_type() {
        DataType::F32 => read(accessor, buffers, |c: f32| c),
        DataType::I8 if normalized => read(accessor, buffers, |c: i8| (c as f32 / 127.0).max(-1.0)),
        DataType::U8 if normalized => read(accessor, buffers, |c: u8| c as f32 / 255.0),
        DataType::I16 if normalized => read(accessor, buffers, |c: i16| (c as f32 / 32767.0).max(-1.0)),
        DataType::U16 if normalized => read(accessor, buffers, |c: u16| c as f32 / 65535.0),
        DataType::I8 => read(accessor, buffers, |c: i8| c as f32),
        DataType::U8 => read(accessor, buffers, |c: u8| c as f32),
        DataType::I16 => read(accessor, buffers, |c: i16| c as f32),
        DataType::U16 => read(accessor, buffers, |c: u16| c as f32),
        DataType::U32 => None,
    }
}

/// The copies `EXT_mesh_gpu_instancing` makes of a node's mesh, each a
/// transform in the node's frame (translation, rotation, scale as the
/// extension's accessors give them); `None` for a node drawn once.
fn instance_transforms(
    doc: &gltf::Document,
    node: &gltf::Node<'_>,
    buffers: &[Vec<u8>],
) -> Result<Option<Vec<Mat4>>, String> {
    let Some(ext) = node.extension_value(extensions::INSTANCING) else {
        return Ok(None);
    };
    let attribute = |name: &str| -> Result<Option<gltf::Accessor<'_>>, String> {
        let Some(index) = ext.get("attributes").and_then(|a| a.get(name)) else {
            return Ok(None);
        };
        let accessor = index
            .as_u64()
            .and_then(|i| doc.accessors().nth(i as usize))
            .ok_or(format!("{}: {name} names no accessor", extensions::INSTANCING))?;
        check_accessor(&accessor, buffers)?;
        Ok(Some(accessor))
    };
    let vec3s = |name: &str| -> Result<Option<Vec<Vec3>>, String> {
        attribute(name)?
            .map(|a| {
                if a.dimensions() != gltf::accessor::Dimensions::Vec3 {
                    return Err(format!("{}: {name} must be a VEC3", extensions::INSTANCING));
                }
                read_vec3s(&a, buffers).ok_or(format!("{}: {name} cannot be read", extensions::INSTANCING))
            })
            .transpose()
    };
    let translations = vec3s("TRANSLATION")?;
    let scales = vec3s("SCALE")?;
    let rotations: Option<Vec<glam::Quat>> = attribute("ROTATION")?
        .map(|a| {
            let read = gltf::accessor::Iter::<[f32; 4]>::new(a.clone(), |b| buffers.get(b.index()).map(Vec::as_slice));
            match (a.data_type(), a.dimensions(), read) {
                (DataType::F32, gltf::accessor::Dimensions::Vec4, Some(iter)) => {
                    Ok(iter.map(|q| glam::Quat::from_array(q).normalize()).collect())
                }
                _ => Err(format!("{}: ROTATION must be a float VEC4", extensions::INSTANCING)),
            }
        })
        .transpose()?;
    let count = [
        translations.as_ref().map(Vec::len),
        scales.as_ref().map(Vec::len),
        rotations.as_ref().map(Vec::len),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    Ok(Some(
        (0..count)
            .map(|i| {
                let pick = |v: &Option<Vec<Vec3>>, default: Vec3| {
                    v.as_ref().and_then(|v| v.get(i).copied()).unwrap_or(default)
                };
                let rotation = rotations
                    .as_ref()
                    .and_then(|r| r.get(i).copied())
                    .unwrap_or(glam::Quat::IDENTITY);
                Mat4::from_scale_rotation_translation(
                    pick(&scales, Vec3::ONE),
                    rotation,
                    pick(&translations, Vec3::ZERO),
                )
            })
            .collect(),
    ))
}

/// Checks that an accessor's elements lie inside its buffer view and the
/// view inside its buffer, so reading can never go out of bounds.
fn check_accessor(accessor: &gltf::Accessor<'_>, buffers: &[Vec<u8>]) -> Result<(), String> {
    if accessor.sparse().is_some() {
        return Ok(()); // sparse data is bounds-checked while reading (caught above)
    }
    let Some(view) = accessor.view() else { return Ok(()) };
    let buffer = buffers
        .get(view.buffer().index())
        .ok_or("buffer view refers to a missing buffer")?;
    if view.offset() + view.length() > buffer.len() {
        return Err(format!(
            "buffer view {} spans bytes {}..{} of a {}-byte buffer",
            view.index(),
            view.offset(),
            view.offset() + view.length(),
            buffer.len()
        ));
    }
    let count = accessor.count();
    if count == 0 {
        return Ok(());
    }
    let size = accessor.size();
    let stride = view.stride().unwrap_or(size);
    let end = accessor.offset() + stride * (count - 1) + size;
    if end > view.length() {
        return Err(format!(
            "accessor {} needs {end} bytes of buffer view {}, which has {}",
            accessor.index(),
            view.index(),
            view.length()
        ));
    }
    Ok(())
}
