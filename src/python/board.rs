//! `shashki._core.Board` (a position with its history), its live list of legal moves, and
//! `shashki._core.DrawRules` (a rule set the core applies).

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

use super::moves::{AnyMove, PyWord};
use super::{
    args, color_bool, fen_text, move_text_arg, move_text_err, notation_arg, square_arg_on, wrap,
    FenError, IllegalMoveError, PushedMoves, PyMove, PyPiece,
};
use crate::game::draw::{DrawRule, DrawRules};
use crate::geometry::Word;
use crate::notation;
use crate::position::fen;
use crate::{
    Bitboard, Board as CoreBoard, Color, Move as CoreMove, Notation, Position, Role, RuleSet,
    Square, Variant,
};

/// A position as Python draw rules read it (see `_draw_history`).
type DrawSnapshot = (u64, bool, u32, u32, u32, u32, u32, u32);

/// A set of draw rules the core applies: built from `(kind, parameters)` pairs by
/// `shashki.draw.DrawRules` (the public face); the game layer and the search both read it.
#[pyclass(module = "shashki._core", name = "DrawRules", frozen)]
pub struct PyDrawRules {
    pub(crate) rules: DrawRules,
}

fn count_param(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    Ok(args::int_in(value, what, 0, 100_000, PyValueError::new_err)? as u32)
}

fn rule_from_spec(spec: &Bound<'_, PyAny>) -> PyResult<DrawRule> {
    let bad = || PyValueError::new_err("a draw rule spec is a (kind, parameters) pair");
    let tuple = spec.cast::<PyTuple>().map_err(|_| bad())?;
    if tuple.len() != 2 {
        return Err(bad());
    }
    let kind: String = tuple.get_item(0)?.extract().map_err(|_| bad())?;
    let params = tuple.get_item(1)?;
    let get = |i: usize| params.get_item(i);
    let int = |i: usize, what: &str| count_param(&get(i)?, what);
    let materials = |i: usize| -> PyResult<Vec<(u32, u32)>> {
        let mut out = Vec::new();
        for item in get(i)?.try_iter()? {
            let item = item?;
            out.push((
                count_param(&item.get_item(0)?, "kings")?,
                count_param(&item.get_item(1)?, "men")?,
            ));
        }
        out.sort_unstable();
        Ok(out)
    };
    Ok(match kind.as_str() {
        "repetition" => DrawRule::Repetition {
            times: int(0, "times")?,
        },
        "three_kings_vs_king" => DrawRule::ThreeKingsVsKing {
            moves: int(0, "moves")?,
            allow_men: get(1)?.is_truthy()?,
        },
        "kings_only" => DrawRule::KingsOnly {
            moves: int(0, "moves")?,
        },
        "unchanged_balance" => {
            let mut limits = Vec::new();
            for item in get(0)?.try_iter()? {
                let item = item?;
                limits.push((
                    count_param(&item.get_item(0)?, "fewest pieces")?,
                    count_param(&item.get_item(1)?, "most pieces")?,
                    count_param(&item.get_item(2)?, "moves")?,
                ));
            }
            DrawRule::UnchangedBalance { limits }
        }
        "main_road" => DrawRule::MainRoad {
            moves: int(0, "moves")?,
            materials: materials(1)?,
        },
        "small_ending" => DrawRule::SmallEnding {
            moves: int(0, "moves")?,
            materials: materials(1)?,
        },
        "no_capture_or_promotion" => DrawRule::NoCaptureOrPromotion {
            moves: int(0, "moves")?,
        },
        "king_and_men_vs_king" => DrawRule::KingAndMenVsKing {
            moves: int(0, "moves")?,
        },
        "pieces_vs_king" => DrawRule::PiecesVsKing {
            pieces: int(0, "pieces")?,
            moves: int(1, "moves")?,
        },
        "one_piece_each" => DrawRule::OnePieceEach,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown draw rule kind {other:?}"
            )))
        }
    })
}

#[pymethods]
impl PyDrawRules {
    /// Rules from `(kind, parameters)` pairs: the automatic ones, then the claimable ones.
    #[new]
    #[pyo3(signature = (automatic, claimable = Vec::new()))]
    fn new(automatic: Vec<Bound<'_, PyAny>>, claimable: Vec<Bound<'_, PyAny>>) -> PyResult<Self> {
        let automatic = automatic
            .iter()
            .map(rule_from_spec)
            .collect::<PyResult<_>>()?;
        let claimable = claimable
            .iter()
            .map(rule_from_spec)
            .collect::<PyResult<_>>()?;
        Ok(PyDrawRules {
            rules: DrawRules::new(automatic, claimable),
        })
    }

    /// A built-in set by name: `fmjd64`, `forty_moves`, `historical`, `brazilian`,
    /// `giveaway`, `none`.
    #[staticmethod]
    fn builtin(name: &str) -> PyResult<Self> {
        DrawRules::parse(name)
            .map(|rules| PyDrawRules { rules })
            .ok_or_else(|| PyValueError::new_err(format!("no built-in draw rules {name:?}")))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyDrawRules>() {
            Ok(o) => o.get().rules == self.rules,
            Err(_) => false,
        }
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.rules.rules().map(DrawRule::name).collect();
        format!("<DrawRules {}>", names.join(", "))
    }
}

/// A board's position and history in its word, with its legal moves once listed.
#[derive(Clone)]
pub(crate) struct Game<W: Word> {
    board: CoreBoard<W>,
    cache: Option<Vec<CoreMove<W>>>,
}

/// A board of either word: the 64-bit one of the boards up to 10×10 (and Turkish
/// draughts), the 128-bit one of the 12×12 board.
#[derive(Clone)]
pub(crate) enum AnyGame {
    Narrow(Game<u64>),
    Wide(Game<u128>),
}

/// `$body` with `$g` the board's [`Game`] in its own word (compiled once for each word).
macro_rules! on_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            AnyGame::Narrow($g) => $body,
            AnyGame::Wide($g) => $body,
        }
    };
}

/// A word a Python `Board` holds games in.
pub(crate) trait BoardWord: PyWord {
    /// The game as a board of either word keeps it.
    fn any_game(game: Game<Self>) -> AnyGame;
    /// The game in this word, when it is one.
    fn game_of(game: &AnyGame) -> Option<&Game<Self>>;
    /// How many of `kings` stand on the 8×8 board's main road (a1–h8): none on 12×12.
    fn on_main_road(kings: Bitboard<Self>) -> u32;
}

impl BoardWord for u64 {
    fn any_game(game: Game<u64>) -> AnyGame {
        AnyGame::Narrow(game)
    }

    fn game_of(game: &AnyGame) -> Option<&Game<u64>> {
        match game {
            AnyGame::Narrow(g) => Some(g),
            AnyGame::Wide(_) => None,
        }
    }

    fn on_main_road(kings: Bitboard) -> u32 {
        (kings & Bitboard::MAIN_ROAD).count()
    }
}

impl BoardWord for u128 {
    fn any_game(game: Game<u128>) -> AnyGame {
        AnyGame::Wide(game)
    }

    fn game_of(game: &AnyGame) -> Option<&Game<u128>> {
        match game {
            AnyGame::Wide(g) => Some(g),
            AnyGame::Narrow(_) => None,
        }
    }

    fn on_main_road(_kings: Bitboard<u128>) -> u32 {
        0
    }
}

/// A position as Python draw rules read it (see `_draw_history`).
fn draw_snapshot<W: BoardWord>(p: &Position<W>) -> DrawSnapshot {
    (
        p.hash(),
        color_bool(p.turn()),
        p.men(Color::White).count(),
        p.kings(Color::White).count(),
        p.men(Color::Black).count(),
        p.kings(Color::Black).count(),
        W::on_main_road(p.kings(Color::White)),
        W::on_main_road(p.kings(Color::Black)),
    )
}

impl<W: BoardWord> Game<W> {
    /// A new history at `pos` with the FEN's clocks.
    fn at(pos: Position<W>, (halfmove, fullmove): (u32, u32)) -> Game<W> {
        Game {
            board: CoreBoard::with_start_clocks(pos, halfmove, fullmove),
            cache: None,
        }
    }

    fn into_any(self) -> AnyGame {
        W::any_game(self)
    }

    fn position(&self) -> &Position<W> {
        self.board.position()
    }

    fn variant(&self) -> Variant {
        self.position().rules().variant
    }

    /// The legal moves, listed once a position (in a fixed order).
    fn moves(&mut self) -> &[CoreMove<W>] {
        let pos = *self.position();
        self.cache
            .get_or_insert_with(|| {
                let mut moves = pos.legal_moves().to_vec();
                moves.sort_by_key(|m| (m.from(), m.to(), m.captured().bits()));
                moves
            })
            .as_slice()
    }

    /// Play a legal move (the caller has checked it).
    fn play(&mut self, m: CoreMove<W>) {
        self.board.push_unchecked(m);
        self.cache = None;
    }

    /// The legal move equal to `m` (with the caller's path when it is a valid order of the
    /// same capture), or None.
    fn legal(&mut self, m: &AnyMove) -> Option<CoreMove<W>> {
        let m = W::from_any(m)?;
        let legal = self.moves().iter().find(|l| **l == m).copied()?;
        Some(if legal.path() == m.path() { m } else { legal })
    }

    /// IllegalMoveError for `m`, saying why it is not legal here (the move named by its
    /// own game's squares).
    fn illegal(&self, m: &PyMove) -> PyErr {
        let pos = self.position();
        let why = match W::from_any(&m.inner) {
            Some(_) if same_board(m.variant.geometry(), pos.geometry()) => {
                notation::explain_illegal(pos, m.inner.from(), m.inner.to())
            }
            _ => format!(
                "it is a move of {} draughts, this board plays {} draughts",
                m.variant.name(),
                pos.rules().variant.name()
            ),
        };
        IllegalMoveError::new_err(format!("illegal move {}: {why}", m.long_text()))
    }

    /// The position with `piece` (or nothing) on `sq`, as a new history; ValueError (the
    /// board unchanged) when it is not a legal setup.
    fn with_piece(&self, sq: Square, piece: Option<(bool, bool)>) -> PyResult<Game<W>> {
        let mut setup = self.position().setup();
        for set in [
            &mut setup.white_men,
            &mut setup.white_kings,
            &mut setup.black_men,
            &mut setup.black_kings,
        ] {
            *set = set.without(sq);
        }
        if let Some(p) = piece {
            let set = match p {
                (true, false) => &mut setup.white_men,
                (true, true) => &mut setup.white_kings,
                (false, false) => &mut setup.black_men,
                (false, true) => &mut setup.black_kings,
            };
            *set = set.with(sq);
        }
        self.with_setup(&setup)
    }

    fn with_setup(&self, setup: &crate::Setup<W>) -> PyResult<Game<W>> {
        let pos = Position::from_setup_in(setup, self.position().rules())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Game::at(pos, (0, 1)))
    }

    /// A new history at a FEN of this game, with its clocks.
    fn with_fen(&self, text: &str) -> PyResult<Game<W>> {
        let (pos, clocks) = parse_fen_with_clocks(text, self.position().rules())?;
        Ok(Game::at(pos, clocks))
    }

    /// `m` in this game's word, if it was made on a board of that word.
    fn own_move(&self, m: &AnyMove) -> Option<CoreMove<W>> {
        W::from_any(m)
    }

    fn parse_move(&self, text: &Bound<'_, PyAny>) -> PyResult<CoreMove<W>> {
        let text = move_text_arg(text)?;
        notation::parse_move(self.position(), &text).map_err(move_text_err)
    }

    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let pos = self.position();
        let sq = square_arg_on(square, pos.geometry())?;
        Ok(pos.piece_at(sq).map(|p| PyPiece {
            color: color_bool(p.color),
            king: p.role == Role::King,
        }))
    }

    #[allow(clippy::type_complexity)]
    fn draw_history(&self) -> (Vec<DrawSnapshot>, Vec<(bool, bool, bool, bool)>) {
        let snapshots = (0..=self.board.plies())
            .filter_map(|ply| self.board.at(ply).map(|(pos, _)| draw_snapshot(pos)))
            .collect();
        let plies = (0..self.board.plies())
            .filter_map(|ply| self.board.ply_facts(ply))
            .map(|f| (color_bool(f.mover), f.king_moved, f.capture, f.promotion))
            .collect();
        (snapshots, plies)
    }

    fn pieces(&self, color: bool, king: Option<bool>) -> Vec<usize> {
        let pos = self.position();
        let c = if color { Color::White } else { Color::Black };
        let set = match king {
            None => pos.pieces(c),
            Some(true) => pos.kings(c),
            Some(false) => pos.men(c),
        };
        let geometry = pos.geometry();
        set.iter().map(|sq| geometry.index_on_board(sq)).collect()
    }

    /// Every legal move as a Python `Move`.
    fn wrapped_moves(&mut self, py: Python<'_>) -> PyResult<Vec<Py<PyMove>>> {
        let variant = self.variant();
        self.moves()
            .to_vec()
            .into_iter()
            .map(|m| wrap(py, m, variant))
            .collect()
    }

    /// Legal move `index` (negative from the end), or IndexError.
    fn move_at(&mut self, py: Python<'_>, index: Result<i64, PyErr>) -> PyResult<Py<PyMove>> {
        let variant = self.variant();
        let moves = self.moves();
        let n = moves.len() as isize;
        let index = match index {
            Ok(i) => i as isize,
            Err(e) if e.is_instance_of::<PyIndexError>(py) => {
                return Err(PyIndexError::new_err(format!(
                    "legal move index out of range ({n} legal moves)"
                )))
            }
            Err(e) => return Err(e),
        };
        let i = if index < 0 { index + n } else { index };
        if i < 0 || i >= n {
            return Err(PyIndexError::new_err(format!(
                "legal move index {index} out of range ({n} legal moves)"
            )));
        }
        wrap(py, moves[i as usize], variant)
    }

    fn moves_text(&mut self) -> String {
        let geometry = self.position().geometry();
        let texts: Vec<String> = self
            .moves()
            .iter()
            .map(|m| m.long_text_on(geometry))
            .collect();
        texts.join(", ")
    }
}

/// A position with its history (the core's [`CoreBoard`], in the word of its game's
/// board).
#[pyclass(module = "shashki", name = "Board", subclass)]
pub struct PyBoard {
    game: AnyGame,
}

impl PyBoard {
    /// The game the board plays (what its moves' texts name squares by).
    pub(crate) fn variant_kind(&self) -> crate::Variant {
        on_game!(&self.game, g => g.variant())
    }

    /// The rules the board plays by.
    fn rules(&self) -> RuleSet {
        on_game!(&self.game, g => g.position().rules())
    }

    /// The board's history in the word `W`, or a ValueError naming `what` does not take
    /// the other word's boards yet.
    pub(crate) fn core_in<W: BoardWord>(&self, what: &str) -> PyResult<&CoreBoard<W>> {
        W::game_of(&self.game).map(|g| &g.board).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{what} does not take a board of {} draughts yet",
                self.variant_kind().name()
            ))
        })
    }

    /// The position, when the board's word is `W`.
    pub(crate) fn position_in<W: BoardWord>(&self) -> Option<Position<W>> {
        W::game_of(&self.game).map(|g| *g.position())
    }

    /// The 64-bit board (every game but the 12×12 board's), or a ValueError naming what
    /// does not take the 12×12 board.
    pub(crate) fn core(&self, what: &str) -> PyResult<&CoreBoard> {
        self.core_in::<u64>(what)
    }

    /// The position of a 64-bit board (see [`PyBoard::core`]).
    pub(crate) fn position(&self, what: &str) -> PyResult<Position> {
        self.core(what).map(|b| *b.position())
    }

    /// Start a new history at the game's position.
    fn set_game(&mut self, game: AnyGame) {
        self.game = game;
    }
}

/// A FEN in the numbering of the game played under `rules`, with its clocks.
pub(crate) fn parse_fen_with_clocks<W: Word>(
    text: &str,
    rules: RuleSet,
) -> PyResult<(Position<W>, (u32, u32))> {
    let fail =
        |e: String| FenError::new_err(format!("{e}{}", other_boards_hint(text, rules.variant)));
    let parsed = fen::parse_fen_in_word::<W>(text, rules.variant.numbering())
        .map_err(|e| fail(e.to_string()))?;
    let pos = Position::from_setup_in(&parsed.setup, rules).map_err(|e| fail(e.to_string()))?;
    let clocks = (
        parsed.halfmove_clock.unwrap_or(0),
        parsed.fullmove_number.unwrap_or(1).max(1),
    );
    Ok((pos, clocks))
}

/// Whether `text` is a position of the game `variant` (in its word and numbering).
fn fits(text: &str, variant: Variant) -> bool {
    fn on<W: Word>(text: &str, variant: Variant) -> bool {
        fen::parse_fen_in_word::<W>(text, variant.numbering())
            .is_ok_and(|f| Position::from_setup_in(&f.setup, RuleSet::new(variant, false)).is_ok())
    }
    if variant.geometry().is_wide() {
        on::<u128>(text, variant)
    } else {
        on::<u64>(text, variant)
    }
}

/// What a FEN that the game `variant` refuses fits instead: the first game of each other
/// board it is a position of (`; it fits the 10×10 board: variant "international"?`), or
/// nothing. Read only on the way to an error.
fn other_boards_hint(text: &str, variant: Variant) -> String {
    let mut seen: Vec<&'static crate::Geometry> = vec![variant.geometry()];
    let mut hints = Vec::new();
    // The column games' boards are `ColumnBoard`'s, not this one's: never hinted.
    for other in Variant::ALL.into_iter().filter(|v| !v.info().stacks) {
        let geometry = other.geometry();
        if seen.iter().any(|g| std::ptr::eq(*g, geometry)) || !fits(text, other) {
            continue;
        }
        seen.push(geometry);
        let board = if geometry.every_square() {
            "8×8 board of every square".to_string()
        } else {
            format!("{n}×{n} board", n = geometry.size())
        };
        hints.push(format!("the {board}: variant \"{}\"", other.name()));
    }
    if hints.is_empty() {
        String::new()
    } else {
        format!("; it fits {}?", hints.join(", or "))
    }
}

/// The rules named by a `variant` and `captures_optional` argument pair, for the learned
/// evaluation's and the network's training data (the games of the 64-bit word's boards;
/// the 12×12 board's are refused with a pointer to what takes them).
pub(crate) fn rules_arg(
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
) -> PyResult<RuleSet> {
    let rules = rules_arg_any(variant, captures_optional)?;
    let variant = rules.variant;
    if variant.geometry().is_wide() {
        return Err(PyValueError::new_err(format!(
            "{} draughts is played on the 12×12 board, whose positions the learned \
             evaluation and the network do not read (its evaluation is the family one: \
             `python -m shashki.train family` fits it)",
            variant.name()
        )));
    }
    Ok(rules)
}

/// The rules named by a `variant` and `captures_optional` argument pair: any game.
pub(crate) fn rules_arg_any(
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
) -> PyResult<RuleSet> {
    let variant = match variant {
        None => Variant::Russian,
        Some(v) if v.is_none() => Variant::Russian,
        Some(v) => {
            let name = crate::python::args::text(v, "variant", PyValueError::new_err)?;
            Variant::parse(&name).ok_or_else(|| {
                let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                PyValueError::new_err(format!(
                    "unknown variant {name:?}: expected one of {}",
                    names.join(", ")
                ))
            })?
        }
    };
    if variant.info().stacks {
        return Err(PyValueError::new_err(format!(
            "{} is a column game: its positions are shashki.ColumnBoard's (a column of \
             pieces on a square), which plays it; this takes the games of one piece a square",
            variant.name()
        )));
    }
    Ok(RuleSet::new(variant, captures_optional))
}

pub(crate) fn parse_fen_arg(text: &str) -> PyResult<Position> {
    fen::position_from_fen(text).map_err(|e| FenError::new_err(e.to_string()))
}

/// A FEN of the game played under `rules`, in that game's numbering.
pub(crate) fn parse_fen_arg_in(text: &str, rules: RuleSet) -> PyResult<Position> {
    fen::position_from_fen_in(text, rules).map_err(|e| FenError::new_err(e.to_string()))
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None, *, variant = None, captures_optional = false))]
    fn new(
        fen: Option<&Bound<'_, PyAny>>,
        variant: Option<&Bound<'_, PyAny>>,
        captures_optional: bool,
    ) -> PyResult<Self> {
        let rules = rules_arg_any(variant, captures_optional)?;
        let fen = match fen {
            Some(text) if !text.is_none() => Some(fen_text(text)?),
            _ => None,
        };
        fn game_of<W: BoardWord>(fen: Option<&str>, rules: RuleSet) -> PyResult<AnyGame> {
            let (pos, clocks) = match fen {
                Some(text) => parse_fen_with_clocks::<W>(text, rules)?,
                None => (
                    Position::<W>::start_in(rules)
                        .map_err(|e| PyValueError::new_err(e.to_string()))?,
                    (0, 1),
                ),
            };
            Ok(Game::at(pos.with_rules(rules), clocks).into_any())
        }
        let game = if rules.variant.geometry().is_wide() {
            game_of::<u128>(fen.as_deref(), rules)?
        } else {
            game_of::<u64>(fen.as_deref(), rules)?
        };
        Ok(PyBoard { game })
    }

    /// The game played: `"russian"`, `"giveaway"`, `"brazilian"`, `"english"`, … (one of
    /// `shashki.VARIANTS`).
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant_kind().name()
    }

    /// Whether a quiet move is legal beside a capture (a house rule of some playing sites).
    #[getter]
    fn captures_optional(&self) -> bool {
        self.rules().captures_optional
    }

    /// The clocks of the FEN the board was set up from: `(halfmove, fullmove)`, `(0, 1)`
    /// when it gave none.
    #[getter]
    fn _start_clocks(&self) -> (u32, u32) {
        on_game!(&self.game, g => g.board.start_clocks())
    }

    /// Plies since the last capture or man move (lidraughts' `H`): the FEN's count goes on
    /// while only kings move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        on_game!(&self.game, g => g.board.halfmove_clock())
    }

    /// The move number: the FEN's `F` (1 if it gave none), plus one after every move of
    /// Black.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        on_game!(&self.game, g => g.board.fullmove_number())
    }

    /// Whether the position has occurred `count` times (3 by default), this time included,
    /// counting the positions since the last capture or man move.
    #[pyo3(signature = (count = None), text_signature = "(self, count=3)")]
    fn is_repetition(&self, count: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let count =
            super::args::opt_int_in(count, "count", 0, u32::MAX as i64)?.unwrap_or(3) as u32;
        Ok(on_game!(&self.game, g => g.board.occurrences() >= count))
    }

    /// A board at the first position of the history, with the FEN's clocks.
    fn root<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let game = on_game!(&slf.borrow().game, g => {
            Game::at(*g.board.root(), g.board.start_clocks()).into_any()
        });
        new_board_like(slf, game)
    }

    /// Put `piece` on `square` (None empties it); the move stack is cleared. A man on its
    /// own crowning rank is refused (ValueError), the board unchanged.
    #[pyo3(signature = (square, piece))]
    fn set_piece_at(
        &mut self,
        square: &Bound<'_, PyAny>,
        piece: Option<PyRef<'_, PyPiece>>,
    ) -> PyResult<()> {
        let piece = piece.map(|p| (p.color, p.king));
        let game = on_game!(&self.game, g => {
            let sq = square_arg_on(square, g.position().geometry())?;
            g.with_piece(sq, piece)?.into_any()
        });
        self.set_game(game);
        Ok(())
    }

    /// Empty `square` and return what stood there (None if nothing); the stack is cleared.
    fn remove_piece_at(&mut self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let piece = self.piece_at(square)?;
        if piece.is_some() {
            self.set_piece_at(square, None)?;
        }
        Ok(piece)
    }

    /// Take every piece off (White to move) and clear the stack.
    fn clear(&mut self) -> PyResult<()> {
        let game = on_game!(&self.game, g => {
            let setup = crate::Setup {
                turn: Some(Color::White),
                ..Default::default()
            };
            g.with_setup(&setup)?.into_any()
        });
        self.set_game(game);
        Ok(())
    }

    /// The position turned half round with the colours swapped (White's man on c3 becomes
    /// Black's man on f6) and the other side to move: the same game seen from the other
    /// side (same perft). A new board without a move stack.
    fn mirror<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let game = on_game!(&slf.borrow().game, g => {
            let pos = g.position();
            Game::at(pos.mirrored().with_rules(pos.rules()), (0, 1)).into_any()
        });
        new_board_like(slf, game)
    }

    /// A board set up from a FEN (numeric or algebraic squares, ranges, `[FEN "…"]`,
    /// lidraughts' `:H0:F1` suffix).
    #[classmethod]
    fn from_fen<'py>(
        cls: &Bound<'py, PyType>,
        fen: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        parse_fen_arg(&fen_text(fen)?)?;
        cls.call1((fen,))
    }

    /// The position as a PDN FEN.
    #[pyo3(signature = (notation = None))]
    fn fen(&self, notation: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => Notation::Numeric,
        };
        Ok(on_game!(&self.game, g => fen::write_fen(g.position(), notation)))
    }

    /// Set up a FEN and clear the move stack; on a bad FEN the board is unchanged.
    fn set_fen(&mut self, fen: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = fen_text(fen)?;
        let game = on_game!(&self.game, g => g.with_fen(&text)?.into_any());
        self.set_game(game);
        Ok(())
    }

    /// The side to move: `True` (WHITE) or `False` (BLACK).
    #[getter]
    fn turn(&self) -> bool {
        on_game!(&self.game, g => color_bool(g.position().turn()))
    }

    /// The Zobrist hash of the position.
    fn zobrist_hash(&self) -> u64 {
        on_game!(&self.game, g => g.position().hash())
    }

    /// The legal moves: a live view (len, iteration, `in`, indexing, bool).
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> LegalMoves {
        LegalMoves {
            board: slf.clone().unbind(),
        }
    }

    /// Whether the side to move must capture.
    fn has_captures(&self) -> bool {
        on_game!(&self.game, g => g.position().has_captures())
    }

    /// A side's run of quiet moves by one king, where the rules limit it (Frisian: three
    /// in a row while men remain): `(moves made, square index of the king)`, or `None`.
    fn king_run(&self, color: bool) -> Option<(u8, usize)> {
        let color = if color { Color::White } else { Color::Black };
        on_game!(&self.game, g => {
            let pos = g.position();
            pos.king_run(color)
                .map(|(count, sq)| (count, pos.geometry().index_on_board(sq)))
        })
    }

    /// Whether `move` is legal here.
    fn is_legal(&mut self, r#move: PyRef<'_, PyMove>) -> bool {
        on_game!(&mut self.game, g => g.legal(&r#move.inner).is_some())
    }

    /// Play a legal move; raises IllegalMoveError (board unchanged) otherwise.
    fn push(&mut self, r#move: PyRef<'_, PyMove>) -> PyResult<()> {
        on_game!(&mut self.game, g => match g.legal(&r#move.inner) {
            Some(m) => {
                g.play(m);
                Ok(())
            }
            None => Err(g.illegal(&r#move)),
        })
    }

    /// Undo the last move and return it; IndexError when there is none.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        on_game!(&mut self.game, g => match g.board.pop() {
            Some(m) => {
                g.cache = None;
                wrap(py, m, g.variant())
            }
            None => Err(PyIndexError::new_err(
                "pop from a board with no moves played",
            )),
        })
    }

    /// The last move played; IndexError when there is none.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        on_game!(&self.game, g => match g.board.moves().next_back() {
            Some(m) => wrap(py, m, g.variant()),
            None => Err(PyIndexError::new_err(
                "peek at a board with no moves played",
            )),
        })
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Py<PyMove>> = on_game!(&self.game, g => g
            .board
            .moves()
            .map(|m| wrap(py, m, g.variant()))
            .collect::<PyResult<_>>()?);
        PyList::new(py, items)
    }

    /// The move denoted by `text`: `c3-d4`, `e3:c5:e7`, `e3xe7`, `22-18`, `22x15`.
    /// Raises InvalidMoveError, IllegalMoveError or AmbiguousMoveError.
    fn parse_move(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        on_game!(&self.game, g => wrap(py, g.parse_move(text)?, g.variant()))
    }

    /// Parse `text`, play it and return the move.
    fn push_move(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        on_game!(&mut self.game, g => {
            let m = g.parse_move(text)?;
            g.play(m);
            wrap(py, m, g.variant())
        })
    }

    /// Parse and play move texts in order, stopping at the first that fails: the moves
    /// played and the exception of the one that failed (None when all were played). For
    /// readers of long move lists (PDN): one call instead of one a move.
    fn _push_move_texts<'py>(
        &mut self,
        py: Python<'py>,
        texts: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<PushedMoves> {
        let mut played = Vec::with_capacity(texts.len());
        on_game!(&mut self.game, g => {
            for text in &texts {
                match g.parse_move(text) {
                    Ok(m) => {
                        g.play(m);
                        played.push(wrap(py, m, g.variant())?);
                    }
                    Err(e) => return Ok((played, Some(e.into_value(py).into_any()))),
                }
            }
        });
        Ok((played, None))
    }

    /// PDN text of a legal move: short form (begin and end square) unless another legal
    /// capture shares both, or `long` is true; in the game's notation unless `notation`
    /// says.
    #[pyo3(signature = (r#move, notation = None, long = false))]
    fn move_text(
        &mut self,
        r#move: PyRef<'_, PyMove>,
        notation: Option<&Bound<'_, PyAny>>,
        long: bool,
    ) -> PyResult<String> {
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => r#move.variant.notation(),
        };
        on_game!(&mut self.game, g => match g.own_move(&r#move.inner) {
            Some(m) if g.moves().contains(&m) => {
                Ok(notation::move_text(g.position(), &m, notation, long))
            }
            _ => Err(g.illegal(&r#move)),
        })
    }

    /// The piece on `square`, or None.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        on_game!(&self.game, g => g.piece_at(square))
    }

    // ---- the draw rules ----------------------------------------------------------------

    /// The counts of every rule of `rules` whose condition holds now: `(rule index, done,
    /// limit, unit)`.
    fn _draw_counts(&self, rules: PyRef<'_, PyDrawRules>) -> Vec<(usize, u32, u32, &'static str)> {
        on_game!(&self.game, g => rules
            .rules
            .counts(&g.board.draw_context())
            .into_iter()
            .map(|c| (c.rule, c.done, c.limit, c.unit.name()))
            .collect())
    }

    /// The first rule of `rules` (automatic, then with `claim` the claimable ones) that has
    /// drawn the current position, or None.
    #[pyo3(signature = (rules, claim = false))]
    fn _draw_reached(&self, rules: PyRef<'_, PyDrawRules>, claim: bool) -> Option<usize> {
        on_game!(&self.game, g => rules.rules.reached(&g.board.draw_context(), claim))
    }

    /// The first position, from the one after `start` moves on, at which an automatic rule
    /// drew the game: `(ply, rule index)`, or None.
    fn _first_draw(&self, rules: PyRef<'_, PyDrawRules>, start: usize) -> Option<(usize, usize)> {
        on_game!(&self.game, g => g.board.first_draw(&rules.rules, start))
    }

    /// What draw rules written in Python read (`shashki.draw.History`): for every position
    /// of the history, `(hash, turn, white men, white kings, black men, black kings, white
    /// kings on the main road, black kings on it)`, and for every ply `(mover, king moved,
    /// capture, promotion)`.
    #[allow(clippy::type_complexity)]
    fn _draw_history(&self) -> (Vec<DrawSnapshot>, Vec<(bool, bool, bool, bool)>) {
        on_game!(&self.game, g => g.draw_history())
    }

    /// The search's own verdict on the current position, as it judges a node: a draw when
    /// the position occurred before with the same side to move (in the search a repetition
    /// is a draw at once) or an automatic rule of `rules` other than repetition holds.
    fn _search_draw(&self, rules: PyRef<'_, PyDrawRules>) -> bool {
        on_game!(&self.game, g => crate::search::is_draw_node(&g.board, &rules.rules))
    }

    /// The winner when the game is decided on the board (a side has no pieces, or the side
    /// to move has no move: it loses, in giveaway wins), else None.
    fn _decided(&self) -> Option<bool> {
        on_game!(&self.game, g => g.board.decided().map(|c| c == Color::White))
    }

    /// The squares of `color`'s pieces; `king=True` for kings only, `False` for men only.
    #[pyo3(signature = (color, king = None))]
    fn pieces(&self, color: bool, king: Option<bool>) -> Vec<usize> {
        on_game!(&self.game, g => g.pieces(color, king))
    }

    /// A copy; `stack=False` leaves out the move history.
    #[pyo3(signature = (*, stack = true))]
    fn copy<'py>(slf: &Bound<'py, Self>, stack: bool) -> PyResult<Bound<'py, PyAny>> {
        let game = slf.borrow().copied_game(stack);
        new_board_like(slf, game)
    }

    /// Take `other`'s position, clocks and (with `stack`) move stack.
    #[pyo3(signature = (other, stack = true))]
    fn _copy_from(&mut self, other: PyRef<'_, PyBoard>, stack: bool) {
        let game = other.copied_game(stack);
        self.set_game(game);
    }

    /// Same position and side to move (the histories are not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyBoard>() {
            Ok(o) => match (&o.borrow().game, &self.game) {
                (AnyGame::Narrow(a), AnyGame::Narrow(b)) => a.position() == b.position(),
                (AnyGame::Wide(a), AnyGame::Wide(b)) => a.position() == b.position(),
                _ => false,
            },
            Err(_) => false,
        }
    }

    fn __str__(&self) -> String {
        on_game!(&self.game, g => diagram(g.position()))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let name = slf.get_type().name()?;
        let me = slf.borrow();
        let rules = me.rules();
        let mut extra = String::new();
        if rules.variant != Variant::Russian {
            extra.push_str(&format!(", variant='{}'", rules.variant.name()));
        }
        if rules.captures_optional {
            extra.push_str(", captures_optional=True");
        }
        let fen = on_game!(&me.game, g => fen::write_fen(g.position(), Notation::Numeric));
        Ok(format!("{name}('{fen}'{extra})"))
    }
}

impl PyBoard {
    /// The board's game (with its history when `stack`, else a new one at its position).
    fn copied_game(&self, stack: bool) -> AnyGame {
        if stack {
            self.game.clone()
        } else {
            on_game!(&self.game, g => Game::at(*g.position(), (0, 1)).into_any())
        }
    }
}

/// A new board of `slf`'s class (a subclass's too) holding `game`.
fn new_board_like<'py>(slf: &Bound<'py, PyBoard>, game: AnyGame) -> PyResult<Bound<'py, PyAny>> {
    let new = slf.get_type().call0()?;
    new.cast::<PyBoard>()?.borrow_mut().set_game(game);
    Ok(new)
}

/// ASCII board, White at the bottom.
fn diagram<W: Word>(pos: &Position<W>) -> String {
    let geometry = pos.geometry();
    let n = geometry.size();
    let w = if n > 9 { 2 } else { 1 };
    let border = format!(
        "{}+{}+\n",
        " ".repeat(w + 1),
        "-".repeat(2 * usize::from(n) + 1)
    );
    let mut out = String::with_capacity(400);
    out.push_str(&border);
    for rank in (0..n).rev() {
        out.push_str(&format!("{:>w$} |", rank + 1));
        for file in 0..n {
            out.push(' ');
            out.push(match geometry.square_at(file, rank) {
                None => ' ',
                Some(sq) => pos.piece_at(sq).map(|p| p.char()).unwrap_or('.'),
            });
        }
        out.push_str(" |\n");
    }
    out.push_str(&border);
    out.push_str(&" ".repeat(w + 3));
    let files: Vec<String> = (0..n).map(|f| ((b'a' + f) as char).to_string()).collect();
    out.push_str(&files.join(" "));
    out
}

/// The live list of legal moves of a board.
#[pyclass(module = "shashki", name = "LegalMoves")]
pub struct LegalMoves {
    board: Py<PyBoard>,
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self, py: Python<'_>) -> usize {
        on_game!(&mut self.board.bind(py).borrow_mut().game, g => g.moves().len())
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        on_game!(&mut self.board.bind(py).borrow_mut().game, g => !g.moves().is_empty())
    }

    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> bool {
        match item.cast::<PyMove>() {
            Ok(m) => {
                let m = m.get().inner;
                on_game!(&mut self.board.bind(py).borrow_mut().game, g => g.legal(&m).is_some())
            }
            Err(_) => false,
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = on_game!(&mut self.board.bind(py).borrow_mut().game, g => g.wrapped_moves(py)?);
        PyList::new(py, list)?.try_iter().map(|i| i.into_any())
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let index = args::int_in(
            index,
            "legal move index",
            isize::MIN as i64,
            isize::MAX as i64,
            PyIndexError::new_err,
        );
        on_game!(&mut self.board.bind(py).borrow_mut().game, g => g.move_at(py, index))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let texts = on_game!(&mut self.board.bind(py).borrow_mut().game, g => g.moves_text());
        format!("<LegalMoves ({texts})>")
    }
}

/// Whether two games are played on the same board (size and playable squares).
fn same_board(a: &crate::geometry::Geometry, b: &crate::geometry::Geometry) -> bool {
    a.size() == b.size() && a.every_square() == b.every_square()
}
