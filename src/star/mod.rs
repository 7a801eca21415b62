//! The star board: Chinese checkers (Sternhalma) for two to six players, the rules pages'
//! game of a six-pointed star (docs/star.md has the rules, their sources and our readings).
//!
//! A race like уголки, on a board of its own: the holes are cube coordinates `(q, r, s)`,
//! `q + r + s = 0`, and the star of point size `n` (4: 121 holes, ten pieces a point; 3: 73
//! holes, six) is the union of the triangles `min(q, r, s) >= -n` and `max(q, r, s) <= n`.
//! The holes are numbered in reading order (by `r`, then `q`), so a side's pieces are one
//! `u128`. Its six points, clockwise round the star as drawn (rows top to bottom): 0
//! (`r > n`, the bottom), 1 (`q < -n`), 2 (`s > n`), 3 (`r < -n`, the top), 4 (`q > n`), 5
//! (`s < -n`); point `k`'s opposite, its player's target, is
//! `(k + 3) % 6`. Two players sit on points 0 and 3, three on 0, 2 and 4, four on 0, 1, 3
//! and 4, six on all; the player on point 0 moves first, then round the star.
//!
//! A move is a step to an empty neighbour or a chain of hops over adjacent pieces (any
//! piece, or another player's only) into the empty hole behind each, stopping wherever the
//! player chooses: a move is its start and its end. A piece in its target point stays in
//! it. A player has finished when every hole of its target point holds a piece, one at
//! least its own; finished players, and players who cannot move, are passed over; the game
//! ends when one player is left unfinished, when no unfinished player can move, or after
//! the move limit.

pub mod batch;
pub mod search;

use std::sync::OnceLock;

/// The six unit vectors, in `(q, r)` (s follows).
const DIRECTIONS: [(i8, i8); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

/// No hole.
const NONE: u8 = u8::MAX;

/// The points each number of players sits on, in turn order.
pub fn seats(players: u8) -> Option<&'static [u8]> {
    match players {
        2 => Some(&[0, 3]),
        3 => Some(&[0, 2, 4]),
        4 => Some(&[0, 1, 3, 4]),
        6 => Some(&[0, 1, 2, 3, 4, 5]),
        _ => None,
    }
}

/// One star's holes and their neighbours.
#[derive(Debug)]
pub struct StarGeometry {
    /// The point size (3 or 4).
    pub size: u8,
    /// Each hole's `(q, r, s)`, in index order.
    pub coords: Vec<(i8, i8, i8)>,
    /// Each hole's neighbour in each direction ([`NONE`]: off the board).
    neighbour: Vec<[u8; 6]>,
    /// Each point's holes.
    pub points: [u128; 6],
}

impl StarGeometry {
    fn new(size: u8) -> StarGeometry {
        let n = i16::from(size);
        let mut coords = Vec::new();
        for r in -2 * n..=2 * n {
            for q in -2 * n..=2 * n {
                let s = -q - r;
                if q.min(r).min(s) >= -n || q.max(r).max(s) <= n {
                    coords.push((q as i8, r as i8, s as i8));
                }
            }
        }
        let index = |q: i16, r: i16| {
            coords
                .iter()
                .position(|&(a, b, _)| i16::from(a) == q && i16::from(b) == r)
                .map_or(NONE, |i| i as u8)
        };
        let neighbour = coords
            .iter()
            .map(|&(q, r, _)| {
                DIRECTIONS.map(|(dq, dr)| index(i16::from(q + dq), i16::from(r + dr)))
            })
            .collect();
        let mut points = [0u128; 6];
        for (i, &(q, r, s)) in coords.iter().enumerate() {
            let (q, r, s) = (i16::from(q), i16::from(r), i16::from(s));
            let inside = [r > n, q < -n, s > n, r < -n, q > n, s < -n];
            if let Some(k) = inside.iter().position(|&x| x) {
                points[k] |= 1u128 << i;
            }
        }
        StarGeometry {
            size,
            coords,
            neighbour,
            points,
        }
    }

    /// The star of point size `size` (3 or 4).
    pub fn of(size: u8) -> Option<&'static StarGeometry> {
        static FOUR: OnceLock<StarGeometry> = OnceLock::new();
        static THREE: OnceLock<StarGeometry> = OnceLock::new();
        match size {
            4 => Some(FOUR.get_or_init(|| StarGeometry::new(4))),
            3 => Some(THREE.get_or_init(|| StarGeometry::new(3))),
            _ => None,
        }
    }

    /// Its number of holes.
    pub fn holes(&self) -> usize {
        self.coords.len()
    }

    /// The hole next to `hole` in `direction` (0 to 5), `u8::MAX` off the board.
    #[inline]
    pub fn step(&self, hole: u8, direction: usize) -> u8 {
        self.neighbour[usize::from(hole)][direction]
    }
}

/// What is wrong with a star game's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StarError(pub String);

impl std::fmt::Display for StarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StarError {}

/// A move: the hole it starts from and the hole it ends on (indices).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StarMove {
    /// The start.
    pub from: u8,
    /// The end.
    pub to: u8,
}

/// A position of the star game: each player's pieces, whose turn, who has finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StarPosition {
    /// Each player's holes (players in turn order).
    pieces: [u128; 6],
    /// The point size.
    size: u8,
    /// The number of players.
    players: u8,
    /// Hops over other players' pieces only (the rules page's reading).
    hop_others: bool,
    /// The player to move.
    turn: u8,
    /// The players who have finished, in the order they did.
    finished: [u8; 6],
    /// How many have.
    finished_count: u8,
    /// Plies played.
    plies: u32,
    /// The move limit: the game ends after this many plies.
    max_plies: u32,
    /// No unfinished player can move: the game has ended there.
    stalled: bool,
}

impl StarPosition {
    /// The start of a star game: point size `size` (4: 121 holes, or 3: 73), `players` (2,
    /// 3, 4 or 6), hops over any piece or over `others'` only, ending after `max_plies`.
    pub fn start(
        size: u8,
        players: u8,
        hop_others: bool,
        max_plies: u32,
    ) -> Result<StarPosition, StarError> {
        let geometry = StarGeometry::of(size)
            .ok_or_else(|| StarError(format!("a star of point size 3 or 4, not {size}")))?;
        let seats = seats(players)
            .ok_or_else(|| StarError(format!("2, 3, 4 or 6 players, not {players}")))?;
        let mut pieces = [0u128; 6];
        for (player, &seat) in seats.iter().enumerate() {
            pieces[player] = geometry.points[usize::from(seat)];
        }
        Ok(StarPosition {
            pieces,
            size,
            players,
            hop_others,
            turn: 0,
            finished: [0; 6],
            finished_count: 0,
            plies: 0,
            max_plies: max_plies.max(1),
            stalled: false,
        })
    }

    /// A position from its parts (a position text's reader, set-ups): each player's holes
    /// (players in turn order), the player to move, the plies played and the players who
    /// have finished, first first. Refused, naming what is wrong, when a hole is off the
    /// board or held twice, a player has not its point's number of pieces, the finished
    /// list is not the players who have finished, or the player to move has finished.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        size: u8,
        players: u8,
        hop_others: bool,
        max_plies: u32,
        pieces: &[u128],
        turn: u8,
        plies: u32,
        finished: &[u8],
    ) -> Result<StarPosition, StarError> {
        let mut pos = StarPosition::start(size, players, hop_others, max_plies)?;
        let g = pos.geometry();
        if pieces.len() != usize::from(players) {
            return Err(StarError(format!(
                "{players} players' pieces, not {}",
                pieces.len()
            )));
        }
        let board = if g.holes() == 128 {
            u128::MAX
        } else {
            (1u128 << g.holes()) - 1
        };
        let each = g.points[0].count_ones();
        let mut seen = 0u128;
        for (player, &p) in pieces.iter().enumerate() {
            if p & !board != 0 {
                return Err(StarError(format!(
                    "player {player} has a piece off the board"
                )));
            }
            if p & seen != 0 {
                return Err(StarError(format!(
                    "player {player} has a piece on a hole already held"
                )));
            }
            if p.count_ones() != each {
                return Err(StarError(format!(
                    "player {player} has {} pieces, not {each}",
                    p.count_ones()
                )));
            }
            seen |= p;
            pos.pieces[player] = p;
        }
        if turn >= players {
            return Err(StarError(format!("no player {turn} to move")));
        }
        let mut done: Vec<u8> = Vec::new();
        for &f in finished {
            if f >= players || done.contains(&f) {
                return Err(StarError(format!(
                    "finished player {f} is not a player or twice"
                )));
            }
            done.push(f);
        }
        for p in 0..players {
            if pos.has_finished(p) != done.contains(&p) {
                return Err(StarError(format!(
                    "player {p} {} finished, but the finished list says otherwise",
                    if pos.has_finished(p) {
                        "has"
                    } else {
                        "has not"
                    }
                )));
            }
        }
        pos.finished[..done.len()].copy_from_slice(&done);
        pos.finished_count = done.len() as u8;
        pos.plies = plies;
        pos.turn = turn;
        if !pos.is_over() && done.contains(&turn) {
            return Err(StarError(format!(
                "player {turn} has finished and cannot move"
            )));
        }
        if !pos.is_over() {
            pos.settle_turn(turn);
        }
        Ok(pos)
    }

    /// The board.
    pub fn geometry(&self) -> &'static StarGeometry {
        // A position is only made by `start` (its size checked there).
        match StarGeometry::of(self.size) {
            Some(g) => g,
            None => unreachable!("a star position of a checked size"),
        }
    }

    /// The number of players.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The player to move.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// Plies played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The move limit.
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// Whether hops go over other players' pieces only.
    pub fn hop_others(&self) -> bool {
        self.hop_others
    }

    /// The point size.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// `player`'s holes.
    pub fn pieces(&self, player: u8) -> u128 {
        self.pieces.get(usize::from(player)).copied().unwrap_or(0)
    }

    /// The players who have finished, first first.
    pub fn finished(&self) -> &[u8] {
        &self.finished[..usize::from(self.finished_count)]
    }

    /// The point `player` sits on.
    pub fn seat(&self, player: u8) -> u8 {
        seats(self.players).map_or(0, |s| s[usize::from(player) % s.len()])
    }

    /// The point `player` races to.
    pub fn target(&self, player: u8) -> u8 {
        (self.seat(player) + 3) % 6
    }

    pub(crate) fn occupied(&self) -> u128 {
        self.pieces.iter().fold(0, |a, p| a | p)
    }

    pub(crate) fn has_finished(&self, player: u8) -> bool {
        let target = self.geometry().points[usize::from(self.target(player))];
        self.occupied() & target == target && self.pieces(player) & target != 0
    }

    /// Whether the game is over: one player left unfinished (with two players: the first
    /// has finished), the move limit reached, or no unfinished player able to move.
    pub fn is_over(&self) -> bool {
        self.players - self.finished_count <= 1 || self.plies >= self.max_plies || self.stalled
    }

    /// Whether the player to move has a move (the game not over).
    fn can_move(&self) -> bool {
        let mut mine = self.pieces[usize::from(self.turn)];
        while mine != 0 {
            let from = mine.trailing_zeros() as u8;
            mine &= mine - 1;
            if self.destinations(from) != 0 {
                return true;
            }
        }
        false
    }

    /// Give the turn to `first` or the next player after it, round the star, who has not
    /// finished and has a move (a player who cannot move is passed over); when none has,
    /// the game has stalled and is over.
    fn settle_turn(&mut self, first: u8) {
        let mut next = first;
        for _ in 0..self.players {
            if !self.finished().contains(&next) {
                self.turn = next;
                if self.can_move() {
                    return;
                }
            }
            next = (next + 1) % self.players;
        }
        self.stalled = true;
    }

    /// The holes the piece on `from` can end a move on (none when it is not the mover's).
    pub fn destinations(&self, from: u8) -> u128 {
        let bit = 1u128.checked_shl(u32::from(from)).unwrap_or(0);
        let mine = self.pieces[usize::from(self.turn)];
        if bit == 0 || mine & bit == 0 || self.is_over() {
            return 0;
        }
        let g = self.geometry();
        let occupied = self.occupied() & !bit;
        let over_ok = if self.hop_others {
            occupied & !mine
        } else {
            occupied
        };
        let mut steps = 0u128;
        let mut seen = bit;
        let mut frontier = bit;
        for d in 0..6 {
            let to = g.step(from, d);
            if to != NONE && occupied & (1u128 << to) == 0 {
                steps |= 1u128 << to;
            }
        }
        while frontier != 0 {
            let at = frontier.trailing_zeros() as u8;
            frontier &= frontier - 1;
            for d in 0..6 {
                let over = g.step(at, d);
                if over == NONE || over_ok & (1u128 << over) == 0 {
                    continue;
                }
                let land = g.step(over, d);
                if land == NONE {
                    continue;
                }
                let l = 1u128 << land;
                if occupied & l == 0 && seen & l == 0 {
                    seen |= l;
                    frontier |= l;
                }
            }
        }
        let mut out = (steps | seen) & !bit;
        let target = g.points[usize::from(self.target(self.turn))];
        if target & bit != 0 {
            out &= target;
        }
        out
    }

    /// The legal moves, by start then end.
    pub fn legal_moves(&self) -> Vec<StarMove> {
        let mut out = Vec::new();
        self.for_each_move(|m| out.push(m));
        out
    }

    fn for_each_move(&self, mut f: impl FnMut(StarMove)) {
        if self.is_over() {
            return;
        }
        let mut mine = self.pieces[usize::from(self.turn)];
        while mine != 0 {
            let from = mine.trailing_zeros() as u8;
            mine &= mine - 1;
            let mut to = self.destinations(from);
            while to != 0 {
                let t = to.trailing_zeros() as u8;
                to &= to - 1;
                f(StarMove { from, to: t });
            }
        }
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        let mut mine = self.pieces[usize::from(self.turn)];
        let mut n = 0;
        while mine != 0 {
            let from = mine.trailing_zeros() as u8;
            mine &= mine - 1;
            n += u64::from(self.destinations(from).count_ones());
        }
        n
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: StarMove) -> bool {
        u32::from(m.to) < 128 && self.destinations(m.from) & (1u128 << m.to) != 0
    }

    /// Play `m` (legal: [`StarPosition::play`] checks).
    pub fn play_unchecked(&mut self, m: StarMove) {
        let me = self.turn;
        self.pieces[usize::from(me)] ^= (1u128 << m.from) | (1u128 << m.to);
        self.plies += 1;
        if !self.finished().contains(&me) && self.has_finished(me) {
            self.finished[usize::from(self.finished_count)] = me;
            self.finished_count += 1;
        }
        if !self.is_over() {
            self.settle_turn((me + 1) % self.players);
        }
    }

    /// Play `m`, refused (the position unchanged) when it is not legal.
    pub fn play(&mut self, m: StarMove) -> Result<(), StarError> {
        if !self.is_legal(m) {
            return Err(StarError(format!(
                "illegal move {}-{} for player {}",
                m.from, m.to, self.turn
            )));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// The holes a move passes: a step's start and end, or the shortest chain of hops
    /// from its start to its end (for display).
    pub fn path(&self, m: StarMove) -> Option<Vec<u8>> {
        if !self.is_legal(m) {
            return None;
        }
        let g = self.geometry();
        if (0..6).any(|d| g.step(m.from, d) == m.to) {
            return Some(vec![m.from, m.to]);
        }
        let mine = self.pieces[usize::from(self.turn)];
        let occupied = self.occupied() & !(1u128 << m.from);
        let over_ok = if self.hop_others {
            occupied & !mine
        } else {
            occupied
        };
        let mut parent = vec![NONE; g.holes()];
        let mut queue = std::collections::VecDeque::from([m.from]);
        parent[usize::from(m.from)] = m.from;
        while let Some(at) = queue.pop_front() {
            if at == m.to {
                let mut path = vec![at];
                let mut h = at;
                while h != m.from {
                    h = parent[usize::from(h)];
                    path.push(h);
                }
                path.reverse();
                return Some(path);
            }
            for d in 0..6 {
                let over = g.step(at, d);
                if over == NONE || over_ok & (1u128 << over) == 0 {
                    continue;
                }
                let land = g.step(over, d);
                if land != NONE
                    && occupied & (1u128 << land) == 0
                    && parent[usize::from(land)] == NONE
                {
                    parent[usize::from(land)] = at;
                    queue.push_back(land);
                }
            }
        }
        None
    }
}

/// The move paths of `depth` plies from `pos` (a finished game ends a path early).
pub fn perft(pos: &StarPosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut total = 0;
            pos.for_each_move(|m| {
                let mut child = *pos;
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            });
            total
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stars_have_their_holes_and_points() {
        for (size, holes, point) in [(4u8, 121usize, 10u32), (3, 73, 6)] {
            let g = StarGeometry::of(size).expect("a star");
            assert_eq!(g.holes(), holes);
            for p in g.points {
                assert_eq!(p.count_ones(), point);
            }
            let all = g.points.iter().fold(0u128, |a, p| a | p);
            assert_eq!(all.count_ones(), 6 * point, "the points do not overlap");
        }
    }

    #[test]
    fn the_first_moves_of_two_players() {
        // Ten pieces in a point: its front row of four steps into the five holes before
        // it (two each, the ones sharing a hole counted once a piece), and the pieces behind
        // hop over it.
        let pos = StarPosition::start(4, 2, false, 1000).expect("a start");
        assert_eq!(pos.legal_moves().len(), 14);
        assert_eq!(perft(&pos, 1), 14);
        for m in pos.legal_moves() {
            let mut child = pos;
            assert!(child.play(m).is_ok());
            assert_eq!(child.turn(), 1);
            let path = pos.path(m).expect("a path");
            assert_eq!((path[0], *path.last().expect("an end")), (m.from, m.to));
        }
    }

    #[test]
    fn an_illegal_move_is_refused_and_the_position_kept() {
        let mut pos = StarPosition::start(3, 3, true, 1000).expect("a start");
        let before = pos;
        assert!(pos.play(StarMove { from: 0, to: 1 }).is_err());
        assert!(pos.play(StarMove { from: 200, to: 250 }).is_err());
        assert_eq!(pos, before);
        assert!(StarPosition::start(5, 2, false, 10).is_err());
        assert!(StarPosition::start(4, 5, false, 10).is_err());
    }
}
