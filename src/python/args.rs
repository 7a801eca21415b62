//! Arguments from Python, checked: integers of any size and strings of any content give a
//! clear exception naming the argument and the allowed values (never `OverflowError` or
//! `UnicodeEncodeError` from deep inside a conversion), and long Rust work that Ctrl-C can
//! interrupt.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use super::errors::{FenError, InvalidMoveError, SquareError};
use crate::{Notation, Square};

/// An integer argument within `lo..=hi`. Not an int: `TypeError`; an int out of range (of
/// any size): the error `out_of_range` makes of the message.
pub(crate) fn int_in(
    obj: &Bound<'_, PyAny>,
    name: &str,
    lo: i64,
    hi: i64,
    out_of_range: fn(String) -> PyErr,
) -> PyResult<i64> {
    if !obj.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            type_name(obj)
        )));
    }
    match obj.extract::<i64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(v) => Err(out_of_range(format!(
            "{name} must be between {lo} and {hi}, not {v}"
        ))),
        Err(_) => Err(out_of_range(format!(
            "{name} must be between {lo} and {hi}, not a number that large"
        ))),
    }
}

/// An optional integer argument within `lo..=hi` (`ValueError` when out of range).
pub(crate) fn opt_int_in(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: i64,
    hi: i64,
) -> PyResult<Option<i64>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => int_in(o, name, lo, hi, PyValueError::new_err).map(Some),
    }
}

/// The name of an object's type, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_owned())
}

/// A string argument. Not a str: `TypeError`; a str that is not valid Unicode (a lone
/// surrogate): the error `invalid` makes of the message, naming where.
pub(crate) fn text(
    obj: &Bound<'_, PyAny>,
    what: &str,
    invalid: fn(String) -> PyErr,
) -> PyResult<String> {
    let s = obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a str, not {}", type_name(obj)))
    })?;
    match s.to_cow() {
        Ok(t) => Ok(t.into_owned()),
        Err(_) => {
            let lossy = s.to_string_lossy();
            let at = lossy.chars().position(|c| c == '\u{FFFD}').unwrap_or(0);
            Err(invalid(format!(
                "{what} is not valid text: a lone surrogate at character {at}"
            )))
        }
    }
}

/// How often a thread waiting for Rust work looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Run `work` on its own thread while the calling thread, without the GIL, checks for
/// signals every 50 ms. On a signal's exception (KeyboardInterrupt from Ctrl-C) `stop` is
/// raised, the work is waited for (it must end soon after `stop`) and the exception is
/// returned instead of its result.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let handle = std::thread::Builder::new()
                .name("shashki-work".to_owned())
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    let out = work();
                    let _ = done.send(());
                    out
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
            let mut signal: Option<PyErr> = None;
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                if signal.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        signal = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            let out = handle
                .join()
                .map_err(|_| PyRuntimeError::new_err("internal error: the work thread panicked"))?;
            match signal {
                Some(e) => Err(e),
                None => Ok(out),
            }
        })
    })
}

// ---- the arguments of the library's own types ------------------------------------------

/// A square index of `geometry`'s board (0 = a1, then along the rank).
pub(crate) fn square_arg_on(sq: &Bound<'_, PyAny>, geometry: &crate::Geometry) -> PyResult<Square> {
    let last = geometry.square_count() as i64 - 1;
    let index = int_in(sq, "square index", 0, last, SquareError::new_err)?;
    usize::try_from(index)
        .ok()
        .and_then(|i| geometry.square(i))
        .ok_or_else(|| {
            SquareError::new_err(format!("square index {index} is not within 0..{last}"))
        })
}

pub(crate) fn fen_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    text(obj, "FEN", FenError::new_err)
}

pub(crate) fn move_text_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    text(obj, "move text", InvalidMoveError::new_err)
}

pub(crate) fn notation_arg(notation: &Bound<'_, PyAny>) -> PyResult<Notation> {
    let notation = text(notation, "notation", PyValueError::new_err)?;
    match notation.as_str() {
        "numeric" => Ok(Notation::Numeric),
        "algebraic" => Ok(Notation::Algebraic),
        other => Err(PyValueError::new_err(format!(
            "notation must be 'numeric' or 'algebraic', not {other:?}"
        ))),
    }
}
