//! `shashki._core.SearchEngine`: the Rust search, run without the GIL.

use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::{wrap, PyBoard};
use crate::search::{Engine, Info, Limits, Score};

type SearchOutput<'py> = (
    Option<Py<super::PyMove>>,
    Option<Py<super::PyMove>>,
    Bound<'py, PyDict>,
);

/// The search engine: transposition table, threads, stop flag.
#[pyclass(module = "shashki._core", name = "SearchEngine", frozen)]
pub struct PySearchEngine {
    engine: Engine,
}

fn seconds(name: &str, value: Option<f64>) -> PyResult<Option<Duration>> {
    match value {
        None => Ok(None),
        Some(v) if (0.0..1e9).contains(&v) => Ok(Some(Duration::from_secs_f64(v))),
        Some(v) => Err(PyValueError::new_err(format!(
            "{name} must be a non-negative number of seconds, not {v}"
        ))),
    }
}

fn info_dict<'py>(py: Python<'py>, info: &Info) -> PyResult<Bound<'py, PyDict>> {
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
        .map(|m| wrap(py, *m))
        .collect::<PyResult<_>>()?;
    d.set_item("pv", PyList::new(py, pv)?)?;
    Ok(d)
}

#[pymethods]
impl PySearchEngine {
    #[new]
    #[pyo3(signature = (hash_mb = 64, threads = 1))]
    fn new(hash_mb: i64, threads: i64) -> PyResult<Self> {
        if !(1..=65536).contains(&hash_mb) {
            return Err(PyValueError::new_err(format!(
                "hash_mb must be between 1 and 65536, not {hash_mb}"
            )));
        }
        if !(1..=256).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads must be between 1 and 256, not {threads}"
            )));
        }
        Ok(PySearchEngine {
            engine: Engine::new(hash_mb as usize, threads as usize),
        })
    }

    /// Search the board's position. `history` lists the hashes of the earlier positions of
    /// the game (oldest first). Returns `(best, ponder, info)`.
    #[pyo3(signature = (board, history, *, depth = None, nodes = None, movetime = None,
                        time_left = None, increment = None, moves_to_go = None, on_info = None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'_, PyBoard>,
        history: Vec<u64>,
        depth: Option<i64>,
        nodes: Option<i64>,
        movetime: Option<f64>,
        time_left: Option<f64>,
        increment: Option<f64>,
        moves_to_go: Option<i64>,
        on_info: Option<Py<PyAny>>,
    ) -> PyResult<SearchOutput<'py>> {
        let depth = match depth {
            None => None,
            Some(d) if (1..=120).contains(&d) => Some(d as u32),
            Some(d) => {
                return Err(PyValueError::new_err(format!(
                    "depth must be between 1 and 120, not {d}"
                )))
            }
        };
        let nodes = match nodes {
            None => None,
            Some(n) if n >= 1 => Some(n as u64),
            Some(n) => {
                return Err(PyValueError::new_err(format!(
                    "nodes must be positive, not {n}"
                )))
            }
        };
        let moves_to_go = match moves_to_go {
            None => None,
            Some(n) if (1..=1000).contains(&n) => Some(n as u32),
            Some(n) => {
                return Err(PyValueError::new_err(format!(
                    "moves_to_go must be between 1 and 1000, not {n}"
                )))
            }
        };
        let limits = Limits {
            depth,
            nodes,
            movetime: seconds("movetime", movetime)?,
            time_left: seconds("time_left", time_left)?,
            increment: seconds("increment", increment)?.unwrap_or_default(),
            moves_to_go,
        };
        let pos = board.position();
        drop(board);
        let mut callback_error: Option<PyErr> = None;
        let result = py.detach(|| {
            self.engine.search(&pos, &history, &limits, |info| {
                if let Some(cb) = &on_info {
                    Python::attach(|py| {
                        let outcome = info_dict(py, info).and_then(|d| cb.call1(py, (d,)));
                        if let Err(e) = outcome {
                            if callback_error.is_none() {
                                callback_error = Some(e);
                            }
                            self.engine.stop();
                        }
                    });
                }
            })
        });
        if let Some(e) = callback_error {
            return Err(e);
        }
        let best = result.best.map(|m| wrap(py, m)).transpose()?;
        let ponder = result.ponder.map(|m| wrap(py, m)).transpose()?;
        Ok((best, ponder, info_dict(py, &result.info)?))
    }

    /// Stop a running search (callable from any thread).
    fn stop(&self) {
        self.engine.stop();
    }

    /// Forget the transposition table.
    fn clear(&self) {
        self.engine.clear();
    }
}
