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
//!
//! ## The map of the crate
//!
//! One folder or file per concept, bottom up: each imports only those listed before it
//! (tests/test_core_layout.py reads this list and checks it; docs/development.md tells
//! what each owns).
//!
//! 1. `error`: what can be wrong, naming what and where.
//! 2. `util`: checksums, memory sizes, a 64-bit mix.
//! 3. `geometry`: machine words and their layouts, squares, numbering, bitboards, pieces.
//! 4. `games`: the game cards, the registry every layer reads.
//! 5. `position`: positions and moves as data, their hash, FEN.
//! 6. `rules`: the rules traits and types, the one dispatch, a position's legal moves.
//! 7. `movegen`: the move generators (diagonal, Frisian, Turkish).
//! 8. `stacks`: the column games (towers, Lasca): the tops and the columns, and their engine.
//! 9. `star`: the star board (Chinese checkers): its holes, positions, moves and perft.
//! 10. `chapaev`: Чапаев, the flicking game: discs, their physics, the computer that aims.
//! 11. `notation`: move text.
//! 12. `game`: a game's history and its draw rules.
//! 13. `perft`: move-path enumeration.
//! 14. `egtb`: endgame tables.
//! 15. `eval`: the evaluations, one a file, and the evaluator a search holds.
//! 16. `search`: the engine.
//! 17. `batch`: many games at once.
//! 18. `python`: the bindings.

pub mod batch;
pub mod chapaev;
pub mod egtb;
mod error;
pub mod eval;
mod game;
mod games;
mod geometry;
mod movegen;
mod notation;
mod perft;
mod position;
#[cfg(feature = "python")]
mod python;
mod rules;
pub mod search;
mod stacks;
pub mod star;
mod util;

pub use error::{FenError, IllegalMoveError, PositionError, SquareError};
pub use game::{draw, Board, DrawClocks, DrawCount, DrawRule, DrawRules, Ending, Played, PlyFacts};
pub use games::{DrawSet, GameEval, GameInfo, MoveRules, RuleSet, StartKind, Variant, GAMES};
pub use geometry::{
    BitIter, Bitboard, Color, Direction, Geometry, Numbering, Piece, Rays, Role, Square, Word,
};
pub use notation::{
    explain_illegal, move_text, parse_move, split_move_text, split_move_text_in, MoveTextError,
};
pub use perft::{
    perft, perft_batch, perft_batch_in, perft_batch_untabled, perft_counting, perft_divide,
    perft_until, perft_with, DivideEntry, PerftOptions, PerftTable,
};
pub use position::{
    parse_fen, parse_fen_in_word, parse_fen_numbered, position_from_fen, position_from_fen_in,
    position_from_fen_in_word, write_fen, Fen, Move, MoveList, Notation, Position, Setup, MAX_PATH,
};
pub use rules::{
    Brazilian, Breakthrough, Canadian, CapturePriority, CapturesOptional, Counting, Czech,
    DiagonalGenerator, English, Frisian, FrisianGenerator, GameWord, Generator, International,
    Italian, Killer, Lasca, Pool, Rules, Russian, Samoedy, Spanish, Stavropol, StavropolGenerator,
    StavropolOwnFirst, Thai, Turkish, TurkishGenerator, Ugolki, UgolkiGenerator, Visit,
};
pub use stacks::search::{search as search_columns, ColumnControl, ColumnLimits, ColumnResult};
pub use stacks::{Column, StackPosition, MAX_HEIGHT};
pub use util::memory::{available_memory, TableAllocError};
