//! Named groups of units (tanks, pedestrians, ...) whose parameters and
//! numbers are set in one place, as the tuning panel does.

use bevy::prelude::*;
use kerb_steering::UnitRng;

use crate::avoidance::Body;
use crate::components::{NavLocation, Speed, TurningRadius, Unit, Wander};
use crate::presets::UnitPreset;
use crate::settings::KerbSettings;
use crate::world_asset::{KerbWorld, WorldAsset};

/// The tunable parameters and the wanted number of one group.
#[derive(Reflect, Clone, Debug, PartialEq)]
pub struct GroupSettings {
    /// Shown in the panel.
    pub name: String,
    /// Turning radius of every member, in metres.
    pub turning_radius: f32,
    /// Speed of every member, in metres per second.
    pub speed: f32,
    /// Body radius of every member, in metres ([`Body`]).
    pub body_radius: f32,
    /// Wander parameters of every member.
    pub wander: Wander,
    /// How many members there should be; members are spawned or despawned
    /// to match.
    pub count: u32,
    /// Members spawn in clusters of this many around a shared spot (1:
    /// each on its own), so crowds start out as crowds.
    pub cluster_size: u32,
}

impl GroupSettings {
    /// A group of `count` units of one kind, spawned in clusters of
    /// `cluster_size`.
    pub fn new(name: impl Into<String>, preset: UnitPreset, count: u32, cluster_size: u32) -> Self {
        Self {
            name: name.into(),
            turning_radius: preset.turning_radius,
            speed: preset.speed,
            body_radius: preset.body_radius,
            wander: preset.wander,
            count,
            cluster_size,
        }
    }
}

/// Every group, by index; [`GroupMember`] refers to them.
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(Resource, Default, Debug)]
pub struct UnitGroups {
    /// The groups.
    pub groups: Vec<GroupSettings>,
    /// Units spawned so far, which seeds each new unit's place.
    spawned: u64,
}

impl UnitGroups {
    /// Groups with these settings.
    pub fn new(groups: Vec<GroupSettings>) -> Self {
        Self { groups, spawned: 0 }
    }
}

/// Marks a unit as a member of group `.0` of [`UnitGroups`].
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug)]
pub struct GroupMember(pub usize);

/// Despawns every group member and spawns them afresh from the current
/// seed ([`KerbSettings::seed`]).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct RestartGroups;

/// Keeps group members in line with [`UnitGroups`]: parameters applied on
/// the next tick, members spawned or despawned to match each count.
pub struct UnitGroupsPlugin;

impl Plugin for UnitGroupsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<UnitGroups>()
            .register_type::<UnitGroups>()
            .register_type::<GroupMember>()
            .add_message::<RestartGroups>()
            .add_systems(Update, (restart_groups, apply_group_settings).chain());
    }
}

fn restart_groups(
    mut commands: Commands,
    mut restarts: MessageReader<RestartGroups>,
    mut groups: ResMut<UnitGroups>,
    members: Query<Entity, With<GroupMember>>,
) {
    if restarts.read().count() == 0 {
        return;
    }
    for entity in &members {
        commands.entity(entity).despawn();
    }
    groups.spawned = 0;
}

/// Applies settings and counts. Only components whose value differs are
/// written, so change detection (and replanning) fires only for real changes.
fn apply_group_settings(
    mut commands: Commands,
    mut groups: ResMut<UnitGroups>,
    settings: Res<KerbSettings>,
    world: Res<KerbWorld>,
    assets: Res<Assets<WorldAsset>>,
    mut units: ParamSet<(
        Query<(
            Entity,
            &GroupMember,
            &mut TurningRadius,
            &mut Speed,
            &mut Body,
            &mut Wander,
        )>,
        Query<(&Transform, &Body), With<Unit>>,
    )>,
    restarts: MessageReader<RestartGroups>,
) {
    let Some(world) = world.get(&assets) else {
        return;
    };
    if !restarts.is_empty() {
        return; // the despawns land first
    }
    let mut counts = vec![0u32; groups.groups.len()];
    let mut sorted: Vec<(Entity, usize)> = Vec::new();
    for (entity, member, mut radius, mut speed, mut body, mut wander) in &mut units.p0() {
        let Some(group) = groups.groups.get(member.0) else {
            commands.entity(entity).despawn();
            continue;
        };
        let wanted_radius = group.turning_radius.max(0.05);
        if radius.0 != wanted_radius {
            radius.0 = wanted_radius;
        }
        if speed.0 != group.speed.max(0.0) {
            speed.0 = group.speed.max(0.0);
        }
        if body.radius != group.body_radius.max(0.0) {
            body.radius = group.body_radius.max(0.0);
        }
        if *wander != group.wander {
            *wander = group.wander;
        }
        counts[member.0] += 1;
        sorted.push((entity, member.0));
    }
    // Despawn the newest extras first.
    sorted.sort_by_key(|&(entity, _)| std::cmp::Reverse(entity));
    for (entity, group) in sorted {
        if counts[group] > groups.groups[group].count {
            counts[group] -= 1;
            commands.entity(entity).despawn();
        }
    }
    let mesh = &world.navmesh;
    // Bodies placed so far, so that new members do not spawn overlapping.
    let mut placed: Vec<(Vec2, f32)> = units
        .p1()
        .iter()
        .map(|(transform, body)| (transform.translation.truncate(), body.radius))
        .collect();
    for (index, have) in counts.into_iter().enumerate() {
        let missing = groups.groups[index].count.saturating_sub(have);
        let cluster = u64::from(groups.groups[index].cluster_size.max(1));
        let body_radius = groups.groups[index].body_radius.max(0.0);
        for _ in 0..missing {
            let spawned = groups.spawned;
            groups.spawned += 1;
            // Members of one cluster share the spot's stream.
            let mut spot = UnitRng::new(settings.seed, spawned / cluster);
            let mut own = UnitRng::new(settings.seed ^ 0x5EED, spawned);
            let polygons = mesh.polygon_count() as u32;
            let polygon = kerb_navmesh::PolygonId((spot.next_u64() % u64::from(polygons)) as u32);
            let spread = (cluster as f32).sqrt() * body_radius.max(0.3) / 0.3;
            let centre = mesh.centroid(polygon);
            let mut position = centre;
            for attempt in 0..SPAWN_ATTEMPTS {
                // Each miss looks a little further out.
                let reach = spread * (1.0 + attempt as f32 * 0.25);
                let jitter = Vec2::new(own.next_signed(), own.next_signed()) * reach;
                let (candidate, _) = mesh
                    .nearest_point(centre + jitter)
                    .unwrap_or((centre, polygon));
                position = candidate;
                if mesh.has_room(candidate, body_radius)
                    && !overlaps(&placed, candidate, body_radius)
                {
                    break;
                }
            }
            placed.push((position, body_radius));
            let random = if cluster > 1 {
                spot.next_signed()
            } else {
                own.next_signed()
            } * std::f32::consts::PI;
            let heading = spawn_heading(cluster > 1, position, centre, random);
            let group = &groups.groups[index];
            commands.spawn((
                Unit,
                GroupMember(index),
                TurningRadius(group.turning_radius.max(0.05)),
                Speed(group.speed.max(0.0)),
                Body {
                    radius: body_radius,
                },
                group.wander,
                NavLocation::default(),
                Transform::from_translation(position.extend(1.0))
                    .with_rotation(Quat::from_rotation_z(heading)),
            ));
        }
    }
}

/// Places tried for a new member, each with room for its body off the
/// walls and clear of the bodies before it, before it takes the last one.
const SPAWN_ATTEMPTS: u32 = 24;

/// How far apart, in sums of their radii, new bodies spawn: packed closer,
/// a cluster of wanderers facing every way jams for seconds at the start.
const SPAWN_ROOM: f32 = 2.0;

/// Whether a body of `radius` at `position` would come nearer one `placed`
/// than [`SPAWN_ROOM`] times the sum of their radii, and where one body is
/// larger than the other, the difference of their radii besides: members
/// of a cluster spawn with room between them to turn, and a pedestrian
/// spawned beside a tank has room to step out of its way.
fn overlaps(placed: &[(Vec2, f32)], position: Vec2, radius: f32) -> bool {
    placed.iter().any(|&(at, other)| {
        at.distance(position) < (radius + other) * SPAWN_ROOM + (radius - other).abs()
    })
}

/// The heading a new member spawns with at `position`: one of a cluster
/// faces out from the cluster's `centre`, so that the cluster spreads as it
/// sets off (facing one way, members wandering to either side cross each
/// other and jam for seconds); one alone, or at the centre, faces `random`.
fn spawn_heading(clustered: bool, position: Vec2, centre: Vec2, random: f32) -> f32 {
    let outward = position - centre;
    if clustered && outward.length() > 0.1 {
        outward.to_angle()
    } else {
        random
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cluster's members face out from its centre; one at the centre,
    /// or alone, faces the random heading.
    #[test]
    fn cluster_members_face_out_from_its_centre() {
        let centre = Vec2::new(10.0, 10.0);
        let north = spawn_heading(true, Vec2::new(10.0, 12.0), centre, 1.0);
        assert!((north - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        let west = spawn_heading(true, Vec2::new(7.0, 10.0), centre, 1.0);
        assert!((west.abs() - std::f32::consts::PI).abs() < 1e-6);
        assert_eq!(spawn_heading(true, centre, centre, 1.0), 1.0);
        assert_eq!(spawn_heading(false, Vec2::new(7.0, 10.0), centre, 1.0), 1.0);
    }

    /// Equal bodies keep the sum of their radii between them; a small body
    /// beside a large one keeps the difference of their radii besides.
    #[test]
    fn spawned_bodies_keep_room_by_their_sizes() {
        let pedestrian = [(Vec2::ZERO, 0.3)];
        assert!(overlaps(&pedestrian, Vec2::new(1.19, 0.0), 0.3));
        assert!(!overlaps(&pedestrian, Vec2::new(1.21, 0.0), 0.3));
        let tank = [(Vec2::ZERO, 2.5)];
        // Twice the 2.8 m of bodies, and 2.2 m for the pedestrian to step.
        assert!(overlaps(&tank, Vec2::new(0.0, 7.7), 0.3));
        assert!(!overlaps(&tank, Vec2::new(0.0, 7.9), 0.3));
        assert!(overlaps(&tank, Vec2::new(9.9, 0.0), 2.5));
        assert!(!overlaps(&tank, Vec2::new(10.1, 0.0), 2.5));
    }
}
