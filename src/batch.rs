//! Many games stepped together, for learning: a fixed action space, legal-action masks,
//! observations as planes, results under the variant's rules (draw rules included).
//!
//! # The action space
//!
//! An action is one jump or step of one piece: the square it leaves, the direction and the
//! distance, `action = (from * 4 + direction) * (size - 1) + (distance - 1)`: [`ACTIONS`] =
//! 896 on the 8×8 board, 1800 on the 10×10 one, 3168 on the 12×12 one (each board's
//! [`Shape`]; the 12×12 board's games in the 128-bit word, [`Batch<u128>`]). Squares,
//! directions and distances are seen from the side to move (the board turned half round
//! for Black: square `i` is `squares - 1 - i`), as the observation is, so a policy learns
//! one game, not two.
//!
//! A quiet move is one action. A capture of several pieces is a sequence of actions by the
//! same player, one jump each (as OpenSpiel plays multi-jumps): after a jump the game waits
//! for the next jump of the same piece, the mask holding only the jumps that continue a
//! legal capture, and the move is played when its last jump is. Each legal move (the rules'
//! moves: one per start, end, captured pieces) is reached by exactly one sequence, the jumps
//! of the path [`crate::Position::legal_moves`] gives it: where a king may land on several squares
//! and still make the same capture, the move is the same and so is its path. The captured
//! pieces stay on the board until the move ends, as the rules say.
//!
//! Quiet moves reach at most `size - 1` squares, jumps too: a jump's distance is the landing
//! square's, the captured piece lying between. No action means two things. Frisian
//! draughts' captures along ranks and files have four more lines (eight in all), each step
//! two files or two ranks. Turkish draughts' board of every square has a space of its own:
//! its four lines are the ranks and files.

use rayon::prelude::*;
use std::mem::MaybeUninit;

use crate::game::draw::DrawRules;
use crate::game::history::Board;
use crate::geometry::Color;
use crate::geometry::Square;
use crate::geometry::{Bitboard, Word};
use crate::position::mv::{Move, MoveList};
use crate::rules::Counting;
use crate::rules::GameWord;
use crate::util::workers::Workers;

/// The number of actions of the 8×8 board ([`Shape::actions`] gives each board's).
pub const ACTIONS: usize = 32 * 4 * 7;
/// Ask the cache for the `bytes` from `start` (a hint: nothing is read).
#[inline(always)]
fn prefetch_bytes(start: *const u8, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    for offset in (0..bytes).step_by(64) {
        // SAFETY: a prefetch reads nothing and cannot fault, whatever the address.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                start.wrapping_add(offset).cast::<i8>(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, bytes);
}

/// A value of the observation planes: float32 (the default), or a byte (`u8`, `bool`) for
/// callers that keep millions of observations.
pub trait PlaneCell: Copy + Default + Send + Sync {
    /// A square that holds what its plane shows (the others are `Default`, zero).
    const ONE: Self;
}

impl PlaneCell for f32 {
    const ONE: f32 = 1.0;
}

impl PlaneCell for u8 {
    const ONE: u8 = 1;
}

impl PlaneCell for bool {
    const ONE: bool = true;
}

/// Observation planes: own men, own kings, opponent's men, opponent's kings, the piece
/// making a capture, the pieces it has taken so far in this move.
pub const PLANES: usize = 6;

/// A legal-action mask's value: `bool`, one an action (the dense mask), or `u8`, eight
/// actions a byte (the packed mask: action `j` is bit `j % 8` of byte `j / 8`, the row
/// padded to whole bytes with zero bits; numpy's `unpackbits(…, bitorder="little")` reads
/// it).
pub trait MaskCell: Copy + Send + Sync {
    /// The values of one game's row for a board of `actions` actions.
    fn row_width(actions: usize) -> usize;
    /// `game`'s legal actions written into every value of `out` (a row of
    /// [`MaskCell::row_width`] values, possibly uninitialised).
    fn write_row<W: GameWord>(game: &BatchGame<W>, out: &mut [MaybeUninit<Self>]);
}

impl MaskCell for bool {
    fn row_width(actions: usize) -> usize {
        actions
    }

    fn write_row<W: GameWord>(game: &BatchGame<W>, out: &mut [MaybeUninit<bool>]) {
        game.write_legal_actions(out);
    }
}

impl MaskCell for u8 {
    fn row_width(actions: usize) -> usize {
        actions.div_ceil(8)
    }

    fn write_row<W: GameWord>(game: &BatchGame<W>, out: &mut [MaybeUninit<u8>]) {
        game.write_legal_bits(out);
    }
}

/// Why a row of logits gave no action: a legal action's logit is not a number, or no legal
/// action has a weight (every legal logit is minus infinity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogitError {
    /// The logit of this legal action is NaN.
    NotANumber(usize),
    /// Every legal action's logit is minus infinity.
    NoWeight,
}

/// No action: the two squares are not on one diagonal.
const NO_ACTION: u16 = u16::MAX;

/// The most actions of any board the batch API plays (Frisian draughts' 10×10 board of
/// eight lines; the 12×12 board has 72 × 4 × 11 = 3,168).
pub const MAX_ACTIONS: usize = 50 * 8 * 9;

/// The internal bits the shapes' tables cover: every bit of either word's layout (the
/// 12×12 board's reach bit 77).
const TABLE_BITS: usize = 128;

/// A board as the batch API sees it: its action space (`squares × lines × (size − 1)
/// distances`: 4 lines, the diagonals or on Turkish draughts' board the ranks and files; 8
/// in Frisian draughts, the diagonals and then the ranks and files), its planes (`size ×
/// size` cells) and the tables between them and the internal bits, built once per board
/// from its [`Geometry`](crate::geometry::Geometry).
pub struct Shape {
    /// The board's side: 8, 10 or 12.
    pub size: usize,
    /// Its squares: 32, 50, 64 or 72.
    pub squares: usize,
    /// Its lines: 4, or 8 where captures run along ranks and files too (Frisian).
    pub lines: usize,
    /// Its actions: 896, 1800, 1792, 3600 or 3168.
    pub actions: usize,
    /// The action of every jump by internal bits (`jumps[view][from][to]`), as White
    /// (`view` 0) and as Black (1, the board turned half round) sees the board.
    jumps: [[[u16; TABLE_BITS]; TABLE_BITS]; 2],
    /// The internal bits `(from, to)` of every action, per view (`(0, 0)` for an action
    /// leaving the board: never legal).
    squares_of: [[(u8, u8); MAX_ACTIONS]; 2],
    /// Where each internal bit goes in a plane, `rank * size + file` from the view.
    cells: [[u8; TABLE_BITS]; 2],
}

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Shape({}×{}, {} actions)",
            self.size, self.size, self.actions
        )
    }
}

/// Whether `variant`'s moves fit the batch API's actions (a start square and a line from
/// it): every game's but уголки's, whose chains of jumps end wherever their turns lead.
pub fn fits(variant: crate::Variant) -> bool {
    variant.move_rules() != crate::MoveRules::Ugolki
}

impl Shape {
    const fn new(geometry: &crate::geometry::Geometry, lines: usize) -> Shape {
        let size = geometry.size() as usize;
        let n = geometry.square_count();
        let mut shape = Shape {
            size,
            squares: n,
            lines,
            actions: n * lines * (size - 1),
            jumps: [[[NO_ACTION; TABLE_BITS]; TABLE_BITS]; 2],
            squares_of: [[(0, 0); MAX_ACTIONS]; 2],
            cells: [[0; TABLE_BITS]; 2],
        };
        let mut from = 0;
        while from < n {
            let Some(f) = geometry.square(from) else {
                panic!("a board's squares are numbered without gaps")
            };
            let fb = f.bit() as usize;
            let (file, rank) = (geometry.file_of(f) as usize, geometry.rank_of(f) as usize);
            shape.cells[0][fb] = (rank * size + file) as u8;
            shape.cells[1][fb] = ((size - 1 - rank) * size + (size - 1 - file)) as u8;
            let mut to = 0;
            while to < n {
                let Some(t) = geometry.square(to) else {
                    panic!("a board's squares are numbered without gaps")
                };
                let tb = t.bit() as usize;
                // As White sees it: from index `from`; as Black: the turned board's.
                let white = Shape::action_between(geometry, lines, from, to);
                let black = Shape::action_between(geometry, lines, n - 1 - from, n - 1 - to);
                shape.jumps[0][fb][tb] = white;
                shape.jumps[1][fb][tb] = black;
                if white != NO_ACTION {
                    shape.squares_of[0][white as usize] = (fb as u8, tb as u8);
                }
                if black != NO_ACTION {
                    shape.squares_of[1][black as usize] = (fb as u8, tb as u8);
                }
                to += 1;
            }
            from += 1;
        }
        shape
    }

    /// The action `from` → `to` (square indices of `geometry`), or [`NO_ACTION`] when the
    /// two are not on one line (a diagonal; on a board of every square, a rank or a file;
    /// with 8 `lines`, also a rank or a file counted in squares of the diagonals' colour,
    /// two files or two ranks a step).
    const fn action_between(
        geometry: &crate::geometry::Geometry,
        lines: usize,
        from: usize,
        to: usize,
    ) -> u16 {
        let (Some(f), Some(t)) = (geometry.square(from), geometry.square(to)) else {
            return NO_ACTION;
        };
        let (df, dr) = (
            geometry.file_of(t) as i32 - geometry.file_of(f) as i32,
            geometry.rank_of(t) as i32 - geometry.rank_of(f) as i32,
        );
        let size = geometry.size() as usize;
        if geometry.every_square() {
            // Up, right, down, left: the rook's lines.
            let dir = match (df, dr) {
                (0, r) if r > 0 => 0,
                (f, 0) if f > 0 => 1,
                (0, r) if r < 0 => 2,
                (f, 0) if f < 0 => 3,
                _ => return NO_ACTION,
            };
            let distance = df.unsigned_abs() + dr.unsigned_abs();
            return ((from * 4 + dir) * (size - 1) + distance as usize - 1) as u16;
        }
        if lines == 8 && (df == 0) != (dr == 0) {
            // Along a rank (left, right) or a file (down, up): the next square of the
            // diagonals' colour is two squares away.
            let dir = match (df, dr) {
                (f, 0) if f < 0 => 4,
                (_, 0) => 5,
                (0, r) if r < 0 => 6,
                _ => 7,
            };
            let distance = (df.unsigned_abs() + dr.unsigned_abs()) as usize / 2;
            return ((from * lines + dir) * (size - 1) + distance - 1) as u16;
        }
        if df == 0 || (df != dr && df != -dr) {
            return NO_ACTION;
        }
        let dir = match (dr > 0, df > 0) {
            (true, false) => 0,
            (true, true) => 1,
            (false, false) => 2,
            (false, true) => 3,
        };
        ((from * lines + dir) * (size - 1) + df.unsigned_abs() as usize - 1) as u16
    }

    /// The shape a game is played on: its board's, or Frisian draughts' board of eight
    /// lines.
    pub fn of(variant: crate::Variant) -> &'static Shape {
        if variant.move_rules() == crate::games::MoveRules::Frisian {
            return &FRISIAN_SHAPE;
        }
        let geometry = variant.geometry();
        if geometry.every_square() {
            &EVERY_SQUARE_SHAPE
        } else if geometry.size() == 12 {
            &TWELVE_SHAPE
        } else if geometry.size() == 10 {
            &TEN_SHAPE
        } else {
            &EIGHT_SHAPE
        }
    }

    /// The values of one observation: [`PLANES`] × size × size.
    pub const fn plane_values(&self) -> usize {
        PLANES * self.size * self.size
    }

    /// The action of the jump `from` → `to` for the side `turn`.
    pub fn action_of(&self, turn: Color, from: Square, to: Square) -> Option<usize> {
        let view = usize::from(turn == Color::Black);
        match self.jumps[view][from.bit() as usize % TABLE_BITS][to.bit() as usize % TABLE_BITS] {
            NO_ACTION => None,
            action => Some(action as usize),
        }
    }

    /// The jumps of a move, as actions of its player.
    pub fn move_actions<W: Word>(&self, turn: Color, m: &Move<W>) -> smallvec::SmallVec<[u16; 8]> {
        let mut out = smallvec::SmallVec::new();
        let mut at = m.from();
        for &next in m.path() {
            if let Some(a) = self.action_of(turn, at, next) {
                out.push(a as u16);
            }
            at = next;
        }
        out
    }
}

/// The 8×8 board's shape (896 actions, 8×8 planes).
pub static EIGHT_SHAPE: Shape = Shape::new(crate::geometry::Geometry::EIGHT, 4);
/// The 10×10 board's shape (1800 actions, 10×10 planes).
pub static TEN_SHAPE: Shape = Shape::new(crate::geometry::Geometry::TEN, 4);
/// The 12×12 board's shape (Canadian draughts: 72 squares × 4 diagonals × 11 distances =
/// 3,168 actions, 12×12 planes).
pub static TWELVE_SHAPE: Shape = Shape::new(crate::geometry::Geometry::TWELVE, 4);

/// Frisian draughts' shape: the 10×10 board, its captures along the 4 diagonals and the 4
/// lines of ranks and files: 50 squares × 8 lines × 9 distances = 3,600 actions.
pub static FRISIAN_SHAPE: Shape = Shape::new(crate::geometry::Geometry::TEN, 8);

/// The shape of the 8×8 board of every square (Turkish draughts): 64 squares × 4 rook
/// lines × 7 distances = 1,792 actions.
pub static EVERY_SQUARE_SHAPE: Shape = Shape::new(crate::geometry::Geometry::EIGHT_EVERY_SQUARE, 4);

/// The action of the jump `from` → `to` for the side `turn`, on the 8×8 board.
pub fn action_of(turn: Color, from: Square, to: Square) -> Option<usize> {
    EIGHT_SHAPE.action_of(turn, from, to)
}

/// The jumps of a move, as actions of its player, on the 8×8 board.
pub fn move_actions(turn: Color, m: &Move) -> smallvec::SmallVec<[u16; 8]> {
    EIGHT_SHAPE.move_actions(turn, m)
}

/// How a game ended, for the batch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Finish {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw (by a draw rule).
    Draw,
    /// The ply limit came first (truncated).
    Truncated,
}

/// One game of the batch: what each step reads in about four cache lines, what it reads
/// less often behind pointers, so that many games stepped one after another share the cache
/// (4,096 games hold about 1 MB here), and [`BatchGame::prefetch`] can ask for a game's
/// lines ahead. The game keeps what its rules read (the position, its clocks, the positions
/// that can recur) and the actions played: [`BatchGame::board`] plays them again for the
/// game's whole history, which no step needs.
#[derive(Clone, Debug)]
pub struct BatchGame<W: GameWord = u64> {
    /// Each move's next action (the jump after those made so far), [`NO_ACTION`] for a
    /// move whose jumps are all made: read by the mask, the checks, the sampler and the step
    /// without working it out again.
    actions: smallvec::SmallVec<[u16; 28]>,
    game: PlayoutGame<W>,
    /// The legal moves when they capture; as a capture goes on, those whose path began
    /// with its jumps. Quiet moves are not kept: each is its action ([`BatchGame::quiet`]).
    moves: Vec<Move<W>>,
    /// The actions played since the game's start (the jumps of a capture one each).
    record: Vec<u16>,
    /// The moves now are quiet (no capture, so no jump made yet): each is one action, all
    /// different, and the action says the move.
    quiet: bool,
    /// Jumps of the move in progress.
    jumps: usize,
    /// The last game's end.
    pub last: Option<Finish>,
    /// The first position, and the last game's final one.
    ends: Box<GameEnds<W>>,
    /// The board's actions and planes.
    shape: &'static Shape,
}

/// Where a batch game starts, and where its last game ended (read at a restart and for
/// the final observation only, so kept apart from what each step reads).
#[derive(Clone, Debug)]
struct GameEnds<W: GameWord> {
    start: Board<W>,
    last: Option<crate::Position<W>>,
}

impl<W: GameWord> BatchGame<W> {
    /// A game starting at `board`.
    pub fn new(board: Board<W>) -> BatchGame<W> {
        let shape = Shape::of(board.position().rules().variant);
        let mut game = BatchGame {
            game: PlayoutGame::new(&board),
            ends: Box::new(GameEnds {
                start: board,
                last: None,
            }),
            moves: Vec::new(),
            record: Vec::new(),
            quiet: false,
            actions: smallvec::SmallVec::new(),
            jumps: 0,
            last: None,
            shape,
        };
        game.refresh();
        game
    }

    /// Start again at the first position (the last game's end stays).
    pub fn restart(&mut self) {
        self.game.restart(&self.ends.start);
        self.record.clear();
        self.refresh();
    }

    /// Ask the cache for the memory a step of this game reads: its first fields and first
    /// moves, and the end of its history. Stepping many games, each game asks for the next
    /// ones' while it plays, instead of waiting for each in turn.
    #[inline(always)]
    fn prefetch(&self) {
        prefetch_bytes(
            (self as *const BatchGame<W>).cast(),
            std::mem::size_of::<BatchGame<W>>(),
        );
    }

    /// Ask the cache for what a step reads behind this game's pointers (its first moves
    /// and the end of its history): for a game whose own lines are already asked for.
    #[inline(always)]
    fn prefetch_moves(&self) {
        if !self.quiet {
            prefetch_bytes(
                self.moves.as_ptr().cast(),
                8 * std::mem::size_of::<Move<W>>(),
            );
        }
        prefetch_bytes(self.record.as_ptr_range().end.cast(), 2);
    }

    /// The position (before the move in progress, if any).
    pub fn position(&self) -> &crate::Position<W> {
        &self.game.pos
    }

    /// The game as a [`Board`] with its history (before the move in progress, if any): its
    /// actions played again from the first position.
    pub fn board(&self) -> Board<W> {
        let mut board = self.ends.start.clone();
        let mut replay = BatchGame::new(board.clone());
        for &action in &self.record {
            if let Some(m) = replay.advance(action) {
                board.push_unchecked(m);
                replay.game.push(&m);
                replay.refresh();
            }
        }
        board
    }

    fn refresh(&mut self) {
        let pos = &self.game.pos;
        self.jumps = 0;
        self.moves.clear();
        self.actions.clear();
        // Without a capture every move is quiet, and its action says it: no move list.
        self.quiet = !pos.has_captures();
        if self.quiet {
            let view = &self.shape.jumps[usize::from(pos.turn() == Color::Black)];
            let actions = &mut self.actions;
            pos.for_each_quiet_move(|from, to, _| {
                actions.push(view[from as usize][to as usize]);
            });
            self.quiet = !self.actions.is_empty(); // no move at all: the game is over
        } else {
            // Kept in the game's own allocation: the capture's jumps filter them.
            let mut moves = MoveList::new();
            pos.legal_moves_into(Counting::Distinct, &mut moves);
            self.moves.extend_from_slice(&moves);
            self.refresh_actions();
        }
    }

    /// The quiet move whose action is `action` (a legal one: None only for an action
    /// leaving the board).
    fn quiet_move(&self, action: u16) -> Option<Move<W>> {
        let pos = &self.game.pos;
        let view = usize::from(pos.turn() == Color::Black);
        let &(from, to) = self.shape.squares_of[view].get(usize::from(action))?;
        let geometry = pos.geometry();
        let (from, to) = (
            Square::from_bit_unchecked(u32::from(from)),
            Square::from_bit_unchecked(u32::from(to)),
        );
        if from == to || !geometry.contains(from) || !geometry.contains(to) {
            return None; // an action leaving the board
        }
        let far_rank = match pos.turn() {
            Color::White => self.shape.size as u8 - 1,
            Color::Black => 0,
        };
        let promotes = geometry.rank_of(to) == far_rank && pos.men(pos.turn()).contains(from);
        Some(Move::quiet(from, to, promotes))
    }

    /// [`BatchGame::actions`] for the moves and jumps now: each move's jump after the
    /// `jumps` made so far, seen from the side to move ([`NO_ACTION`] when it has no more).
    fn refresh_actions(&mut self) {
        let view = &self.shape.jumps[usize::from(self.game.pos.turn() == Color::Black)];
        let jumps = self.jumps;
        self.actions.clear();
        for m in self.moves.iter() {
            let path = m.path();
            let action = match path.get(jumps) {
                Some(&to) => {
                    let from = if jumps == 0 {
                        m.from()
                    } else {
                        path[jumps - 1]
                    };
                    view[from.bit() as usize % TABLE_BITS][to.bit() as usize % TABLE_BITS]
                }
                None => NO_ACTION,
            };
            self.actions.push(action);
        }
    }

    /// The legal actions now.
    pub fn legal_actions(&self, out: &mut [bool]) {
        self.write_legal_actions(as_uninit(out));
    }

    /// The legal actions now, written into every value of `out` (which may be
    /// uninitialised: a new array's row).
    pub fn write_legal_actions(&self, out: &mut [MaybeUninit<bool>]) {
        for cell in out.iter_mut() {
            cell.write(false);
        }
        for &a in &self.actions {
            if let Some(slot) = out.get_mut(a as usize) {
                slot.write(true);
            }
        }
    }

    /// The legal actions now as bits, written into every byte of `out` (a packed row:
    /// action `j` is bit `j % 8` of byte `j / 8`; may be uninitialised).
    pub fn write_legal_bits(&self, out: &mut [MaybeUninit<u8>]) {
        for cell in out.iter_mut() {
            cell.write(0);
        }
        // SAFETY: every byte was written just above, so the row is initialised `u8`s.
        let out = unsafe { &mut *(std::ptr::from_mut(out) as *mut [u8]) };
        for &a in &self.actions {
            if let Some(byte) = out.get_mut(usize::from(a) >> 3) {
                *byte |= 1 << (a & 7);
            }
        }
    }

    /// The legal actions now, each once: the quiet moves' as they stand (all different),
    /// else ascending in `buffer`.
    fn distinct_actions<'a>(&'a self, buffer: &'a mut smallvec::SmallVec<[u16; 48]>) -> &'a [u16] {
        if self.quiet_moves() {
            return &self.actions;
        }
        buffer.extend(self.actions.iter().copied().filter(|&a| a != NO_ACTION));
        buffer.sort_unstable();
        buffer.dedup();
        buffer
    }

    /// A legal action drawn from the softmax of `logits` (this game's row of the board's
    /// actions) over the legal actions only, each logit divided by the temperature
    /// (`inverse_temperature`: its inverse; None for temperature 0, the arg-max, ties to the
    /// lowest action). `random` draws it (one uniform number and the inverse of the
    /// distribution, over the weights `exp((logit − max) / T)`). A legal logit of plus
    /// infinity takes all the weight (shared with any other). Ok(None) for a game without
    /// a legal action.
    pub fn pick_from_logits(
        &self,
        random: u64,
        logits: &[f32],
        inverse_temperature: Option<f32>,
    ) -> Result<Option<usize>, LogitError> {
        let mut buffer = smallvec::SmallVec::new();
        let choices = self.distinct_actions(&mut buffer);
        if choices.is_empty() {
            return Ok(None);
        }
        let logit = |a: u16| {
            logits
                .get(usize::from(a))
                .copied()
                .unwrap_or(f32::NEG_INFINITY)
        };
        // The largest legal logit (and its lowest action), checking for NaN.
        let mut best = (f32::NEG_INFINITY, u16::MAX);
        for &a in choices {
            let l = logit(a);
            if l.is_nan() {
                return Err(LogitError::NotANumber(usize::from(a)));
            }
            if l > best.0 || (l == best.0 && a < best.1) {
                best = (l, a);
            }
        }
        let (max, argmax) = best;
        if max == f32::NEG_INFINITY {
            return Err(LogitError::NoWeight);
        }
        let Some(scale) = inverse_temperature else {
            return Ok(Some(usize::from(argmax)));
        };
        // A uniform number in [0, 1) from the top 24 bits.
        let uniform = (random >> 40) as f32 * (1.0 / (1u32 << 24) as f32);
        let weight = |a: u16| {
            let l = logit(a);
            if max == f32::INFINITY {
                if l == f32::INFINITY {
                    1.0
                } else {
                    0.0
                }
            } else {
                ((l - max) * scale).exp()
            }
        };
        let mut weights: smallvec::SmallVec<[f32; 48]> = smallvec::SmallVec::new();
        let mut total = 0.0f32;
        for &a in choices {
            let w = weight(a);
            total += w;
            weights.push(w);
        }
        let target = uniform * total;
        let mut running = 0.0f32;
        let mut last = argmax;
        for (&a, &w) in choices.iter().zip(weights.iter()) {
            if w > 0.0 {
                running += w;
                last = a;
                if running > target {
                    return Ok(Some(usize::from(a)));
                }
            }
        }
        Ok(Some(usize::from(last))) // rounding left the target at the very end
    }

    /// Ask the cache for the lines of `logits` (this game's row) that its legal actions
    /// read.
    fn prefetch_logits(&self, logits: &[f32]) {
        for &a in &self.actions {
            if let Some(cell) = logits.get(usize::from(a)) {
                prefetch_bytes(std::ptr::from_ref(cell).cast::<u8>(), 1);
            }
        }
    }

    /// The legal actions now, ascending and each once, appended to `out`.
    pub fn legal_action_list(&self, out: &mut Vec<i16>) {
        let start = out.len();
        out.extend(
            self.actions
                .iter()
                .filter(|&&a| a != NO_ACTION)
                .map(|&a| a as i16),
        );
        let listed = &mut out[start..];
        listed.sort_unstable();
        let mut kept = 0;
        for i in 0..listed.len() {
            if i == 0 || listed[i] != listed[kept - 1] {
                listed[kept] = listed[i];
                kept += 1;
            }
        }
        out.truncate(start + kept);
    }

    /// Whether `action` is legal now.
    pub fn is_legal(&self, action: usize) -> bool {
        action < self.shape.actions && self.actions.contains(&(action as u16))
    }

    /// Whether the moves now are quiet (no capture, so no jump made yet): each is one
    /// action, all different.
    #[inline]
    fn quiet_moves(&self) -> bool {
        self.quiet
    }

    /// A legal action chosen by `random` (a number to take modulo the choices).
    pub fn pick(&self, random: u64) -> Option<usize> {
        let mut buffer = smallvec::SmallVec::new();
        let choices = self.distinct_actions(&mut buffer);
        let a = *choices.get((random % choices.len().max(1) as u64) as usize)?;
        (a != NO_ACTION).then_some(usize::from(a))
    }

    /// Play `action` (legal: see [`BatchGame::is_legal`]): `(reward for the player who
    /// acted, terminated, truncated)`. A finished game starts again.
    pub fn step(
        &mut self,
        action: usize,
        rules: &DrawRules,
        max_plies: usize,
    ) -> (f32, bool, bool) {
        let action = action as u16;
        self.record.push(action);
        let Some(m) = self.advance(action) else {
            return (0.0, false, false); // the capture goes on
        };
        let mover = self.game.pos.turn();
        self.game.push(&m);
        // The next moves first: they also say whether the game is over (as
        // `Board::ending`, without generating them twice).
        self.refresh();
        let finish = if self.actions.is_empty() {
            Some(if self.game.pos.winner_without_moves() == Color::White {
                Finish::WhiteWins
            } else {
                Finish::BlackWins
            })
        } else if self.game.is_drawn(rules) {
            Some(Finish::Draw)
        } else if self.game.plies >= max_plies {
            Some(Finish::Truncated)
        } else {
            None
        };
        let Some(finish) = finish else {
            return (0.0, false, false);
        };
        let reward = match (finish, mover) {
            (Finish::WhiteWins, Color::White) | (Finish::BlackWins, Color::Black) => 1.0,
            (Finish::WhiteWins, Color::Black) | (Finish::BlackWins, Color::White) => -1.0,
            _ => 0.0,
        };
        self.last = Some(finish);
        self.ends.last = Some(self.game.pos);
        self.restart();
        (
            reward,
            finish != Finish::Truncated,
            finish == Finish::Truncated,
        )
    }

    /// Take `action` (legal) towards a move: the move, once its last jump is taken.
    fn advance(&mut self, action: u16) -> Option<Move<W>> {
        if self.quiet_moves() {
            // A quiet move: the one the action says.
            return self.quiet_move(action);
        }
        // The moves going on with this jump stay.
        let mut kept = 0;
        for i in 0..self.moves.len() {
            if self.actions[i] == action {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.jumps += 1;
        self.refresh_actions();
        self.moves
            .iter()
            .find(|m| m.path().len() == self.jumps)
            .copied()
    }

    /// The observation planes, `PLANES × size × size` values (rank-major, a1 first, from
    /// the side to move's point of view).
    pub fn observe<T: PlaneCell>(&self, out: &mut [T]) {
        let pos = &self.game.pos;
        let mut capture = None;
        if self.jumps > 0 {
            if let Some(m) = self.moves.first() {
                let at = m.path()[self.jumps - 1];
                let mut taken = Bitboard::<W>::EMPTY;
                let mut from = m.from();
                for &to in &m.path()[..self.jumps] {
                    taken |= between(pos.geometry(), from, to) & pos.pieces(!pos.turn());
                    from = to;
                }
                capture = Some((at, taken));
            }
        }
        planes(pos, capture, out);
    }

    /// The planes of the last game's final position (zeros before a game has ended).
    pub fn observe_final<T: PlaneCell>(&self, out: &mut [T]) {
        match &self.ends.last {
            Some(pos) => planes(pos, None, out),
            None => out.fill(T::default()),
        }
    }
}

/// The observation planes of `pos` (see [`PLANES`]; `size × size` cells each, the board's
/// [`Shape`]), with the piece making a capture and the pieces it has taken so far.
pub fn planes<T: PlaneCell, W: Word>(
    pos: &crate::Position<W>,
    capture: Option<(Square, Bitboard<W>)>,
    out: &mut [T],
) {
    out.fill(T::default());
    let turn = pos.turn();
    let shape = Shape::of(pos.rules().variant);
    let cells = &shape.cells[usize::from(turn == Color::Black)];
    let plane_cells = shape.size * shape.size;
    let mut put = |plane: usize, squares: Bitboard<W>| {
        let mut bits = squares.0;
        while !bits.is_zero() {
            let cell = cells[bits.lowest_bit() as usize % TABLE_BITS] as usize;
            out[plane * plane_cells + cell] = T::ONE;
            bits = bits.without_lowest();
        }
    };
    put(0, pos.men(turn));
    put(1, pos.kings(turn));
    put(2, pos.men(!turn));
    put(3, pos.kings(!turn));
    if let Some((at, taken)) = capture {
        put(4, Bitboard::from(at));
        put(5, taken);
    }
}

/// The squares strictly between two squares of one line of `geometry`'s board.
fn between<W: Word>(geometry: &crate::geometry::Geometry, from: Square, to: Square) -> Bitboard<W> {
    let mut out = Bitboard::<W>::EMPTY;
    let (ff, fr) = (
        i32::from(geometry.file_of(from)),
        i32::from(geometry.rank_of(from)),
    );
    let (tf, tr) = (
        i32::from(geometry.file_of(to)),
        i32::from(geometry.rank_of(to)),
    );
    let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
    let (mut f, mut r) = (ff + df, fr + dr);
    while (f, r) != (tf, tr) {
        match geometry.square_at(f as u8, r as u8) {
            Some(sq) => out |= Bitboard::from(sq),
            None => break,
        }
        f += df;
        r += dr;
    }
    out
}

/// The batch: games, their draw rules and ply limit.
#[derive(Clone, Debug)]
pub struct Batch<W: GameWord = u64> {
    /// The games.
    pub games: Vec<BatchGame<W>>,
    rules: DrawRules,
    max_plies: usize,
    shape: &'static Shape,
    /// The threads its calls run on.
    pub threads: Threads,
}

/// The threads a batch's calls run on. A call splits its games into one contiguous range a
/// thread; the calling thread plays the first range itself and the others run on workers
/// that stay awake between calls ([`Workers`]: waking a sleeping thread would cost as much
/// as a step's share of work).
#[derive(Clone, Debug, Default)]
pub enum Threads {
    /// Every core: the process's shared workers beside the calling thread.
    #[default]
    Every,
    /// The calling thread alone.
    Caller,
    /// `count` threads in all: the calling thread and workers of the batch's own.
    Pool(std::sync::Arc<Workers>),
}

/// The process's shared workers, one fewer than its cores (None if they could not start).
fn every_core() -> Option<&'static Workers> {
    static WORKERS: std::sync::OnceLock<Option<Workers>> = std::sync::OnceLock::new();
    WORKERS
        .get_or_init(|| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            Workers::new(cores.min(256)).ok()
        })
        .as_ref()
}

impl Threads {
    /// `count` threads in all (the calling thread one of them): None every core; 1 the
    /// calling thread alone.
    pub fn new(count: Option<usize>) -> std::io::Result<Threads> {
        Ok(match count {
            None => Threads::Every,
            Some(0 | 1) => Threads::Caller,
            Some(k) => Threads::Pool(std::sync::Arc::new(Workers::new(k)?)),
        })
    }

    /// The workers of a call (None: the caller alone).
    fn workers(&self) -> Option<&Workers> {
        match self {
            Threads::Every => every_core(),
            Threads::Caller => None,
            Threads::Pool(workers) => Some(workers),
        }
    }

    /// The threads a call uses.
    pub fn count(&self) -> usize {
        self.workers().map_or(1, Workers::count)
    }

    /// `work` on each of `parts` (disjoint pieces of a call's data, at most
    /// [`Threads::count`]): the first on the calling thread, the others on the workers, all
    /// done when this returns.
    fn run<C: Send, F: Fn(C) + Sync>(&self, parts: impl Iterator<Item = C>, work: F) {
        let Some(workers) = self.workers() else {
            parts.for_each(work);
            return;
        };
        let slots: Vec<std::sync::Mutex<Option<C>>> =
            parts.map(|c| std::sync::Mutex::new(Some(c))).collect();
        if slots.len() <= 1 {
            slots
                .into_iter()
                .filter_map(|slot| slot.into_inner().ok().flatten())
                .for_each(work);
            return;
        }
        workers.run(&|i| {
            let part = slots
                .get(i)
                .and_then(|slot| slot.lock().unwrap_or_else(|e| e.into_inner()).take());
            if let Some(part) = part {
                work(part);
            }
        });
    }
}

/// A run of games' share of a step: the games, their actions, rewards and end flags, and
/// their rows of planes and of the mask.
type StepChunk<'a, T, M, W> = (
    (
        (&'a mut [BatchGame<W>], &'a [i64]),
        (&'a mut [f32], &'a mut [(bool, bool)]),
    ),
    (&'a mut [T], &'a mut [MaybeUninit<M>]),
);

/// Initialised values seen as possibly uninitialised ones, to be written over: sound as
/// long as only valid values are written (every writer here writes `false` or `true`, or
/// whole bytes).
pub fn as_uninit<T: Copy>(cells: &mut [T]) -> &mut [MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has the layout of `T`; the slice is only written through
    // with valid `T` values, so it stays initialised.
    unsafe { &mut *(std::ptr::from_mut(cells) as *mut [MaybeUninit<T>]) }
}

/// Below this many games a call runs on the calling thread.
const PARALLEL_FROM: usize = 512;

impl<W: GameWord> Batch<W> {
    /// Games starting at `boards`, under the variant's draw rules, truncated at `max_plies`.
    pub fn new(boards: Vec<Board<W>>, max_plies: usize) -> Batch<W> {
        let rules = boards
            .first()
            .map(|b| DrawRules::for_variant(b.position().rules().variant))
            .unwrap_or_default();
        let shape = boards
            .first()
            .map_or(&EIGHT_SHAPE, |b| Shape::of(b.position().rules().variant));
        Batch {
            games: boards.into_iter().map(BatchGame::new).collect(),
            rules,
            max_plies,
            shape,
            threads: Threads::Every,
        }
    }

    /// The games a thread takes in a call: all of them below [`PARALLEL_FROM`] or on one
    /// thread, else an even share.
    fn part(&self) -> usize {
        let n = self.games.len().max(1);
        if n < PARALLEL_FROM {
            return n;
        }
        n.div_ceil(self.threads.count())
    }

    /// `work` on every game and its row of `out` (`width` values a game), over threads for
    /// large batches.
    pub fn for_each_row<T: Send>(
        &self,
        out: &mut [T],
        width: usize,
        work: impl Fn(&BatchGame<W>, &mut [T]) + Sync + Send,
    ) {
        let part = self.part();
        self.threads.run(
            self.games.chunks(part).zip(out.chunks_mut(part * width)),
            |(games, rows)| {
                for (game, row) in games.iter().zip(rows.chunks_mut(width)) {
                    work(game, row);
                }
            },
        );
    }

    /// The board's actions and planes.
    pub fn shape(&self) -> &'static Shape {
        self.shape
    }

    /// The masks, `games × actions`.
    pub fn masks(&self, out: &mut [bool]) {
        self.for_each_row(out, self.shape.actions, BatchGame::legal_actions);
    }

    /// The observations, `games × PLANES × size × size`.
    pub fn observe<T: PlaneCell>(&self, out: &mut [T]) {
        self.for_each_row(out, self.shape.plane_values(), BatchGame::observe);
    }

    /// The final observations of the games' last finished games.
    pub fn observe_final<T: PlaneCell>(&self, out: &mut [T]) {
        let width = self.shape.plane_values();
        for (game, row) in self.games.iter().zip(out.chunks_mut(width)) {
            game.observe_final(row);
        }
    }

    /// Start every game again at its first position (the last results stay).
    pub fn reset(&mut self) {
        for game in &mut self.games {
            game.restart();
        }
    }

    /// The first game whose action is not legal, if any.
    pub fn first_illegal(&self, actions: &[i64]) -> Option<usize> {
        let bad = |(game, &a): (&BatchGame<W>, &i64)| {
            !(0..game.shape.actions as i64).contains(&a) || !game.is_legal(a as usize)
        };
        // One pass on the calling thread: a few instructions a game, less than a hand-over.
        self.games.iter().zip(actions).position(bad)
    }

    /// Step every game (the actions must be legal: [`Batch::first_illegal`]); rewards,
    /// terminated, truncated; with `planes` (`games × PLANES × 64`) each game's observation
    /// after its step, and with `mask` (`games × ACTIONS` bools, or packed: `games ×
    /// ⌈ACTIONS / 8⌉` bytes, [`MaskCell`]) its legal actions then, written in the same pass
    /// while the game is in cache.
    pub fn step<T: PlaneCell, M: MaskCell>(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        ends: &mut [(bool, bool)],
        planes: Option<&mut [T]>,
        mask: Option<&mut [MaybeUninit<M>]>,
    ) {
        let n = self.games.len();
        // Rows not asked for are one unused value a game (one iterator for every case).
        let (mut no_planes, mut no_mask) = (Vec::new(), Vec::new());
        let (want_planes, planes, planes_width) = match planes {
            Some(planes) => (true, planes, self.shape.plane_values()),
            None => {
                no_planes.resize(n, T::default());
                (false, &mut no_planes[..], 1)
            }
        };
        let (want_mask, mask, mask_width) = match mask {
            Some(mask) => (true, mask, M::row_width(self.shape.actions)),
            None => {
                no_mask.resize(n, MaybeUninit::uninit()); // never read nor written
                (false, &mut no_mask[..], 1)
            }
        };
        let (rules, max_plies) = (&self.rules, self.max_plies);
        // Each thread steps its games in order, asking the cache for the next ones ahead.
        let work =
            |(((games, actions), (rewards, ends)), (planes, mask)): StepChunk<'_, T, M, W>| {
                for (i, (&a, (reward, end))) in actions
                    .iter()
                    .zip(rewards.iter_mut().zip(ends.iter_mut()))
                    .enumerate()
                {
                    if let Some(next) = games.get(i + 2) {
                        next.prefetch();
                    }
                    if let Some(next) = games.get(i + 1) {
                        next.prefetch_moves();
                    }
                    let game = &mut games[i];
                    let (r, terminated, truncated) = game.step(a as usize, rules, max_plies);
                    *reward = r;
                    *end = (terminated, truncated);
                    if want_planes {
                        game.observe(&mut planes[i * planes_width..(i + 1) * planes_width]);
                    }
                    if want_mask {
                        M::write_row(game, &mut mask[i * mask_width..(i + 1) * mask_width]);
                    }
                }
            };
        let part = self.part();
        self.threads.run(
            self.games
                .chunks_mut(part)
                .zip(actions.chunks(part))
                .zip(rewards.chunks_mut(part).zip(ends.chunks_mut(part)))
                .zip(
                    planes
                        .chunks_mut(part * planes_width)
                        .zip(mask.chunks_mut(part * mask_width)),
                ),
            work,
        );
    }

    /// A random legal action for every game (`seed` and the game's index choose it).
    pub fn sample(&self, seed: u64, out: &mut [i64]) {
        let work = |(i, (game, slot)): (usize, (&BatchGame<W>, &mut i64))| {
            *slot = game.pick(game_random(seed, i)).map_or(-1, |a| a as i64);
        };
        let part = self.part();
        self.threads.run(
            self.games
                .chunks(part)
                .zip(out.chunks_mut(part))
                .enumerate(),
            |(k, (games, slots))| {
                for (i, (game, slot)) in games.iter().zip(slots.iter_mut()).enumerate() {
                    work((k * part + i, (game, slot)));
                }
            },
        );
    }

    /// An action for every game drawn from the softmax of its row of `logits` (`games ×
    /// actions`, row-major) over its legal actions, at `temperature` (0: the arg-max), by
    /// `seed` and the game's index (the same whatever the threads); -1 for a game without
    /// a legal action. The first row whose logits give no action is the error, with why;
    /// `out` is then partly written.
    pub fn sample_logits(
        &self,
        seed: u64,
        logits: &[f32],
        temperature: f32,
        out: &mut [i64],
    ) -> Result<(), (usize, LogitError)> {
        let width = self.shape.actions;
        let scale = (temperature > 0.0).then(|| 1.0 / temperature);
        /// A row whose logits gave no action (the error is found again for the first).
        const BAD: i64 = -2;
        let pick = |i: usize, game: &BatchGame<W>, row: &[f32]| {
            game.pick_from_logits(game_random(seed, i), row, scale)
        };
        let work = |games: &[BatchGame<W>], rows: &[f32], slots: &mut [i64], first: usize| {
            for (i, (game, slot)) in games.iter().zip(slots.iter_mut()).enumerate() {
                if let Some(next) = games.get(i + 1) {
                    next.prefetch_logits(&rows[(i + 1) * width..(i + 2) * width]);
                }
                *slot = match pick(first + i, game, &rows[i * width..(i + 1) * width]) {
                    Ok(Some(a)) => a as i64,
                    Ok(None) => -1,
                    Err(_) => BAD,
                };
            }
        };
        let part = self.part();
        self.threads.run(
            self.games
                .chunks(part)
                .zip(logits.chunks(part * width))
                .zip(out.chunks_mut(part))
                .enumerate(),
            |(k, ((games, rows), slots))| work(games, rows, slots, k * part),
        );
        match out.iter().position(|&a| a == BAD) {
            None => Ok(()),
            Some(row) => {
                let error = pick(
                    row,
                    &self.games[row],
                    &logits[row * width..(row + 1) * width],
                )
                .err()
                .unwrap_or(LogitError::NoWeight);
                Err((row, error))
            }
        }
    }
}

/// The random number of game `index` in the draw `seed`.
fn game_random(seed: u64, index: usize) -> u64 {
    splitmix(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// How the moves of a playout are chosen.
#[derive(Clone, Debug)]
pub enum Policy {
    /// Uniformly among the legal moves.
    Random,
    /// The engine's move under `limits` (from a cleared table each game, so a game does not
    /// depend on the others), or with probability `noise` a random one.
    Engine {
        /// The search's limits (depth or nodes).
        limits: Box<crate::search::Limits>,
        /// The share of random moves.
        noise: f64,
        /// The engine's table size.
        hash_mb: usize,
        /// The engine's evaluation.
        evaluation: crate::search::Evaluation,
    },
}

/// A finished playout: how it ended, its plies, and (on request) the positions met, the
/// first one included and the last one (where the game ended) left out.
#[derive(Clone, Debug)]
pub struct Playout<W: GameWord = u64> {
    /// How it ended.
    pub finish: Finish,
    /// Its plies.
    pub plies: usize,
    /// The positions met.
    pub positions: Vec<crate::Position<W>>,
}

/// What the draw rules read of a playout: the position, its clocks and the positions since
/// the last capture or man move (the only ones that can recur, as [`Board::occurrences`]
/// counts them), without a [`Board`]'s whole history.
#[derive(Clone, Debug)]
struct PlayoutGame<W: GameWord = u64> {
    pos: crate::Position<W>,
    clocks: crate::game::draw::DrawClocks,
    recent: Vec<crate::Position<W>>,
    plies: usize,
}

impl<W: GameWord> PlayoutGame<W> {
    fn new(start: &Board<W>) -> PlayoutGame<W> {
        let mut game = PlayoutGame {
            pos: *start.position(),
            clocks: start.clocks(),
            recent: Vec::new(),
            plies: 0,
        };
        game.restart(start);
        game
    }

    /// Back to `start` (keeping the allocation).
    fn restart(&mut self, start: &Board<W>) {
        let (plies, clocks) = (start.plies(), start.clocks());
        let window = (clocks.kings_only as usize).min(plies);
        self.pos = *start.position();
        self.clocks = clocks;
        self.recent.clear();
        self.recent
            .extend((plies - window..plies).filter_map(|ply| start.at(ply).map(|(pos, _)| *pos)));
        self.plies = plies;
    }

    fn push(&mut self, m: &Move<W>) {
        let mut next = self.pos;
        next.play_unchecked(m);
        let clocks = self.clocks.after(&self.pos, m, &next);
        if clocks.kings_only == 0 {
            self.recent.clear();
        } else {
            self.recent.push(self.pos);
        }
        self.pos = next;
        self.clocks = clocks;
        self.plies += 1;
    }

    fn is_drawn(&self, rules: &DrawRules) -> bool {
        rules.is_drawn(&self.pos, self.clocks, || {
            crate::game::draw::occurrences(&self.pos, &self.recent)
        })
    }
}

/// One game from `start` under `rules` with `policy` (and `engine` for the engine policy:
/// it searches a [`Board`] with the game's history).
#[allow(clippy::too_many_arguments)]
fn play_one<W: crate::search::SearchWord>(
    start: &Board<W>,
    rules: &DrawRules,
    max_plies: usize,
    seed: u64,
    policy: &Policy,
    limits: Option<&crate::search::Limits<W>>,
    engine: Option<&crate::search::Engine>,
    keep: bool,
) -> Playout<W> {
    let mut game = PlayoutGame::new(start);
    let mut board = engine.map(|_| start.clone());
    let mut state = splitmix(seed);
    let mut positions = Vec::new();
    if let Some(engine) = engine {
        engine.clear();
    }
    let finish = loop {
        let pos = game.pos;
        let next = splitmix(state);
        // A uniformly random legal move, made without listing the moves where it can be.
        let Some(random) = pos.legal_move_at(next) else {
            break match pos.winner_without_moves() {
                Color::White => Finish::WhiteWins,
                Color::Black => Finish::BlackWins,
            };
        };
        if game.plies >= max_plies {
            break Finish::Truncated;
        }
        if keep {
            positions.push(pos);
        }
        state = next;
        let m = match (policy, limits, engine, board.as_mut()) {
            (Policy::Engine { noise, .. }, Some(limits), Some(engine), Some(board)) => {
                state = splitmix(state);
                let draw = (state >> 11) as f64 / (1u64 << 53) as f64;
                let m = if draw < *noise {
                    random
                } else {
                    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                    engine
                        .search_board(board, limits, stop, |_| {})
                        .best
                        .unwrap_or(random)
                };
                board.push_unchecked(m);
                m
            }
            _ => random,
        };
        game.push(&m);
        if game.is_drawn(rules) {
            break Finish::Draw;
        }
    };
    Playout {
        finish,
        plies: game.plies,
        positions,
    }
}

/// `games` games under `rules`, game `i` from `starts[i % starts.len()]` (no game without a
/// start) and seeded by `seed` and `i` (the same games whatever the threads), spread over
/// the current rayon pool; `keep` keeps the positions met.
pub fn playouts_with<W: crate::search::SearchWord>(
    starts: &[Board<W>],
    rules: &DrawRules,
    games: usize,
    max_plies: usize,
    seed: u64,
    policy: &Policy,
    keep: bool,
) -> Result<Vec<Playout<W>>, crate::TableAllocError> {
    if starts.is_empty() {
        return Ok(Vec::new());
    }
    // The engine's limits in the boards' word (the policy keeps them in the 64-bit one).
    let limits = match policy {
        Policy::Engine { limits, .. } => Some(limits.in_word::<W>()),
        Policy::Random => None,
    };
    let play = |engine: Option<&crate::search::Engine>, i: usize| {
        play_one(
            &starts[i % starts.len()],
            rules,
            max_plies,
            seed ^ splitmix(i as u64),
            policy,
            limits.as_ref(),
            engine,
            keep,
        )
    };
    match policy {
        Policy::Random => Ok((0..games).into_par_iter().map(|i| play(None, i)).collect()),
        Policy::Engine {
            hash_mb,
            evaluation,
            ..
        } => (0..games)
            .into_par_iter()
            .map_init(
                || -> Result<crate::search::Engine, crate::TableAllocError> {
                    let engine = crate::search::Engine::new(*hash_mb, 1)?;
                    engine.set_evaluation(*evaluation);
                    Ok(engine)
                },
                |engine, i| match engine {
                    Ok(engine) => Ok(play(Some(engine), i)),
                    Err(e) => Err(e.clone()),
                },
            )
            .collect(),
    }
}

/// What [`search_all`] found for one position: the score (side to move's view) and the
/// best move (None without a legal move).
#[derive(Clone, Debug)]
pub struct Label<W: GameWord = u64> {
    /// The score.
    pub score: crate::search::Score,
    /// The best move.
    pub best: Option<Move<W>>,
}

/// Search every board with `limits` (each search from a cleared table, so a label does not
/// depend on the others or on the threads), `threads` engines of `hash_mb` MiB at once.
pub fn search_all<W: crate::search::SearchWord>(
    boards: &[Board<W>],
    limits: &crate::search::Limits<W>,
    threads: usize,
    hash_mb: usize,
    evaluation: crate::search::Evaluation,
) -> Result<Vec<Label<W>>, crate::TableAllocError> {
    let threads = threads.clamp(1, boards.len().max(1));
    let chunk = boards.len().div_ceil(threads).max(1);
    let parts: Vec<Result<Vec<Label<W>>, crate::TableAllocError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = boards
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let engine = crate::search::Engine::new(hash_mb, 1)?;
                    engine.set_evaluation(evaluation);
                    Ok(part
                        .iter()
                        .map(|board| {
                            engine.clear();
                            let stop =
                                std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
                            let result = engine.search_board(board, limits, stop, |_| {});
                            Label {
                                score: result.info.score,
                                best: result.best,
                            }
                        })
                        .collect())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut out = Vec::with_capacity(boards.len());
    for part in parts {
        out.extend(part?);
    }
    Ok(out)
}

pub use crate::util::splitmix;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::fen::position_from_fen;

    #[test]
    fn a_playout_game_is_drawn_exactly_when_its_board_is() {
        let mut drawn = 0;
        for (i, fen) in [
            "W:W21-32:B1-12",
            "W:WK29,K31:BK4",
            "W:WKb8,Kd8,Kf8:BKc3",
            "B:WK1,K10:BK32,K23",
            "W:WK29:BK4",
            "W:WK29,K1:BK4",
        ]
        .iter()
        .enumerate()
        {
            let repetition = DrawRules::new(
                vec![crate::game::draw::DrawRule::Repetition { times: 3 }],
                Vec::new(),
            );
            for rules in [DrawRules::fmjd64(), repetition] {
                for game_seed in 0..100u64 {
                    let start = Board::new(position_from_fen(fen).expect("fen"));
                    let (mut board, mut game) = (start.clone(), PlayoutGame::new(&start));
                    let mut state = splitmix(game_seed ^ (i as u64) << 32);
                    for _ in 0..300 {
                        assert_eq!(game.is_drawn(&rules), board.is_drawn(&rules), "{fen}");
                        if board.is_drawn(&rules) {
                            drawn += 1;
                            break;
                        }
                        state = splitmix(state);
                        let Some(m) = board.position().legal_move_at(state) else {
                            break;
                        };
                        board.push_unchecked(m);
                        game.push(&m);
                        assert_eq!(game.pos, *board.position());
                    }
                }
            }
        }
        assert!(drawn >= 20, "{drawn}"); // the rules were put to the test
                                         // And a repetition, the kings going to and fro: the third time draws both.
        let start = Board::new(position_from_fen("W:WK29:BK1").expect("fen"));
        let (mut board, mut game) = (start.clone(), PlayoutGame::new(&start));
        for (i, text) in ["a1-b2", "b8-a7", "b2-a1", "a7-b8"]
            .iter()
            .cycle()
            .take(8)
            .enumerate()
        {
            assert!(!game.is_drawn(&DrawRules::fmjd64()) && !board.is_drawn(&DrawRules::fmjd64()));
            let m = crate::notation::parse_move(board.position(), text).expect("legal");
            board.push_unchecked(m);
            game.push(&m);
            assert_eq!(game.is_drawn(&DrawRules::fmjd64()), i == 7);
        }
        assert!(board.is_drawn(&DrawRules::fmjd64()) && board.occurrences() == 3);
    }

    #[test]
    fn every_legal_move_is_one_sequence_of_actions_and_replays_to_its_position() {
        for fen in [
            "W:W21-32:B1-12",
            "W:WK29:B18,10,11,26,3",
            "B:WK1,9,10,18:BK32",
            "W:W23:B18,19",
        ] {
            let pos = position_from_fen(fen).expect("fen");
            let rules = DrawRules::fmjd64();
            for m in pos.legal_moves().iter() {
                let mut game = BatchGame::new(Board::new(pos));
                let actions = move_actions(pos.turn(), m);
                assert_eq!(actions.len(), m.path().len());
                for &a in &actions {
                    assert!(game.is_legal(a as usize), "{fen} {}", m.long_text());
                    game.step(a as usize, &rules, 1000);
                }
                let mut after = pos;
                after.play_unchecked(m);
                if game.last.is_none() {
                    assert_eq!(*game.board().position(), after, "{fen} {}", m.long_text());
                }
            }
        }
    }

    #[test]
    fn a_game_replayed_from_its_actions_is_the_game_played() {
        // Random actions over several games each (restarts included), captures and their
        // jumps among them: the board played again from the record stands where the game
        // does, with its plies and its draw clocks, and says the same draws.
        let rules = DrawRules::fmjd64();
        let start = Board::new(position_from_fen("W:W21-32:B1-12").expect("fen"));
        let mut games: Vec<BatchGame> = (0..8).map(|_| BatchGame::new(start.clone())).collect();
        let mut finished = 0;
        for step in 0..3000u64 {
            for (i, game) in games.iter_mut().enumerate() {
                let Some(a) = game.pick(splitmix(step * 8 + i as u64)) else {
                    continue;
                };
                if game.step(a, &rules, 300).1 {
                    finished += 1;
                }
                if game.jumps == 0 {
                    let board = game.board();
                    assert_eq!(board.position(), game.position());
                    assert_eq!(board.plies(), game.game.plies);
                    assert_eq!(board.clocks(), game.game.clocks);
                    assert_eq!(board.is_drawn(&rules), game.game.is_drawn(&rules));
                }
            }
        }
        assert!(finished > 8, "{finished} games finished");
    }

    #[test]
    fn a_twelve_by_twelve_game_replayed_from_its_actions_is_the_game_played() {
        // Canadian draughts in the 128-bit word: every action a jump of its 12×12 shape, the
        // board played again from the record stands where the game does.
        let rules = crate::RuleSet::new(crate::Variant::Canadian, false);
        let draw = DrawRules::for_variant(crate::Variant::Canadian);
        let start = Board::new(crate::Position::<u128>::start_in(rules).expect("start"));
        let mut games: Vec<BatchGame<u128>> =
            (0..4).map(|_| BatchGame::new(start.clone())).collect();
        assert_eq!(games[0].shape.actions, 72 * 4 * 11);
        let (mut finished, mut jumps) = (0, 0);
        for step in 0..1500u64 {
            for (i, game) in games.iter_mut().enumerate() {
                let Some(a) = game.pick(splitmix(step * 4 + i as u64)) else {
                    continue;
                };
                assert!(a < 3168 && game.is_legal(a));
                if game.step(a, &draw, 300).1 {
                    finished += 1;
                }
                jumps += usize::from(game.jumps > 0);
                if game.jumps == 0 {
                    let board = game.board();
                    assert_eq!(board.position(), game.position());
                    assert_eq!(board.clocks(), game.game.clocks);
                }
            }
        }
        assert!(finished > 4 && jumps > 0, "{finished} games, {jumps} jumps");
    }
}
