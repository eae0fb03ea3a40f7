//! A small binary glTF (GLB) writer: materials (base colour only, no
//! textures), meshes with POSITION + NORMAL and u16/u32 indices in triangle
//! mode, and a flat list of named nodes with optional translation,
//! rotation, scale and extras, all in one scene. The JSON is built from the `gltf::json` types
//! and serialised compactly by serde_json: the bytes depend only on the
//! input (struct fields serialise in declaration order, no maps are
//! iterated, floats have one shortest representation).

use super::mesh::MeshData;
use glam::{Quat, Vec3};
use gltf::json;
use gltf::json::validation::{Checked, USize64};

/// A material: a flat base colour, not metallic; alpha-blended and
/// double-sided when the colour's alpha is below 1.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialDef {
    /// Material name (the feature kind).
    pub name: String,
    /// Linear RGBA base colour (`pbrMetallicRoughness.baseColorFactor`);
    /// an alpha below 1 makes the material `BLEND` and double-sided.
    pub base_color: [f32; 4],
    /// Perceptual roughness, 0 (mirror) … 1 (matte).
    pub roughness: f32,
    /// Linear RGB emissive colour (black for none).
    pub emissive: [f32; 3],
}

/// A node of the scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeDef {
    /// Node name.
    pub name: String,
    /// Translation of the node (its mesh is in the node's frame).
    pub translation: Option<Vec3>,
    /// Rotation of the node (unit quaternion), applied before the translation.
    pub rotation: Option<Quat>,
    /// Scale of the node along its own axes, applied first.
    pub scale: Option<Vec3>,
    /// The node's `extras` as JSON text (the level conventions).
    pub extras: Option<String>,
    /// The node's mesh as primitives: (index into [`Document::materials`], triangles).
    pub primitives: Vec<(usize, MeshData)>,
}

/// A whole glTF document being assembled.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    /// The scene's name.
    pub scene_name: String,
    /// Materials, referred to by index from [`NodeDef::primitives`].
    pub materials: Vec<MaterialDef>,
    /// Nodes, all roots of the one scene, in this order.
    pub nodes: Vec<NodeDef>,
}

impl Document {
    /// Adds a material and returns its index.
    pub fn material(&mut self, name: &str, rgb: [f32; 3]) -> usize {
        self.materials.push(MaterialDef {
            name: name.to_owned(),
            base_color: [rgb[0], rgb[1], rgb[2], 1.0],
            roughness: 0.85,
            emissive: [0.0; 3],
        });
        self.materials.len() - 1
    }

    /// Adds a see-through material (`alpha` below 1: alpha-blended and
    /// drawn from both sides, for volumes that are not solid) and returns
    /// its index.
    pub fn translucent_material(&mut self, name: &str, rgb: [f32; 3], alpha: f32) -> usize {
        let index = self.material(name, rgb);
        self.materials[index].base_color[3] = alpha;
        index
    }

    /// Total triangles of all nodes.
    pub fn triangle_count(&self) -> usize {
        self.nodes
            .iter()
            .flat_map(|n| &n.primitives)
            .map(|(_, m)| m.triangle_count())
            .sum()
    }

    /// The document as GLB bytes.
    ///
    /// # Panics
    ///
    /// When a node's extras are not valid JSON or a primitive refers to a
    /// missing material (generator bugs, not input errors).
    pub fn to_glb(&self) -> Vec<u8> {
        let mut root = json::Root {
            asset: json::Asset {
                generator: Some("slidewalk make-levels".into()),
                ..Default::default()
            },
            ..Default::default()
        };
        let mut bin: Vec<u8> = Vec::new();
        for m in &self.materials {
            root.materials.push(json::Material {
                name: Some(m.name.clone()),
                pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                    base_color_factor: json::material::PbrBaseColorFactor(m.base_color),
                    metallic_factor: json::material::StrengthFactor(0.0),
                    roughness_factor: json::material::StrengthFactor(m.roughness),
                    ..Default::default()
                },
                emissive_factor: json::material::EmissiveFactor(m.emissive),
                alpha_mode: Checked::Valid(if m.base_color[3] < 1.0 {
                    json::material::AlphaMode::Blend
                } else {
                    json::material::AlphaMode::Opaque
                }),
                double_sided: m.base_color[3] < 1.0,
                ..Default::default()
            });
        }
        let mut scene_nodes = Vec::new();
        for node in &self.nodes {
            let mesh = if node.primitives.is_empty() {
                None
            } else {
                let primitives = node
                    .primitives
                    .iter()
                    .map(|(material, data)| {
                        assert!(
                            *material < self.materials.len(),
                            "node {} uses a missing material",
                            node.name
                        );
                        primitive(&mut root, &mut bin, *material, data)
                    })
                    .collect();
                Some(root.push(json::Mesh {
                    extensions: None,
                    extras: Default::default(),
                    name: Some(node.name.clone()),
                    primitives,
                    weights: None,
                }))
            };
            let extras = node.extras.as_ref().map(|text| {
                json::extras::RawValue::from_string(text.clone())
                    .unwrap_or_else(|e| panic!("extras of node {} are not JSON: {e}", node.name))
            });
            scene_nodes.push(root.push(json::Node {
                name: Some(node.name.clone()),
                mesh,
                translation: node.translation.map(|t| t.to_array()),
                rotation: node.rotation.map(|q| json::scene::UnitQuaternion(q.to_array())),
                scale: node.scale.map(|s| s.to_array()),
                extras,
                ..Default::default()
            }));
        }
        let scene = root.push(json::Scene {
            extensions: None,
            extras: Default::default(),
            name: Some(self.scene_name.clone()),
            nodes: scene_nodes,
        });
        root.scene = Some(scene);
        if !bin.is_empty() {
            root.push(json::Buffer {
                byte_length: USize64(bin.len() as u64),
                name: None,
                uri: None,
                extensions: None,
                extras: Default::default(),
            });
        }
        let text = json::serialize::to_vec(&root).expect("glTF JSON serialises");
        glb_container(&text, &bin)
    }
}

/// Appends one primitive's vertex and index data to `bin` and returns the primitive.
fn primitive(root: &mut json::Root, bin: &mut Vec<u8>, material: usize, data: &MeshData) -> json::mesh::Primitive {
    assert_eq!(data.positions.len(), data.normals.len(), "one normal per position");
    let (min, max) = data
        .positions
        .iter()
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
    let vertex_count = data.positions.len();
    let positions = view(
        root,
        bin,
        data.positions
            .iter()
            .flat_map(|p| p.to_array())
            .flat_map(f32::to_le_bytes),
        false,
    );
    let normals = view(
        root,
        bin,
        data.normals
            .iter()
            .flat_map(|p| p.to_array())
            .flat_map(f32::to_le_bytes),
        false,
    );
    let wide = vertex_count > u16::MAX as usize + 1;
    let indices = if wide {
        view(root, bin, data.indices.iter().flat_map(|i| i.to_le_bytes()), true)
    } else {
        view(
            root,
            bin,
            data.indices.iter().flat_map(|&i| (i as u16).to_le_bytes()),
            true,
        )
    };
    let vec3_accessor = |root: &mut json::Root, view, min_max: Option<(Vec3, Vec3)>| {
        root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64(vertex_count as u64),
            component_type: Checked::Valid(json::accessor::GenericComponentType(json::accessor::ComponentType::F32)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(json::accessor::Type::Vec3),
            min: min_max.map(|(lo, _)| json::serialize::to_value(lo.to_array()).expect("floats serialise")),
            max: min_max.map(|(_, hi)| json::serialize::to_value(hi.to_array()).expect("floats serialise")),
            name: None,
            normalized: false,
            sparse: None,
        })
    };
    let position_accessor = vec3_accessor(root, positions, Some((min, max)));
    let normal_accessor = vec3_accessor(root, normals, None);
    let index_accessor = root.push(json::Accessor {
        buffer_view: Some(indices),
        byte_offset: None,
        count: USize64(data.indices.len() as u64),
        component_type: Checked::Valid(json::accessor::GenericComponentType(if wide {
            json::accessor::ComponentType::U32
        } else {
            json::accessor::ComponentType::U16
        })),
        extensions: None,
        extras: Default::default(),
        type_: Checked::Valid(json::accessor::Type::Scalar),
        min: None,
        max: None,
        name: None,
        normalized: false,
        sparse: None,
    });
    let mut attributes = std::collections::BTreeMap::new();
    attributes.insert(Checked::Valid(json::mesh::Semantic::Positions), position_accessor);
    attributes.insert(Checked::Valid(json::mesh::Semantic::Normals), normal_accessor);
    json::mesh::Primitive {
        attributes,
        extensions: None,
        extras: Default::default(),
        indices: Some(index_accessor),
        material: Some(json::Index::new(material as u32)),
        mode: Checked::Valid(json::mesh::Mode::Triangles),
        targets: None,
    }
}

/// Appends `bytes` to `bin` (4-byte aligned) as a new buffer view.
fn view(
    root: &mut json::Root,
    bin: &mut Vec<u8>,
    bytes: impl Iterator<Item = u8>,
    indices: bool,
) -> json::Index<json::buffer::View> {
    let offset = bin.len();
    bin.extend(bytes);
    let length = bin.len() - offset;
    bin.resize(bin.len().next_multiple_of(4), 0);
    root.push(json::buffer::View {
        buffer: json::Index::new(0),
        byte_length: USize64(length as u64),
        byte_offset: Some(USize64(offset as u64)),
        byte_stride: None,
        name: None,
        target: Some(Checked::Valid(if indices {
            json::buffer::Target::ElementArrayBuffer
        } else {
            json::buffer::Target::ArrayBuffer
        })),
        extensions: None,
        extras: Default::default(),
    })
}

/// The GLB container: 12-byte header, the JSON chunk padded with spaces and
/// the BIN chunk padded with zeros, both to 4 bytes.
fn glb_container(json_text: &[u8], bin: &[u8]) -> Vec<u8> {
    let json_len = json_text.len().next_multiple_of(4);
    let bin_len = bin.len().next_multiple_of(4);
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json_text);
    out.resize(20 + json_len, b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_round_trips_through_the_gltf_reader() {
        let mut doc = Document {
            scene_name: "test".into(),
            ..Default::default()
        };
        let red = doc.material("Red", [1.0, 0.0, 0.0]);
        let mut cube = MeshData::default();
        cube.cuboid(Vec3::ZERO, Vec3::ONE);
        doc.nodes.push(NodeDef {
            name: "Cube".into(),
            translation: Some(Vec3::new(1.0, 2.0, 3.0)),
            extras: Some(r#"{"slidewalk":"lift"}"#.into()),
            primitives: vec![(red, cube.clone())],
            ..Default::default()
        });
        let bytes = doc.to_glb();
        assert_eq!(bytes.len() % 4, 0);
        let gltf = gltf::Gltf::from_slice(&bytes).expect("valid glTF");
        let node = gltf.nodes().next().unwrap();
        assert_eq!(node.name(), Some("Cube"));
        assert_eq!(node.extras().as_ref().unwrap().get(), r#"{"slidewalk":"lift"}"#);
        let blob = gltf.blob.as_deref().unwrap();
        let prim = node.mesh().unwrap().primitives().next().unwrap();
        let reader = prim.reader(|_| Some(blob));
        let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
        assert_eq!(
            positions,
            cube.positions.iter().map(|p| p.to_array()).collect::<Vec<_>>()
        );
        let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
        assert_eq!(indices, cube.indices);
        assert_eq!(
            prim.material().pbr_metallic_roughness().base_color_factor(),
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(bytes, doc.to_glb(), "deterministic");
    }
}
