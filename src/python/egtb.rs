//! `shashki._core.EndgameTables` and `build_endgame_tables`: the endgame tables from Python.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::args::{int_in, interruptible};
use super::{wrap, PyBoard, PyMove};
use crate::egtb::{build_dir, Material, TableGame, Tables, Value};

/// A balance's name from Python: `KKvK` in Russian draughts, `international-KKvK`.
fn label(m: &Material) -> String {
    m.label()
}

/// The game of tables of a `variant` argument, or a ValueError saying why it has none.
fn table_game(variant: Option<&Bound<'_, PyAny>>) -> PyResult<TableGame> {
    let rules = super::rules_arg_any(variant, false)?;
    TableGame::of(rules)
        .ok_or_else(|| PyValueError::new_err(TableGame::refusal(rules).unwrap_or_default()))
}

/// Endgame tables read from their files (read-only, shared with engines); each compressed
/// block is unpacked the first time a probe reaches it and kept while the unpacked blocks
/// of all tables stay within the process's bound (`endgame_block_cache`).
#[pyclass(module = "shashki._core", name = "EndgameTables", frozen)]
pub struct PyEndgameTables {
    pub(crate) tables: Arc<Tables>,
}

fn value_tuple(value: Value) -> (i32, u8) {
    (value.wdl(), value.plies())
}

#[pymethods]
impl PyEndgameTables {
    /// Every `*.egtb` file of `directory`, read and checked (OSError, ValueError for a
    /// damaged file); the tables of at most `unpack_pieces` pieces unpacked whole now.
    #[staticmethod]
    #[pyo3(signature = (directory, unpack_pieces=None))]
    fn open(
        py: Python<'_>,
        directory: PathBuf,
        unpack_pieces: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyEndgameTables> {
        let unpack_pieces = match unpack_pieces {
            Some(n) => int_in(n, "unpack_pieces", 0, 32, PyValueError::new_err)? as u32,
            None => 0,
        };
        let tables = py
            .detach(|| Tables::open_unpacked(&directory, unpack_pieces))
            .map_err(|e| {
                if e.reason.contains("os error") || !e.path.exists() {
                    PyOSError::new_err(e.to_string())
                } else {
                    PyValueError::new_err(e.to_string())
                }
            })?;
        Ok(PyEndgameTables {
            tables: Arc::new(tables),
        })
    }

    /// The most pieces of any balance held.
    #[getter]
    fn max_pieces(&self) -> u32 {
        self.tables.max_pieces()
    }

    /// The bytes of the values unpacked whole at open.
    #[getter]
    fn unpacked_bytes(&self) -> usize {
        self.tables.unpacked_bytes()
    }

    /// The balances held, by name (`KKvK`: White's kings and men `W`, then Black's; a
    /// balance of International draughts as `international-KKvK`).
    fn materials(&self) -> Vec<String> {
        self.tables.materials().iter().map(label).collect()
    }

    /// The games whose tables are held (`"russian"`, `"international"`).
    #[getter]
    fn games(&self) -> Vec<&'static str> {
        self.tables
            .games()
            .iter()
            .map(|g| g.variant().name())
            .collect()
    }

    /// `(wdl, plies)` for the side to move: 1 win, 0 draw, -1 loss, and the plies to the
    /// end with best play; None when the balance is not held.
    fn probe(&self, board: PyRef<'_, PyBoard>) -> Option<(i32, u8)> {
        let value = match board.position_in::<u64>() {
            Some(pos) => self.tables.probe(&pos),
            None => self.tables.probe(&board.position_in::<u128>()?),
        };
        value.map(value_tuple)
    }

    /// Check every `step`-th position of a held balance (`materials()`'s name) against its
    /// children as the core's move generator gives them (a position without a move ends
    /// the game; else the quickest win, a draw, the slowest loss, one ply on): the wins,
    /// draws and losses of the side to move, White to move then Black to move. A ValueError
    /// names the first position whose value does not follow, or a balance not held.
    #[pyo3(signature = (balance, step = None))]
    fn verify(
        &self,
        py: Python<'_>,
        balance: &str,
        step: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<[[u64; 3]; 2]> {
        let step = match step {
            Some(s) => int_in(s, "step", 1, i64::MAX, PyValueError::new_err)? as u64,
            None => 1,
        };
        let m = self
            .tables
            .materials()
            .into_iter()
            .find(|m| label(m) == balance)
            .ok_or_else(|| PyValueError::new_err(format!("balance {balance:?} is not held")))?;
        let tables = self.tables.clone();
        py.detach(|| crate::egtb::verify_every(&tables, m, step))
            .map_err(PyValueError::new_err)
    }

    /// The best move: the quickest win, else a draw, else the slowest loss; None when the
    /// balance is not held or there is no move.
    fn best_move(&self, py: Python<'_>, board: PyRef<'_, PyBoard>) -> PyResult<Option<Py<PyMove>>> {
        if let Some(pos) = board.position_in::<u64>() {
            let variant = pos.rules().variant;
            return self
                .tables
                .best_move(&pos)
                .map(|m| wrap(py, m, variant))
                .transpose();
        }
        let Some(pos) = board.position_in::<u128>() else {
            return Ok(None);
        };
        let variant = pos.rules().variant;
        self.tables
            .best_move(&pos)
            .map(|m| wrap(py, m, variant))
            .transpose()
    }
}

/// Build every balance of up to `pieces` pieces of `variant` (any game with tables; Russian
/// draughts by default) into `directory` (resuming: sound files are kept).
/// `on_start(index, count, name, slots)` is called as each balance starts,
/// `on_distance(plies)` as each distance of its values is settled.
/// Runs without the GIL; Ctrl-C stops it between balances (what is finished stays).
#[pyfunction]
#[pyo3(signature = (directory, pieces, *, threads = None, on_start = None, on_distance = None, variant = None))]
#[allow(clippy::too_many_arguments)]
pub fn build_endgame_tables(
    py: Python<'_>,
    directory: PathBuf,
    pieces: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    on_start: Option<Py<PyAny>>,
    on_distance: Option<Py<PyAny>>,
    variant: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    let game = table_game(variant)?;
    let pieces = int_in(pieces, "pieces", 2, 8, PyValueError::new_err)? as u32;
    let threads = match threads {
        Some(t) if !t.is_none() => int_in(t, "threads", 1, 1024, PyValueError::new_err)? as usize,
        _ => 0,
    };
    let stop = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start threads: {e}")))?;
    let result = interruptible(py, &stop, || {
        pool.install(|| {
            build_dir(
                &directory,
                game,
                pieces,
                &|i, n, m, slots| {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    if let Some(cb) = &on_start {
                        Python::attach(|py| {
                            if cb.call1(py, (i, n, label(&m), slots)).is_err() {
                                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                            }
                        });
                    }
                },
                &|plies| {
                    if let Some(cb) = &on_distance {
                        Python::attach(|py| {
                            if cb.call1(py, (plies,)).is_err() {
                                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                            }
                        });
                    }
                },
                &stop,
            )
        })
    })?;
    match result {
        Ok(materials) => Ok(materials.iter().map(label).collect()),
        Err(e) => Err(PyRuntimeError::new_err(e.to_string())),
    }
}

/// The stored balances of 2 to `pieces` pieces of `variant` in build order, each as
/// `(name, slots of both sides, names of the balances it needs)`: the tasks of a build and
/// what each depends on (the balances its captures and crownings may lead to).
#[pyfunction]
#[pyo3(signature = (pieces, *, variant = None))]
pub fn endgame_balances(
    pieces: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(String, u64, Vec<String>)>> {
    let game = table_game(variant)?;
    let pieces = int_in(pieces, "pieces", 1, 8, PyValueError::new_err)? as u32;
    Ok(Material::all_up_to_in(game, pieces)
        .into_iter()
        .filter(Material::is_canonical)
        .map(|m| {
            let slots = m
                .slots()
                .saturating_mul(if m.is_symmetric() { 1 } else { 2 });
            (label(&m), slots, m.needs().iter().map(label).collect())
        })
        .collect())
}

/// Build the one balance `balance` (a name of `endgame_balances`) of `variant` into
/// `directory`, reading the balances it needs from there (a ValueError names the first
/// one missing); a sound file already there is kept. Runs without the GIL on `threads`
/// threads (default: all cores); `on_distance(plies)` as each distance is settled. The
/// path of the file.
#[pyfunction]
#[pyo3(signature = (directory, balance, *, variant = None, threads = None, on_distance = None))]
pub fn build_endgame_table(
    py: Python<'_>,
    directory: PathBuf,
    balance: &str,
    variant: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    on_distance: Option<Py<PyAny>>,
) -> PyResult<PathBuf> {
    let game = table_game(variant)?;
    let name = match game.prefix() {
        "" => balance,
        prefix => balance
            .strip_prefix(prefix)
            .and_then(|b| b.strip_prefix('-'))
            .unwrap_or(balance),
    };
    let m = Material::from_name(game, name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "balance {balance:?} is not one of {}'s (a name like KKvK: White's kings K and men W, v, Black's kings K and men B)",
            game.variant().name()
        ))
    })?;
    let threads = match threads {
        Some(t) if !t.is_none() => int_in(t, "threads", 1, 1024, PyValueError::new_err)? as usize,
        _ => 0,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start threads: {e}")))?;
    let stop = AtomicBool::new(false);
    let result = interruptible(py, &stop, || {
        pool.install(|| {
            crate::egtb::build_one(&directory, m, &|plies| {
                if let Some(cb) = &on_distance {
                    Python::attach(|py| {
                        let _ = cb.call1(py, (plies,));
                    });
                }
            })
        })
    })?;
    result.map_err(|e| {
        if e.downcast_ref::<crate::egtb::BuildError>()
            .is_some_and(|b| matches!(b, crate::egtb::BuildError::Missing(_)))
        {
            PyValueError::new_err(e.to_string())
        } else {
            PyRuntimeError::new_err(e.to_string())
        }
    })
}

/// The bytes of unpacked endgame-table blocks held now and their bound, after setting the
/// bound to `limit_mb` MiB when it is given (the oldest blocks beyond it are dropped, and
/// unpacked again if probed again).
#[pyfunction]
#[pyo3(signature = (limit_mb = None))]
pub fn endgame_block_cache(limit_mb: Option<&Bound<'_, PyAny>>) -> PyResult<(usize, usize)> {
    if let Some(mb) = limit_mb {
        let mb = int_in(mb, "limit_mb", 1, 1 << 20, PyValueError::new_err)? as usize;
        crate::egtb::set_block_cache_limit(mb << 20);
    }
    Ok(crate::egtb::block_cache_usage())
}

/// Why `variant` (a game's name) has no endgame tables, or None when it has them (a
/// ValueError for an unknown name).
#[pyfunction]
pub fn endgame_refusal(variant: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let name = crate::python::args::text(variant, "variant", PyValueError::new_err)?;
    let variant = crate::Variant::parse(&name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown variant {name:?}")))?;
    Ok(TableGame::refusal(crate::RuleSet::new(variant, false)))
}
