//! Merging a grid's cells along their rows into convex strips, without
//! T-junctions.

use std::collections::HashMap;

use glam::Vec2;

use super::position_key;

/// Merges each model's cells (convex, counter-clockwise, sharing whole
/// edges) along their rows into convex strips up to `max_length`
/// long, then drops the vertices that only lie along straight edges. A
/// vertex stays wherever some polygon has a corner there, so no edge ends in
/// the middle of another (no T-junctions).
///
/// Raw 4 m cells make a search cross a polygon every 4 m; strips are what a
/// navmesh builder such as Recast makes of a grid, and keep the town above
/// 2,000 polygons.
pub(super) fn merge_into_strips<const MODELS: usize>(
    models: [Vec<Vec<Vec2>>; MODELS],
    max_length: f32,
) -> [Vec<Vec<Vec2>>; MODELS] {
    let mut merged = models.map(|polygons| {
        let mut polygons: Vec<Option<Vec<Vec2>>> = polygons.into_iter().map(Some).collect();
        merge_along_rows(&mut polygons, max_length);
        polygons.into_iter().flatten().collect::<Vec<_>>()
    });
    // A vertex can go where every polygon that has it runs straight through.
    let mut corner_at: HashMap<(u32, u32), bool> = HashMap::new();
    for polygon in merged.iter().flatten() {
        for (index, &p) in polygon.iter().enumerate() {
            let corner = !is_straight(polygon, index);
            *corner_at.entry(position_key(p)).or_insert(false) |= corner;
        }
    }
    for polygon in merged.iter_mut().flatten() {
        let kept: Vec<Vec2> = polygon
            .iter()
            .copied()
            .filter(|&p| corner_at[&position_key(p)])
            .collect();
        if kept.len() >= 3 {
            *polygon = kept;
        }
    }
    merged
}

/// Whether `polygon` runs straight through its vertex `index`.
fn is_straight(polygon: &[Vec2], index: usize) -> bool {
    let count = polygon.len();
    let previous = polygon[(index + count - 1) % count];
    let next = polygon[(index + 1) % count];
    let (a, b) = (polygon[index] - previous, next - polygon[index]);
    a.perp_dot(b).abs() <= 1e-6 * a.length() * b.length() && a.dot(b) > 0.0
}

/// Each polygon absorbs its neighbours across vertical edges while the
/// union stays convex and at most `max_length` wide.
fn merge_along_rows(polygons: &mut [Option<Vec<Vec2>>], max_length: f32) {
    let mut owner = EdgeOwners::new();
    for (index, polygon) in polygons.iter().enumerate() {
        for (a, b) in polygon.iter().flat_map(|p| edges(p)) {
            owner.insert((position_key(a), position_key(b)), index);
        }
    }
    for index in 0..polygons.len() {
        while absorb_neighbour(polygons, &mut owner, index, max_length) {}
    }
}

/// Which polygon each directed edge (by its ends' keys) belongs to.
type EdgeOwners = HashMap<((u32, u32), (u32, u32)), usize>;

/// Merges into polygon `index` one neighbour across a vertical edge, if
/// their union is convex and at most `max_length` wide.
fn absorb_neighbour(
    polygons: &mut [Option<Vec<Vec2>>],
    owner: &mut EdgeOwners,
    index: usize,
    max_length: f32,
) -> bool {
    let Some(polygon) = polygons[index].clone() else {
        return false;
    };
    for (a, b) in edges(&polygon) {
        if a.x != b.x {
            continue;
        }
        let Some(&other) = owner.get(&(position_key(b), position_key(a))) else {
            continue;
        };
        let Some(neighbour) = polygons.get(other).cloned().flatten() else {
            continue;
        };
        let Some(union) =
            convex_union(&polygon, &neighbour).filter(|union| width(union) <= max_length)
        else {
            continue;
        };
        for (a, b) in edges(&polygon).chain(edges(&neighbour)) {
            owner.remove(&(position_key(a), position_key(b)));
        }
        for (a, b) in edges(&union) {
            owner.insert((position_key(a), position_key(b)), index);
        }
        polygons[other] = None;
        polygons[index] = Some(union);
        return true;
    }
    false
}

/// The extent of `polygon` along x.
fn width(polygon: &[Vec2]) -> f32 {
    let (low, high) = polygon
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(low, high), p| {
            (low.min(p.x), high.max(p.x))
        });
    high - low
}

fn edges(polygon: &[Vec2]) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    (0..polygon.len()).map(|i| (polygon[i], polygon[(i + 1) % polygon.len()]))
}

/// The union of two counter-clockwise convex polygons that share one run of
/// consecutive edges, if it is convex (straight angles allowed).
fn convex_union(first: &[Vec2], second: &[Vec2]) -> Option<Vec<Vec2>> {
    let shared = |polygon: &[Vec2], other: &[Vec2], i: usize| {
        let (a, b) = (polygon[i], polygon[(i + 1) % polygon.len()]);
        edges(other)
            .any(|(c, d)| position_key(c) == position_key(b) && position_key(d) == position_key(a))
    };
    let count = first.len();
    let flags: Vec<bool> = (0..count).map(|i| shared(first, second, i)).collect();
    let shared_count = flags.iter().filter(|&&f| f).count();
    // The run starts at a shared edge whose predecessor is not shared.
    let start = (0..count).find(|&i| flags[i] && !flags[(i + count - 1) % count])?;
    if shared_count == 0 || (0..shared_count).any(|k| !flags[(start + k) % count]) {
        return None; // no shared edge, or more than one run
    }
    let run_start = first[start];
    let run_end = first[(start + shared_count) % count];
    // The first polygon from the run's end round to its start ...
    let mut union: Vec<Vec2> = (0..=count - shared_count)
        .map(|k| first[(start + shared_count + k) % count])
        .collect();
    // ... then the second from just after the run's start to just before its end.
    let from = second
        .iter()
        .position(|&p| position_key(p) == position_key(run_start))?;
    let to = second
        .iter()
        .position(|&p| position_key(p) == position_key(run_end))?;
    let mut k = (from + 1) % second.len();
    while k != to {
        union.push(second[k]);
        k = (k + 1) % second.len();
    }
    let mut keys: Vec<(u32, u32)> = union.iter().map(|&p| position_key(p)).collect();
    keys.sort_unstable();
    keys.dedup();
    let convex = (0..union.len()).all(|i| {
        let (a, b, c) = (
            union[i],
            union[(i + 1) % union.len()],
            union[(i + 2) % union.len()],
        );
        (b - a).perp_dot(c - b) >= -1e-6 * (b - a).length() * (c - b).length()
    });
    (keys.len() == union.len() && convex).then_some(union)
}
