//! Perft of a column game (towers, Lasca) from its start or a FEN, one thread:
//! `stacks_perft GAME DEPTH [orders] [FEN]`.
use shashki::{Counting, StackPosition, Variant};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args
        .get(1)
        .and_then(|v| Variant::parse(v))
        .unwrap_or(Variant::Towers);
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(6);
    let counting = if args.iter().any(|a| a == "orders") {
        Counting::Orders
    } else {
        Counting::Distinct
    };
    let pos = match args.iter().skip(3).find(|a| a.contains(':')) {
        Some(fen) => StackPosition::from_fen(fen, variant).map(|p| p.0),
        None => StackPosition::start(variant),
    };
    let pos = match pos {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = pos.perft(d, counting);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{d} {n} {s:.3} s {:.1} M leaves/s",
            n as f64 / s.max(1e-9) / 1e6
        );
    }
}
