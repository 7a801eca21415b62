//! The column games (towers, Lasca): a column of pieces on each occupied square, a piece
//! taken going under the column that took it.
//!
//! Inside: `column` (one square's column) ← `position` (the tops and the columns; moves,
//! perft, FEN) ← `search` (the column games' engine).

pub(crate) mod column;
pub(crate) mod position;
pub mod search;
mod western;

pub use column::{Column, MAX_HEIGHT};
pub use position::StackPosition;
