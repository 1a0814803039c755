//! Corridor search: A* over the polygon adjacency graph, costed by the
//! distance between the points where the search crosses portals (shared
//! edges): midpoints, pulled towards the straight line to the goal.

use std::cell::RefCell;

use glam::Vec2;
use kerb_turning::Pose;

use crate::mesh::{NO_NEIGHBOR, NavMesh, PolygonId};
use crate::route::RouteError;

/// What the search knows about one polygon. One record per polygon keeps a
/// visit to a single cache line.
#[derive(Clone, Copy, Default)]
struct Node {
    /// The search that last touched this record; older values are stale.
    generation: u32,
    closed: bool,
    /// Cost of the best way in found so far.
    cost: f32,
    parent: u32,
    /// Where that way crosses into the polygon.
    entry: Vec2,
}

/// Per-thread search state, reused between searches so a search allocates
/// nothing once it has run on a mesh of that size. A generation stamp marks
/// what the current search has touched, so nothing is cleared between runs.
#[derive(Default)]
struct SearchScratch {
    generation: u32,
    nodes: Vec<Node>,
    open: BucketQueue,
}

/// How many priority buckets the open list cycles through.
const BUCKETS: usize = 4096;

/// The open list: polygons in buckets of equal width by priority, popped
/// from the lowest bucket. Pushing and popping cost O(1), where a binary
/// heap's pops were most of a search; the price is that priorities within
/// one bucket (a fraction of a metre) are not told apart.
#[derive(Default)]
struct BucketQueue {
    buckets: Vec<Vec<u32>>,
    width: f32,
    /// The absolute index of the lowest bucket that may hold anything.
    lowest: usize,
    len: usize,
}

impl BucketQueue {
    /// Empties the queue for priorities up to about `span`.
    fn reset(&mut self, span: f32) {
        if self.buckets.len() != BUCKETS {
            self.buckets = vec![Vec::new(); BUCKETS];
        }
        if self.len > 0 {
            self.buckets.iter_mut().for_each(Vec::clear);
        }
        self.width = (span / BUCKETS as f32).max(f32::MIN_POSITIVE);
        self.lowest = 0;
        self.len = 0;
    }

    fn push(&mut self, priority: f32, polygon: u32) {
        // A priority below the lowest bucket (the estimate is not quite
        // consistent) or past the last goes to the nearest end.
        let bucket =
            ((priority / self.width) as usize).clamp(self.lowest, self.lowest + BUCKETS - 1);
        self.buckets[bucket % BUCKETS].push(polygon);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        loop {
            if let Some(polygon) = self.buckets[self.lowest % BUCKETS].pop() {
                self.len -= 1;
                return Some(polygon);
            }
            self.lowest += 1;
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<SearchScratch> = RefCell::new(SearchScratch::default());
}

impl SearchScratch {
    fn begin(&mut self, polygons: usize) {
        if self.nodes.len() != polygons || self.generation == u32::MAX {
            *self = SearchScratch {
                nodes: vec![Node::default(); polygons],
                ..SearchScratch::default()
            };
        }
        self.generation += 1;
    }

    /// Records a better way into `polygon` and queues it.
    #[inline]
    fn reach(&mut self, polygon: u32, cost: f32, parent: u32, entry: Vec2, estimate: f32) {
        self.nodes[polygon as usize] = Node {
            generation: self.generation,
            closed: false,
            cost,
            parent,
            entry,
        };
        self.open.push(cost + estimate, polygon);
    }
}

impl NavMesh {
    /// The corridor of polygons from the one containing `start` to the one
    /// containing `goal`: the A* shortest chain of neighbours, costed by the
    /// distance between portal crossings (midpoints, pulled towards the
    /// straight line to the goal but kept off the portal's ends).
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
        self.search_corridor(start, goal, clearance, |crossing| start.distance(crossing))
    }

    /// [`NavMesh::find_corridor`] for a unit at `start` that turns no
    /// tighter than `radius`: leaving the first polygon costs what turning
    /// towards the crossing adds, so a way behind the unit pays for turning
    /// round and the way ahead wins a near tie.
    ///
    /// Far from the unit, turning through `θ` at full lock before driving
    /// straight makes a path `radius × (θ - sin θ)` longer than the straight
    /// line; near it the exact turning path to the crossing point would
    /// overstate the cost, since any point of the portal would do.
    pub(crate) fn find_corridor_facing(
        &self,
        start: Pose,
        goal: Vec2,
        radius: f32,
        clearance: f32,
    ) -> Result<Vec<PolygonId>, RouteError> {
        let forward = start.forward();
        self.search_corridor(start.position, goal, clearance, |crossing| {
            let offset = crossing - start.position;
            let distance = offset.length();
            if distance <= 0.0 {
                return 0.0;
            }
            let turn = (forward.dot(offset) / distance).clamp(-1.0, 1.0).acos();
            distance + radius * (turn - turn.sin())
        })
    }

    /// The A* search behind both, with `first_step` the cost from the start
    /// to a crossing out of the first polygon.
    fn search_corridor(
        &self,
        start: Vec2,
        goal: Vec2,
        clearance: f32,
        first_step: impl Fn(Vec2) -> f32,
    ) -> Result<Vec<PolygonId>, RouteError> {
        let (from, to) = self.route_ends(start, goal)?;
        let first_polygon = from.0;
        let clearance = clearance.max(0.0);
        SCRATCH.with_borrow_mut(|scratch| {
            scratch.begin(self.polygon_count());
            // Priorities run from the straight distance to a few times it.
            let bounds = self.bounds();
            scratch.open.reset(4.0 * bounds.min.distance(bounds.max));
            scratch.reach(from.0, 0.0, NO_NEIGHBOR, start, 0.0);
            while let Some(polygon) = scratch.open.pop() {
                let node = &mut scratch.nodes[polygon as usize];
                if node.closed {
                    continue;
                }
                node.closed = true;
                let (cost, entry) = (node.cost, node.entry);
                if polygon == to.0 {
                    return Ok(corridor_to(scratch, polygon));
                }
                let corners = self.corner_range(PolygonId(polygon));
                for corner in corners.clone() {
                    let neighbor = self.edges[corner].neighbor;
                    if neighbor == NO_NEIGHBOR {
                        continue;
                    }
                    let seen = scratch.nodes[neighbor as usize];
                    let current = seen.generation == scratch.generation;
                    if current && seen.closed {
                        continue;
                    }
                    let next = if corner + 1 == corners.end {
                        corners.start
                    } else {
                        corner + 1
                    };
                    let (from, to_vertex) =
                        (self.corners[corner] as usize, self.corners[next] as usize);
                    let (a, b) = (self.vertices[from], self.vertices[to_vertex]);
                    if clearance > 0.0
                        && self.on_wall[from]
                        && self.on_wall[to_vertex]
                        && a.distance_squared(b) < 4.0 * clearance * clearance
                    {
                        continue; // too narrow to pass between the walls
                    }
                    let crossing = portal_point(a, b, entry, goal);
                    let step = if polygon == first_polygon {
                        first_step(crossing)
                    } else {
                        entry.distance(crossing)
                    };
                    let through = cost + step;
                    if current && seen.cost <= through {
                        continue;
                    }
                    scratch.reach(
                        neighbor,
                        through,
                        polygon,
                        crossing,
                        crossing.distance(goal),
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
        polygon = scratch.nodes[polygon as usize].parent;
    }
    corridor.reverse();
    corridor
}
