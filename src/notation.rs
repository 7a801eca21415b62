//! Move text in and out: `c3-d4`, `e3:c5:e7`, `e3xe7`, numeric `22-18`, `22x15`.

use crate::geometry::Notation;
use crate::geometry::Word;
use crate::geometry::{Geometry, Numbering, Square};
use crate::position::mv::Move;
use crate::position::Position;
use crate::rules::Counting;
use crate::rules::GameWord;

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Not a move at all (syntax).
    Invalid(String),
    /// Well formed, but no legal move fits.
    Illegal(String),
    /// A short form that fits several distinct legal moves (listed with every landing square).
    Ambiguous(String, Vec<String>),
}

impl std::fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveTextError::Invalid(why) => f.write_str(why),
            MoveTextError::Illegal(why) => f.write_str(why),
            MoveTextError::Ambiguous(text, options) => write!(
                f,
                "ambiguous move {text:?}: it fits {} (write the landing squares)",
                options.join(", ")
            ),
        }
    }
}

impl std::error::Error for MoveTextError {}

const MAX_MOVE_TEXT: usize = 200;

/// The squares of a move text, in order (Russian draughts' numbers and names).
pub fn split_move_text(text: &str) -> Result<Vec<Square>, MoveTextError> {
    split_move_text_in(text, Numbering::STANDARD)
}

/// The squares of a move text in a game's `numbering`, in order.
pub fn split_move_text_in(text: &str, numbering: Numbering) -> Result<Vec<Square>, MoveTextError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveTextError::Invalid("empty move text".to_owned()));
    }
    if t.len() > MAX_MOVE_TEXT {
        return Err(MoveTextError::Invalid(format!(
            "move text too long ({} characters)",
            t.len()
        )));
    }
    if !t.contains(['-', ':', 'x', 'X', '×']) {
        if let Some(squares) = split_unseparated(t, numbering) {
            return Ok(squares);
        }
    }
    let mut squares = Vec::new();
    for token in t.split(['-', ':', 'x', 'X', '×']) {
        let sq = numbering
            .parse(token)
            .map_err(|e| MoveTextError::Invalid(format!("invalid move {t:?}: {e}")))?;
        squares.push(sq);
    }
    if squares.len() < 2 {
        return Err(MoveTextError::Invalid(format!(
            "invalid move {t:?}: expected at least a start and an end square, e.g. c3-d4 or 22-18"
        )));
    }
    Ok(squares)
}

/// Squares written without separators, as bot APIs do: names (`c3d4`, `e3c5e7`) or
/// two-digit numbers (`2218`, `0914`, `221508`).
fn split_unseparated(t: &str, numbering: Numbering) -> Option<Vec<Square>> {
    let bytes = t.as_bytes();
    if bytes.len() < 4 || bytes.len() % 2 != 0 {
        return None;
    }
    let numeric = bytes.iter().all(u8::is_ascii_digit);
    let named = bytes
        .chunks(2)
        .all(|c| c[0].is_ascii_alphabetic() && c[1].is_ascii_digit());
    if !numeric && !named {
        return None;
    }
    bytes
        .chunks(2)
        .map(|c| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|s| numbering.parse(s).ok())
        })
        .collect()
}

/// Why no legal move goes from `from` to `to` (for a move that was refused): the compulsory
/// captures, an empty or foreign start square, an occupied end, the way men and kings move.
pub fn explain_illegal<W: GameWord>(pos: &Position<W>, from: Square, to: Square) -> String {
    let side = pos.turn();
    let geometry = pos.geometry();
    let (from_name, to_name) = (geometry.name(from), geometry.name(to));
    let name = |c: crate::Color| {
        if c == crate::Color::White {
            "White"
        } else {
            "Black"
        }
    };
    let legal = pos.legal_moves();
    let list = |moves: Vec<&Move<W>>| {
        let mut texts: Vec<String> = moves
            .iter()
            .map(|m| m.long_text_on(pos.geometry()))
            .collect();
        if texts.len() > 6 {
            let more = texts.len() - 6;
            texts.truncate(6);
            texts.push(format!("and {more} more"));
        }
        texts.join(", ")
    };
    let piece = match pos.piece_at(from) {
        None => return format!("no {} piece on {from_name}", name(side)),
        Some(p) if p.color != side => {
            return format!(
                "{from_name} holds a {} piece, {} is to move",
                name(p.color),
                name(side)
            )
        }
        Some(p) => p,
    };
    if pos.has_captures() {
        let mine: Vec<&Move<W>> = legal.iter().filter(|m| m.from() == from).collect();
        return if mine.is_empty() {
            format!("a capture is compulsory: {}", list(legal.iter().collect()))
        } else {
            format!("the captures from {from_name} are {}", list(mine))
        };
    }
    if from == to {
        return format!("a move must leave {from_name}");
    }
    let df = geometry.file_of(to) as i8 - geometry.file_of(from) as i8;
    let dr = geometry.rank_of(to) as i8 - geometry.rank_of(from) as i8;
    if geometry.every_square() {
        if df != 0 && dr != 0 {
            return format!("{to_name} is not on a rank or file through {from_name}");
        }
    } else if df.abs() != dr.abs() {
        return format!("{to_name} is not on a diagonal through {from_name}");
    }
    if pos.piece_at(to).is_some() {
        return format!("{to_name} is occupied");
    }
    if piece.role == crate::Role::Man && geometry.every_square() {
        let forward = if side == crate::Color::White { 1 } else { -1 };
        if dr != 0 && dr.signum() != forward {
            return "men move forward or sideways, never back".to_owned();
        }
        if df.abs() + dr.abs() > 1 {
            return "a man moves one square at a time (only kings fly)".to_owned();
        }
    } else if piece.role == crate::Role::Man {
        let forward = if side == crate::Color::White { 1 } else { -1 };
        if dr.signum() != forward {
            return "men move forward only (they capture backwards too)".to_owned();
        }
        if dr.abs() > 1 {
            return "a man moves one square at a time (only kings fly)".to_owned();
        }
    } else if let Some(points) = line_squares(geometry, &[from, to]) {
        if let Some(block) = points.iter().find(|s| pos.piece_at(**s).is_some()) {
            return format!(
                "the way from {from_name} to {to_name} is blocked at {}",
                geometry.name(*block)
            );
        }
    }
    format!("no legal move from {from_name} to {to_name}")
}

/// The squares along straight lines through `points` (diagonals; on a board of every
/// square, ranks and files), each point excluded as a start and included as an end; `None`
/// if two consecutive points are not on one line.
fn line_squares(geometry: &Geometry, points: &[Square]) -> Option<Vec<Square>> {
    let mut out = Vec::with_capacity(16);
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (af, ar) = (geometry.file_of(a) as i8, geometry.rank_of(a) as i8);
        let df = geometry.file_of(b) as i8 - af;
        let dr = geometry.rank_of(b) as i8 - ar;
        let steps = if geometry.every_square() {
            if (df == 0) == (dr == 0) {
                return None;
            }
            df.abs().max(dr.abs())
        } else {
            if df.abs() != dr.abs() || df == 0 {
                return None;
            }
            df.abs()
        };
        for i in 1..=steps {
            let f = (af + df.signum() * i) as u8;
            let r = (ar + dr.signum() * i) as u8;
            out.push(geometry.square_at(f, r)?);
        }
    }
    Some(out)
}

/// The squares a move's piece passes over or lands on, in order (start excluded).
fn route<W: Word>(geometry: &Geometry, m: &Move<W>) -> Vec<Square> {
    let points: Vec<Square> = std::iter::once(m.from())
        .chain(m.path().iter().copied())
        .collect();
    line_squares(geometry, &points).unwrap_or_default()
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

/// The legal move a text denotes. Intermediate squares, when given, must lie on the move's
/// route in order; any order of the same captures is accepted. A text that traces a move's
/// whole route (every landing square, e.g. the single capture `d6:b8` beside the longer
/// `d6:f8:h6:f4:b8`) selects exactly that move.
pub fn parse_move<W: GameWord>(pos: &Position<W>, text: &str) -> Result<Move<W>, MoveTextError> {
    parse_move_among(
        pos.legal_moves_counting(Counting::Orders).iter().copied(),
        pos.rules().variant.numbering(),
        text,
        |first, last| explain_illegal(pos, first, last),
    )
}

/// [`parse_move`] among the moves `legal` (every order of capture: convention B) of a game
/// numbered by `numbering`; `explain` says why no move from `first` to `last` is legal (a
/// column game's moves, which its tops alone do not give, are parsed so).
pub fn parse_move_among<W: GameWord>(
    legal: impl IntoIterator<Item = Move<W>>,
    numbering: crate::geometry::Numbering,
    text: &str,
    explain: impl Fn(Square, Square) -> String,
) -> Result<Move<W>, MoveTextError> {
    let squares = split_move_text_in(text, numbering)?;
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    let middle = &squares[1..squares.len() - 1];
    // Exact: the text traces the whole route of the move, line by line.
    // Loose: the given intermediate squares lie on the route (passed or landed on) in order.
    let geometry = numbering.geometry();
    let traced = line_squares(geometry, &squares);
    let mut exact: Vec<Move<W>> = Vec::new();
    let mut found: Vec<Move<W>> = Vec::new();
    for m in legal {
        if m.from() != first || m.to() != last {
            continue;
        }
        let r = route(geometry, &m);
        let whole_path = m.path() == &squares[1..];
        let traces_route = !middle.is_empty() && traced.as_ref() == Some(&r);
        if (whole_path || traces_route) && !exact.iter().any(|e| e == &m && e.path() == m.path()) {
            exact.push(m);
        }
        if !middle.is_empty() {
            let landings: Vec<Square> = r
                .into_iter()
                .filter(|s| !m.captured().contains(*s))
                .collect();
            if !is_subsequence(middle, &landings) {
                continue;
            }
        }
        if !found.contains(&m) {
            found.push(m);
        }
    }
    if exact.len() == 1 {
        return Ok(exact[0]);
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(MoveTextError::Illegal(format!(
            "illegal move {:?}: {}",
            text.trim(),
            explain(first, last)
        ))),
        _ => Err(MoveTextError::Ambiguous(
            text.trim().to_owned(),
            found.iter().map(|m| m.long_text_on(geometry)).collect(),
        )),
    }
}

/// PDN text of a legal move: begin and end square (`c3-d4`, `e3:e7`, `22x15`), or every
/// landing square where another legal capture shares both (or when `long` asks for it).
pub fn move_text<W: GameWord>(
    pos: &Position<W>,
    m: &Move<W>,
    notation: Notation,
    long: bool,
) -> String {
    move_text_among(
        pos.legal_moves().iter(),
        pos.rules().variant.numbering(),
        m,
        notation,
        long,
    )
}

/// [`move_text`] of `m` among the legal moves `legal` of a game numbered by `numbering`.
pub fn move_text_among<'a, W: GameWord + 'a>(
    mut legal: impl Iterator<Item = &'a Move<W>>,
    numbering: crate::geometry::Numbering,
    m: &Move<W>,
    notation: Notation,
    long: bool,
) -> String {
    let needs_long = long
        || legal
            .any(|o| o.from() == m.from() && o.to() == m.to() && (o != m || o.path() != m.path()));
    let squares: Vec<Square> = if needs_long && m.is_capture() {
        std::iter::once(m.from())
            .chain(m.path().iter().copied())
            .collect()
    } else {
        vec![m.from(), m.to()]
    };
    let sep = match (m.is_capture(), notation) {
        (false, _) => "-",
        (true, Notation::Algebraic) => ":",
        (true, Notation::Numeric) => "x",
    };
    squares
        .iter()
        .map(|&s| match notation {
            Notation::Algebraic => numbering.name(s),
            Notation::Numeric => numbering.number(s).to_string(),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::fen::position_from_fen;

    #[test]
    fn parses_every_form() {
        let start = Position::start();
        for text in ["c3-d4", "22-18", "c3xd4", " c3-d4 ", "C3-D4"] {
            assert_eq!(
                parse_move(&start, text).map(|m| m.long_text()),
                Ok("c3-d4".into()),
                "{text}"
            );
        }
        let p = position_from_fen("W:Wa1:Bb2,d4,f4").unwrap();
        for text in [
            "a1:g3",
            "a1xg3",
            "29x24",
            "a1:c3:e5:g3",
            "a1:e5:g3",
            "29x15x24",
        ] {
            assert!(parse_move(&p, text).is_ok(), "{text}");
        }
    }

    #[test]
    fn any_order_of_the_same_capture_is_accepted() {
        let p = position_from_fen("W:We1:Bd2,b4,d4,f4,f2").unwrap();
        let a = parse_move(&p, "e1:c3:e5:g3:e1").unwrap();
        let b = parse_move(&p, "e1:g3:e5:c3:e1").unwrap();
        assert_eq!(a, b);
        assert!(
            matches!(parse_move(&p, "e1:a5"), Err(MoveTextError::Ambiguous(_, v)) if v.len() == 2)
        );
        assert!(parse_move(&p, "e1:c3:a5").is_ok());
        assert!(matches!(
            parse_move(&p, "e1:c3:e5:g3:e1:a5"),
            Err(MoveTextError::Illegal(_))
        ));
    }

    #[test]
    fn a_whole_path_selects_its_move_among_longer_ones() {
        // Black king d6: d6:b8 takes c7 alone; d6:f8:h6:f4:b8 goes round and ends there too.
        let p = position_from_fen("B:W6,7,8,16:BK10").unwrap();
        let texts: Vec<String> = p.legal_moves().iter().map(Move::long_text).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        for m in p.legal_moves() {
            for notation in [Notation::Algebraic, Notation::Numeric] {
                for long in [false, true] {
                    let text = move_text(&p, &m, notation, long);
                    assert_eq!(parse_move(&p, &text), Ok(m), "{text}");
                }
            }
        }
        assert_eq!(parse_move(&p, "d6:b8").map(|m| m.captured().count()), Ok(1));
        assert_eq!(parse_move(&p, "10x1").map(|m| m.captured().count()), Ok(1));
        assert!(matches!(
            parse_move(&p, "d6:f8:b8"),
            Ok(m) if m.captured().count() > 1
        ));
    }

    #[test]
    fn bad_text_is_invalid_not_illegal() {
        let start = Position::start();
        for text in ["", "c3", "c3-", "c3-d9", "c3-d3", "hello", "22-", "0-1"] {
            assert!(
                matches!(parse_move(&start, text), Err(MoveTextError::Invalid(_))),
                "{text:?}"
            );
        }
        assert!(matches!(
            parse_move(&start, "c3-e5"),
            Err(MoveTextError::Illegal(_))
        ));
    }

    #[test]
    fn short_form_unless_ambiguous() {
        let p = position_from_fen("W:We1:Bd2,b4,d4,f4,f2").unwrap();
        let texts: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| move_text(&p, m, Notation::Algebraic, false))
            .collect();
        assert!(
            texts.contains(&"e1:e1".to_owned()) || texts.iter().any(|t| t.starts_with("e1:c3:e5"))
        );
        assert!(texts.contains(&"e1:c3:a5".to_owned()));
        let start = Position::start();
        assert_eq!(
            move_text(&start, &start.legal_moves()[0], Notation::Numeric, false).len(),
            5
        );
    }
}
