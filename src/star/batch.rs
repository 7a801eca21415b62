//! Many two-player star games stepped together, for learning (`shashki.learn.star`'s
//! `StarBoards` is the public face).
//!
//! Everything is seen from the player to move: for the second player the star is turned
//! half round (hole `h` is the hole at `(-q, -r, -s)`), so that the mover always races from
//! the bottom point to the top one. An action is a move, `start * holes + end` in that
//! view (14,641 on the 121-hole star, 5,329 on the 73-hole one); the observation is two
//! planes over the holes in that view, the mover's pieces and the opponent's.

use std::sync::OnceLock;

use super::{StarGeometry, StarMove, StarPosition};

/// The observation's planes.
pub const STAR_PLANES: usize = 2;

/// Each hole's hole when the star is turned half round.
pub fn turned(g: &'static StarGeometry) -> &'static [u8] {
    static FOUR: OnceLock<Vec<u8>> = OnceLock::new();
    static THREE: OnceLock<Vec<u8>> = OnceLock::new();
    let cell = if g.size == 4 { &FOUR } else { &THREE };
    cell.get_or_init(|| {
        g.coords
            .iter()
            .map(|&(q, r, s)| {
                g.coords
                    .iter()
                    .position(|&c| c == (-q, -r, -s))
                    .map_or(0, |i| i as u8)
            })
            .collect()
    })
}

/// How a game ended, for the player who made its last move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It goes on.
    No,
    /// The mover finished first: a win.
    Won,
    /// Nobody could move: a draw.
    Stalled,
    /// The move limit: cut.
    Cut,
}

/// Many two-player games of one star, each started again as soon as it ends.
#[derive(Clone, Debug)]
pub struct StarBatch {
    start: StarPosition,
    games: Vec<StarPosition>,
    /// Each game's last result for player 0: 1 won, -1 lost, 0 drawn (stalled), 2 cut, and
    /// -2 while none has ended.
    results: Vec<i8>,
}

impl StarBatch {
    /// `n` games from `start` (a two-player position).
    pub fn new(n: usize, start: StarPosition) -> StarBatch {
        StarBatch {
            start,
            games: vec![start; n],
            results: vec![-2; n],
        }
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The holes of the star.
    pub fn holes(&self) -> usize {
        self.start.geometry().holes()
    }

    /// The number of actions.
    pub fn action_count(&self) -> usize {
        self.holes() * self.holes()
    }

    /// Game `i`.
    pub fn game(&self, i: usize) -> Option<&StarPosition> {
        self.games.get(i)
    }

    /// The last results (see the field).
    pub fn results(&self) -> &[i8] {
        &self.results
    }

    /// Every game from the start again.
    pub fn reset(&mut self) {
        for g in &mut self.games {
            *g = self.start;
        }
    }

    fn view(pos: &StarPosition, hole: u8) -> u8 {
        if pos.turn() == 0 {
            hole
        } else {
            turned(pos.geometry())[usize::from(hole)]
        }
    }

    /// The action of a move in its game.
    pub fn action(pos: &StarPosition, m: StarMove) -> usize {
        let holes = pos.geometry().holes();
        usize::from(Self::view(pos, m.from)) * holes + usize::from(Self::view(pos, m.to))
    }

    /// The move an action is in `pos`, if legal.
    pub fn move_of(pos: &StarPosition, action: usize) -> Option<StarMove> {
        let holes = pos.geometry().holes();
        if action >= holes * holes {
            return None;
        }
        let from = Self::view(pos, (action / holes) as u8);
        let to = Self::view(pos, (action % holes) as u8);
        let m = StarMove { from, to };
        pos.is_legal(m).then_some(m)
    }

    /// Game `i`'s legal actions, ascending.
    pub fn legal_actions(&self, i: usize) -> Vec<usize> {
        let Some(pos) = self.games.get(i) else {
            return Vec::new();
        };
        let mut out: Vec<usize> = pos
            .legal_moves()
            .into_iter()
            .map(|m| Self::action(pos, m))
            .collect();
        out.sort_unstable();
        out
    }

    /// Game `i`'s planes into `row` (`STAR_PLANES * holes` values, zeroed here).
    pub fn observe(&self, i: usize, row: &mut [f32]) {
        row.fill(0.0);
        let Some(pos) = self.games.get(i) else {
            return;
        };
        let holes = self.holes();
        let me = pos.turn();
        for (plane, player) in [me, 1 - me].into_iter().enumerate() {
            let mut b = pos.pieces(player);
            while b != 0 {
                let h = b.trailing_zeros() as u8;
                b &= b - 1;
                row[plane * holes + usize::from(Self::view(pos, h))] = 1.0;
            }
        }
    }

    /// Play one action in every game: each game's end for the player who acted. A game
    /// that ends starts again. An action that is not legal is `Err(game)` and no game
    /// changes.
    pub fn step(&mut self, actions: &[usize]) -> Result<Vec<End>, usize> {
        if actions.len() != self.games.len() {
            return Err(actions.len().min(self.games.len()));
        }
        let mut moves = Vec::with_capacity(self.games.len());
        for (i, (pos, &a)) in self.games.iter().zip(actions).enumerate() {
            moves.push(Self::move_of(pos, a).ok_or(i)?);
        }
        let mut ends = Vec::with_capacity(self.games.len());
        for ((pos, m), result) in self.games.iter_mut().zip(moves).zip(&mut self.results) {
            let mover = pos.turn();
            pos.play_unchecked(m);
            let end = if pos.finished().first() == Some(&mover) {
                End::Won
            } else if pos.plies() >= pos.max_plies() {
                End::Cut
            } else if pos.is_over() {
                End::Stalled
            } else {
                End::No
            };
            if end != End::No {
                *result = match end {
                    End::Won if mover == 0 => 1,
                    End::Won => -1,
                    End::Stalled => 0,
                    _ => 2,
                };
                *pos = self.start;
            }
            ends.push(end);
        }
        Ok(ends)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_players_see_the_start_alike() {
        let start = StarPosition::start(4, 2, false, 1000).expect("a start");
        let pieces = [start.pieces(0), start.pieces(1)];
        let second = StarPosition::from_parts(4, 2, false, 1000, &pieces, 1, 0, &[])
            .expect("the start with the second player to move");
        let (a, b) = (StarBatch::new(1, start), StarBatch::new(1, second));
        assert_eq!(a.legal_actions(0).len(), 14);
        assert_eq!(a.legal_actions(0), b.legal_actions(0));
        let (mut x, mut y) = (vec![0.0; 2 * 121], vec![0.0; 2 * 121]);
        a.observe(0, &mut x);
        b.observe(0, &mut y);
        assert_eq!(x, y);
        assert_eq!(x.iter().sum::<f32>(), 20.0);
    }

    #[test]
    fn an_illegal_action_changes_no_game() {
        let start = StarPosition::start(3, 2, false, 1000).expect("a start");
        let mut batch = StarBatch::new(2, start);
        let good = batch.legal_actions(0)[0];
        assert_eq!(batch.step(&[good, usize::MAX]), Err(1));
        assert_eq!(batch.game(0), Some(&start));
        assert_eq!(batch.step(&[good, good]), Ok(vec![End::No, End::No]));
        assert_eq!(batch.game(0).map(|g| g.turn()), Some(1));
    }
}
