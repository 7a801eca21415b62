//! The giveaway evaluation (поддавки, antidraughts): the goal reversed.

use crate::geometry::{Bitboard, Color};
use crate::position::Position;

/// Giveaway (поддавки), from the side to move's point of view: material is a burden (a side
/// that has lost everything has won), kings most of all (they are hard to give away and
/// keep the side that has them moving); a side with few moves is close to being blocked,
/// which wins too.
pub fn evaluate_giveaway(pos: &Position) -> i32 {
    const MAN: i32 = 100;
    const KING: i32 = 250;
    const MOBILITY: i32 = 4;
    let us = pos.turn();
    let them = !us;
    let burden = |c: Color| MAN * pos.men(c).count() as i32 + KING * pos.kings(c).count() as i32;
    let steps = |c: Color| {
        let empty = Bitboard(pos.geometry().board().0 & !pos.occupied().0);
        let men = pos.men(c);
        let fwd = match c {
            Color::White => [crate::Direction::UpLeft, crate::Direction::UpRight],
            Color::Black => [crate::Direction::DownLeft, crate::Direction::DownRight],
        };
        ((men.shift(fwd[0]) & empty).count() + (men.shift(fwd[1]) & empty).count()) as i32
    };
    (burden(them) - burden(us)) + MOBILITY * (steps(them) - steps(us))
}
