//! A game as it is played: the [`Board`] (a position and the moves that led to it, undo,
//! the draw clocks) and each federation's draw rules ([`DrawRules`]).
//!
//! Inside: `draw` ← `history`.

pub mod draw;
pub(crate) mod history;

pub use draw::{DrawClocks, DrawCount, DrawRule, DrawRules};
pub use history::{Board, Ending, Played, PlyFacts};
