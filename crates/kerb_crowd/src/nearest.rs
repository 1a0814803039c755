//! The nearest few neighbours of a unit, kept sorted without allocating.

/// Most neighbours a unit considers.
pub const MAX_NEIGHBOURS: usize = 16;

/// Up to `capacity` (at most [`MAX_NEIGHBOURS`]) agent indices, nearest
/// first, with their squared distances.
#[derive(Clone, Debug)]
pub struct Nearest {
    capacity: usize,
    len: usize,
    entries: [(f32, u32); MAX_NEIGHBOURS],
}

impl Nearest {
    /// An empty set keeping at most `capacity` neighbours (clamped to
    /// [`MAX_NEIGHBOURS`]).
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.min(MAX_NEIGHBOURS),
            len: 0,
            entries: [(f32::INFINITY, u32::MAX); MAX_NEIGHBOURS],
        }
    }

    /// Forgets every neighbour.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Offers agent `index` at squared distance `distance_sq`: kept if it
    /// is among the nearest `capacity` so far. Ties go to the lower index,
    /// so the set does not depend on the order of offers.
    #[inline]
    pub fn offer(&mut self, distance_sq: f32, index: u32) {
        let entry = (distance_sq, index);
        let before = |a: (f32, u32), b: (f32, u32)| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1);
        if self.len == self.capacity {
            if self.capacity == 0 || !before(entry, self.entries[self.len - 1]) {
                return;
            }
            self.len -= 1;
        }
        let mut slot = self.len;
        while slot > 0 && before(entry, self.entries[slot - 1]) {
            self.entries[slot] = self.entries[slot - 1];
            slot -= 1;
        }
        self.entries[slot] = entry;
        self.len += 1;
    }

    /// The indices kept, nearest first.
    pub fn indices(&self) -> impl ExactSizeIterator<Item = u32> + Clone + '_ {
        self.entries[..self.len].iter().map(|&(_, index)| index)
    }

    /// How many are kept.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The squared distance of the farthest kept, if the set is full: no
    /// offer farther than this can change it.
    #[inline]
    pub(crate) fn full_at(&self) -> Option<f32> {
        (self.len == self.capacity && self.len > 0).then(|| self.entries[self.len - 1].0)
    }

    /// Whether none are kept.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_nearest_in_order_whatever_the_order_of_offers() {
        let offers = [(9.0, 1), (1.0, 2), (4.0, 3), (1.0, 0), (16.0, 4), (0.5, 5)];
        let mut forwards = Nearest::new(3);
        offers.iter().for_each(|&(d, i)| forwards.offer(d, i));
        let mut backwards = Nearest::new(3);
        offers
            .iter()
            .rev()
            .for_each(|&(d, i)| backwards.offer(d, i));
        let kept: Vec<u32> = forwards.indices().collect();
        assert_eq!(kept, vec![5, 0, 2]);
        assert_eq!(kept, backwards.indices().collect::<Vec<_>>());
        let mut none = Nearest::new(0);
        none.offer(1.0, 1);
        assert!(none.is_empty());
    }
}
