//! Errors: every one says what was wrong and where.

use std::error::Error;
use std::fmt;

/// A square name or number that does not denote a playable square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareError {
    /// The text that was given.
    pub text: String,
    /// Why it is not a square.
    pub reason: &'static str,
}

impl SquareError {
    pub(crate) fn new(text: &str, reason: &'static str) -> SquareError {
        SquareError {
            text: text.to_owned(),
            reason,
        }
    }
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid square {:?}: {}", self.text, self.reason)
    }
}

impl Error for SquareError {}

/// A setup that is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Two pieces on one square.
    SquareTwice(crate::Square),
    /// A man standing on the rank where it would have been crowned.
    ManOnCrowningRank(crate::Square),
    /// A piece on a square the game's board does not have (a 10×10 square in an 8×8 game).
    OffBoard(crate::Square),
    /// The game's board does not fit the position's word (a 12×12 game in a 64-bit
    /// position, or a smaller board's game in a 128-bit one).
    WrongWord,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::SquareTwice(sq) => write!(f, "square {sq} is given twice"),
            PositionError::ManOnCrowningRank(sq) => write!(
                f,
                "a man on {sq} stands on its own crowning rank (it would be a king)"
            ),
            PositionError::OffBoard(sq) => {
                write!(f, "square {sq} is not on the game's board")
            }
            PositionError::WrongWord => f.write_str(
                "the game's board does not fit this position type (12×12 games need Position<u128>)",
            ),
        }
    }
}

impl Error for PositionError {}

/// A FEN that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The FEN field (colon-separated part, 1-based) where the problem is; 0 for the whole text.
    pub field: usize,
    /// The offending piece of text.
    pub token: String,
    /// What is wrong.
    pub reason: String,
}

impl FenError {
    pub(crate) fn new(field: usize, token: &str, reason: impl Into<String>) -> FenError {
        FenError {
            field,
            token: token.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field == 0 {
            write!(f, "invalid FEN: {}", self.reason)
        } else if self.token.is_empty() {
            write!(f, "invalid FEN, field {}: {}", self.field, self.reason)
        } else {
            write!(
                f,
                "invalid FEN, field {} at {:?}: {}",
                self.field, self.token, self.reason
            )
        }
    }
}

impl Error for FenError {}

/// A move that is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move, as text.
    pub mv: String,
    /// The position, as FEN.
    pub fen: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in position {}", self.mv, self.fen)
    }
}

impl Error for IllegalMoveError {}
