//! String pulling: the funnel algorithm turns a corridor into the shortest
//! polyline through it, kept a clearance away from wall corners.

use glam::Vec2;
use kerb_turning::{Segment, TurningPath};

use crate::mesh::{NavMesh, PolygonId, closest_point_on_segment};

/// How much further than the clearance a corner is kept from a wall
/// corner, so that a turning path ending there is not judged too close by
/// rounding.
const CORNER_SLACK: f32 = 1.01;

/// The smallest bend, as the length of the difference of its two unit
/// directions (about its angle in radians), whose bisector
/// [`NavMesh::keep_corners_clear`] trusts.
const MIN_BEND: f32 = 1e-3;

/// The furthest a corner is moved off its wall corner, in clearances: a
/// hairpin would otherwise push it across the street.
const MAX_CORNER_OFFSET: f32 = 4.0;

/// One shared edge between consecutive corridor polygons, as seen by a unit
/// walking along the corridor: `left` is on its left hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Portal {
    /// The end on the walker's left.
    pub left: Vec2,
    /// The end on the walker's right.
    pub right: Vec2,
}

impl NavMesh {
    /// The portals between consecutive polygons of `corridor`, oriented for
    /// a unit walking along it. Consecutive polygons that are not
    /// neighbours are skipped.
    pub fn portals(&self, corridor: &[PolygonId]) -> Vec<Portal> {
        self.portal_ends(corridor, 0.0)
            .map(|(left, right)| Portal {
                left: left.point,
                right: right.point,
            })
            .collect()
    }

    /// The portals' ends as bends, each end at a wall corner pulled
    /// `clearance` (and 1% more) towards the other end, at most to the
    /// portal's middle.
    fn portal_ends<'a>(
        &'a self,
        corridor: &'a [PolygonId],
        clearance: f32,
    ) -> impl Iterator<Item = (Bend, Bend)> + 'a {
        corridor.windows(2).filter_map(move |pair| {
            let corner = self
                .corner_range(pair[0])
                .find(|&corner| self.edges[corner].neighbor == pair[1].0)?;
            // Counter-clockwise polygons: leaving through an edge, its start
            // is on the right hand and its end on the left.
            let (right, left) = self.edge_vertex_indices(pair[0], corner);
            let (left_point, right_point) = (self.vertices[left], self.vertices[right]);
            let across = right_point - left_point;
            let pull = across.try_normalize().unwrap_or(Vec2::ZERO)
                * (clearance * CORNER_SLACK).min(across.length() * 0.5);
            let end = |vertex: usize, towards_middle: Vec2| {
                let point = self.vertices[vertex];
                if self.on_wall[vertex] {
                    Bend {
                        point: point + towards_middle,
                        wall_corner: Some(point),
                    }
                } else {
                    Bend::free(point)
                }
            };
            Some((end(left, pull), end(right, -pull)))
        })
    }

    /// The shortest polyline from `start` to `goal` through `corridor` (as
    /// returned by [`NavMesh::find_corridor`]). It starts at `start`, ends
    /// at `goal` and has no repeated points.
    ///
    /// With a `clearance`, the funnel runs on portals narrowed by it at wall
    /// corners, and each wall corner the polyline bends round becomes one
    /// point, moved out of the bend far enough that both straight pieces
    /// meeting there pass it at the clearance (and 1% more), but at most
    /// four clearances and never off the walkable area. Points that a
    /// straight line keeping the clearance can skip are dropped, which takes
    /// out the staircases that corridors through small cells make.
    pub fn string_pull(
        &self,
        start: Vec2,
        goal: Vec2,
        corridor: &[PolygonId],
        clearance: f32,
    ) -> Vec<Vec2> {
        let clearance = clearance.max(0.0);
        let mut portals = Vec::with_capacity(corridor.len() + 1);
        portals.push((Bend::free(start), Bend::free(start)));
        portals.extend(self.portal_ends(corridor, clearance));
        portals.push((Bend::free(goal), Bend::free(goal)));
        let mut bends = merge_wall_corners(pull_through(&portals));
        if clearance > 0.0 {
            self.keep_corners_clear(&mut bends, clearance);
        }
        let mut bends = self.straighten(&bends, clearance);
        if clearance > 0.0 {
            self.add_grazed_corners(&mut bends, clearance);
            // The kept and added points have new neighbours.
            self.keep_corners_clear(&mut bends, clearance);
        }
        bends.into_iter().map(|bend| bend.point).collect()
    }

    /// Drops the points a straight walkable line keeping `clearance` can
    /// skip: from each kept point, as far along as the points stay in
    /// sight one after another. Checking near points first keeps the lines
    /// tested short, so this costs about one check per point.
    fn straighten(&self, bends: &[Bend], clearance: f32) -> Vec<Bend> {
        let last = bends.len() - 1;
        let mut kept = vec![bends[0]];
        let mut anchor = 0;
        while anchor < last {
            let from = bends[anchor].point;
            let mut reach = anchor + 1;
            while reach < last {
                let line = TurningPath::straight(from, bends[reach + 1].point);
                if !self.is_walkable(&line, clearance) {
                    break;
                }
                reach += 1;
            }
            anchor = reach;
            kept.push(bends[anchor]);
        }
        kept
    }

    /// Adds the wall corners that a piece passes closer than `clearance`
    /// to, nearest its start first. The funnel only bends at the ends of
    /// the portals it walks through; a corner of the walkable area in the
    /// middle of a polygon's side is not one, but the unit must wrap round
    /// it all the same.
    fn add_grazed_corners(&self, bends: &mut Vec<Bend>, clearance: f32) {
        let mut i = 0;
        // Each corner is added once at most, and there are few near a path.
        let mut budget = 4 * bends.len() + 16;
        while i + 1 < bends.len() && budget > 0 {
            budget -= 1;
            let (from, to) = (bends[i].point, bends[i + 1].point);
            let skip = [bends[i].wall_corner, bends[i + 1].wall_corner];
            match self.first_grazed_corner(from, to, clearance, skip) {
                // Placed where the piece passes the corner, which is on the
                // corner's walkable side: `keep_corners_clear` moves it out
                // from there.
                Some((corner, passing)) => bends.insert(
                    i + 1,
                    Bend {
                        point: self.walkable_side(corner, passing, to - from),
                        wall_corner: Some(corner),
                    },
                ),
                None => i += 1,
            }
        }
    }

    /// A point beside wall corner `corner` on its walkable side: `passing`,
    /// where a piece going `direction` passes it, or a hair into the
    /// walkable opening at the corner if the piece runs through it (as it
    /// does along a wall's line, where which side is walkable cannot be told
    /// from the piece).
    fn walkable_side(&self, corner: Vec2, passing: Vec2, direction: Vec2) -> Vec2 {
        let hair = 1e-4 * (1.0 + corner.abs().max_element());
        if passing.distance(corner) > hair {
            return passing;
        }
        if let Some(opening) = self.corner_opening(corner) {
            return corner + opening * hair;
        }
        let side = direction.perp().normalize_or_zero() * hair;
        [corner + side, corner - side]
            .into_iter()
            .find(|&p| self.locate(p).is_some())
            .unwrap_or(corner)
    }

    /// The direction into the walkable area at a wall corner: the sum of
    /// the inward normals of the walls that meet there, if any do.
    fn corner_opening(&self, corner: Vec2) -> Option<Vec2> {
        let here = Segment::line(corner, Vec2::X, 0.0);
        let mut walls_here: Vec<(Vec2, Vec2, Vec2)> = Vec::new();
        self.for_each_wall_near(&here, 1e-3, |a, b, inward| {
            // A wall spanning several grid cells is visited in each.
            if (a == corner || b == corner) && !walls_here.iter().any(|w| (w.0, w.1) == (a, b)) {
                walls_here.push((a, b, inward));
            }
        });
        walls_here
            .into_iter()
            .map(|(_, _, inward)| inward)
            .sum::<Vec2>()
            .try_normalize()
    }

    /// The reflex wall corner closer than `clearance` to the segment
    /// `from to` whose closest point is nearest `from`, other than `skip`,
    /// with that closest point.
    fn first_grazed_corner(
        &self,
        from: Vec2,
        to: Vec2,
        clearance: f32,
        skip: [Option<Vec2>; 2],
    ) -> Option<(Vec2, Vec2)> {
        let mut first: Option<(f32, Vec2, Vec2)> = None;
        self.wall_grid
            .for_each_cell_near_segment(from, to, clearance, |column, row| {
                for &wall in self.wall_grid.cell(column, row) {
                    let (polygon, corner) = self.walls[wall as usize];
                    let (a, b) = self.edge_vertex_indices(PolygonId(polygon), corner as usize);
                    for v in [a, b] {
                        let p = self.vertices[v];
                        if !self.reflex[v] || skip.contains(&Some(p)) {
                            continue;
                        }
                        let closest = closest_point_on_segment(from, to, p);
                        let along = closest.distance(from);
                        if closest.distance(p) < clearance
                            && first.is_none_or(|(f, _, _)| along < f)
                        {
                            first = Some((along, p, closest));
                        }
                    }
                }
            });
        first.map(|(_, corner, passing)| (corner, passing))
    }

    /// Moves every inner point that bends round a wall corner out along the
    /// bend's outer bisector, to `clearance / cos(half the bend)`.
    fn keep_corners_clear(&self, bends: &mut [Bend], clearance: f32) {
        let wanted = clearance * CORNER_SLACK;
        let most = clearance * MAX_CORNER_OFFSET;
        let mut moves = Vec::new();
        for i in 1..bends.len().saturating_sub(1) {
            let Some(corner) = bends[i].wall_corner else {
                continue;
            };
            // The bend is where the funnel put it, beside the wall corner on
            // the walkable side; measured at the corner itself a slight bend
            // could flip.
            let at = bends[i].point;
            let (Some(incoming), Some(outgoing)) = (
                (at - bends[i - 1].point).try_normalize(),
                (bends[i + 1].point - at).try_normalize(),
            ) else {
                continue;
            };
            let clear_side = (at - corner).try_normalize();
            // When the bend turns away from the corner (or hardly turns),
            // the pieces pass the corner rather than wrap round it: they
            // clear it by moving square to the line between their far ends,
            // away from the corner's side of it. Moving along `clear_side`
            // (from the corner to where the funnel put the point, often
            // along the portal, so along the pieces) would not move them
            // off it at all.
            let chord = bends[i + 1].point - bends[i - 1].point;
            let corner_side = chord.perp_dot(corner - bends[i - 1].point);
            let off_chord = (chord.perp() * -corner_side.signum())
                .try_normalize()
                .filter(|_| corner_side != 0.0);
            // Under a milliradian the bisector is rounding, not a direction:
            // a grazed corner is added on the piece it grazes, where the
            // two pieces are one line, and its bisector once pointed along
            // the wall and carried the point 1.2 m down it (0.04 m off it).
            let bend = incoming - outgoing;
            let bisector = (bend.length() > MIN_BEND).then(|| bend.normalize());
            let outward = match (bisector, clear_side) {
                (Some(bisector), Some(side)) if bisector.dot(side) < 0.0 => {
                    off_chord.unwrap_or(side)
                }
                (Some(bisector), _) => bisector,
                (None, side) => match off_chord.or(side) {
                    Some(outward) => outward,
                    None => continue, // no bend, and on the corner
                },
            };
            let half_bend_cosine = (incoming + outgoing).length() * 0.5;
            let offset = (wanted / half_bend_cosine.max(1e-6)).min(most);
            bends[i].point = corner + outward * offset;
            moves.push((i, corner, outward, offset));
        }
        // Moving a point turns its neighbours' pieces a little, so a few
        // rounds widen any corner its pieces now pass too closely.
        for _ in 0..3 {
            for (i, corner, outward, offset) in &mut moves {
                let before =
                    closest_point_on_segment(bends[*i - 1].point, bends[*i].point, *corner);
                let after = closest_point_on_segment(bends[*i].point, bends[*i + 1].point, *corner);
                let closest = before.distance(*corner).min(after.distance(*corner));
                if closest < wanted {
                    *offset = (*offset * wanted / closest.max(1e-6)).min(most);
                    bends[*i].point = *corner + *outward * *offset;
                }
            }
        }
        for (i, corner, outward, mut offset) in moves {
            for _ in 0..8 {
                if self.locate(bends[i].point).is_some() {
                    break;
                }
                offset *= 0.5;
                bends[i].point = corner + outward * offset;
            }
        }
    }
}

/// A point of the polyline, and the wall corner it bends round, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bend {
    point: Vec2,
    wall_corner: Option<Vec2>,
}

impl Bend {
    fn free(point: Vec2) -> Bend {
        Bend {
            point,
            wall_corner: None,
        }
    }
}

/// Several portals can share a wall corner, so the funnel can bend round
/// one corner at several narrowed ends; they become one bend, placed at
/// the corner for [`NavMesh::keep_corners_clear`] to move out.
fn merge_wall_corners(bends: Vec<Bend>) -> Vec<Bend> {
    let mut merged: Vec<Bend> = Vec::with_capacity(bends.len());
    for bend in bends {
        match merged.last_mut() {
            Some(last) if last.wall_corner.is_some() && last.wall_corner == bend.wall_corner => {}
            _ => merged.push(bend),
        }
    }
    merged
}

/// The simple stupid funnel algorithm (Mononen): widen the funnel from the
/// apex portal by portal; when one side crosses the other, the crossed
/// side's point is a corner of the shortest path and becomes the new apex.
fn pull_through(portals: &[(Bend, Bend)]) -> Vec<Bend> {
    let mut bends = vec![portals[0].0];
    let mut apex = portals[0].0;
    let (mut left, mut right) = (apex, apex);
    let (mut left_index, mut right_index) = (0, 0);
    let mut i = 1;
    while i < portals.len() {
        let (portal_left, portal_right) = portals[i];
        let a = apex.point;
        // Tighten the right side if the new right end is inside the funnel.
        if (right.point - a).perp_dot(portal_right.point - a) >= 0.0 {
            if a == right.point || (portal_right.point - a).perp_dot(left.point - a) > 0.0 {
                right = portal_right;
                right_index = i;
            } else {
                // The right side crossed the left: the left end is a corner.
                apex = left;
                push_distinct(&mut bends, apex);
                (right, right_index) = (apex, left_index);
                i = left_index + 1;
                continue;
            }
        }
        // Tighten the left side likewise.
        if (left.point - a).perp_dot(portal_left.point - a) <= 0.0 {
            if a == left.point || (right.point - a).perp_dot(portal_left.point - a) > 0.0 {
                left = portal_left;
                left_index = i;
            } else {
                apex = right;
                push_distinct(&mut bends, apex);
                (left, left_index) = (apex, right_index);
                i = right_index + 1;
                continue;
            }
        }
        i += 1;
    }
    if let Some(&(last, _)) = portals.last() {
        push_distinct(&mut bends, last);
    }
    bends
}

fn push_distinct(bends: &mut Vec<Bend>, bend: Bend) {
    if bends.last().map(|b| b.point) != Some(bend.point) {
        bends.push(bend);
    }
}
