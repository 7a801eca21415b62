//! The move generator of the diagonal games: quiet moves, man captures, flying-king
//! captures, the Turkish strike rule and promotion (docs/rules.rst, "Moves" and
//! "Captures"), for every game but Frisian and Turkish draughts, on the boards of either
//! word ([`DiagonalGenerator`]).
//!
//! Rule variations enter as a [`Rules`] type parameter resolved at compile time: each rule
//! switch is an associated constant, so the Russian path pays nothing for the others.

use crate::geometry::{Bitboard, Color, Direction, Square, Word};
use crate::position::mv::{Move, MoveList, MAX_PATH};
use crate::position::state::Position;
use crate::rules::kinds::{CapturePriority, Counting, GameWord, Generator, Rules};
use crate::rules::types::DiagonalGenerator;

impl<W: GameWord> Generator for DiagonalGenerator<W> {
    type Word = W;

    #[inline(always)]
    fn has_captures<R: Rules<Word = W>>(pos: &Position<W>) -> bool {
        has_captures::<R>(pos)
    }

    #[inline(always)]
    fn generate<R: Rules<Word = W>>(pos: &Position<W>, counting: Counting, list: &mut MoveList<W>) {
        generate::<R>(pos, counting, list);
    }

    #[inline(always)]
    fn count_moves<R: Rules<Word = W>>(pos: &Position<W>, counting: Counting) -> u64 {
        count_moves::<R>(pos, counting)
    }

    #[inline(always)]
    fn for_each_child<R: Rules<Word = W>, const HASH: bool>(
        pos: &Position<W>,
        counting: Counting,
        visit: impl FnMut(&Position<W>),
    ) {
        for_each_child::<R, HASH>(pos, counting, visit);
    }

    #[inline(always)]
    fn for_each_quiet_move<R: Rules<Word = W>>(pos: &Position<W>, f: impl FnMut(u32, u32, bool)) {
        for_each_quiet_move_under::<R>(pos, f);
    }

    #[inline(always)]
    fn quiet_move_count<R: Rules<Word = W>>(pos: &Position<W>) -> u32 {
        quiet_move_count_under::<R>(pos)
    }

    #[inline(always)]
    fn nth_quiet_move<R: Rules<Word = W>>(pos: &Position<W>, index: u32) -> Option<Move<W>> {
        nth_quiet_move_under::<R>(pos, index)
    }

    #[inline(always)]
    fn count_two_plies<R: Rules<Word = W>>(pos: &Position<W>, counting: Counting) -> u64 {
        count_two_plies::<R>(pos, counting)
    }
}

/// Whether the rules choose among captures by more than "any capture": such positions list
/// their captures and filter them.
#[inline(always)]
const fn ranks_captures<R: Rules>() -> bool {
    !matches!(R::PRIORITY, CapturePriority::Free)
}

/// Whether, with no king on the board, the rules' priority comes down to taking the most
/// pieces (every priority but the king-first one, which is then free choice).
#[inline(always)]
const fn most_pieces_without_kings<R: Rules>() -> bool {
    matches!(
        R::PRIORITY,
        CapturePriority::Majority | CapturePriority::PiecesThenKings | CapturePriority::Italian
    )
}

/// Whether the side to move has lost before moving: in breakthrough, the opponent has
/// crowned a man. Such a side has no moves (a constant `false` in every other game).
#[inline(always)]
fn lost_already<R: Rules>(pos: &Position<R::Word>) -> bool {
    R::CROWNING_WINS && !(pos.kings.0 & pos.by_color[1 - pos.turn.index()].0).is_zero()
}

/// The squares of the board `R` is played on: a constant of each compiled generator.
#[inline(always)]
fn board<R: Rules>() -> R::Word {
    R::Word::from_wide(const { R::GEOMETRY.board_bits() })
}

/// Run `$body` once per direction with `$d` bound to a constant, so that each step compiles
/// to a single shift (a loop over a direction array keeps a jump table in the hot path).
macro_rules! each_direction {
    ($d:ident => $body:block) => {{
        {
            const $d: Direction = Direction::UpLeft;
            $body
        }
        {
            const $d: Direction = Direction::UpRight;
            $body
        }
        {
            const $d: Direction = Direction::DownLeft;
            $body
        }
        {
            const $d: Direction = Direction::DownRight;
            $body
        }
    }};
}

#[inline(always)]
fn ray<R: Rules>(bit: u32, dir: Direction) -> R::Word {
    R::Word::rays(&R::GEOMETRY.rays)[bit as usize & (crate::geometry::LAYOUT_BITS - 1)][dir.index()]
}

/// One diagonal step, without the board mask of [`Bitboard::shift`]: every use intersects
/// the result with a set of board squares before using it as squares or stepping again, so
/// a step onto a ghost bit or off the board vanishes there. (A second unmasked step after
/// a ghost bit could reach a real square: nowhere does a step follow a step without such an
/// intersection between them, or after them with a set that excludes that case.)
#[inline(always)]
fn step<W: Word>(bb: W, dir: Direction) -> W {
    bb.step(dir)
}

/// The nearest occupied bit from `bit` in `dir`, if any.
#[inline(always)]
fn first_blocker<R: Rules>(bit: u32, dir: Direction, occ: R::Word) -> Option<u32> {
    let b = ray::<R>(bit, dir) & occ;
    if b.is_zero() {
        None
    } else if dir.is_up() {
        Some(b.lowest_bit())
    } else {
        Some(b.highest_bit())
    }
}

/// The empty squares a king on `bit` reaches in `dir` before the first blocker.
#[inline(always)]
fn king_run<R: Rules>(bit: u32, dir: Direction, occ: R::Word) -> R::Word {
    let r = ray::<R>(bit, dir);
    match first_blocker::<R>(bit, dir, occ) {
        None => r,
        Some(x) => r & !(ray::<R>(x, dir) | R::Word::bit(x)),
    }
}

/// White's crowning rank on the board of `R`.
#[inline(always)]
fn white_crowning<R: Rules>() -> R::Word {
    R::Word::from_wide(const { R::GEOMETRY.rank_bits(R::GEOMETRY.size() - 1) })
}

/// The side to move's crowning rank.
#[inline(always)]
fn crowning_mask<R: Rules>(pos: &Position<R::Word>) -> R::Word {
    match pos.turn {
        Color::White => white_crowning::<R>(),
        Color::Black => R::Word::from_wide(const { R::GEOMETRY.rank_bits(0) }),
    }
}

/// Call `f(from, to, promotes)` for every quiet step of the side to move's men, with one
/// loop per forward direction so that each shift is a constant.
#[inline(always)]
fn for_each_man_step<R: Rules>(
    pos: &Position<R::Word>,
    men: R::Word,
    empty: R::Word,
    mut f: impl FnMut(u32, u32, bool),
) {
    let crowning = crowning_mask::<R>(pos);
    macro_rules! steps {
        ($dir:expr) => {{
            const DIR: Direction = $dir;
            let mut targets = step(men, DIR) & empty;
            while !targets.is_zero() {
                let to = targets.lowest_bit();
                targets = targets.without_lowest();
                f(
                    (to as i32 - R::Word::offset(DIR)) as u32,
                    to,
                    !(R::Word::bit(to) & crowning).is_zero(),
                );
            }
        }};
    }
    match pos.turn {
        Color::White => {
            steps!(Direction::UpLeft);
            steps!(Direction::UpRight);
        }
        Color::Black => {
            steps!(Direction::DownLeft);
            steps!(Direction::DownRight);
        }
    }
}

/// The empty squares a king on `bit` reaches in `dir` with a quiet move.
#[inline(always)]
fn king_moves<R: Rules>(bit: u32, dir: Direction, occ: R::Word) -> R::Word {
    if R::FLYING_KINGS {
        king_run::<R>(bit, dir, occ)
    } else {
        step(R::Word::bit(bit), dir) & board::<R>() & !occ
    }
}

/// Whether the side to move's men (White's if `white`) capture in `dir`.
#[inline(always)]
fn man_captures_in<R: Rules>(dir: Direction, white: bool) -> bool {
    R::MEN_CAPTURE_BACKWARDS || dir.is_up() == white
}

/// The pieces the side to move may capture: the opponent's, or every piece where its own
/// are taken too (Samoedy; a compile-time choice of the rules).
#[inline(always)]
fn capturable<R: Rules>(pos: &Position<R::Word>) -> R::Word {
    let them = pos.by_color[1 - pos.turn.index()].0;
    if R::CAPTURE_OWN {
        them | pos.by_color[pos.turn.index()].0
    } else {
        them
    }
}

/// The enemy pieces a man may capture, of `them` (with `kings` among them).
#[inline(always)]
fn man_targets<R: Rules>(them: R::Word, kings: R::Word) -> R::Word {
    if R::MAN_TAKES_KING {
        them
    } else {
        them & !kings
    }
}

/// The men of `men` with a first jump, per direction (exact: every one has that jump).
#[inline(always)]
fn man_jumpers<R: Rules>(
    pos: &Position<R::Word>,
    men: R::Word,
    them: R::Word,
    empty: R::Word,
) -> [R::Word; 4] {
    let targets = man_targets::<R>(them, pos.kings.0);
    let white = pos.turn == Color::White;
    let mut jumpers = [R::Word::ZERO; 4];
    each_direction!(DIR => {
        if man_captures_in::<R>(DIR, white) {
            jumpers[DIR.index()] = step(step(empty, DIR.opposite()) & targets, DIR.opposite()) & men;
        }
    });
    jumpers
}

/// Whether the side to move has a capture under the rules `R`.
#[inline(always)]
fn has_captures<R: Rules>(pos: &Position<R::Word>) -> bool {
    if lost_already::<R>(pos) {
        return false;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let them = capturable::<R>(pos);
    let occ = us | them;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    let targets = man_targets::<R>(them, pos.kings.0);
    let white = pos.turn == Color::White;
    each_direction!(DIR => {
        if man_captures_in::<R>(DIR, white) && !(step(step(men, DIR) & targets, DIR) & empty).is_zero() {
            return true;
        }
    });
    if !R::FLYING_KINGS {
        let kings = us & pos.kings.0;
        if kings.is_zero() {
            return false;
        }
        each_direction!(DIR => {
            if !(step(step(kings, DIR) & them, DIR) & empty).is_zero() {
                return true;
            }
        });
        return false;
    }
    let mut kings = us & pos.kings.0;
    while !kings.is_zero() {
        let k = kings.lowest_bit();
        kings = kings.without_lowest();
        each_direction!(DIR => {
            if let Some(x) = first_blocker::<R>(k, DIR, occ) {
                if !(them & R::Word::bit(x)).is_zero() && !(step(R::Word::bit(x), DIR) & empty).is_zero() {
                    return true;
                }
            }
        });
    }
    false
}

/// Where the capture search sends each finished capture sequence.
trait Sink<W: Word> {
    /// Whether the landing squares must be recorded.
    const PATH: bool;
    /// A finished sequence; its landing squares are `path[..path_len]`.
    fn emit(
        &mut self,
        from: Square,
        to: u32,
        captured: W,
        promotes: bool,
        path: &[Square; MAX_PATH],
        path_len: usize,
    );
    /// Called after all sequences of one piece; `dedup` asks to merge equal moves. Sinks that
    /// filter with a [`LongCaptureFilter`] (whose keys include the start square) need nothing.
    #[inline(always)]
    fn end_piece(&mut self, _dedup: bool) {}
}

/// Collects the moves.
struct ListSink<'a, W: Word> {
    list: &'a mut MoveList<W>,
    piece_begin: usize,
    long_capture: bool,
}

impl<W: Word> Sink<W> for ListSink<'_, W> {
    const PATH: bool = true;

    #[inline(always)]
    fn emit(
        &mut self,
        from: Square,
        to: u32,
        captured: W,
        promotes: bool,
        path: &[Square; MAX_PATH],
        path_len: usize,
    ) {
        // The whole fixed-size path is copied: cheaper than a variable-length copy.
        let m = Move {
            captured: Bitboard(captured),
            from,
            to: Square::from_bit_unchecked(to),
            promotes,
            path_len: path_len as u8,
            path: *path,
        };
        self.long_capture |= captured.ones() >= 3;
        self.list.push(m);
    }

    #[inline(always)]
    fn end_piece(&mut self, dedup: bool) {
        if dedup && self.long_capture {
            dedup_from(self.list, self.piece_begin);
        }
        self.long_capture = false;
        self.piece_begin = self.list.len();
    }
}

/// Convention A without a move list: remembers only the sequences of three or more captures,
/// the only ones that can coincide with another order of the same pieces.
struct LongCaptureFilter<W: Word> {
    dedup: bool,
    /// The moves seen: the pieces taken, and the start, end and promotion.
    keys: smallvec::SmallVec<[(W, u32); 16]>,
}

impl<W: Word> LongCaptureFilter<W> {
    fn new(counting: Counting) -> LongCaptureFilter<W> {
        LongCaptureFilter {
            dedup: counting == Counting::Distinct,
            keys: smallvec::SmallVec::new(),
        }
    }

    /// Whether this sequence is a move not seen before in this position.
    #[inline(always)]
    fn is_new(&mut self, from: Square, to: u32, captured: W, promotes: bool) -> bool {
        if !self.dedup || captured.ones() < 3 {
            return true;
        }
        // (The squares of the 10×10 board reach bit 54: the pieces taken fill a word of
        // their own.)
        let key = (
            captured,
            to | (u32::from(promotes) << 7) | (from.bit() << 8),
        );
        if self.keys.contains(&key) {
            return false;
        }
        self.keys.push(key);
        true
    }
}

/// Hands each capture (start, end, captured, promotion) to a callback, once a move under
/// the counting convention.
struct MoveSink<W: Word, F: FnMut(Square, u32, W, bool)> {
    filter: LongCaptureFilter<W>,
    visit: F,
}

impl<W: Word, F: FnMut(Square, u32, W, bool)> Sink<W> for MoveSink<W, F> {
    const PATH: bool = false;

    #[inline(always)]
    fn emit(
        &mut self,
        from: Square,
        to: u32,
        captured: W,
        promotes: bool,
        _path: &[Square; MAX_PATH],
        _path_len: usize,
    ) {
        if self.filter.is_new(from, to, captured, promotes) {
            (self.visit)(from, to, captured, promotes);
        }
    }
}

/// Call `visit` with the position after each legal move (perft's inner loop: no move list
/// is built). With `HASH` false the children's hashes are left stale.
#[inline]
fn for_each_child<R: Rules, const HASH: bool>(
    pos: &Position<R::Word>,
    counting: Counting,
    mut visit: impl FnMut(&Position<R::Word>),
) {
    if lost_already::<R>(pos) {
        return;
    }
    if has_captures::<R>(pos) {
        for_each_capture::<R>(pos, counting, |from, to, captured, promotes| {
            let mut child = *pos;
            if R::CAPTURE_OWN {
                child.apply_own::<HASH>(from, to, captured, promotes);
            } else {
                child.apply::<HASH>(from, to, captured, promotes);
            }
            visit(&child);
        });
        if R::CAPTURE_IS_MANDATORY {
            return;
        }
    }
    let us = pos.by_color[pos.turn.index()].0;
    let occ = pos.occupied().0;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    for_each_man_step::<R>(pos, men, empty, |from, to, promotes| {
        let mut child = *pos;
        child.apply::<HASH>(from, to, R::Word::ZERO, promotes);
        visit(&child);
    });
    let mut kings = us & pos.kings.0;
    while !kings.is_zero() {
        let k = kings.lowest_bit();
        kings = kings.without_lowest();
        each_direction!(DIR => {
            let mut run = king_moves::<R>(k, DIR, occ);
            while !run.is_zero() {
                let to = run.lowest_bit();
                run = run.without_lowest();
                let mut child = *pos;
                child.apply::<HASH>(k, to, R::Word::ZERO, false);
                visit(&child);
            }
        });
    }
}

/// What the capture search needs of the side to move, worked out once a position.
struct SideFacts<W: Word> {
    /// The enemy pieces a man may take.
    man_targets: W,
    /// The side's crowning rank.
    crowning: W,
    /// The enemy kings, where the rules stop a king's capture behind a king (else none).
    their_kings: W,
}

impl<W: Word> SideFacts<W> {
    #[inline(always)]
    fn of<R: Rules<Word = W>>(pos: &Position<W>, them: W) -> SideFacts<W> {
        SideFacts {
            man_targets: man_targets::<R>(them, pos.kings.0),
            crowning: crowning_mask::<R>(pos),
            their_kings: if R::KING_STOPS_BEHIND_KING {
                pos.kings.0 & them
            } else {
                W::ZERO
            },
        }
    }
}

/// Depth-first search of the capture sequences of one piece.
struct CaptureSearch<'a, S: Sink<R::Word>, R: Rules> {
    /// Occupied squares during the capture: the mover's start square is empty, captured
    /// pieces stay (they block until the move ends) unless the rules remove them at once.
    occ: R::Word,
    /// Enemy pieces that may be taken (captured ones included; `captured` tells them apart).
    /// A man's search, where men never take kings, is given the enemy men only: such a man
    /// is never crowned during a capture.
    them: R::Word,
    crowning: R::Word,
    /// [`SideFacts::their_kings`].
    their_kings: R::Word,
    from: Square,
    start_is_man: bool,
    path: [Square; MAX_PATH],
    path_len: usize,
    sink: &'a mut S,
    rules: std::marker::PhantomData<R>,
}

impl<'a, S: Sink<R::Word>, R: Rules> CaptureSearch<'a, S, R> {
    /// The search for the piece on `bit` (a man if `start_is_man`) of the side to move,
    /// given all occupied squares, the enemy pieces and the facts of the position that do
    /// not change from one piece to the next; its start square counts as empty.
    #[inline(always)]
    fn new(
        occ: R::Word,
        them: R::Word,
        side: &SideFacts<R::Word>,
        bit: u32,
        start_is_man: bool,
        sink: &'a mut S,
    ) -> Self {
        CaptureSearch {
            occ: occ & !R::Word::bit(bit),
            // Where a side takes its own pieces, the mover is not among them.
            them: if R::CAPTURE_OWN {
                them & !R::Word::bit(bit)
            } else {
                them
            },
            crowning: side.crowning,
            their_kings: side.their_kings,
            from: Square::from_bit_unchecked(bit),
            start_is_man,
            path: [Square::from_bit_unchecked(bit); MAX_PATH],
            path_len: 0,
            sink,
            rules: std::marker::PhantomData,
        }
    }

    #[inline(always)]
    fn empty(&self) -> R::Word {
        board::<R>() & !self.occ
    }

    /// Whether the mover is White (its men capture upwards where men capture only forwards).
    #[inline(always)]
    fn white(&self) -> bool {
        self.crowning == white_crowning::<R>()
    }

    #[inline(always)]
    fn push(&mut self, bit: u32) {
        if S::PATH {
            // A capture takes a piece off the board's edge each time, so MAX_PATH is never
            // exceeded; the guard keeps that an invariant, not an assumption.
            if self.path_len < MAX_PATH {
                self.path[self.path_len] = Square::from_bit_unchecked(bit);
            }
            self.path_len += 1;
        }
    }

    #[inline(always)]
    fn pop(&mut self) {
        if S::PATH {
            self.path_len -= 1;
        }
    }

    #[inline(always)]
    fn emit(&mut self, to: u32, captured: R::Word, promotes: bool) {
        let len = self.path_len.min(MAX_PATH);
        self.sink
            .emit(self.from, to, captured, promotes, &self.path, len);
    }

    /// Take `victim` (a single bit) off the board for the rest of the sequence, where the
    /// rules remove pieces as they are taken; [`CaptureSearch::put_back`] undoes it.
    #[inline(always)]
    fn take_off(&mut self, victim: R::Word) {
        if R::REMOVE_DURING_MOVE {
            self.occ &= !victim;
        }
    }

    #[inline(always)]
    fn put_back(&mut self, victim: R::Word) {
        if R::REMOVE_DURING_MOVE {
            self.occ |= victim;
        }
    }

    /// A man on `bit` jumps in `dir` (the jump is known to exist), then goes on.
    #[inline(always)]
    fn man_jump(&mut self, bit: u32, dir: Direction, captured: R::Word) {
        let victim = step(R::Word::bit(bit), dir);
        let landing = step(victim, dir);
        let to = landing.lowest_bit();
        self.push(to);
        self.take_off(victim);
        if R::CROWN_DURING_CAPTURE && !(landing & self.crowning).is_zero() {
            self.crowned(to, captured | victim);
        } else {
            self.man(to, captured | victim);
        }
        self.put_back(victim);
        self.pop();
    }

    /// A man on `bit` having taken `captured`: jump on, or end the move here.
    fn man(&mut self, bit: u32, captured: R::Word) {
        let here = R::Word::bit(bit);
        let capturable = self.them & !captured;
        let empty = self.empty();
        let mut continued = false;
        each_direction!(DIR => {
            if man_captures_in::<R>(DIR, self.white()) {
                let victim = step(here, DIR) & capturable;
                let landing = step(victim, DIR) & empty;
                if !landing.is_zero() {
                    continued = true;
                    self.man_jump(bit, DIR, captured);
                }
            }
        });
        if !continued {
            let promotes = !R::CROWN_DURING_CAPTURE && !(here & self.crowning).is_zero();
            self.emit(bit, captured, promotes);
        }
    }

    /// A man just crowned on `bit` during a capture goes on capturing as a king (docs/rules.rst, "Captures" 8).
    fn crowned(&mut self, bit: u32, captured: R::Word) {
        let mut continued = false;
        each_direction!(DIR => {
            if self.king_can_capture(bit, DIR, captured) {
                continued = true;
                self.king_jump(bit, DIR, captured);
            }
        });
        if !continued {
            self.emit(bit, captured, true);
        }
    }

    /// The piece a king on `bit` would take in `dir`, as a bit, if it can take one there.
    #[inline(always)]
    fn king_victim(&self, bit: u32, dir: Direction, captured: R::Word) -> Option<u32> {
        if R::FLYING_KINGS {
            let x = first_blocker::<R>(bit, dir, self.occ)?;
            let xb = R::Word::bit(x);
            (!(xb & self.them & !captured).is_zero() && !(step(xb, dir) & self.empty()).is_zero())
                .then_some(x)
        } else {
            let xb = step(R::Word::bit(bit), dir) & self.them & !captured;
            (!(step(xb, dir) & self.empty()).is_zero()).then(|| xb.lowest_bit())
        }
    }

    /// Whether a king on `bit` can capture in `dir`.
    #[inline(always)]
    fn king_can_capture(&self, bit: u32, dir: Direction, captured: R::Word) -> bool {
        if R::FLYING_KINGS {
            match first_blocker::<R>(bit, dir, self.occ) {
                Some(x) => {
                    let xb = R::Word::bit(x);
                    !(xb & self.them & !captured).is_zero()
                        && !(step(xb, dir) & self.empty()).is_zero()
                }
                None => false,
            }
        } else {
            let xb = step(R::Word::bit(bit), dir) & self.them & !captured;
            !(step(xb, dir) & self.empty()).is_zero()
        }
    }

    /// A king on `bit` captures the first piece in `dir` (known to be capturable).
    fn king_jump(&mut self, bit: u32, dir: Direction, captured: R::Word) {
        if !R::FLYING_KINGS || R::KING_LANDS_BEHIND {
            return self.king_jump_behind(bit, dir, captured);
        }
        let Some(x) = first_blocker::<R>(bit, dir, self.occ) else {
            return;
        };
        let captured = captured | R::Word::bit(x);
        let run = king_run::<R>(x, dir, self.occ);
        let mut continued = false;
        // Straight on: from every landing square the next piece along the line is the same,
        // so that continuation is one branch, whatever the intermediate landing square.
        if self.king_can_capture(x, dir, captured) && !run.is_zero() {
            continued = true;
            let first_landing = step(R::Word::bit(x), dir).lowest_bit();
            self.push(first_landing);
            self.king_jump(first_landing, dir, captured);
            self.pop();
        }
        // Turning: each landing square has its own perpendicular lines.
        let mut landings = run;
        while !landings.is_zero() {
            let l = landings.lowest_bit();
            landings = landings.without_lowest();
            for turn in dir.perpendicular() {
                if self.king_can_capture(l, turn, captured) {
                    continued = true;
                    self.push(l);
                    self.king_jump(l, turn, captured);
                    self.pop();
                }
            }
        }
        // No continuation anywhere: the king may stop on any square behind its last victim
        // (in Killer draughts, behind a king only on the square next to it).
        if !continued {
            let promotes = self.start_is_man;
            let mut landings =
                if R::KING_STOPS_BEHIND_KING && !(self.their_kings & R::Word::bit(x)).is_zero() {
                    step(R::Word::bit(x), dir)
                } else {
                    run
                };
            while !landings.is_zero() {
                let l = landings.lowest_bit();
                landings = landings.without_lowest();
                self.push(l);
                self.emit(l, captured, promotes);
                self.pop();
            }
        }
    }

    /// A king that lands on the square directly behind the piece it takes (a short king's
    /// jump, or a Thai king's): one landing, then on in any direction but back.
    fn king_jump_behind(&mut self, bit: u32, dir: Direction, captured: R::Word) {
        let Some(x) = self.king_victim(bit, dir, captured) else {
            return;
        };
        let victim = R::Word::bit(x);
        let captured = captured | victim;
        let landing = step(victim, dir).lowest_bit();
        self.push(landing);
        self.take_off(victim);
        let mut continued = false;
        each_direction!(NEXT => {
            if NEXT.index() != dir.opposite().index() && self.king_can_capture(landing, NEXT, captured) {
                continued = true;
                self.king_jump_behind(landing, NEXT, captured);
            }
        });
        if !continued {
            self.emit(landing, captured, self.start_is_man);
        }
        self.put_back(victim);
        self.pop();
    }
}

/// Keep one move per (start, end, captured set, promotion) among `list[begin..]`. Different
/// orders can only coincide when three or more pieces are taken.
fn dedup_from<W: Word>(list: &mut MoveList<W>, begin: usize) {
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

/// Send every capture of the side to move to `sink`.
fn search_captures<S: Sink<R::Word>, R: Rules>(
    pos: &Position<R::Word>,
    counting: Counting,
    sink: &mut S,
) {
    let us = pos.by_color[pos.turn.index()].0;
    let them = capturable::<R>(pos);
    let all_occ = us | them;
    let empty = board::<R>() & !all_occ;
    let men = us & !pos.kings.0;
    let kings = us & pos.kings.0;
    let dedup = counting == Counting::Distinct;

    // Men that have a first jump.
    let [a, b, c, d] = man_jumpers::<R>(pos, men, them, empty);
    let side = SideFacts::of::<R>(pos, them);
    let mut pieces = a | b | c | d;
    while !pieces.is_zero() {
        let bit = pieces.lowest_bit();
        pieces = pieces.without_lowest();
        let mut search =
            CaptureSearch::<_, R>::new(all_occ, side.man_targets, &side, bit, true, &mut *sink);
        search.man(bit, R::Word::ZERO);
        sink.end_piece(dedup);
    }

    let mut pieces = kings;
    while !pieces.is_zero() {
        let bit = pieces.lowest_bit();
        pieces = pieces.without_lowest();
        let mut search = CaptureSearch::<_, R>::new(all_occ, them, &side, bit, false, &mut *sink);
        each_direction!(DIR => {
            if search.king_can_capture(bit, DIR, R::Word::ZERO) {
                search.king_jump(bit, DIR, R::Word::ZERO);
            }
        });
        sink.end_piece(dedup);
    }
}

/// Append the captures of the side to move that the rules' priority allows; returns whether
/// there were any.
fn generate_captures<R: Rules>(
    pos: &Position<R::Word>,
    counting: Counting,
    list: &mut MoveList<R::Word>,
) -> bool {
    let start_len = list.len();
    // Italian's last criterion looks at the order pieces are taken in: every order is
    // ranked before equal moves are merged.
    let ordered = matches!(R::PRIORITY, CapturePriority::Italian);
    let mut sink = ListSink {
        piece_begin: start_len,
        list,
        long_capture: false,
    };
    let search_counting = if ordered { Counting::Orders } else { counting };
    search_captures::<_, R>(pos, search_counting, &mut sink);
    match R::PRIORITY {
        CapturePriority::Free => {}
        CapturePriority::Majority => keep_best(list, start_len, |m| u64::from(m.captured.count())),
        CapturePriority::PiecesThenKings => keep_best(list, start_len, |m| {
            (u64::from(m.captured.count()) << 8) | u64::from((m.captured & pos.kings).count())
        }),
        CapturePriority::KingFirst => {
            keep_best(list, start_len, |m| u64::from(pos.kings.contains(m.from)))
        }
        CapturePriority::Italian => {
            keep_best(list, start_len, |m| italian_rank(pos, m));
            if counting == Counting::Distinct {
                dedup_moves(list, start_len);
            }
        }
        // Only the games generated by `crate::orthogonal` rank captures by value.
        CapturePriority::Value => {}
    }
    list.len() > start_len
}

/// The Italian federation's ranking of a capture, larger first: the pieces taken; then
/// whether a king takes them; then the kings taken; then where the kings come in the
/// sequence (a king taken earlier ranks higher, compared capture by capture). Every jump
/// of the Italian game is short, so the piece taken is midway between two landings.
fn italian_rank<W: Word>(pos: &Position<W>, m: &Move<W>) -> u64 {
    let mut order = 0u64;
    let mut prev = m.from.bit();
    for (i, landing) in m.path().iter().enumerate() {
        let l = landing.bit();
        let taken = (prev + l) / 2;
        if !(pos.kings.0 & W::bit(taken)).is_zero() && i < 32 {
            order |= 1u64 << (31 - i);
        }
        prev = l;
    }
    (u64::from(m.captured.count()) << 48)
        | (u64::from(pos.kings.contains(m.from)) << 40)
        | (u64::from((m.captured & pos.kings).count()) << 32)
        | order
}

/// Keep, among `list[begin..]`, only the moves with the largest `key`.
fn keep_best<W: Word>(list: &mut MoveList<W>, begin: usize, key: impl Fn(&Move<W>) -> u64) {
    let best = list[begin..].iter().map(&key).max().unwrap_or(0);
    let mut write = begin;
    for read in begin..list.len() {
        let m = list[read];
        if key(&m) == best {
            list[write] = m;
            write += 1;
        }
    }
    list.truncate(write);
}

/// Keep one move per (start, end, captured set, promotion) among `list[begin..]` (moves of
/// several pieces).
fn dedup_moves<W: Word>(list: &mut MoveList<W>, begin: usize) {
    if list[begin..].iter().all(|m| m.captured.count() < 3) {
        return;
    }
    let mut write = begin;
    for read in begin..list.len() {
        let m = list[read];
        let duplicate = m.captured.count() >= 3
            && list[begin..write].iter().any(|k| {
                k.from == m.from
                    && k.captured == m.captured
                    && k.to == m.to
                    && k.promotes == m.promotes
            });
        if !duplicate {
            list[write] = m;
            write += 1;
        }
    }
    list.truncate(write);
}

/// Append the quiet moves of the side to move.
fn generate_quiet<R: Rules>(pos: &Position<R::Word>, list: &mut MoveList<R::Word>) {
    for_each_quiet_move_under::<R>(pos, |from, to, promotes| {
        list.push(Move::quiet(
            Square::from_bit_unchecked(from),
            Square::from_bit_unchecked(to),
            promotes,
        ));
    });
}

/// Call `f(from, to, promotes)` (internal bits) for every quiet move of the side to move,
/// in [`generate_quiet`]'s order: men's steps, then kings' runs (whether they are legal
/// beside a capture is the caller's business).
#[inline(always)]
fn for_each_quiet_move_under<R: Rules>(pos: &Position<R::Word>, mut f: impl FnMut(u32, u32, bool)) {
    if lost_already::<R>(pos) {
        return;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let occ = pos.occupied().0;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    for_each_man_step::<R>(pos, men, empty, &mut f);
    let mut kings = us & pos.kings.0;
    while !kings.is_zero() {
        let k = kings.lowest_bit();
        kings = kings.without_lowest();
        each_direction!(DIR => {
            let mut run = king_moves::<R>(k, DIR, occ);
            while !run.is_zero() {
                let to = run.lowest_bit();
                run = run.without_lowest();
                f(k, to, false);
            }
        });
    }
}

/// The number of quiet moves of the side to move (men's steps and kings' runs; whether
/// they are legal beside a capture is the caller's business).
fn quiet_move_count_under<R: Rules>(pos: &Position<R::Word>) -> u32 {
    let us = pos.by_color[pos.turn.index()].0;
    if lost_already::<R>(pos) {
        0
    } else {
        count_quiet::<R>(
            pos.turn,
            us & !pos.kings.0,
            us & pos.kings.0,
            pos.occupied().0,
        )
    }
}

/// The quiet moves of `men` and `kings` of the side `turn` among the occupied squares `occ`.
#[inline(always)]
pub(crate) fn count_quiet<R: Rules>(
    turn: Color,
    men: R::Word,
    kings: R::Word,
    occ: R::Word,
) -> u32 {
    let empty = board::<R>() & !occ;
    let mut n = match turn {
        Color::White => {
            (step(men, Direction::UpLeft) & empty).ones()
                + (step(men, Direction::UpRight) & empty).ones()
        }
        Color::Black => {
            (step(men, Direction::DownLeft) & empty).ones()
                + (step(men, Direction::DownRight) & empty).ones()
        }
    };
    if !R::FLYING_KINGS {
        if !kings.is_zero() {
            each_direction!(DIR => {
                n += (step(kings, DIR) & empty).ones();
            });
        }
        return n;
    }
    let mut kings = kings;
    while !kings.is_zero() {
        let k = kings.lowest_bit();
        kings = kings.without_lowest();
        each_direction!(DIR => {
            n += king_run::<R>(k, DIR, occ).ones();
        });
    }
    n
}

/// The lowest set bit of `bits` after dropping the `n` lowest.
#[inline(always)]
fn nth_bit<W: Word>(mut bits: W, n: u32) -> u32 {
    for _ in 0..n {
        bits = bits.without_lowest();
    }
    bits.lowest_bit()
}

/// The quiet move at `index` in the order [`generate_quiet`] lists them (men's steps by
/// direction and square, then each king's runs), without listing them; None if `index` is
/// not below [`quiet_move_count_under`].
fn nth_quiet_move_under<R: Rules>(pos: &Position<R::Word>, index: u32) -> Option<Move<R::Word>> {
    if lost_already::<R>(pos) {
        return None;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let occ = pos.occupied().0;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    let crowning = crowning_mask::<R>(pos);
    let mut left = index;
    let dirs = match pos.turn {
        Color::White => [Direction::UpLeft, Direction::UpRight],
        Color::Black => [Direction::DownLeft, Direction::DownRight],
    };
    for dir in dirs {
        let targets = step(men, dir) & empty;
        let n = targets.ones();
        if left < n {
            let to = nth_bit(targets, left);
            return Some(Move::quiet(
                Square::from_bit_unchecked((to as i32 - R::Word::offset(dir)) as u32),
                Square::from_bit_unchecked(to),
                !(R::Word::bit(to) & crowning).is_zero(),
            ));
        }
        left -= n;
    }
    let mut kings = us & pos.kings.0;
    while !kings.is_zero() {
        let k = kings.lowest_bit();
        kings = kings.without_lowest();
        for dir in Direction::ALL {
            let run = king_moves::<R>(k, dir, occ);
            let n = run.ones();
            if left < n {
                return Some(Move::quiet(
                    Square::from_bit_unchecked(k),
                    Square::from_bit_unchecked(nth_bit(run, left)),
                    false,
                ));
            }
            left -= n;
        }
    }
    None
}

/// Append the legal moves of the side to move.
#[inline]
fn generate<R: Rules>(pos: &Position<R::Word>, counting: Counting, list: &mut MoveList<R::Word>) {
    if lost_already::<R>(pos) {
        return;
    }
    if !generate_captures::<R>(pos, counting, list) || !R::CAPTURE_IS_MANDATORY {
        generate_quiet::<R>(pos, list);
    }
}

/// The number of legal moves; quiet moves are counted with popcounts, not listed.
fn count_moves<R: Rules>(pos: &Position<R::Word>, counting: Counting) -> u64 {
    if lost_already::<R>(pos) {
        return 0;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let them = capturable::<R>(pos);
    let occ = us | them;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    let kings = us & pos.kings.0;

    // Men with a first jump, per direction.
    let jumpers = man_jumpers::<R>(pos, men, them, empty);
    let any_jumper = jumpers[0] | jumpers[1] | jumpers[2] | jumpers[3];
    let quiet_count = || u64::from(count_quiet::<R>(pos.turn, men, kings, occ));
    if any_jumper.is_zero() && (kings.is_zero() || !has_captures::<R>(pos)) {
        return quiet_count();
    }
    let captures = if ranks_captures::<R>() {
        // Without kings on the board every capture is a man's taking men: the priority comes
        // down to the most pieces, or to free choice (king first).
        if (pos.kings.0 & board::<R>()).is_zero() {
            if most_pieces_without_kings::<R>() {
                count_most_captures::<R>(pos, counting, jumpers)
            } else {
                count_captures::<R>(pos, counting, jumpers)
            }
        } else if ranked_by_start_and_taken::<R>(pos) {
            sum_over_captures::<R>(pos, counting, |_, _, _, _| 1)
        } else {
            let mut list = MoveList::new();
            generate_captures::<R>(pos, counting, &mut list);
            list.len() as u64
        }
    } else {
        count_captures::<R>(pos, counting, jumpers)
    };
    if R::CAPTURE_IS_MANDATORY {
        captures
    } else {
        captures + quiet_count()
    }
}

/// A capture as the search finds it: start and end bits, the pieces taken, the promotion.
type CaptureFound<W> = (u32, u32, W, bool);

/// Call `visit(from, to, captured, promotes)` (internal bits) for every legal capture of the
/// side to move, once a move under the counting convention. Free choice and the positions
/// without kings (where every priority comes down to the most pieces) need no move list.
#[inline(always)]
fn for_each_capture<R: Rules>(
    pos: &Position<R::Word>,
    counting: Counting,
    mut visit: impl FnMut(u32, u32, R::Word, bool),
) {
    let without_kings = (pos.kings.0 & board::<R>()).is_zero();
    if !ranks_captures::<R>() || (without_kings && !most_pieces_without_kings::<R>()) {
        let mut sink = MoveSink {
            filter: LongCaptureFilter::new(counting),
            visit: |from: Square, to: u32, captured: R::Word, promotes: bool| {
                visit(from.bit(), to, captured, promotes)
            },
        };
        search_captures::<_, R>(pos, counting, &mut sink);
    } else if ranked_by_start_and_taken::<R>(pos) {
        // The best captures, kept as they are found (one search, no move list).
        let mut best_key = 0u64;
        let mut best: smallvec::SmallVec<[CaptureFound<R::Word>; 16]> = smallvec::SmallVec::new();
        let kings = pos.kings.0;
        let mut sink = MoveSink {
            filter: LongCaptureFilter::new(counting),
            visit: |from: Square, to: u32, captured: R::Word, promotes: bool| {
                let key = capture_key::<R>(kings, from.bit(), captured);
                if key > best_key || best.is_empty() {
                    best_key = key;
                    best.clear();
                }
                if key == best_key {
                    best.push((from.bit(), to, captured, promotes));
                }
            },
        };
        search_captures::<_, R>(pos, counting, &mut sink);
        for &(from, to, captured, promotes) in best.iter() {
            visit(from, to, captured, promotes);
        }
    } else {
        let mut list = MoveList::new();
        generate_captures::<R>(pos, counting, &mut list);
        for m in list.iter() {
            visit(m.from.bit(), m.to.bit(), m.captured.0, m.promotes);
        }
    }
}

/// The sum of `f` over every legal capture of the side to move (as [`for_each_capture`]
/// visits them). Where the rules rank captures by their start and the pieces they take,
/// `f` is summed as the captures are found, the sum starting again at each better rank:
/// no capture is kept, at the price of calling `f` for captures a better one outranks
/// later (for cheap `f` only).
#[inline(always)]
fn sum_over_captures<R: Rules>(
    pos: &Position<R::Word>,
    counting: Counting,
    mut f: impl FnMut(u32, u32, R::Word, bool) -> u64,
) -> u64 {
    let without_kings = (pos.kings.0 & board::<R>()).is_zero();
    let free = !ranks_captures::<R>() || (without_kings && !most_pieces_without_kings::<R>());
    if free || !ranked_by_start_and_taken::<R>(pos) {
        let mut sum = 0;
        for_each_capture::<R>(pos, counting, |from, to, captured, promotes| {
            sum += f(from, to, captured, promotes)
        });
        return sum;
    }
    let (mut best_key, mut sum, mut any) = (0u64, 0u64, false);
    let kings = pos.kings.0;
    let mut sink = MoveSink {
        filter: LongCaptureFilter::new(counting),
        visit: |from: Square, to: u32, captured: R::Word, promotes: bool| {
            let key = capture_key::<R>(kings, from.bit(), captured);
            if key > best_key || !any {
                (best_key, sum, any) = (key, 0, true);
            }
            if key == best_key {
                sum += f(from.bit(), to, captured, promotes);
            }
        },
    };
    search_captures::<_, R>(pos, counting, &mut sink);
    drop(sink);
    sum
}

/// Whether the rules' priority ranks the captures of `pos` by their start square and the
/// pieces they take alone ([`capture_key`]): every priority but Italian's where the
/// opponent has a king (its last criterion looks at the order the kings are met in).
#[inline(always)]
fn ranked_by_start_and_taken<R: Rules>(pos: &Position<R::Word>) -> bool {
    !matches!(R::PRIORITY, CapturePriority::Italian)
        || (pos.kings.0 & pos.by_color[1 - pos.turn.index()].0).is_zero()
}

/// A capture's rank under the rules' priority, larger first, from its start square and the
/// pieces it takes (where [`ranked_by_start_and_taken`] says these tell it; [`italian_rank`]
/// otherwise).
#[inline(always)]
fn capture_key<R: Rules>(kings: R::Word, from: u32, captured: R::Word) -> u64 {
    let taken = u64::from(captured.ones());
    let kings_taken = u64::from((captured & kings).ones());
    let by_king = (kings >> from).low64() & 1;
    match R::PRIORITY {
        CapturePriority::Free | CapturePriority::Value => 0,
        CapturePriority::Majority => taken,
        CapturePriority::PiecesThenKings => (taken << 8) | kings_taken,
        CapturePriority::KingFirst => by_king,
        // With no king to take, the order kings are met in ties every capture.
        CapturePriority::Italian => (taken << 16) | (by_king << 8) | kings_taken,
    }
}

/// The number of captures, given the men's first jumps per direction.
#[inline(never)]
fn count_captures<R: Rules>(
    pos: &Position<R::Word>,
    counting: Counting,
    jumpers: [R::Word; 4],
) -> u64 {
    let mut count = 0u64;
    let mut sink = MoveSink {
        filter: LongCaptureFilter::new(counting),
        visit: |_: Square, _: u32, _: R::Word, _: bool| count += 1,
    };
    let simple = search_complex_captures::<R, _>(pos, jumpers, &mut sink);
    drop(sink);
    count + u64::from(simple)
}

/// The number of captures taking the most pieces, given the men's first jumps per
/// direction (the searched captures tell the most; a single jump counted by popcount takes
/// one).
#[inline(always)]
fn count_most_captures<R: Rules>(
    pos: &Position<R::Word>,
    counting: Counting,
    jumpers: [R::Word; 4],
) -> u64 {
    let (mut most, mut count) = (0u32, 0u64);
    let mut sink = MoveSink {
        filter: LongCaptureFilter::new(counting),
        visit: |_: Square, _: u32, captured: R::Word, _: bool| {
            let c = captured.ones();
            if c > most {
                (most, count) = (c, 0);
            }
            if c == most {
                count += 1;
            }
        },
    };
    let simple = search_complex_captures::<R, _>(pos, jumpers, &mut sink);
    drop(sink);
    if most > 1 {
        count
    } else {
        count + u64::from(simple)
    }
}

/// Send to `sink` every capture but the men's single jumps with nothing to take next, and
/// return the number of those (given the men's first jumps per direction).
#[inline(always)]
fn search_complex_captures<R: Rules, S: Sink<R::Word>>(
    pos: &Position<R::Word>,
    jumpers: [R::Word; 4],
    sink: &mut S,
) -> u32 {
    let us = pos.by_color[pos.turn.index()].0;
    let them = capturable::<R>(pos);
    let occ = us | them;
    let empty = board::<R>() & !occ;
    let kings = us & pos.kings.0;
    let any_jumper = jumpers[0] | jumpers[1] | jumpers[2] | jumpers[3];
    let side = SideFacts::of::<R>(pos, them);
    let crowning = side.crowning;
    // Most man captures are single jumps with nothing to take next: count those with
    // popcounts and search only the landings from which a second jump might exist. The test
    // treats every jumper's start square as empty, so it may send a simple jump to the
    // search (which then counts it), never the reverse.
    let landing_empty = empty | any_jumper;
    let mut simple = 0u32;
    each_direction!(DIR => {
        let starts = jumpers[DIR.index()];
        if !starts.is_zero() {
            let landings = step(step(starts, DIR), DIR);
            let mut more = landings & crowning;
            each_direction!(NEXT => {
                if NEXT.index() != DIR.opposite().index() {
                    more |= landings
                        & step(them, NEXT.opposite())
                        & step(step(landing_empty, NEXT.opposite()), NEXT.opposite());
                }
            });
            simple += (landings & !more).ones();
            let mut complex = more;
            while !complex.is_zero() {
                let landing = complex.lowest_bit();
                complex = complex.without_lowest();
                let bit = (landing as i32 - 2 * R::Word::offset(DIR)) as u32;
                let mut search = CaptureSearch::<_, R>::new(occ, side.man_targets, &side, bit, true, &mut *sink);
                search.man_jump(bit, DIR, R::Word::ZERO);
            }
        }
    });
    let mut pieces = kings;
    while !pieces.is_zero() {
        let bit = pieces.lowest_bit();
        pieces = pieces.without_lowest();
        let mut search = CaptureSearch::<_, R>::new(occ, them, &side, bit, false, &mut *sink);
        each_direction!(DIR => {
            if search.king_can_capture(bit, DIR, R::Word::ZERO) {
                search.king_jump(bit, DIR, R::Word::ZERO);
            }
        });
    }
    simple
}

/// The leaves two plies below `pos` (perft 2): the sum of the children's move counts.
///
/// Where the opponent has no king the children are not made: a move changes its start and
/// end squares and takes the captured men away, and the reply count is the opponent's
/// men's steps into the empty squares, unless the move leaves the opponent a capture (then
/// the child is made and counted in full).
fn count_two_plies<R: Rules>(pos: &Position<R::Word>, counting: Counting) -> u64 {
    match pos.turn {
        Color::White => two_plies::<R, true>(pos, counting),
        Color::Black => two_plies::<R, false>(pos, counting),
    }
}

/// [`count_two_plies`] compiled for one side to move (`WHITE`): the directions the
/// opponent's men move and capture in are constants.
#[inline(always)]
fn two_plies<R: Rules, const WHITE: bool>(pos: &Position<R::Word>, counting: Counting) -> u64 {
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
    let kings = pos.kings.0 & board::<R>();
    // (Where crowning wins, a crowning move leaves the opponent no reply: the children
    // are made and counted by the rules.)
    // (Where a side takes its own pieces, a move's replies are not its opponent's men's
    // captures alone: the children are made and counted by the rules.)
    if !(them & kings).is_zero() || R::CROWNING_WINS || R::CAPTURE_OWN {
        let mut n = 0;
        for_each_child::<R, false>(pos, counting, |child| {
            n += count_moves::<R>(child, counting)
        });
        return n;
    }
    // The replies after `from` → `to` taking `captured` (a man, a king, a promotion alike;
    // a capture may end where it started). The test for a reply capture looks, in each
    // direction the opponent's men capture in, at every piece of ours (more than some
    // games' men may take): when it finds one, the child is made and counted by the rules.
    let replies = |from: u32, to: u32, captured: R::Word, promotes: bool| -> u64 {
        let us = (us & !R::Word::bit(from)) | R::Word::bit(to);
        let them_men = them & !captured;
        let empty = board::<R>() & !(us | them_men);
        let mut jumps = R::Word::ZERO;
        each_direction!(DIR => {
            if man_captures_in::<R>(DIR, !WHITE) {
                jumps |= step(step(empty, DIR.opposite()) & us, DIR.opposite());
            }
        });
        if !(jumps & them_men).is_zero() {
            let mut child = *pos;
            child.apply::<false>(from, to, captured, promotes);
            return count_moves::<R>(&child, counting);
        }
        // The opponent moves: Black's men step down, White's up.
        let steps = if WHITE {
            (step(them_men, Direction::DownLeft) & empty).ones()
                + (step(them_men, Direction::DownRight) & empty).ones()
        } else {
            (step(them_men, Direction::UpLeft) & empty).ones()
                + (step(them_men, Direction::UpRight) & empty).ones()
        };
        u64::from(steps)
    };
    let mut n = 0;
    if has_captures::<R>(pos) {
        n += sum_over_captures::<R>(pos, counting, replies);
        if R::CAPTURE_IS_MANDATORY {
            return n;
        }
    }
    let men = us & !kings;
    let empty = board::<R>() & !(us | them);
    for_each_man_step::<R>(pos, men, empty, |from, to, _promotes| {
        n += replies(from, to, R::Word::ZERO, false)
    });
    let occ = us | them;
    let mut our_kings = us & kings;
    while !our_kings.is_zero() {
        let k = our_kings.lowest_bit();
        our_kings = our_kings.without_lowest();
        each_direction!(DIR => {
            let mut run = king_moves::<R>(k, DIR, occ);
            while !run.is_zero() {
                let to = run.lowest_bit();
                run = run.without_lowest();
                n += replies(k, to, R::Word::ZERO, false);
            }
        });
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two captures from one square to one square whose taken pieces differ only on the
    /// 10×10 board's upper ranks (bits 40 and up) are two moves, the same one twice is one.
    #[test]
    fn long_capture_filter_tells_apart_pieces_taken_on_the_upper_ranks() {
        let mut filter = LongCaptureFilter::new(Counting::Distinct);
        let from = Square::from_bit_unchecked(20);
        let taken = (1u64 << 30) | (1u64 << 35) | (1u64 << 44);
        assert!(filter.is_new(from, 1, taken | (1u64 << 40), false));
        assert!(filter.is_new(from, 1, taken, false));
        assert!(!filter.is_new(from, 1, taken, false));
        assert!(filter.is_new(from, 1, taken, true));
        assert!(filter.is_new(Square::from_bit_unchecked(21), 1, taken, false));
        let mut orders = LongCaptureFilter::new(Counting::Orders);
        assert!(orders.is_new(from, 1, taken, false));
        assert!(orders.is_new(from, 1, taken, false));
    }
}
