//! The boards: the machine words that hold them and their layouts ([`Word`]), the squares
//! and how each game names and numbers them ([`Square`], [`Geometry`], [`Numbering`]), and
//! sets of squares ([`Bitboard`]), the pieces and sides ([`Piece`], [`Color`]). Imports
//! nothing of the crate but its errors.
//!
//! Inside: `word`, `piece` (no import) ← `square` ← `bitboard`.

pub(crate) mod bitboard;
pub(crate) mod piece;
pub(crate) mod square;
pub(crate) mod word;

pub use bitboard::{BitIter, Bitboard};
pub use piece::{Color, Piece, Role};
pub use square::{Geometry, Notation, Numbering, Square};
pub use word::{Direction, Rays, Word};
pub(crate) use word::{Sealed, LAYOUT_BITS};
