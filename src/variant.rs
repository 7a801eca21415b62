//! The games this crate plays: Russian draughts and the 8×8 games that share its board
//! (docs/rules.rst, "Variants"), as a runtime [`RuleSet`] carried by every position.

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::position::Setup;
use crate::square::Square;

/// A draughts game on the 8×8 board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Russian draughts (русские шашки), as docs/rules.rst describes them.
    #[default]
    Russian,
    /// Поддавки (giveaway): Russian moves, the goal reversed: a side that has lost all its
    /// pieces, or cannot move, wins.
    Giveaway,
    /// Brazilian draughts: international rules on 8×8 (majority capture, no crowning
    /// mid-capture), PDN GameType 26.
    Brazilian,
    /// Diagonal draughts («Діагональні шашки», docs/rules.rst): Russian rules; the main road a1–h8
    /// starts empty, each side's twelve men fill the triangle on its side of it.
    Diagonal,
}

impl Variant {
    /// Every variant, in a fixed order.
    pub const ALL: [Variant; 4] = [
        Variant::Russian,
        Variant::Giveaway,
        Variant::Brazilian,
        Variant::Diagonal,
    ];

    /// The variant's name: `russian`, `giveaway`, `brazilian` or `diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::Giveaway => "giveaway",
            Variant::Brazilian => "brazilian",
            Variant::Diagonal => "diagonal",
        }
    }

    /// A variant by its name (case-insensitive; `poddavki` and `поддавки` name giveaway).
    pub fn parse(text: &str) -> Option<Variant> {
        match text.trim().to_lowercase().as_str() {
            "russian" => Some(Variant::Russian),
            "giveaway" | "poddavki" | "поддавки" => Some(Variant::Giveaway),
            "brazilian" => Some(Variant::Brazilian),
            "diagonal" => Some(Variant::Diagonal),
            _ => None,
        }
    }

    /// The start position of the variant (before the side to move is set: White).
    pub fn start_setup(self) -> Setup {
        match self {
            Variant::Diagonal => {
                let mut white = Bitboard::EMPTY;
                let mut black = Bitboard::EMPTY;
                for sq in Square::ALL {
                    let (file, rank) = (sq.file(), sq.rank());
                    if file > rank {
                        white |= Bitboard::from(sq);
                    } else if file < rank {
                        black |= Bitboard::from(sq);
                    }
                }
                Setup {
                    white_men: white,
                    white_kings: Bitboard::EMPTY,
                    black_men: black,
                    black_kings: Bitboard::EMPTY,
                    turn: Some(Color::White),
                }
            }
            _ => Setup::start(),
        }
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

    /// Whether the moves are Brazilian ones (majority capture, no crowning mid-capture).
    #[inline]
    pub fn majority(self) -> bool {
        matches!(self.variant, Variant::Brazilian)
    }

    /// Whether a side without moves wins (giveaway) rather than loses.
    #[inline]
    pub fn no_moves_wins(self) -> bool {
        matches!(self.variant, Variant::Giveaway)
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
        (self.variant as u8) | (u8::from(self.captures_optional) << 3)
    }

    /// The rules of a [`code`](RuleSet::code).
    #[inline]
    pub fn from_code(code: u8) -> RuleSet {
        RuleSet {
            variant: Variant::ALL[usize::from(code & 3)],
            captures_optional: code & 8 != 0,
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

/// Run `$body` with `$R` bound to the compile-time [`Rules`](crate::Rules) type of a
/// [`RuleSet`]: one monomorphic copy of `$body` per kind of move rules. Internal to the
/// crate.
macro_rules! with_rules {
    ($rules:expr, $R:ident => $body:expr) => {{
        let rules: $crate::RuleSet = $rules;
        match (rules.majority(), rules.captures_optional) {
            (false, false) => {
                type $R = $crate::Russian;
                $body
            }
            (true, false) => {
                type $R = $crate::Brazilian;
                $body
            }
            (false, true) => {
                type $R = $crate::CapturesOptional<$crate::Russian>;
                $body
            }
            (true, true) => {
                type $R = $crate::CapturesOptional<$crate::Brazilian>;
                $body
            }
        }
    }};
}
pub(crate) use with_rules;
