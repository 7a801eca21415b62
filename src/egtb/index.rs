//! Material balances and the index of a position within its table.
//!
//! A table holds every placement of one material balance (white men, white kings, black
//! men, black kings) with one side to move. Pieces of one kind are interchangeable, so each
//! kind's squares are ranked as a combination (colex order) over the squares that kind may
//! stand on: men never on their own crowning rank (28 squares of the 8×8 board, 45 of the
//! 10×10, 66 of the 12×12), kings anywhere (32, 50, 72). The index is the mixed-radix
//! number of the four ranks; placements that put two pieces on one square are slots without
//! a position. A balance belongs to a game ([`TableGame`]): its board and its rules. The
//! index takes a position in either word ([`Word`]): the 64-bit one of the boards up to
//! 10×10, the 128-bit one of the 12×12 board (Canadian draughts).

use crate::games::{RuleSet, Variant};
use crate::geometry::Bitboard;
use crate::geometry::Color;
use crate::geometry::Geometry;
use crate::geometry::Square;
use crate::geometry::Word;
use crate::position::{Position, Setup};
use crate::rules::kinds::GameWord;

/// The most squares a board of the tables has (the 12×12 board's 72).
const MAX_SQUARES: usize = 72;

/// Binomial coefficients C(n, k) for n, k ≤ 72, saturating at `u64::MAX` (C(72, 36) does
/// not fit; a balance's counts are far below it, and [`Material::slots`] saturates too).
const fn binomials() -> [[u64; MAX_SQUARES + 1]; MAX_SQUARES + 1] {
    let mut c = [[0u64; MAX_SQUARES + 1]; MAX_SQUARES + 1];
    let mut n = 0;
    while n <= MAX_SQUARES {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1].saturating_add(if k < n { c[n - 1][k] } else { 0 });
            k += 1;
        }
        n += 1;
    }
    c
}

static C: [[u64; MAX_SQUARES + 1]; MAX_SQUARES + 1] = binomials();

/// The game a table's values are of: its board, its move rules and its goal, captures
/// compulsory. Games that play the same positions share one (the diagonal start plays
/// Russian draughts' positions, Portuguese draughts Spanish's). The discriminant is the
/// game's number in a table file's header.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableGame {
    /// Russian draughts (and the diagonal start).
    #[default]
    Russian = 0,
    /// International draughts.
    International = 1,
    /// Giveaway (поддавки): Russian moves, a side without a move wins.
    Giveaway = 2,
    /// Brazilian draughts.
    Brazilian = 3,
    /// English draughts (checkers).
    English = 4,
    /// Italian draughts.
    Italian = 5,
    /// Spanish draughts (and Portuguese).
    Spanish = 6,
    /// Czech draughts.
    Czech = 7,
    /// Pool checkers.
    Pool = 8,
    /// Thai draughts.
    Thai = 9,
    /// Antidraughts: International moves, a side without a move wins.
    Antidraughts = 10,
    /// Killer draughts.
    Killer = 11,
    /// Breakthrough draughts: the first crowning wins.
    Breakthrough = 12,
    /// Turkish draughts (every square, orthogonal moves).
    Turkish = 13,
    /// Samoedy: captures of either colour.
    Samoedy = 14,
    /// Stavropol draughts: a piece of either colour moved.
    Stavropol = 15,
    /// Stavropol draughts, one's own captures first.
    StavropolOwnFirst = 16,
    /// Frisian draughts (and frysk): each side's run of quiet king moves is part of a
    /// position.
    Frisian = 17,
    /// Canadian draughts (International's rules on the 12×12 board: the 128-bit word).
    Canadian = 18,
}

impl TableGame {
    /// The games with tables, in header order.
    pub const ALL: [TableGame; 19] = [
        TableGame::Russian,
        TableGame::International,
        TableGame::Giveaway,
        TableGame::Brazilian,
        TableGame::English,
        TableGame::Italian,
        TableGame::Spanish,
        TableGame::Czech,
        TableGame::Pool,
        TableGame::Thai,
        TableGame::Antidraughts,
        TableGame::Killer,
        TableGame::Breakthrough,
        TableGame::Turkish,
        TableGame::Samoedy,
        TableGame::Stavropol,
        TableGame::StavropolOwnFirst,
        TableGame::Frisian,
        TableGame::Canadian,
    ];

    /// The game whose values hold under `rules`, if it has tables.
    #[inline]
    pub fn of(rules: RuleSet) -> Option<TableGame> {
        if rules.captures_optional {
            return None;
        }
        Some(match rules.variant {
            Variant::Russian | Variant::Diagonal => TableGame::Russian,
            Variant::International => TableGame::International,
            Variant::Giveaway => TableGame::Giveaway,
            Variant::Brazilian => TableGame::Brazilian,
            Variant::English => TableGame::English,
            Variant::Italian => TableGame::Italian,
            Variant::Spanish | Variant::Portuguese => TableGame::Spanish,
            Variant::Czech => TableGame::Czech,
            Variant::Pool => TableGame::Pool,
            Variant::Thai => TableGame::Thai,
            Variant::Antidraughts => TableGame::Antidraughts,
            Variant::Killer => TableGame::Killer,
            Variant::Breakthrough => TableGame::Breakthrough,
            Variant::Turkish => TableGame::Turkish,
            Variant::Samoedy => TableGame::Samoedy,
            Variant::Stavropol => TableGame::Stavropol,
            Variant::StavropolOwnFirst => TableGame::StavropolOwnFirst,
            Variant::Frisian | Variant::Frysk => TableGame::Frisian,
            Variant::Canadian => TableGame::Canadian,
            _ => return None,
        })
    }

    /// Why `rules` have no tables (None when they have).
    pub fn refusal(rules: RuleSet) -> Option<String> {
        if TableGame::of(rules).is_some() {
            return None;
        }
        let name = rules.variant.name();
        let why = if rules.captures_optional {
            "with captures optional a position's value is another game's, and no table holds it"
        } else {
            match rules.variant {
                Variant::Ugolki | Variant::Ugolki12 => {
                    "it is a race without captures, ended by filling the other house or by a count of moves, not a game of material balances"
                }
                _ => "a square holds a column of pieces, not one piece, so a balance's positions are not placements of pieces",
            }
        };
        Some(format!("no endgame tables for {name}: {why}"))
    }

    /// The game's rules.
    pub fn rules(self) -> RuleSet {
        RuleSet::new(self.variant(), false)
    }

    /// The game.
    pub fn variant(self) -> Variant {
        match self {
            TableGame::Russian => Variant::Russian,
            TableGame::International => Variant::International,
            TableGame::Giveaway => Variant::Giveaway,
            TableGame::Brazilian => Variant::Brazilian,
            TableGame::English => Variant::English,
            TableGame::Italian => Variant::Italian,
            TableGame::Spanish => Variant::Spanish,
            TableGame::Czech => Variant::Czech,
            TableGame::Pool => Variant::Pool,
            TableGame::Thai => Variant::Thai,
            TableGame::Antidraughts => Variant::Antidraughts,
            TableGame::Killer => Variant::Killer,
            TableGame::Breakthrough => Variant::Breakthrough,
            TableGame::Turkish => Variant::Turkish,
            TableGame::Samoedy => Variant::Samoedy,
            TableGame::Stavropol => Variant::Stavropol,
            TableGame::StavropolOwnFirst => Variant::StavropolOwnFirst,
            TableGame::Frisian => Variant::Frisian,
            TableGame::Canadian => Variant::Canadian,
        }
    }

    /// Its board.
    #[inline]
    pub fn geometry(self) -> &'static Geometry {
        self.variant().geometry()
    }

    /// Its byte in a table file's header.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The game of a header's byte.
    pub fn from_code(code: u8) -> Option<TableGame> {
        TableGame::ALL.get(usize::from(code)).copied()
    }

    /// A side without a move wins (giveaway, antidraughts).
    #[inline]
    pub fn no_moves_wins(self) -> bool {
        matches!(self, TableGame::Giveaway | TableGame::Antidraughts)
    }

    /// How many plies a table's distances count beyond the game's: 1 where a side without
    /// a move wins (so that its end, a win in 0 plies, is stored as an odd distance like
    /// every other win), else 0.
    #[inline]
    pub fn offset(self) -> u8 {
        u8::from(self.no_moves_wins())
    }

    /// The value of a position without a move, in a table's distances.
    #[inline]
    pub(crate) fn end_value(self) -> super::Value {
        if self.no_moves_wins() {
            super::Value::Win(1)
        } else {
            super::Value::Loss(0)
        }
    }

    /// The first crowning wins (breakthrough): balances hold men only, and a position whose
    /// side not to move has a king is lost.
    #[inline]
    pub fn crowning_wins(self) -> bool {
        self == TableGame::Breakthrough
    }

    /// A side's own move may take its last piece (its captures take either colour):
    /// balances with one side empty are built too.
    #[inline]
    pub fn empty_side(self) -> bool {
        matches!(
            self,
            TableGame::Samoedy | TableGame::Stavropol | TableGame::StavropolOwnFirst
        )
    }

    /// The side to move moves a piece of either colour.
    #[inline]
    pub(crate) fn either_colour(self) -> bool {
        matches!(self, TableGame::Stavropol | TableGame::StavropolOwnFirst)
    }

    /// Pieces move along ranks and files, not diagonals (Turkish draughts).
    #[inline]
    pub(crate) fn orthogonal(self) -> bool {
        self == TableGame::Turkish
    }

    /// Each side's run of quiet moves by one king is part of a position (Frisian: a king
    /// may make at most three in a row while its side has men), so the index holds it.
    #[inline]
    pub(crate) fn king_runs(self) -> bool {
        self == TableGame::Frisian
    }

    /// Kings move one square at a time (English and Italian draughts).
    #[inline]
    pub(crate) fn short_kings(self) -> bool {
        matches!(self, TableGame::English | TableGame::Italian)
    }

    /// Every quiet move its lines allow (a king up to its reach over empty squares, a man
    /// one step its way, not onto its crowning rank) is legal when the side to move has no
    /// capture: no rule picks which piece may move (as Stavropol's choice of colour does) or
    /// stops a king (as Frisian's runs do). Turkish, English and Italian draughts, and the
    /// plain games (whose builder takes the quicker way of [`TableGame::is_plain`]).
    #[inline]
    pub(crate) fn free_quiet_moves(self) -> bool {
        !(self.either_colour() || self.king_runs())
    }

    /// Quiet moves as in Russian draughts (a man one step diagonally forward, a king along
    /// a free diagonal, the side to move's own pieces, legal unless a capture is): the
    /// builder takes them back without checking each (`build::predecessors`).
    #[inline]
    pub(crate) fn is_plain(self) -> bool {
        !(self.orthogonal() || self.short_kings() || self.either_colour() || self.king_runs())
    }

    /// Its positions are in the 128-bit word (its board's: the 12×12 board of Canadian
    /// draughts).
    #[inline]
    pub fn wide(self) -> bool {
        self.geometry().is_wide()
    }

    /// The name of the game's files' prefix (none for Russian draughts).
    pub fn prefix(self) -> &'static str {
        match self {
            TableGame::Russian => "",
            other => other.variant().name(),
        }
    }

    /// Squares of the board, and squares a man may stand on (all but its crowning rank).
    #[inline]
    fn squares(self) -> (u8, u8) {
        let g = self.geometry();
        let n = g.square_count() as u8;
        let crowning = g
            .squares()
            .iter()
            .filter(|s| g.rank_of(**s) + 1 == g.size())
            .count() as u8;
        (n, n - crowning)
    }
}

/// A material balance: how many men and kings each side has, in a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
    /// The game.
    pub game: TableGame,
}

impl Material {
    /// The material of a position (of Russian draughts' tables when its game has none).
    pub fn of<W: GameWord>(pos: &Position<W>) -> Material {
        Material {
            white_men: pos.men(Color::White).count() as u8,
            white_kings: pos.kings(Color::White).count() as u8,
            black_men: pos.men(Color::Black).count() as u8,
            black_kings: pos.kings(Color::Black).count() as u8,
            game: TableGame::of(pos.rules()).unwrap_or_default(),
        }
    }

    /// The balance with the colours swapped (what [`Position::mirrored`] turns a position
    /// of this balance into).
    pub fn mirror(&self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
            game: self.game,
        }
    }

    /// Whether this balance is the one of its mirror pair that is built and stored: White
    /// has at least as many men as Black, and as many kings when the men are equal. The
    /// other is probed through [`Position::mirrored`].
    pub fn is_canonical(&self) -> bool {
        (self.white_men, self.white_kings) >= (self.black_men, self.black_kings)
    }

    /// The stored balance of the mirror pair.
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.mirror()
        }
    }

    /// Whether the balance is its own mirror (then White to move is Black to move seen
    /// from the other side, and only White to move is stored).
    pub fn is_symmetric(&self) -> bool {
        *self == self.mirror()
    }

    /// All pieces.
    pub fn pieces(&self) -> u32 {
        self.white_men as u32
            + self.white_kings as u32
            + self.black_men as u32
            + self.black_kings as u32
    }

    /// All men.
    pub fn men(&self) -> u32 {
        self.white_men as u32 + self.black_men as u32
    }

    /// Whether the balance can stand on the board: at most a piece a square, at most a man
    /// a square of its kind (a man never stands on its own crowning rank), so that every
    /// count indexes the binomial table. A header read from a file is checked with this
    /// before its balance sizes anything.
    pub fn is_possible(&self) -> bool {
        self.pieces() <= u32::from(self.game.squares().0)
            && self.kinds().iter().all(|(n, _, squares)| n <= squares)
    }

    /// Every balance of Russian draughts with 2 to `pieces` pieces and at least one piece a
    /// side, in the order they must be built (a capture leads to fewer pieces, a crowning to
    /// fewer men).
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        Material::all_up_to_in(TableGame::Russian, pieces)
    }

    /// [`Material::all_up_to`] of `game`.
    pub fn all_up_to_in(game: TableGame, pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let n = pieces.min(32) as u8;
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    for bk in 0..=n - wm - wk - bm {
                        let m = Material {
                            white_men: wm,
                            white_kings: wk,
                            black_men: bm,
                            black_kings: bk,
                            game,
                        };
                        let sides = u8::from(wm + wk >= 1) + u8::from(bm + bk >= 1);
                        let needed = if game.empty_side() { 1 } else { 2 };
                        let kings_allowed = !game.crowning_wins() || wk + bk == 0;
                        if sides >= needed && kings_allowed && wm <= 12 && bm <= 12 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// The name of the balance's file: `KKvK.egtb` (Russian draughts), the game's name
    /// before it for the others (`international-KKvK.egtb`, `english-KKvK.egtb`).
    pub fn file_name(&self) -> String {
        format!("{}.egtb", self.label())
    }

    /// The balance's name with its game's before it (`KKvK` for Russian draughts,
    /// `english-KKvK`).
    pub fn label(&self) -> String {
        match self.game.prefix() {
            "" => self.name(),
            prefix => format!("{prefix}-{}", self.name()),
        }
    }

    /// The balance of a name like `KKvK` or `KWWvBB` in `game` ([`Material::name`]'s form,
    /// the letters of a side in any order), if it is one.
    pub fn from_name(game: TableGame, name: &str) -> Option<Material> {
        let (white, black) = name.split_once('v')?;
        let count = |side: &str, man: char| -> Option<(u8, u8)> {
            let (mut men, mut kings) = (0u8, 0u8);
            for c in side.chars() {
                match c {
                    'K' => kings = kings.checked_add(1)?,
                    c if c == man => men = men.checked_add(1)?,
                    _ => return None,
                }
            }
            Some((men, kings))
        };
        let (white_men, white_kings) = count(white, 'W')?;
        let (black_men, black_kings) = count(black, 'B')?;
        let m = Material {
            white_men,
            white_kings,
            black_men,
            black_kings,
            game,
        };
        Material::all_up_to_in(game, m.pieces().min(32))
            .contains(&m)
            .then_some(m)
    }

    /// The stored balances a build of this one reads: every one its captures and crownings
    /// may lead to (each side no more men, and no more pieces, than here; the men it has
    /// may have been crowned), in build order.
    pub fn needs(&self) -> Vec<Material> {
        let under = |a: &Material, b: &Material| {
            a.white_men <= b.white_men
                && a.white_men + a.white_kings <= b.white_men + b.white_kings
                && a.black_men <= b.black_men
                && a.black_men + a.black_kings <= b.black_men + b.black_kings
        };
        Material::all_up_to_in(self.game, self.pieces())
            .into_iter()
            .filter(|m| m.is_canonical() && *m != self.canonical())
            .filter(|m| under(m, self) || under(&m.mirror(), self))
            .collect()
    }

    /// A name like `KKvK` or `WWKvBK`: White's men (`W`) and kings (`K`), `v`, Black's.
    pub fn name(&self) -> String {
        let side = |men: u8, kings: u8, man: char| {
            let mut s = String::new();
            for _ in 0..kings {
                s.push('K');
            }
            for _ in 0..men {
                s.push(man);
            }
            s
        };
        format!(
            "{}v{}",
            side(self.white_men, self.white_kings, 'W'),
            side(self.black_men, self.black_kings, 'B')
        )
    }

    /// The four kinds in index order: (count, the first board index a piece of the kind may
    /// stand on, how many it may stand on). The board's indices run rank by rank from a1.
    #[inline]
    fn kinds(&self) -> [(u8, u8, u8); 4] {
        let (all, men) = self.game.squares();
        let rank = all - men;
        [
            (self.white_men, 0, men),
            (self.white_kings, 0, all),
            (self.black_men, rank, men),
            (self.black_kings, 0, all),
        ]
    }

    /// Slots in a table of this material (one side to move), placements of overlapping
    /// pieces included: every placement once for each pair of the sides' runs of quiet
    /// king moves (Frisian; one pair elsewhere), the placements of one pair together.
    pub fn slots(&self) -> u64 {
        let (white, black) = self.run_states();
        self.placements()
            .saturating_mul(white)
            .saturating_mul(black)
    }

    /// Placements of the pieces, overlapping pieces included.
    fn placements(&self) -> u64 {
        self.kinds()
            .iter()
            .map(|(n, _, squares)| C[*squares as usize][*n as usize])
            .fold(1u64, u64::saturating_mul)
    }

    /// How many runs of quiet king moves each side's positions may hold (White's, Black's):
    /// where the game keeps them and the side has men and kings, none or one to three
    /// moves by one of its kings (`1 + 3 * kings`); else one (none).
    fn run_states(&self) -> (u64, u64) {
        let states = |men: u8, kings: u8| {
            if self.game.king_runs() && men > 0 && kings > 0 {
                1 + 3 * u64::from(kings)
            } else {
                1
            }
        };
        (
            states(self.white_men, self.white_kings),
            states(self.black_men, self.black_kings),
        )
    }

    /// The slot of a position of this material: its runs (Frisian), then its placement.
    pub fn index<W: GameWord>(&self, pos: &Position<W>) -> u64 {
        let (white, black) = self.run_states();
        let placement = self.placement_index(pos);
        if white * black == 1 {
            return placement;
        }
        let side = |color: Color, states: u64| -> u64 {
            let kings = pos.kings(color);
            match pos.king_run(color) {
                Some((count, square)) if states > 1 => {
                    // The kings on the bits below the run's king's.
                    let below = kings.0 & !(!W::ZERO << square.bit());
                    1 + u64::from(count.clamp(1, 3) - 1) * u64::from(kings.count())
                        + u64::from(below.ones())
                }
                _ => 0,
            }
        };
        let runs = side(Color::White, white) * black + side(Color::Black, black);
        runs * self.placements() + placement
    }

    /// The runs of the slot's run index (see [`Material::index`]) for its pieces.
    fn runs_of<W: Word>(&self, runs: u64, setup: &Setup<W>) -> [u8; 2] {
        let (_, black) = self.run_states();
        let side = |index: u64, kings: Bitboard<W>| -> u8 {
            if index == 0 {
                return 0;
            }
            let n = u64::from(kings.count());
            let count = ((index - 1) / n + 1) as u8;
            let ordinal = ((index - 1) % n) as usize;
            let bit = kings.iter().nth(ordinal).map_or(0, Square::bit);
            crate::position::runs::run(count, bit)
        };
        [
            side(runs / black, setup.white_kings),
            side(runs % black, setup.black_kings),
        ]
    }

    /// The slot of a position's placement of pieces.
    fn placement_index<W: GameWord>(&self, pos: &Position<W>) -> u64 {
        let sets = [
            pos.men(Color::White),
            pos.kings(Color::White),
            pos.men(Color::Black),
            pos.kings(Color::Black),
        ];
        let geometry = self.game.geometry();
        let mut index = 0u64;
        for ((count, first, squares), set) in self.kinds().iter().zip(sets) {
            let radix = C[*squares as usize][*count as usize];
            let mut rank = 0u64;
            for (i, sq) in set.iter().enumerate() {
                let local = geometry.index_on_board(sq) - usize::from(*first);
                rank += C[local][i + 1];
            }
            index = index * radix + rank;
        }
        index
    }

    /// The position in a slot, if the slot holds one (no two pieces on a square).
    pub fn position<W: GameWord>(&self, index: u64, turn: Color) -> Option<Position<W>> {
        let placements = self.placements();
        let setup = self.setup(index % placements, turn)?;
        let pos = Position::from_setup_in(&setup, self.game.rules()).ok()?;
        Some(pos.with_king_runs(self.runs_of(index / placements, &setup)))
    }

    /// [`Material::position`] without the hash (0): for the builder, which only looks at
    /// moves and ranks positions.
    pub(crate) fn position_unhashed<W: GameWord>(
        &self,
        index: u64,
        turn: Color,
    ) -> Option<Position<W>> {
        // Men stand only on their squares and no square twice: a valid setup.
        let placements = self.placements();
        let setup = self.setup(index % placements, turn)?;
        let pos = Position::from_valid_setup_unhashed(&setup).with_rules(self.game.rules());
        if placements == self.slots() {
            return Some(pos);
        }
        Some(pos.with_king_runs(self.runs_of(index / placements, &setup)))
    }

    fn setup<W: Word>(&self, mut index: u64, turn: Color) -> Option<Setup<W>> {
        let kinds = self.kinds();
        let geometry = self.game.geometry();
        let mut sets = [Bitboard::<W>::EMPTY; 4];
        for k in (0..4).rev() {
            let (count, first, squares) = kinds[k];
            let radix = C[squares as usize][count as usize];
            let mut rank = index % radix;
            index /= radix;
            // Colex unranking: the largest element first.
            let mut top = squares as usize;
            for i in (1..=count as usize).rev() {
                while C[top - 1][i] > rank {
                    top -= 1;
                }
                top -= 1;
                rank -= C[top][i];
                let sq = geometry.square(top + usize::from(first))?;
                if (sets[0] | sets[1] | sets[2] | sets[3]).contains(sq) {
                    return None;
                }
                sets[k] = sets[k].with(sq);
            }
        }
        Some(Setup {
            white_men: sets[0],
            white_kings: sets[1],
            black_men: sets[2],
            black_kings: sets[3],
            turn: Some(turn),
        })
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_round_trips_through_its_index() {
        for m in Material::all_up_to(3) {
            let mut found = 0;
            for turn in [Color::White, Color::Black] {
                for i in 0..m.slots() {
                    if let Some(pos) = m.position::<u64>(i, turn) {
                        assert_eq!(Material::of(&pos), m);
                        assert_eq!(m.index(&pos), i, "{m} {i}");
                        found += 1;
                    }
                }
            }
            assert!(found > 0, "{m}");
        }
        assert_eq!(C[32][2], 496);
        assert_eq!(C[28][0], 1);
        assert_eq!(C[50][25], 126_410_606_437_752);
    }

    /// Every placement of two pieces of `game`, and every `step`-th slot of three, round-trips
    /// through the index in the word `W`; men never on their crowning rank.
    fn round_trips<W: GameWord>(game: TableGame, step: u64) {
        let g = game.geometry();
        let last = g.size() - 1;
        for m in Material::all_up_to_in(game, 3) {
            let step = if m.pieces() == 2 { 1 } else { step };
            let mut found = 0;
            for turn in [Color::White, Color::Black] {
                for i in (0..m.slots()).step_by(step as usize) {
                    if let Some(pos) = m.position::<W>(i, turn) {
                        assert_eq!(Material::of(&pos), m);
                        assert_eq!(m.index(&pos), i, "{m} {i}");
                        assert!(pos.men(Color::White).iter().all(|s| g.rank_of(s) != last));
                        assert!(pos.men(Color::Black).iter().all(|s| g.rank_of(s) != 0));
                        found += 1;
                    }
                }
            }
            assert!(found > 0, "{m}");
        }
    }

    #[test]
    fn ten_by_ten_positions_round_trip_through_their_index() {
        round_trips::<u64>(TableGame::International, 97);
        let kk = Material::from_name(TableGame::International, "KvK").expect("balance");
        assert_eq!(kk.slots(), 2500);
    }

    #[test]
    fn twelve_by_twelve_positions_round_trip_through_their_index() {
        // Canadian draughts' positions are in the 128-bit word.
        round_trips::<u128>(TableGame::Canadian, 89);
        let kk = Material::from_name(TableGame::Canadian, "KvK").expect("balance");
        assert_eq!(kk.slots(), 72 * 72);
        let wk = Material::from_name(TableGame::Canadian, "WvK").expect("balance");
        assert_eq!(wk.slots(), 66 * 72);
        // The binomials past 64 squares saturate rather than overflow.
        assert_eq!(C[72][5], 13_991_544);
        assert_eq!(C[72][36], u64::MAX);
    }

    #[test]
    fn frisian_positions_keep_their_runs_through_the_index() {
        // A side with men and kings has 1 + 3 * kings runs; every slot round-trips, runs
        // included, and the runs found are each king's, one to three moves.
        let m = Material::from_name(TableGame::Frisian, "KKWvK").expect("balance");
        assert_eq!(m.run_states(), (7, 1));
        assert_eq!(m.slots(), 7 * m.placements());
        let mut runs = 0;
        let step = 101;
        for turn in [Color::White, Color::Black] {
            let mut i = 0;
            while i < m.slots() {
                if let Some(pos) = m.position::<u64>(i, turn) {
                    assert_eq!(m.index(&pos), i, "{i}");
                    assert_eq!(pos.king_run(Color::Black), None);
                    if let Some((count, square)) = pos.king_run(Color::White) {
                        assert!((1..=3).contains(&count));
                        assert!(pos.kings(Color::White).contains(square));
                        runs += 1;
                    }
                    let mirrored = pos.mirrored_unhashed();
                    let back = m.mirror();
                    assert_eq!(
                        back.position(back.index(&mirrored), !turn),
                        Some(pos.mirrored())
                    );
                }
                i += step;
            }
        }
        assert!(runs > 1000, "{runs}");
    }

    #[test]
    fn a_board_index_runs_rank_by_rank() {
        for game in TableGame::ALL {
            let g = game.geometry();
            let per_rank = g.squares().iter().filter(|s| g.rank_of(**s) == 0).count();
            for (i, sq) in g.squares().iter().enumerate() {
                assert_eq!(g.index(*sq), Some(i));
                assert_eq!(usize::from(g.rank_of(*sq)), i / per_rank);
            }
        }
    }

    #[test]
    fn balances_in_build_order() {
        let all = Material::all_up_to(4);
        assert!(all
            .windows(2)
            .all(|w| (w[0].pieces(), w[0].men()) <= (w[1].pieces(), w[1].men())));
        assert_eq!(all.iter().filter(|m| m.pieces() == 2).count(), 4);
        assert_eq!(
            Material {
                white_men: 1,
                white_kings: 2,
                black_men: 0,
                black_kings: 1,
                game: TableGame::Russian
            }
            .name(),
            "KKWvK"
        );
    }
}
