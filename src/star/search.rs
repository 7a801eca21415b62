//! The star game's opponent: an alpha-beta search over a distance-to-goal evaluation, and
//! the greedy player it is measured against.
//!
//! With two players it is plain alpha-beta (minimax, the score from the searching player's
//! side). With three to six it is *paranoid*: the searching player maximises and the others
//! are taken to play against it, minimising the same score, which keeps alpha-beta's
//! cut-offs (max-n has almost none) at the price of pessimism. Two forms ([`Multi`]): the
//! plain one, every other player in turn; and Best-Reply Search (Schadd and Winands, 2011,
//! who measured it on Chinese checkers), the default: the others taken as one, so that
//! between two of the searcher's moves only the one reply of any of them that is worst
//! for it is searched. The searcher then plans its own moves every other ply instead of
//! every `players`-th — what a race needs.
//!
//! A player's **cost** is the sum of its pieces' distances (hex steps) to the apex of its
//! target point, less that sum for a filled point (so 0 when it has finished), plus how
//! far its last piece lags behind a filled point's last (a race is finished by the last
//! piece, and a greedy race leaves one behind). The score is the leading opponent's cost
//! less one's own, with a little noise to break ties. A node where a player finishes ends
//! the search there: the searching player's win, or the loss of the place it was racing
//! for. Moves are tried longest stride first (then the piece furthest behind), the
//! previous iteration's best move first at the root; iterative deepening stops on a
//! depth, node or time limit.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::{StarGeometry, StarMove, StarPosition};

/// A won race's score (less the plies to it).
pub const WIN: i32 = 1_000_000;

/// Each point's apex distances: `apex[k][h]` is hole `h`'s distance to point `k`'s apex.
struct Distances {
    apex: [Vec<i32>; 6],
    /// The cost of a filled point (the same for every point).
    filled: i32,
}

fn distances(g: &'static StarGeometry) -> &'static Distances {
    static FOUR: OnceLock<Distances> = OnceLock::new();
    static THREE: OnceLock<Distances> = OnceLock::new();
    let cell = if g.size == 4 { &FOUR } else { &THREE };
    cell.get_or_init(|| {
        let hex = |a: (i8, i8, i8), b: (i8, i8, i8)| -> i32 {
            let d = [a.0 - b.0, a.1 - b.1, a.2 - b.2];
            d.iter().map(|x| i32::from(x.abs())).max().unwrap_or(0)
        };
        let apex = std::array::from_fn(|k| {
            // The point's hole farthest from the centre.
            let mut tip = 0usize;
            let mut far = -1;
            for (h, &c) in g.coords.iter().enumerate() {
                let d = hex(c, (0, 0, 0));
                if g.points[k] >> h & 1 == 1 && d > far {
                    far = d;
                    tip = h;
                }
            }
            g.coords.iter().map(|&c| hex(c, g.coords[tip])).collect()
        });
        let filled = {
            let a: &Vec<i32> = &apex[0];
            (0..g.holes())
                .filter(|&h| g.points[0] >> h & 1 == 1)
                .map(|h| a[h])
                .sum()
        };
        Distances { apex, filled }
    })
}

/// Hole `h`'s distance to the apex of `player`'s target point.
fn distance(d: &Distances, pos: &StarPosition, player: u8, h: u8) -> i32 {
    d.apex[usize::from(pos.target(player))][usize::from(h)]
}

/// `player`'s cost: 0 when it has finished (see the module's comment).
pub fn cost(pos: &StarPosition, player: u8) -> i32 {
    let d = distances(pos.geometry());
    let mut sum = 0;
    let mut last = 0;
    let mut b = pos.pieces(player);
    while b != 0 {
        let h = b.trailing_zeros() as u8;
        b &= b - 1;
        let x = distance(d, pos, player, h);
        sum += x;
        last = last.max(x);
    }
    let tip = i32::from(pos.size()) - 1; // a filled point's last piece
    (sum - d.filled) + (last - tip).max(0)
}

/// The static score of `pos` for `me`: the leading unfinished opponent's cost less mine, in
/// sixteenths (the last four bits a tie-breaking noise).
pub fn evaluate(pos: &StarPosition, me: u8) -> i32 {
    let mine = cost(pos, me);
    let mut best_other = i32::MAX;
    for p in 0..pos.players() {
        if p != me && !pos.finished().contains(&p) {
            best_other = best_other.min(cost(pos, p));
        }
    }
    if best_other == i32::MAX {
        best_other = 0;
    }
    // A little noise, the same for the same pieces at the same ply, breaks the ties
    // between equal moves: taken always the same way, they shuffle pieces to and fro.
    let mine_bits = pos.pieces(me);
    let key = (mine_bits as u64)
        ^ ((mine_bits >> 64) as u64).rotate_left(17)
        ^ u64::from(pos.plies()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let jitter = (crate::util::splitmix(key) & 15) as i32;
    16 * (best_other - mine) + jitter
}

/// How far the mover's move brings its piece toward its target's apex.
fn gain(pos: &StarPosition, m: StarMove) -> i32 {
    let d = distances(pos.geometry());
    let p = pos.turn();
    distance(d, pos, p, m.from) - distance(d, pos, p, m.to)
}

/// The search's order of moves: the longest stride first, and between equal strides the
/// piece furthest behind first (ties of the evaluation go the same way: a piece left
/// behind is what loses races).
fn order_key(pos: &StarPosition, m: StarMove) -> i32 {
    let d = distances(pos.geometry());
    let p = pos.turn();
    let from = distance(d, pos, p, m.from);
    (from - distance(d, pos, p, m.to)) * 64 + from
}

/// The greedy player's move: the one bringing its piece furthest toward the apex of its
/// target, ties broken by `seed` (None when the game is over).
pub fn greedy_move(pos: &StarPosition, seed: u64) -> Option<StarMove> {
    let moves = pos.legal_moves();
    let best = moves.iter().map(|&m| gain(pos, m)).max()?;
    let top: Vec<StarMove> = moves
        .into_iter()
        .filter(|&m| gain(pos, m) == best)
        .collect();
    let pick = crate::util::splitmix(seed) as usize % top.len();
    top.get(pick).copied()
}

/// How the search takes three to six players (two players: plain alpha-beta either way).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Multi {
    /// Every other player, in turn, minimises the searcher's score.
    Paranoid,
    /// Paranoid with the other players taken as one: between two of the searcher's moves,
    /// the one reply of any of them that is worst for it (Best-Reply Search).
    BestReply,
}

/// What limits a search (at least one is wise; depth alone is the default).
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// How three to six players are searched.
    pub multi: Multi,
    /// The deepest iteration.
    pub depth: u32,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
}

/// A search's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move (None when the game is over).
    pub best: Option<StarMove>,
    /// Its score for the mover (see [`WIN`]).
    pub score: i32,
    /// The last iteration completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<StarMove>,
}

struct Searcher {
    me: u8,
    best_reply: bool,
    finished_at_root: usize,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    pv: Vec<Vec<StarMove>>,
}

const MAX_PLY: usize = 64;

impl Searcher {
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    fn ordered(pos: &StarPosition, first: Option<StarMove>) -> Vec<StarMove> {
        let mut moves: Vec<(i32, StarMove)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let key = if Some(m) == first {
                    i32::MAX
                } else {
                    order_key(pos, m)
                };
                (key, m)
            })
            .collect();
        moves.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        moves.into_iter().map(|(_, m)| m).collect()
    }

    fn node(
        &mut self,
        pos: &StarPosition,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        first: Option<StarMove>,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if pos.finished().len() > self.finished_at_root {
            let winner = pos.finished()[self.finished_at_root];
            return if winner == self.me {
                WIN - ply as i32
            } else {
                -WIN + ply as i32
            };
        }
        if depth == 0 || pos.is_over() || ply + 1 >= MAX_PLY {
            return evaluate(pos, self.me);
        }
        let maximising = pos.turn() == self.me;
        let mut best = if maximising { -WIN - 1 } else { WIN + 1 };
        // The moves searched here: the mover's, or with Best-Reply Search every other
        // unfinished player's, each followed by the searcher's turn again.
        let mut replies: Vec<(StarPosition, StarMove)> = Vec::new();
        if !maximising && self.best_reply {
            for o in 0..pos.players {
                if o == self.me || pos.finished().contains(&o) {
                    continue;
                }
                let mut mover = *pos;
                mover.turn = o;
                for m in Self::ordered(&mover, None) {
                    replies.push((mover, m));
                }
            }
        } else {
            for m in Self::ordered(pos, first) {
                replies.push((*pos, m));
            }
        }
        if replies.is_empty() {
            return evaluate(pos, self.me);
        }
        for (mover, m) in replies {
            let mut child = mover;
            child.play_unchecked(m);
            if self.best_reply && !maximising && !child.is_over() {
                child.turn = self.me;
            }
            let score = self.node(&child, depth - 1, ply + 1, alpha, beta, None);
            if self.aborted || self.out_of_budget() {
                return best;
            }
            let better = if maximising {
                score > best
            } else {
                score < best
            };
            if better {
                best = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(m);
                head[ply].extend_from_slice(&tail[0]);
            }
            if maximising {
                alpha = alpha.max(score);
            } else {
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Search `pos` for its mover within `limits`.
pub fn search(pos: &StarPosition, limits: Limits) -> Found {
    let start = Instant::now();
    let mut s = Searcher {
        me: pos.turn(),
        best_reply: limits.multi == Multi::BestReply && pos.players() > 2,
        finished_at_root: pos.finished().len(),
        nodes: 0,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        deadline: limits.time.map(|t| start + t),
        aborted: false,
        pv: vec![Vec::new(); MAX_PLY + 1],
    };
    let moves = pos.legal_moves();
    let mut found = Found {
        best: moves.first().copied(),
        score: evaluate(pos, s.me),
        depth: 0,
        nodes: 0,
        pv: moves.first().copied().into_iter().collect(),
    };
    if moves.is_empty() {
        return found;
    }
    let max_depth = limits.depth.clamp(1, (MAX_PLY - 2) as u32);
    for depth in 1..=max_depth {
        let score = s.node(pos, depth, 0, -WIN - 1, WIN + 1, found.best);
        let pv = s.pv[0].clone();
        if s.aborted {
            // The previous best is searched first: a move that beat it in the part searched
            // (its subtree complete) is kept.
            if let Some(&m) = pv.first() {
                if Some(m) != found.best {
                    found.best = Some(m);
                    found.score = score;
                    found.pv = pv;
                }
            }
            break;
        }
        found.score = score;
        found.depth = depth;
        if let Some(&m) = pv.first() {
            found.best = Some(m);
            found.pv = pv;
        }
        if score.abs() >= WIN - MAX_PLY as i32 {
            break;
        }
    }
    found.nodes = s.nodes;
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_point_costs_nothing() {
        let pos = StarPosition::start(4, 2, false, 1000).expect("a start");
        // Player 0's pieces stand in player 1's target and the reverse.
        assert_eq!(cost(&pos, 0), cost(&pos, 1));
        assert!(cost(&pos, 0) > 0);
        let d = distances(pos.geometry());
        assert_eq!(d.filled, 20, "0 + 2 x 1 + 3 x 2 + 4 x 3");
    }

    #[test]
    fn the_search_answers_a_legal_move_and_sees_a_finish() {
        let pos = StarPosition::start(3, 2, false, 1000).expect("a start");
        let found = search(
            &pos,
            Limits {
                multi: Multi::Paranoid,
                depth: 3,
                nodes: None,
                time: None,
            },
        );
        let best = found.best.expect("a move");
        assert!(pos.is_legal(best));
        assert_eq!(found.depth, 3);
        assert_eq!(found.pv.len(), 3);
        assert!(greedy_move(&pos, 1).is_some_and(|m| pos.is_legal(m)));
    }
}
