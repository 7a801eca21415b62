//! The move rules as code: the [`Rules`] trait and its types (one per kind of move rules,
//! each naming its constants and its [`Generator`]), and the one dispatch from a position's
//! rules code to them ([`GameWord::dispatch`]), through which a position lists, counts and
//! plays its moves. The generators themselves are `crate::movegen`'s; this folder names
//! them and does not import them.
//!
//! Inside: `kinds` (the traits) ← `types` ← `dispatch`.

pub(crate) mod dispatch;
pub(crate) mod kinds;
pub(crate) mod types;

pub use kinds::{CapturePriority, Counting, GameWord, Generator, Rules, Visit};
pub use types::{
    Brazilian, Breakthrough, Canadian, CapturesOptional, Czech, DiagonalGenerator, English,
    Frisian, FrisianGenerator, International, Italian, Killer, Lasca, Pool, Russian, Samoedy,
    Spanish, Stavropol, StavropolGenerator, StavropolOwnFirst, Thai, Turkish, TurkishGenerator,
    Ugolki, UgolkiGenerator,
};
