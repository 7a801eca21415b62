//! The computer that aims: it tries flicks on copies of the table and keeps the best.
//!
//! Candidates first (half of them aimed — one of its discs at one of the other side's,
//! along the line of centres give or take a few degrees, a strong flick — and half drawn at
//! random), then the rest of the budget refining the five best (the angle within a degree,
//! the strength within 0.05). A flick's worth: the other side's discs knocked off less its
//! own (the round won or lost outright counting most), flicking again, and where the discs
//! come to rest — its own away from the edges, the other side's near them. The number of
//! simulations is the level.

use super::{Flick, Round, Table, RADIUS};

/// A tiny deterministic generator (splitmix64).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::util::splitmix(self.0)
    }

    /// In `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// How near the edge a centre is: 1 at the edge, 0 a square in or more.
fn edge(x: f64, y: f64) -> f64 {
    let inside = x.min(8.0 - x).min(y).min(8.0 - y);
    (1.0 - inside).clamp(0.0, 1.0)
}

/// The worth of the table `after` a flick of `mover` from `before` (higher is better).
pub fn worth(before: &Table, after: &Table, mover: u8) -> f64 {
    let other = mover ^ 1;
    let theirs = (before.count(other) - after.count(other)) as f64;
    let mine = (before.count(mover) - after.count(mover)) as f64;
    let mut w = 10.0 * theirs - 12.0 * mine;
    match after.round() {
        Round::Won(side) if side == mover => w += 1000.0,
        Round::Won(_) => w -= 1000.0,
        Round::Drawn => w -= 50.0,
        Round::On => {}
    }
    if after.turn == mover && after.round() == Round::On {
        w += 3.0; // it flicks again
    }
    for d in after.discs.iter().filter(|d| d.on) {
        let e = edge(d.x, d.y);
        w += if d.side == mover { -2.0 * e } else { e };
    }
    w
}

/// A random flick of the side to move (the random flicker's), None when it has no disc.
pub fn random_flick(table: &Table, seed: u64) -> Option<Flick> {
    let mut draw = Draw(seed);
    let mine: Vec<u8> = table
        .discs
        .iter()
        .filter(|d| d.on && d.side == table.turn)
        .map(|d| d.id)
        .collect();
    if mine.is_empty() {
        return None;
    }
    Some(Flick {
        disc: mine[draw.below(mine.len())],
        angle: draw.unit() * 360.0,
        strength: draw.unit(),
    })
}

/// The computer's flick after `simulations` tries (at least 1), and its worth.
pub fn aim(table: &Table, simulations: u32, seed: u64) -> Option<(Flick, f64)> {
    let mover = table.turn;
    let mine: Vec<_> = table
        .discs
        .iter()
        .filter(|d| d.on && d.side == mover)
        .collect();
    let theirs: Vec<_> = table
        .discs
        .iter()
        .filter(|d| d.on && d.side != mover)
        .collect();
    if mine.is_empty() || table.round() != Round::On {
        return None;
    }
    let mut draw = Draw(seed ^ 0x5DEE_CE66_D1CE_4E5B);
    let budget = simulations.max(1) as usize;
    let first = if budget >= 10 {
        budget * 7 / 10
    } else {
        budget
    };
    let mut tried: Vec<(f64, Flick)> = Vec::with_capacity(budget);
    let try_flick = |f: Flick, tried: &mut Vec<(f64, Flick)>| {
        let Ok(f) = f.rounded() else { return };
        let mut copy = table.clone();
        if copy.flick(f, 0).is_ok() {
            tried.push((worth(table, &copy, mover), f));
        }
    };
    for k in 0..first {
        let flick = if k % 2 == 0 && !theirs.is_empty() {
            let a = mine[draw.below(mine.len())];
            let b = theirs[draw.below(theirs.len())];
            let toward = (b.y - a.y).atan2(b.x - a.x).to_degrees();
            // Aim at the target's centre or past either side of it.
            let offset = (draw.unit() - 0.5) * 2.0 * (RADIUS / 2.0)
                / ((b.x - a.x).hypot(b.y - a.y)).max(RADIUS);
            Flick {
                disc: a.id,
                angle: toward + offset.to_degrees(),
                strength: 0.55 + 0.45 * draw.unit(),
            }
        } else {
            Flick {
                disc: mine[draw.below(mine.len())].id,
                angle: draw.unit() * 360.0,
                strength: draw.unit(),
            }
        };
        try_flick(flick, &mut tried);
    }
    for k in first..budget {
        tried.sort_by(|a, b| b.0.total_cmp(&a.0));
        let (_, base) = *tried.get(k % 5.min(tried.len().max(1)))?;
        let flick = Flick {
            disc: base.disc,
            angle: base.angle + (draw.unit() - 0.5) * 2.0,
            strength: (base.strength + (draw.unit() - 0.5) * 0.1).clamp(0.0, 1.0),
        };
        try_flick(flick, &mut tried);
    }
    tried
        .into_iter()
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(w, f)| (f, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_flicks_one_of_its_discs_and_prefers_a_hit() {
        let table = Table::start(0, 0, 0, 100).expect("a start");
        let (flick, worth) = aim(&table, 64, 1).expect("a flick");
        assert!(flick.disc < 8);
        let mut copy = table.clone();
        let shot = copy.flick(flick, 0).expect("legal");
        assert!(worth >= 0.0, "{worth}");
        assert!(shot.off.iter().any(|&(side, _)| side == 1), "{shot:?}");
        assert!(random_flick(&table, 3).is_some());
    }
}
