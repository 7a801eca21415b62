//! Sets of squares as bits of a machine word, in padded diagonal layouts shared by the boards.
//!
//! The 64-bit word ([`u64`]) holds the boards up to 10×10. Square (rank `r`, column `c` =
//! file / 2) lives at bit `5r + c + ⌈r/2⌉`: five columns a rank, and one unused "ghost" bit
//! after each even rank (5, 16, 27, 38, 49), so that every diagonal step is one fixed shift
//! for every square of every board: up-left +5, up-right +6, down-left −6, down-right −5.
//! The 10×10 board fills bits 0..=54 but the ghosts; the 8×8 board is its corner (files a–h,
//! ranks 1–8: columns 0–3 of ranks 0–7), so a step off the 8×8 board lands on a ghost bit,
//! on column 4, on rank 8 or below bit 0, each of which the board's mask
//! ([`Geometry::board`](crate::Geometry::board)) removes. Along a diagonal the file and the
//! rank only grow or only shrink, so a ray that has left a board never comes back onto it.
//!
//! The 128-bit word ([`u128`]) holds the 12×12 board (Canadian draughts, 72 squares) in the
//! same kind of layout with six columns a rank: square (r, c) at bit `6r + c + ⌈r/2⌉`
//! (bits 0..=77), steps +6, +7, −7, −6. A [`Word`] carries its layout's steps, so the move
//! generator is written once and compiled once per word: the 8×8 and 10×10 games keep the
//! 64-bit code they had.

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use crate::square::Square;

/// A machine word holding one bit per square of a board layout: [`u64`] for the boards up
/// to 10×10, [`u128`] for the 12×12 board. Its constants are its layout's.
pub trait Word:
    Sealed
    + Copy
    + Eq
    + Ord
    + Hash
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// No bits.
    const ZERO: Self;
    /// The squares of the largest board of the layout (the 10×10 board; the 12×12 one).
    const ALL: Self;
    /// The bit offsets of one step in [`Direction::ALL`]'s order (up-left, up-right,
    /// down-left, down-right).
    const STEPS: [i32; 4];
    /// The number of bits.
    const BITS: u32;
    /// The largest board side the layout holds.
    const MAX_SIZE: u8;
    /// Columns (dark squares) a rank in the layout.
    const COLUMNS: u32;

    /// The word of one bit.
    fn bit(n: u32) -> Self;
    /// The index of the lowest set bit (the word's width when none is).
    fn lowest_bit(self) -> u32;
    /// The index of the highest set bit (of a word that has one).
    fn highest_bit(self) -> u32;
    /// The number of set bits.
    fn ones(self) -> u32;
    /// The word without its lowest set bit.
    fn without_lowest(self) -> Self;
    /// The low 64 bits (for hashing).
    fn low64(self) -> u64;
    /// Every bit if `on`, none otherwise (a select without a branch).
    fn all_if(on: bool) -> Self;
    /// A board mask kept widened to 128 bits, in this word (the mask of a board of
    /// this word's layout).
    fn from_wide(mask: u128) -> Self;
    /// A geometry's rays in this word's layout.
    fn rays(geometry: &crate::square::Geometry) -> &[[Self; 4]; crate::square::LAYOUT_BITS];
    /// The word moved one step in `dir` (bits leaving the word vanish; mask with a board).
    #[inline(always)]
    fn step(self, dir: Direction) -> Self {
        let off = Self::STEPS[dir.index()];
        if off > 0 {
            self << off as u32
        } else {
            self >> (-off) as u32
        }
    }
    /// The bit offset of one step in `dir`.
    #[inline(always)]
    fn offset(dir: Direction) -> i32 {
        Self::STEPS[dir.index()]
    }
    /// Whether no bit is set.
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

/// The bit of the square at (file, rank) in the layout of `columns` columns a rank.
pub(crate) const fn layout_bit_in(columns: u32, file: u8, rank: u8) -> u32 {
    columns * rank as u32 + (file / 2) as u32 + (rank as u32).div_ceil(2)
}

/// Keeps [`Word`] and the words' game dispatch to the two words the crate implements.
pub trait Sealed {}
impl Sealed for u64 {}
impl Sealed for u128 {}

macro_rules! word {
    ($t:ty, $size:expr, $columns:expr, $all:expr, $rays:ident) => {
        impl Word for $t {
            const ZERO: $t = 0;
            const ALL: $t = $all;
            const STEPS: [i32; 4] = [$columns, $columns + 1, -($columns + 1), -$columns];
            const BITS: u32 = <$t>::BITS;
            const MAX_SIZE: u8 = $size;
            const COLUMNS: u32 = $columns;
            #[inline(always)]
            fn bit(n: u32) -> $t {
                1 << n
            }
            #[inline(always)]
            fn lowest_bit(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn highest_bit(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn without_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn low64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn all_if(on: bool) -> $t {
                (0 as $t).wrapping_sub(on as $t)
            }
            #[inline(always)]
            fn from_wide(mask: u128) -> $t {
                mask as $t
            }
            #[inline(always)]
            fn rays(geometry: &crate::square::Geometry) -> &[[$t; 4]; crate::square::LAYOUT_BITS] {
                &geometry.$rays
            }
        }
    };
}

/// The dark squares of the `size`×`size` board in the layout of `columns` columns a rank.
const fn layout_board(columns: u32, size: u8) -> u128 {
    let mut b = 0u128;
    let mut rank = 0u8;
    while rank < size {
        let mut file = rank % 2;
        while file < size {
            b |= 1u128 << layout_bit_in(columns, file, rank);
            file += 2;
        }
        rank += 1;
    }
    b
}

word!(u64, 10, 5, layout_board(5, 10) as u64, rays);
word!(u128, 12, 6, layout_board(6, 12), wide_rays);

/// A set of squares of a board in the layout of the word `W` (the 64-bit one unless said).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<W: Word = u64>(pub(crate) W);

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
