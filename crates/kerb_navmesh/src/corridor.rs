//! Corridor search: A* over the polygon adjacency graph, costed by the
//! distance between portal (shared edge) midpoints.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec2;

use crate::mesh::{NO_NEIGHBOR, NavMesh, PolygonId};
use crate::route_error::RouteError;

/// Per-thread search state, reused between searches so a search allocates
/// nothing once it has run on a mesh of that size. A generation stamp marks
/// what the current search has touched, so nothing is cleared between runs.
#[derive(Default)]
struct SearchScratch {
    generation: u32,
    seen: Vec<u32>,
    closed: Vec<u32>,
    cost: Vec<f32>,
    parent: Vec<u32>,
    entry: Vec<Vec2>,
    open: BinaryHeap<Reverse<u64>>,
}

thread_local! {
    static SCRATCH: RefCell<SearchScratch> = RefCell::new(SearchScratch::default());
}

impl SearchScratch {
    fn begin(&mut self, polygons: usize) {
        if self.seen.len() != polygons || self.generation == u32::MAX {
            *self = SearchScratch {
                seen: vec![0; polygons],
                closed: vec![0; polygons],
                cost: vec![0.0; polygons],
                parent: vec![NO_NEIGHBOR; polygons],
                entry: vec![Vec2::ZERO; polygons],
                ..SearchScratch::default()
            };
        }
        self.generation += 1;
        self.open.clear();
    }

    /// Records a better way into `polygon` and queues it.
    fn reach(&mut self, polygon: u32, cost: f32, parent: u32, entry: Vec2, estimate: f32) {
        let i = polygon as usize;
        self.seen[i] = self.generation;
        self.cost[i] = cost;
        self.parent[i] = parent;
        self.entry[i] = entry;
        // Non-negative floats order like their bits, so the key packs the
        // priority and the polygon into one integer.
        let priority = (cost + estimate).max(0.0).to_bits();
        self.open
            .push(Reverse(((priority as u64) << 32) | polygon as u64));
    }
}

impl NavMesh {
    /// The corridor of polygons from the one containing `start` to the one
    /// containing `goal`: the A* shortest chain of neighbours, costed by the
    /// distance from portal midpoint to portal midpoint.
    ///
    /// Portals narrower than `2 × clearance` between two walls are not
    /// crossed. Points off the walkable area, a goal on another island and a
    /// goal cut off by narrow gaps give typed errors.
    pub fn find_corridor(
        &self,
        start: Vec2,
        goal: Vec2,
        clearance: f32,
    ) -> Result<Vec<PolygonId>, RouteError> {
        let (from, to) = self.route_ends(start, goal)?;
        let clearance = clearance.max(0.0);
        SCRATCH.with_borrow_mut(|scratch| {
            scratch.begin(self.polygon_count());
            scratch.reach(from.0, 0.0, NO_NEIGHBOR, start, 0.0);
            while let Some(Reverse(key)) = scratch.open.pop() {
                let polygon = key as u32;
                let i = polygon as usize;
                if scratch.closed[i] == scratch.generation {
                    continue;
                }
                scratch.closed[i] = scratch.generation;
                if polygon == to.0 {
                    return Ok(corridor_to(scratch, polygon));
                }
                let (cost, entry) = (scratch.cost[i], scratch.entry[i]);
                for corner in self.corner_range(PolygonId(polygon)) {
                    let neighbor = self.edges[corner].neighbor;
                    if neighbor == NO_NEIGHBOR {
                        continue;
                    }
                    let n = neighbor as usize;
                    if scratch.closed[n] == scratch.generation {
                        continue;
                    }
                    if clearance > 0.0 && self.too_narrow(PolygonId(polygon), corner, clearance) {
                        continue;
                    }
                    let (a, b) = self.edge(PolygonId(polygon), corner);
                    let midpoint = portal_point(a, b, entry, goal);
                    let through = cost + entry.distance(midpoint);
                    if scratch.seen[n] == scratch.generation && scratch.cost[n] <= through {
                        continue;
                    }
                    scratch.reach(
                        neighbor,
                        through,
                        polygon,
                        midpoint,
                        midpoint.distance(goal),
                    );
                }
            }
            Err(RouteError::TooNarrow { start, goal })
        })
    }

    /// The polygons containing a route's ends, if they are connected.
    pub(crate) fn route_ends(
        &self,
        start: Vec2,
        goal: Vec2,
    ) -> Result<(PolygonId, PolygonId), RouteError> {
        let from = self
            .locate(start)
            .ok_or(RouteError::StartOffMesh { start })?;
        let to = self.locate(goal).ok_or(RouteError::GoalOffMesh { goal })?;
        if self.island(from) != self.island(to) {
            return Err(RouteError::Unreachable {
                start_island: self.island(from),
                goal_island: self.island(to),
            });
        }
        Ok((from, to))
    }

    /// Whether the portal leaving flat corner `corner` of `polygon` is too
    /// narrow for a unit of half-width `clearance` to pass between walls.
    fn too_narrow(&self, polygon: PolygonId, corner: usize, clearance: f32) -> bool {
        let (a, b) = self.edge_vertex_indices(polygon, corner);
        self.on_wall[a]
            && self.on_wall[b]
            && self.vertices[a].distance(self.vertices[b]) < 2.0 * clearance
    }
}

/// Where the search crosses the portal `a b` coming from `entry`: where the
/// straight line from `entry` to `goal` meets it, kept off its ends.
///
/// Costing every crossing at the portal's midpoint makes a corridor through
/// small cells zigzag, and the straight-line estimate to the goal then
/// undercuts the cost so much that the search floods; following the line
/// keeps the cost close to the distance the funnel will find.
#[inline]
fn portal_point(a: Vec2, b: Vec2, entry: Vec2, goal: Vec2) -> Vec2 {
    let along = b - a;
    let toward = goal - entry;
    let denominator = along.perp_dot(toward);
    if denominator.abs() <= f32::EPSILON * along.length_squared() {
        return (a + b) * 0.5;
    }
    let t = (entry - a).perp_dot(toward) / denominator;
    a + along * t.clamp(PORTAL_MARGIN, 1.0 - PORTAL_MARGIN)
}

/// The share of a portal's width at each end that the search keeps off.
const PORTAL_MARGIN: f32 = 0.1;

/// Follows parents back from `last` to the start.
fn corridor_to(scratch: &SearchScratch, last: u32) -> Vec<PolygonId> {
    let mut corridor = Vec::new();
    let mut polygon = last;
    while polygon != NO_NEIGHBOR {
        corridor.push(PolygonId(polygon));
        polygon = scratch.parent[polygon as usize];
    }
    corridor.reverse();
    corridor
}
