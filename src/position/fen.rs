//! FEN (PDN 3.0): `W:W21,22,K30:B1-12`, algebraic squares (`W:Wa1,c3:BKd6`), numeric ranges,
//! the `[FEN "…"]` wrapper and lidraughts' `:H0:F1` suffix.

use crate::error::FenError;
use crate::games::RuleSet;
use crate::geometry::Color;
use crate::geometry::Notation;
use crate::geometry::{Bitboard, Word};
use crate::geometry::{Numbering, Square};
use crate::position::{Position, Setup};

/// Everything a FEN says: the setup and lidraughts' optional clocks.
///
/// `W` is the word of the board's layout (the 64-bit one unless the game is played on the
/// 12×12 board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fen<W: Word = u64> {
    /// Pieces and side to move.
    pub setup: Setup<W>,
    /// `H`: plies since the last capture or man move, if given.
    pub halfmove_clock: Option<u32>,
    /// `F`: the full-move number, if given.
    pub fullmove_number: Option<u32>,
}

const MAX_FEN_LEN: usize = 4096;

/// Parse a FEN into its parts, validating the position.
pub fn parse_fen(text: &str) -> Result<Fen, FenError> {
    parse_fen_numbered(text, Numbering::STANDARD)
}

/// Parse a FEN whose square numbers and names are a game's `numbering`
/// ([`Variant::numbering`](crate::Variant::numbering)).
pub fn parse_fen_numbered(text: &str, numbering: Numbering) -> Result<Fen, FenError> {
    parse_fen_in_word(text, numbering)
}

/// [`parse_fen_numbered`] into a setup of the word `W` (`u128` for the 12×12 board).
pub fn parse_fen_in_word<W: Word>(text: &str, numbering: Numbering) -> Result<Fen<W>, FenError> {
    if text.len() > MAX_FEN_LEN {
        return Err(FenError::new(0, "", "text too long"));
    }
    let mut t = text.trim();
    // The PDN tag form: [FEN "W:W21:B1"]
    if let Some(inner) = t.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| FenError::new(0, "", "'[' without a closing ']'"))?
            .trim();
        let inner = inner
            .strip_prefix("FEN")
            .ok_or_else(|| FenError::new(0, "", "a bracketed tag that is not FEN"))?
            .trim();
        t = inner
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .ok_or_else(|| FenError::new(0, "", "the FEN tag value is not in double quotes"))?
            .trim();
    } else if let Some(inner) = t.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        t = inner.trim();
    }
    // Some writers end the FEN with a full stop.
    let t = t.strip_suffix('.').unwrap_or(t);
    if t.is_empty() {
        return Err(FenError::new(0, "", "empty"));
    }

    let mut fields = t.split(':');
    let turn_field = fields.next().unwrap_or("").trim();
    let turn = match turn_field {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        "" => return Err(FenError::new(1, "", "missing side to move (W or B)")),
        other => return Err(FenError::new(1, other, "side to move must be W or B")),
    };
    let mut setup = Setup {
        turn: Some(turn),
        ..Setup::default()
    };
    let mut seen = [false; 2];
    let mut halfmove_clock = None;
    let mut fullmove_number = None;
    for (i, raw) in fields.enumerate() {
        let field_no = i + 2;
        let field = raw.trim();
        let mut chars = field.chars();
        let Some(tag) = chars.next() else {
            return Err(FenError::new(field_no, "", "empty field"));
        };
        let rest = chars.as_str();
        let color = match tag {
            'W' | 'w' => Color::White,
            'B' | 'b' => Color::Black,
            'H' | 'h' | 'F' | 'f' => {
                if seen != [true, true] {
                    return Err(FenError::new(
                        field_no,
                        field,
                        "the H and F fields come after both colours' pieces",
                    ));
                }
                let n = parse_number(rest.trim(), 9).ok_or_else(|| {
                    FenError::new(field_no, field, "expected a number after H or F")
                })?;
                let slot = if tag.eq_ignore_ascii_case(&'H') {
                    &mut halfmove_clock
                } else {
                    &mut fullmove_number
                };
                if slot.replace(n).is_some() {
                    return Err(FenError::new(
                        field_no,
                        field,
                        format!("the {} field is given twice", tag.to_ascii_uppercase()),
                    ));
                }
                continue;
            }
            _ => {
                return Err(FenError::new(
                    field_no,
                    field,
                    format!("unknown colour {tag:?} (expected W or B)"),
                ))
            }
        };
        if halfmove_clock.is_some() || fullmove_number.is_some() {
            return Err(FenError::new(
                field_no,
                field,
                "the pieces come before the H and F fields",
            ));
        }
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(FenError::new(
                field_no,
                field,
                format!("the pieces of {} are given twice", color.char()),
            ));
        }
        if rest.trim().is_empty() {
            continue; // a side without pieces
        }
        for token in rest.split(',') {
            let token = token.trim();
            if token.is_empty() {
                return Err(FenError::new(
                    field_no,
                    field,
                    "an empty item between commas (expected a square, K and a square, or a range)",
                ));
            }
            let (king, squares_text) = split_king(token, numbering);
            let squares = parse_squares::<W>(squares_text, numbering)
                .map_err(|reason| FenError::new(field_no, token, reason))?;
            for sq in squares {
                let occupied =
                    setup.white_men | setup.white_kings | setup.black_men | setup.black_kings;
                if occupied.contains(sq) {
                    return Err(FenError::new(
                        field_no,
                        token,
                        format!(
                            "square {} ({}) is given twice",
                            numbering.number(sq),
                            numbering.name(sq)
                        ),
                    ));
                }
                let crowning_rank = match color {
                    Color::White => numbering.geometry().size() - 1,
                    Color::Black => 0,
                };
                if !king
                    && numbering.geometry().crowns()
                    && numbering.geometry().rank_of(sq) == crowning_rank
                {
                    return Err(FenError::new(
                        field_no,
                        token,
                        format!(
                            "a {} man on {} ({}) stands on its own crowning rank",
                            if color == Color::White {
                                "white"
                            } else {
                                "black"
                            },
                            numbering.number(sq),
                            numbering.name(sq)
                        ),
                    ));
                }
                let set = match (color, king) {
                    (Color::White, false) => &mut setup.white_men,
                    (Color::White, true) => &mut setup.white_kings,
                    (Color::Black, false) => &mut setup.black_men,
                    (Color::Black, true) => &mut setup.black_kings,
                };
                *set = set.with(sq);
            }
        }
    }
    if seen != [true, true] {
        let missing = if seen[0] { 'B' } else { 'W' };
        return Err(FenError::new(
            0,
            "",
            format!("missing the pieces of {missing} (a FEN is turn:W…:B…, e.g. W:W21-32:B1-12)"),
        ));
    }
    // Both checks above cover what validate() checks; keep the two in step.
    setup
        .validate_on(numbering.geometry())
        .map_err(|e| FenError::new(0, "", e.to_string()))?;
    Ok(Fen {
        setup,
        halfmove_clock,
        fullmove_number,
    })
}

/// A FEN item's king prefix and the squares after it. `K` always marks a king; a lowercase
/// `k` does too, except on a board wide enough to have a file `k` (the 12×12 board's eleventh
/// file), where `k` followed by a digit is that file's square (`k1`, `Wk5`): a king there
/// is written `Kk5`.
fn split_king(token: &str, numbering: Numbering) -> (bool, &str) {
    let file_k = numbering.geometry().size() > 10;
    let square_of_file_k =
        file_k && token.starts_with('k') && token[1..].starts_with(|c: char| c.is_ascii_digit());
    match token.strip_prefix(['K', 'k']) {
        Some(rest) if !square_of_file_k => (true, rest.trim()),
        _ => (false, token),
    }
}

/// A number of 1 to `max_digits` ASCII digits (no sign, no spaces).
fn parse_number(text: &str, max_digits: usize) -> Option<u32> {
    if text.is_empty() || text.len() > max_digits || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// One square (`21`, `c3`) or a numeric range `21-32`.
fn parse_squares<W: Word>(text: &str, numbering: Numbering) -> Result<Bitboard<W>, String> {
    if let Some((a, b)) = text.split_once('-') {
        let (a, b) = (a.trim(), b.trim());
        let lo = parse_number(a, 2).ok_or_else(|| format!("bad range start {a:?}"))?;
        let hi = parse_number(b, 2).ok_or_else(|| format!("bad range end {b:?}"))?;
        let last = numbering.count();
        if lo == 0 || hi > last || lo > hi {
            return Err(format!(
                "range {lo}-{hi} is not within 1-{last} in ascending order"
            ));
        }
        return Ok((lo..=hi).filter_map(|n| numbering.square(n)).collect());
    }
    if text.starts_with(|c: char| c.is_ascii_digit()) && parse_number(text, 2).is_none() {
        return Err(format!(
            "bad square number {text:?} (1-{})",
            numbering.count()
        ));
    }
    numbering
        .parse(text)
        .map(Bitboard::from)
        .map_err(|e| e.reason.to_owned())
}

/// Parse a FEN into a position.
pub fn position_from_fen(text: &str) -> Result<Position, FenError> {
    let fen = parse_fen(text)?;
    Position::from_setup(&fen.setup).map_err(|e| FenError::new(0, "", e.to_string()))
}

/// Parse a FEN of a game (in its numbering) into a position played under `rules`.
pub fn position_from_fen_in(text: &str, rules: RuleSet) -> Result<Position, FenError> {
    position_from_fen_in_word(text, rules)
}

/// [`position_from_fen_in`] for a position of the word `W` (`Position<u128>` for Canadian
/// draughts).
pub fn position_from_fen_in_word<W: Word>(
    text: &str,
    rules: RuleSet,
) -> Result<Position<W>, FenError> {
    let fen = parse_fen_in_word::<W>(text, rules.variant.numbering())?;
    Position::from_setup_in(&fen.setup, rules).map_err(|e| FenError::new(0, "", e.to_string()))
}

/// Write the position as a FEN, squares in the order of its game's numbering, kings marked
/// `K`.
pub fn write_fen<W: crate::geometry::Word>(pos: &Position<W>, notation: Notation) -> String {
    let numbering = pos.rules().variant.numbering();
    let mut out = String::with_capacity(96);
    out.push(pos.turn().char());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.char());
        let mut squares: Vec<Square> = pos.pieces(color).iter().collect();
        squares.sort_by_key(|&s| numbering.number(s));
        for (i, sq) in squares.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if pos.kings(color).contains(sq) {
                out.push('K');
            }
            match notation {
                Notation::Numeric => out.push_str(&numbering.number(sq).to_string()),
                Notation::Algebraic => out.push_str(&numbering.name(sq)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trip() {
        let start = Position::start();
        let fen = write_fen(&start, Notation::Numeric);
        assert_eq!(
            fen,
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(position_from_fen(&fen), Ok(start));
        assert_eq!(position_from_fen("W:W21-32:B1-12"), Ok(start));
        let alg = write_fen(&start, Notation::Algebraic);
        assert_eq!(position_from_fen(&alg), Ok(start));
    }

    #[test]
    fn wrappers_and_suffixes() {
        let a = position_from_fen("W:W21,22:B1,K4").unwrap();
        let b = position_from_fen("[FEN \"W:W21,22:B1,K4\"]").unwrap();
        let c = position_from_fen("W:W21,22:B1,K4:H0:F1").unwrap();
        let d = position_from_fen("W:Wa3,c3:Bb8,Kh8").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a, d);
        let f = parse_fen("B:W21:B1:H3:F12").unwrap();
        assert_eq!(f.halfmove_clock, Some(3));
        assert_eq!(f.fullmove_number, Some(12));
    }

    #[test]
    fn empty_sides_are_valid() {
        assert!(position_from_fen("W:W21:B").is_ok());
        assert!(position_from_fen("B:W:B1").is_ok());
        assert!(position_from_fen("W:W:B").is_ok());
    }

    #[test]
    fn bad_fens_say_what_is_wrong() {
        let cases = [
            ("", "empty"),
            ("X:W21:B1", "side to move"),
            ("W:W21:Q1", "unknown colour"),
            ("W:W21,21:B1", "twice"),
            ("W:W21:B21", "twice"),
            ("W:Wa2:B1", "light square"),
            ("W:W33:B1", "out of range"),
            ("W:W1:B12", "crowning rank"),
            ("W:W21:B29", "crowning rank"),
            ("W:W21:B1:W22", "given twice"),
            ("W:W30-20:B1", "range"),
            ("W:W21:B1:Hx", "number"),
            ("[FEN \"W:W21:B1\"", "closing"),
            ("W", "missing the pieces"),
            ("w.", "missing the pieces"),
            ("W:W21", "missing the pieces of B"),
            ("W:W21-+32:B1", "range end"),
            ("W:W+21:B1", "square"),
            ("W:W21:B1:H0:H1", "H field is given twice"),
            ("W:W21:B1:F1:F2", "F field is given twice"),
            ("W:W21:H0:B1", "after both colours"),
            ("W:W21,,22:B1", "empty item"),
            ("W:W21,:B1", "empty item"),
            ("W:W021:B1", "bad square number"),
            ("W:W21:B1:H-1", "number"),
            ("W:W21:B1:H99999999999", "number"),
        ];
        for (fen, needle) in cases {
            let err = position_from_fen(fen).expect_err(fen);
            assert!(
                err.to_string().contains(needle),
                "{fen:?}: {err} lacks {needle:?}"
            );
        }
    }
}
