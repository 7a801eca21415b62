//! Sets of squares as bits of a `u64`, in a padded diagonal layout.
//!
//! Square (rank `r`, column `c` = file / 2) lives at bit `4r + c + ⌈r/2⌉`. The four unused
//! "ghost" bits (4, 13, 22, 31) pad the board so that every diagonal step is one fixed shift
//! for every square: up-left +4, up-right +5, down-left −5, down-right −4. A step off the
//! board lands on a ghost bit or outside bits 0..=35, both of which [`Bitboard::BOARD`] masks.

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
            Direction::UpLeft => 4,
            Direction::UpRight => 5,
            Direction::DownLeft => -5,
            Direction::DownRight => -4,
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
    /// All 32 playable squares.
    pub const BOARD: Bitboard = {
        let mut b = 0u64;
        let mut i = 0;
        while i < 32 {
            b |= 1u64 << Square::ALL[i].bit();
            i += 1;
        }
        Bitboard(b)
    };

    /// The main road (большак), the long diagonal a1–h8: a1 b2 c3 d4 e5 f6 g7 h8.
    pub const MAIN_ROAD: Bitboard = {
        let mut b = 0u64;
        let mut i = 0;
        while i < 32 {
            if Square::ALL[i].rank() == Square::ALL[i].file() {
                b |= 1u64 << Square::ALL[i].bit();
            }
            i += 1;
        }
        Bitboard(b)
    };

    /// The squares of each rank, rank 1 first.
    const RANKS: [Bitboard; 8] = {
        let mut ranks = [Bitboard(0); 8];
        let mut i = 0;
        while i < 32 {
            let sq = Square::ALL[i];
            ranks[sq.rank() as usize].0 |= 1u64 << sq.bit();
            i += 1;
        }
        ranks
    };

    /// The squares of rank `rank` (0..=7): a table lookup, not worked out at each call.
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard::RANKS[rank as usize]
    }

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

    /// Every square moved one step in `dir`; squares stepping off the board vanish.
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let off = dir.offset();
        let b = if off > 0 {
            self.0 << off
        } else {
            self.0 >> (-off)
        };
        Bitboard(b & Bitboard::BOARD.0)
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
    /// The complement within the 32 playable squares.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::BOARD.0)
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

    #[test]
    fn every_step_is_a_fixed_shift() {
        for sq in Square::ALL {
            for dir in Direction::ALL {
                let (df, dr): (i8, i8) = match dir {
                    Direction::UpLeft => (-1, 1),
                    Direction::UpRight => (1, 1),
                    Direction::DownLeft => (-1, -1),
                    Direction::DownRight => (1, -1),
                };
                let f = sq.file() as i8 + df;
                let r = sq.rank() as i8 + dr;
                let expected = if (0..8).contains(&f) && (0..8).contains(&r) {
                    Square::from_coords(f as u8, r as u8).map(Bitboard::from)
                } else {
                    None
                }
                .unwrap_or(Bitboard::EMPTY);
                assert_eq!(sq.bitboard().shift(dir), expected, "{sq} {dir:?}");
            }
        }
    }

    #[test]
    fn board_has_32_squares() {
        assert_eq!(Bitboard::BOARD.count(), 32);
        assert_eq!(!Bitboard::EMPTY, Bitboard::BOARD);
        let all: Vec<Square> = Bitboard::BOARD.iter().collect();
        assert_eq!(all, Square::ALL.to_vec());
    }
}
