//! The move generators, one per family of move rules, each implementing
//! [`Generator`](crate::Generator) for the rules types that name it: `diagonal` (every game
//! of the diagonal boards, both words), `orthogonal` (Frisian draughts: captures along
//! ranks and files too), `turkish` (Turkish draughts: ranks and files on a board of every
//! square), and `capture_list` (the capture lists the last two filter). They import the
//! rules' traits and the positions, never the dispatch.
//!
//! Inside: `diagonal`, `capture_list` ← `orthogonal`; `capture_list` ← `turkish`.

pub(crate) mod capture_list;
pub(crate) mod diagonal;
pub(crate) mod orthogonal;
pub(crate) mod turkish;
