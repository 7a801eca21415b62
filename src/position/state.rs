//! Positions: an unvalidated [`Setup`] and the validated [`Position`].

use crate::error::PositionError;
use crate::games::{MoveRules, RuleSet, StartKind, Variant, CODE_FACTS};
use crate::geometry::{Bitboard, Color, Geometry, Piece, Role, Square, Word};
use crate::position::runs::{run, run_key, run_of};
use crate::position::zobrist;

/// Pieces on squares and a side to move, not yet checked: what a FEN parses into.
///
/// `W` is the word of the board's layout (the 64-bit one unless the board is 12×12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Setup<W: Word = u64> {
    /// White men.
    pub white_men: Bitboard<W>,
    /// White kings.
    pub white_kings: Bitboard<W>,
    /// Black men.
    pub black_men: Bitboard<W>,
    /// Black kings.
    pub black_kings: Bitboard<W>,
    /// Side to move; `None` stands for White.
    pub turn: Option<Color>,
}

impl Setup {
    /// The start position of the 8×8 board: White on ranks 1–3, Black on ranks 6–8, White to
    /// move.
    pub fn start() -> Setup {
        Setup::rows(Geometry::EIGHT, 3)
    }

    /// Check the setup on the 8×8 board ([`Setup::validate_on`]).
    pub fn validate(&self) -> Result<(), PositionError> {
        self.validate_on(Geometry::EIGHT)
    }
}

impl<W: Word> Setup<W> {
    /// Men on the `rows` nearest ranks of each side of `geometry`'s board, White to move.
    pub fn rows(geometry: &Geometry, rows: u8) -> Setup<W> {
        let mut white = Bitboard::EMPTY;
        let mut black = Bitboard::EMPTY;
        for r in 0..rows {
            white |= geometry.rank_in::<W>(r);
            black |= geometry.rank_in::<W>(geometry.size() - 1 - r);
        }
        Setup::men(white, black)
    }

    /// White's men `white` and Black's `black`, no kings, White to move.
    pub fn men(white: Bitboard<W>, black: Bitboard<W>) -> Setup<W> {
        Setup {
            white_men: white,
            white_kings: Bitboard::EMPTY,
            black_men: black,
            black_kings: Bitboard::EMPTY,
            turn: Some(Color::White),
        }
    }

    /// Men of the side `side(file, rank)` names on each square of the board (none where it
    /// names none), White to move.
    fn split(g: &Geometry, side: impl Fn(u8, u8) -> Option<Color>) -> Setup<W> {
        let (mut white, mut black) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for &sq in g.squares() {
            match side(g.file_of(sq), g.rank_of(sq)) {
                Some(Color::White) => white |= Bitboard::from(sq),
                Some(Color::Black) => black |= Bitboard::from(sq),
                None => {}
            }
        }
        Setup::men(white, black)
    }

    /// Check the setup on `geometry`'s board: every piece on the board, no square twice, no
    /// man on its own crowning rank.
    pub fn validate_on(&self, geometry: &Geometry) -> Result<(), PositionError> {
        if geometry.is_wide() != (W::BITS > 64) {
            return Err(PositionError::WrongWord);
        }
        let sets = [
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
        ];
        let mut seen = Bitboard::EMPTY;
        for set in sets {
            if let Some(sq) = (seen & set).first() {
                return Err(PositionError::SquareTwice(sq));
            }
            seen |= set;
        }
        if let Some(sq) = (seen & !geometry.board_in::<W>()).first() {
            return Err(PositionError::OffBoard(sq));
        }
        if !geometry.crowns() {
            return Ok(());
        }
        if let Some(sq) = (self.white_men & geometry.rank_in::<W>(geometry.size() - 1)).first() {
            return Err(PositionError::ManOnCrowningRank(sq));
        }
        if let Some(sq) = (self.black_men & geometry.rank_in::<W>(0)).first() {
            return Err(PositionError::ManOnCrowningRank(sq));
        }
        Ok(())
    }
}

/// A legal position: pieces, side to move and its Zobrist hash.
///
/// Any number of pieces per side is allowed (problem positions and random setups), including
/// none: a side to move without pieces or moves has lost.
///
/// `W` is the word of the board's layout ([`Word`]): the 64-bit one for the boards up to
/// 10×10 (the default), the 128-bit one for the 12×12 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<W: Word = u64> {
    pub(crate) by_color: [Bitboard<W>; 2],
    /// The kings of both sides.
    pub(crate) kings: Bitboard<W>,
    pub(crate) turn: Color,
    /// The position's rules ([`RuleSet::code`], 0 for Russian), in a byte the struct's
    /// padding had free: the rules travel with the position at no cost to copying it, and
    /// every bit of the boards can be a square (Turkish draughts uses all 64).
    pub(crate) rules: u8,
    /// Each side's run of quiet moves by one king, where the rules limit it (Frisian;
    /// `crate::orthogonal`): the moves made in the top two bits, the king's square bit
    /// below; 0 for none, and always 0 in the other games. Part of the position: it
    /// decides which moves are legal, and it is in the hash.
    pub(crate) king_runs: [u8; 2],
    pub(crate) hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        Position::from_setup(&Setup::start()).unwrap_or_else(|_| unreachable!())
    }

    /// The position of a setup on the 8×8 board under Russian rules, or what is wrong with it.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        Position::from_setup_in(setup, RuleSet::RUSSIAN)
    }

    /// The start position of a rule set's variant, played under those rules (a game of
    /// the 64-bit word's boards; [`Position::start_in`] for any).
    ///
    /// # Panics
    ///
    /// If the game is played on the 12×12 board (Canadian draughts), which a 64-bit
    /// position cannot hold: use `Position::<u128>::start_in`.
    pub fn start_of(rules: RuleSet) -> Position {
        Position::start_in(rules).unwrap_or_else(|_| unreachable!())
    }
}

impl<W: Word> Position<W> {
    /// The start position of a rule set's variant in the word `W`, or
    /// [`PositionError::WrongWord`] when its board is not of that word.
    pub fn start_in(rules: RuleSet) -> Result<Position<W>, PositionError> {
        Position::from_setup_in(&rules.variant.start_setup_in::<W>(), rules)
    }

    /// The position of a setup played under `rules` (on their game's board), or what is
    /// wrong with it.
    pub fn from_setup_in(setup: &Setup<W>, rules: RuleSet) -> Result<Position<W>, PositionError> {
        setup.validate_on(rules.variant.geometry())?;
        let mut pos = Position::from_valid_setup_unhashed(setup).with_rules(rules);
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The board the position is played on.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.rules().variant.geometry()
    }

    /// The position of a setup known to be valid, without its hash (0): for the endgame
    /// table builder, which only ranks positions and asks for captures.
    #[inline]
    pub(crate) fn from_valid_setup_unhashed(setup: &Setup<W>) -> Position<W> {
        Position {
            by_color: [
                setup.white_men | setup.white_kings,
                setup.black_men | setup.black_kings,
            ],
            kings: setup.white_kings | setup.black_kings,
            turn: setup.turn.unwrap_or(Color::White),
            rules: 0,
            king_runs: [0; 2],
            hash: 0,
        }
    }

    /// The rules the position is played under.
    #[inline]
    pub fn rules(&self) -> RuleSet {
        RuleSet::from_code(self.rules_code())
    }

    /// The rules as their one-byte code ([`RuleSet::code`]).
    #[inline(always)]
    pub(crate) fn rules_code(&self) -> u8 {
        self.rules
    }

    /// Whether a side without moves wins here (giveaway) rather than loses.
    #[inline]
    pub fn no_moves_wins(&self) -> bool {
        CODE_FACTS[usize::from(self.rules_code())].no_moves_wins
    }

    /// Уголки's end by filling: `Some(winner)` (`Some(None)` a draw) once a side has filled
    /// the other's house and Black has had its reply (such a position has no moves); `None`
    /// while the game goes on, and in every other game.
    #[inline]
    pub fn filled_result(&self) -> Option<Option<Color>> {
        if !matches!(
            CODE_FACTS[usize::from(self.rules_code())].moves,
            MoveRules::Ugolki
        ) {
            return None;
        }
        self.filled_result_cold()
    }

    #[cold]
    fn filled_result_cold(&self) -> Option<Option<Color>> {
        filled(
            self.turn,
            self.by_color[0].0.low64(),
            self.by_color[1].0.low64(),
            crate::games::HOUSES[self.rules().variant as usize],
        )
    }

    /// Who has won when the side to move has no legal move: the other side, or in a
    /// variant where having no move wins (giveaway), the side to move (уголки's filled
    /// houses: [`Position::filled_result`]; a draw there is reported as the other side's
    /// win by this function, which callers that can draw ask that one first).
    pub fn winner_without_moves(&self) -> Color {
        if let Some(Some(winner)) = self.filled_result() {
            return winner;
        }
        if self.no_moves_wins() {
            self.turn()
        } else {
            !self.turn()
        }
    }

    /// The same pieces played under other rules: rules of a game on a board of the other
    /// word (Canadian draughts' for a 64-bit position, any other game's for a 128-bit one)
    /// are not applied, and the position keeps its rules.
    #[inline]
    pub fn with_rules(mut self, rules: RuleSet) -> Position<W> {
        if rules.variant.geometry().is_wide() != (W::BITS > 64) {
            return self;
        }
        self.rules = rules.code();
        if self.king_runs != [0; 2] && !CODE_FACTS[usize::from(rules.code())].king_runs {
            for color in [Color::White, Color::Black] {
                self.hash ^= run_key(color, self.king_runs[color.index()]);
            }
            self.king_runs = [0; 2];
        }
        self
    }

    /// The same pieces with these runs of quiet king moves (`king_runs`' encoding: see
    /// [`Position::king_run`]), the hash kept; for the endgame tables' index, which gives
    /// only runs of a king of the side on its square, in a game that keeps them.
    pub(crate) fn with_king_runs(mut self, runs: [u8; 2]) -> Position<W> {
        for color in [Color::White, Color::Black] {
            let i = color.index();
            self.hash ^= run_key(color, self.king_runs[i]) ^ run_key(color, runs[i]);
        }
        self.king_runs = runs;
        self
    }

    /// Back to an unvalidated setup.
    pub fn setup(&self) -> Setup<W> {
        Setup {
            white_men: self.men(Color::White),
            white_kings: self.kings(Color::White),
            black_men: self.men(Color::Black),
            black_kings: self.kings(Color::Black),
            turn: Some(self.turn),
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash, kept up to date incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch (equals [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in [Color::White, Color::Black] {
            h ^= zobrist::squares_key(color, Role::Man, self.men(color));
            h ^= zobrist::squares_key(color, Role::King, self.kings(color));
        }
        if self.turn == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        for color in [Color::White, Color::Black] {
            h ^= run_key(color, self.king_runs[color.index()]);
        }
        h
    }

    /// A side's run of quiet moves by one king, where the rules limit it (Frisian): the
    /// moves made and the king's square; `None` when it has no run.
    pub fn king_run(&self, color: Color) -> Option<(u8, Square)> {
        let (count, bit) = run_of(self.king_runs[color.index()]);
        (count > 0).then(|| (count, Square::from_bit_unchecked(bit)))
    }

    /// All pieces of a side.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard<W> {
        self.by_color[color.index()]
    }

    /// The men of a side.
    #[inline]
    pub fn men(&self, color: Color) -> Bitboard<W> {
        Bitboard(self.by_color[color.index()].0 & !self.kings.0)
    }

    /// The kings of a side.
    #[inline]
    pub fn kings(&self, color: Color) -> Bitboard<W> {
        self.by_color[color.index()] & self.kings
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard<W> {
        self.by_color[0] | self.by_color[1]
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else if self.by_color[1].contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings.contains(sq) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// Move the piece on internal bit `from` to `to`, remove `captured`, crown if `promotes`,
    /// and pass the turn. With `HASH` false the hash is left stale (perft without a table).
    #[inline(always)]
    pub(crate) fn apply<const HASH: bool>(
        &mut self,
        from: u32,
        to: u32,
        captured: W,
        promotes: bool,
    ) {
        let us = self.turn.index();
        let from_bb = W::bit(from);
        let to_bb = W::bit(to);
        let was_king = !(self.kings.0 & from_bb).is_zero();
        let is_king = was_king || promotes;
        if HASH {
            let role = |king: bool| if king { Role::King } else { Role::Man };
            self.hash ^= zobrist::piece_key_in::<W>(self.turn, role(was_king), from)
                ^ zobrist::piece_key_in::<W>(self.turn, role(is_king), to)
                ^ zobrist::BLACK_TO_MOVE;
            if !captured.is_zero() {
                let them_color = !self.turn;
                self.hash ^=
                    zobrist::squares_key(them_color, Role::Man, Bitboard(captured & !self.kings.0))
                        ^ zobrist::squares_key(
                            them_color,
                            Role::King,
                            Bitboard(captured & self.kings.0),
                        );
            }
        }
        self.by_color[us].0 = (self.by_color[us].0 & !from_bb) | to_bb;
        self.by_color[1 - us].0 &= !captured;
        self.kings.0 &= !(from_bb | captured);
        self.kings.0 |= to_bb & W::all_if(is_king);
        self.turn = !self.turn;
    }

    /// [`Position::apply`] where the pieces taken may include the mover's own (Samoedy):
    /// those leave the board too.
    pub(crate) fn apply_own<const HASH: bool>(
        &mut self,
        from: u32,
        to: u32,
        captured: W,
        promotes: bool,
    ) {
        let us = self.turn.index();
        let own = captured & self.by_color[us].0;
        if !own.is_zero() {
            if HASH {
                self.hash ^=
                    zobrist::squares_key(self.turn, Role::Man, Bitboard(own & !self.kings.0))
                        ^ zobrist::squares_key(self.turn, Role::King, Bitboard(own & self.kings.0));
            }
            self.by_color[us].0 &= !own;
            self.kings.0 &= !own;
        }
        self.apply::<HASH>(from, to, captured & !own, promotes);
    }

    /// [`Position::apply`] where the piece moved may be of the other colour (Stavropol):
    /// such a move is played as that colour's (it takes the side to move's pieces), and the
    /// turn then passes as after any move.
    pub(crate) fn apply_either<const HASH: bool>(
        &mut self,
        from: u32,
        to: u32,
        captured: W,
        promotes: bool,
    ) {
        if !(self.by_color[self.turn.index()].0 & W::bit(from)).is_zero() {
            return self.apply::<HASH>(from, to, captured, promotes);
        }
        self.turn = !self.turn;
        self.apply::<HASH>(from, to, captured, promotes); // toggles the hash's side once
        self.turn = !self.turn;
    }

    /// The position turned half round with the colours swapped and the other side to
    /// move (White's man on c3 becomes Black's man on f6): the same game seen from the
    /// other side, under the same rules.
    pub fn mirrored(&self) -> Position<W> {
        // A man never stands on its own crowning rank, so its mirror image never does.
        let mut p = Position::from_setup_in(&self.mirror_setup(), self.rules())
            .unwrap_or_else(|_| unreachable!());
        if self.king_runs != [0; 2] {
            p.king_runs = self.mirror_runs();
            for color in [Color::White, Color::Black] {
                p.hash ^= run_key(color, p.king_runs[color.index()]);
            }
        }
        p
    }

    /// [`Position::mirrored`] without its hash (0), for the endgame tables' index.
    pub(crate) fn mirrored_unhashed(&self) -> Position<W> {
        let mut p =
            Position::from_valid_setup_unhashed(&self.mirror_setup()).with_rules(self.rules());
        p.king_runs = self.mirror_runs();
        p
    }

    /// Each side's run of quiet king moves (Frisian) as the mirror image has them: White's
    /// becomes Black's, on the square turned half round.
    fn mirror_runs(&self) -> [u8; 2] {
        if self.king_runs == [0; 2] {
            return [0; 2];
        }
        let geometry = self.geometry();
        let turned = |r: u8| {
            if r == 0 {
                return 0;
            }
            let (count, bit) = run_of(r);
            run(
                count,
                geometry.turned(Square::from_bit_unchecked(bit)).bit(),
            )
        };
        [turned(self.king_runs[1]), turned(self.king_runs[0])]
    }

    fn mirror_setup(&self) -> Setup<W> {
        let geometry = self.geometry();
        let turn = |set: Bitboard<W>| -> Bitboard<W> {
            set.iter()
                .map(|sq| geometry.turned(sq))
                .fold(Bitboard::EMPTY, |b, sq| b.with(sq))
        };
        Setup {
            white_men: turn(self.men(Color::Black)),
            white_kings: turn(self.kings(Color::Black)),
            black_men: turn(self.men(Color::White)),
            black_kings: turn(self.kings(Color::White)),
            turn: Some(!self.turn),
        }
    }

    /// The same pieces with the other side to move (for analysis; not a legal move).
    pub fn with_turn(&self, turn: Color) -> Position<W> {
        let mut p = *self;
        if p.turn != turn {
            p.turn = turn;
            p.hash ^= zobrist::BLACK_TO_MOVE;
        }
        p
    }
}

impl Position {
    /// The runs after the move `from` → `to` taking `captured`, played in `before`, gave
    /// `after` (whose pieces are already moved): a quiet king move of a side that has men
    /// lengthens its run (or starts one for another king); any other move ends the mover's
    /// run; the opponent's run ends with its king taken, or when it has no men or no kings
    /// left.
    #[inline]
    pub(crate) fn update_runs<const HASH: bool>(
        &mut self,
        before: &Position,
        from: u32,
        to: u32,
        captured: u64,
    ) {
        let after = self;
        let mover = before.turn();
        let other = !mover;
        let (mi, oi) = (mover.index(), other.index());
        let old = before.king_runs;
        let mut new = old;
        let was_king = before.kings.0 & (1u64 << from) != 0;
        new[mi] = if was_king && captured == 0 && !after.men(mover).is_empty() {
            let (count, square) = run_of(old[mi]);
            let count = if count > 0 && square == from {
                count + 1
            } else {
                1
            };
            run(count, to)
        } else {
            0
        };
        if captured != 0 && old[oi] != 0 {
            let (_, square) = run_of(old[oi]);
            if captured & (1u64 << square) != 0
                || after.men(other).is_empty()
                || after.kings(other).is_empty()
            {
                new[oi] = 0;
            }
        }
        if HASH {
            for color in [Color::White, Color::Black] {
                let i = color.index();
                if new[i] != old[i] {
                    after.hash ^= run_key(color, old[i]) ^ run_key(color, new[i]);
                }
            }
        }
        after.king_runs = new;
    }
}

impl Variant {
    /// The start position of the game, its first side to move.
    pub fn start_setup(self) -> Setup {
        self.start_setup_in::<u64>()
    }

    /// [`Variant::start_setup`] in the word `W` of the game's board.
    pub fn start_setup_in<W: Word>(self) -> Setup<W> {
        let mut setup = match self.info().start {
            StartKind::ThreeRows => Setup::rows(self.geometry(), 3),
            StartKind::TwoRows => Setup::rows(self.geometry(), 2),
            StartKind::FourRows => Setup::rows(self.geometry(), 4),
            StartKind::FiveRows => Setup::rows(self.geometry(), 5),
            StartKind::BackRow => Setup::rows(self.geometry(), 1),
            StartKind::SecondAndThirdRanks => {
                let g = self.geometry();
                Setup::men(
                    g.rank_in::<W>(1) | g.rank_in::<W>(2),
                    g.rank_in::<W>(g.size() - 2) | g.rank_in::<W>(g.size() - 3),
                )
            }
            StartKind::Corners { files, ranks } => {
                // Уголки: each side's house in its corner.
                let n = self.geometry().size();
                Setup::split(self.geometry(), |file, rank| {
                    if file < files && rank < ranks {
                        Some(Color::White)
                    } else if file >= n - files && rank >= n - ranks {
                        Some(Color::Black)
                    } else {
                        None
                    }
                })
            }
            StartKind::Diagonal => Setup::split(self.geometry(), |file, rank| {
                // The main road empty, White's men right of it, Black's left.
                match file.cmp(&rank) {
                    std::cmp::Ordering::Greater => Some(Color::White),
                    std::cmp::Ordering::Less => Some(Color::Black),
                    std::cmp::Ordering::Equal => None,
                }
            }),
        };
        setup.turn = Some(self.first());
        setup
    }
}

/// Уголки's end by filling (`Position::filled_result`) of the pieces `white` and `black`
/// with `turn` to move, `houses` White's and Black's ([`crate::games::HOUSES`]): only a
/// position with White to move can be over (Black has had its reply); whoever alone has
/// filled the other's house has won, both filled is a draw.
#[inline]
pub(crate) fn filled(
    turn: Color,
    white: u64,
    black: u64,
    houses: [u64; 2],
) -> Option<Option<Color>> {
    if turn != Color::White {
        return None;
    }
    let white = white == houses[1];
    let black = black == houses[0];
    match (white, black) {
        (false, false) => None,
        (true, true) => Some(None),
        (true, false) => Some(Some(Color::White)),
        (false, true) => Some(Some(Color::Black)),
    }
}
