//! Helpers shared by the rule tests.
#![allow(dead_code)]

use shashki::{position_from_fen, Move, Position};

/// The position of a FEN known to be valid.
pub fn pos(fen: &str) -> Position {
    position_from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves written with every landing square, sorted.
pub fn moves(fen: &str) -> Vec<String> {
    let mut v: Vec<String> = pos(fen).legal_moves().iter().map(Move::long_text).collect();
    v.sort();
    v
}

/// The legal move whose long text is `text`.
pub fn find(fen: &str, text: &str) -> Move {
    *pos(fen)
        .legal_moves()
        .iter()
        .find(|m| m.long_text() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {fen}: {:?}", moves(fen)))
}

/// The FEN after playing `text`.
pub fn after(fen: &str, text: &str) -> String {
    let mut p = pos(fen);
    let m = find(fen, text);
    p.play(&m).expect("legal");
    shashki::write_fen(&p, shashki::Notation::Algebraic)
}
