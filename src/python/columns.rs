//! `shashki._core.ColumnBoard`: a position of a column game (towers, Lasca) with its history.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use std::sync::Arc;

use super::moves::AnyMove;
use super::{
    color_bool, fen_text, move_text_arg, move_text_err, notation_arg, square_arg_on, wrap,
    FenError, IllegalMoveError, PyMove, PyPiece,
};
use crate::notation;
use crate::{Counting, Move as CoreMove, Notation, Role, Square, StackPosition, Variant};

/// A position of a column game and the moves that led to it.
#[pyclass(module = "shashki._core", name = "ColumnBoard", subclass)]
#[derive(Clone)]
pub struct PyColumnBoard {
    pos: StackPosition,
    /// The positions before each move, and the moves.
    stack: Vec<(StackPosition, CoreMove, u32)>,
    /// Plies since the last capture or move of a man-topped column.
    halfmove: u32,
    start_clocks: (u32, u32),
}

/// A column search's answer: `(move or None, kind, value, depth, nodes, pv)`.
type ColumnAnswer = (
    Option<Py<PyMove>>,
    &'static str,
    i32,
    u32,
    u64,
    Vec<Py<PyMove>>,
);

fn answer(
    py: Python<'_>,
    result: &crate::ColumnResult,
    variant: Variant,
) -> PyResult<ColumnAnswer> {
    let (kind, value) = if result.score.abs() > crate::stacks::search::WIN - 1000 {
        let plies = crate::stacks::search::WIN - result.score.abs();
        let moves = (plies + 1) / 2;
        ("win", if result.score > 0 { moves } else { -moves })
    } else {
        ("cp", result.score)
    };
    let best = result.best.map(|m| wrap(py, m, variant)).transpose()?;
    let pv = result
        .pv
        .iter()
        .map(|m| wrap(py, *m, variant))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((best, kind, value, result.depth, result.nodes, pv))
}

/// The controls of a running column search (`ColumnBoard.search(control=...)`), for
/// another thread: `stop()` ends it (its last completed depth answers), `set_time(seconds)`
/// gives it a time limit counted from the control's creation (a ponder hit).
#[pyclass(module = "shashki._core", name = "ColumnControl", frozen)]
pub struct PyColumnControl {
    inner: Arc<crate::ColumnControl>,
}

#[pymethods]
impl PyColumnControl {
    #[new]
    fn new() -> Self {
        Self {
            inner: Arc::new(crate::ColumnControl::new()),
        }
    }

    /// Stop the searches using this control.
    fn stop(&self) {
        self.inner.stop();
    }

    /// Whether `stop()` was called.
    #[getter]
    fn stopped(&self) -> bool {
        self.inner.is_stopped()
    }

    /// End the searches `seconds` after this control was made (at once if that has passed).
    fn set_time(&self, seconds: f64) -> PyResult<()> {
        if !(0.0..=31_536_000.0).contains(&seconds) {
            return Err(PyValueError::new_err(
                "time must be between 0 and a year of seconds",
            ));
        }
        self.inner
            .set_time(std::time::Duration::from_secs_f64(seconds));
        Ok(())
    }
}

fn column_variant(name: &str) -> PyResult<Variant> {
    let variant = Variant::parse(name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown game {name:?}")))?;
    if !variant.info().stacks {
        return Err(PyValueError::new_err(format!(
            "{} is not a column game (towers, lasca)",
            variant.name()
        )));
    }
    Ok(variant)
}

impl PyColumnBoard {
    fn variant_kind(&self) -> Variant {
        self.pos.variant()
    }

    fn legal(&self, m: &AnyMove) -> Option<CoreMove> {
        match m {
            AnyMove::Narrow(m) => self.pos.find_legal(m),
            AnyMove::Wide(_) => None,
        }
    }

    fn play(&mut self, m: CoreMove) {
        let tops = self.pos.tops();
        let man_moved = !tops.kings(tops.turn()).contains(m.from());
        self.stack.push((self.pos, m, self.halfmove));
        self.halfmove = if m.is_capture() || man_moved {
            0
        } else {
            self.halfmove + 1
        };
        self.pos.play_unchecked(&m);
    }

    fn parse(&self, text: &Bound<'_, PyAny>) -> PyResult<CoreMove> {
        let text = move_text_arg(text)?;
        let variant = self.variant_kind();
        let legal = self.pos.legal_moves_counting(crate::Counting::Orders);
        let m = notation::parse_move_among(
            legal.iter().copied(),
            variant.numbering(),
            &text,
            |first, last| {
                if !self
                    .pos
                    .tops()
                    .rules()
                    .move_rules()
                    .eq(&crate::MoveRules::TowersWestern)
                {
                    // The tops' moves are the game's: the diagonal games' explanation.
                    return notation::explain_illegal(self.pos.tops(), first, last);
                }
                let starts: Vec<String> = legal
                    .iter()
                    .filter(|m| m.from() == first)
                    .map(|m| m.long_text_on(variant.geometry()))
                    .collect();
                if starts.is_empty() {
                    format!("no legal move from {}", variant.numbering().name(first))
                } else {
                    format!(
                        "the moves from {} are {}",
                        variant.numbering().name(first),
                        starts.join(", ")
                    )
                }
            },
        )
        .map_err(move_text_err)?;
        self.pos.find_legal(&m).ok_or_else(|| {
            IllegalMoveError::new_err(format!("illegal move {text:?} in {}", self.fen_of()))
        })
    }

    fn fen_of(&self) -> String {
        self.pos.fen(self.variant_kind().notation())
    }

    fn square(&self, square: &Bound<'_, PyAny>) -> PyResult<Square> {
        square_arg_on(square, self.variant_kind().geometry())
    }
}

fn py_piece(p: crate::Piece) -> PyPiece {
    PyPiece {
        color: color_bool(p.color),
        king: p.role == Role::King,
    }
}

#[pymethods]
impl PyColumnBoard {
    /// A column game (`towers`, `lasca`) from its start or from a FEN (the columns under the
    /// tops in parentheses: `W:Wc3(bB),e3:Bd6`).
    #[new]
    #[pyo3(signature = (fen = None, variant = "towers"))]
    fn new(fen: Option<&Bound<'_, PyAny>>, variant: &str) -> PyResult<Self> {
        let variant = column_variant(variant)?;
        let (pos, halfmove, fullmove) = match fen {
            None => (
                StackPosition::start(variant).map_err(|e| FenError::new_err(e.to_string()))?,
                None,
                None,
            ),
            Some(text) => {
                let text = fen_text(text)?;
                StackPosition::from_fen(&text, variant)
                    .map_err(|e| FenError::new_err(e.to_string()))?
            }
        };
        let halfmove = halfmove.unwrap_or(0);
        Ok(PyColumnBoard {
            pos,
            stack: Vec::new(),
            halfmove,
            start_clocks: (halfmove, fullmove.unwrap_or(1).max(1)),
        })
    }

    /// The game's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant_kind().name()
    }

    /// `True` when White is to move.
    #[getter]
    fn turn(&self) -> bool {
        color_bool(self.pos.turn())
    }

    /// The position's FEN, in the game's notation unless `notation` is given.
    #[pyo3(signature = (notation = None))]
    fn fen(&self, notation: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => self.variant_kind().notation(),
        };
        Ok(self.pos.fen(notation))
    }

    /// Set the position from a FEN (the history is cleared).
    fn set_fen(&mut self, fen: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = fen_text(fen)?;
        let (pos, halfmove, fullmove) = StackPosition::from_fen(&text, self.variant_kind())
            .map_err(|e| FenError::new_err(e.to_string()))?;
        self.pos = pos;
        self.stack.clear();
        self.halfmove = halfmove.unwrap_or(0);
        self.start_clocks = (self.halfmove, fullmove.unwrap_or(1).max(1));
        Ok(())
    }

    /// The position's hash (the tops and the columns under them).
    fn zobrist_hash(&self) -> u64 {
        self.pos.hash()
    }

    /// The legal moves, one per position they lead to.
    #[getter]
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<Py<PyMove>>> {
        let variant = self.variant_kind();
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| wrap(py, m, variant))
            .collect()
    }

    /// Whether the side to move must capture.
    fn has_captures(&self) -> bool {
        self.pos.has_captures()
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: PyRef<'_, PyMove>) -> bool {
        self.legal(&r#move.inner).is_some()
    }

    /// Play a legal move; an illegal one raises `IllegalMoveError` and the board is unchanged.
    fn push(&mut self, r#move: PyRef<'_, PyMove>) -> PyResult<()> {
        match self.legal(&r#move.inner) {
            Some(m) => {
                self.play(m);
                Ok(())
            }
            None => Err(IllegalMoveError::new_err(format!(
                "illegal move {} in {}",
                self.variant_kind().numbering().name(r#move.inner.from()),
                self.fen_of()
            ))),
        }
    }

    /// The legal move a text names (`c3-d4`, `c3:e5:c7`; Lasca's numbers `9-13`).
    fn parse_move(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        wrap(py, self.parse(text)?, self.variant_kind())
    }

    /// Play the move a text names and return it.
    fn push_move(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let m = self.parse(text)?;
        self.play(m);
        wrap(py, m, self.variant_kind())
    }

    /// Take back the last move and return it.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        let (pos, m, halfmove) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        self.pos = pos;
        self.halfmove = halfmove;
        wrap(py, m, self.variant_kind())
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> PyResult<Vec<Py<PyMove>>> {
        let variant = self.variant_kind();
        self.stack
            .iter()
            .map(|(_, m, _)| wrap(py, *m, variant))
            .collect()
    }

    /// A move's text in the game's notation (or `notation`), `long` for the full route.
    #[pyo3(signature = (r#move, notation = None, long = false))]
    fn move_text(
        &self,
        r#move: PyRef<'_, PyMove>,
        notation: Option<&Bound<'_, PyAny>>,
        long: bool,
    ) -> PyResult<String> {
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => self.variant_kind().notation(),
        };
        match self.legal(&r#move.inner) {
            Some(m) => Ok(notation::move_text_among(
                self.pos.legal_moves().iter(),
                self.variant_kind().numbering(),
                &m,
                notation,
                long,
            )),
            None => Err(IllegalMoveError::new_err("the move is not legal here")),
        }
    }

    /// The column on `square` (a square index), top piece first; empty for an empty square.
    fn column(&self, square: &Bound<'_, PyAny>) -> PyResult<Vec<PyPiece>> {
        let sq = self.square(square)?;
        Ok(self.pos.column(sq).pieces().map(py_piece).collect())
    }

    /// The top piece on `square`, which owns the column.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let sq = self.square(square)?;
        Ok(self.pos.column(sq).top().map(py_piece))
    }

    /// Every piece of a colour, tops and prisoners.
    fn piece_count(&self, color: bool) -> u32 {
        let color = if color {
            crate::Color::White
        } else {
            crate::Color::Black
        };
        self.pos.piece_count(color)
    }

    /// Plies since the last capture or move of a man-topped column.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        let root_black = self
            .stack
            .first()
            .map_or(self.pos.turn(), |(p, _, _)| p.turn())
            == crate::Color::Black;
        self.start_clocks.1 + (self.stack.len() as u32 + u32::from(root_black)) / 2
    }

    /// How often the current position has occurred (this time included), since the last
    /// capture or man move.
    fn occurrences(&self) -> u32 {
        let hash = self.pos.hash();
        let window = self.halfmove as usize;
        1 + self
            .stack
            .iter()
            .rev()
            .take(window)
            .filter(|(p, _, _)| p.hash() == hash)
            .count() as u32
    }

    /// The number of move sequences of `depth` plies; `counting="orders"` counts each order
    /// of capture (convention B).
    #[pyo3(signature = (depth, counting = "distinct"))]
    fn perft(&self, py: Python<'_>, depth: u32, counting: &str) -> PyResult<u64> {
        let counting = match counting {
            "distinct" | "A" => Counting::Distinct,
            "orders" | "B" => Counting::Orders,
            other => {
                return Err(PyValueError::new_err(format!(
                    "counting must be 'distinct' or 'orders', not {other:?}"
                )))
            }
        };
        if depth > 30 {
            return Err(PyValueError::new_err("depth must be at most 30"));
        }
        let pos = self.pos;
        Ok(py.detach(move || pos.perft(depth, counting)))
    }

    /// Search the position (the column games' engine, `crate::stacks::search`): at most
    /// `depth` plies, `nodes` nodes or `time` seconds (depth 1 always completes), and until
    /// `control` (a [`ColumnControl`]) is stopped or its late time limit passes. Returns
    /// `(move or None, kind, value, depth, nodes, pv)`: `kind` "cp" with centi-men for the
    /// side to move, or "win" with a signed distance in the winner's moves; `on_depth` gets
    /// the same tuple after each depth completed (an exception from it stops the search and
    /// is raised). Runs without the GIL; the game's earlier positions count for repetitions.
    #[pyo3(signature = (depth = None, nodes = None, time = None, control = None, on_depth = None))]
    #[allow(clippy::type_complexity)]
    fn search(
        &self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time: Option<f64>,
        control: Option<PyRef<'_, PyColumnControl>>,
        on_depth: Option<Py<PyAny>>,
    ) -> PyResult<ColumnAnswer> {
        if depth.is_some_and(|d| !(1..=100).contains(&d)) {
            return Err(PyValueError::new_err("depth must be between 1 and 100"));
        }
        if nodes == Some(0) {
            return Err(PyValueError::new_err("nodes must be at least 1"));
        }
        let deadline = match time {
            Some(t) if !(0.0..=31_536_000.0).contains(&t) => {
                return Err(PyValueError::new_err(
                    "time must be between 0 and a year of seconds",
                ))
            }
            Some(t) => Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(t)),
            None => None,
        };
        // The callback's error stops the search through a control of its own when none
        // was given.
        let control = control
            .map(|c| Arc::clone(&c.inner))
            .unwrap_or_else(|| Arc::new(crate::ColumnControl::new()));
        let limits = crate::ColumnLimits {
            depth,
            nodes,
            deadline,
            control: Some(Arc::clone(&control)),
        };
        let pos = self.pos;
        let variant = self.variant_kind();
        let history: Vec<u64> = self.stack.iter().map(|(p, _, _)| p.hash()).collect();
        let mut failure: Option<PyErr> = None;
        let result = py.detach(|| {
            crate::search_columns(&pos, &history, limits, &mut |r| {
                let Some(callback) = on_depth.as_ref() else {
                    return;
                };
                if failure.is_some() {
                    return;
                }
                Python::attach(|py| {
                    let called = answer(py, r, variant).and_then(|a| callback.call1(py, (a,)));
                    if let Err(error) = called {
                        failure = Some(error);
                        control.stop();
                    }
                });
            })
        });
        if let Some(error) = failure {
            return Err(error);
        }
        answer(py, &result, variant)
    }

    /// A copy (with the history unless `stack` is false).
    #[pyo3(signature = (stack = true))]
    fn copy(&self, stack: bool) -> PyColumnBoard {
        let mut c = self.clone();
        if !stack {
            c.stack.clear();
        }
        c
    }

    /// The FEN of the first position.
    fn root_fen(&self) -> String {
        let root = self.stack.first().map_or(&self.pos, |(p, _, _)| p);
        root.fen(self.variant_kind().notation())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyColumnBoard>() {
            Ok(o) => o.borrow().pos == self.pos,
            Err(_) => false,
        }
    }

    /// The board as text: each square's column, top first (`.` an empty square).
    fn __str__(&self) -> String {
        let g = self.variant_kind().geometry();
        let size = g.size();
        let mut rows = Vec::new();
        for rank in (0..size).rev() {
            let mut cells = Vec::new();
            for file in 0..size {
                cells.push(match g.square_at(file, rank) {
                    Some(sq) if !self.pos.column(sq).is_empty() => self.pos.column(sq).letters(),
                    Some(_) => ".".to_owned(),
                    None => " ".to_owned(),
                });
            }
            rows.push(
                cells
                    .iter()
                    .map(|c| format!("{c:<3}"))
                    .collect::<String>()
                    .trim_end()
                    .to_owned(),
            );
        }
        rows.join("\n")
    }

    fn __repr__(&self) -> String {
        format!(
            "ColumnBoard({:?}, variant={:?})",
            self.pos.fen(Notation::Numeric),
            self.variant_kind().name()
        )
    }

    #[classmethod]
    #[pyo3(signature = (fen, variant = "towers"))]
    fn from_fen(
        _cls: &Bound<'_, PyType>,
        fen: &Bound<'_, PyAny>,
        variant: &str,
    ) -> PyResult<PyColumnBoard> {
        PyColumnBoard::new(Some(fen), variant)
    }
}
