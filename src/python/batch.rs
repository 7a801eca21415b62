//! `shashki._core.BatchBoards`: many games stepped together, arrays in and out (the
//! `shashki.batch` module is the public face).

use numpy::{
    ndarray::IntoDimension, Element, PyArray, PyArray1, PyArray2, PyArray4, PyArrayMethods,
    PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use std::mem::MaybeUninit;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::board::{parse_fen_with_clocks, BoardWord};
use super::rules_arg_any;
use crate::batch::{
    as_uninit, Batch, BatchGame, Finish, LogitError, MaskCell, PlaneCell, Policy, Shape, Threads,
    PLANES,
};
use crate::position::fen;
use crate::rules::GameWord;
use crate::search::SearchWord;
use crate::{notation, Board, Notation, Position, RuleSet};

/// The most games one batch holds (about 1 KB each, with their masks and planes).
const MAX_GAMES: usize = 1 << 20;
/// The most games one call of `random_playouts` plays.
const MAX_PLAYOUTS: usize = 1 << 26;

/// A batch in its board's word: the 64-bit one of the boards up to 10×10 (and Turkish
/// draughts), the 128-bit one of the 12×12 board.
#[derive(Clone)]
enum AnyBatch {
    Narrow(Batch),
    Wide(Batch<u128>),
}

/// `$body` with `$b` the batch in its own word (compiled once for each word).
macro_rules! on_batch {
    ($batch:expr, $b:ident => $body:expr) => {
        match $batch {
            AnyBatch::Narrow($b) => $body,
            AnyBatch::Wide($b) => $body,
        }
    };
}

impl AnyBatch {
    fn len(&self) -> usize {
        on_batch!(self, b => b.games.len())
    }

    fn shape(&self) -> &'static Shape {
        on_batch!(self, b => b.shape())
    }

    fn set_threads(&mut self, threads: Threads) {
        on_batch!(self, b => b.threads = threads);
    }
}

/// The two forms of a legal-action mask: a bool an action, or packed, a bit an action.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MaskForm {
    Dense,
    Packed,
}

/// A mask array given by the caller, by its dtype: bool (dense) or uint8 (packed).
enum MaskArg<'py> {
    Dense(Bound<'py, PyArray2<bool>>),
    Packed(Bound<'py, PyArray2<u8>>),
}

impl<'py> MaskArg<'py> {
    /// `array` (`name` in messages) as a 2-dimensional bool or uint8 array, or a ValueError.
    fn of(array: &Bound<'py, PyAny>, name: &str) -> PyResult<MaskArg<'py>> {
        if let Ok(a) = array.cast::<PyArray2<bool>>() {
            return Ok(MaskArg::Dense(a.clone()));
        }
        if let Ok(a) = array.cast::<PyArray2<u8>>() {
            return Ok(MaskArg::Packed(a.clone()));
        }
        Err(PyValueError::new_err(format!(
            "{name} must be a 2-dimensional numpy array of bool (one an action) or uint8 \
             (packed: eight actions a byte)"
        )))
    }
}

/// `n` games under `rules` from its start or from `fens` (one a game, or one for all).
/// The rules of a batch: any game of one piece a square whose moves fit the batch's
/// actions (a start square and a diagonal or orthogonal ray); уголки's do not (a chain of
/// jumps ends anywhere its turns lead), so it is refused with a `ValueError` saying so.
fn batch_rules(variant: Option<&Bound<'_, PyAny>>, captures_optional: bool) -> PyResult<RuleSet> {
    let rules = rules_arg_any(variant, captures_optional)?;
    if !crate::batch::fits(rules.variant) {
        return Err(PyValueError::new_err(format!(
            "{}'s moves do not fit the batch API's actions (a chain of jumps ends \
             wherever its turns lead, not along one line from its start): play it with \
             shashki.Board",
            rules.variant.name()
        )));
    }
    Ok(rules)
}

fn new_batch<W: BoardWord>(
    n: usize,
    rules: crate::games::RuleSet,
    fens: Option<&[String]>,
    max_plies: usize,
) -> PyResult<Batch<W>> {
    let starts: Vec<Board<W>> = match fens {
        None => vec![Board::new(
            Position::<W>::start_in(rules).map_err(|e| PyValueError::new_err(e.to_string()))?,
        )],
        Some(list) => boards_from_fens(list, rules)?,
    };
    let boards = (0..n).map(|i| starts[i % starts.len()].clone()).collect();
    Ok(Batch::new(boards, max_plies))
}

/// Games held in Rust, stepped together without the GIL.
#[pyclass(module = "shashki._core", name = "BatchBoards")]
pub struct PyBatchBoards {
    batch: AnyBatch,
    /// The games' legal actions as they stand, written by the last step in its own pass:
    /// it writes them when `legal_action_mask()` was called since the step before (a
    /// learning loop's pattern), and `legal_action_mask()` hands them over (in the form
    /// asked for).
    next_mask: Option<(MaskForm, Py<PyAny>)>,
    /// `legal_action_mask()` was called (without `out`) since the last step, in this form.
    mask_asked: Option<MaskForm>,
    /// The threads asked for (None: every core).
    threads: Option<usize>,
}

#[pymethods]
impl PyBatchBoards {
    /// `n` games from the variant's start, or from `fens` (one a game, or one for all),
    /// truncated at `max_plies` plies.
    #[new]
    #[pyo3(signature = (n, *, variant = None, captures_optional = false, fens = None,
                        max_plies = 400, threads = None))]
    fn new(
        n: usize,
        variant: Option<&Bound<'_, PyAny>>,
        captures_optional: bool,
        fens: Option<Vec<String>>,
        max_plies: usize,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        if n == 0 || n > MAX_GAMES {
            return Err(PyValueError::new_err(format!(
                "n must be between 1 and {MAX_GAMES}, not {n}"
            )));
        }
        if max_plies == 0 {
            return Err(PyValueError::new_err("max_plies must be at least 1"));
        }
        let rules = batch_rules(variant, captures_optional)?;
        if let Some(list) = &fens {
            if list.len() != n && list.len() != 1 {
                return Err(PyValueError::new_err(format!(
                    "fens must hold one FEN or n = {n}, not {}",
                    list.len()
                )));
            }
        }
        if threads == Some(0) {
            return Err(PyValueError::new_err(
                "threads must be at least 1 (or None: every core)",
            ));
        }
        let pool = Threads::new(threads.map(|k| k.min(256)))
            .map_err(|e| PyValueError::new_err(format!("cannot start the threads: {e}")))?;
        let mut batch = if rules.variant.geometry().is_wide() {
            AnyBatch::Wide(new_batch(n, rules, fens.as_deref(), max_plies)?)
        } else {
            AnyBatch::Narrow(new_batch(n, rules, fens.as_deref(), max_plies)?)
        };
        batch.set_threads(pool);
        Ok(PyBatchBoards {
            batch,
            next_mask: None,
            mask_asked: None,
            threads,
        })
    }

    /// An independent copy of the games as they stand (their records, clocks and last
    /// results; the same threads).
    fn copy(&self) -> PyBatchBoards {
        PyBatchBoards {
            batch: self.batch.clone(),
            next_mask: None,
            mask_asked: None,
            threads: self.threads,
        }
    }

    /// The threads asked for (None: every core).
    #[getter]
    fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// Start every game again at its first position.
    fn reset(&mut self) {
        self.next_mask = None;
        on_batch!(&mut self.batch, b => b.reset());
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.batch.len()
    }

    /// The board's side (8, 10 or 12): observations are (PLANES, size, size).
    #[getter]
    fn board_size(&self) -> usize {
        self.batch.shape().size
    }

    /// The number of actions of the board (896 on 8×8, 1800 on 10×10, 3168 on 12×12).
    #[getter]
    fn action_count(&self) -> usize {
        self.batch.shape().actions
    }

    /// The legal actions of every game: bool array (n, ACTIONS), or with `packed` uint8
    /// (n, ⌈ACTIONS / 8⌉) with action `j` bit `j % 8` of byte `j / 8`; new, or written into
    /// `out` (whose dtype says the form: bool dense, uint8 packed).
    #[pyo3(signature = (out = None, packed = false))]
    fn legal_action_mask<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyAny>>,
        packed: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.batch.len();
        let actions = self.batch.shape().actions;
        let Some(out) = out else {
            let form = if packed {
                MaskForm::Packed
            } else {
                MaskForm::Dense
            };
            self.mask_asked = Some(form);
            if let Some((made, mask)) = self.next_mask.take() {
                if made == form {
                    return Ok(mask.into_bound(py));
                }
            }
            return Ok(on_batch!(&self.batch, batch => match form {
                MaskForm::Dense => rows_array(py, batch, [n, actions], actions, false, |g, row| {
                    <bool as MaskCell>::write_row(g, as_uninit(row))
                })
                .into_any(),
                MaskForm::Packed => {
                    let width = <u8 as MaskCell>::row_width(actions);
                    rows_array(py, batch, [n, width], width, 0u8, |g, row| {
                        <u8 as MaskCell>::write_row(g, as_uninit(row))
                    })
                    .into_any()
                }
            }));
        };
        on_batch!(&self.batch, batch => match MaskArg::of(&out, "out")? {
            MaskArg::Dense(a) => {
                fill_rows(py, batch, a, &[n, actions], actions, |g, row| {
                    <bool as MaskCell>::write_row(g, as_uninit(row))
                })?;
            }
            MaskArg::Packed(a) => {
                let width = <u8 as MaskCell>::row_width(actions);
                fill_rows(py, batch, a, &[n, width], width, |g, row| {
                    <u8 as MaskCell>::write_row(g, as_uninit(row))
                })?;
            }
        });
        Ok(out)
    }

    /// Every game's legal actions as lists: `(offsets, actions)`, game `i`'s being
    /// `actions[offsets[i]:offsets[i + 1]]`, ascending, each once (what the mask's row
    /// holds, without a scan of its `ACTIONS` entries).
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i16>>) {
        let n = self.batch.len();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut actions: Vec<i16> = Vec::with_capacity(n * 12);
        offsets.push(0i64);
        on_batch!(&self.batch, batch => {
            for game in &batch.games {
                game.legal_action_list(&mut actions);
                offsets.push(actions.len() as i64);
            }
        });
        (
            PyArray1::from_vec(py, offsets),
            PyArray1::from_vec(py, actions),
        )
    }

    /// The observations: array (n, PLANES, 8, 8) of `dtype` ("float32", "uint8" or
    /// "bool"), new; or written into `out` (of one of those dtypes) and returned.
    #[pyo3(signature = (out = None, dtype = "float32"))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyAny>>,
        dtype: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.batch.len();
        let size = self.batch.shape().size;
        let dims = [n, PLANES, size, size];
        let width = self.batch.shape().plane_values();
        on_batch!(&self.batch, batch => Ok(match out {
            None => match PlaneType::named(dtype)? {
                PlaneType::F32 => {
                    rows_array::<f32, _, _>(py, batch, dims, width, 0.0, BatchGame::observe)
                        .into_any()
                }
                PlaneType::U8 => {
                    rows_array::<u8, _, _>(py, batch, dims, width, 0, BatchGame::observe)
                        .into_any()
                }
                PlaneType::Bool => {
                    rows_array::<bool, _, _>(py, batch, dims, width, false, BatchGame::observe)
                        .into_any()
                }
            },
            Some(out) => {
                match PlanesArg::of(&out, "out")? {
                    PlanesArg::F32(a) => {
                        fill_rows(py, batch, a, &dims, width, BatchGame::observe)?;
                    }
                    PlanesArg::U8(a) => {
                        fill_rows(py, batch, a, &dims, width, BatchGame::observe)?;
                    }
                    PlanesArg::Bool(a) => {
                        fill_rows(py, batch, a, &dims, width, BatchGame::observe)?;
                    }
                }
                out
            }
        }))
    }

    /// The planes of every game's last finished game's final position (zeros for a game
    /// that has not finished one): array (n, PLANES, 8, 8) of `dtype`.
    #[pyo3(signature = (dtype = "float32"))]
    fn final_observation<'py>(&self, py: Python<'py>, dtype: &str) -> PyResult<Bound<'py, PyAny>> {
        fn rows<'py, T: PlaneCell + Element, W: GameWord>(
            py: Python<'py>,
            batch: &Batch<W>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let n = batch.games.len();
            let shape = batch.shape();
            let mut out = vec![T::default(); n * shape.plane_values()];
            batch.observe_final(&mut out);
            Ok(PyArray1::from_vec(py, out)
                .reshape([n, PLANES, shape.size, shape.size])?
                .into_any())
        }
        let kind = PlaneType::named(dtype)?;
        on_batch!(&self.batch, batch => match kind {
            PlaneType::F32 => rows::<f32, _>(py, batch),
            PlaneType::U8 => rows::<u8, _>(py, batch),
            PlaneType::Bool => rows::<bool, _>(py, batch),
        })
    }

    /// Play one action in every game: `(rewards, terminated, truncated)`. An illegal action
    /// is a ValueError naming the first bad row, and no game changes. With `planes` each
    /// game's observation after the step, and with `mask` (bool: dense; uint8: packed) its
    /// legal actions then, written in the step's own pass.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (actions, planes = None, mask = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        planes: Option<Bound<'py, PyAny>>,
        mask: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let n = self.batch.len();
        let actions = actions.as_slice()?.to_vec();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "actions must hold one action a game ({n}), not {}",
                actions.len()
            )));
        }
        let mask = mask.map(|m| MaskArg::of(&m, "mask")).transpose()?;
        let planes = planes.map(|p| PlanesArg::of(&p, "planes")).transpose()?;
        let first_illegal = {
            let batch = &self.batch;
            py.detach(|| on_batch!(batch, b => b.first_illegal(&actions)))
        };
        if let Some(row) = first_illegal {
            let stuck =
                on_batch!(&self.batch, b => b.games[row].position().legal_moves().is_empty());
            if stuck {
                // A batch from a finished position: its observations are fine, its steps
                // cannot be (the game would restart at its own end).
                return Err(PyValueError::new_err(format!(
                    "row {row}'s game cannot step: its first position has no legal move (the \
                     game is over before it starts; no game was changed)"
                )));
            }
            return Err(PyValueError::new_err(format!(
                "action {} of row {row} is not legal in that game (no game was changed)",
                actions[row]
            )));
        }
        let actions_count = self.batch.shape().actions;
        // The next mask, written in the step's pass when the last one was asked for and
        // none is given to write it into.
        let fresh_form = if mask.is_none() {
            self.mask_asked
        } else {
            None
        };
        self.next_mask = None;
        self.mask_asked = None;
        let size = self.batch.shape().size;
        let planes_dims = [n, PLANES, size, size];
        let mut rewards = vec![0.0f32; n];
        let mut ends = vec![(false, false); n];
        let outs = Outs {
            rewards: &mut rewards,
            ends: &mut ends,
            planes: planes.as_ref(),
            planes_dims: &planes_dims,
        };
        let made: Option<(MaskForm, Bound<'py, PyAny>)> = on_batch!(&mut self.batch, batch => {
            let games = (batch, &actions[..]);
            match (&mask, fresh_form) {
                (Some(MaskArg::Dense(m)), _) => {
                    step_with(py, games, outs, MaskOut::Given(m, &[n, actions_count]))?;
                    None
                }
                (Some(MaskArg::Packed(m)), _) => {
                    let width = <u8 as MaskCell>::row_width(actions_count);
                    step_with(py, games, outs, MaskOut::Given(m, &[n, width]))?;
                    None
                }
                (None, Some(MaskForm::Dense)) => {
                    let a = step_with(py, games, outs, MaskOut::<bool>::Fresh([n, actions_count]))?;
                    a.map(|a| (MaskForm::Dense, a.into_any()))
                }
                (None, Some(MaskForm::Packed)) => {
                    let width = <u8 as MaskCell>::row_width(actions_count);
                    let a = step_with(py, games, outs, MaskOut::<u8>::Fresh([n, width]))?;
                    a.map(|a| (MaskForm::Packed, a.into_any()))
                }
                (None, None) => {
                    step_with(py, games, outs, MaskOut::<bool>::None)?;
                    None
                }
            }
        });
        self.next_mask = made.map(|(form, a)| (form, a.unbind()));
        let terminated: Vec<bool> = ends.iter().map(|e| e.0).collect();
        let truncated: Vec<bool> = ends.iter().map(|e| e.1).collect();
        Ok((
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            PyArray1::from_vec(py, truncated),
        ))
    }

    /// An action of every game chosen by `seed`: without `logits` a uniform legal action;
    /// with `logits` (float32, (n, ACTIONS), C-contiguous) a sample of each game's softmax
    /// over its legal actions at `temperature` (0: the arg-max). -1 for a game without a
    /// legal action. A row whose legal logits include NaN or are all minus infinity is a
    /// ValueError naming the row.
    #[pyo3(signature = (seed, logits = None, temperature = 1.0))]
    fn sample_actions<'py>(
        &self,
        py: Python<'py>,
        seed: u64,
        logits: Option<PyReadonlyArray2<'py, f32>>,
        temperature: f64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let n = self.batch.len();
        let mut out = vec![0i64; n];
        let batch = &self.batch;
        let Some(logits) = logits else {
            py.detach(|| on_batch!(batch, b => b.sample(seed, &mut out)));
            return Ok(PyArray1::from_vec(py, out));
        };
        if !(temperature.is_finite() && temperature >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "temperature must be a finite number at least 0, not {temperature}"
            )));
        }
        let actions = self.batch.shape().actions;
        if logits.shape() != [n, actions] {
            return Err(PyValueError::new_err(format!(
                "logits must have shape ({n}, {actions}), not {:?}",
                logits.shape()
            )));
        }
        let values = logits
            .as_slice()
            .map_err(|_| PyValueError::new_err("logits must be C-contiguous"))?;
        let result = py.detach(
            || on_batch!(batch, b => b.sample_logits(seed, values, temperature as f32, &mut out)),
        );
        match result {
            Ok(()) => Ok(PyArray1::from_vec(py, out)),
            Err((row, LogitError::NotANumber(action))) => Err(PyValueError::new_err(format!(
                "logits of row {row}: the legal action {action}'s logit is NaN"
            ))),
            Err((row, LogitError::NoWeight)) => Err(PyValueError::new_err(format!(
                "logits of row {row}: every legal action's logit is -inf (no legal action \
                 can be drawn)"
            ))),
        }
    }

    /// The result of every game's last finished game: 1 (White won), -1 (Black won), 0 (a
    /// draw), 2 (truncated), or -2 (none has finished yet).
    fn results<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let out: Vec<i8> = on_batch!(&self.batch, b => b
            .games
            .iter()
            .map(|g| finish_code(g.last))
            .collect());
        PyArray1::from_vec(py, out)
    }

    /// The FEN of every game's position (before a capture in progress).
    fn fens(&self) -> Vec<String> {
        on_batch!(&self.batch, b => b
            .games
            .iter()
            .map(|g| fen::write_fen(g.position(), Notation::Numeric))
            .collect())
    }

    /// Game `index`'s first position (a FEN with its clocks) and its moves (full-path texts).
    fn _history(&self, index: &Bound<'_, PyAny>) -> PyResult<(String, Vec<String>)> {
        let last = on_batch!(&self.batch, b => b.games.len()) as i64 - 1;
        let index = super::args::int_in(index, "index", 0, last, |message| {
            pyo3::exceptions::PyIndexError::new_err(format!("game {message}"))
        })? as usize;
        on_batch!(&self.batch, b => game_history(b, index))
    }
}

/// What a step writes besides the games: rewards, end flags, and the planes if given.
struct Outs<'a, 'py> {
    rewards: &'a mut [f32],
    ends: &'a mut [(bool, bool)],
    planes: Option<&'a PlanesArg<'py>>,
    planes_dims: &'a [usize],
}

/// The mask a step writes: one the caller gave (its shape), a new one of that shape, or
/// none.
enum MaskOut<'a, 'py, M: Element> {
    Given(&'a Bound<'py, PyArray2<M>>, &'a [usize]),
    Fresh([usize; 2]),
    None,
}

/// One step of `batch` with the planes of their type and the mask of its form `M`: the
/// new mask array when one was made.
fn step_with<'py, M: MaskCell + Element, W: GameWord>(
    py: Python<'py>,
    (batch, actions): (&mut Batch<W>, &[i64]),
    outs: Outs<'_, 'py>,
    mask: MaskOut<'_, 'py, M>,
) -> PyResult<Option<Bound<'py, PyArray2<M>>>> {
    let Outs {
        rewards,
        ends,
        planes,
        planes_dims,
    } = outs;
    // The step with planes of one type, writing the mask into `cells` if any.
    fn run<T: PlaneCell + Element, M: MaskCell, W: GameWord>(
        py: Python<'_>,
        (batch, actions): (&mut Batch<W>, &[i64]),
        (rewards, ends): (&mut [f32], &mut [(bool, bool)]),
        planes: Option<(&Bound<'_, PyArray4<T>>, &[usize])>,
        mask: Option<&mut [MaybeUninit<M>]>,
    ) -> PyResult<()> {
        let mut step = |planes: Option<&mut [T]>, mask: Option<&mut [MaybeUninit<M>]>| {
            py.detach(|| batch.step(actions, rewards, ends, planes, mask))
        };
        match planes {
            None => step(None, mask),
            Some((planes, dims)) => {
                with_cells(planes, dims, "planes", |cells| step(Some(cells), mask))?
            }
        }
        Ok(())
    }
    let games = (batch, actions);
    let ends = (rewards, ends);
    let with_mask = |cells: Option<&mut [MaybeUninit<M>]>| -> PyResult<()> {
        match planes {
            None => run::<f32, M, W>(py, games, ends, None, cells),
            Some(PlanesArg::F32(p)) => run(py, games, ends, Some((p, planes_dims)), cells),
            Some(PlanesArg::U8(p)) => run(py, games, ends, Some((p, planes_dims)), cells),
            Some(PlanesArg::Bool(p)) => run(py, games, ends, Some((p, planes_dims)), cells),
        }
    };
    match mask {
        MaskOut::None => {
            with_mask(None)?;
            Ok(None)
        }
        MaskOut::Given(array, dims) => {
            with_cells(array, dims, "mask", |cells| {
                with_mask(Some(as_uninit(cells)))
            })??;
            Ok(None)
        }
        MaskOut::Fresh(dims) => {
            // SAFETY: the array is new and C-contiguous; the step writes each of its values
            // (every game's row) before it is read or handed over.
            let array = unsafe { PyArray2::<M>::new(py, dims, false) };
            let cells = unsafe {
                // SAFETY: as above; nothing else refers to the array.
                std::slice::from_raw_parts_mut(array.data().cast::<MaybeUninit<M>>(), array.len())
            };
            with_mask(Some(cells))?;
            Ok(Some(array))
        }
    }
}

/// Game `index`'s first position (a FEN with its clocks) and its moves (full-path texts).
fn game_history<W: GameWord>(batch: &Batch<W>, index: usize) -> PyResult<(String, Vec<String>)> {
    let game = batch.games.get(index).ok_or_else(|| {
        pyo3::exceptions::PyIndexError::new_err(format!(
            "game index {index} out of range ({} games)",
            batch.games.len()
        ))
    })?;
    let board = game.board();
    let (h, f) = board.start_clocks();
    let root = fen::write_fen(board.root(), Notation::Numeric);
    // Each move named on its position in the game's own numbering, every landing square
    // written: the text a Board of the game reads back (Italian, Spanish and Portuguese
    // name their squares from another corner than Russian draughts).
    let mut pos = *board.root();
    let moves = board
        .moves()
        .map(|m| {
            let text = notation::move_text(&pos, &m, Notation::Numeric, true);
            pos.play_unchecked(&m);
            text
        })
        .collect();
    Ok((format!("{root}:H{h}:F{f}"), moves))
}

/// What `playouts` gives: results, lengths, and on request the positions met (planes,
/// game indices, FENs).
type PlayoutArrays<'py> = (
    Bound<'py, PyArray1<i8>>,
    Bound<'py, PyArray1<u32>>,
    Option<Bound<'py, PyArray4<f32>>>,
    Option<Bound<'py, PyArray1<u32>>>,
    Option<Vec<String>>,
);

/// `games` games from `fen` (the variant's start by default; or game `i` from
/// `fens[i % len(fens)]`) under the variant's rules, on `threads` threads, moves chosen by
/// `policy`: `"random"`, or `"engine"` (at `depth` or `nodes`, a share `noise` of random
/// moves, the `evaluation` "learned" or "classic"). `(results, lengths, planes, games, fens)`,
/// results as `BatchBoards.results` gives them; with `positions` the positions met (every
/// position a move was chosen in) as planes, their game indices and FENs, else None.
/// Reproducible from `seed` whatever the threads.
#[pyfunction]
#[pyo3(signature = (games, *, variant = None, captures_optional = false, fen = None,
                    fens = None, seed = 0, threads = None, max_plies = 400,
                    policy = "random", depth = None, nodes = None, noise = 0.0,
                    hash_mb = 16, evaluation = "learned", positions = false))]
#[allow(clippy::too_many_arguments)]
pub fn playouts<'py>(
    py: Python<'py>,
    games: usize,
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
    fen: Option<String>,
    fens: Option<Vec<String>>,
    seed: u64,
    threads: Option<usize>,
    max_plies: usize,
    policy: &str,
    depth: Option<u32>,
    nodes: Option<u64>,
    noise: f64,
    hash_mb: usize,
    evaluation: &str,
    positions: bool,
) -> PyResult<PlayoutArrays<'py>> {
    if games > MAX_PLAYOUTS {
        return Err(PyValueError::new_err(format!(
            "games must be at most {MAX_PLAYOUTS} a call, not {games}"
        )));
    }
    // Playouts use no actions: every game plays, Frisian's and the 12×12 board's included.
    let rules = batch_rules(variant, captures_optional)?;
    let draw = crate::DrawRules::for_variant(rules.variant);
    let policy = match policy {
        "random" => Policy::Random,
        "engine" => {
            if depth.is_none() && nodes.is_none() {
                return Err(PyValueError::new_err(
                    "the engine policy needs depth or nodes",
                ));
            }
            if !(0.0..=1.0).contains(&noise) {
                return Err(PyValueError::new_err("noise must be between 0 and 1"));
            }
            let evaluation = engine_settings(depth, hash_mb, evaluation)?;
            Policy::Engine {
                limits: Box::new(crate::search::Limits {
                    depth,
                    nodes: nodes.map(|n| n.max(1)),
                    draw_rules: draw.clone(),
                    ..Default::default()
                }),
                noise,
                hash_mb,
                evaluation,
            }
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "policy must be 'random' or 'engine', not {other:?}"
            )))
        }
    };
    let texts = match (fen, fens) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err("give fen or fens, not both"));
        }
        (Some(text), None) => vec![text],
        (None, Some(texts)) if texts.is_empty() => {
            return Err(PyValueError::new_err("fens must not be empty"));
        }
        (None, Some(texts)) => texts,
        (None, None) => Vec::new(),
    };
    let run = PlayoutRun {
        rules,
        draw: &draw,
        games,
        max_plies,
        seed,
        threads,
        policy: &policy,
        positions,
    };
    if rules.variant.geometry().is_wide() {
        run.play::<u128>(py, &texts)
    } else {
        run.play::<u64>(py, &texts)
    }
}

/// What one `playouts` call plays, for a board of either word.
struct PlayoutRun<'a> {
    rules: crate::games::RuleSet,
    draw: &'a crate::DrawRules,
    games: usize,
    max_plies: usize,
    seed: u64,
    threads: Option<usize>,
    policy: &'a Policy,
    positions: bool,
}

impl PlayoutRun<'_> {
    /// Play the games from `texts` (the start when empty) in the word `W`.
    fn play<'py, W: SearchWord + BoardWord>(
        &self,
        py: Python<'py>,
        texts: &[String],
    ) -> PyResult<PlayoutArrays<'py>> {
        let PlayoutRun {
            rules,
            draw,
            games,
            max_plies,
            seed,
            threads,
            policy,
            positions,
        } = *self;
        let mut starts: Vec<Board<W>> = boards_from_fens(texts, rules)?;
        if starts.is_empty() {
            starts.push(Board::new(
                Position::<W>::start_in(rules).map_err(|e| PyValueError::new_err(e.to_string()))?,
            ));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0).min(256))
            .build()
            .map_err(|e| PyValueError::new_err(format!("cannot start the threads: {e}")))?;
        let out = py
            .detach(|| {
                pool.install(|| {
                    crate::batch::playouts_with(
                        &starts, draw, games, max_plies, seed, policy, positions,
                    )
                })
            })
            .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(e.to_string()))?;
        let results: Vec<i8> = out.iter().map(|p| finish_code(Some(p.finish))).collect();
        let lengths: Vec<u32> = out.iter().map(|p| p.plies as u32).collect();
        let (planes, game_index, fens) = if positions {
            let count: usize = out.iter().map(|p| p.positions.len()).sum();
            let shape = Shape::of(rules.variant);
            let mut planes = vec![0.0f32; count * shape.plane_values()];
            let mut index = Vec::with_capacity(count);
            let mut fens = Vec::with_capacity(count);
            let mut rows = planes.chunks_mut(shape.plane_values());
            for (i, game) in out.iter().enumerate() {
                for pos in &game.positions {
                    if let Some(row) = rows.next() {
                        crate::batch::planes(pos, None, row);
                    }
                    index.push(i as u32);
                    fens.push(fen::write_fen(pos, Notation::Numeric));
                }
            }
            (
                Some(
                    PyArray1::from_vec(py, planes)
                        .reshape([count, PLANES, shape.size, shape.size])?,
                ),
                Some(PyArray1::from_vec(py, index)),
                Some(fens),
            )
        } else {
            (None, None, None)
        };
        Ok((
            PyArray1::from_vec(py, results),
            PyArray1::from_vec(py, lengths),
            planes,
            game_index,
            fens,
        ))
    }
}

/// The engine settings the batch functions share, checked: `depth` (1–120), `hash_mb`
/// (1–4096) and the evaluation's name.
fn engine_settings(
    depth: Option<u32>,
    hash_mb: usize,
    evaluation: &str,
) -> PyResult<crate::search::Evaluation> {
    if depth.is_some_and(|d| !(1..=120).contains(&d)) {
        return Err(PyValueError::new_err("depth must be between 1 and 120"));
    }
    if !(1..=4096).contains(&hash_mb) {
        return Err(PyValueError::new_err("hash_mb must be between 1 and 4096"));
    }
    super::engine::evaluation_arg(evaluation)
}

/// Boards from FENs (their clocks kept) under `rules`; a bad FEN is a ValueError naming its
/// index.
fn boards_from_fens<W: BoardWord>(
    fens: &[String],
    rules: crate::games::RuleSet,
) -> PyResult<Vec<Board<W>>> {
    fens.iter()
        .enumerate()
        .map(|(i, text)| {
            let (pos, (h, f)) = parse_fen_with_clocks(text, rules)
                .map_err(|e| PyValueError::new_err(format!("fens[{i}]: {e}")))?;
            Ok(Board::with_start_clocks(pos, h, f))
        })
        .collect()
}

fn finish_code(finish: Option<Finish>) -> i8 {
    match finish {
        None => -2,
        Some(Finish::WhiteWins) => 1,
        Some(Finish::BlackWins) => -1,
        Some(Finish::Draw) => 0,
        Some(Finish::Truncated) => 2,
    }
}

/// Search every FEN (`depth` or `nodes`, from a cleared table each) on `threads` engines:
/// `(scores, wins, best moves, best actions)`: scores in centi-men for the side to move (0
/// for a forced result), wins the signed moves to a forced result (0 otherwise), the best
/// move's full-path text ("" without one) and its first jump's action (-1 without one).
#[pyfunction]
#[pyo3(signature = (fens, *, variant = None, captures_optional = false, depth = None,
                    nodes = None, threads = None, hash_mb = 1, evaluation = "learned"))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn search_positions<'py>(
    py: Python<'py>,
    fens: Vec<String>,
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
    depth: Option<u32>,
    nodes: Option<u64>,
    threads: Option<usize>,
    hash_mb: usize,
    evaluation: &str,
) -> PyResult<SearchArrays<'py>> {
    if depth.is_none() && nodes.is_none() {
        return Err(PyValueError::new_err("a batch search needs depth or nodes"));
    }
    let evaluation = engine_settings(depth, hash_mb, evaluation)?;
    let rules = batch_rules(variant, captures_optional)?;
    let limits = crate::search::Limits {
        depth,
        nodes: nodes.map(|n| n.max(1)),
        draw_rules: crate::DrawRules::for_variant(rules.variant),
        ..Default::default()
    };
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let threads = threads.clamp(1, 256);
    let engines = (threads, hash_mb, evaluation);
    if rules.variant.geometry().is_wide() {
        label_positions::<u128>(py, &fens, rules, &limits, engines)
    } else {
        label_positions::<u64>(py, &fens, rules, &limits, engines)
    }
}

/// What `search_positions` gives: scores, wins, best moves' texts and first actions.
type SearchArrays<'py> = (
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
    Vec<String>,
    Bound<'py, PyArray1<i64>>,
);

/// [`search_positions`] of FENs of the word `W`: `engines` is (threads, hash MiB,
/// evaluation).
fn label_positions<'py, W: SearchWord + BoardWord>(
    py: Python<'py>,
    fens: &[String],
    rules: crate::games::RuleSet,
    limits: &crate::search::Limits,
    (threads, hash_mb, evaluation): (usize, usize, crate::search::Evaluation),
) -> PyResult<SearchArrays<'py>> {
    let boards: Vec<Board<W>> = boards_from_fens(fens, rules)?;
    let limits = limits.in_word::<W>();
    let labels = py
        .detach(|| crate::batch::search_all(&boards, &limits, threads, hash_mb, evaluation))
        .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(e.to_string()))?;
    let mut scores = Vec::with_capacity(labels.len());
    let mut wins = Vec::with_capacity(labels.len());
    let mut moves = Vec::with_capacity(labels.len());
    let mut actions = Vec::with_capacity(labels.len());
    for (label, board) in labels.iter().zip(&boards) {
        match label.score {
            crate::search::Score::Value(cp) => {
                scores.push(cp);
                wins.push(0);
            }
            crate::search::Score::Win(n) => {
                scores.push(0);
                wins.push(n);
            }
        }
        let turn = board.position().turn();
        moves.push(
            label
                .best
                .map(|m| m.long_text_on(board.position().geometry()))
                .unwrap_or_default(),
        );
        actions.push(
            label
                .best
                .and_then(|m| {
                    let first = *m.path().first()?;
                    Shape::of(board.position().rules().variant)
                        .action_of(turn, m.from(), first)
                        .map(|a| a as i64)
                })
                .unwrap_or(-1),
        );
    }
    Ok((
        PyArray1::from_vec(py, scores),
        PyArray1::from_vec(py, wins),
        moves,
        PyArray1::from_vec(py, actions),
    ))
}

/// The actions that play `move` for the side `turn` (`True`: White): one a jump.
#[pyfunction]
pub fn move_actions(r#move: PyRef<'_, super::PyMove>, turn: bool) -> Vec<usize> {
    let color = if turn {
        crate::Color::White
    } else {
        crate::Color::Black
    };
    let shape = Shape::of(r#move.variant);
    let actions = match &r#move.inner {
        super::moves::AnyMove::Narrow(m) => shape.move_actions(color, m),
        super::moves::AnyMove::Wide(m) => shape.move_actions(color, m),
    };
    actions.into_iter().map(usize::from).collect()
}

/// The dtypes observation planes come in.
enum PlaneType {
    F32,
    U8,
    Bool,
}

impl PlaneType {
    /// The dtype named `name` (numpy's names), or a ValueError.
    fn named(name: &str) -> PyResult<PlaneType> {
        match name {
            "float32" => Ok(PlaneType::F32),
            "uint8" => Ok(PlaneType::U8),
            "bool" => Ok(PlaneType::Bool),
            other => Err(PyValueError::new_err(format!(
                "the planes' dtype must be float32, uint8 or bool, not {other:?}"
            ))),
        }
    }
}

/// An array given for the planes, by its dtype.
enum PlanesArg<'py> {
    F32(Bound<'py, PyArray4<f32>>),
    U8(Bound<'py, PyArray4<u8>>),
    Bool(Bound<'py, PyArray4<bool>>),
}

impl<'py> PlanesArg<'py> {
    /// `array` (`name` in messages) as a 4-dimensional array of a plane dtype, or a
    /// ValueError.
    fn of(array: &Bound<'py, PyAny>, name: &str) -> PyResult<PlanesArg<'py>> {
        if let Ok(a) = array.cast::<PyArray4<f32>>() {
            return Ok(PlanesArg::F32(a.clone()));
        }
        if let Ok(a) = array.cast::<PyArray4<u8>>() {
            return Ok(PlanesArg::U8(a.clone()));
        }
        if let Ok(a) = array.cast::<PyArray4<bool>>() {
            return Ok(PlanesArg::Bool(a.clone()));
        }
        Err(PyValueError::new_err(format!(
            "{name} must be a 4-dimensional numpy array of float32, uint8 or bool"
        )))
    }
}

/// A new array of `dims` made of one row of `width` values a game, each row set to `zero`
/// and then written by `fill`, over threads and without the GIL: no pass over the whole
/// array before the rows are written (a fresh zeroed array costs as much as the rows).
fn rows_array<'py, T, D, W: GameWord>(
    py: Python<'py>,
    batch: &Batch<W>,
    dims: D,
    width: usize,
    zero: T,
    fill: impl Fn(&BatchGame<W>, &mut [T]) + Sync + Send,
) -> Bound<'py, PyArray<T, D::Dim>>
where
    T: Element + Copy + Send + Sync,
    D: IntoDimension,
{
    // SAFETY: the array is new (nothing else refers to it) and C-contiguous; its values are
    // only written here, each one (through `MaybeUninit`) before a `&mut [T]` covers it.
    let array = unsafe { PyArray::<T, D::Dim>::new(py, dims, false) };
    let cells = unsafe {
        std::slice::from_raw_parts_mut(array.data().cast::<MaybeUninit<T>>(), array.len())
    };
    py.detach(|| {
        batch.for_each_row(cells, width, |game, row| {
            for cell in row.iter_mut() {
                cell.write(zero);
            }
            // SAFETY: every value of the row was just written.
            let row = unsafe { &mut *(std::ptr::from_mut(row) as *mut [T]) };
            fill(game, row);
        })
    });
    array
}

/// Write every game's row into `out` (of shape `dims`, C-contiguous, writeable), over
/// threads and without the GIL.
fn fill_rows<'py, T, D, W: GameWord>(
    py: Python<'py>,
    batch: &Batch<W>,
    out: Bound<'py, PyArray<T, D>>,
    dims: &[usize],
    width: usize,
    fill: impl Fn(&BatchGame<W>, &mut [T]) + Sync + Send,
) -> PyResult<Bound<'py, PyArray<T, D>>>
where
    T: Element + Send + Sync,
    D: numpy::ndarray::Dimension,
{
    with_cells(&out, dims, "out", |cells| {
        py.detach(|| batch.for_each_row(cells, width, fill))
    })?;
    Ok(out)
}

/// `work` on the values of `array` (`name` in messages), which must have the shape `dims`,
/// be C-contiguous and writeable, and not be borrowed elsewhere (a ValueError otherwise).
fn with_cells<T, D, R>(
    array: &Bound<'_, PyArray<T, D>>,
    dims: &[usize],
    name: &str,
    work: impl FnOnce(&mut [T]) -> R,
) -> PyResult<R>
where
    T: Element,
    D: numpy::ndarray::Dimension,
{
    if array.shape() != dims {
        return Err(PyValueError::new_err(format!(
            "{name} must have shape {dims:?}, not {:?}",
            array.shape()
        )));
    }
    let mut guard = array.try_readwrite().map_err(|e| {
        PyValueError::new_err(format!(
            "{name} must be a writeable array nothing else borrows: {e}"
        ))
    })?;
    let cells = guard
        .as_slice_mut()
        .map_err(|_| PyValueError::new_err(format!("{name} must be C-contiguous")))?;
    Ok(work(cells))
}
