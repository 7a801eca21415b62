//! `StarPosition`: the star board (Chinese checkers) for Python (`shashki.star` builds on it).

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::args::{int_in, opt_int_in};
use crate::star::batch::{End, StarBatch, STAR_PLANES};
use crate::star::search::{self, Limits, Multi};
use crate::star::{perft, StarGeometry, StarMove, StarPosition};

/// A position of the star game (Chinese checkers): holes by index in reading order
/// (`holes()` gives each one's cube coordinates), players by their index in turn order.
#[pyclass(name = "StarPosition", module = "shashki._core", frozen)]
#[derive(Clone)]
pub struct PyStarPosition {
    pos: StarPosition,
}

fn hole_arg(obj: &Bound<'_, PyAny>, what: &str, holes: usize) -> PyResult<u8> {
    Ok(int_in(obj, what, 0, holes as i64 - 1, PyValueError::new_err)? as u8)
}

fn hop_others(hop_over: &str) -> PyResult<bool> {
    match hop_over {
        "any" => Ok(false),
        "others" => Ok(true),
        other => Err(PyValueError::new_err(format!(
            "hop_over must be 'any' or 'others', not {other:?}"
        ))),
    }
}

fn bits(mut b: u128) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.count_ones() as usize);
    while b != 0 {
        out.push(b.trailing_zeros() as u8);
        b &= b - 1;
    }
    out
}

#[pymethods]
impl PyStarPosition {
    /// The start: `size` 4 (121 holes, 10 pieces a player) or 3 (73 holes, 6), `players`
    /// 2, 3, 4 or 6, `hop_over` `"any"` (the usual rule) or `"others"` (the rules page's
    /// "чужие фишки"), the game ending after `max_plies`.
    #[new]
    #[pyo3(signature = (size = None, players = None, hop_over = "any", max_plies = None))]
    fn new(
        size: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        hop_over: &str,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let size = opt_int_in(size, "size", 3, 4)?.unwrap_or(4) as u8;
        let players = opt_int_in(players, "players", 2, 6)?.unwrap_or(2) as u8;
        let max_plies = opt_int_in(max_plies, "max_plies", 1, 1_000_000)?.unwrap_or(1000);
        let hop_others = hop_others(hop_over)?;
        StarPosition::start(size, players, hop_others, max_plies as u32)
            .map(|pos| PyStarPosition { pos })
            .map_err(|e| PyValueError::new_err(e.0))
    }

    /// Each hole's cube coordinates `(q, r, s)`, by index.
    #[staticmethod]
    #[pyo3(signature = (size = None))]
    fn holes(size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(i8, i8, i8)>> {
        let size = opt_int_in(size, "size", 3, 4)?.unwrap_or(4) as u8;
        Ok(StarGeometry::of(size).map_or_else(Vec::new, |g| g.coords.clone()))
    }

    /// Each of the six points' holes, by point.
    #[staticmethod]
    #[pyo3(signature = (size = None))]
    fn points(size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Vec<u8>>> {
        let size = opt_int_in(size, "size", 3, 4)?.unwrap_or(4) as u8;
        Ok(StarGeometry::of(size).map_or_else(Vec::new, |g| g.points.map(bits).to_vec()))
    }

    #[getter]
    fn size(&self) -> u8 {
        self.pos.size()
    }

    #[getter]
    fn players(&self) -> u8 {
        self.pos.players()
    }

    #[getter]
    fn hop_over(&self) -> &'static str {
        if self.pos.hop_others() {
            "others"
        } else {
            "any"
        }
    }

    #[getter]
    fn turn(&self) -> u8 {
        self.pos.turn()
    }

    #[getter]
    fn plies(&self) -> u32 {
        self.pos.plies()
    }

    #[getter]
    fn max_plies(&self) -> u32 {
        self.pos.max_plies()
    }

    /// The players who have finished, first first.
    #[getter]
    fn finished(&self) -> Vec<u8> {
        self.pos.finished().to_vec()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    /// The point player `player` sits on and the point it races to.
    fn seat(&self, player: &Bound<'_, PyAny>) -> PyResult<(u8, u8)> {
        let last = i64::from(self.pos.players()) - 1;
        let p = int_in(player, "player", 0, last, PyValueError::new_err)? as u8;
        Ok((self.pos.seat(p), self.pos.target(p)))
    }

    /// Player `player`'s holes.
    fn pieces(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
        let last = i64::from(self.pos.players()) - 1;
        let p = int_in(player, "player", 0, last, PyValueError::new_err)? as u8;
        Ok(bits(self.pos.pieces(p)))
    }

    /// The legal moves, `(start, end)` hole indices.
    fn legal_moves(&self) -> Vec<(u8, u8)> {
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| (m.from, m.to))
            .collect()
    }

    /// The holes a legal move passes (its hops), start and end included; a ValueError for
    /// a move that is not legal.
    fn path(&self, start: &Bound<'_, PyAny>, end: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
        let holes = self.pos.geometry().holes();
        let m = StarMove {
            from: hole_arg(start, "start", holes)?,
            to: hole_arg(end, "end", holes)?,
        };
        self.pos.path(m).ok_or_else(|| {
            PyValueError::new_err(format!("{}-{} is not a legal move here", m.from, m.to))
        })
    }

    /// The position after the move `start`-`end`; a ValueError (naming the move) when it is
    /// not legal.
    fn play(&self, start: &Bound<'_, PyAny>, end: &Bound<'_, PyAny>) -> PyResult<Self> {
        let holes = self.pos.geometry().holes();
        let m = StarMove {
            from: hole_arg(start, "start", holes)?,
            to: hole_arg(end, "end", holes)?,
        };
        let mut pos = self.pos;
        pos.play(m).map_err(|e| PyValueError::new_err(e.0))?;
        Ok(PyStarPosition { pos })
    }

    /// A position from its parts: each player's holes (players in turn order), the player
    /// to move, the plies played, the players who have finished (first first); a
    /// ValueError naming what is wrong.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (size, players, hop_over, max_plies, pieces, turn, plies, finished))]
    fn from_parts(
        size: &Bound<'_, PyAny>,
        players: &Bound<'_, PyAny>,
        hop_over: &str,
        max_plies: &Bound<'_, PyAny>,
        pieces: Vec<Vec<i64>>,
        turn: &Bound<'_, PyAny>,
        plies: &Bound<'_, PyAny>,
        finished: Vec<i64>,
    ) -> PyResult<Self> {
        let size = int_in(size, "size", 3, 4, PyValueError::new_err)? as u8;
        let players = int_in(players, "players", 2, 6, PyValueError::new_err)? as u8;
        let max_plies = int_in(max_plies, "max_plies", 1, 1_000_000, PyValueError::new_err)?;
        let hop_others = hop_others(hop_over)?;
        let turn = int_in(turn, "turn", 0, 5, PyValueError::new_err)? as u8;
        let plies = int_in(plies, "plies", 0, 1_000_000, PyValueError::new_err)? as u32;
        let holes = StarGeometry::of(size).map_or(0, |g| g.holes()) as i64;
        let mut words = Vec::with_capacity(pieces.len());
        for (player, list) in pieces.iter().enumerate() {
            let mut word = 0u128;
            for &h in list {
                if !(0..holes).contains(&h) {
                    return Err(PyValueError::new_err(format!(
                        "player {player}'s hole {h} is not on the board (0 to {})",
                        holes - 1
                    )));
                }
                if word >> h & 1 == 1 {
                    return Err(PyValueError::new_err(format!(
                        "player {player}'s hole {h} is given twice"
                    )));
                }
                word |= 1u128 << h;
            }
            words.push(word);
        }
        let mut done = Vec::with_capacity(finished.len());
        for f in finished {
            done.push(u8::try_from(f).map_err(|_| {
                PyValueError::new_err(format!("finished player {f} is not a player"))
            })?);
        }
        StarPosition::from_parts(
            size,
            players,
            hop_others,
            max_plies as u32,
            &words,
            turn,
            plies,
            &done,
        )
        .map(|pos| PyStarPosition { pos })
        .map_err(|e| PyValueError::new_err(e.0))
    }

    /// The searching opponent's move for the player to move: alpha-beta (two players) or
    /// paranoid (more), iterative deepening within `depth` (default 64), `nodes` and
    /// `time` (seconds); without the GIL. Returns `(move or None, score, depth, nodes,
    /// pv)`.
    #[pyo3(signature = (depth = None, nodes = None, time = None, multi = "best-reply"))]
    #[allow(clippy::type_complexity)]
    fn search(
        &self,
        py: Python<'_>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        time: Option<f64>,
        multi: &str,
    ) -> PyResult<(Option<(u8, u8)>, i32, u32, u64, Vec<(u8, u8)>)> {
        let depth = opt_int_in(depth, "depth", 1, 60)?.unwrap_or(60) as u32;
        let nodes = match nodes {
            Some(n) if !n.is_none() => {
                Some(int_in(n, "nodes", 1, i64::MAX, PyValueError::new_err)? as u64)
            }
            _ => None,
        };
        let time = match time {
            Some(t) if !(t.is_finite() && t > 0.0 && t <= 86_400.0) => {
                return Err(PyValueError::new_err(format!(
                    "time must be seconds in (0, 86400], not {t}"
                )))
            }
            Some(t) => Some(std::time::Duration::from_secs_f64(t)),
            None => None,
        };
        if nodes.is_none() && time.is_none() && depth > 8 {
            return Err(PyValueError::new_err(
                "a search needs nodes or time, or a depth of at most 8",
            ));
        }
        let multi = match multi {
            "best-reply" => Multi::BestReply,
            "paranoid" => Multi::Paranoid,
            other => {
                return Err(PyValueError::new_err(format!(
                    "multi must be 'best-reply' or 'paranoid', not {other:?}"
                )))
            }
        };
        let pos = self.pos;
        let limits = Limits {
            multi,
            depth,
            nodes,
            time,
        };
        let found = py.detach(|| search::search(&pos, limits));
        Ok((
            found.best.map(|m| (m.from, m.to)),
            found.score,
            found.depth,
            found.nodes,
            found.pv.iter().map(|m| (m.from, m.to)).collect(),
        ))
    }

    /// The greedy player's move (the longest stride toward its target's apex, ties by
    /// `seed`), None when the game is over.
    fn greedy_move(&self, seed: &Bound<'_, PyAny>) -> PyResult<Option<(u8, u8)>> {
        let seed = int_in(seed, "seed", 0, i64::MAX, PyValueError::new_err)? as u64;
        Ok(search::greedy_move(&self.pos, seed).map(|m| (m.from, m.to)))
    }

    /// A player's cost: its pieces' distances to the apex of its target, less a filled
    /// point's, plus its last piece's lag (0 when it has finished).
    fn cost(&self, player: &Bound<'_, PyAny>) -> PyResult<i32> {
        let last = i64::from(self.pos.players()) - 1;
        let p = int_in(player, "player", 0, last, PyValueError::new_err)? as u8;
        Ok(search::cost(&self.pos, p))
    }

    /// The move paths of `depth` plies (0 to 12), without the GIL.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = int_in(depth, "depth", 0, 12, PyValueError::new_err)? as u32;
        let pos = self.pos;
        Ok(py.detach(|| perft(&pos, depth)))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyStarPosition>()
            .is_ok_and(|o| o.get().pos == self.pos)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.pos.hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!(
            "<StarPosition size={} players={} turn={} plies={}>",
            self.pos.size(),
            self.pos.players(),
            self.pos.turn(),
            self.pos.plies()
        )
    }
}

/// Many two-player star games stepped together (`shashki.learn.star.StarBoards` is the
/// public face): actions and planes from the player to move's view.
#[pyclass(name = "StarBatch", module = "shashki._core")]
#[derive(Clone)]
pub struct PyStarBatch {
    batch: StarBatch,
}

#[pymethods]
impl PyStarBatch {
    /// `n` games (1 to 2^20) of the two-player star of point size `size`.
    #[new]
    #[pyo3(signature = (n, size = None, hop_over = "any", max_plies = None))]
    fn new(
        n: &Bound<'_, PyAny>,
        size: Option<&Bound<'_, PyAny>>,
        hop_over: &str,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let n = int_in(n, "n", 1, 1 << 20, PyValueError::new_err)? as usize;
        let size = opt_int_in(size, "size", 3, 4)?.unwrap_or(4) as u8;
        let max_plies = opt_int_in(max_plies, "max_plies", 1, 1_000_000)?.unwrap_or(1000) as u32;
        let start = StarPosition::start(size, 2, hop_others(hop_over)?, max_plies)
            .map_err(|e| PyValueError::new_err(e.0))?;
        Ok(PyStarBatch {
            batch: StarBatch::new(n, start),
        })
    }

    fn __len__(&self) -> usize {
        self.batch.len()
    }

    /// The number of actions: holes × holes.
    #[getter]
    fn action_count(&self) -> usize {
        self.batch.action_count()
    }

    /// The star's holes.
    #[getter]
    fn holes(&self) -> usize {
        self.batch.holes()
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    /// Every game from the start again.
    fn reset(&mut self) {
        self.batch.reset();
    }

    /// The planes, float32 `(n, 2, holes)`.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let (n, holes) = (self.batch.len(), self.batch.holes());
        let width = STAR_PLANES * holes;
        let mut out = vec![0.0f32; n * width];
        for (i, row) in out.chunks_mut(width).enumerate() {
            self.batch.observe(i, row);
        }
        PyArray1::from_vec(py, out).reshape([n, STAR_PLANES, holes])
    }

    /// The legal actions, bool `(n, action_count)`.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let (n, count) = (self.batch.len(), self.batch.action_count());
        let mut out = vec![false; n * count];
        for (i, row) in out.chunks_mut(count).enumerate() {
            for a in self.batch.legal_actions(i) {
                row[a] = true;
            }
        }
        PyArray1::from_vec(py, out).reshape([n, count])
    }

    /// The legal actions as lists: `(offsets, actions)`, game `i`'s being
    /// `actions[offsets[i]:offsets[i + 1]]`, ascending.
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>) {
        let mut offsets = vec![0i64];
        let mut actions = Vec::new();
        for i in 0..self.batch.len() {
            actions.extend(self.batch.legal_actions(i).into_iter().map(|a| a as i64));
            offsets.push(actions.len() as i64);
        }
        (
            PyArray1::from_vec(py, offsets),
            PyArray1::from_vec(py, actions),
        )
    }

    /// Play one action a game: `(rewards, terminated, truncated)` for the player who acted
    /// (1 for the race won, 0 otherwise); a game that ends starts again. A wrong length or
    /// an action that is not legal is a ValueError naming the game, and no game changes.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let given = actions.as_slice()?;
        if given.len() != self.batch.len() {
            return Err(PyValueError::new_err(format!(
                "actions must be {} (one a game), not {}",
                self.batch.len(),
                given.len()
            )));
        }
        let actions: Vec<usize> = given
            .iter()
            .map(|&a| usize::try_from(a).unwrap_or(usize::MAX))
            .collect();
        let ends = self.batch.step(&actions).map_err(|i| {
            PyValueError::new_err(format!(
                "action {} of game {i} is not a legal move there",
                given.get(i).copied().unwrap_or(-1)
            ))
        })?;
        let rewards = ends
            .iter()
            .map(|&e| if e == End::Won { 1.0 } else { 0.0 })
            .collect();
        let terminated = ends
            .iter()
            .map(|&e| e == End::Won || e == End::Stalled)
            .collect();
        let truncated = ends.iter().map(|&e| e == End::Cut).collect();
        Ok((
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            PyArray1::from_vec(py, truncated),
        ))
    }

    /// Each game's last result for the first player: 1 won, -1 lost, 0 drawn (nobody
    /// could move), 2 cut at the move limit, -2 none ended yet.
    fn results<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_vec(py, self.batch.results().to_vec())
    }

    /// Game `i`'s position.
    fn position(&self, i: &Bound<'_, PyAny>) -> PyResult<PyStarPosition> {
        let last = self.batch.len() as i64 - 1;
        let i = int_in(i, "i", 0, last, PyValueError::new_err)? as usize;
        self.batch
            .game(i)
            .map(|&pos| PyStarPosition { pos })
            .ok_or_else(|| PyValueError::new_err("no such game"))
    }
}
