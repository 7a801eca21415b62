//! The race evaluation of уголки (the corners game): nothing is captured, so nothing is
//! counted but the way each side still has to go.

use crate::geometry::Color;
use crate::position::Position;

/// Уголки (the corners race), from the side to move's point of view: the race to the
/// other's house. A piece is worth `CORNER_STEP` for each step (along a rank or file) it
/// still has to go to reach the target house, plus a little for going deep into it (making
/// room behind), less `CORNER_HOME` while it has not left its own house (the 40th-move rule,
/// which the search cannot count, is reached through this); the side to move is a step
/// ahead (`CORNER_TEMPO`).
pub fn evaluate_corners(pos: &Position) -> i32 {
    const CORNER_STEP: i32 = 10;
    const CORNER_HOME: i32 = 6;
    const CORNER_TEMPO: i32 = 5;
    let [white_house, black_house] = crate::games::HOUSES[pos.rules().variant as usize];
    // The target house's nearest file and rank from its owner's side (5 and 5 for 3×3
    // houses on the 8×8 board, 4 and 5 for 4×3 ones): Black's house seen from White's side.
    let near_file = (black_house.trailing_zeros() % 8) as i32;
    let near_rank = (black_house.trailing_zeros() / 8) as i32;
    // White's view of a square (file, rank from White's side); Black's is the mirror.
    let progress = |mut set: u64, home: u64, mirror: bool| -> i32 {
        let at_home = (set & home).count_ones() as i32;
        let mut total = -CORNER_HOME * at_home;
        while set != 0 {
            let bit = set.trailing_zeros() as i32;
            set &= set - 1;
            let (mut file, mut rank) = (bit % 8, bit / 8);
            if mirror {
                (file, rank) = (7 - file, 7 - rank);
            }
            let to_go = (near_file - file).max(0) + (near_rank - rank).max(0);
            total += -CORNER_STEP * to_go + (file + rank);
        }
        total
    };
    let white = progress(pos.pieces(Color::White).bits(), white_house, false);
    let black = progress(pos.pieces(Color::Black).bits(), black_house, true);
    let score = white - black;
    CORNER_TEMPO
        + if pos.turn() == Color::White {
            score
        } else {
            -score
        }
}
