//! `shashki._core`: thin PyO3 wrappers over the Rust core. No rules live here.

mod args;
mod batch;
mod board;
mod egtb;
mod engine;

pub(crate) use board::{parse_fen_arg, rules_arg, LegalMoves, PyBoard, PyDrawRules};

use std::sync::atomic::AtomicBool;

use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PyTuple};

use crate::notation::MoveTextError;
use crate::{
    perft_divide, Color, Counting, Move as CoreMove, Notation, PerftOptions, Position, Square,
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

pub(crate) fn move_text_err(e: MoveTextError) -> PyErr {
    match e {
        MoveTextError::Invalid(_) => InvalidMoveError::new_err(e.to_string()),
        MoveTextError::Illegal(_) => IllegalMoveError::new_err(e.to_string()),
        MoveTextError::Ambiguous(..) => AmbiguousMoveError::new_err(e.to_string()),
    }
}

pub(crate) fn square_arg(sq: &Bound<'_, PyAny>) -> PyResult<Square> {
    let index = args::int_in(sq, "square index", 0, 31, SquareError::new_err)?;
    u32::try_from(index)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| SquareError::new_err(format!("square index {index} is not within 0..31")))
}

pub(crate) fn fen_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    args::text(obj, "FEN", FenError::new_err)
}

pub(crate) fn move_text_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    args::text(obj, "move text", InvalidMoveError::new_err)
}

pub(crate) fn notation_arg(notation: &Bound<'_, PyAny>) -> PyResult<Notation> {
    let notation = args::text(notation, "notation", PyValueError::new_err)?;
    match notation.as_str() {
        "numeric" => Ok(Notation::Numeric),
        "algebraic" => Ok(Notation::Algebraic),
        other => Err(PyValueError::new_err(format!(
            "notation must be 'numeric' or 'algebraic', not {other:?}"
        ))),
    }
}

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
    let pos = board.position();
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
    let pos = board.position();
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
    m.add_class::<PyDrawRules>()?;
    m.add_class::<batch::PyBatchBoards>()?;
    m.add_function(wrap_pyfunction!(batch::playouts, m)?)?;
    m.add_function(wrap_pyfunction!(batch::move_actions, m)?)?;
    m.add_function(wrap_pyfunction!(batch::search_positions, m)?)?;
    m.add("BATCH_ACTIONS", crate::batch::ACTIONS)?;
    m.add("BATCH_PLANES", crate::batch::PLANES)?;
    m.add(
        "MAIN_ROAD",
        crate::Bitboard::MAIN_ROAD
            .iter()
            .map(|sq| sq.index())
            .collect::<Vec<_>>(),
    )?;
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
