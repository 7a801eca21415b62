//! `cargo run --release --example egtb -- DIR PIECES [GAME]`: build endgame tables of up to
//! PIECES pieces of GAME (a game's name: `international`, `canadian`, …; Russian draughts'
//! when none is named) into DIR (resuming an interrupted build), with the time and size of
//! each.
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "egtb".to_owned());
    let pieces: u32 = args.next().and_then(|p| p.parse().ok()).unwrap_or(4);
    let game = match args.next() {
        None => shashki::egtb::TableGame::Russian,
        Some(name) => {
            let rules = shashki::Variant::parse(&name).map(|v| shashki::RuleSet::new(v, false));
            match rules.and_then(shashki::egtb::TableGame::of) {
                Some(game) => game,
                None => {
                    eprintln!("no endgame tables for {name:?}");
                    std::process::exit(2);
                }
            }
        }
    };
    let start = Instant::now();
    let result = shashki::egtb::build_dir(
        std::path::Path::new(&dir),
        game,
        pieces,
        &|i, n, m, slots| {
            eprintln!(
                "[{:>3}/{n}] {:<10} {slots:>10} slots  {:.1} s",
                i + 1,
                m.name(),
                start.elapsed().as_secs_f64()
            )
        },
        &|_| {},
        &std::sync::atomic::AtomicBool::new(false),
    );
    match result {
        Ok(materials) => println!(
            "{} balances up to {pieces} pieces in {:.1} s",
            materials.len(),
            start.elapsed().as_secs_f64()
        ),
        Err(e) => eprintln!("{e}"),
    }
}
