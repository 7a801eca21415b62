//! The classic evaluation: hand-set weights of the 8×8 board's features (material, a man's
//! advancement, the centre, a guarded back rank, a king on the main road, a man about to
//! crown, men's mobility), from the side to move's point of view, in centi-men (a man =
//! 100), with the known endings.

use super::endings::ending;
use crate::geometry::Bitboard;
use crate::geometry::Color;
use crate::geometry::{Geometry, Square};
use crate::position::Position;

/// Every weight of the evaluation, in one place so they can be tuned.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king (worth several men).
    pub king: i32,
    /// Bonus for a man by rank from its own side (index 0 = own back rank).
    pub advancement: [i32; 8],
    /// A man on one of the four central squares (c5, d4, e5, f4).
    pub center: i32,
    /// A man still on its back rank (guarding the crowning squares) while the opponent has no king.
    pub back_rank: i32,
    /// A king on the main road a1–h8.
    pub king_main_road: i32,
    /// A man one step from crowning with a free square ahead.
    pub about_to_crown: i32,
    /// Each quiet move a man can make (a crude mobility term).
    pub mobility: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    man: 100,
    king: 330,
    advancement: [0, 2, 4, 7, 11, 16, 24, 0],
    center: 6,
    back_rank: 7,
    king_main_road: 20,
    about_to_crown: 45,
    mobility: 2,
};

/// Precomputed masks.
struct Masks {
    main_road: Bitboard,
    center: Bitboard,
    ranks: [Bitboard; 8],
}

const fn mask(coords: &[(u8, u8)]) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut i = 0;
    while i < coords.len() {
        if let Some(sq) = Square::from_coords(coords[i].0, coords[i].1) {
            b = Bitboard(b.0 | 1u64 << sq.bit());
        }
        i += 1;
    }
    b
}

const MASKS: Masks = Masks {
    main_road: Bitboard::MAIN_ROAD,
    // c5 d4 e5 f4
    center: mask(&[(2, 4), (3, 3), (4, 4), (5, 3)]),
    ranks: [
        Geometry::EIGHT.rank(0),
        Geometry::EIGHT.rank(1),
        Geometry::EIGHT.rank(2),
        Geometry::EIGHT.rank(3),
        Geometry::EIGHT.rank(4),
        Geometry::EIGHT.rank(5),
        Geometry::EIGHT.rank(6),
        Geometry::EIGHT.rank(7),
    ],
};

fn side_score(pos: &Position, color: Color, w: &Weights, m: &Masks) -> i32 {
    let men = pos.men(color);
    let kings = pos.kings(color);
    let opponent_kings = pos.kings(!color).count();
    let mut s = w.man * men.count() as i32 + w.king * kings.count() as i32;
    for r in 0..8u8 {
        let own_rank = if color == Color::White { r } else { 7 - r };
        s += w.advancement[own_rank as usize] * (men & m.ranks[r as usize]).count() as i32;
    }
    s += w.center * (men & m.center).count() as i32;
    if opponent_kings == 0 {
        let back = if color == Color::White { 0 } else { 7 };
        s += w.back_rank * (men & m.ranks[back]).count() as i32;
    }
    s += w.king_main_road * (kings & m.main_road).count() as i32;
    let empty = Bitboard(Geometry::EIGHT.board().0 & !pos.occupied().0);
    let (fwd, pre_crown) = match color {
        Color::White => (
            [crate::Direction::UpLeft, crate::Direction::UpRight],
            m.ranks[6],
        ),
        Color::Black => (
            [crate::Direction::DownLeft, crate::Direction::DownRight],
            m.ranks[1],
        ),
    };
    let steps = (men.shift(fwd[0]) & empty).count() + (men.shift(fwd[1]) & empty).count();
    s += w.mobility * steps as i32;
    let near = men & pre_crown;
    let free = (near.shift(fwd[0]) & empty).shift(fwd[0].opposite())
        | (near.shift(fwd[1]) & empty).shift(fwd[1].opposite());
    s += w.about_to_crown * free.count() as i32;
    s
}

/// The classic (hand-set) evaluation from the side to move's point of view.
pub fn evaluate_classic(pos: &Position) -> i32 {
    let m = &MASKS;
    let white = match ending(pos) {
        Some(v) => v,
        None => {
            side_score(pos, Color::White, &WEIGHTS, m) - side_score(pos, Color::Black, &WEIGHTS, m)
        }
    };
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}
