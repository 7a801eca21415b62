//! Positions as data: the pieces on a board, the side to move, the rules code it is played
//! under and its Zobrist hash ([`Position`], [`Setup`]); a move as data ([`Move`]); FEN, the
//! position's text. What a position's rules make of it (its legal moves, playing one) is
//! `crate::rules`'; this folder reads only the game cards (`crate::games`) and the boards.
//!
//! Inside: `zobrist` ← `runs` ← `state` ← `fen`; `mv`.

pub(crate) mod fen;
pub(crate) mod mv;
pub(crate) mod runs;
pub(crate) mod state;
pub(crate) mod zobrist;

pub use crate::geometry::Notation;
pub use fen::{
    parse_fen, parse_fen_in_word, parse_fen_numbered, position_from_fen, position_from_fen_in,
    position_from_fen_in_word, write_fen, Fen,
};
pub use mv::{Move, MoveList, MAX_PATH};
pub use state::{Position, Setup};
