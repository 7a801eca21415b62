//! What a search is asked (its limits) and what it answers (scores, reports, the result).

use std::time::Duration;

use super::node::{WIN, WIN_BOUND};
use crate::game::draw::{DrawClocks, DrawRules};
use crate::geometry::Word;
use crate::position::mv::Move;

/// What limits a search. Unset fields do not limit; with nothing set the search runs until
/// stopped (or to [`MAX_PLY`]). `W` is the word of the board's layout (its root moves').
#[derive(Clone, Debug, Default)]
pub struct Limits<W: Word = u64> {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Time left on the clock of the side to move.
    pub time_left: Option<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// Search only these root moves (all legal moves when empty); the others are as if
    /// they were not there. Several searches, each leaving out the best moves of the ones
    /// before, give the best lines in order (multi-PV).
    pub root_moves: Vec<Move<W>>,
    /// Lines to search together (multi-PV, as Stockfish's): each iteration searches the
    /// best line, then the best line among the other first moves, and so on; 0 or 1: one.
    pub multipv: usize,
    /// The draw rules to apply besides repetition (which the search always scores a draw:
    /// a position met again in the search's line or the game's history is a draw).
    pub draw_rules: DrawRules,
    /// The draw rules' clocks at the root ([`Engine::search_board`] takes them from the
    /// board).
    pub clocks: DrawClocks,
    /// Ponder: search on the position expected after the opponent's reply, the time limits
    /// held off until [`Engine::ponderhit`] (the search's time counts from its start, so
    /// the time spent pondering is time gained), or until stopped. A ponder search that
    /// ends early (a depth or node limit, a forced result) waits for either before it
    /// answers.
    ///
    /// [`Engine::ponderhit`]: super::Engine::ponderhit
    pub ponder: bool,
}

impl<W: Word> Limits<W> {
    /// The same limits for a board of the word `V`, without root moves (a position's own).
    pub fn in_word<V: Word>(&self) -> Limits<V> {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            time_left: self.time_left,
            increment: self.increment,
            moves_to_go: self.moves_to_go,
            root_moves: Vec::new(),
            multipv: self.multipv,
            draw_rules: self.draw_rules.clone(),
            clocks: self.clocks,
            ponder: self.ponder,
        }
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-men (a man = 100).
    Value(i32),
    /// A forced win (positive: for the side to move) in this many moves of the side to move;
    /// negative: a forced loss in that many moves.
    Win(i32),
}

impl Score {
    pub(super) fn from_internal(score: i32) -> Score {
        if score >= WIN_BOUND {
            Score::Win((WIN - score + 1) / 2)
        } else if score <= -WIN_BOUND {
            Score::Win(-((WIN + score + 1) / 2))
        } else {
            Score::Value(score)
        }
    }
}

/// What the search reports after each iteration.
#[derive(Clone, Debug)]
pub struct Info<W: Word = u64> {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the best line.
    pub score: Score,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move<W>>,
    /// Which line this is, best first (1 unless [`Limits::multipv`] asks for more).
    pub multipv: usize,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<W: Word = u64> {
    /// The best move, `None` when the side to move has no legal move.
    pub best: Option<Move<W>>,
    /// The expected reply.
    pub ponder: Option<Move<W>>,
    /// With [`Limits::multipv`] K, the K best lines of the last finished iteration, best
    /// first (fewer when there are fewer legal moves); otherwise the one line of `info`.
    pub lines: Vec<Info<W>>,
    /// The last complete iteration's report.
    pub info: Info<W>,
}
