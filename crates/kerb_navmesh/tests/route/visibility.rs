//! The routes tests' oracle: exact shortest paths through the walkable
//! area, by a visibility graph of its reflex corners.

use glam::Vec2;
use kerb_navmesh::NavMesh;
use kerb_turning::TurningPath;

/// Shortest paths by brute force: in a polygonal domain the shortest path
/// bends only at reflex corners of the walkable area (corners where it
/// spans more than half a turn), so Dijkstra over the graph of mutually
/// visible corners, start and goal finds it exactly.
pub struct VisibilityGraph {
    corners: Vec<Vec2>,
    /// `seen[i]` lists `(j, distance)` for every corner `j` visible from `i`.
    seen: Vec<Vec<(usize, f32)>>,
}

impl VisibilityGraph {
    pub fn new(mesh: &NavMesh) -> VisibilityGraph {
        let mut angle_at = vec![0.0f64; mesh.vertices().len()];
        for polygon in mesh.polygon_ids() {
            let corners = mesh.polygon_vertex_indices(polygon);
            let n = corners.len();
            for i in 0..n {
                let at = mesh.vertices()[corners[i] as usize].as_dvec2();
                let previous = mesh.vertices()[corners[(i + n - 1) % n] as usize].as_dvec2();
                let next = mesh.vertices()[corners[(i + 1) % n] as usize].as_dvec2();
                let turn = (next - at).angle_to(previous - at);
                angle_at[corners[i] as usize] += turn.rem_euclid(std::f64::consts::TAU);
            }
        }
        let on_wall: std::collections::HashSet<(u32, u32)> = mesh
            .walls()
            .flat_map(|(a, b)| [a, b])
            .map(|v| (v.x.to_bits(), v.y.to_bits()))
            .collect();
        let corners: Vec<Vec2> = mesh
            .vertices()
            .iter()
            .zip(&angle_at)
            .filter(|(v, angle)| {
                **angle > std::f64::consts::PI + 1e-9
                    && on_wall.contains(&(v.x.to_bits(), v.y.to_bits()))
            })
            .map(|(v, _)| *v)
            .collect();
        let seen = corners
            .iter()
            .map(|&a| {
                corners
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| b != a && visible(mesh, a, b))
                    .map(|(j, &b)| (j, a.distance(b)))
                    .collect()
            })
            .collect();
        VisibilityGraph { corners, seen }
    }

    pub fn shortest(&self, mesh: &NavMesh, start: Vec2, goal: Vec2) -> Option<f32> {
        if visible(mesh, start, goal) {
            return Some(start.distance(goal));
        }
        let to_goal: Vec<Option<f32>> = self
            .corners
            .iter()
            .map(|&c| visible(mesh, c, goal).then(|| c.distance(goal)))
            .collect();
        let mut best = vec![f32::INFINITY; self.corners.len()];
        let mut done = vec![false; self.corners.len()];
        for (i, &c) in self.corners.iter().enumerate() {
            if visible(mesh, start, c) {
                best[i] = start.distance(c);
            }
        }
        let mut answer = f32::INFINITY;
        while let Some(i) = (0..best.len())
            .filter(|&i| !done[i] && best[i].is_finite())
            .min_by(|&a, &b| best[a].total_cmp(&best[b]))
        {
            done[i] = true;
            if best[i] >= answer {
                break;
            }
            if let Some(last) = to_goal[i] {
                answer = answer.min(best[i] + last);
            }
            for &(j, d) in &self.seen[i] {
                best[j] = best[j].min(best[i] + d);
            }
        }
        answer.is_finite().then_some(answer)
    }
}

/// Whether the straight line `a b` stays on the walkable area.
fn visible(mesh: &NavMesh, a: Vec2, b: Vec2) -> bool {
    mesh.path_violation(&TurningPath::straight(a, b), 0.0)
        .is_none()
}
