//! Varied opening play: in the first moves of a game the engine's move is chosen at random,
//! seeded, among the lines scored within a margin of the best, so that self-play and users'
//! games do not all follow one line.

use super::limits::{Info, Score, SearchResult};

/// The lines searched together while the engine varies its play.
pub const VARIETY_LINES: usize = 4;

/// How the engine varies its opening moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variety {
    /// Vary the moves while the game's move number is at most this (0: never).
    pub moves: u32,
    /// Lines scored within this many centi-men of the best may be chosen.
    pub margin: i32,
    /// The seed of the choices: the same seed, the same choices in the same searches.
    pub seed: u64,
}

/// Choose the move of `result` (searched with [`VARIETY_LINES`] lines) by `random` among
/// the lines within `margin` of the best; `asked` lines are reported (the chosen one when
/// one). A forced win or loss is never traded for another line.
pub(super) fn choose<W: crate::geometry::Word>(
    result: &mut SearchResult<W>,
    margin: i32,
    random: u64,
    asked: usize,
) {
    let best = match result.lines.first().map(|line| line.score) {
        Some(Score::Value(best)) => best,
        _ => {
            result.lines.truncate(asked);
            return;
        }
    };
    let near: Vec<&Info<W>> = result
        .lines
        .iter()
        .filter(|line| {
            matches!(line.score, Score::Value(v) if v >= best - margin.max(0))
                && !line.pv.is_empty()
        })
        .collect();
    if let Some(chosen) = near.get((random % near.len().max(1) as u64) as usize) {
        let chosen = (*chosen).clone();
        result.best = chosen.pv.first().copied();
        result.ponder = chosen.pv.get(1).copied();
        result.info = Info {
            multipv: 1,
            ..chosen
        };
    }
    if asked <= 1 {
        result.lines = vec![result.info.clone()];
    } else {
        result.lines.truncate(asked);
    }
}
