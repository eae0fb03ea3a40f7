//! The loader's walk of the node hierarchy: each node's conventions
//! applied (spawn points, doors and lifts, no-collide subtrees, friction,
//! analytic colliders, proxies, one-way and layered parts, sensors,
//! water), its meshes (and GPU instances) read into the static collider,
//! the mover, the part, the sensor or the water they belong to, and at the
//! end the [`Level`] assembled.

use super::analytic::analytic_shape;
use super::instancing::instance_transforms;
use super::mover::MoverDraft;
use super::parts::{
    PartDraft, SensorDraft, Target, WaterDraft, build_parts, build_sensors, build_water, one_way_direction,
};
use super::primitive::{PrimitiveError, read_primitive};
use super::spawn_node::spawn_at;
use crate::conventions::{NodeConventions, Role, read_node};
use crate::error::LevelError;
use crate::extensions;
use crate::level::{AnalyticCollider, Level, LoadReport, Spawn, Surface};
use glam::{Mat4, Vec3};
use slidewalk_sweep::proxy::{ProxyMesh, ProxyShape};
use slidewalk_sweep::{Aabb, BuildError, CollisionLayers, MeshCollider, Pose};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a node passes down to its children.
#[derive(Clone, Copy)]
struct Inherited {
    /// Index of the mover being collected.
    mover: Option<usize>,
    nocollide: bool,
    surface: u16,
    /// The world one-way direction of static geometry here, if one-way.
    one_way: Option<Vec3>,
    /// The collision layers of geometry here.
    layers: CollisionLayers,
    /// Whether geometry here can be climbed.
    climbable: bool,
}

/// What the walk has collected so far, and the file's buffers it reads from.
#[derive(Default)]
pub(super) struct Builder {
    path: PathBuf,
    buffers: Vec<Vec<u8>>,
    positions: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    static_surfaces: Vec<u16>,
    surfaces: Vec<Surface>,
    movers: Vec<MoverDraft>,
    parts: Vec<PartDraft>,
    pub(super) sensors: Vec<SensorDraft>,
    pub(super) water: Vec<WaterDraft>,
    analytic: Vec<AnalyticCollider>,
    spawns: Vec<Spawn>,
    report: LoadReport,
    depth: usize,
    /// Each mesh's proxy by (mesh index, shape), fitted once for all the
    /// nodes and GPU instances that draw it.
    proxies: HashMap<(usize, ProxyShape), Option<ProxyMesh>>,
}

impl Builder {
    /// A builder for the file `path` (named in errors) with its `buffers`
    /// loaded; `notices` so far (ignored extensions) go into its report.
    pub(super) fn new(path: &Path, buffers: Vec<Vec<u8>>, notices: Vec<String>) -> Self {
        let mut builder = Builder {
            path: path.to_owned(),
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
        builder
    }

    /// Reads a root node and everything below it.
    pub(super) fn visit_root(&mut self, doc: &gltf::Document, node: gltf::Node<'_>) -> Result<(), LevelError> {
        self.visit(
            doc,
            node,
            Mat4::IDENTITY,
            Inherited {
                mover: None,
                nocollide: false,
                surface: 0,
                one_way: None,
                layers: CollisionLayers::ALL,
                climbable: false,
            },
        )
    }

    /// Reads `node` (placed by `parent`, inside what `inherited` says) and its children.
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
        let here = self.apply_role(&node, &conv, &world, inherited)?;
        self.read_node_meshes(doc, &node, &conv, &world, here)?;
        self.depth += 1;
        for child in node.children() {
            self.visit(doc, child, world, here)?;
        }
        self.depth -= 1;
        Ok(())
    }

    /// Applies a node's friction, one-way direction, layers, climbability
    /// and role (at
    /// `world`): a spawn point is added, a door or lift starts a mover, a
    /// no-collide node marks its subtree. Returns what it passes on to its
    /// meshes and children.
    fn apply_role(
        &mut self,
        node: &gltf::Node<'_>,
        conv: &NodeConventions,
        world: &Mat4,
        inherited: Inherited,
    ) -> Result<Inherited, LevelError> {
        let mut here = inherited;
        if let Some(friction) = conv.friction {
            self.surfaces.push(Surface {
                name: node_name(node),
                friction,
            });
            here.surface = (self.surfaces.len() - 1).min(u16::MAX as usize) as u16;
        }
        // A sensor's or water's layers are its own, not its children's.
        let layers = conv.layers.filter(|_| !conv.is_volume());
        if (conv.one_way.is_some() || layers.is_some()) && inherited.mover.is_some() {
            return Err(self.bad_node(
                node,
                "\"one_way\" and \"layers\" go on the door or lift node itself (they apply to its whole collider), \
                 not on a node inside it"
                    .into(),
            ));
        }
        self.check_moves_here(node, conv, inherited.mover.is_some(), inherited.nocollide)?;
        here.climbable = conv.climbable.unwrap_or(here.climbable);
        match conv.one_way {
            Some(true) if !inherited.nocollide => {
                let direction = one_way_direction(world).ok_or_else(|| {
                    self.bad_node(
                        node,
                        "\"one_way\" needs a finite, invertible node transform (its +Y gives the direction)".into(),
                    )
                })?;
                here.one_way = Some(direction);
            }
            Some(_) => here.one_way = None,
            None => {}
        }
        here.layers = layers.unwrap_or(here.layers);
        match &conv.role {
            Role::Spawn => {
                let spawn = spawn_at(world).map_err(|reason| self.bad_node(node, reason))?;
                self.spawns.push(spawn);
            }
            Role::NoCollide => here.nocollide = true,
            Role::Door(_) | Role::Lift(_) if here.mover.is_none() && !here.nocollide => {
                let (_, rotation, translation) = world.to_scale_rotation_translation();
                self.movers.push(MoverDraft {
                    name: node_name(node),
                    node: node.index(),
                    role: conv.role.clone(),
                    rest: Pose {
                        rotation: rotation.normalize(),
                        translation,
                    },
                    world: Vec::new(),
                    surface: here.surface,
                    layers: here.layers,
                    climbable: here.climbable,
                    // The world direction in the mover's frame.
                    one_way: here.one_way.map(|d| (rotation.normalize().inverse() * d).normalize()),
                });
                here.mover = Some(self.movers.len() - 1);
            }
            _ => {}
        }
        Ok(here)
    }

    /// Reads the mesh a node draws (once, or as each of its GPU instances)
    /// into the collider `here` says, and the analytic collider it asks for.
    fn read_node_meshes(
        &mut self,
        doc: &gltf::Document,
        node: &gltf::Node<'_>,
        conv: &NodeConventions,
        world: &Mat4,
        here: Inherited,
    ) -> Result<(), LevelError> {
        if let (Some(kind), true) = (conv.collider, here.mover.is_some() || here.nocollide) {
            return Err(self.bad_node(
                node,
                format!(
                    "\"collider\": {:?} is for static geometry, but this node is part of a door, lift or no-collide node",
                    kind.word()
                ),
            ));
        }
        // Sparse accessors are bounds-checked only while read: caught, corrupt data is an error.
        let instances = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            instance_transforms(doc, node, &self.buffers)
        }))
        .unwrap_or_else(|_| Err(format!("{}: accessor data is corrupt", extensions::INSTANCING)))
        .map_err(|reason| self.bad_node(node, reason))?;
        let target = self.target(node, conv, world, here)?;
        if let (Some(kind), Some(_)) = (conv.collider, &instances) {
            return Err(self.bad_node(
                node,
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
                self.read_mesh(doc, &mesh, &(*world * *instance), target, conv.proxy)?;
            }
        } else if let Some(mesh) = node.mesh() {
            self.report.mesh_instances += 1;
            let first = self.triangles.len() as u32;
            let local = self.read_mesh(doc, &mesh, world, target, conv.proxy)?;
            if let Some(kind) = conv.collider {
                let shape = analytic_shape(kind, world, local).map_err(|reason| self.bad_node(node, reason))?;
                self.analytic.push(AnalyticCollider {
                    name: node_name(node),
                    node: node.index(),
                    shape,
                    surface: here.surface,
                    triangles: first..self.triangles.len() as u32,
                });
            }
        } else if let Some(kind) = conv.collider {
            return Err(self.bad_node(
                node,
                format!("\"collider\": {:?} needs a mesh on the node itself", kind.word()),
            ));
        }
        Ok(())
    }

    /// Where the triangles of `node`'s own mesh go (the node at `world`),
    /// from its conventions and what it inherited (`here`): a sensor or
    /// water volume of its own, nowhere under a no-collide node, the mover
    /// being collected, a static part of its own when it is one-way, has
    /// layers, is climbable, a launch pad or a conveyor, else the static
    /// collider.
    fn target(
        &mut self,
        node: &gltf::Node<'_>,
        conv: &NodeConventions,
        world: &Mat4,
        here: Inherited,
    ) -> Result<Target, LevelError> {
        if let Some(volume) = self.volume_target(node, conv, world, here.mover.is_some(), here.nocollide)? {
            return Ok(volume);
        }
        if here.nocollide {
            return Ok(Target::NoCollide);
        }
        if let Some(m) = here.mover {
            return Ok(Target::Mover(m));
        }
        let plain = here.one_way.is_none() && here.layers == CollisionLayers::ALL && !here.climbable;
        if node.mesh().is_none() || (plain && conv.launch.is_none() && conv.conveyor.is_none()) {
            return Ok(Target::Statics { surface: here.surface });
        }
        if let Some(kind) = conv.collider {
            return Err(self.bad_node(
                node,
                format!(
                    "\"collider\": {:?} cannot go with \"one_way\", \"layers\" or \"climbable\" (this node's or a parent's): \
                     an analytic collider's triangles stay in the level's static collider",
                    kind.word()
                ),
            ));
        }
        // Turned by the node's world rotation; a transform with no rotation
        // to read (a zero or non-finite scale) cannot turn it.
        let conveyor = conv
            .conveyor
            .map(|v| world.to_scale_rotation_translation().1.normalize() * v);
        if conveyor.is_some_and(|v| !v.is_finite()) {
            return Err(self.bad_node(
                node,
                "\"conveyor\" is in the node's frame, but the node's transform has no rotation to turn it by \
                 (a zero or non-finite scale)"
                    .into(),
            ));
        }
        self.parts.push(PartDraft {
            name: node_name(node),
            node: node.index(),
            surface: here.surface,
            layers: here.layers,
            one_way: here.one_way,
            climbable: here.climbable,
            launch: conv.launch,
            conveyor,
            world: Vec::new(),
        });
        Ok(Target::Part(self.parts.len() - 1))
    }

    /// Reads a mesh instance's triangles into `target` (or, with `proxy`,
    /// the proxy's fitted to all its primitives' positions in the node's
    /// frame); returns the bounds of its positions in the node's frame.
    fn read_mesh(
        &mut self,
        doc: &gltf::Document,
        mesh: &gltf::Mesh<'_>,
        world: &Mat4,
        target: Target,
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
            self.add_triangles(&positions, &triangles, world, target);
        }
        if let Some(shape) = proxy {
            let key = (mesh.index(), shape);
            if !self.proxies.contains_key(&key) {
                let made = slidewalk_sweep::proxy::proxy_mesh(shape, &proxy_points);
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
                self.add_triangles(&made.positions, &made.triangles, world, target);
            }
        }
        Ok(local)
    }

    /// Adds triangles (`positions` in the node's frame, placed by `world`)
    /// to `target`, or counts them under a no-collide node. A one-way
    /// collider gets them wound as glTF draws them: reversed where `world`
    /// mirrors, so their winding normals keep to the front.
    fn add_triangles(&mut self, positions: &[Vec3], triangles: &[[u32; 3]], world: &Mat4, target: Target) {
        let positions: Vec<Vec3> = positions.iter().map(|v| world.transform_point3(*v)).collect();
        let one_way = match target {
            Target::Mover(m) => self.movers[m].one_way.is_some(),
            Target::Part(p) => self.parts[p].one_way.is_some(),
            _ => false,
        };
        let flip = one_way && world.determinant() < 0.0;
        let corners = triangles.iter().map(|t| {
            let [a, b, c] = t.map(|i| positions[i as usize]);
            if flip { [a, c, b] } else { [a, b, c] }
        });
        match target {
            Target::NoCollide => self.report.nocollide_triangles += triangles.len(),
            Target::Mover(m) => self.movers[m].world.extend(corners),
            Target::Part(p) => self.parts[p].world.extend(corners),
            Target::Sensor(s) => self.sensors[s].world.extend(corners),
            Target::Water(w) => self.water[w].world.extend(corners),
            Target::Statics { surface } => {
                let base = self.positions.len() as u32;
                self.positions.extend_from_slice(&positions);
                self.triangles.extend(triangles.iter().map(|t| t.map(|i| i + base)));
                self.static_surfaces
                    .extend(std::iter::repeat_n(surface, triangles.len()));
            }
        }
    }

    pub(super) fn bad_node(&self, node: &gltf::Node<'_>, reason: String) -> LevelError {
        LevelError::BadConvention {
            path: self.path.clone(),
            node: node_name(node),
            reason,
        }
    }

    /// The level: the static collider, its parts, each mover in its own
    /// frame, the sensors, the water, and what was counted and noticed on the way.
    pub(super) fn finish(mut self) -> Result<Level, LevelError> {
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
        let movers = std::mem::take(&mut self.movers)
            .into_iter()
            .map(|draft| draft.into_mover(&self.path, &mut self.report))
            .collect::<Result<Vec<_>, _>>()?;
        let parts = build_parts(std::mem::take(&mut self.parts), &mut self.report);
        let sensors = build_sensors(std::mem::take(&mut self.sensors), &self.path, &mut self.report)?;
        let water = build_water(std::mem::take(&mut self.water), &self.path, &mut self.report)?;
        if statics.is_none() && movers.is_empty() && parts.is_empty() {
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
            parts,
            movers,
            sensors,
            water,
            spawns: self.spawns,
            report: self.report,
        })
    }
}

/// The name a node is called by in errors and reports.
pub(super) fn node_name(node: &gltf::Node<'_>) -> String {
    node.name()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("node {}", node.index()))
}
