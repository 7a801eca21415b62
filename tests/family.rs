//! The 8×8 family's move rules, each with a position where it differs from Russian draughts.
//! Positions are given in Russian draughts' squares (the generator's own coordinates; a
//! turned board's game is stored mirrored, which changes no rule).

use shashki::{
    position_from_fen, position_from_fen_in, write_fen, Notation, Position, RuleSet, Variant,
};

fn moves(fen: &str, variant: Variant) -> Vec<String> {
    let pos = position_from_fen(fen)
        .expect("fen")
        .with_rules(RuleSet::new(variant, false));
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|m| m.long_text()).collect();
    texts.sort();
    texts
}

#[test]
fn english_men_capture_forward_only_and_kings_are_short() {
    assert_eq!(moves("W:Wd4:Bc3,e5", Variant::Russian), ["d4:b2", "d4:f6"]);
    assert_eq!(moves("W:Wd4:Bc3,e5", Variant::English), ["d4:f6"]);
    assert_eq!(
        moves("W:WKa1:Bd4", Variant::Russian),
        ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    );
    assert_eq!(moves("W:WKa1:Bd4", Variant::English), ["a1-b2"]);
    assert_eq!(moves("W:WKa1:Bb2", Variant::English), ["a1:c3"]);
    // A king captures backwards.
    assert_eq!(moves("W:WKe5:Bd4", Variant::English), ["e5:c3"]);
}

#[test]
fn english_crowning_ends_the_capture() {
    // Russian: crowned on d8, the new king takes e7 at once. English: the move ends on d8.
    assert_eq!(
        moves("W:Wb6:Bc7,e7", Variant::Russian),
        ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]
    );
    let pos = position_from_fen("W:Wb6:Bc7,e7")
        .expect("fen")
        .with_rules(RuleSet::new(Variant::English, false));
    let list = pos.legal_moves();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].long_text(), "b6:d8");
    assert!(list[0].promotes());
}

#[test]
fn italian_men_never_take_kings() {
    assert_eq!(moves("W:Wd4:BKe5", Variant::English), ["d4:f6"]);
    assert_eq!(moves("W:Wd4:BKe5", Variant::Italian), ["d4-c5"]);
}

#[test]
fn italian_capture_priorities_in_order() {
    // 1. The most pieces.
    assert_eq!(
        moves("W:Wc3,h2:Bd4,f6,g3", Variant::English),
        ["c3:e5:g7", "h2:f4"]
    );
    assert_eq!(moves("W:Wc3,h2:Bd4,f6,g3", Variant::Italian), ["c3:e5:g7"]);
    // 2. Equal counts: a capture by a king before one by a man.
    assert_eq!(
        moves("W:WKc3,g3:Bd4,f4", Variant::English),
        ["c3:e5", "g3:e5"]
    );
    assert_eq!(moves("W:WKc3,g3:Bd4,f4", Variant::Italian), ["c3:e5"]);
    // 3. Then the most kings taken.
    assert_eq!(
        moves("W:WKc3:BKb4,d4", Variant::English),
        ["c3:a5", "c3:e5"]
    );
    assert_eq!(moves("W:WKc3:BKb4,d4", Variant::Italian), ["c3:a5"]);
    // 4. Then the capture that meets a king first: a man then a king (d4, b6), or a king
    //    then a man (f4, f6).
    assert_eq!(
        moves("W:WKe3:Bd4,Kb6,Kf4,f6", Variant::English),
        ["e3:c5:a7", "e3:g5:e7"]
    );
    assert_eq!(
        moves("W:WKe3:Bd4,Kb6,Kf4,f6", Variant::Italian),
        ["e3:g5:e7"]
    );
}

#[test]
fn spanish_takes_the_most_pieces_then_the_most_kings() {
    assert_eq!(moves("W:Wc3:BKb4,d4", Variant::Russian), ["c3:a5", "c3:e5"]);
    assert_eq!(moves("W:Wc3:BKb4,d4", Variant::Spanish), ["c3:a5"]);
    assert_eq!(moves("W:Wc3:BKb4,d4", Variant::Portuguese), ["c3:a5"]);
    assert_eq!(moves("W:Wc3,h2:Bd4,f6,g3", Variant::Spanish), ["c3:e5:g7"]);
}

#[test]
fn czech_kings_capture_first() {
    let english = moves("W:WKa1,e3:Bc3,f4", Variant::Pool);
    assert!(english.iter().any(|m| m.starts_with("e3")), "{english:?}");
    let czech = moves("W:WKa1,e3:Bc3,f4", Variant::Czech);
    assert!(!czech.is_empty());
    assert!(czech.iter().all(|m| m.starts_with("a1")), "{czech:?}");
    // Without a king's capture, free choice among the men's.
    assert_eq!(
        moves("W:Wc3,h2:Bd4,f6,g3", Variant::Czech),
        ["c3:e5:g7", "h2:f4"]
    );
}

#[test]
fn pool_men_pass_the_far_row_as_men() {
    let pos = position_from_fen("W:Wb6:Bc7,e7")
        .expect("fen")
        .with_rules(RuleSet::new(Variant::Pool, false));
    let list = pos.legal_moves();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].long_text(), "b6:d8:f6");
    assert!(!list[0].promotes());
    assert_eq!(moves("W:Wd4:Bc3,e5", Variant::Pool), ["d4:b2", "d4:f6"]);
}

#[test]
fn thai_kings_land_directly_behind() {
    assert_eq!(
        moves("W:WKa1:Bc3", Variant::Russian),
        ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    );
    assert_eq!(moves("W:WKa1:Bc3", Variant::Thai), ["a1:d4"]);
    // Men forward only.
    assert_eq!(moves("W:Wd4:Bc3,e5", Variant::Thai), ["d4:f6"]);
}

#[test]
fn thai_pieces_taken_leave_the_board_at_once() {
    // A straight run of captures: each landing directly behind the piece taken. (That a
    // square emptied by a capture can be crossed later in the same move is checked against
    // the pure-Python reference, tests/test_family.py.)
    let pos = position_from_fen("W:WKa1:Bc3,e5,g7")
        .expect("fen")
        .with_rules(RuleSet::new(Variant::Thai, false));
    let list = pos.legal_moves();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].long_text(), "a1:d4:f6:h8");
    assert_eq!(list[0].captured().count(), 3);
}

#[test]
fn each_game_starts_as_its_federation_sets_it() {
    let cases = [
        (
            Variant::English,
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ),
        (
            Variant::Italian,
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ),
        (
            Variant::Spanish,
            "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32",
        ),
        (
            Variant::Portuguese,
            "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32",
        ),
        (
            Variant::Czech,
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ),
        (
            Variant::Pool,
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ),
        (Variant::Thai, "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"),
    ];
    for (variant, fen) in cases {
        let rules = RuleSet::new(variant, false);
        let start = Position::start_of(rules);
        assert_eq!(write_fen(&start, Notation::Numeric), fen, "{variant:?}");
        assert_eq!(position_from_fen_in(fen, rules).expect("fen"), start);
        assert_eq!(start.legal_moves().len(), 7);
    }
    // The turned boards name squares as they stand: Italian's 1 is a8, Spanish's 1 is h1.
    let italian = Position::start_of(RuleSet::new(Variant::Italian, false));
    assert!(write_fen(&italian, Notation::Algebraic).starts_with("W:Wb3,d3,f3,h3,a2"));
    let spanish = Position::start_of(RuleSet::new(Variant::Spanish, false));
    assert!(write_fen(&spanish, Notation::Algebraic).starts_with("W:Wh1,f1,d1,b1,g2"));
}

#[test]
fn squares_a_game_does_not_have_are_refused() {
    let italian = RuleSet::new(Variant::Italian, false);
    // a1 is a light square on the turned board.
    assert!(position_from_fen_in("W:Wa1:Bb8", italian).is_err());
    assert!(position_from_fen_in("W:Wh1:Ba8", italian).is_ok());
    assert!(position_from_fen_in("W:W33:B1", italian).is_err());
}

// ---- the 10×10 games beside International draughts (squares in the game's numbers) ------

fn moves_in(fen: &str, variant: Variant) -> Vec<String> {
    let pos = position_from_fen_in(fen, RuleSet::new(variant, false)).expect("fen");
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|m| m.long_text()).collect();
    texts.sort();
    texts
}

#[test]
fn killer_kings_stop_right_behind_a_king_taken_last() {
    // 46 = a1: a White king takes the Black king on 37 (c3) along the long diagonal.
    assert_eq!(
        moves_in("W:WK46:BK37", Variant::International),
        ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8", "a1:i9", "a1:j10"]
    );
    assert_eq!(moves_in("W:WK46:BK37", Variant::Killer), ["a1:d4"]);
    // A man taken last: the king lands anywhere behind it, as in International draughts.
    assert_eq!(
        moves_in("W:WK46:B37", Variant::Killer),
        moves_in("W:WK46:B37", Variant::International)
    );
    // Only the last piece taken counts: a king first (c3), a man last (18 = e7).
    assert_eq!(
        moves_in("W:WK46:BK37,18", Variant::Killer),
        ["a1:f6:b10", "a1:f6:c9", "a1:f6:d8"]
    );
    // A man taken first, a king last: the king stops on the square behind that king.
    assert_eq!(moves_in("W:WK46:B37,K18", Variant::Killer), ["a1:f6:d8"]);
    // Men capture as in International draughts.
    assert_eq!(
        moves_in("W:W32:BK27", Variant::Killer),
        moves_in("W:W32:BK27", Variant::International)
    );
}

#[test]
fn breakthrough_the_first_crowned_man_wins() {
    let rules = RuleSet::new(Variant::Breakthrough, false);
    let mut pos = position_from_fen_in("W:W7:B45", rules).expect("fen");
    assert_eq!(
        moves_in("W:W7:B45", Variant::Breakthrough),
        ["c9-b10", "c9-d10"]
    );
    let crowning = pos.legal_moves()[0];
    assert!(crowning.promotes());
    pos.play(&crowning).expect("legal");
    // Black, to move, has lost: no moves, no captures, nothing counted by perft.
    assert!(pos.legal_moves().is_empty());
    assert!(!pos.has_captures());
    assert_eq!(pos.count_moves(shashki::Counting::Distinct), 0);
    assert_eq!(shashki::perft(&pos, 3), 0);
    // The same position in International draughts goes on.
    let international = pos.with_rules(RuleSet::new(Variant::International, false));
    assert!(!international.legal_moves().is_empty());
    // Up to the first king, breakthrough's moves are International draughts'.
    let start = Variant::Breakthrough.start_setup();
    let start = Position::from_setup_in(&start, rules).expect("start");
    for depth in 1..=5 {
        let international = start.with_rules(RuleSet::new(Variant::International, false));
        assert_eq!(
            shashki::perft(&start, depth),
            shashki::perft(&international, depth)
        );
    }
}
