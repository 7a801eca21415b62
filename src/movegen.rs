//! Move generation: quiet moves, man captures, flying-king captures, the Turkish strike rule
//! and promotion (RULES.md §2–3).
//!
//! Rule variations (giveaway, optional captures, Brazilian majority capture, other start
//! positions) are meant to enter as a `Rules` type parameter on these functions, resolved at
//! compile time; only Russian draughts is built, and nothing here pays for the others.

use crate::bitboard::{Bitboard, Direction};
use crate::mv::{Move, MoveList, MAX_PATH};
use crate::position::Position;
use crate::square::Square;

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

const BOARD: u64 = Bitboard::BOARD.0;

/// `RAYS[bit][dir]`: the squares from `bit` (exclusive) to the edge in `dir`.
static RAYS: [[u64; 4]; 64] = {
    let mut rays = [[0u64; 4]; 64];
    let mut i = 0;
    while i < 32 {
        let sq = Square::ALL[i];
        let mut d = 0;
        while d < 4 {
            let dir = Direction::ALL[d];
            let mut ray = 0u64;
            let mut cur = 1u64 << sq.bit();
            loop {
                cur = Bitboard(cur).shift(dir).0;
                if cur == 0 {
                    break;
                }
                ray |= cur;
            }
            rays[sq.bit() as usize][d] = ray;
            d += 1;
        }
        i += 1;
    }
    rays
};

#[inline(always)]
fn ray(bit: u32, dir: Direction) -> u64 {
    RAYS[bit as usize & 63][dir.index()]
}

#[inline(always)]
fn step(bb: u64, dir: Direction) -> u64 {
    Bitboard(bb).shift(dir).0
}

/// The nearest occupied bit from `bit` in `dir`, if any.
#[inline(always)]
fn first_blocker(bit: u32, dir: Direction, occ: u64) -> Option<u32> {
    let b = ray(bit, dir) & occ;
    if b == 0 {
        None
    } else if dir.is_up() {
        Some(b.trailing_zeros())
    } else {
        Some(63 - b.leading_zeros())
    }
}

/// The empty squares a king on `bit` reaches in `dir` before the first blocker.
#[inline(always)]
fn king_run(bit: u32, dir: Direction, occ: u64) -> u64 {
    let r = ray(bit, dir);
    match first_blocker(bit, dir, occ) {
        None => r,
        Some(x) => r & !(ray(x, dir) | (1u64 << x)),
    }
}

#[inline(always)]
fn forward_dirs(pos: &Position) -> [Direction; 2] {
    match pos.turn {
        crate::Color::White => [Direction::UpLeft, Direction::UpRight],
        crate::Color::Black => [Direction::DownLeft, Direction::DownRight],
    }
}

#[inline(always)]
fn crowning_mask(pos: &Position) -> u64 {
    Bitboard::rank(pos.turn.crowning_rank()).0
}

/// Whether the side to move has a capture.
pub(crate) fn has_captures(pos: &Position) -> bool {
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
    let occ = us | them;
    let empty = BOARD & !occ;
    let men = us & !pos.kings.0;
    for dir in Direction::ALL {
        if step(step(men, dir) & them, dir) & empty != 0 {
            return true;
        }
    }
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        for dir in Direction::ALL {
            if let Some(x) = first_blocker(k, dir, occ) {
                if them & (1u64 << x) != 0 && step(1u64 << x, dir) & empty != 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// Depth-first search of the capture sequences of one piece.
struct CaptureSearch<'a> {
    /// Occupied squares during the capture: the mover's start square is empty, captured
    /// pieces stay (they block until the move ends).
    occ: u64,
    /// Enemy pieces (captured ones included; `captured` tells them apart).
    them: u64,
    crowning: u64,
    from: Square,
    start_is_man: bool,
    path: [Square; MAX_PATH],
    path_len: usize,
    list: &'a mut MoveList,
}

impl CaptureSearch<'_> {
    #[inline(always)]
    fn empty(&self) -> u64 {
        BOARD & !self.occ
    }

    #[inline(always)]
    fn push(&mut self, bit: u32) {
        // A capture takes a piece off the board's edge each time, so MAX_PATH is never
        // exceeded; the guard keeps that an invariant, not an assumption.
        if self.path_len < MAX_PATH {
            self.path[self.path_len] = Square::from_bit_unchecked(bit);
        }
        self.path_len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.path_len -= 1;
    }

    #[inline(always)]
    fn emit(&mut self, to: u32, captured: u64, promotes: bool) {
        self.list.push(Move {
            captured: Bitboard(captured),
            from: self.from,
            to: Square::from_bit_unchecked(to),
            promotes,
            path_len: self.path_len.min(MAX_PATH) as u8,
            path: self.path,
        });
    }

    /// A man on `bit` having taken `captured`: jump on, or end the move here.
    fn man(&mut self, bit: u32, captured: u64) {
        let here = 1u64 << bit;
        let capturable = self.them & !captured;
        let empty = self.empty();
        let mut continued = false;
        for dir in Direction::ALL {
            let victim = step(here, dir) & capturable;
            let landing = step(victim, dir) & empty;
            if landing != 0 {
                continued = true;
                let to = landing.trailing_zeros();
                self.push(to);
                if landing & self.crowning != 0 {
                    self.crowned(to, captured | victim);
                } else {
                    self.man(to, captured | victim);
                }
                self.pop();
            }
        }
        if !continued {
            self.emit(bit, captured, false);
        }
    }

    /// A man just crowned on `bit` during a capture goes on capturing as a king (RULES.md §3.8).
    fn crowned(&mut self, bit: u32, captured: u64) {
        let mut continued = false;
        for dir in Direction::ALL {
            if self.king_can_capture(bit, dir, captured) {
                continued = true;
                self.king_jump(bit, dir, captured);
            }
        }
        if !continued {
            self.emit(bit, captured, true);
        }
    }

    /// Whether a king on `bit` can capture in `dir`.
    #[inline(always)]
    fn king_can_capture(&self, bit: u32, dir: Direction, captured: u64) -> bool {
        match first_blocker(bit, dir, self.occ) {
            Some(x) => {
                let xb = 1u64 << x;
                xb & self.them & !captured != 0 && step(xb, dir) & self.empty() != 0
            }
            None => false,
        }
    }

    /// A king on `bit` captures the first piece in `dir` (known to be capturable).
    fn king_jump(&mut self, bit: u32, dir: Direction, captured: u64) {
        let Some(x) = first_blocker(bit, dir, self.occ) else {
            return;
        };
        let captured = captured | (1u64 << x);
        let run = king_run(x, dir, self.occ);
        let mut continued = false;
        // Straight on: from every landing square the next piece along the line is the same,
        // so that continuation is one branch, whatever the intermediate landing square.
        if self.king_can_capture(x, dir, captured) && run != 0 {
            continued = true;
            let first_landing = step(1u64 << x, dir).trailing_zeros();
            self.push(first_landing);
            self.king_jump(first_landing, dir, captured);
            self.pop();
        }
        // Turning: each landing square has its own perpendicular lines.
        let mut landings = run;
        while landings != 0 {
            let l = landings.trailing_zeros();
            landings &= landings - 1;
            for turn in dir.perpendicular() {
                if self.king_can_capture(l, turn, captured) {
                    continued = true;
                    self.push(l);
                    self.king_jump(l, turn, captured);
                    self.pop();
                }
            }
        }
        // No continuation anywhere: the king may stop on any square behind its last victim.
        if !continued {
            let promotes = self.start_is_man;
            let mut landings = run;
            while landings != 0 {
                let l = landings.trailing_zeros();
                landings &= landings - 1;
                self.push(l);
                self.emit(l, captured, promotes);
                self.pop();
            }
        }
    }
}

/// Keep one move per (start, end, captured set, promotion) among `list[begin..]`. Different
/// orders can only coincide when three or more pieces are taken.
fn dedup_from(list: &mut MoveList, begin: usize) {
    let mut write = begin;
    for read in begin..list.len() {
        let m = list[read];
        let duplicate = m.captured.count() >= 3
            && list[begin..write]
                .iter()
                .any(|k| k.captured == m.captured && k.to == m.to && k.promotes == m.promotes);
        if !duplicate {
            list[write] = m;
            write += 1;
        }
    }
    list.truncate(write);
}

/// Append the captures of the side to move; returns whether there were any.
fn generate_captures(pos: &Position, counting: Counting, list: &mut MoveList) -> bool {
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
    let all_occ = us | them;
    let empty = BOARD & !all_occ;
    let men = us & !pos.kings.0;
    let kings = us & pos.kings.0;
    let start_len = list.len();

    // Men that have a first jump.
    let mut jumpers = 0u64;
    for dir in Direction::ALL {
        let back = match dir {
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
        };
        jumpers |= step(step(empty, back) & them, back) & men;
    }
    let crowning = crowning_mask(pos);
    let mut pieces = jumpers;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let begin = list.len();
        let mut search = CaptureSearch {
            occ: all_occ & !(1u64 << bit),
            them,
            crowning,
            from: Square::from_bit_unchecked(bit),
            start_is_man: true,
            path: [Square::from_bit_unchecked(bit); MAX_PATH],
            path_len: 0,
            list,
        };
        search.man(bit, 0);
        if counting == Counting::Distinct {
            dedup_from(list, begin);
        }
    }

    let mut pieces = kings;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let begin = list.len();
        let mut search = CaptureSearch {
            occ: all_occ & !(1u64 << bit),
            them,
            crowning,
            from: Square::from_bit_unchecked(bit),
            start_is_man: false,
            path: [Square::from_bit_unchecked(bit); MAX_PATH],
            path_len: 0,
            list,
        };
        for dir in Direction::ALL {
            if search.king_can_capture(bit, dir, 0) {
                search.king_jump(bit, dir, 0);
            }
        }
        if counting == Counting::Distinct {
            dedup_from(list, begin);
        }
    }
    list.len() > start_len
}

/// Append the quiet moves of the side to move.
fn generate_quiet(pos: &Position, list: &mut MoveList) {
    let us = pos.by_color[pos.turn.index()].0;
    let occ = pos.occupied().0;
    let empty = BOARD & !occ;
    let men = us & !pos.kings.0;
    let crowning = crowning_mask(pos);
    for dir in forward_dirs(pos) {
        let back = match dir {
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
        };
        let mut targets = step(men, dir) & empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets &= targets - 1;
            let from = step(to, back);
            list.push(Move::quiet(
                Square::from_bit_unchecked(from.trailing_zeros()),
                Square::from_bit_unchecked(to.trailing_zeros()),
                to & crowning != 0,
            ));
        }
    }
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        let from = Square::from_bit_unchecked(k);
        for dir in Direction::ALL {
            let mut run = king_run(k, dir, occ);
            while run != 0 {
                let to = run.trailing_zeros();
                run &= run - 1;
                list.push(Move::quiet(from, Square::from_bit_unchecked(to), false));
            }
        }
    }
}

/// Append the legal moves of the side to move.
pub(crate) fn generate(pos: &Position, counting: Counting, list: &mut MoveList) {
    if !generate_captures(pos, counting, list) {
        generate_quiet(pos, list);
    }
}

/// The number of legal moves; quiet moves are counted with popcounts, not listed.
pub(crate) fn count_moves(pos: &Position, counting: Counting) -> u64 {
    if has_captures(pos) {
        let mut list = MoveList::new();
        generate_captures(pos, counting, &mut list);
        return list.len() as u64;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let occ = pos.occupied().0;
    let empty = BOARD & !occ;
    let men = us & !pos.kings.0;
    let [d1, d2] = forward_dirs(pos);
    let mut n = (step(men, d1) & empty).count_ones() + (step(men, d2) & empty).count_ones();
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        for dir in Direction::ALL {
            n += king_run(k, dir, occ).count_ones();
        }
    }
    n as u64
}
