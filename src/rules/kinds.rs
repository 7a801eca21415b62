//! What a game's move rules are to the code: the [`Rules`] trait (each rule switch a
//! compile-time constant, one type per kind of move rules), the [`Generator`] a rules type
//! names, and the [`GameWord`] dispatch from a position's rules code to its rules type.

use crate::geometry::{Geometry, Sealed, Word};
use crate::position::mv::{Move, MoveList};
use crate::position::state::Position;

/// How capture sequences are counted as moves.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default)]
pub enum Counting {
    /// Convention A: one move per (start, end, captured set, promotion). The rules' moves.
    #[default]
    Distinct,
    /// Convention B: sequences taking the same pieces in another order count separately
    /// (one per order, not one per intermediate landing square of a king).
    Orders,
}

/// Which captures are legal when several exist (the captures not listed here are free to
/// choose among).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum CapturePriority {
    /// Free choice among the captures (Russian, English, Pool, Thai).
    Free,
    /// The captures taking the most pieces, kings and men counting one (Brazilian).
    Majority,
    /// The most pieces; among those, the most kings (Spanish, Portuguese).
    PiecesThenKings,
    /// The Italian federation's order: the most pieces; then a capture by a king; then the
    /// most kings; then the capture that meets a king first (then the next, …).
    Italian,
    /// A king must capture when a king can; otherwise free choice (Czech).
    KingFirst,
    /// The captures taking the most value, a king worth less than two men and more than
    /// one; among equal values a king's capture (Frisian).
    Value,
}

/// Rule switches of a draughts game, as compile-time constants: each game's move rules are
/// one type, and the generator is compiled once per type (nothing is decided per game in the
/// hot loop).
pub trait Rules: Copy + Send + Sync + 'static {
    /// The word of the board's layout: [`u64`] for the boards up to 10×10, [`u128`] for
    /// 12×12 (the generator is compiled once per rules type, in its word).
    type Word: GameWord;
    /// The move generator of these rules: the diagonal one ([`DiagonalGenerator`]) unless
    /// the game moves or captures along ranks and files too (Frisian, Turkish).
    ///
    /// [`DiagonalGenerator`]: crate::DiagonalGenerator
    type Moves: Generator<Word = Self::Word>;
    /// A man reaching the far rank during a capture is crowned at once and goes on
    /// capturing as a king (docs/rules.rst, "Captures" 8). Otherwise it goes on as a man and is crowned
    /// only if the move ends there (where men capture only forwards, the move ends there).
    const CROWN_DURING_CAPTURE: bool;
    /// Capturing is compulsory (docs/rules.rst, "Captures" 1). Otherwise quiet moves stay legal beside captures.
    const CAPTURE_IS_MANDATORY: bool;
    /// Which of several captures are legal.
    const PRIORITY: CapturePriority;
    /// Men capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Kings move and capture along whole diagonals; otherwise one square (a capture jumps
    /// the adjacent piece to the square behind it).
    const FLYING_KINGS: bool;
    /// A man may capture a king (Italian: never).
    const MAN_TAKES_KING: bool;
    /// A flying king capturing lands on the square directly behind the piece it takes
    /// (Thai); otherwise on any empty square behind it.
    const KING_LANDS_BEHIND: bool;
    /// The pieces taken leave the board as they are jumped (Thai): their squares may be
    /// crossed again in the same move. Otherwise they stay until the move ends (the
    /// Turkish strike rule) and block.
    const REMOVE_DURING_MOVE: bool;
    /// The board the game is played on (the 8×8 one unless a rules type says otherwise).
    const GEOMETRY: &'static Geometry = Geometry::EIGHT;
    /// A flying king whose capture ends on taking a king stops on the square directly
    /// behind that king (Killer draughts); otherwise on any empty square behind it.
    const KING_STOPS_BEHIND_KING: bool = false;
    /// The first side to crown a man wins (breakthrough): a side whose opponent has a king
    /// has lost and has no moves.
    const CROWNING_WINS: bool = false;
    /// The most quiet moves one king may make in a row while its side has men (Frisian:
    /// 3); 0 for no limit.
    const KING_QUIET_MOVES: u8 = 0;
    /// Pieces of the side to move may be captured too, by its own pieces, as the opponent's
    /// are: every capture, of either colour, is compulsory alike (самоеды, Samoedy).
    const CAPTURE_OWN: bool = false;
    /// Stavropol draughts' captures: when the side to move can capture with its own
    /// colour's pieces, captures with the other colour's are not legal (the reading of the
    /// Dagaz project's Stavropol); otherwise a capture of either colour is compulsory alike.
    const OWN_CAPTURES_FIRST: bool = false;
}

/// A move generator: the code that lists, counts and plays the moves of the rules types
/// that name it ([`Rules::Moves`]). Each method is compiled once per rules type `R`, whose
/// constants are the generator's switches: nothing is decided per game in the hot loop.
/// Implemented by [`DiagonalGenerator`] (every game of the diagonal boards),
/// [`FrisianGenerator`] and [`TurkishGenerator`].
///
/// [`DiagonalGenerator`]: crate::DiagonalGenerator
/// [`FrisianGenerator`]: crate::FrisianGenerator
/// [`TurkishGenerator`]: crate::TurkishGenerator
pub trait Generator: 'static {
    /// The word of the boards the generator plays on.
    type Word: GameWord;

    /// Whether the side to move must capture (has a capture).
    fn has_captures<R: Rules<Word = Self::Word>>(pos: &Position<Self::Word>) -> bool;

    /// Append the legal moves.
    fn generate<R: Rules<Word = Self::Word>>(
        pos: &Position<Self::Word>,
        counting: Counting,
        list: &mut MoveList<Self::Word>,
    );

    /// The number of legal moves.
    fn count_moves<R: Rules<Word = Self::Word>>(
        pos: &Position<Self::Word>,
        counting: Counting,
    ) -> u64;

    /// Call `visit` with the position after each legal move (perft's inner loop: no move
    /// list is built). With `HASH` false the children's hashes are left stale.
    fn for_each_child<R: Rules<Word = Self::Word>, const HASH: bool>(
        pos: &Position<Self::Word>,
        counting: Counting,
        visit: impl FnMut(&Position<Self::Word>),
    );

    /// `f(from bit, to bit, promotes)` for each quiet move of the side to move (whether
    /// they are legal beside a capture is the caller's business).
    fn for_each_quiet_move<R: Rules<Word = Self::Word>>(
        pos: &Position<Self::Word>,
        f: impl FnMut(u32, u32, bool),
    );

    /// The number of quiet moves (men's steps and kings' runs; whether they are legal
    /// beside a capture is the caller's business).
    fn quiet_move_count<R: Rules<Word = Self::Word>>(pos: &Position<Self::Word>) -> u32;

    /// The quiet move at `index` in [`Generator::for_each_quiet_move`]'s order, None if
    /// `index` is not below [`Generator::quiet_move_count`].
    fn nth_quiet_move<R: Rules<Word = Self::Word>>(
        pos: &Position<Self::Word>,
        index: u32,
    ) -> Option<Move<Self::Word>>;

    /// The number of move pairs (perft of depth 2).
    fn count_two_plies<R: Rules<Word = Self::Word>>(
        pos: &Position<Self::Word>,
        counting: Counting,
    ) -> u64 {
        let mut n = 0;
        Self::for_each_child::<R, false>(pos, counting, |child| {
            n += Self::count_moves::<R>(child, counting);
        });
        n
    }
}

/// Generic code run under one rules type: what [`GameWord::dispatch`] calls with the rules
/// type of a position's rules code (Rust has no generic closures; a visitor is one).
pub trait Visit<W: Word> {
    /// What the visit returns.
    type Output;
    /// Run under the rules `R`.
    fn visit<R: Rules<Word = W>>(self) -> Self::Output;
}

/// A word whose boards have games: [`u64`] (the boards up to 10×10) and [`u128`] (12×12);
/// sealed. Its [`GameWord::dispatch`] is the crate's one dispatch from a position's rules
/// code to the compile-time rules type of its game (`crate::rules::dispatch`).
pub trait GameWord: Word + Sealed {
    /// Run `visitor` under the rules type of the rules code `code` ([`RuleSet::code`]):
    /// one monomorphic copy of the visit per kind of move rules of this word's games. A
    /// code of a game of the other word runs under this word's largest board's rules.
    ///
    /// [`RuleSet::code`]: crate::RuleSet::code
    fn dispatch<V: Visit<Self>>(code: u8, visitor: V) -> V::Output;
    /// The position as a 64-bit one (`None` in the 128-bit word).
    #[doc(hidden)]
    fn narrow(pos: &Position<Self>) -> Option<&Position>;
    /// Keep each side's run of quiet king moves after a move (Frisian; nothing in the
    /// 128-bit word, which has no such game).
    #[doc(hidden)]
    fn update_runs(
        pos: &mut Position<Self>,
        before: &Position<Self>,
        from: u32,
        to: u32,
        captured: Self,
    );
}
