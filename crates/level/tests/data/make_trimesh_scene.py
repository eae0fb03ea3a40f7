"""Writes trimesh_scene.glb with the `trimesh` Python package (not our generator):
a walled floor, a ramp, an icosphere, a cylinder and a torus-like ring, as a scene
graph with transforms. Run: pip install trimesh==4.* numpy && python3 make_trimesh_scene.py"""
import numpy as np
import trimesh

scene = trimesh.Scene()
scene.add_geometry(trimesh.creation.box(extents=(20, 0.2, 20)), node_name="floor",
                   transform=trimesh.transformations.translation_matrix((0, -0.1, 0)))
for i, (x, z, ex, ez) in enumerate([(0, 10, 20, 0.2), (0, -10, 20, 0.2), (10, 0, 0.2, 20), (-10, 0, 0.2, 20)]):
    scene.add_geometry(trimesh.creation.box(extents=(ex, 3, ez)), node_name=f"wall{i}",
                       transform=trimesh.transformations.translation_matrix((x, 1.5, z)))
ramp = trimesh.creation.box(extents=(4, 0.2, 3))
tilt = trimesh.transformations.rotation_matrix(np.radians(20), (0, 0, 1))
scene.add_geometry(ramp, node_name="ramp",
                   transform=trimesh.transformations.translation_matrix((4, 0.6, 4)) @ tilt)
scene.add_geometry(trimesh.creation.icosphere(subdivisions=3, radius=1.5), node_name="ball",
                   transform=trimesh.transformations.translation_matrix((-4, 1.0, -4)))
scene.add_geometry(trimesh.creation.cylinder(radius=0.5, height=3, sections=24), node_name="pillar",
                   transform=trimesh.transformations.translation_matrix((-4, 1.5, 4)) @
                   trimesh.transformations.rotation_matrix(np.radians(90), (1, 0, 0)))
scene.add_geometry(trimesh.creation.annulus(r_min=1.0, r_max=1.6, height=0.4, sections=32), node_name="ring",
                   transform=trimesh.transformations.translation_matrix((4, 0.2, -4)) @
                   trimesh.transformations.rotation_matrix(np.radians(90), (1, 0, 0)))
scene.export("trimesh_scene.glb")
