//! The captures a list-building generator keeps (Frisian's `crate::orthogonal`, Turkish's
//! `crate::turkish`): only those of the best priority key found so far, each once under the
//! perft convention asked for.

use crate::geometry::{Bitboard, Square};
use crate::position::mv::{Move, MoveList};
use crate::rules::kinds::Counting;

/// The captures found so far of one position, appended to a move list.
pub(crate) struct CaptureList<'a> {
    list: &'a mut MoveList,
    /// The victims of `list[begin..]`'s moves in the order taken, six bits each (the second
    /// perft convention's key).
    orders: smallvec::SmallVec<[u128; 8]>,
    begin: usize,
    /// The best priority key found so far (0: none yet).
    best: u32,
    counting: Counting,
}

impl<'a> CaptureList<'a> {
    /// Captures to be appended to `list`.
    pub(crate) fn new(list: &'a mut MoveList, counting: Counting) -> CaptureList<'a> {
        let begin = list.len();
        CaptureList {
            list,
            orders: smallvec::SmallVec::new(),
            begin,
            best: 0,
            counting,
        }
    }

    /// Offer a finished capture: `key` ranks it under the rules' priority (higher first,
    /// equal keys free to choose between; at least 1), `order` is its victims in the order
    /// taken. Kept unless a better capture is known or it repeats a kept one (the same
    /// start, end, captured set and promotion; in the second convention, the same start,
    /// end and order).
    pub(crate) fn offer(
        &mut self,
        key: u32,
        from: Square,
        path: &[Square],
        captured: u64,
        promotes: bool,
        order: u128,
    ) {
        if key < self.best {
            return;
        }
        if key > self.best {
            self.best = key;
            self.list.truncate(self.begin);
            self.orders.clear();
        }
        let Some(&to) = path.last() else { return };
        let counting = self.counting;
        let duplicate = self.list[self.begin..]
            .iter()
            .zip(self.orders.iter())
            .any(|(m, &kept)| {
                m.from == from
                    && m.to == to
                    && match counting {
                        Counting::Distinct => m.captured.0 == captured && m.promotes == promotes,
                        Counting::Orders => kept == order,
                    }
            });
        if duplicate {
            return;
        }
        if let Some(m) = Move::from_parts(from, path, Bitboard(captured), promotes) {
            self.list.push(m);
            self.orders.push(order);
        }
    }

    /// Whether any capture was kept.
    pub(crate) fn any(&self) -> bool {
        self.list.len() > self.begin
    }
}
