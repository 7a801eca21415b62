//! The move generator of the games that capture along ranks and files as well as along the
//! diagonals: Frisian draughts and frysk (docs/variants.md, "Frisian draughts").
//!
//! A man captures in eight directions: over a neighbour on a diagonal, or over the next
//! square of its colour along its rank or file (two files or two ranks away), landing just
//! behind. A king captures along the same eight lines from any distance and lands on any
//! empty square behind its victim. Quiet moves stay diagonal (men one square forward,
//! kings any distance). Among the captures, those taking the most value are legal (a king
//! is worth less than two men and more than one: `2 − ε`); among equal values, a king's
//! capture goes first. A king may make at most [`Rules::KING_QUIET_MOVES`] quiet moves in a
//! row while its side has men: the position keeps each side's run ([`Position::king_runs`]).
//!
//! The rules reach this module through their generator, [`FrisianGenerator`]
//! ([`Rules::Moves`]), chosen at compile time: the diagonal games' code knows nothing of
//! it. Written for exactness first: captures go through a move list.

use crate::geometry::Color;
use crate::geometry::{Geometry, Square, Word};
use crate::movegen::capture_list::CaptureList;
use crate::position::mv::{Move, MoveList, MAX_PATH};
use crate::position::runs::run_of;
use crate::position::state::Position;
use crate::rules::kinds::{CapturePriority, Counting, Generator, Rules};
use crate::rules::types::FrisianGenerator;

/// No square in that direction.
const NONE: u8 = 0xFF;

/// The eight lines as (file, rank) steps: the four diagonals (up-left, up-right, down-left,
/// down-right), then the rank (left, right) and the file (down, up), whose next square of
/// the same colour is two files or two ranks away.
const STEPS: [(i8, i8); 8] = [
    (-1, 1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-2, 0),
    (2, 0),
    (0, -2),
    (0, 2),
];

/// `NEXT[bit][line]`: the next dark square of the 10×10 board along a line, or [`NONE`].
static NEXT: [[u8; 8]; 64] = {
    let mut table = [[NONE; 8]; 64];
    let mut bit = 0u32;
    while bit < 64 {
        if let Some(sq) = Square::from_bit(bit) {
            let mut line = 0;
            while line < 8 {
                let file = sq.file() as i8 + STEPS[line].0;
                let rank = sq.rank() as i8 + STEPS[line].1;
                if file >= 0 && rank >= 0 {
                    if let Some(next) = Square::from_coords(file as u8, rank as u8) {
                        table[bit as usize][line] = next.bit() as u8;
                    }
                }
                line += 1;
            }
        }
        bit += 1;
    }
    table
};

/// Each line's step as a shift of the layout's bits (a diagonal step is 5 or 6 bits, a
/// step of two files along a rank 1, of two ranks along a file 11).
const OFFSETS: [i32; 8] = [5, 6, -6, -5, -1, 1, -11, 11];

/// `HAS_NEXT[line]`: the squares that have a next square along `line`.
static HAS_NEXT: [u64; 8] = {
    let mut masks = [0u64; 8];
    let mut bit = 0;
    while bit < 64 {
        let mut line = 0;
        while line < 8 {
            if NEXT[bit][line] != NONE {
                masks[line] |= 1u64 << bit;
            }
            line += 1;
        }
        bit += 1;
    }
    masks
};

/// The squares one step along `line` from the squares of `bb` (those that have one).
#[inline(always)]
fn step_line(bb: u64, line: usize) -> u64 {
    let bb = bb & HAS_NEXT[line];
    let offset = OFFSETS[line];
    if offset > 0 {
        bb << offset
    } else {
        bb >> -offset
    }
}

#[inline(always)]
fn next(bit: u32, line: usize) -> Option<u32> {
    let n = NEXT[bit as usize & 63][line];
    (n != NONE).then_some(u32::from(n))
}

/// The king of the side to move that may not make a quiet move now, as a bit mask (0 for
/// none): its run has reached the rules' limit and its side still has men.
#[inline]
fn blocked_king<R: Rules>(pos: &Position) -> u64 {
    if R::KING_QUIET_MOVES == 0 {
        return 0;
    }
    let (count, square) = run_of(pos.king_runs[pos.turn().index()]);
    if count >= R::KING_QUIET_MOVES && !pos.men(pos.turn()).is_empty() {
        1u64 << square
    } else {
        0
    }
}

/// The capture priority's key of a capture (higher is preferred; equal keys are free to
/// choose between).
#[inline]
fn priority_key<R: Rules>(men: u32, kings: u32, by_king: bool) -> u32 {
    match R::PRIORITY {
        // Frisian: a king is worth 2 − ε men (less than two men, more than one), ε small
        // enough that it only ever decides between equal counts; then a king's capture.
        CapturePriority::Value => (((2 * kings + men) * 64 - kings) << 1) | u32::from(by_king),
        CapturePriority::Majority | CapturePriority::PiecesThenKings => {
            ((men + kings) << 6) | kings
        }
        _ => 0,
    }
}

/// The depth-first search of one piece's capture sequences.
struct Search<'a, 'b, R: Rules> {
    /// Occupied squares: the mover's start square empty, pieces taken still standing.
    occ: u64,
    /// The pieces that may be taken.
    them: u64,
    /// The enemy kings (for the value of a capture).
    their_kings: u64,
    crowning: u64,
    from: u32,
    by_king: bool,
    path: [Square; MAX_PATH],
    len: usize,
    /// The victims in the order taken, six bits each (the second perft convention's key).
    order: u128,
    out: &'a mut CaptureList<'b>,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Search<'_, '_, R> {
    #[inline(always)]
    fn empty(&self, bit: u32) -> bool {
        self.occ & (1u64 << bit) == 0
    }

    fn push(&mut self, landing: u32, victim: u32) {
        if self.len < MAX_PATH {
            self.path[self.len] = Square::from_bit_unchecked(landing);
        }
        self.len += 1;
        self.order = (self.order << 6) | u128::from(victim);
    }

    fn pop(&mut self) {
        self.len -= 1;
        self.order >>= 6;
    }

    fn emit(&mut self, to: u32, captured: u64) {
        let promotes = !self.by_king && self.crowning & (1u64 << to) != 0;
        let kings = (captured & self.their_kings).count_ones();
        let men = captured.count_ones() - kings;
        let key = priority_key::<R>(men, kings, self.by_king);
        let len = self.len.min(MAX_PATH);
        self.out.offer(
            key,
            Square::from_bit_unchecked(self.from),
            &self.path[..len],
            captured,
            promotes,
            self.order,
        );
    }

    /// A man on `bit` having taken `captured`: jump on in any of the eight directions, or
    /// end the move here.
    fn man(&mut self, bit: u32, captured: u64) {
        let mut continued = false;
        for line in 0..8 {
            let Some(victim) = next(bit, line) else {
                continue;
            };
            if self.them & !captured & (1u64 << victim) == 0 {
                continue;
            }
            let Some(landing) = next(victim, line) else {
                continue;
            };
            if !self.empty(landing) {
                continue;
            }
            continued = true;
            self.push(landing, victim);
            self.man(landing, captured | (1u64 << victim));
            self.pop();
        }
        if !continued && captured != 0 {
            self.emit(bit, captured);
        }
    }

    /// The piece a king on `bit` would take along `line`, and the first square behind it.
    #[inline]
    fn king_victim(&self, bit: u32, line: usize, captured: u64) -> Option<(u32, u32)> {
        let mut t = next(bit, line)?;
        while self.empty(t) {
            t = next(t, line)?;
        }
        if self.them & !captured & (1u64 << t) == 0 {
            return None;
        }
        let behind = next(t, line)?;
        self.empty(behind).then_some((t, behind))
    }

    fn king_can_capture(&self, bit: u32, captured: u64) -> bool {
        (0..8).any(|line| self.king_victim(bit, line, captured).is_some())
    }

    /// A king on `bit` having taken `captured` (known to have a capture here unless
    /// `captured` is empty).
    fn king(&mut self, bit: u32, captured: u64) {
        for line in 0..8 {
            let Some((victim, first)) = self.king_victim(bit, line, captured) else {
                continue;
            };
            let taken = captured | (1u64 << victim);
            let mut landings = [0u32; 9];
            let mut n = 0;
            let mut l = Some(first);
            while let Some(square) = l {
                if !self.empty(square) {
                    break;
                }
                landings[n] = square;
                n += 1;
                l = next(square, line);
            }
            let mut goes_on = [false; 9];
            let mut any = false;
            for i in 0..n {
                goes_on[i] = self.king_can_capture(landings[i], taken);
                any |= goes_on[i];
            }
            // Where the capture can go on from some landing square, the king must land
            // on one of those; otherwise it may stop on any square behind its victim.
            for i in 0..n {
                if any && !goes_on[i] {
                    continue;
                }
                self.push(landings[i], victim);
                if any {
                    self.king(landings[i], taken);
                } else {
                    self.emit(landings[i], taken);
                }
                self.pop();
            }
        }
    }
}

/// The board of these games.
#[inline(always)]
fn board<R: Rules>() -> u64 {
    R::GEOMETRY.board().0
}

/// The captures the rules allow, appended to `list`; whether there were any.
fn generate_captures<R: Rules>(pos: &Position, counting: Counting, list: &mut MoveList) -> bool {
    let turn = pos.turn();
    let us = pos.pieces(turn).0;
    let them = pos.pieces(!turn).0;
    let kings = pos.kings.0 & board::<R>();
    let crowning = crowning::<R>(turn);
    let mut out = CaptureList::new(list, counting);
    // Only the men with a first jump (found by shifts) and the kings are searched.
    let empty = board::<R>() & !(us | them);
    let men = us & !kings;
    // A man jumps along a line where stepping back along it from an empty square meets an
    // enemy and then the man: every line is some line's way back.
    let mut jumpers = 0u64;
    for back in 0..8 {
        jumpers |= step_line(step_line(empty, back) & them, back) & men;
    }
    let mut pieces = jumpers | (us & kings);
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let by_king = kings & (1u64 << bit) != 0;
        let mut search = Search::<R> {
            occ: (us | them) & !(1u64 << bit),
            them,
            their_kings: them & kings,
            crowning,
            from: bit,
            by_king,
            path: [Square::from_bit_unchecked(bit); MAX_PATH],
            len: 0,
            order: 0,
            out: &mut out,
            rules: std::marker::PhantomData,
        };
        if by_king {
            search.king(bit, 0);
        } else {
            search.man(bit, 0);
        }
    }
    out.any()
}

/// The far rank of `turn`'s men.
#[inline]
fn crowning<R: Rules>(turn: Color) -> u64 {
    let geometry: &Geometry = R::GEOMETRY;
    match turn {
        Color::White => geometry.rank(geometry.size() - 1).0,
        Color::Black => geometry.rank(0).0,
    }
}

/// Whether the side to move has a capture: the men's jumps in the eight directions by
/// shifts, each king's lines walked.
pub(crate) fn has_captures<R: Rules>(pos: &Position) -> bool {
    let turn = pos.turn();
    let us = pos.pieces(turn).0;
    let them = pos.pieces(!turn).0;
    let occ = us | them;
    let empty = board::<R>() & !occ;
    let kings = pos.kings.0 & board::<R>();
    let men = us & !kings;
    for line in 0..8 {
        if step_line(step_line(men, line) & them, line) & empty != 0 {
            return true;
        }
    }
    let mut pieces = us & kings;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let occ = occ & !(1u64 << bit);
        for line in 0..8 {
            let mut t = next(bit, line);
            while let Some(s) = t {
                if occ & (1u64 << s) != 0 {
                    break;
                }
                t = next(s, line);
            }
            let Some(victim) = t else { continue };
            if them & (1u64 << victim) == 0 {
                continue;
            }
            if let Some(landing) = next(victim, line) {
                if occ & (1u64 << landing) == 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// Call `f(from, to, promotes)` (internal bits) for each quiet move of the side to move:
/// men one square diagonally forward, kings any distance along a diagonal, but for a king
/// whose run has reached the limit.
#[inline(always)]
fn for_each_quiet<R: Rules>(pos: &Position, mut f: impl FnMut(u32, u32, bool)) {
    let turn = pos.turn();
    let us = pos.pieces(turn).0;
    let occ = pos.occupied().0;
    let kings = pos.kings.0 & board::<R>();
    let blocked = blocked_king::<R>(pos);
    let crowning = crowning::<R>(turn);
    let forward: [usize; 2] = match turn {
        Color::White => [0, 1],
        Color::Black => [2, 3],
    };
    let mut pieces = us;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        if kings & (1u64 << bit) == 0 {
            for line in forward {
                if let Some(to) = next(bit, line) {
                    if occ & (1u64 << to) == 0 {
                        f(bit, to, crowning & (1u64 << to) != 0);
                    }
                }
            }
        } else if blocked & (1u64 << bit) == 0 {
            for line in 0..4 {
                let mut t = next(bit, line);
                while let Some(to) = t {
                    if occ & (1u64 << to) != 0 {
                        break;
                    }
                    f(bit, to, false);
                    t = next(to, line);
                }
            }
        }
    }
}

/// The quiet moves of the side to move ([`for_each_quiet`]), appended to `list`.
pub(crate) fn generate_quiet<R: Rules>(pos: &Position, list: &mut MoveList) {
    for_each_quiet::<R>(pos, |from, to, promotes| {
        list.push(Move::quiet(
            Square::from_bit_unchecked(from),
            Square::from_bit_unchecked(to),
            promotes,
        ));
    });
}

/// The legal moves of the side to move, appended to `list`.
pub(crate) fn generate<R: Rules>(pos: &Position, counting: Counting, list: &mut MoveList) {
    let captures = has_captures::<R>(pos) && generate_captures::<R>(pos, counting, list);
    if !captures || !R::CAPTURE_IS_MANDATORY {
        generate_quiet::<R>(pos, list);
    }
}

/// The number of legal moves. Without a capture on the board the quiet moves are counted
/// with popcounts (the diagonal games' count, less the king whose run is at its limit), not
/// listed: perft's last ply.
pub(crate) fn count_moves<R: Rules>(pos: &Position, counting: Counting) -> u64 {
    if R::CAPTURE_IS_MANDATORY && !has_captures::<R>(pos) {
        let us = pos.pieces(pos.turn()).0;
        let kings = pos.kings.0 & board::<R>();
        let blocked = blocked_king::<R>(pos);
        // (The Frisian games' word is the 64-bit one: the conversions compile to nothing.)
        let word = |bits: u64| R::Word::from_wide(u128::from(bits));
        return u64::from(crate::movegen::diagonal::count_quiet::<R>(
            pos.turn(),
            word(us & !kings),
            word(us & kings & !blocked),
            word(pos.occupied().0),
        ));
    }
    let mut list = MoveList::new();
    generate::<R>(pos, counting, &mut list);
    list.len() as u64
}

/// Call `visit` with the position after each legal move (the runs kept up to date).
pub(crate) fn for_each_child<R: Rules, const HASH: bool>(
    pos: &Position,
    counting: Counting,
    mut visit: impl FnMut(&Position),
) {
    let mut play = |from: u32, to: u32, captured: u64, promotes: bool| {
        let mut child = *pos;
        child.apply::<HASH>(from, to, captured, promotes);
        child.update_runs::<HASH>(pos, from, to, captured);
        visit(&child);
    };
    // Captures through the move list (their priority), quiet moves as they are found.
    let mut list = MoveList::new();
    let captures = has_captures::<R>(pos) && generate_captures::<R>(pos, counting, &mut list);
    for m in &list {
        play(m.from.bit(), m.to.bit(), m.captured.0, m.promotes);
    }
    if !captures || !R::CAPTURE_IS_MANDATORY {
        for_each_quiet::<R>(pos, |from, to, promotes| play(from, to, 0, promotes));
    }
}

impl Generator for FrisianGenerator {
    type Word = u64;

    fn has_captures<R: Rules<Word = u64>>(pos: &Position) -> bool {
        has_captures::<R>(pos)
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

    fn for_each_quiet_move<R: Rules<Word = u64>>(pos: &Position, f: impl FnMut(u32, u32, bool)) {
        for_each_quiet::<R>(pos, f);
    }

    fn quiet_move_count<R: Rules<Word = u64>>(pos: &Position) -> u32 {
        let mut n = 0;
        for_each_quiet::<R>(pos, |_, _, _| n += 1);
        n
    }

    fn nth_quiet_move<R: Rules<Word = u64>>(pos: &Position, index: u32) -> Option<Move> {
        let mut list = MoveList::new();
        generate_quiet::<R>(pos, &mut list);
        list.get(index as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::runs::run;

    #[test]
    fn the_lines_follow_the_board() {
        // a1's neighbours: b2 up-right, c1 along the rank, a3 up the file; nothing else.
        let a1 = Square::from_coords(0, 0).expect("a1").bit();
        let name = |bit: u8| Square::from_bit(u32::from(bit)).map(|s| s.name());
        let lines: Vec<Option<String>> = NEXT[a1 as usize].iter().map(|&b| name(b)).collect();
        assert_eq!(
            lines,
            [
                None,
                Some("b2".into()),
                None,
                None,
                None,
                Some("c1".into()),
                None,
                Some("a3".into())
            ]
        );
        // Along a rank the line never wraps to the next rank: j2 has no right neighbour.
        let j2 = Square::from_coords(9, 1).expect("j2").bit();
        assert_eq!(NEXT[j2 as usize][5], NONE);
        assert_eq!(name(NEXT[j2 as usize][4]), Some("h2".into()));
        // Every line runs both ways: the next square's previous one is the square itself.
        const OPPOSITE: [usize; 8] = [3, 2, 1, 0, 5, 4, 7, 6];
        for bit in 0..64u32 {
            for (line, &back) in OPPOSITE.iter().enumerate() {
                if let Some(n) = next(bit, line) {
                    assert_eq!(next(n, back), Some(bit));
                }
            }
        }
    }

    #[test]
    fn every_line_is_one_shift_of_the_layout() {
        for bit in 0..64u32 {
            for line in 0..8 {
                let stepped = step_line(1u64 << bit, line);
                match next(bit, line) {
                    Some(n) => assert_eq!(stepped, 1u64 << n, "bit {bit} line {line}"),
                    None => assert_eq!(stepped, 0, "bit {bit} line {line}"),
                }
            }
        }
    }

    #[test]
    fn runs_pack_and_unpack() {
        assert_eq!(run_of(run(2, 37)), (2, 37));
        assert_eq!(run_of(0), (0, 0));
    }
}
