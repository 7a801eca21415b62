//! `shashki._core`: thin PyO3 wrappers over the Rust core. No rules live here.

mod args;
mod egtb;
mod engine;

use std::sync::atomic::AtomicBool;

use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyList, PyTuple, PyType};

use crate::notation::{self, MoveTextError};
use crate::{
    fen, perft_divide, Color, Counting, Move as CoreMove, Notation, PerftOptions, Position, Role,
    RuleSet, Square, Variant,
};

create_exception!(
    shashki,
    FenError,
    PyValueError,
    "A FEN that cannot be read."
);
create_exception!(shashki, SquareError, PyValueError, "Not a playable square.");
create_exception!(
    shashki,
    InvalidMoveError,
    PyValueError,
    "Move text that is not a move."
);
create_exception!(
    shashki,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal here."
);
create_exception!(
    shashki,
    AmbiguousMoveError,
    PyValueError,
    "Move text that fits several legal moves."
);

fn move_text_err(e: MoveTextError) -> PyErr {
    match e {
        MoveTextError::Invalid(_) => InvalidMoveError::new_err(e.to_string()),
        MoveTextError::Illegal(_) => IllegalMoveError::new_err(e.to_string()),
        MoveTextError::Ambiguous(..) => AmbiguousMoveError::new_err(e.to_string()),
    }
}

fn square_arg(sq: &Bound<'_, PyAny>) -> PyResult<Square> {
    let index = args::int_in(sq, "square index", 0, 31, SquareError::new_err)?;
    u32::try_from(index)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| SquareError::new_err(format!("square index {index} is not within 0..31")))
}

fn fen_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    args::text(obj, "FEN", FenError::new_err)
}

fn move_text_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    args::text(obj, "move text", InvalidMoveError::new_err)
}

fn notation_arg(notation: &Bound<'_, PyAny>) -> PyResult<Notation> {
    let notation = args::text(notation, "notation", PyValueError::new_err)?;
    match notation.as_str() {
        "numeric" => Ok(Notation::Numeric),
        "algebraic" => Ok(Notation::Algebraic),
        other => Err(PyValueError::new_err(format!(
            "notation must be 'numeric' or 'algebraic', not {other:?}"
        ))),
    }
}

fn color_bool(c: Color) -> bool {
    c == Color::White
}

/// The moves a batch push played, and the exception that stopped it.
type PushedMoves = (Vec<Py<PyMove>>, Option<Py<PyAny>>);

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

fn wrap(py: Python<'_>, m: CoreMove) -> PyResult<Py<PyMove>> {
    Py::new(py, PyMove { inner: m })
}

/// A piece: colour (`WHITE` is True) and whether it is a king.
#[pyclass(module = "shashki", name = "Piece", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPiece {
    color: bool,
    king: bool,
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

/// A position with a move stack.
#[pyclass(module = "shashki", name = "Board", subclass)]
pub struct PyBoard {
    pos: Position,
    stack: Vec<(Position, CoreMove)>,
    cache: Option<Vec<CoreMove>>,
    /// The FEN's clocks for the first position: plies since a capture or man move (`H`)
    /// and the move number (`F`).
    start_clocks: (u32, u32),
}

impl PyBoard {
    pub(crate) fn position(&self) -> Position {
        self.pos
    }

    fn moves(&mut self) -> &[CoreMove] {
        let pos = self.pos;
        self.cache
            .get_or_insert_with(|| {
                let mut moves = pos.legal_moves().to_vec();
                moves.sort_by_key(|m| (m.from(), m.to(), m.captured().bits()));
                moves
            })
            .as_slice()
    }

    fn set_position(&mut self, pos: Position) {
        self.pos = pos;
        self.cache = None;
    }

    /// Set up an edited position and clear the stack; ValueError (board unchanged) when it
    /// is not a legal setup.
    fn set_setup(&mut self, setup: &crate::Setup) -> PyResult<()> {
        let pos = Position::from_setup(setup).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.set_position(pos.with_rules(self.pos.rules()));
        self.stack.clear();
        self.start_clocks = (0, 1);
        Ok(())
    }
}

pub(crate) fn parse_fen_with_clocks(text: &str) -> PyResult<(Position, (u32, u32))> {
    let parsed = fen::parse_fen(text).map_err(|e| FenError::new_err(e.to_string()))?;
    let pos = Position::from_setup(&parsed.setup).map_err(|e| FenError::new_err(e.to_string()))?;
    let clocks = (
        parsed.halfmove_clock.unwrap_or(0),
        parsed.fullmove_number.unwrap_or(1).max(1),
    );
    Ok((pos, clocks))
}

/// The rules named by a `variant` and `captures_optional` argument pair.
pub(crate) fn rules_arg(
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
) -> PyResult<RuleSet> {
    let variant = match variant {
        None => Variant::Russian,
        Some(v) if v.is_none() => Variant::Russian,
        Some(v) => {
            let name = crate::python::args::text(v, "variant", PyValueError::new_err)?;
            Variant::parse(&name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown variant {name:?}: expected one of russian, giveaway, brazilian, diagonal"
                ))
            })?
        }
    };
    Ok(RuleSet::new(variant, captures_optional))
}

pub(crate) fn parse_fen_arg(text: &str) -> PyResult<Position> {
    fen::position_from_fen(text).map_err(|e| FenError::new_err(e.to_string()))
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None, *, variant = None, captures_optional = false))]
    fn new(
        fen: Option<&Bound<'_, PyAny>>,
        variant: Option<&Bound<'_, PyAny>>,
        captures_optional: bool,
    ) -> PyResult<Self> {
        let rules = rules_arg(variant, captures_optional)?;
        let (pos, start_clocks) = match fen {
            Some(text) if !text.is_none() => parse_fen_with_clocks(&fen_text(text)?)?,
            _ => (Position::start_of(rules), (0, 1)),
        };
        Ok(PyBoard {
            pos: pos.with_rules(rules),
            stack: Vec::new(),
            cache: None,
            start_clocks,
        })
    }

    /// The game played: `"russian"`, `"giveaway"`, `"brazilian"` or `"diagonal"`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.rules().variant.name()
    }

    /// Whether a quiet move is legal beside a capture (seed 001's house rule).
    #[getter]
    fn captures_optional(&self) -> bool {
        self.pos.rules().captures_optional
    }

    /// The clocks of the FEN the board was set up from: `(halfmove, fullmove)`, `(0, 1)`
    /// when it gave none.
    #[getter]
    fn _start_clocks(&self) -> (u32, u32) {
        self.start_clocks
    }

    /// Put `piece` on `square` (None empties it); the move stack is cleared. A man on its
    /// own crowning rank is refused (ValueError), the board unchanged.
    #[pyo3(signature = (square, piece))]
    fn set_piece_at(
        &mut self,
        square: &Bound<'_, PyAny>,
        piece: Option<PyRef<'_, PyPiece>>,
    ) -> PyResult<()> {
        let sq = square_arg(square)?;
        let mut setup = self.pos.setup();
        for set in [
            &mut setup.white_men,
            &mut setup.white_kings,
            &mut setup.black_men,
            &mut setup.black_kings,
        ] {
            *set = set.without(sq);
        }
        if let Some(p) = piece {
            let set = match (p.color, p.king) {
                (true, false) => &mut setup.white_men,
                (true, true) => &mut setup.white_kings,
                (false, false) => &mut setup.black_men,
                (false, true) => &mut setup.black_kings,
            };
            *set = set.with(sq);
        }
        self.set_setup(&setup)
    }

    /// Empty `square` and return what stood there (None if nothing); the stack is cleared.
    fn remove_piece_at(&mut self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let piece = self.piece_at(square)?;
        if piece.is_some() {
            self.set_piece_at(square, None)?;
        }
        Ok(piece)
    }

    /// Take every piece off (White to move) and clear the stack.
    fn clear(&mut self) -> PyResult<()> {
        let setup = crate::Setup {
            turn: Some(Color::White),
            ..crate::Setup::default()
        };
        self.set_setup(&setup)
    }

    /// The position turned half round with the colours swapped (White's man on c3 becomes
    /// Black's man on f6) and the other side to move: the same game seen from the other
    /// side (same perft). A new board without a move stack.
    fn mirror<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let new = slf.get_type().call0()?;
        {
            let me = slf.borrow();
            let mirrored = me.pos.mirrored().setup();
            let other = new.cast::<PyBoard>()?;
            let mut other = other.borrow_mut();
            other.pos = other.pos.with_rules(me.pos.rules());
            other.set_setup(&mirrored)?;
        }
        Ok(new)
    }

    /// A board set up from a FEN (numeric or algebraic squares, ranges, `[FEN "…"]`,
    /// lidraughts' `:H0:F1` suffix).
    #[classmethod]
    fn from_fen<'py>(
        cls: &Bound<'py, PyType>,
        fen: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        parse_fen_arg(&fen_text(fen)?)?;
        cls.call1((fen,))
    }

    /// The position as a PDN FEN.
    #[pyo3(signature = (notation = None))]
    fn fen(&self, notation: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => Notation::Numeric,
        };
        Ok(fen::write_fen(&self.pos, notation))
    }

    /// Set up a FEN and clear the move stack; on a bad FEN the board is unchanged.
    fn set_fen(&mut self, fen: &Bound<'_, PyAny>) -> PyResult<()> {
        let (pos, clocks) = parse_fen_with_clocks(&fen_text(fen)?)?;
        self.set_position(pos.with_rules(self.pos.rules()));
        self.start_clocks = clocks;
        self.stack.clear();
        Ok(())
    }

    /// The side to move: `True` (WHITE) or `False` (BLACK).
    #[getter]
    fn turn(&self) -> bool {
        color_bool(self.pos.turn())
    }

    /// The Zobrist hash of the position.
    fn zobrist_hash(&self) -> u64 {
        self.pos.hash()
    }

    /// The legal moves: a live view (len, iteration, `in`, indexing, bool).
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> LegalMoves {
        LegalMoves {
            board: slf.clone().unbind(),
        }
    }

    /// Whether the side to move must capture.
    fn has_captures(&self) -> bool {
        self.pos.has_captures()
    }

    /// Whether `move` is legal here.
    fn is_legal(&mut self, r#move: PyRef<'_, PyMove>) -> bool {
        let m = r#move.inner;
        self.moves().contains(&m)
    }

    /// Play a legal move; raises IllegalMoveError (board unchanged) otherwise.
    fn push(&mut self, r#move: PyRef<'_, PyMove>) -> PyResult<()> {
        let m = r#move.inner;
        let found = self.moves().iter().find(|l| **l == m).copied();
        match found {
            Some(legal) => {
                // Keep the caller's path when it is a valid order of the same capture.
                let played = if legal.path() == m.path() { m } else { legal };
                let mut next = self.pos;
                next.play_unchecked(&played);
                self.stack.push((self.pos, played));
                self.set_position(next);
                Ok(())
            }
            None => Err(IllegalMoveError::new_err(format!(
                "illegal move {}: {}",
                m.long_text(),
                notation::explain_illegal(&self.pos, m.from(), m.to())
            ))),
        }
    }

    /// Undo the last move and return it; IndexError when there is none.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        match self.stack.pop() {
            Some((prev, m)) => {
                self.set_position(prev);
                wrap(py, m)
            }
            None => Err(PyIndexError::new_err(
                "pop from a board with no moves played",
            )),
        }
    }

    /// The last move played; IndexError when there is none.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        match self.stack.last() {
            Some((_, m)) => wrap(py, *m),
            None => Err(PyIndexError::new_err(
                "peek at a board with no moves played",
            )),
        }
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Py<PyMove>> = self
            .stack
            .iter()
            .map(|(_, m)| wrap(py, *m))
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// The move denoted by `text`: `c3-d4`, `e3:c5:e7`, `e3xe7`, `22-18`, `22x15`.
    /// Raises InvalidMoveError, IllegalMoveError or AmbiguousMoveError.
    fn parse_move(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let text = move_text_arg(text)?;
        let m = notation::parse_move(&self.pos, &text).map_err(move_text_err)?;
        wrap(py, m)
    }

    /// Parse `text`, play it and return the move.
    fn push_move(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let text = move_text_arg(text)?;
        let m = notation::parse_move(&self.pos, &text).map_err(move_text_err)?;
        let mut next = self.pos;
        next.play_unchecked(&m);
        self.stack.push((self.pos, m));
        self.set_position(next);
        wrap(py, m)
    }

    /// Parse and play move texts in order, stopping at the first that fails: the moves
    /// played and the exception of the one that failed (None when all were played). For
    /// readers of long move lists (PDN): one call instead of one a move.
    fn _push_move_texts<'py>(
        &mut self,
        py: Python<'py>,
        texts: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<PushedMoves> {
        let mut played = Vec::with_capacity(texts.len());
        for text in &texts {
            let parsed = move_text_arg(text)
                .and_then(|t| notation::parse_move(&self.pos, &t).map_err(move_text_err));
            match parsed {
                Ok(m) => {
                    let mut next = self.pos;
                    next.play_unchecked(&m);
                    self.stack.push((self.pos, m));
                    self.set_position(next);
                    played.push(wrap(py, m)?);
                }
                Err(e) => return Ok((played, Some(e.into_value(py).into_any()))),
            }
        }
        Ok((played, None))
    }

    /// PDN text of a legal move: short form (begin and end square) unless another legal
    /// capture shares both, or `long` is true.
    #[pyo3(signature = (r#move, notation = None, long = false))]
    fn move_text(
        &mut self,
        r#move: PyRef<'_, PyMove>,
        notation: Option<&Bound<'_, PyAny>>,
        long: bool,
    ) -> PyResult<String> {
        let m = r#move.inner;
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => Notation::Algebraic,
        };
        if !self.moves().contains(&m) {
            return Err(IllegalMoveError::new_err(format!(
                "illegal move {}: {}",
                m.long_text(),
                notation::explain_illegal(&self.pos, m.from(), m.to())
            )));
        }
        Ok(notation::move_text(&self.pos, &m, notation, long))
    }

    /// The piece on `square`, or None.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let sq = square_arg(square)?;
        Ok(self.pos.piece_at(sq).map(|p| PyPiece {
            color: color_bool(p.color),
            king: p.role == Role::King,
        }))
    }

    /// What the draw rules look at, in one call: `(zobrist hash, turn, white men, white
    /// kings, black men, black kings, white kings on the main road, black kings on it)`.
    fn _draw_snapshot(&self) -> (u64, bool, u32, u32, u32, u32, u32, u32) {
        let road: crate::Bitboard = [0, 4, 9, 13, 18, 22, 27, 31]
            .into_iter()
            .filter_map(Square::new)
            .collect();
        let p = &self.pos;
        (
            p.hash(),
            color_bool(p.turn()),
            p.men(Color::White).count(),
            p.kings(Color::White).count(),
            p.men(Color::Black).count(),
            p.kings(Color::Black).count(),
            (p.kings(Color::White) & road).count(),
            (p.kings(Color::Black) & road).count(),
        )
    }

    /// The squares of `color`'s pieces; `king=True` for kings only, `False` for men only.
    #[pyo3(signature = (color, king = None))]
    fn pieces(&self, color: bool, king: Option<bool>) -> Vec<usize> {
        let c = if color { Color::White } else { Color::Black };
        let set = match king {
            None => self.pos.pieces(c),
            Some(true) => self.pos.kings(c),
            Some(false) => self.pos.men(c),
        };
        set.iter().map(Square::index).collect()
    }

    /// A copy; `stack=False` leaves out the move history.
    #[pyo3(signature = (*, stack = true))]
    fn copy<'py>(slf: &Bound<'py, Self>, stack: bool) -> PyResult<Bound<'py, PyAny>> {
        let new = slf.get_type().call0()?;
        {
            let me = slf.borrow();
            let other = new.cast::<PyBoard>()?;
            let mut other = other.borrow_mut();
            other.pos = me.pos;
            other.cache = me.cache.clone();
            other.stack = if stack { me.stack.clone() } else { Vec::new() };
            other.start_clocks = if stack { me.start_clocks } else { (0, 1) };
        }
        Ok(new)
    }

    /// Take `other`'s position, clocks and (with `stack`) move stack.
    #[pyo3(signature = (other, stack = true))]
    fn _copy_from(&mut self, other: PyRef<'_, PyBoard>, stack: bool) {
        self.pos = other.pos;
        self.cache = other.cache.clone();
        self.stack = if stack {
            other.stack.clone()
        } else {
            Vec::new()
        };
        self.start_clocks = if stack { other.start_clocks } else { (0, 1) };
    }

    /// Same position and side to move (the histories are not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyBoard>() {
            Ok(o) => o.borrow().pos == self.pos,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        self.pos.hash()
    }

    fn __str__(&self) -> String {
        diagram(&self.pos)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let name = slf.get_type().name()?;
        let me = slf.borrow();
        let rules = me.pos.rules();
        let mut extra = String::new();
        if rules.variant != Variant::Russian {
            extra.push_str(&format!(", variant='{}'", rules.variant.name()));
        }
        if rules.captures_optional {
            extra.push_str(", captures_optional=True");
        }
        Ok(format!(
            "{}('{}'{})",
            name,
            fen::write_fen(&me.pos, Notation::Numeric),
            extra
        ))
    }
}

/// ASCII board, White at the bottom.
fn diagram(pos: &Position) -> String {
    let mut out = String::with_capacity(220);
    out.push_str("  +-----------------+\n");
    for rank in (0..8u8).rev() {
        out.push((b'1' + rank) as char);
        out.push_str(" |");
        for file in 0..8u8 {
            out.push(' ');
            out.push(match Square::from_coords(file, rank) {
                None => ' ',
                Some(sq) => pos.piece_at(sq).map(|p| p.char()).unwrap_or('.'),
            });
        }
        out.push_str(" |\n");
    }
    out.push_str("  +-----------------+\n    a b c d e f g h");
    out
}

/// The live list of legal moves of a board.
#[pyclass(module = "shashki", name = "LegalMoves")]
pub struct LegalMoves {
    board: Py<PyBoard>,
}

impl LegalMoves {
    fn list<'py>(&self, py: Python<'py>) -> PyResult<Vec<Py<PyMove>>> {
        let mut b = self.board.bind(py).borrow_mut();
        b.moves()
            .to_vec()
            .into_iter()
            .map(|m| wrap(py, m))
            .collect()
    }
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.board.bind(py).borrow_mut().moves().len()
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        !self.board.bind(py).borrow_mut().moves().is_empty()
    }

    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> bool {
        match item.cast::<PyMove>() {
            Ok(m) => {
                let m = m.get().inner;
                self.board.bind(py).borrow_mut().moves().contains(&m)
            }
            Err(_) => false,
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.list(py)?)?
            .try_iter()
            .map(|i| i.into_any())
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let index = args::int_in(
            index,
            "legal move index",
            isize::MIN as i64,
            isize::MAX as i64,
            PyIndexError::new_err,
        );
        let mut b = self.board.bind(py).borrow_mut();
        let moves = b.moves();
        let n = moves.len() as isize;
        let index = match index {
            Ok(i) => i as isize,
            Err(e) if e.is_instance_of::<PyIndexError>(py) => {
                return Err(PyIndexError::new_err(format!(
                    "legal move index out of range ({n} legal moves)"
                )))
            }
            Err(e) => return Err(e),
        };
        let i = if index < 0 { index + n } else { index };
        if i < 0 || i >= n {
            return Err(PyIndexError::new_err(format!(
                "legal move index {index} out of range ({n} legal moves)"
            )));
        }
        wrap(py, moves[i as usize])
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let mut b = self.board.bind(py).borrow_mut();
        let texts: Vec<String> = b.moves().iter().map(CoreMove::long_text).collect();
        format!("<LegalMoves ({})>", texts.join(", "))
    }
}

/// Algebraic name of a square index: `square_name(9) == "c3"`.
#[pyfunction]
fn square_name(square: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(square_arg(square)?.name())
}

/// PDN number (1–32) of a square index: `square_number(9) == 22`.
#[pyfunction]
fn square_number(square: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(square_arg(square)?.pdn())
}

/// Square index of a name (`"c3"`) or PDN number (`"22"`); SquareError otherwise.
#[pyfunction]
fn parse_square(text: &Bound<'_, PyAny>) -> PyResult<usize> {
    let text = args::text(text, "square", SquareError::new_err)?;
    Square::parse(&text)
        .map(Square::index)
        .map_err(|e| SquareError::new_err(e.to_string()))
}

/// Square index of a PDN number (1–32).
#[pyfunction]
fn square_from_number(number: &Bound<'_, PyAny>) -> PyResult<usize> {
    let number = args::int_in(number, "square number", 1, 32, SquareError::new_err)?;
    u32::try_from(number)
        .ok()
        .and_then(Square::from_pdn)
        .map(Square::index)
        .ok_or_else(|| SquareError::new_err(format!("square number {number} is not within 1..32")))
}

fn perft_options(
    distinct: bool,
    threads: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    key_seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PerftOptions> {
    let threads = args::opt_int_in(threads, "threads", 1, 1024)?.map(|n| n as usize);
    let hash_mb = args::opt_int_in(hash_mb, "hash_mb", 0, 65536)?.unwrap_or(0);
    let key_seed = args::opt_int_in(key_seed, "key_seed", 0, i64::MAX)?.unwrap_or(0);
    Ok(PerftOptions {
        key_seed: key_seed as u64,
        counting: if distinct {
            Counting::Distinct
        } else {
            Counting::Orders
        },
        threads,
        hash_mb: hash_mb as usize,
    })
}

/// Perfts this shallow take milliseconds at most: they run on the calling thread (a worker
/// thread watching for Ctrl-C would cost more than the count).
const INLINE_PERFT_DEPTH: u32 = 4;

fn depth_arg(depth: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(args::int_in(depth, "depth", 0, 63, PyValueError::new_err)? as u32)
}

/// Leaves of the move tree `depth` plies deep. `distinct=False` counts capture orders
/// separately (convention B). `hash_mb` MiB of table (each count kept under a 128-bit key:
/// the Zobrist hash and a second hash seeded by `key_seed`). Runs without the GIL; Ctrl-C
/// interrupts it (KeyboardInterrupt); MemoryError when the table does not fit in memory.
#[pyfunction]
#[pyo3(signature = (board, depth, *, distinct = true, threads = None, hash_mb = None,
                    key_seed = None))]
fn perft(
    py: Python<'_>,
    board: PyRef<'_, PyBoard>,
    depth: &Bound<'_, PyAny>,
    distinct: bool,
    threads: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    key_seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let options = perft_options(distinct, threads, hash_mb, key_seed)?;
    let depth = depth_arg(depth)?;
    let pos = board.pos;
    drop(board);
    let stop = AtomicBool::new(false);
    let count = if depth <= INLINE_PERFT_DEPTH {
        py.detach(|| crate::perft_until(&pos, depth, &options, None))
    } else {
        args::interruptible(py, &stop, || {
            crate::perft_until(&pos, depth, &options, Some(&stop))
        })?
    };
    count.map_err(|e| PyMemoryError::new_err(e.to_string()))
}

/// Perft of many positions (FENs) sharing one hash table: a count for each, `depth` plies
/// below it. For splitting a deep perft into sub-positions (`shashki.distributed`). Runs
/// without the GIL; Ctrl-C interrupts it.
#[pyfunction]
#[pyo3(signature = (fens, depth, *, distinct = true, threads = None, hash_mb = None,
                    key_seed = None, table = None, variant = None, captures_optional = false))]
#[allow(clippy::too_many_arguments)]
fn perft_many(
    py: Python<'_>,
    fens: Vec<Bound<'_, PyAny>>,
    depth: &Bound<'_, PyAny>,
    distinct: bool,
    threads: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    key_seed: Option<&Bound<'_, PyAny>>,
    table: Option<PyRef<'_, PyPerftTable>>,
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
) -> PyResult<Vec<u64>> {
    let options = perft_options(distinct, threads, hash_mb, key_seed)?;
    let depth = depth_arg(depth)?;
    let rules = rules_arg(variant, captures_optional)?;
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Ok(parse_fen_arg(&fen_text(f)?)?.with_rules(rules)))
        .collect::<PyResult<_>>()?;
    let stop = AtomicBool::new(false);
    if let Some(table) = table {
        if table.table.counting() != options.counting {
            return Err(PyValueError::new_err(
                "this table holds counts of the other convention",
            ));
        }
        let shared = std::sync::Arc::clone(&table.table);
        return args::interruptible(py, &stop, || {
            crate::perft_batch_in(&shared, &positions, depth, options.threads, Some(&stop))
        });
    }
    args::interruptible(py, &stop, || {
        crate::perft_batch(&positions, depth, &options, Some(&stop))
    })?
    .map_err(|e| PyMemoryError::new_err(e.to_string()))
}

/// A perft hash table kept between calls of `perft_many` (one counting convention).
#[pyclass(module = "shashki._core", name = "PerftTable", frozen)]
pub struct PyPerftTable {
    table: std::sync::Arc<crate::PerftTable>,
}

#[pymethods]
impl PyPerftTable {
    #[new]
    #[pyo3(signature = (hash_mb, *, distinct = true, key_seed = None, shared = None))]
    fn new(
        py: Python<'_>,
        hash_mb: &Bound<'_, PyAny>,
        distinct: bool,
        key_seed: Option<&Bound<'_, PyAny>>,
        shared: Option<std::path::PathBuf>,
    ) -> PyResult<Self> {
        let mb = args::int_in(hash_mb, "hash_mb", 1, 65536, PyValueError::new_err)? as usize;
        let seed = args::opt_int_in(key_seed, "key_seed", 0, i64::MAX)?.unwrap_or(0) as u64;
        let counting = if distinct {
            Counting::Distinct
        } else {
            Counting::Orders
        };
        if let Some(path) = shared {
            #[cfg(unix)]
            {
                let table = py
                    .detach(|| crate::PerftTable::shared(&path, mb, seed, counting))
                    .map_err(|e| {
                        pyo3::exceptions::PyOSError::new_err(format!(
                            "cannot share the perft table {}: {e}",
                            path.display()
                        ))
                    })?;
                return Ok(PyPerftTable {
                    table: std::sync::Arc::new(table),
                });
            }
            #[cfg(not(unix))]
            return Err(pyo3::exceptions::PyOSError::new_err(format!(
                "cannot share the perft table {}: shared tables need a Unix system",
                path.display()
            )));
        }
        let table = py
            .detach(|| crate::PerftTable::new(mb, seed, counting))
            .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
        Ok(PyPerftTable {
            table: std::sync::Arc::new(table),
        })
    }
}

/// Leaves below each legal move: `{move text: count}` (texts with every landing square).
#[pyfunction]
#[pyo3(signature = (board, depth, *, distinct = true, threads = None, hash_mb = None,
                    key_seed = None))]
fn perft_divide_py<'py>(
    py: Python<'py>,
    board: PyRef<'_, PyBoard>,
    depth: &Bound<'_, PyAny>,
    distinct: bool,
    threads: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    key_seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let options = perft_options(distinct, threads, hash_mb, key_seed)?;
    let depth = depth_arg(depth)?;
    let pos = board.pos;
    drop(board);
    let stop = AtomicBool::new(false);
    let entries = if depth <= INLINE_PERFT_DEPTH {
        py.detach(|| perft_divide(&pos, depth.max(1), &options, None, |_| {}))
    } else {
        args::interruptible(py, &stop, || {
            perft_divide(&pos, depth.max(1), &options, Some(&stop), |_| {})
        })?
    }
    .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    let out = PyDict::new(py);
    for e in entries {
        let count = if depth == 0 { 1 } else { e.count };
        let key = e.mv.long_text();
        let prev: u64 = match out.get_item(&key)? {
            Some(v) => v.extract()?,
            None => 0,
        };
        out.set_item(key, prev + count)?;
    }
    Ok(out)
}

/// The learned evaluation's features of each FEN, as little-endian float32 rows of
/// `2 * EVAL_SIDE_FEATURES` (middle-game share, then endgame share): for the training command.
#[pyfunction]
fn eval_features<'py>(
    py: Python<'py>,
    fens: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let mut out = Vec::with_capacity(fens.len() * crate::search::learned::FEATURES * 4);
    for fen in &fens {
        let pos = parse_fen_arg(&fen_text(fen)?)?;
        for value in crate::search::learned::features(&pos) {
            out.extend_from_slice(&value.to_le_bytes());
        }
    }
    Ok(pyo3::types::PyBytes::new(py, &out))
}

/// The learned evaluation's pattern indices of each FEN, as little-endian u16 rows of
/// `2 * EVAL_REGIONS` (the side to move's regions, then the opponent's).
#[pyfunction]
fn eval_patterns<'py>(
    py: Python<'py>,
    fens: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let mut out = Vec::with_capacity(fens.len() * 2 * crate::search::learned::REGIONS * 2);
    for fen in &fens {
        let pos = parse_fen_arg(&fen_text(fen)?)?;
        for value in crate::search::learned::patterns(&pos) {
            out.extend_from_slice(&value.to_le_bytes());
        }
    }
    Ok(pyo3::types::PyBytes::new(py, &out))
}

/// The static evaluation (`"classic"` or `"learned"`) of each FEN, centi-men, side to move's view.
#[pyfunction]
fn evaluate_fens(fens: Vec<Bound<'_, PyAny>>, kind: &str) -> PyResult<Vec<i32>> {
    let kind = crate::search::Evaluation::parse(kind).ok_or_else(|| {
        PyValueError::new_err(format!("kind must be 'learned' or 'classic', not {kind:?}"))
    })?;
    fens.iter()
        .map(|f| {
            Ok(crate::search::evaluate_with(
                &parse_fen_arg(&fen_text(f)?)?,
                kind,
            ))
        })
        .collect()
}

/// Whether material alone decides each FEN's evaluation (known endings).
#[pyfunction]
fn eval_known_endings(fens: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<bool>> {
    fens.iter()
        .map(|f| Ok(crate::search::known_ending(&parse_fen_arg(&fen_text(f)?)?)))
        .collect()
}

/// The name of a side feature of the learned evaluation.
#[pyfunction]
fn eval_feature_name(index: usize) -> String {
    crate::search::learned::feature_name(index)
}

/// The learned evaluation's weights as compiled: `(middle game, endgame, patterns)`, in
/// 1/16 centi-men.
#[pyfunction]
fn eval_weights() -> (Vec<i32>, Vec<i32>, Vec<i16>) {
    crate::search::learned::weights()
}

/// FNV-1a of the compiled learned weights (see `shashki.train.weights_checksum`).
#[pyfunction]
fn eval_weights_checksum() -> u64 {
    crate::search::learned::weights_checksum()
}

/// The classic evaluation's hand-set weights.
#[pyfunction]
fn classic_weights(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let w = crate::search::WEIGHTS;
    let d = PyDict::new(py);
    d.set_item("man", w.man)?;
    d.set_item("king", w.king)?;
    d.set_item("advancement", w.advancement.to_vec())?;
    d.set_item("center", w.center)?;
    d.set_item("back_rank", w.back_rank)?;
    d.set_item("king_main_road", w.king_main_road)?;
    d.set_item("about_to_crown", w.about_to_crown)?;
    d.set_item("mobility", w.mobility)?;
    Ok(d)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyBoard>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyPiece>()?;
    m.add_class::<LegalMoves>()?;
    m.add_class::<engine::PySearchEngine>()?;
    m.add_class::<egtb::PyEndgameTables>()?;
    m.add_function(wrap_pyfunction!(egtb::build_endgame_tables, m)?)?;
    m.add_function(wrap_pyfunction!(square_name, m)?)?;
    m.add_function(wrap_pyfunction!(square_number, m)?)?;
    m.add_function(wrap_pyfunction!(parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(square_from_number, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(perft_many, m)?)?;
    m.add_function(wrap_pyfunction!(eval_features, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_fens, m)?)?;
    m.add_function(wrap_pyfunction!(eval_patterns, m)?)?;
    m.add_function(wrap_pyfunction!(eval_known_endings, m)?)?;
    m.add("EVAL_REGIONS", crate::search::learned::REGIONS)?;
    m.add("EVAL_REGION_KEYS", crate::search::learned::REGION_KEYS)?;
    m.add_function(wrap_pyfunction!(eval_feature_name, m)?)?;
    m.add_function(wrap_pyfunction!(eval_weights, m)?)?;
    m.add_function(wrap_pyfunction!(eval_weights_checksum, m)?)?;
    m.add(
        "EVAL_WEIGHTS_CHECKSUM",
        crate::search::learned::WEIGHTS_CHECKSUM,
    )?;
    m.add_function(wrap_pyfunction!(classic_weights, m)?)?;
    m.add("EVAL_SIDE_FEATURES", crate::search::learned::SIDE_FEATURES)?;
    m.add_class::<PyPerftTable>()?;
    m.add("perft_divide", wrap_pyfunction!(perft_divide_py, m)?)?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("SquareError", py.get_type::<SquareError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    Ok(())
}
