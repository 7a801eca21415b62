//! Building a table by retrograde analysis.
//!
//! For one material balance, both sides to move at once, in parallel throughout. First
//! every position is looked at once: no legal move is a loss now; moves that leave the
//! balance (every capture, crownings) lead into tables built before, whose values are
//! known; quiet moves that stay are counted. Then distances are settled in increasing
//! order, one ply at a time, each by a scan for the positions settled at that distance: a
//! position lost in `d` makes every position that can move into it (found by taking a
//! quiet move back) a win in `d + 1` unless a win as quick is known; a position won in `d`
//! takes one from each predecessor's count, and a predecessor left without a move that
//! does not lose (and without a crowning that draws) is lost in one more ply than its
//! slowest defence — which is `d + 1`, as the wins are settled in increasing order, or a
//! crowning's slower loss. What is never settled is a draw. Three bytes a slot: the value,
//! the count of moves not yet refuted, the slowest loss through a crowning.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicU8};

use rayon::prelude::*;

use super::index::{Material, TableGame};
use super::value::{Children, Value, MAX_PLIES};
use crate::geometry::Color;
use crate::geometry::Square;
use crate::position::{Position, Setup};
use crate::rules::kinds::GameWord;

/// Values of the balances a table's exits lead to, for positions in the word `W`.
pub trait Lookup<W: GameWord = u64>: Sync {
    /// The value of `pos` (its side to move), if its balance is known.
    fn value(&self, pos: &Position<W>) -> Option<Value>;
}

/// Why a table could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// A balance the exits lead to has not been built.
    Missing(Material),
    /// A distance longer than the format stores.
    TooDeep(Material),
    /// A position with more quiet moves than a build counts (127).
    TooManyMoves(Material),
    /// More slots than this machine addresses.
    TooLarge(Material),
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
            BuildError::TooManyMoves(m) => {
                write!(f, "{m} has a position with over 127 quiet moves")
            }
            BuildError::TooLarge(m) => write!(f, "{m} has more slots than this machine addresses"),
        }
    }
}

impl std::error::Error for BuildError {}

const TURNS: [Color; 2] = [Color::White, Color::Black];

/// `pending` of a slot whose stored byte is free: no position, or a position with a
/// capture (every move leaves the balance, so its value is settled at the first look, and
/// a probe searches its captures instead of reading the byte).
const FREE: u8 = 0xff;
/// `pending`'s flag: a move that leaves the balance (a crowning) leads to a draw.
const DRAW_EXIT: u8 = 0x80;

/// The slots of one balance while it is built, both sides to move (White's slots first):
/// three bytes a slot.
struct State {
    slots: usize,
    /// The value byte ([`Value::to_byte`]); 0 while unknown (and for a draw at the end).
    values: Vec<AtomicU8>,
    /// Quiet moves not yet refuted, with [`DRAW_EXIT`]; or [`FREE`].
    pending: Vec<AtomicU8>,
    /// The slowest loss through a crowning.
    exit_loss: Vec<AtomicU8>,
    /// How many values each byte was given (a scan of a distance nobody reached is skipped).
    counts: Vec<AtomicU64>,
}

fn atomics(n: usize) -> Vec<AtomicU8> {
    (0..n).map(|_| AtomicU8::new(0)).collect()
}

impl State {
    fn new(slots: usize) -> State {
        State {
            slots,
            values: atomics(2 * slots),
            pending: atomics(2 * slots),
            exit_loss: atomics(2 * slots),
            counts: (0..256).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn set(&self, i: usize, value: Value) {
        let byte = value.to_byte();
        self.values[i].store(byte, Relaxed);
        if value != Value::Draw {
            self.counts[byte as usize].fetch_add(1, Relaxed);
        }
    }

    /// The stored bytes of side `t`: a free slot repeats the byte before it (so runs stay
    /// long and the blocks compress well).
    fn stored(&self, t: usize) -> Vec<u8> {
        let mut previous = 0u8;
        (t * self.slots..(t + 1) * self.slots)
            .map(|i| {
                if self.pending[i].load(Relaxed) != FREE {
                    previous = self.values[i].load(Relaxed);
                }
                previous
            })
            .collect()
    }
}

/// The first look at slot `i`: a position without a move is lost; moves that leave the
/// balance (every capture, crownings) are looked up; the quiet moves that stay are counted.
fn first_look<W: GameWord>(
    m: Material,
    state: &State,
    i: usize,
    lookup: &dyn Lookup<W>,
) -> Result<(), BuildError> {
    let (t, slot) = (i / state.slots, (i % state.slots) as u64);
    let Some(pos) = m.position_unhashed::<W>(slot, TURNS[t]) else {
        state.values[i].store(Value::NO_POSITION, Relaxed);
        state.pending[i].store(FREE, Relaxed);
        return Ok(());
    };
    let moves = pos.legal_moves();
    if moves.is_empty() {
        state.set(i, m.game.end_value());
        return Ok(());
    }
    let captures = moves.first().is_some_and(|mv| mv.is_capture());
    let mut exits = Children::default(); // the moves that leave the balance
    let mut stay = 0u32;
    for mv in &moves {
        if !captures && !mv.promotes() {
            stay += 1;
            continue;
        }
        let mut child = pos;
        child.play_unchecked(mv);
        let value = if child.pieces(child.turn()).is_empty() {
            m.game.end_value()
        } else {
            lookup
                .value(&child)
                .ok_or_else(|| BuildError::Missing(Material::of(&child).canonical()))?
        };
        exits.add(value);
    }
    if captures {
        state.pending[i].store(FREE, Relaxed);
    }
    if let Some(w) = exits.win {
        // Settled now when no quiet move stays; else a quicker win may still be found.
        if w > MAX_PLIES {
            return Err(BuildError::TooDeep(m));
        }
        state.set(i, Value::Win(w));
    } else if stay == 0 {
        if exits.loss > MAX_PLIES {
            return Err(BuildError::TooDeep(m));
        }
        state.set(i, exits.best());
    } else {
        if stay >= DRAW_EXIT as u32 {
            return Err(BuildError::TooManyMoves(m));
        }
        let flag = if exits.draw { DRAW_EXIT } else { 0 };
        state.pending[i].store(stay as u8 | flag, Relaxed);
        state.exit_loss[i].store(exits.loss, Relaxed);
    }
    Ok(())
}

/// Slot `i` was settled at distance `d`: tell the positions one quiet move before it.
fn settle<W: GameWord>(
    m: Material,
    state: &State,
    i: usize,
    d: usize,
    before: &mut Vec<Position<W>>,
) -> Result<(), BuildError> {
    let (t, slot) = (i / state.slots, (i % state.slots) as u64);
    let Some(pos) = m.position_unhashed::<W>(slot, TURNS[t]) else {
        return Ok(());
    };
    if m.game.is_plain() {
        predecessors(&pos, before);
    } else {
        predecessors_in(m.game, &pos, before);
    }
    let o = 1 - t;
    for p in before.iter() {
        let ps = o * state.slots + m.index(p) as usize;
        if d % 2 == 0 {
            // A move into a lost position: a win in d + 1, unless a win as quick is known.
            if d + 1 > MAX_PLIES as usize {
                return Err(BuildError::TooDeep(m));
            }
            let code = (d + 2) as u8;
            let cell = &state.values[ps];
            let mut now = cell.load(Relaxed);
            while now == 0 || (now % 2 == 0 && now > code) {
                match cell.compare_exchange_weak(now, code, Relaxed, Relaxed) {
                    Ok(_) => {
                        state.counts[code as usize].fetch_add(1, Relaxed);
                        break;
                    }
                    Err(seen) => now = seen,
                }
            }
        } else {
            // A move into a won position: refuted. The last refuted (with no draw by a
            // crowning) loses in one more ply than its slowest defence.
            if state.values[ps].load(Relaxed) != 0 {
                continue;
            }
            if state.pending[ps].fetch_sub(1, Relaxed) == 1 {
                let loss = state.exit_loss[ps].load(Relaxed).max(d as u8 + 1);
                if loss > MAX_PLIES {
                    return Err(BuildError::TooDeep(m));
                }
                state.set(ps, Value::Loss(loss));
            }
        }
    }
    Ok(())
}

/// `setup` with `colour`'s piece on `to` taken back to `from` (a king, or a man), `mover`
/// to move, under `rules`; its hash not computed. Valid as the callers use it: `from` was
/// empty, and a man is never put back onto its crowning rank.
#[inline]
fn taken_back<W: GameWord>(
    setup: &Setup<W>,
    colour: Color,
    from: Square,
    to: Square,
    king: bool,
    mover: Color,
    rules: crate::RuleSet,
) -> Position<W> {
    let mut s = *setup;
    let (men, kings) = match colour {
        Color::White => (&mut s.white_men, &mut s.white_kings),
        Color::Black => (&mut s.black_men, &mut s.black_kings),
    };
    if king {
        *kings = kings.without(to).with(from);
    } else {
        *men = men.without(to).with(from);
    }
    s.turn = Some(mover);
    Position::from_valid_setup_unhashed(&s).with_rules(rules)
}

/// The positions one quiet move (not a crowning) before `pos`: the other side to move, a
/// king slid back along an empty diagonal or a man stepped back, with no capture available
/// to the mover there (a capture would have been compulsory). Their hashes are not
/// computed (0).
pub(crate) fn predecessors<W: GameWord>(pos: &Position<W>, out: &mut Vec<Position<W>>) {
    out.clear();
    let rules = pos.rules();
    let geometry = pos.geometry();
    let size = geometry.size() as i8;
    let coords = |file: i8, rank: i8| -> Option<Square> {
        if (0..size).contains(&file) && (0..size).contains(&rank) {
            geometry.square_at(file as u8, rank as u8)
        } else {
            None
        }
    };
    let crowning = if mover_is_white(pos) { size - 1 } else { 0 };
    let mover = !pos.turn();
    let setup = pos.setup();
    let occupied = pos.occupied();
    let kings = pos.kings(mover);
    let men = pos.men(mover);
    let mut push = |from: Square, to: Square, king: bool| {
        let p = taken_back(&setup, mover, from, to, king, mover, rules);
        if !p.has_captures() {
            out.push(p);
        }
    };
    for to in kings.iter() {
        for (df, dr) in [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)] {
            let (mut f, mut r) = (
                geometry.file_of(to) as i8 + df,
                geometry.rank_of(to) as i8 + dr,
            );
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
            let (f, r) = (geometry.file_of(to) as i8, geometry.rank_of(to) as i8);
            if let Some(from) = coords(f + df, r + back) {
                if !occupied.contains(from) && r + back != crowning {
                    push(from, to, false);
                }
            }
        }
    }
}

/// The positions one quiet move (not a crowning) before `pos` in any game of tables: the
/// other side to move, a piece of the mover's colour (of either colour where the mover may
/// move both) taken back along the game's lines — a king up to its reach, a man one step
/// the way its moves come from — each kept only if the move it undoes is legal there (so
/// that every rule of the game on what may move, a compulsory capture among them, holds).
/// Their hashes are not computed (0). Where every quiet move the lines allow is legal once
/// no capture is ([`TableGame::free_quiet_moves`]: Turkish, English, Italian), the move is
/// not checked again.
pub(crate) fn predecessors_in<W: GameWord>(
    game: TableGame,
    pos: &Position<W>,
    out: &mut Vec<Position<W>>,
) {
    predecessors_checked(game, pos, out, !game.free_quiet_moves());
}

/// [`predecessors_in`], each undone move checked against the legal moves when `check`.
fn predecessors_checked<W: GameWord>(
    game: TableGame,
    pos: &Position<W>,
    out: &mut Vec<Position<W>>,
    check: bool,
) {
    out.clear();
    let rules = pos.rules();
    let geometry = pos.geometry();
    let size = geometry.size() as i8;
    let coords = |file: i8, rank: i8| -> Option<Square> {
        if (0..size).contains(&file) && (0..size).contains(&rank) {
            geometry.square_at(file as u8, rank as u8)
        } else {
            None
        }
    };
    const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let lines = if game.orthogonal() {
        ORTHOGONAL
    } else {
        DIAGONAL
    };
    let reach = if game.short_kings() { 1 } else { size };
    let mover = !pos.turn();
    let setup = pos.setup();
    let occupied = pos.occupied();
    let target = pos.setup();
    let colours: &[Color] = if game.either_colour() {
        &[Color::White, Color::Black]
    } else if mover == Color::White {
        &[Color::White]
    } else {
        &[Color::Black]
    };
    let mut push = |colour: Color, from: Square, to: Square, king: bool| {
        let base = taken_back(&setup, colour, from, to, king, mover, rules);
        if base.has_captures() {
            return;
        }
        if !game.king_runs() {
            if !check || undoes(&base, from, to, &target, pos.king_runs) {
                out.push(base);
            }
            return;
        }
        // Frisian: the mover's run before the move follows from its run after it
        // (`runs_before`); the other side's is the one after. The move's legality is
        // checked once, under the first of them (a run changes only whether a king is
        // blocked, and `runs_before` gives none that blocks this king).
        let mut runs = [0u8; 64];
        let choices = runs_before(
            &base,
            mover,
            pos.king_runs[mover.index()],
            from,
            king,
            &mut runs,
        );
        for (i, &run) in runs[..choices].iter().enumerate() {
            let mut both = pos.king_runs;
            both[mover.index()] = run;
            let p = base.with_king_runs(both);
            if i == 0 && !undoes(&p, from, to, &target, pos.king_runs) {
                return;
            }
            out.push(p);
        }
    };
    for &colour in colours {
        let crowning = if colour == Color::White { size - 1 } else { 0 };
        let back: i8 = if colour == Color::White { -1 } else { 1 };
        for to in pos.kings(colour).iter() {
            for (df, dr) in lines {
                let (mut f, mut r) = (
                    geometry.file_of(to) as i8 + df,
                    geometry.rank_of(to) as i8 + dr,
                );
                let mut steps = 0;
                while let Some(from) = coords(f, r) {
                    if occupied.contains(from) || steps == reach {
                        break;
                    }
                    push(colour, from, to, true);
                    f += df;
                    r += dr;
                    steps += 1;
                }
            }
        }
        // A man came from a square behind it (diagonally), or behind or beside it
        // (orthogonally).
        let steps: &[(i8, i8)] = if game.orthogonal() {
            &[(0, 1), (1, 0), (-1, 0)]
        } else {
            &[(1, 1), (-1, 1)]
        };
        for to in pos.men(colour).iter() {
            let (f, r) = (geometry.file_of(to) as i8, geometry.rank_of(to) as i8);
            for &(df, dr) in steps {
                let dr = dr * back;
                if let Some(from) = coords(f + df, r + dr) {
                    if !occupied.contains(from) && r + dr != crowning {
                        push(colour, from, to, false);
                    }
                }
            }
        }
    }
}

/// Whether the quiet move `from` → `to` is legal in `p` and leads to the pieces of
/// `target` with the runs `runs` (Frisian's; zeros elsewhere).
fn undoes<W: GameWord>(
    p: &Position<W>,
    from: Square,
    to: Square,
    target: &Setup<W>,
    runs: [u8; 2],
) -> bool {
    p.legal_moves().iter().any(|mv| {
        if mv.from() != from || mv.to() != to || mv.is_capture() || mv.promotes() {
            return false;
        }
        let mut c = *p;
        c.play_unchecked(mv);
        c.setup() == *target && c.king_runs == runs
    })
}

/// The runs of quiet king moves `colour` may have had in `before` (its pieces before its
/// quiet move from `from`, by a king or not) given its run `after` the move (Frisian: a
/// king of a side with men runs on, one more when the same king moved, else from one; any
/// other move ends the run), into `out`; how many. None when `after` cannot follow. Every
/// run given leaves the king on `from` free to move (a blocked king is at three).
fn runs_before<W: GameWord>(
    before: &Position<W>,
    colour: Color,
    after: u8,
    from: Square,
    king: bool,
    out: &mut [u8; 64],
) -> usize {
    use crate::position::runs::{run, run_of};
    let (count, _) = run_of(after);
    if before.men(colour).is_empty() {
        // No runs are kept for a side without men (its king's moves are free).
        out[0] = 0;
        return usize::from(after == 0);
    }
    // The king's run goes on: one more than before when it was this king's, else from one
    // after any run but this king's; a man's move ends whatever run there was.
    let but = match (king, count) {
        (true, 2..) => {
            out[0] = run(count - 1, from.bit());
            return 1;
        }
        (true, 1) => Some(from),
        (false, 0) => None,
        _ => return 0, // this run cannot follow this move
    };
    out[0] = 0;
    let mut n = 1;
    for k in before.kings(colour).iter().filter(|k| Some(*k) != but) {
        for c in 1..=3 {
            if n < out.len() {
                out[n] = run(c, k.bit());
                n += 1;
            }
        }
    }
    n
}

/// Whether the side that moved last (the side not to move) is White.
fn mover_is_white<W: GameWord>(pos: &Position<W>) -> bool {
    pos.turn() == Color::Black
}

/// The stored values of balance `m` (see the module docs of [`super`]): White to move, then
/// Black to move (White to move alone for a symmetric balance). `progress` is told of each
/// distance as its positions are settled. `W` is the word of the game's positions (see
/// [`TableGame::wide`]).
pub fn build_material<W: GameWord>(
    m: Material,
    lookup: &dyn Lookup<W>,
    progress: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Vec<u8>>, BuildError> {
    let slots = usize::try_from(m.slots()).map_err(|_| BuildError::TooLarge(m))?;
    let state = State::new(slots);
    (0..2 * slots)
        .into_par_iter()
        .with_min_len(1 << 10)
        .try_for_each(|i| first_look(m, &state, i, lookup))?;
    progress(0);
    for d in 0..=MAX_PLIES as usize {
        let code = d + 1;
        if state.counts[code..255].iter().all(|c| c.load(Relaxed) == 0) {
            break;
        }
        if state.counts[code].load(Relaxed) == 0 {
            continue;
        }
        progress(d as u32);
        (0..2 * slots)
            .into_par_iter()
            .with_min_len(1 << 14)
            .try_for_each_init(Vec::new, |before, i| {
                if state.values[i].load(Relaxed) as usize != code {
                    return Ok(());
                }
                settle::<W>(m, &state, i, d, before)
            })?;
    }
    let sides = if m.is_symmetric() { 1 } else { 2 };
    Ok((0..sides).map(|t| state.stored(t)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::fen::position_from_fen;

    #[test]
    fn predecessors_undo_a_quiet_move() {
        let start = position_from_fen("W:W21-32:B1-12").expect("start");
        for m in start.legal_moves() {
            let mut after = start;
            after.play_unchecked(&m);
            let mut before = Vec::new();
            predecessors(&after, &mut before);
            let setups: Vec<_> = before.iter().map(Position::setup).collect();
            assert!(setups.contains(&start.setup()), "{}", m.long_text());
            for p in &before {
                assert!(p.legal_moves().iter().any(|pm| {
                    let mut c = *p;
                    c.play_unchecked(pm);
                    c.setup() == after.setup()
                }));
            }
        }
    }

    #[test]
    fn predecessors_undo_a_quiet_move_on_the_ten_by_ten_board() {
        use crate::games::{RuleSet, Variant};
        use crate::position::fen::position_from_fen_in;
        let rules = RuleSet::new(Variant::International, false);
        // Kings and men in the open: every quiet move of each side is undone, and every
        // position found moves into the one after.
        for fen in [
            "W:WK46,28,33:BK5,22",
            "B:WK46,28,33:BK5,22",
            "W:W45,K10:B6,K41",
        ] {
            let start = position_from_fen_in(fen, rules).expect("fen");
            for m in start.legal_moves() {
                if m.is_capture() || m.promotes() {
                    continue;
                }
                let mut after = start;
                after.play_unchecked(&m);
                let mut before = Vec::new();
                predecessors(&after, &mut before);
                let setups: Vec<_> = before.iter().map(Position::setup).collect();
                assert!(setups.contains(&start.setup()), "{fen} {}", m.long_text());
                for p in &before {
                    assert_eq!(p.rules(), rules);
                    assert!(p.legal_moves().iter().any(|pm| {
                        let mut c = *p;
                        c.play_unchecked(pm);
                        c.setup() == after.setup()
                    }));
                }
            }
        }
    }

    /// Every `step`-th slot of balance `m` that holds a position, `turn` to move.
    fn sampled<W: GameWord>(
        m: Material,
        turn: Color,
        step: u64,
    ) -> impl Iterator<Item = (u64, Position<W>)> {
        (0..m.slots())
            .step_by(step as usize)
            .filter_map(move |slot| Some((slot, m.position_unhashed(slot, turn)?)))
    }

    /// Frisian's predecessors, whose runs are derived from the run after the move, are
    /// the ones a search of every run the mover may have had finds (each checked by
    /// playing the move), on a sample of positions with runs.
    #[test]
    fn frisian_predecessors_are_every_run_that_leads_to_the_position() {
        use std::collections::HashSet;
        let game = TableGame::Frisian;
        let mut compared = 0;
        for name in ["KWvK", "KKWvK", "KWvKB", "KWvB"] {
            let m = Material::from_name(game, name).expect("balance");
            let step = (m.slots() / 3000).max(1) | 1;
            for turn in TURNS {
                for (slot, pos) in sampled::<u64>(m, turn, step) {
                    let mut fast = Vec::new();
                    predecessors_in(game, &pos, &mut fast);
                    let fast: HashSet<_> = fast.iter().map(|p| (m.index(p), p.turn())).collect();
                    // Every piece of the mover put back on any empty square, with every
                    // run the mover may have, kept when one of its quiet moves leads to
                    // `pos` (the position and the runs).
                    let mut slow = HashSet::new();
                    let target = pos.setup();
                    let mover = !pos.turn();
                    let empty: Vec<Square> = game
                        .geometry()
                        .squares()
                        .iter()
                        .copied()
                        .filter(|sq| !pos.occupied().contains(*sq))
                        .collect();
                    for to in pos.pieces(mover).iter() {
                        let king = pos.kings(mover).contains(to);
                        for &from in &empty {
                            let base =
                                taken_back(&target, mover, from, to, king, mover, pos.rules());
                            if !king && Material::of(&base) != m {
                                continue;
                            }
                            let mut every = vec![0u8];
                            if !base.men(mover).is_empty() {
                                for k in base.kings(mover).iter() {
                                    for c in 1..=3 {
                                        every.push(crate::position::runs::run(c, k.bit()));
                                    }
                                }
                            }
                            for run in every {
                                let mut both = pos.king_runs;
                                both[mover.index()] = run;
                                let p = base.with_king_runs(both);
                                let g = game.geometry();
                                let rank_ok = king
                                    || (mover == Color::White && g.rank_of(from) + 1 < g.size())
                                    || (mover == Color::Black && g.rank_of(from) > 0);
                                if rank_ok && undoes(&p, from, to, &target, pos.king_runs) {
                                    slow.insert((m.index(&p), p.turn()));
                                }
                            }
                        }
                    }
                    assert_eq!(fast, slow, "{name} {slot}");
                    compared += slow.len();
                    if compared > 400 {
                        break;
                    }
                }
            }
        }
        assert!(compared > 400, "{compared}");
    }

    /// Every game's predecessors, on a sample of 3- and 4-piece positions: each quiet move
    /// is undone, each position found moves into the one after, and where the quick way is
    /// taken it finds what the checked way finds.
    #[test]
    fn every_games_predecessors_undo_its_quiet_moves() {
        for game in TableGame::ALL {
            let undone = if game.wide() {
                undo_quiet_moves::<u128>(game)
            } else {
                undo_quiet_moves::<u64>(game)
            };
            assert!(undone > 100, "{game:?}: {undone}");
        }
    }

    /// The quiet moves of `game`'s sampled positions (in the word `W`) undone, as above;
    /// how many.
    fn undo_quiet_moves<W: GameWord>(game: TableGame) -> usize {
        use std::collections::HashSet;
        let key = |p: &Position<W>| {
            let s = p.setup();
            (
                s.white_men,
                s.white_kings,
                s.black_men,
                s.black_kings,
                s.turn,
                p.king_runs,
            )
        };
        let mut undone = 0;
        for m in Material::all_up_to_in(game, 4) {
            if m.pieces() < 3 {
                continue;
            }
            let step = (m.slots() / 40).max(1) | 1;
            for turn in TURNS {
                for (_, pos) in sampled::<W>(m, turn, step) {
                    for mv in pos.legal_moves() {
                        if mv.is_capture() || mv.promotes() {
                            continue;
                        }
                        let mut after = pos;
                        after.play_unchecked(&mv);
                        let mut before = Vec::new();
                        predecessors_in(game, &after, &mut before);
                        let found: HashSet<_> = before.iter().map(&key).collect();
                        assert!(
                            found.contains(&key(&pos)),
                            "{game:?} {m} {}",
                            mv.long_text()
                        );
                        assert_eq!(found.len(), before.len(), "{game:?}: twice");
                        if game.free_quiet_moves() {
                            let mut checked = Vec::new();
                            predecessors_checked(game, &after, &mut checked, true);
                            let checked: HashSet<_> = checked.iter().map(&key).collect();
                            assert_eq!(checked, found, "{game:?} {m}: unchecked");
                        }
                        if game.is_plain() {
                            let mut quick = Vec::new();
                            predecessors(&after, &mut quick);
                            let quick: HashSet<_> = quick.iter().map(&key).collect();
                            assert_eq!(quick, found, "{game:?} {m}");
                        }
                        undone += 1;
                    }
                }
            }
        }
        undone
    }
}
