//! `cargo run --release --example perft -- [DEPTH] [orders] [threads N] [hash MB]
//! [variant NAME]`: perft of a game's start position (Russian draughts' by default) with
//! timing, for profiling the Rust core without Python. A game of the 12×12 board
//! (Canadian) is counted in the 128-bit word, single-threaded and without a table.
use shashki::{perft_counting, perft_with, Counting, PerftOptions, Position, RuleSet, Variant};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args.first().and_then(|d| d.parse().ok()).unwrap_or(10);
    let mut options = PerftOptions::default();
    let mut rules = RuleSet::RUSSIAN;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "orders" => options.counting = Counting::Orders,
            "threads" => options.threads = it.next().and_then(|n| n.parse().ok()),
            "hash" => options.hash_mb = it.next().and_then(|n| n.parse().ok()).unwrap_or(0),
            "variant" => match it.next().and_then(|v| Variant::parse(v)) {
                Some(v) => rules = RuleSet::new(v, false),
                None => {
                    eprintln!("variant: expected a game's name");
                    std::process::exit(2);
                }
            },
            other => eprintln!("ignoring {other:?}"),
        }
    }
    let t = Instant::now();
    let n = if rules.variant.geometry().is_wide() {
        match Position::<u128>::start_in(rules) {
            Ok(pos) => perft_counting(&pos, depth, options.counting),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    } else {
        match perft_with(&Position::start_of(rules), depth, &options) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    };
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {n} leaves in {s:.3} s, {:.1} M leaves/s",
        n as f64 / s / 1e6
    );
}
