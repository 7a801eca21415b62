"""One answer to "is this a draw, and when": the game, the board, the draw counters and the
search's own verdict agree at every ply, for every built-in rule set and variant, and all of
them agree with an independent, literal reading of the rules (``draw_reference``).

The CI budget is modest; ``HYPOTHESIS_PROFILE=long`` plays 10^5 games, and
``SHASHKI_DRAW_GAMES=N`` any number.
"""

from __future__ import annotations

import os
import warnings

import draw_reference
import pytest
import shashki
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki import draw
from shashki.draw import UnappliedDrawRuleWarning
from shashki.engine import Engine, Limit
from walks import quiet_walk

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
GAMES = int(os.environ.get("SHASHKI_DRAW_GAMES", 100_000 if LONG else 60))

# Short counts, so that random games reach every rule's boundary often.
SHORT = draw.DrawRules(
    [
        draw.Repetition(times=2),
        draw.MainRoad(moves=2, materials=frozenset({(3, 0), (2, 1), (1, 2), (1, 0)})),
        draw.SmallEnding(moves=3),
        draw.ThreeKingsVsKing(moves=4),
        draw.KingsOnly(moves=3),
        draw.UnchangedBalance(limits=((2, 5, 4), (6, 9, 6))),
        draw.KingAndMenVsKing(moves=3),
        draw.PiecesVsKing(pieces=3, moves=4),
        draw.NoCaptureOrPromotion(moves=6),
    ],
    claimable=[draw.Repetition(times=2, article="claimable")],
    name="short",
)

RULE_SETS = {
    "fmjd64": draw.FMJD64,
    "fmjd64 rebuilt": draw.DrawRules(
        [
            draw.Repetition(),
            draw.MainRoad(),
            draw.SmallEnding(),
            draw.ThreeKingsVsKing(),
            draw.KingsOnly(),
            draw.UnchangedBalance(),
        ]
    ),
    "forty moves": draw.FORTY_MOVES,
    "historical": draw.HISTORICAL,
    "brazilian": draw.BRAZILIAN,
    "giveaway": draw.GIVEAWAY,
    "none": draw.NO_DRAWS,
    "short": SHORT,
}

# The materials of 7.2.4-7.2.8 (the stronger side's kings and men against a lone king), and
# kings on both sides (7.2.6).
LONE_KING_MATERIALS = [(3, 0), (4, 0), (2, 1), (1, 2), (2, 0), (1, 1), (1, 0), (1, 3), (3, 1)]


@st.composite
def king_endgames(draw_: st.DrawFn) -> str:
    """A lone king against one of the rules' materials, or kings on both sides."""
    squares = list(range(32))
    chosen = draw_(st.permutations(squares))
    strong_white = draw_(st.booleans())
    if draw_(st.integers(0, 3)) == 0:  # 7.2.6: both sides have kings, 4-7 pieces
        pieces = draw_(st.integers(4, 7))
        cells = chosen[:pieces]
        kinds = ["wk", "bk"] + [draw_(st.sampled_from(["wk", "bk", "wm", "bm"])) for _ in cells[2:]]
    else:
        kings, men = draw_(st.sampled_from(LONE_KING_MATERIALS))
        mine = "w" if strong_white else "b"
        theirs = "b" if strong_white else "w"
        kinds = [theirs + "k"] + [mine + "k"] * kings + [mine + "m"] * men
        cells = chosen[: len(kinds)]
        if draw_(st.booleans()):  # the lone king on the main road
            road = [s for s in draw_reference.MAIN_ROAD if s not in cells[1:]]
            cells = [draw_(st.sampled_from(sorted(road)))] + cells[1:]
    white, black = [], []
    for square, kind in zip(cells, kinds):
        name = shashki.square_name(square)
        rank = int(name[1])
        king = kind[1] == "k" or (kind[0] == "w" and rank == 8) or (kind[0] == "b" and rank == 1)
        (white if kind[0] == "w" else black).append(("K" if king else "") + name)
    turn = "W" if draw_(st.booleans()) else "B"
    return f"{turn}:W{','.join(white)}:B{','.join(black)}"


def check_agreement(board: shashki.Board, games: dict[str, shashki.Game]) -> None:
    """Every rule set's verdicts at ``board`` agree with the reference and each other."""
    has_moves = bool(board.legal_moves)
    for name, rules in RULE_SETS.items():
        counters = board.draw_counters(draw_rules=rules)
        expected = draw_reference.counters(rules, board)
        assert [(c.termination, c.done, c.limit, c.unit) for c in counters] == expected, name
        outcome = board.outcome(draw_rules=rules)
        reference = draw_reference.drawn(rules, board)
        if has_moves:
            assert (outcome and outcome.termination) == reference, name
        else:
            assert outcome is not None and outcome.termination is shashki.Termination.NO_MOVES
        claimed = board.outcome(draw_rules=rules, claim_draw=True)
        if has_moves:
            assert (claimed and claimed.termination) == draw_reference.drawn(rules, board, True)
        # The search's own verdict, as it judges a node.
        assert board._search_draw(rules._core) == draw_reference.search_verdict(rules, board), name
        game = games.get(name)
        if game is not None:
            # The game ends at the first drawn position; until then it agrees with the board.
            assert game.outcome() == outcome, name
            assert game.draw_counters() == counters, name
            if outcome is not None:
                del games[name]


def walk(fen: str, variant: str, choices: list[int], halfmove: int = 0) -> None:
    board = shashki.Board(f"{fen}:H{halfmove}:F1", variant=variant)
    games = {
        name: shashki.Game(f"{fen}:H{halfmove}:F1", variant=variant, draw_rules=rules)
        for name, rules in RULE_SETS.items()
    }
    check_agreement(board, games)
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[choice % len(moves)]
        board.push(move)
        for game in games.values():
            game.push(move)
        check_agreement(board, games)


VARIANTS = st.sampled_from(["russian", "brazilian", "giveaway", "diagonal"])


@settings(max_examples=GAMES, deadline=None)
@given(
    fen=king_endgames(),
    variant=VARIANTS,
    choices=st.lists(st.integers(0, 1000), max_size=70),
    halfmove=st.sampled_from([0, 0, 0, 3, 25]),
)
def test_king_endgames_agree_at_every_ply(
    fen: str, variant: str, choices: list[int], halfmove: int
) -> None:
    walk(fen, variant, choices, halfmove)


@settings(max_examples=max(GAMES // 6, 10), deadline=None)
@given(variant=VARIANTS, choices=st.lists(st.integers(0, 1000), min_size=40, max_size=120))
def test_random_games_agree_at_every_ply(variant: str, choices: list[int]) -> None:
    start = shashki.Board(variant=variant).fen()
    walk(start, variant, choices)


# Three white kings against Black's lone king on c3, the main road. Black leaves the road
# (ply 2) and comes back (ply 4), then holds it; no position repeats.
ROAD_LINE = [
    "b8-a7", "c3-a5", "a7-e3", "a5-c3", "e3-f4", "c3-h8", "d8-c7",
    "h8-d4", "f8-b4", "d4-b2", "b4-a5", "b2-g7", "f4-c1",
]  # fmt: skip


def test_7_2_7_a_king_that_leaves_the_main_road_starts_the_count_again() -> None:
    game = shashki.Game("W:WKb8,Kd8,Kf8:BKc3")
    for move in ROAD_LINE[:9]:
        game.push_move(move)
    # White has made 5 moves since the ending arose, but only 3 (plies 5, 7, 9) since the
    # king came back to the road: no draw yet. (Counting every White move while the king
    # stands on the road now, the search's former reading, drew here.)
    road = {c.termination: c for c in game.draw_counters()}[shashki.Termination.MAIN_ROAD]
    assert (road.done, road.limit) == (3, 5)
    assert game.outcome() is None
    assert not game.end().board()._search_draw(draw.FMJD64._core)
    info = Engine(hash_mb=8).analyse(game, Limit(depth=1))
    assert info["depth"] >= 1
    for move in ROAD_LINE[9:12]:
        game.push_move(move)
        assert game.outcome() is None
    game.push_move(ROAD_LINE[12])  # White's 5th move since the king came back
    assert game.outcome() == shashki.Outcome(shashki.Termination.MAIN_ROAD, None)
    road = {c.termination: c for c in game.draw_counters()}[shashki.Termination.MAIN_ROAD]
    assert (road.done, road.limit) == (5, 5)
    assert game.end().board()._search_draw(draw.FMJD64._core)
    assert (
        draw_reference.drawn(draw.FMJD64, game.end().board().copy())
        is shashki.Termination.MAIN_ROAD
    )


@pytest.mark.parametrize(
    ("builtin", "rules"),
    [
        ("fmjd64", draw.FMJD64),
        ("fmjd64", RULE_SETS["fmjd64 rebuilt"]),
        ("forty_moves", draw.FORTY_MOVES),
        ("forty_moves", draw.DrawRules([draw.NoCaptureOrPromotion()])),
        ("historical", draw.HISTORICAL),
        ("brazilian", draw.BRAZILIAN),
        ("giveaway", draw.GIVEAWAY),
        ("none", draw.NO_DRAWS),
    ],
)
def test_every_rule_set_reaches_the_search_as_what_it_is(
    builtin: str, rules: draw.DrawRules
) -> None:
    assert rules._core == shashki._core.DrawRules.builtin(builtin)
    assert rules._for_search() is rules._core


@pytest.mark.parametrize(
    ("name", "rules", "variant"),
    [
        ("7.2.4 and 7.2.5", draw.FMJD64, "russian"),
        ("rebuilt", RULE_SETS["fmjd64 rebuilt"], "russian"),
        ("7.2.4 alone", draw.DrawRules([draw.ThreeKingsVsKing()]), "russian"),
        ("7.2.5 at 14 moves", draw.DrawRules([draw.KingsOnly(moves=14)]), "russian"),
        ("historical art. 20", draw.HISTORICAL, "russian"),
        ("site rule at 14", draw.DrawRules([draw.NoCaptureOrPromotion(moves=14)]), "russian"),
        ("brazilian 16 moves", draw.BRAZILIAN, "brazilian"),
    ],
)
def test_a_win_the_rules_will_call_a_draw_scores_a_draw(
    name: str, rules: draw.DrawRules, variant: str
) -> None:
    # Three kings against a king, 27 quiet plies played: each rule above leaves too few
    # moves to win (7.2.4 and the historical art. 20: White's 14th move of 15; the counts
    # of plies at 14 moves: 27 of 28, and Black cannot capture; Brazilian: 29 plies,
    # White's 15th move of 16).
    plies = 29 if variant == "brazilian" else 27
    game = shashki.Game("W:WKc1,Ke1,Kg1:BKh2", variant=variant, draw_rules=rules)
    quiet_walk(game, plies)
    assert len(game.mainline_moves()) == plies and game.outcome() is None, name
    drawn = Engine(hash_mb=8).analyse(game, Limit(depth=10))["score"].white()
    assert drawn == shashki.engine.Score(cp=0), name
    free = shashki.Game("W:WKc1,Ke1,Kg1:BKh2", variant=variant, draw_rules=draw.NO_DRAWS)
    for move in game.mainline_moves():
        free.push(move)
    unlimited = Engine(hash_mb=8).analyse(free, Limit(depth=10))["score"].white()
    assert unlimited.is_win() or (unlimited.cp or 0) > 500, name


class EveryTenthPly:
    """A rule of a user's own: the search cannot apply it."""

    termination = shashki.Termination.AGREEMENT

    def progress(self, history: draw.History) -> draw.DrawCounter | None:
        plies = len(history.plies)
        return draw.DrawCounter(self.termination, plies % 10, 9, "plies")


def test_a_custom_rule_is_applied_by_the_game_and_the_search_says_it_cannot() -> None:
    rules = draw.DrawRules([draw.Repetition(), EveryTenthPly()], name="mine")
    game = shashki.Game("W:WKc1,Ke1,Kg1:BKh2", draw_rules=rules)
    quiet_walk(game, 12)
    assert game.outcome() == shashki.Outcome(shashki.Termination.AGREEMENT, None)
    assert len(game.mainline_moves()) == 9
    fresh = shashki.Game("W:WKc1,Ke1,Kg1:BKh2", draw_rules=rules)
    with pytest.warns(UnappliedDrawRuleWarning, match="EveryTenthPly"):
        Engine(hash_mb=8).analyse(fresh, Limit(depth=2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once a rule set
        Engine(hash_mb=8).analyse(fresh, Limit(depth=2))
