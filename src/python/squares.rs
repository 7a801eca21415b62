//! Square names and numbers.

use pyo3::prelude::*;

use super::{args, square_arg, SquareError};
use crate::Square;

/// Algebraic name of a square index: `square_name(9) == "c3"`.
#[pyfunction]
pub(super) fn square_name(square: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(square_arg(square)?.name())
}

/// PDN number (1–32) of a square index: `square_number(9) == 22`.
#[pyfunction]
pub(super) fn square_number(square: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(square_arg(square)?.pdn())
}

/// Square index of a name (`"c3"`) or PDN number (`"22"`); SquareError otherwise.
#[pyfunction]
pub(super) fn parse_square(text: &Bound<'_, PyAny>) -> PyResult<usize> {
    let text = args::text(text, "square", SquareError::new_err)?;
    Square::parse(&text)
        .map(Square::index)
        .map_err(|e| SquareError::new_err(e.to_string()))
}

/// Square index of a PDN number (1–32).
#[pyfunction]
pub(super) fn square_from_number(number: &Bound<'_, PyAny>) -> PyResult<usize> {
    let number = args::int_in(number, "square number", 1, 32, SquareError::new_err)?;
    u32::try_from(number)
        .ok()
        .and_then(Square::from_pdn)
        .map(Square::index)
        .ok_or_else(|| SquareError::new_err(format!("square number {number} is not within 1..32")))
}
