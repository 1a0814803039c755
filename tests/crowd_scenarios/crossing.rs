//! Scenarios 1 to 3: pedestrians sent across a world (an open square, a
//! street, a junction), when each arrives, and what to trace about those
//! that arrive late or never.

use bevy::prelude::*;
use bevy_kerb::kerb_crowd::NeighbourGrid;
use bevy_kerb::kerb_navmesh::ValidWorld;
use bevy_kerb::kerb_navmesh::generate::grid_world;
use bevy_kerb::kerb_steering::UnitRng;
use bevy_kerb::prelude::*;

use super::support::*;
use super::{HZ, Tally, count_contacts};

/// Units sent across a world, and when each arrived.
pub(super) struct Crossing {
    pub(super) units: Vec<(Entity, f32)>,
    arrived_at: Vec<Option<f32>>,
    /// Where the [`Arrived`] messages have been read to: a unit that gave
    /// up ([`Blocked`]) loses its destination too, but has not arrived.
    arrivals: bevy::ecs::message::MessageCursor<Arrived>,
    /// Units that gave up on their destination.
    pub(super) gave_up: usize,
    /// Where spawns are moved by up to [`JITTER`] each way, the stream
    /// that moves them.
    jitter: Option<UnitRng>,
}

/// How far, in metres, a jittered spawn moves each way at most.
const JITTER: f32 = 0.1;

impl Crossing {
    /// Spawns a pedestrian at `from` facing `heading`, sent to `to`; its
    /// time alone is the straight distance at its speed.
    fn send(&mut self, app: &mut App, from: Vec2, heading: f32, to: Vec2) {
        let preset = UnitPreset::PEDESTRIAN;
        let from = from
            + self.jitter.as_mut().map_or(Vec2::ZERO, |rng| {
                JITTER * Vec2::new(rng.next_signed(), rng.next_signed())
            });
        let unit = app
            .world_mut()
            .spawn((
                preset.unit(),
                Destination::Point(to),
                Transform::from_translation(from.extend(0.0))
                    .with_rotation(Quat::from_rotation_z(heading)),
            ))
            .id();
        self.units.push((unit, from.distance(to) / preset.speed));
        self.arrived_at.push(None);
    }

    /// Notes who has arrived by `time`, and who gave up.
    fn check(&mut self, app: &App, time: f32) {
        let arrived = app.world().resource::<Messages<Arrived>>();
        for message in self.arrivals.read(arrived) {
            if let Some(index) = self
                .units
                .iter()
                .position(|(unit, _)| *unit == message.entity)
            {
                self.arrived_at[index].get_or_insert(time);
            }
        }
        self.gave_up = self
            .units
            .iter()
            .zip(&self.arrived_at)
            .filter(|((unit, _), at)| {
                at.is_none() && app.world().get::<Destination>(*unit).is_none()
            })
            .count();
    }

    /// Whether every unit has arrived or given up.
    fn done(&self) -> bool {
        self.arrived_at.iter().filter(|at| at.is_none()).count() == self.gave_up
    }

    /// Units that never arrived.
    pub(super) fn never(&self) -> usize {
        self.arrived_at.iter().filter(|at| at.is_none()).count()
    }

    /// Units that arrived within twice their time alone.
    pub(super) fn in_time(&self) -> usize {
        self.units
            .iter()
            .zip(&self.arrived_at)
            .filter(|((_, alone), at)| at.is_some_and(|at| at <= 2.0 * alone))
            .count()
    }
}

/// Runs `spawn`'s crossing on `world` until all arrive or `limit` seconds
/// pass, its spawns jittered by the stream `jitter` names, if any: the
/// contacts, and the crossing.
pub(super) fn cross(
    world: ValidWorld,
    avoid: bool,
    limit: u32,
    jitter: Option<u64>,
    spawn: impl Fn(&mut App, &mut Crossing),
) -> (Tally, Crossing) {
    let mut app = app_with(world, HZ, 3);
    with_avoidance(&mut app, avoid);
    let mesh = navmesh(&app);
    let mut crossing = Crossing {
        units: Vec::new(),
        arrived_at: Vec::new(),
        arrivals: default(),
        gave_up: 0,
        jitter: jitter.map(|seed| UnitRng::new(seed, 0)),
    };
    spawn(&mut app, &mut crossing);
    let mut tally = Tally::default();
    let mut grid = NeighbourGrid::new(8.0);
    let tracing = std::env::var("KERB_TRACE").is_ok();
    let mut walks = Walks::default();
    for tick in 0..limit * HZ {
        app.update();
        count_contacts(&mut app, &mut tally, &mut grid);
        crossing.check(&app, (tick + 1) as f32 / HZ as f32);
        if tracing {
            walks.record(&mut app);
        }
        if crossing.done() {
            break;
        }
    }
    assert_on_mesh(&mut app, &mesh);
    if tracing {
        trace_late(&mut app, &crossing, &walks);
    }
    (tally, crossing)
}

/// How far each unit has walked, and how long it has spent off its path,
/// to tell a unit that arrived late from waiting from one carried round.
#[derive(Default)]
struct Walks {
    /// For each unit: where it last stood, metres walked, seconds off path.
    units: std::collections::HashMap<Entity, (Vec2, f32, f32)>,
}

impl Walks {
    /// Adds this tick's moves.
    fn record(&mut self, app: &mut App) {
        let mut query = app.world_mut().query::<(Entity, &UnitPose, &Avoiding)>();
        for (unit, pose, avoiding) in query.iter(app.world()) {
            let walk = self.units.entry(unit).or_insert((pose.position, 0.0, 0.0));
            walk.1 += pose.position.distance(walk.0);
            walk.0 = pose.position;
            if avoiding.is_off_path() {
                walk.2 += 1.0 / HZ as f32;
            }
        }
    }
}

/// Prints each unit that arrived after twice its time alone, how far it
/// walked and how long it was off its path; then each that never arrived,
/// where it stands and who stands round it, to trace why.
fn trace_late(app: &mut App, crossing: &Crossing, walks: &Walks) {
    let speed = UnitPreset::PEDESTRIAN.speed;
    for ((unit, alone), at) in crossing.units.iter().zip(&crossing.arrived_at) {
        if let (Some(at), Some((_, walked, off_path))) = (at, walks.units.get(unit))
            && *at > 2.0 * alone
        {
            eprintln!(
                "late: {unit} arrived after {at:.1} s ({alone:.1} s alone), walked {walked:.1} m ({:.1} m straight), {off_path:.1} s off its path",
                alone * speed
            );
        }
    }
    let mut query = app
        .world_mut()
        .query::<(Entity, &UnitPose, &Motion, &Avoiding)>();
    let late = crossing
        .units
        .iter()
        .zip(&crossing.arrived_at)
        .filter(|(_, at)| at.is_none());
    for ((unit, _), _) in late {
        let Ok((_, pose, motion, avoiding)) = query.get(app.world(), *unit) else {
            continue;
        };
        eprintln!("never: {unit} {pose:?} {:?} {avoiding:?}", motion.goal());
        for (other, near, motion, _) in query.iter(app.world()) {
            if other != *unit && near.position.distance(pose.position) < 2.0 {
                eprintln!("    {other} {near:?} {:?}", motion.goal());
            }
        }
    }
}

/// Runs a crossing with avoidance off and on: the contact-seconds off and
/// on, and the crossing with it on.
pub(super) fn crossing_off_and_on(
    name: &str,
    world: impl Fn() -> ValidWorld,
    spawn: impl Fn(&mut App, &mut Crossing),
) -> (f32, f32, Crossing) {
    let (off, _) = cross(world(), false, LIMIT, None, &spawn);
    let (on, crossing) = cross(world(), true, LIMIT, None, &spawn);
    println!(
        "{name}: off {:.1} contact-s; on {:.2} contact-s, {} of {} within 2x alone, {} gave up",
        off.contact_seconds,
        on.contact_seconds,
        crossing.in_time(),
        crossing.units.len(),
        crossing.gave_up
    );
    (off.contact_seconds, on.contact_seconds, crossing)
}

/// How long, in simulated seconds, a crossing may take.
pub(super) const LIMIT: u32 = 400;

/// An open square, 120 m a side.
pub(super) fn square() -> ValidWorld {
    grid_world(60, 60, 2.0, |_, _| false).validate().unwrap()
}

/// RVO2's "Circle": 250 pedestrians evenly spaced on a circle of 50 m in
/// the square, each sent to the opposite point.
pub(super) fn circle_swap(app: &mut App, crossing: &mut Crossing) {
    let centre = Vec2::splat(60.0);
    for i in 0..250 {
        let towards = Vec2::from_angle(i as f32 / 250.0 * std::f32::consts::TAU);
        crossing.send(
            app,
            centre + towards * 50.0,
            (-towards).to_angle(),
            centre - towards * 50.0,
        );
    }
}

/// A street 12 m wide and 200 m long.
pub(super) fn street() -> ValidWorld {
    grid_world(100, 6, 2.0, |_, _| false).validate().unwrap()
}

/// Two groups of 100 pedestrians, 5 abreast, sent in opposite directions
/// along the street, each to its start mirrored at the far end.
pub(super) fn counterflow(app: &mut App, crossing: &mut Crossing) {
    for i in 0..100 {
        let (across, along) = ((i % 5) as f32, (i / 5) as f32);
        let y = 2.0 + 2.0 * across + 0.5 * (along % 2.0);
        let west = Vec2::new(3.0 + 1.5 * along, y);
        let east = Vec2::new(197.0 - 1.5 * along, 12.0 - y);
        crossing.send(app, west, 0.0, Vec2::new(200.0 - west.x, west.y));
        crossing.send(
            app,
            east,
            std::f32::consts::PI,
            Vec2::new(200.0 - east.x, east.y),
        );
    }
}

/// A crossroads of two streets 12 m wide with arms 60 m long: 66 cells of
/// 2 m a side, the streets the middle six rows and columns.
pub(super) fn junction() -> ValidWorld {
    let street = |i: u32| (30..36).contains(&i);
    grid_world(66, 66, 2.0, |column, row| !street(column) && !street(row))
        .validate()
        .unwrap()
}

/// Four groups of 50, 5 abreast, one from each arm of the junction, each
/// sent to the opposite arm.
pub(super) fn four_groups(app: &mut App, crossing: &mut Crossing) {
    let centre = Vec2::splat(66.0);
    for side in 0..4 {
        let towards = Vec2::from_angle(side as f32 * std::f32::consts::FRAC_PI_2);
        for i in 0..50 {
            let (across, along) = ((i % 5) as f32, (i / 5) as f32);
            let offset = towards.perp() * (2.0 * across - 4.0);
            let from = centre - towards * (62.0 - 1.5 * along) + offset;
            let to = centre + towards * (62.0 - 1.5 * along) + offset;
            crossing.send(app, from, towards.to_angle(), to);
        }
    }
}
