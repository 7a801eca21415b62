//! The one dispatch from a position's rules code to its rules type ([`GameWord::dispatch`],
//! one table per word), and what a position does through it: its legal moves, their count,
//! playing a move.

use crate::error::IllegalMoveError;
use crate::games::{MoveRules, CODE_FACTS, OPTIONAL_BIT};
use crate::geometry::Notation;
use crate::geometry::Word;
use crate::position::fen::write_fen;
use crate::position::mv::{Move, MoveList};
use crate::position::state::Position;
use crate::rules::kinds::{Counting, GameWord, Generator, Rules, Visit};
use crate::rules::types::{
    Brazilian, Breakthrough, Canadian, CapturesOptional, Czech, English, Frisian, International,
    Italian, Killer, Lasca, Pool, Russian, Samoedy, Spanish, Stavropol, StavropolOwnFirst, Thai,
    Turkish, Ugolki,
};

/// `visitor.visit::<R>()`, or of `CapturesOptional<R>` when the code's house-rule bit is set.
macro_rules! arm {
    ($code:expr, $visitor:expr, $R:ty) => {
        if $code & OPTIONAL_BIT != 0 {
            $visitor.visit::<CapturesOptional<$R>>()
        } else {
            $visitor.visit::<$R>()
        }
    };
}

impl GameWord for u64 {
    /// The games of the boards up to 10×10: the match is exhaustive over [`MoveRules`], so
    /// a new kind of move rules cannot be left out.
    #[inline(always)]
    fn dispatch<V: Visit<u64>>(code: u8, visitor: V) -> V::Output {
        match CODE_FACTS[usize::from(code)].moves {
            // Towers' western reading: its tops step as Russian draughts' pieces; its
            // captures are found on the columns (`crate::stacks`), not here. One arm with
            // Russian's, so that Russian's code is instantiated once.
            MoveRules::Russian | MoveRules::TowersWestern => arm!(code, visitor, Russian),
            MoveRules::Brazilian => arm!(code, visitor, Brazilian),
            MoveRules::English => arm!(code, visitor, English),
            MoveRules::Italian => arm!(code, visitor, Italian),
            MoveRules::Spanish => arm!(code, visitor, Spanish),
            MoveRules::Czech => arm!(code, visitor, Czech),
            MoveRules::Pool => arm!(code, visitor, Pool),
            MoveRules::Thai => arm!(code, visitor, Thai),
            MoveRules::International => arm!(code, visitor, International),
            MoveRules::Killer => arm!(code, visitor, Killer),
            MoveRules::Breakthrough => arm!(code, visitor, Breakthrough),
            MoveRules::Frisian => arm!(code, visitor, Frisian),
            MoveRules::Turkish => arm!(code, visitor, Turkish),
            MoveRules::Samoedy => arm!(code, visitor, Samoedy),
            MoveRules::Stavropol => arm!(code, visitor, Stavropol),
            MoveRules::StavropolOwnFirst => arm!(code, visitor, StavropolOwnFirst),
            MoveRules::Lasca => arm!(code, visitor, Lasca),
            MoveRules::Ugolki => arm!(code, visitor, Ugolki),
            // A 64-bit position never carries Canadian rules (its constructors refuse a
            // board of the other word): the arm completes the match with the same rules on
            // the 64-bit word's largest board.
            MoveRules::Canadian => arm!(code, visitor, International),
        }
    }
    #[inline(always)]
    fn narrow(pos: &Position) -> Option<&Position> {
        Some(pos)
    }
    #[inline]
    fn update_runs(pos: &mut Position, before: &Position, from: u32, to: u32, captured: u64) {
        pos.update_runs::<true>(before, from, to, captured);
    }
}

impl GameWord for u128 {
    /// The games of the 12×12 board: Canadian draughts.
    #[inline(always)]
    fn dispatch<V: Visit<u128>>(code: u8, visitor: V) -> V::Output {
        arm!(code, visitor, Canadian)
    }
    #[inline(always)]
    fn narrow(_pos: &Position<u128>) -> Option<&Position> {
        None
    }
    #[inline]
    fn update_runs(
        _pos: &mut Position<u128>,
        _before: &Position<u128>,
        _from: u32,
        _to: u32,
        _captured: u128,
    ) {
    }
}

impl<W: GameWord> Position<W> {
    /// The legal moves, one per distinct (start, end, captured set, promotion).
    pub fn legal_moves(&self) -> MoveList<W> {
        let mut list = MoveList::new();
        self.legal_moves_into(Counting::Distinct, &mut list);
        list
    }

    /// The legal moves under a counting convention: with [`Counting::Orders`], capture
    /// sequences that take the same pieces in another order are listed separately.
    pub fn legal_moves_counting(&self, counting: Counting) -> MoveList<W> {
        let mut list = MoveList::new();
        self.legal_moves_into(counting, &mut list);
        list
    }

    /// Append the legal moves under a counting convention to `list`.
    #[inline]
    pub fn legal_moves_into(&self, counting: Counting, list: &mut MoveList<W>) {
        W::dispatch(
            self.rules,
            Generate {
                pos: self,
                counting,
                list,
            },
        );
    }

    /// The move at `random % n` of the `n` legal moves (the same one `legal_moves()` lists
    /// there), None without a legal move. Without a capture on the board the moves are
    /// counted and the one picked is made directly, not listed: a random mover's step.
    pub fn legal_move_at(&self, random: u64) -> Option<Move<W>> {
        if !self.has_captures() {
            let n = self.quiet_move_count();
            return if n == 0 {
                None
            } else {
                self.nth_quiet_move((random % u64::from(n)) as u32)
            };
        }
        // Listed in place, not returned by [`Position::legal_moves`] (no list copied).
        let mut moves = MoveList::new();
        self.legal_moves_into(Counting::Distinct, &mut moves);
        if moves.is_empty() {
            None
        } else {
            Some(moves[(random % moves.len() as u64) as usize])
        }
    }

    /// Whether the side to move must capture.
    #[inline]
    pub fn has_captures(&self) -> bool {
        W::dispatch(self.rules, HasCaptures(self))
    }

    /// The number of legal moves (fast: quiet moves are counted, not listed).
    #[inline]
    pub fn count_moves(&self, counting: Counting) -> u64 {
        W::dispatch(self.rules, CountMoves(self, counting))
    }

    /// Whether `m` is legal here (compared by start, end, captured set and promotion).
    pub fn is_legal(&self, m: &Move<W>) -> bool {
        self.legal_moves().iter().any(|l| l == m)
    }

    /// Play a legal move; an illegal one is refused and the position stays as it was.
    pub fn play(&mut self, m: &Move<W>) -> Result<(), IllegalMoveError> {
        match self.legal_moves().iter().find(|l| *l == m) {
            Some(legal) => {
                let legal = *legal;
                self.play_unchecked(&legal);
                Ok(())
            }
            None => Err(IllegalMoveError {
                mv: m.long_text_on(self.geometry()),
                fen: write_fen(self, Notation::Numeric),
            }),
        }
    }

    /// Play a move known to be legal here (the fast path of perft and search).
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: &Move<W>) {
        if CODE_FACTS[usize::from(self.rules)].special_play {
            return self.play_special(m);
        }
        self.apply::<true>(m.from.bit(), m.to.bit(), m.captured.0, m.promotes);
    }

    /// [`Position::play_unchecked`] in the games that keep each side's run of quiet king
    /// moves (Frisian) or take their own pieces (Samoedy): out of the other games' way.
    #[cold]
    #[inline(never)]
    fn play_special(&mut self, m: &Move<W>) {
        let (from, to, captured) = (m.from.bit(), m.to.bit(), m.captured.0);
        let facts = CODE_FACTS[usize::from(self.rules)];
        if facts.capture_own {
            return self.apply_own::<true>(from, to, captured, m.promotes);
        }
        if facts.either_colour {
            return self.apply_either::<true>(from, to, captured, m.promotes);
        }
        let before = *self;
        self.apply::<true>(from, to, captured, m.promotes);
        W::update_runs(self, &before, from, to, captured);
    }

    /// `f(from bit, to bit, promotes)` for each quiet move of the side to move, in
    /// [`Position::legal_moves`]' order, without a list (whether they are legal beside a
    /// capture is the caller's business).
    #[inline(always)]
    pub(crate) fn for_each_quiet_move(&self, f: impl FnMut(u32, u32, bool)) {
        W::dispatch(self.rules, QuietMoves(self, f));
    }

    /// The number of quiet moves (whether they are legal beside a capture is the
    /// caller's business).
    #[inline]
    pub(crate) fn quiet_move_count(&self) -> u32 {
        W::dispatch(self.rules, QuietMoveCount(self))
    }

    /// The quiet move at `index` in [`Position::for_each_quiet_move`]'s order, without
    /// listing them.
    #[inline]
    pub(crate) fn nth_quiet_move(&self, index: u32) -> Option<Move<W>> {
        W::dispatch(self.rules, NthQuietMove(self, index))
    }
}

// The visits of the position's methods above: each calls its rules type's generator.

struct Generate<'a, W: Word> {
    pos: &'a Position<W>,
    counting: Counting,
    list: &'a mut MoveList<W>,
}

impl<W: GameWord> Visit<W> for Generate<'_, W> {
    type Output = ();
    #[inline(always)]
    fn visit<R: Rules<Word = W>>(self) {
        R::Moves::generate::<R>(self.pos, self.counting, self.list);
    }
}

struct HasCaptures<'a, W: Word>(&'a Position<W>);

impl<W: GameWord> Visit<W> for HasCaptures<'_, W> {
    type Output = bool;
    #[inline(always)]
    fn visit<R: Rules<Word = W>>(self) -> bool {
        R::Moves::has_captures::<R>(self.0)
    }
}

struct CountMoves<'a, W: Word>(&'a Position<W>, Counting);

impl<W: GameWord> Visit<W> for CountMoves<'_, W> {
    type Output = u64;
    #[inline(always)]
    fn visit<R: Rules<Word = W>>(self) -> u64 {
        R::Moves::count_moves::<R>(self.0, self.1)
    }
}

struct QuietMoves<'a, W: Word, F>(&'a Position<W>, F);

impl<W: GameWord, F: FnMut(u32, u32, bool)> Visit<W> for QuietMoves<'_, W, F> {
    type Output = ();
    #[inline(always)]
    fn visit<R: Rules<Word = W>>(self) {
        R::Moves::for_each_quiet_move::<R>(self.0, self.1);
    }
}

struct QuietMoveCount<'a, W: Word>(&'a Position<W>);

impl<W: GameWord> Visit<W> for QuietMoveCount<'_, W> {
    type Output = u32;
    #[inline(always)]
    fn visit<R: Rules<Word = W>>(self) -> u32 {
        R::Moves::quiet_move_count::<R>(self.0)
    }
}

struct NthQuietMove<'a, W: Word>(&'a Position<W>, u32);

impl<W: GameWord> Visit<W> for NthQuietMove<'_, W> {
    type Output = Option<Move<W>>;
    #[inline(always)]
    fn visit<R: Rules<Word = W>>(self) -> Option<Move<W>> {
        R::Moves::nth_quiet_move::<R>(self.0, self.1)
    }
}
