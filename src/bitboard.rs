//! Sets of squares as bits of a `u64`, in a padded diagonal layout shared by the boards.
//!
//! Square (rank `r`, column `c` = file / 2) lives at bit `5r + c + ⌈r/2⌉`: five columns a
//! rank, and one unused "ghost" bit after each even rank (5, 16, 27, 38, 49), so that every
//! diagonal step is one fixed shift for every square of every board: up-left +5, up-right +6,
//! down-left −6, down-right −5. The 10×10 board fills bits 0..=54 but the ghosts; the 8×8
//! board is its corner (files a–h, ranks 1–8: columns 0–3 of ranks 0–7), so a step off the
//! 8×8 board lands on a ghost bit, on column 4, on rank 8 or below bit 0, each of which the
//! board's mask ([`Geometry::board`](crate::Geometry::board)) removes. Along a diagonal the
//! file and the rank only grow or only shrink, so a ray that has left a board never comes
//! back onto it.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::square::Square;

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u64);

/// The four diagonal directions, as shifts in the internal layout.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Towards rank 8 and file a.
    UpLeft,
    /// Towards rank 8 and file h.
    UpRight,
    /// Towards rank 1 and file a.
    DownLeft,
    /// Towards rank 1 and file h.
    DownRight,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The bit offset of one step.
    #[inline]
    pub const fn offset(self) -> i32 {
        match self {
            Direction::UpLeft => 5,
            Direction::UpRight => 6,
            Direction::DownLeft => -6,
            Direction::DownRight => -5,
        }
    }

    /// Whether bits increase in this direction.
    #[inline]
    pub const fn is_up(self) -> bool {
        self.offset() > 0
    }

    /// Index 0..4.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The reverse direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
        }
    }

    /// The two directions at right angles to this one.
    #[inline]
    pub const fn perpendicular(self) -> [Direction; 2] {
        match self {
            Direction::UpLeft | Direction::DownRight => [Direction::UpRight, Direction::DownLeft],
            Direction::UpRight | Direction::DownLeft => [Direction::UpLeft, Direction::DownRight],
        }
    }
}

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of the largest board (10×10), which holds the others.
    pub const ALL: Bitboard = Bitboard(crate::square::Geometry::TEN.board().0);

    /// The main road (большак) of the 8×8 board, the long diagonal a1–h8.
    pub const MAIN_ROAD: Bitboard = {
        let mut b = 0u64;
        let mut i = 0;
        while i < 8 {
            if let Some(sq) = Square::from_coords(i, i) {
                b |= 1u64 << sq.bit();
            }
            i += 1;
        }
        Bitboard(b)
    };

    /// The raw bits (internal layout).
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1u64 << sq.bit()) != 0
    }

    /// Whether the two sets share a square.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1u64 << sq.bit()))
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << sq.bit()))
    }

    /// Every square moved one step in `dir`; squares stepping off the 10×10 board vanish
    /// (mask the result with a smaller board's squares for that board).
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let off = dir.offset();
        let b = if off > 0 {
            self.0 << off
        } else {
            self.0 >> (-off)
        };
        Bitboard(b & Bitboard::ALL.0)
    }

    /// The lowest square (by internal bit), if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_bit_unchecked(self.0.trailing_zeros()))
        }
    }

    /// Iterate over the squares in ascending index order.
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone)]
pub struct BitIter(u64);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::from_bit_unchecked(bit))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        sq.bitboard()
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the squares of the largest board (mask it with a smaller
    /// board's squares for that board).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Geometry;

    #[test]
    fn every_step_is_a_fixed_shift() {
        for g in [Geometry::EIGHT, Geometry::TEN] {
            let n = g.size() as i8;
            for &sq in g.squares() {
                for dir in Direction::ALL {
                    let (df, dr): (i8, i8) = match dir {
                        Direction::UpLeft => (-1, 1),
                        Direction::UpRight => (1, 1),
                        Direction::DownLeft => (-1, -1),
                        Direction::DownRight => (1, -1),
                    };
                    let f = sq.file() as i8 + df;
                    let r = sq.rank() as i8 + dr;
                    let expected = if (0..n).contains(&f) && (0..n).contains(&r) {
                        Square::from_coords(f as u8, r as u8).map(Bitboard::from)
                    } else {
                        None
                    }
                    .unwrap_or(Bitboard::EMPTY);
                    assert_eq!(
                        sq.bitboard().shift(dir) & g.board(),
                        expected,
                        "{sq} {dir:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn boards_have_their_squares() {
        assert_eq!(Geometry::EIGHT.board().count(), 32);
        assert_eq!(Geometry::TEN.board().count(), 50);
        assert_eq!(!Bitboard::EMPTY, Bitboard::ALL);
        let all: Vec<Square> = Bitboard::ALL.iter().collect();
        assert_eq!(all, Geometry::TEN.squares().to_vec());
        let eight: Vec<Square> = Geometry::EIGHT.board().iter().collect();
        assert_eq!(eight, Geometry::EIGHT.squares().to_vec());
        assert_eq!(Bitboard::MAIN_ROAD.count(), 8);
    }
}
