//! Perft: one position, many positions with one table, a table kept between calls, and the
//! count per root move. The GIL is released and Ctrl-C interrupts.

use std::sync::atomic::AtomicBool;

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{args, fen_text, parse_fen_arg_in, rules_arg_any, PyBoard};
use crate::{perft_divide, Counting, PerftOptions, Position};

pub(super) fn perft_options(
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

pub(super) fn depth_arg(depth: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(args::int_in(depth, "depth", 0, 63, PyValueError::new_err)? as u32)
}

/// Leaves of the move tree `depth` plies deep. `distinct=False` counts capture orders
/// separately (convention B). `hash_mb` MiB of table (each count kept under a 128-bit key:
/// the Zobrist hash and a second hash seeded by `key_seed`). Runs without the GIL; Ctrl-C
/// interrupts it (KeyboardInterrupt); MemoryError when the table does not fit in memory.
#[pyfunction]
#[pyo3(signature = (board, depth, *, distinct = true, threads = None, hash_mb = None,
                    key_seed = None))]
pub(super) fn perft(
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
    if let Some(wide) = board.position_in::<u128>() {
        drop(board);
        let stop = AtomicBool::new(false);
        let counts = args::interruptible(py, &stop, || {
            crate::perft_batch_untabled(
                &[wide],
                depth,
                options.counting,
                options.threads,
                Some(&stop),
            )
        })?;
        return Ok(counts.first().copied().unwrap_or(0));
    }
    let pos = board.position("perft")?;
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
pub(super) fn perft_many(
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
    let rules = rules_arg_any(variant, captures_optional)?;
    if rules.variant.geometry().is_wide() {
        // The 12×12 board's positions, in the 128-bit word: counted without a table.
        if table.is_some() {
            return Err(PyValueError::new_err(
                "a PerftTable holds positions of the boards up to 10×10; count the 12×12 \
                 board's without one",
            ));
        }
        let positions: Vec<Position<u128>> = fens
            .iter()
            .map(|f| {
                crate::position::fen::position_from_fen_in_word(&fen_text(f)?, rules)
                    .map_err(|e| super::FenError::new_err(e.to_string()))
            })
            .collect::<PyResult<_>>()?;
        let stop = AtomicBool::new(false);
        return args::interruptible(py, &stop, || {
            crate::perft_batch_untabled(
                &positions,
                depth,
                options.counting,
                options.threads,
                Some(&stop),
            )
        });
    }
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| parse_fen_arg_in(&fen_text(f)?, rules))
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

/// Every legal move of a position given by its FEN, with the position after it:
/// `[(move text, FEN after), …]`, in the game's notation (numbers or names, every landing
/// square) and numbering. Takes every game, the 12×12 board's (Canadian) among them.
#[pyfunction]
#[pyo3(signature = (fen, *, variant = None, captures_optional = false, distinct = true))]
pub(super) fn child_positions(
    fen: &Bound<'_, PyAny>,
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
    distinct: bool,
) -> PyResult<Vec<(String, String)>> {
    let rules = rules_arg_any(variant, captures_optional)?;
    let counting = if distinct {
        Counting::Distinct
    } else {
        Counting::Orders
    };
    let text = fen_text(fen)?;
    if rules.variant.geometry().is_wide() {
        let pos: Position<u128> = crate::position::fen::position_from_fen_in_word(&text, rules)
            .map_err(|e| super::FenError::new_err(e.to_string()))?;
        Ok(children(&pos, counting))
    } else {
        Ok(children(&parse_fen_arg_in(&text, rules)?, counting))
    }
}

/// The FEN of a game's start position, in its numbering: every game, the 12×12 board's
/// (Canadian) among them.
#[pyfunction]
#[pyo3(signature = (variant = None))]
pub(super) fn start_fen(variant: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let rules = rules_arg_any(variant, false)?;
    let text = if rules.variant.geometry().is_wide() {
        let pos =
            Position::<u128>::start_in(rules).map_err(|e| PyValueError::new_err(e.to_string()))?;
        crate::write_fen(&pos, crate::Notation::Numeric)
    } else {
        crate::write_fen(&Position::start_of(rules), crate::Notation::Numeric)
    };
    Ok(text)
}

/// [`child_positions`] of a parsed position.
fn children<W: crate::GameWord>(pos: &Position<W>, counting: Counting) -> Vec<(String, String)> {
    let info = pos.rules().variant.info();
    let numbering = info.numbering;
    let name = |sq: crate::Square| {
        if info.numeric {
            numbering.number(sq).to_string()
        } else {
            numbering.name(sq)
        }
    };
    pos.legal_moves_counting(counting)
        .iter()
        .map(|m| {
            let separator = if m.is_capture() {
                if info.numeric {
                    'x'
                } else {
                    ':'
                }
            } else {
                '-'
            };
            let mut text = name(m.from());
            for &sq in m.path() {
                text.push(separator);
                text.push_str(&name(sq));
            }
            let mut child = *pos;
            child.play_unchecked(m);
            (text, crate::write_fen(&child, crate::Notation::Numeric))
        })
        .collect()
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

    /// Stop every count running in this table, from any thread (they return partial
    /// counts); later counts in it return 0. For a run that is ending.
    fn cancel(&self) {
        self.table.cancel();
    }
}

/// Leaves below each legal move: `{move text: count}` (texts with every landing square).
#[pyfunction]
#[pyo3(signature = (board, depth, *, distinct = true, threads = None, hash_mb = None,
                    key_seed = None))]
pub(super) fn perft_divide_py<'py>(
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
    if let Some(wide) = board.position_in::<u128>() {
        drop(board);
        return wide_divide(py, &wide, depth, &options);
    }
    let pos = board.position("perft_divide")?;
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
    let geometry = pos.geometry();
    divide_dict(
        py,
        entries.into_iter().map(|e| {
            (
                e.mv.long_text_on(geometry),
                if depth == 0 { 1 } else { e.count },
            )
        }),
    )
}

/// `{move text: count}` from root moves and their counts (moves of the same text, the
/// orders of one capture, added together).
fn divide_dict<'py>(
    py: Python<'py>,
    counts: impl Iterator<Item = (String, u64)>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (key, count) in counts {
        let prev: u64 = match out.get_item(&key)? {
            Some(v) => v.extract()?,
            None => 0,
        };
        out.set_item(key, prev + count)?;
    }
    Ok(out)
}

/// [`perft_divide_py`] of a 12×12 position (no table): the children counted together, each
/// split further over the threads.
fn wide_divide<'py>(
    py: Python<'py>,
    pos: &Position<u128>,
    depth: u32,
    options: &PerftOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let moves = pos.legal_moves_counting(options.counting);
    let children: Vec<Position<u128>> = moves
        .iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(m);
            child
        })
        .collect();
    let below = depth.max(1) - 1;
    let stop = AtomicBool::new(false);
    let counts = args::interruptible(py, &stop, || {
        crate::perft_batch_untabled(
            &children,
            below,
            options.counting,
            options.threads,
            Some(&stop),
        )
    })?;
    let geometry = pos.geometry();
    divide_dict(
        py,
        moves
            .iter()
            .zip(counts)
            .map(|(m, count)| (m.long_text_on(geometry), if depth == 0 { 1 } else { count })),
    )
}
