//! `ChapaevTable`: Чапаев, the flicking game, for Python (`shashki.chapaev` builds on it).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::args::{int_in, opt_int_in};
use crate::chapaev::aim::{aim, random_flick};
use crate::chapaev::{Disc, Flick, Round, Table, FRICTION, MAX_SPEED, RADIUS, RESTITUTION, STEP};

/// A disc: `(side, id, x, y, on)`.
type DiscTuple = (u8, u8, f64, f64, bool);
/// What a flick did: the table after it, the discs knocked off, whether the flicker
/// flicks again, the sampled frames, the simulated seconds.
type ShotTuple = (
    PyChapaevTable,
    Vec<(u8, u8)>,
    bool,
    Vec<Vec<(f64, f64)>>,
    f64,
);

/// A position of Чапаев: the discs (both sides), the side to flick, the flicks played in
/// the round. Frozen: a flick returns the table after it.
#[pyclass(name = "ChapaevTable", module = "shashki._core", frozen)]
#[derive(Clone)]
pub struct PyChapaevTable {
    table: Table,
}

fn flick_of(disc: &Bound<'_, PyAny>, angle: f64, strength: f64) -> PyResult<Flick> {
    let disc = int_in(disc, "disc", 0, 7, PyValueError::new_err)? as u8;
    Flick {
        disc,
        angle,
        strength,
    }
    .rounded()
    .map_err(|e| PyValueError::new_err(e.0))
}

#[pymethods]
impl PyChapaevTable {
    /// A round's start: White's row on rank `white_rank` + 1, Black's on rank 8 -
    /// `black_rank`, `turn` (0 White, 1 Black) to flick, drawn after `max_flicks`.
    #[new]
    #[pyo3(signature = (white_rank = None, black_rank = None, turn = None, max_flicks = None))]
    fn new(
        white_rank: Option<&Bound<'_, PyAny>>,
        black_rank: Option<&Bound<'_, PyAny>>,
        turn: Option<&Bound<'_, PyAny>>,
        max_flicks: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let w = opt_int_in(white_rank, "white_rank", 0, 6)?.unwrap_or(0) as u8;
        let b = opt_int_in(black_rank, "black_rank", 0, 6)?.unwrap_or(0) as u8;
        let turn = opt_int_in(turn, "turn", 0, 1)?.unwrap_or(0) as u8;
        let max_flicks = opt_int_in(max_flicks, "max_flicks", 1, 100_000)?.unwrap_or(200);
        Table::start(w, b, turn, max_flicks as u32)
            .map(|table| PyChapaevTable { table })
            .map_err(|e| PyValueError::new_err(e.0))
    }

    /// A table from its discs `(side, id, x, y, on)` (each side's ids 0-7 at most once, the
    /// discs on the board not overlapping), the side to flick, the flicks played.
    #[staticmethod]
    #[pyo3(signature = (discs, turn, flicks = None, max_flicks = None))]
    fn from_discs(
        discs: Vec<DiscTuple>,
        turn: &Bound<'_, PyAny>,
        flicks: Option<&Bound<'_, PyAny>>,
        max_flicks: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let turn = int_in(turn, "turn", 0, 1, PyValueError::new_err)? as u8;
        let flicks = opt_int_in(flicks, "flicks", 0, 100_000)?.unwrap_or(0) as u32;
        let max_flicks = opt_int_in(max_flicks, "max_flicks", 1, 100_000)?.unwrap_or(200);
        let discs = discs
            .into_iter()
            .map(|(side, id, x, y, on)| Disc { side, id, x, y, on })
            .collect();
        Table::from_discs(discs, turn, flicks, max_flicks as u32)
            .map(|table| PyChapaevTable { table })
            .map_err(|e| PyValueError::new_err(e.0))
    }

    /// The physics' constants: radius, the speed of strength 1, friction, restitution,
    /// the time step.
    #[staticmethod]
    fn physics() -> (f64, f64, f64, f64, f64) {
        (RADIUS, MAX_SPEED, FRICTION, RESTITUTION, STEP)
    }

    /// A flick's angle and strength as they are played: 0.01 degree in `[0, 360)`, 0.001
    /// of strength (a ValueError when they are not numbers within the limits).
    #[staticmethod]
    fn rounded(angle: f64, strength: f64) -> PyResult<(f64, f64)> {
        let f = Flick {
            disc: 0,
            angle,
            strength,
        }
        .rounded()
        .map_err(|e| PyValueError::new_err(e.0))?;
        Ok((f.angle, f.strength))
    }

    /// Every disc, `(side, id, x, y, on)`.
    fn discs(&self) -> Vec<DiscTuple> {
        self.table
            .discs
            .iter()
            .map(|d| (d.side, d.id, d.x, d.y, d.on))
            .collect()
    }

    #[getter]
    fn turn(&self) -> u8 {
        self.table.turn
    }

    #[getter]
    fn flicks(&self) -> u32 {
        self.table.flicks
    }

    #[getter]
    fn max_flicks(&self) -> u32 {
        self.table.max_flicks
    }

    /// The discs of `side` on the board.
    fn count(&self, side: &Bound<'_, PyAny>) -> PyResult<usize> {
        let side = int_in(side, "side", 0, 1, PyValueError::new_err)? as u8;
        Ok(self.table.count(side))
    }

    /// How the round stands: `("on", None)`, `("won", side)` or `("drawn", None)`.
    fn round(&self) -> (&'static str, Option<u8>) {
        match self.table.round() {
            Round::On => ("on", None),
            Round::Won(side) => ("won", Some(side)),
            Round::Drawn => ("drawn", None),
        }
    }

    /// Play a flick of the side to move (`disc` its id 0-7, `angle` degrees, `strength` 0
    /// to 1; rounded to 0.01 degree and 0.001): `(table after, knocked off, again,
    /// frames, seconds)`, the centres kept every `sample` steps (0: none). A ValueError
    /// naming what is wrong otherwise.
    #[pyo3(signature = (disc, angle, strength, sample = None))]
    fn flick(
        &self,
        py: Python<'_>,
        disc: &Bound<'_, PyAny>,
        angle: f64,
        strength: f64,
        sample: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ShotTuple> {
        let f = flick_of(disc, angle, strength)?;
        let sample = opt_int_in(sample, "sample", 0, 1000)?.unwrap_or(0) as usize;
        let mut table = self.table.clone();
        let shot = py
            .detach(|| table.flick(f, sample))
            .map_err(|e| PyValueError::new_err(e.0))?;
        Ok((
            PyChapaevTable { table },
            shot.off,
            shot.again,
            shot.frames,
            shot.seconds,
        ))
    }

    /// The computer's flick after `simulations` tries (1 to 1,000,000), reproducible from
    /// `seed`: `(disc, angle, strength, worth)`, None when the round is over. Without the
    /// GIL.
    #[pyo3(signature = (simulations, seed = None))]
    fn aim(
        &self,
        py: Python<'_>,
        simulations: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<(u8, f64, f64, f64)>> {
        let n = int_in(
            simulations,
            "simulations",
            1,
            1_000_000,
            PyValueError::new_err,
        )? as u32;
        let seed = opt_int_in(seed, "seed", 0, i64::MAX)?.unwrap_or(0) as u64;
        let table = self.table.clone();
        Ok(py
            .detach(|| aim(&table, n, seed))
            .map(|(f, w)| (f.disc, f.angle, f.strength, w)))
    }

    /// A random flick of the side to move (the random flicker's): `(disc, angle,
    /// strength)`, None when it has no disc.
    fn random_flick(&self, seed: &Bound<'_, PyAny>) -> PyResult<Option<(u8, f64, f64)>> {
        let seed = int_in(seed, "seed", 0, i64::MAX, PyValueError::new_err)? as u64;
        Ok(random_flick(&self.table, seed)
            .and_then(|f| f.rounded().ok())
            .map(|f| (f.disc, f.angle, f.strength)))
    }

    /// Whether two discs on the board overlap (never, at rest).
    fn overlaps(&self) -> bool {
        self.table.overlaps()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyChapaevTable>()
            .is_ok_and(|o| o.get().table == self.table)
    }

    fn __repr__(&self) -> String {
        format!(
            "<ChapaevTable white {} black {} turn {} flicks {}>",
            self.table.count(0),
            self.table.count(1),
            self.table.turn,
            self.table.flicks
        )
    }
}
