//! Colours, roles (man or king) and pieces.

use std::ops::Not;

/// A side.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first, starts on ranks 1–3, crowns on rank 8.
    White = 0,
    /// Starts on ranks 6–8, crowns on rank 1.
    Black = 1,
}

impl Color {
    /// Index 0 (White) or 1 (Black).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank (0..=7) where this side's men are crowned on the 8×8 board.
    #[inline]
    pub const fn crowning_rank(self) -> u8 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// `'W'` or `'B'`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// Man or king.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    /// A man (простая): moves one square forward, captures both ways.
    Man = 0,
    /// A king (дамка): flies along diagonals.
    King = 1,
}

/// A piece: a colour and a role.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

impl Piece {
    /// The character used in the Hub protocol and board diagrams: `w`, `b` for men, `W`, `B` for kings.
    pub const fn char(self) -> char {
        match (self.color, self.role) {
            (Color::White, Role::Man) => 'w',
            (Color::Black, Role::Man) => 'b',
            (Color::White, Role::King) => 'W',
            (Color::Black, Role::King) => 'B',
        }
    }
}
