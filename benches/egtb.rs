//! Endgame table probes from Rust (tables of up to 3 pieces, built in memory first).
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use shashki::egtb::{build_dir, Tables};
use shashki::position_from_fen;

fn bench_probe(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("shashki-egtb-bench-{}", std::process::id()));
    build_dir(
        &dir,
        shashki::egtb::TableGame::Russian,
        3,
        &|_, _, _, _| {},
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("tables of up to 3 pieces");
    let tables = Tables::open(&dir).expect("the files just built");
    let positions: Vec<_> = [
        "W:WK30,K31:BK1",
        "B:WK30:B20",
        "W:W20:B13,K4",
        "B:WK29:BK4,6",
    ]
    .iter()
    .map(|f| position_from_fen(f).expect("valid"))
    .collect();
    c.bench_function("egtb probe (4 positions)", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(tables.probe(black_box(p)));
            }
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench_probe);
criterion_main!(benches);
