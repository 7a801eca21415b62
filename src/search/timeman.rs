//! Time management: a move's budget from a fixed move time or the clock.

use std::time::Duration;

use super::limits::Limits;

/// Time a move is assumed to lose outside the search (the caller's code, the protocol,
/// the operating system giving the processor to others) unless the user sets another
/// ([`super::Engine::set_move_overhead`]): the clock keeps this much a move to go in
/// reserve.
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(5);

/// The largest move overhead a user can set (as Stockfish's "Move Overhead" option).
pub const MAX_MOVE_OVERHEAD: Duration = Duration::from_secs(5);

/// (soft, hard) time limits: no new iteration after `soft`, abort at `hard`. A fixed move
/// time is cut to what the clock allows when both are given. With a clock, a reserve of
/// `overhead` (the engine's move overhead, [`DEFAULT_MOVE_OVERHEAD`] unless set) for each
/// move to go and two more (at most nine tenths of the clock) is never planned for: a move's base is the rest over the moves to go plus three quarters of
/// the increment; `soft` is half of it; `hard` three times it, but never more than half of
/// what lies above the reserve. At 1 s + 0.01 s a game the clock then keeps at least 0.17 s
/// beyond a move's hard limit even when every move runs to it (0.02–0.05 s without the
/// reserve): a move held up that long by a busy machine still does not lose on time.
/// Saturating arithmetic: any durations, however large, give a budget.
pub(super) fn time_budget<W: crate::geometry::Word>(
    limits: &Limits<W>,
    overhead: Duration,
) -> (Option<Duration>, Option<Duration>) {
    let clock = limits.time_left.map(|left| {
        let moves = limits.moves_to_go.unwrap_or(30).clamp(1, 60);
        let reserve = overhead
            .saturating_mul(moves + 2)
            .min(left.saturating_mul(9) / 10);
        let usable = left.saturating_sub(reserve);
        let base = (usable / moves).saturating_add(limits.increment.saturating_mul(3) / 4);
        let hard = base
            .saturating_mul(3)
            .min(usable / 2)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(left: Duration, inc: Duration) -> (Duration, Duration) {
        limits_with(left, inc, DEFAULT_MOVE_OVERHEAD)
    }

    fn limits_with(left: Duration, inc: Duration, overhead: Duration) -> (Duration, Duration) {
        let limits: Limits = Limits {
            time_left: Some(left),
            increment: inc,
            ..Limits::default()
        };
        match time_budget(&limits, overhead) {
            (Some(soft), Some(hard)) => (soft, hard),
            other => panic!("a clock gives limits, not {other:?}"),
        }
    }

    #[test]
    fn a_move_never_plans_into_the_reserve() {
        for overhead in [0, 5, 50, 300, 5_000] {
            let overhead = Duration::from_millis(overhead);
            for left in [1, 5, 30, 100, 250, 700, 1_000, 10_000, 100_000] {
                for inc in [0, 10, 100, 1_000] {
                    let left = Duration::from_millis(left);
                    let (soft, hard) = limits_with(left, Duration::from_millis(inc), overhead);
                    let reserve = overhead.saturating_mul(32).min(left * 9 / 10);
                    assert!(soft <= hard, "{left:?} +{inc}");
                    assert!(
                        hard <= ((left - reserve) / 2).max(Duration::from_millis(1)),
                        "{overhead:?} {left:?} +{inc}: {hard:?}"
                    );
                }
            }
        }
    }

    /// A larger move overhead never gives a move more time, and at a fast control it gives
    /// less: the margin a loaded machine or a slow connection buys.
    #[test]
    fn a_larger_move_overhead_plans_less() {
        for left in [10, 100, 1_000, 10_000, 60_000] {
            for inc in [0, 10, 600] {
                let (left, inc) = (Duration::from_millis(left), Duration::from_millis(inc));
                let mut before = limits_with(left, inc, Duration::ZERO).1;
                for overhead in [1, 5, 20, 100, 1_000, 5_000] {
                    let hard = limits_with(left, inc, Duration::from_millis(overhead)).1;
                    assert!(hard <= before, "{left:?} +{inc:?} at {overhead} ms");
                    before = hard;
                }
            }
        }
        let inc = Duration::from_millis(10);
        let (_, shipped) = limits(Duration::from_secs(1), inc);
        let (_, careful) = limits_with(Duration::from_secs(1), inc, Duration::from_millis(20));
        assert!(careful < shipped, "{careful:?} against {shipped:?}");
    }

    /// A move time is the caller's own: the move overhead does not cut it.
    #[test]
    fn a_move_time_is_kept_whatever_the_overhead() {
        let limits: Limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let t = Some(Duration::from_millis(100));
        assert_eq!(time_budget(&limits, MAX_MOVE_OVERHEAD), (t, t));
    }

    /// At 1 s + 0.01 s a game, with every move running to its hard limit (the most the
    /// budget allows), a move held up 0.15 s beyond it at any ply of a 200-ply game does
    /// not lose on time.
    #[test]
    fn a_fast_clock_survives_a_move_held_up_beyond_its_limit() {
        let inc = Duration::from_millis(10);
        for stalled in 0..200 {
            let mut left = Duration::from_millis(1_000);
            for ply in 0..200 {
                let (_, hard) = limits(left, inc);
                let late = if ply == stalled { 150 } else { 0 };
                let spent = hard + Duration::from_millis(late);
                assert!(spent < left, "stalled at {stalled}: lost at ply {ply}");
                left = left - spent + inc;
            }
        }
    }
}
