//! A per-unit random stream that replays exactly.

/// A small, fast random stream (SplitMix64): 8 bytes of state, the same
/// numbers on every platform, seeded from a global seed and a per-unit value
/// so each unit's stream is independent and a run can be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct UnitRng {
    state: u64,
}

impl UnitRng {
    /// The stream for unit `unit` under the run's `seed`.
    pub fn new(seed: u64, unit: u64) -> Self {
        let mut mixer = UnitRng {
            state: seed ^ unit.wrapping_mul(0xD1B5_4A32_D192_ED03),
        };
        // Decorrelate neighbouring unit numbers before the first draw.
        let state = mixer.next_u64();
        UnitRng { state }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[-1, 1)`.
    #[inline]
    pub fn next_signed(&mut self) -> f32 {
        self.next_f32() * 2.0 - 1.0
    }

    /// An angle uniform on the circle, in `[-π, π)` radians.
    #[inline]
    pub fn next_angle(&mut self) -> f32 {
        self.next_signed() * std::f32::consts::PI
    }

    /// A standard normal sample (Box-Muller).
    #[inline]
    pub fn next_gaussian(&mut self) -> f32 {
        let u = 1.0 - self.next_f32(); // (0, 1]: the log is finite
        let v = self.next_f32();
        (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
    }
}
