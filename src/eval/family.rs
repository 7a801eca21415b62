//! The family evaluation: one linear evaluation for any board and any game whose rules make
//! the Russian evaluations wrong (the 10×10 games), over a few features each game weighs
//! its own way: material, a man's advancement rank by rank, the centre, a guarded back
//! rank, men's mobility and a man about to crown. Each game's weights are fitted to its
//! own self-play results (`python -m shashki.train family`, docs/search.md); a game without
//! fitted weights uses the hand-set ones.

use crate::games::Variant;
use crate::geometry::Color;
use crate::geometry::Geometry;
use crate::geometry::{Bitboard, Direction, Word};
use crate::position::Position;

pub use super::family_weights::{FamilyWeights, FEATURES};

/// The features' names, in order (the training command's columns).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "man",
    "king",
    "rank0",
    "rank1",
    "rank2",
    "rank3",
    "rank4",
    "rank5",
    "rank6",
    "rank7",
    "rank8",
    "rank9",
    "center",
    "back_rank",
    "mobility",
    "about_to_crown",
];

/// The hand-set weights: a man 100, a king 300, advancement rising towards the far rank,
/// the centre, a guarded back rank while the opponent has no king, each quiet step of a
/// man, a man one step from crowning with a free square ahead.
pub const HAND_SET: FamilyWeights = [100, 300, 0, 1, 3, 5, 7, 10, 13, 17, 24, 0, 5, 6, 2, 40];

/// The central squares of a board of side `size`: files c to the third from the right,
/// the middle four ranks.
const fn center(geometry: &Geometry) -> Bitboard {
    let size = geometry.size();
    let mut b = Bitboard::EMPTY;
    let mut rank = size / 2 - 2;
    while rank <= size / 2 + 1 {
        let mut file = 2;
        while file + 2 < size {
            if let Some(sq) = geometry.square_at(file, rank) {
                b = Bitboard(b.0 | 1u64 << sq.bit());
            }
            file += 1;
        }
        rank += 1;
    }
    b
}

const CENTER_EIGHT: Bitboard = center(Geometry::EIGHT);
const CENTER_TEN: Bitboard = center(Geometry::TEN);
const CENTER_EVERY_SQUARE: Bitboard = center(Geometry::EIGHT_EVERY_SQUARE);

/// One side's feature counts.
fn side_features(pos: &Position, color: Color, out: &mut [i32; FEATURES]) {
    let g = pos.geometry();
    let size = g.size();
    let empty = Bitboard(g.board().0 & !pos.occupied().0);
    let men = pos.men(color);
    out[0] = men.count() as i32;
    out[1] = pos.kings(color).count() as i32;
    for r in 0..size {
        let own_rank = if color == Color::White {
            r
        } else {
            size - 1 - r
        };
        // Ranks past the ninth share the last weight (no board here has more than ten).
        out[2 + (own_rank as usize).min(9)] += (men & g.rank(r)).count() as i32;
    }
    let center = if g.every_square() {
        CENTER_EVERY_SQUARE
    } else if size == 10 {
        CENTER_TEN
    } else {
        CENTER_EIGHT
    };
    out[12] = (men & center).count() as i32;
    if pos.kings(!color).is_empty() {
        let back = if color == Color::White { 0 } else { size - 1 };
        out[13] = (men & g.rank(back)).count() as i32;
    }
    if g.every_square() {
        // Turkish draughts: men step forward and sideways; one about to crown has the
        // square ahead of it free.
        let (steps, free_ahead) = crate::movegen::turkish::man_steps(men.0, color, empty.0);
        out[14] = steps as i32;
        let pre_crown = if color == Color::White {
            g.rank(size - 2)
        } else {
            g.rank(1)
        };
        out[15] = (free_ahead & pre_crown.0).count_ones() as i32;
        return;
    }
    let (fwd, pre_crown) = match color {
        Color::White => ([Direction::UpLeft, Direction::UpRight], g.rank(size - 2)),
        Color::Black => ([Direction::DownLeft, Direction::DownRight], g.rank(1)),
    };
    out[14] = ((men.shift(fwd[0]) & empty).count() + (men.shift(fwd[1]) & empty).count()) as i32;
    let near = men & pre_crown;
    let free = (near.shift(fwd[0]) & empty).shift(fwd[0].opposite())
        | (near.shift(fwd[1]) & empty).shift(fwd[1].opposite());
    out[15] = free.count() as i32;
}

/// The features of `pos`: the side to move's counts minus the opponent's.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let mut us = [0; FEATURES];
    let mut them = [0; FEATURES];
    side_features(pos, pos.turn(), &mut us);
    side_features(pos, !pos.turn(), &mut them);
    let mut out = [0; FEATURES];
    for i in 0..FEATURES {
        out[i] = us[i] - them[i];
    }
    out
}

/// The weights a game is evaluated with: its fitted ones, or the hand-set ones.
pub fn weights_for(variant: Variant) -> &'static FamilyWeights {
    super::family_weights::FITTED[variant.index()]
        .as_ref()
        .unwrap_or(&HAND_SET)
}

/// The family evaluation with the weights `w`, from the side to move's point of view,
/// centi-men.
#[inline]
pub fn evaluate_family(pos: &Position, w: &FamilyWeights) -> i32 {
    features(pos).iter().zip(w).map(|(f, w)| f * w).sum()
}

/// The family evaluation of a position of the 12×12 board (Canadian draughts), from the
/// side to move's point of view, centi-men: the same features as on the other boards, a
/// man's advancement counted from the crowning rank (the last nine ranks take the weights
/// of the 10×10 board's), with the game's fitted weights or the hand-set ones.
pub fn evaluate_wide<W: Word>(pos: &Position<W>) -> i32 {
    evaluate_wide_with(pos, weights_for(pos.rules().variant))
}

/// [`evaluate_wide`] with the weights `w` (the hand-set ones for the `classic` evaluation).
pub fn evaluate_wide_with<W: Word>(pos: &Position<W>, w: &FamilyWeights) -> i32 {
    features_wide(pos).iter().zip(w).map(|(f, w)| f * w).sum()
}

/// The features [`evaluate_wide`] weighs: the side to move's counts minus the opponent's.
pub fn features_wide<W: Word>(pos: &Position<W>) -> [i32; FEATURES] {
    let mut us = [0; FEATURES];
    let mut them = [0; FEATURES];
    wide_side_features(pos, pos.turn(), &mut us);
    wide_side_features(pos, !pos.turn(), &mut them);
    std::array::from_fn(|i| us[i] - them[i])
}

/// One side's feature counts on a board of any word.
fn wide_side_features<W: Word>(pos: &Position<W>, color: Color, out: &mut [i32; FEATURES]) {
    let g = pos.geometry();
    let size = g.size();
    let empty = Bitboard::<W>(g.board_in::<W>().0 & !pos.occupied().0);
    let men = pos.men(color);
    out[0] = men.count() as i32;
    out[1] = pos.kings(color).count() as i32;
    let own = |r: u8| {
        if color == Color::White {
            r
        } else {
            size - 1 - r
        }
    };
    for r in 0..size {
        // The ranks' weights counted back from the crowning rank (index 9).
        let from_top = size - 1 - own(r);
        let index = 9usize.saturating_sub(from_top as usize);
        out[2 + index] += (men & g.rank_in::<W>(r)).count() as i32;
    }
    let mut center = Bitboard::<W>::EMPTY;
    for rank in size / 2 - 2..=size / 2 + 1 {
        for file in 2..size - 2 {
            if let Some(sq) = g.square_at(file, rank) {
                center = center.with(sq);
            }
        }
    }
    out[12] = (men & center).count() as i32;
    if pos.kings(!color).is_empty() {
        let back = if color == Color::White { 0 } else { size - 1 };
        out[13] = (men & g.rank_in::<W>(back)).count() as i32;
    }
    let (fwd, pre_crown) = match color {
        Color::White => (
            [Direction::UpLeft, Direction::UpRight],
            g.rank_in::<W>(size - 2),
        ),
        Color::Black => (
            [Direction::DownLeft, Direction::DownRight],
            g.rank_in::<W>(1),
        ),
    };
    out[14] = ((men.shift(fwd[0]) & empty).count() + (men.shift(fwd[1]) & empty).count()) as i32;
    let near = men & pre_crown;
    let free = (near.shift(fwd[0]) & empty).shift(fwd[0].opposite())
        | (near.shift(fwd[1]) & empty).shift(fwd[1].opposite());
    out[15] = free.count() as i32;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_is_the_middle_of_each_board() {
        assert_eq!(CENTER_TEN.count(), 12);
        assert_eq!(CENTER_EIGHT.count(), 8);
    }

    #[test]
    fn features_are_the_side_to_moves_counts_minus_the_opponents() {
        let pos = crate::position_from_fen_in(
            "W:W31,32,K46:B19,20",
            crate::RuleSet::new(Variant::International, false),
        )
        .expect("fen");
        let f = features(&pos);
        assert_eq!((f[0], f[1]), (0, 1)); // two men each, a king for White
        let black = pos.with_turn(Color::Black);
        let g = features(&black);
        for i in 0..FEATURES {
            assert_eq!(f[i], -g[i]);
        }
    }

    #[test]
    fn the_twelve_by_twelve_features_are_the_side_to_moves_and_read_on_its_board() {
        let rules = crate::RuleSet::new(Variant::Canadian, false);
        let start = Position::<u128>::start_in(rules).expect("start");
        assert_eq!(features_wide(&start), [0; FEATURES]);
        // White: men on a5 (rank 5) and k11 (about to crown, l12 free), a king on a1;
        // Black: a man on b12 (its first rank, its back rank while White has a king).
        let pos: Position<u128> =
            crate::position_from_fen_in_word("W:W43,12,K67:B1", rules).expect("fen");
        let f = features_wide(&pos);
        assert_eq!((f[0], f[1]), (1, 1)); // two men against one, one king against none
        assert_eq!(f[15], 1); // k11 one step from crowning, l12 free
        assert_eq!(f[2 + 8], 1); // k11: the rank before the crowning one (index 8)
        let black = pos.with_turn(Color::Black);
        let g = features_wide(&black);
        for i in 0..FEATURES {
            assert_eq!(f[i], -g[i]);
        }
        assert_eq!(
            evaluate_wide_with(&pos, &HAND_SET),
            -evaluate_wide_with(&black, &HAND_SET)
        );
    }
}
