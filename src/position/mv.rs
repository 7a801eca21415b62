//! Moves.

use std::fmt;

use crate::geometry::Square;
use crate::geometry::{Bitboard, Word};

/// The most landing squares a move keeps: each capture takes a piece standing off the
/// board's edge, and the 8×8 board has 18 such squares; on the 10×10 board, twenty (a side's
/// men at the start). A composed 10×10 position where one move takes more than twenty pieces
/// keeps that move's first twenty landings (its start, end and captures stay exact). Twenty
/// keeps a [`Move`] at 32 bytes.
pub const MAX_PATH: usize = 20;

/// A move: start, end, the captured pieces, the landing squares, and whether a man is crowned.
///
/// Two moves are equal when they have the same start, end, captured set and promotion: that is
/// exactly what determines the position after them (docs/rules.rst, "Which moves are distinct").
/// The path (the landing squares) is kept to write the move and to tell capture orders apart
/// in the second perft convention, but does not take part in equality.
///
/// `W` is the word of the board's layout ([`Word`]): the 64-bit one unless the game is
/// played on the 12×12 board.
#[derive(Copy, Clone)]
pub struct Move<W: Word = u64> {
    pub(crate) captured: Bitboard<W>,
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) promotes: bool,
    pub(crate) path_len: u8,
    pub(crate) path: [Square; MAX_PATH],
}

impl<W: Word> Move<W> {
    /// A quiet (non-capturing) move.
    #[inline]
    pub fn quiet(from: Square, to: Square, promotes: bool) -> Move<W> {
        let mut path = [to; MAX_PATH];
        path[0] = to;
        Move {
            captured: Bitboard::EMPTY,
            from,
            to,
            promotes,
            path_len: 1,
            path,
        }
    }

    /// A move from its parts (as [`Move::path`] and [`Move::captured`] give them back), for
    /// moves stored outside a position. `None` when the parts cannot form a move: an empty
    /// or too long path, more captures than landings, a quiet move of more than one landing.
    /// Whether it is legal is up to the position it is played in.
    pub fn from_parts(
        from: Square,
        path: &[Square],
        captured: Bitboard<W>,
        promotes: bool,
    ) -> Option<Move<W>> {
        let (&to, _) = path.split_last()?;
        if path.len() > MAX_PATH
            || captured.count() as usize > path.len()
            || (captured.is_empty() && path.len() != 1)
            || captured.contains(from)
        {
            return None;
        }
        let mut squares = [to; MAX_PATH];
        squares[..path.len()].copy_from_slice(path);
        Some(Move {
            captured,
            from,
            to,
            promotes,
            path_len: path.len() as u8,
            path: squares,
        })
    }

    /// The start square.
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The end square.
    #[inline]
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The captured pieces (empty for a quiet move).
    #[inline]
    pub const fn captured(&self) -> Bitboard<W> {
        self.captured
    }

    /// Whether a man becomes a king by this move.
    #[inline]
    pub const fn promotes(&self) -> bool {
        self.promotes
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// The landing squares in order, ending with [`Move::to`]; one square for a quiet move.
    #[inline]
    pub fn path(&self) -> &[Square] {
        &self.path[..self.path_len as usize]
    }

    /// The identity used for equality: (start, end, captured set, promotion).
    #[inline]
    pub(crate) fn key(&self) -> (W, u8, u8, bool) {
        (
            self.captured.0,
            self.from.bit() as u8,
            self.to.bit() as u8,
            self.promotes,
        )
    }

    /// [`Move::long_text`] with the squares named on `geometry`'s board (Turkish draughts'
    /// board of every square and the 12×12 board name their squares their own way).
    pub fn long_text_on(&self, geometry: &crate::geometry::Geometry) -> String {
        if !geometry.every_square() && !geometry.is_wide() {
            return self.long_text();
        }
        let sep = if self.is_capture() { ':' } else { '-' };
        let mut s = geometry.name(self.from);
        for sq in self.path() {
            s.push(sep);
            s.push_str(&geometry.name(*sq));
        }
        s
    }

    /// Text with every landing square: `c3-d4`, `e3:c5:e7`.
    pub fn long_text(&self) -> String {
        if !self.is_capture() {
            return format!("{}-{}", self.from, self.to);
        }
        let mut s = self.from.name();
        for sq in self.path() {
            s.push(':');
            s.push_str(&sq.name());
        }
        s
    }

    /// Text in PDN numbers with every landing square: `22-18`, `22x15x6`.
    pub fn numeric_text(&self) -> String {
        if !self.is_capture() {
            return format!("{}-{}", self.from.pdn(), self.to.pdn());
        }
        let mut s = self.from.pdn().to_string();
        for sq in self.path() {
            s.push('x');
            s.push_str(&sq.pdn().to_string());
        }
        s
    }
}

impl<W: Word> PartialEq for Move<W> {
    #[inline]
    fn eq(&self, other: &Move<W>) -> bool {
        self.key() == other.key()
    }
}

impl<W: Word> Eq for Move<W> {}

impl<W: Word> std::hash::Hash for Move<W> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl<W: Word> fmt::Display for Move<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.long_text())
    }
}

impl<W: Word> fmt::Debug for Move<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}", self.long_text())?;
        if self.promotes {
            f.write_str(", promotes")?;
        }
        f.write_str(")")
    }
}

/// A list of moves, on the stack for the usual sizes.
pub type MoveList<W = u64> = smallvec::SmallVec<[Move<W>; 48]>;

#[cfg(test)]
mod tests {
    #[test]
    fn a_move_stays_small() {
        assert_eq!(std::mem::size_of::<super::Move>(), 32);
        assert_eq!(std::mem::size_of::<crate::Position>(), 40);
    }
}
