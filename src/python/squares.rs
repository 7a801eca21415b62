//! Square names and numbers, in Russian draughts' numbering or a game's own.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::args::square_arg_on;
use super::{args, SquareError};
use crate::{Numbering, Variant};

/// The numbering of the game named by a `variant` argument (Russian draughts' by default).
fn numbering_arg(variant: Option<&str>) -> PyResult<Numbering> {
    match variant {
        None => Ok(Numbering::STANDARD),
        Some(name) => Variant::parse(name)
            .map(Variant::numbering)
            .ok_or_else(|| PyValueError::new_err(format!("unknown variant {name:?}"))),
    }
}

/// Algebraic name of a square index: `square_name(9) == "c3"`; with `variant`, the name
/// on that game's board (a turned board's files run the other way).
#[pyfunction]
#[pyo3(signature = (square, *, variant = None))]
pub(super) fn square_name(square: &Bound<'_, PyAny>, variant: Option<&str>) -> PyResult<String> {
    let numbering = numbering_arg(variant)?;
    Ok(numbering.name(square_arg_on(square, numbering.geometry())?))
}

/// Number (1–32) of a square index: `square_number(9) == 22` (PDN's for Russian draughts);
/// with `variant`, that game's number.
#[pyfunction]
#[pyo3(signature = (square, *, variant = None))]
pub(super) fn square_number(square: &Bound<'_, PyAny>, variant: Option<&str>) -> PyResult<u8> {
    let numbering = numbering_arg(variant)?;
    Ok(numbering.number(square_arg_on(square, numbering.geometry())?))
}

/// Square index of a name (`"c3"`) or number (`"22"`), in Russian draughts' numbering or,
/// with `variant`, that game's; SquareError otherwise.
#[pyfunction]
#[pyo3(signature = (text, *, variant = None))]
pub(super) fn parse_square(text: &Bound<'_, PyAny>, variant: Option<&str>) -> PyResult<usize> {
    let numbering = numbering_arg(variant)?;
    let text = args::text(text, "square", SquareError::new_err)?;
    numbering
        .parse(&text)
        .map(|sq| numbering.geometry().index_on_board(sq))
        .map_err(|e| SquareError::new_err(e.to_string()))
}

/// Square index of a number (1–32), PDN's for Russian draughts or, with `variant`, that
/// game's.
#[pyfunction]
#[pyo3(signature = (number, *, variant = None))]
pub(super) fn square_from_number(
    number: &Bound<'_, PyAny>,
    variant: Option<&str>,
) -> PyResult<usize> {
    let numbering = numbering_arg(variant)?;
    let last = numbering.count();
    let number = args::int_in(
        number,
        "square number",
        1,
        i64::from(last),
        SquareError::new_err,
    )?;
    u32::try_from(number)
        .ok()
        .and_then(|n| numbering.square(n))
        .map(|sq| numbering.geometry().index_on_board(sq))
        .ok_or_else(|| {
            SquareError::new_err(format!("square number {number} is not within 1..{last}"))
        })
}

/// One game as `games()` lists it.
type GameRow = (&'static str, Option<u8>, bool, bool, bool, usize, usize, u8);

/// The games shashki plays, in the registry's order: `(name, GameType or None, White moves
/// first, numeric PDN notation, turned board, playable squares, the batch API's actions,
/// board size)` each.
#[pyfunction]
pub(super) fn games() -> Vec<GameRow> {
    crate::GAMES
        .iter()
        .map(|g| {
            (
                g.name,
                g.game_type,
                g.first == crate::Color::White,
                g.numeric,
                g.numbering.inverted(),
                g.numbering.geometry().square_count(),
                crate::batch::Shape::of(g.variant).actions,
                g.numbering.geometry().size(),
            )
        })
        .collect()
}
