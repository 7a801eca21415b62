//! Building a table by retrograde analysis.
//!
//! For one material balance, both sides to move at once. First every position is looked at
//! once (in parallel): no legal move is a loss now; moves that leave the balance (captures,
//! crownings) lead into tables built before, whose values are known; moves that stay are
//! counted. Then distances are settled in increasing order, one ply at a time: a position
//! lost in `d` makes every position that can move into it (found by taking a quiet move
//! back) a win in `d + 1`; a position won in `d` removes one move from each predecessor's
//! count, and a predecessor left without a move that does not lose is lost in one more ply
//! than its slowest defence. What is never settled is a draw. Distances are exact: the
//! winner takes the quickest win, the loser the slowest loss.

use rayon::prelude::*;

use super::index::Material;
use super::{Value, MAX_PLIES};
use crate::piece::Color;
use crate::position::Position;
use crate::square::Square;

/// Values of the balances a table's exits lead to.
pub trait Lookup: Sync {
    /// The value of `pos` (its side to move), if its balance is known.
    fn value(&self, pos: &Position) -> Option<Value>;
}

/// What the first look at a position found.
#[derive(Clone, Copy, Default)]
struct Start {
    /// No position in this slot.
    empty: bool,
    /// Moves that stay in the balance.
    stay: u8,
    /// The quickest win through an exit (plies), if any.
    win: Option<u8>,
    /// The slowest loss through an exit (plies), 0 if none.
    loss: u8,
    /// An exit leads to a draw.
    draw: bool,
    /// No legal move at all.
    stuck: bool,
}

/// Why a table could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// A balance the exits lead to has not been built.
    Missing(Material),
    /// A distance longer than the format stores.
    TooDeep(Material),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Missing(m) => write!(f, "the table {m} is needed first"),
            BuildError::TooDeep(m) => {
                write!(
                    f,
                    "{m} has a win longer than {MAX_PLIES} plies (not storable)"
                )
            }
        }
    }
}

impl std::error::Error for BuildError {}

const TURNS: [Color; 2] = [Color::White, Color::Black];

fn side(turn: Color) -> usize {
    turn.index()
}

fn first_look(m: Material, turn: Color, slot: u64, lookup: &dyn Lookup) -> Result<Start, Material> {
    let Some(pos) = m.position(slot, turn) else {
        return Ok(Start {
            empty: true,
            ..Start::default()
        });
    };
    let moves = pos.legal_moves();
    let mut start = Start {
        stuck: moves.is_empty(),
        ..Start::default()
    };
    for mv in &moves {
        let mut child = pos;
        child.play_unchecked(mv);
        let cm = Material::of(&child);
        if cm == m {
            start.stay += 1;
            continue;
        }
        let value = if child.pieces(child.turn()).is_empty() {
            Value::Loss(0)
        } else {
            lookup.value(&child).ok_or(cm)?
        };
        match value {
            Value::Loss(d) => {
                let d = d.saturating_add(1);
                start.win = Some(start.win.map_or(d, |w| w.min(d)));
            }
            Value::Win(d) => start.loss = start.loss.max(d.saturating_add(1)),
            Value::Draw => start.draw = true,
        }
    }
    Ok(start)
}

/// The positions one quiet move (not a crowning) before `pos`: the other side to move, a
/// king slid back along an empty diagonal or a man stepped back, with no capture available
/// to the mover there (a capture would have been compulsory).
pub(crate) fn predecessors(pos: &Position, out: &mut Vec<Position>) {
    out.clear();
    let mover = !pos.turn();
    let setup = pos.setup();
    let occupied = pos.occupied();
    let kings = pos.kings(mover);
    let men = pos.men(mover);
    let mut push = |from: Square, to: Square, king: bool| {
        let mut s = setup;
        let (set_men, set_kings) = match mover {
            Color::White => (&mut s.white_men, &mut s.white_kings),
            Color::Black => (&mut s.black_men, &mut s.black_kings),
        };
        if king {
            *set_kings = set_kings.without(to).with(from);
        } else {
            *set_men = set_men.without(to).with(from);
        }
        s.turn = Some(mover);
        if let Ok(p) = Position::from_setup(&s) {
            if !p.has_captures() {
                out.push(p);
            }
        }
    };
    for to in kings.iter() {
        for (df, dr) in [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)] {
            let (mut f, mut r) = (to.file() as i8 + df, to.rank() as i8 + dr);
            while let Some(from) = coords(f, r) {
                if occupied.contains(from) {
                    break;
                }
                push(from, to, true);
                f += df;
                r += dr;
            }
        }
    }
    let back: i8 = if mover == Color::White { -1 } else { 1 };
    for to in men.iter() {
        for df in [1i8, -1] {
            if let Some(from) = coords(to.file() as i8 + df, to.rank() as i8 + back) {
                if !occupied.contains(from) && from.rank() != mover_crowning(mover) {
                    push(from, to, false);
                }
            }
        }
    }
}

fn mover_crowning(color: Color) -> u8 {
    color.crowning_rank()
}

fn coords(file: i8, rank: i8) -> Option<Square> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Square::from_coords(file as u8, rank as u8)
    } else {
        None
    }
}

/// The values of both tables (index 0: White to move, 1: Black to move) of balance `m`,
/// one byte a slot as [`Value::to_byte`] writes them. `progress` is told of each settled
/// distance.
pub fn build_material(
    m: Material,
    lookup: &dyn Lookup,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<[Vec<u8>; 2], BuildError> {
    let slots = m.slots();
    let mut starts: [Vec<Start>; 2] = [Vec::new(), Vec::new()];
    for turn in TURNS {
        let looked: Result<Vec<Start>, Material> = (0..slots)
            .into_par_iter()
            .map(|slot| first_look(m, turn, slot, lookup))
            .collect();
        starts[side(turn)] = looked.map_err(BuildError::Missing)?;
    }
    progress(0);
    // Settled values, the moves left to refute, the slowest loss so far, and who can win.
    let mut values: [Vec<u8>; 2] = [vec![0; slots as usize], vec![0; slots as usize]];
    let mut pending: [Vec<u8>; 2] = [vec![0; slots as usize], vec![0; slots as usize]];
    let mut slowest: [Vec<u8>; 2] = [vec![0; slots as usize], vec![0; slots as usize]];
    let mut can_win: [Vec<bool>; 2] = [vec![false; slots as usize], vec![false; slots as usize]];
    let mut draws: [Vec<bool>; 2] = [vec![false; slots as usize], vec![false; slots as usize]];
    let mut buckets: Vec<Vec<(u8, u64)>> = vec![Vec::new(); MAX_PLIES as usize + 2];
    for turn in TURNS {
        let t = side(turn);
        for (slot, s) in starts[t].iter().enumerate() {
            if s.empty {
                values[t][slot] = Value::NO_POSITION;
                continue;
            }
            pending[t][slot] = s.stay;
            slowest[t][slot] = s.loss;
            draws[t][slot] = s.draw;
            if s.stuck {
                buckets[0].push((t as u8, slot as u64));
            } else if let Some(w) = s.win {
                can_win[t][slot] = true;
                if w > MAX_PLIES {
                    return Err(BuildError::TooDeep(m));
                }
                buckets[w as usize].push((t as u8, slot as u64));
            } else if s.stay == 0 && !s.draw {
                buckets[s.loss as usize].push((t as u8, slot as u64));
            }
        }
    }
    drop(starts);
    let mut before = Vec::new();
    for d in 0..=MAX_PLIES as usize {
        let bucket = std::mem::take(&mut buckets[d]);
        if bucket.is_empty() && buckets[d..].iter().all(Vec::is_empty) {
            break;
        }
        progress(d as u32);
        for (t, slot) in bucket {
            let t = t as usize;
            if values[t][slot as usize] != 0 {
                continue; // settled sooner
            }
            let value = if d % 2 == 1 {
                Value::Win(d as u8)
            } else {
                Value::Loss(d as u8)
            };
            values[t][slot as usize] = value.to_byte();
            let Some(pos) = m.position(slot, TURNS[t]) else {
                continue;
            };
            predecessors(&pos, &mut before);
            let o = 1 - t;
            for p in &before {
                let ps = m.index(p) as usize;
                if values[o][ps] != 0 {
                    continue;
                }
                match value {
                    Value::Loss(_) => {
                        if d + 1 > MAX_PLIES as usize {
                            return Err(BuildError::TooDeep(m));
                        }
                        can_win[o][ps] = true;
                        buckets[d + 1].push((o as u8, ps as u64));
                    }
                    Value::Win(_) => {
                        pending[o][ps] = pending[o][ps].saturating_sub(1);
                        slowest[o][ps] = slowest[o][ps].max(d as u8 + 1);
                        if pending[o][ps] == 0 && !can_win[o][ps] && !draws[o][ps] {
                            buckets[slowest[o][ps] as usize].push((o as u8, ps as u64));
                        }
                    }
                    Value::Draw => {}
                }
            }
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::position_from_fen;

    #[test]
    fn predecessors_undo_a_quiet_move() {
        let start = position_from_fen("W:W21-32:B1-12").expect("start");
        for m in start.legal_moves() {
            let mut after = start;
            after.play_unchecked(&m);
            let mut before = Vec::new();
            predecessors(&after, &mut before);
            assert!(before.contains(&start), "{}", m.long_text());
            for p in &before {
                assert!(p.legal_moves().iter().any(|pm| {
                    let mut c = *p;
                    c.play_unchecked(pm);
                    c == after
                }));
            }
        }
    }
}
