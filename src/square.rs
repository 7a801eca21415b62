//! The 32 dark squares of the board.
//!
//! A [`Square`] is numbered 0..=31 from White's side, rank by rank, left to right:
//! 0 = a1, 1 = c1, 2 = e1, 3 = g1, 4 = b2, … 31 = h8. Two other numberings are
//! offered as conversions: algebraic names (`"c3"`) and PDN numbers 1..=32
//! (1 = b8 … 29 = a1, 32 = g1), the numbering of PDN files, lidraughts and FEN.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::error::SquareError;

/// One of the 32 playable (dark) squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square, in index order (a1, c1, e1, g1, b2, …, h8).
    pub const ALL: [Square; 32] = {
        let mut all = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index (0..=31), or `None`.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 32 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The index 0..=31 (0 = a1, 31 = h8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Rank 0..=7 (0 is White's back rank, rank "1").
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 4
    }

    /// File 0..=7 (0 is file "a").
    #[inline]
    pub const fn file(self) -> u8 {
        (self.0 % 4) * 2 + (self.rank() & 1)
    }

    /// The dark square at (file, rank), both 0..=7; `None` for a light square or off the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file >= 8 || rank >= 8 || (file + rank) % 2 != 0 {
            None
        } else {
            Some(Square(rank * 4 + file / 2))
        }
    }

    /// The PDN number 1..=32 (1 = b8, 4 = h8, 29 = a1, 32 = g1).
    #[inline]
    pub const fn pdn(self) -> u8 {
        (7 - self.rank()) * 4 + self.0 % 4 + 1
    }

    /// The square with PDN number `number` (1..=32), or `None`.
    pub const fn from_pdn(number: u32) -> Option<Square> {
        if number == 0 || number > 32 {
            return None;
        }
        let n = (number - 1) as u8;
        Some(Square((7 - n / 4) * 4 + n % 4))
    }

    /// Algebraic name such as `"c3"`.
    pub fn name(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'a' + self.file()) as char);
        s.push((b'1' + self.rank()) as char);
        s
    }

    /// The bit of this square in the internal board layout (see [`Bitboard`]).
    #[inline]
    pub const fn bit(self) -> u32 {
        self.0 as u32 + (self.rank() as u32).div_ceil(2)
    }

    /// The square whose internal bit is `bit`, if `bit` is a playable square.
    #[inline]
    pub const fn from_bit(bit: u32) -> Option<Square> {
        if bit >= 36 {
            return None;
        }
        let s = BIT_TO_SQUARE[bit as usize];
        if s == GHOST {
            None
        } else {
            Some(Square(s))
        }
    }

    /// Fast inverse of [`Square::bit`] for bits known to be playable squares.
    #[inline]
    pub(crate) const fn from_bit_unchecked(bit: u32) -> Square {
        Square(BIT_TO_SQUARE[bit as usize & 63])
    }

    /// A bitboard holding only this square.
    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u64 << self.bit())
    }

    /// Parse an algebraic name (`"c3"`) or a PDN number (`"22"`).
    pub fn parse(text: &str) -> Result<Square, SquareError> {
        Numbering::STANDARD.parse(text)
    }
}

/// How a game numbers and names the 32 squares (the PDN GameType's notation and inverted
/// flag): square 1 sits in a corner of the board as the side that moves first sees it, and
/// the numbers run along the rows from there. On a turned board (the corner at each
/// player's left hand is a light square) the position is stored mirrored, file a to h, so
/// that one move generator plays every game; names and numbers undo the mirror.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Numbering {
    numbers: [u8; 32],
    squares: [u8; 32],
    inverted: bool,
}

impl Numbering {
    /// Russian draughts' numbering (PDN's for 8×8 games): 1 = b8 … 4 = h8, 29 = a1, 32 = g1.
    pub const STANDARD: Numbering = Numbering::new(crate::Color::White, 2, false);

    /// The numbering with square 1 in `corner` (0 bottom left, 1 bottom right, 2 top left,
    /// 3 top right) as the side `first` sees the board, on a turned board if `inverted`.
    pub const fn new(first: crate::Color, corner: u8, inverted: bool) -> Numbering {
        let mut numbers = [0u8; 32];
        let mut squares = [0u8; 32];
        let mut i = 0;
        while i < 32 {
            let sq = Square(i as u8);
            // The board as it stands (a turned board's files mirrored back).
            let file = if inverted { 7 - sq.file() } else { sq.file() };
            let rank = sq.rank();
            // The board as the first side sees it.
            let (vf, vr) = match first {
                crate::Color::White => (file, rank),
                crate::Color::Black => (7 - file, 7 - rank),
            };
            let row = if corner >= 2 { 7 - vr } else { vr };
            let k = if corner % 2 == 0 {
                vf / 2
            } else {
                (7 - vf) / 2
            };
            let n = row * 4 + k;
            numbers[i] = n + 1;
            squares[n as usize] = i as u8;
            i += 1;
        }
        Numbering {
            numbers,
            squares,
            inverted,
        }
    }

    /// Whether the board is turned (its a1 corner a light square).
    pub const fn inverted(self) -> bool {
        self.inverted
    }

    /// The number 1..=32 of `sq`.
    #[inline]
    pub const fn number(self, sq: Square) -> u8 {
        self.numbers[sq.0 as usize]
    }

    /// The square numbered `number` (1..=32), or `None`.
    pub const fn square(self, number: u32) -> Option<Square> {
        if number == 0 || number > 32 {
            None
        } else {
            Some(Square(self.squares[(number - 1) as usize]))
        }
    }

    /// The algebraic name of `sq` on the board as it stands (`"c3"`).
    pub fn name(self, sq: Square) -> String {
        let file = if self.inverted {
            7 - sq.file()
        } else {
            sq.file()
        };
        let mut s = String::with_capacity(2);
        s.push((b'a' + file) as char);
        s.push((b'1' + sq.rank()) as char);
        s
    }

    /// Parse an algebraic name (`"c3"`) or a number (`"22"`) in this numbering.
    pub fn parse(self, text: &str) -> Result<Square, SquareError> {
        let t = text.trim();
        let bytes = t.as_bytes();
        if bytes.is_empty() {
            return Err(SquareError::new(text, "empty square"));
        }
        if bytes[0].is_ascii_digit() {
            let n: u32 = t
                .parse()
                .map_err(|_| SquareError::new(text, "not a square number"))?;
            return self
                .square(n)
                .ok_or_else(|| SquareError::new(text, "square number out of range 1-32"));
        }
        if bytes.len() != 2 {
            return Err(SquareError::new(
                text,
                "expected a square name like c3 or a number 1-32",
            ));
        }
        let file = bytes[0].to_ascii_lowercase();
        let rank = bytes[1];
        if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
            return Err(SquareError::new(text, "square off the board"));
        }
        let file = file - b'a';
        let file = if self.inverted { 7 - file } else { file };
        Square::from_coords(file, rank - b'1')
            .ok_or_else(|| SquareError::new(text, "light square (pieces stand on dark squares)"))
    }
}

impl Default for Numbering {
    fn default() -> Numbering {
        Numbering::STANDARD
    }
}

const GHOST: u8 = 255;

const BIT_TO_SQUARE: [u8; 64] = {
    let mut t = [GHOST; 64];
    let mut i = 0;
    while i < 32 {
        t[Square(i as u8).bit() as usize] = i as u8;
        i += 1;
    }
    t
};

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
        for s in Square::ALL {
            assert_eq!(Square::from_pdn(s.pdn() as u32), Some(s));
            assert_eq!(Square::parse(&s.name()), Ok(s));
            assert_eq!(Square::from_bit(s.bit()), Some(s));
            assert_eq!((s.file() + s.rank()) % 2, 0, "{s} must be dark");
        }
    }

    #[test]
    fn numberings_of_the_games() {
        let name = |n: Numbering, k: u32| n.name(n.square(k).unwrap());
        assert_eq!(
            Numbering::STANDARD,
            Numbering::new(crate::Color::White, 2, false)
        );
        for s in Square::ALL {
            assert_eq!(Numbering::STANDARD.number(s), s.pdn());
        }
        // English: 1 = b8 seen from Black's side (its bottom right), as Russian's.
        let english = Numbering::new(crate::Color::Black, 1, false);
        for s in Square::ALL {
            assert_eq!(english.number(s), s.pdn());
        }
        // Italian: the board turned, 1 = a8, 32 = h1.
        let italian = Numbering::new(crate::Color::White, 2, true);
        assert_eq!(
            (name(italian, 1), name(italian, 4), name(italian, 32)),
            ("a8".into(), "g8".into(), "h1".into())
        );
        // Spanish and Portuguese: 1 = h1, 4 = b1, 32 = a8.
        let spanish = Numbering::new(crate::Color::White, 1, true);
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
        let thai = Numbering::new(crate::Color::Black, 2, false);
        assert_eq!(
            (name(thai, 1), name(thai, 4), name(thai, 32)),
            ("g1".into(), "a1".into(), "b8".into())
        );
        for n in [english, italian, spanish, thai] {
            for k in 1..=32 {
                let sq = n.square(k).unwrap();
                assert_eq!(u32::from(n.number(sq)), k);
                assert_eq!(n.parse(&n.name(sq)), Ok(sq));
                assert_eq!(n.parse(&k.to_string()), Ok(sq));
            }
        }
        assert!(italian.parse("a1").is_err());
        assert!(italian.parse("h1").is_ok());
    }

    #[test]
    fn bad_squares_are_refused() {
        for bad in ["", "a2", "i1", "a9", "0", "33", "c33", "-1", "zz"] {
            assert!(Square::parse(bad).is_err(), "{bad:?}");
        }
    }
}
