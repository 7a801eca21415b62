//! Static evaluation, from the side to move's point of view, in centi-men (a man = 100).

use crate::geometry::Bitboard;
use crate::geometry::Color;
use crate::geometry::{Geometry, Square};
use crate::position::Position;

/// Every weight of the evaluation, in one place so they can be tuned.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king (worth several men).
    pub king: i32,
    /// Bonus for a man by rank from its own side (index 0 = own back rank).
    pub advancement: [i32; 8],
    /// A man on one of the four central squares (c5, d4, e5, f4).
    pub center: i32,
    /// A man still on its back rank (guarding the crowning squares) while the opponent has no king.
    pub back_rank: i32,
    /// A king on the main road a1–h8.
    pub king_main_road: i32,
    /// A man one step from crowning with a free square ahead.
    pub about_to_crown: i32,
    /// Each quiet move a man can make (a crude mobility term).
    pub mobility: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    man: 100,
    king: 330,
    advancement: [0, 2, 4, 7, 11, 16, 24, 0],
    center: 6,
    back_rank: 7,
    king_main_road: 20,
    about_to_crown: 45,
    mobility: 2,
};

/// Precomputed masks.
struct Masks {
    main_road: Bitboard,
    center: Bitboard,
    ranks: [Bitboard; 8],
}

const fn mask(coords: &[(u8, u8)]) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let mut i = 0;
    while i < coords.len() {
        if let Some(sq) = Square::from_coords(coords[i].0, coords[i].1) {
            b = Bitboard(b.0 | 1u64 << sq.bit());
        }
        i += 1;
    }
    b
}

const MASKS: Masks = Masks {
    main_road: Bitboard::MAIN_ROAD,
    // c5 d4 e5 f4
    center: mask(&[(2, 4), (3, 3), (4, 4), (5, 3)]),
    ranks: [
        Geometry::EIGHT.rank(0),
        Geometry::EIGHT.rank(1),
        Geometry::EIGHT.rank(2),
        Geometry::EIGHT.rank(3),
        Geometry::EIGHT.rank(4),
        Geometry::EIGHT.rank(5),
        Geometry::EIGHT.rank(6),
        Geometry::EIGHT.rank(7),
    ],
};

fn side_score(pos: &Position, color: Color, w: &Weights, m: &Masks) -> i32 {
    let men = pos.men(color);
    let kings = pos.kings(color);
    let opponent_kings = pos.kings(!color).count();
    let mut s = w.man * men.count() as i32 + w.king * kings.count() as i32;
    for r in 0..8u8 {
        let own_rank = if color == Color::White { r } else { 7 - r };
        s += w.advancement[own_rank as usize] * (men & m.ranks[r as usize]).count() as i32;
    }
    s += w.center * (men & m.center).count() as i32;
    if opponent_kings == 0 {
        let back = if color == Color::White { 0 } else { 7 };
        s += w.back_rank * (men & m.ranks[back]).count() as i32;
    }
    s += w.king_main_road * (kings & m.main_road).count() as i32;
    let empty = Bitboard(Geometry::EIGHT.board().0 & !pos.occupied().0);
    let (fwd, pre_crown) = match color {
        Color::White => (
            [crate::Direction::UpLeft, crate::Direction::UpRight],
            m.ranks[6],
        ),
        Color::Black => (
            [crate::Direction::DownLeft, crate::Direction::DownRight],
            m.ranks[1],
        ),
    };
    let steps = (men.shift(fwd[0]) & empty).count() + (men.shift(fwd[1]) & empty).count();
    s += w.mobility * steps as i32;
    let near = men & pre_crown;
    let free = (near.shift(fwd[0]) & empty).shift(fwd[0].opposite())
        | (near.shift(fwd[1]) & empty).shift(fwd[1].opposite());
    s += w.about_to_crown * free.count() as i32;
    s
}

/// Whether material alone decides the evaluation ([`ending`]): the learned weights are not
/// used there, and the fit leaves such positions out.
pub fn known_ending(pos: &Position) -> bool {
    ending(pos, &MASKS).is_some()
}

/// Known endings: `Some(score for White)` when material alone decides the verdict.
fn ending(pos: &Position, m: &Masks) -> Option<i32> {
    if !crate::games::CODE_FACTS[usize::from(pos.rules_code())].known_endings {
        return None;
    }
    let count = |c: Color| (pos.men(c).count(), pos.kings(c).count());
    for strong in [Color::White, Color::Black] {
        let weak = !strong;
        if count(weak) != (0, 1) {
            continue;
        }
        let (men, kings) = count(strong);
        let sign = if strong == Color::White { 1 } else { -1 };
        // One king against one king, two kings, or a king and a man: a draw (RULES 7.2.8).
        if men + kings <= 2 && kings >= 1 {
            return Some(0);
        }
        if men == 0 && kings == 3 {
            // Three kings win against a lone king, unless it holds the main road.
            let on_road = pos.kings(weak).intersects(m.main_road);
            return Some(if on_road { 0 } else { sign * 900 });
        }
        if men == 0 && kings >= 4 {
            return Some(sign * 1500);
        }
    }
    None
}

/// Which evaluation a search uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-set weights of [`WEIGHTS`].
    Classic,
    /// The weights fitted to self-play results ([`super::learned`]).
    #[default]
    Learned,
    /// The family evaluation ([`super::family`]) in every game, with the game's own fitted
    /// weights (the 10×10 games use it whatever the choice).
    Family,
    /// The network compiled in for the game ([`super::network`]); a game without one is
    /// evaluated as by [`Evaluation::Learned`].
    Network,
    /// A network read from a file ([`super::network::load`]: its index among those read);
    /// a position of another game is evaluated as by [`Evaluation::Learned`].
    Loaded(u16),
}

impl Evaluation {
    /// `classic`, `learned`, `family`, `network`, or a loaded network's file name.
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Loaded(index) => super::network::loaded_name(index),
            Evaluation::Classic => "classic",
            Evaluation::Learned => "learned",
            Evaluation::Family => "family",
            Evaluation::Network => "network",
        }
    }

    /// A number that names the evaluation (see [`Evaluation::from_code`]).
    pub fn code(self) -> u16 {
        match self {
            Evaluation::Classic => 0,
            Evaluation::Learned => 1,
            Evaluation::Family => 2,
            Evaluation::Network => 3,
            Evaluation::Loaded(index) => 256 + index.min(u16::MAX - 256),
        }
    }

    /// The evaluation of [`Evaluation::code`].
    pub fn from_code(code: u16) -> Evaluation {
        match code {
            0 => Evaluation::Classic,
            2 => Evaluation::Family,
            3 => Evaluation::Network,
            256.. => Evaluation::Loaded(code - 256),
            _ => Evaluation::Learned,
        }
    }

    /// An evaluation by name.
    pub fn parse(text: &str) -> Option<Evaluation> {
        match text {
            "classic" => Some(Evaluation::Classic),
            "learned" => Some(Evaluation::Learned),
            "family" => Some(Evaluation::Family),
            "network" => Some(Evaluation::Network),
            _ => None,
        }
    }
}

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate_with(pos: &Position, kind: Evaluation) -> i32 {
    // Both evaluations hand giveaway positions to `evaluate_giveaway`.
    match kind {
        Evaluation::Classic => evaluate(pos),
        Evaluation::Learned => evaluate_learned(pos),
        Evaluation::Family if pos.no_moves_wins() => evaluate_giveaway(pos),
        Evaluation::Family => super::family::evaluate_family(pos),
        Evaluation::Network | Evaluation::Loaded(_) => evaluate_network(
            pos,
            super::network::network_for(kind, pos.rules().variant),
            &mut super::network::Accumulator::default(),
        ),
    }
}

/// The evaluation by `net` (the network for `pos`'s game), its first layer brought to `pos`
/// from the position `acc` last held, with the known endings of the classic one; without a
/// network, as by [`evaluate_learned`].
#[inline]
pub fn evaluate_network(
    pos: &Position,
    net: Option<&super::network::Network>,
    acc: &mut super::network::Accumulator,
) -> i32 {
    let Some(net) = net else {
        return evaluate_learned(pos);
    };
    if let Some(score) = ending_for_mover(pos) {
        return score;
    }
    net.update_and_evaluate(acc, pos)
}

/// The learned evaluation, with the known endings of the classic one.
pub fn evaluate_learned(pos: &Position) -> i32 {
    if pos.own_evaluation() {
        // A game whose learned evaluation is its network (English, Italian, International) has it here too.
        if let Some(net) = super::network::learned_network(pos.rules().variant) {
            return evaluate_network(pos, Some(net), &mut super::network::Accumulator::default());
        }
        return evaluate_own(pos);
    }
    if let Some(score) = ending_for_mover(pos) {
        return score;
    }
    super::learned::linear(pos)
}

/// The classic evaluation's verdict on a known ending, from the side to move's point of
/// view (None for any other position).
#[inline]
fn ending_for_mover(pos: &Position) -> Option<i32> {
    ending(pos, &MASKS).map(|white| {
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    })
}

/// The classic (hand-set) evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    if pos.own_evaluation() {
        return evaluate_own(pos);
    }
    let m = &MASKS;
    let white = match ending(pos, m) {
        Some(v) => v,
        None => {
            side_score(pos, Color::White, &WEIGHTS, m) - side_score(pos, Color::Black, &WEIGHTS, m)
        }
    };
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// Giveaway (поддавки), from the side to move's point of view: material is a burden (a side
/// that has lost everything has won), kings most of all (they are hard to give away and
/// keep the side that has them moving); a side with few moves is close to being blocked,
/// which wins too.
pub fn evaluate_giveaway(pos: &Position) -> i32 {
    const MAN: i32 = 100;
    const KING: i32 = 250;
    const MOBILITY: i32 = 4;
    let us = pos.turn();
    let them = !us;
    let burden = |c: Color| MAN * pos.men(c).count() as i32 + KING * pos.kings(c).count() as i32;
    let steps = |c: Color| {
        let empty = Bitboard(pos.geometry().board().0 & !pos.occupied().0);
        let men = pos.men(c);
        let fwd = match c {
            Color::White => [crate::Direction::UpLeft, crate::Direction::UpRight],
            Color::Black => [crate::Direction::DownLeft, crate::Direction::DownRight],
        };
        ((men.shift(fwd[0]) & empty).count() + (men.shift(fwd[1]) & empty).count()) as i32
    };
    (burden(them) - burden(us)) + MOBILITY * (steps(them) - steps(us))
}

/// Уголки (the corners race), from the side to move's point of view: the race to the
/// other's house. A piece is worth `CORNER_STEP` for each step (along a rank or file) it
/// still has to go to reach the target house, plus a little for going deep into it (making
/// room behind), less `CORNER_HOME` while it has not left its own house (the 40th-move rule,
/// which the search cannot count, is reached through this); the side to move is a step
/// ahead (`CORNER_TEMPO`).
pub fn evaluate_corners(pos: &Position) -> i32 {
    const CORNER_STEP: i32 = 10;
    const CORNER_HOME: i32 = 6;
    const CORNER_TEMPO: i32 = 5;
    let [white_house, black_house] = crate::games::HOUSES[pos.rules().variant as usize];
    // The target house's nearest file and rank from its owner's side (5 and 5 for 3×3
    // houses on the 8×8 board, 4 and 5 for 4×3 ones): Black's house seen from White's side.
    let near_file = (black_house.trailing_zeros() % 8) as i32;
    let near_rank = (black_house.trailing_zeros() / 8) as i32;
    // White's view of a square (file, rank from White's side); Black's is the mirror.
    let progress = |mut set: u64, home: u64, mirror: bool| -> i32 {
        let at_home = (set & home).count_ones() as i32;
        let mut total = -CORNER_HOME * at_home;
        while set != 0 {
            let bit = set.trailing_zeros() as i32;
            set &= set - 1;
            let (mut file, mut rank) = (bit % 8, bit / 8);
            if mirror {
                (file, rank) = (7 - file, 7 - rank);
            }
            let to_go = (near_file - file).max(0) + (near_rank - rank).max(0);
            total += -CORNER_STEP * to_go + (file + rank);
        }
        total
    };
    let white = progress(pos.pieces(Color::White).bits(), white_house, false);
    let black = progress(pos.pieces(Color::Black).bits(), black_house, true);
    let score = white - black;
    CORNER_TEMPO
        + if pos.turn() == Color::White {
            score
        } else {
            -score
        }
}

/// The evaluation of the positions the 8×8 evaluations leave alone: giveaway's (and
/// antidraughts'), and the family evaluation's (the 10×10 games', English and Italian
/// draughts').
fn evaluate_own(pos: &Position) -> i32 {
    if pos.no_moves_wins() {
        evaluate_giveaway(pos)
    } else {
        super::family::evaluate_family(pos)
    }
}
