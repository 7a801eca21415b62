"""Arrays in, arrays out: many games stepped together in Rust, for learning.

>>> import shashki
>>> from shashki.learn.batch import Boards, ACTIONS
>>> boards = Boards(4, seed=1)
>>> boards.legal_action_mask().shape, boards.observation().shape
((4, 896), (4, 6, 8, 8))
>>> observation, reward, terminated, truncated = boards.step(boards.sample_actions())
>>> observation.shape, reward.dtype.name, terminated.tolist()
((4, 6, 8, 8), 'float32', [False, False, False, False])
>>> boards.board(0).move_stack[0] in shashki.Board().legal_moves
True

Needs numpy (imported by this module only: ``import shashki`` stays light).

**Actions** (:data:`ACTIONS` = 896 on the 8×8 board, 1800 on the 10×10 one:
:attr:`Boards.action_count`, :func:`action_count`): one jump or step of one piece,
``(from_square * 4 + direction) * (size - 1) + distance - 1``, seen from the side to move
(for Black the board is turned half round: square ``i`` is ``squares - 1 - i``, 31 - i on
8×8, 49 - i on 10×10); directions 0 up-left, 1 up-right, 2 down-left, 3 down-right ("up" is
towards the opponent); distance 1 to size - 1. A quiet
move is one action; a capture of several pieces is one action a jump, by the same player,
the game waiting between them with a mask of the jumps that go on with a legal capture
(as OpenSpiel plays multi-jumps). Each legal move is exactly one sequence: the jumps of the
path ``Board.legal_moves`` gives it (a king that could land on another square and make the
same capture makes the same move). Why jumps and not whole moves: a capture in Russian
draughts can take any of 2^12 sets of pieces, so whole moves have no small collision-free
numbering, while a jump is always one of 896, and a policy over jumps is a policy over
moves. Frisian draughts and frysk, which capture along ranks and files too, have eight
lines (3,600 actions); Turkish draughts' 64 squares four lines of ranks and files (1,792);
Canadian draughts' 12×12 board 72 squares × 4 × 11 (3,168; 71 - i seen by Black).

**Observations** (:data:`PLANES` = 6 planes of size × size, 8×8 or 10×10,
:attr:`Boards.observation_shape`; rank 1 first, from the side to move's point of view): own
men, own kings, the opponent's men, the opponent's kings, the piece making a capture
(mid-capture only), the pieces it has taken so far in this move (they stay on the board
until the move ends, as the rules say). Values are 1 and 0, float32 by default;
``Boards(..., dtype=np.uint8)`` (or ``bool``) gives them a byte each, a quarter of the
memory for a loop that keeps millions (an ``out=`` array of any of the three dtypes is
written as it is).

**Steps**: ``step(actions)`` plays one action in every game and returns ``(rewards,
terminated, truncated)``; the reward is the result for the player who acted (1 a win, -1 a
loss, 0 otherwise). A game ends as its variant says (giveaway: the side that cannot move
wins) or by its draw rules (FMJD-64's for Russian draughts, applied in Rust), and is
truncated at ``max_plies``; a finished game starts again at once (as gymnasium's vector
environments do): :meth:`Boards.results` keeps how the last one ended.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any, TypeVar

import numpy as np

import shashki
from shashki import _core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Optional

    import numpy.typing as npt

_Array = TypeVar("_Array", bound="np.ndarray[Any, Any]")

ACTIONS: int = _core.BATCH_ACTIONS
"""The size of the 8×8 board's action space (:func:`action_count` gives each board's)."""
PLANES: int = _core.BATCH_PLANES
"""The observation's planes."""
MAX_GAMES = 1 << 20
"""The most games one :class:`Boards` holds."""


def board_size(variant: str = "russian") -> int:
    """The side of the variant's board: 8, or 10 for the 10×10 games."""
    return shashki.BOARD_SIZES.get(variant, 8)


def action_count(variant: str = "russian") -> int:
    """The size of the variant's action space: squares × lines × (size - 1) distances (896
    on 8×8, 1800 on 10×10, 3168 on 12×12, 3600 in Frisian draughts and frysk: 8 lines, the
    diagonals and the ranks and files; 1792 in Turkish draughts: 64 squares, the 4 lines of
    ranks and files)."""
    if variant not in _ACTION_COUNTS:
        raise ValueError(f"unknown variant {variant!r}")
    return _ACTION_COUNTS[variant]


_ACTION_COUNTS: dict[str, int] = {card.name: card.actions for card in shashki.games()}


def _checked_out(array: _Array, dtype: type, shape: tuple[int, ...], name: str = "out") -> _Array:
    """``array`` if it can take the values (a ValueError saying why not, naming ``name``)."""
    if not isinstance(array, np.ndarray):
        raise ValueError(f"{name} must be a numpy array, not {type(array).__name__}")
    if array.dtype != dtype or array.shape != shape:
        raise ValueError(
            f"{name} must be {np.dtype(dtype).name} of shape {shape}, "
            f"not {array.dtype.name} of shape {array.shape}"
        )
    if not array.flags.c_contiguous or not array.flags.writeable:
        raise ValueError(f"{name} must be C-contiguous and writeable")
    return array


PLANE_DTYPES = (np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.bool_))
"""The dtypes observation planes come in."""


def _checked_planes(array: _Array, shape: tuple[int, ...], name: str = "out") -> _Array:
    """``array`` if it can take planes of ``shape`` (a dtype of :data:`PLANE_DTYPES`)."""
    if not isinstance(array, np.ndarray):
        raise ValueError(f"{name} must be a numpy array, not {type(array).__name__}")
    dtype = array.dtype if array.dtype in PLANE_DTYPES else np.float32
    return _checked_out(array, dtype, shape, name)


def _int_arg(value: object, name: str, lo: int, hi: Optional[int] = None) -> None:
    """Check an integer argument before the core converts it (where a negative or huge
    number would be an OverflowError): TypeError for a non-int, ValueError out of range."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < lo or (hi is not None and value > hi):
        bounds = f"at least {lo}" if hi is None else f"between {lo} and {hi}"
        raise ValueError(f"{name} must be {bounds}, not {value}")


def _optional_ints(**values: object) -> None:
    """:func:`_int_arg` for the optional counts of the batch functions (None passes)."""
    bounds = {"threads": (0, 1024), "depth": (1, 120), "nodes": (1, 2**63 - 1)}
    for name, value in values.items():
        if value is not None:
            _int_arg(value, name, *bounds[name])


def _splitmix(x: int) -> int:
    """SplitMix64's step: a well-mixed 64-bit number from ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def move_actions(board: shashki.Board, move: shashki.Move) -> list[int]:
    """The actions that play ``move`` (legal in ``board``): one a jump of its path."""
    return _core.move_actions(move, board.turn)


def packed_width(action_count: int) -> int:
    """The bytes of one game's packed mask: ``ceil(action_count / 8)`` (112 on 8×8)."""
    return (action_count + 7) // 8


def unpack_mask(packed: npt.NDArray[np.uint8], action_count: int) -> npt.NDArray[np.bool_]:
    """A packed mask (uint8 ``(n, ceil(action_count / 8))``, action ``j`` bit ``j % 8`` of
    byte ``j // 8``) as the dense bool mask ``(n, action_count)``: numpy's
    ``unpackbits(packed, axis=-1, count=action_count, bitorder="little")``."""
    return np.unpackbits(packed, axis=-1, count=action_count, bitorder="little").view(np.bool_)


class Boards:
    """``n`` games held in Rust and stepped together (the GIL released, over threads for
    large ``n``): from the variant's start, or from ``fens`` (one FEN for all or one a game).
    ``seed`` drives :meth:`sample_actions`; ``dtype`` is the observations' (float32, uint8
    or bool); ``threads`` how many threads step, sample and write the arrays (None: every
    core; 1: the calling thread only)."""

    def __init__(
        self,
        n: int,
        variant: str = "russian",
        captures_optional: bool = False,
        fens: Optional[Sequence[str]] = None,
        seed: Optional[int] = None,
        max_plies: int = 400,
        dtype: npt.DTypeLike = np.float32,
        threads: Optional[int] = None,
    ) -> None:
        _int_arg(n, "n", 1, MAX_GAMES)
        _int_arg(max_plies, "max_plies", 1, 2**32 - 1)
        if threads is not None:
            _int_arg(threads, "threads", 1, 256)
        self.dtype: np.dtype[Any] = np.dtype(dtype)
        if self.dtype not in PLANE_DTYPES:
            raise ValueError(f"dtype must be float32, uint8 or bool, not {self.dtype.name}")
        self.variant = variant
        self.captures_optional = captures_optional
        self._core = _core.BatchBoards(
            n,
            variant=variant,
            captures_optional=captures_optional,
            fens=None if fens is None else [str(f) for f in fens],
            max_plies=max_plies,
            threads=threads,
        )
        # Each call of sample_actions draws from its own number, the key's and the call's.
        self._sample_key = int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])
        self._samples = 0

    def __len__(self) -> int:
        return len(self._core)

    @property
    def threads(self) -> Optional[int]:
        """The threads its calls run on, as given (None: every core)."""
        return self._core.threads

    def copy(self) -> Boards:
        """An independent copy of the games as they stand (each game's record, clocks and
        last result, the seed's next draws): stepping one leaves the other as it was."""
        other = object.__new__(Boards)
        other.__dict__.update(self.__dict__, _core=self._core.copy())
        return other

    @property
    def action_count(self) -> int:
        """The size of the action space: 896 on the 8×8 board, 1800 on 10×10, 3168 on
        12×12 (:func:`action_count` gives every game's)."""
        return int(self._core.action_count)

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """One game's observation: ``(PLANES, size, size)``."""
        size = int(self._core.board_size)
        return (PLANES, size, size)

    def reset(self) -> npt.NDArray[Any]:
        """Start every game again at its first position: the observations."""
        self._core.reset()
        return self.observation()

    def legal_action_mask(
        self, out: Optional[npt.NDArray[Any]] = None, *, packed: bool = False
    ) -> npt.NDArray[Any]:
        """The legal actions of every game: bool array ``(n, action_count)``; with
        ``packed=True`` a uint8 array ``(n, ceil(action_count / 8))`` holding action ``j`` as
        bit ``j % 8`` of byte ``j // 8`` (a row padded with zero bits; :func:`unpack_mask`,
        or numpy's ``unpackbits(…, bitorder="little")``, makes it dense: an eighth of the
        bytes to move to a GPU). With ``out`` (such an array, C-contiguous: bool for the
        dense form, uint8 for the packed one) written into it, no new array made, and
        ``out`` returned. Called after a step, it makes the next step write the next mask
        (in the form asked for) in its own pass, each game's row while the game is in cache,
        and the call after that step hands that array over."""
        if out is None:
            return self._core.legal_action_mask(packed=bool(packed))
        # ``out``'s dtype says the form; ``packed=True`` insists on the packed one.
        form = True if packed else None
        return self._core.legal_action_mask(self._checked_mask(out, "out", form))

    def _checked_mask(
        self, array: npt.NDArray[Any], name: str, packed: Optional[bool] = None
    ) -> npt.NDArray[Any]:
        """``array`` if it can take a mask: bool ``(n, action_count)`` or uint8 ``(n,
        ceil(action_count / 8))`` (``packed`` says which when it is not None)."""
        if not isinstance(array, np.ndarray):
            raise ValueError(f"{name} must be a numpy array, not {type(array).__name__}")
        if packed is None:
            packed = array.dtype == np.uint8
        if packed:
            return _checked_out(array, np.uint8, (len(self), packed_width(self.action_count)), name)
        return _checked_out(array, np.bool_, (len(self), self.action_count), name)

    def legal_actions(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int16]]:
        """Every game's legal actions as lists, for a loop that draws from them: ``(offsets,
        actions)``, game ``i``'s being ``actions[offsets[i]:offsets[i + 1]]``, ascending and
        each once (the mask's row's true entries, without a scan of its
        :attr:`action_count` entries). A uniform random choice of each game:
        ``offsets[:-1] + (rng.random(n) * np.diff(offsets)).astype(int)`` indexes
        ``actions``."""
        return self._core.legal_actions()

    def observation(self, out: Optional[npt.NDArray[Any]] = None) -> npt.NDArray[Any]:
        """Every game's planes: array ``(n, *observation_shape)`` of :attr:`dtype`; with ``out``
        (such an array, C-contiguous, float32, uint8 or bool) written into it and
        returned."""
        if out is None:
            return self._core.observation(dtype=self.dtype.name)
        return self._core.observation(_checked_planes(out, (len(self), *self.observation_shape)))

    def step(
        self,
        actions: npt.ArrayLike,
        out: Optional[npt.NDArray[Any]] = None,
        *,
        mask: Optional[npt.NDArray[Any]] = None,
    ) -> tuple[
        npt.NDArray[Any],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Play ``actions`` (one a game): ``(observation, rewards, terminated, truncated)``
        (the observation written into ``out`` when given, as :meth:`observation` does). With
        ``mask`` (a bool array ``(n, action_count)``, or a packed uint8 one ``(n,
        ceil(action_count / 8))``) the legal actions after the step are written into it
        too, as :meth:`legal_action_mask` would, in the step's own pass. A wrong shape or an
        illegal action is a ValueError naming the first bad row, and no game changes."""
        array = np.asarray(actions)
        if array.shape != (len(self),):
            raise ValueError(f"actions must have shape ({len(self)},), not {array.shape}")
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"actions must be integers, not {array.dtype}")
        shape = (len(self), *self.observation_shape)
        if out is None:
            out = np.empty(shape, self.dtype)  # every value written by the step
        else:  # checked before any game moves
            out = _checked_planes(out, shape)
        if mask is not None:
            mask = self._checked_mask(mask, "mask")
        # The planes are written in the step's own pass, each game's while it is in cache.
        rewards, terminated, truncated = self._core.step(
            np.ascontiguousarray(array, np.int64), out, mask
        )
        return out, rewards, terminated, truncated

    def final_observation(self) -> npt.NDArray[Any]:
        """The planes of each game's last finished game at its end (zeros for a game that
        has not finished one): what ``step`` would have shown before the reset."""
        return self._core.final_observation(dtype=self.dtype.name)

    def sample_actions(
        self, logits: Optional[npt.ArrayLike] = None, temperature: float = 1.0
    ) -> npt.NDArray[np.int64]:
        """An action for every game, reproducible from the seed: without ``logits`` a legal
        action drawn uniformly; with ``logits`` (an array ``(n, action_count)``, float32
        C-contiguous for no copy) one drawn from each game's softmax over its legal
        actions only, the logits divided by ``temperature`` (0: the arg-max, ties to the
        lowest action), in Rust, over the batch's threads, without the GIL: no dense mask is
        read or made. A row whose legal logits include NaN, or are all ``-inf``, is a
        ValueError naming the row; a logit of ``+inf`` takes all the weight. -1 for a game
        without a legal action."""
        self._samples += 1
        seed = _splitmix(self._sample_key ^ self._samples)
        if logits is None:
            return self._core.sample_actions(seed)
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
            raise TypeError(f"temperature must be a number, not {type(temperature).__name__}")
        if not (temperature >= 0 and np.isfinite(temperature)):
            raise ValueError(f"temperature must be a finite number at least 0, not {temperature}")
        array = np.asarray(logits)
        if array.shape != (len(self), self.action_count):
            raise ValueError(
                f"logits must have shape ({len(self)}, {self.action_count}), not {array.shape}"
            )
        if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
            raise ValueError(f"logits must be numbers, not {array.dtype}")
        array = np.ascontiguousarray(array, np.float32)
        return self._core.sample_actions(seed, array, float(temperature))

    def results(self) -> npt.NDArray[np.int8]:
        """How each game's last finished game ended: 1 White won, -1 Black won, 0 a draw,
        2 truncated, -2 none finished yet."""
        return self._core.results()

    def fens(self) -> list[str]:
        """Every game's position (before a capture in progress)."""
        return self._core.fens()

    def board(self, index: int) -> shashki.Board:
        """Game ``index`` as a :class:`shashki.Board` with its history (before a capture in
        progress). A negative ``index`` counts from the end, as in a list."""
        _int_arg(index, "index", -(2**63))
        if not -len(self) <= index < len(self):
            raise IndexError(f"game index {index} out of range ({len(self)} games)")
        fen, moves = self._core._history(index + len(self) if index < 0 else index)
        board = shashki.Board(fen, variant=self.variant, captures_optional=self.captures_optional)
        for text in moves:
            board.push_move(text)
        return board


class Playouts(namedtuple("_Playouts", "results lengths planes games fens")):
    """What :func:`playouts` gives: ``results`` (int8, as :meth:`Boards.results`),
    ``lengths`` (uint32 plies), and with ``positions=True`` the positions met (every
    position a move was chosen in): ``planes`` (float32 ``(m, PLANES, size, size)``), ``games``
    (uint32: the game each came from) and ``fens``; else None."""

    __slots__ = ()


def playouts(
    games: int,
    variant: str = "russian",
    captures_optional: bool = False,
    fen: Optional[str] = None,
    seed: int = 0,
    threads: Optional[int] = None,
    max_plies: int = 400,
    *,
    fens: Optional[Sequence[str]] = None,
    policy: str = "random",
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    noise: float = 0.0,
    hash_mb: int = 16,
    evaluation: str = "learned",
    positions: bool = False,
) -> Playouts:
    """``games`` games played in Rust from ``fen`` or the variant's start (or game ``i``
    from ``fens[i % len(fens)]``), under the variant's rules (draw rules included), on
    ``threads`` threads (all cores by default). ``policy``: ``"random"`` (each move drawn
    uniformly from the legal moves) or ``"engine"`` (the engine at ``depth`` or ``nodes``
    with its ``evaluation``, ``"learned"`` or ``"classic"``, from a cleared table each game,
    a share ``noise`` of random moves). The same seed gives the same games whatever the
    threads."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a non-negative int, not {games!r}")
    _int_arg(seed, "seed", 0, 2**64 - 1)
    _int_arg(max_plies, "max_plies", 1, 2**32 - 1)
    _int_arg(hash_mb, "hash_mb", 1, 4096)
    _optional_ints(threads=threads, depth=depth, nodes=nodes)
    return Playouts(
        *_core.playouts(
            games,
            variant=variant,
            captures_optional=captures_optional,
            fen=fen,
            fens=None if fens is None else list(fens),
            seed=seed,
            threads=threads,
            max_plies=max_plies,
            policy=policy,
            depth=depth,
            nodes=nodes,
            noise=noise,
            hash_mb=hash_mb,
            evaluation=evaluation,
            positions=positions,
        )
    )


class SearchLabels(namedtuple("_SearchLabels", "scores wins moves actions")):
    """What :func:`search` found, one entry a position: ``scores`` (int32 centi-men for the
    side to move, 0 for a forced result), ``wins`` (int32: the signed moves to a forced
    result, 0 otherwise), ``moves`` (the best moves' full-path texts, "" without a legal
    move) and ``actions`` (int64: the best move's first jump as a :class:`Boards` action, -1
    without one)."""

    __slots__ = ()


def search(
    positions: Sequence[object],
    *,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    threads: Optional[int] = None,
    hash_mb: int = 1,
    variant: Optional[str] = None,
    captures_optional: bool = False,
    evaluation: str = "learned",
) -> SearchLabels:
    """Search many positions (FENs, or boards: their position and halfmove clock) at a
    fixed ``depth`` or ``nodes``, each from a cleared table (a label depends on its position
    only), on ``threads`` engines at once (all cores by default): labels for supervised
    learning. Clearing costs time in proportion to ``hash_mb``: the default 1 MiB suits
    searches of up to about 10⁵ nodes; give more for deeper ones. Boards give their
    variant; FENs take ``variant``. ``evaluation``: ``"learned"`` or ``"classic"``, as
    :class:`shashki.engine.Engine`'s."""
    _int_arg(hash_mb, "hash_mb", 1, 4096)
    _optional_ints(threads=threads, depth=depth, nodes=nodes)
    fens: list[str] = []
    for item in positions:
        if isinstance(item, shashki.Board):
            if variant is None:
                variant, captures_optional = item.variant, item.captures_optional
            elif (item.variant, item.captures_optional) != (variant, captures_optional):
                raise ValueError("the boards of one batch search play one variant")
            fens.append(item.fen(lidraughts=True))
        elif isinstance(item, str):
            fens.append(item)
        else:
            raise TypeError(f"positions are FENs or boards, not {type(item).__name__}")
    scores, wins, moves, actions = _core.search_positions(
        fens,
        variant=variant,
        captures_optional=captures_optional,
        depth=depth,
        nodes=nodes,
        threads=threads,
        hash_mb=hash_mb,
        evaluation=evaluation,
    )
    return SearchLabels(scores, wins, moves, actions)
