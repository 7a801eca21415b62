//! `cargo run --example moves -- FEN`: list the legal moves of a position.
fn main() {
    let fen = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "W:W21-32:B1-12".to_owned());
    match shashki::position_from_fen(&fen) {
        Ok(pos) => {
            for m in pos.legal_moves() {
                println!(
                    "{} captured={:?} promotes={}",
                    m.long_text(),
                    m.captured(),
                    m.promotes()
                );
            }
        }
        Err(e) => eprintln!("{e}"),
    }
}
