//! Towers' western reading (`towers-western`: Michaelsen and Pakhomov's Bashni as the Ludii
//! project plays it, and jpneto's rules pages): men capture forwards only; a column's top is
//! taken as it is jumped and goes under the capturing column at once, so what the rest of
//! the move meets is the rest of that column (of either colour), or an empty square; and a
//! column may be jumped again, though not twice in a row ("only if there is another
//! intervening capture"). A king flies, and lands where its capture can go on when it can
//! anywhere; a man crowned on the far rank during a capture goes on as a king.
//!
//! The Russian tradition's generator reads the tops alone (a column jumped stays whole
//! until the move ends); here each leg changes the columns the next leg reads, so the
//! captures are found on a copy of the columns, leg by leg. Quiet moves are the tops' (a
//! man-topped column one square forwards, a king-topped one along a diagonal).

use super::column::Column;
use super::position::{StackPosition, SQUARES};
use crate::geometry::{Color, Geometry, Square};
use crate::position::mv::{Move, MoveList, MAX_PATH};
use crate::rules::kinds::Counting;

const DIRECTIONS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// One capture found: its landings and the squares jumped, in order.
#[derive(Clone, Copy)]
struct Found {
    path: [Square; MAX_PATH],
    jumped: [Square; MAX_PATH],
    len: usize,
    promotes: bool,
}

/// A leg to try: the column jumped, the columns after its top is taken, the landing, and
/// whether the mover is a king there.
type Leg = (Square, [Column; SQUARES], Square, bool);

struct Search<'a> {
    g: &'static Geometry,
    us: Color,
    found: &'a mut Vec<Found>,
    current: Found,
}

impl Search<'_> {
    fn at(&self, f: i8, r: i8) -> Option<Square> {
        if f < 0 || r < 0 {
            return None;
        }
        self.g.square_at(f as u8, r as u8)
    }

    fn index(&self, sq: Square) -> usize {
        self.g.index(sq).unwrap_or(0)
    }

    fn far_rank(&self, sq: Square) -> bool {
        let last = self.g.size() - 1;
        self.g.rank_of(sq) == if self.us == Color::White { last } else { 0 }
    }

    /// The legs of a capture from `at`: the square jumped, the columns after its top is
    /// taken, and the landing squares.
    fn legs(
        &self,
        cols: &[Column; SQUARES],
        at: Square,
        king: bool,
        last: Option<Square>,
        mut each: impl FnMut(Square, &[Column; SQUARES], &[Square]),
    ) {
        let forward = if self.us == Color::White { 1 } else { -1 };
        for (df, dr) in DIRECTIONS {
            if !king && dr != forward {
                continue;
            }
            let (mut f, mut r) = (self.g.file_of(at) as i8 + df, self.g.rank_of(at) as i8 + dr);
            if king {
                while self
                    .at(f, r)
                    .is_some_and(|sq| cols[self.index(sq)].is_empty())
                {
                    f += df;
                    r += dr;
                }
            }
            let Some(over) = self.at(f, r) else { continue };
            let column = cols[self.index(over)];
            if column.is_empty() || column.color() == self.us || Some(over) == last {
                continue;
            }
            let mut after = *cols;
            after[self.index(over)] = column.without_top().0;
            let mut landings = [over; 8];
            let mut n = 0;
            let (mut lf, mut lr) = (f + df, r + dr);
            while let Some(land) = self.at(lf, lr) {
                if !after[self.index(land)].is_empty() {
                    break;
                }
                landings[n] = land;
                n += 1;
                if !king || n == landings.len() {
                    break;
                }
                lf += df;
                lr += dr;
            }
            if n > 0 {
                each(over, &after, &landings[..n]);
            }
        }
    }

    fn can_go_on(&self, cols: &[Column; SQUARES], at: Square, king: bool, last: Square) -> bool {
        let mut any = false;
        self.legs(cols, at, king, Some(last), |_, _, _| any = true);
        any
    }

    fn extend(&mut self, cols: &[Column; SQUARES], at: Square, king: bool, last: Option<Square>) {
        let mut options: smallvec::SmallVec<[Leg; 8]> = smallvec::SmallVec::new();
        self.legs(cols, at, king, last, |over, after, landings| {
            let crowned = |land: Square| king || self.far_rank(land);
            let going_on = landings
                .iter()
                .any(|&l| self.can_go_on(after, l, crowned(l), over));
            for &land in landings {
                if !going_on || self.can_go_on(after, land, crowned(land), over) {
                    options.push((over, *after, land, crowned(land)));
                }
            }
        });
        if options.is_empty() {
            if self.current.len > 0 && self.found.len() < 4096 {
                self.found.push(self.current);
            }
            return;
        }
        for (over, after, land, crowned) in options {
            let len = self.current.len;
            if len >= MAX_PATH {
                continue;
            }
            let saved = self.current.promotes;
            self.current.path[len] = land;
            self.current.jumped[len] = over;
            self.current.len = len + 1;
            self.current.promotes |= crowned && !king;
            self.extend(&after, land, crowned, Some(over));
            self.current.len = len;
            self.current.promotes = saved;
        }
    }
}

impl StackPosition {
    /// The western reading's captures of the side to move, in convention B (one per order
    /// of the squares jumped and per landing), each with the columns it jumped in order.
    fn western_found(&self) -> Vec<(Square, Found)> {
        let g = self.geometry();
        let us = self.turn();
        let mut out = Vec::new();
        for from in self.columns_of(us).iter() {
            let Some(i) = self.index(from) else { continue };
            let mut cols = self.columns;
            let king = cols[i]
                .top()
                .is_some_and(|p| p.role == crate::geometry::Role::King);
            cols[i] = Column::EMPTY; // the column is off its square while it moves
            let mut found = Vec::new();
            let mut search = Search {
                g,
                us,
                found: &mut found,
                current: Found {
                    path: [from; MAX_PATH],
                    jumped: [from; MAX_PATH],
                    len: 0,
                    promotes: false,
                },
            };
            search.extend(&cols, from, king, None);
            out.extend(found.into_iter().map(|f| (from, f)));
        }
        out
    }

    /// The legal moves of the western reading under `counting`: the captures if any (one
    /// per position they lead to in convention A; one per order of the columns jumped in
    /// B), else the tops' quiet moves.
    pub(super) fn western_moves(&self, counting: Counting) -> MoveList {
        let mut list = MoveList::new();
        let found = self.western_found();
        if found.is_empty() {
            let quiet = self
                .tops
                .with_rules(crate::RuleSet::new(self.variant(), true))
                .legal_moves();
            for m in quiet.iter().filter(|m| !m.is_capture()) {
                list.push(*m);
            }
            return list;
        }
        let mut seen: Vec<(u8, u8, [u8; MAX_PATH], usize, bool)> = Vec::new();
        let mut positions: Vec<(u8, u8, StackPosition)> = Vec::new();
        for (from, f) in found {
            let mut captured = crate::geometry::Bitboard::EMPTY;
            for sq in &f.jumped[..f.len] {
                captured.0 |= 1 << sq.bit();
            }
            let Some(m) = Move::from_parts(from, &f.path[..f.len], captured, f.promotes) else {
                continue;
            };
            let (a, b) = (from.bit() as u8, m.to.bit() as u8);
            if counting == Counting::Orders {
                let mut order = [0u8; MAX_PATH];
                for (o, sq) in order.iter_mut().zip(&f.jumped[..f.len]) {
                    *o = sq.bit() as u8;
                }
                let key = (a, b, order, f.len, f.promotes);
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
            } else {
                let mut after = *self;
                after.play_western::<false>(&m);
                if positions.iter().any(|(x, y, p)| {
                    (*x, *y) == (a, b) && p.columns == after.columns && p.tops == after.tops
                }) {
                    continue;
                }
                positions.push((a, b, after));
            }
            if list.len() < list.capacity() {
                list.push(m);
            }
        }
        list
    }

    /// Play a move of the western reading: leg by leg, each taking the top of the first
    /// column on its line (the next leg meets the rest of it).
    pub(super) fn play_western<const HASH: bool>(&mut self, m: &Move) {
        let g = self.geometry();
        let Some(from) = self.index(m.from) else {
            return;
        };
        let mut mover = self.columns[from];
        self.set_column::<HASH>(from, Column::EMPTY);
        let mut jumped = [m.from; MAX_PATH];
        let mut n = 0;
        if m.is_capture() {
            let mut at = m.from;
            for &next in m.path() {
                // The leg jumps the first column on its line (squares emptied earlier in
                // the move are passed).
                let first = super::position::leg_squares(g, at, next)
                    .find(|sq| self.index(*sq).is_some_and(|i| !self.columns[i].is_empty()));
                if let Some((sq, i)) = first.and_then(|sq| self.index(sq).map(|i| (sq, i))) {
                    let (rest, role) = self.columns[i].without_top();
                    self.set_column::<HASH>(i, rest);
                    mover = mover.with_prisoner(role);
                    if n < MAX_PATH {
                        jumped[n] = sq;
                        n += 1;
                    }
                }
                at = next;
            }
        }
        // The tops: the mover's move and the taken tops off, then each jumped column's new
        // top (if any is left) back.
        self.tops
            .apply::<HASH>(m.from.bit(), m.to.bit(), m.captured.0, m.promotes);
        for &sq in &jumped[..n] {
            if sq == m.to {
                continue;
            }
            let Some(i) = self.index(sq) else { continue };
            let bit = 1u64 << sq.bit();
            if self.tops.occupied().0 & bit != 0 {
                continue; // put back already (a column jumped twice)
            }
            if let Some(top) = self.columns[i].top() {
                self.tops.put_piece::<HASH>(sq, top);
            }
        }
        if m.promotes {
            mover = mover.crowned();
        }
        if let Some(to) = self.index(m.to) {
            self.set_column::<HASH>(to, mover);
        }
    }
}
