//! The exceptions of `shashki._core` (each a `ValueError`), and the core's move-text errors
//! mapped to them.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::notation::MoveTextError;

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
