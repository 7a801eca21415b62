//! The column games' engine: an alpha-beta search of [`StackPosition`]s.
//!
//! Iterative deepening of a principal-variation search with a transposition table (its
//! move first, then captures, then killers), a quiescence search of the captures (which are
//! compulsory, so a position with one is searched on, not scored), repetitions of the game
//! and of the line scored as draws, and an evaluation of the columns (below). Its own code:
//! the diagonal games' search runs on one piece a square, and a column game's move
//! changes the columns beside the tops.
//!
//! The evaluation, from the side to move's point of view, sums each column's worth to its
//! owner: its top (a man 100 and up to 30 for advancing, a king 300), the owner's pieces in
//! the top block under it (40 each: they are what the column keeps when its top is taken)
//! and the prisoners under them (25 each: pieces the other side has lost while the column
//! stands, and wins back when it falls), and a tempo. It stays beside the column search (the
//! evaluations of one piece a square are in `crate::eval`): the column games' positions are
//! their own type, which nothing else evaluates.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::position::StackPosition;
use crate::geometry::Color;
use crate::position::mv::Move;

/// The score of a win at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses at a known distance.
const WIN_BOUND: i32 = WIN - 1000;
const MAX_PLY: usize = 100;
const TABLE_BITS: u32 = 18;

/// A running search's controls, shared with other threads: a stop, and a time limit set
/// after the search began (a ponder hit: the time counts from the control's creation).
#[derive(Debug)]
pub struct ColumnControl {
    created: Instant,
    stopped: AtomicBool,
    /// Milliseconds after `created`; `u64::MAX`: none.
    deadline_ms: AtomicU64,
}

impl Default for ColumnControl {
    fn default() -> Self {
        Self::new()
    }
}

impl ColumnControl {
    /// A control with no stop and no time limit, its clock starting now.
    pub fn new() -> Self {
        Self {
            created: Instant::now(),
            stopped: AtomicBool::new(false),
            deadline_ms: AtomicU64::new(u64::MAX),
        }
    }

    /// Stop the searches that read this control (each keeps its last completed depth).
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether [`ColumnControl::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// End the searches `after` the control's creation (at once when that has passed).
    pub fn set_time(&self, after: Duration) {
        let ms = u64::try_from(after.as_millis()).unwrap_or(u64::MAX - 1);
        self.deadline_ms.store(ms, Ordering::Relaxed);
    }

    fn expired(&self) -> bool {
        let ms = self.deadline_ms.load(Ordering::Relaxed);
        ms != u64::MAX && self.created.elapsed().as_millis() >= u128::from(ms)
    }
}

/// What to search: at most `depth` plies, `nodes` nodes, until `deadline` or `control`
/// says stop.
#[derive(Clone, Debug, Default)]
pub struct ColumnLimits {
    /// Plies (1–100).
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// When to stop.
    pub deadline: Option<Instant>,
    /// A stop and a late time limit from another thread.
    pub control: Option<Arc<ColumnControl>>,
}

/// A search's answer: the best move (None without a legal move), its score for the side
/// to move (centi-men, or beyond ±29,000 a win or loss in `WIN - |score|` plies), the depth
/// completed, the nodes searched and the principal variation.
#[derive(Clone, Debug)]
pub struct ColumnResult {
    /// The move to play.
    pub best: Option<Move>,
    /// The score for the side to move.
    pub score: i32,
    /// Plies searched in full.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line.
    pub pv: Vec<Move>,
}

#[derive(Copy, Clone)]
struct Entry {
    key: u64,
    depth: u8,
    bound: u8, // 0 exact, 1 lower, 2 upper
    score: i32,
    best: Option<Move>,
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

struct Searcher {
    table: Vec<Option<Entry>>,
    nodes: u64,
    limits: ColumnLimits,
    stopped: bool,
    /// Hashes of the game's positions before the root, then of the line being searched.
    path: Vec<u64>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
}

/// The same move: its squares, the pieces it takes and the order of its landings (in a
/// column game the order decides the prisoners' order).
fn same(a: &Move, b: &Move) -> bool {
    let n = usize::from(a.path_len);
    a.from == b.from
        && a.to == b.to
        && a.captured.0 == b.captured.0
        && a.path_len == b.path_len
        && a.path[..n] == b.path[..n]
}

impl Searcher {
    fn out_of_time(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let control = self.limits.control.as_deref();
        if self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || control.is_some_and(ColumnControl::is_stopped)
            || (self.nodes % 1024 == 0
                && (self.limits.deadline.is_some_and(|d| Instant::now() >= d)
                    || control.is_some_and(ColumnControl::expired)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    fn repeats(&self, key: u64) -> bool {
        // The same side to move: every second position back.
        self.path.iter().rev().skip(1).step_by(2).any(|h| *h == key)
    }

    fn order(&self, moves: &mut [Move], best: Option<Move>, ply: usize) {
        let key = |m: &Move| -> i32 {
            if best.is_some_and(|b| same(&b, m)) {
                return 1_000_000;
            }
            if m.is_capture() {
                return 10_000 + 100 * m.captured.count() as i32;
            }
            if self.killers[ply].iter().flatten().any(|k| same(k, m)) {
                return 5_000;
            }
            i32::from(m.promotes) * 1_000
        };
        moves.sort_by_key(|m| std::cmp::Reverse(key(m)));
    }

    fn quiescence(&mut self, pos: &StackPosition, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        if !moves[0].is_capture() || ply >= MAX_PLY {
            return evaluate(pos);
        }
        if self.out_of_time() {
            return 0;
        }
        let mut list: Vec<Move> = moves.iter().copied().collect();
        self.order(&mut list, None, ply);
        let mut best = -WIN;
        for m in &list {
            let mut child = *pos;
            child.play_unchecked(m);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
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

    fn search(
        &mut self,
        pos: &StackPosition,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if depth == 0 || ply >= MAX_PLY {
            return self.quiescence(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        let key = pos.hash();
        if ply > 0 && self.repeats(key) {
            return 0;
        }
        if self.out_of_time() {
            return 0;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        let slot = self.slot(key);
        let mut hint = None;
        if let Some(e) = self.table[slot].filter(|e| e.key == key) {
            hint = e.best;
            if ply > 0 && u32::from(e.depth) >= depth {
                let s = e.score;
                match e.bound {
                    EXACT => return s,
                    LOWER => alpha = alpha.max(s),
                    _ => beta = beta.min(s),
                }
                if alpha >= beta {
                    return s;
                }
            }
        }
        let mut list: Vec<Move> = moves.iter().copied().collect();
        self.order(&mut list, hint, ply);
        let start_alpha = alpha;
        let mut best = -WIN;
        let mut best_move = None;
        self.path.push(key);
        for (i, m) in list.iter().enumerate() {
            let mut child = *pos;
            child.play_unchecked(m);
            // A capture sequence is forced: it does not cost depth when it is the only move.
            let next = if list.len() == 1 { depth } else { depth - 1 };
            let mut score;
            if i == 0 {
                score = -self.search(&child, next, -beta, -alpha, ply + 1);
            } else {
                score = -self.search(&child, next, -alpha - 1, -alpha, ply + 1);
                if score > alpha && score < beta {
                    score = -self.search(&child, next, -beta, -alpha, ply + 1);
                }
            }
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(*m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if !m.is_capture() {
                            let k = &mut self.killers[ply];
                            if !k[0].is_some_and(|x| same(&x, m)) {
                                k[1] = k[0];
                                k[0] = Some(*m);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if !self.stopped {
            let bound = if best >= beta {
                LOWER
            } else if best > start_alpha {
                EXACT
            } else {
                UPPER
            };
            self.table[slot] = Some(Entry {
                key,
                depth: depth.min(255) as u8,
                bound,
                score: best,
                best: best_move,
            });
        }
        best
    }

    fn pv(&self, pos: &StackPosition, first: Move) -> Vec<Move> {
        let mut out = vec![first];
        let mut p = *pos;
        p.play_unchecked(&first);
        let mut seen = vec![pos.hash(), p.hash()];
        while out.len() < 20 {
            let Some(e) = self.table[self.slot(p.hash())].filter(|e| e.key == p.hash()) else {
                break;
            };
            let Some(m) = e.best.and_then(|m| p.find_legal(&m)) else {
                break;
            };
            p.play_unchecked(&m);
            out.push(m);
            if seen.contains(&p.hash()) {
                break;
            }
            seen.push(p.hash());
        }
        out
    }
}

/// Search `pos` (`history`: the hashes of the game's positions before it, oldest first,
/// for repetitions) within `limits`; at least depth 1 is completed whatever the limits.
/// `on_depth` is told of each depth completed.
pub fn search(
    pos: &StackPosition,
    history: &[u64],
    limits: ColumnLimits,
    on_depth: &mut dyn FnMut(&ColumnResult),
) -> ColumnResult {
    let mut s = Searcher {
        table: vec![None; 1 << TABLE_BITS],
        nodes: 0,
        limits: ColumnLimits::default(),
        stopped: false,
        path: history.to_vec(),
        killers: [[None; 2]; MAX_PLY + 1],
    };
    let moves = pos.legal_moves();
    let mut result = ColumnResult {
        best: moves.first().copied(),
        score: if moves.is_empty() { -WIN } else { 0 },
        depth: 0,
        nodes: 0,
        pv: moves.first().copied().into_iter().collect(),
    };
    if moves.is_empty() {
        return result;
    }
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32)
        .clamp(1, MAX_PLY as u32);
    for depth in 1..=max_depth {
        // Depth 1 always completes; the limits hold from depth 2 on.
        s.limits = if depth == 1 {
            ColumnLimits::default()
        } else {
            limits.clone()
        };
        let score = s.search(pos, depth, -WIN, WIN, 0);
        if s.stopped {
            break;
        }
        let key = pos.hash();
        if let Some(best) = s.table[s.slot(key)]
            .filter(|e| e.key == key)
            .and_then(|e| e.best)
        {
            result.best = Some(best);
            result.pv = s.pv(pos, best);
        }
        result.score = score;
        result.depth = depth;
        result.nodes = s.nodes;
        on_depth(&result);
        if score.abs() > WIN_BOUND {
            break; // a forced result: deeper searches find no other
        }
    }
    result.nodes = s.nodes;
    result
}

/// The evaluation of `pos` for its side to move (see the module docs).
pub fn evaluate(pos: &StackPosition) -> i32 {
    let tops = pos.tops();
    let geometry = tops.geometry();
    let last = i32::from(geometry.size()) - 1;
    let mut score = [0i32; 2];
    for color in [Color::White, Color::Black] {
        let mut total = 0;
        for sq in pos.columns_of(color).iter() {
            let column = pos.column(sq);
            let Some(top) = column.top() else { continue };
            total += if top.role == crate::Role::King {
                300
            } else {
                let rank = i32::from(geometry.rank_of(sq));
                let advance = if color == Color::White {
                    rank
                } else {
                    last - rank
                };
                100 + 30 * advance / last.max(1)
            };
            total += 40 * (column.top_count() as i32 - 1) + 25 * column.under_count() as i32;
        }
        score[color.index()] = total;
    }
    let us = pos.turn().index();
    score[us] - score[1 - us] + 10
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn at(fen: &str, variant: Variant) -> StackPosition {
        StackPosition::from_fen(fen, variant).expect("fen").0
    }

    #[test]
    fn it_takes_the_last_column_and_wins() {
        // Black's last column, a single man on d4: c3 takes it; Black then has no column.
        let pos = at("W:Wc3,h2:Bd4", Variant::Towers);
        let r = search(
            &pos,
            &[],
            ColumnLimits {
                depth: Some(3),
                ..Default::default()
            },
            &mut |_| {},
        );
        let best = r.best.expect("a move");
        assert!(best.is_capture());
        assert!(r.score > WIN_BOUND, "{}", r.score);
    }

    #[test]
    fn it_plays_a_legal_move_from_the_start_of_both_games() {
        for variant in [Variant::Towers, Variant::Lasca] {
            let pos = StackPosition::start(variant).expect("start");
            let r = search(
                &pos,
                &[],
                ColumnLimits {
                    depth: Some(4),
                    ..Default::default()
                },
                &mut |_| {},
            );
            let best = r.best.expect("a move");
            assert!(pos.is_legal(&best));
            assert_eq!(r.depth, 4);
            assert!(r.nodes > 10);
        }
    }

    #[test]
    fn a_control_stops_an_endless_search() {
        let pos = StackPosition::start(Variant::Towers).expect("start");
        let control = Arc::new(ColumnControl::new());
        control.set_time(Duration::from_millis(30));
        let started = Instant::now();
        let r = search(
            &pos,
            &[],
            ColumnLimits {
                control: Some(Arc::clone(&control)),
                ..Default::default()
            },
            &mut |_| {},
        );
        assert!(r.best.is_some_and(|m| pos.is_legal(&m)));
        assert!(r.depth >= 1);
        assert!(started.elapsed() < Duration::from_secs(20));
        let stopped = Arc::new(ColumnControl::new());
        stopped.stop();
        let r = search(
            &pos,
            &[],
            ColumnLimits {
                control: Some(stopped),
                ..Default::default()
            },
            &mut |_| {},
        );
        assert_eq!(r.depth, 1, "a stopped control lets depth 1 complete only");
    }
}
