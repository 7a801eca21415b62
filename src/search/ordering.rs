//! Move ordering: the table's move, captures (more pieces first), killers, then the
//! history heuristic; moves picked lazily, best first.

use super::node::Order;
use super::worker::Worker;
use crate::position::mv::MoveList;
use crate::rules::GameWord;

impl<W: GameWord> Worker<'_, W> {
    /// Indices into `moves`, best first: the table's move, captures (more pieces first),
    /// killers, then by history.
    pub(super) fn order(
        &self,
        moves: &MoveList<W>,
        tt_best: Option<usize>,
        ply: usize,
        keyed: &mut Order,
    ) {
        keyed.extend(moves.iter().enumerate().map(|(i, m)| {
            let key = if Some(i) == tt_best {
                1 << 30
            } else if m.is_capture() {
                (1 << 20) + 1000 * m.captured().count() as i32
            } else {
                let k = (m.from().bit() as u8, m.to().bit() as u8);
                if self.killers[ply][0] == k {
                    1 << 19
                } else if self.killers[ply][1] == k {
                    (1 << 19) - 1
                } else {
                    self.history[(m.from().bit() * W::BITS + m.to().bit()) as usize]
                }
            };
            (key, i as u8)
        }));
    }

    /// Move the best remaining entry (highest key, then lowest index) to position `at`:
    /// a selection sort done lazily, since most nodes cut off after a move or two.
    pub(super) fn pick(order: &mut [(i32, u8)], at: usize) -> u8 {
        let mut best = at;
        for j in at + 1..order.len() {
            let (k, i) = order[j];
            let (bk, bi) = order[best];
            if k > bk || (k == bk && i < bi) {
                best = j;
            }
        }
        order.swap(at, best);
        order[at].1
    }
}
