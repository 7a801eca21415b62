//! Sets of squares ([`Bitboard`]) in a word's layout (crate::geometry::word).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::geometry::square::{Geometry, Square};
use crate::geometry::word::{Direction, Word};

/// A set of squares of a board in the layout of the word `W` (the 64-bit one unless said).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<W: Word = u64>(pub(crate) W);

impl Bitboard {
    /// Every square of the largest board of the 64-bit layout (10×10), which holds the
    /// 8×8 one.
    pub const ALL: Bitboard = Bitboard(<u64 as Word>::ALL);

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
}

impl<W: Word> Bitboard<W> {
    /// No squares.
    pub const EMPTY: Bitboard<W> = Bitboard(W::ZERO);

    /// The raw bits (internal layout).
    #[inline]
    pub fn bits(self) -> W {
        self.0
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// Whether the set is not empty.
    #[inline]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }

    /// The number of squares.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.ones()
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        self.0 & W::bit(sq.bit()) != W::ZERO
    }

    /// Whether the two sets share a square.
    #[inline]
    pub fn intersects(self, other: Bitboard<W>) -> bool {
        self.0 & other.0 != W::ZERO
    }

    /// The set with `sq` added.
    #[inline]
    pub fn with(self, sq: Square) -> Bitboard<W> {
        Bitboard(self.0 | W::bit(sq.bit()))
    }

    /// The set with `sq` removed.
    #[inline]
    pub fn without(self, sq: Square) -> Bitboard<W> {
        Bitboard(self.0 & !W::bit(sq.bit()))
    }

    /// The set of one square.
    #[inline]
    pub fn of(sq: Square) -> Bitboard<W> {
        Bitboard(W::bit(sq.bit()))
    }

    /// Every square moved one step in `dir`; squares stepping off the layout's largest
    /// board vanish (mask the result with a smaller board's squares for that board).
    #[inline]
    pub fn shift(self, dir: Direction) -> Bitboard<W> {
        Bitboard(self.0.step(dir) & W::ALL)
    }

    /// The lowest square (by internal bit), if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == W::ZERO {
            None
        } else {
            Some(Square::from_bit_unchecked(self.0.lowest_bit()))
        }
    }

    /// Iterate over the squares in ascending index order.
    #[inline]
    pub fn iter(self) -> BitIter<W> {
        BitIter(self.0)
    }
}

impl Square {
    /// A bitboard holding only this square.
    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u64 << self.bit())
    }
}

/// A board's squares as bitboards.
impl Geometry {
    /// Every playable square of a board of the 64-bit word (8×8, 10×10; see
    /// [`Geometry::board_in`] for any word).
    #[inline]
    pub const fn board(&self) -> Bitboard {
        Bitboard(self.board_bits() as u64)
    }

    /// Every playable square, in the board's word `W`.
    #[inline]
    pub fn board_in<W: Word>(&self) -> Bitboard<W> {
        Bitboard(W::from_wide(self.board_bits()))
    }

    /// The squares of rank `rank` on a board of the 64-bit word (0 = White's back rank;
    /// empty beyond the board).
    #[inline]
    pub const fn rank(&self, rank: u8) -> Bitboard {
        Bitboard(self.rank_bits(rank) as u64)
    }

    /// [`Geometry::rank`] in the board's word `W`.
    #[inline]
    pub fn rank_in<W: Word>(&self, rank: u8) -> Bitboard<W> {
        Bitboard(W::from_wide(self.rank_bits(rank)))
    }
}

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone)]
pub struct BitIter<W: Word = u64>(W);

impl<W: Word> Iterator for BitIter<W> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == W::ZERO {
            return None;
        }
        let bit = self.0.lowest_bit();
        self.0 = self.0.without_lowest();
        Some(Square::from_bit_unchecked(bit))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.ones() as usize;
        (n, Some(n))
    }
}

impl<W: Word> ExactSizeIterator for BitIter<W> {}

impl<W: Word> IntoIterator for Bitboard<W> {
    type Item = Square;
    type IntoIter = BitIter<W>;
    fn into_iter(self) -> BitIter<W> {
        self.iter()
    }
}

impl<W: Word> FromIterator<Square> for Bitboard<W> {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard<W> {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl<W: Word> From<Square> for Bitboard<W> {
    fn from(sq: Square) -> Bitboard<W> {
        Bitboard::of(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<W: Word> $tr for Bitboard<W> {
            type Output = Bitboard<W>;
            #[inline]
            fn $f(self, rhs: Bitboard<W>) -> Bitboard<W> {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<W: Word> $tra for Bitboard<W> {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard<W>) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: Word> Not for Bitboard<W> {
    type Output = Bitboard<W>;
    /// The complement within the squares of the layout's largest board (mask it with a
    /// smaller board's squares for that board).
    #[inline]
    fn not(self) -> Bitboard<W> {
        Bitboard(!self.0 & W::ALL)
    }
}

impl<W: Word> fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

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
