//! The known endings: the verdicts material alone decides in the games of flying kings (a
//! lone king holding against one or two pieces, three kings winning off the main road,
//! four winning outright; docs/engine.rst). The classic, learned and network evaluations
//! answer them before weighing anything.

use crate::geometry::{Bitboard, Color};
use crate::position::Position;

/// Whether material alone decides the evaluation ([`ending`]): the learned weights are not
/// used there, and the fit leaves such positions out.
pub fn known_ending(pos: &Position) -> bool {
    ending(pos).is_some()
}

/// Known endings: `Some(score for White)` when material alone decides the verdict (under
/// the move rules whose card facts say the endings hold: Russian and Brazilian).
pub(super) fn ending(pos: &Position) -> Option<i32> {
    if !crate::games::CODE_FACTS[usize::from(pos.rules_code())].known_endings {
        return None;
    }
    let count = |c: Color| (pos.men(c).count(), pos.kings(c).count());
    for strong in [Color::White, Color::Black] {
        let weak = !strong;
        if count(weak) != (0, 1) {
            continue;
        }
        let (men, kings) = count(strong);
        let sign = if strong == Color::White { 1 } else { -1 };
        // One king against one king, two kings, or a king and a man: a draw (RULES 7.2.8).
        if men + kings <= 2 && kings >= 1 {
            return Some(0);
        }
        if men == 0 && kings == 3 {
            // Three kings win against a lone king, unless it holds the main road.
            let on_road = pos.kings(weak).intersects(Bitboard::MAIN_ROAD);
            return Some(if on_road { 0 } else { sign * 900 });
        }
        if men == 0 && kings >= 4 {
            return Some(sign * 1500);
        }
    }
    None
}

/// [`ending`]'s verdict from the side to move's point of view (None for any other
/// position).
#[inline]
pub(super) fn ending_for_mover(pos: &Position) -> Option<i32> {
    ending(pos).map(|white| {
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    })
}
