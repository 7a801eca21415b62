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
    /// A board's rays in this word's layout.
    fn rays(rays: &Rays) -> &[[Self; 4]; LAYOUT_BITS];
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

/// The bits of the widest word: the tables of every board have this many entries (the
/// 64-bit boards use the first half).
pub(crate) const LAYOUT_BITS: usize = 128;

/// A board's rays in the word of its layout: `[bit][direction]` is the squares from `bit`
/// (exclusive) to the board's edge in that direction (the diagonals; on a board of every
/// square, the lines of its ranks and files). A board keeps them in its own word, the other
/// word's table empty.
#[derive(Debug)]
pub struct Rays {
    pub(crate) narrow: [[u64; 4]; LAYOUT_BITS],
    pub(crate) wide: [[u128; 4]; LAYOUT_BITS],
}

impl Rays {
    /// No rays.
    pub(crate) const EMPTY: Rays = Rays {
        narrow: [[0; 4]; LAYOUT_BITS],
        wide: [[0; 4]; LAYOUT_BITS],
    };
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
            fn rays(rays: &Rays) -> &[[$t; 4]; LAYOUT_BITS] {
                &rays.$rays
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

word!(u64, 10, 5, layout_board(5, 10) as u64, narrow);
word!(u128, 12, 6, layout_board(6, 12), wide);

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
