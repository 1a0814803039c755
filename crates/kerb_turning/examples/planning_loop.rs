//! Plans the benchmark's 10,000 queries ten times over, for counting
//! instructions, which unlike times do not depend on what else the machine
//! is doing:
//!
//! ```sh
//! cargo build --release -p kerb_turning --example planning_loop
//! for planner in none point pose reversing; do
//!     valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!         target/release/examples/planning_loop $planner
//! done
//! ```
//!
//! `none` runs the loop without planning; subtract its count from the
//! others' and divide by 100,000 for instructions a query.

use std::hint::black_box;

#[path = "../benches/common/queries.rs"]
mod queries;

fn main() {
    let planner = std::env::args().nth(1).unwrap_or_default();
    if !["none", "point", "pose", "reversing"].contains(&planner.as_str()) {
        eprintln!("usage: planning_loop none|point|pose|reversing");
        std::process::exit(2);
    }
    let queries = queries::queries();
    let mut total = 0.0;
    for _ in 0..10 {
        for &(start, goal, radius) in &queries {
            total += match planner.as_str() {
                "point" => queries::pose_to_point_length(start, goal, radius),
                "pose" => queries::pose_to_pose_length(start, goal, radius),
                "reversing" => queries::pose_to_pose_reversing_length(start, goal, radius),
                _ => black_box(radius),
            };
        }
    }
    println!("total length {total}");
}
