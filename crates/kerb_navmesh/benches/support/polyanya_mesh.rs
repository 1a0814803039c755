//! Builds a `polyanya` mesh from a kerb navmesh, so the route bench can run
//! both on the same polygons.

use glam::Vec2;
use kerb_navmesh::{EdgeLink, NavMesh, PolygonId};

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
                // Counter-clockwise round the vertex, the next polygon lies
                // across this one's edge into the vertex. Being neighbours
                // elsewhere (a strip beside a row of cells) is not enough:
                // taking that for joined lost every reflex wall corner.
                let joined = following != p
                    && edge_into(mesh, PolygonId(p), v as u32)
                        == Some(EdgeLink::Neighbor(PolygonId(following)));
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

/// What lies across `polygon`'s edge that ends at its corner `vertex`.
fn edge_into(mesh: &NavMesh, polygon: PolygonId, vertex: u32) -> Option<EdgeLink> {
    let corners = mesh.polygon_vertex_indices(polygon);
    let corner = corners.iter().position(|&c| c == vertex)?;
    let edge = (corner + corners.len() - 1) % corners.len();
    mesh.polygon_links(polygon).nth(edge)
}

/// A point in polyanya's `glam`.
pub fn to_polyanya(p: Vec2) -> glam_polyanya::Vec2 {
    glam_polyanya::Vec2::new(p.x, p.y)
}
