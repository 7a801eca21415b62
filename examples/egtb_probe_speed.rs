//! `cargo run --release --example egtb_probe_speed -- DIR [PIECES [COUNT]]`: the time of a
//! probe of random positions of PIECES pieces (default: the most the tables hold), read from
//! the files in DIR: the first pass unpacks the blocks it reaches, the second finds them in
//! memory. Positions with a capture (a small search of their captures) are timed apart.
use std::time::Instant;

use shashki::egtb::{Material, Tables};
use shashki::Color;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "egtb".to_owned());
    let tables = match Tables::open(std::path::Path::new(&dir)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let pieces: u32 = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(tables.max_pieces());
    let count: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let materials: Vec<Material> = tables
        .materials()
        .into_iter()
        .filter(|m| m.pieces() == pieces)
        .collect();
    if materials.is_empty() {
        eprintln!("no balance of {pieces} pieces in {dir}");
        std::process::exit(1);
    }
    // A small xorshift: reproducible positions without a dependency.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut quiet, mut captures) = (Vec::new(), Vec::new());
    while quiet.len() + captures.len() < count {
        let m = materials[(next() % materials.len() as u64) as usize];
        let turn = if next() % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Some(pos) = m.position::<u64>(next() % m.slots(), turn) {
            if pos.has_captures() {
                captures.push(pos);
            } else {
                quiet.push(pos);
            }
        }
    }
    println!(
        "{} positions of {pieces} pieces over {} balances ({} with a capture)",
        count,
        materials.len(),
        captures.len()
    );
    for pass in ["first pass (unpacking)", "second pass (in memory)"] {
        for (kind, positions) in [("quiet", &quiet), ("capture", &captures)] {
            let start = Instant::now();
            let mut held = 0usize;
            for pos in positions.iter() {
                held += usize::from(tables.probe(std::hint::black_box(pos)).is_some());
            }
            let ns = start.elapsed().as_nanos() as f64 / positions.len().max(1) as f64;
            println!("{pass:<24} {kind:<8} {ns:>9.0} ns a probe ({held} held)");
        }
    }
}
