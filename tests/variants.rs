//! The variants in the Rust core: perft of each start position against
//! `tests/data/variants_perft.txt`, and the named rule differences of Brazilian draughts,
//! giveaway and captures optional.

use shashki::{
    draw::DrawRules, perft_counting, perft_with, position_from_fen, position_from_fen_in,
    position_from_fen_in_word, write_fen, Board, Color, Counting, Ending, Notation, PerftOptions,
    Position, RuleSet, Square, Variant,
};

struct Line {
    rules: RuleSet,
    fen: String,
    counting: Counting,
    depth: u32,
    nodes: u64,
}

fn lines() -> Vec<Line> {
    let mut out = Vec::new();
    let mut rules = RuleSet::RUSSIAN;
    let mut fen = String::new();
    for raw in include_str!("data/variants_perft.txt").lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key and value");
        match key {
            "id" => rules = RuleSet::RUSSIAN,
            "variant" => rules.variant = Variant::parse(rest).expect("a variant"),
            "captures_optional" => rules.captures_optional = rest == "true",
            "fen" => fen = rest.to_owned(),
            "A" | "B" => {
                let (depth, nodes) = rest.split_once(' ').expect("depth and nodes");
                out.push(Line {
                    rules,
                    fen: fen.clone(),
                    counting: if key == "A" {
                        Counting::Distinct
                    } else {
                        Counting::Orders
                    },
                    depth: depth.parse().expect("depth"),
                    nodes: nodes.parse().expect("nodes"),
                });
            }
            other => panic!("unknown key {other}"),
        }
    }
    out
}

#[test]
fn variant_start_positions_match_the_recorded_perft() {
    let lines = lines();
    assert!(lines.len() >= 100);
    // Deeper lines with SHASHKI_VARIANT_PERFT_DEPTH (e.g. 13).
    let max_depth = std::env::var("SHASHKI_VARIANT_PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(9);
    let narrow = |l: &&Line| !l.rules.variant.geometry().is_wide();
    for line in lines.iter().filter(narrow).filter(|l| l.depth <= max_depth) {
        let pos = position_from_fen_in(&line.fen, line.rules).expect("fen");
        assert_eq!(pos, Position::start_of(line.rules), "{}", line.rules.name());
        let options = PerftOptions {
            counting: line.counting,
            hash_mb: 8,
            ..PerftOptions::default()
        };
        let hashed = perft_with(&pos, line.depth, &options).expect("table");
        assert_eq!(
            hashed,
            line.nodes,
            "{} {:?} {}",
            line.rules.name(),
            line.counting,
            line.depth
        );
        if line.depth <= 7 {
            assert_eq!(perft_counting(&pos, line.depth, line.counting), line.nodes);
        }
    }
}

#[test]
fn the_twelve_by_twelve_start_matches_the_recorded_perft() {
    // Canadian draughts, in the 128-bit word: single-threaded perft without a table.
    let max_depth = std::env::var("SHASHKI_VARIANT_PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(7);
    let wide: Vec<Line> = lines()
        .into_iter()
        .filter(|l| l.rules.variant.geometry().is_wide())
        .collect();
    assert!(wide.len() >= 10);
    for line in wide.iter().filter(|l| l.depth <= max_depth) {
        let pos: Position<u128> = position_from_fen_in_word(&line.fen, line.rules).expect("fen");
        assert_eq!(Ok(pos), Position::<u128>::start_in(line.rules));
        assert_eq!(pos.rules(), line.rules);
        assert_eq!(write_fen(&pos, Notation::Numeric), line.fen);
        assert_eq!(
            perft_counting(&pos, line.depth, line.counting),
            line.nodes,
            "{} {:?} {}",
            line.rules.name(),
            line.counting,
            line.depth
        );
    }
}

/// The legal moves of a Canadian draughts position (12×12), as numeric texts.
fn canadian_moves(fen: &str) -> Vec<(String, bool)> {
    let rules = RuleSet::new(Variant::Canadian, false);
    let numbering = rules.variant.numbering();
    let pos: Position<u128> = position_from_fen_in_word(fen, rules).expect("fen");
    let mut texts: Vec<(String, bool)> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let mut text = numbering.number(m.from()).to_string();
            for sq in m.path() {
                text.push(if m.is_capture() { 'x' } else { '-' });
                text.push_str(&numbering.number(*sq).to_string());
            }
            (text, m.promotes())
        })
        .collect();
    texts.sort();
    texts
}

#[test]
fn canadian_draughts_take_the_most_pieces_and_cross_the_far_rank_as_men() {
    // The majority capture: e3 may take d4 alone or f4 and f6; only the second is legal.
    assert_eq!(
        canadian_moves("W:We3:Bd4,f4,f6"),
        [("57x46x33".to_owned(), false)]
    );
    // A man crossing the far rank during a capture goes on as a man, not crowned (h10
    // takes g11, lands on f12, takes e11 backwards and ends on d10).
    assert_eq!(
        canadian_moves("W:Wh10:Bg11,e11"),
        [("16x3x14".to_owned(), false)]
    );
    // Ending there, it is crowned.
    assert_eq!(canadian_moves("W:Wh10:Bg11"), [("16x3".to_owned(), true)]);
    // A flying king takes from afar and lands anywhere behind.
    let king = canadian_moves("W:WKa1:Bd4");
    assert_eq!(king.len(), 8, "{king:?}");
    // Men move forward only: the start's eleven moves are White's forward steps.
    let rules = RuleSet::new(Variant::Canadian, false);
    let start = Position::<u128>::start_in(rules).expect("start");
    assert_eq!(start.legal_moves().len(), 11);
    assert!(start.legal_moves().iter().all(|m| !m.is_capture()));
    assert_eq!(
        Position::<u64>::start_in(rules),
        Err(shashki::PositionError::WrongWord)
    );
}

#[test]
fn a_canadian_game_keeps_its_history_and_draw_clocks() {
    let rules = RuleSet::new(Variant::Canadian, false);
    let start = Position::<u128>::start_in(rules).expect("start");
    let draw = DrawRules::for_variant(Variant::Canadian);
    let mut board = Board::new(start);
    for ply in 0..400usize {
        if board.ending(&draw, false).is_some() {
            break;
        }
        let list = board.position().legal_moves();
        let m = list[(ply * 7 + 3) % list.len()];
        let before = board.clocks().kings_only;
        let king = board
            .position()
            .kings(board.position().turn())
            .contains(m.from());
        board.push(&m).expect("legal");
        let after = board.clocks().kings_only;
        assert_eq!(
            after,
            if king && !m.is_capture() {
                before + 1
            } else {
                0
            }
        );
    }
    assert!(board.plies() > 60, "{}", board.plies());
    assert!(board.ending(&draw, false).is_some() || board.plies() == 400);
    while board.pop().is_some() {}
    assert_eq!(*board.position(), start);
    // An illegal move is refused, named by the 12×12 board's squares.
    let g = rules.variant.geometry();
    let (c1, d2) = (
        g.square_at(2, 0).expect("c1"),
        g.square_at(3, 1).expect("d2"),
    );
    let mut refused = start;
    let err = refused
        .play(&shashki::Move::quiet(c1, d2, false))
        .expect_err("d2 is taken");
    assert_eq!(err.mv, "c1-d2");
    assert_eq!(refused, start);
    // Kings only, each side's king shuttling between two squares off the other's lines (c1
    // and d2 against l12 and k11): a draw rule (International's) ends the game, and a
    // 128-bit board's history tells the repetitions.
    let numbering = rules.variant.numbering();
    let square = |name: &str| numbering.parse(name).expect("square");
    let kings = "W:WKc1:BKl12";
    let pos: Position<u128> = position_from_fen_in_word(kings, rules).expect("fen");
    let mut board = Board::new(pos);
    let shuttle = [(square("c1"), square("d2")), (square("l12"), square("k11"))];
    let mut plies = 0;
    while board.ending(&draw, false).is_none() && plies < 200 {
        let (a, b) = shuttle[plies % 2];
        let list = board.position().legal_moves();
        let m = *list
            .iter()
            .find(|m| (m.from(), m.to()) == (a, b) || (m.from(), m.to()) == (b, a))
            .expect("the shuttle move");
        board.push(&m).expect("legal");
        plies += 1;
    }
    assert!(
        matches!(board.ending(&draw, false), Some(Ending::Draw { .. })),
        "{plies}"
    );
    assert!(board.occurrences() >= 2, "{plies}");
}

fn moves(fen: &str, rules: RuleSet) -> Vec<String> {
    let pos = position_from_fen(fen).expect("fen").with_rules(rules);
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|m| m.long_text()).collect();
    texts.sort();
    texts
}

const BRAZILIAN: RuleSet = RuleSet::new(Variant::Brazilian, false);

#[test]
fn brazilian_majority_rule_with_a_kings_long_capture() {
    let fen = "W:WKa1,e3:Bc3,f4";
    assert_eq!(
        moves(fen, RuleSet::RUSSIAN),
        ["a1:e5:g3", "a1:e5:h2", "e3:g5"]
    );
    assert_eq!(moves(fen, BRAZILIAN), ["a1:e5:g3", "a1:e5:h2"]);
}

#[test]
fn brazilian_man_is_not_crowned_mid_capture() {
    let pos = position_from_fen("W:Wb6:Bc7,e7")
        .expect("fen")
        .with_rules(BRAZILIAN);
    let list = pos.legal_moves();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].long_text(), "b6:d8:f6");
    assert!(!list[0].promotes());
    let ended = position_from_fen("W:Wb6:Bc7,f6")
        .expect("fen")
        .with_rules(BRAZILIAN);
    let list = ended.legal_moves();
    assert_eq!(list.len(), 1);
    assert!(list[0].promotes());
    assert_eq!(list[0].to(), Square::parse("d8").expect("square"));
}

#[test]
fn captures_optional_adds_the_quiet_moves() {
    let optional = RuleSet::new(Variant::Russian, true);
    assert_eq!(moves("W:Wc3:Bd4", RuleSet::RUSSIAN), ["c3:e5"]);
    assert_eq!(moves("W:Wc3:Bd4", optional), ["c3-b4", "c3:e5"]);
    let pos = position_from_fen("W:Wc3:Bd4,f6")
        .expect("fen")
        .with_rules(optional);
    assert_eq!(pos.count_moves(Counting::Distinct), 2);
}

#[test]
fn giveaway_moves_are_russian_and_rules_travel_with_the_position() {
    let giveaway = RuleSet::new(Variant::Giveaway, false);
    let mut pos = Position::start_of(giveaway);
    assert_eq!(pos.legal_moves().len(), 7);
    let first = pos.legal_moves()[0];
    pos.play(&first).expect("legal");
    assert_eq!(pos.rules(), giveaway);
    assert!(giveaway.no_moves_wins() && !giveaway.plays_as_russian());
    for code in 0..=255u8 {
        let rules = RuleSet::from_code(code);
        assert_eq!(RuleSet::from_code(rules.code()), rules);
    }
}

#[test]
fn rules_travel_through_play_and_never_touch_the_squares() {
    // Every rule set, a few hundred plies of deterministic play: the rules stay, and the
    // position rebuilt from its pieces under the same rules is the same position.
    let every = Variant::ALL
        .iter()
        .filter(|v| !v.geometry().is_wide())
        .flat_map(|&v| [RuleSet::new(v, false), RuleSet::new(v, true)]);
    for rules in every {
        let mut pos = Position::start_of(rules);
        for ply in 0..200usize {
            let list = pos.legal_moves();
            if list.is_empty() {
                break;
            }
            let m = list[(ply * 7 + 3) % list.len()];
            pos.play(&m).expect("legal");
            assert_eq!(pos.rules(), rules);
            let rebuilt = Position::from_setup_in(&pos.setup(), rules).expect("setup");
            let runs = [Color::White, Color::Black].map(|c| pos.king_run(c));
            if runs == [None, None] {
                assert_eq!(rebuilt, pos);
                assert_eq!(rebuilt.hash(), pos.hash());
            } else {
                // A king's run of quiet moves (Frisian) is history: not in the setup, but in
                // the position and its hash.
                assert_eq!(rebuilt.setup(), pos.setup());
                assert_ne!(rebuilt.hash(), pos.hash());
            }
            assert!(pos.occupied().count() <= Position::start_of(rules).occupied().count());
            assert_eq!(
                pos.occupied() & !rules.variant.geometry().board(),
                Default::default()
            );
        }
    }
}

#[test]
fn the_engine_searches_the_twelve_by_twelve_board() {
    use shashki::search::{Engine, Limits, Score};
    let rules = RuleSet::new(Variant::Canadian, false);
    let engine = Engine::new(1, 1).expect("engine");
    let search = |fen: &str, limits: &Limits<u128>| {
        let pos: Position<u128> = position_from_fen_in_word(fen, rules).expect("fen");
        let board = Board::new(pos);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let result = engine.search_board(&board, limits, stop, |_| {});
        (pos, result)
    };
    let depth = |d: u32| Limits::<u128> {
        depth: Some(d),
        ..Limits::default()
    };
    // Black's man on b12 is shut in (a11 and c11 taken, d10 behind c11): a move of the
    // king's man keeps it so, and Black, without a move, loses. Opening the shut (c11-d12,
    // d10-e11) does not win at once.
    let (pos, result) = search("W:W7,8,14,72:B1", &depth(4));
    let best = result.best.expect("a move");
    assert!(pos.is_legal(&best));
    assert_eq!(result.info.score, Score::Win(1), "{best}");
    assert_eq!(pos.geometry().name(best.from()), "k1");
    // The root moves restrict the search: told to open the shut, it must.
    let open = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|m| pos.geometry().name(m.from()) == "c11")
        .expect("c11-d12");
    let limits = Limits::<u128> {
        root_moves: vec![open],
        ..depth(4)
    };
    let (_, result) = search("W:W7,8,14,72:B1", &limits);
    assert_eq!(result.best, Some(open));
    // Crowned on d12, the king takes the freed man on c11: a win in two moves, not one.
    assert_eq!(result.info.score, Score::Win(2));
    // From the start: a legal move, a line of legal moves, scored near equality.
    let start = Position::<u128>::start_in(rules).expect("start");
    let (_, result) = search(&write_fen(&start, Notation::Numeric), &depth(6));
    let mut line = start;
    for m in &result.info.pv {
        line.play(m).expect("the line's moves are legal");
    }
    assert!(result.info.pv.len() >= 6);
    assert!(matches!(result.info.score, Score::Value(v) if v.abs() < 100));
}
