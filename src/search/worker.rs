//! The search proper: the workers of one search (Lazy SMP: one a thread, sharing the
//! table), iterative deepening with aspiration windows, principal-variation alpha-beta with
//! late-move reductions, futility pruning, singular and negative extensions, and quiescence
//! over forced captures.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::limits::{Info, Score, SearchResult};
use super::node::{no_moves_score, repeats, Order, MAX_PLY, WIN, WIN_BOUND};
use super::tt::{Bound, Entry, Table};
use crate::eval::{Evaluation, Evaluator};
use crate::game::draw::{DrawClocks, DrawRules};
use crate::position::mv::{Move, MoveList};
use crate::position::Position;
use crate::rules::GameWord;

pub(super) struct Shared<'a, W: GameWord = u64> {
    pub(super) table: &'a Table,
    pub(super) stop: &'a AtomicBool,
    pub(super) helpers_stop: &'a AtomicBool,
    pub(super) total_nodes: &'a AtomicU64,
    pub(super) start: Instant,
    /// The time limits, which a ponder hit may change.
    pub(super) timing: &'a super::Timing,
    pub(super) node_limit: Option<u64>,
    pub(super) root_moves: &'a [Move<W>],
    pub(super) endgame: Option<Arc<crate::egtb::Tables>>,
    /// The evaluation chosen (resolved for the game: the name cached evaluations are kept
    /// under).
    pub(super) evaluation: Evaluation,
    /// Its evaluator, chosen once for the search; each worker holds a copy.
    pub(super) evaluator: Evaluator,
    pub(super) draw_rules: &'a DrawRules,
    pub(super) clocks: DrawClocks,
    /// Lines the main worker searches together (multi-PV).
    pub(super) multipv: usize,
}

pub(super) struct Worker<'a, W: GameWord = u64> {
    shared: &'a Shared<'a, W>,
    main: bool,
    nodes: u64,
    unreported: u64,
    seldepth: usize,
    aborted: bool,
    hashes: Vec<u64>,
    pub(super) killers: Vec<[(u8, u8); 2]>,
    /// The history heuristic's counts by (from bit, to bit): `W::BITS` a from square.
    pub(super) history: Vec<i32>,
    pv: Vec<[Option<Move<W>>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The draw rules' clocks of the position at each ply.
    clocks: Vec<DrawClocks>,
    /// A root move other than the first raised alpha in the iteration being searched.
    root_improved: bool,
    /// Root moves left out of the line being searched: the first moves of the better
    /// lines of this iteration (multi-PV).
    excluded: Vec<Move<W>>,
    /// Static evaluations by hash (see [`Worker::static_eval`]).
    eval_cache: Vec<(u64, i32)>,
    /// What they were made under ([`Scratch::claim`]).
    owner: Option<(Evaluation, crate::games::RuleSet)>,
    /// An iteration ended past the soft deadline while pondering.
    soft_passed: bool,
    /// The move (by index) a singular-extension test leaves out at each ply.
    skip: Vec<Option<usize>>,
    /// The evaluator (the search's, this worker's own copy).
    evaluator: Evaluator,
}

/// Entries of a worker's cache of static evaluations (a power of two).
const EVAL_CACHE: usize = 1 << 16;

/// Futility pruning applies this many plies from the horizon and closer.
const FUTILITY_DEPTH: i32 = 3;
/// Centi-men of futility margin a ply of depth left.
const FUTILITY_MARGIN: i32 = 40;
/// Singular extensions apply this many plies from the horizon and further.
const SINGULAR_DEPTH: i32 = 6;
/// Centi-men a ply of depth by which every other move must fall short of the table's
/// score for its move to be singular.
const SINGULAR_MARGIN: i32 = 2;
/// The table's score is trusted for the singular test from a search at most this many plies
/// shallower than the node's.
const SINGULAR_TABLE_DEPTH: i32 = 3;
/// Extensions (a single reply, a singular move) stop at this ply, so lines cannot grow
/// without end.
const EXTENSION_MAX_PLY: usize = 64;

/// A static evaluation refined by the table's entry of the position: its score where its
/// bound allows (a lower bound above the evaluation, an upper bound below it, an exact
/// score), the evaluation otherwise. Won or lost scores are left out.
fn refine_by_table(eval: i32, entry: Option<Entry>, ply: usize) -> i32 {
    let Some(e) = entry else {
        return eval;
    };
    let score = from_table(e.score, ply);
    let better = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score > eval,
        Bound::Upper => score < eval,
    };
    if better && !is_win(score) {
        score
    } else {
        eval
    }
}

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

/// A worker's memory kept from one search to the next (allocating and filling it anew costs
/// as much as a short search: self-play at a few thousand nodes a move): the cache of static
/// evaluations, good while the evaluation and the rules stay the same, and the table of
/// principal variations (only what a search writes is read).
pub struct Scratch<W: GameWord = u64> {
    eval_cache: Vec<(u64, i32)>,
    /// The evaluation and rules the cached values were made under.
    owner: Option<(Evaluation, crate::games::RuleSet)>,
    pv: Vec<[Option<Move<W>>; MAX_PLY]>,
}

impl<W: GameWord> Default for Scratch<W> {
    fn default() -> Scratch<W> {
        Scratch {
            eval_cache: vec![(0, i32::MIN); EVAL_CACHE],
            owner: None,
            pv: vec![[None; MAX_PLY]; MAX_PLY],
        }
    }
}

impl<W: GameWord> Scratch<W> {
    /// Ready for a search under `owner`: the cached evaluations are cleared if they were
    /// made under another evaluation or other rules.
    pub(super) fn claim(&mut self, owner: (Evaluation, crate::games::RuleSet)) {
        if self.owner != Some(owner) {
            self.eval_cache.fill((0, i32::MIN));
            self.owner = Some(owner);
        }
    }
}

impl<'a, W: GameWord> Worker<'a, W> {
    pub(super) fn new(
        shared: &'a Shared<'a, W>,
        history: &[u64],
        main: bool,
        scratch: Scratch<W>,
    ) -> Worker<'a, W> {
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
            history: vec![0; (W::BITS * W::BITS) as usize],
            pv: scratch.pv,
            pv_len: [0; MAX_PLY],
            clocks: vec![shared.clocks; MAX_PLY + 2],
            root_improved: false,
            excluded: Vec::new(),
            eval_cache: scratch.eval_cache,
            owner: scratch.owner,
            soft_passed: false,
            skip: vec![None; MAX_PLY + 1],
            evaluator: shared.evaluator.clone(),
        }
    }

    /// The memory this worker took, for the next search.
    pub(super) fn into_scratch(self) -> Scratch<W> {
        Scratch {
            eval_cache: self.eval_cache,
            owner: self.owner,
            pv: self.pv,
        }
    }

    /// Whether the search must end: every 1024 nodes, the nodes are reported and the
    /// limits and stop flags looked at ([`Worker::poll`]).
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.unreported += 1;
        if self.unreported >= 1024 {
            self.poll();
        }
        self.aborted
    }

    #[cold]
    #[inline(never)]
    fn poll(&mut self) {
        let total = self
            .shared
            .total_nodes
            .fetch_add(self.unreported, Ordering::Relaxed)
            + self.unreported;
        self.unreported = 0;
        let out_of_time = self.out_of_time();
        let out_of_nodes = self.shared.node_limit.is_some_and(|n| total >= n);
        if out_of_time || out_of_nodes {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        if self.shared.stop.load(Ordering::Relaxed)
            || (!self.main && self.shared.helpers_stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
    }

    /// Whether the search is past its hard deadline, or (the main worker) past its soft one
    /// after an iteration ended beyond it while pondering. Never while pondering.
    fn out_of_time(&self) -> bool {
        let timing = self.shared.timing;
        if timing.pondering.load(Ordering::Relaxed) {
            return false;
        }
        let hard = timing.hard.load(Ordering::Relaxed);
        let soft = timing.soft.load(Ordering::Relaxed);
        let limit = if self.main && self.soft_passed {
            soft.min(hard)
        } else {
            hard
        };
        limit != u64::MAX
            && u64::try_from(self.shared.start.elapsed().as_nanos()).unwrap_or(u64::MAX) >= limit
    }

    /// The static evaluation, through a small cache of this worker's (the same position is
    /// often evaluated twice: by futility pruning and by the quiescence search below it, or
    /// through a transposition). Exact: a value is reused only under the full 64-bit hash.
    #[inline]
    fn static_eval(&mut self, pos: &Position<W>) -> i32 {
        let hash = pos.hash();
        let slot = &mut self.eval_cache[hash as usize & (EVAL_CACHE - 1)];
        if slot.0 == hash && slot.1 != i32::MIN {
            return slot.1;
        }
        let value = self.evaluator.evaluate(pos);
        *slot = (hash, value);
        value
    }

    fn total_nodes(&self) -> u64 {
        self.shared.total_nodes.load(Ordering::Relaxed) + self.unreported
    }

    pub(super) fn iterate(
        &mut self,
        root: &Position<W>,
        max_depth: u32,
        id: usize,
        on_info: &mut dyn FnMut(&Info<W>),
    ) -> SearchResult<W> {
        let mut root_moves = root.legal_moves();
        self.restrict_root(&mut root_moves);
        let empty = Info {
            depth: 0,
            seldepth: 0,
            score: Score::Value(0),
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            multipv: 1,
        };
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            lines: Vec::new(),
            info: empty.clone(),
        };
        if root_moves.is_empty() {
            result.info.score = Score::Win(0);
            result.lines.push(result.info.clone());
            return result;
        }
        // Helpers fill the table with the best line only.
        let lines = if self.main {
            self.shared.multipv.min(root_moves.len())
        } else {
            1
        };
        // Each line's score at the last finished depth: its next aspiration window.
        let mut scores = vec![0; lines];
        let first_depth = 1 + (id % 2) as u32;
        let mut depth = first_depth;
        'deepening: while depth <= max_depth {
            self.excluded.clear();
            let mut found: Vec<(i32, Info<W>)> = Vec::with_capacity(lines);
            for (line, &score) in scores.iter().enumerate() {
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
                    // A move that beat the first one in this unfinished iteration of the
                    // best line is the better move at this depth: play it (its score is
                    // not reported).
                    if line == 0 && self.root_improved {
                        if let Some(best) = self.pv[0][0] {
                            result.best = Some(best);
                            result.ponder = if self.pv_len[0] > 1 {
                                self.pv[0][1]
                            } else {
                                None
                            };
                        }
                    }
                    break 'deepening;
                }
                let pv: Vec<Move<W>> = self.pv[0][..self.pv_len[0]]
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                let time = self.shared.start.elapsed();
                let nodes = self.total_nodes();
                if let Some(first) = pv.first() {
                    self.excluded.push(*first);
                }
                found.push((
                    value,
                    Info {
                        depth,
                        seldepth: self.seldepth as u32,
                        score: Score::from_internal(value),
                        nodes,
                        nps: (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64,
                        time,
                        pv,
                        multipv: line + 1,
                    },
                ));
                if self.aborted || self.excluded.len() <= line {
                    break; // stopped at the first depth, or a line without a move
                }
            }
            // Best first (a later line can come out better than an earlier one when the
            // earlier one failed low): stable, so equal scores keep their order.
            found.sort_by_key(|(value, _)| std::cmp::Reverse(*value));
            for (i, (value, info)) in found.iter_mut().enumerate() {
                info.multipv = i + 1;
                scores[i] = *value;
            }
            let best_value = found.first().map_or(0, |(v, _)| *v);
            result.lines = found.into_iter().map(|(_, info)| info).collect();
            if let Some(info) = result.lines.first() {
                if let Some(best) = info.pv.first() {
                    result.best = Some(*best);
                    result.ponder = info.pv.get(1).copied();
                }
                result.info = info.clone();
            }
            if self.main {
                for info in &result.lines {
                    on_info(info);
                }
            }
            if self.aborted {
                break;
            }
            // A forced win or loss found within the depth: deeper search changes nothing
            // (with several lines, only once every line is decided).
            let decided = |v: i32| is_win(v) && (WIN - v.abs()) < depth as i32;
            if decided(best_value) && scores.iter().all(|v| decided(*v)) {
                break;
            }
            let soft = self.shared.timing.soft.load(Ordering::Relaxed);
            if self.main
                && soft != u64::MAX
                && u64::try_from(result.info.time.as_nanos()).unwrap_or(u64::MAX) >= soft
            {
                if !self.shared.timing.pondering.load(Ordering::Relaxed) {
                    break;
                }
                // Pondering: go on, and stop at once after the ponder hit.
                self.soft_passed = true;
            }
            depth += if self.main { 1 } else { 1 + (id % 2) as u32 };
        }
        if result.lines.is_empty() {
            result.lines.push(result.info.clone());
        }
        self.shared
            .total_nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
        result.info.nodes = self.shared.total_nodes.load(Ordering::Relaxed);
        result
    }

    /// The exact score of a position the endgame tables hold (without a capture).
    #[inline]
    fn endgame_score(&self, pos: &Position<W>, ply: usize) -> Option<i32> {
        let tables = self.shared.endgame.as_ref()?;
        Self::probe_tables(tables, pos, ply)
    }

    /// [`Self::endgame_score`] with tables held (out of line: a search without tables
    /// pays one test).
    #[inline(never)]
    fn probe_tables(tables: &crate::egtb::Tables, pos: &Position<W>, ply: usize) -> Option<i32> {
        let game = crate::egtb::TableGame::of(pos.rules())?;
        // A position with a capture is left to the search: its value is not stored (a
        // probe would search its captures, each a probe of its own).
        if pos.occupied().count() > tables.max_pieces_in(game) || pos.has_captures() {
            return None;
        }
        Some(match tables.probe(pos)? {
            crate::egtb::Value::Draw => 0,
            crate::egtb::Value::Win(d) => WIN - ply as i32 - d as i32,
            crate::egtb::Value::Loss(d) => -(WIN - ply as i32 - d as i32),
        })
    }

    /// Keep only the root moves the limits allow (all when none are named).
    fn restrict_root(&self, moves: &mut MoveList<W>) {
        let allowed = self.shared.root_moves;
        if !allowed.is_empty() {
            moves.retain(|m| allowed.contains(m));
        }
        if !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(m));
        }
    }

    /// Whether the position at `ply` (of hash `hash`) occurred before with the same side to
    /// move. Only the positions since the last capture or man move can be the same: after
    /// one in the search's line, only those are looked at (before the root, the history
    /// given is: [`super::Engine::search_board`] gives only the positions since).
    fn is_repetition(&self, hash: u64, ply: usize) -> bool {
        let since = self.clocks[ply].kings_only as usize;
        let earlier = if since >= ply {
            &self.hashes[..]
        } else {
            &self.hashes[self.hashes.len().saturating_sub(since)..]
        };
        repeats(earlier, hash)
    }

    fn search(
        &mut self,
        pos: &Position<W>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.check_stop() {
            return 0;
        }
        self.nodes += 1;
        self.pv_len[ply] = 0;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply > 0 && self.is_repetition(pos.hash(), ply) {
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
        let depth = if moves.len() == 1 && ply < EXTENSION_MAX_PLY {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, &mut moves);
        }
        let pv_node = beta - alpha > 1;
        let skip = self.skip[ply];
        let tt = self.shared.table.probe(pos.hash());
        // Futility pruning near the horizon, both ways: a quiet position (neither side can
        // capture) whose static evaluation is far below alpha, or far above beta, is not
        // searched. Margins grow with the depth left. The table's score, where its bound
        // says it is the better estimate, stands in for the static evaluation.
        if !pv_node
            && ply > 0
            && skip.is_none()
            && depth <= FUTILITY_DEPTH
            && !captures
            && !is_win(alpha)
            && !is_win(beta)
            && !pos.with_turn(!pos.turn()).has_captures()
        {
            let stand = refine_by_table(self.static_eval(pos), tt, ply);
            let margin = FUTILITY_MARGIN * depth;
            if stand + margin <= alpha || stand - margin >= beta {
                return stand;
            }
        }
        let mut tt_best = None;
        // The table's move searched a ply deeper (singular) or shallower (not singular, and
        // the table already says it fails high).
        let mut tt_extension = 0;
        if let Some(e) = tt {
            tt_best = e.best.filter(|b| *b < moves.len());
            let s = from_table(e.score, ply);
            if ply > 0 && skip.is_none() && !pv_node && e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
            // Singular extension: when every other move falls short of the table's score
            // by a margin in a shallower search, the table's move is searched a ply deeper.
            // When another move reaches that score too and the table's score is at or above
            // beta, the node will most likely fail high whatever the table's move returns:
            // that move is searched a ply shallower (Stockfish's negative extension).
            if let Some(best) = tt_best {
                if ply > 0
                    && ply < EXTENSION_MAX_PLY
                    && skip.is_none()
                    && depth >= SINGULAR_DEPTH
                    && e.depth >= depth - SINGULAR_TABLE_DEPTH
                    && e.bound != Bound::Upper
                    && !is_win(s)
                    && moves.len() > 1
                {
                    let singular_beta = s - SINGULAR_MARGIN * depth;
                    self.skip[ply] = Some(best);
                    let value =
                        self.search(pos, (depth - 1) / 2, singular_beta - 1, singular_beta, ply);
                    self.skip[ply] = None;
                    self.pv_len[ply] = 0;
                    if self.aborted {
                        return 0;
                    }
                    if value < singular_beta {
                        tt_extension = 1;
                    } else if s >= beta {
                        tt_extension = -1;
                    }
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
            if skip == Some(index as usize) {
                continue;
            }
            let m = &moves[index as usize];
            let depth = if tt_best == Some(index as usize) {
                depth + tt_extension
            } else {
                depth
            };
            let mut child = *pos;
            child.play_unchecked(m);
            self.shared.table.prefetch(child.hash());
            self.hashes.push(pos.hash());
            self.clocks[ply + 1] = self.clocks[ply].after(pos, m, &child);
            let quiet = !captures;
            let k = (m.from().bit() as u8, m.to().bit() as u8);
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
                            let h = &mut self.history
                                [(m.from().bit() * W::BITS + m.to().bit()) as usize];
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
        // A root searched over some of its moves only has no true value: not stored; nor
        // has a node searched without one of its moves.
        if skip.is_none()
            && (ply > 0 || (self.shared.root_moves.is_empty() && self.excluded.is_empty()))
        {
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
        pos: &Position<W>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        moves: &mut MoveList<W>,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i32, bound: Bound) -> Option<Entry> {
        Some(Entry {
            score,
            depth: 4,
            bound,
            best: None,
        })
    }

    #[test]
    fn the_table_refines_the_evaluation_only_where_its_bound_allows() {
        assert_eq!(refine_by_table(10, None, 3), 10);
        assert_eq!(refine_by_table(10, entry(-30, Bound::Exact), 3), -30);
        assert_eq!(refine_by_table(10, entry(50, Bound::Lower), 3), 50);
        assert_eq!(refine_by_table(10, entry(5, Bound::Lower), 3), 10);
        assert_eq!(refine_by_table(10, entry(5, Bound::Upper), 3), 5);
        assert_eq!(refine_by_table(10, entry(50, Bound::Upper), 3), 10);
        // A won or lost score is a proof, not an estimate: the evaluation stands.
        assert_eq!(refine_by_table(10, entry(WIN - 7, Bound::Exact), 3), 10);
        assert_eq!(refine_by_table(10, entry(-WIN + 7, Bound::Lower), 3), 10);
    }
}
