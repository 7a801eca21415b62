//! The move generator of Stavropol draughts (ставропольские шашки; docs/variants.md, "The
//! folk games"): Russian draughts in which the side to move moves a piece of either
//! colour. A piece moves by its own colour's rules: it steps and crowns towards its own
//! colour's far rank and takes the other colour's pieces, whoever moves it. A capture by
//! either colour is compulsory when there is one (free choice among all of them); a side
//! whose own colour has no move (no piece left, or every one blocked) has lost.
//!
//! The moves are the diagonal generator's, worked out once for the side to move and once
//! for the same position with the other side to move; a move of the other colour's piece
//! is played as that colour's (`Position::apply_either`). Written for exactness first:
//! every count goes through the move list.

use crate::position::mv::{Move, MoveList};
use crate::position::state::Position;
use crate::rules::kinds::{Counting, Generator, Rules};
use crate::rules::types::{DiagonalGenerator, StavropolGenerator};

type Diagonal = DiagonalGenerator<u64>;

/// The same pieces with the other side to move: its moves are the other colour's.
fn other_side(pos: &Position) -> Position {
    let mut other = *pos;
    other.turn = !pos.turn;
    other
}

/// Whether the side to move's own colour has no move: it has lost.
fn own_colour_stuck<R: Rules<Word = u64>>(pos: &Position) -> bool {
    !Diagonal::has_captures::<R>(pos) && Diagonal::quiet_move_count::<R>(pos) == 0
}

/// Append the legal moves: the side to move's own, then the other colour's.
fn generate<R: Rules<Word = u64>>(pos: &Position, counting: Counting, list: &mut MoveList) {
    if own_colour_stuck::<R>(pos) {
        return;
    }
    let other = other_side(pos);
    if !R::CAPTURE_IS_MANDATORY {
        Diagonal::generate::<R>(pos, counting, list);
        Diagonal::generate::<R>(&other, counting, list);
        return;
    }
    let own = Diagonal::has_captures::<R>(pos);
    let theirs = Diagonal::has_captures::<R>(&other);
    if own && theirs && R::OWN_CAPTURES_FIRST {
        // The reading with one's own captures first: the other colour's wait.
        Diagonal::generate::<R>(pos, counting, list);
    } else if own == theirs {
        // Both capture (each list holds only its captures) or neither does (quiet moves).
        Diagonal::generate::<R>(pos, counting, list);
        Diagonal::generate::<R>(&other, counting, list);
    } else if own {
        Diagonal::generate::<R>(pos, counting, list);
    } else {
        Diagonal::generate::<R>(&other, counting, list);
    }
}

impl Generator for StavropolGenerator {
    type Word = u64;

    fn has_captures<R: Rules<Word = u64>>(pos: &Position) -> bool {
        !own_colour_stuck::<R>(pos)
            && (Diagonal::has_captures::<R>(pos) || Diagonal::has_captures::<R>(&other_side(pos)))
    }

    fn generate<R: Rules<Word = u64>>(pos: &Position, counting: Counting, list: &mut MoveList) {
        generate::<R>(pos, counting, list);
    }

    fn count_moves<R: Rules<Word = u64>>(pos: &Position, counting: Counting) -> u64 {
        let mut list = MoveList::new();
        generate::<R>(pos, counting, &mut list);
        list.len() as u64
    }

    fn for_each_child<R: Rules<Word = u64>, const HASH: bool>(
        pos: &Position,
        counting: Counting,
        visit: impl FnMut(&Position),
    ) {
        let mut list = MoveList::new();
        generate::<R>(pos, counting, &mut list);
        let play = |child: &mut Position, m: &Move| {
            child.apply_either::<HASH>(m.from.bit(), m.to.bit(), m.captured.0, m.promotes);
        };
        crate::movegen::visit_listed(pos, &list, play, visit);
    }

    fn for_each_quiet_move<R: Rules<Word = u64>>(
        pos: &Position,
        mut f: impl FnMut(u32, u32, bool),
    ) {
        if own_colour_stuck::<R>(pos) {
            return;
        }
        Diagonal::for_each_quiet_move::<R>(pos, &mut f);
        Diagonal::for_each_quiet_move::<R>(&other_side(pos), &mut f);
    }

    fn quiet_move_count<R: Rules<Word = u64>>(pos: &Position) -> u32 {
        if own_colour_stuck::<R>(pos) {
            return 0;
        }
        Diagonal::quiet_move_count::<R>(pos) + Diagonal::quiet_move_count::<R>(&other_side(pos))
    }

    fn nth_quiet_move<R: Rules<Word = u64>>(pos: &Position, index: u32) -> Option<Move> {
        if own_colour_stuck::<R>(pos) {
            return None;
        }
        let own = Diagonal::quiet_move_count::<R>(pos);
        if index < own {
            Diagonal::nth_quiet_move::<R>(pos, index)
        } else {
            Diagonal::nth_quiet_move::<R>(&other_side(pos), index - own)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{RuleSet, Variant};
    use crate::geometry::Square;

    #[test]
    fn the_start_lists_both_colours_quiet_moves() {
        let pos = Position::start_of(RuleSet::new(Variant::Stavropol, false));
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 14); // seven of White's men, seven of Black's
        let black_man = Square::parse("b6").expect("b6");
        let black_move = moves
            .iter()
            .find(|m| m.from == black_man)
            .expect("a black man");
        let mut after = pos;
        after.play_unchecked(black_move);
        assert_eq!(after.turn(), crate::Color::Black); // the turn passed as usual
        assert_eq!(after.hash(), after.compute_hash());
        assert!(after.pieces(crate::Color::Black).contains(black_move.to));
    }
}
