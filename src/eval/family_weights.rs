//! The family evaluation's fitted weights: data, `data/weights/family.txt` (written by
//! `python -m shashki.learn.train family --write`), read into a table by game when the crate
//! compiles. A line: a game's name, its [`FEATURES`] weights, then `#` and how they were
//! fitted; `#` lines are comments. A line naming no game, or with another count of
//! weights, does not compile.

use crate::games::GAMES;

/// The number of features (`super::family` counts them; their names are there).
pub const FEATURES: usize = 16;

/// A game's weights, one per feature, in centi-men.
pub type FamilyWeights = [i32; FEATURES];

const TEXT: &[u8] = include_bytes!("../../data/weights/family.txt");

/// Each game's fitted weights by its index in [`GAMES`] (`None`: the hand-set ones).
pub(super) const FITTED: [Option<FamilyWeights>; GAMES.len()] = parse(TEXT);

const fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r'
}

/// The index of the game named `text[start..end]`.
const fn game_named(text: &[u8], start: usize, end: usize) -> usize {
    let mut g = 0;
    while g < GAMES.len() {
        let name = GAMES[g].name.as_bytes();
        if name.len() == end - start {
            let mut i = 0;
            while i < name.len() && name[i] == text[start + i] {
                i += 1;
            }
            if i == name.len() {
                return g;
            }
        }
        g += 1;
    }
    panic!("data/weights/family.txt: a line names no game")
}

const fn parse(text: &[u8]) -> [Option<FamilyWeights>; GAMES.len()] {
    let mut out = [None; GAMES.len()];
    let mut at = 0;
    while at < text.len() {
        while at < text.len() && is_space(text[at]) {
            at += 1;
        }
        if at < text.len() && text[at] != b'#' && text[at] != b'\n' {
            let start = at;
            while at < text.len() && !is_space(text[at]) && text[at] != b'\n' {
                at += 1;
            }
            let game = game_named(text, start, at);
            let mut weights = [0; FEATURES];
            let mut n = 0;
            loop {
                while at < text.len() && is_space(text[at]) {
                    at += 1;
                }
                if at >= text.len() || text[at] == b'#' || text[at] == b'\n' {
                    break;
                }
                assert!(n < FEATURES, "data/weights/family.txt: too many weights");
                let negative = text[at] == b'-';
                if negative {
                    at += 1;
                }
                assert!(
                    at < text.len() && text[at].is_ascii_digit(),
                    "data/weights/family.txt: a weight is not a number"
                );
                let mut value: i32 = 0;
                while at < text.len() && text[at].is_ascii_digit() {
                    value = value * 10 + (text[at] - b'0') as i32;
                    at += 1;
                }
                weights[n] = if negative { -value } else { value };
                n += 1;
            }
            assert!(n == FEATURES, "data/weights/family.txt: too few weights");
            out[game] = Some(weights);
        }
        while at < text.len() && text[at] != b'\n' {
            at += 1;
        }
        at += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_reads_as_written() {
        let international = crate::Variant::International.index();
        let w = FITTED[international].expect("international is fitted");
        assert_eq!(w[0], 100);
        assert!(FITTED[crate::Variant::Russian.index()].is_none());
        let parsed =
            parse(b"# a comment\nkiller 1 -2 3 4 5 6 7 8 9 10 11 12 13 14 15 -16  # how\n");
        assert_eq!(
            parsed[crate::Variant::Killer.index()],
            Some([1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -16])
        );
    }
}
