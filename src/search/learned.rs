//! The learned evaluation: a linear function of features whose weights are fitted to
//! self-play results (`python -m shashki.train`), shipped as generated constants
//! ([`super::learned_weights`]).
//!
//! Each side's features are counted from its own point of view (Black's squares turned half
//! round, so a man about to crown is on own rank 7 for both), and the evaluation is
//! `w · (features(side to move) − features(opponent))`: symmetric by construction. Every
//! feature has a middle-game and an endgame weight, blended by the number of pieces on the
//! board (24 or more: middle game only; none: endgame only).

use super::learned_weights::{END, MID, SCALE};
use crate::bitboard::{Bitboard, Direction};
use crate::piece::Color;
use crate::position::Position;

/// Features of one side: men by own square (32), kings by own square (32), whether it has a
/// king, its men's free forward steps, its kings' free squares, its men that have a free path
/// to crowning that no enemy piece can cut (runaways), and the side to move's tempo.
pub const SIDE_FEATURES: usize = 70;
/// Features the weights see: every side feature in two phases.
pub const FEATURES: usize = 2 * SIDE_FEATURES;

const MAN_SQUARE: usize = 0;
const KING_SQUARE: usize = 32;
const HAS_KING: usize = 64;
const MAN_STEPS: usize = 65;
const KING_SQUARES: usize = 66;
const RUNAWAY: usize = 67;
const KINGS_BEYOND_ONE: usize = 68;
const TO_MOVE: usize = 69;

/// Names of the side features (for the training command's report).
pub fn feature_name(i: usize) -> String {
    let square = |k: usize| {
        let rank = k / 4;
        let file = (k % 4) * 2 + (rank % 2);
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    };
    match i {
        0..=31 => format!("man {}", square(i)),
        32..=63 => format!("king {}", square(i - 32)),
        HAS_KING => "has a king".into(),
        MAN_STEPS => "men's free steps".into(),
        KING_SQUARES => "kings' free squares".into(),
        RUNAWAY => "runaway men".into(),
        KINGS_BEYOND_ONE => "kings beyond the first".into(),
        TO_MOVE => "side to move".into(),
        _ => format!("feature {i}"),
    }
}

/// The game phase: pieces on the board, at most 24.
#[inline]
pub fn phase(pos: &Position) -> i32 {
    (pos.occupied().count() as i32).min(24)
}

#[inline]
fn own_square(color: Color, index: usize) -> usize {
    match color {
        Color::White => index,
        Color::Black => 31 - index,
    }
}

fn forward(color: Color) -> [Direction; 2] {
    match color {
        Color::White => [Direction::UpLeft, Direction::UpRight],
        Color::Black => [Direction::DownLeft, Direction::DownRight],
    }
}

/// Free squares a king reaches along its four diagonals.
fn king_squares(kings: Bitboard, empty: Bitboard) -> u32 {
    let mut n = 0;
    for dir in Direction::ALL {
        let mut ray = kings.shift(dir) & empty;
        while ray.any() {
            n += ray.count();
            ray = ray.shift(dir) & empty;
        }
    }
    n
}

/// Men one or two ranks from crowning with a free square ahead: a cheap runaway test.
fn runaways(pos: &Position, color: Color) -> u32 {
    let empty = !pos.occupied();
    let men = pos.men(color);
    let near = match color {
        Color::White => Bitboard::rank(5) | Bitboard::rank(6),
        Color::Black => Bitboard::rank(1) | Bitboard::rank(2),
    };
    let [a, b] = forward(color);
    let free = (empty.shift(a.opposite()) | empty.shift(b.opposite())) & men & near;
    free.count()
}

/// Counts of one side's features (from its own point of view).
fn side(pos: &Position, color: Color, out: &mut [i32; SIDE_FEATURES]) {
    for sq in pos.men(color).iter() {
        out[MAN_SQUARE + own_square(color, sq.index())] += 1;
    }
    let kings = pos.kings(color);
    for sq in kings.iter() {
        out[KING_SQUARE + own_square(color, sq.index())] += 1;
    }
    let empty = !pos.occupied();
    let men = pos.men(color);
    let [a, b] = forward(color);
    out[HAS_KING] += i32::from(kings.any());
    out[KINGS_BEYOND_ONE] += (kings.count() as i32 - 1).max(0);
    out[MAN_STEPS] += ((men.shift(a) & empty).count() + (men.shift(b) & empty).count()) as i32;
    out[KING_SQUARES] += king_squares(kings, empty) as i32;
    out[RUNAWAY] += runaways(pos, color) as i32;
}

/// The side to move's features minus the opponent's, and the phase.
pub fn feature_difference(pos: &Position) -> ([i32; SIDE_FEATURES], i32) {
    let us = pos.turn();
    let mut own = [0i32; SIDE_FEATURES];
    let mut theirs = [0i32; SIDE_FEATURES];
    side(pos, us, &mut own);
    side(pos, !us, &mut theirs);
    for (o, t) in own.iter_mut().zip(theirs.iter()) {
        *o -= t;
    }
    own[TO_MOVE] = 1;
    (own, phase(pos))
}

/// The features as the fit sees them: each difference times the middle-game share, then
/// times the endgame share.
pub fn features(pos: &Position) -> [f32; FEATURES] {
    let (diff, phase) = feature_difference(pos);
    let mid = phase as f32 / 24.0;
    let mut out = [0f32; FEATURES];
    for i in 0..SIDE_FEATURES {
        out[i] = diff[i] as f32 * mid;
        out[SIDE_FEATURES + i] = diff[i] as f32 * (1.0 - mid);
    }
    out
}

/// Add one side's weighted features to the two phase sums (`sign` 1 for the side to move,
/// −1 for the opponent).
#[inline]
fn accumulate(pos: &Position, color: Color, sign: i32, mid: &mut i32, end: &mut i32) {
    let mut add = |i: usize, count: i32| {
        *mid += sign * count * MID[i];
        *end += sign * count * END[i];
    };
    for sq in pos.men(color).iter() {
        add(MAN_SQUARE + own_square(color, sq.index()), 1);
    }
    let kings = pos.kings(color);
    for sq in kings.iter() {
        add(KING_SQUARE + own_square(color, sq.index()), 1);
    }
    let empty = !pos.occupied();
    let men = pos.men(color);
    let [a, b] = forward(color);
    if kings.any() {
        add(HAS_KING, 1);
        add(KINGS_BEYOND_ONE, kings.count() as i32 - 1);
        add(KING_SQUARES, king_squares(kings, empty) as i32);
    }
    add(
        MAN_STEPS,
        ((men.shift(a) & empty).count() + (men.shift(b) & empty).count()) as i32,
    );
    add(RUNAWAY, runaways(pos, color) as i32);
}

/// The learned evaluation in centi-men, from the side to move's point of view (without the
/// known-ending rules, which [`super::eval::evaluate_learned`] adds).
pub fn linear(pos: &Position) -> i32 {
    let us = pos.turn();
    let mut mid = MID[TO_MOVE];
    let mut end = END[TO_MOVE];
    accumulate(pos, us, 1, &mut mid, &mut end);
    accumulate(pos, !us, -1, &mut mid, &mut end);
    let phase = phase(pos);
    (mid * phase + end * (24 - phase)) / (24 * SCALE)
}
