//! The move generators, one per family of move rules, each implementing
//! [`Generator`](crate::Generator) for the rules types that name it: `diagonal` (every game
//! of the diagonal boards, both words), `orthogonal` (Frisian draughts: captures along
//! ranks and files too), `turkish` (Turkish draughts: ranks and files on a board of every
//! square), `ugolki` (уголки: steps and chains of jumps on every square, nothing taken), `stavropol` (Stavropol draughts: the diagonal generator's moves of both
//! colours), and `capture_list` (the capture lists Frisian's and Turkish's filter). They import the
//! rules' traits and the positions, never the dispatch.
//!
//! Inside: `diagonal`, `capture_list` ← `orthogonal`; `capture_list` ← `turkish`;
//! `diagonal` ← `stavropol`.

pub(crate) mod capture_list;
pub(crate) mod diagonal;
pub(crate) mod orthogonal;
pub(crate) mod stavropol;
pub(crate) mod turkish;
pub(crate) mod ugolki;

use crate::position::mv::{Move, MoveList};
use crate::position::state::Position;

/// Call `visit` with the position after each move of `list`, each played on a copy of
/// `pos` by `play`: the children of the generators that list their moves first (Turkish,
/// Stavropol).
#[inline]
pub(crate) fn visit_listed(
    pos: &Position,
    list: &MoveList,
    play: impl Fn(&mut Position, &Move),
    mut visit: impl FnMut(&Position),
) {
    for m in list {
        let mut child = *pos;
        play(&mut child, m);
        visit(&child);
    }
}
