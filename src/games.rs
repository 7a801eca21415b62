//! The games this crate plays, in one registry: each game's name and aliases, its PDN
//! GameType, the side that moves first, its square numbering, its start position and the
//! kind of move rules it uses (docs/variants.md). A position carries its [`RuleSet`]: a game
//! and the captures-optional house rule.

use crate::geometry::{Color, Geometry, Notation, Numbering};

/// The kinds of move rules: one compile-time [`Rules`](crate::Rules) type each. Several
/// games share one (giveaway and the diagonal start move as Russian; Portuguese as Spanish).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveRules {
    /// [`Russian`](crate::Russian).
    Russian,
    /// [`Brazilian`](crate::Brazilian).
    Brazilian,
    /// [`English`](crate::English).
    English,
    /// [`Italian`](crate::Italian).
    Italian,
    /// [`Spanish`](crate::Spanish).
    Spanish,
    /// [`Czech`](crate::Czech).
    Czech,
    /// [`Pool`](crate::Pool).
    Pool,
    /// [`Thai`](crate::Thai).
    Thai,
    /// [`International`](crate::International).
    International,
    /// [`Killer`](crate::Killer).
    Killer,
    /// [`Breakthrough`](crate::Breakthrough).
    Breakthrough,
    /// [`Frisian`](crate::Frisian).
    Frisian,
    /// [`Turkish`](crate::Turkish).
    Turkish,
    /// [`Canadian`](crate::Canadian) (the 128-bit word's one game).
    Canadian,
    /// [`Samoedy`](crate::Samoedy).
    Samoedy,
    /// [`Stavropol`](crate::Stavropol).
    Stavropol,
    /// [`StavropolOwnFirst`](crate::StavropolOwnFirst).
    StavropolOwnFirst,
    /// [`Lasca`](crate::Lasca) (7×7: the moves of a column game's tops, `crate::stacks`).
    Lasca,
    /// [`Ugolki`](crate::Ugolki) (уголки: the corners race, nothing captured).
    Ugolki,
    /// Towers' western reading (`crate::stacks` finds its captures on the columns; its
    /// tops' quiet moves are Russian draughts').
    TowersWestern,
}

/// Where a game's men stand at the start.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StartKind {
    /// Twelve men each on the three nearest ranks.
    ThreeRows,
    /// Eight men each on the two nearest ranks (Thai).
    TwoRows,
    /// Men on the four nearest ranks of each side (20 each on 10×10).
    FourRows,
    /// Men on the five nearest ranks of each side (30 each on 12×12: Canadian).
    FiveRows,
    /// Men on each side's back rank only (five each on 10×10: frysk).
    BackRow,
    /// The main road a1–h8 empty, each side's twelve men in the triangle on its side of it.
    Diagonal,
    /// Sixteen men each on every square of each side's second and third ranks, the back
    /// rank empty (Turkish draughts).
    SecondAndThirdRanks,
    /// Уголки's houses: each side's pieces fill a corner `files` wide and `ranks` deep,
    /// White's at a1, Black's at h8 (3×3: nine pieces, a1–c3 and f6–h8; 4×3: twelve,
    /// a1–d3 and e6–h8).
    Corners {
        /// Files of a house.
        files: u8,
        /// Ranks of a house.
        ranks: u8,
    },
}

impl StartKind {
    /// Уголки's houses on the 8×8 board of every square (bit `8 × rank + file`): White's
    /// and Black's, each the other side's target; None in the other games.
    pub const fn houses(self) -> Option<[u64; 2]> {
        match self {
            StartKind::Corners { files, ranks } => {
                let mut white = 0u64;
                let mut rank = 0;
                while rank < ranks {
                    let mut file = 0;
                    while file < files {
                        white |= 1 << (rank * 8 + file);
                        file += 1;
                    }
                    rank += 1;
                }
                // Black's is White's turned half round: the board's bits reversed.
                Some([white, white.reverse_bits()])
            }
            _ => None,
        }
    }
}

/// A built-in set of draw rules, as a game's card names it ([`DrawRules::of`] builds it;
/// its [`DrawSet::name`] is what [`DrawRules::parse`] reads and Python's
/// `shashki.draw.default_draw_rules` looks up: one declaration for every layer).
///
/// [`DrawRules::of`]: crate::DrawRules::of
/// [`DrawRules::parse`]: crate::DrawRules::parse
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawSet {
    /// FMJD-64 (Russian draughts' federation rules, arts. 7.2.3–7.2.8).
    Fmjd64,
    /// Brazilian draughts.
    Brazilian,
    /// Giveaway (поддавки).
    Giveaway,
    /// English draughts.
    English,
    /// Italian draughts.
    Italian,
    /// Pool checkers.
    Pool,
    /// International draughts (FMJD international rules 6.1–6.4).
    International,
    /// Antidraughts.
    Antidraughts,
    /// Killer draughts.
    Killer,
    /// Frisian draughts.
    Frisian,
    /// Turkish draughts.
    Turkish,
    /// The same position a third time, nothing else.
    Threefold,
    /// Towers (Bashni): the same position a third time, or fifteen moves of each side
    /// without a capture or a move of a man-topped tower.
    Towers,
}

impl DrawSet {
    /// The set's name (`fmjd64`, `international`, `threefold`, …).
    pub const fn name(self) -> &'static str {
        match self {
            DrawSet::Fmjd64 => "fmjd64",
            DrawSet::Brazilian => "brazilian",
            DrawSet::Giveaway => "giveaway",
            DrawSet::English => "english",
            DrawSet::Italian => "italian",
            DrawSet::Pool => "pool",
            DrawSet::International => "international",
            DrawSet::Antidraughts => "antidraughts",
            DrawSet::Killer => "killer",
            DrawSet::Frisian => "frisian",
            DrawSet::Turkish => "turkish",
            DrawSet::Threefold => "threefold",
            DrawSet::Towers => "towers",
        }
    }
}

/// A game's evaluation, as its card names it: what the engine's default (`learned`)
/// evaluation is for the game. `crate::eval` turns it, with the user's choice, into the
/// evaluator a search holds; docs/search.md has each game's and the match that chose it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameEval {
    /// Russian draughts' linear weights learned from its self-play, with the known endings
    /// (the games of flying kings).
    Linear,
    /// The family evaluation with the game's fitted weights (the hand-set ones where it has
    /// none).
    Family,
    /// The game's compiled-in network.
    Network,
    /// Giveaway's: material and mobility as burdens.
    Giveaway,
    /// Уголки's race to the other's house.
    Corners,
    /// The column games' own (towers, Lasca), read by the column search.
    Columns,
}

impl GameEval {
    /// Its name (the Python card's `evaluation`): `russian` (the linear weights),
    /// `family`, `network`, `giveaway`, `corners` or `columns`.
    pub const fn name(self) -> &'static str {
        match self {
            GameEval::Linear => "russian",
            GameEval::Family => "family",
            GameEval::Network => "network",
            GameEval::Giveaway => "giveaway",
            GameEval::Corners => "corners",
            GameEval::Columns => "columns",
        }
    }
}

/// One game's card: every fact of the game that any layer needs (the core, the Python
/// package, the Hub, PDN, the web board, the command line), declared once in [`GAMES`].
#[derive(Copy, Clone, Debug)]
pub struct GameInfo {
    /// The game.
    pub variant: Variant,
    /// Its name, as [`Variant::name`] gives it.
    pub name: &'static str,
    /// Other names [`Variant::parse`] accepts.
    pub aliases: &'static [&'static str],
    /// The PDN GameType number, where the standard gives the game one.
    pub game_type: Option<u8>,
    /// The side that moves first.
    pub first: Color,
    /// The move rules.
    pub moves: MoveRules,
    /// How the squares are numbered and named.
    pub numbering: Numbering,
    /// The start position.
    pub start: StartKind,
    /// Whether a side without pieces or moves wins (giveaway) rather than loses.
    pub no_moves_wins: bool,
    /// Whether the game's PDN notation is numeric (the GameType's `N`); otherwise algebraic.
    pub numeric: bool,
    /// The name players and menus give the game (`Russian draughts`).
    pub display: &'static str,
    /// Its draw rules.
    pub draw: DrawSet,
    /// A game without a GameType of its own: PDN writes it as this game's GameType with a
    /// `Variant` tag (giveaway on Russian's 25, antidraughts on International's 20).
    pub tagged_on: Option<Variant>,
    /// The GameType number lidraughts' own exports give it (96–98), read as well.
    pub lidraughts_type: Option<u8>,
    /// Other names the Hub protocol's clients send for it (Scan's `normal`, `losing`, `bt`;
    /// pydraughts' names), read besides its name and aliases.
    pub hub_names: &'static [&'static str],
    /// Whether Hub moves number its squares by index plus one (1 = a1, 2 = c1, … as
    /// pydraughts numbers the boards of Russian draughts' rules) rather than by its own
    /// PDN numbers.
    pub hub_index_numbers: bool,
    /// Its evaluation (what the engine's default `learned` evaluation is for the game;
    /// `crate::eval` reads it once when a search starts).
    pub evaluation: GameEval,
    /// The match that chose [`GameInfo::evaluation`] (or why none did), as docs/search.md
    /// reports it.
    pub evaluation_match: &'static str,
    /// Whether a square holds a column of pieces (towers, Lasca: a piece taken goes under
    /// the column that took it; `crate::stacks`), not one piece.
    pub stacks: bool,
}

/// Declares the games once: the [`Variant`] enum, [`Variant::ALL`] and the registry table
/// [`GAMES`] come from the same list, so a game cannot be half-wired.
macro_rules! games {
    ($($(#[$doc:meta])* $variant:ident { $($field:ident : $value:expr),* $(,)? })*) => {
        /// A draughts game (of the 8×8 board, or of the 10×10 one).
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Variant {
            $($(#[$doc])* $variant,)*
        }

        impl Variant {
            /// Every game, in the registry's order.
            pub const ALL: [Variant; [$(stringify!($variant)),*].len()] = [$(Variant::$variant),*];
        }

        /// The registry: one entry per game, in [`Variant::ALL`]'s order.
        pub const GAMES: [GameInfo; [$(stringify!($variant)),*].len()] = [
            $(GameInfo { variant: Variant::$variant, $($field: $value),* },)*
        ];
    };
}

use Color::{Black, White};

games! {
    /// Russian draughts (русские шашки), as docs/rules.rst describes them.
    #[default]
    Russian {
        name: "russian", aliases: &["shashki", "шашки"], game_type: Some(25), first: White,
        moves: MoveRules::Russian, numbering: Numbering::STANDARD, start: StartKind::ThreeRows,
        no_moves_wins: false, numeric: false,
        display: "Russian draughts", draw: DrawSet::Fmjd64,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian's learned weights against the classic ones: 400 games at \
            10,000 nodes, Elo +229 [+200, +261] (2026-11-30); its network stays a \
            choice: 200 games at 0.1 s against them, +52.5 [+33.3, +72.1], short \
            of the +100 bar (2026-12-03)",
    }
    /// Поддавки (giveaway): Russian moves, the goal reversed: a side that has lost all its
    /// pieces, or cannot move, wins.
    Giveaway {
        name: "giveaway", aliases: &["poddavki", "поддавки"], game_type: None, first: White,
        moves: MoveRules::Russian, numbering: Numbering::STANDARD, start: StartKind::ThreeRows,
        no_moves_wins: true, numeric: false,
        display: "Giveaway (poddavki)", draw: DrawSet::Giveaway,
        tagged_on: Some(Variant::Russian), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Giveaway, stacks: false,
        evaluation_match: "against a random mover 400 of 400; depth 6 against depth 4, 400 games, \
            Elo +230 [+194, +271] (2026-11-30)",
    }
    /// Brazilian draughts: international rules on 8×8 (majority capture, no crowning
    /// mid-capture), PDN GameType 26.
    Brazilian {
        name: "brazilian", aliases: &[], game_type: Some(26), first: White,
        moves: MoveRules::Brazilian, numbering: Numbering::STANDARD, start: StartKind::ThreeRows,
        no_moves_wins: false, numeric: false,
        display: "Brazilian draughts", draw: DrawSet::Brazilian,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights (the same flying kings), not measured in \
            this game",
    }
    /// Diagonal draughts («Діагональні шашки», docs/rules.rst): Russian rules; the main road
    /// a1–h8 starts empty, each side's twelve men fill the triangle on its side of it.
    Diagonal {
        name: "diagonal", aliases: &[], game_type: None, first: White,
        moves: MoveRules::Russian, numbering: Numbering::STANDARD, start: StartKind::Diagonal,
        no_moves_wins: false, numeric: false,
        display: "Diagonal draughts", draw: DrawSet::Fmjd64,
        tagged_on: Some(Variant::Russian), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights (Russian rules), not measured in this game",
    }
    /// English draughts, American checkers (GameType 21): men move and capture forward only,
    /// kings one square at a time in every direction, free choice of capture; Black first.
    English {
        name: "english", aliases: &["american", "checkers"], game_type: Some(21), first: Black,
        moves: MoveRules::English, numbering: Numbering::new(Black, 1, false),
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: true,
        display: "English draughts (checkers)", draw: DrawSet::English,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Network, stacks: false,
        evaluation_match: "against its family weights: 100 games at 0.1 s, Elo +230 [+185, +284]; \
            40 at 0.5 s, +214.8 [+152.7, +292.5] (2026-12-04)",
    }
    /// Italian draughts (GameType 22): men forward only and never take a king, short kings,
    /// the capture priorities of the Italian federation; the board turned.
    Italian {
        name: "italian", aliases: &["dama"], game_type: Some(22), first: White,
        moves: MoveRules::Italian, numbering: Numbering::new(White, 2, true),
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: true,
        display: "Italian draughts", draw: DrawSet::Italian,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Network, stacks: false,
        evaluation_match: "against its family weights: 100 games at 0.1 s, Elo +269.4 [+216.3, \
            +335.7] (2026-12-04)",
    }
    /// Spanish draughts (GameType 24): men forward only, flying kings, the most pieces then
    /// the most kings; the board turned, numbered from White's right-hand corner.
    Spanish {
        name: "spanish", aliases: &[], game_type: Some(24), first: White,
        moves: MoveRules::Spanish, numbering: Numbering::new(White, 1, true),
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: true,
        display: "Spanish draughts", draw: DrawSet::Threefold,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights kept: its fitted family weights scored Elo \
            -43.7 [-77.1, -11.0] against them, 200 games at 3,000 nodes \
            (2026-12-03)",
    }
    /// Portuguese draughts (GameType 28): Spanish move rules, board and numbering.
    Portuguese {
        name: "portuguese", aliases: &[], game_type: Some(28), first: White,
        moves: MoveRules::Spanish, numbering: Numbering::new(White, 1, true),
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: true,
        display: "Portuguese draughts", draw: DrawSet::Threefold,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights, as Spanish draughts (the same rules); not \
            measured in this game",
    }
    /// Czech draughts (GameType 29): men forward only, flying kings, a king must capture
    /// when a king can.
    Czech {
        name: "czech", aliases: &[], game_type: Some(29), first: White,
        moves: MoveRules::Czech, numbering: Numbering::STANDARD,
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: false,
        display: "Czech draughts", draw: DrawSet::Threefold,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights kept: its fitted family weights scored Elo \
            -45.4 [-82.3, -9.6] against them, 200 games at 3,000 nodes \
            (2026-12-03)",
    }
    /// Pool checkers (GameType 23): men capture backwards, flying kings, free choice; a man
    /// crossing the far row during a capture goes on as a man; Black first.
    Pool {
        name: "pool", aliases: &["american-pool", "pool-checkers"], game_type: Some(23),
        first: Black, moves: MoveRules::Pool, numbering: Numbering::new(Black, 1, false),
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: true,
        display: "Pool checkers", draw: DrawSet::Pool,
        tagged_on: None, lidraughts_type: None, hub_names: &["american pool"],
        hub_index_numbers: false, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights kept: its fitted family weights scored Elo \
            -197.9 [-244.9, -156.6] against them, 200 games at 3,000 nodes \
            (2026-12-03)",
    }
    /// Thai draughts, mak-hot (GameType 31): eight men each on two rows, men forward only,
    /// kings fly but land directly behind the piece taken, pieces taken leave the board at
    /// once; Black first.
    Thai {
        name: "thai", aliases: &["makhos", "mak-hot"], game_type: Some(31), first: Black,
        moves: MoveRules::Thai, numbering: Numbering::new(Black, 2, false),
        start: StartKind::TwoRows, no_moves_wins: false, numeric: true,
        display: "Thai draughts (mak-hot)", draw: DrawSet::Threefold,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights kept: its fitted family weights scored Elo \
            -5.2 [-46.5, +35.9] against them, 200 games at 3,000 nodes (no gain, \
            2026-12-03)",
    }
    /// International draughts (GameType 20), the game of the world federation (FMJD) on the
    /// 10×10 board: twenty men each, men capture backwards, flying kings, the capture taking
    /// the most pieces is compulsory, a man crossing the far rank mid-capture goes on as a man.
    International {
        name: "international", aliases: &["standard", "fmjd", "10x10"], game_type: Some(20),
        first: White, moves: MoveRules::International,
        numbering: Numbering::on(10, White, 2, false), start: StartKind::FourRows,
        no_moves_wins: false, numeric: true,
        display: "International draughts", draw: DrawSet::International,
        tagged_on: None, lidraughts_type: None, hub_names: &["normal"],
        hub_index_numbers: false, evaluation: GameEval::Network, stacks: false,
        evaluation_match: "generation 0 against the family weights: 100 games at 0.1 s, Elo \
            +235.4 [+177.5, +307.7]; generation 1 against 0: 100 games at 0.1 s, \
            +127.0 [+82.0, +176.5] (2026-12-05); the block patterns' network against \
            generation 1: 100 games at 0.1 s, +27.9 [-0.6, +56.7], and against Scan 2.0 at \
            0.1 s a move 48.5 % over 300 games, where generation 1 scored 43.5 % (2026-12-08)",
    }
    /// Antidraughts (lidraughts' name): International draughts' moves on the 10×10 board,
    /// the goal reversed: a side that has lost all its pieces, or cannot move, wins.
    Antidraughts {
        name: "antidraughts", aliases: &["anti-draughts"], game_type: None, first: White,
        moves: MoveRules::International, numbering: Numbering::on(10, White, 2, false),
        start: StartKind::FourRows, no_moves_wins: true, numeric: true,
        display: "Antidraughts", draw: DrawSet::Antidraughts,
        tagged_on: Some(Variant::International), lidraughts_type: Some(98), hub_names: &["losing"],
        hub_index_numbers: false, evaluation: GameEval::Giveaway, stacks: false,
        evaluation_match: "giveaway's evaluation (the same reversed goal), not measured in this \
            game",
    }
    /// Killer draughts (Christian Freeling; Scan's `killer`): International draughts, but a
    /// king whose capture ends on taking a king stops on the square directly behind it.
    Killer {
        name: "killer", aliases: &["killer-draughts"], game_type: None, first: White,
        moves: MoveRules::Killer, numbering: Numbering::on(10, White, 2, false),
        start: StartKind::FourRows, no_moves_wins: false, numeric: true,
        display: "Killer draughts", draw: DrawSet::Killer,
        tagged_on: Some(Variant::International), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Family, stacks: false,
        evaluation_match: "its fitted weights against the hand-set ones: 200 games at 3,000 \
            nodes, Elo +83.2 [+37.5, +131.9] (2026-12-03)",
    }
    /// Breakthrough draughts (lidraughts' and Scan's `bt`): International draughts' moves,
    /// and the first side to crown a man wins.
    Breakthrough {
        name: "breakthrough", aliases: &["bt"], game_type: None, first: White,
        moves: MoveRules::Breakthrough, numbering: Numbering::on(10, White, 2, false),
        start: StartKind::FourRows, no_moves_wins: false, numeric: true,
        display: "Breakthrough draughts", draw: DrawSet::Threefold,
        tagged_on: Some(Variant::International), lidraughts_type: Some(96), hub_names: &["bt"],
        hub_index_numbers: false, evaluation: GameEval::Family, stacks: false,
        evaluation_match: "its fitted weights against the hand-set ones: 200 games at 3,000 \
            nodes, Elo +56.1 [+15.1, +98.7] (2026-12-03)",
    }
    /// Frisian draughts (GameType 40; the Frisian federation's rules): International
    /// draughts' board and moves, captures along ranks and files too, the capture of the
    /// most value, at most three quiet moves in a row by one king while men remain.
    Frisian {
        name: "frisian", aliases: &["fries", "frysk-damjen"], game_type: Some(40),
        first: White, moves: MoveRules::Frisian, numbering: Numbering::on(10, White, 2, false),
        start: StartKind::FourRows, no_moves_wins: false, numeric: true,
        display: "Frisian draughts", draw: DrawSet::Frisian,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Family, stacks: false,
        evaluation_match: "its fitted weights against the hand-set ones: 200 games at 3,000 \
            nodes, Elo +424.3 [+355.2, +529.0] (2026-12-03)",
    }
    /// Frysk! (lidraughts' name): Frisian draughts with five men each on the back rank.
    Frysk {
        name: "frysk", aliases: &["frysk!"], game_type: None, first: White,
        moves: MoveRules::Frisian, numbering: Numbering::on(10, White, 2, false),
        start: StartKind::BackRow, no_moves_wins: false, numeric: true,
        display: "Frysk!", draw: DrawSet::Frisian,
        tagged_on: Some(Variant::Frisian), lidraughts_type: Some(97), hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Family, stacks: false,
        evaluation_match: "its fitted weights (8,000 games of five men a side), not measured \
            against another",
    }
    /// Turkish draughts, dama (GameType 30): every square of the 8×8 board, sixteen men
    /// each on the second and third ranks, men one square forward or sideways, kings like
    /// rooks, the capture of the most pieces compulsory, pieces taken removed at once; a
    /// man reaching the far rank is crowned and its move ends (docs/variants.md).
    Turkish {
        name: "turkish", aliases: &["turkish-draughts"], game_type: Some(30),
        first: White, moves: MoveRules::Turkish, numbering: Numbering::every_square(),
        start: StartKind::SecondAndThirdRanks, no_moves_wins: false, numeric: false,
        display: "Turkish draughts (dama)", draw: DrawSet::Turkish,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Family, stacks: false,
        evaluation_match: "its fitted weights against the hand-set ones: 200 games at 1,000 \
            nodes, Elo +141.0 [+95.0, +192.4]",
    }
    /// Canadian draughts (GameType 27): International draughts' rules on the 12×12 board,
    /// thirty men each on the five nearest ranks, White first (docs/variants.md).
    Canadian {
        name: "canadian", aliases: &["canadian-draughts", "12x12"], game_type: Some(27),
        first: White, moves: MoveRules::Canadian,
        numbering: Numbering::on(12, White, 2, false), start: StartKind::FiveRows,
        no_moves_wins: false, numeric: true,
        display: "Canadian draughts", draw: DrawSet::International,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Family, stacks: false,
        evaluation_match: "its fitted weights against the hand-set ones: 200 games at 3,000 \
            nodes, Elo +230.2 [+181.4, +288.5] (2026-12-03)",
    }
    /// Samoedy (самоеды, "self-eaters"), a folk game of the Russian rules pages: Russian
    /// draughts in which pieces are captured regardless of colour, a side's own included,
    /// every capture compulsory alike. No PDN GameType: written on Russian draughts' (25)
    /// with a `Variant` tag.
    Samoedy {
        name: "samoedy", aliases: &["самоеды", "self-capture"], game_type: None,
        first: White, moves: MoveRules::Samoedy, numbering: Numbering::STANDARD,
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: false,
        display: "Samoedy (self-capture)", draw: DrawSet::Fmjd64,
        tagged_on: Some(Variant::Russian), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights (Russian moves), not measured in this game",
    }
    /// Stavropol draughts (ставропольские шашки), a folk game of the Russian rules pages:
    /// Russian draughts in which the side to move moves a piece of either colour, by that
    /// colour's rules (it captures the other colour, crowns on its own colour's far rank);
    /// a capture of either colour is compulsory; a side whose own colour has no move (no
    /// piece, or all blocked) has lost. No PDN GameType: written on Russian draughts' (25)
    /// with a `Variant` tag.
    Stavropol {
        name: "stavropol", aliases: &["ставропольские", "stavropol-draughts"],
        game_type: None, first: White, moves: MoveRules::Stavropol,
        numbering: Numbering::STANDARD, start: StartKind::ThreeRows, no_moves_wins: false,
        numeric: false, display: "Stavropol draughts (either colour)", draw: DrawSet::Fmjd64,
        tagged_on: Some(Variant::Russian), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights (Russian moves), not measured in this game",
    }
    /// Towers (столбовые шашки, Bashni), a folk game of the Russian rules pages, in the
    /// Russian tradition: Russian draughts' moves made by columns, a column moving as its
    /// top piece; a capture takes the top piece of the column jumped and puts it under the
    /// capturing column after the move (`crate::stacks`). No PDN GameType: written on
    /// Russian draughts' (25) with a `Variant` tag.
    Towers {
        name: "towers", aliases: &["bashni", "stolbovye", "столбовые", "башни", "columns"],
        game_type: None, first: White, moves: MoveRules::Russian,
        numbering: Numbering::STANDARD, start: StartKind::ThreeRows, no_moves_wins: false,
        numeric: false, display: "Towers (Bashni, столбовые)", draw: DrawSet::Towers,
        tagged_on: Some(Variant::Russian), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Columns, stacks: true,
        evaluation_match: "the column search's own, the only one that reads columns (no match)",
    }
    /// Lasca (Emanuel Lasker, 1911): a column game on the 25 squares of a 7×7 board, eleven
    /// pieces each; soldiers step and capture forward only, officers one square every way,
    /// a capture takes the top piece of the column jumped and a soldier reaching the far
    /// row ends its move there. Squares numbered 1 (a1) to 25 (g7) from White's side.
    Lasca {
        name: "lasca", aliases: &["laska", "ласка"], game_type: None, first: White,
        moves: MoveRules::Lasca, numbering: Numbering::on(7, White, 0, false),
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: true,
        display: "Lasca", draw: DrawSet::Threefold,
        tagged_on: None, lidraughts_type: None, hub_names: &[],
        hub_index_numbers: false, evaluation: GameEval::Columns, stacks: true,
        evaluation_match: "the column search's own, the only one that reads columns (no match)",
    }
    /// Уголки (the corners race), as the Russian rules page gives it: every square of the
    /// 8×8 board, nine pieces each in a 3×3 corner (White a1–c3, Black f6–h8); a piece steps
    /// to an adjacent square of its rank or file, or jumps over a piece there (either
    /// colour) and may go on jumping; nothing is captured. The first side to fill the
    /// other's corner wins (Black, moving second, gets one reply for a draw); a side with a
    /// piece in its own corner after its 40th move loses (`shashki.draw`, docs/variants.md).
    /// No PDN GameType: written on Turkish draughts' (30, the board of every square) with a
    /// `Variant` tag.
    Ugolki {
        name: "ugolki", aliases: &["уголки", "corners"], game_type: None, first: White,
        moves: MoveRules::Ugolki, numbering: Numbering::corners(),
        start: StartKind::Corners { files: 3, ranks: 3 },
        no_moves_wins: false, numeric: false, display: "Ugolki (corners, уголки)",
        draw: DrawSet::Threefold, tagged_on: Some(Variant::Turkish), lidraughts_type: None,
        hub_names: &[], hub_index_numbers: false, evaluation: GameEval::Corners, stacks: false,
        evaluation_match: "the race's own, the only one that counts a race (no match)",
    }
    /// Уголки with twelve pieces each in houses of three ranks by four files (White a1–d3,
    /// Black e6–h8), the rules page's other house; the moves and ends of [`Variant::Ugolki`].
    Ugolki12 {
        name: "ugolki-12", aliases: &["уголки-12", "corners-12", "ugolki12"], game_type: None,
        first: White, moves: MoveRules::Ugolki, numbering: Numbering::corners(),
        start: StartKind::Corners { files: 4, ranks: 3 },
        no_moves_wins: false, numeric: false, display: "Ugolki, 12 pieces (3×4 houses)",
        draw: DrawSet::Threefold, tagged_on: Some(Variant::Turkish), lidraughts_type: None,
        hub_names: &[], hub_index_numbers: false, evaluation: GameEval::Corners, stacks: false,
        evaluation_match: "the race's own, the only one that counts a race (no match)",
    }
    /// Stavropol draughts with one's own captures first: as [`Variant::Stavropol`], but a
    /// capture with the other colour's pieces is legal only when the side to move has no
    /// capture with its own (the Dagaz project's reading; docs/variants.md).
    StavropolOwnFirst {
        name: "stavropol-own-first", aliases: &["stavropol-own"], game_type: None,
        first: White, moves: MoveRules::StavropolOwnFirst, numbering: Numbering::STANDARD,
        start: StartKind::ThreeRows, no_moves_wins: false, numeric: false,
        display: "Stavropol draughts (own captures first)", draw: DrawSet::Fmjd64,
        tagged_on: Some(Variant::Russian), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Linear, stacks: false,
        evaluation_match: "Russian draughts' weights (Russian moves), not measured in this game",
    }
    /// Towers in the western reading (Michaelsen and Pakhomov's Bashni, as the Ludii
    /// project and jpneto's rules pages give it): men capture forwards only, a column's top
    /// is taken as it is jumped, and a column may be jumped again once another capture came
    /// between (`crate::stacks`, docs/variants.md). No PDN GameType: written on Russian
    /// draughts' (25) with a `Variant` tag.
    TowersWestern {
        name: "towers-western", aliases: &["bashni-western", "western-towers"],
        game_type: None, first: White, moves: MoveRules::TowersWestern,
        numbering: Numbering::STANDARD, start: StartKind::ThreeRows, no_moves_wins: false,
        numeric: false, display: "Towers, western reading", draw: DrawSet::Threefold,
        tagged_on: Some(Variant::Russian), lidraughts_type: None, hub_names: &[],
        hub_index_numbers: true, evaluation: GameEval::Columns, stacks: true,
        evaluation_match: "the column search's own, the only one that reads columns (no match)",
    }
}

/// Each game's уголки houses (White's, Black's: [`StartKind::houses`]), none (zero) in the
/// other games; read where a move or an evaluation needs them.
pub(crate) static HOUSES: [[u64; 2]; Variant::ALL.len()] = {
    let mut out = [[0u64; 2]; Variant::ALL.len()];
    let mut i = 0;
    while i < GAMES.len() {
        if let Some(houses) = GAMES[i].start.houses() {
            out[i] = houses;
        }
        i += 1;
    }
    out
};

impl Variant {
    /// The game's registry entry.
    #[inline]
    pub const fn info(self) -> &'static GameInfo {
        &GAMES[self as usize]
    }

    /// The game's name: `russian`, `giveaway`, `brazilian`, `english`, …
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// A game by its name or an alias (case-insensitive; `poddavki` and `поддавки` name
    /// giveaway, `american` and `checkers` English draughts).
    pub fn parse(text: &str) -> Option<Variant> {
        let key = text.trim().to_lowercase().replace('_', "-");
        GAMES
            .iter()
            .find(|g| g.name == key || g.aliases.contains(&key.as_str()))
            .map(|g| g.variant)
    }

    /// The game whose PDN GameType number is `number`, where shashki plays one.
    pub fn from_game_type(number: u32) -> Option<Variant> {
        GAMES
            .iter()
            .find(|g| g.game_type.map(u32::from) == Some(number))
            .map(|g| g.variant)
    }

    /// The game's PDN GameType number, if the standard gives it one.
    pub const fn game_type(self) -> Option<u8> {
        self.info().game_type
    }

    /// The side that moves first.
    pub const fn first(self) -> Color {
        self.info().first
    }

    /// The game's move rules.
    pub const fn move_rules(self) -> MoveRules {
        self.info().moves
    }

    /// How the game's players write its squares, and so its moves: by number (International,
    /// English, Italian, …) or by name (Russian, Brazilian, Czech, Turkish); the notation of
    /// its PDN GameType in the PDN 3.0 standard's table (docs/formats.rst).
    pub const fn notation(self) -> Notation {
        if self.info().numeric {
            Notation::Numeric
        } else {
            Notation::Algebraic
        }
    }

    /// How the game numbers and names its squares.
    pub const fn numbering(self) -> Numbering {
        self.info().numbering
    }

    /// The board the game is played on.
    pub const fn geometry(self) -> &'static Geometry {
        self.info().numbering.geometry()
    }

    /// The game's index in [`Variant::ALL`] (what a position's rules code stores).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The rules a position is played under: a [`Variant`] and the captures-optional
/// house rule (combinable with any variant).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// The game.
    pub variant: Variant,
    /// A quiet move is legal even when a capture exists (a capture once begun is completed).
    pub captures_optional: bool,
}

/// The bit of [`RuleSet::code`] that holds the captures-optional rule; the bits below it
/// hold the game's index (room for 128 games).
pub(crate) const OPTIONAL_BIT: u8 = 0x80;

impl RuleSet {
    /// Russian draughts, captures compulsory.
    pub const RUSSIAN: RuleSet = RuleSet {
        variant: Variant::Russian,
        captures_optional: false,
    };

    /// A variant with captures compulsory or optional.
    pub const fn new(variant: Variant, captures_optional: bool) -> RuleSet {
        RuleSet {
            variant,
            captures_optional,
        }
    }

    /// The kind of move rules.
    #[inline]
    pub const fn move_rules(self) -> MoveRules {
        self.variant.move_rules()
    }

    /// Whether a side without moves wins (giveaway) rather than loses.
    #[inline]
    pub fn no_moves_wins(self) -> bool {
        self.variant.info().no_moves_wins
    }

    /// Whether positions are won, drawn and lost exactly as in Russian draughts (Russian and
    /// the diagonal start, captures compulsory): what the endgame tables hold.
    #[inline]
    pub fn plays_as_russian(self) -> bool {
        matches!(self.variant, Variant::Russian | Variant::Diagonal) && !self.captures_optional
    }

    /// A one-byte code, 0 for Russian (how a position stores its rules).
    #[inline]
    pub fn code(self) -> u8 {
        (self.variant as u8)
            | if self.captures_optional {
                OPTIONAL_BIT
            } else {
                0
            }
    }

    /// The rules of a [`code`](RuleSet::code).
    #[inline]
    pub fn from_code(code: u8) -> RuleSet {
        let index = usize::from(code & !OPTIONAL_BIT);
        RuleSet {
            variant: Variant::ALL.get(index).copied().unwrap_or(Variant::Russian),
            captures_optional: code & OPTIONAL_BIT != 0,
        }
    }

    /// `russian`, `brazilian`, …, with `+captures-optional` when that rule is on.
    pub fn name(self) -> String {
        if self.captures_optional {
            format!("{}+captures-optional", self.variant.name())
        } else {
            self.variant.name().to_string()
        }
    }
}

/// What the hot paths read of a position's rules, by its rules code ([`RuleSet::code`]):
/// one load where a [`RuleSet`] would be decoded and looked up.
#[derive(Copy, Clone, Debug)]
#[repr(C, align(4))]
pub(crate) struct CodeFacts {
    /// The move rules (what [`GameWord::dispatch`](crate::GameWord::dispatch) reads).
    pub(crate) moves: MoveRules,
    /// Whether a side without moves wins.
    pub(crate) no_moves_wins: bool,
    /// Whether the evaluation's known endings (a lone king holding against one or two
    /// pieces, three kings winning off the main road; docs/engine.rst) hold: under Russian
    /// and Brazilian move rules, where flying kings make them true. Elsewhere (short kings
    /// win such endings) the search finds the verdict itself.
    pub(crate) known_endings: bool,
    /// Whether positions keep each side's run of quiet king moves (Frisian).
    pub(crate) king_runs: bool,
    /// Whether a move may take pieces of its own side (Samoedy).
    pub(crate) capture_own: bool,
    /// Whether the side to move may move the other colour's pieces (Stavropol).
    pub(crate) either_colour: bool,
    /// Whether a move is played by the cold path ([`CodeFacts::king_runs`],
    /// [`CodeFacts::capture_own`], [`CodeFacts::either_colour`]): one test in the hot path.
    pub(crate) special_play: bool,
}

/// [`CodeFacts`] of every rules code (a code naming no game reads as Russian draughts).
pub(crate) static CODE_FACTS: [CodeFacts; 256] = {
    let russian = CodeFacts {
        moves: MoveRules::Russian,
        no_moves_wins: false,
        known_endings: true,
        king_runs: false,
        capture_own: false,
        either_colour: false,
        special_play: false,
    };
    let mut table = [russian; 256];
    let mut code = 0;
    while code < 256 {
        let index = code & !(OPTIONAL_BIT as usize);
        if index < GAMES.len() {
            let game = &GAMES[index];
            table[code] = CodeFacts {
                moves: game.moves,
                no_moves_wins: game.no_moves_wins,
                known_endings: matches!(game.moves, MoveRules::Russian | MoveRules::Brazilian),
                king_runs: matches!(game.moves, MoveRules::Frisian),
                capture_own: matches!(game.moves, MoveRules::Samoedy),
                either_colour: matches!(
                    game.moves,
                    MoveRules::Stavropol | MoveRules::StavropolOwnFirst
                ),
                special_play: matches!(
                    game.moves,
                    MoveRules::Frisian
                        | MoveRules::Samoedy
                        | MoveRules::Stavropol
                        | MoveRules::StavropolOwnFirst
                ),
            };
        }
        code += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dispatch_table_agrees_with_the_registry() {
        assert_eq!(OPTIONAL_BIT, 0x80);
        for game in GAMES {
            for optional in [false, true] {
                let facts = CODE_FACTS[usize::from(RuleSet::new(game.variant, optional).code())];
                assert_eq!(facts.moves, game.moves);
                assert_eq!(facts.no_moves_wins, game.no_moves_wins);
            }
        }
        assert!(CODE_FACTS[usize::from(RuleSet::RUSSIAN.code())].known_endings);
        let english = RuleSet::new(Variant::English, false).code();
        assert!(!CODE_FACTS[usize::from(english)].known_endings);
    }

    #[test]
    fn the_registry_is_in_the_enum_order() {
        for (i, game) in GAMES.iter().enumerate() {
            assert_eq!(game.variant.index(), i);
            assert_eq!(Variant::ALL[i], game.variant);
            assert_eq!(Variant::parse(game.name), Some(game.variant));
            for alias in game.aliases {
                assert_eq!(Variant::parse(alias), Some(game.variant), "{alias}");
            }
            if let Some(t) = game.game_type {
                assert_eq!(Variant::from_game_type(u32::from(t)), Some(game.variant));
            }
            for optional in [false, true] {
                let rules = RuleSet::new(game.variant, optional);
                assert_eq!(RuleSet::from_code(rules.code()), rules);
            }
        }
        assert_eq!(RuleSet::RUSSIAN.code(), 0);
        assert_eq!(Variant::parse("chess"), None);
        assert_eq!(Variant::from_game_type(30), Some(Variant::Turkish));
        assert_eq!(Variant::from_game_type(99), None);
    }
}
