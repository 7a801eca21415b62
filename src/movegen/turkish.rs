//! The move generator of Turkish draughts (dama; docs/variants.md, "Turkish draughts"):
//! every square of the 8×8 board is played, and pieces move along ranks and files only.
//!
//! The board is [`Geometry::EIGHT_EVERY_SQUARE`]: square (file, rank) at bit
//! `8 × rank + file`. A man steps one square forward or sideways and captures the same
//! ways, jumping an adjacent piece to the empty square behind it. A king moves like a rook
//! and captures from any distance, landing on any empty square behind its victim. Each
//! piece taken leaves the board as it is jumped (its square may be crossed again in the
//! same move); a capture may not turn back the way it came (no 180° turn between two
//! jumps); the capture taking the most pieces is compulsory, kings and men counting one
//! each, with free choice among equals. A man reaching the far rank is crowned and its
//! move ends there, even in the middle of a capture.
//!
//! The rules reach this module through their generator, [`TurkishGenerator`]
//! ([`Rules::Moves`]), chosen at compile time.

use crate::geometry::{Color, Square};
use crate::movegen::capture_list::CaptureList;
use crate::position::mv::{Move, MoveList, MAX_PATH};
use crate::position::state::Position;
use crate::rules::kinds::{Counting, Generator, Rules};
use crate::rules::types::TurkishGenerator;

/// No square in that direction.
const NONE: u8 = 0xFF;

/// The four lines as (file, rank) steps: left, right, down, up.
const STEPS: [(i8, i8); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The line back the way a line came.
const OPPOSITE: [usize; 4] = [1, 0, 3, 2];

/// `NEXT[bit][line]`: the neighbouring square along a line, or [`NONE`] at the edge.
static NEXT: [[u8; 4]; 64] = {
    let mut table = [[NONE; 4]; 64];
    let mut bit = 0usize;
    while bit < 64 {
        let (file, rank) = ((bit % 8) as i8, (bit / 8) as i8);
        let mut line = 0;
        while line < 4 {
            let (f, r) = (file + STEPS[line].0, rank + STEPS[line].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[bit][line] = (8 * r + f) as u8;
            }
            line += 1;
        }
        bit += 1;
    }
    table
};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares one step along `line` from the squares of `bb` (those that have one).
#[inline(always)]
fn step_line(bb: u64, line: usize) -> u64 {
    match line {
        0 => (bb & !FILE_A) >> 1,
        1 => (bb & !FILE_H) << 1,
        2 => bb >> 8,
        _ => bb << 8,
    }
}

#[inline(always)]
fn next(bit: u32, line: usize) -> Option<u32> {
    let n = NEXT[bit as usize & 63][line];
    (n != NONE).then_some(u32::from(n))
}

/// Along `line` from `bit`: the number of `empty` squares before the first one that is
/// not, and that square (`None` at the edge).
#[inline]
fn run(bit: u32, line: usize, empty: u64) -> (u32, Option<u32>) {
    let mut n = 0;
    let mut t = next(bit, line);
    while let Some(s) = t {
        if empty & (1u64 << s) == 0 {
            break;
        }
        n += 1;
        t = next(s, line);
    }
    (n, t)
}

/// The lines a man of `turn` moves and captures along: sideways, then forward.
#[inline]
fn man_lines(turn: Color) -> [usize; 3] {
    match turn {
        Color::White => [0, 1, 3],
        Color::Black => [0, 1, 2],
    }
}

/// The far rank of `turn`'s men.
#[inline]
fn crowning(turn: Color) -> u64 {
    match turn {
        Color::White => 0xFF << 56,
        Color::Black => 0xFF,
    }
}

/// The depth-first search of one piece's capture sequences.
struct Search<'a, 'b> {
    /// Occupied squares: the mover's start square empty, the pieces taken so far gone.
    occ: u64,
    /// The pieces that may still be taken.
    them: u64,
    turn: Color,
    crowning: u64,
    from: u32,
    by_king: bool,
    path: [Square; MAX_PATH],
    len: usize,
    /// The victims in the order taken, six bits each (the second perft convention's key).
    order: u128,
    out: &'a mut CaptureList<'b>,
}

impl Search<'_, '_> {
    #[inline(always)]
    fn empty(&self, bit: u32) -> bool {
        self.occ & (1u64 << bit) == 0
    }

    /// Jump `victim` to `landing`: the victim leaves the board at once.
    fn take(&mut self, landing: u32, victim: u32) {
        if self.len < MAX_PATH {
            self.path[self.len] = Square::from_bit_unchecked(landing);
        }
        self.len += 1;
        self.order = (self.order << 6) | u128::from(victim);
        self.occ &= !(1u64 << victim);
        self.them &= !(1u64 << victim);
    }

    fn untake(&mut self, victim: u32) {
        self.len -= 1;
        self.order >>= 6;
        self.occ |= 1u64 << victim;
        self.them |= 1u64 << victim;
    }

    fn emit(&mut self, to: u32, captured: u64) {
        let promotes = !self.by_king && self.crowning & (1u64 << to) != 0;
        let len = self.len.min(MAX_PATH);
        self.out.offer(
            captured.count_ones(),
            Square::from_bit_unchecked(self.from),
            &self.path[..len],
            captured,
            promotes,
            self.order,
        );
    }

    /// A man on `bit` having taken `captured`, its last jump along `came` (none yet:
    /// `None`): jump on, or end the move here. A man reaching the far rank is crowned and
    /// stops.
    fn man(&mut self, bit: u32, captured: u64, came: Option<usize>) {
        let mut continued = false;
        for line in man_lines(self.turn) {
            if came.is_some_and(|c| OPPOSITE[c] == line) {
                continue;
            }
            let Some(victim) = next(bit, line) else {
                continue;
            };
            if self.them & (1u64 << victim) == 0 {
                continue;
            }
            let Some(landing) = next(victim, line) else {
                continue;
            };
            if !self.empty(landing) {
                continue;
            }
            continued = true;
            let taken = captured | (1u64 << victim);
            self.take(landing, victim);
            if self.crowning & (1u64 << landing) != 0 {
                self.emit(landing, taken);
            } else {
                self.man(landing, taken, Some(line));
            }
            self.untake(victim);
        }
        if !continued && captured != 0 {
            self.emit(bit, captured);
        }
    }

    /// The piece a king on `bit` would take along `line`, if any.
    #[inline]
    fn king_victim(&self, bit: u32, line: usize) -> Option<u32> {
        let mut t = next(bit, line)?;
        while self.empty(t) {
            t = next(t, line)?;
        }
        if self.them & (1u64 << t) == 0 {
            return None;
        }
        let behind = next(t, line)?;
        self.empty(behind).then_some(t)
    }

    /// A king on `bit` having taken `captured`, its last jump along `came`: jump on from
    /// any square behind a victim, or end the move here.
    fn king(&mut self, bit: u32, captured: u64, came: Option<usize>) {
        let mut continued = false;
        for line in 0..4 {
            if came.is_some_and(|c| OPPOSITE[c] == line) {
                continue;
            }
            let Some(victim) = self.king_victim(bit, line) else {
                continue;
            };
            continued = true;
            let taken = captured | (1u64 << victim);
            self.take(victim, victim);
            let mut landing = next(victim, line);
            while let Some(square) = landing {
                if !self.empty(square) {
                    break;
                }
                if self.len <= MAX_PATH {
                    self.path[self.len - 1] = Square::from_bit_unchecked(square);
                }
                self.king(square, taken, Some(line));
                landing = next(square, line);
            }
            self.untake(victim);
        }
        if !continued && captured != 0 {
            self.emit(bit, captured);
        }
    }
}

/// The captures the rules allow (the most pieces), appended to `list`; whether there were
/// any.
fn generate_captures(pos: &Position, counting: Counting, list: &mut MoveList) -> bool {
    let turn = pos.turn();
    let us = pos.pieces(turn).0;
    let them = pos.pieces(!turn).0;
    let kings = pos.kings.0;
    let mut out = CaptureList::new(list, counting);
    // Only the men with a first jump (found by shifts: back along each of their lines
    // from an empty square over an enemy) and the kings are searched.
    let empty = !(us | them);
    let men = us & !kings;
    let mut jumpers = 0u64;
    for line in man_lines(turn) {
        let back = line ^ 1;
        jumpers |= step_line(step_line(empty, back) & them, back) & men;
    }
    let mut pieces = jumpers | (us & kings);
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let by_king = kings & (1u64 << bit) != 0;
        let mut search = Search {
            occ: (us | them) & !(1u64 << bit),
            them,
            turn,
            crowning: crowning(turn),
            from: bit,
            by_king,
            path: [Square::from_bit_unchecked(bit); MAX_PATH],
            len: 0,
            order: 0,
            out: &mut out,
        };
        if by_king {
            search.king(bit, 0, None);
        } else {
            search.man(bit, 0, None);
        }
    }
    out.any()
}

/// Whether the side to move has a capture: the men's jumps by shifts, each king's lines
/// walked.
pub(crate) fn has_captures(pos: &Position) -> bool {
    let turn = pos.turn();
    let us = pos.pieces(turn).0;
    let them = pos.pieces(!turn).0;
    let empty = !(us | them);
    let men = us & !pos.kings.0;
    for line in man_lines(turn) {
        if step_line(step_line(men, line) & them, line) & empty != 0 {
            return true;
        }
    }
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let bit = kings.trailing_zeros();
        kings &= kings - 1;
        for line in 0..4 {
            let Some(victim) = run(bit, line, empty).1 else {
                continue;
            };
            if them & (1u64 << victim) == 0 {
                continue;
            }
            if next(victim, line).is_some_and(|l| empty & (1u64 << l) != 0) {
                return true;
            }
        }
    }
    false
}

/// The quiet moves of the side to move: men one square forward or sideways, kings any
/// distance along a rank or file.
pub(crate) fn generate_quiet(pos: &Position, list: &mut MoveList) {
    let turn = pos.turn();
    let us = pos.pieces(turn).0;
    let occ = pos.occupied().0;
    let crowning = crowning(turn);
    let mut pieces = us;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let from = Square::from_bit_unchecked(bit);
        if pos.kings.0 & (1u64 << bit) == 0 {
            for line in man_lines(turn) {
                if let Some(to) = next(bit, line) {
                    if occ & (1u64 << to) == 0 {
                        let promotes = crowning & (1u64 << to) != 0;
                        list.push(Move::quiet(from, Square::from_bit_unchecked(to), promotes));
                    }
                }
            }
        } else {
            for line in 0..4 {
                let mut t = next(bit, line);
                while let Some(to) = t {
                    if occ & (1u64 << to) != 0 {
                        break;
                    }
                    list.push(Move::quiet(from, Square::from_bit_unchecked(to), false));
                    t = next(to, line);
                }
            }
        }
    }
}

/// The number of quiet moves of the side to move, by popcounts.
pub(crate) fn count_quiet(pos: &Position) -> u32 {
    let turn = pos.turn();
    let us = pos.pieces(turn).0;
    let empty = !pos.occupied().0;
    let men = us & !pos.kings.0;
    let mut n = 0;
    for line in man_lines(turn) {
        n += (step_line(men, line) & empty).count_ones();
    }
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let bit = kings.trailing_zeros();
        kings &= kings - 1;
        for line in 0..4 {
            n += run(bit, line, empty).0;
        }
    }
    n
}

/// The quiet steps of `men` of `color` into `empty` squares (forward and sideways), and
/// those of the men whose square ahead is empty.
pub(crate) fn man_steps(men: u64, color: Color, empty: u64) -> (u32, u64) {
    let lines = man_lines(color);
    let mut steps = 0;
    for line in lines {
        steps += (step_line(men, line) & empty).count_ones();
    }
    let ahead = step_line(men, lines[2]) & empty;
    let back = OPPOSITE[lines[2]];
    (steps, step_line(ahead, back))
}

/// The legal moves of the side to move, appended to `list`.
pub(crate) fn generate<R: Rules>(pos: &Position, counting: Counting, list: &mut MoveList) {
    let captures = has_captures(pos) && generate_captures(pos, counting, list);
    if !captures || !R::CAPTURE_IS_MANDATORY {
        generate_quiet(pos, list);
    }
}

/// The number of legal moves; without a capture on the board, counted by popcounts.
pub(crate) fn count_moves<R: Rules>(pos: &Position, counting: Counting) -> u64 {
    if R::CAPTURE_IS_MANDATORY && !has_captures(pos) {
        return u64::from(count_quiet(pos));
    }
    let mut list = MoveList::new();
    generate::<R>(pos, counting, &mut list);
    list.len() as u64
}

/// Call `visit` with the position after each legal move.
pub(crate) fn for_each_child<R: Rules, const HASH: bool>(
    pos: &Position,
    counting: Counting,
    visit: impl FnMut(&Position),
) {
    let mut list = MoveList::new();
    generate::<R>(pos, counting, &mut list);
    let play = |child: &mut Position, m: &Move| {
        child.apply::<HASH>(m.from.bit(), m.to.bit(), m.captured.0, m.promotes);
    };
    crate::movegen::visit_listed(pos, &list, play, visit);
}

impl Generator for TurkishGenerator {
    type Word = u64;

    fn has_captures<R: Rules<Word = u64>>(pos: &Position) -> bool {
        has_captures(pos)
    }

    fn generate<R: Rules<Word = u64>>(pos: &Position, counting: Counting, list: &mut MoveList) {
        generate::<R>(pos, counting, list);
    }

    fn count_moves<R: Rules<Word = u64>>(pos: &Position, counting: Counting) -> u64 {
        count_moves::<R>(pos, counting)
    }

    fn for_each_child<R: Rules<Word = u64>, const HASH: bool>(
        pos: &Position,
        counting: Counting,
        visit: impl FnMut(&Position),
    ) {
        for_each_child::<R, HASH>(pos, counting, visit);
    }

    fn for_each_quiet_move<R: Rules<Word = u64>>(
        pos: &Position,
        mut f: impl FnMut(u32, u32, bool),
    ) {
        let mut list = MoveList::new();
        generate_quiet(pos, &mut list);
        for m in &list {
            f(m.from.bit(), m.to.bit(), m.promotes);
        }
    }

    fn quiet_move_count<R: Rules<Word = u64>>(pos: &Position) -> u32 {
        count_quiet(pos)
    }

    fn nth_quiet_move<R: Rules<Word = u64>>(pos: &Position, index: u32) -> Option<Move> {
        let mut list = MoveList::new();
        generate_quiet(pos, &mut list);
        list.get(index as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_follow_the_board() {
        for bit in 0..64u32 {
            for (line, &back) in OPPOSITE.iter().enumerate() {
                let stepped = step_line(1u64 << bit, line);
                match next(bit, line) {
                    Some(n) => {
                        assert_eq!(stepped, 1u64 << n, "bit {bit} line {line}");
                        assert_eq!(next(n, back), Some(bit));
                    }
                    None => assert_eq!(stepped, 0, "bit {bit} line {line}"),
                }
            }
        }
        // h1 has no right neighbour: a rank never wraps to the next.
        assert_eq!(next(7, 1), None);
        assert_eq!(next(8, 0), None);
    }
}
