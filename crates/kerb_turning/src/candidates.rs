//! Every feasible path for one query, shortest first.

use crate::TurningPath;

/// Most candidates either forward-only planner produces: six Dubins words to
/// a pose, or two arc-line and four arc-arc paths to a point.
pub const MAX_CANDIDATES: usize = 6;

/// The feasible paths for one query, sorted by length, shortest first.
///
/// A caller that finds the shortest blocked (say, it leaves the walkable
/// area) takes the next. Fixed capacity `N`; never allocates.
#[derive(Clone, Copy, Debug)]
pub struct Candidates<const N: usize = MAX_CANDIDATES> {
    paths: [TurningPath; N],
    count: usize,
}

impl<const N: usize> Default for Candidates<N> {
    fn default() -> Self {
        Self {
            paths: [TurningPath::default(); N],
            count: 0,
        }
    }
}

impl<const N: usize> Candidates<N> {
    pub(crate) fn push(&mut self, path: TurningPath) {
        if self.count < N {
            self.paths[self.count] = path;
            self.count += 1;
        }
    }

    pub(crate) fn sort(&mut self) {
        self.paths[..self.count].sort_unstable_by(|a, b| a.length().total_cmp(&b.length()));
    }

    /// The candidates, shortest first.
    #[inline]
    pub fn as_slice(&self) -> &[TurningPath] {
        &self.paths[..self.count]
    }

    /// Iterates the candidates, shortest first.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, TurningPath> {
        self.as_slice().iter()
    }

    /// The shortest candidate, if any.
    #[inline]
    pub fn shortest(&self) -> Option<&TurningPath> {
        self.as_slice().first()
    }

    /// How many candidates there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl<'a, const N: usize> IntoIterator for &'a Candidates<N> {
    type Item = &'a TurningPath;
    type IntoIter = std::slice::Iter<'a, TurningPath>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
