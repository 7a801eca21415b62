"""Games: a board with its history, results, draw adjudication, headers and variations.

>>> import shashki
>>> game = shashki.Game()
>>> game.push_move("c3-d4")
<GameNode c3-d4 (0 variations)>
>>> game.end().board().fen()
'B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12'
>>> game.root() is game
True
>>> game.result()
'*'
>>> game.draw_counters()
[]
>>> shashki.Game("W:WKa1:BKh2").outcome()
"""

from __future__ import annotations

from collections.abc import MutableMapping

from shashki import Board, Move
from shashki.cards import games
from shashki.draw import (
    DrawCounter,
    DrawRules,
    History,
    Outcome,
    Termination,
    default_draw_rules,
    no_moves_outcome,
)
from shashki.draw import board_outcome as board_outcome  # where it lived before

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers: True)
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any, NoReturn, Optional, TypeVar, Union

    _B = TypeVar("_B", bound=Board)

WHITE, BLACK = True, False


def variant_tag(board: Board) -> str:
    """PDN's ``Variant`` tag for the games GameType does not name: ``Giveaway``,
    ``Diagonal``, with ``, captures optional`` for that house rule."""
    name = board.variant.capitalize()
    return f"{name}, captures optional" if board.captures_optional else name


DECISIVE = (Termination.NO_MOVES, Termination.RESIGNATION)

RESULTS = {"1-0": True, "0-1": False, "1/2-1/2": None}


GAME_TYPES: dict[str, str] = {
    str(card.game_type): card.name
    for card in games()
    if card.game_type is not None and card.name != "russian"
}
"""The PDN GameType numbers of the games shashki plays besides Russian draughts (25), from
the games' cards."""

GAME_TYPE_OF: dict[str, str] = {variant: number for number, variant in GAME_TYPES.items()}
"""The GameType number of each variant that has its own (giveaway and the diagonal start
are written as GameType 25 with a ``Variant`` tag)."""


_TAGGED_ON = {card.name: str(card.pdn_game_type) for card in games() if card.tagged_on is not None}
"""The games written as another game's GameType with a ``Variant`` tag (giveaway and the
diagonal start on Russian draughts' 25; antidraughts, killer and breakthrough on
International draughts' 20 and frysk on Frisian's 40: each card's ``tagged_on``).
lidraughts' own exports number breakthrough, frysk and antidraughts 96, 97 and 98 (the
cards' ``lidraughts_type``); the reader takes those too."""


class GameOverError(ValueError):
    """A move, resignation or draw offered after the game has ended (``pop`` first)."""


class ReadOnlyBoardError(TypeError):
    """A move made on ``game.board`` (deprecated): a game changes through its own
    ``push``/``pop`` only."""


def _refuse(name: str) -> NoReturn:
    raise ReadOnlyBoardError(
        f"game.board is read-only ({name}): play with game.push()/game.pop(), "
        "or take game.end().board()"
    )


class GameNode:
    """A position of a game tree, reached by ``move`` from ``parent`` (the root has
    neither). ``variations`` are the moves played from here: ``variations[0]`` continues
    the main line, the others are alternatives. ``comment`` follows the move,
    ``starting_comment`` precedes it (at the start of a variation), ``nags`` are PDN's
    numeric annotations (``$1`` = ``!``)."""

    __slots__ = ("parent", "move", "variations", "comment", "starting_comment", "nags")

    def __init__(
        self,
        parent: Optional[GameNode],
        move: Optional[Move],
        *,
        comment: str = "",
        nags: Iterable[int] = (),
    ) -> None:
        self.parent = parent
        self.move = move
        self.variations: list[GameNode] = []
        self.comment = comment
        self.starting_comment = ""
        self.nags: list[int] = list(nags)

    # ---- where it is --------------------------------------------------------------------

    def root(self) -> GameNode:
        """The first node: the :class:`Game` itself for a node of a game."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> Game:
        """The game this node belongs to."""
        game = self.root()
        if not isinstance(game, Game):
            raise ValueError("this node is not part of a game")
        return game

    def _moves(self) -> list[Move]:
        moves = []
        node: Optional[GameNode] = self
        while node is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return moves

    def board(self) -> Board:
        """A new board at this node's position, its move stack the moves leading here (for
        the game itself, the first position)."""
        game = self.game()
        if self is game._end_node():
            return game._board.copy()
        board = game._new_board(Board)
        for move in self._moves():
            board.push(move)
        return board

    def ply(self) -> int:
        """Moves from the root to here."""
        count, node = 0, self
        while node.parent is not None:
            count, node = count + 1, node.parent
        return count

    def is_main_variation(self) -> bool:
        """Whether this node is its parent's main continuation (the root is)."""
        return self.parent is None or self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Whether this node is on the game's main line."""
        node: Optional[GameNode] = self
        while node is not None:
            if not node.is_main_variation():
                return False
            node = node.parent
        return True

    def is_end(self) -> bool:
        return not self.variations

    def next(self) -> Optional[GameNode]:
        """The main continuation, or None at the end."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        return [node.move for node in self.mainline()]  # type: ignore[misc]

    # ---- editing --------------------------------------------------------------------------

    def variation(self, move: Union[Move, int, GameNode]) -> GameNode:
        """The continuation by ``move``, at index ``move``, or the node ``move`` itself if it
        is one of them; KeyError if there is none."""
        if isinstance(move, int):
            return self.variations[move]
        for node in self.variations:
            if node is move or node.move == move:
                return node
        raise KeyError(f"no variation {move} here")

    def has_variation(self, move: Move) -> bool:
        return any(node.move == move for node in self.variations)

    def add_variation(self, move: Move, *, comment: str = "", nags: Iterable[int] = ()) -> GameNode:
        """Add the legal ``move`` as the last continuation (the main one if there is none
        yet); IllegalMoveError otherwise. Returns the new node."""
        board = self.board()
        board.push(move)  # raises IllegalMoveError
        node = GameNode(self, board.peek(), comment=comment, nags=nags)
        self.variations.append(node)
        self._changed()
        return node

    def add_main_variation(self, move: Move, *, comment: str = "") -> GameNode:
        """Add ``move`` as the main continuation (the former main one becomes the first
        alternative)."""
        node = self.add_variation(move, comment=comment)
        self.variations.remove(node)
        self.variations.insert(0, node)
        self._changed()
        return node

    def promote_to_main(self, move: Union[Move, GameNode]) -> None:
        """Make the continuation by ``move`` the main one."""
        node = self.variation(move)
        self.variations.remove(node)
        self.variations.insert(0, node)
        self._changed()

    def promote(self, move: Union[Move, GameNode]) -> None:
        """Move the continuation by ``move`` one place up."""
        node = self.variation(move)
        i = self.variations.index(node)
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]
            self._changed()

    def demote(self, move: Union[Move, GameNode]) -> None:
        """Move the continuation by ``move`` one place down."""
        node = self.variation(move)
        i = self.variations.index(node)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]
            self._changed()

    def remove_variation(self, move: Union[Move, GameNode]) -> None:
        """Remove the continuation by ``move`` and everything after it."""
        self.variations.remove(self.variation(move))
        self._changed()

    def _changed(self) -> None:
        """Tell the game when its main line may have changed."""
        game = self.root()
        if isinstance(game, Game) and self.is_mainline():
            game._mainline_changed()

    def __repr__(self) -> str:
        move = "root" if self.move is None else str(self.move)
        return f"<GameNode {move} ({len(self.variations)} variations)>"


class Headers(MutableMapping):  # type: ignore[type-arg]
    """PDN tags, in insertion order (the seven standard tags first). ``Result`` is the
    game's :meth:`Game.result`; setting it records a result the rules do not give (a loss
    on time, an adjudication): ``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` to forget it."""

    STANDARD = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

    def __init__(self, items: Optional[dict[str, str]] = None, game: Optional[Game] = None):
        self._game = game
        self._data: dict[str, str] = {name: "?" for name in self.STANDARD}
        self._data["Result"] = "*"
        self._data["Date"] = "????.??.??"
        self._data["GameType"] = "25"
        if items:
            self.update(items)

    def __getitem__(self, key: str) -> str:
        if key == "Result" and self._game is not None:
            return self._game.result()
        return self._data[key]

    def __setitem__(self, key: str, value: str) -> None:
        value = str(value)
        if key == "Result" and self._game is not None:
            self._game._record_result(value)
        self._data[key] = value

    def __delitem__(self, key: str) -> None:
        if key == "Result" and self._game is not None:
            self._game._record_result("*")
        del self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Headers({dict(self)!r})"


class _BoardOfGame:
    """What ``game.board`` gives: called, the first position (``game.board()``, as
    python-chess); read as an attribute holder (``game.board.fen()``, the former property),
    the current position, with a DeprecationWarning (use ``game.end().board()``). Moves are
    made through the game only."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __call__(self) -> Board:
        return GameNode.board(self._game)

    def __getattr__(self, name: str) -> Any:
        import warnings

        warnings.warn(
            f"game.board.{name}: game.board is a method now, as in python-chess "
            "(game.board() is the first position); the current position is "
            "game.end().board()",
            DeprecationWarning,
            stacklevel=2,
        )
        if name in _MUTATORS:
            _refuse(name)
        return getattr(self._game._board, name)

    def __eq__(self, other: object) -> bool:
        return self.__getattr__("__eq__")(other)  # type: ignore[no-any-return]

    __hash__ = None  # type: ignore[assignment]


_MUTATORS = frozenset(
    {"push", "pop", "push_move", "set_fen", "set_piece_at", "remove_piece_at", "clear"}
)


class _BoardMethod:
    """The descriptor behind ``Game.board`` (see :class:`_BoardOfGame`)."""

    def __get__(self, game: Optional[Game], owner: type) -> Any:
        if game is None:
            return GameNode.board
        return _BoardOfGame(game)


class Game(GameNode):
    """A game: ``Game()`` from the start position, ``Game(fen)`` from a setup.

    ``variant`` (``"russian"``, ``"giveaway"``, ``"brazilian"``, ``"diagonal"``) and
    ``captures_optional`` choose the game, as for :class:`~shashki.Board`. Moves pushed on
    the game form its main line; ``draw_rules`` (the variant's: FMJD-64 for Russian
    draughts, see :func:`shashki.draw.default_draw_rules`) adjudicate automatic draws.

    The game is the root of its tree, as in python-chess: ``game.root() is game``, each
    :class:`GameNode` has ``variations`` (the main one first) and ``board()`` (a new board
    at its position: ``game.board()`` is the first position, ``game.end().board()`` the
    current one); ``game.nodes`` lists the main line. Once the game has ended (no legal
    move, a draw rule, ``resign``, ``agree_draw``, a recorded result), ``push`` raises
    :class:`GameOverError` until ``pop``.
    """

    __slots__ = (
        "_board",
        "draw_rules",
        "_nodes",
        "errors",
        "_start_fen",
        "_root_fen",
        "_ended",
        "_checked",
        "headers",
    )

    board = _BoardMethod()

    def __init__(
        self,
        fen: Optional[str] = None,
        *,
        variant: str = "russian",
        captures_optional: bool = False,
        draw_rules: Optional[DrawRules] = None,
        headers: Optional[dict[str, str]] = None,
    ) -> None:
        super().__init__(None, None)
        if isinstance(fen, Board):
            raise TypeError(
                "Game(fen) takes a FEN; for the game of a board's moves use "
                "Game.from_board(board), as in python-chess"
            )
        self._board = Board(fen, variant=variant, captures_optional=captures_optional)
        self.draw_rules = (
            default_draw_rules(self._board.variant) if draw_rules is None else draw_rules
        )
        self._nodes: list[GameNode] = []
        self.errors: list[Exception] = []
        self._start_fen = self._board.fen()
        self._root_fen = self._board._root_fen()  # with the FEN's clocks
        self._ended: Optional[tuple[int, Outcome]] = None  # (ply, outcome) when it ended
        self._checked = -1  # the last position the draw rules have been applied to
        self.headers = Headers(game=self)
        if self._board.variant in GAME_TYPE_OF:
            self.headers["GameType"] = GAME_TYPE_OF[self._board.variant]
        elif self._board.variant in _TAGGED_ON:
            self.headers["GameType"] = _TAGGED_ON[self._board.variant]
        if self._board.variant in _TAGGED_ON or self._board.captures_optional:
            self.headers["Variant"] = variant_tag(self._board)
        if fen is not None and self._start_fen != self._variant_start_fen():
            self.headers["FEN"] = self._start_fen
        if headers:
            self.headers.update(headers)

    @classmethod
    def from_board(
        cls,
        board: Board,
        *,
        draw_rules: Optional[DrawRules] = None,
        headers: Optional[dict[str, str]] = None,
    ) -> Game:
        """The game of a board's moves, as python-chess's ``Game.from_board``: from the
        position the board started from (its FEN in the headers when it is not the
        game's start), its move stack as the main line, in the board's game and rules."""
        if not isinstance(board, Board):
            raise TypeError(f"Game.from_board takes a Board, not {type(board).__name__}")
        root = board.root()
        game = cls(
            root.fen(),
            variant=board.variant,
            captures_optional=board.captures_optional,
            draw_rules=draw_rules,
            headers=headers,
        )
        for move in board.move_stack:
            game.push(move)
        return game

    @property
    def variant(self) -> str:
        """The game played: ``"russian"``, ``"giveaway"``, ``"brazilian"`` or ``"diagonal"``."""
        return self._board.variant

    @property
    def captures_optional(self) -> bool:
        """Whether quiet moves are legal beside captures (a house rule of some playing sites)."""
        return self._board.captures_optional

    def _new_board(self, cls: type[_B], fen: Optional[str] = None) -> _B:
        """A board of this game's rules, at ``fen`` (the game's first position by default)."""
        return cls(
            self._root_fen if fen is None else fen,
            variant=self._board.variant,
            captures_optional=self._board.captures_optional,
        )

    def _variant_start_fen(self) -> str:
        return Board(variant=self._board.variant).fen()

    # ---- the tree -------------------------------------------------------------------------

    @property
    def start_fen(self) -> str:
        return self._start_fen

    @property
    def nodes(self) -> list[GameNode]:
        """The nodes of the main line, first move first (a new list)."""
        return list(self._nodes)

    def root(self) -> Game:
        """The game itself: the node of the first position."""
        return self

    def game(self) -> Game:
        return self

    def _end_node(self) -> GameNode:
        return self._nodes[-1] if self._nodes else self

    def end(self) -> GameNode:
        """The last node of the main line."""
        return self._end_node()

    @property
    def current_board(self) -> Board:
        """The position at the end of the main line: the board the game plays on, not a
        copy, for reading (``turn``, ``legal_moves``, ``move_text``, ``peek``…) at no cost.
        Moves are made with :meth:`push`; ``end().board()`` is a copy to change."""
        return self._board

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line."""
        return iter(self.nodes)

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line."""
        return [node.move for node in self._nodes]  # type: ignore[misc]

    def _mainline_changed(self) -> None:
        """The tree was edited: follow the new main line with the board and the rules."""
        self._nodes = list(GameNode.mainline(self))
        board = self._new_board(Board)
        for node in self._nodes:
            assert node.move is not None
            board.push(node.move)
        self._board = board
        if self._ended is not None and (
            self._ended[0] > len(self._nodes) or self._ended[1].termination not in MANUAL
        ):
            self._ended = None
        self._checked = -1

    # ---- moves ----------------------------------------------------------------------------

    def push(self, move: Move) -> GameNode:
        """Play a legal move at the end of the main line (IllegalMoveError otherwise;
        GameOverError once the game has ended)."""
        if not isinstance(move, Move):
            raise TypeError(
                f"Game.push takes a Move, not {type(move).__name__} (push_move takes text)"
            )
        outcome = self.outcome()
        if outcome is not None and outcome.termination is not Termination.NO_MOVES:
            raise GameOverError(
                f"the game is over ({outcome.result()}, {outcome.termination.value}): "
                "pop the last move first"
            )
        return self._push_unchecked(move)

    def _push_unchecked(self, move: Move) -> GameNode:
        """Push without asking whether the game has ended (readers of recorded games)."""
        self._board.push(move)  # raises IllegalMoveError, board unchanged
        node = GameNode(self.end(), self._board.peek())
        node.parent.variations.insert(0, node)  # type: ignore[union-attr]
        self._nodes.append(node)
        return node

    def push_move(self, text: str) -> GameNode:
        """Parse a move in any notation (``c3-d4``, ``22x15``, …) and play it: the new node,
        as :meth:`push` (its ``move`` is the move played)."""
        return self.push(self._board.parse_move(text))

    def _push_move_texts(self, texts: list[str]) -> Optional[Exception]:
        """Parse and play move texts on the main line, stopping at the first that fails
        (whose exception is returned)."""
        played, error = self._board._push_move_texts(texts)
        end = self.end()
        for move in played:
            node = GameNode(end, move)
            end.variations.insert(0, node)
            self._nodes.append(node)
            end = node
        return error

    def pop(self) -> Move:
        """Take back the last move of the main line (its node leaves the tree; an
        alternative to it, if any, becomes the main line)."""
        if not self._nodes:
            raise IndexError("pop from a game with no moves")
        node = self._nodes[-1]
        parent = node.parent
        assert parent is not None
        parent.variations.remove(node)
        if parent.variations:
            self._mainline_changed()
            return node.move  # type: ignore[return-value]
        move = self._board.pop()
        self._nodes.pop()
        if self._ended is not None and self._ended[0] > len(self._nodes):
            self._ended = None
        self._checked = min(self._checked, len(self._nodes))
        return move

    def ply(self) -> int:
        """The number of plies (half-moves) of the main line (a game answers for its main
        line; the ``ply()`` of its nodes counts from the first position)."""
        return len(self._nodes)

    # ---- results --------------------------------------------------------------------------

    def _history(self) -> History:
        return History(self._board)

    def _check_end(self) -> None:
        """Apply the draw rules to every position not yet checked, in order, until one ends
        the game. Pushing a move costs no rule checking: it happens when an outcome,
        result or counter is asked for (so reading a long PDN archive stays fast)."""
        n = len(self._nodes)
        if self._ended is not None or self._checked >= n:
            return
        found = self.draw_rules._first_draw(self._board, self._checked + 1)
        self._checked = n
        if found is None:
            return
        ply, termination = found
        # A position without legal moves can only be the last one.
        outcome = (self._no_moves() if ply == n else None) or Outcome(termination, None)
        self._ended = (ply, outcome)

    def _no_moves(self) -> Optional[Outcome]:
        return no_moves_outcome(self._board)

    def _end_by_hand(self, outcome: Outcome) -> None:
        current = self.outcome()
        if current is not None:
            raise GameOverError(
                f"the game is already over ({current.result()}, {current.termination.value})"
            )
        self._ended = (len(self._nodes), outcome)

    def resign(self, color: bool) -> None:
        """Record that ``color`` resigned (GameOverError if the game has ended)."""
        self._end_by_hand(Outcome(Termination.RESIGNATION, not color))

    def agree_draw(self) -> None:
        """Record a draw by agreement (GameOverError if the game has ended)."""
        self._end_by_hand(Outcome(Termination.AGREEMENT, None))

    def _record_result(self, text: str) -> None:
        """A result from outside the rules (headers["Result"] = …); "*" forgets it."""
        text = text.strip()
        if text == "*":
            if self._ended is not None and self._ended[1].termination in MANUAL:
                self._ended = None
            return
        if text not in RESULTS:
            raise ValueError(f"a result is 1-0, 0-1, 1/2-1/2 or *, not {text!r}")
        current = self.outcome()
        if current is not None and current.result() == text:
            return
        if current is not None and current.termination not in MANUAL:
            raise GameOverError(
                f"the rules end this game {current.result()} ({current.termination.value})"
            )
        self._ended = (len(self._nodes), Outcome(Termination.RECORDED, RESULTS[text]))

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """The outcome, or None while the game goes on. ``claim_draw`` also applies the
        rule set's claimable draws (such as the historical code's repetition)."""
        self._check_end()
        if self._ended is not None:
            return self._ended[1]
        no_moves = self._no_moves()
        if no_moves is not None:
            return no_moves
        if claim_draw:
            termination = self.draw_rules.reached(self._history(), claim=True)
            if termination is not None:
                return Outcome(termination, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"`` (game goes on)."""
        outcome = self.outcome()
        return outcome.result() if outcome is not None else "*"

    def draw_counters(self) -> list[DrawCounter]:
        """Every draw rule whose count runs now, e.g. to show "draw in 3 moves"."""
        return self.draw_rules.counters(self._history())

    def __repr__(self) -> str:
        white, black = self.headers["White"], self.headers["Black"]
        return f"<Game {white!r} vs {black!r} at {self._board.fen()!r}>"


MANUAL = (Termination.RESIGNATION, Termination.AGREEMENT, Termination.RECORDED)

if TYPE_CHECKING:
    GameOrBoard = Union[Game, Board]
