//! Time management: a move's budget from a fixed move time or the clock, and under a clock
//! a soft limit that follows how the search is going.

use std::time::Duration;

use super::Limits;
use crate::mv::Move;

/// A search's time: no new iteration after `soft` (scaled by [`Progress::scale`] when the
/// budget comes from the clock), abort at `hard`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TimeBudget {
    /// No new iteration after this (before scaling).
    pub soft: Option<Duration>,
    /// Stop the search at once here.
    pub hard: Option<Duration>,
    /// The budget comes from the clock (no fixed move time): the soft limit may move.
    pub from_clock: bool,
}

/// The budget of a search under `limits`. A fixed move time is cut to what the clock allows
/// when both are given. Saturating arithmetic: any durations, however large, give a budget.
pub(super) fn time_budget(limits: &Limits) -> TimeBudget {
    let clock = limits.time_left.map(|left| {
        let moves = limits.moves_to_go.unwrap_or(30).clamp(1, 60);
        let safety = Duration::from_millis(30).min(left / 4);
        let base = (left / moves).saturating_add(limits.increment.saturating_mul(3) / 4);
        let hard = base
            .saturating_mul(3)
            .min(left.saturating_sub(safety) / 2)
            .max(Duration::from_millis(1));
        let soft = (base / 2).min(hard);
        (soft, hard)
    });
    match (limits.movetime, clock) {
        (Some(t), Some((_, hard))) => TimeBudget {
            soft: Some(t.min(hard)),
            hard: Some(t.min(hard)),
            from_clock: false,
        },
        (Some(t), None) => TimeBudget {
            soft: Some(t),
            hard: Some(t),
            from_clock: false,
        },
        (None, Some((soft, hard))) => TimeBudget {
            soft: Some(soft),
            hard: Some(hard),
            from_clock: true,
        },
        (None, None) => TimeBudget::default(),
    }
}

/// How the search is going, iteration after iteration, for the soft limit under a clock: a
/// best move that keeps changing or a falling score earn more time, a best move that has
/// stood for many iterations less (as Stockfish's time manager weighs them).
#[derive(Clone, Debug, Default)]
pub(super) struct Progress {
    best: Option<Move>,
    score: Option<i32>,
    /// Best-move changes, each halved at every later iteration.
    instability: f64,
    /// Iterations the best move has stood.
    stable: u32,
    /// The score's fall over the last iteration (centi-men, ≥ 0).
    fall: i32,
}

impl Progress {
    /// Record a finished iteration's best move and score.
    pub fn record(&mut self, best: Option<Move>, score: i32) {
        self.instability /= 2.0;
        if self.best.is_some() && best != self.best {
            self.instability += 1.0;
            self.stable = 0;
        } else {
            self.stable += 1;
        }
        self.fall = self
            .score
            .map_or(0, |before| (before - score).clamp(0, 200));
        self.best = best;
        self.score = Some(score);
    }

    /// What the soft limit is multiplied by: 1 for a quiet search, up to 2 for an unstable
    /// best move, up to 1.75 for a falling score, 0.6 for a best move unchanged for 8
    /// iterations or more; at most 3 (the hard limit guards the clock in any case).
    pub fn scale(&self) -> f64 {
        let unstable = 1.0 + self.instability.min(1.0);
        let falling = 1.0 + f64::from(self.fall.min(150)) / 200.0;
        let easy = if self.stable >= 8 && self.fall == 0 {
            0.6
        } else {
            1.0
        };
        (unstable * falling * easy).min(3.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn two_moves() -> (Move, Move) {
        let moves = Position::start().legal_moves();
        (moves[0], moves[1])
    }

    #[test]
    fn a_changing_best_move_earns_time_and_a_steady_one_saves_it() {
        let (a, b) = two_moves();
        let mut steady = Progress::default();
        for _ in 0..10 {
            steady.record(Some(a), 20);
        }
        assert!(steady.scale() < 1.0, "{}", steady.scale());
        let mut changing = Progress::default();
        for i in 0..10 {
            changing.record(Some(if i % 2 == 0 { a } else { b }), 20);
        }
        assert!(changing.scale() > 1.5, "{}", changing.scale());
    }

    #[test]
    fn a_falling_score_earns_time() {
        let (a, _) = two_moves();
        let mut progress = Progress::default();
        for _ in 0..3 {
            progress.record(Some(a), 50);
        }
        let before = progress.scale();
        progress.record(Some(a), -50);
        assert!(
            progress.scale() > before * 1.4,
            "{before} {}",
            progress.scale()
        );
        assert!(progress.scale() <= 3.0);
    }

    #[test]
    fn a_clock_budget_may_move_and_a_fixed_time_may_not() {
        let clock = Limits {
            time_left: Some(Duration::from_secs(10)),
            increment: Duration::from_millis(100),
            ..Limits::default()
        };
        let budget = time_budget(&clock);
        assert!(budget.from_clock);
        let (soft, hard) = (
            budget.soft.unwrap_or_default(),
            budget.hard.unwrap_or_default(),
        );
        // The soft limit at its largest scale stays within the hard one.
        assert!(soft.mul_f64(3.0) <= hard, "{soft:?} {hard:?}");
        let fixed = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert!(!time_budget(&fixed).from_clock);
    }
}
