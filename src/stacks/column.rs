//! A column of pieces on one square.

use crate::geometry::{Color, Piece, Role};

/// The most pieces a column holds: every piece of the game (24 in towers, 22 in Lasca).
pub const MAX_HEIGHT: u32 = 24;

const COUNT_BITS: u32 = 5;
const COUNT_MASK: u64 = (1 << COUNT_BITS) - 1;
const UNDER_SHIFT: u32 = COUNT_BITS;
const BLACK_BIT: u64 = 1 << (2 * COUNT_BITS);
const KINGS_SHIFT: u32 = 2 * COUNT_BITS + 1;

/// A column of pieces on one square, read from the top: `top` pieces of the top piece's
/// colour over `under` pieces of the other colour, and each piece's rank.
///
/// A column never holds a third block of colour (`X…X Y…Y X` cannot arise): it changes only
/// by losing its top piece to a capture, or by taking a prisoner, which goes under it and is
/// of the other colour than its top. Neither makes a third block, and every column starts as
/// one piece (docs/development.md, "Towers' positions"; `tests/test_stacks.py` checks it on
/// random games). So a column is one `u64`: the two counts (5 bits each), the top's colour
/// (1 bit), and one bit a piece for its rank (bit `i`: the `i`-th piece from the top is a
/// king; a piece keeps its rank while it is a prisoner).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Column(u64);

impl Column {
    /// No piece.
    pub const EMPTY: Column = Column(0);

    /// One piece.
    #[inline]
    pub const fn single(piece: Piece) -> Column {
        let black = matches!(piece.color, Color::Black);
        let king = matches!(piece.role, Role::King);
        Column(1 | if black { BLACK_BIT } else { 0 } | (king as u64) << KINGS_SHIFT)
    }

    /// A column from its pieces, top first; `None` if it is empty, higher than
    /// [`MAX_HEIGHT`], or has more than two blocks of colour.
    pub fn from_pieces(pieces: &[Piece]) -> Option<Column> {
        let (&first, rest) = pieces.split_first()?;
        if pieces.len() > MAX_HEIGHT as usize {
            return None;
        }
        let mut column = Column::single(first);
        let mut top = 1u64;
        let mut under = 0u64;
        for (i, p) in rest.iter().enumerate() {
            if p.color == first.color {
                if under > 0 {
                    return None;
                }
                top += 1;
            } else {
                under += 1;
            }
            if p.role == Role::King {
                column.0 |= 1 << (KINGS_SHIFT + 1 + i as u32);
            }
        }
        column.0 =
            (column.0 & !(COUNT_MASK | COUNT_MASK << UNDER_SHIFT)) | top | under << UNDER_SHIFT;
        Some(column)
    }

    /// The pieces of the top block.
    #[inline]
    pub const fn top_count(self) -> u32 {
        (self.0 & COUNT_MASK) as u32
    }

    /// The pieces under the top block (of the other colour).
    #[inline]
    pub const fn under_count(self) -> u32 {
        ((self.0 >> UNDER_SHIFT) & COUNT_MASK) as u32
    }

    /// The number of pieces.
    #[inline]
    pub const fn height(self) -> u32 {
        self.top_count() + self.under_count()
    }

    /// Whether the square is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 & COUNT_MASK == 0
    }

    /// The colour of the top piece (its owner's), White for an empty column.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & BLACK_BIT != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The `i`-th piece from the top (0 the top), if there is one.
    pub fn piece(self, i: u32) -> Option<Piece> {
        if i >= self.height() {
            return None;
        }
        let color = if i < self.top_count() {
            self.color()
        } else {
            !self.color()
        };
        let king = self.0 & (1 << (KINGS_SHIFT + i)) != 0;
        let role = if king { Role::King } else { Role::Man };
        Some(Piece { color, role })
    }

    /// The top piece, if any.
    #[inline]
    pub fn top(self) -> Option<Piece> {
        self.piece(0)
    }

    /// The pieces, top first.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        (0..self.height()).filter_map(move |i| self.piece(i))
    }

    /// The column less its top piece, and that piece's rank: what a capture leaves on the
    /// square jumped (its new top, of either colour, is its new owner's).
    #[inline]
    pub(crate) fn without_top(self) -> (Column, Role) {
        let role = if self.0 & (1 << KINGS_SHIFT) != 0 {
            Role::King
        } else {
            Role::Man
        };
        let kings = (self.0 >> (KINGS_SHIFT + 1)) << KINGS_SHIFT;
        let (top, under) = (self.top_count() - 1, self.under_count());
        let rest = if top > 0 {
            Column(kings | (self.0 & BLACK_BIT) | u64::from(top) | u64::from(under) << UNDER_SHIFT)
        } else if under > 0 {
            // The block below is the column now, its colour the other one.
            Column(kings | (!self.0 & BLACK_BIT) | u64::from(under))
        } else {
            Column::EMPTY
        };
        (rest, role)
    }

    /// The column with a prisoner of rank `role` (of the other colour than its top) put
    /// under it.
    #[inline]
    pub(crate) fn with_prisoner(self, role: Role) -> Column {
        let h = self.height();
        let king = u64::from(role == Role::King) << (KINGS_SHIFT + h);
        Column((self.0 + (1 << UNDER_SHIFT)) | king)
    }

    /// The column with its top piece crowned.
    #[inline]
    pub(crate) fn crowned(self) -> Column {
        Column(self.0 | 1 << KINGS_SHIFT)
    }

    /// The column's bits (for hashing).
    #[inline]
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }

    /// The pieces as letters, top first: `w` a white man, `W` a white king, `b` and `B`
    /// Black's (how a FEN of a column game writes what stands under a top).
    pub fn letters(self) -> String {
        self.pieces().map(piece_letter).collect()
    }
}

/// A piece's letter in a column: `w`, `W`, `b`, `B`.
pub fn piece_letter(p: Piece) -> char {
    match (p.color, p.role) {
        (Color::White, Role::Man) => 'w',
        (Color::White, Role::King) => 'W',
        (Color::Black, Role::Man) => 'b',
        (Color::Black, Role::King) => 'B',
    }
}

/// The piece of a letter `w`, `W`, `b`, `B`.
pub fn letter_piece(c: char) -> Option<Piece> {
    let (color, role) = match c {
        'w' => (Color::White, Role::Man),
        'W' => (Color::White, Role::King),
        'b' => (Color::Black, Role::Man),
        'B' => (Color::Black, Role::King),
        _ => return None,
    };
    Some(Piece { color, role })
}

impl std::fmt::Debug for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Column({})", self.letters())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(text: &str) -> Column {
        let pieces: Vec<Piece> = text.chars().filter_map(letter_piece).collect();
        Column::from_pieces(&pieces).unwrap()
    }

    #[test]
    fn a_column_keeps_its_pieces_in_order() {
        for text in ["w", "B", "wwB", "WwbbB", "bbbbwwwWWw"] {
            let c = col(text);
            assert_eq!(c.letters(), text);
            assert_eq!(c.height() as usize, text.len());
        }
    }

    #[test]
    fn three_blocks_of_colour_are_refused() {
        let pieces: Vec<Piece> = "wbw".chars().filter_map(letter_piece).collect();
        assert!(Column::from_pieces(&pieces).is_none());
        assert!(Column::from_pieces(&[]).is_none());
    }

    #[test]
    fn taking_the_top_frees_the_piece_below() {
        let (rest, role) = col("Wbb").without_top();
        assert_eq!((rest.letters().as_str(), role), ("bb", Role::King));
        let (rest, role) = col("wWB").without_top();
        assert_eq!((rest.letters().as_str(), role), ("WB", Role::Man));
        let (rest, _) = col("B").without_top();
        assert!(rest.is_empty());
        assert_eq!(rest, Column::EMPTY);
    }

    #[test]
    fn a_prisoner_goes_to_the_bottom() {
        assert_eq!(col("w").with_prisoner(Role::King).letters(), "wB");
        assert_eq!(col("Wwb").with_prisoner(Role::Man).letters(), "Wwbb");
        assert_eq!(col("b").with_prisoner(Role::Man).crowned().letters(), "Bw");
    }
}
