//! `shashki._core.SearchEngine`: the Rust search, run without the GIL.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::args::{interruptible, opt_int_in};
use super::board::BoardWord;
use super::moves::PyWord;
use super::{wrap, PyBoard, PyDrawRules};
use crate::search::{Engine, Info, Limits, Score, SearchWord, MAX_MOVE_OVERHEAD};
use crate::Board as CoreBoard;

type SearchOutput<'py> = (
    Option<Py<super::PyMove>>,
    Option<Py<super::PyMove>>,
    Bound<'py, PyDict>,
);

/// The search engine: a transposition table and threads. Searches may run at once from
/// several Python threads, each with its own stop flag and limits; `stop()` stops all of
/// them.
#[pyclass(module = "shashki._core", name = "SearchEngine", frozen)]
pub struct PySearchEngine {
    engine: Engine,
}

/// The longest time a limit may give: a year.
pub(crate) const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

fn seconds(name: &str, value: Option<f64>) -> PyResult<Option<Duration>> {
    match value {
        None => Ok(None),
        Some(v) if (0.0..=MAX_SECONDS).contains(&v) => Ok(Some(Duration::from_secs_f64(v))),
        Some(v) => Err(PyValueError::new_err(format!(
            "{name} must be between 0 and {MAX_SECONDS} seconds, not {v}"
        ))),
    }
}

fn info_dict<'py, W: PyWord>(
    py: Python<'py>,
    info: &Info<W>,
    variant: crate::Variant,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", info.depth)?;
    d.set_item("seldepth", info.seldepth)?;
    match info.score {
        Score::Value(v) => d.set_item("score", ("cp", v))?,
        Score::Win(n) => d.set_item("score", ("win", n))?,
    }
    d.set_item("nodes", info.nodes)?;
    d.set_item("nps", info.nps)?;
    d.set_item("time", info.time.as_secs_f64())?;
    let pv: Vec<_> = info
        .pv
        .iter()
        .map(|m| wrap(py, *m, variant))
        .collect::<PyResult<_>>()?;
    d.set_item("pv", PyList::new(py, pv)?)?;
    d.set_item("multipv", info.multipv)?;
    Ok(d)
}

/// An evaluation by name: `"learned"`, `"classic"`, `"family"` or `"network"`, or the path
/// of a network file (ValueError otherwise, naming what was wrong).
pub(crate) fn evaluation_arg(name: &str) -> PyResult<crate::search::Evaluation> {
    if let Some(kind) = crate::search::Evaluation::parse(name) {
        return Ok(kind);
    }
    if std::path::Path::new(name).is_file() {
        return crate::eval::Evaluation::load(name).map_err(|e| PyValueError::new_err(e.0));
    }
    Err(PyValueError::new_err(format!(
        "evaluation must be 'learned', 'classic', 'family', 'network' or a network file, \
         not {name:?}"
    )))
}

#[pymethods]
impl PySearchEngine {
    /// `hash_mb` MiB of table (1–65536; MemoryError when the machine does not have it
    /// free), `threads` search threads (1–256).
    #[new]
    #[pyo3(signature = (hash_mb = None, threads = None))]
    fn new(
        py: Python<'_>,
        hash_mb: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let hash_mb = opt_int_in(hash_mb, "hash_mb", 1, 65536)?.unwrap_or(64);
        let threads = opt_int_in(threads, "threads", 1, 256)?.unwrap_or(1);
        let engine = py
            .detach(|| Engine::new(hash_mb as usize, threads as usize))
            .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
        Ok(PySearchEngine { engine })
    }

    /// Search the board's position: its history counts for repetitions and the draw rules'
    /// clocks, `draw_rules` (none: repetition only) are applied in the tree. Returns
    /// `(best, ponder, info)`; `info["lines"]` holds the `multipv` best lines (1–256,
    /// searched together), best first, each info with its `multipv` index. `ponder`: the
    /// time limits wait for `ponderhit()`, and the answer for it or a stop.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None,
                        time_left = None, increment = None, moves_to_go = None, on_info = None,
                        root_moves = None, draw_rules = None, multipv = None, ponder = false))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'_, PyBoard>,
        depth: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
        movetime: Option<f64>,
        time_left: Option<f64>,
        increment: Option<f64>,
        moves_to_go: Option<&Bound<'py, PyAny>>,
        on_info: Option<Py<PyAny>>,
        root_moves: Option<Vec<PyRef<'py, super::PyMove>>>,
        draw_rules: Option<PyRef<'py, PyDrawRules>>,
        multipv: Option<&Bound<'py, PyAny>>,
        ponder: bool,
    ) -> PyResult<SearchOutput<'py>> {
        let multipv = opt_int_in(multipv, "multipv", 1, 256)?.unwrap_or(1) as usize;
        let draw_rules = draw_rules.map(|r| r.rules.clone()).unwrap_or_default();
        let depth = opt_int_in(depth, "depth", 1, 120)?.map(|d| d as u32);
        let nodes = opt_int_in(nodes, "nodes", 1, i64::MAX)?.map(|n| n as u64);
        let moves_to_go = opt_int_in(moves_to_go, "moves_to_go", 1, 1000)?.map(|n| n as u32);
        // The limits without root moves (they are in the board's word, set below).
        let limits = Limits {
            depth,
            nodes,
            movetime: seconds("movetime", movetime)?,
            time_left: seconds("time_left", time_left)?,
            increment: seconds("increment", increment)?.unwrap_or_default(),
            moves_to_go,
            draw_rules,
            multipv,
            ponder,
            ..Limits::default()
        };
        let root_moves = root_moves.unwrap_or_default();
        if let Ok(core) = board.core_in::<u128>("Engine.search") {
            let core = core.clone();
            drop(board);
            self.run(py, core, &root_moves, limits, on_info)
        } else {
            let core = board.core("Engine.search")?.clone();
            drop(board);
            self.run(py, core, &root_moves, limits, on_info)
        }
    }

    /// The expected reply was played: every pondering search goes on as a normal one, its
    /// time counted from its start; given any of the times, under them (the clock now)
    /// instead of its own. Returns how many searches it reached.
    #[pyo3(signature = (*, movetime = None, time_left = None, increment = None,
                        moves_to_go = None))]
    fn ponderhit(
        &self,
        movetime: Option<f64>,
        time_left: Option<f64>,
        increment: Option<f64>,
        moves_to_go: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let moves_to_go = opt_int_in(moves_to_go, "moves_to_go", 1, 1000)?.map(|n| n as u32);
        let times = movetime.is_some() || time_left.is_some();
        let limits = Limits {
            movetime: seconds("movetime", movetime)?,
            time_left: seconds("time_left", time_left)?,
            increment: seconds("increment", increment)?.unwrap_or_default(),
            moves_to_go,
            ..Limits::default()
        };
        Ok(self.engine.ponderhit(times.then_some(&limits)))
    }

    /// Use endgame tables in the searches that start from now on (None: none).
    #[pyo3(signature = (tables))]
    fn set_endgame_tables(&self, tables: Option<PyRef<'_, super::egtb::PyEndgameTables>>) {
        self.engine
            .set_endgame_tables(tables.map(|t| std::sync::Arc::clone(&t.tables)));
    }

    /// The time in seconds a move is assumed to lose outside the search (0 to 5; 0.005 by
    /// default): under a clock, the search keeps this much a move to go in reserve.
    fn set_move_overhead(&self, seconds: f64) -> PyResult<()> {
        let most = MAX_MOVE_OVERHEAD.as_secs_f64();
        if !(0.0..=most).contains(&seconds) {
            return Err(PyValueError::new_err(format!(
                "move_overhead must be between 0 and {most} seconds, not {seconds}"
            )));
        }
        self.engine
            .set_move_overhead(Duration::from_secs_f64(seconds));
        Ok(())
    }

    /// The move overhead in seconds.
    #[getter]
    fn move_overhead(&self) -> f64 {
        self.engine.move_overhead().as_secs_f64()
    }

    /// The evaluation of the searches that start from now on: `"learned"` (the default;
    /// English and Italian draughts' networks there), `"classic"`, `"family"`, `"network"` or a
    /// network file.
    fn set_evaluation(&self, name: &str) -> PyResult<()> {
        self.engine.set_evaluation(evaluation_arg(name)?);
        Ok(())
    }

    /// The evaluation in use: `"learned"`, `"classic"`, `"family"`, `"network"` or a
    /// network file's name.
    #[getter]
    fn evaluation(&self) -> &'static str {
        self.engine.evaluation().name()
    }

    /// Vary the opening moves: while the game's move number is at most `moves`, the move
    /// is chosen at random (from `seed`) among the best lines within `margin` centi-men of
    /// the best; `moves` 0: never.
    #[pyo3(signature = (moves, margin = 20, seed = 0))]
    fn set_variety(&self, moves: u32, margin: i32, seed: u64) -> PyResult<()> {
        if margin < 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "margin must be at least 0, not {margin}"
            )));
        }
        self.engine.set_variety(Some(crate::search::Variety {
            moves,
            margin,
            seed,
        }));
        Ok(())
    }

    /// The opening variety: `(moves, margin, seed)`, or None.
    #[getter]
    fn variety(&self) -> Option<(u32, i32, u64)> {
        self.engine.variety().map(|v| (v.moves, v.margin, v.seed))
    }

    /// Stop every search running on this engine (callable from any thread).
    fn stop(&self) {
        self.engine.stop();
    }

    /// The number of searches running now.
    fn searches_running(&self) -> usize {
        self.engine.searches_running()
    }

    /// Forget the transposition table.
    fn clear(&self) {
        self.engine.clear();
    }
}

impl PySearchEngine {
    /// [`PySearchEngine::search`] of a board in its word `W`: `limits` take the board's
    /// clocks and the root moves (each refused unless legal here).
    fn run<'py, W: SearchWord + BoardWord>(
        &self,
        py: Python<'py>,
        core: CoreBoard<W>,
        root_moves: &[PyRef<'py, super::PyMove>],
        limits: Limits,
        on_info: Option<Py<PyAny>>,
    ) -> PyResult<SearchOutput<'py>> {
        let pos = *core.position();
        let variant = pos.rules().variant;
        let mut moves = Vec::with_capacity(root_moves.len());
        for m in root_moves {
            match W::from_any(&m.inner).filter(|own| pos.is_legal(own)) {
                Some(own) => moves.push(own),
                None => {
                    return Err(PyValueError::new_err(format!(
                        "root move {} is not legal in this position",
                        m.long_text()
                    )))
                }
            }
        }
        let limits = Limits {
            root_moves: moves,
            clocks: core.clocks(),
            ..limits.in_word::<W>()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut callback_error: Option<PyErr> = None;
        let result = interruptible(py, &stop, || {
            let flag = Arc::clone(&stop);
            self.engine
                .search_board(&core, &limits, Arc::clone(&stop), |info| {
                    if let Some(cb) = &on_info {
                        Python::attach(|py| {
                            let outcome =
                                info_dict(py, info, variant).and_then(|d| cb.call1(py, (d,)));
                            if let Err(e) = outcome {
                                if callback_error.is_none() {
                                    callback_error = Some(e);
                                }
                                flag.store(true, std::sync::atomic::Ordering::Relaxed);
                            }
                        });
                    }
                })
        })?;
        if let Some(e) = callback_error {
            return Err(e);
        }
        let best = result.best.map(|m| wrap(py, m, variant)).transpose()?;
        let ponder = result.ponder.map(|m| wrap(py, m, variant)).transpose()?;
        let info = info_dict(py, &result.info, variant)?;
        let lines: Vec<_> = result
            .lines
            .iter()
            .map(|line| info_dict(py, line, variant))
            .collect::<PyResult<_>>()?;
        info.set_item("lines", PyList::new(py, lines)?)?;
        Ok((best, ponder, info))
    }
}
