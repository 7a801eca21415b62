//! `cargo run --release --example egtb_verify -- DIR [STEP [PIECES]]`: check every table in
//! DIR against its children (see `shashki::egtb::verify`) and print the wins, draws and
//! losses of each; with STEP, the positions of every STEP-th slot only; with PIECES, only
//! the balances of that many pieces.
fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "egtb".to_owned());
    let step: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let pieces: Option<u32> = std::env::args().nth(3).and_then(|s| s.parse().ok());
    let tables = match shashki::egtb::Tables::open(std::path::Path::new(&dir)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut bad = false;
    for m in tables.materials() {
        if pieces.is_some_and(|p| p != m.pieces()) {
            continue;
        }
        match shashki::egtb::verify_every(&tables, m, step) {
            Ok([w, b]) => println!(
                "{:<8} {:>9} positions  White to move W/D/L {}/{}/{}  Black to move W/D/L {}/{}/{}",
                m.name(),
                w.iter().chain(&b).sum::<u64>(),
                w[0],
                w[1],
                w[2],
                b[0],
                b[1],
                b[2]
            ),
            Err(e) => {
                bad = true;
                println!("{:<8} WRONG: {e}", m.name());
            }
        }
    }
    if bad {
        std::process::exit(1);
    }
}
