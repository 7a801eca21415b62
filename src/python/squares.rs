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

/// Every game's card, in the registry's order: a dict of its facts each (what
/// `shashki.games()` turns into `GameInfo` objects; docs/development.md shows one whole).
#[pyfunction]
pub(super) fn game_cards(py: Python<'_>) -> PyResult<Vec<Bound<'_, pyo3::types::PyDict>>> {
    crate::GAMES
        .iter()
        .map(|g| {
            let card = pyo3::types::PyDict::new(py);
            let geometry = g.numbering.geometry();
            card.set_item("name", g.name)?;
            card.set_item("display_name", g.display)?;
            card.set_item("aliases", pyo3::types::PyTuple::new(py, g.aliases)?)?;
            card.set_item("board_size", geometry.size())?;
            card.set_item("square_count", geometry.square_count())?;
            card.set_item("every_square", geometry.every_square())?;
            card.set_item(
                "first",
                if g.first == crate::Color::White {
                    "white"
                } else {
                    "black"
                },
            )?;
            card.set_item("notation", if g.numeric { "numeric" } else { "algebraic" })?;
            card.set_item("turned", g.numbering.inverted())?;
            card.set_item("game_type", g.game_type)?;
            card.set_item("tagged_on", g.tagged_on.map(|v| v.name()))?;
            card.set_item("lidraughts_type", g.lidraughts_type)?;
            card.set_item("hub_names", pyo3::types::PyTuple::new(py, g.hub_names)?)?;
            card.set_item("hub_index_numbers", g.hub_index_numbers)?;
            card.set_item("draw_rules", g.draw.name())?;
            card.set_item("move_rules", format!("{:?}", g.moves).to_lowercase())?;
            card.set_item("no_moves_wins", g.no_moves_wins)?;
            let actions = if crate::batch::fits(g.variant) {
                crate::batch::Shape::of(g.variant).actions
            } else {
                0
            };
            card.set_item("actions", actions)?;
            card.set_item("evaluation", g.evaluation.name())?;
            card.set_item("evaluation_match", g.evaluation_match)?;
            card.set_item("stacks", g.stacks)?;
            Ok(card)
        })
        .collect()
}
