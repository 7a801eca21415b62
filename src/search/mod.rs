//! The search: iterative deepening, principal-variation alpha-beta with aspiration windows,
//! a shared transposition table, quiescence over forced captures, killer and history move
//! ordering, late-move reductions, futility pruning near the horizon in quiet positions,
//! singular extensions, and Lazy SMP threads.
//!
//! No null-move pruning: zugzwang is common in draughts.

mod limits;
mod node;
mod ordering;
mod timeman;
mod tt;
mod variety;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use crate::eval::Evaluation;
pub use limits::{Info, Limits, Score, SearchResult};
use node::repeats;
pub use node::{MAX_PLY, WIN};
pub use tt::{Bound, Table};
pub use variety::{Variety, VARIETY_LINES};

use timeman::time_budget;
pub use timeman::{DEFAULT_MOVE_OVERHEAD, MAX_MOVE_OVERHEAD};

use worker::{Shared, Worker};

use crate::game::draw::DrawRules;
use crate::game::history::Board;
use crate::geometry::Word;
use crate::position::Position;
use crate::rules::GameWord;
use crate::util::memory::TableAllocError;

/// The search's verdict on a board's position, as it judges every node below the root: a
/// draw when the position occurred before with the same side to move, or when an automatic
/// rule of `rules` other than repetition holds (a position met twice can be met a third
/// time: the search does not play on to find out).
pub fn is_draw_node<W: crate::rules::GameWord>(board: &Board<W>, rules: &DrawRules) -> bool {
    let pos = board.position();
    repeats(&board.history_hashes(), pos.hash()) || rules.is_draw(pos, board.clocks())
}

/// A search engine: a transposition table shared by its searches, and a thread count.
///
/// Several searches may run on one engine at once (from several threads): each has its own
/// stop flag and limits, and they share the table. [`Engine::stop`] stops every search running
/// at that moment; a stop before a search has started does not reach it.
pub struct Engine {
    table: Table,
    running: Mutex<Vec<(Arc<AtomicBool>, Arc<Timing>)>>,
    threads: usize,
    endgame: std::sync::RwLock<Option<Arc<crate::egtb::Tables>>>,
    evaluation: std::sync::atomic::AtomicU16,
    /// The opening variety and the state of its random choices.
    variety: Mutex<Option<(Variety, u64)>>,
    /// The workers' memory, kept from one search to the next (one store for each word).
    scratch: Mutex<Vec<worker::Scratch>>,
    wide_scratch: Mutex<Vec<worker::Scratch<u128>>>,
    /// The move overhead in nanoseconds (see [`Engine::set_move_overhead`]).
    move_overhead: AtomicU64,
}

/// Takes a search's stop flag off the engine's list when the search ends (even by a panic).
struct Registration<'a> {
    engine: &'a Engine,
    flag: Arc<AtomicBool>,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        let mut running = self.engine.running();
        if let Some(i) = running.iter().position(|(f, _)| Arc::ptr_eq(f, &self.flag)) {
            running.swap_remove(i);
        }
    }
}

/// A search's time limits as they stand: a ponder hit lifts `pondering` and may set new
/// deadlines while the search runs. Deadlines are nanoseconds from the search's start
/// (`u64::MAX`: none).
pub(crate) struct Timing {
    pub(crate) pondering: AtomicBool,
    pub(crate) soft: AtomicU64,
    pub(crate) hard: AtomicU64,
}

/// A deadline as [`Timing`] holds it.
fn nanos(deadline: Option<std::time::Duration>) -> u64 {
    deadline.map_or(u64::MAX, |d| {
        u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
    })
}

impl Timing {
    fn new<W: Word>(limits: &Limits<W>, overhead: std::time::Duration) -> Timing {
        let (soft, hard) = time_budget(limits, overhead);
        Timing {
            pondering: AtomicBool::new(limits.ponder),
            soft: AtomicU64::new(nanos(soft)),
            hard: AtomicU64::new(nanos(hard)),
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
            evaluation: std::sync::atomic::AtomicU16::new(Evaluation::default().code()),
            variety: Mutex::new(None),
            scratch: Mutex::new(Vec::new()),
            wide_scratch: Mutex::new(Vec::new()),
            move_overhead: AtomicU64::new(nanos(Some(DEFAULT_MOVE_OVERHEAD))),
        })
    }

    /// The time a move is assumed to lose outside the search (the caller's code, the
    /// connection, a busy machine): under a clock the search keeps this much a move to go
    /// in reserve. [`DEFAULT_MOVE_OVERHEAD`] unless set; set at most [`MAX_MOVE_OVERHEAD`]
    /// (larger values are cut to it). It applies to the searches that start from now on
    /// and to ponder hits; a fixed move time is kept as given.
    pub fn set_move_overhead(&self, overhead: std::time::Duration) {
        let overhead = overhead.min(MAX_MOVE_OVERHEAD);
        self.move_overhead
            .store(nanos(Some(overhead)), Ordering::Relaxed);
    }

    /// The move overhead in use.
    pub fn move_overhead(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.move_overhead.load(Ordering::Relaxed))
    }

    /// Vary the opening moves of [`Engine::search_board`] (None, or `moves` 0: never): the
    /// random choices start again from the seed.
    pub fn set_variety(&self, variety: Option<Variety>) {
        *self.variety.lock().unwrap_or_else(|e| e.into_inner()) =
            variety.filter(|v| v.moves > 0).map(|v| (v, v.seed));
    }

    /// The opening variety in use.
    pub fn variety(&self) -> Option<Variety> {
        self.variety
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map(|(v, _)| v)
    }

    /// The variety's margin and next random number when `board`'s move is to be varied.
    fn variety_choice<W: GameWord>(&self, board: &Board<W>) -> Option<(i32, u64)> {
        let mut guard = self.variety.lock().unwrap_or_else(|e| e.into_inner());
        let (variety, state) = guard.as_mut()?;
        if board.fullmove_number() > variety.moves {
            return None;
        }
        *state = crate::util::splitmix(*state);
        Some((variety.margin, *state))
    }

    /// The evaluation the searches that start from now on use.
    pub fn set_evaluation(&self, evaluation: Evaluation) {
        self.evaluation.store(evaluation.code(), Ordering::Relaxed);
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> Evaluation {
        Evaluation::from_code(self.evaluation.load(Ordering::Relaxed))
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

    fn running(&self) -> std::sync::MutexGuard<'_, Vec<(Arc<AtomicBool>, Arc<Timing>)>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ask every running search to stop (from any thread); each returns its best move so far.
    pub fn stop(&self) {
        for (flag, _) in self.running().iter() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The expected reply was played: every search pondering now (see [`Limits::ponder`])
    /// goes on as a normal search, its time limits counted from its start; with `limits`,
    /// under those limits' times (the clock as it stands now) instead of its own. Returns
    /// how many searches it reached.
    pub fn ponderhit(&self, limits: Option<&Limits>) -> usize {
        let overhead = self.move_overhead();
        let budget = limits.map(|limits| time_budget(limits, overhead));
        let mut reached = 0;
        for (_, timing) in self.running().iter() {
            if !timing.pondering.load(Ordering::Relaxed) {
                continue;
            }
            if let Some((soft, hard)) = budget {
                timing.soft.store(nanos(soft), Ordering::Relaxed);
                timing.hard.store(nanos(hard), Ordering::Relaxed);
            }
            timing.pondering.store(false, Ordering::Release);
            reached += 1;
        }
        reached
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
    pub fn search<W: SearchWord>(
        &self,
        pos: &Position<W>,
        history: &[u64],
        limits: &Limits<W>,
        on_info: impl FnMut(&Info<W>),
    ) -> SearchResult<W> {
        self.search_until(
            pos,
            history,
            limits,
            Arc::new(AtomicBool::new(false)),
            on_info,
        )
    }

    /// Search a board's position: its earlier positions count for repetitions and its
    /// clocks for the draw rules (`limits.clocks` is replaced by the board's). With an
    /// opening variety set ([`Engine::set_variety`]) and the game in its first moves, the
    /// move is chosen among the [`VARIETY_LINES`] best lines within the variety's margin.
    pub fn search_board<W: SearchWord>(
        &self,
        board: &Board<W>,
        limits: &Limits<W>,
        stop: Arc<AtomicBool>,
        mut on_info: impl FnMut(&Info<W>),
    ) -> SearchResult<W> {
        let mut limits = Limits {
            clocks: board.clocks(),
            ..limits.clone()
        };
        let asked = limits.multipv.max(1);
        let choice = self.variety_choice(board);
        if choice.is_some() {
            limits.multipv = asked.max(VARIETY_LINES);
        }
        // Only the positions since the last capture or man move can come again.
        let history = board.history_hashes();
        let since = (board.clocks().kings_only as usize).min(history.len());
        let mut result = self.search_until(
            board.position(),
            &history[history.len() - since..],
            &limits,
            stop,
            |info| {
                if info.multipv <= asked {
                    on_info(info);
                }
            },
        );
        if let Some((margin, random)) = choice {
            variety::choose(&mut result, margin, random, asked);
        }
        result
    }

    /// [`Engine::search`] with a stop flag of the caller's: raising it (from any thread, at
    /// any time, also before the search starts) ends the search, which returns its best move
    /// so far. The search raises it too when a limit is reached.
    pub fn search_until<W: SearchWord>(
        &self,
        pos: &Position<W>,
        history: &[u64],
        limits: &Limits<W>,
        stop: Arc<AtomicBool>,
        mut on_info: impl FnMut(&Info<W>),
    ) -> SearchResult<W> {
        let timing = Arc::new(Timing::new(limits, self.move_overhead()));
        self.running()
            .push((Arc::clone(&stop), Arc::clone(&timing)));
        let _registration = Registration {
            engine: self,
            flag: Arc::clone(&stop),
        };
        self.table.new_search();
        let start = Instant::now();
        let total_nodes = AtomicU64::new(0);
        let helpers_stop = AtomicBool::new(false);
        let shared = Shared {
            table: &self.table,
            stop: &stop,
            helpers_stop: &helpers_stop,
            total_nodes: &total_nodes,
            start,
            timing: &timing,
            node_limit: limits.nodes,
            root_moves: &limits.root_moves,
            endgame: self.endgame_tables(),
            evaluation: self.evaluation().resolved(pos.rules().variant),
            evaluator: crate::eval::Evaluator::new::<W>(self.evaluation(), pos.rules()),
            draw_rules: &limits.draw_rules,
            clocks: limits.clocks,
            multipv: limits.multipv.max(1),
        };
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        // Each worker takes the memory a worker left (its cached evaluations still good when
        // the evaluation and the rules are the same) and gives it back at the end.
        let owner = (shared.evaluation, pos.rules());
        let store = W::scratch(self);
        let mut spare = std::mem::take(&mut *store.lock().unwrap_or_else(|e| e.into_inner()));
        let mut take = || {
            let mut scratch = spare.pop().unwrap_or_default();
            scratch.claim(owner);
            scratch
        };
        let scratches: Vec<worker::Scratch<W>> = (0..self.threads).map(|_| take()).collect();
        let (result, kept) = std::thread::scope(|scope| {
            let mut scratches = scratches.into_iter();
            let main_scratch = scratches.next().unwrap_or_default();
            let helpers: Vec<_> = scratches
                .enumerate()
                .map(|(i, scratch)| {
                    let shared = &shared;
                    scope.spawn(move || {
                        let mut worker = Worker::new(shared, history, false, scratch);
                        worker.iterate(pos, max_depth, i + 1, &mut |_| {});
                        worker.into_scratch()
                    })
                })
                .collect();
            let mut worker = Worker::new(&shared, history, true, main_scratch);
            let result = worker.iterate(pos, max_depth, 0, &mut on_info);
            helpers_stop.store(true, Ordering::Relaxed);
            // A ponder search answers only after the ponder hit or the stop.
            while timing.pondering.load(Ordering::Acquire) && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            let mut kept = vec![worker.into_scratch()];
            kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            (result, kept)
        });
        store.lock().unwrap_or_else(|e| e.into_inner()).extend(kept);
        result
    }
}

/// A word the engine searches boards of: the 64-bit one, and the 128-bit one of the 12×12
/// board.
pub trait SearchWord: GameWord + store::ScratchStore {}

impl SearchWord for u64 {}
impl SearchWord for u128 {}

/// Where each word's workers' memory is kept between searches (private to the crate).
mod store {
    use super::{worker::Scratch, Engine, GameWord, Mutex};

    pub trait ScratchStore: GameWord {
        /// The engine's store of workers' memory for this word.
        fn scratch(engine: &Engine) -> &Mutex<Vec<Scratch<Self>>>;
    }

    impl ScratchStore for u64 {
        fn scratch(engine: &Engine) -> &Mutex<Vec<Scratch>> {
            &engine.scratch
        }
    }

    impl ScratchStore for u128 {
        fn scratch(engine: &Engine) -> &Mutex<Vec<Scratch<u128>>> {
            &engine.wide_scratch
        }
    }
}
