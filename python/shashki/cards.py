"""The games' cards: one declaration per game, in the Rust core's registry (``src/games.rs``,
``GAMES``), read here once; every layer that needs a fact of a game (the draw rules, PDN's
GameType, the Hub's names, the web board's menu, the command line's choices, the batch API's
shapes) takes it from :func:`games` or :func:`game_info`, never from a table of its own.

>>> import shashki
>>> card = shashki.game_info("Checkers")
>>> card.name, card.display_name, card.first, card.notation, card.game_type
('english', 'English draughts (checkers)', 'black', 'numeric', 21)
>>> card.draw_rules, card.board_size, card.square_count, card.actions
('english', 8, 32, 896)
>>> [g.name for g in shashki.games() if g.board_size == 10][:3]
['international', 'antidraughts', 'killer']
"""

from __future__ import annotations

from collections import namedtuple

from shashki import _core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

_FIELDS = (
    "name",
    "display_name",
    "aliases",
    "board_size",
    "square_count",
    "every_square",
    "first",
    "notation",
    "turned",
    "game_type",
    "tagged_on",
    "lidraughts_type",
    "hub_names",
    "hub_index_numbers",
    "draw_rules",
    "move_rules",
    "no_moves_wins",
    "actions",
    "evaluation",
    "evaluation_match",
    "stacks",
)


if TYPE_CHECKING:  # the fields' types, for type checkers (typing costs import time)
    from typing import NamedTuple

    class _Card(NamedTuple):
        name: str
        display_name: str
        aliases: tuple[str, ...]
        board_size: int
        square_count: int
        every_square: bool
        first: str
        notation: str
        turned: bool
        game_type: Optional[int]
        tagged_on: Optional[str]
        lidraughts_type: Optional[int]
        hub_names: tuple[str, ...]
        hub_index_numbers: bool
        draw_rules: str
        move_rules: str
        no_moves_wins: bool
        actions: int
        evaluation: str
        evaluation_match: str
        stacks: bool

else:
    _Card = namedtuple("_Card", _FIELDS)


class GameInfo(_Card):
    """One game's card (immutable): ``name`` (what ``variant=`` takes) and ``aliases``;
    ``display_name`` (menus, help texts); ``board_size`` (8, 10, 12), ``square_count`` (its
    playable squares) and ``every_square`` (Turkish draughts); ``first`` (``"white"`` or
    ``"black"``, the side that moves first); ``notation`` (``"numeric"`` or ``"algebraic"``:
    what its players and its PDN write); ``turned`` (the board turned, numbered from another
    corner: Italian, Spanish, Portuguese); ``game_type`` (its PDN GameType, or None) and
    ``tagged_on`` (the game whose GameType it is written under, with a ``Variant`` tag) and
    ``lidraughts_type`` (the number lidraughts' exports give it); ``hub_names`` (what Hub
    clients send for it besides its names: Scan's ``normal``, ``losing``) and
    ``hub_index_numbers`` (its Hub moves number squares by index plus one, as pydraughts
    does on Russian draughts' boards, rather than by its PDN numbers); ``draw_rules``
    (the name of its built-in draw rules: :func:`shashki.draw.default_draw_rules`);
    ``move_rules`` (the core's kind of move rules); ``no_moves_wins`` (giveaway's reversed
    goal); ``actions`` (the batch API's action space; 0 for уголки, whose moves do not fit
    it); ``evaluation`` (what the engine's default ``learned`` evaluation is for the game:
    ``network``, ``family``, ``giveaway``, ``corners``, ``columns`` or ``russian``, the
    linear weights learned in Russian draughts) and ``evaluation_match`` (the match that chose
    it, or why none did; docs/search.md's table is made from them);
    ``stacks`` (a column game: towers, Lasca, whose squares hold columns of pieces and whose
    boards are :class:`shashki.ColumnBoard`; :func:`games` lists them only when asked)."""

    __slots__ = ()

    @property
    def white_first(self) -> bool:
        """Whether White moves first."""
        return self.first == "white"

    @property
    def pdn_game_type(self) -> int:
        """The GameType number PDN writes for the game (its own, or the one it is tagged
        on)."""
        if self.game_type is not None:
            return int(self.game_type)
        host = game_info(self.tagged_on or "russian")
        return int(host.game_type) if host.game_type is not None else 25

    @property
    def names(self) -> tuple[str, ...]:
        """Its name and aliases."""
        return (self.name, *self.aliases)


_ALL_CARDS: tuple[GameInfo, ...] = tuple(GameInfo(**card) for card in _core.game_cards())
_CARDS: tuple[GameInfo, ...] = tuple(card for card in _ALL_CARDS if not card.stacks)
_COLUMN_CARDS: tuple[GameInfo, ...] = tuple(card for card in _ALL_CARDS if card.stacks)
_BY_NAME: dict[str, GameInfo] = {n: card for card in _ALL_CARDS for n in card.names}


def games(*, columns: bool = False) -> tuple[GameInfo, ...]:
    """Every game of one piece a square (what :class:`shashki.Board` plays), in the
    registry's order (Russian draughts first); with ``columns=True``, the column games
    (towers, Lasca: :class:`shashki.ColumnBoard`) instead."""
    return _COLUMN_CARDS if columns else _CARDS


def _key(name: str) -> str:
    """A name as the core compares names: trimmed, lower case, ``_`` as ``-``."""
    return name.strip().lower().replace("_", "-")


def find(name: str) -> Optional[GameInfo]:
    """The card of a game's name or alias (case-insensitive), or None."""
    return _BY_NAME.get(_key(name)) if isinstance(name, str) else None


def game_info(name: str) -> GameInfo:
    """The card of a game by its name or an alias, case-insensitive (``"Russian"``,
    ``"checkers"``, ``"12x12"``); a ValueError listing the games for another name."""
    card = find(name)
    if card is None:
        names = ", ".join(c.name for c in _CARDS)
        raise ValueError(f"unknown game {name!r}: one of {names}")
    return card


def names_text(cards: tuple[GameInfo, ...] = _CARDS) -> str:
    """The games' display names for a description or a help text: ``Russian draughts,
    Giveaway (poddavki), …``."""
    return ", ".join(card.display_name for card in cards)
