//! Time management: a move's budget from a fixed move time or the clock.

use std::time::Duration;

use super::Limits;

/// (soft, hard) time limits: no new iteration after `soft`, abort at `hard`. A fixed move
/// time is cut to what the clock allows when both are given. Saturating arithmetic: any
/// durations, however large, give a budget.
pub(super) fn time_budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
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
        (Some(t), Some((_, hard))) => (Some(t.min(hard)), Some(t.min(hard))),
        (Some(t), None) => (Some(t), Some(t)),
        (None, Some((soft, hard))) => (Some(soft), Some(hard)),
        (None, None) => (None, None),
    }
}
