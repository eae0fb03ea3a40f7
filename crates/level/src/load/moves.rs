//! Where the moves' conventions may go: `"climbable"` on a door or lift
//! node itself (not inside one), `"launch"` and `"conveyor"` on a static
//! node's own mesh.

use super::builder::Builder;
use crate::conventions::NodeConventions;
use crate::error::LevelError;

impl Builder {
    /// The node's `"climbable"`, `"launch"` and `"conveyor"` where it
    /// stands (inside a door or lift, `in_mover`; under a no-collide node,
    /// `nocollide`), or the load error naming it.
    pub(super) fn check_moves_here(
        &self,
        node: &gltf::Node<'_>,
        conv: &NodeConventions,
        in_mover: bool,
        nocollide: bool,
    ) -> Result<(), LevelError> {
        if conv.climbable.is_some() && in_mover {
            return Err(self.bad_node(
                node,
                "\"climbable\" goes on the door or lift node itself (it applies to its whole collider), \
             not on a node inside it"
                    .into(),
            ));
        }
        if conv.launch.is_some() {
            if in_mover || nocollide {
                return Err(self.bad_node(
                    node,
                    "\"launch\" is for static geometry, but this node is part of a door, lift or no-collide node \
                 (a launch pad does not move)"
                        .into(),
                ));
            }
            if node.mesh().is_none() {
                return Err(self.bad_node(node, "\"launch\" needs a mesh on the node itself".into()));
            }
        }
        if conv.conveyor.is_some() {
            if in_mover || nocollide {
                return Err(self.bad_node(
                    node,
                    "\"conveyor\" is for static geometry, but this node is part of a door, lift or no-collide node \
                 (a conveyor's surface moves, not the node)"
                        .into(),
                ));
            }
            if node.mesh().is_none() {
                return Err(self.bad_node(node, "\"conveyor\" needs a mesh on the node itself".into()));
            }
        }
        Ok(())
    }
}
