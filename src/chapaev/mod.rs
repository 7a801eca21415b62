//! Чапаев, the flicking game of the rules pages: discs on the 8×8 board, flicked to knock
//! the other side's off (docs/chapaev.md has the rules, their readings and their sources).
//!
//! **The physics** is a small simulation of our own: discs of one size and mass sliding
//! on the board, slowed by a constant friction (so each slows at a constant rate and
//! stops), colliding with one another (an impulse along the line of centres, a
//! coefficient of restitution below one, no spin), and off the board once the centre is
//! past an edge. Time advances in fixed steps; within a step the velocities are constant
//! and every collision is found at its exact time (the first contact of two discs moving
//! on straight lines, a quadratic), so that no disc passes through another and none
//! overlaps another at rest. Only additions, multiplications, divisions and square roots
//! of `f64` are used (IEEE 754 rounds each exactly, and Rust fuses none), and a flick's
//! direction comes from its angle through our own polynomial, not the platform's `sin`
//! and `cos`: the same flick from the same position gives the same result on every
//! machine, so a game replays from its record.
//!
//! The units: a square is 1, the board `[0, 8] × [0, 8]` with White's first rank at the
//! bottom (`y` from 0 to 1); a disc's radius [`RADIUS`]; a flick of strength 1 leaves at
//! [`MAX_SPEED`] squares a second and friction takes [`FRICTION`] squares a second off
//! every second.

pub mod aim;

/// A disc's radius (squares).
pub const RADIUS: f64 = 0.4;
/// The speed of a flick of strength 1 (squares a second).
pub const MAX_SPEED: f64 = 9.0;
/// The friction's deceleration (squares a second, a second).
pub const FRICTION: f64 = 3.0;
/// The coefficient of restitution between two discs.
pub const RESTITUTION: f64 = 0.9;
/// The time step (seconds).
pub const STEP: f64 = 1.0 / 240.0;
/// The most steps of one flick (every disc has stopped long before: 3 s at most).
const MAX_STEPS: usize = 4_000;
/// The most collisions resolved within one step.
const MAX_EVENTS: usize = 64;
/// Below this speed a disc has stopped.
const STOPPED: f64 = 1e-9;

/// White (moves first) and Black.
pub const WHITE: u8 = 0;
/// Black.
pub const BLACK: u8 = 1;

/// One disc.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Disc {
    /// Its side (0 White, 1 Black).
    pub side: u8,
    /// Its name within its side: the file it started on (0 = a … 7 = h).
    pub id: u8,
    /// Its centre.
    pub x: f64,
    /// Its centre.
    pub y: f64,
    /// Whether it is still on the board.
    pub on: bool,
}

/// What went wrong with a flick or a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChapaevError(pub String);

impl std::fmt::Display for ChapaevError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ChapaevError {}

/// A flick: which disc of the side to move, the direction (degrees counter-clockwise from
/// the a1-h1 direction: 90 is straight up the board, towards Black) and the strength
/// (0 to 1). Both are rounded as a record writes them (0.01 degree, 0.001 of strength)
/// before they are used, so a game read back is played exactly as it was.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Flick {
    /// The disc (its id) of the side to move.
    pub disc: u8,
    /// Degrees.
    pub angle: f64,
    /// 0 to 1.
    pub strength: f64,
}

impl Flick {
    /// The flick as it is played: its angle to 0.01 degree in `[0, 360)`, its strength to
    /// 0.001 (an error for anything else than a number within the limits).
    pub fn rounded(self) -> Result<Flick, ChapaevError> {
        if !self.angle.is_finite() || !self.strength.is_finite() {
            return Err(ChapaevError(
                "a flick's angle and strength are numbers".into(),
            ));
        }
        if !(0.0..=1.0).contains(&self.strength) {
            return Err(ChapaevError(format!(
                "a flick's strength is 0 to 1, not {}",
                self.strength
            )));
        }
        let mut hundredths = (self.angle * 100.0).round() % 36_000.0;
        if hundredths < 0.0 {
            hundredths += 36_000.0;
        }
        Ok(Flick {
            disc: self.disc,
            angle: hundredths / 100.0,
            strength: (self.strength * 1000.0).round() / 1000.0,
        })
    }
}

/// `(cos, sin)` of `degrees`, from our own polynomial (the same bits on every machine).
pub fn direction(degrees: f64) -> (f64, f64) {
    // To [-180, 180), then to radians; the series converge fast within [-pi/4, pi/4], so
    // the angle is reduced by quarter turns first.
    let mut d = degrees % 360.0;
    if d < 0.0 {
        d += 360.0;
    }
    let quarter = ((d + 45.0) / 90.0).floor() as i64 % 4;
    let rest = d - 90.0 * ((d + 45.0) / 90.0).floor(); // -45 ..= 45
    let x = rest * (std::f64::consts::PI / 180.0);
    let x2 = x * x;
    // Taylor to x^17 and x^18: error below 1e-17 on [-pi/4, pi/4].
    let mut s = 0.0;
    let mut c = 0.0;
    let mut term_s = x;
    let mut term_c = 1.0;
    for k in 0..9 {
        s += term_s;
        c += term_c;
        let k = k as f64;
        term_s = -term_s * x2 / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
        term_c = -term_c * x2 / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
    }
    match quarter {
        0 => (c, s),
        1 => (-s, c),
        2 => (-c, -s),
        _ => (s, -c),
    }
}

/// A position: the discs, the side to flick, the flicks played in the round.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Every disc (both sides), on the board or not.
    pub discs: Vec<Disc>,
    /// The side to flick.
    pub turn: u8,
    /// Flicks played this round.
    pub flicks: u32,
    /// The round ends drawn after this many flicks.
    pub max_flicks: u32,
}

/// What a flick did.
#[derive(Clone, Debug, PartialEq)]
pub struct Shot {
    /// The discs knocked off, (side, id), in the order they fell.
    pub off: Vec<(u8, u8)>,
    /// Whether the flicker flicks again (it knocked off one of the other side's and none
    /// of its own).
    pub again: bool,
    /// Each disc's centre every `sample` steps while anything moved (for drawing), by
    /// disc index: `frames[k][i]`.
    pub frames: Vec<Vec<(f64, f64)>>,
    /// Simulated time until everything stopped (seconds).
    pub seconds: f64,
}

/// How a round stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Round {
    /// It goes on.
    On,
    /// This side won it (the other has no disc left).
    Won(u8),
    /// Drawn: both sides' last discs fell in one flick, or the flick limit.
    Drawn,
}

impl Table {
    /// The start of a round: White's row on rank `white_rank` (0 = the first rank),
    /// Black's on rank `7 - black_rank` counted from White's side, `turn` to flick.
    pub fn start(
        white_rank: u8,
        black_rank: u8,
        turn: u8,
        max_flicks: u32,
    ) -> Result<Table, ChapaevError> {
        if u32::from(white_rank) + u32::from(black_rank) > 6 {
            return Err(ChapaevError(format!(
                "the rows on ranks {} and {} would meet",
                white_rank + 1,
                8 - black_rank
            )));
        }
        let mut discs = Vec::with_capacity(16);
        for (side, rank) in [
            (WHITE, f64::from(white_rank)),
            (BLACK, 7.0 - f64::from(black_rank)),
        ] {
            for id in 0..8u8 {
                discs.push(Disc {
                    side,
                    id,
                    x: f64::from(id) + 0.5,
                    y: rank + 0.5,
                    on: true,
                });
            }
        }
        Ok(Table {
            discs,
            turn: turn & 1,
            flicks: 0,
            max_flicks: max_flicks.max(1),
        })
    }

    /// A position from its discs (a position text's reader): each on the board, no two
    /// overlapping.
    pub fn from_discs(
        discs: Vec<Disc>,
        turn: u8,
        flicks: u32,
        max_flicks: u32,
    ) -> Result<Table, ChapaevError> {
        for (i, a) in discs.iter().enumerate() {
            if !(a.x.is_finite() && a.y.is_finite()) || a.side > 1 || a.id > 7 {
                return Err(ChapaevError(format!("disc {i} is not a disc")));
            }
            if a.on && !((0.0..=8.0).contains(&a.x) && (0.0..=8.0).contains(&a.y)) {
                return Err(ChapaevError(format!(
                    "disc {i}'s centre ({}, {}) is off the board",
                    a.x, a.y
                )));
            }
            for b in &discs[..i] {
                if a.side == b.side && a.id == b.id {
                    return Err(ChapaevError(format!("disc {i} is given twice")));
                }
                let (dx, dy) = (a.x - b.x, a.y - b.y);
                if a.on && b.on && dx * dx + dy * dy < (2.0 * RADIUS) * (2.0 * RADIUS) - 1e-9 {
                    return Err(ChapaevError(format!("disc {i} overlaps another")));
                }
            }
        }
        Ok(Table {
            discs,
            turn: turn & 1,
            flicks,
            max_flicks: max_flicks.max(1),
        })
    }

    /// The discs of `side` on the board.
    pub fn count(&self, side: u8) -> usize {
        self.discs.iter().filter(|d| d.on && d.side == side).count()
    }

    /// How the round stands.
    pub fn round(&self) -> Round {
        match (self.count(WHITE), self.count(BLACK)) {
            (0, 0) => Round::Drawn,
            (0, _) => Round::Won(BLACK),
            (_, 0) => Round::Won(WHITE),
            _ if self.flicks >= self.max_flicks => Round::Drawn,
            _ => Round::On,
        }
    }

    /// Play a flick of the side to move: what it did (`sample`: keep the centres every
    /// so many steps, 0 for none). Refused, the position unchanged, when the round is
    /// over, the disc is not the mover's or is off the board, or the numbers are out of
    /// their limits.
    pub fn flick(&mut self, flick: Flick, sample: usize) -> Result<Shot, ChapaevError> {
        if self.round() != Round::On {
            return Err(ChapaevError("the round is over".into()));
        }
        let flick = flick.rounded()?;
        let turn = self.turn;
        let index = self
            .discs
            .iter()
            .position(|d| d.side == turn && d.id == flick.disc && d.on)
            .ok_or_else(|| {
                ChapaevError(format!(
                    "{} has no disc {} on the board",
                    if turn == WHITE { "White" } else { "Black" },
                    (b'a' + flick.disc.min(25)) as char
                ))
            })?;
        let (c, s) = direction(flick.angle);
        let speed = flick.strength * MAX_SPEED;
        let mut world = World::new(&self.discs);
        world.vel[index] = (c * speed, s * speed);
        let (off, frames, seconds) = world.run(sample);
        for (d, &(x, y)) in self.discs.iter_mut().zip(&world.pos) {
            d.x = x;
            d.y = y;
        }
        for &i in &off {
            self.discs[i].on = false;
        }
        self.flicks += 1;
        let theirs = off.iter().any(|&i| self.discs[i].side != turn);
        let mine = off.iter().any(|&i| self.discs[i].side == turn);
        let again = theirs && !mine;
        if !again {
            self.turn ^= 1;
        }
        Ok(Shot {
            off: off
                .iter()
                .map(|&i| (self.discs[i].side, self.discs[i].id))
                .collect(),
            again,
            frames,
            seconds,
        })
    }

    /// The total kinetic energy would be 0 here: every disc at rest (positions only).
    pub fn overlaps(&self) -> bool {
        let on: Vec<&Disc> = self.discs.iter().filter(|d| d.on).collect();
        on.iter().enumerate().any(|(i, a)| {
            on[..i].iter().any(|b| {
                let (dx, dy) = (a.x - b.x, a.y - b.y);
                dx * dx + dy * dy < (2.0 * RADIUS) * (2.0 * RADIUS) - 1e-9
            })
        })
    }
}

/// Each disc's centre at sampled steps.
type Frames = Vec<Vec<(f64, f64)>>;

/// The discs in motion.
struct World {
    pos: Vec<(f64, f64)>,
    vel: Vec<(f64, f64)>,
    on: Vec<bool>,
    /// The most kinetic energy seen after the flick (for the tests: it never grows).
    energy: Vec<f64>,
}

impl World {
    fn new(discs: &[Disc]) -> World {
        World {
            pos: discs.iter().map(|d| (d.x, d.y)).collect(),
            vel: vec![(0.0, 0.0); discs.len()],
            on: discs.iter().map(|d| d.on).collect(),
            energy: Vec::new(),
        }
    }

    fn moving(&self) -> bool {
        self.vel
            .iter()
            .zip(&self.on)
            .any(|(&(vx, vy), &on)| on && (vx != 0.0 || vy != 0.0))
    }

    fn kinetic(&self) -> f64 {
        self.vel
            .iter()
            .zip(&self.on)
            .filter(|(_, &on)| on)
            .map(|(&(vx, vy), _)| 0.5 * (vx * vx + vy * vy))
            .sum()
    }

    /// The time within `limit` when discs `i` and `j` first touch moving as they do, if
    /// they do and are closing.
    fn contact(&self, i: usize, j: usize, limit: f64) -> Option<f64> {
        let (dx, dy) = (self.pos[j].0 - self.pos[i].0, self.pos[j].1 - self.pos[i].1);
        let (ux, uy) = (self.vel[j].0 - self.vel[i].0, self.vel[j].1 - self.vel[i].1);
        let closing = dx * ux + dy * uy; // < 0 when they approach
        if closing >= 0.0 {
            return None;
        }
        let reach = 2.0 * RADIUS;
        let c = dx * dx + dy * dy - reach * reach;
        if c <= 0.0 {
            return Some(0.0); // touching (or within rounding) and closing
        }
        let a = ux * ux + uy * uy;
        let disc = closing * closing - a * c;
        if disc < 0.0 || a == 0.0 {
            return None;
        }
        let t = (-closing - disc.sqrt()) / a;
        (t >= 0.0 && t < limit).then_some(t)
    }

    fn advance(&mut self, t: f64) {
        for ((p, v), &on) in self.pos.iter_mut().zip(&self.vel).zip(&self.on) {
            if on {
                p.0 += v.0 * t;
                p.1 += v.1 * t;
            }
        }
    }

    fn collide(&mut self, i: usize, j: usize) {
        let (dx, dy) = (self.pos[j].0 - self.pos[i].0, self.pos[j].1 - self.pos[i].1);
        let d = (dx * dx + dy * dy).sqrt();
        if d == 0.0 {
            return;
        }
        let (nx, ny) = (dx / d, dy / d);
        let vn = (self.vel[i].0 - self.vel[j].0) * nx + (self.vel[i].1 - self.vel[j].1) * ny;
        if vn <= 0.0 {
            return;
        }
        let impulse = 0.5 * (1.0 + RESTITUTION) * vn;
        self.vel[i].0 -= impulse * nx;
        self.vel[i].1 -= impulse * ny;
        self.vel[j].0 += impulse * nx;
        self.vel[j].1 += impulse * ny;
    }

    /// Run until everything stops: the discs that fell (indices, in order), the sampled
    /// frames and the time.
    fn run(&mut self, sample: usize) -> (Vec<usize>, Frames, f64) {
        let n = self.pos.len();
        let mut off = Vec::new();
        let mut frames = Vec::new();
        let mut steps = 0;
        if sample > 0 {
            frames.push(self.pos.clone());
        }
        while self.moving() && steps < MAX_STEPS {
            steps += 1;
            let mut left = STEP;
            for _ in 0..MAX_EVENTS {
                let mut first: Option<(f64, usize, usize)> = None;
                for i in 0..n {
                    if !self.on[i] {
                        continue;
                    }
                    for j in i + 1..n {
                        if !self.on[j] {
                            continue;
                        }
                        if let Some(t) = self.contact(i, j, left) {
                            if first.map_or(true, |(best, _, _)| t < best) {
                                first = Some((t, i, j));
                            }
                        }
                    }
                }
                match first {
                    Some((t, i, j)) => {
                        self.advance(t);
                        left -= t;
                        self.collide(i, j);
                    }
                    None => break,
                }
            }
            self.advance(left);
            // Friction: each moving disc loses FRICTION * STEP of its speed.
            for (v, &on) in self.vel.iter_mut().zip(&self.on) {
                if !on {
                    continue;
                }
                let speed = (v.0 * v.0 + v.1 * v.1).sqrt();
                if speed <= FRICTION * STEP || speed < STOPPED {
                    *v = (0.0, 0.0);
                } else {
                    let k = (speed - FRICTION * STEP) / speed;
                    v.0 *= k;
                    v.1 *= k;
                }
            }
            // Off the board: a centre past an edge.
            for i in 0..n {
                let (x, y) = self.pos[i];
                if self.on[i] && !((0.0..=8.0).contains(&x) && (0.0..=8.0).contains(&y)) {
                    self.on[i] = false;
                    self.vel[i] = (0.0, 0.0);
                    off.push(i);
                }
            }
            self.energy.push(self.kinetic());
            if sample > 0 && steps % sample == 0 {
                frames.push(self.pos.clone());
            }
        }
        if sample > 0 && steps % sample != 0 {
            frames.push(self.pos.clone());
        }
        (off, frames, steps as f64 * STEP)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flick(disc: u8, angle: f64, strength: f64) -> Flick {
        Flick {
            disc,
            angle,
            strength,
        }
    }

    #[test]
    fn the_direction_is_the_angles() {
        for deg in [
            0.0, 30.0, 45.0, 90.0, 135.5, 180.0, 269.99, 300.0, -45.0, 725.0,
        ] {
            let (c, s) = direction(deg);
            let r = f64::to_radians(deg);
            assert!(
                (c - r.cos()).abs() < 1e-14 && (s - r.sin()).abs() < 1e-14,
                "{deg}"
            );
        }
    }

    #[test]
    fn a_flick_into_empty_space_slows_to_a_stop_where_friction_says() {
        let mut t = Table::from_discs(
            vec![
                Disc {
                    side: 0,
                    id: 0,
                    x: 0.5,
                    y: 0.5,
                    on: true,
                },
                Disc {
                    side: 1,
                    id: 0,
                    x: 7.5,
                    y: 7.5,
                    on: true,
                },
            ],
            WHITE,
            0,
            100,
        )
        .expect("a table");
        let shot = t.flick(flick(0, 0.0, 0.5), 0).expect("a flick");
        assert!(shot.off.is_empty() && !shot.again);
        // v^2 / (2a) = 4.5^2 / 6 = 3.375 squares, within a step's travel.
        let travelled = t.discs[0].x - 0.5;
        assert!((travelled - 3.375).abs() < 0.02, "{travelled}");
        assert_eq!(t.turn, BLACK);
    }

    #[test]
    fn a_straight_shot_knocks_the_disc_in_front_off_and_flicks_again() {
        let mut t = Table::start(0, 0, WHITE, 100).expect("a start");
        let shot = t.flick(flick(3, 90.0, 1.0), 0).expect("a flick");
        assert!(shot.off.contains(&(BLACK, 3)), "{:?}", shot.off);
        assert!(shot.again && t.turn == WHITE);
        assert!(!t.overlaps());
    }

    #[test]
    fn energy_never_grows_and_the_same_flick_gives_the_same_result() {
        let start = Table::start(0, 0, WHITE, 100).expect("a start");
        for (i, angle) in [80.0, 95.5, 100.0, 60.0].into_iter().enumerate() {
            let mut world = World::new(&start.discs);
            let (c, s) = direction(angle);
            world.vel[i + 2] = (c * MAX_SPEED, s * MAX_SPEED);
            let first = world.kinetic();
            world.run(0);
            let mut last = first;
            for &e in &world.energy {
                assert!(e <= last + 1e-12, "energy grew: {last} -> {e}");
                last = e;
            }
            let (mut a, mut b) = (start.clone(), start.clone());
            let f = flick(i as u8 + 2, angle, 0.9);
            assert_eq!(a.flick(f, 3), b.flick(f, 3));
            assert_eq!(a, b);
            assert!(!a.overlaps());
        }
    }

    #[test]
    fn bad_flicks_are_refused_and_the_table_kept() {
        let mut t = Table::start(0, 0, WHITE, 100).expect("a start");
        let before = t.clone();
        assert!(t.flick(flick(8, 90.0, 1.0), 0).is_err());
        assert!(t.flick(flick(0, 90.0, 1.5), 0).is_err());
        assert!(t.flick(flick(0, f64::NAN, 0.5), 0).is_err());
        assert_eq!(t, before);
        assert!(Table::start(4, 3, WHITE, 10).is_err());
    }
}
