//! Perft against the published figures in `tests/data/perft.txt` (copied from the project's
//! reference set). Lines up to `NODE_LIMIT` leaves run by default; set `SHASHKI_PERFT_NODES`
//! (e.g. to 1e12) for the deep lines.

use shashki::{perft_counting, perft_with, position_from_fen, Counting, PerftOptions, Position};

struct Line {
    id: String,
    fen: String,
    counting: Counting,
    depth: u32,
    nodes: u64,
}

fn lines() -> Vec<Line> {
    let text = include_str!("data/perft.txt");
    let mut out = Vec::new();
    let (mut id, mut fen) = (String::new(), String::new());
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(2, ' ');
        let key = parts.next().unwrap_or_default();
        let rest = parts.next().unwrap_or_default().trim();
        match key {
            "id" => id = rest.to_owned(),
            "fen" => fen = rest.to_owned(),
            "A" | "B" => {
                let mut nums = rest.split_whitespace();
                let depth = nums.next().and_then(|d| d.parse().ok()).expect("depth");
                let nodes = nums.next().and_then(|d| d.parse().ok()).expect("nodes");
                out.push(Line {
                    id: id.clone(),
                    fen: fen.clone(),
                    counting: if key == "A" {
                        Counting::Distinct
                    } else {
                        Counting::Orders
                    },
                    depth,
                    nodes,
                });
            }
            other => panic!("unknown line kind {other:?}"),
        }
    }
    out
}

fn node_limit() -> u64 {
    std::env::var("SHASHKI_PERFT_NODES")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .map(|v| v as u64)
        .unwrap_or(if cfg!(debug_assertions) {
            2_000_000
        } else {
            30_000_000
        })
}

#[test]
fn perft_matches_published_figures() {
    let limit = node_limit();
    let all = lines();
    assert!(
        all.len() > 100,
        "the table should hold every published line"
    );
    let mut checked = 0;
    for line in all.iter().filter(|l| l.nodes <= limit) {
        let pos = position_from_fen(&line.fen).expect("reference FEN");
        let got = perft_counting(&pos, line.depth, line.counting);
        assert_eq!(
            got, line.nodes,
            "{} {:?} depth {}",
            line.id, line.counting, line.depth
        );
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} lines checked");
}

#[test]
fn hashed_and_threaded_perft_agree_with_plain() {
    for line in lines()
        .iter()
        .filter(|l| l.nodes <= 1_000_000 && l.depth >= 3)
    {
        let pos = position_from_fen(&line.fen).expect("reference FEN");
        for (threads, hash_mb) in [(Some(2), 0), (None, 4), (Some(2), 4)] {
            let options = PerftOptions {
                counting: line.counting,
                threads,
                hash_mb,
                key_seed: hash_mb as u64,
            };
            assert_eq!(
                perft_with(&pos, line.depth, &options).ok(),
                Some(line.nodes),
                "{} depth {} threads {threads:?} hash {hash_mb}",
                line.id,
                line.depth
            );
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::start();
    let entries = shashki::perft_divide(&pos, 5, &PerftOptions::default(), None, |_| {})
        .expect("no table to allocate");
    assert_eq!(entries.len(), 7);
    assert_eq!(entries.iter().map(|e| e.count).sum::<u64>(), 7482);
}

#[test]
fn a_full_table_keeps_counts_exact() {
    // A 1 MB table holds 16,384 buckets: perft 11 stores far more counts than that, so
    // entries are replaced all the time (deep ones kept, shallow ones overwritten).
    let start = Position::start();
    for (counting, nodes) in [
        (Counting::Distinct, 110_917_189),
        (Counting::Orders, 110_961_169),
    ] {
        for threads in [None, Some(2)] {
            let options = PerftOptions {
                counting,
                threads,
                hash_mb: 1,
                key_seed: 7,
            };
            assert_eq!(perft_with(&start, 11, &options).ok(), Some(nodes));
        }
    }
}

#[test]
fn a_capture_that_ends_where_it_started_leaves_its_piece_there() {
    // e3:c5:e7:g5:e3 takes four men and ends on e3 (convention B: both ways round); then
    // Black's d2 must take e3 (c1 is occupied, so White's first jump cannot go on over d2).
    // Counting the replies as if e3 were empty would find d2-e1 and a7-b6 instead.
    let pos = position_from_fen("W:We3,c1:Bd4,d6,f6,f4,a7,d2").expect("a valid position");
    assert_eq!(perft_counting(&pos, 1, Counting::Distinct), 1);
    assert_eq!(perft_counting(&pos, 2, Counting::Distinct), 1);
    assert_eq!(perft_counting(&pos, 1, Counting::Orders), 2);
    assert_eq!(perft_counting(&pos, 2, Counting::Orders), 2);
}
