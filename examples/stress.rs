//! Headless stress run: N wandering units on the town, the full pipeline
//! every tick, against a floor (a bare system that only moves transforms).
//!
//! ```sh
//! cargo run --release --example stress -- --agents 100000 --ticks 600 [--world PATH | --town-blocks 48x36] [--avoidance on] [--warmup 60] [--threads N]
//! ```
//!
//! `--town-blocks` generates a town of that many blocks (the demo's has
//! 8x6) instead of loading a world. `--avoidance on` measures the run twice
//! in one process, with crowd avoidance off and then on, and prints the
//! ratio.
//!
//! `--threads` sizes Bevy's compute pool, which runs the parallel queries
//! (default: one thread per core). Bevy's own default keeps one core for
//! I/O and one for async tasks, which on a 2-core machine leaves compute a
//! single thread; a headless crowd wants every core.
//!
//! The last line is `agents=N ms_per_tick_median=X ms_per_tick_p95=Y floor_ms=Z`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bevy::app::{TaskPoolOptions, TaskPoolThreadAssignmentPolicy};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_kerb::kerb_navmesh::{PolygonId, ValidWorld};
use bevy_kerb::kerb_steering::UnitRng;
use bevy_kerb::prelude::*;
use bevy_kerb::{Avoiding, Intent, Motion, WanderMemory};

struct Options {
    agents: u32,
    ticks: u32,
    warmup: u32,
    world: PathBuf,
    /// A town to generate, in blocks across and down, instead of `world`.
    town_blocks: Option<(u32, u32)>,
    avoidance: bool,
    threads: usize,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        agents: 10_000,
        ticks: 600,
        warmup: 60,
        world: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/worlds/town.world.ron"),
        town_blocks: None,
        avoidance: false,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        let number = || {
            value
                .parse::<u32>()
                .map_err(|_| format!("{arg} must be a whole number, not {value:?}"))
        };
        match arg.as_str() {
            "--agents" => options.agents = number()?,
            "--ticks" => options.ticks = number()?.max(1),
            "--warmup" => options.warmup = number()?,
            "--world" => options.world = PathBuf::from(&value),
            "--threads" => options.threads = number()?.max(1) as usize,
            "--town-blocks" => {
                let (across, down) = value
                    .split_once('x')
                    .and_then(|(a, d)| Some((a.parse().ok()?, d.parse().ok()?)))
                    .ok_or(format!("{arg} must look like 48x36, not {value:?}"))?;
                options.town_blocks = Some((across, down));
            }
            "--avoidance" => {
                options.avoidance = match value.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("{arg} must be on or off, not {value:?}")),
                }
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

const TICK: Duration = Duration::from_nanos(1_000_000_000 / 60);

/// Spawns the units: one in ten a tank, the rest pedestrians, spread
/// uniformly over the walkable area with a fixed seed, each with room for
/// its body and (where a few tries find one) clear of the bodies before it,
/// as a crowd stands in a town.
fn spawn_units(app: &mut App, world: &ValidWorld, agents: u32) {
    let mesh = &world.navmesh;
    let areas = polygon_areas(world);
    let mut cumulative = Vec::with_capacity(areas.len());
    let mut total = 0.0;
    for area in &areas {
        total += area;
        cumulative.push(total);
    }
    let mut placed = SpawnGrid::new(SPAWN_CELL);
    for i in 0..u64::from(agents) {
        let mut rng = UnitRng::new(17, i);
        let preset = if i % 10 == 0 {
            UnitPreset::TANK
        } else {
            UnitPreset::PEDESTRIAN
        };
        let body = preset.body_radius;
        let mut position = None;
        for _ in 0..SPAWN_TRIES {
            let pick = f64::from(rng.next_f32()) * total;
            let polygon = cumulative.partition_point(|&sum| sum <= pick);
            let polygon = PolygonId(polygon.min(areas.len() - 1) as u32);
            let candidate = point_in_polygon(world, polygon, &mut rng);
            if !mesh.has_room(candidate, body) {
                continue;
            }
            position = Some(candidate);
            if !placed.overlaps(candidate, body) {
                break;
            }
        }
        let position = position.unwrap_or_else(|| mesh.centroid(PolygonId(0)));
        placed.insert(position, body);
        app.world_mut()
            .spawn(preset.wanderer_at(position, rng.next_angle()));
    }
}

/// Places tried for each unit before it takes the last with room.
const SPAWN_TRIES: u32 = 64;

/// Cells of the spawn grid, in metres: a tank's body across.
const SPAWN_CELL: f32 = 5.0;

/// A point uniform in the convex `polygon`: a triangle of its fan, chosen
/// by area, then a point uniform in that triangle.
fn point_in_polygon(world: &ValidWorld, polygon: PolygonId, rng: &mut UnitRng) -> Vec2 {
    let corners: Vec<Vec2> = world.navmesh.polygon_vertices(polygon).collect();
    let triangles: Vec<(Vec2, Vec2, Vec2, f32)> = corners
        .windows(2)
        .skip(1)
        .map(|pair| {
            let (a, b, c) = (corners[0], pair[0], pair[1]);
            (a, b, c, (b - a).perp_dot(c - a).abs())
        })
        .collect();
    let total: f32 = triangles.iter().map(|t| t.3).sum();
    let mut pick = rng.next_f32() * total;
    let (a, b, c, _) = *triangles
        .iter()
        .find(|t| {
            pick -= t.3;
            pick < 0.0
        })
        .or(triangles.last())
        .unwrap_or(&(corners[0], corners[0], corners[0], 0.0));
    let (mut u, mut v) = (rng.next_f32(), rng.next_f32());
    if u + v > 1.0 {
        (u, v) = (1.0 - u, 1.0 - v);
    }
    a + (b - a) * u + (c - a) * v
}

/// The bodies spawned so far, by cell, to keep new ones from overlapping.
struct SpawnGrid {
    cell: f32,
    bodies: std::collections::HashMap<(i32, i32), Vec<(Vec2, f32)>>,
}

impl SpawnGrid {
    fn new(cell: f32) -> Self {
        Self {
            cell,
            bodies: Default::default(),
        }
    }

    fn key(&self, p: Vec2) -> (i32, i32) {
        (
            (p.x / self.cell).floor() as i32,
            (p.y / self.cell).floor() as i32,
        )
    }

    fn insert(&mut self, p: Vec2, radius: f32) {
        let key = self.key(p);
        self.bodies.entry(key).or_default().push((p, radius));
    }

    /// Whether a body of `radius` at `p` overlaps one spawned, with a tenth
    /// to spare. Bodies are at most a cell across, so the cells round
    /// `p`'s hold every one that could.
    fn overlaps(&self, p: Vec2, radius: f32) -> bool {
        let (x, y) = self.key(p);
        (x - 1..=x + 1)
            .flat_map(|column| (y - 1..=y + 1).map(move |row| (column, row)))
            .filter_map(|key| self.bodies.get(&key))
            .flatten()
            .any(|&(at, other)| at.distance(p) < (radius + other) * 1.1)
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// The floor: what the ECS costs to touch every unit's transform once.
#[derive(Component)]
struct FloorMover(Vec2);

#[derive(Resource, Default)]
struct FloorTiming {
    started: Option<Instant>,
    last: Duration,
}

fn floor_start(mut timing: ResMut<FloorTiming>) {
    timing.started = Some(Instant::now());
}

fn floor_move(time: Res<Time>, mut movers: Query<(&mut Transform, &FloorMover)>) {
    let dt = time.delta_secs();
    movers.par_iter_mut().for_each(|(mut transform, mover)| {
        transform.translation += (mover.0 * dt).extend(0.0);
    });
}

fn floor_end(mut timing: ResMut<FloorTiming>) {
    if let Some(started) = timing.started.take() {
        timing.last = started.elapsed();
    }
}

/// When each of kerb's system sets began and ended in the last tick, for
/// the per-set breakdown.
#[derive(Resource, Default)]
struct SetClock {
    marks: [Option<Instant>; 5],
}

/// Records mark `index` of the current tick.
fn mark<const INDEX: usize>(mut clock: ResMut<SetClock>) {
    clock.marks[INDEX] = Some(Instant::now());
}

/// Milliseconds each set took in the tick just run, if all marks were made.
fn set_times(clock: &SetClock) -> Option<[f64; 4]> {
    let marks = clock.marks;
    let mut times = [0.0; 4];
    for (index, time) in times.iter_mut().enumerate() {
        let (Some(from), Some(to)) = (marks[index], marks[index + 1]) else {
            return None;
        };
        *time = to.duration_since(from).as_secs_f64() * 1e3;
    }
    Some(times)
}

/// Adds the markers between kerb's chained sets.
fn time_sets(app: &mut App) {
    use KerbSystems::{Advance, Confine, Plan, Prepare};
    app.init_resource::<SetClock>().add_systems(
        Update,
        (
            mark::<0>.before(Prepare),
            mark::<1>.after(Prepare).before(Plan),
            mark::<2>.after(Plan).before(Advance),
            mark::<3>.after(Advance).before(Confine),
            mark::<4>.after(Confine),
        ),
    );
}

fn headless_app(compute_threads: usize) -> App {
    let mut app = App::new();
    let compute = TaskPoolThreadAssignmentPolicy {
        min_threads: compute_threads,
        max_threads: compute_threads,
        ..TaskPoolOptions::default().compute
    };
    let task_pool_options = TaskPoolOptions {
        compute,
        ..default()
    };
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin { task_pool_options }),
        AssetPlugin::default(),
    ));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(TICK));
    app
}

fn measure_floor(options: &Options) -> f64 {
    let (agents, ticks, warmup) = (options.agents, options.ticks, options.warmup);
    let mut app = headless_app(options.threads);
    app.init_resource::<FloorTiming>()
        .add_systems(Update, (floor_start, floor_move, floor_end).chain());
    for i in 0..agents {
        let angle = i as f32 * 0.618;
        app.world_mut().spawn((
            Transform::default(),
            FloorMover(Vec2::from_angle(angle) * 1.4),
        ));
    }
    let mut times = Vec::with_capacity(ticks as usize);
    for tick in 0..warmup + ticks + 1 {
        app.update();
        if tick > warmup {
            times.push(app.world().resource::<FloorTiming>().last.as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    percentile(&times, 0.5)
}

/// What one measured run saw.
struct Outcome {
    median: f64,
    p95: f64,
    set_medians: [f64; 4],
    planned_per_second: f64,
    stats: KerbStats,
}

/// Runs kerb on `world` with avoidance `avoid` and measures its ticks.
fn measure_kerb(options: &Options, world: ValidWorld, avoid: bool) -> Outcome {
    let mut app = headless_app(options.threads);
    // One kerb tick per update, with the tick's time.
    app.add_plugins(KerbPlugin::new(Update));
    app.insert_resource(AvoidanceSettings {
        enabled: avoid,
        ..default()
    });
    time_sets(&mut app);
    spawn_units(&mut app, &world, options.agents);
    let kerb_world = KerbWorld::from_built(
        world,
        &mut app.world_mut().resource_mut::<Assets<WorldAsset>>(),
    );
    app.insert_resource(kerb_world);

    let mut times = Vec::with_capacity(options.ticks as usize);
    let mut per_set: [Vec<f64>; 4] = Default::default();
    let mut planned_at_warmup = 0;
    for tick in 0..options.warmup + options.ticks + 1 {
        app.update();
        let stats = app.world().resource::<KerbStats>();
        if tick == options.warmup {
            planned_at_warmup = stats.planned_total;
        }
        if tick > options.warmup {
            times.push(stats.last_tick.as_secs_f64() * 1e3);
            if let Some(set) = set_times(app.world().resource::<SetClock>()) {
                for (all, time) in per_set.iter_mut().zip(set) {
                    all.push(time);
                }
            }
        }
    }
    let set_medians = per_set.map(|mut all| {
        all.sort_by(f64::total_cmp);
        if all.is_empty() {
            f64::NAN
        } else {
            percentile(&all, 0.5)
        }
    });
    let stats = app.world().resource::<KerbStats>().clone();
    times.sort_by(f64::total_cmp);
    let simulated_seconds = f64::from(options.ticks) * TICK.as_secs_f64();
    Outcome {
        median: percentile(&times, 0.5),
        p95: percentile(&times, 0.95),
        set_medians,
        planned_per_second: (stats.planned_total - planned_at_warmup) as f64 / simulated_seconds,
        stats,
    }
}

/// The walkable area of `world`, in square metres.
fn walkable_area(world: &ValidWorld) -> f64 {
    polygon_areas(world).iter().sum()
}

/// The area of each polygon of `world`, in square metres, by id.
fn polygon_areas(world: &ValidWorld) -> Vec<f64> {
    let mesh = &world.navmesh;
    mesh.polygon_ids()
        .map(|polygon| {
            let corners: Vec<Vec2> = mesh.polygon_vertices(polygon).collect();
            let twice: f64 = corners
                .iter()
                .zip(corners.iter().cycle().skip(1))
                .map(|(a, b)| f64::from(a.perp_dot(*b)))
                .sum();
            twice.abs() / 2.0
        })
        .collect()
}

/// Loads the world, or generates the town asked for.
fn load_world(options: &Options) -> Result<ValidWorld, String> {
    if let Some((across, down)) = options.town_blocks {
        return bevy_kerb::kerb_navmesh::generate::town_sized(
            bevy_kerb::kerb_navmesh::generate::TOWN_SEED,
            across,
            down,
        )
        .validate()
        .map_err(|e| format!("cannot build the town: {e}"));
    }
    std::fs::read_to_string(&options.world)
        .map_err(|e| e.to_string())
        .and_then(|text| ValidWorld::from_ron(&text).map_err(|e| e.to_string()))
        .map_err(|message| format!("cannot load {}: {message}", options.world.display()))
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let world = match load_world(&options) {
        Ok(world) => world,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let area = walkable_area(&world);
    let without = options
        .avoidance
        .then(|| measure_kerb(&options, world.clone(), false));
    let outcome = measure_kerb(&options, world, options.avoidance);
    let bytes_per_unit = size_of::<Unit>()
        + size_of::<TurningRadius>()
        + size_of::<Speed>()
        + size_of::<UnitPose>()
        + size_of::<NavLocation>()
        + size_of::<Motion>()
        + size_of::<Intent>()
        + size_of::<Wander>()
        + size_of::<WanderMemory>()
        + size_of::<Body>()
        + size_of::<Avoiding>();
    let floor = measure_floor(&options);
    let Outcome {
        median,
        p95,
        set_medians,
        planned_per_second,
        stats,
    } = outcome;

    println!("agents:               {}", options.agents);
    println!(
        "walkable area:        {area:.0} m², {:.4} units per m²",
        f64::from(options.agents) / area.max(1.0)
    );
    println!("compute threads:      {}", options.threads);
    println!(
        "ticks measured:       {} (after {} warm-up), 60 ticks per simulated second",
        options.ticks, options.warmup
    );
    println!(
        "avoidance:            {}",
        if options.avoidance { "on" } else { "off" }
    );
    println!("ms per tick:          median {median:.3}, p95 {p95:.3}");
    if let Some(without) = &without {
        println!(
            "without avoidance:    median {:.3}, p95 {:.3}; avoidance costs {:.2}x",
            without.median,
            without.p95,
            median / without.median.max(1e-9)
        );
    }
    println!(
        "per set (median ms):  prepare {:.3}, plan {:.3}, advance {:.3}, confine {:.3}",
        set_medians[0], set_medians[1], set_medians[2], set_medians[3]
    );
    println!(
        "paths planned:        {planned_per_second:.0} per simulated second ({} in all)",
        stats.planned_total
    );
    println!(
        "arrived / blocked:    {} / {}",
        stats.arrived_total, stats.blocked_total
    );
    println!(
        "contacts:             {} in the last tick",
        stats.contacts_last_tick
    );
    println!("kerb state per unit:  {bytes_per_unit} bytes");
    println!(
        "floor (bare transform system): {floor:.3} ms per tick, kerb is {:.1}x the floor",
        median / floor.max(1e-9)
    );
    println!(
        "agents={} ms_per_tick_median={median:.3} ms_per_tick_p95={p95:.3} floor_ms={floor:.3}",
        options.agents
    );
    ExitCode::SUCCESS
}
