//! Material balances and the index of a position within its table.
//!
//! A table holds every placement of one material balance (white men, white kings, black
//! men, black kings) with one side to move. Pieces of one kind are interchangeable, so each
//! kind's squares are ranked as a combination (colex order) over the squares that kind may
//! stand on: men never on their own crowning rank (28 squares), kings anywhere (32). The
//! index is the mixed-radix number of the four ranks; placements that put two pieces on one
//! square are slots without a position.

use crate::geometry::Bitboard;
use crate::geometry::Color;
use crate::geometry::Square;
use crate::position::{Position, Setup};

/// Binomial coefficients C(n, k) for n ≤ 32, k ≤ 32.
const fn binomials() -> [[u64; 33]; 33] {
    let mut c = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

const C: [[u64; 33]; 33] = binomials();

/// A material balance: how many men and kings each side has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
}

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        Material {
            white_men: pos.men(Color::White).count() as u8,
            white_kings: pos.kings(Color::White).count() as u8,
            black_men: pos.men(Color::Black).count() as u8,
            black_kings: pos.kings(Color::Black).count() as u8,
        }
    }

    /// The balance with the colours swapped (what [`Position::mirrored`] turns a position
    /// of this balance into).
    pub fn mirror(&self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// Whether this balance is the one of its mirror pair that is built and stored: White
    /// has at least as many men as Black, and as many kings when the men are equal. The
    /// other is probed through [`Position::mirrored`].
    pub fn is_canonical(&self) -> bool {
        (self.white_men, self.white_kings) >= (self.black_men, self.black_kings)
    }

    /// The stored balance of the mirror pair.
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.mirror()
        }
    }

    /// Whether the balance is its own mirror (then White to move is Black to move seen
    /// from the other side, and only White to move is stored).
    pub fn is_symmetric(&self) -> bool {
        *self == self.mirror()
    }

    /// All pieces.
    pub fn pieces(&self) -> u32 {
        self.white_men as u32
            + self.white_kings as u32
            + self.black_men as u32
            + self.black_kings as u32
    }

    /// All men.
    pub fn men(&self) -> u32 {
        self.white_men as u32 + self.black_men as u32
    }

    /// Whether the balance can stand on the board: at most 32 pieces, at most 28 men a side
    /// (a man never stands on its own crowning rank), so that every count indexes the
    /// binomial table. A header read from a file is checked with this before its balance
    /// sizes anything.
    pub fn is_possible(&self) -> bool {
        self.pieces() <= 32
            && self
                .kinds()
                .iter()
                .all(|(n, squares)| *n as usize <= squares.len())
    }

    /// Every balance with 2 to `pieces` pieces and at least one piece a side, in the order
    /// they must be built (a capture leads to fewer pieces, a crowning to fewer men).
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let n = pieces.min(32) as u8;
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    for bk in 0..=n - wm - wk - bm {
                        let m = Material {
                            white_men: wm,
                            white_kings: wk,
                            black_men: bm,
                            black_kings: bk,
                        };
                        if wm + wk >= 1 && bm + bk >= 1 && wm <= 12 && bm <= 12 {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// A name like `KKvK` or `WWKvBK`: White's men (`W`) and kings (`K`), `v`, Black's.
    pub fn name(&self) -> String {
        let side = |men: u8, kings: u8, man: char| {
            let mut s = String::new();
            for _ in 0..kings {
                s.push('K');
            }
            for _ in 0..men {
                s.push(man);
            }
            s
        };
        format!(
            "{}v{}",
            side(self.white_men, self.white_kings, 'W'),
            side(self.black_men, self.black_kings, 'B')
        )
    }

    /// The four kinds in index order: (count, squares a piece of the kind may stand on).
    fn kinds(&self) -> [(u8, &'static [u8]); 4] {
        [
            (self.white_men, &WHITE_MAN_SQUARES),
            (self.white_kings, &ALL_SQUARES),
            (self.black_men, &BLACK_MAN_SQUARES),
            (self.black_kings, &ALL_SQUARES),
        ]
    }

    /// Slots in a table of this material (one side to move), placements of overlapping
    /// pieces included.
    pub fn slots(&self) -> u64 {
        self.kinds()
            .iter()
            .map(|(n, squares)| C[squares.len()][*n as usize])
            .fold(1u64, u64::saturating_mul)
    }

    /// The slot of a position of this material.
    pub fn index(&self, pos: &Position) -> u64 {
        let sets = [
            pos.men(Color::White),
            pos.kings(Color::White),
            pos.men(Color::Black),
            pos.kings(Color::Black),
        ];
        let mut index = 0u64;
        for ((count, squares), set) in self.kinds().iter().zip(sets) {
            let radix = C[squares.len()][*count as usize];
            let local = if squares.len() == 32 {
                &IDENTITY
            } else if squares[0] == 0 {
                &WHITE_MAN_LOCAL
            } else {
                &BLACK_MAN_LOCAL
            };
            let mut rank = 0u64;
            for (i, sq) in set.iter().enumerate() {
                rank += C[local[sq.index8_unchecked()] as usize][i + 1];
            }
            index = index * radix + rank;
        }
        index
    }

    /// The position in a slot, if the slot holds one (no two pieces on a square).
    pub fn position(&self, index: u64, turn: Color) -> Option<Position> {
        Position::from_setup(&self.setup(index, turn)?).ok()
    }

    /// [`Material::position`] without the hash (0): for the builder, which only looks at
    /// moves and ranks positions.
    pub(crate) fn position_unhashed(&self, index: u64, turn: Color) -> Option<Position> {
        // Men stand only on their squares and no square twice: a valid setup.
        Some(Position::from_valid_setup_unhashed(
            &self.setup(index, turn)?,
        ))
    }

    fn setup(&self, mut index: u64, turn: Color) -> Option<Setup> {
        let kinds = self.kinds();
        let mut sets = [Bitboard::EMPTY; 4];
        for k in (0..4).rev() {
            let (count, squares) = kinds[k];
            let radix = C[squares.len()][count as usize];
            let mut rank = index % radix;
            index /= radix;
            // Colex unranking: the largest element first.
            let mut top = squares.len();
            for i in (1..=count as usize).rev() {
                while C[top - 1][i] > rank {
                    top -= 1;
                }
                top -= 1;
                rank -= C[top][i];
                let sq = Square::from_index8(squares[top] as u32)?;
                if (sets[0] | sets[1] | sets[2] | sets[3]).contains(sq) {
                    return None;
                }
                sets[k] = sets[k].with(sq);
            }
        }
        Some(Setup {
            white_men: sets[0],
            white_kings: sets[1],
            black_men: sets[2],
            black_kings: sets[3],
            turn: Some(turn),
        })
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

const fn squares_from(first: u8, count: usize) -> [u8; 28] {
    let mut out = [0u8; 28];
    let mut i = 0;
    while i < count {
        out[i] = first + i as u8;
        i += 1;
    }
    out
}

/// White men: ranks 1–7 (squares 0–27); black men: ranks 2–8 (squares 4–31).
const WHITE_MAN_SQUARES: [u8; 28] = squares_from(0, 28);
const BLACK_MAN_SQUARES: [u8; 28] = squares_from(4, 28);
const ALL_SQUARES: [u8; 32] = {
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = i as u8;
        i += 1;
    }
    out
};
const IDENTITY: [u8; 32] = ALL_SQUARES;
/// A square's position in the list of squares its kind may stand on.
const WHITE_MAN_LOCAL: [u8; 32] = ALL_SQUARES;
const BLACK_MAN_LOCAL: [u8; 32] = {
    let mut out = [0u8; 32];
    let mut i = 4;
    while i < 32 {
        out[i] = (i - 4) as u8;
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_round_trips_through_its_index() {
        for m in Material::all_up_to(3) {
            let mut found = 0;
            for turn in [Color::White, Color::Black] {
                for i in 0..m.slots() {
                    if let Some(pos) = m.position(i, turn) {
                        assert_eq!(Material::of(&pos), m);
                        assert_eq!(m.index(&pos), i, "{m} {i}");
                        found += 1;
                    }
                }
            }
            assert!(found > 0, "{m}");
        }
        assert_eq!(C[32][2], 496);
        assert_eq!(C[28][0], 1);
    }

    #[test]
    fn balances_in_build_order() {
        let all = Material::all_up_to(4);
        assert!(all
            .windows(2)
            .all(|w| (w[0].pieces(), w[0].men()) <= (w[1].pieces(), w[1].men())));
        assert_eq!(all.iter().filter(|m| m.pieces() == 2).count(), 4);
        assert_eq!(
            Material {
                white_men: 1,
                white_kings: 2,
                black_men: 0,
                black_kings: 1
            }
            .name(),
            "KKWvK"
        );
    }
}
