//! Zobrist hash keys, generated at compile time.

use crate::geometry::{Bitboard, Word};
use crate::geometry::{Color, Role};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// The keys first drawn, by the bit a square had in the 8×8-only layout of earlier
/// versions (`4r + c + ⌈r/2⌉`): the 8×8 squares keep them, so that hashes (and with them
/// the search's transposition table, and its node counts) are those of earlier versions.
const FIRST_KEYS: [[u64; 64]; 4] = {
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

/// Keys indexed by `[color * 2 + role][internal bit]`: an 8×8 square's first key, the other
/// squares' keys drawn from a second stream.
const PIECE_KEYS: [[u64; 64]; 4] = {
    let mut keys = [[0u64; 64]; 4];
    let mut state = 0x5348_4153_484B_4932u64; // "SHASHKI2"
    let mut p = 0;
    while p < 4 {
        let mut bit = 0u32;
        while bit < 64 {
            keys[p][bit as usize] = match crate::geometry::Square::from_bit(bit) {
                Some(sq) if sq.file() < 8 && sq.rank() < 8 => {
                    let (r, c) = (sq.rank() as u32, sq.file() as u32 / 2);
                    FIRST_KEYS[p][(4 * r + c + r.div_ceil(2)) as usize]
                }
                _ => {
                    let (s, k) = splitmix64(state);
                    state = s;
                    k
                }
            };
            bit += 1;
        }
        p += 1;
    }
    keys
};

/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0x0123_4567_89AB_CDEF).1;

/// The key of a side's run of quiet king moves (Frisian; `crate::orthogonal`), `run` its
/// nonzero packed form.
pub fn king_run_key(color: Color, run: u8) -> u64 {
    splitmix64(0x6B69_6E67_5F72_756E ^ ((color.index() as u64) << 8) ^ u64::from(run)).1
}

/// Keys of the 128-bit word's layout (the 12×12 board), by `[color * 2 + role][bit]`.
static WIDE_KEYS: [[u64; 128]; 4] = {
    let mut keys = [[0u64; 128]; 4];
    let mut state = 0x5348_4153_484B_4933u64; // "SHASHKI3"
    let mut p = 0;
    while p < 4 {
        let mut bit = 0;
        while bit < 128 {
            let (s, k) = splitmix64(state);
            state = s;
            keys[p][bit] = k;
            bit += 1;
        }
        p += 1;
    }
    keys
};

/// The key of one piece on one internal bit of the layout of the word `W`.
#[inline(always)]
pub fn piece_key_in<W: Word>(color: Color, role: Role, bit: u32) -> u64 {
    if W::BITS == 64 {
        piece_key(color, role, bit)
    } else {
        WIDE_KEYS[color.index() * 2 + role as usize][bit as usize & 127]
    }
}

/// The key of one piece on one internal bit.
#[inline]
pub fn piece_key(color: Color, role: Role, bit: u32) -> u64 {
    PIECE_KEYS[color.index() * 2 + role as usize][bit as usize & 63]
}

/// The XOR of the keys of all pieces of one kind in `squares`.
pub fn squares_key<W: Word>(color: Color, role: Role, squares: Bitboard<W>) -> u64 {
    let mut h = 0;
    let mut b = squares.0;
    while !b.is_zero() {
        h ^= piece_key_in::<W>(color, role, b.lowest_bit());
        b = b.without_lowest();
    }
    h
}
