//! Each side's run of quiet king moves, as a position keeps it where the rules limit it
//! (Frisian draughts: docs/variants.md): its encoding in a byte and its hash key.

use crate::geometry::Color;
use crate::position::zobrist::king_run_key;

/// A side's run of quiet king moves as `Position::king_runs` keeps it: the moves made
/// (0 for none) and the square the king stands on.
#[inline]
pub(crate) fn run_of(run: u8) -> (u8, u32) {
    (run >> 6, u32::from(run & 63))
}

#[inline]
pub(crate) fn run(count: u8, bit: u32) -> u8 {
    (count.min(3) << 6) | bit as u8
}

/// The Zobrist key of a side's run (0 for none): positions that differ only in a run are
/// different positions (not the same moves).
pub(crate) fn run_key(color: Color, run: u8) -> u64 {
    if run == 0 {
        0
    } else {
        king_run_key(color, run)
    }
}
