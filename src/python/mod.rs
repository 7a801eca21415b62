//! `shashki._core`: thin PyO3 wrappers over the Rust core, one module a concept. No rules
//! live here.

mod args;
mod batch;
mod board;
mod chapaev;
mod columns;
mod egtb;
mod engine;
mod errors;
mod moves;
mod perft;
mod squares;
mod star;
mod training;

pub(crate) use args::{fen_text, move_text_arg, notation_arg, square_arg_on};
pub(crate) use board::{
    parse_fen_arg, parse_fen_arg_in, rules_arg, rules_arg_any, LegalMoves, PyBoard, PyDrawRules,
};
pub(crate) use errors::{
    move_text_err, AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError, SquareError,
};
pub(crate) use moves::{color_bool, wrap, PushedMoves, PyMove, PyPiece};

use perft::*;
use pyo3::prelude::*;
use squares::*;
use training::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyBoard>()?;
    m.add_class::<columns::PyColumnBoard>()?;
    m.add_class::<columns::PyColumnControl>()?;
    m.add_class::<star::PyStarPosition>()?;
    m.add_class::<star::PyStarBatch>()?;
    m.add_class::<chapaev::PyChapaevTable>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyPiece>()?;
    m.add_class::<LegalMoves>()?;
    m.add_class::<PyDrawRules>()?;
    m.add_class::<batch::PyBatchBoards>()?;
    m.add_function(wrap_pyfunction!(batch::playouts, m)?)?;
    m.add_function(wrap_pyfunction!(batch::move_actions, m)?)?;
    m.add_function(wrap_pyfunction!(batch::search_positions, m)?)?;
    m.add(
        "DEFAULT_MOVE_OVERHEAD",
        crate::search::DEFAULT_MOVE_OVERHEAD.as_secs_f64(),
    )?;
    m.add(
        "MAX_MOVE_OVERHEAD",
        crate::search::MAX_MOVE_OVERHEAD.as_secs_f64(),
    )?;
    m.add("BATCH_ACTIONS", crate::batch::ACTIONS)?;
    m.add("BATCH_PLANES", crate::batch::PLANES)?;
    m.add(
        "MAIN_ROAD",
        crate::Bitboard::MAIN_ROAD
            .iter()
            .filter_map(|sq| sq.index8())
            .collect::<Vec<_>>(),
    )?;
    m.add_class::<engine::PySearchEngine>()?;
    m.add_class::<egtb::PyEndgameTables>()?;
    m.add_function(wrap_pyfunction!(egtb::build_endgame_tables, m)?)?;
    m.add_function(wrap_pyfunction!(egtb::endgame_block_cache, m)?)?;
    m.add_function(wrap_pyfunction!(egtb::endgame_balances, m)?)?;
    m.add_function(wrap_pyfunction!(egtb::endgame_refusal, m)?)?;
    m.add_function(wrap_pyfunction!(egtb::build_endgame_table, m)?)?;
    m.add_function(wrap_pyfunction!(square_name, m)?)?;
    m.add_function(wrap_pyfunction!(square_number, m)?)?;
    m.add_function(wrap_pyfunction!(parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(square_from_number, m)?)?;
    m.add_function(wrap_pyfunction!(squares::games, m)?)?;
    m.add_function(wrap_pyfunction!(squares::game_cards, m)?)?;
    m.add_function(wrap_pyfunction!(perft::perft, m)?)?;
    m.add_function(wrap_pyfunction!(perft_many, m)?)?;
    m.add_function(wrap_pyfunction!(child_positions, m)?)?;
    m.add_function(wrap_pyfunction!(start_fen, m)?)?;
    m.add_function(wrap_pyfunction!(eval_features, m)?)?;
    m.add_function(wrap_pyfunction!(training::family_features, m)?)?;
    m.add_function(wrap_pyfunction!(training::piece_sets, m)?)?;
    m.add_function(wrap_pyfunction!(training::evaluate_network, m)?)?;
    m.add_function(wrap_pyfunction!(training::family_weights, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_fens, m)?)?;
    m.add_function(wrap_pyfunction!(eval_patterns, m)?)?;
    m.add_function(wrap_pyfunction!(eval_known_endings, m)?)?;
    m.add("EVAL_REGIONS", crate::eval::learned::REGIONS)?;
    m.add("EVAL_REGION_KEYS", crate::eval::learned::REGION_KEYS)?;
    m.add("EVAL_BLOCKS", crate::eval::learned::BLOCKS)?;
    m.add("EVAL_BLOCK_KEYS", crate::eval::learned::BLOCK_KEYS)?;
    m.add("EVAL_SIDE_PATTERNS", crate::eval::learned::SIDE_PATTERNS)?;
    m.add(
        "EVAL_PATTERN_WEIGHTS",
        crate::eval::learned::PATTERN_WEIGHTS,
    )?;
    m.add_function(wrap_pyfunction!(eval_feature_name, m)?)?;
    m.add_function(wrap_pyfunction!(eval_weights, m)?)?;
    m.add_function(wrap_pyfunction!(eval_weights_checksum, m)?)?;
    m.add(
        "EVAL_WEIGHTS_CHECKSUM",
        crate::eval::learned::WEIGHTS_CHECKSUM,
    )?;
    m.add_function(wrap_pyfunction!(classic_weights, m)?)?;
    m.add("EVAL_SIDE_FEATURES", crate::eval::learned::SIDE_FEATURES)?;
    m.add(
        "FAMILY_FEATURE_NAMES",
        crate::eval::family::FEATURE_NAMES.to_vec(),
    )?;
    m.add_class::<PyPerftTable>()?;
    m.add("perft_divide", wrap_pyfunction!(perft_divide_py, m)?)?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("SquareError", py.get_type::<SquareError>())?;
    m.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    Ok(())
}
