//! Cutting a grid's square cells along circles, sharing every crossing
//! between the cells on either side.

use glam::Vec2;

/// A disk that changes what is walkable inside it.
pub(super) struct Disk {
    pub center: Vec2,
    pub radius: f32,
    pub walkable_inside: bool,
}

impl Disk {
    pub(super) fn contains(&self, p: Vec2) -> bool {
        p.distance_squared(self.center) < self.radius * self.radius
    }
}

/// Where `disk`'s circle crosses the edge `a b`, computed from the edge's end
/// points in a canonical order so both cells that share the edge get the
/// same bits. Crossings within a quarter metre of a corner snap to it; an
/// edge crossed twice (nearly tangent) counts as not crossed.
fn edge_crossing(a: Vec2, b: Vec2, disk: &Disk) -> Option<Vec2> {
    let (from, to) = if (a.x, a.y) < (b.x, b.y) {
        (a, b)
    } else {
        (b, a)
    };
    if disk.contains(from) == disk.contains(to) {
        return None;
    }
    let edge = (to - from).as_dvec2();
    let relative = (from - disk.center).as_dvec2();
    let qa = edge.length_squared();
    let qb = 2.0 * edge.dot(relative);
    let qc = relative.length_squared() - f64::from(disk.radius).powi(2);
    let root = (qb * qb - 4.0 * qa * qc).max(0.0).sqrt();
    let t = [(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)]
        .into_iter()
        .find(|t| (0.0..=1.0).contains(t))?;
    let point = (from.as_dvec2() + edge * t).as_vec2();
    Some(if point.distance(from) < 0.25 {
        from
    } else if point.distance(to) < 0.25 {
        to
    } else {
        point
    })
}

/// The polygon with every disk crossing of its edges added as a vertex, so
/// a whole cell beside a cut one shares the cut's vertex instead of forming a
/// T-junction with it.
pub(super) fn with_crossings(corners: &[Vec2], disks: &[Disk]) -> Vec<Vec2> {
    let mut out = Vec::with_capacity(corners.len() + 2);
    for (i, &a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        out.push(a);
        // Only cell sides are shared with other cells; chords are walls.
        if a.x != b.x && a.y != b.y {
            continue;
        }
        let mut crossings: Vec<Vec2> = disks
            .iter()
            .filter_map(|disk| edge_crossing(a, b, disk))
            .filter(|&c| c != a && c != b)
            .collect();
        crossings.sort_by(|p, q| p.distance_squared(a).total_cmp(&q.distance_squared(a)));
        crossings.dedup();
        out.extend(crossings);
    }
    out
}

/// The walkable part of a square cell given the disks, as a convex polygon:
/// whole, cut along a chord of one disk's circle, or `None`.
pub(super) fn cut_cell(
    square: &[Vec2; 4],
    base_walkable: bool,
    disks: &[Disk],
) -> Option<Vec<Vec2>> {
    let center = (square[0] + square[2]) / 2.0;
    let mut walkable_outside = base_walkable;
    let mut cut: Option<(&Disk, bool)> = None;
    for disk in disks {
        let inside: Vec<bool> = square.iter().map(|&c| disk.contains(c)).collect();
        if inside.iter().all(|&i| i) {
            walkable_outside = disk.walkable_inside;
            cut = None;
        } else if inside.iter().any(|&i| i) {
            cut = Some((disk, walkable_outside));
            walkable_outside = if disk.contains(center) {
                disk.walkable_inside
            } else {
                walkable_outside
            };
        }
    }
    let Some((disk, outside_walkable)) = cut else {
        return walkable_outside.then(|| square.to_vec());
    };
    if disk.walkable_inside == outside_walkable {
        return outside_walkable.then(|| square.to_vec());
    }
    // Keep the corners on the walkable side and the crossing points.
    let mut corners: Vec<Vec2> = Vec::with_capacity(6);
    for i in 0..4 {
        let (a, b) = (square[i], square[(i + 1) % 4]);
        if disk.contains(a) == disk.walkable_inside {
            corners.push(a);
        }
        if let Some(crossing) = edge_crossing(a, b, disk) {
            corners.push(crossing);
        }
    }
    corners.dedup();
    if corners.len() > 1 && corners.first() == corners.last() {
        corners.pop();
    }
    (corners.len() >= 3).then_some(corners)
}
