//! `Move` and `Piece`.

use pyo3::prelude::*;
use pyo3::types::{PyFrozenSet, PyTuple};

use super::args::square_arg_on;
use super::notation_arg;
use pyo3::exceptions::PyValueError;

use crate::rules::GameWord;
use crate::{Bitboard, Color, Move as CoreMove, Notation, Square, Variant};

pub(crate) fn color_bool(c: Color) -> bool {
    c == Color::White
}

/// The moves a batch push played, and the exception that stopped it.
pub(crate) type PushedMoves = (Vec<Py<PyMove>>, Option<Py<PyAny>>);

/// A move in the word of its board's layout: the 64-bit one of the boards up to 10×10 (and
/// Turkish draughts), the 128-bit one of the 12×12 board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum AnyMove {
    Narrow(CoreMove),
    Wide(CoreMove<u128>),
}

impl AnyMove {
    pub(crate) fn from(&self) -> Square {
        match self {
            AnyMove::Narrow(m) => m.from(),
            AnyMove::Wide(m) => m.from(),
        }
    }

    pub(crate) fn to(&self) -> Square {
        match self {
            AnyMove::Narrow(m) => m.to(),
            AnyMove::Wide(m) => m.to(),
        }
    }

    pub(crate) fn path(&self) -> &[Square] {
        match self {
            AnyMove::Narrow(m) => m.path(),
            AnyMove::Wide(m) => m.path(),
        }
    }

    pub(crate) fn captured(&self) -> Vec<Square> {
        match self {
            AnyMove::Narrow(m) => m.captured().iter().collect(),
            AnyMove::Wide(m) => m.captured().iter().collect(),
        }
    }

    pub(crate) fn promotes(&self) -> bool {
        match self {
            AnyMove::Narrow(m) => m.promotes(),
            AnyMove::Wide(m) => m.promotes(),
        }
    }

    pub(crate) fn is_capture(&self) -> bool {
        match self {
            AnyMove::Narrow(m) => m.is_capture(),
            AnyMove::Wide(m) => m.is_capture(),
        }
    }
}

/// A word whose moves a Python `Move` holds.
pub(crate) trait PyWord: GameWord {
    /// The move as a Python `Move` keeps it.
    fn to_any(m: CoreMove<Self>) -> AnyMove;
    /// The move in this word, or None when it was made on a board of the other word.
    fn from_any(m: &AnyMove) -> Option<CoreMove<Self>>;
}

impl PyWord for u64 {
    fn to_any(m: CoreMove) -> AnyMove {
        AnyMove::Narrow(m)
    }

    fn from_any(m: &AnyMove) -> Option<CoreMove> {
        match m {
            AnyMove::Narrow(m) => Some(*m),
            AnyMove::Wide(_) => None,
        }
    }
}

impl PyWord for u128 {
    fn to_any(m: CoreMove<u128>) -> AnyMove {
        AnyMove::Wide(m)
    }

    fn from_any(m: &AnyMove) -> Option<CoreMove<u128>> {
        match m {
            AnyMove::Wide(m) => Some(*m),
            AnyMove::Narrow(_) => None,
        }
    }
}

/// A move: start and end square, captured squares, landing squares, promotion; and the game
/// it was made in, whose square names and numbers its text uses.
#[pyclass(module = "shashki", name = "Move", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub(crate) inner: AnyMove,
    pub(crate) variant: Variant,
}

impl PyMove {
    /// The index of `sq` on the move's board.
    fn index(&self, sq: Square) -> usize {
        self.variant.geometry().index_on_board(sq)
    }

    /// The move with every landing square in its board's algebraic names (`e3:c5:e7`),
    /// whatever the game's own notation: the text of error messages.
    pub(crate) fn long_text(&self) -> String {
        let geometry = self.variant.geometry();
        let sep = if self.inner.is_capture() { ':' } else { '-' };
        let mut text = geometry.name(self.inner.from());
        for &sq in self.inner.path() {
            text.push(sep);
            text.push_str(&geometry.name(sq));
        }
        text
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
        PyFrozenSet::new(py, self.inner.captured().into_iter().map(|s| self.index(s)))
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

    /// The move with every landing square, in its game's notation unless `notation` says
    /// (`"numeric"` or `"algebraic"`): `c3-d4`, `e3:c5:e7` in Russian draughts; `32-28`,
    /// `28x19x10` in International draughts.
    #[pyo3(signature = (notation = None))]
    fn text(&self, notation: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => self.variant.notation(),
        };
        Ok(self.written(notation))
    }

    /// [`PyMove::text`] in the game's notation.
    fn __str__(&self) -> String {
        self.written(self.variant.notation())
    }

    fn __repr__(&self) -> String {
        format!("<Move {}>", self.written(self.variant.notation()))
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
            .ok_or_else(|| PyValueError::new_err(format!("unknown variant {variant:?}")))?;
        let geometry = variant.geometry();
        let square = |s: &Bound<'_, PyAny>| square_arg_on(s, geometry);
        let from = square(start)?;
        let path: Vec<Square> = path.iter().map(square).collect::<PyResult<_>>()?;
        let captured: Vec<Square> = captured.iter().map(square).collect::<PyResult<_>>()?;
        fn parts<W: PyWord>(
            from: Square,
            path: &[Square],
            captured: &[Square],
            promotes: bool,
        ) -> Option<AnyMove> {
            let captured: Bitboard<W> = captured.iter().copied().collect();
            CoreMove::from_parts(from, path, captured, promotes).map(W::to_any)
        }
        let inner = if geometry.is_wide() {
            parts::<u128>(from, &path, &captured, promotes)
        } else {
            parts::<u64>(from, &path, &captured, promotes)
        };
        inner
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
        let captured: Vec<usize> = m.captured().into_iter().map(|s| this.index(s)).collect();
        let variant = this.variant.name();
        let args =
            (this.index(m.from()), path, captured, m.promotes(), variant).into_pyobject(py)?;
        Ok((slf.get_type().getattr("_from_parts")?, args))
    }
}

/// A Python move of the game `variant`.
pub(crate) fn wrap<W: PyWord>(
    py: Python<'_>,
    m: CoreMove<W>,
    variant: Variant,
) -> PyResult<Py<PyMove>> {
    Py::new(
        py,
        PyMove {
            inner: W::to_any(m),
            variant,
        },
    )
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
