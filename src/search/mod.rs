//! The search: iterative deepening, principal-variation alpha-beta with aspiration windows,
//! a shared transposition table, quiescence over forced captures, killer and history move
//! ordering, late-move reductions, futility pruning near the horizon in quiet positions, and
//! Lazy SMP threads.
//!
//! No null-move pruning: zugzwang is common in draughts.

mod eval;
pub mod learned;
mod learned_weights;
mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use eval::{
    evaluate, evaluate_learned, evaluate_with, known_ending, Evaluation, Weights, WEIGHTS,
};
pub use tt::{Bound, Table};

use crate::board::Board;
use crate::draw::{DrawClocks, DrawRules};
use crate::memory::TableAllocError;
use crate::mv::{Move, MoveList};
use crate::position::Position;

/// Whether a position of hash `hash` occurred before with the same side to move, `earlier`
/// holding the hashes of the positions before it, the last one just before it.
#[inline]
fn repeats(earlier: &[u64], hash: u64) -> bool {
    earlier.iter().rev().skip(1).step_by(2).any(|h| *h == hash)
}

/// The search's verdict on a board's position, as it judges every node below the root: a
/// draw when the position occurred before with the same side to move, or when an automatic
/// rule of `rules` other than repetition holds (a position met twice can be met a third
/// time: the search does not play on to find out).
pub fn is_draw_node(board: &Board, rules: &DrawRules) -> bool {
    let pos = board.position();
    repeats(&board.history_hashes(), pos.hash()) || rules.is_draw(pos, board.clocks())
}

/// The score of a position whose side to move has no move, `ply` plies from the root: a
/// loss, or in giveaway a win.
#[inline]
fn no_moves_score(pos: &Position, ply: usize) -> i32 {
    if pos.rules().no_moves_wins() {
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
const WIN_BOUND: i32 = WIN - 1000;

/// Move indices with their ordering keys.
type Order = smallvec::SmallVec<[(i32, u8); 64]>;

/// What limits a search. Unset fields do not limit; with nothing set the search runs until
/// stopped (or to [`MAX_PLY`]).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Time left on the clock of the side to move.
    pub time_left: Option<Duration>,
    /// Increment per move.
    pub increment: Duration,
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// Search only these root moves (all legal moves when empty); the others are as if
    /// they were not there. Several searches, each leaving out the best moves of the ones
    /// before, give the best lines in order (multi-PV).
    pub root_moves: Vec<Move>,
    /// The draw rules to apply besides repetition (which the search always scores a draw:
    /// a position met again in the search's line or the game's history is a draw).
    pub draw_rules: DrawRules,
    /// The draw rules' clocks at the root ([`Engine::search_board`] takes them from the
    /// board).
    pub clocks: DrawClocks,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-men (a man = 100).
    Value(i32),
    /// A forced win (positive: for the side to move) in this many moves of the side to move;
    /// negative: a forced loss in that many moves.
    Win(i32),
}

impl Score {
    fn from_internal(score: i32) -> Score {
        if score >= WIN_BOUND {
            Score::Win((WIN - score + 1) / 2)
        } else if score <= -WIN_BOUND {
            Score::Win(-((WIN + score + 1) / 2))
        } else {
            Score::Value(score)
        }
    }
}

/// What the search reports after each iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the best line.
    pub score: Score,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move, `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The last complete iteration's report.
    pub info: Info,
}

/// A search engine: a transposition table shared by its searches, and a thread count.
///
/// Several searches may run on one engine at once (from several threads): each has its own
/// stop flag and limits, and they share the table. [`Engine::stop`] stops every search running
/// at that moment; a stop before a search has started does not reach it.
pub struct Engine {
    table: Table,
    running: Mutex<Vec<Arc<AtomicBool>>>,
    threads: usize,
    endgame: std::sync::RwLock<Option<Arc<crate::egtb::Tables>>>,
    evaluation: std::sync::atomic::AtomicU8,
}

/// Takes a search's stop flag off the engine's list when the search ends (even by a panic).
struct Registration<'a> {
    engine: &'a Engine,
    flag: Arc<AtomicBool>,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        let mut running = self.engine.running();
        if let Some(i) = running.iter().position(|f| Arc::ptr_eq(f, &self.flag)) {
            running.swap_remove(i);
        }
    }
}

impl Engine {
    /// An engine with `hash_mb` MiB of transposition table (its pages touched now, so the
    /// first search keeps to its time) and `threads` search threads. Fails when the machine
    /// does not have that much memory free.
    pub fn new(hash_mb: usize, threads: usize) -> Result<Engine, TableAllocError> {
        Ok(Engine {
            table: Table::new(hash_mb)?,
            running: Mutex::new(Vec::new()),
            threads: threads.clamp(1, 256),
            endgame: std::sync::RwLock::new(None),
            evaluation: std::sync::atomic::AtomicU8::new(Evaluation::default() as u8),
        })
    }

    /// The evaluation the searches that start from now on use.
    pub fn set_evaluation(&self, evaluation: Evaluation) {
        self.evaluation.store(evaluation as u8, Ordering::Relaxed);
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> Evaluation {
        if self.evaluation.load(Ordering::Relaxed) == Evaluation::Classic as u8 {
            Evaluation::Classic
        } else {
            Evaluation::Learned
        }
    }

    /// Endgame tables for the searches that start from now on (None: none). A position of
    /// a held balance gets its exact value, distance included: the engine plays them
    /// perfectly and scores the lines that reach them exactly.
    pub fn set_endgame_tables(&self, tables: Option<Arc<crate::egtb::Tables>>) {
        *self.endgame.write().unwrap_or_else(|e| e.into_inner()) = tables;
    }

    /// Endgame tables in use.
    pub fn endgame_tables(&self) -> Option<Arc<crate::egtb::Tables>> {
        self.endgame
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn running(&self) -> std::sync::MutexGuard<'_, Vec<Arc<AtomicBool>>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ask every running search to stop (from any thread); each returns its best move so far.
    pub fn stop(&self) {
        for flag in self.running().iter() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The number of searches running now.
    pub fn searches_running(&self) -> usize {
        self.running().len()
    }

    /// Forget the transposition table (a new game).
    pub fn clear(&self) {
        self.table.clear();
    }

    /// Search `pos`. `history` holds the hashes of the game's earlier positions (oldest
    /// first, the root excluded) for repetition detection. `on_info` is called after each
    /// completed iteration by the main thread.
    pub fn search(
        &self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.search_until(
            pos,
            history,
            limits,
            Arc::new(AtomicBool::new(false)),
            on_info,
        )
    }

    /// Search a board's position: its earlier positions count for repetitions and its
    /// clocks for the draw rules (`limits.clocks` is replaced by the board's).
    pub fn search_board(
        &self,
        board: &Board,
        limits: &Limits,
        stop: Arc<AtomicBool>,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let limits = Limits {
            clocks: board.clocks(),
            ..limits.clone()
        };
        self.search_until(
            board.position(),
            &board.history_hashes(),
            &limits,
            stop,
            on_info,
        )
    }

    /// [`Engine::search`] with a stop flag of the caller's: raising it (from any thread, at
    /// any time, also before the search starts) ends the search, which returns its best move
    /// so far. The search raises it too when a limit is reached.
    pub fn search_until(
        &self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        stop: Arc<AtomicBool>,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.running().push(Arc::clone(&stop));
        let _registration = Registration {
            engine: self,
            flag: Arc::clone(&stop),
        };
        self.table.new_search();
        let start = Instant::now();
        let (soft, hard) = time_budget(limits);
        let total_nodes = AtomicU64::new(0);
        let helpers_stop = AtomicBool::new(false);
        let shared = Shared {
            table: &self.table,
            stop: &stop,
            helpers_stop: &helpers_stop,
            total_nodes: &total_nodes,
            start,
            hard_deadline: hard.and_then(|d| start.checked_add(d)),
            node_limit: limits.nodes,
            root_moves: &limits.root_moves,
            endgame: self.endgame_tables(),
            evaluation: self.evaluation(),
            draw_rules: &limits.draw_rules,
            clocks: limits.clocks,
        };
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        std::thread::scope(|scope| {
            for id in 1..self.threads {
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker = Worker::new(shared, history, false);
                    worker.iterate(pos, max_depth, id, None, &mut |_| {});
                });
            }
            let mut worker = Worker::new(&shared, history, true);
            let result = worker.iterate(pos, max_depth, 0, soft, &mut on_info);
            helpers_stop.store(true, Ordering::Relaxed);
            result
        })
    }
}

/// (soft, hard) time limits: no new iteration after `soft`, abort at `hard`. A fixed move
/// time is cut to what the clock allows when both are given. Saturating arithmetic: any
/// durations, however large, give a budget.
fn time_budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    let clock = limits.time_left.map(|left| {
        let moves = limits.moves_to_go.unwrap_or(30).clamp(1, 60);
        let safety = Duration::from_millis(30).min(left / 4);
        let base = (left / moves).saturating_add(limits.increment.saturating_mul(3) / 4);
        let hard = base
            .saturating_mul(3)
            .min(left.saturating_sub(safety) / 2)
            .max(Duration::from_millis(1));
        let soft = (base / 2).min(hard);
        (soft, hard)
    });
    match (limits.movetime, clock) {
        (Some(t), Some((_, hard))) => (Some(t.min(hard)), Some(t.min(hard))),
        (Some(t), None) => (Some(t), Some(t)),
        (None, Some((soft, hard))) => (Some(soft), Some(hard)),
        (None, None) => (None, None),
    }
}

struct Shared<'a> {
    table: &'a Table,
    stop: &'a AtomicBool,
    helpers_stop: &'a AtomicBool,
    total_nodes: &'a AtomicU64,
    start: Instant,
    hard_deadline: Option<Instant>,
    node_limit: Option<u64>,
    root_moves: &'a [Move],
    endgame: Option<Arc<crate::egtb::Tables>>,
    evaluation: Evaluation,
    draw_rules: &'a DrawRules,
    clocks: DrawClocks,
}

struct Worker<'a> {
    shared: &'a Shared<'a>,
    main: bool,
    nodes: u64,
    unreported: u64,
    seldepth: usize,
    aborted: bool,
    hashes: Vec<u64>,
    killers: Vec<[(u8, u8); 2]>,
    history: Vec<[i32; 32]>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The draw rules' clocks of the position at each ply.
    clocks: Vec<DrawClocks>,
    /// A root move other than the first raised alpha in the iteration being searched.
    root_improved: bool,
    /// Static evaluations by hash (see [`Worker::static_eval`]).
    eval_cache: Vec<(u64, i32)>,
}

/// Entries of a worker's cache of static evaluations (a power of two).
const EVAL_CACHE: usize = 1 << 16;

/// Futility pruning applies this many plies from the horizon and closer.
const FUTILITY_DEPTH: i32 = 3;
/// Centi-men of futility margin a ply of depth left.
const FUTILITY_MARGIN: i32 = 40;

fn is_win(score: i32) -> bool {
    score.abs() >= WIN_BOUND
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, history: &[u64], main: bool) -> Worker<'a> {
        let mut hashes = Vec::with_capacity(history.len() + MAX_PLY + 1);
        hashes.extend_from_slice(history);
        Worker {
            shared,
            main,
            nodes: 0,
            unreported: 0,
            seldepth: 0,
            aborted: false,
            hashes,
            killers: vec![[(255, 255); 2]; MAX_PLY],
            history: vec![[0; 32]; 32],
            pv: vec![[None; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            clocks: vec![shared.clocks; MAX_PLY + 2],
            root_improved: false,
            eval_cache: vec![(0, i32::MIN); EVAL_CACHE],
        }
    }

    fn check_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.unreported += 1;
        if self.unreported >= 1024 {
            let total = self
                .shared
                .total_nodes
                .fetch_add(self.unreported, Ordering::Relaxed)
                + self.unreported;
            self.unreported = 0;
            let out_of_time = self
                .shared
                .hard_deadline
                .is_some_and(|d| Instant::now() >= d);
            let out_of_nodes = self.shared.node_limit.is_some_and(|n| total >= n);
            if out_of_time || out_of_nodes {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.stop.load(Ordering::Relaxed)
            || (!self.main && self.shared.helpers_stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The static evaluation, through a small cache of this worker's (the same position is
    /// often evaluated twice: by futility pruning and by the quiescence search below it, or
    /// through a transposition). Exact: a value is reused only under the full 64-bit hash.
    #[inline]
    fn static_eval(&mut self, pos: &Position) -> i32 {
        let hash = pos.hash();
        let slot = &mut self.eval_cache[hash as usize & (EVAL_CACHE - 1)];
        if slot.0 == hash && slot.1 != i32::MIN {
            return slot.1;
        }
        let value = evaluate_with(pos, self.shared.evaluation);
        *slot = (hash, value);
        value
    }

    fn total_nodes(&self) -> u64 {
        self.shared.total_nodes.load(Ordering::Relaxed) + self.unreported
    }

    fn iterate(
        &mut self,
        root: &Position,
        max_depth: u32,
        id: usize,
        soft: Option<Duration>,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut root_moves = root.legal_moves();
        self.restrict_root(&mut root_moves);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            info: Info {
                depth: 0,
                seldepth: 0,
                score: Score::Value(0),
                nodes: 0,
                nps: 0,
                time: Duration::ZERO,
                pv: Vec::new(),
            },
        };
        if root_moves.is_empty() {
            result.info.score = Score::Win(0);
            return result;
        }
        let mut score = 0;
        let first_depth = 1 + (id % 2) as u32;
        let mut depth = first_depth;
        while depth <= max_depth {
            self.seldepth = 0;
            let mut window = 40;
            let (mut alpha, mut beta) = if depth >= 4 && !is_win(score) {
                (score - window, score + window)
            } else {
                (-WIN, WIN)
            };
            self.root_improved = false;
            let value = loop {
                let v = self.search(root, depth as i32, alpha, beta, 0);
                if self.aborted {
                    break v;
                }
                if v <= alpha {
                    alpha = (alpha - window).max(-WIN);
                } else if v >= beta {
                    beta = (beta + window).min(WIN);
                } else {
                    break v;
                }
                window *= 3;
                if window > 1000 {
                    alpha = -WIN;
                    beta = WIN;
                }
            };
            if self.aborted && depth > first_depth {
                // A move that beat the first one in this unfinished iteration is the better
                // move at this depth: play it (its score is not reported).
                if self.root_improved {
                    if let Some(best) = self.pv[0][0] {
                        result.best = Some(best);
                        result.ponder = if self.pv_len[0] > 1 {
                            self.pv[0][1]
                        } else {
                            None
                        };
                    }
                }
                break;
            }
            score = value;
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]]
                .iter()
                .flatten()
                .copied()
                .collect();
            if let Some(best) = pv.first() {
                result.best = Some(*best);
                result.ponder = pv.get(1).copied();
            }
            let time = self.shared.start.elapsed();
            let nodes = self.total_nodes();
            result.info = Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(score),
                nodes,
                nps: (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64,
                time,
                pv,
            };
            if self.main {
                on_info(&result.info);
            }
            if self.aborted {
                break;
            }
            // A forced win or loss found within the depth: deeper search changes nothing.
            if is_win(score) && (WIN - score.abs()) < depth as i32 {
                break;
            }
            if soft.is_some_and(|s| time >= s) {
                break;
            }
            depth += if self.main { 1 } else { 1 + (id % 2) as u32 };
        }
        self.shared
            .total_nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
        result.info.nodes = self.shared.total_nodes.load(Ordering::Relaxed);
        result
    }

    /// The exact score of a position the endgame tables hold (without a capture).
    fn endgame_score(&self, pos: &Position, ply: usize) -> Option<i32> {
        let tables = self.shared.endgame.as_ref()?;
        if !pos.rules().plays_as_russian() {
            return None;
        }
        // A position with a capture is left to the search: its value is not stored (a
        // probe would search its captures, each a probe of its own).
        if pos.occupied().count() > tables.max_pieces() || pos.has_captures() {
            return None;
        }
        Some(match tables.probe(pos)? {
            crate::egtb::Value::Draw => 0,
            crate::egtb::Value::Win(d) => WIN - ply as i32 - d as i32,
            crate::egtb::Value::Loss(d) => -(WIN - ply as i32 - d as i32),
        })
    }

    /// Keep only the root moves the limits allow (all when none are named).
    fn restrict_root(&self, moves: &mut MoveList) {
        let allowed = self.shared.root_moves;
        if !allowed.is_empty() {
            moves.retain(|m| allowed.contains(m));
        }
    }

    fn is_repetition(&self, hash: u64) -> bool {
        repeats(&self.hashes, hash)
    }

    /// Indices into `moves`, best first: the table's move, captures (more pieces first),
    /// killers, then by history.
    fn order(&self, moves: &MoveList, tt_best: Option<usize>, ply: usize, keyed: &mut Order) {
        keyed.extend(moves.iter().enumerate().map(|(i, m)| {
            let key = if Some(i) == tt_best {
                1 << 30
            } else if m.is_capture() {
                (1 << 20) + 1000 * m.captured().count() as i32
            } else {
                let k = (m.from().index() as u8, m.to().index() as u8);
                if self.killers[ply][0] == k {
                    1 << 19
                } else if self.killers[ply][1] == k {
                    (1 << 19) - 1
                } else {
                    self.history[m.from().index()][m.to().index()]
                }
            };
            (key, i as u8)
        }));
    }

    /// Move the best remaining entry (highest key, then lowest index) to position `at`:
    /// a selection sort done lazily, since most nodes cut off after a move or two.
    fn pick(order: &mut [(i32, u8)], at: usize) -> u8 {
        let mut best = at;
        for j in at + 1..order.len() {
            let (k, i) = order[j];
            let (bk, bi) = order[best];
            if k > bk || (k == bk && i < bi) {
                best = j;
            }
        }
        order.swap(at, best);
        order[at].1
    }

    fn search(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.check_stop() {
            return 0;
        }
        self.nodes += 1;
        self.pv_len[ply] = 0;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply > 0 && self.is_repetition(pos.hash()) {
            return 0;
        }
        if ply > 0 && self.shared.draw_rules.is_draw(pos, self.clocks[ply]) {
            return 0;
        }
        if ply > 0 {
            if let Some(score) = self.endgame_score(pos, ply) {
                return score;
            }
        }
        let mut moves = MoveList::new();
        pos.legal_moves_into(crate::Counting::Distinct, &mut moves);
        if ply == 0 {
            self.restrict_root(&mut moves);
        }
        if moves.is_empty() {
            return no_moves_score(pos, ply);
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos);
        }
        let captures = moves[0].is_capture();
        // A single legal move costs no depth.
        let depth = if moves.len() == 1 && ply < 64 {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, &mut moves);
        }
        let pv_node = beta - alpha > 1;
        // Futility pruning near the horizon, both ways: a quiet position (neither side can
        // capture) whose static evaluation is far below alpha, or far above beta, is not
        // searched. Margins grow with the depth left.
        if !pv_node
            && ply > 0
            && depth <= FUTILITY_DEPTH
            && !captures
            && !is_win(alpha)
            && !is_win(beta)
            && !pos.with_turn(!pos.turn()).has_captures()
        {
            let stand = self.static_eval(pos);
            let margin = FUTILITY_MARGIN * depth;
            if stand + margin <= alpha || stand - margin >= beta {
                return stand;
            }
        }
        let tt = self.shared.table.probe(pos.hash());
        let mut tt_best = None;
        if let Some(e) = tt {
            tt_best = e.best.filter(|b| *b < moves.len());
            let s = from_table(e.score, ply);
            if ply > 0 && !pv_node && e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut order = Order::new();
        self.order(&moves, tt_best, ply, &mut order);
        let alpha0 = alpha;
        let mut best_score = -WIN;
        let mut best_index = None;
        for i in 0..order.len() {
            let index = Self::pick(&mut order, i);
            let m = &moves[index as usize];
            let mut child = *pos;
            child.play_unchecked(m);
            self.shared.table.prefetch(child.hash());
            self.hashes.push(pos.hash());
            self.clocks[ply + 1] = self.clocks[ply].after(pos, m, &child);
            let quiet = !captures;
            let k = (m.from().index() as u8, m.to().index() as u8);
            let is_killer = self.killers[ply].contains(&k);
            let score = if i == 0 {
                -self.search(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let reduction = if quiet && depth >= 3 && i >= 3 && !is_killer {
                    1
                } else {
                    0
                };
                let mut s =
                    -self.search(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if s > alpha && (reduction > 0 || pv_node) && !self.aborted {
                    s = -self.search(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            self.hashes.pop();
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(index as usize);
                if score > alpha {
                    alpha = score;
                    if ply == 0 && i > 0 {
                        self.root_improved = true;
                    }
                    self.pv[ply][0] = Some(*m);
                    let child_len = self.pv_len[ply + 1];
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
                    self.pv_len[ply] = child_len + 1;
                    if score >= beta {
                        if quiet {
                            if self.killers[ply][0] != k {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = k;
                            }
                            let h = &mut self.history[m.from().index()][m.to().index()];
                            *h = (*h + depth * depth).min(1 << 18);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched over some of its moves only has no true value: not stored.
        if ply > 0 || self.shared.root_moves.is_empty() {
            self.shared.table.store(
                pos.hash(),
                to_table(best_score, ply),
                depth,
                bound,
                best_index,
            );
        }
        best_score
    }

    /// Resolve forced captures; stand pat only where the side to move has none.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        moves: &mut MoveList,
    ) -> i32 {
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if let Some(score) = self.endgame_score(pos, ply) {
            return score;
        }
        if !moves[0].is_capture() || ply >= MAX_PLY - 2 {
            return self.static_eval(pos);
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.captured().count()));
        let mut best = -WIN;
        if pos.rules().captures_optional {
            // A quiet move is legal beside the captures: the side to move may stand pat.
            moves.retain(|m| m.is_capture());
            best = self.static_eval(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut replies = MoveList::new();
        for m in moves.iter() {
            if self.check_stop() {
                return 0;
            }
            self.nodes += 1;
            let mut child = *pos;
            child.play_unchecked(m);
            replies.clear();
            child.legal_moves_into(crate::Counting::Distinct, &mut replies);
            let score = if replies.is_empty() {
                -no_moves_score(&child, ply + 1)
            } else {
                -self.quiescence(&child, -beta, -alpha, ply + 1, &mut replies)
            };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
