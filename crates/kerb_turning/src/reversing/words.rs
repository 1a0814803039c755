//! The Reeds–Shepp words: eight formula families, each in up to four
//! mirror images and, for three of them, driven backwards too.

use std::f64::consts::FRAC_PI_2;

use super::formulas::{
    Goal, Pair, lp_rm_l, lp_rm_s_lm_rp, lp_rm_sm_lm, lp_rm_sm_rm, lp_rum_lum_rp, lp_rup_lum_rm,
    lp_sp_lp, lp_sp_rp,
};

/// The formula a Reeds–Shepp word comes from, named for its untransformed
/// word: `L` and `R` steer left and right, `S` goes straight, `p` drives
/// forwards and `m` in reverse, and `u` marks two turns of the same angle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReversingFamily {
    /// Left, straight, left, all forwards (formula 8.1: CSC).
    LpSpLp,
    /// Left, straight, right, all forwards (8.2: CSC).
    LpSpRp,
    /// Left forwards, right in reverse, then left either way (8.3, 8.4:
    /// C|C|C and C|CC).
    LpRmL,
    /// Left and right forwards, then left and right in reverse, the middle
    /// two through the same angle (8.7: CCu|CuC).
    LpRupLumRm,
    /// Left forwards, right and left in reverse through the same angle,
    /// right forwards (8.8: C|CuCu|C).
    LpRumLumRp,
    /// Left forwards, then a quarter turn right, a straight and a left turn
    /// in reverse (8.9: C|C(π/2)SC).
    LpRmSmLm,
    /// Left forwards, then a quarter turn right, a straight and a right turn
    /// in reverse (8.10: C|C(π/2)SC).
    LpRmSmRm,
    /// Left forwards, a quarter turn right, a straight and a quarter turn
    /// left in reverse, right forwards (8.11: C|C(π/2)SC(π/2)|C).
    LpRmSLmRp,
}

/// One Reeds–Shepp word: a formula family and how it is mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReversingWord {
    /// The formula.
    pub family: ReversingFamily,
    /// Every gear swapped (Reeds and Shepp's "timeflip").
    pub time_flipped: bool,
    /// Every turn mirrored, left for right ("reflect").
    pub reflected: bool,
    /// The pieces driven in the opposite order.
    pub backwards: bool,
}

/// What a piece of a word does, before its gear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Steer {
    Left,
    Right,
    Straight,
}

/// Most pieces a word has.
pub(super) const MAX_PIECES: usize = 5;

/// A word's pieces in driving order: what each does, and its signed length
/// in radii (an angle for a turn; negative is reverse).
#[derive(Clone, Copy, Debug)]
pub(super) struct Pieces {
    pub(super) steer: [Steer; MAX_PIECES],
    pub(super) length: [f64; MAX_PIECES],
    pub(super) count: usize,
}

/// Every (family, backwards) pair there is, in the order they are tried.
const FAMILIES: [(ReversingFamily, bool); 11] = [
    (ReversingFamily::LpSpLp, false),
    (ReversingFamily::LpSpRp, false),
    (ReversingFamily::LpRmL, false),
    (ReversingFamily::LpRmL, true),
    (ReversingFamily::LpRupLumRm, false),
    (ReversingFamily::LpRumLumRp, false),
    (ReversingFamily::LpRmSmLm, false),
    (ReversingFamily::LpRmSmLm, true),
    (ReversingFamily::LpRmSmRm, false),
    (ReversingFamily::LpRmSmRm, true),
    (ReversingFamily::LpRmSLmRp, false),
];

/// How many words there are: each pair of [`FAMILIES`] in four mirror images.
pub(super) const WORD_COUNT: usize = FAMILIES.len() * 4;

impl ReversingFamily {
    /// The formula's `t, u, v` for `goal`, and its time flip's, where each
    /// reaches it and, as far as a cheap bound tells, is shorter than
    /// `shorter_than`.
    #[inline(always)]
    fn solve(self, goal: Goal, shorter_than: f64) -> Pair {
        match self {
            ReversingFamily::LpSpLp => lp_sp_lp(goal, shorter_than),
            ReversingFamily::LpSpRp => lp_sp_rp(goal, shorter_than),
            ReversingFamily::LpRmL => lp_rm_l(goal),
            ReversingFamily::LpRupLumRm => lp_rup_lum_rm(goal),
            ReversingFamily::LpRumLumRp => lp_rum_lum_rp(goal),
            ReversingFamily::LpRmSmLm => lp_rm_sm_lm(goal, shorter_than),
            ReversingFamily::LpRmSmRm => lp_rm_sm_rm(goal, shorter_than),
            ReversingFamily::LpRmSLmRp => lp_rm_s_lm_rp(goal, shorter_than),
        }
    }

    /// The length in radii of the untransformed word with these `t, u, v`.
    #[inline(always)]
    fn length(self, [t, u, v]: [f64; 3]) -> f64 {
        let (t, u, v) = (t.abs(), u.abs(), v.abs());
        match self {
            ReversingFamily::LpSpLp | ReversingFamily::LpSpRp | ReversingFamily::LpRmL => t + u + v,
            ReversingFamily::LpRupLumRm | ReversingFamily::LpRumLumRp => t + 2.0 * u + v,
            ReversingFamily::LpRmSmLm | ReversingFamily::LpRmSmRm => t + u + v + FRAC_PI_2,
            ReversingFamily::LpRmSLmRp => t + u + v + 2.0 * FRAC_PI_2,
        }
    }

    /// The untransformed word's pieces for these `t, u, v`.
    #[inline(always)]
    fn pieces(self, [t, u, v]: [f64; 3]) -> Pieces {
        use Steer::{Left as L, Right as R, Straight as S};
        let quarter = -FRAC_PI_2;
        let (steer, length, count): ([Steer; MAX_PIECES], [f64; MAX_PIECES], usize) = match self {
            ReversingFamily::LpSpLp => ([L, S, L, S, S], [t, u, v, 0.0, 0.0], 3),
            ReversingFamily::LpSpRp => ([L, S, R, S, S], [t, u, v, 0.0, 0.0], 3),
            ReversingFamily::LpRmL => ([L, R, L, S, S], [t, u, v, 0.0, 0.0], 3),
            ReversingFamily::LpRupLumRm => ([L, R, L, R, S], [t, u, -u, v, 0.0], 4),
            ReversingFamily::LpRumLumRp => ([L, R, L, R, S], [t, u, u, v, 0.0], 4),
            ReversingFamily::LpRmSmLm => ([L, R, S, L, S], [t, quarter, u, v, 0.0], 4),
            ReversingFamily::LpRmSmRm => ([L, R, S, R, S], [t, quarter, u, v, 0.0], 4),
            ReversingFamily::LpRmSLmRp => ([L, R, S, L, R], [t, quarter, u, quarter, v], 5),
        };
        Pieces {
            steer,
            length,
            count,
        }
    }
}

impl ReversingWord {
    /// This word's pieces for its formula's `t, u, v`.
    #[inline(always)]
    pub(super) fn pieces(self, solution: [f64; 3]) -> Pieces {
        let mut pieces = self.family.pieces(solution);
        let count = pieces.count;
        if self.backwards {
            pieces.steer[..count].reverse();
            pieces.length[..count].reverse();
        }
        for index in 0..count {
            if self.time_flipped {
                pieces.length[index] = -pieces.length[index];
            }
            if self.reflected {
                pieces.steer[index] = match pieces.steer[index] {
                    Steer::Left => Steer::Right,
                    Steer::Right => Steer::Left,
                    Steer::Straight => Steer::Straight,
                };
            }
        }
        pieces
    }
}

/// Calls `each` with every word that reaches `goal`, its formula's `t, u, v`
/// and its length in radii. Where `each` returns a length, words that a
/// cheap bound shows are no shorter are skipped: the shortest is found
/// with fewer angles worked out. Return infinity to see them all.
#[inline(always)]
pub(super) fn for_each_word(goal: Goal, mut each: impl FnMut(ReversingWord, [f64; 3], f64) -> f64) {
    let mut shorter_than = f64::INFINITY;
    let backwards_goal = goal.backwards();
    for (family, backwards) in FAMILIES {
        let base = if backwards { backwards_goal } else { goal };
        for reflected in [false, true] {
            let seen = if reflected { base.reflect() } else { base };
            let pair = family.solve(seen, shorter_than);
            for (time_flipped, solution) in [(false, pair[0]), (true, pair[1])] {
                let Some(solution) = solution else { continue };
                let word = ReversingWord {
                    family,
                    time_flipped,
                    reflected,
                    backwards,
                };
                shorter_than = each(word, solution, family.length(solution));
            }
        }
    }
}
