//! # shashki — Russian draughts
//!
//! A bitboard move generator, perft and engine for Russian draughts (русские шашки): 8×8,
//! flying kings, men capturing backwards, mandatory capture with free choice, the Turkish
//! strike rule, and a man crowned mid-capture capturing on as a king. The other games of the
//! 8×8 board are rules types beside [`Russian`] (one move generator compiled per kind of
//! rules), named by the registry [`GAMES`]: giveaway, Brazilian, the diagonal start, English,
//! Italian, Spanish, Portuguese, Czech, Pool and Thai draughts; the 10×10 games and
//! Turkish draughts share the 64-bit word, and Canadian draughts (12×12) is played in the
//! 128-bit one ([`Word`]: a position's board word is its type parameter, `u64` the
//! default).
//!
//! ```
//! use shashki::{perft, Position, RuleSet, Variant};
//! let canadian: Position<u128> =
//!     Position::start_in(RuleSet::new(Variant::Canadian, false)).unwrap();
//! assert_eq!(perft(&canadian, 3), 1222);
//! ```
//!
//! ```
//! use shashki::{perft, Position, RuleSet, Variant};
//! let english = Position::start_of(RuleSet::new(Variant::English, false));
//! assert_eq!(perft(&english, 6), 36768);
//! ```
//!
//! The legal moves of the start position:
//! ```
//! use shashki::Position;
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 7);
//! ```
//!
//! Perft, in both counting conventions:
//! ```
//! use shashki::{perft, perft_counting, Counting, Position};
//! let pos = Position::start();
//! assert_eq!(perft(&pos, 6), 37986);
//! assert_eq!(perft_counting(&pos, 6, Counting::Orders), 37986);
//! ```
//!
//! Reading a FEN and playing a move:
//! ```
//! use shashki::{position_from_fen, Square};
//! let mut pos = position_from_fen("W:W23:B18,19").unwrap(); // white e3, black d4 and f4
//! let capture = pos.legal_moves()[0];
//! assert!(capture.is_capture());
//! pos.play(&capture).unwrap();
//! assert!(pos.pieces(shashki::Color::Black).count() < 2);
//! let _ = Square::parse("c3").unwrap();
//! ```

pub mod batch;
mod bitboard;
mod board;
mod capture_list;
mod checksum;
pub mod draw;
pub mod egtb;
mod error;
mod fen;
mod memory;
mod movegen;
mod mv;
mod notation;
mod orthogonal;
mod perft;
mod piece;
mod position;
pub mod search;
mod square;
mod turkish;
mod variant;
mod zobrist;

#[cfg(feature = "python")]
mod python;

pub use bitboard::{BitIter, Bitboard, Direction, Word};
pub use board::{Board, Ending, Played, PlyFacts};
pub use draw::{DrawClocks, DrawCount, DrawRule, DrawRules};
pub use error::{FenError, IllegalMoveError, PositionError, SquareError};
pub use fen::{
    parse_fen, parse_fen_in_word, parse_fen_numbered, position_from_fen, position_from_fen_in,
    position_from_fen_in_word, write_fen, Fen, Notation,
};
pub use memory::{available_memory, TableAllocError};
pub use movegen::{
    Brazilian, Breakthrough, Canadian, CapturePriority, CapturesOptional, Counting, Czech, English,
    Frisian, International, Italian, Killer, Pool, Rules, Russian, Spanish, Thai, Turkish,
};
pub use mv::{Move, MoveList, MAX_PATH};
pub use notation::{
    explain_illegal, move_text, parse_move, split_move_text, split_move_text_in, MoveTextError,
};
pub use perft::{
    perft, perft_batch, perft_batch_in, perft_batch_untabled, perft_counting, perft_divide,
    perft_until, perft_with, DivideEntry, PerftOptions, PerftTable,
};
pub use piece::{Color, Piece, Role};
pub use position::{GameWord, Position, Setup};
pub use square::{Geometry, Numbering, Square};
pub use variant::{DrawSet, GameInfo, MoveRules, RuleSet, StartKind, Variant, GAMES};
