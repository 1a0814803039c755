//! The nearest few neighbours of a unit, kept sorted without allocating.

use glam::Vec2;

/// Most neighbours a unit considers.
pub const MAX_NEIGHBOURS: usize = 16;

/// One kept neighbour: its squared distance, where it stands (as a key
/// that sorts by x, then y) and its index.
type Entry = (f32, u64, u32);

/// Up to `capacity` (at most [`MAX_NEIGHBOURS`]) agent indices, nearest
/// first, with their squared distances. Neighbours at the same distance
/// come in the order of where they stand, so the set and its order depend
/// only on the units, not on how they are numbered or stored.
#[derive(Clone, Debug)]
pub struct Nearest {
    capacity: usize,
    len: usize,
    entries: [Entry; MAX_NEIGHBOURS],
}

impl Nearest {
    /// An empty set keeping at most `capacity` neighbours (clamped to
    /// [`MAX_NEIGHBOURS`]).
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.min(MAX_NEIGHBOURS),
            len: 0,
            entries: [(f32::INFINITY, u64::MAX, u32::MAX); MAX_NEIGHBOURS],
        }
    }

    /// Forgets every neighbour.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Offers agent `index`, standing at `position`, at squared distance
    /// `distance_sq`: kept if it is among the nearest `capacity` so far.
    /// Ties go to the lower x, then the lower y, and only units standing
    /// on exactly the same point to the lower index, so the set does not
    /// depend on the order of offers.
    #[inline]
    pub fn offer(&mut self, distance_sq: f32, position: Vec2, index: u32) {
        let entry = (distance_sq, place_key(position), index);
        let before = |a: Entry, b: Entry| a.0 < b.0 || (a.0 == b.0 && (a.1, a.2) < (b.1, b.2));
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
        self.entries[..self.len].iter().map(|&(.., index)| index)
    }

    /// The squared distance of the nearest kept, if any.
    #[inline]
    pub fn nearest_distance_sq(&self) -> Option<f32> {
        (self.len > 0).then(|| self.entries[0].0)
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

/// A key that sorts points by x, then y, as floats do (`-0.0` before
/// `0.0`): the bits of a float made to sort as unsigned integers.
#[inline]
pub(crate) fn place_key(position: Vec2) -> u64 {
    let sortable = |value: f32| {
        let bits = value.to_bits();
        if bits >> 31 == 1 {
            !bits
        } else {
            bits | 1 << 31
        }
    };
    (u64::from(sortable(position.x)) << 32) | u64::from(sortable(position.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_nearest_in_order_whatever_the_order_of_offers() {
        let at = |x: f32, y: f32| Vec2::new(x, y);
        let offers = [
            (9.0, at(3.0, 0.0), 1),
            (1.0, at(0.0, 1.0), 2),
            (4.0, at(2.0, 0.0), 3),
            (1.0, at(1.0, 0.0), 0),
            (16.0, at(4.0, 0.0), 4),
            (0.5, at(0.5, 0.5), 5),
        ];
        let mut forwards = Nearest::new(3);
        offers.iter().for_each(|&(d, p, i)| forwards.offer(d, p, i));
        let mut backwards = Nearest::new(3);
        offers
            .iter()
            .rev()
            .for_each(|&(d, p, i)| backwards.offer(d, p, i));
        let kept: Vec<u32> = forwards.indices().collect();
        // Of the two at 1 m, the one with the lower x first.
        assert_eq!(kept, vec![5, 2, 0]);
        assert_eq!(kept, backwards.indices().collect::<Vec<_>>());
        let mut none = Nearest::new(0);
        none.offer(1.0, Vec2::ZERO, 1);
        assert!(none.is_empty());
    }

    /// Ties at one distance go by where the units stand, whatever their
    /// numbers: renumbering them keeps the same units in the same order.
    #[test]
    fn ties_go_by_place_not_by_number() {
        let ring: Vec<Vec2> = [
            (1.0, 0.0),
            (0.0, 1.0),
            (-1.0, 0.0),
            (0.0, -1.0),
            (1.0, 0.0),
            (0.0, 1.0),
            (-1.0, 0.0),
            (0.0, -1.0),
            (-0.0, 2.0),
            (0.0, 2.0),
        ]
        .map(|(x, y)| Vec2::new(x, y))
        .to_vec();
        let kept_in = |numbering: &dyn Fn(usize) -> u32| {
            let mut nearest = Nearest::new(5);
            for (i, p) in ring.iter().enumerate() {
                nearest.offer(p.length_squared(), *p, numbering(i));
            }
            nearest
                .indices()
                .map(|index| ring[(0..ring.len()).find(|&i| numbering(i) == index).unwrap()])
                .collect::<Vec<_>>()
        };
        let in_order = kept_in(&|i| i as u32);
        assert_eq!(in_order, kept_in(&|i| (ring.len() - i) as u32));
        assert_eq!(in_order, kept_in(&|i| ((i * 7) % ring.len()) as u32));
        assert_eq!(
            in_order,
            [
                (-1.0, 0.0),
                (-1.0, 0.0),
                (0.0, -1.0),
                (0.0, -1.0),
                (0.0, 1.0)
            ]
            .map(|(x, y)| Vec2::new(x, y))
        );
    }

    #[test]
    fn place_keys_sort_as_the_points_do() {
        let values = [
            f32::NEG_INFINITY,
            -1e30,
            -1.0,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            1.0,
            1e30,
        ];
        for pair in values.windows(2) {
            assert!(place_key(Vec2::new(pair[0], 5.0)) < place_key(Vec2::new(pair[1], -5.0)));
            assert!(place_key(Vec2::new(2.0, pair[0])) < place_key(Vec2::new(2.0, pair[1])));
        }
    }
}
