//! The search: behaviour (limits, stop, legal results, known wins), not strength.
use std::sync::Arc;
use std::time::{Duration, Instant};

use shashki::eval::{evaluate_with, Evaluation};
use shashki::search::{Engine, Limits, Score};
use shashki::{position_from_fen, Position};

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn search_returns_a_legal_move_and_a_legal_pv() {
    let engine = Engine::new(8, 1).expect("a small table");
    let pos = Position::start();
    let mut seen = Vec::new();
    let result = engine.search(&pos, &[], &depth(8), |info| seen.push(info.depth));
    assert_eq!(seen, (1..=8).collect::<Vec<_>>());
    let best = result.best.expect("a move");
    assert!(pos.is_legal(&best));
    let mut p = pos;
    for m in &result.info.pv {
        p.play(m).expect("PV moves are legal in turn");
    }
}

#[test]
fn no_legal_move_gives_no_move_and_a_lost_score() {
    let engine = Engine::new(1, 1).expect("a small table");
    let pos = position_from_fen("W:W29:B25,22").expect("valid");
    assert!(pos.legal_moves().is_empty());
    let result = engine.search(&pos, &[], &depth(5), |_| {});
    assert!(result.best.is_none());
    assert_eq!(result.info.score, Score::Win(0));
}

#[test]
fn finds_a_forced_win() {
    // A king against a lone man: White wins.
    let engine = Engine::new(8, 1).expect("a small table");
    let pos = position_from_fen("W:WK29:B1").expect("valid");
    let result = engine.search(&pos, &[], &depth(12), |_| {});
    assert!(
        matches!(result.info.score, Score::Win(n) if n > 0),
        "{:?}",
        result.info.score
    );
}

#[test]
fn node_and_time_limits_stop_the_search() {
    let engine = Engine::new(8, 1).expect("a small table");
    let pos = Position::start();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let result = engine.search(&pos, &[], &limits, |_| {});
    assert!(result.info.nodes < 40_000, "{}", result.info.nodes);
    let start = Instant::now();
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let result = engine.search(&pos, &[], &limits, |_| {});
    assert!(start.elapsed() < Duration::from_millis(900));
    assert!(result.best.is_some());
}

#[test]
fn stop_flag_ends_an_unlimited_search() {
    let engine = Arc::new(Engine::new(8, 2).expect("a small table"));
    let stopper = Arc::clone(&engine);
    let handle = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        stopper.stop();
    });
    let result = engine.search(&Position::start(), &[], &Limits::default(), |_| {});
    handle.join().expect("stopper thread");
    assert!(result.best.is_some());
}

#[test]
fn repetition_with_the_game_history_scores_a_draw() {
    // Black's lone king is lost against four kings, but its move
    // f8-e7 leads to a position the game has already seen: the search takes the draw.
    let engine = Engine::new(8, 1).expect("a small table");
    let root = position_from_fen("B:WK29,K30,K31,K32:BK3").expect("valid");
    let alone = engine.search(&root, &[], &depth(6), |_| {});
    assert!(
        matches!(alone.info.score, Score::Value(v) if v < -300),
        "{:?}",
        alone.info.score
    );
    let mut seen = root;
    let m = root
        .legal_moves()
        .into_iter()
        .find(|m| m.long_text() == "f8-e7")
        .expect("f8-e7");
    seen.play(&m).expect("legal");
    engine.clear();
    let result = engine.search(&root, &[seen.hash()], &depth(6), |_| {});
    assert_eq!(result.info.score, Score::Value(0));
    assert_eq!(result.best, Some(m));
}

#[test]
fn evaluation_is_symmetric() {
    let evaluate = |pos: &Position| evaluate_with(pos, Evaluation::Classic);
    for fen in ["W:W21-32:B1-12", "W:WK29,22,23,27:B6,7,14,15,19,K4"] {
        let pos = position_from_fen(fen).expect("valid");
        assert_eq!(evaluate(&pos), -evaluate(&pos.with_turn(!pos.turn())));
    }
    assert_eq!(evaluate(&Position::start()), 0);
}

#[test]
fn multipv_searches_k_distinct_lines_best_first() {
    let engine = Engine::new(8, 1).expect("a small table");
    let pos = Position::start();
    let limits = Limits {
        depth: Some(6),
        multipv: 4,
        ..Limits::default()
    };
    let mut reported = Vec::new();
    let result = engine.search(&pos, &[], &limits, |info| {
        reported.push((info.depth, info.multipv))
    });
    assert_eq!(result.lines.len(), 4);
    let firsts: Vec<_> = result.lines.iter().map(|l| l.pv[0]).collect();
    for (i, m) in firsts.iter().enumerate() {
        assert!(pos.is_legal(m));
        assert!(!firsts[..i].contains(m), "a first move repeats");
    }
    let value = |s: Score| match s {
        Score::Value(v) => v,
        Score::Win(n) => 100_000_i32.saturating_sub(n.abs()) * n.signum(),
    };
    let values: Vec<i32> = result.lines.iter().map(|l| value(l.score)).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    assert_eq!(result.best, Some(firsts[0]));
    assert_eq!(result.info.pv, result.lines[0].pv);
    let expected: Vec<_> = (1..=6).flat_map(|d| (1..=4).map(move |k| (d, k))).collect();
    assert_eq!(reported, expected);
    // More lines than legal moves: one line a move.
    let two = position_from_fen("W:W21,22:B1").expect("valid");
    let result = engine.search(&two, &[], &limits, |_| {});
    assert_eq!(result.lines.len(), two.legal_moves().len());
}

/// Runs `search` on its own thread; returns the time it took and its result.
fn timed_search(
    engine: &Arc<Engine>,
    limits: Limits,
) -> std::thread::JoinHandle<(Duration, shashki::search::SearchResult)> {
    let engine = Arc::clone(engine);
    std::thread::spawn(move || {
        let start = Instant::now();
        let result = engine.search(&Position::start(), &[], &limits, |_| {});
        (start.elapsed(), result)
    })
}

/// Waits until `engine` runs a search.
fn wait_running(engine: &Engine) {
    while engine.searches_running() == 0 {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn a_ponder_search_holds_its_time_limit_until_the_ponder_hit() {
    let engine = Arc::new(Engine::new(8, 1).expect("a small table"));
    let limits = Limits {
        movetime: Some(Duration::from_millis(20)),
        ponder: true,
        ..Limits::default()
    };
    let search = timed_search(&engine, limits);
    wait_running(&engine);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(engine.searches_running(), 1, "it pondered past its 20 ms");
    assert_eq!(engine.ponderhit(None), 1);
    let hit = Instant::now();
    let (took, result) = search.join().expect("search thread");
    // Its 20 ms counted from its start: past, so it ends at once after the hit.
    assert!(took >= Duration::from_millis(300));
    assert!(
        hit.elapsed() < Duration::from_millis(1000),
        "{:?}",
        hit.elapsed()
    );
    assert!(result.best.is_some());
    assert_eq!(engine.ponderhit(None), 0, "no search left to reach");
}

#[test]
fn a_ponder_search_that_ends_early_answers_only_after_the_hit_or_a_stop() {
    let engine = Arc::new(Engine::new(8, 1).expect("a small table"));
    for hit in [true, false] {
        let limits = Limits {
            depth: Some(2),
            ponder: true,
            ..Limits::default()
        };
        let search = timed_search(&engine, limits);
        wait_running(&engine);
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(
            engine.searches_running(),
            1,
            "depth 2 took no time, yet it waits"
        );
        if hit {
            engine.ponderhit(None);
        } else {
            engine.stop();
        }
        let (took, result) = search.join().expect("search thread");
        assert!(took >= Duration::from_millis(200));
        assert_eq!(result.info.depth, 2);
        assert!(result.best.is_some());
    }
}

#[test]
fn a_ponder_hit_with_a_clock_sets_the_time_limits() {
    let engine = Arc::new(Engine::new(8, 1).expect("a small table"));
    // Pondering with no time limit: the hit gives it 150 ms from now on (its 100 ms of
    // pondering count: 250 ms from its start).
    let limits = Limits {
        ponder: true,
        ..Limits::default()
    };
    let search = timed_search(&engine, limits);
    wait_running(&engine);
    std::thread::sleep(Duration::from_millis(100));
    let clock = Limits {
        movetime: Some(Duration::from_millis(250)),
        ..Limits::default()
    };
    engine.ponderhit(Some(&clock));
    let (took, _) = search.join().expect("search thread");
    assert!(took >= Duration::from_millis(240), "{took:?}");
    assert!(took < Duration::from_millis(1500), "{took:?}");
}

#[test]
fn a_search_after_another_evaluation_or_other_rules_is_a_fresh_engines_search() {
    // The engine keeps its workers' cached evaluations between searches: they must not
    // carry over to another evaluation or other rules (the same squares, another game).
    use shashki::search::Evaluation;
    use shashki::{RuleSet, Variant};
    let pos = position_from_fen("W:W21,22,23,25,26,27,29,30:B5,6,7,9,10,11,13,14").expect("fen");
    let giveaway = pos.with_rules(RuleSet {
        variant: Variant::Giveaway,
        captures_optional: false,
    });
    let result = |engine: &Engine, pos: &Position| {
        engine.clear(); // the same empty table each time: only the cached evaluations differ
        let r = engine.search(pos, &[], &depth(7), |_| {});
        (r.best, r.info.score, r.info.nodes)
    };
    let used = Engine::new(8, 1).expect("a small table");
    used.set_evaluation(Evaluation::Learned);
    let learned = result(&used, &pos);
    used.set_evaluation(Evaluation::Classic);
    let classic = result(&used, &pos);
    let fresh = Engine::new(8, 1).expect("a small table");
    fresh.set_evaluation(Evaluation::Classic);
    assert_eq!(classic, result(&fresh, &pos));
    assert_ne!(
        learned.1, classic.1,
        "the two evaluations score this position alike"
    );
    let in_giveaway = result(&used, &giveaway);
    let fresh = Engine::new(8, 1).expect("a small table");
    fresh.set_evaluation(Evaluation::Classic);
    assert_eq!(in_giveaway, result(&fresh, &giveaway));
    // The same search again on the used engine is the same search.
    assert_eq!(in_giveaway, result(&used, &giveaway));
}

#[test]
fn deep_searches_keep_a_legal_pv_that_starts_with_the_best_move() {
    // Deep enough for singular extensions: the table's move is tested against the others
    // in a search of the same node without it, which must leave the node's line intact.
    let engine = Engine::new(8, 1).expect("a small table");
    for fen in [
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:W18,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
        "B:W17,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,14",
        "W:Wd4,f4,a3,c3,e3,d2,f2,h2,c1,e1,g1:Bb8,d8,f8,h8,a7,b6,d6,h6,c5,g5,h4",
    ] {
        let pos = position_from_fen(fen).expect("valid");
        let result = engine.search(&pos, &[], &depth(11), |_| {});
        let best = result.best.expect("a move");
        assert_eq!(result.info.pv.first(), Some(&best), "{fen}");
        let mut p = pos;
        for m in &result.info.pv {
            p.play(m).expect("PV moves are legal in turn");
        }
    }
}
