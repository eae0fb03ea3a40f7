//! Where the volumes that are not solid go: a `"sensor"` node's or a
//! `"water": true` node's own mesh, each a volume of its own, never part
//! of a door, lift or no-collide node.

use super::builder::{Builder, node_name};
use super::parts::{SensorDraft, Target, WaterDraft};
use crate::conventions::NodeConventions;
use crate::error::LevelError;
use glam::Mat4;
use slidewalk_sweep::{CollisionLayers, Pose};

impl Builder {
    /// The sensor or water volume `node`'s own mesh becomes (at `world`;
    /// inside a door or lift, `in_mover`; under a no-collide node,
    /// `nocollide`), if it is one, or the load error naming it.
    pub(super) fn volume_target(
        &mut self,
        node: &gltf::Node<'_>,
        conv: &NodeConventions,
        world: &Mat4,
        in_mover: bool,
        nocollide: bool,
    ) -> Result<Option<Target>, LevelError> {
        let what = match (&conv.sensor, conv.water) {
            (Some(kind), _) => format!("\"sensor\": {:?}", kind.word()),
            (None, Some(true)) => "\"water\"".to_owned(),
            _ => return Ok(None),
        };
        if in_mover || nocollide {
            return Err(self.bad_node(
                node,
                format!("{what} cannot be part of a door, lift or no-collide node"),
            ));
        }
        if node.mesh().is_none() {
            return Err(self.bad_node(node, format!("{what} needs a mesh on the node itself")));
        }
        let (name, index) = (node_name(node), node.index());
        let layers = conv.layers.unwrap_or(CollisionLayers::ALL);
        if let Some(kind) = &conv.sensor {
            self.sensors.push(SensorDraft {
                name,
                node: index,
                kind: kind.clone(),
                layers,
                world: Vec::new(),
            });
            return Ok(Some(Target::Sensor(self.sensors.len() - 1)));
        }
        let (_, rotation, translation) = world.to_scale_rotation_translation();
        self.water.push(WaterDraft {
            name,
            node: index,
            pose: Pose {
                rotation: rotation.normalize(),
                translation,
            },
            layers,
            world: Vec::new(),
        });
        Ok(Some(Target::Water(self.water.len() - 1)))
    }
}
