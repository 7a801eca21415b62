//! Move generation: quiet moves, man captures, flying-king captures, the Turkish strike rule
//! and promotion (docs/rules.rst, "Moves" and "Captures").
//!
//! Rule variations enter as a [`Rules`] type parameter resolved at compile time: each rule
//! switch is an associated constant, so the Russian path pays nothing for the others:
//! [`Russian`] (also the moves of giveaway and of the diagonal start), [`Brazilian`]
//! (majority capture, no crowning mid-capture) and [`CapturesOptional`] of either (seed
//! 001's house rule: a quiet move stays legal beside a capture). A position carries its
//! [`RuleSet`]; `crate::variant::with_rules!` turns it into one of these types.

use crate::bitboard::{Bitboard, Direction};
use crate::mv::{Move, MoveList, MAX_PATH};
use crate::position::Position;
use crate::square::{Geometry, Square};

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

/// Which captures are legal when several exist (the captures not listed here are free to
/// choose among).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum CapturePriority {
    /// Free choice among the captures (Russian, English, Pool, Thai).
    Free,
    /// The captures taking the most pieces, kings and men counting one (Brazilian).
    Majority,
    /// The most pieces; among those, the most kings (Spanish, Portuguese).
    PiecesThenKings,
    /// The Italian federation's order: the most pieces; then a capture by a king; then the
    /// most kings; then the capture that meets a king first (then the next, …).
    Italian,
    /// A king must capture when a king can; otherwise free choice (Czech).
    KingFirst,
}

/// Rule switches of a draughts game, as compile-time constants: each game's move rules are
/// one type, and the generator is compiled once per type (nothing is decided per game in the
/// hot loop).
pub trait Rules: Copy + Send + Sync + 'static {
    /// A man reaching the far rank during a capture is crowned at once and goes on
    /// capturing as a king (docs/rules.rst, "Captures" 8). Otherwise it goes on as a man and is crowned
    /// only if the move ends there (where men capture only forwards, the move ends there).
    const CROWN_DURING_CAPTURE: bool;
    /// Capturing is compulsory (docs/rules.rst, "Captures" 1). Otherwise quiet moves stay legal beside captures.
    const CAPTURE_IS_MANDATORY: bool;
    /// Which of several captures are legal.
    const PRIORITY: CapturePriority;
    /// Men capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARDS: bool;
    /// Kings move and capture along whole diagonals; otherwise one square (a capture jumps
    /// the adjacent piece to the square behind it).
    const FLYING_KINGS: bool;
    /// A man may capture a king (Italian: never).
    const MAN_TAKES_KING: bool;
    /// A flying king capturing lands on the square directly behind the piece it takes
    /// (Thai); otherwise on any empty square behind it.
    const KING_LANDS_BEHIND: bool;
    /// The pieces taken leave the board as they are jumped (Thai): their squares may be
    /// crossed again in the same move. Otherwise they stay until the move ends (the
    /// Turkish strike rule) and block.
    const REMOVE_DURING_MOVE: bool;
    /// The board the game is played on (the 8×8 one unless a rules type says otherwise).
    const GEOMETRY: &'static Geometry = Geometry::EIGHT;
    /// A flying king whose capture ends on taking a king stops on the square directly
    /// behind that king (Killer draughts); otherwise on any empty square behind it.
    const KING_STOPS_BEHIND_KING: bool = false;
    /// The first side to crown a man wins (breakthrough): a side whose opponent has a king
    /// has lost and has no moves.
    const CROWNING_WINS: bool = false;
}

/// Declares a move-rules type and its constants.
macro_rules! rules_type {
    ($(#[$doc:meta])* $name:ident {
        crown: $crown:expr, priority: $priority:ident, backwards: $back:expr,
        flying: $fly:expr, man_takes_king: $mtk:expr, lands_behind: $behind:expr,
        remove_during_move: $remove:expr $(, board: $board:expr)? $(,)?
        $(; $flag:ident = $value:expr)*
    }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl Rules for $name {
            const CROWN_DURING_CAPTURE: bool = $crown;
            const CAPTURE_IS_MANDATORY: bool = true;
            const PRIORITY: CapturePriority = CapturePriority::$priority;
            const MEN_CAPTURE_BACKWARDS: bool = $back;
            const FLYING_KINGS: bool = $fly;
            const MAN_TAKES_KING: bool = $mtk;
            const KING_LANDS_BEHIND: bool = $behind;
            const REMOVE_DURING_MOVE: bool = $remove;
            $(const GEOMETRY: &'static Geometry = $board;)?
            $(const $flag: bool = $value;)*
        }
    };
}

rules_type! {
    /// Russian draughts (русские шашки), as docs/rules.rst describes them (also the moves
    /// of giveaway and of the diagonal start).
    Russian {
        crown: true, priority: Free, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Brazilian draughts: international rules on the 8×8 board. The capture that takes the
    /// most pieces is compulsory, and a man crossing the far rank during a capture goes on as
    /// a man (crowned only if the move ends there).
    Brazilian {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// International draughts (FMJD), on the 10×10 board: men capture backwards, flying
    /// kings, the capture taking the most pieces is compulsory (kings and men count one), a
    /// man crossing the far rank during a capture goes on as a man.
    International {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TEN,
    }
}

rules_type! {
    /// Killer draughts (Christian Freeling's rule on International draughts): as
    /// [`International`], but a king whose capture ends on taking a king stops on the square
    /// directly behind it.
    Killer {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TEN,
        ; KING_STOPS_BEHIND_KING = true
    }
}

rules_type! {
    /// Breakthrough draughts: International draughts' moves, and the first side to crown a
    /// man wins (the other side, to move, has lost).
    Breakthrough {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TEN,
        ; CROWNING_WINS = true
    }
}

rules_type! {
    /// English draughts (American checkers): men move and capture forward only, kings one
    /// square in every direction, free choice of capture; a man crowned by a capture ends
    /// the move.
    English {
        crown: false, priority: Free, backwards: false, flying: false, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Italian draughts: as English, but a man never captures a king and the federation's
    /// capture priorities ([`CapturePriority::Italian`]) apply.
    Italian {
        crown: false, priority: Italian, backwards: false, flying: false, man_takes_king: false,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Spanish (and Portuguese) draughts: men forward only, flying kings, the most pieces and
    /// then the most kings.
    Spanish {
        crown: false, priority: PiecesThenKings, backwards: false, flying: true,
        man_takes_king: true, lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Czech draughts: men forward only, flying kings, a king must capture when one can.
    Czech {
        crown: false, priority: KingFirst, backwards: false, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Pool checkers: men capture backwards, flying kings, free choice; a man crossing the
    /// far row during a capture goes on as a man.
    Pool {
        crown: false, priority: Free, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Thai draughts: men forward only, flying kings that land directly behind the piece
    /// they take, pieces taken leave the board at once, free choice; a king never turns
    /// back along the line it came.
    Thai {
        crown: false, priority: Free, backwards: false, flying: true, man_takes_king: true,
        lands_behind: true, remove_during_move: true,
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

/// The rules `R` with capturing optional (a house rule): a quiet move is legal
/// beside a capture; a capture, once chosen, follows `R` (completed; the priority
/// among captures where `R` has one).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CapturesOptional<R: Rules>(pub R);

impl<R: Rules + Default> Rules for CapturesOptional<R> {
    const CROWN_DURING_CAPTURE: bool = R::CROWN_DURING_CAPTURE;
    const CAPTURE_IS_MANDATORY: bool = false;
    const PRIORITY: CapturePriority = R::PRIORITY;
    const MEN_CAPTURE_BACKWARDS: bool = R::MEN_CAPTURE_BACKWARDS;
    const FLYING_KINGS: bool = R::FLYING_KINGS;
    const MAN_TAKES_KING: bool = R::MAN_TAKES_KING;
    const KING_LANDS_BEHIND: bool = R::KING_LANDS_BEHIND;
    const REMOVE_DURING_MOVE: bool = R::REMOVE_DURING_MOVE;
    const GEOMETRY: &'static Geometry = R::GEOMETRY;
    const KING_STOPS_BEHIND_KING: bool = R::KING_STOPS_BEHIND_KING;
    const CROWNING_WINS: bool = R::CROWNING_WINS;
}

/// Whether the side to move has lost before moving: in breakthrough, the opponent has
/// crowned a man. Such a side has no moves (a constant `false` in every other game).
#[inline(always)]
fn lost_already<R: Rules>(pos: &Position) -> bool {
    R::CROWNING_WINS && pos.kings.0 & pos.by_color[1 - pos.turn.index()].0 != 0
}

/// The squares of the board `R` is played on: a constant of each compiled generator.
#[inline(always)]
fn board<R: Rules>() -> u64 {
    const { R::GEOMETRY.board().0 }
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
fn ray<R: Rules>(bit: u32, dir: Direction) -> u64 {
    R::GEOMETRY.rays[bit as usize & 63][dir.index()]
}

/// One diagonal step, without the board mask of [`Bitboard::shift`]: every use intersects
/// the result with a set of board squares before using it as squares or stepping again, so
/// a step onto a ghost bit or off the board vanishes there. (A second unmasked step after
/// a ghost bit could reach a real square: nowhere does a step follow a step without such an
/// intersection between them, or after them with a set that excludes that case.)
#[inline(always)]
fn step(bb: u64, dir: Direction) -> u64 {
    let off = dir.offset();
    if off > 0 {
        bb << off
    } else {
        bb >> (-off)
    }
}

/// The nearest occupied bit from `bit` in `dir`, if any.
#[inline(always)]
fn first_blocker<R: Rules>(bit: u32, dir: Direction, occ: u64) -> Option<u32> {
    let b = ray::<R>(bit, dir) & occ;
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
fn king_run<R: Rules>(bit: u32, dir: Direction, occ: u64) -> u64 {
    let r = ray::<R>(bit, dir);
    match first_blocker::<R>(bit, dir, occ) {
        None => r,
        Some(x) => r & !(ray::<R>(x, dir) | (1u64 << x)),
    }
}

/// White's crowning rank on the board of `R`.
#[inline(always)]
fn white_crowning<R: Rules>() -> u64 {
    const { R::GEOMETRY.rank(R::GEOMETRY.size() - 1).0 }
}

/// The side to move's crowning rank.
#[inline(always)]
fn crowning_mask<R: Rules>(pos: &Position) -> u64 {
    match pos.turn {
        crate::Color::White => white_crowning::<R>(),
        crate::Color::Black => const { R::GEOMETRY.rank(0).0 },
    }
}

/// Call `f(from, to, promotes)` for every quiet step of the side to move's men, with one
/// loop per forward direction so that each shift is a constant.
#[inline(always)]
fn for_each_man_step<R: Rules>(
    pos: &Position,
    men: u64,
    empty: u64,
    mut f: impl FnMut(u32, u32, bool),
) {
    let crowning = crowning_mask::<R>(pos);
    macro_rules! steps {
        ($dir:expr) => {{
            const DIR: Direction = $dir;
            let mut targets = step(men, DIR) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                f(
                    (to as i32 - DIR.offset()) as u32,
                    to,
                    (1u64 << to) & crowning != 0,
                );
            }
        }};
    }
    match pos.turn {
        crate::Color::White => {
            steps!(Direction::UpLeft);
            steps!(Direction::UpRight);
        }
        crate::Color::Black => {
            steps!(Direction::DownLeft);
            steps!(Direction::DownRight);
        }
    }
}

/// The empty squares a king on `bit` reaches in `dir` with a quiet move.
#[inline(always)]
fn king_moves<R: Rules>(bit: u32, dir: Direction, occ: u64) -> u64 {
    if R::FLYING_KINGS {
        king_run::<R>(bit, dir, occ)
    } else {
        step(1u64 << bit, dir) & board::<R>() & !occ
    }
}

/// Whether the side to move's men (White's if `white`) capture in `dir`.
#[inline(always)]
fn man_captures_in<R: Rules>(dir: Direction, white: bool) -> bool {
    R::MEN_CAPTURE_BACKWARDS || dir.is_up() == white
}

/// The enemy pieces a man may capture, of `them` (with `kings` among them).
#[inline(always)]
fn man_targets<R: Rules>(them: u64, kings: u64) -> u64 {
    if R::MAN_TAKES_KING {
        them
    } else {
        them & !kings
    }
}

/// The men of `men` with a first jump, per direction (exact: every one has that jump).
#[inline(always)]
fn man_jumpers<R: Rules>(pos: &Position, men: u64, them: u64, empty: u64) -> [u64; 4] {
    let targets = man_targets::<R>(them, pos.kings.0);
    let white = pos.turn == crate::Color::White;
    let mut jumpers = [0u64; 4];
    each_direction!(DIR => {
        if man_captures_in::<R>(DIR, white) {
            jumpers[DIR.index()] = step(step(empty, DIR.opposite()) & targets, DIR.opposite()) & men;
        }
    });
    jumpers
}

/// Whether the side to move has a capture under the rules `R`.
pub(crate) fn has_captures<R: Rules>(pos: &Position) -> bool {
    if lost_already::<R>(pos) {
        return false;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
    let occ = us | them;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    let targets = man_targets::<R>(them, pos.kings.0);
    let white = pos.turn == crate::Color::White;
    each_direction!(DIR => {
        if man_captures_in::<R>(DIR, white) && step(step(men, DIR) & targets, DIR) & empty != 0 {
            return true;
        }
    });
    if !R::FLYING_KINGS {
        let kings = us & pos.kings.0;
        each_direction!(DIR => {
            if step(step(kings, DIR) & them, DIR) & empty != 0 {
                return true;
            }
        });
        return false;
    }
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        each_direction!(DIR => {
            if let Some(x) = first_blocker::<R>(k, DIR, occ) {
                if them & (1u64 << x) != 0 && step(1u64 << x, DIR) & empty != 0 {
                    return true;
                }
            }
        });
    }
    false
}

/// Where the capture search sends each finished capture sequence.
trait Sink {
    /// Whether the landing squares must be recorded.
    const PATH: bool;
    /// A finished sequence; its landing squares are `path[..path_len]`.
    fn emit(
        &mut self,
        from: Square,
        to: u32,
        captured: u64,
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
struct ListSink<'a> {
    list: &'a mut MoveList,
    piece_begin: usize,
    long_capture: bool,
}

impl Sink for ListSink<'_> {
    const PATH: bool = true;

    #[inline(always)]
    fn emit(
        &mut self,
        from: Square,
        to: u32,
        captured: u64,
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
        self.long_capture |= captured.count_ones() >= 3;
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
struct LongCaptureFilter {
    dedup: bool,
    keys: smallvec::SmallVec<[u64; 16]>,
}

impl LongCaptureFilter {
    fn new(counting: Counting) -> LongCaptureFilter {
        LongCaptureFilter {
            dedup: counting == Counting::Distinct,
            keys: smallvec::SmallVec::new(),
        }
    }

    /// Whether this sequence is a move not seen before in this position.
    #[inline(always)]
    fn is_new(&mut self, from: Square, to: u32, captured: u64, promotes: bool) -> bool {
        if !self.dedup || captured.count_ones() < 3 {
            return true;
        }
        let key = captured
            | (u64::from(to) << 40)
            | (u64::from(promotes) << 46)
            | (u64::from(from.bit()) << 47);
        if self.keys.contains(&key) {
            return false;
        }
        self.keys.push(key);
        true
    }
}

/// Hands each capture (start, end, captured, promotion) to a callback, once a move under
/// the counting convention.
struct MoveSink<F: FnMut(Square, u32, u64, bool)> {
    filter: LongCaptureFilter,
    visit: F,
}

impl<F: FnMut(Square, u32, u64, bool)> Sink for MoveSink<F> {
    const PATH: bool = false;

    #[inline(always)]
    fn emit(
        &mut self,
        from: Square,
        to: u32,
        captured: u64,
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
pub(crate) fn for_each_child<R: Rules, const HASH: bool>(
    pos: &Position,
    counting: Counting,
    mut visit: impl FnMut(&Position),
) {
    if lost_already::<R>(pos) {
        return;
    }
    if has_captures::<R>(pos) {
        for_each_capture::<R>(pos, counting, |from, to, captured, promotes| {
            let mut child = *pos;
            child.apply::<HASH>(from, to, captured, promotes);
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
        child.apply::<HASH>(from, to, 0, promotes);
        visit(&child);
    });
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        each_direction!(DIR => {
            let mut run = king_moves::<R>(k, DIR, occ);
            while run != 0 {
                let to = run.trailing_zeros();
                run &= run - 1;
                let mut child = *pos;
                child.apply::<HASH>(k, to, 0, false);
                visit(&child);
            }
        });
    }
}

/// What the capture search needs of the side to move, worked out once a position.
struct SideFacts {
    /// The enemy pieces a man may take.
    man_targets: u64,
    /// The side's crowning rank.
    crowning: u64,
    /// The enemy kings, where the rules stop a king's capture behind a king (else none).
    their_kings: u64,
}

impl SideFacts {
    #[inline(always)]
    fn of<R: Rules>(pos: &Position, them: u64) -> SideFacts {
        SideFacts {
            man_targets: man_targets::<R>(them, pos.kings.0),
            crowning: crowning_mask::<R>(pos),
            their_kings: if R::KING_STOPS_BEHIND_KING {
                pos.kings.0 & them
            } else {
                0
            },
        }
    }
}

/// Depth-first search of the capture sequences of one piece.
struct CaptureSearch<'a, S: Sink, R: Rules> {
    /// Occupied squares during the capture: the mover's start square is empty, captured
    /// pieces stay (they block until the move ends) unless the rules remove them at once.
    occ: u64,
    /// Enemy pieces that may be taken (captured ones included; `captured` tells them apart).
    /// A man's search, where men never take kings, is given the enemy men only: such a man
    /// is never crowned during a capture.
    them: u64,
    crowning: u64,
    /// [`SideFacts::their_kings`].
    their_kings: u64,
    from: Square,
    start_is_man: bool,
    path: [Square; MAX_PATH],
    path_len: usize,
    sink: &'a mut S,
    rules: std::marker::PhantomData<R>,
}

impl<'a, S: Sink, R: Rules> CaptureSearch<'a, S, R> {
    /// The search for the piece on `bit` (a man if `start_is_man`) of the side to move,
    /// given all occupied squares, the enemy pieces and the facts of the position that do
    /// not change from one piece to the next; its start square counts as empty.
    #[inline(always)]
    fn new(
        occ: u64,
        them: u64,
        side: &SideFacts,
        bit: u32,
        start_is_man: bool,
        sink: &'a mut S,
    ) -> Self {
        CaptureSearch {
            occ: occ & !(1u64 << bit),
            them,
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
    fn empty(&self) -> u64 {
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
    fn emit(&mut self, to: u32, captured: u64, promotes: bool) {
        let len = self.path_len.min(MAX_PATH);
        self.sink
            .emit(self.from, to, captured, promotes, &self.path, len);
    }

    /// Take `victim` (a single bit) off the board for the rest of the sequence, where the
    /// rules remove pieces as they are taken; [`CaptureSearch::put_back`] undoes it.
    #[inline(always)]
    fn take_off(&mut self, victim: u64) {
        if R::REMOVE_DURING_MOVE {
            self.occ &= !victim;
        }
    }

    #[inline(always)]
    fn put_back(&mut self, victim: u64) {
        if R::REMOVE_DURING_MOVE {
            self.occ |= victim;
        }
    }

    /// A man on `bit` jumps in `dir` (the jump is known to exist), then goes on.
    #[inline(always)]
    fn man_jump(&mut self, bit: u32, dir: Direction, captured: u64) {
        let victim = step(1u64 << bit, dir);
        let landing = step(victim, dir);
        let to = landing.trailing_zeros();
        self.push(to);
        self.take_off(victim);
        if R::CROWN_DURING_CAPTURE && landing & self.crowning != 0 {
            self.crowned(to, captured | victim);
        } else {
            self.man(to, captured | victim);
        }
        self.put_back(victim);
        self.pop();
    }

    /// A man on `bit` having taken `captured`: jump on, or end the move here.
    fn man(&mut self, bit: u32, captured: u64) {
        let here = 1u64 << bit;
        let capturable = self.them & !captured;
        let empty = self.empty();
        let mut continued = false;
        each_direction!(DIR => {
            if man_captures_in::<R>(DIR, self.white()) {
                let victim = step(here, DIR) & capturable;
                let landing = step(victim, DIR) & empty;
                if landing != 0 {
                    continued = true;
                    self.man_jump(bit, DIR, captured);
                }
            }
        });
        if !continued {
            let promotes = !R::CROWN_DURING_CAPTURE && here & self.crowning != 0;
            self.emit(bit, captured, promotes);
        }
    }

    /// A man just crowned on `bit` during a capture goes on capturing as a king (docs/rules.rst, "Captures" 8).
    fn crowned(&mut self, bit: u32, captured: u64) {
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
    fn king_victim(&self, bit: u32, dir: Direction, captured: u64) -> Option<u32> {
        if R::FLYING_KINGS {
            let x = first_blocker::<R>(bit, dir, self.occ)?;
            let xb = 1u64 << x;
            (xb & self.them & !captured != 0 && step(xb, dir) & self.empty() != 0).then_some(x)
        } else {
            let xb = step(1u64 << bit, dir) & self.them & !captured;
            (step(xb, dir) & self.empty() != 0).then(|| xb.trailing_zeros())
        }
    }

    /// Whether a king on `bit` can capture in `dir`.
    #[inline(always)]
    fn king_can_capture(&self, bit: u32, dir: Direction, captured: u64) -> bool {
        if R::FLYING_KINGS {
            match first_blocker::<R>(bit, dir, self.occ) {
                Some(x) => {
                    let xb = 1u64 << x;
                    xb & self.them & !captured != 0 && step(xb, dir) & self.empty() != 0
                }
                None => false,
            }
        } else {
            let xb = step(1u64 << bit, dir) & self.them & !captured;
            step(xb, dir) & self.empty() != 0
        }
    }

    /// A king on `bit` captures the first piece in `dir` (known to be capturable).
    fn king_jump(&mut self, bit: u32, dir: Direction, captured: u64) {
        if !R::FLYING_KINGS || R::KING_LANDS_BEHIND {
            return self.king_jump_behind(bit, dir, captured);
        }
        let Some(x) = first_blocker::<R>(bit, dir, self.occ) else {
            return;
        };
        let captured = captured | (1u64 << x);
        let run = king_run::<R>(x, dir, self.occ);
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
        // No continuation anywhere: the king may stop on any square behind its last victim
        // (in Killer draughts, behind a king only on the square next to it).
        if !continued {
            let promotes = self.start_is_man;
            let mut landings = if R::KING_STOPS_BEHIND_KING && self.their_kings & (1u64 << x) != 0 {
                step(1u64 << x, dir)
            } else {
                run
            };
            while landings != 0 {
                let l = landings.trailing_zeros();
                landings &= landings - 1;
                self.push(l);
                self.emit(l, captured, promotes);
                self.pop();
            }
        }
    }

    /// A king that lands on the square directly behind the piece it takes (a short king's
    /// jump, or a Thai king's): one landing, then on in any direction but back.
    fn king_jump_behind(&mut self, bit: u32, dir: Direction, captured: u64) {
        let Some(x) = self.king_victim(bit, dir, captured) else {
            return;
        };
        let victim = 1u64 << x;
        let captured = captured | victim;
        let landing = step(victim, dir).trailing_zeros();
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

/// Send every capture of the side to move to `sink`.
fn search_captures<S: Sink, R: Rules>(pos: &Position, counting: Counting, sink: &mut S) {
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
    let all_occ = us | them;
    let empty = board::<R>() & !all_occ;
    let men = us & !pos.kings.0;
    let kings = us & pos.kings.0;
    let dedup = counting == Counting::Distinct;

    // Men that have a first jump.
    let [a, b, c, d] = man_jumpers::<R>(pos, men, them, empty);
    let side = SideFacts::of::<R>(pos, them);
    let mut pieces = a | b | c | d;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let mut search =
            CaptureSearch::<_, R>::new(all_occ, side.man_targets, &side, bit, true, &mut *sink);
        search.man(bit, 0);
        sink.end_piece(dedup);
    }

    let mut pieces = kings;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let mut search = CaptureSearch::<_, R>::new(all_occ, them, &side, bit, false, &mut *sink);
        each_direction!(DIR => {
            if search.king_can_capture(bit, DIR, 0) {
                search.king_jump(bit, DIR, 0);
            }
        });
        sink.end_piece(dedup);
    }
}

/// Append the captures of the side to move that the rules' priority allows; returns whether
/// there were any.
fn generate_captures<R: Rules>(pos: &Position, counting: Counting, list: &mut MoveList) -> bool {
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
    }
    list.len() > start_len
}

/// The Italian federation's ranking of a capture, larger first: the pieces taken; then
/// whether a king takes them; then the kings taken; then where the kings come in the
/// sequence (a king taken earlier ranks higher, compared capture by capture). Every jump
/// of the Italian game is short, so the piece taken is midway between two landings.
fn italian_rank(pos: &Position, m: &Move) -> u64 {
    let mut order = 0u64;
    let mut prev = m.from.bit();
    for (i, landing) in m.path().iter().enumerate() {
        let l = landing.bit();
        let taken = (prev + l) / 2;
        if pos.kings.0 & (1u64 << taken) != 0 && i < 32 {
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
fn keep_best(list: &mut MoveList, begin: usize, key: impl Fn(&Move) -> u64) {
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
fn dedup_moves(list: &mut MoveList, begin: usize) {
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
fn generate_quiet<R: Rules>(pos: &Position, list: &mut MoveList) {
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
pub(crate) fn for_each_quiet_move(pos: &Position, f: impl FnMut(u32, u32, bool)) {
    crate::variant::with_rules!(@code pos.rules_code(), R => for_each_quiet_move_under::<R>(pos, f))
}

#[inline(always)]
fn for_each_quiet_move_under<R: Rules>(pos: &Position, mut f: impl FnMut(u32, u32, bool)) {
    if lost_already::<R>(pos) {
        return;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let occ = pos.occupied().0;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    for_each_man_step::<R>(pos, men, empty, &mut f);
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        each_direction!(DIR => {
            let mut run = king_moves::<R>(k, DIR, occ);
            while run != 0 {
                let to = run.trailing_zeros();
                run &= run - 1;
                f(k, to, false);
            }
        });
    }
}

/// The number of quiet moves of the side to move (men's steps and kings' runs; whether
/// they are legal beside a capture is the caller's business).
pub(crate) fn quiet_move_count(pos: &Position) -> u32 {
    let us = pos.by_color[pos.turn.index()].0;
    crate::variant::with_rules!(@code pos.rules_code(), R => if lost_already::<R>(pos) {
        0
    } else {
        count_quiet::<R>(pos.turn, us & !pos.kings.0, us & pos.kings.0, pos.occupied().0)
    })
}

/// The quiet moves of `men` and `kings` of the side `turn` among the occupied squares `occ`.
#[inline(always)]
fn count_quiet<R: Rules>(turn: crate::Color, men: u64, kings: u64, occ: u64) -> u32 {
    let empty = board::<R>() & !occ;
    let mut n = match turn {
        crate::Color::White => {
            (step(men, Direction::UpLeft) & empty).count_ones()
                + (step(men, Direction::UpRight) & empty).count_ones()
        }
        crate::Color::Black => {
            (step(men, Direction::DownLeft) & empty).count_ones()
                + (step(men, Direction::DownRight) & empty).count_ones()
        }
    };
    if !R::FLYING_KINGS {
        each_direction!(DIR => {
            n += (step(kings, DIR) & empty).count_ones();
        });
        return n;
    }
    let mut kings = kings;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        each_direction!(DIR => {
            n += king_run::<R>(k, DIR, occ).count_ones();
        });
    }
    n
}

/// The lowest set bit of `bits` after dropping the `n` lowest.
#[inline(always)]
fn nth_bit(mut bits: u64, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// The quiet move at `index` in the order [`generate_quiet`] lists them (men's steps by
/// direction and square, then each king's runs), without listing them; None if `index` is
/// not below [`quiet_move_count`].
pub(crate) fn nth_quiet_move(pos: &Position, index: u32) -> Option<Move> {
    crate::variant::with_rules!(@code pos.rules_code(), R => nth_quiet_move_under::<R>(pos, index))
}

fn nth_quiet_move_under<R: Rules>(pos: &Position, index: u32) -> Option<Move> {
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
        crate::Color::White => [Direction::UpLeft, Direction::UpRight],
        crate::Color::Black => [Direction::DownLeft, Direction::DownRight],
    };
    for dir in dirs {
        let targets = step(men, dir) & empty;
        let n = targets.count_ones();
        if left < n {
            let to = nth_bit(targets, left);
            return Some(Move::quiet(
                Square::from_bit_unchecked((to as i32 - dir.offset()) as u32),
                Square::from_bit_unchecked(to),
                (1u64 << to) & crowning != 0,
            ));
        }
        left -= n;
    }
    let mut kings = us & pos.kings.0;
    while kings != 0 {
        let k = kings.trailing_zeros();
        kings &= kings - 1;
        for dir in Direction::ALL {
            let run = king_moves::<R>(k, dir, occ);
            let n = run.count_ones();
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
pub(crate) fn generate<R: Rules>(pos: &Position, counting: Counting, list: &mut MoveList) {
    if lost_already::<R>(pos) {
        return;
    }
    if !generate_captures::<R>(pos, counting, list) || !R::CAPTURE_IS_MANDATORY {
        generate_quiet::<R>(pos, list);
    }
}

/// The number of legal moves; quiet moves are counted with popcounts, not listed.
pub(crate) fn count_moves<R: Rules>(pos: &Position, counting: Counting) -> u64 {
    if lost_already::<R>(pos) {
        return 0;
    }
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
    let occ = us | them;
    let empty = board::<R>() & !occ;
    let men = us & !pos.kings.0;
    let kings = us & pos.kings.0;

    // Men with a first jump, per direction.
    let jumpers = man_jumpers::<R>(pos, men, them, empty);
    let any_jumper = jumpers[0] | jumpers[1] | jumpers[2] | jumpers[3];
    let quiet_count = || u64::from(count_quiet::<R>(pos.turn, men, kings, occ));
    if any_jumper == 0 && (kings == 0 || !has_captures::<R>(pos)) {
        return quiet_count();
    }
    let captures = if ranks_captures::<R>() {
        // Without kings on the board every capture is a man's taking men: the priority comes
        // down to the most pieces, or to free choice (king first).
        if pos.kings.0 & board::<R>() == 0 {
            if most_pieces_without_kings::<R>() {
                count_most_captures::<R>(pos, counting, jumpers)
            } else {
                count_captures::<R>(pos, counting, jumpers)
            }
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

/// Call `visit(from, to, captured, promotes)` (internal bits) for every legal capture of the
/// side to move, once a move under the counting convention. Free choice and the positions
/// without kings (where every priority comes down to the most pieces) need no move list.
#[inline(always)]
fn for_each_capture<R: Rules>(
    pos: &Position,
    counting: Counting,
    mut visit: impl FnMut(u32, u32, u64, bool),
) {
    let without_kings = pos.kings.0 & board::<R>() == 0;
    if !ranks_captures::<R>() || (without_kings && !most_pieces_without_kings::<R>()) {
        let mut sink = MoveSink {
            filter: LongCaptureFilter::new(counting),
            visit: |from: Square, to: u32, captured: u64, promotes: bool| {
                visit(from.bit(), to, captured, promotes)
            },
        };
        search_captures::<_, R>(pos, counting, &mut sink);
    } else if without_kings {
        // The captures taking the most pieces, kept as they are found (one search).
        let mut most = 0u32;
        let mut best: smallvec::SmallVec<[(u32, u32, u64, bool); 16]> = smallvec::SmallVec::new();
        let mut sink = MoveSink {
            filter: LongCaptureFilter::new(counting),
            visit: |from: Square, to: u32, captured: u64, promotes: bool| {
                let c = captured.count_ones();
                if c > most {
                    most = c;
                    best.clear();
                }
                if c == most {
                    best.push((from.bit(), to, captured, promotes));
                }
            },
        };
        search_captures::<_, R>(pos, counting, &mut sink);
        for (from, to, captured, promotes) in best {
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

/// The number of captures, given the men's first jumps per direction.
#[inline(never)]
fn count_captures<R: Rules>(pos: &Position, counting: Counting, jumpers: [u64; 4]) -> u64 {
    let mut count = 0u64;
    let mut sink = MoveSink {
        filter: LongCaptureFilter::new(counting),
        visit: |_: Square, _: u32, _: u64, _: bool| count += 1,
    };
    let simple = search_complex_captures::<R, _>(pos, jumpers, &mut sink);
    drop(sink);
    count + u64::from(simple)
}

/// The number of captures taking the most pieces, given the men's first jumps per
/// direction (the searched captures tell the most; a single jump counted by popcount takes
/// one).
#[inline(always)]
fn count_most_captures<R: Rules>(pos: &Position, counting: Counting, jumpers: [u64; 4]) -> u64 {
    let (mut most, mut count) = (0u32, 0u64);
    let mut sink = MoveSink {
        filter: LongCaptureFilter::new(counting),
        visit: |_: Square, _: u32, captured: u64, _: bool| {
            let c = captured.count_ones();
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
fn search_complex_captures<R: Rules, S: Sink>(
    pos: &Position,
    jumpers: [u64; 4],
    sink: &mut S,
) -> u32 {
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
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
        if starts != 0 {
            let landings = step(step(starts, DIR), DIR);
            let mut more = landings & crowning;
            each_direction!(NEXT => {
                if NEXT.index() != DIR.opposite().index() {
                    more |= landings
                        & step(them, NEXT.opposite())
                        & step(step(landing_empty, NEXT.opposite()), NEXT.opposite());
                }
            });
            simple += (landings & !more).count_ones();
            let mut complex = more;
            while complex != 0 {
                let landing = complex.trailing_zeros();
                complex &= complex - 1;
                let bit = (landing as i32 - 2 * DIR.offset()) as u32;
                let mut search = CaptureSearch::<_, R>::new(occ, side.man_targets, &side, bit, true, &mut *sink);
                search.man_jump(bit, DIR, 0);
            }
        }
    });
    let mut pieces = kings;
    while pieces != 0 {
        let bit = pieces.trailing_zeros();
        pieces &= pieces - 1;
        let mut search = CaptureSearch::<_, R>::new(occ, them, &side, bit, false, &mut *sink);
        each_direction!(DIR => {
            if search.king_can_capture(bit, DIR, 0) {
                search.king_jump(bit, DIR, 0);
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
pub(crate) fn count_two_plies<R: Rules>(pos: &Position, counting: Counting) -> u64 {
    let us = pos.by_color[pos.turn.index()].0;
    let them = pos.by_color[1 - pos.turn.index()].0;
    let kings = pos.kings.0 & board::<R>();
    // (Where crowning wins, a crowning move leaves the opponent no reply: the children
    // are made and counted by the rules.)
    if them & kings != 0 || R::CROWNING_WINS {
        let mut n = 0;
        for_each_child::<R, false>(pos, counting, |child| {
            n += count_moves::<R>(child, counting)
        });
        return n;
    }
    // The replies after `from` → `to` taking `captured` (a man, a king, a promotion alike;
    // a capture may end where it started). The test for a reply capture looks in every
    // direction at every piece of ours (more than any game's men may take): when it finds
    // one, the child is made and counted by the rules.
    let replies = |from: u32, to: u32, captured: u64, promotes: bool| -> u64 {
        let us = (us & !(1u64 << from)) | (1u64 << to);
        let them_men = them & !captured;
        let empty = board::<R>() & !(us | them_men);
        let mut jumps = 0u64;
        each_direction!(DIR => {
            jumps |= step(step(empty, DIR.opposite()) & us, DIR.opposite());
        });
        if jumps & them_men != 0 {
            let mut child = *pos;
            child.apply::<false>(from, to, captured, promotes);
            return count_moves::<R>(&child, counting);
        }
        let steps = match pos.turn {
            // The opponent moves: Black's men step down, White's up.
            crate::Color::White => {
                (step(them_men, Direction::DownLeft) & empty).count_ones()
                    + (step(them_men, Direction::DownRight) & empty).count_ones()
            }
            crate::Color::Black => {
                (step(them_men, Direction::UpLeft) & empty).count_ones()
                    + (step(them_men, Direction::UpRight) & empty).count_ones()
            }
        };
        u64::from(steps)
    };
    let mut n = 0;
    if has_captures::<R>(pos) {
        for_each_capture::<R>(pos, counting, |from, to, captured, promotes| {
            n += replies(from, to, captured, promotes)
        });
        if R::CAPTURE_IS_MANDATORY {
            return n;
        }
    }
    let men = us & !kings;
    let empty = board::<R>() & !(us | them);
    for_each_man_step::<R>(pos, men, empty, |from, to, _promotes| {
        n += replies(from, to, 0, false)
    });
    let occ = us | them;
    let mut our_kings = us & kings;
    while our_kings != 0 {
        let k = our_kings.trailing_zeros();
        our_kings &= our_kings - 1;
        each_direction!(DIR => {
            let mut run = king_moves::<R>(k, DIR, occ);
            while run != 0 {
                let to = run.trailing_zeros();
                run &= run - 1;
                n += replies(k, to, 0, false);
            }
        });
    }
    n
}
