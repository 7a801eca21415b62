//! Evaluation: every way the engine judges a position it does not search further, beside the
//! search (`crate::search`), which holds one [`Evaluator`] and calls it.
//!
//! A game's evaluation is named on its card ([`crate::GameInfo::evaluation`]); the user may
//! choose another ([`Evaluation`]: `classic`, `learned`, `family`, `network`, a network
//! file). [`Evaluator::new`] turns the two into the evaluator a search or a batch holds,
//! once, when it starts: no position asks again which evaluation applies.
//!
//! One file an evaluation, none importing another but the one it builds on (the column
//! games' evaluation stays beside their own search, `crate::stacks::search`: their positions
//! are a type of their own):
//!
//! | file | what |
//! |---|---|
//! | `choice.rs` | [`Evaluation`], the user's choice (it names a loaded network through `network.rs`) |
//! | `evaluator.rs` | [`Evaluator`]: the choice and the card made one evaluator; the only file that reads the others |
//! | `endings.rs` | the known endings of the flying-king games (material alone decides) |
//! | `classic.rs` | the hand-set weights of the 8×8 board (with the known endings) |
//! | `learned.rs`, `learned_weights.rs` | Russian draughts' linear weights learned from self-play (data: `data/weights/learned.bin`) |
//! | `family.rs`, `family_weights.rs` | the family features, each game's fitted weights (data: `data/weights/family.txt`) |
//! | `network.rs` | the network: its files, inference and incremental accumulators (data: `data/networks/`) |
//! | `giveaway.rs` | giveaway's and antidraughts': material and mobility as burdens |
//! | `corners.rs` | уголки's race to the other's house |
//!
//! Adding an evaluation: one file here, a variant of `Kind` in `evaluator.rs` that calls it,
//! and (as a game's default) a [`crate::GameEval`] named on the game's card.

mod choice;
mod classic;
mod corners;
mod endings;
mod evaluator;
pub mod family;
mod family_weights;
mod giveaway;
pub mod learned;
mod learned_weights;
pub mod network;

pub use choice::Evaluation;
pub use classic::{evaluate_classic, Weights, WEIGHTS};
pub use corners::evaluate_corners;
pub use endings::known_ending;
pub use evaluator::{evaluate_with, Evaluator};
pub use giveaway::evaluate_giveaway;
