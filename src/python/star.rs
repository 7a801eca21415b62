//! `StarPosition`: the star board (Chinese checkers) for Python (`shashki.star` builds on it).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::args::int_in;
use crate::star::{perft, StarGeometry, StarMove, StarPosition};

/// A position of the star game (Chinese checkers): holes by index in reading order
/// (`holes()` gives each one's cube coordinates), players by their index in turn order.
#[pyclass(name = "StarPosition", module = "shashki._core", frozen)]
#[derive(Clone)]
pub struct PyStarPosition {
    pos: StarPosition,
}

/// An optional int argument within `lo..=hi` (its default when None).
fn int_or(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: i64,
    hi: i64,
    default: i64,
) -> PyResult<i64> {
    match obj {
        Some(o) if !o.is_none() => int_in(o, name, lo, hi, PyValueError::new_err),
        _ => Ok(default),
    }
}

fn hole_arg(obj: &Bound<'_, PyAny>, what: &str, holes: usize) -> PyResult<u8> {
    Ok(int_in(obj, what, 0, holes as i64 - 1, PyValueError::new_err)? as u8)
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
        let size = int_or(size, "size", 3, 4, 4)? as u8;
        let players = int_or(players, "players", 2, 6, 2)? as u8;
        let max_plies = int_or(max_plies, "max_plies", 1, 1_000_000, 1000)?;
        let hop_others = match hop_over {
            "any" => false,
            "others" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "hop_over must be 'any' or 'others', not {other:?}"
                )))
            }
        };
        StarPosition::start(size, players, hop_others, max_plies as u32)
            .map(|pos| PyStarPosition { pos })
            .map_err(|e| PyValueError::new_err(e.0))
    }

    /// Each hole's cube coordinates `(q, r, s)`, by index.
    #[staticmethod]
    #[pyo3(signature = (size = None))]
    fn holes(size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(i8, i8, i8)>> {
        let size = int_or(size, "size", 3, 4, 4)? as u8;
        Ok(StarGeometry::of(size).map_or_else(Vec::new, |g| g.coords.clone()))
    }

    /// Each of the six points' holes, by point.
    #[staticmethod]
    #[pyo3(signature = (size = None))]
    fn points(size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Vec<u8>>> {
        let size = int_or(size, "size", 3, 4, 4)? as u8;
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
