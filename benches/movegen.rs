//! Move generation speed on a few typical positions.
use criterion::{criterion_group, criterion_main, Criterion};
use shashki::{position_from_fen, Counting, Position};
use std::hint::black_box;

fn bench_movegen(c: &mut Criterion) {
    let positions = [
        ("start", Position::start()),
        (
            "kings_and_men",
            position_from_fen("W:WK29,22,23,27:B6,7,14,15,19,K4").expect("valid FEN"),
        ),
        (
            "middlegame",
            position_from_fen("W:Wc5,e5,d4,g3,d2,f2,a1,c1,e1,g1:Bf8,h8,a7,c7,e7,g7,b6,h6,a5,g5")
                .expect("valid FEN"),
        ),
    ];
    let mut group = c.benchmark_group("movegen");
    for (name, pos) in positions {
        group.bench_function(format!("legal_moves_{name}"), |b| {
            b.iter(|| black_box(black_box(&pos).legal_moves().len()))
        });
        group.bench_function(format!("count_moves_{name}"), |b| {
            b.iter(|| black_box(black_box(&pos).count_moves(Counting::Distinct)))
        });
        let first = pos.legal_moves()[0];
        group.bench_function(format!("play_{name}"), |b| {
            b.iter(|| {
                let mut p = *black_box(&pos);
                p.play_unchecked(black_box(&first));
                black_box(p)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_movegen);
criterion_main!(benches);
