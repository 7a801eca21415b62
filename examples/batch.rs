//! `cargo run --release --example batch -- [GAMES] [STEPS] [variant NAME]`: the batch API's
//! loop without Python (every game a random legal action a step, the mask and the planes
//! written after each), for profiling and instruction counts (cachegrind). One thread: the
//! batches below the parallel threshold step on the calling thread, so use at most 511
//! games for a count that does not depend on the threads.
use shashki::batch::{Batch, PLANES};
use shashki::{Board, Position, RuleSet, Variant};
use std::mem::MaybeUninit;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|n| n.parse().ok()).unwrap_or(256);
    let steps: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(300);
    let variant = match args.iter().position(|a| a == "variant") {
        Some(i) => match args.get(i + 1).and_then(|v| Variant::parse(v)) {
            Some(v) => v,
            None => {
                eprintln!("variant: expected a game's name");
                std::process::exit(2);
            }
        },
        None => Variant::Russian,
    };
    let rules = RuleSet::new(variant, false);
    let t = Instant::now();
    let (plies, ended) = if variant.geometry().is_wide() {
        match Position::<u128>::start_in(rules) {
            Ok(start) => run(Batch::new(vec![Board::new(start); games], 400), steps),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    } else {
        let start = Position::start_of(rules);
        run(Batch::new(vec![Board::new(start); games], 400), steps)
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{games} games × {steps} steps of {}: {plies} actions, {ended} games ended, {:.2} M steps/s",
        variant.name(),
        (games * steps) as f64 / secs / 1e6
    );
}

/// Step every game `steps` times: (actions taken, games ended).
fn run<W: shashki::GameWord>(mut batch: Batch<W>, steps: usize) -> (usize, usize) {
    let n = batch.games.len();
    let shape = batch.shape();
    let mut actions = vec![0i64; n];
    let mut rewards = vec![0f32; n];
    let mut ends = vec![(false, false); n];
    let mut planes = vec![0u8; n * PLANES * shape.size * shape.size];
    let mut mask = vec![MaybeUninit::new(false); n * shape.actions];
    let (mut taken, mut ended) = (0, 0);
    for step in 0..steps {
        batch.sample(step as u64, &mut actions);
        taken += actions.iter().filter(|&&a| a >= 0).count();
        batch.step(
            &actions,
            &mut rewards,
            &mut ends,
            Some(&mut planes),
            Some(&mut mask),
        );
        ended += ends.iter().filter(|(t, u)| *t || *u).count();
    }
    (taken, ended)
}
