//! `cargo run --release --example egtb_verify -- DIR`: check every table in DIR against
//! its children (see `shashki::egtb::verify`) and print the wins, draws and losses of each.
fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "egtb".to_owned());
    let tables = match shashki::egtb::Tables::open(std::path::Path::new(&dir)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut bad = false;
    for m in tables.materials() {
        let counts = |t: usize| {
            let mut c = [0u64; 3];
            for b in &tables.values(&m).map(|v| v[t].clone()).unwrap_or_default() {
                match shashki::egtb::Value::from_byte(*b) {
                    Some(shashki::egtb::Value::Win(_)) => c[0] += 1,
                    Some(shashki::egtb::Value::Draw) => c[1] += 1,
                    Some(shashki::egtb::Value::Loss(_)) => c[2] += 1,
                    None => {}
                }
            }
            c
        };
        let (w, b) = (counts(0), counts(1));
        match shashki::egtb::verify(&tables, m) {
            Ok(n) => println!(
                "{:<8} {n:>9} positions  White to move W/D/L {}/{}/{}  Black to move W/D/L {}/{}/{}",
                m.name(), w[0], w[1], w[2], b[0], b[1], b[2]
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
