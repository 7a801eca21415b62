//! docs/rules.rst, "Captures": captures. Each test names the clause it checks.
mod common;
use common::{after, find, moves, pos};

#[test]
fn rules_3_1_capture_is_mandatory() {
    assert_eq!(moves("W:Wc3,g3:Bd4"), ["c3:e5"]);
    assert!(pos("W:Wc3,g3:Bd4").has_captures());
}

#[test]
fn rules_3_2_free_choice_no_majority_rule() {
    // e3 may take two pieces over c5, but taking one with e3 (to g5) is just as legal.
    assert_eq!(
        moves("W:We3,g3:Bd4,b6,f4"),
        ["e3:c5:a7", "e3:g5", "g3:e5:c3"]
    );
}

#[test]
fn rules_3_2_a_capture_once_begun_is_completed() {
    assert_eq!(moves("W:Wc1:Bd2,d4"), ["c1:e3:c5"]);
}

#[test]
fn rules_3_3_men_capture_backwards() {
    assert_eq!(moves("W:Wd4:Bc3"), ["d4:b2"]);
    assert_eq!(moves("B:Wd6:Be5"), ["e5:c7"]);
}

#[test]
fn rules_3_3_men_capture_kings() {
    let m = find("W:Wc3:BKd4", "c3:e5");
    assert_eq!(m.captured().count(), 1);
}

#[test]
fn rules_3_4_king_lands_on_any_square_beyond() {
    assert_eq!(
        moves("W:WKa1:Bc3"),
        ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    );
}

#[test]
fn rules_3_4_king_must_land_where_the_capture_continues() {
    // Behind c3 only e5 lets the king go on (over f4): it must land there.
    assert_eq!(moves("W:WKa1:Bc3,f4"), ["a1:e5:g3", "a1:e5:h2"]);
}

#[test]
fn rules_3_4_king_continues_straight_on_once() {
    // The second piece on the same line is taken from any landing square behind the first:
    // one move per final square, not one per intermediate square.
    assert_eq!(moves("W:WKa1:Bc3,f6"), ["a1:d4:g7", "a1:d4:h8"]);
}

#[test]
fn rules_3_5_capture_changes_direction() {
    assert_eq!(moves("W:Wa1:Bb2,d4,f4"), ["a1:c3:e5:g3"]);
}

#[test]
fn rules_3_6_turkish_strike_captured_pieces_block() {
    // The rules page's example: after e1:c3:e5:g3:e1 the man is back on e1 and d2, already taken, still
    // stands: it may not be jumped again, so e1:c3:e5:g3:e1:a5 does not exist.
    let all = moves("W:We1:Bd2,b4,d4,f4,f2");
    assert!(
        !all.iter().any(|m| m.starts_with("e1:c3:e5:g3:e1:")),
        "{all:?}"
    );
    // A king: after a1:d4 (over c3) and on over e3 to f2 or g1, the way back is shut by e3
    // itself, which still stands: the capture ends there.
    assert_eq!(
        moves("W:WKa1:Bc3,e3,e5"),
        ["a1:d4:f2", "a1:d4:f6", "a1:d4:g1", "a1:d4:g7", "a1:d4:h8"]
    );
}

#[test]
fn rules_3_7_start_square_is_empty_during_the_capture() {
    let m = find("W:We1:Bd2,b4,d4,f4,f2", "e1:c3:e5:g3:e1");
    assert_eq!(m.from(), m.to());
    assert_eq!(
        after("W:We1:Bd2,b4,d4,f4,f2", "e1:c3:e5:g3:e1"),
        "B:We1:Bb4"
    );
}

#[test]
fn rules_seed_003_loops_are_one_move() {
    // The rules page's example: white man e1, black men d2, b4, d4, f4, f2. The loops e1:c3:e5:g3:e1 and
    // e1:g3:e5:c3:e1 take the same pieces and end on the same square: one move. There are
    // exactly three moves, two of them from e1 to a5 with different captured sets.
    let fen = "W:We1:Bd2,b4,d4,f4,f2";
    let all = pos(fen).legal_moves();
    assert_eq!(all.len(), 3, "{:?}", moves(fen));
    let to_a5: Vec<_> = all.iter().filter(|m| m.to().name() == "a5").collect();
    assert_eq!(to_a5.len(), 2);
    assert_ne!(to_a5[0].captured(), to_a5[1].captured());
    let loops: Vec<_> = all.iter().filter(|m| m.to().name() == "e1").collect();
    assert_eq!(loops.len(), 1);
    // Convention B counts the two orders of the loop separately.
    let orders = pos(fen).legal_moves_counting(shashki::Counting::Orders);
    assert_eq!(orders.len(), 4);
}

#[test]
fn rules_3_8_white_man_crowned_mid_capture_goes_on_as_king() {
    let m = find("W:Wf6:Be7,b6", "f6:d8:a5");
    assert!(m.promotes());
    assert_eq!(m.captured().count(), 2);
    assert_eq!(moves("W:Wf6:Be7,b6"), ["f6:d8:a5"]);
}

#[test]
fn rules_3_8_black_man_crowned_mid_capture_goes_on_as_king() {
    // Black c3 takes d2, lands on e1 (crowned), then flies over g3 to h4.
    assert_eq!(moves("B:Wd2,g3:Bc3"), ["c3:e1:h4"]);
    assert!(find("B:Wd2,g3:Bc3", "c3:e1:h4").promotes());
}

#[test]
fn rules_3_8_crowned_at_the_end_of_a_capture() {
    let m = find("W:Wd6:Bc7,e7,c5", "d6:b8");
    assert!(m.promotes());
    assert_eq!(after("W:Wd6:Bc7,e7,c5", "d6:b8"), "B:WKb8:Be7,c5");
}

#[test]
fn rules_captured_pieces_leave_only_after_the_move() {
    assert_eq!(after("W:Wa1:Bb2,d4,f4", "a1:c3:e5:g3"), "B:Wg3:B");
}
