//! `shashki._core.Board` (a position with its history), its live list of legal moves, and
//! `shashki._core.DrawRules` (a rule set the core applies).

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};

use super::{
    args, color_bool, fen_text, move_text_arg, move_text_err, notation_arg, square_arg_on, wrap,
    FenError, IllegalMoveError, PushedMoves, PyMove, PyPiece,
};
use crate::draw::{DrawRule, DrawRules};
use crate::notation;
use crate::{
    fen, Bitboard, Board as CoreBoard, Color, Move as CoreMove, Notation, Position, Role, RuleSet,
    Variant,
};

/// A position as Python draw rules read it (see `_draw_history`).
type DrawSnapshot = (u64, bool, u32, u32, u32, u32, u32, u32);

fn draw_snapshot(p: &Position) -> DrawSnapshot {
    let road = Bitboard::MAIN_ROAD;
    (
        p.hash(),
        color_bool(p.turn()),
        p.men(Color::White).count(),
        p.kings(Color::White).count(),
        p.men(Color::Black).count(),
        p.kings(Color::Black).count(),
        (p.kings(Color::White) & road).count(),
        (p.kings(Color::Black) & road).count(),
    )
}

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

/// A position with its history (the core's [`CoreBoard`]).
#[pyclass(module = "shashki", name = "Board", subclass)]
pub struct PyBoard {
    board: CoreBoard,
    cache: Option<Vec<CoreMove>>,
}

impl PyBoard {
    pub(crate) fn position(&self) -> Position {
        *self.board.position()
    }

    /// The game the board plays (what its moves' texts name squares by).
    pub(crate) fn variant_kind(&self) -> crate::Variant {
        self.board.position().rules().variant
    }

    pub(crate) fn core(&self) -> &CoreBoard {
        &self.board
    }

    fn moves(&mut self) -> &[CoreMove] {
        let pos = self.position();
        self.cache
            .get_or_insert_with(|| {
                let mut moves = pos.legal_moves().to_vec();
                moves.sort_by_key(|m| (m.from(), m.to(), m.captured().bits()));
                moves
            })
            .as_slice()
    }

    /// Start a new history at `pos` with the FEN's clocks.
    fn set_root(&mut self, pos: Position, (halfmove, fullmove): (u32, u32)) {
        self.board = CoreBoard::with_start_clocks(pos, halfmove, fullmove);
        self.cache = None;
    }

    /// Play a legal move (the caller has checked it).
    fn play(&mut self, m: CoreMove) {
        self.board.push_unchecked(m);
        self.cache = None;
    }

    /// Set up an edited position and clear the stack; ValueError (board unchanged) when it
    /// is not a legal setup.
    fn set_setup(&mut self, setup: &crate::Setup) -> PyResult<()> {
        let pos = Position::from_setup_in(setup, self.position().rules())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.set_root(pos, (0, 1));
        Ok(())
    }

    /// Take `other`'s position and, with `stack`, its history (else a new one at its
    /// position).
    fn take(&mut self, other: &PyBoard, stack: bool) {
        if stack {
            self.board = other.board.clone();
            self.cache = other.cache.clone();
        } else {
            self.set_root(other.position(), (0, 1));
        }
    }

    fn illegal(&self, m: &CoreMove) -> PyErr {
        IllegalMoveError::new_err(format!(
            "illegal move {}: {}",
            m.long_text_on(self.board.position().geometry()),
            notation::explain_illegal(self.board.position(), m.from(), m.to())
        ))
    }
}

/// A FEN in the numbering of the game played under `rules`, with its clocks.
pub(crate) fn parse_fen_with_clocks(
    text: &str,
    rules: RuleSet,
) -> PyResult<(Position, (u32, u32))> {
    let parsed = fen::parse_fen_numbered(text, rules.variant.numbering())
        .map_err(|e| FenError::new_err(e.to_string()))?;
    let pos = Position::from_setup_in(&parsed.setup, rules)
        .map_err(|e| FenError::new_err(e.to_string()))?;
    let clocks = (
        parsed.halfmove_clock.unwrap_or(0),
        parsed.fullmove_number.unwrap_or(1).max(1),
    );
    Ok((pos, clocks))
}

/// The rules named by a `variant` and `captures_optional` argument pair, for a `Board`
/// (the games of the 64-bit word's boards; the 12×12 board's are refused with a pointer
/// to what takes them).
pub(crate) fn rules_arg(
    variant: Option<&Bound<'_, PyAny>>,
    captures_optional: bool,
) -> PyResult<RuleSet> {
    let rules = rules_arg_any(variant, captures_optional)?;
    let variant = rules.variant;
    if variant.geometry().is_wide() {
        return Err(PyValueError::new_err(format!(
            "{} draughts is played on the 12×12 board, which a Board does not hold yet: \
             count its perft with perft_many(fens, depth, variant={:?}) and list its moves \
             with child_positions(fen, variant={:?})",
            variant.name(),
            variant.name(),
            variant.name()
        )));
    }
    Ok(rules)
}

/// [`rules_arg`] of any game, the 12×12 board's included.
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
        let rules = rules_arg(variant, captures_optional)?;
        let (pos, (halfmove, fullmove)) = match fen {
            Some(text) if !text.is_none() => parse_fen_with_clocks(&fen_text(text)?, rules)?,
            _ => (Position::start_of(rules), (0, 1)),
        };
        Ok(PyBoard {
            board: CoreBoard::with_start_clocks(pos.with_rules(rules), halfmove, fullmove),
            cache: None,
        })
    }

    /// The game played: `"russian"`, `"giveaway"`, `"brazilian"`, `"english"`, … (one of
    /// `shashki.VARIANTS`).
    #[getter]
    fn variant(&self) -> &'static str {
        self.position().rules().variant.name()
    }

    /// Whether a quiet move is legal beside a capture (a house rule of some playing sites).
    #[getter]
    fn captures_optional(&self) -> bool {
        self.position().rules().captures_optional
    }

    /// The clocks of the FEN the board was set up from: `(halfmove, fullmove)`, `(0, 1)`
    /// when it gave none.
    #[getter]
    fn _start_clocks(&self) -> (u32, u32) {
        self.board.start_clocks()
    }

    /// Plies since the last capture or man move (lidraughts' `H`): the FEN's count goes on
    /// while only kings move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.board.halfmove_clock()
    }

    /// The move number: the FEN's `F` (1 if it gave none), plus one after every move of
    /// Black.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.board.fullmove_number()
    }

    /// Whether the position has occurred `count` times (3 by default), this time included,
    /// counting the positions since the last capture or man move.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: u32) -> bool {
        self.board.occurrences() >= count
    }

    /// A board at the first position of the history, with the FEN's clocks.
    fn root<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let new = slf.get_type().call0()?;
        {
            let me = slf.borrow();
            let other = new.cast::<PyBoard>()?;
            let mut other = other.borrow_mut();
            other.set_root(*me.board.root(), me.board.start_clocks());
        }
        Ok(new)
    }

    /// Put `piece` on `square` (None empties it); the move stack is cleared. A man on its
    /// own crowning rank is refused (ValueError), the board unchanged.
    #[pyo3(signature = (square, piece))]
    fn set_piece_at(
        &mut self,
        square: &Bound<'_, PyAny>,
        piece: Option<PyRef<'_, PyPiece>>,
    ) -> PyResult<()> {
        let sq = square_arg_on(square, self.position().geometry())?;
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
            let set = match (p.color, p.king) {
                (true, false) => &mut setup.white_men,
                (true, true) => &mut setup.white_kings,
                (false, false) => &mut setup.black_men,
                (false, true) => &mut setup.black_kings,
            };
            *set = set.with(sq);
        }
        self.set_setup(&setup)
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
        let setup = crate::Setup {
            turn: Some(Color::White),
            ..crate::Setup::default()
        };
        self.set_setup(&setup)
    }

    /// The position turned half round with the colours swapped (White's man on c3 becomes
    /// Black's man on f6) and the other side to move: the same game seen from the other
    /// side (same perft). A new board without a move stack.
    fn mirror<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let new = slf.get_type().call0()?;
        {
            let me = slf.borrow();
            let mirrored = me.position().mirrored();
            let other = new.cast::<PyBoard>()?;
            let mut other = other.borrow_mut();
            other.set_root(mirrored.with_rules(me.position().rules()), (0, 1));
        }
        Ok(new)
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
        Ok(fen::write_fen(self.board.position(), notation))
    }

    /// Set up a FEN and clear the move stack; on a bad FEN the board is unchanged.
    fn set_fen(&mut self, fen: &Bound<'_, PyAny>) -> PyResult<()> {
        let (pos, clocks) = parse_fen_with_clocks(&fen_text(fen)?, self.position().rules())?;
        self.set_root(pos, clocks);
        Ok(())
    }

    /// The side to move: `True` (WHITE) or `False` (BLACK).
    #[getter]
    fn turn(&self) -> bool {
        color_bool(self.board.position().turn())
    }

    /// The Zobrist hash of the position.
    fn zobrist_hash(&self) -> u64 {
        self.board.position().hash()
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
        self.board.position().has_captures()
    }

    /// A side's run of quiet moves by one king, where the rules limit it (Frisian: three
    /// in a row while men remain): `(moves made, square index of the king)`, or `None`.
    fn king_run(&self, color: bool) -> Option<(u8, usize)> {
        let pos = self.board.position();
        let color = if color { Color::White } else { Color::Black };
        pos.king_run(color)
            .map(|(count, sq)| (count, pos.geometry().index_on_board(sq)))
    }

    /// Whether `move` is legal here.
    fn is_legal(&mut self, r#move: PyRef<'_, PyMove>) -> bool {
        let m = r#move.inner;
        self.moves().contains(&m)
    }

    /// Play a legal move; raises IllegalMoveError (board unchanged) otherwise.
    fn push(&mut self, r#move: PyRef<'_, PyMove>) -> PyResult<()> {
        let m = r#move.inner;
        let found = self.moves().iter().find(|l| **l == m).copied();
        match found {
            Some(legal) => {
                // Keep the caller's path when it is a valid order of the same capture.
                let played = if legal.path() == m.path() { m } else { legal };
                self.play(played);
                Ok(())
            }
            None => Err(self.illegal(&m)),
        }
    }

    /// Undo the last move and return it; IndexError when there is none.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        match self.board.pop() {
            Some(m) => {
                self.cache = None;
                wrap(py, m, self.variant_kind())
            }
            None => Err(PyIndexError::new_err(
                "pop from a board with no moves played",
            )),
        }
    }

    /// The last move played; IndexError when there is none.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        match self.board.moves().next_back() {
            Some(m) => wrap(py, m, self.variant_kind()),
            None => Err(PyIndexError::new_err(
                "peek at a board with no moves played",
            )),
        }
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<Py<PyMove>> = self
            .board
            .moves()
            .map(|m| wrap(py, m, self.variant_kind()))
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// The move denoted by `text`: `c3-d4`, `e3:c5:e7`, `e3xe7`, `22-18`, `22x15`.
    /// Raises InvalidMoveError, IllegalMoveError or AmbiguousMoveError.
    fn parse_move(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let text = move_text_arg(text)?;
        let m = notation::parse_move(self.board.position(), &text).map_err(move_text_err)?;
        wrap(py, m, self.variant_kind())
    }

    /// Parse `text`, play it and return the move.
    fn push_move(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let text = move_text_arg(text)?;
        let m = notation::parse_move(self.board.position(), &text).map_err(move_text_err)?;
        self.play(m);
        wrap(py, m, self.variant_kind())
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
        for text in &texts {
            let parsed = move_text_arg(text).and_then(|t| {
                notation::parse_move(self.board.position(), &t).map_err(move_text_err)
            });
            match parsed {
                Ok(m) => {
                    self.play(m);
                    played.push(wrap(py, m, self.variant_kind())?);
                }
                Err(e) => return Ok((played, Some(e.into_value(py).into_any()))),
            }
        }
        Ok((played, None))
    }

    /// PDN text of a legal move: short form (begin and end square) unless another legal
    /// capture shares both, or `long` is true.
    #[pyo3(signature = (r#move, notation = None, long = false))]
    fn move_text(
        &mut self,
        r#move: PyRef<'_, PyMove>,
        notation: Option<&Bound<'_, PyAny>>,
        long: bool,
    ) -> PyResult<String> {
        let m = r#move.inner;
        let notation = match notation {
            Some(n) => notation_arg(n)?,
            None => Notation::Algebraic,
        };
        if !self.moves().contains(&m) {
            return Err(self.illegal(&m));
        }
        Ok(notation::move_text(
            self.board.position(),
            &m,
            notation,
            long,
        ))
    }

    /// The piece on `square`, or None.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let sq = square_arg_on(square, self.board.position().geometry())?;
        Ok(self.board.position().piece_at(sq).map(|p| PyPiece {
            color: color_bool(p.color),
            king: p.role == Role::King,
        }))
    }

    // ---- the draw rules ----------------------------------------------------------------

    /// The counts of every rule of `rules` whose condition holds now: `(rule index, done,
    /// limit, unit)`.
    fn _draw_counts(&self, rules: PyRef<'_, PyDrawRules>) -> Vec<(usize, u32, u32, &'static str)> {
        rules
            .rules
            .counts(&self.board.draw_context())
            .into_iter()
            .map(|c| (c.rule, c.done, c.limit, c.unit.name()))
            .collect()
    }

    /// The first rule of `rules` (automatic, then with `claim` the claimable ones) that has
    /// drawn the current position, or None.
    #[pyo3(signature = (rules, claim = false))]
    fn _draw_reached(&self, rules: PyRef<'_, PyDrawRules>, claim: bool) -> Option<usize> {
        rules.rules.reached(&self.board.draw_context(), claim)
    }

    /// The first position, from the one after `start` moves on, at which an automatic rule
    /// drew the game: `(ply, rule index)`, or None.
    fn _first_draw(&self, rules: PyRef<'_, PyDrawRules>, start: usize) -> Option<(usize, usize)> {
        self.board.first_draw(&rules.rules, start)
    }

    /// What draw rules written in Python read (`shashki.draw.History`): for every position
    /// of the history, `(hash, turn, white men, white kings, black men, black kings, white
    /// kings on the main road, black kings on it)`, and for every ply `(mover, king moved,
    /// capture, promotion)`.
    #[allow(clippy::type_complexity)]
    fn _draw_history(&self) -> (Vec<DrawSnapshot>, Vec<(bool, bool, bool, bool)>) {
        let snapshots = (0..=self.board.plies())
            .filter_map(|ply| self.board.at(ply).map(|(pos, _)| draw_snapshot(pos)))
            .collect();
        let plies = (0..self.board.plies())
            .filter_map(|ply| self.board.ply_facts(ply))
            .map(|f| (color_bool(f.mover), f.king_moved, f.capture, f.promotion))
            .collect();
        (snapshots, plies)
    }

    /// The search's own verdict on the current position, as it judges a node: a draw when
    /// the position occurred before with the same side to move (in the search a repetition
    /// is a draw at once) or an automatic rule of `rules` other than repetition holds.
    fn _search_draw(&self, rules: PyRef<'_, PyDrawRules>) -> bool {
        crate::search::is_draw_node(&self.board, &rules.rules)
    }

    /// The winner when the game is decided on the board (a side has no pieces, or the side
    /// to move has no move: it loses, in giveaway wins), else None.
    fn _decided(&self) -> Option<bool> {
        self.board.decided().map(|c| c == Color::White)
    }

    /// The squares of `color`'s pieces; `king=True` for kings only, `False` for men only.
    #[pyo3(signature = (color, king = None))]
    fn pieces(&self, color: bool, king: Option<bool>) -> Vec<usize> {
        let c = if color { Color::White } else { Color::Black };
        let set = match king {
            None => self.board.position().pieces(c),
            Some(true) => self.board.position().kings(c),
            Some(false) => self.board.position().men(c),
        };
        let geometry = self.board.position().geometry();
        set.iter().map(|sq| geometry.index_on_board(sq)).collect()
    }

    /// A copy; `stack=False` leaves out the move history.
    #[pyo3(signature = (*, stack = true))]
    fn copy<'py>(slf: &Bound<'py, Self>, stack: bool) -> PyResult<Bound<'py, PyAny>> {
        let new = slf.get_type().call0()?;
        {
            let me = slf.borrow();
            let other = new.cast::<PyBoard>()?;
            let mut other = other.borrow_mut();
            other.take(&me, stack);
        }
        Ok(new)
    }

    /// Take `other`'s position, clocks and (with `stack`) move stack.
    #[pyo3(signature = (other, stack = true))]
    fn _copy_from(&mut self, other: PyRef<'_, PyBoard>, stack: bool) {
        self.take(&other, stack);
    }

    /// Same position and side to move (the histories are not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyBoard>() {
            Ok(o) => o.borrow().board.position() == self.board.position(),
            Err(_) => false,
        }
    }

    fn __str__(&self) -> String {
        diagram(self.board.position())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let name = slf.get_type().name()?;
        let me = slf.borrow();
        let rules = me.position().rules();
        let mut extra = String::new();
        if rules.variant != Variant::Russian {
            extra.push_str(&format!(", variant='{}'", rules.variant.name()));
        }
        if rules.captures_optional {
            extra.push_str(", captures_optional=True");
        }
        Ok(format!(
            "{}('{}'{})",
            name,
            fen::write_fen(me.board.position(), Notation::Numeric),
            extra
        ))
    }
}

/// ASCII board, White at the bottom.
fn diagram(pos: &Position) -> String {
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

impl LegalMoves {
    fn list<'py>(&self, py: Python<'py>) -> PyResult<Vec<Py<PyMove>>> {
        let mut b = self.board.bind(py).borrow_mut();
        let variant = b.variant_kind();
        b.moves()
            .to_vec()
            .into_iter()
            .map(|m| wrap(py, m, variant))
            .collect()
    }
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.board.bind(py).borrow_mut().moves().len()
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        !self.board.bind(py).borrow_mut().moves().is_empty()
    }

    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> bool {
        match item.cast::<PyMove>() {
            Ok(m) => {
                let m = m.get().inner;
                self.board.bind(py).borrow_mut().moves().contains(&m)
            }
            Err(_) => false,
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.list(py)?)?
            .try_iter()
            .map(|i| i.into_any())
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyMove>> {
        let index = args::int_in(
            index,
            "legal move index",
            isize::MIN as i64,
            isize::MAX as i64,
            PyIndexError::new_err,
        );
        let mut b = self.board.bind(py).borrow_mut();
        let variant = b.variant_kind();
        let moves = b.moves();
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

    fn __repr__(&self, py: Python<'_>) -> String {
        let mut b = self.board.bind(py).borrow_mut();
        let geometry = b.position().geometry();
        let texts: Vec<String> = b.moves().iter().map(|m| m.long_text_on(geometry)).collect();
        format!("<LegalMoves ({})>", texts.join(", "))
    }
}
