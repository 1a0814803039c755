//! kerb_steering
