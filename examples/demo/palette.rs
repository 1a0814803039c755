//! The colours, chosen to read as a town at dusk: dark ground, warm
//! pavements, units in saturated colours that stand out from the scenery.

use bevy::prelude::Color;

pub const BACKGROUND: Color = Color::srgb(0.16, 0.19, 0.15);
pub const ROAD: Color = Color::srgb(0.23, 0.25, 0.28);
pub const PAVEMENT: Color = Color::srgb(0.52, 0.48, 0.42);
pub const PLAZA: Color = Color::srgb(0.62, 0.56, 0.46);
pub const BUILDING: Color = Color::srgb(0.30, 0.20, 0.17);
pub const BUILDING_ROOF: Color = Color::srgb(0.55, 0.33, 0.25);
pub const PARK: Color = Color::srgb(0.22, 0.42, 0.22);
pub const WATER: Color = Color::srgb(0.20, 0.42, 0.62);
pub const TANK_HULL: Color = Color::srgb(0.42, 0.50, 0.20);
pub const TANK_TURRET: Color = Color::srgb(0.60, 0.70, 0.28);
pub const PEDESTRIANS: [Color; 5] = [
    Color::srgb(0.95, 0.35, 0.30),
    Color::srgb(0.98, 0.75, 0.25),
    Color::srgb(0.35, 0.75, 0.95),
    Color::srgb(0.90, 0.45, 0.85),
    Color::srgb(0.95, 0.95, 0.95),
];
pub const FACING: Color = Color::srgb(0.1, 0.1, 0.1);
