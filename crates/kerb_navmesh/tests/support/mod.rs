//! Meshes shared by the integration tests.

use glam::Vec2;
use kerb_navmesh::NavMesh;

/// A block (x in -4..0, y below 0) with pavement strips down its sides and
/// along its top, and roads beyond. The pavement strip's bottom edge runs
/// along the block's top wall, and the vertices where it meets the side
/// strips and the roads are inside the walkable area, so the funnel runs
/// exactly along the wall line and grazes both block corners head on.
pub fn block_with_pavements() -> NavMesh {
    let vertices = [
        (-7.0, -4.0),
        (-5.0, -4.0),
        (-4.0, -4.0),
        (0.0, -4.0),
        (1.0, -4.0),
        (3.0, -4.0),
        (-7.0, 0.0),
        (-5.0, 0.0),
        (-4.0, 0.0),
        (0.0, 0.0),
        (1.0, 0.0),
        (3.0, 0.0),
        (-7.0, 1.0),
        (-5.0, 1.0),
        (1.0, 1.0),
        (3.0, 1.0),
    ]
    .map(|(x, y)| Vec2::new(x, y));
    let polygons = [
        vec![0, 1, 7, 13, 12, 6],   // left road
        vec![1, 2, 8, 7],           // left pavement
        vec![3, 4, 10, 9],          // right pavement
        vec![4, 5, 11, 15, 14, 10], // right road
        vec![7, 8, 9, 10, 14, 13],  // top pavement
    ];
    NavMesh::from_polygons(&vertices, &polygons).unwrap()
}
