//! The learned evaluation's training hooks (`python -m shashki.train fit`): features,
//! patterns and weights of positions given as FENs.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{fen_text, parse_fen_arg};

/// The learned evaluation's features of each FEN, as little-endian float32 rows of
/// `2 * EVAL_SIDE_FEATURES` (middle-game share, then endgame share): for the training command.
#[pyfunction]
pub(super) fn eval_features<'py>(
    py: Python<'py>,
    fens: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let mut out = Vec::with_capacity(fens.len() * crate::eval::learned::FEATURES * 4);
    for fen in &fens {
        let pos = parse_fen_arg(&fen_text(fen)?)?;
        for value in crate::eval::learned::features(&pos) {
            out.extend_from_slice(&value.to_le_bytes());
        }
    }
    Ok(pyo3::types::PyBytes::new(py, &out))
}

/// The learned evaluation's pattern indices of each FEN, as little-endian u16 rows of
/// `2 * EVAL_SIDE_PATTERNS` (the side to move's regions and blocks, then the opponent's).
#[pyfunction]
pub(super) fn eval_patterns<'py>(
    py: Python<'py>,
    fens: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let mut out = Vec::with_capacity(fens.len() * 2 * crate::eval::learned::SIDE_PATTERNS * 2);
    for fen in &fens {
        let pos = parse_fen_arg(&fen_text(fen)?)?;
        for value in crate::eval::learned::patterns(&pos) {
            out.extend_from_slice(&value.to_le_bytes());
        }
    }
    Ok(pyo3::types::PyBytes::new(py, &out))
}

/// The static evaluation (`"classic"` or `"learned"`) of each FEN, centi-men, side to move's
/// view; FENs of `variant` (Russian draughts by default) in its numbering.
#[pyfunction]
#[pyo3(signature = (fens, kind, variant = None))]
pub(super) fn evaluate_fens(
    fens: Vec<Bound<'_, PyAny>>,
    kind: &str,
    variant: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<i32>> {
    let kind = crate::search::Evaluation::parse(kind).ok_or_else(|| {
        PyValueError::new_err(format!(
            "kind must be 'learned', 'classic' or 'family', not {kind:?}"
        ))
    })?;
    let rules = match variant {
        None => None,
        Some(v) => Some(super::rules_arg(Some(v), false)?),
    };
    fens.iter()
        .map(|f| {
            let text = fen_text(f)?;
            let pos = match rules {
                None => parse_fen_arg(&text)?,
                Some(rules) => {
                    super::board::parse_fen_with_clocks(&text, rules)
                        .map_err(|e| PyValueError::new_err(e.to_string()))?
                        .0
                }
            };
            Ok(crate::eval::evaluate_with(&pos, kind))
        })
        .collect()
}

/// Whether material alone decides each FEN's evaluation (known endings).
#[pyfunction]
pub(super) fn eval_known_endings(fens: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<bool>> {
    fens.iter()
        .map(|f| Ok(crate::eval::known_ending(&parse_fen_arg(&fen_text(f)?)?)))
        .collect()
}

/// The name of a side feature of the learned evaluation.
#[pyfunction]
pub(super) fn eval_feature_name(index: usize) -> String {
    crate::eval::learned::feature_name(index)
}

/// The learned evaluation's weights as compiled: `(middle game, endgame, patterns)`, in
/// 1/16 centi-men.
#[pyfunction]
pub(super) fn eval_weights() -> (Vec<i32>, Vec<i32>, Vec<i16>) {
    crate::eval::learned::weights()
}

/// FNV-1a of the compiled learned weights (see `shashki.train.weights_checksum`).
#[pyfunction]
pub(super) fn eval_weights_checksum() -> u64 {
    crate::eval::learned::weights_checksum()
}

/// The classic evaluation's hand-set weights.
#[pyfunction]
pub(super) fn classic_weights(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let w = crate::eval::WEIGHTS;
    let d = PyDict::new(py);
    d.set_item("man", w.man)?;
    d.set_item("king", w.king)?;
    d.set_item("advancement", w.advancement.to_vec())?;
    d.set_item("center", w.center)?;
    d.set_item("back_rank", w.back_rank)?;
    d.set_item("king_main_road", w.king_main_road)?;
    d.set_item("about_to_crown", w.about_to_crown)?;
    d.set_item("mobility", w.mobility)?;
    Ok(d)
}

/// The family evaluation's features of each FEN of `variant` (the side to move's counts
/// minus the opponent's), as little-endian int32 rows of `FAMILY_FEATURES`, and whether the
/// side to move must capture there (the fit keeps quiet positions only).
#[pyfunction]
#[pyo3(signature = (fens, variant = None))]
pub(super) fn family_features<'py>(
    py: Python<'py>,
    fens: Vec<String>,
    variant: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, pyo3::types::PyBytes>, Vec<bool>)> {
    let rules = super::rules_arg_any(variant, false)?;
    let mut out = Vec::with_capacity(fens.len() * crate::eval::family::FEATURES * 4);
    let mut captures = Vec::with_capacity(fens.len());
    let wide = rules.variant.geometry().is_wide();
    for (i, text) in fens.iter().enumerate() {
        let bad = |e: PyErr| PyValueError::new_err(format!("fens[{i}]: {e}"));
        // The 12×12 board's positions in its word, their features read on its board.
        let (features, capture) = if wide {
            let (pos, _) = super::board::parse_fen_with_clocks::<u128>(text, rules).map_err(bad)?;
            (crate::eval::family::features_wide(&pos), pos.has_captures())
        } else {
            let (pos, _) = super::board::parse_fen_with_clocks::<u64>(text, rules).map_err(bad)?;
            (crate::eval::family::features(&pos), pos.has_captures())
        };
        for value in features {
            out.extend_from_slice(&value.to_le_bytes());
        }
        captures.push(capture);
    }
    Ok((pyo3::types::PyBytes::new(py, &out), captures))
}

/// The family evaluation's weights a game is evaluated with now (fitted or hand-set).
#[pyfunction]
#[pyo3(signature = (variant = None))]
pub(super) fn family_weights(variant: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<i32>> {
    let rules = super::rules_arg_any(variant, false)?;
    Ok(crate::eval::family::weights_for(rules.variant).to_vec())
}

/// Each FEN's pieces as four sets of square indices (the board's own index: 0 = a1, rank by
/// rank): little-endian u64 rows of White men, White kings, Black men, Black kings; and
/// whether White is to move. The network's training data (`shashki.network`).
#[pyfunction]
#[pyo3(signature = (fens, variant = None))]
pub(super) fn piece_sets<'py>(
    py: Python<'py>,
    fens: Vec<String>,
    variant: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, pyo3::types::PyBytes>, Vec<bool>)> {
    use crate::geometry::Color;
    let rules = super::rules_arg(variant, false)?;
    let geometry = rules.variant.geometry();
    let mut out = Vec::with_capacity(fens.len() * 32);
    let mut white = Vec::with_capacity(fens.len());
    for (i, text) in fens.iter().enumerate() {
        let (pos, _) = super::board::parse_fen_with_clocks::<u64>(text, rules)
            .map_err(|e| PyValueError::new_err(format!("fens[{i}]: {e}")))?;
        for set in [
            pos.men(Color::White),
            pos.kings(Color::White),
            pos.men(Color::Black),
            pos.kings(Color::Black),
        ] {
            let mut bits = 0u64;
            for sq in set.iter() {
                if let Some(index) = geometry.index(sq) {
                    bits |= 1 << index;
                }
            }
            out.extend_from_slice(&bits.to_le_bytes());
        }
        white.push(pos.turn() == Color::White);
    }
    Ok((pyo3::types::PyBytes::new(py, &out), white))
}

/// The network evaluation of each FEN (centi-men, side to move's view) by the network in
/// `network` (a file's bytes), computed from scratch: the training command checks its
/// export against numpy with it.
#[pyfunction]
pub(super) fn evaluate_network(fens: Vec<String>, network: &[u8]) -> PyResult<Vec<i32>> {
    let net = crate::eval::network::Network::from_bytes(network)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let rules = crate::games::RuleSet::new(net.variant(), false);
    fens.iter()
        .enumerate()
        .map(|(i, text)| {
            let (pos, _) = super::board::parse_fen_with_clocks::<u64>(text, rules)
                .map_err(|e| PyValueError::new_err(format!("fens[{i}]: {e}")))?;
            Ok(net.evaluate_fresh(&pos))
        })
        .collect()
}
