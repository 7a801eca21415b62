//! The playable (dark) squares, of every board shashki plays.
//!
//! A [`Square`] is a dark square of a board up to 10×10, stored as its bit in the shared
//! internal layout (see [`crate::Bitboard`](crate::Bitboard)): rank `r` (0 = White's back rank) and column
//! `c` = file / 2 at bit `5r + c + ⌈r/2⌉`. The 8×8 board is the corner of files a–h and
//! ranks 1–8 of the same layout, so a square's bit, rank, file and algebraic name do not
//! depend on the board; which squares exist, their index (0 = a1, then rank by rank, left to
//! right) and their numbers do: a [`Geometry`] and a [`Numbering`] give those.

use std::fmt;
use std::str::FromStr;

use crate::error::SquareError;
use crate::geometry::piece::Color;
use crate::geometry::word::{layout_bit_in, Rays, Word, LAYOUT_BITS};

/// One dark square (of the 10×10 board; the 8×8 board's squares are among them).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The largest board side the layout holds.
pub const MAX_SIZE: u8 = 10;

/// `(file, rank)` of each bit, or `GHOST` for a bit that is no square.
const BIT_COORDS: [(u8, u8); 64] = {
    let mut t = [(GHOST, GHOST); 64];
    let mut rank = 0u8;
    while rank < MAX_SIZE {
        let mut file = rank % 2;
        while file < MAX_SIZE {
            t[layout_bit(file, rank) as usize] = (file, rank);
            file += 2;
        }
        rank += 1;
    }
    t
};

/// The 64-bit layout's bit of the dark square at (file, rank).
const fn layout_bit(file: u8, rank: u8) -> u32 {
    layout_bit_in(5, file, rank)
}

impl Square {
    /// The index of `self` on the 8×8 board, as Russian draughts numbers its squares 0..=31
    /// (a1, c1, e1, g1, b2, …, h8); `None` for a square off that board.
    #[inline]
    pub const fn index8(self) -> Option<usize> {
        Geometry::EIGHT.index(self)
    }

    /// [`Square::index8`] of a square known to be on the 8×8 board.
    #[inline]
    pub(crate) const fn index8_unchecked(self) -> usize {
        EIGHT.index_of[self.0 as usize & 63] as usize & 31
    }

    /// The 8×8 board's square of index `index` (0..=31), or `None`.
    #[inline]
    pub const fn from_index8(index: u32) -> Option<Square> {
        Geometry::EIGHT.square(index as usize)
    }

    /// Rank 0..=9 (0 is White's back rank, rank "1").
    #[inline]
    pub const fn rank(self) -> u8 {
        BIT_COORDS[self.0 as usize & 63].1
    }

    /// File 0..=9 (0 is file "a").
    #[inline]
    pub const fn file(self) -> u8 {
        BIT_COORDS[self.0 as usize & 63].0
    }

    /// The dark square at (file, rank), both 0..=9; `None` for a light square or off the
    /// 10×10 board (a board's own bounds are its [`Geometry`]'s).
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file >= MAX_SIZE || rank >= MAX_SIZE || (file + rank) % 2 != 0 {
            None
        } else {
            Some(Square(layout_bit(file, rank) as u8))
        }
    }

    /// The PDN number in Russian draughts' numbering of the 8×8 board (1 = b8, 4 = h8,
    /// 29 = a1, 32 = g1); 0 for a square off that board.
    #[inline]
    pub fn pdn(self) -> u8 {
        Numbering::STANDARD.number(self)
    }

    /// The 8×8 square with Russian PDN number `number` (1..=32), or `None`.
    pub fn from_pdn(number: u32) -> Option<Square> {
        Numbering::STANDARD.square(number)
    }

    /// Algebraic name such as `"c3"` or `"j10"`.
    pub fn name(self) -> String {
        let mut s = String::with_capacity(3);
        s.push((b'a' + self.file()) as char);
        s.push_str(&(self.rank() + 1).to_string());
        s
    }

    /// The bit of this square in the internal board layout (see [`Bitboard`](crate::Bitboard)).
    #[inline]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// The square whose internal bit is `bit`, if `bit` is a dark square of the 10×10 board.
    #[inline]
    pub const fn from_bit(bit: u32) -> Option<Square> {
        if bit >= 64 || BIT_COORDS[bit as usize].0 == GHOST {
            None
        } else {
            Some(Square(bit as u8))
        }
    }

    /// [`Square::from_bit`] for bits known to be squares.
    #[inline]
    pub(crate) const fn from_bit_unchecked(bit: u32) -> Square {
        Square(bit as u8)
    }

    /// Parse an algebraic name (`"c3"`) or a PDN number (`"22"`) of the 8×8 board, in
    /// Russian draughts' numbering.
    pub fn parse(text: &str) -> Result<Square, SquareError> {
        Numbering::STANDARD.parse(text)
    }
}

/// How squares are written: by number (each game's numbering) or by name (a1, b2, …).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Notation {
    /// Numbers: PDN's, 1–32 on the 8×8 board, 1–50 on 10×10.
    #[default]
    Numeric,
    /// Names: a1–h8 on the 8×8 board.
    Algebraic,
}

/// A board: its size, which squares it has, their indices, its ranks and the rays of its
/// flying kings. The boards up to 10×10 live in the 64-bit word's layout, the 12×12 board in
/// the 128-bit word's ([`Word`]); a geometry describes its squares the same way for both and
/// keeps its rays in its own word. The move generator reads these as constants of its rules
/// type; the rest of the crate asks a position for its geometry.
#[derive(Debug)]
pub struct Geometry {
    size: u8,
    /// Every playable square (in the board's own word, widened).
    board: u128,
    count: u8,
    /// Every square of the board is playable (Turkish draughts), its squares at bits
    /// `8 × rank + file`; otherwise the dark squares in the word's diagonal layout.
    every_square: bool,
    /// Men are crowned on the far rank (every game but уголки, whose pieces race to the
    /// far corner and stand on any rank).
    crowns: bool,
    /// The board's word is the 128-bit one (12×12).
    wide: bool,
    ranks: [u128; MAX_LAYOUT_SIZE],
    index_of: [u8; LAYOUT_BITS],
    squares: [Square; LAYOUT_BITS],
    /// `(file, rank)` of each bit of this board, `(GHOST, GHOST)` for a bit that is none.
    coords: [(u8, u8); LAYOUT_BITS],
    /// The rays of the board's flying kings, in its word.
    pub(crate) rays: Rays,
}

/// The most ranks of any layout (12×12).
const MAX_LAYOUT_SIZE: usize = 12;

impl Geometry {
    /// The 8×8 board: 32 squares.
    pub const EIGHT: &'static Geometry = &EIGHT;
    /// The 10×10 board: 50 squares.
    pub const TEN: &'static Geometry = &TEN;
    /// The 8×8 board with every square playable (Turkish draughts): 64 squares, square
    /// (file, rank) at bit `8 × rank + file`; its lines are ranks and files.
    pub const EIGHT_EVERY_SQUARE: &'static Geometry = &EIGHT_EVERY_SQUARE;
    /// The 12×12 board (Canadian draughts): 72 squares, in the 128-bit word's layout.
    pub const TWELVE: &'static Geometry = &TWELVE;
    /// The 7×7 board of Lasca: its 25 squares of the corners' colour (a1, c1, e1, g1, b2,
    /// …), in the 64-bit word's layout.
    pub const SEVEN: &'static Geometry = &SEVEN;
    /// The 8×8 board of every square without crowning ranks (уголки, the corners race:
    /// squares as [`Geometry::EIGHT_EVERY_SQUARE`]'s).
    pub const CORNERS: &'static Geometry = &CORNERS;

    const fn new(size: u8, every_square: bool) -> Geometry {
        let wide = size > 10;
        let columns = if wide {
            <u128 as Word>::COLUMNS
        } else {
            <u64 as Word>::COLUMNS
        };
        let mut g = Geometry {
            size,
            board: 0,
            count: 0,
            every_square,
            crowns: true,
            wide,
            ranks: [0; MAX_LAYOUT_SIZE],
            index_of: [GHOST; LAYOUT_BITS],
            squares: [Square(0); LAYOUT_BITS],
            coords: [(GHOST, GHOST); LAYOUT_BITS],
            rays: Rays::EMPTY,
        };
        let mut rank = 0u8;
        while rank < size {
            let mut file = if every_square { 0 } else { rank % 2 };
            while file < size {
                let bit = if every_square {
                    8 * rank as u32 + file as u32
                } else {
                    layout_bit_in(columns, file, rank)
                };
                g.board |= 1 << bit;
                g.ranks[rank as usize] |= 1 << bit;
                g.index_of[bit as usize] = g.count;
                g.squares[g.count as usize] = Square(bit as u8);
                g.coords[bit as usize] = (file, rank);
                g.count += 1;
                file += if every_square { 1 } else { 2 };
            }
            rank += 1;
        }
        let mut i = 0;
        while i < g.count as usize {
            let bit = g.squares[i].0 as u32;
            let (file, rank) = g.coords[bit as usize];
            let mut d = 0;
            while d < 4 {
                // Diagonals: up-left, up-right, down-left, down-right; on a board of every
                // square, the lines: left, right, down, up.
                let (df, dr): (i8, i8) = match (every_square, d) {
                    (false, 0) => (-1, 1),
                    (false, 1) => (1, 1),
                    (false, 2) => (-1, -1),
                    (false, _) => (1, -1),
                    (true, 0) => (-1, 0),
                    (true, 1) => (1, 0),
                    (true, 2) => (0, -1),
                    (true, _) => (0, 1),
                };
                let (mut f, mut r) = (file as i8 + df, rank as i8 + dr);
                let mut ray = 0u128;
                while f >= 0 && r >= 0 && f < size as i8 && r < size as i8 {
                    let b = if every_square {
                        8 * r as u32 + f as u32
                    } else {
                        layout_bit_in(columns, f as u8, r as u8)
                    };
                    ray |= 1 << b;
                    f += df;
                    r += dr;
                }
                if wide {
                    g.rays.wide[bit as usize][d] = ray;
                } else {
                    g.rays.narrow[bit as usize][d] = ray as u64;
                }
                d += 1;
            }
            i += 1;
        }
        g
    }

    /// The same board without crowning ranks (уголки's).
    const fn without_crowning(mut self) -> Geometry {
        self.crowns = false;
        self
    }

    /// Whether men are crowned on the far rank of this board (false only for уголки's,
    /// whose pieces stand on any rank).
    #[inline]
    pub const fn crowns(&self) -> bool {
        self.crowns
    }

    /// Whether the board lives in the 128-bit word (12×12).
    #[inline]
    pub const fn is_wide(&self) -> bool {
        self.wide
    }

    /// Every playable square, as bits of the board's word widened to 128.
    #[inline]
    pub const fn board_bits(&self) -> u128 {
        self.board
    }

    /// The squares of rank `rank` as bits of the board's word widened to 128 (none beyond
    /// the board).
    #[inline]
    pub const fn rank_bits(&self, rank: u8) -> u128 {
        if rank < self.size {
            self.ranks[rank as usize]
        } else {
            0
        }
    }

    /// Whether `sq` is on this board.
    #[inline]
    pub const fn contains(&self, sq: Square) -> bool {
        (sq.0 as usize) < LAYOUT_BITS && self.board & (1 << sq.0) != 0
    }

    /// The number of files (and ranks): 8, 10 or 12.
    #[inline]
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Whether every square of the board is playable (Turkish draughts' 64), not only the
    /// dark ones.
    #[inline]
    pub const fn every_square(&self) -> bool {
        self.every_square
    }

    /// The file (0 = a) of a square of this board.
    #[inline]
    pub const fn file_of(&self, sq: Square) -> u8 {
        self.coords[sq.0 as usize & (LAYOUT_BITS - 1)].0
    }

    /// The rank (0 = White's back rank) of a square of this board.
    #[inline]
    pub const fn rank_of(&self, sq: Square) -> u8 {
        self.coords[sq.0 as usize & (LAYOUT_BITS - 1)].1
    }

    /// The playable square at (file, rank), or `None`.
    pub const fn square_at(&self, file: u8, rank: u8) -> Option<Square> {
        if file >= self.size || rank >= self.size {
            None
        } else if self.every_square {
            Some(Square(8 * rank + file))
        } else if (file + rank) % 2 != 0 {
            None
        } else {
            Some(Square(layout_bit_in(self.columns(), file, rank) as u8))
        }
    }

    /// Columns a rank in the board's layout.
    const fn columns(&self) -> u32 {
        if self.wide {
            <u128 as Word>::COLUMNS
        } else {
            <u64 as Word>::COLUMNS
        }
    }

    /// The algebraic name of a square of this board as it is stored (`"c3"`).
    pub fn name(&self, sq: Square) -> String {
        let mut s = String::with_capacity(3);
        s.push((b'a' + self.file_of(sq)) as char);
        s.push_str(&(self.rank_of(sq) + 1).to_string());
        s
    }

    /// The number of playable squares: 32, 50, 64 or 72.
    #[inline]
    pub const fn square_count(&self) -> usize {
        self.count as usize
    }

    /// The squares in index order (a1 first, then along the rank, rank by rank).
    #[inline]
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.count as usize]
    }

    /// The index of `sq` on this board (0 = a1), or `None` when it is off the board.
    #[inline]
    pub const fn index(&self, sq: Square) -> Option<usize> {
        match self.index_of[sq.0 as usize & (LAYOUT_BITS - 1)] {
            GHOST => None,
            i => Some(i as usize),
        }
    }

    /// [`Geometry::index`] of a square known to be on this board (255 for one off it).
    #[inline]
    pub const fn index_on_board(&self, sq: Square) -> usize {
        self.index_of[sq.0 as usize & (LAYOUT_BITS - 1)] as usize
    }

    /// The square of index `index`, or `None`.
    #[inline]
    pub const fn square(&self, index: usize) -> Option<Square> {
        if index < self.count as usize {
            Some(self.squares[index])
        } else {
            None
        }
    }

    /// The square of this board at internal bit `bit`, if that bit is one.
    #[inline]
    pub const fn square_of_bit(&self, bit: u32) -> Option<Square> {
        if bit as usize >= LAYOUT_BITS || self.index_of[bit as usize] == GHOST {
            None
        } else {
            Some(Square(bit as u8))
        }
    }

    /// The square turned half round (seen from the other side).
    #[inline]
    pub fn turned(&self, sq: Square) -> Square {
        let last = self.size - 1;
        let (file, rank) = (last - self.file_of(sq), last - self.rank_of(sq));
        if self.every_square {
            Square(8 * rank + file)
        } else {
            Square(layout_bit_in(self.columns(), file, rank) as u8)
        }
    }
}

static EIGHT: Geometry = Geometry::new(8, false);
static TEN: Geometry = Geometry::new(10, false);
static EIGHT_EVERY_SQUARE: Geometry = Geometry::new(8, true);
static TWELVE: Geometry = Geometry::new(12, false);
static SEVEN: Geometry = Geometry::new(7, false);
static CORNERS: Geometry = Geometry::new(8, true).without_crowning();

/// How a game numbers and names its squares (the PDN GameType's notation and inverted
/// flag): square 1 sits in a corner of the board as the side that moves first sees it, and
/// the numbers run along the rows from there. On a turned board (the corner at each
/// player's left hand is a light square) the position is stored mirrored, file a to the
/// last, so that one move generator plays every game; names and numbers undo the mirror.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Numbering {
    /// Each square's number by its bit (0 off the board).
    numbers: [u8; LAYOUT_BITS],
    /// The bit of each number (number − 1).
    squares: [u8; LAYOUT_BITS],
    size: u8,
    inverted: bool,
    /// Numbers every square of the 8×8 board (Turkish draughts), not the dark ones.
    every_square: bool,
    /// The board has crowning ranks (every game but уголки).
    crowns: bool,
}

impl Numbering {
    /// Russian draughts' numbering (PDN's for 8×8 games): 1 = b8 … 4 = h8, 29 = a1, 32 = g1.
    pub const STANDARD: Numbering = Numbering::new(Color::White, 2, false);

    /// The numbering of the 8×8 board with square 1 in `corner` (0 bottom left, 1 bottom
    /// right, 2 top left, 3 top right) as the side `first` sees the board, on a turned board
    /// if `inverted`.
    pub const fn new(first: Color, corner: u8, inverted: bool) -> Numbering {
        Numbering::on(8, first, corner, inverted)
    }

    /// [`Numbering::new`] on the board of side `size` (7, 8, 10 or 12; on the odd board
    /// the rows hold four and three squares in turn, the corners playable).
    pub const fn on(size: u8, first: Color, corner: u8, inverted: bool) -> Numbering {
        let mut numbers = [0u8; LAYOUT_BITS];
        let mut squares = [0u8; LAYOUT_BITS];
        let columns = if size > <u64 as Word>::MAX_SIZE {
            <u128 as Word>::COLUMNS
        } else {
            <u64 as Word>::COLUMNS
        };
        let last = size - 1;
        // The squares of the rows below row `row` of the numbering's view (on an odd board
        // the rows of the corners hold one square more).
        const fn before(size: u8, row: u8) -> u8 {
            if size % 2 == 0 {
                row * (size / 2)
            } else {
                (row / 2) * size + (row % 2) * size.div_ceil(2)
            }
        }
        let mut rank = 0u8;
        while rank < size {
            let mut stored_file = rank % 2;
            while stored_file < size {
                // The board as it stands (a turned board's files mirrored back).
                let file = if inverted {
                    last - stored_file
                } else {
                    stored_file
                };
                // The board as the first side sees it.
                let (vf, vr) = match first {
                    Color::White => (file, rank),
                    Color::Black => (last - file, last - rank),
                };
                let row = if corner >= 2 { last - vr } else { vr };
                let k = if corner % 2 == 0 {
                    vf / 2
                } else {
                    (last - vf) / 2
                };
                let n = before(size, row) + k;
                let bit = layout_bit_in(columns, stored_file, rank) as u8;
                numbers[bit as usize] = n + 1;
                squares[n as usize] = bit;
                stored_file += 2;
            }
            rank += 1;
        }
        Numbering {
            numbers,
            squares,
            size,
            inverted,
            every_square: false,
            crowns: true,
        }
    }

    /// The numbering of the 8×8 board of every square (Turkish draughts): 1 = a8, along
    /// each rank from file a to h, from White's far rank down to its own (64 = h1).
    pub const fn every_square() -> Numbering {
        let mut numbers = [0u8; LAYOUT_BITS];
        let mut squares = [0u8; LAYOUT_BITS];
        let mut n = 0u8;
        while n < 64 {
            let rank = 7 - n / 8;
            let file = n % 8;
            let bit = 8 * rank + file;
            numbers[bit as usize] = n + 1;
            squares[n as usize] = bit;
            n += 1;
        }
        Numbering {
            numbers,
            squares,
            size: 8,
            inverted: false,
            every_square: true,
            crowns: true,
        }
    }

    /// [`Numbering::every_square`] on the board without crowning ranks (уголки).
    pub const fn corners() -> Numbering {
        let mut n = Numbering::every_square();
        n.crowns = false;
        n
    }

    /// Whether the board is turned (its a1 corner a light square).
    pub const fn inverted(self) -> bool {
        self.inverted
    }

    /// The board numbered.
    pub const fn geometry(self) -> &'static Geometry {
        if self.every_square && !self.crowns {
            Geometry::CORNERS
        } else if self.every_square {
            Geometry::EIGHT_EVERY_SQUARE
        } else if self.size == 12 {
            Geometry::TWELVE
        } else if self.size == 10 {
            Geometry::TEN
        } else if self.size == 7 {
            Geometry::SEVEN
        } else {
            Geometry::EIGHT
        }
    }

    /// The highest number (25, 32, 50, 64 or 72).
    pub const fn count(self) -> u32 {
        if self.every_square {
            64
        } else {
            (self.size as u32 * self.size as u32).div_ceil(2)
        }
    }

    /// The number of `sq` (0 when it is off the board).
    #[inline]
    pub const fn number(self, sq: Square) -> u8 {
        self.numbers[sq.0 as usize & (LAYOUT_BITS - 1)]
    }

    /// The square numbered `number`, or `None`.
    pub const fn square(self, number: u32) -> Option<Square> {
        if number == 0 || number > self.count() {
            None
        } else {
            Some(Square(self.squares[(number - 1) as usize]))
        }
    }

    /// The algebraic name of `sq` on the board as it stands (`"c3"`).
    pub fn name(self, sq: Square) -> String {
        let geometry = self.geometry();
        let file = if self.inverted {
            self.size - 1 - geometry.file_of(sq)
        } else {
            geometry.file_of(sq)
        };
        let mut s = String::with_capacity(3);
        s.push((b'a' + file) as char);
        s.push_str(&(geometry.rank_of(sq) + 1).to_string());
        s
    }

    /// Parse an algebraic name (`"c3"`) or a number (`"22"`) in this numbering.
    pub fn parse(self, text: &str) -> Result<Square, SquareError> {
        let t = text.trim();
        let bytes = t.as_bytes();
        if bytes.is_empty() {
            return Err(SquareError::new(text, "empty square"));
        }
        let (range, name_hint) = match self.count() {
            32 => (
                "square number out of range 1-32",
                "expected a square name like c3 or a number 1-32",
            ),
            50 => (
                "square number out of range 1-50",
                "expected a square name like c3 or a number 1-50",
            ),
            64 => (
                "square number out of range 1-64",
                "expected a square name like c3 or a number 1-64",
            ),
            _ => (
                "square number out of range 1-72",
                "expected a square name like c3 or a number 1-72",
            ),
        };
        if bytes[0].is_ascii_digit() {
            let n: u32 = t
                .parse()
                .map_err(|_| SquareError::new(text, "not a square number"))?;
            return self.square(n).ok_or_else(|| SquareError::new(text, range));
        }
        if !(2..=3).contains(&bytes.len()) || !bytes[1..].iter().all(u8::is_ascii_digit) {
            return Err(SquareError::new(text, name_hint));
        }
        let file = bytes[0].to_ascii_lowercase();
        let rank: u8 = t[1..]
            .parse()
            .map_err(|_| SquareError::new(text, "square off the board"))?;
        if !(b'a'..b'a' + self.size).contains(&file) || !(1..=self.size).contains(&rank) {
            return Err(SquareError::new(text, "square off the board"));
        }
        let file = file - b'a';
        let file = if self.inverted {
            self.size - 1 - file
        } else {
            file
        };
        self.geometry()
            .square_at(file, rank - 1)
            .ok_or_else(|| SquareError::new(text, "light square (pieces stand on dark squares)"))
    }
}

impl Default for Numbering {
    fn default() -> Numbering {
        Numbering::STANDARD
    }
}

const GHOST: u8 = 255;

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        Square::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_pdn() {
        let c3 = Square::parse("c3").unwrap();
        assert_eq!(c3.pdn(), 22);
        assert_eq!(Square::parse("a1").unwrap().pdn(), 29);
        assert_eq!(Square::parse("g1").unwrap().pdn(), 32);
        assert_eq!(Square::parse("b8").unwrap().pdn(), 1);
        assert_eq!(Square::parse("h8").unwrap().pdn(), 4);
        for (i, &s) in Geometry::EIGHT.squares().iter().enumerate() {
            assert_eq!(s.index8(), Some(i));
            assert_eq!(Square::from_pdn(s.pdn() as u32), Some(s));
            assert_eq!(Square::parse(&s.name()), Ok(s));
            assert_eq!(Square::from_bit(s.bit()), Some(s));
            assert_eq!((s.file() + s.rank()) % 2, 0, "{s} must be dark");
        }
    }

    #[test]
    fn the_boards_share_one_layout() {
        for g in [Geometry::EIGHT, Geometry::TEN] {
            let n = usize::from(g.size());
            assert_eq!(g.square_count(), n * n / 2);
            assert_eq!(g.board().count() as usize, n * n / 2);
            for (i, &s) in g.squares().iter().enumerate() {
                assert_eq!(g.index(s), Some(i));
                assert_eq!(Square::from_coords(s.file(), s.rank()), Some(s));
                assert!(s.file() < g.size() && s.rank() < g.size());
                assert_eq!(g.turned(g.turned(s)), s);
                assert!(g.contains(g.turned(s)));
            }
        }
        // Index order: a1 first, then along the rank.
        assert_eq!(Geometry::TEN.square(5).map(|s| s.name()), Some("b2".into()));
        assert_eq!(
            Geometry::TEN.square(49).map(|s| s.name()),
            Some("j10".into())
        );
        assert_eq!(
            Geometry::EIGHT.square(31).map(|s| s.name()),
            Some("h8".into())
        );
        assert_eq!(
            Geometry::EIGHT.index(Square::from_coords(9, 9).unwrap()),
            None
        );
    }

    #[test]
    fn numberings_of_the_games() {
        let name = |n: Numbering, k: u32| n.name(n.square(k).unwrap());
        assert_eq!(Numbering::STANDARD, Numbering::new(Color::White, 2, false));
        // English: 1 = b8 seen from Black's side (its bottom right), as Russian's.
        let english = Numbering::new(Color::Black, 1, false);
        for &s in Geometry::EIGHT.squares() {
            assert_eq!(english.number(s), s.pdn());
        }
        // Italian: the board turned, 1 = a8, 32 = h1.
        let italian = Numbering::new(Color::White, 2, true);
        assert_eq!(
            (name(italian, 1), name(italian, 4), name(italian, 32)),
            ("a8".into(), "g8".into(), "h1".into())
        );
        // Spanish and Portuguese: 1 = h1, 4 = b1, 32 = a8.
        let spanish = Numbering::new(Color::White, 1, true);
        assert_eq!(
            (
                name(spanish, 1),
                name(spanish, 4),
                name(spanish, 5),
                name(spanish, 32)
            ),
            ("h1".into(), "b1".into(), "g2".into(), "a8".into())
        );
        // Thai: Black's top left, 1 = g1.
        let thai = Numbering::new(Color::Black, 2, false);
        assert_eq!(
            (name(thai, 1), name(thai, 4), name(thai, 32)),
            ("g1".into(), "a1".into(), "b8".into())
        );
        // International (10×10): 1 = b10, 5 = j10, 46 = a1, 50 = i1.
        let international = Numbering::on(10, Color::White, 2, false);
        assert_eq!(
            (
                name(international, 1),
                name(international, 5),
                name(international, 46),
                name(international, 50)
            ),
            ("b10".into(), "j10".into(), "a1".into(), "i1".into())
        );
        for n in [english, italian, spanish, thai, international] {
            for k in 1..=n.count() {
                let sq = n.square(k).unwrap();
                assert_eq!(u32::from(n.number(sq)), k);
                assert_eq!(n.parse(&n.name(sq)), Ok(sq));
                assert_eq!(n.parse(&k.to_string()), Ok(sq));
            }
            assert!(n.square(n.count() + 1).is_none());
        }
        assert!(italian.parse("a1").is_err());
        assert!(italian.parse("h1").is_ok());
        assert!(international.parse("j10").is_ok());
        assert!(international.parse("k1").is_err());
        assert!(international.parse("a11").is_err());
    }

    #[test]
    fn the_twelve_by_twelve_board_has_its_own_layout() {
        use crate::geometry::{Direction, Word};
        let g = Geometry::TWELVE;
        assert!(g.is_wide() && !Geometry::TEN.is_wide());
        assert_eq!(g.square_count(), 72);
        assert_eq!(g.board_in::<u128>().count(), 72);
        assert_eq!(g.board_bits(), <u128 as Word>::ALL);
        for (i, &s) in g.squares().iter().enumerate() {
            assert_eq!(g.index(s), Some(i));
            assert_eq!(g.square_of_bit(s.bit()), Some(s));
            let (file, rank) = (g.file_of(s), g.rank_of(s));
            assert_eq!(g.square_at(file, rank), Some(s));
            assert_eq!(g.turned(g.turned(s)), s);
            // Every diagonal step is one fixed shift of the 128-bit word.
            for (dir, (df, dr)) in
                Direction::ALL
                    .into_iter()
                    .zip([(-1, 1), (1, 1), (-1, -1), (1, -1)])
            {
                let stepped = <u128 as Word>::bit(s.bit()).step(dir) & g.board_bits();
                let expected = g
                    .square_at((file as i8 + df) as u8, (rank as i8 + dr) as u8)
                    .filter(|_| file as i8 + df >= 0 && rank as i8 + dr >= 0)
                    .map_or(0, |t| 1u128 << t.bit());
                assert_eq!(stepped, expected, "{} {dir:?}", g.name(s));
                let ray = g.rays.wide[s.bit() as usize][dir.index()];
                assert_eq!(ray & expected, expected);
            }
        }
        assert_eq!(g.square(0).map(|s| g.name(s)), Some("a1".into()));
        assert_eq!(g.square(71).map(|s| g.name(s)), Some("l12".into()));
        // Canadian numbering, as International's: 1 = b12, 6 = l12, 67 = a1, 72 = k1.
        let canadian = Numbering::on(12, Color::White, 2, false);
        let name = |k: u32| canadian.name(canadian.square(k).unwrap());
        assert_eq!(
            (name(1), name(6), name(67), name(72)),
            ("b12".into(), "l12".into(), "a1".into(), "k1".into())
        );
        for k in 1..=72 {
            let sq = canadian.square(k).unwrap();
            assert_eq!(u32::from(canadian.number(sq)), k);
            assert_eq!(canadian.parse(&canadian.name(sq)), Ok(sq));
            assert_eq!(canadian.parse(&k.to_string()), Ok(sq));
        }
        assert!(canadian.parse("73").is_err() && canadian.parse("m1").is_err());
        assert!(canadian.parse("a2").is_err());
        assert_eq!(canadian.geometry().size(), 12);
    }

    #[test]
    fn bad_squares_are_refused() {
        for bad in [
            "", "a2", "i1", "a9", "0", "33", "c33", "-1", "zz", "b10", "a1x", "a01x",
        ] {
            assert!(Square::parse(bad).is_err(), "{bad:?}");
        }
    }
}
