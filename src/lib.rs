#![doc = include_str!("../README.md")]

pub use kerb_turning;
