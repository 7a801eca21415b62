//! The search's values and the facts of a node every part of it reads: the score of a win,
//! the deepest ply, whether a position repeats, the score without moves, move orders.

use crate::position::Position;
use crate::rules::GameWord;

/// Whether a position of hash `hash` occurred before with the same side to move, `earlier`
/// holding the hashes of the positions before it, the last one just before it.
#[inline]
pub(crate) fn repeats(earlier: &[u64], hash: u64) -> bool {
    earlier.iter().rev().skip(1).step_by(2).any(|h| *h == hash)
}

/// The score of a position whose side to move has no move, `ply` plies from the root: a
/// loss, or in giveaway a win.
#[inline]
pub(crate) fn no_moves_score<W: GameWord>(pos: &Position<W>, ply: usize) -> i32 {
    if let Some(result) = pos.filled_result() {
        // Уголки: a filled house ends the game (the side to move is White).
        return match result {
            None => 0,
            Some(winner) if winner == pos.turn() => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
        };
    }
    if pos.no_moves_wins() {
        WIN - ply as i32
    } else {
        -(WIN - ply as i32)
    }
}

/// Score of a win at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Scores beyond this are wins (or losses) at a known distance: the search's own (at most
/// [`MAX_PLY`]) plus an endgame table's (at most 253 plies).
pub(crate) const WIN_BOUND: i32 = WIN - 1000;

/// Move indices with their ordering keys.
pub(crate) type Order = smallvec::SmallVec<[(i32, u8); 64]>;
