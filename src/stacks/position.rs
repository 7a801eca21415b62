//! A position of a column game: the top pieces as a [`Position`] (what the move rules read),
//! and the columns under them.

use crate::error::FenError;
use crate::games::{RuleSet, Variant};
use crate::geometry::{Bitboard, Color, Geometry, Notation, Piece, Role, Square};
use crate::position::fen::{parse_fen_in_word, write_fen};
use crate::position::mv::{Move, MoveList, MAX_PATH};
use crate::position::state::Position;
use crate::position::zobrist;
use crate::rules::kinds::Counting;
use crate::stacks::column::{letter_piece, Column};
use crate::util::splitmix;

/// What tells two moves of a column game apart: the pieces taken, start, end, crowning and
/// the prisoners' ranks in the order taken.
type MoveKey = (u64, u8, u8, bool, u32);

/// The most squares of a column game's board (towers' 32; Lasca's 25).
pub(super) const SQUARES: usize = 32;

/// A position of a column game (towers, Lasca): a column of pieces on each occupied
/// square.
///
/// The move rules of these games are those of a diagonal game played by the columns' top
/// pieces (a column moves and captures as its top piece; a column jumped once in a move
/// blocks until the move ends, as a piece taken does in Russian draughts). So the tops are
/// a [`Position`] of the game's rules code, and its move generator lists the moves
/// unchanged; what differs is playing one: each column jumped loses its top piece (its
/// new top, of either colour, decides its new owner and rank), and the taken pieces go
/// under the moving column in the order taken. The columns beside the tops cost 256 bytes
/// a position; every other game's [`Position`] stays 40.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct StackPosition {
    pub(super) tops: Position,
    pub(super) columns: [Column; SQUARES],
    /// The hash of the columns of two pieces or more (their pieces under the tops).
    under: u64,
}

/// A column's share of the position's hash.
#[inline]
fn column_key(index: usize, column: Column) -> u64 {
    if column.height() < 2 {
        0
    } else {
        splitmix(column.bits() ^ (index as u64) << 40 ^ 0x5ca1_ab1e_0dd5_eed5)
    }
}

impl StackPosition {
    /// The start position of a column game.
    pub fn start(variant: Variant) -> Result<StackPosition, FenError> {
        let tops = Position::start_in(RuleSet::new(variant, false))
            .map_err(|e| FenError::new(0, "", e.to_string()))?;
        StackPosition::from_tops(tops)
    }

    /// One piece a column, as `tops` has them.
    fn from_tops(tops: Position) -> Result<StackPosition, FenError> {
        if !tops.rules().variant.info().stacks {
            return Err(FenError::new(
                0,
                "",
                format!(
                    "{} is not a column game (towers, lasca)",
                    tops.rules().variant.name()
                ),
            ));
        }
        let mut pos = StackPosition {
            tops,
            columns: [Column::EMPTY; SQUARES],
            under: 0,
        };
        for sq in tops.occupied().iter() {
            if let (Some(i), Some(p)) = (pos.index(sq), tops.piece_at(sq)) {
                pos.columns[i] = Column::single(p);
            }
        }
        Ok(pos)
    }

    #[inline]
    pub(super) fn geometry(&self) -> &'static Geometry {
        self.tops.geometry()
    }

    #[inline]
    pub(super) fn index(&self, sq: Square) -> Option<usize> {
        self.geometry().index(sq).filter(|&i| i < SQUARES)
    }

    /// The top pieces, as a position of the game's move rules.
    #[inline]
    pub fn tops(&self) -> &Position {
        &self.tops
    }

    /// The game.
    pub fn variant(&self) -> Variant {
        self.tops.rules().variant
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.tops.turn()
    }

    /// The Zobrist hash of the whole position: the tops' and the columns under them.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.tops.hash() ^ self.under
    }

    /// The column on `sq` (empty off the board).
    pub fn column(&self, sq: Square) -> Column {
        self.index(sq).map_or(Column::EMPTY, |i| self.columns[i])
    }

    /// The squares of the columns topped by `color`'s pieces.
    pub fn columns_of(&self, color: Color) -> Bitboard {
        self.tops.pieces(color)
    }

    /// Every piece of `color`, at the top of a column or under one.
    pub fn piece_count(&self, color: Color) -> u32 {
        let occupied = self.tops.occupied();
        occupied
            .iter()
            .map(|sq| {
                self.column(sq)
                    .pieces()
                    .filter(|p| p.color == color)
                    .count() as u32
            })
            .sum()
    }

    #[inline]
    pub(super) fn set_column<const HASH: bool>(&mut self, i: usize, column: Column) {
        if HASH {
            self.under ^= column_key(i, self.columns[i]) ^ column_key(i, column);
        }
        self.columns[i] = column;
    }

    /// The legal moves, one per position they lead to (convention A), or one per order of
    /// capture (convention B, [`Counting::Orders`]).
    ///
    /// Two captures with the same start, end and pieces taken are one move in the
    /// diagonal games; here the order in which the pieces were taken decides the order of
    /// the prisoners under the column, so two such captures are two moves when their
    /// prisoners' ranks come in another order (a king and a man taken round a loop one way
    /// or the other), and one when they lead to the same position.
    pub fn legal_moves_counting(&self, counting: Counting) -> MoveList {
        if self.western() {
            return self.western_moves(counting);
        }
        let mut list = MoveList::new();
        if !self.orders_matter(counting) {
            self.tops.legal_moves_into(counting, &mut list);
            return list;
        }
        self.tops.legal_moves_into(Counting::Orders, &mut list);
        if list.first().is_some_and(Move::is_capture) {
            let mut keys: smallvec::SmallVec<[MoveKey; 48]> = smallvec::SmallVec::new();
            list.retain(|m| {
                let key = (
                    m.captured.0,
                    m.from.bit() as u8,
                    m.to.bit() as u8,
                    m.promotes,
                    self.prisoner_ranks(m),
                );
                if keys.contains(&key) {
                    false
                } else {
                    keys.push(key);
                    true
                }
            });
        }
        list
    }

    /// Whether, under `counting`, two captures of the same pieces in other orders may be
    /// two moves where the diagonal games count one: in convention A, when the opponent's
    /// tops include kings and men (prisoners of one rank make every order the same
    /// position).
    #[inline]
    fn orders_matter(&self, counting: Counting) -> bool {
        let them = !self.turn();
        counting == Counting::Distinct && self.tops.kings(them).any() && self.tops.men(them).any()
    }

    /// The legal moves (convention A: one per position after it).
    pub fn legal_moves(&self) -> MoveList {
        self.legal_moves_counting(Counting::Distinct)
    }

    /// The number of legal moves under a counting convention.
    pub fn count_moves(&self, counting: Counting) -> u64 {
        if self.western() {
            return self.western_moves(counting).len() as u64;
        }
        if !self.orders_matter(counting) || !self.tops.has_captures() {
            return self.tops.count_moves(counting);
        }
        self.legal_moves_counting(counting).len() as u64
    }

    /// Whether the side to move must capture.
    pub fn has_captures(&self) -> bool {
        if self.western() {
            return self
                .western_moves(Counting::Orders)
                .first()
                .is_some_and(Move::is_capture);
        }
        self.tops.has_captures()
    }

    /// Whether the game is towers' western reading (its captures found on the columns,
    /// `crate::stacks::western`): one test per move list, outside the diagonal games.
    #[inline]
    pub(super) fn western(&self) -> bool {
        self.tops.rules().move_rules() == crate::games::MoveRules::TowersWestern
    }

    /// The squares a capture took its pieces from, in the order taken (read from its
    /// landing squares: each leg jumps one piece), and how many.
    fn capture_order(&self, m: &Move) -> ([Square; MAX_PATH], usize) {
        let g = self.geometry();
        let mut order = [Square::from_bit_unchecked(0); MAX_PATH];
        let mut n = 0;
        let mut at = m.from;
        for &next in m.path() {
            if let Some(sq) = leg_squares(g, at, next).find(|sq| m.captured.contains(*sq)) {
                if n < MAX_PATH {
                    order[n] = sq;
                    n += 1;
                }
            }
            at = next;
        }
        (order, n)
    }

    /// The ranks of a capture's prisoners in the order taken (bit `i`: the `i`-th is a
    /// king).
    fn prisoner_ranks(&self, m: &Move) -> u32 {
        let (order, n) = self.capture_order(m);
        let kings = self.tops.kings.0;
        order[..n]
            .iter()
            .enumerate()
            .map(|(i, sq)| u32::from(kings & (1 << sq.bit()) != 0) << i)
            .sum()
    }

    /// Play a move known to be legal here.
    #[inline]
    pub fn play_unchecked(&mut self, m: &Move) {
        self.play_hashed::<true>(m);
    }

    /// [`StackPosition::play_unchecked`]; with `HASH` false the hash is left stale (perft).
    #[inline]
    fn play_hashed<const HASH: bool>(&mut self, m: &Move) {
        if self.western() {
            self.play_western::<HASH>(m);
            return;
        }
        let (order, n) = if m.is_capture() {
            self.capture_order(m)
        } else {
            ([Square::from_bit_unchecked(0); MAX_PATH], 0)
        };
        let Some(from) = self.index(m.from) else {
            return;
        };
        let mut mover = self.columns[from];
        self.set_column::<HASH>(from, Column::EMPTY);
        // The tops' moves are a diagonal game's (towers' Russian, Lasca's own): never the
        // special play of Frisian, Samoedy or Stavropol.
        self.tops
            .apply::<HASH>(m.from.bit(), m.to.bit(), m.captured.0, m.promotes);
        for &sq in &order[..n] {
            let Some(i) = self.index(sq) else { continue };
            let (rest, role) = self.columns[i].without_top();
            self.set_column::<HASH>(i, rest);
            if let Some(top) = rest.top() {
                self.tops.put_piece::<HASH>(sq, top);
            }
            mover = mover.with_prisoner(role);
        }
        if m.promotes {
            mover = mover.crowned();
        }
        if let Some(to) = self.index(m.to) {
            self.set_column::<HASH>(to, mover);
        }
    }

    /// Play a legal move; an illegal one is refused and the position stays as it was.
    /// A move given without its full path matches the legal move of the same start, end,
    /// pieces taken and crowning when only one leads to a new position.
    pub fn play(&mut self, m: &Move) -> Result<(), crate::error::IllegalMoveError> {
        match self.find_legal(m) {
            Some(legal) => {
                self.play_unchecked(&legal);
                Ok(())
            }
            None => Err(crate::error::IllegalMoveError {
                mv: m.long_text_on(self.geometry()),
                fen: self.fen(Notation::Numeric),
            }),
        }
    }

    /// The legal move `m` stands for: the same start, end, pieces taken and crowning, and
    /// where several orders of taking them lead to different positions, the order of `m`'s
    /// path.
    pub fn find_legal(&self, m: &Move) -> Option<Move> {
        let moves = self.legal_moves();
        if self.western() {
            // The path tells the captures of the same columns apart (a column may be
            // jumped twice): the same landings first, else the one move of that kind.
            if let Some(exact) = moves.iter().find(|l| *l == m && l.path() == m.path()) {
                return Some(*exact);
            }
            let mut same = moves.iter().filter(|l| *l == m);
            let first = *same.next()?;
            return same.next().is_none().then_some(first);
        }
        let mut same = moves.iter().filter(|l| *l == m);
        let first = *same.next()?;
        if same.next().is_none() {
            return Some(first);
        }
        let ranks = self.prisoner_ranks(m);
        moves
            .iter()
            .find(|l| *l == m && self.prisoner_ranks(l) == ranks)
            .copied()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: &Move) -> bool {
        self.find_legal(m).is_some()
    }

    /// The number of move sequences of `depth` plies (perft), under a counting convention.
    pub fn perft(&self, depth: u32, counting: Counting) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(counting),
            _ => {
                let mut n = 0;
                for m in self.legal_moves_counting(counting).iter() {
                    let mut child = *self;
                    child.play_hashed::<false>(m);
                    n += child.perft(depth - 1, counting);
                }
                n
            }
        }
    }

    /// The FEN: the tops as a diagonal game's FEN writes them, each column of two pieces
    /// or more followed by the pieces under its top in parentheses, top first (`w`, `b` a
    /// man, `W`, `B` a king): `W:Wc3(bB),e3:Bd6` is a white man on c3 over a black man over
    /// a black king.
    pub fn fen(&self, notation: Notation) -> String {
        let plain = write_fen(&self.tops, notation);
        let numbering = self.variant().numbering();
        let mut out = String::with_capacity(plain.len() + 32);
        let mut fields = plain.split(':');
        out.push_str(fields.next().unwrap_or("W"));
        for field in fields {
            out.push(':');
            let (tag, rest) = field.split_at(1.min(field.len()));
            out.push_str(tag);
            for (k, token) in rest.split(',').filter(|t| !t.is_empty()).enumerate() {
                if k > 0 {
                    out.push(',');
                }
                out.push_str(token);
                let name = token.trim_start_matches('K');
                let sq = match notation {
                    Notation::Numeric => name.parse().ok().and_then(|n| numbering.square(n)),
                    Notation::Algebraic => numbering.parse(name).ok(),
                };
                if let Some(sq) = sq {
                    let column = self.column(sq);
                    if column.height() > 1 {
                        out.push('(');
                        out.extend(column.pieces().skip(1).map(|p| p.char()));
                        out.push(')');
                    }
                }
            }
        }
        out
    }

    /// A position from a FEN of the game `variant` (the columns as [`StackPosition::fen`]
    /// writes them; a square without parentheses holds one piece), with the FEN's clocks.
    pub fn from_fen(
        text: &str,
        variant: Variant,
    ) -> Result<(StackPosition, Option<u32>, Option<u32>), FenError> {
        // The columns' parentheses out of the text, kept by token.
        let mut plain = String::with_capacity(text.len());
        let mut unders: Vec<(String, bool, String)> = Vec::new();
        let mut token = String::new();
        // Whether the token opens a colour's field (its first letter is the colour's tag).
        let mut opens_field = false;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                '(' => {
                    let mut inside = String::new();
                    loop {
                        match chars.next() {
                            Some(')') => break,
                            Some(c) => inside.push(c),
                            None => {
                                return Err(FenError::new(0, &token, "'(' without a closing ')'"))
                            }
                        }
                    }
                    unders.push((token.clone(), opens_field, inside));
                }
                ')' => return Err(FenError::new(0, &token, "')' without an opening '('")),
                ',' | ':' => {
                    token.clear();
                    opens_field = c == ':';
                    plain.push(c);
                }
                _ => {
                    token.push(c);
                    plain.push(c);
                }
            }
        }
        let numbering = variant.numbering();
        let fen = parse_fen_in_word::<u64>(&plain, numbering)?;
        let tops = Position::from_setup_in(&fen.setup, RuleSet::new(variant, false))
            .map_err(|e| FenError::new(0, "", e.to_string()))?;
        let mut pos = StackPosition::from_tops(tops)?;
        for (token, opens_field, inside) in unders {
            let name = token.trim();
            let name = if opens_field {
                name.get(1..).unwrap_or("").trim()
            } else {
                name
            };
            let name = name.trim_start_matches(['K', 'k']);
            let sq = numbering
                .parse(name)
                .map_err(|e| FenError::new(0, &token, e.reason))?;
            let top = tops
                .piece_at(sq)
                .ok_or_else(|| FenError::new(0, &token, "a column under no piece"))?;
            let mut pieces = vec![top];
            for c in inside.chars().filter(|c| !c.is_whitespace()) {
                pieces.push(letter_piece(c).ok_or_else(|| {
                    FenError::new(0, &token, format!("{c:?} is not a piece (w, W, b, B)"))
                })?);
            }
            let column = Column::from_pieces(&pieces).ok_or_else(|| {
                FenError::new(
                    0,
                    &token,
                    "a column is at most 24 pieces, one colour over the other (never three blocks of colour)",
                )
            })?;
            let Some(i) = pos.index(sq) else {
                return Err(FenError::new(0, &token, "not a square of the board"));
            };
            if pos.columns[i].height() > 1 {
                return Err(FenError::new(
                    0,
                    &token,
                    "the square's column is given twice",
                ));
            }
            pos.set_column::<true>(i, column);
        }
        let total: u32 = pos.piece_count(Color::White) + pos.piece_count(Color::Black);
        if total > 2 * 24 {
            return Err(FenError::new(0, "", "more pieces than the game has"));
        }
        Ok((pos, fen.halfmove_clock, fen.fullmove_number))
    }
}

impl Position {
    /// Put `piece` on the empty square `sq`, hash included (a column game's freed piece).
    #[inline]
    pub(crate) fn put_piece<const HASH: bool>(&mut self, sq: Square, piece: Piece) {
        let bit = sq.bit();
        self.by_color[piece.color.index()].0 |= 1 << bit;
        if piece.role == Role::King {
            self.kings.0 |= 1 << bit;
        }
        if HASH {
            self.hash ^= zobrist::piece_key_in::<u64>(piece.color, piece.role, bit);
        }
    }
}

/// The squares strictly between `at` and `next` on their diagonal, from `at` on: a leg of
/// a capture's path, over which it jumps one column.
pub(super) fn leg_squares(
    g: &'static Geometry,
    at: Square,
    next: Square,
) -> impl Iterator<Item = Square> {
    let (f0, r0) = (g.file_of(at) as i8, g.rank_of(at) as i8);
    let (f1, r1) = (g.file_of(next) as i8, g.rank_of(next) as i8);
    let (df, dr) = ((f1 - f0).signum(), (r1 - r0).signum());
    let steps = (f1 - f0).abs().max(1) - 1;
    (1..=steps).map_while(move |k| g.square_at((f0 + k * df) as u8, (r0 + k * dr) as u8))
}
