//! Perft speed: leaves per second from the start position, both conventions, with and
//! without hashing and threads. Each bench also checks its node count.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shashki::{perft_counting, perft_with, Counting, PerftOptions, Position};

fn bench_perft(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft_start");
    group.sample_size(10);
    for (depth, leaves) in [(7u32, 190_146u64), (9, 4_570_586)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("distinct_depth_{depth}"), |b| {
            b.iter(|| assert_eq!(perft_counting(&start, depth, Counting::Distinct), leaves))
        });
    }
    group.throughput(Throughput::Elements(4_570_667));
    group.bench_function("orders_depth_9", |b| {
        b.iter(|| assert_eq!(perft_counting(&start, 9, Counting::Orders), 4_570_667))
    });
    let hashed = PerftOptions {
        hash_mb: 64,
        ..PerftOptions::default()
    };
    group.throughput(Throughput::Elements(4_570_586));
    group.bench_function("distinct_depth_9_hash64", |b| {
        b.iter(|| assert_eq!(perft_with(&start, 9, &hashed).ok(), Some(4_570_586)))
    });
    let threaded = PerftOptions {
        threads: Some(2),
        ..PerftOptions::default()
    };
    group.bench_function("distinct_depth_9_threads2", |b| {
        b.iter(|| assert_eq!(perft_with(&start, 9, &threaded).ok(), Some(4_570_586)))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
