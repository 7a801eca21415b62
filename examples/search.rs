//! `cargo run --release --example search -- [DEPTH] [FEN]`: search a position and print the
//! iterations (for profiling and timing the engine without Python). `EVAL=network` (or
//! `classic`, `family`, a network file) chooses the evaluation; the default is the engine's.
use shashki::search::{Engine, Limits};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(14);
    let fen = args.next().unwrap_or_else(|| "W:W21-32:B1-12".to_owned());
    let pos = match shashki::position_from_fen(&fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let hash_mb = std::env::var("HASH")
        .ok()
        .and_then(|h| h.parse().ok())
        .unwrap_or(64);
    let engine = match Engine::new(hash_mb, 1) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    if let Ok(name) = std::env::var("EVAL") {
        let evaluation = match shashki::search::Evaluation::parse(&name) {
            Some(e) => Ok(e),
            None => shashki::eval::Evaluation::load(&name).map_err(|e| e.to_string()),
        };
        match evaluation {
            Ok(e) => engine.set_evaluation(e),
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        }
    }
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = engine.search(&pos, &[], &limits, |info| {
        let pv: Vec<String> = info.pv.iter().map(|m| m.long_text()).collect();
        println!(
            "depth {} seldepth {} score {:?} nodes {} nps {} time {:.3} pv {}",
            info.depth,
            info.seldepth,
            info.score,
            info.nodes,
            info.nps,
            info.time.as_secs_f64(),
            pv.join(" ")
        );
    });
    println!("best {:?}", result.best.map(|m| m.long_text()));
}
