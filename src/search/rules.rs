//! The move-count draw rules inside the search (issue 10, step 3): the search scores a
//! position the rules have drawn as a draw, so it neither plays for a win the rules will
//! call a draw nor misses a draw it can reach. Repetition is handled by the search itself.
//!
//! Two clocks carry the history the rules need: plies since the last capture or man move
//! (only kings moved), and plies since the last capture or crowning (the balance of forces
//! unchanged). The rules are read as `shashki.draw` reads them (RULES.md §4); where a rule
//! counts "the stronger side's moves since the ending arose", those are the stronger side's
//! moves among the plies since the balance last changed.

use crate::mv::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::square::Square;

/// The draw rules a search applies besides repetition.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum DrawRuleSet {
    /// Repetition only (custom rule sets, no draw rules).
    #[default]
    RepetitionOnly,
    /// FMJD-64 7.2.4–7.2.8 (Russian draughts).
    Fmjd64,
    /// Brazilian draughts: 20 moves of kings only; three pieces with a king against a king in
    /// 16 moves, two or one in 5.
    Brazilian,
    /// Giveaway: 15 moves of kings only.
    Giveaway,
}

impl DrawRuleSet {
    /// By name: `fmjd64`, `brazilian`, `giveaway`, `repetition`.
    pub fn parse(text: &str) -> Option<DrawRuleSet> {
        match text {
            "fmjd64" => Some(DrawRuleSet::Fmjd64),
            "brazilian" => Some(DrawRuleSet::Brazilian),
            "giveaway" => Some(DrawRuleSet::Giveaway),
            "repetition" => Some(DrawRuleSet::RepetitionOnly),
            _ => None,
        }
    }
}

/// The clocks the draw rules read, in plies.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawClocks {
    /// Plies since the last capture or man move.
    pub kings_only: u32,
    /// Plies since the last capture or crowning.
    pub balance: u32,
}

impl DrawClocks {
    /// The clocks after `m` is played in `pos`.
    #[inline]
    pub fn after(self, pos: &Position, m: &Move) -> DrawClocks {
        let capture = m.is_capture();
        let man_moved = !pos.kings(pos.turn()).contains(m.from());
        DrawClocks {
            kings_only: if capture || man_moved {
                0
            } else {
                self.kings_only.saturating_add(1)
            },
            balance: if capture || m.promotes() {
                0
            } else {
                self.balance.saturating_add(1)
            },
        }
    }
}

const MAIN_ROAD: [u8; 8] = [0, 4, 9, 13, 18, 22, 27, 31];

fn on_main_road(sq: Square) -> bool {
    MAIN_ROAD.contains(&(sq.index() as u8))
}

/// The stronger side's moves among the last `plies` plies, `strong` being the side that has
/// just moved or the other.
fn strong_moves(pos: &Position, strong: Color, plies: u32) -> u32 {
    if strong == pos.turn() {
        plies / 2
    } else {
        plies.div_ceil(2)
    }
}

impl DrawRuleSet {
    /// Whether the rules have drawn `pos` (with these clocks).
    #[inline]
    pub fn is_draw(self, pos: &Position, clocks: DrawClocks) -> bool {
        if self == DrawRuleSet::RepetitionOnly {
            return false;
        }
        // Every rule needs a king on the board and some plies on a clock.
        if clocks.balance < 9 && clocks.kings_only < 30 {
            return false;
        }
        if (pos.kings(Color::White) | pos.kings(Color::Black)).is_empty() {
            return false;
        }
        match self {
            DrawRuleSet::RepetitionOnly => false,
            DrawRuleSet::Giveaway => clocks.kings_only >= 30,
            DrawRuleSet::Brazilian => {
                if clocks.kings_only >= 40 {
                    return true;
                }
                lone_king(pos).is_some_and(|(_, strong)| {
                    let (kings, men) = (pos.kings(strong).count(), pos.men(strong).count());
                    let moves = strong_moves(pos, strong, clocks.balance);
                    kings >= 1
                        && match kings + men {
                            3 => moves >= 16,
                            1 | 2 => moves >= 5,
                            _ => false,
                        }
                })
            }
            DrawRuleSet::Fmjd64 => {
                // 7.2.5: 15 moves of each side with only kings moved, nothing taken.
                if clocks.kings_only >= 30 {
                    return true;
                }
                let white_kings = pos.kings(Color::White).count();
                let black_kings = pos.kings(Color::Black).count();
                // 7.2.6: both sides have kings, the balance unchanged for 30 moves (4-5
                // pieces) or 60 (6-7 pieces).
                if white_kings > 0 && black_kings > 0 {
                    let pieces = pos.occupied().count();
                    if (4..=5).contains(&pieces) && clocks.balance >= 60 {
                        return true;
                    }
                    if (6..=7).contains(&pieces) && clocks.balance >= 120 {
                        return true;
                    }
                }
                lone_king(pos).is_some_and(|(weak, strong)| {
                    let (kings, men) = (pos.kings(strong).count(), pos.men(strong).count());
                    let moves = strong_moves(pos, strong, clocks.balance);
                    match (kings, men) {
                        // 7.2.8: two kings, a king and a man, or a king: 5 moves.
                        (2, 0) | (1, 1) | (1, 0) => moves >= 5,
                        // 7.2.7: three pieces against a lone king on the main road: 5 moves.
                        (3, 0) | (2, 1) | (1, 2)
                            if pos.kings(weak).iter().any(on_main_road) && moves >= 5 =>
                        {
                            true
                        }
                        // 7.2.4: three or more kings against a lone king: 15 moves.
                        (k, 0) if k >= 3 => moves >= 15,
                        _ => false,
                    }
                })
            }
        }
    }
}

/// `(weak, strong)` when one side has a lone king and nothing else.
fn lone_king(pos: &Position) -> Option<(Color, Color)> {
    for weak in [Color::White, Color::Black] {
        if pos.men(weak).is_empty() && pos.kings(weak).count() == 1 {
            return Some((weak, !weak));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::position_from_fen;

    fn play(fen: &str, text: &str, clocks: DrawClocks) -> DrawClocks {
        let pos = position_from_fen(fen).expect("fen");
        let m = crate::notation::parse_move(&pos, text).expect("move");
        clocks.after(&pos, &m)
    }

    #[test]
    fn clocks_count_king_moves_and_reset_on_captures_men_and_crowning() {
        let c = DrawClocks {
            kings_only: 7,
            balance: 9,
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
    fn fmjd_lone_king_rules_count_the_stronger_sides_moves() {
        let small = position_from_fen("B:WK1,K2:BK32").expect("fen");
        let at = |balance| DrawClocks {
            kings_only: 0,
            balance,
        };
        // Black (the lone king) to move: White has made ceil(plies / 2) moves.
        assert!(!DrawRuleSet::Fmjd64.is_draw(&small, at(8)));
        assert!(DrawRuleSet::Fmjd64.is_draw(&small, at(9)));
        assert!(!DrawRuleSet::RepetitionOnly.is_draw(&small, at(200)));
        let three = position_from_fen("B:WK1,K2,K3:BK30").expect("fen");
        assert!(!DrawRuleSet::Fmjd64.is_draw(&three, at(28)));
        assert!(DrawRuleSet::Fmjd64.is_draw(&three, at(29)));
        let kings = DrawClocks {
            kings_only: 30,
            balance: 0,
        };
        assert!(DrawRuleSet::Fmjd64.is_draw(&three, kings));
        assert!(DrawRuleSet::Giveaway.is_draw(&three, kings));
        assert!(!DrawRuleSet::Brazilian.is_draw(&three, kings));
    }
}
