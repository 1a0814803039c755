//! Four 2D vectors at once, for the checks avoidance makes against every
//! neighbour: written without branches on glam's `Vec4`, which the
//! compiler keeps in vector registers.

use glam::{BVec4A, Vec2, Vec4};

/// How many neighbours are worked out at once: the width of the narrowest
/// vector unit.
pub(crate) const LANES: usize = 4;

/// Four 2D vectors, their x and their y side by side.
#[derive(Clone, Copy)]
pub(crate) struct Pairs {
    pub x: Vec4,
    pub y: Vec4,
}

impl Pairs {
    #[inline(always)]
    pub fn new(x: Vec4, y: Vec4) -> Self {
        Self { x, y }
    }

    /// The same vector in every lane.
    #[inline(always)]
    pub fn splat(vector: Vec2) -> Self {
        Self::new(Vec4::splat(vector.x), Vec4::splat(vector.y))
    }

    /// The vector in one lane.
    #[inline(always)]
    pub fn lane(self, lane: usize) -> Vec2 {
        Vec2::new(self.x[lane], self.y[lane])
    }

    #[inline(always)]
    pub fn dot(self, other: Self) -> Vec4 {
        self.x * other.x + self.y * other.y
    }

    #[inline(always)]
    pub fn length_squared(self) -> Vec4 {
        self.dot(self)
    }

    #[inline(always)]
    pub fn perp_dot(self, other: Self) -> Vec4 {
        self.x * other.y - self.y * other.x
    }

    #[inline(always)]
    pub fn add(self, other: Self) -> Self {
        Self::new(self.x + other.x, self.y + other.y)
    }

    #[inline(always)]
    pub fn sub(self, other: Self) -> Self {
        Self::new(self.x - other.x, self.y - other.y)
    }

    #[inline(always)]
    pub fn scale(self, by: Vec4) -> Self {
        Self::new(self.x * by, self.y * by)
    }

    /// Lane by lane, `if_true` where `mask` is set, else `if_false`.
    #[inline(always)]
    pub fn select(mask: BVec4A, if_true: Self, if_false: Self) -> Self {
        Self::new(
            Vec4::select(mask, if_true.x, if_false.x),
            Vec4::select(mask, if_true.y, if_false.y),
        )
    }
}
