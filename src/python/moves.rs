//! `Move` and `Piece`.

use pyo3::prelude::*;
use pyo3::types::{PyFrozenSet, PyTuple};

use super::args::square_arg_on;
use super::notation_arg;
use pyo3::exceptions::PyValueError;

use crate::{Color, Move as CoreMove, Notation, Square, Variant};

pub(crate) fn color_bool(c: Color) -> bool {
    c == Color::White
}

/// The moves a batch push played, and the exception that stopped it.
pub(crate) type PushedMoves = (Vec<Py<PyMove>>, Option<Py<PyAny>>);

/// A move: start and end square, captured squares, landing squares, promotion; and the game
/// it was made in, whose square names and numbers its text uses.
#[pyclass(module = "shashki", name = "Move", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) inner: CoreMove,
    pub(crate) variant: Variant,
}

impl PyMove {
    /// The index of `sq` on the move's board.
    fn index(&self, sq: Square) -> usize {
        self.variant.geometry().index_on_board(sq)
    }

    /// The move with every landing square, in its game's names or numbers.
    fn written(&self, notation: Notation) -> String {
        let numbering = self.variant.numbering();
        let name = |s: Square| match notation {
            Notation::Algebraic => numbering.name(s),
            Notation::Numeric => numbering.number(s).to_string(),
        };
        let m = &self.inner;
        if !m.is_capture() {
            return format!("{}-{}", name(m.from()), name(m.to()));
        }
        let sep = if notation == Notation::Algebraic {
            ":"
        } else {
            "x"
        };
        let mut s = name(m.from());
        for &sq in m.path() {
            s.push_str(sep);
            s.push_str(&name(sq));
        }
        s
    }
}

#[pymethods]
impl PyMove {
    /// Start square (0 = a1 … 31 = h8 on the 8×8 board, … 49 = j10 on the 10×10 one).
    #[getter]
    fn start(&self) -> usize {
        self.index(self.inner.from())
    }

    /// End square.
    #[getter]
    fn end(&self) -> usize {
        self.index(self.inner.to())
    }

    /// The squares of the captured pieces.
    #[getter]
    fn captured<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyFrozenSet>> {
        PyFrozenSet::new(py, self.inner.captured().iter().map(|s| self.index(s)))
    }

    /// The landing squares in order, ending with `end`.
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.path().iter().map(|&s| self.index(s)))
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
        Ok(self.written(notation))
    }

    fn __str__(&self) -> String {
        self.written(Notation::Algebraic)
    }

    fn __repr__(&self) -> String {
        format!("<Move {}>", self.written(Notation::Algebraic))
    }

    /// The game the move was made in (its squares' names and numbers are that game's).
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// A move from its parts (`start`, `path`, `captured`, `promotes`, `variant`, as the
    /// attributes give them): how moves are pickled and copied. Whether it is legal is up
    /// to the board.
    #[staticmethod]
    #[pyo3(signature = (start, path, captured, promotes, variant = "russian"))]
    fn _from_parts(
        start: &Bound<'_, PyAny>,
        path: Vec<Bound<'_, PyAny>>,
        captured: Vec<Bound<'_, PyAny>>,
        promotes: bool,
        variant: &str,
    ) -> PyResult<PyMove> {
        let variant = Variant::parse(variant)
            .filter(|v| !v.geometry().is_wide())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown variant {variant:?} (or one of the 12×12 board, whose moves a \
                     Move does not hold yet)"
                ))
            })?;
        let geometry = variant.geometry();
        let square = |s: &Bound<'_, PyAny>| square_arg_on(s, geometry);
        let from = square(start)?;
        let path: Vec<Square> = path.iter().map(square).collect::<PyResult<_>>()?;
        let captured: crate::Bitboard = captured
            .iter()
            .map(square)
            .collect::<PyResult<Vec<Square>>>()?
            .into_iter()
            .collect();
        CoreMove::from_parts(from, &path, captured, promotes)
            .map(|inner| PyMove { inner, variant })
            .ok_or_else(|| PyValueError::new_err("these parts do not form a move"))
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let m = this.inner;
        let path: Vec<usize> = m.path().iter().map(|&s| this.index(s)).collect();
        let captured: Vec<usize> = m.captured().iter().map(|s| this.index(s)).collect();
        let variant = this.variant.name();
        let args =
            (this.index(m.from()), path, captured, m.promotes(), variant).into_pyobject(py)?;
        Ok((slf.get_type().getattr("_from_parts")?, args))
    }
}

/// A Python move of the game `variant`.
pub(crate) fn wrap(py: Python<'_>, m: CoreMove, variant: Variant) -> PyResult<Py<PyMove>> {
    Py::new(py, PyMove { inner: m, variant })
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
