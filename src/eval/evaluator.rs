//! The evaluator: the user's choice ([`Evaluation`]) and the game's card
//! ([`crate::GameInfo::evaluation`]) made one evaluation, once, when a search or a batch
//! starts. The search holds it and calls [`Evaluator::evaluate`]; nothing below the root
//! asks again which evaluation applies.

use super::choice::Evaluation;
use super::endings::ending_for_mover;
use super::family::{self, FamilyWeights};
use super::network::{self, Accumulator, Network};
use super::{classic, corners, giveaway, learned};
use crate::games::{GameEval, RuleSet, Variant};
use crate::position::Position;
use crate::rules::GameWord;

/// The evaluation itself.
#[derive(Copy, Clone, Debug)]
enum Kind {
    /// The hand-set 8×8 weights, with the known endings.
    Classic,
    /// Russian draughts' learned linear weights, with the known endings.
    Linear,
    /// The family features with these weights.
    Family(&'static FamilyWeights),
    /// Material and mobility as burdens.
    Giveaway,
    /// Уголки's race.
    Corners,
    /// A network, with the known endings.
    Network(&'static Network),
    /// The family features of the 12×12 board (the 128-bit word) with these weights.
    Wide(&'static FamilyWeights),
}

/// One game's evaluation, from the side to move's point of view, in centi-men; with a
/// network, the network's first layer kept from one position to the next (so each search
/// thread holds an evaluator of its own: [`Clone`] gives a fresh one).
pub struct Evaluator {
    kind: Kind,
    /// The network's first layer, of the position it last evaluated.
    accumulator: Box<Accumulator>,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("kind", &self.kind)
            .finish()
    }
}

impl Clone for Evaluator {
    fn clone(&self) -> Evaluator {
        Evaluator {
            kind: self.kind,
            accumulator: Box::default(),
        }
    }
}

impl Evaluator {
    /// The evaluator of `evaluation` for the positions of `rules` in the word `W`.
    pub fn new<W: GameWord>(evaluation: Evaluation, rules: RuleSet) -> Evaluator {
        let variant = rules.variant;
        let kind = if W::BITS > 64 {
            // The 12×12 board: the family features, with the hand-set weights for the
            // classic evaluation.
            Kind::Wide(match evaluation {
                Evaluation::Classic => &family::HAND_SET,
                _ => family::weights_for(variant),
            })
        } else {
            choose(evaluation, variant)
        };
        Evaluator {
            kind,
            accumulator: Box::default(),
        }
    }

    /// The evaluation of `pos` (a position of the rules the evaluator was made for), from
    /// the side to move's point of view.
    #[inline]
    pub fn evaluate<W: GameWord>(&mut self, pos: &Position<W>) -> i32 {
        match W::narrow(pos) {
            Some(pos) => self.evaluate_narrow(pos),
            None => match self.kind {
                Kind::Wide(w) | Kind::Family(w) => family::evaluate_wide_with(pos, w),
                _ => family::evaluate_wide(pos),
            },
        }
    }

    #[inline]
    fn evaluate_narrow(&mut self, pos: &Position) -> i32 {
        match self.kind {
            Kind::Linear => {
                if let Some(score) = ending_for_mover(pos) {
                    return score;
                }
                learned::linear(pos)
            }
            Kind::Network(net) => {
                if let Some(score) = ending_for_mover(pos) {
                    return score;
                }
                net.update_and_evaluate(&mut self.accumulator, pos)
            }
            Kind::Classic => classic::evaluate_classic(pos),
            Kind::Family(w) | Kind::Wide(w) => family::evaluate_family(pos, w),
            Kind::Giveaway => giveaway::evaluate_giveaway(pos),
            Kind::Corners => corners::evaluate_corners(pos),
        }
    }

    /// The evaluation's name: `classic`, `russian` (the learned linear weights), `family`,
    /// `network`, `giveaway` or `corners`.
    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::Classic => "classic",
            Kind::Linear => "russian",
            Kind::Family(_) | Kind::Wide(_) => "family",
            Kind::Network(_) => "network",
            Kind::Giveaway => "giveaway",
            Kind::Corners => "corners",
        }
    }
}

/// The evaluation of `evaluation` for a game of the 64-bit word.
fn choose(evaluation: Evaluation, variant: Variant) -> Kind {
    let card = variant.info().evaluation;
    // The game's evaluation when it is not Russian draughts' linear one.
    let own = || match card {
        GameEval::Giveaway => Kind::Giveaway,
        GameEval::Corners => Kind::Corners,
        _ => Kind::Family(family::weights_for(variant)),
    };
    let learned = || match network::learned_network(variant) {
        Some(net) => Kind::Network(net),
        None if card == GameEval::Linear => Kind::Linear,
        None => own(),
    };
    match evaluation {
        Evaluation::Classic if card == GameEval::Linear => Kind::Classic,
        Evaluation::Classic | Evaluation::Family => own(),
        Evaluation::Learned => learned(),
        Evaluation::Network => network::shipped(variant).map_or_else(learned, Kind::Network),
        Evaluation::Loaded(index) => network::loaded(index)
            .filter(|net| net.variant() == variant)
            .map_or_else(learned, Kind::Network),
    }
}

/// The evaluation `kind` of one position, from the side to move's point of view (an
/// evaluator made for this position alone: a search holds one instead).
pub fn evaluate_with(pos: &Position, kind: Evaluation) -> i32 {
    Evaluator::new::<u64>(kind, pos.rules()).evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learned_is_the_network_only_where_the_card_names_it() {
        for card in crate::GAMES.iter() {
            let rules = RuleSet::new(card.variant, false);
            let name = Evaluator::new::<u64>(Evaluation::Learned, rules).name();
            if card.evaluation == GameEval::Network {
                assert!(
                    network::shipped(card.variant).is_some(),
                    "{:?}",
                    card.variant
                );
                assert_eq!(name, "network");
                assert_eq!(
                    Evaluation::Learned.resolved(card.variant),
                    Evaluation::Network
                );
            } else {
                assert_ne!(name, "network", "{:?}", card.variant);
                assert_eq!(
                    Evaluation::Learned.resolved(card.variant),
                    Evaluation::Learned
                );
            }
        }
        // Russian draughts keeps its linear evaluation as the default (docs/search.md),
        // its network a choice.
        let russian = RuleSet::new(Variant::Russian, false);
        assert_eq!(
            Evaluator::new::<u64>(Evaluation::Learned, russian).name(),
            "russian"
        );
        assert_eq!(
            Evaluator::new::<u64>(Evaluation::Network, russian).name(),
            "network"
        );
    }

    #[test]
    fn the_card_names_what_the_default_evaluation_is() {
        for card in crate::GAMES
            .iter()
            .filter(|c| c.evaluation != GameEval::Columns)
        {
            let rules = RuleSet::new(card.variant, false);
            let name = if card.variant == Variant::Canadian {
                Evaluator::new::<u128>(Evaluation::Learned, rules).name()
            } else {
                Evaluator::new::<u64>(Evaluation::Learned, rules).name()
            };
            assert_eq!(name, card.evaluation.name(), "{:?}", card.variant);
        }
    }

    #[test]
    fn a_network_of_another_game_falls_back_to_the_game_s_own() {
        let english = network::shipped(Variant::English).map(|n| n as *const Network);
        assert!(english.is_some());
        // The Russian network asked for in English draughts: English's own network is not
        // it, and Spanish draughts (no network) gets its linear evaluation.
        let spanish = RuleSet::new(Variant::Spanish, false);
        assert_eq!(
            Evaluator::new::<u64>(Evaluation::Network, spanish).name(),
            "russian"
        );
        let killer = RuleSet::new(Variant::Killer, false);
        assert_eq!(
            Evaluator::new::<u64>(Evaluation::Network, killer).name(),
            "family"
        );
        assert_eq!(
            Evaluator::new::<u64>(Evaluation::Classic, killer).name(),
            "family"
        );
        let giveaway = RuleSet::new(Variant::Giveaway, false);
        assert_eq!(
            Evaluator::new::<u64>(Evaluation::Family, giveaway).name(),
            "giveaway"
        );
    }
}
