//! The move generator of уголки (the corners race): every square of the 8×8 board, square
//! (file, rank) at bit `8 × rank + file`; a piece steps to an orthogonally adjacent empty
//! square, or jumps over an orthogonally adjacent piece of either colour to the empty square
//! just behind it, and may go on jumping, turning as it likes, and stop after any jump.
//! Nothing is captured. A move is its start and its end (the position after it is the same
//! whichever chain of jumps led there), so a chain may pass a square twice: it reaches no
//! other end. The ends are found by bitboards, all chains at once.

use crate::position::mv::{Move, MoveList};
use crate::position::state::{filled, Position};
use crate::rules::kinds::{Counting, Generator, Rules};
use crate::rules::types::UgolkiGenerator;
use crate::{Color, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

/// The squares one step from `set` in each of the four directions (nothing off the board).
#[inline(always)]
fn steps(set: u64) -> [u64; 4] {
    [
        (set << 1) & !FILE_A,
        (set >> 1) & !FILE_H,
        set << 8,
        set >> 8,
    ]
}

/// Every end of a move of the piece on `from`: its steps, and the landing squares of its
/// chains of jumps (the piece's own square is empty while it moves, and no end).
#[inline]
pub(crate) fn ends(from: u32, occupied: u64) -> u64 {
    let start = 1u64 << from;
    let others = occupied & !start;
    let empty = !others;
    let mut out = 0;
    for s in steps(start) {
        out |= s & empty;
    }
    let mut reached = start;
    let mut frontier = start;
    while frontier != 0 {
        let mut next = 0;
        let over = steps(frontier);
        for (d, s) in over.into_iter().enumerate() {
            next |= steps(s & others)[d] & empty;
        }
        next &= !reached;
        reached |= next;
        frontier = next;
    }
    (out | reached) & !start
}

/// The game's end by filling, as it stands with the side to move about to move: `None`
/// while it goes on; `Some(winner)` (`Some(None)` a draw) once it is over. Only a position
/// with White to move can be over: White moves first, so Black has its reply after White
/// fills; then whoever alone has filled has won, and both filled is a draw.
#[inline]
pub(crate) fn filled_result(pos: &Position) -> Option<Option<Color>> {
    filled(
        pos.turn(),
        pos.pieces(Color::White).bits(),
        pos.pieces(Color::Black).bits(),
        crate::games::HOUSES[pos.rules().variant as usize],
    )
}

/// The pieces that move: the side to move's, or none once a side has filled (the game is
/// over: a position without moves, whose result [`filled_result`] gives).
fn own(pos: &Position) -> u64 {
    if filled_result(pos).is_some() {
        return 0;
    }
    pos.pieces(pos.turn()).bits()
}

fn each_move(pos: &Position, mut f: impl FnMut(u32, u32)) {
    let occupied = pos.occupied().bits();
    let mut pieces = own(pos);
    while pieces != 0 {
        let from = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let mut to = ends(from, occupied);
        while to != 0 {
            f(from, to.trailing_zeros());
            to &= to - 1;
        }
    }
}

fn count(pos: &Position) -> u32 {
    let occupied = pos.occupied().bits();
    let mut pieces = own(pos);
    let mut n = 0;
    while pieces != 0 {
        let from = pieces.trailing_zeros();
        pieces &= pieces - 1;
        n += ends(from, occupied).count_ones();
    }
    n
}

fn generate(pos: &Position, list: &mut MoveList) {
    each_move(pos, |from, to| {
        list.push(Move::quiet(
            Square::from_bit_unchecked(from),
            Square::from_bit_unchecked(to),
            false,
        ));
    });
}

impl Generator for UgolkiGenerator {
    type Word = u64;

    fn has_captures<R: Rules<Word = u64>>(_pos: &Position) -> bool {
        false
    }

    fn generate<R: Rules<Word = u64>>(pos: &Position, _counting: Counting, list: &mut MoveList) {
        generate(pos, list);
    }

    fn count_moves<R: Rules<Word = u64>>(pos: &Position, _counting: Counting) -> u64 {
        u64::from(count(pos))
    }

    fn for_each_child<R: Rules<Word = u64>, const HASH: bool>(
        pos: &Position,
        _counting: Counting,
        mut visit: impl FnMut(&Position),
    ) {
        each_move(pos, |from, to| {
            let mut child = *pos;
            child.apply::<HASH>(from, to, 0, false);
            visit(&child);
        });
    }

    fn for_each_quiet_move<R: Rules<Word = u64>>(
        pos: &Position,
        mut f: impl FnMut(u32, u32, bool),
    ) {
        each_move(pos, |from, to| f(from, to, false));
    }

    fn quiet_move_count<R: Rules<Word = u64>>(pos: &Position) -> u32 {
        count(pos)
    }

    fn nth_quiet_move<R: Rules<Word = u64>>(pos: &Position, index: u32) -> Option<Move> {
        let mut n = 0;
        let mut found = None;
        each_move(pos, |from, to| {
            if n == index && found.is_none() {
                found = Some(Move::quiet(
                    Square::from_bit_unchecked(from),
                    Square::from_bit_unchecked(to),
                    false,
                ));
            }
            n += 1;
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(name: &str) -> u32 {
        let b = name.as_bytes();
        u32::from(b[1] - b'1') * 8 + u32::from(b[0] - b'a')
    }

    #[test]
    fn a_corner_piece_jumps_over_its_neighbours() {
        // a1 alone: two steps. With b1 and a2 occupied: jumps to c1 and a3 instead.
        assert_eq!(ends(bit("a1"), 1 << bit("a1")).count_ones(), 2);
        let occ = 1 << bit("a1") | 1 << bit("b1") | 1 << bit("a2");
        assert_eq!(ends(bit("a1"), occ), 1 << bit("c1") | 1 << bit("a3"));
    }

    #[test]
    fn chains_turn_and_never_wrap_round_the_edge() {
        // h1 over h2 to h3, then over g3 to f3; nothing wraps from file h to file a.
        let occ = 1 << bit("h1") | 1 << bit("h2") | 1 << bit("g3") | 1 << bit("a2");
        let e = ends(bit("h1"), occ);
        assert_eq!(e, 1 << bit("g1") | 1 << bit("h3") | 1 << bit("f3"));
    }
}
