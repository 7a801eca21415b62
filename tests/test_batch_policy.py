"""A policy's loop over :class:`shashki.learn.batch.Boards`: actions sampled from logits in
Rust, packed masks, ``threads=``, copies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shashki.learn.batch import Boards, packed_width, unpack_mask

VARIANTS = ["russian", "english", "international", "frisian", "turkish", "canadian"]


def _played(variant: str, n: int, steps: int, seed: int = 1, **kwargs: object) -> Boards:
    boards = Boards(n, variant=variant, seed=seed, **kwargs)
    for _ in range(steps):
        boards.step(boards.sample_actions())
    return boards


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("n", [3, 600])
def test_the_packed_mask_holds_the_dense_masks_bits(variant: str, n: int) -> None:
    boards = _played(variant, n, 25)
    dense = boards.legal_action_mask()
    packed = boards.legal_action_mask(packed=True)
    assert packed.dtype == np.uint8 and packed.shape == (n, packed_width(boards.action_count))
    assert np.array_equal(unpack_mask(packed, boards.action_count), dense)
    bits = np.unpackbits(packed, axis=-1, bitorder="little")
    assert not bits[:, boards.action_count :].any()  # the padding is zero
    out = np.full_like(packed, 0xFF)
    assert boards.legal_action_mask(out) is out and np.array_equal(out, packed)


@pytest.mark.parametrize("variant", ["russian", "international"])
def test_a_step_writes_the_packed_mask_it_is_given_and_the_one_asked_for(variant: str) -> None:
    boards = _played(variant, 700, 10)
    twin = boards.copy()
    packed = np.empty((700, packed_width(boards.action_count)), np.uint8)
    for _ in range(30):
        actions = boards.sample_actions()
        assert np.array_equal(actions, twin.sample_actions())
        boards.step(actions, mask=packed)
        twin.legal_action_mask(packed=True)  # asked for: the next step writes it
        twin.step(actions)
        assert np.array_equal(packed, boards.legal_action_mask(packed=True))
        assert np.array_equal(twin.legal_action_mask(packed=True), packed)
        assert np.array_equal(unpack_mask(packed, boards.action_count), twin.legal_action_mask())


def test_a_mask_of_the_wrong_shape_or_dtype_is_refused_before_any_game_moves() -> None:
    boards = _played("russian", 4, 5)
    before = boards.fens()
    actions = boards.sample_actions()
    for bad in (
        np.empty((4, 111), np.uint8),
        np.empty((4, 112), np.int16),
        np.empty((4, 897), np.bool_),
        np.empty((4, 112), np.uint8)[:, ::2],
    ):
        with pytest.raises(ValueError, match="mask"):
            boards.step(actions, mask=bad)
        assert boards.fens() == before


@pytest.mark.parametrize("variant", ["english", "international"])
def test_logits_choose_only_legal_actions_and_temperature_zero_the_best(variant: str) -> None:
    boards = _played(variant, 64, 12)
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((64, boards.action_count)).astype(np.float32)
    mask = boards.legal_action_mask()
    for _ in range(20):
        actions = boards.sample_actions(logits)
        assert mask[np.arange(64), actions].all()
    best = boards.sample_actions(logits, temperature=0)
    expected = np.where(mask, logits, -np.inf).argmax(axis=1)
    assert np.array_equal(best, expected)


def test_the_sample_follows_the_masked_softmax() -> None:
    """Each legal action is drawn about as often as its softmax weight over the legal
    actions says (at temperature 1 and 2), never an illegal one however large its logit."""
    boards = Boards(1, variant="english", seed=7)
    mask = boards.legal_action_mask()[0]
    legal = np.flatnonzero(mask)
    logits = np.full((1, boards.action_count), 50.0, np.float32)  # illegal ones: huge
    logits[0, legal] = np.linspace(0.0, 2.0, len(legal))
    for temperature in (1.0, 2.0):
        draws = np.array([boards.sample_actions(logits, temperature)[0] for _ in range(20000)])
        assert set(draws) <= set(legal)
        weights = np.exp(logits[0, legal] / temperature)
        expected = weights / weights.sum()
        seen = np.array([(draws == a).mean() for a in legal])
        assert np.abs(seen - expected).max() < 0.02, (seen, expected)


def test_a_row_of_nan_or_only_minus_infinity_is_named() -> None:
    boards = _played("russian", 5, 3)
    logits = np.zeros((5, boards.action_count), np.float32)
    legal = boards.legal_action_mask()
    bad = logits.copy()
    bad[3, np.flatnonzero(legal[3])[0]] = np.nan
    with pytest.raises(ValueError, match="row 3.*NaN"):
        boards.sample_actions(bad)
    bad = logits.copy()
    bad[2, legal[2]] = -np.inf
    with pytest.raises(ValueError, match="row 2.*-inf"):
        boards.sample_actions(bad)
    illegal_nan = logits.copy()
    illegal_nan[0, ~legal[0]] = np.nan  # NaN where no legal action reads: fine
    assert legal[np.arange(5), boards.sample_actions(illegal_nan)].all()
    plus = logits.copy()
    pick = np.flatnonzero(legal[1])[-1]
    plus[1, pick] = np.inf
    assert boards.sample_actions(plus)[1] == pick
    for wrong in (np.zeros((5, 10), np.float32), np.zeros((4, boards.action_count))):
        with pytest.raises(ValueError, match="shape"):
            boards.sample_actions(wrong)
    for temperature in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="temperature"):
            boards.sample_actions(logits, temperature)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS))
def test_threads_change_nothing_but_the_speed(seed: int, variant: str) -> None:
    """The same seed gives the same games on one thread, two and every core, sampled
    uniformly or from logits."""
    runs = []
    for threads in (1, 2, None):
        boards = Boards(600, variant=variant, seed=seed, threads=threads)
        assert boards.threads == threads
        logits = np.random.default_rng(seed).standard_normal((600, boards.action_count))
        logits = logits.astype(np.float32)
        packed = np.empty((600, packed_width(boards.action_count)), np.uint8)
        record = []
        for i in range(12):
            actions = boards.sample_actions(logits if i % 2 else None, temperature=0.5)
            _, rewards, terminated, _ = boards.step(actions, mask=packed)
            record.append((actions, rewards, terminated, packed.copy()))
        runs.append((record, boards.observation(), boards.fens()))
    for other in runs[1:]:
        for a, b in zip(runs[0][0], other[0]):
            assert all(np.array_equal(x, y) for x, y in zip(a, b))
        assert np.array_equal(runs[0][1], other[1]) and runs[0][2] == other[2]


def test_bad_thread_counts_are_refused() -> None:
    for bad in (0, -1, 10_000):
        with pytest.raises(ValueError, match="threads"):
            Boards(4, threads=bad)
    with pytest.raises(TypeError, match="threads"):
        Boards(4, threads=1.5)  # type: ignore[arg-type]


def test_a_copy_goes_its_own_way() -> None:
    boards = _played("russian", 8, 7)
    twin = boards.copy()
    assert twin.fens() == boards.fens() and twin.threads == boards.threads
    twin.step(twin.sample_actions())
    assert twin.fens() != boards.fens()
    assert boards.board(0).move_stack == _played("russian", 8, 7).board(0).move_stack
