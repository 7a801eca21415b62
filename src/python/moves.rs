//! `Move` and `Piece`.

use pyo3::prelude::*;
use pyo3::types::{PyFrozenSet, PyTuple};

use super::{notation_arg, square_arg};
use pyo3::exceptions::PyValueError;

use crate::{Color, Move as CoreMove, Notation, Square};

pub(crate) fn color_bool(c: Color) -> bool {
    c == Color::White
}

/// The moves a batch push played, and the exception that stopped it.
pub(crate) type PushedMoves = (Vec<Py<PyMove>>, Option<Py<PyAny>>);

/// A move: start and end square, captured squares, landing squares, promotion.
#[pyclass(module = "shashki", name = "Move", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) inner: CoreMove,
}

#[pymethods]
impl PyMove {
    /// Start square (0 = a1 … 31 = h8).
    #[getter]
    fn start(&self) -> usize {
        self.inner.from().index()
    }

    /// End square.
    #[getter]
    fn end(&self) -> usize {
        self.inner.to().index()
    }

    /// The squares of the captured pieces.
    #[getter]
    fn captured<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        PyFrozenSet::new(py, self.inner.captured().iter().map(Square::index))
    }

    /// The landing squares in order, ending with `end`.
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.path().iter().map(|s| s.index()))
    }

    /// Whether a man is crowned by this move.
    #[getter]
    fn promotes(&self) -> bool {
        self.inner.promotes()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.inner.is_capture()
    }

    /// The move with every landing square: `c3-d4`, `e3:c5:e7`; numeric `22-18`, `23x14x5`.
    #[pyo3(signature = (notation = None))]
    fn text(&self, notation: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => Notation::Algebraic,
        };
        Ok(match notation {
            Notation::Algebraic => self.inner.long_text(),
            Notation::Numeric => self.inner.numeric_text(),
        })
    }

    fn __str__(&self) -> String {
        self.inner.long_text()
    }

    fn __repr__(&self) -> String {
        format!("<Move {}>", self.inner.long_text())
    }

    /// A move from its parts (`start`, `path`, `captured`, `promotes`, as the attributes give
    /// them): how moves are pickled and copied. Whether it is legal is up to the board.
    #[staticmethod]
    fn _from_parts(
        start: &Bound<'_, PyAny>,
        path: Vec<Bound<'_, PyAny>>,
        captured: Vec<Bound<'_, PyAny>>,
        promotes: bool,
    ) -> PyResult<PyMove> {
        let from = square_arg(start)?;
        let path: Vec<Square> = path.iter().map(square_arg).collect::<PyResult<_>>()?;
        let captured: crate::Bitboard = captured
            .iter()
            .map(square_arg)
            .collect::<PyResult<Vec<Square>>>()?
            .into_iter()
            .collect();
        CoreMove::from_parts(from, &path, captured, promotes)
            .map(|inner| PyMove { inner })
            .ok_or_else(|| PyValueError::new_err("these parts do not form a move"))
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let m = slf.get().inner;
        let path: Vec<usize> = m.path().iter().map(|s| s.index()).collect();
        let captured: Vec<usize> = m.captured().iter().map(Square::index).collect();
        let args = (m.from().index(), path, captured, m.promotes()).into_pyobject(py)?;
        Ok((slf.get_type().getattr("_from_parts")?, args))
    }
}

pub(crate) fn wrap(py: Python<'_>, m: CoreMove) -> PyResult<Py<PyMove>> {
    Py::new(py, PyMove { inner: m })
}

/// A piece: colour (`WHITE` is True) and whether it is a king.
#[pyclass(module = "shashki", name = "Piece", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPiece {
    pub(crate) color: bool,
    pub(crate) king: bool,
}

#[pymethods]
impl PyPiece {
    #[new]
    #[pyo3(signature = (color, king = false))]
    fn new(color: bool, king: bool) -> Self {
        PyPiece { color, king }
    }

    /// `True` for White.
    #[getter]
    fn color(&self) -> bool {
        self.color
    }

    /// Whether it is a king.
    #[getter]
    fn king(&self) -> bool {
        self.king
    }

    /// `w`, `b` (men), `W`, `B` (kings).
    fn symbol(&self) -> String {
        match (self.color, self.king) {
            (true, false) => "w",
            (false, false) => "b",
            (true, true) => "W",
            (false, true) => "B",
        }
        .to_owned()
    }

    fn __repr__(&self) -> String {
        format!("Piece('{}')", self.symbol())
    }
}
