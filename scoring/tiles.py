"""Tiles: one internal encoding, a 0-33 kind index, behind named constants.

Kinds 0-8 are 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-33 the honours E S W N, white, green, red
(``1z``-``7z``). A :class:`Tile` is a kind plus a red flag (red fives, written ``0m 0p 0s``).
Tile counts of a hand are 34-tuples indexed by kind; tables below are built at import so
that scoring never recomputes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import NotationError

SUITS = "mpsz"
NUM_KINDS = 34

MAN, PIN, SOU, HONOR = 0, 1, 2, 3

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
HAKU, HATSU, CHUN = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (HAKU, HATSU, CHUN)
HONORS = WINDS + DRAGONS
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONORS = TERMINALS + HONORS
FIVES = (4, 13, 22)

#: Seat / round winds as letters, in turn order.
WIND_LETTERS = "ESWN"

# Kinds that are terminals or honours (yaochuuhai), as a boolean table.
IS_YAOCHUU = tuple(k in TERMINALS_AND_HONORS for k in range(NUM_KINDS))
IS_HONOR = tuple(k >= 27 for k in range(NUM_KINDS))
IS_TERMINAL = tuple(k in TERMINALS for k in range(NUM_KINDS))
#: The green tiles of ryuuiisou: 2s 3s 4s 6s 8s and hatsu.
GREEN_KINDS = frozenset({19, 20, 21, 23, 25, HATSU})

_TILE_RE = re.compile(r"^([0-9])([mpsz])$")


def suit_of(kind: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honour."""
    return kind // 9


def number_of(kind: int) -> int:
    """1-9 for suited kinds, 1-7 for honours."""
    return kind % 9 + 1


def kind_from(number: int, suit: str) -> int:
    """Kind index from a number (1-9, 0 for a red five) and a suit letter."""
    if suit not in SUITS:
        raise NotationError(f"unknown suit {suit!r}", code="bad_tile")
    if number == 0:
        if suit == "z":
            raise NotationError("there is no red honour tile '0z'", code="bad_tile")
        number = 5
    limit = 7 if suit == "z" else 9
    if not 1 <= number <= limit:
        raise NotationError(f"no tile {number}{suit}", code="bad_tile")
    return SUITS.index(suit) * 9 + number - 1


def kind_name(kind: int) -> str:
    """MPSZ name of a kind, e.g. ``kind_name(0) == '1m'``."""
    if not 0 <= kind < NUM_KINDS:
        raise NotationError(f"tile kind {kind!r} out of range 0-33", code="bad_tile")
    return f"{number_of(kind)}{SUITS[suit_of(kind)]}"


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile: its kind (0-33) and whether it is a red five.

    >>> Tile.parse("0p")
    Tile.parse('0p')
    >>> str(Tile.parse("0p")), Tile.parse("0p").kind
    ('0p', 13)
    """

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind < NUM_KINDS:
            raise NotationError(f"tile kind {self.kind!r} out of range 0-33", code="bad_tile")
        if self.red and self.kind not in FIVES:
            raise NotationError(
                f"only fives can be red, not {kind_name(self.kind)}", code="bad_tile"
            )

    @classmethod
    def parse(cls, text: str) -> Tile:
        m = _TILE_RE.match(text.strip())
        if not m:
            raise NotationError(
                f"not a tile: {text!r} (expected e.g. '5m', '0p', '7z')", code="bad_tile"
            )
        number, suit = int(m.group(1)), m.group(2)
        return cls(kind_from(number, suit), red=number == 0)

    def __str__(self) -> str:
        if self.red:
            return f"0{SUITS[suit_of(self.kind)]}"
        return kind_name(self.kind)

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    @property
    def suit(self) -> int:
        return suit_of(self.kind)

    @property
    def number(self) -> int:
        return number_of(self.kind)

    @property
    def is_honor(self) -> bool:
        return self.kind >= 27

    @property
    def is_terminal_or_honor(self) -> bool:
        return IS_YAOCHUU[self.kind]


def counts_of(tiles: Iterable[Tile | int]) -> tuple[int, ...]:
    """A 34-tuple of counts per kind."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t.kind if isinstance(t, Tile) else t] += 1
    return tuple(counts)


def dora_from_indicator(kind: int) -> int:
    """The kind an indicator points at: 9->1 within a suit, N->E, red->white.

    >>> [kind_name(dora_from_indicator(k)) for k in (8, 30, 33)]
    ['1m', '1z', '5z']
    """
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind <= NORTH:
        return EAST + (kind - EAST + 1) % 4
    return HAKU + (kind - HAKU + 1) % 3


def wind_kind(letter: str) -> int:
    """The honour kind of a wind letter ``E S W N``."""
    if letter not in WIND_LETTERS or len(letter) != 1:
        raise NotationError(f"not a wind: {letter!r} (expected one of E S W N)", code="bad_wind")
    return EAST + WIND_LETTERS.index(letter)
