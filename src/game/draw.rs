//! The draw rules, written once: the game layer, the search and the batch API all ask them.
//!
//! A draw rule reads the position and a few clocks that sum up the game's history
//! ([`DrawClocks`], kept up to date move by move by [`DrawClocks::after`]), plus, for
//! repetition, how often the position has occurred. Each rule answers two questions: how far
//! its count has run ([`DrawRules::progress`], what a game shows as "draw in 3 moves") and
//! whether it has ended the game ([`DrawRules::reached`]); the search asks the second through
//! [`DrawRules::is_draw`], in O(1) a node.
//!
//! The readings (the docs' rules page gives the articles and their sources):
//!
//! - A "move" is a move of one player; counts of both players' moves are kept in plies.
//! - A count "from the move that established the balance of forces" starts after the ply that
//!   made its condition true (or at the first position of a game set up in it) and restarts on
//!   any capture or crowning, which change the balance.
//! - The stronger side of a "X against a single king" rule is the side that is not the lone
//!   king; with a king against a king, the side to move when that ending arose.
//! - 7.2.4 asks the stronger side for three or more kings and no men.
//! - 7.2.7 counts while the lone king holds the main road without a break: a king that leaves
//!   the road and comes back starts the count again (lidraughts' reading; the article speaks
//!   of a king "standing on" the road when the ending is played out, and a king that leaves it
//!   is no longer in that ending).
//! - 7.2.5 counts the plies since the last capture or man move, including those the FEN's
//!   halfmove clock (`H`) says were played before the first position.

use crate::games::{DrawSet, Variant};
use crate::geometry::Bitboard;
use crate::geometry::Color;
use crate::geometry::Word;
use crate::position::mv::Move;
use crate::position::Position;
use crate::rules::GameWord;

/// What the draw rules need to know of the game before a position, in plies.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DrawClocks {
    /// Plies since the last capture or man move (the FEN's halfmove clock).
    pub kings_only: u32,
    /// Plies since the last capture or crowning (since the first position if none).
    pub balance: u32,
    /// For each colour (White first), the positions in a row, ending with this one, in which
    /// that side has a lone king standing on the main road, with no capture or crowning
    /// between them (0: it has none there now).
    pub road: [u32; 2],
}

fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Whether `color` has one king and nothing else.
#[inline]
fn lone_king<W: Word>(pos: &Position<W>, color: Color) -> bool {
    pos.men(color).is_empty() && pos.kings(color).count() == 1
}

/// (The main road is the 8×8 board's a1–h8, in the 64-bit word; no position of the 12×12
/// board has one.)
#[inline]
fn lone_king_on_road<W: Word>(pos: &Position<W>, color: Color) -> bool {
    W::BITS == 64
        && lone_king(pos, color)
        && pos
            .kings(color)
            .intersects(Bitboard(W::from_wide(u128::from(Bitboard::MAIN_ROAD.0))))
}

impl DrawClocks {
    /// The clocks of the first position of a game: `halfmove` plies of king moves before it
    /// (the FEN's `H`), nothing else known.
    pub fn start<W: Word>(pos: &Position<W>, halfmove: u32) -> DrawClocks {
        let mut road = [0; 2];
        for c in [Color::White, Color::Black] {
            road[color_index(c)] = u32::from(lone_king_on_road(pos, c));
        }
        DrawClocks {
            kings_only: halfmove,
            balance: 0,
            road,
        }
    }

    /// The clocks after `m`, played in `pos`, reached `next`.
    #[inline]
    pub fn after<W: Word>(self, pos: &Position<W>, m: &Move<W>, next: &Position<W>) -> DrawClocks {
        let capture = m.is_capture();
        let man_moved = !pos.kings(pos.turn()).contains(m.from());
        let balance_changed = capture || m.promotes();
        let mut road = [0; 2];
        for c in [Color::White, Color::Black] {
            let i = color_index(c);
            road[i] = if !lone_king_on_road(next, c) {
                0
            } else if self.road[i] > 0 && !balance_changed {
                self.road[i].saturating_add(1)
            } else {
                1
            };
        }
        DrawClocks {
            kings_only: if capture || man_moved {
                0
            } else {
                self.kings_only.saturating_add(1)
            },
            balance: if balance_changed {
                0
            } else {
                self.balance.saturating_add(1)
            },
            road,
        }
    }
}

/// The kings and men of one side, as a rule's material condition names them.
pub type Material = (u32, u32);

/// One draw rule and its parameters. The built-in rule sets ([`DrawRules::fmjd64`] and the
/// others) are made of these; any list of them is a rule set the search applies exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawRule {
    /// 7.2.3: the same position (pieces and side to move) for the `times`-th time.
    Repetition {
        /// Occurrences that draw (3).
        times: u32,
    },
    /// 7.2.4: three or more kings (and, unless `allow_men`, no men) against a lone king, not
    /// taken by the stronger side's `moves`-th move since that balance arose.
    ThreeKingsVsKing {
        /// The stronger side's moves (15).
        moves: u32,
        /// Whether the stronger side may also have men (the historical code's art. 20).
        allow_men: bool,
    },
    /// 7.2.5: `moves` moves of each side with only kings moved and nothing taken.
    KingsOnly {
        /// Moves of each side (15).
        moves: u32,
    },
    /// 7.2.6: both sides have kings and the balance has not changed for `moves` moves of
    /// each side, for each `(fewest pieces, most pieces, moves)` on the board.
    UnchangedBalance {
        /// `((4, 5, 30), (6, 7, 60))` for FMJD-64.
        limits: Vec<(u32, u32, u32)>,
    },
    /// 7.2.7: one of `materials` against a lone king holding the main road, not won by the
    /// stronger side's `moves`-th move.
    MainRoad {
        /// The stronger side's moves (5).
        moves: u32,
        /// The stronger side's (kings, men): three kings, two kings and a man, a king and
        /// two men.
        materials: Vec<Material>,
    },
    /// 7.2.8: one of `materials` against a lone king, not won by the stronger side's
    /// `moves`-th move.
    SmallEnding {
        /// The stronger side's moves (5).
        moves: u32,
        /// The stronger side's (kings, men): two kings, a king and a man, a king.
        materials: Vec<Material>,
    },
    /// The 40-move site rule: `moves` moves of each side without a capture or a crowning.
    NoCaptureOrPromotion {
        /// Moves of each side (40).
        moves: u32,
    },
    /// The historical code's art. 21: one king with men against a lone king, `moves` moves.
    KingAndMenVsKing {
        /// The stronger side's moves (30).
        moves: u32,
    },
    /// A lone king against `pieces` pieces of which at least one king, not won by the
    /// stronger side's `moves`-th move (FMJD international rules 6.3–6.4, as Brazilian
    /// draughts plays them).
    PiecesVsKing {
        /// The stronger side's pieces.
        pieces: u32,
        /// The stronger side's moves.
        moves: u32,
    },
    /// Each side has one piece left (a king or a man) and the side to move cannot capture:
    /// drawn at once (Turkish draughts; docs/variants.md).
    OnePieceEach,
}

/// What a count is kept in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CountUnit {
    /// Plies: both players' moves.
    Plies,
    /// The stronger side's moves.
    Moves,
    /// Occurrences of the position.
    Occurrences,
}

impl CountUnit {
    /// `plies`, `moves` or `occurrences`.
    pub fn name(self) -> &'static str {
        match self {
            CountUnit::Plies => "plies",
            CountUnit::Moves => "moves",
            CountUnit::Occurrences => "occurrences",
        }
    }
}

/// How far one rule's count has run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DrawCount {
    /// The rule's index in its [`DrawRules`] (automatic rules first, then claimable ones).
    pub rule: usize,
    /// The count so far.
    pub done: u32,
    /// The count that draws.
    pub limit: u32,
    /// What is counted.
    pub unit: CountUnit,
}

impl DrawCount {
    /// Whether the count has reached its limit.
    pub fn reached(&self) -> bool {
        self.done >= self.limit
    }
}

/// How often `pos` has occurred, this time included, given the positions before it since
/// the last capture or man move (only those can recur): the repetition count of
/// [`DrawContext::occurrences`], for a board's history and for a playout's.
#[inline]
pub fn occurrences<'a, W: Word>(
    pos: &Position<W>,
    earlier: impl IntoIterator<Item = &'a Position<W>>,
) -> u32 {
    let hash = pos.hash();
    1 + earlier
        .into_iter()
        .filter(|p| p.hash() == hash && *p == pos)
        .count() as u32
}

/// A position as the draw rules see it: the position, its clocks and how often it has
/// occurred (this time included) since the last capture or man move.
#[derive(Copy, Clone, Debug)]
pub struct DrawContext<'a, W: Word = u64> {
    /// The position.
    pub pos: &'a Position<W>,
    /// Its clocks.
    pub clocks: DrawClocks,
    /// Occurrences of the position, this one included.
    pub occurrences: u32,
}

/// The stronger side's moves in the last `plies` plies.
#[inline]
fn moves_of<W: Word>(pos: &Position<W>, strong: Color, plies: u32) -> u32 {
    if strong == pos.turn() {
        plies / 2
    } else {
        plies.div_ceil(2)
    }
}

/// A "material against a lone king" count: for the first weak side (White, then Black)
/// whose condition holds, the stronger side's moves in the last `plies(weak)` plies; with a
/// king against a king, the moves of the side to move when that ending arose.
#[inline]
fn against_lone_king<W: Word>(
    pos: &Position<W>,
    weak_ok: impl Fn(Color) -> bool,
    strong_ok: impl Fn(Material) -> bool,
    plies: impl Fn(Color) -> u32,
) -> Option<u32> {
    for weak in [Color::White, Color::Black] {
        if !lone_king(pos, weak) || !weak_ok(weak) {
            continue;
        }
        let strong = !weak;
        let material = (pos.kings(strong).count(), pos.men(strong).count());
        if !strong_ok(material) {
            continue;
        }
        let plies = plies(weak);
        return Some(if lone_king(pos, strong) {
            plies.div_ceil(2)
        } else {
            moves_of(pos, strong, plies)
        });
    }
    None
}

impl DrawRule {
    /// Whether the rule can hold only with a king on the board.
    pub fn needs_kings(&self) -> bool {
        !matches!(
            self,
            DrawRule::NoCaptureOrPromotion { .. } | DrawRule::OnePieceEach
        )
    }

    /// The rule's name: the article it follows.
    pub fn name(&self) -> &'static str {
        match self {
            DrawRule::Repetition { .. } => "repetition",
            DrawRule::ThreeKingsVsKing { .. } => "three kings against a king",
            DrawRule::KingsOnly { .. } => "only kings moved",
            DrawRule::UnchangedBalance { .. } => "balance unchanged",
            DrawRule::MainRoad { .. } => "lone king on the main road",
            DrawRule::SmallEnding { .. } => "small ending",
            DrawRule::NoCaptureOrPromotion { .. } => "no capture or crowning",
            DrawRule::KingAndMenVsKing { .. } => "a king and men against a king",
            DrawRule::PiecesVsKing { .. } => "pieces against a king",
            DrawRule::OnePieceEach => "one piece each",
        }
    }

    /// How far the rule's count has run (`(done, limit, unit)`), or None when its condition
    /// does not hold.
    pub fn progress<W: GameWord>(&self, ctx: &DrawContext<'_, W>) -> Option<(u32, u32, CountUnit)> {
        let pos = ctx.pos;
        let clocks = ctx.clocks;
        let balance = |_: Color| clocks.balance;
        match self {
            DrawRule::Repetition { times } => {
                (ctx.occurrences >= 2).then_some((ctx.occurrences, *times, CountUnit::Occurrences))
            }
            DrawRule::KingsOnly { moves } => {
                (clocks.kings_only > 0).then_some((clocks.kings_only, 2 * moves, CountUnit::Plies))
            }
            DrawRule::NoCaptureOrPromotion { moves } => {
                Some((clocks.balance, 2 * moves, CountUnit::Plies))
            }
            DrawRule::UnchangedBalance { limits } => {
                if pos.kings(Color::White).is_empty() || pos.kings(Color::Black).is_empty() {
                    return None;
                }
                let pieces = pos.occupied().count();
                limits
                    .iter()
                    .find(|(low, high, _)| (*low..=*high).contains(&pieces))
                    .map(|(_, _, moves)| (clocks.balance, 2 * moves, CountUnit::Plies))
            }
            DrawRule::ThreeKingsVsKing { moves, allow_men } => against_lone_king(
                pos,
                |_| true,
                |(kings, men)| kings >= 3 && (*allow_men || men == 0),
                balance,
            )
            .map(|done| (done, *moves, CountUnit::Moves)),
            DrawRule::MainRoad { moves, materials } => against_lone_king(
                pos,
                |weak| clocks.road[color_index(weak)] > 0,
                |m| materials.contains(&m),
                // The run began when the king last stepped onto the road, or when the
                // balance last changed, whichever came later.
                |weak| clocks.balance.min(clocks.road[color_index(weak)] - 1),
            )
            .map(|done| (done, *moves, CountUnit::Moves)),
            DrawRule::SmallEnding { moves, materials } => {
                against_lone_king(pos, |_| true, |m| materials.contains(&m), balance)
                    .map(|done| (done, *moves, CountUnit::Moves))
            }
            DrawRule::KingAndMenVsKing { moves } => against_lone_king(
                pos,
                |_| true,
                |(kings, men)| kings == 1 && men >= 1,
                balance,
            )
            .map(|done| (done, *moves, CountUnit::Moves)),
            DrawRule::PiecesVsKing { pieces, moves } => against_lone_king(
                pos,
                |_| true,
                |(kings, men)| kings >= 1 && kings + men == *pieces,
                balance,
            )
            .map(|done| (done, *moves, CountUnit::Moves)),
            DrawRule::OnePieceEach => (pos.pieces(Color::White).count() == 1
                && pos.pieces(Color::Black).count() == 1
                && !pos.has_captures())
            .then_some((0, 0, CountUnit::Moves)),
        }
    }

    /// The fewest plies on the balance clock, or on the kings-only clock, with which the
    /// rule can hold: below both, it cannot (the search's quick test).
    fn least_clocks(&self) -> (u32, u32) {
        const NEVER: u32 = u32::MAX;
        // The stronger side's n-th move comes at the earliest on ply 2n - 1.
        let moves_plies = |n: u32| (2 * n).saturating_sub(1);
        match self {
            DrawRule::Repetition { .. } => (NEVER, NEVER),
            DrawRule::OnePieceEach => (0, 0),
            DrawRule::KingsOnly { moves } => (NEVER, 2 * moves),
            DrawRule::NoCaptureOrPromotion { moves } => (2 * moves, NEVER),
            DrawRule::UnchangedBalance { limits } => {
                (limits.iter().map(|l| 2 * l.2).min().unwrap_or(NEVER), NEVER)
            }
            DrawRule::ThreeKingsVsKing { moves, .. }
            | DrawRule::MainRoad { moves, .. }
            | DrawRule::SmallEnding { moves, .. }
            | DrawRule::KingAndMenVsKing { moves }
            | DrawRule::PiecesVsKing { moves, .. } => (moves_plies(*moves), NEVER),
        }
    }
}

/// A set of draw rules: automatic ones end the game, claimable ones only when a player
/// claims the draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawRules {
    automatic: Vec<DrawRule>,
    claimable: Vec<DrawRule>,
    /// The search's quick test: below both clocks no automatic rule but repetition holds.
    least: (u32, u32),
    /// Whether an automatic rule may hold without a king on the board.
    without_kings: bool,
}

impl DrawRules {
    /// A rule set.
    pub fn new(mut automatic: Vec<DrawRule>, mut claimable: Vec<DrawRule>) -> DrawRules {
        // Materials are sets: kept sorted, so equal sets compare equal.
        for rule in automatic.iter_mut().chain(claimable.iter_mut()) {
            if let DrawRule::MainRoad { materials, .. } | DrawRule::SmallEnding { materials, .. } =
                rule
            {
                materials.sort_unstable();
                materials.dedup();
            }
        }
        let least = automatic.iter().fold((u32::MAX, u32::MAX), |acc, rule| {
            let (b, k) = rule.least_clocks();
            (acc.0.min(b), acc.1.min(k))
        });
        let without_kings = automatic.iter().any(|r| !r.needs_kings());
        DrawRules {
            automatic,
            claimable,
            least,
            without_kings,
        }
    }

    /// No draw rules.
    pub fn none() -> DrawRules {
        DrawRules::new(Vec::new(), Vec::new())
    }

    /// FMJD-64 7.2.3–7.2.8, Russian draughts' rules.
    pub fn fmjd64() -> DrawRules {
        DrawRules::new(
            vec![
                DrawRule::Repetition { times: 3 },
                DrawRule::MainRoad {
                    moves: 5,
                    materials: vec![(3, 0), (2, 1), (1, 2)],
                },
                DrawRule::SmallEnding {
                    moves: 5,
                    materials: vec![(2, 0), (1, 1), (1, 0)],
                },
                DrawRule::ThreeKingsVsKing {
                    moves: 15,
                    allow_men: false,
                },
                DrawRule::KingsOnly { moves: 15 },
                DrawRule::UnchangedBalance {
                    limits: vec![(4, 5, 30), (6, 7, 60)],
                },
            ],
            Vec::new(),
        )
    }

    /// The 40-move site rule: 40 moves of each side without a capture or a crowning.
    pub fn forty_moves() -> DrawRules {
        DrawRules::new(
            vec![DrawRule::NoCaptureOrPromotion { moves: 40 }],
            Vec::new(),
        )
    }

    /// The historical code (arts. 19–22): three kings against one, 15 moves; a king and men
    /// against a king, 30 moves; a threefold repetition may be claimed.
    pub fn historical() -> DrawRules {
        DrawRules::new(
            vec![
                DrawRule::ThreeKingsVsKing {
                    moves: 15,
                    allow_men: true,
                },
                DrawRule::KingAndMenVsKing { moves: 30 },
            ],
            vec![DrawRule::Repetition { times: 3 }],
        )
    }

    /// Brazilian draughts: threefold repetition; three pieces with a king against a king, 16
    /// moves; two pieces or one against a king, 5 moves; 20 moves of kings only.
    pub fn brazilian() -> DrawRules {
        DrawRules::fmjd_with_kings_only(20)
    }

    /// International draughts (FMJD rules 6.1–6.4): threefold repetition; 25 moves of each
    /// side with only kings moved and nothing taken; three pieces with a king against a king,
    /// 16 moves; two pieces or one against a king, 5 moves.
    pub fn international() -> DrawRules {
        DrawRules::fmjd_with_kings_only(25)
    }

    /// The FMJD's international rules 6.1–6.4 (repetition, the 16- and 5-move endings),
    /// with `kings_only` moves of kings only: International's 25, Brazilian's 20.
    fn fmjd_with_kings_only(kings_only: u32) -> DrawRules {
        DrawRules::new(
            vec![
                DrawRule::Repetition { times: 3 },
                DrawRule::PiecesVsKing {
                    pieces: 3,
                    moves: 16,
                },
                DrawRule::PiecesVsKing {
                    pieces: 2,
                    moves: 5,
                },
                DrawRule::PiecesVsKing {
                    pieces: 1,
                    moves: 5,
                },
                DrawRule::KingsOnly { moves: kings_only },
            ],
            Vec::new(),
        )
    }

    /// Antidraughts (lidraughts' rules): International draughts' draws but for the endings
    /// with few pieces: threefold repetition; 25 moves of each side with only kings moved.
    pub fn antidraughts() -> DrawRules {
        DrawRules::repetition_and_kings_only(3, 25)
    }

    /// Killer draughts: threefold repetition; 25 moves of each side with only kings moved.
    /// Not FMJD's small endings: the killer rule exists to win them (docs/variants.md).
    pub fn killer() -> DrawRules {
        DrawRules::repetition_and_kings_only(3, 25)
    }

    /// Frisian draughts (and frysk): threefold repetition; two kings against a lone king,
    /// 7 moves of the stronger side; a king against a king, 2 moves (the Frisian
    /// federation's rules 15–16, counted as lidraughts does; docs/variants.md).
    pub fn frisian() -> DrawRules {
        DrawRules::new(
            vec![
                DrawRule::Repetition { times: 3 },
                DrawRule::SmallEnding {
                    moves: 7,
                    materials: vec![(2, 0)],
                },
                DrawRule::SmallEnding {
                    moves: 2,
                    materials: vec![(1, 0)],
                },
            ],
            Vec::new(),
        )
    }

    /// Giveaway: threefold repetition, 15 moves of kings only.
    pub fn giveaway() -> DrawRules {
        DrawRules::repetition_and_kings_only(3, 15)
    }

    /// English draughts: threefold repetition; 40 moves of each side without a man moved or
    /// a piece taken (docs/variants.md cites the rules).
    pub fn english() -> DrawRules {
        DrawRules::repetition_and_kings_only(3, 40)
    }

    /// Italian draughts: the same position a fourth time; 40 moves of each side without a
    /// man moved or a piece taken (docs/variants.md gives the readings and the choice).
    pub fn italian() -> DrawRules {
        DrawRules::repetition_and_kings_only(4, 40)
    }

    /// Pool checkers: threefold repetition; 30 moves of each side without a man moved or a
    /// piece taken.
    pub fn pool() -> DrawRules {
        DrawRules::repetition_and_kings_only(3, 30)
    }

    /// Turkish draughts: threefold repetition; one piece against one (the side to move
    /// unable to capture) is a draw (docs/variants.md cites the rules).
    pub fn turkish() -> DrawRules {
        DrawRules::new(
            vec![DrawRule::Repetition { times: 3 }, DrawRule::OnePieceEach],
            Vec::new(),
        )
    }

    /// The same position `times` times; `moves` moves of each side with only kings moved
    /// and nothing taken.
    fn repetition_and_kings_only(times: u32, moves: u32) -> DrawRules {
        DrawRules::new(
            vec![
                DrawRule::Repetition { times },
                DrawRule::KingsOnly { moves },
            ],
            Vec::new(),
        )
    }

    /// Threefold repetition only: the games whose federations' further draw rules shashki
    /// does not yet apply (Spanish, Portuguese, Czech, Thai; docs/variants.md), and
    /// breakthrough (men only: the first king ends the game).
    pub fn threefold() -> DrawRules {
        DrawRules::new(vec![DrawRule::Repetition { times: 3 }], Vec::new())
    }

    /// Towers (Bashni): the same position a third time, or fifteen moves of each side in
    /// which only king-topped columns moved and nothing was taken (the game's texts draw
    /// when "the balance of forces has not changed for 15 moves"; in towers no piece ever
    /// leaves the board, so the balance changes by a capture, or by a man's move towards
    /// its crowning: docs/variants.md, "Towers").
    pub fn towers() -> DrawRules {
        DrawRules::new(
            vec![
                DrawRule::Repetition { times: 3 },
                DrawRule::KingsOnly { moves: 15 },
            ],
            Vec::new(),
        )
    }

    /// The rules a game of `variant` is played under unless told otherwise.
    pub fn for_variant(variant: Variant) -> DrawRules {
        DrawRules::of(variant.info().draw)
    }

    /// A built-in set, as a game's card names it.
    pub fn of(set: DrawSet) -> DrawRules {
        match set {
            DrawSet::Fmjd64 => DrawRules::fmjd64(),
            DrawSet::Brazilian => DrawRules::brazilian(),
            DrawSet::Giveaway => DrawRules::giveaway(),
            DrawSet::English => DrawRules::english(),
            DrawSet::Italian => DrawRules::italian(),
            DrawSet::Pool => DrawRules::pool(),
            DrawSet::International => DrawRules::international(),
            DrawSet::Antidraughts => DrawRules::antidraughts(),
            DrawSet::Killer => DrawRules::killer(),
            DrawSet::Frisian => DrawRules::frisian(),
            DrawSet::Turkish => DrawRules::turkish(),
            DrawSet::Threefold => DrawRules::threefold(),
            DrawSet::Towers => DrawRules::towers(),
        }
    }

    /// A built-in set by name: `fmjd64`, `forty_moves`, `historical`, `brazilian`,
    /// `giveaway`, `english`, `italian`, `pool`, `international`, `antidraughts`, `killer`,
    /// `frisian`, `turkish`, `threefold`, `none`.
    pub fn parse(name: &str) -> Option<DrawRules> {
        Some(match name {
            "fmjd64" => DrawRules::fmjd64(),
            "forty_moves" => DrawRules::forty_moves(),
            "historical" => DrawRules::historical(),
            "brazilian" => DrawRules::brazilian(),
            "giveaway" => DrawRules::giveaway(),
            "english" => DrawRules::english(),
            "italian" => DrawRules::italian(),
            "pool" => DrawRules::pool(),
            "international" => DrawRules::international(),
            "antidraughts" => DrawRules::antidraughts(),
            "killer" => DrawRules::killer(),
            "frisian" => DrawRules::frisian(),
            "turkish" => DrawRules::turkish(),
            "threefold" => DrawRules::threefold(),
            "towers" => DrawRules::towers(),
            "none" | "repetition" => DrawRules::none(),
            _ => return None,
        })
    }

    /// The automatic rules.
    pub fn automatic(&self) -> &[DrawRule] {
        &self.automatic
    }

    /// The claimable rules.
    pub fn claimable(&self) -> &[DrawRule] {
        &self.claimable
    }

    /// Every rule: the automatic ones, then the claimable ones (the indices of
    /// [`DrawCount::rule`]).
    pub fn rules(&self) -> impl Iterator<Item = &DrawRule> {
        self.automatic.iter().chain(self.claimable.iter())
    }

    /// The count of rule `index` ([`DrawRules::rules`]'s order), None when its condition
    /// does not hold.
    pub fn progress<W: GameWord>(
        &self,
        index: usize,
        ctx: &DrawContext<'_, W>,
    ) -> Option<DrawCount> {
        let rule = self.rules().nth(index)?;
        rule.progress(ctx).map(|(done, limit, unit)| DrawCount {
            rule: index,
            done,
            limit,
            unit,
        })
    }

    /// The counts of every rule whose condition holds now.
    pub fn counts<W: GameWord>(&self, ctx: &DrawContext<'_, W>) -> Vec<DrawCount> {
        (0..self.automatic.len() + self.claimable.len())
            .filter_map(|i| self.progress(i, ctx))
            .collect()
    }

    /// The first rule (automatic, then with `claim` the claimable ones) whose count is
    /// complete.
    pub fn reached<W: GameWord>(&self, ctx: &DrawContext<'_, W>, claim: bool) -> Option<usize> {
        let n = if claim {
            self.automatic.len() + self.claimable.len()
        } else {
            self.automatic.len()
        };
        (0..n).find(|&i| self.progress(i, ctx).is_some_and(|c| c.reached()))
    }

    /// Whether an automatic rule other than repetition has drawn `pos` (with these clocks):
    /// the search's test, which finds repetitions itself.
    #[inline]
    pub fn is_draw<W: GameWord>(&self, pos: &Position<W>, clocks: DrawClocks) -> bool {
        if clocks.balance < self.least.0 && clocks.kings_only < self.least.1 {
            return false;
        }
        if !self.without_kings && (pos.kings(Color::White) | pos.kings(Color::Black)).is_empty() {
            return false;
        }
        let ctx = DrawContext {
            pos,
            clocks,
            occurrences: 1,
        };
        self.automatic.iter().any(|rule| {
            !matches!(rule, DrawRule::Repetition { .. })
                && rule
                    .progress(&ctx)
                    .is_some_and(|(done, limit, _)| done >= limit)
        })
    }

    /// Whether an automatic rule has drawn the position of `ctx` — `reached(ctx, false)`
    /// without naming the rule, and quicker: the clocks rule most positions out at once.
    /// `occurrences` is asked only when a repetition rule could hold.
    #[inline]
    pub fn is_drawn<W: GameWord>(
        &self,
        pos: &Position<W>,
        clocks: DrawClocks,
        occurrences: impl FnOnce() -> u32,
    ) -> bool {
        if self.is_draw(pos, clocks) {
            return true;
        }
        // A position recurs only after both sides made at least two king moves.
        if clocks.kings_only < 4 {
            return false;
        }
        let times = self.automatic.iter().find_map(|rule| match rule {
            DrawRule::Repetition { times } => Some(*times),
            _ => None,
        });
        times.is_some_and(|times| occurrences() >= times)
    }

    /// Whether the set has an automatic repetition rule.
    pub fn has_repetition(&self) -> bool {
        self.automatic
            .iter()
            .any(|r| matches!(r, DrawRule::Repetition { .. }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::fen::position_from_fen;

    fn play(fen: &str, text: &str, clocks: DrawClocks) -> DrawClocks {
        let pos = position_from_fen(fen).expect("fen");
        let m = crate::notation::parse_move(&pos, text).expect("move");
        let mut next = pos;
        next.play_unchecked(&m);
        clocks.after(&pos, &m, &next)
    }

    #[test]
    fn every_cards_draw_set_is_the_one_its_name_parses_to() {
        // The name is what Python's default_draw_rules looks up: both layers, one set.
        for card in crate::GAMES.iter() {
            assert_eq!(
                DrawRules::parse(card.draw.name()),
                Some(DrawRules::for_variant(card.variant)),
                "{}",
                card.name
            );
        }
        assert_eq!(
            DrawRules::for_variant(Variant::Canadian),
            DrawRules::international()
        );
    }

    #[test]
    fn clocks_count_king_moves_and_reset_on_captures_men_and_crowning() {
        let c = DrawClocks {
            kings_only: 7,
            balance: 9,
            road: [0, 0],
        };
        let king = play("W:WK1:B12", "b8-a7", c);
        assert_eq!((king.kings_only, king.balance), (8, 10));
        let man = play("W:W22:B1", "c3-d4", c);
        assert_eq!((man.kings_only, man.balance), (0, 10));
        let capture = play("W:WK30:B26,1", "c1:g5", c);
        assert_eq!((capture.kings_only, capture.balance), (0, 0));
        let crown = play("W:W5:B12", "a7-b8", c);
        assert_eq!((crown.kings_only, crown.balance), (0, 0));
    }

    #[test]
    fn the_road_clock_runs_while_a_lone_king_holds_the_main_road() {
        // Black's lone king on c3 (the road); White's kings move.
        let pos = position_from_fen("W:WK1,K2,K3:BK22").expect("fen");
        let start = DrawClocks::start(&pos, 0);
        assert_eq!(start.road, [0, 1]);
        let next = play("W:WK1,K2,K3:BK22", "b8-a7", start);
        assert_eq!(next.road, [0, 2]);
        // The lone king steps off the road: the run ends; back on it, a new run starts.
        let off = play("B:WK5,K2,K3:BK22", "c3-b4", next);
        assert_eq!(off.road, [0, 0]);
        let back = play("B:WK5,K2,K3:BK17", "b4-c3", off);
        assert_eq!(back.road, [0, 1]);
    }

    #[test]
    fn fmjd_lone_king_rules_count_the_stronger_sides_moves() {
        let rules = DrawRules::fmjd64();
        let small = position_from_fen("B:WK1,K2:BK32").expect("fen");
        let at = |balance| DrawClocks {
            kings_only: 0,
            balance,
            road: [0, 0],
        };
        // Black (the lone king) to move: White has made ceil(plies / 2) moves.
        assert!(!rules.is_draw(&small, at(8)));
        assert!(rules.is_draw(&small, at(9)));
        assert!(!DrawRules::none().is_draw(&small, at(200)));
        let three = position_from_fen("B:WK1,K2,K3:BK30").expect("fen");
        assert!(!rules.is_draw(&three, at(28)));
        assert!(rules.is_draw(&three, at(29)));
        let kings = DrawClocks {
            kings_only: 30,
            balance: 0,
            road: [0, 0],
        };
        assert!(rules.is_draw(&three, kings));
        assert!(DrawRules::giveaway().is_draw(&three, kings));
        assert!(!DrawRules::brazilian().is_draw(&three, kings));
        assert!(DrawRules::forty_moves().is_draw(&three, at(80)));
        assert!(!DrawRules::forty_moves().is_draw(&three, at(79)));
    }

    #[test]
    fn test_7_2_7_counts_only_since_the_king_came_back_to_the_road() {
        let rules = DrawRules::fmjd64();
        // Three kings against a lone king on a1; the balance has been the same for 20 plies,
        // but the king came back to the road 4 plies ago (5 positions on it): White (to move
        // next is Black) has made 2 moves in that run.
        let pos = position_from_fen("B:WK5,K6,K7:BK29").expect("fen");
        let clocks = DrawClocks {
            kings_only: 20,
            balance: 20,
            road: [0, 5],
        };
        let ctx = DrawContext {
            pos: &pos,
            clocks,
            occurrences: 1,
        };
        let main_road = rules.progress(1, &ctx).expect("7.2.7 holds");
        assert_eq!((main_road.done, main_road.limit), (2, 5));
        assert!(!rules.is_draw(&pos, clocks));
        let held = DrawClocks {
            road: [0, 21],
            ..clocks
        };
        assert!(rules.is_draw(&pos, held));
    }
}
