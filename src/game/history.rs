//! A position with its history: the game as the rules and the search see it.
//!
//! [`Board`] keeps every earlier position with the move played from it and the draw rules'
//! clocks ([`DrawClocks`]) of each, and the clocks of the FEN the game started from. The
//! Python `Board` wraps it, the game layer asks it whether a draw rule has ended the game,
//! and the search starts from it (the earlier positions for repetitions, the clocks for the
//! move-count rules).

use crate::error::IllegalMoveError;
use crate::game::draw::{DrawClocks, DrawContext, DrawRules};
use crate::geometry::Color;
use crate::geometry::Word;
use crate::position::mv::Move;
use crate::position::Position;
use crate::rules::GameWord;

/// One move of the history: the position it was played in, with that position's clocks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played<W: Word = u64> {
    /// The position before the move.
    pub before: Position<W>,
    /// The draw rules' clocks of `before`.
    pub clocks: DrawClocks,
    /// The move.
    pub mv: Move<W>,
}

/// What one ply did, as draw rules written outside this crate read it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlyFacts {
    /// The side that moved.
    pub mover: Color,
    /// Whether a king moved.
    pub king_moved: bool,
    /// Whether it captured.
    pub capture: bool,
    /// Whether a man was crowned.
    pub promotion: bool,
}

/// How a game stands when the rules have ended it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Decided on the board (see [`Board::decided`]): a side has no pieces or the side to
    /// move has no legal move; `winner` wins.
    NoMoves {
        /// The winner.
        winner: Color,
    },
    /// Rule `rule` of the draw rules (their [`DrawRules::rules`] order) drew the game.
    Draw {
        /// The rule's index.
        rule: usize,
    },
}

/// A position, the moves that led to it and the clocks the draw rules read (`W`: the word
/// of the board's layout, [`Word`]).
#[derive(Debug, PartialEq, Eq)]
pub struct Board<W: Word = u64> {
    pos: Position<W>,
    clocks: DrawClocks,
    stack: Vec<Played<W>>,
    /// The FEN's clocks of the first position: halfmove clock and move number.
    start_clocks: (u32, u32),
}

impl<W: Word> Clone for Board<W> {
    fn clone(&self) -> Board<W> {
        Board {
            pos: self.pos,
            clocks: self.clocks,
            stack: self.stack.clone(),
            start_clocks: self.start_clocks,
        }
    }

    /// Keeps this board's history allocation (games played again and again from one start
    /// do not grow a new one each time).
    fn clone_from(&mut self, source: &Board<W>) {
        self.pos = source.pos;
        self.clocks = source.clocks;
        self.stack.clone_from(&source.stack);
        self.start_clocks = source.start_clocks;
    }
}

impl<W: GameWord> Board<W> {
    /// A game starting at `pos` (no earlier moves known).
    pub fn new(pos: Position<W>) -> Board<W> {
        Board::with_start_clocks(pos, 0, 1)
    }

    /// A game starting at `pos`, `halfmove` plies after the last capture or man move, at
    /// move number `fullmove` (a FEN's `H` and `F`).
    pub fn with_start_clocks(pos: Position<W>, halfmove: u32, fullmove: u32) -> Board<W> {
        Board {
            pos,
            clocks: DrawClocks::start(&pos, halfmove),
            stack: Vec::new(),
            start_clocks: (halfmove, fullmove.max(1)),
        }
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position<W> {
        &self.pos
    }

    /// The draw rules' clocks of the current position.
    #[inline]
    pub fn clocks(&self) -> DrawClocks {
        self.clocks
    }

    /// The moves played, oldest first, with the positions they were played in.
    pub fn history(&self) -> &[Played<W>] {
        &self.stack
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Move<W>> + ExactSizeIterator + '_ {
        self.stack.iter().map(|p| p.mv)
    }

    /// The number of moves played.
    pub fn plies(&self) -> usize {
        self.stack.len()
    }

    /// The FEN's `(halfmove, fullmove)` clocks of the first position.
    pub fn start_clocks(&self) -> (u32, u32) {
        self.start_clocks
    }

    /// The first position.
    pub fn root(&self) -> &Position<W> {
        self.stack.first().map_or(&self.pos, |p| &p.before)
    }

    /// Plies since the last capture or man move, the FEN's count included.
    pub fn halfmove_clock(&self) -> u32 {
        self.clocks.kings_only
    }

    /// The move number: the FEN's, plus one after every move of Black.
    pub fn fullmove_number(&self) -> u32 {
        let plies = self.stack.len() as u32;
        let black_started = self.root().turn() == Color::Black;
        self.start_clocks.1 + (plies + u32::from(black_started)) / 2
    }

    /// Play a legal move.
    pub fn push(&mut self, m: &Move<W>) -> Result<(), IllegalMoveError> {
        let mut probe = self.pos;
        probe.play(m)?;
        self.push_unchecked(*m);
        Ok(())
    }

    /// Play a move known to be legal.
    pub fn push_unchecked(&mut self, m: Move<W>) {
        let mut next = self.pos;
        next.play_unchecked(&m);
        self.stack.push(Played {
            before: self.pos,
            clocks: self.clocks,
            mv: m,
        });
        self.clocks = self.clocks.after(&self.pos, &m, &next);
        self.pos = next;
    }

    /// Take back the last move.
    pub fn pop(&mut self) -> Option<Move<W>> {
        let last = self.stack.pop()?;
        self.pos = last.before;
        self.clocks = last.clocks;
        Some(last.mv)
    }

    /// The position after `ply` moves (`ply <= plies()`) and its clocks.
    pub fn at(&self, ply: usize) -> Option<(&Position<W>, DrawClocks)> {
        match self.stack.get(ply) {
            Some(p) => Some((&p.before, p.clocks)),
            None if ply == self.stack.len() => Some((&self.pos, self.clocks)),
            None => None,
        }
    }

    /// The hashes of the positions before the current one, oldest first (the search's
    /// repetition history).
    pub fn history_hashes(&self) -> Vec<u64> {
        self.stack.iter().map(|p| p.before.hash()).collect()
    }

    /// How often the position after `ply` moves had occurred by then, that time included.
    /// Only positions since the last capture or man move can recur.
    pub fn occurrences_at(&self, ply: usize) -> u32 {
        let Some((pos, clocks)) = self.at(ply) else {
            return 0;
        };
        let window = (clocks.kings_only as usize).min(ply);
        crate::game::draw::occurrences(pos, self.stack[ply - window..ply].iter().map(|p| &p.before))
    }

    /// How often the current position has occurred, this time included.
    pub fn occurrences(&self) -> u32 {
        self.occurrences_at(self.stack.len())
    }

    /// The draw rules' view of the position after `ply` moves.
    pub fn draw_context_at(&self, ply: usize) -> Option<DrawContext<'_, W>> {
        let (pos, clocks) = self.at(ply)?;
        Some(DrawContext {
            pos,
            clocks,
            occurrences: self.occurrences_at(ply),
        })
    }

    /// The draw rules' view of the current position.
    pub fn draw_context(&self) -> DrawContext<'_, W> {
        DrawContext {
            pos: &self.pos,
            clocks: self.clocks,
            occurrences: self.occurrences(),
        }
    }

    /// What a ply did (`ply < plies()`).
    pub fn ply_facts(&self, ply: usize) -> Option<PlyFacts> {
        let p = self.stack.get(ply)?;
        Some(PlyFacts {
            mover: p.before.turn(),
            // A king of either colour (Stavropol: a side may move the other colour's).
            king_moved: (p.before.kings(Color::White) | p.before.kings(Color::Black))
                .contains(p.mv.from()),
            capture: p.mv.is_capture(),
            promotion: p.mv.promotes(),
        })
    }

    /// The first position, from the one after `from` moves on, at which an automatic rule
    /// of `rules` drew the game: `(ply, rule)`.
    pub fn first_draw(&self, rules: &DrawRules, from: usize) -> Option<(usize, usize)> {
        (from..=self.stack.len()).find_map(|ply| {
            let ctx = self.draw_context_at(ply)?;
            rules.reached(&ctx, false).map(|rule| (ply, rule))
        })
    }

    /// Whether an automatic rule of `rules` has drawn the game now (as [`Board::ending`]
    /// without `claim` says, when the side to move has a move): the quick test of
    /// self-play.
    #[inline]
    pub fn is_drawn(&self, rules: &DrawRules) -> bool {
        rules.is_drawn(&self.pos, self.clocks, || self.occurrences())
    }

    /// How the game stands now under `rules`: the side to move has no move, or a rule
    /// (automatic, or with `claim` also claimable) has drawn it. Earlier positions are not
    /// looked at: [`Board::first_draw`] finds a draw the game went past.
    pub fn ending(&self, rules: &DrawRules, claim: bool) -> Option<Ending> {
        if let Some(winner) = self.decided() {
            return Some(Ending::NoMoves { winner });
        }
        rules
            .reached(&self.draw_context(), claim)
            .map(|rule| Ending::Draw { rule })
    }

    /// The winner when the game is decided on the board: the side to move has no legal
    /// move, or a side has no pieces — whoever is to move, so a position set up so
    /// (`W:Wa1:B`) is over before the side to move plays. That side loses, or in giveaway
    /// wins.
    pub fn decided(&self) -> Option<Color> {
        let turn = self.pos.turn();
        if self.pos.pieces(!turn).is_empty() && !self.pos.pieces(turn).is_empty() {
            return Some(self.pos.with_turn(!turn).winner_without_moves());
        }
        if self.pos.legal_moves().is_empty() {
            return Some(self.pos.winner_without_moves());
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::position::fen::position_from_fen;

    fn board(fen: &str, moves: &[&str]) -> Board {
        let mut b = Board::new(position_from_fen(fen).expect("fen"));
        for text in moves {
            let m = parse_move(b.position(), text).expect("move");
            b.push(&m).expect("legal");
        }
        b
    }

    #[test]
    fn push_and_pop_restore_positions_and_clocks() {
        let mut b = Board::with_start_clocks(Position::start(), 0, 1);
        let start = b.clone();
        let m = parse_move(b.position(), "c3-d4").expect("move");
        b.push(&m).expect("legal");
        assert_eq!(b.plies(), 1);
        assert_eq!(b.pop(), Some(m));
        assert_eq!(b, start);
        assert_eq!(b.pop(), None);
    }

    #[test]
    fn an_illegal_move_leaves_the_board_unchanged() {
        let mut b = Board::new(Position::start());
        let m = Move::quiet(
            crate::Square::parse("c3").expect("square"),
            crate::Square::parse("e5").expect("square"),
            false,
        );
        assert!(b.push(&m).is_err());
        assert_eq!(b, Board::new(Position::start()));
    }

    #[test]
    fn test_7_2_3_occurrences_count_the_same_position_with_the_same_side_to_move() {
        let shuffle = ["b8-a7", "h2-g1", "a7-b8", "g1-h2"];
        let mut moves = Vec::new();
        let b = board("W:WK1:BK28", &moves);
        assert_eq!(b.occurrences(), 1);
        for _ in 0..2 {
            moves.extend_from_slice(&shuffle);
        }
        let b = board("W:WK1:BK28", &moves);
        assert_eq!(b.occurrences(), 3);
        assert_eq!(b.occurrences_at(4), 2);
        assert_eq!(b.occurrences_at(2), 1);
        let rules = DrawRules::fmjd64();
        assert_eq!(rules.reached(&b.draw_context(), false), Some(0));
        assert_eq!(b.first_draw(&rules, 0), Some((8, 0)));
    }

    #[test]
    fn the_halfmove_clock_goes_on_from_the_fen() {
        let b = Board::with_start_clocks(position_from_fen("W:WK1:BK28").expect("fen"), 20, 7);
        assert_eq!(b.halfmove_clock(), 20);
        let mut b2 = b.clone();
        let m = parse_move(b2.position(), "b8-a7").expect("move");
        b2.push(&m).expect("legal");
        assert_eq!(b2.halfmove_clock(), 21);
        assert_eq!(b2.fullmove_number(), 7);
        let m = parse_move(b2.position(), "h2-g1").expect("move");
        b2.push(&m).expect("legal");
        assert_eq!(b2.fullmove_number(), 8);
    }

    #[test]
    fn the_quick_draw_test_agrees_with_the_rules() {
        let sets = [
            DrawRules::fmjd64(),
            DrawRules::forty_moves(),
            DrawRules::historical(),
            DrawRules::brazilian(),
            DrawRules::giveaway(),
        ];
        let starts = [
            "W:WKa1,Kc3,Ke1:BKh8",
            "B:WKa1,c3:BKh8,Kf8",
            "W:WKa1,Kc1:BKh8,Kg7",
            "W:WKa1:BKh8",
            "W:WKb2,Kd2:BKg7",
            "W:WKa1,e3,g3:BKh8,b6",
            "W:W21,22,23,24:B9,10,11,12",
        ];
        let mut state = 7u64;
        let (mut drawn, mut repeated) = (0, 0);
        for start in starts {
            for game in 0..20 {
                let mut b = Board::new(position_from_fen(start).expect("fen"));
                for _ in 0..300 {
                    for rules in &sets {
                        let slow = rules.reached(&b.draw_context(), false).is_some();
                        assert_eq!(b.is_drawn(rules), slow, "{start} game {game}");
                        drawn += usize::from(slow);
                        repeated += usize::from(b.occurrences() >= 3);
                    }
                    let moves = b.position().legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    state = crate::util::splitmix(state);
                    let mut m = moves[(state % moves.len() as u64) as usize];
                    // Often a king goes back where it came from: positions recur.
                    if let Some(earlier) = b.stack.len().checked_sub(2).map(|i| b.stack[i].mv) {
                        let back = moves
                            .iter()
                            .find(|n| n.from() == earlier.to() && n.to() == earlier.from());
                        if let (Some(back), true) = (back, state % 10 < 7) {
                            m = *back;
                        }
                    }
                    b.push_unchecked(m);
                }
            }
        }
        // Both kinds of draw were met (the test is not empty).
        assert!(drawn > 500 && repeated > 100, "{drawn} {repeated}");
    }

    #[test]
    fn a_side_without_pieces_has_lost_whoever_is_to_move() {
        let b = board("W:Wa1:B", &[]);
        assert_eq!(b.decided(), Some(Color::White));
        let b = board("W:Wa1:Bh8", &[]);
        assert_eq!(b.decided(), None);
        let giveaway = Board::new(
            position_from_fen("W:Wa1:B")
                .expect("fen")
                .with_rules(crate::RuleSet::new(crate::Variant::Giveaway, false)),
        );
        assert_eq!(giveaway.decided(), Some(Color::Black));
    }
}
