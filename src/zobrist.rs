//! Zobrist hash keys, generated at compile time.

use crate::bitboard::Bitboard;
use crate::piece::{Color, Role};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys indexed by `[color * 2 + role][internal bit]`.
const PIECE_KEYS: [[u64; 64]; 4] = {
    let mut keys = [[0u64; 64]; 4];
    let mut state = 0x5348_4153_484B_4931u64; // "SHASHKI1"
    let mut p = 0;
    while p < 4 {
        let mut b = 0;
        while b < 64 {
            let (s, k) = splitmix64(state);
            state = s;
            keys[p][b] = k;
            b += 1;
        }
        p += 1;
    }
    keys
};

/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0x0123_4567_89AB_CDEF).1;

/// The key of one piece on one internal bit.
#[inline]
pub fn piece_key(color: Color, role: Role, bit: u32) -> u64 {
    PIECE_KEYS[color.index() * 2 + role as usize][bit as usize & 63]
}

/// The XOR of the keys of all pieces of one kind in `squares`.
pub fn squares_key(color: Color, role: Role, squares: Bitboard) -> u64 {
    let mut h = 0;
    let mut b = squares.0;
    while b != 0 {
        h ^= piece_key(color, role, b.trailing_zeros());
        b &= b - 1;
    }
    h
}
