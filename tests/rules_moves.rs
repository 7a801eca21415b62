//! docs/rules.rst, "Moves": quiet moves of men and kings, promotion at the end of a quiet move, and
//! §4: a side that cannot move has no legal moves (and so loses).
mod common;
use common::{find, moves};

#[test]
fn rules_man_moves_one_square_diagonally_forward() {
    assert_eq!(moves("W:Wc3:B"), ["c3-b4", "c3-d4"]);
    assert_eq!(moves("B:W:Bd6"), ["d6-c5", "d6-e5"]);
    // A man on the edge has one forward square.
    assert_eq!(moves("W:Wa3:B"), ["a3-b4"]);
}

#[test]
fn rules_man_never_moves_backward_without_capturing() {
    assert_eq!(moves("W:Wd4,c5,e5:B"), ["c5-b6", "c5-d6", "e5-d6", "e5-f6"]);
}

#[test]
fn rules_king_flies_any_distance_both_ways() {
    assert_eq!(
        moves("W:WKa1:B"),
        ["a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8"]
    );
    let from_d4 = moves("B:W:BKd4");
    assert_eq!(from_d4.len(), 13, "{from_d4:?}");
}

#[test]
fn rules_king_is_stopped_by_any_piece() {
    // e5 cannot be taken (f6 behind it is occupied), so it only stops the king.
    assert_eq!(moves("W:WKa1:Be5,f6"), ["a1-b2", "a1-c3", "a1-d4"]);
}

#[test]
fn rules_promotion_at_end_of_quiet_move() {
    let m = find("W:Wc7:B", "c7-b8");
    assert!(m.promotes());
    assert!(find("W:Wc7:B", "c7-d8").promotes());
    assert!(find("B:W:Bf2", "f2-e1").promotes());
    assert!(!find("W:Wc5:B", "c5-d6").promotes());
}

#[test]
fn rules_blocked_side_has_no_moves() {
    // The white man on a1 cannot move: b2 is taken and c3 behind it too.
    assert!(moves("W:Wa1:Bb2,c3").is_empty());
    // No pieces at all.
    assert!(moves("W:W:B1").is_empty());
}
