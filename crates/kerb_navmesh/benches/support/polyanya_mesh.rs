//! Builds a `polyanya` mesh from a kerb navmesh, so the route bench can run
//! both on the same polygons.

use glam::Vec2;
use kerb_navmesh::{NavMesh, PolygonId};

/// The same polygons as a baked `polyanya` mesh. polyanya wants, for every
/// vertex, the polygons around it counter-clockwise with `u32::MAX` where
/// the walkable area is interrupted.
pub fn polyanya_mesh(mesh: &NavMesh) -> polyanya::Mesh {
    let mut around: Vec<Vec<u32>> = vec![Vec::new(); mesh.vertices().len()];
    for polygon in mesh.polygon_ids() {
        for &v in mesh.polygon_vertex_indices(polygon) {
            around[v as usize].push(polygon.0);
        }
    }
    let vertices = around
        .into_iter()
        .enumerate()
        .map(|(v, mut polygons)| {
            let at = mesh.vertices()[v];
            let angle = |p: &u32| (mesh.centroid(PolygonId(*p)) - at).to_angle();
            polygons.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
            let mut ordered = Vec::with_capacity(polygons.len() * 2);
            for (i, &p) in polygons.iter().enumerate() {
                ordered.push(p);
                let following = polygons[(i + 1) % polygons.len()];
                let joined =
                    following != p && mesh.neighbors(PolygonId(p)).any(|n| n.0 == following);
                if !joined {
                    ordered.push(u32::MAX);
                }
            }
            polyanya::Vertex::new(to_polyanya(at), ordered)
        })
        .collect();
    let polygons = mesh
        .polygon_ids()
        .map(|polygon| {
            polyanya::Polygon::new(
                mesh.polygon_vertex_indices(polygon).to_vec(),
                mesh.neighbors(polygon).count() <= 1,
            )
        })
        .collect();
    let mut built = polyanya::Mesh::new(vertices, polygons).expect("a valid navmesh converts");
    built.bake();
    built
}

/// A point in polyanya's `glam`.
pub fn to_polyanya(p: Vec2) -> glam_polyanya::Vec2 {
    glam_polyanya::Vec2::new(p.x, p.y)
}
