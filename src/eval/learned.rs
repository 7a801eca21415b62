//! The learned evaluation: a linear function of features whose weights are fitted to
//! self-play results (`python -m shashki.train`), shipped as generated constants
//! ([`super::learned_weights`]).
//!
//! Each side's features are counted from its own point of view (Black's squares turned half
//! round, so a man about to crown is on own rank 7 for both), and the evaluation is
//! `w · (features(side to move) − features(opponent))`: symmetric by construction. Every
//! feature has a middle-game and an endgame weight, blended by the number of pieces on the
//! board (24 or more: middle game only; none: endgame only).

use super::learned_weights::{END, MID, PATTERNS, SCALE};
use crate::geometry::Color;
use crate::geometry::Geometry;
use crate::geometry::{Bitboard, Direction};
use crate::position::Position;

/// Features of one side: men by own square (32), kings by own square (32), whether it has a
/// king, its men's free forward steps, its kings' free squares, its men that have a free path
/// to crowning that no enemy piece can cut (runaways), and the side to move's tempo.
pub const SIDE_FEATURES: usize = 72;
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
const ABOUT_TO_CROWN: usize = 70;
const BACK_RANK_NO_KINGS: usize = 71;

/// Pattern regions: the four dark squares beside each light square whose neighbours are all
/// on the board (18), as in Scan's evaluation by small regions. A region's state from a
/// side's point of view (own pieces, enemy pieces: 3⁴ states, kept as an 8-bit key) has a
/// weight of its own.
pub const REGIONS: usize = 18;
/// Weights a region has (8-bit keys: own pieces in the low four bits, enemy pieces above).
pub const REGION_KEYS: usize = 256;

/// Blocks: the 4×4 squares of the board whose lower left corner is a1, c1, e1, a3, c3, e3,
/// a5, c5 or e5 (overlapping by two files or two ranks), eight dark squares each, as in
/// Scan's evaluation by larger regions. A block's state from a side's point of view is the
/// men on its squares (empty, own man, enemy man: 3⁸ keys, each with a weight of its own);
/// kings are left to the dense features.
pub const BLOCKS: usize = 9;
/// Weights a block has: 3⁸.
pub const BLOCK_KEYS: usize = 6561;
/// Pattern weights in all: the regions' (first) then the blocks'.
pub const PATTERN_WEIGHTS: usize = REGIONS * REGION_KEYS + BLOCKS * BLOCK_KEYS;
const _: () = assert!(
    PATTERNS.len() == PATTERN_WEIGHTS,
    "data/weights/learned.bin holds another number of pattern weights"
);
/// Pattern indices one side has: a region key each, then a block key each.
pub const SIDE_PATTERNS: usize = REGIONS + BLOCKS;

/// Block `b`'s lower left square's internal bit (`b = 3 · rank / 2 + file / 2`, rank and file
/// of that corner). A block's squares are then at bits `start + BLOCK_OFFSETS[i]` (two on
/// each of its four ranks, the board's padded layout), and the block turned half round
/// (Black's point of view) is block `8 − b`, its square `i` turned onto square `7 − i`.
static BLOCK_START: [u32; BLOCKS] = {
    let mut out = [0u32; BLOCKS];
    let mut b = 0;
    while b < BLOCKS {
        if let Some(sq) = crate::geometry::Square::from_coords(2 * (b % 3) as u8, 2 * (b / 3) as u8)
        {
            out[b] = sq.bit();
        }
        b += 1;
    }
    out
};

/// Where a block's eight squares are, from its lower left square's bit.
#[cfg(test)]
const BLOCK_OFFSETS: [u32; 8] = [0, 1, 6, 7, 11, 12, 17, 18];

/// An 8-bit set read as a base-3 number of 0/1 digits (`Σ 3^i` over its bits).
static TERNARY: [u16; 256] = {
    let mut out = [0u16; 256];
    let mut x = 0;
    while x < 256 {
        let mut power = 1u16;
        let mut i = 0;
        while i < 8 {
            if x >> i & 1 == 1 {
                out[x] += power;
            }
            power *= 3;
            i += 1;
        }
        x += 1;
    }
    out
};

/// A rank of blocks' four ranks packed as 16 bits, four squares a rank (a block's squares
/// are then the two-bit pairs `0x3333 << (file / 2)` of its lower left square's file).
#[inline]
fn block_rank_bits(x: u64, start: u32) -> usize {
    let z = x >> start;
    ((z & 0xF) | ((z >> 2) & 0xF0) | ((z >> 3) & 0xF00) | ((z >> 5) & 0xF000)) as usize
}

/// [`TERNARY`] for the eight bits of `0x3333` (bit `4n + j` is a block's square `2n + j`).
static TERNARY_SPREAD: [u16; 0x3334] = {
    let mut out = [0u16; 0x3334];
    let mut x = 0;
    while x < 256 {
        let spread = (x & 3) | ((x & 0xC) << 2) | ((x & 0x30) << 4) | ((x & 0xC0) << 6);
        out[spread] = TERNARY[x];
        x += 1;
    }
    out
};

/// The nine blocks' keys (block `b` at index `b`) with `own`'s men as the base-3 digit 1 and
/// `enemy`'s as 2: the one reader of blocks, for the engine and for training.
#[inline]
fn block_keys(own: u64, enemy: u64) -> [usize; BLOCKS] {
    let mut keys = [0usize; BLOCKS];
    for row in 0..3 {
        let start = BLOCK_START[3 * row];
        let (o, e) = (block_rank_bits(own, start), block_rank_bits(enemy, start));
        for column in 0..3 {
            keys[3 * row + column] = TERNARY_SPREAD[(o >> column) & 0x3333] as usize
                + 2 * TERNARY_SPREAD[(e >> column) & 0x3333] as usize;
        }
    }
    keys
}

/// The blocks' term of the evaluation from White's point of view (`difference`, as
/// [`BLOCK_DIFFERENCE`], summed over the nine blocks).
#[inline]
fn blocks_for_white(difference: &[i16], white: u64, black: u64) -> i32 {
    let keys = block_keys(white, black);
    (0..BLOCKS)
        .map(|b| i32::from(difference[b * BLOCK_KEYS + keys[b]]))
        .sum()
}

/// The blocks' weights as White sees the board: for block `b` and the key of White's men
/// against Black's there, White's weight minus Black's weight for the same squares from
/// Black's side (block `8 − b`, squares reversed, colours swapped). One lookup a block then
/// gives both sides' terms; made once from [`PATTERNS`].
static BLOCK_DIFFERENCE: std::sync::LazyLock<Box<[i16]>> =
    std::sync::LazyLock::new(|| block_difference(&PATTERNS[REGIONS * REGION_KEYS..]));

/// [`BLOCK_DIFFERENCE`] of block weights (block × [`BLOCK_KEYS`], each side's own view).
fn block_difference(weights: &[i16]) -> Box<[i16]> {
    let mut out = vec![0i16; BLOCKS * BLOCK_KEYS].into_boxed_slice();
    for (white, &white_digits) in TERNARY.iter().enumerate() {
        for (black, &black_digits) in TERNARY.iter().enumerate() {
            if white & black != 0 {
                continue;
            }
            let key = white_digits as usize + 2 * black_digits as usize;
            let (w, b) = ((white as u8).reverse_bits(), (black as u8).reverse_bits());
            let seen_by_black = TERNARY[b as usize] as usize + 2 * TERNARY[w as usize] as usize;
            for block in 0..BLOCKS {
                let own = i32::from(weights[block * BLOCK_KEYS + key]);
                let theirs = i32::from(weights[(BLOCKS - 1 - block) * BLOCK_KEYS + seen_by_black]);
                out[block * BLOCK_KEYS + key] = (own - theirs).clamp(-32768, 32767) as i16;
            }
        }
    }
    out
}

/// A region is the diamond of dark squares beside a light square: its left square at internal
/// bit `L`, the right one at `L + 1`, the upper one at `L + 6` and the lower one at `L - 5`
/// (the board's padded layout). The 18 regions in three groups (the first, second and third
/// light square of each rank), so that within a group the regions' bits `L..L + 3` never
/// overlap and one word holds every region's 4-bit key.
static REGION_LEFT: [[u32; 6]; 3] = {
    let mut out = [[0u32; 6]; 3];
    let mut rank = 1u8;
    while rank <= 6 {
        let mut nth = 0;
        let mut file = 1u8;
        while file <= 6 {
            if (file + rank) % 2 == 1 {
                if let Some(left) = crate::geometry::Square::from_coords(file - 1, rank) {
                    out[nth][(rank - 1) as usize] = left.bit();
                }
                nth += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    out
};

/// Per group, the mask of its regions' left squares.
static GROUP_MASK: [u64; 3] = {
    let mut out = [0u64; 3];
    let mut g = 0;
    while g < 3 {
        let mut r = 0;
        while r < 6 {
            out[g] |= 1u64 << REGION_LEFT[g][r];
            r += 1;
        }
        g += 1;
    }
    out
};

/// The 8×8 board turned half round: internal bit `b` goes to `42 - b`.
#[inline]
fn turned(bits: u64) -> u64 {
    bits.reverse_bits() >> (64 - 43)
}

/// Every region of a group's 4-bit key (left, right, up, down) at its bits `L..L + 3`.
#[inline]
fn nibbles(x: u64, mask: u64) -> u64 {
    (x & (mask | (mask << 1))) | (((x >> 6) & mask) << 2) | (((x << 5) & mask) << 3)
}

/// `color`'s and the other side's bits from `color`'s point of view (Black's board turned
/// half round).
#[inline]
fn seen_by(color: Color, own: Bitboard, enemy: Bitboard) -> (u64, u64) {
    match color {
        Color::White => (own.bits(), enemy.bits()),
        Color::Black => (turned(own.bits()), turned(enemy.bits())),
    }
}

/// Every region's 8-bit key from White's point of view (White's pieces the low nibble),
/// region `g · 6 + rank − 1` at index `g · 6 + rank − 1`.
#[inline]
fn region_keys(white: u64, black: u64) -> [usize; REGIONS] {
    let mut out = [0usize; REGIONS];
    for g in 0..3 {
        let o = nibbles(white, GROUP_MASK[g]);
        let e = nibbles(black, GROUP_MASK[g]);
        for (r, &left) in REGION_LEFT[g].iter().enumerate() {
            out[g * 6 + r] = (((o >> left) & 15) | (((e >> left) & 15) << 4)) as usize;
        }
    }
    out
}

/// The regions' term of the evaluation from White's point of view: one lookup a region in
/// `difference` ([`REGION_DIFFERENCE`]).
#[inline]
fn regions_for_white(difference: &[i32], white: u64, black: u64) -> i32 {
    let keys = region_keys(white, black);
    (0..REGIONS)
        .map(|r| difference[r * REGION_KEYS + keys[r]])
        .sum()
}

/// The regions' weights as White sees the board: for region `r` and White's key there,
/// White's weight minus Black's for the same squares from Black's side. The board turned
/// half round takes region `r` onto region `17 − r` and a key's squares (left, right, up,
/// down) onto (right, left, down, up); Black's own pieces are White's enemy ones.
static REGION_DIFFERENCE: std::sync::LazyLock<Box<[i32]>> =
    std::sync::LazyLock::new(|| region_difference(&PATTERNS[..REGIONS * REGION_KEYS]));

/// [`REGION_DIFFERENCE`] of region weights (region × [`REGION_KEYS`], each side's own view).
fn region_difference(weights: &[i16]) -> Box<[i32]> {
    // A nibble's squares turned half round: left <-> right, up <-> down.
    let turn = |n: usize| ((n & 1) << 1) | ((n >> 1) & 1) | ((n & 4) << 1) | ((n >> 1) & 4);
    let mut out = vec![0i32; REGIONS * REGION_KEYS].into_boxed_slice();
    for region in 0..REGIONS {
        for key in 0..REGION_KEYS {
            let (white, black) = (key & 15, key >> 4);
            let seen_by_black = turn(black) | (turn(white) << 4);
            out[region * REGION_KEYS + key] = i32::from(weights[region * REGION_KEYS + key])
                - i32::from(weights[(REGIONS - 1 - region) * REGION_KEYS + seen_by_black]);
        }
    }
    out
}

/// The pattern key of every region for `color` (own pieces against enemy pieces, from
/// `color`'s point of view), as indices into [`PATTERNS`].
#[inline]
fn region_indices(pos: &Position, color: Color) -> [usize; REGIONS] {
    let (own, enemy) = seen_by(color, pos.pieces(color), pos.pieces(!color));
    let mut out = region_keys(own, enemy);
    for (region, key) in out.iter_mut().enumerate() {
        *key += region * REGION_KEYS;
    }
    out
}

/// Every region's and then every block's key for `color` (own men against enemy men for the
/// blocks), from `color`'s point of view, as indices into [`PATTERNS`].
fn pattern_indices(pos: &Position, color: Color) -> [usize; SIDE_PATTERNS] {
    let mut out = [0usize; SIDE_PATTERNS];
    out[..REGIONS].copy_from_slice(&region_indices(pos, color));
    let (own, enemy) = seen_by(color, pos.men(color), pos.men(!color));
    for (b, key) in block_keys(own, enemy).into_iter().enumerate() {
        out[REGIONS + b] = REGIONS * REGION_KEYS + b * BLOCK_KEYS + key;
    }
    out
}

/// The side to move's pattern indices, then the opponent's (for the training command).
pub fn patterns(pos: &Position) -> [u16; 2 * SIDE_PATTERNS] {
    let us = pos.turn();
    let mut out = [0u16; 2 * SIDE_PATTERNS];
    for (i, idx) in pattern_indices(pos, us)
        .iter()
        .chain(pattern_indices(pos, !us).iter())
        .enumerate()
    {
        out[i] = *idx as u16;
    }
    out
}

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
        ABOUT_TO_CROWN => "men about to crown".into(),
        BACK_RANK_NO_KINGS => "back rank while the enemy has no king".into(),
        _ => format!("feature {i}"),
    }
}

/// FNV-1a (64 bits) of the weights as compiled — `MID`, `END` (each value as 4 bytes,
/// little-endian), then `PATTERNS` (2 bytes each) — the checksum the training command writes
/// beside them ([`WEIGHTS_CHECKSUM`]).
pub fn weights_checksum() -> u64 {
    let mut bytes = Vec::with_capacity(4 * (MID.len() + END.len()) + 2 * PATTERNS.len());
    for v in MID.iter().chain(END.iter()) {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for v in PATTERNS.iter() {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    crate::util::checksum::fnv1a(&bytes)
}

/// The checksum the training command recorded with the weights.
pub use super::learned_weights::CHECKSUM as WEIGHTS_CHECKSUM;

/// The weights as compiled: middle game, endgame (1/[`SCALE`] centi-men), patterns.
pub fn weights() -> (Vec<i32>, Vec<i32>, Vec<i16>) {
    (MID.to_vec(), END.to_vec(), PATTERNS.to_vec())
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

/// Men one step from crowning with a free square ahead.
fn about_to_crown(pos: &Position, color: Color) -> u32 {
    let empty = Bitboard(Geometry::EIGHT.board().0 & !pos.occupied().0);
    let near = match color {
        Color::White => Geometry::EIGHT.rank(6),
        Color::Black => Geometry::EIGHT.rank(1),
    };
    let [a, b] = forward(color);
    ((empty.shift(a.opposite()) | empty.shift(b.opposite())) & pos.men(color) & near).count()
}

/// Own men on the own back rank while the enemy has no king (they guard the crowning squares).
fn back_rank_guards(pos: &Position, color: Color) -> u32 {
    if pos.kings(!color).any() {
        return 0;
    }
    let back = match color {
        Color::White => Geometry::EIGHT.rank(0),
        Color::Black => Geometry::EIGHT.rank(7),
    };
    (pos.men(color) & back).count()
}

/// Men one or two ranks from crowning with a free square ahead: a cheap runaway test.
fn runaways(pos: &Position, color: Color) -> u32 {
    let empty = Bitboard(Geometry::EIGHT.board().0 & !pos.occupied().0);
    let men = pos.men(color);
    let near = match color {
        Color::White => Geometry::EIGHT.rank(5) | Geometry::EIGHT.rank(6),
        Color::Black => Geometry::EIGHT.rank(1) | Geometry::EIGHT.rank(2),
    };
    let [a, b] = forward(color);
    let free = (empty.shift(a.opposite()) | empty.shift(b.opposite())) & men & near;
    free.count()
}

/// Counts of one side's features (from its own point of view).
fn side(pos: &Position, color: Color, out: &mut [i32; SIDE_FEATURES]) {
    for sq in pos.men(color).iter() {
        out[MAN_SQUARE + own_square(color, sq.index8_unchecked())] += 1;
    }
    let kings = pos.kings(color);
    for sq in kings.iter() {
        out[KING_SQUARE + own_square(color, sq.index8_unchecked())] += 1;
    }
    let empty = Bitboard(Geometry::EIGHT.board().0 & !pos.occupied().0);
    let men = pos.men(color);
    let [a, b] = forward(color);
    out[HAS_KING] += i32::from(kings.any());
    out[KINGS_BEYOND_ONE] += (kings.count() as i32 - 1).max(0);
    out[MAN_STEPS] += ((men.shift(a) & empty).count() + (men.shift(b) & empty).count()) as i32;
    out[KING_SQUARES] += king_squares(kings, empty) as i32;
    out[RUNAWAY] += runaways(pos, color) as i32;
    out[ABOUT_TO_CROWN] += about_to_crown(pos, color) as i32;
    out[BACK_RANK_NO_KINGS] += back_rank_guards(pos, color) as i32;
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

/// The weights blended for each phase (0..=24 pieces): `MID·phase + END·(24 − phase)`.
static BLENDED: [[i32; SIDE_FEATURES]; 25] = {
    let mut out = [[0i32; SIDE_FEATURES]; 25];
    let mut phase = 0;
    while phase <= 24 {
        let mut i = 0;
        while i < SIDE_FEATURES {
            out[phase][i] = MID[i] * phase as i32 + END[i] * (24 - phase as i32);
            i += 1;
        }
        phase += 1;
    }
    out
};

/// Blended man and king weights by internal bit, for each phase and colour (the square seen
/// from that colour's side): `[phase][colour][bit]`, men then kings.
static BY_BIT: [[[[i32; 43]; 2]; 2]; 25] = {
    let mut out = [[[[0i32; 43]; 2]; 2]; 25];
    let mut phase = 0;
    while phase <= 24 {
        let mut color = 0;
        while color < 2 {
            let mut bit = 0;
            while bit < 43 {
                if let Some(index) = crate::geometry::Geometry::EIGHT
                    .index(crate::geometry::Square::from_bit_unchecked(bit as u32))
                {
                    let own = if color == 0 { index } else { 31 - index };
                    out[phase][0][color][bit] = BLENDED[phase][MAN_SQUARE + own];
                    out[phase][1][color][bit] = BLENDED[phase][KING_SQUARE + own];
                }
                bit += 1;
            }
            color += 1;
        }
        phase += 1;
    }
    out
};

/// One side's weighted features (blended for `phase`).
#[inline]
fn side_sum(pos: &Position, color: Color, phase: usize) -> i32 {
    let w = &BLENDED[phase];
    let c = color.index();
    let mut sum = 0;
    let mut men_bits = pos.men(color).bits();
    while men_bits != 0 {
        sum += BY_BIT[phase][0][c][men_bits.trailing_zeros() as usize];
        men_bits &= men_bits - 1;
    }
    let kings = pos.kings(color);
    let mut king_bits = kings.bits();
    while king_bits != 0 {
        sum += BY_BIT[phase][1][c][king_bits.trailing_zeros() as usize];
        king_bits &= king_bits - 1;
    }
    let empty = Bitboard(Geometry::EIGHT.board().0 & !pos.occupied().0);
    let men = pos.men(color);
    let [a, b] = forward(color);
    if kings.any() {
        sum += w[HAS_KING]
            + w[KINGS_BEYOND_ONE] * (kings.count() as i32 - 1)
            + w[KING_SQUARES] * king_squares(kings, empty) as i32;
    }
    sum += w[MAN_STEPS] * ((men.shift(a) & empty).count() + (men.shift(b) & empty).count()) as i32;
    sum += w[RUNAWAY] * runaways(pos, color) as i32;
    sum += w[ABOUT_TO_CROWN] * about_to_crown(pos, color) as i32;
    sum += w[BACK_RANK_NO_KINGS] * back_rank_guards(pos, color) as i32;
    sum
}

/// The learned evaluation in centi-men, from the side to move's point of view (without the
/// known-ending rules, which [`super::eval::evaluate_learned`] adds).
pub fn linear(pos: &Position) -> i32 {
    let us = pos.turn();
    let phase = phase(pos);
    let p = phase as usize;
    let dense = BLENDED[p][TO_MOVE] + side_sum(pos, us, p) - side_sum(pos, !us, p);
    let (white, black) = (pos.men(Color::White).bits(), pos.men(Color::Black).bits());
    let (white_pieces, black_pieces) = (
        pos.pieces(Color::White).bits(),
        pos.pieces(Color::Black).bits(),
    );
    let for_white = regions_for_white(&REGION_DIFFERENCE, white_pieces, black_pieces)
        + blocks_for_white(&BLOCK_DIFFERENCE, white, black);
    let pattern = match us {
        Color::White => for_white,
        Color::Black => -for_white,
    };
    (dense + 24 * pattern) / (24 * SCALE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_match_their_recorded_checksum() {
        assert_eq!(weights_checksum(), WEIGHTS_CHECKSUM);
    }

    #[test]
    fn regions_are_diamonds_of_dark_squares_and_keys_match_the_squares() {
        use crate::geometry::Square;
        for group in REGION_LEFT.iter() {
            for &left in group {
                for bit in [left, left + 1, left + 6, left - 5] {
                    assert!(Square::from_bit(bit).is_some(), "bit {bit}");
                }
            }
        }
        for (g, mask) in GROUP_MASK.iter().enumerate() {
            assert_eq!(mask.count_ones(), 6, "group {g}");
        }
        // Keys read the squares they name, for both colours, on random play.
        let mut pos = Position::start();
        for ply in 0..60usize {
            for color in [Color::White, Color::Black] {
                let idx = region_indices(&pos, color);
                for (region, &i) in idx.iter().enumerate() {
                    let (g, r) = (region / 6, region % 6);
                    let left = REGION_LEFT[g][r];
                    let key = i - region * REGION_KEYS;
                    for (k, bit) in [left, left + 1, left + 6, left - 5].into_iter().enumerate() {
                        let sq = Square::from_bit(bit).expect("square");
                        let seen = match color {
                            Color::White => sq,
                            Color::Black => {
                                Square::from_index8(31 - sq.index8().expect("square") as u32)
                                    .expect("square")
                            }
                        };
                        let own = pos.pieces(color).contains(seen);
                        let enemy = pos.pieces(!color).contains(seen);
                        assert_eq!(key >> k & 1 == 1, own);
                        assert_eq!(key >> (k + 4) & 1 == 1, enemy);
                    }
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(ply * 5 + 1) % moves.len()];
            pos.play(&m).expect("legal");
        }
    }

    #[test]
    fn blocks_are_four_by_four_squares_and_turn_onto_each_other() {
        use crate::geometry::Square;
        for (b, &start) in BLOCK_START.iter().enumerate() {
            let (file0, rank0) = (2 * (b % 3) as u8, 2 * (b / 3) as u8);
            let mut expected = 0u64;
            for rank in rank0..rank0 + 4 {
                for file in file0..file0 + 4 {
                    if let Some(sq) = Square::from_coords(file, rank) {
                        expected |= 1 << sq.bit();
                    }
                }
            }
            let named: u64 = BLOCK_OFFSETS.iter().map(|o| 1u64 << (start + o)).sum();
            assert_eq!(named, expected, "block {b}");
            for (i, o) in BLOCK_OFFSETS.iter().enumerate() {
                assert_eq!(block_keys(1 << (start + o), 0)[b], 3usize.pow(i as u32));
                assert_eq!(block_keys(0, 1 << (start + o))[b], 2 * 3usize.pow(i as u32));
                // Turned half round, square i of block b is square 7 - i of block 8 - b.
                let turned_bit = turned(1 << (start + o));
                assert_eq!(block_keys(turned_bit, 0)[8 - b], 3usize.pow(7 - i as u32));
            }
            assert_eq!(block_keys(!expected, 0)[b], 0);
        }
    }

    /// The evaluation summed the slow way: every pattern index of both sides looked up in
    /// [`PATTERNS`] (the fit's view), against [`linear`]'s one lookup a block.
    fn linear_by_indices(pos: &Position) -> i32 {
        let us = pos.turn();
        let p = phase(pos) as usize;
        let dense = BLENDED[p][TO_MOVE] + side_sum(pos, us, p) - side_sum(pos, !us, p);
        let own: i32 = pattern_indices(pos, us)
            .iter()
            .map(|&i| i32::from(PATTERNS[i]))
            .sum();
        let theirs: i32 = pattern_indices(pos, !us)
            .iter()
            .map(|&i| i32::from(PATTERNS[i]))
            .sum();
        (dense + 24 * (own - theirs)) / (24 * SCALE)
    }

    #[test]
    fn the_block_lookup_equals_both_sides_blocks_summed() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for game in 0..200 {
            let mut pos = Position::start();
            for _ in 0..120 {
                assert_eq!(
                    linear(&pos),
                    linear_by_indices(&pos),
                    "game {game}: {pos:?}"
                );
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let m = moves[(rng % moves.len() as u64) as usize];
                pos.play(&m).expect("legal");
            }
        }
    }

    /// Random weights (`n` of them, −1000..=1000) and the positions of 100 random games of
    /// up to 120 plies, each handed to `check` with its game's number.
    fn for_random_weights_and_games(
        n: usize,
        seed: u64,
        mut check: impl FnMut(&[i16], &Position, usize),
    ) {
        let mut rng = seed;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let weights: Vec<i16> = (0..n).map(|_| (next() % 2001) as i16 - 1000).collect();
        for game in 0..100 {
            let mut pos = Position::start();
            for _ in 0..120 {
                check(&weights, &pos, game);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                pos.play(&m).expect("legal");
            }
        }
    }

    #[test]
    fn the_block_lookup_equals_both_sides_blocks_summed_for_any_weights() {
        let mut difference = None;
        for_random_weights_and_games(
            BLOCKS * BLOCK_KEYS,
            0x2545_F491_4F6C_DD1D,
            |weights, pos, game| {
                let difference = difference.get_or_insert_with(|| block_difference(weights));
                let side = |color: Color| -> i32 {
                    pattern_indices(pos, color)[REGIONS..]
                        .iter()
                        .map(|&i| i32::from(weights[i - REGIONS * REGION_KEYS]))
                        .sum()
                };
                let (white, black) = (pos.men(Color::White).bits(), pos.men(Color::Black).bits());
                assert_eq!(
                    blocks_for_white(difference, white, black),
                    side(Color::White) - side(Color::Black),
                    "game {game}"
                );
            },
        );
    }

    #[test]
    fn the_region_lookup_equals_both_sides_regions_summed_for_any_weights() {
        let mut difference = None;
        for_random_weights_and_games(
            REGIONS * REGION_KEYS,
            0x9E37_79B9_7F4A_7C15,
            |weights, pos, game| {
                let difference = difference.get_or_insert_with(|| region_difference(weights));
                let side = |color: Color| -> i32 {
                    region_indices(pos, color)
                        .iter()
                        .map(|&i| i32::from(weights[i]))
                        .sum()
                };
                let (white, black) = (
                    pos.pieces(Color::White).bits(),
                    pos.pieces(Color::Black).bits(),
                );
                assert_eq!(
                    regions_for_white(difference, white, black),
                    side(Color::White) - side(Color::Black),
                    "game {game}"
                );
            },
        );
    }

    #[test]
    fn block_keys_read_the_men_they_name() {
        use crate::geometry::Square;
        let mut pos = Position::start();
        for ply in 0..80usize {
            for color in [Color::White, Color::Black] {
                let idx = pattern_indices(&pos, color);
                for b in 0..BLOCKS {
                    let mut key = idx[REGIONS + b] - REGIONS * REGION_KEYS - b * BLOCK_KEYS;
                    for o in BLOCK_OFFSETS {
                        let sq = Square::from_bit(BLOCK_START[b] + o).expect("square");
                        let seen = match color {
                            Color::White => sq,
                            Color::Black => {
                                Square::from_index8(31 - sq.index8().expect("square") as u32)
                                    .expect("square")
                            }
                        };
                        let digit = if pos.men(color).contains(seen) {
                            1
                        } else if pos.men(!color).contains(seen) {
                            2
                        } else {
                            0
                        };
                        assert_eq!(key % 3, digit, "ply {ply} block {b}");
                        key /= 3;
                    }
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(ply * 7 + 3) % moves.len()];
            pos.play(&m).expect("legal");
        }
    }
}
