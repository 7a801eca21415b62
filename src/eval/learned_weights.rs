//! The learned evaluation's weights: data, `data/weights/learned.bin` (written by
//! `python -m shashki.learn.train fit`; where they were fitted, in `learned.txt` beside it),
//! read into constants when the crate compiles, so the evaluation reads them as before.
//!
//! The file: `SHLW`, the format version (1), the unit (`SCALE`), the features a side (72),
//! the pattern weights' count, the FNV-1a checksum of what follows; then the middle-game and
//! the endgame weights (`i32` each), then the pattern weights (`i16` each), little-endian.
//! A file that does not fit this (another version, other sizes, a length that does not add
//! up) does not compile.

const RAW: &[u8] = include_bytes!("../../data/weights/learned.bin");
const HEADER: usize = 28;

const fn u32_at(at: usize) -> u32 {
    u32::from_le_bytes([RAW[at], RAW[at + 1], RAW[at + 2], RAW[at + 3]])
}

const fn i16_at(at: usize) -> i16 {
    i16::from_le_bytes([RAW[at], RAW[at + 1]])
}

const fn i32s<const N: usize>(at: usize) -> [i32; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = u32_at(at + 4 * i) as i32;
        i += 1;
    }
    out
}

const fn i16s<const N: usize>(at: usize) -> [i16; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = i16_at(at + 2 * i);
        i += 1;
    }
    out
}

/// The features a side: the middle-game and the endgame weights each have this many.
const FEATURES: usize = 72;
/// The pattern weights the file holds.
const PATTERN_COUNT: usize = u32_at(16) as usize;

const _: () = {
    assert!(RAW[0] == b'S' && RAW[1] == b'H' && RAW[2] == b'L' && RAW[3] == b'W');
    assert!(u32_at(4) == 1, "learned.bin: format version 1 is read");
    assert!(
        u32_at(12) as usize == FEATURES,
        "learned.bin: 72 features a side"
    );
    assert!(
        RAW.len() == HEADER + 8 * FEATURES + 2 * PATTERN_COUNT,
        "learned.bin: its length does not fit its sizes"
    );
};

/// The weights' unit: 1/SCALE of a centi-man.
pub const SCALE: i32 = u32_at(8) as i32;

/// Middle-game weights (24 pieces on the board).
pub const MID: [i32; FEATURES] = i32s(HEADER);

/// Endgame weights (no piece on the board; blended by the piece count in between).
pub const END: [i32; FEATURES] = i32s(HEADER + 4 * FEATURES);

/// Pattern weights: region × region keys, then block × block keys (see
/// `super::learned::REGIONS`, `super::learned::BLOCKS`).
pub static PATTERNS: [i16; PATTERN_COUNT] = i16s(HEADER + 8 * FEATURES);

/// FNV-1a of the weights (`shashki.learn.train.weights_checksum`), checked by the tests.
pub const CHECKSUM: u64 = u32_at(20) as u64 | (u32_at(24) as u64) << 32;
