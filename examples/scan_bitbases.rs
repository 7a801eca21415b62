//! `cargo run --release --example scan_bitbases -- SCAN_BB_DIR TABLES_DIR [PIECES]`: compare
//! International draughts' tables in TABLES_DIR (built by `shashki egtb build --variant
//! international`) with Scan's win/draw/loss bitbases of up to PIECES pieces (default 4) in
//! SCAN_BB_DIR (the `data/bb` directory of a Scan 2.0 checkout, which `benches/scan.py`
//! builds from a clone; nothing of Scan is in this repository).
//!
//! What this reads of Scan's files, as its source describes them (our own reading, our own
//! code): one file per material, named by the counts of the side to move's men, the other
//! side's men, the side to move's kings and the other side's kings (`4/1021`); each byte
//! of the file is a run of one value (the byte modulo 3: draw, loss, win for the side to
//! move) repeated round(1.2^(byte / 3)) times; the runs, end to end, give the value of
//! each index. The index of a position with White to move is the mixed-radix number of four
//! combination ranks, most significant first: White's men among squares 6–50 counted from
//! square 50 down, Black's men among squares 1–45 counted up, White's kings among the
//! squares the men leave counted down, Black's kings among those left counted up (a rank
//! is the combinatorial number system's: the sum over the pieces, in the counting order,
//! of C(squares before it, its place)). Black to move is stored as the board turned round
//! with the colours swapped. Positions where the side to move can capture are not
//! meaningful there (Scan's probe searches the captures first), so only positions without
//! a capture for the side to move are compared: each both as stored (White to move) and
//! turned round (Black to move), against the sign of our table's value.
use shashki::egtb::{TableGame, Tables};
use shashki::{Bitboard, Color, Position, Setup};
use std::path::Path;

/// C(n, k) for the small numbers here.
fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// The combination rank of `pieces` (square numbers) among `allowed` (bit n = square n),
/// counting up from square 1 or, with `down`, from square 50.
fn rank(pieces: &[u32], allowed: u64, down: bool) -> u64 {
    let mut sorted = pieces.to_vec();
    sorted.sort_unstable();
    if down {
        sorted.reverse();
    }
    let mut index = 0;
    for (place, &n) in sorted.iter().enumerate() {
        let before = if down {
            allowed & !((1u64 << (n + 1)) - 1)
        } else {
            allowed & ((1u64 << n) - 1)
        };
        index += choose(u64::from(before.count_ones()), place as u64 + 1);
    }
    index
}

fn squares_mask(numbers: std::ops::RangeInclusive<u32>) -> u64 {
    numbers.fold(0, |m, n| m | (1u64 << n))
}

/// Every set of `k` numbers out of `allowed`, passed to `f`.
fn each_subset(allowed: &[u32], k: usize, chosen: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
    if chosen.len() == k {
        f(chosen);
        return;
    }
    let start = match chosen.last() {
        Some(&last) => allowed
            .iter()
            .position(|&n| n > last)
            .unwrap_or(allowed.len()),
        None => 0,
    };
    for i in start..allowed.len() {
        if allowed.len() - i < k - chosen.len() {
            break;
        }
        chosen.push(allowed[i]);
        each_subset(allowed, k, chosen, f);
        chosen.pop();
    }
}

/// The values of a Scan file, one byte (0 draw, 1 loss, 2 win) an index.
fn decode(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let runs: Vec<u64> = (0..85)
        .map(|i| (1.2f64.powi(i) + 0.5).floor() as u64)
        .collect();
    let mut values = Vec::new();
    for &b in bytes {
        let len = *runs
            .get(usize::from(b / 3))
            .ok_or_else(|| format!("byte {b} has no run length"))?;
        values.extend(std::iter::repeat(b % 3).take(len as usize));
    }
    Ok(values)
}

struct Tally {
    positions: u64,
    wrong: u64,
    wdl: [u64; 3],
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: scan_bitbases SCAN_BB_DIR TABLES_DIR [PIECES]");
        std::process::exit(2);
    }
    let scan_dir = Path::new(&args[1]);
    let most: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4);
    let tables = match Tables::open(Path::new(&args[2])) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let rules = TableGame::International.rules();
    let numbering = rules.variant.numbering();
    let square = |n: u32| numbering.square(n).expect("a square number 1-50");
    let all = squares_mask(1..=50);
    let white_men_squares = squares_mask(6..=50);
    let black_men_squares = squares_mask(1..=45);
    let list = |mask: u64| -> Vec<u32> { (1..=50).filter(|n| mask >> n & 1 == 1).collect() };
    let mut total = Tally {
        positions: 0,
        wrong: 0,
        wdl: [0; 3],
    };
    let mut bad = false;
    for pieces in 2..=most {
        let mut names: Vec<String> = match std::fs::read_dir(scan_dir.join(pieces.to_string())) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect(),
            Err(e) => {
                eprintln!("{}: {e}", scan_dir.join(pieces.to_string()).display());
                std::process::exit(1);
            }
        };
        names.sort();
        for name in names {
            let counts: Vec<usize> = name
                .bytes()
                .map(|b| usize::from(b.wrapping_sub(b'0')))
                .collect();
            if counts.len() != 4 || counts.iter().any(|&c| c > 6) {
                continue;
            }
            let (wm, bm, wk, bk) = (counts[0], counts[1], counts[2], counts[3]);
            let bytes = match std::fs::read(scan_dir.join(pieces.to_string()).join(&name)) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    std::process::exit(1);
                }
            };
            let values = match decode(&bytes) {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    std::process::exit(1);
                }
            };
            let men = (wm + bm) as u64;
            let size = choose(45, wm as u64)
                * choose(45, bm as u64)
                * choose(50 - men, wk as u64)
                * choose(50 - men - wk as u64, bk as u64);
            if values.len() as u64 != size {
                println!(
                    "{name}: {} values, the index has {size}: format misread",
                    values.len()
                );
                bad = true;
                continue;
            }
            let mut tally = Tally {
                positions: 0,
                wrong: 0,
                wdl: [0; 3],
            };
            let mut first_wrong: Option<String> = None;
            let (white_men_list, black_men_list) =
                (list(white_men_squares), list(black_men_squares));
            let mut a = Vec::new();
            each_subset(&white_men_list, wm, &mut a, &mut |wmen| {
                let wmask = wmen.iter().fold(0u64, |m, &n| m | 1 << n);
                let blist: Vec<u32> = black_men_list
                    .iter()
                    .copied()
                    .filter(|n| wmask >> n & 1 == 0)
                    .collect();
                let mut b = Vec::new();
                each_subset(&blist, bm, &mut b, &mut |bmen| {
                    let mmask = bmen.iter().fold(wmask, |m, &n| m | 1 << n);
                    let free = all & !mmask;
                    let mut c = Vec::new();
                    each_subset(&list(free), wk, &mut c, &mut |wkings| {
                        let kmask = wkings.iter().fold(mmask, |m, &n| m | 1 << n);
                        let rest = all & !kmask;
                        let mut d = Vec::new();
                        each_subset(&list(rest), bk, &mut d, &mut |bkings| {
                            let index = ((rank(wmen, white_men_squares, true)
                                * choose(45, bm as u64)
                                + rank(bmen, black_men_squares, false))
                                * choose(50 - men, wk as u64)
                                + rank(wkings, free, true))
                                * choose(50 - men - wk as u64, bk as u64)
                                + rank(bkings, rest, false);
                            let scan = values[index as usize];
                            // As stored (White to move), then turned round (Black to move).
                            for turned in [false, true] {
                                let place = |ns: &[u32]| {
                                    ns.iter().fold(Bitboard::<u64>::default(), |bb, &n| {
                                        bb.with(square(if turned { 51 - n } else { n }))
                                    })
                                };
                                let (mover_men, mover_kings) = (place(wmen), place(wkings));
                                let (other_men, other_kings) = (place(bmen), place(bkings));
                                let setup = if turned {
                                    Setup {
                                        white_men: other_men,
                                        white_kings: other_kings,
                                        black_men: mover_men,
                                        black_kings: mover_kings,
                                        turn: Some(Color::Black),
                                    }
                                } else {
                                    Setup {
                                        white_men: mover_men,
                                        white_kings: mover_kings,
                                        black_men: other_men,
                                        black_kings: other_kings,
                                        turn: Some(Color::White),
                                    }
                                };
                                let Ok(pos) = Position::from_setup_in(&setup, rules) else {
                                    continue;
                                };
                                if pos.has_captures() {
                                    continue;
                                }
                                let ours = match tables.probe(&pos) {
                                    Some(v) => match v.wdl() {
                                        1 => 2u8,
                                        -1 => 1,
                                        _ => 0,
                                    },
                                    None => continue,
                                };
                                tally.positions += 1;
                                tally.wdl[usize::from(ours)] += 1;
                                if ours != scan {
                                    tally.wrong += 1;
                                    if first_wrong.is_none() {
                                        first_wrong = Some(format!(
                                            "{} Scan {scan} ours {ours}",
                                            shashki::write_fen(&pos, shashki::Notation::Numeric)
                                        ));
                                    }
                                }
                            }
                        });
                    });
                });
            });
            println!(
                "{name}: {:>9} positions without a capture compared (draw/loss/win for the side to move {}/{}/{}), {} differ{}",
                tally.positions,
                tally.wdl[0],
                tally.wdl[1],
                tally.wdl[2],
                tally.wrong,
                first_wrong.map(|w| format!(", first: {w}")).unwrap_or_default()
            );
            total.positions += tally.positions;
            total.wrong += tally.wrong;
            for i in 0..3 {
                total.wdl[i] += tally.wdl[i];
            }
            bad |= tally.wrong > 0;
        }
    }
    println!(
        "all: {} positions compared (draw/loss/win {}/{}/{}), {} differ",
        total.positions, total.wdl[0], total.wdl[1], total.wdl[2], total.wrong
    );
    if bad {
        std::process::exit(1);
    }
}
