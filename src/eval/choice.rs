//! The user's choice of evaluation (`Engine(evaluation=…)`, the Hub's `evaluation` option,
//! `--evaluation`, `shashki:eval=FILE`).

use super::network::{self, NetworkError};
use crate::games::Variant;

/// Which evaluation a search uses: the game's own (`learned`, the default) or another.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-set weights of the 8×8 board (`super::WEIGHTS`); a game with an evaluation
    /// of its own (giveaway, уголки, the 10×10 and short-king games) keeps that one, with
    /// the hand-set family weights on the 12×12 board.
    Classic,
    /// The game's evaluation, as its card names it ([`crate::GameInfo::evaluation`]).
    #[default]
    Learned,
    /// The family evaluation with the game's own fitted weights in every game (giveaway's
    /// and уголки's evaluations stay theirs).
    Family,
    /// The network compiled in for the game; a game without one is evaluated as by
    /// [`Evaluation::Learned`].
    Network,
    /// A network read from a file ([`Evaluation::load`]: its index among those read); a
    /// position of another game is evaluated as by [`Evaluation::Learned`].
    Loaded(u16),
}

impl Evaluation {
    /// `classic`, `learned`, `family`, `network`, or a loaded network's file name.
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Loaded(index) => network::loaded_name(index),
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

    /// The evaluation of the network file at `path` (read once: the same file, by name and
    /// checksum, is read again only if it changed).
    pub fn load(path: &str) -> Result<Evaluation, NetworkError> {
        network::load(path).map(Evaluation::Loaded)
    }

    /// The choice as a search of `variant` runs it: `learned` is the game's network where
    /// its card names one, any other choice itself (the name its cached evaluations are
    /// kept under).
    pub fn resolved(self, variant: Variant) -> Evaluation {
        match self {
            Evaluation::Learned if network::learned_network(variant).is_some() => {
                Evaluation::Network
            }
            other => other,
        }
    }
}
