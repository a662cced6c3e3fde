"""Called and concealed melds, as immutable values.

A :class:`Meld` is one declared set: a chi, a pon, or one of the three kans. It knows its
tiles (red fives kept), where the called tile came from (relative to the caller: ``left``
is kamicha, ``across`` toimen, ``right`` shimocha; absent for a closed kan) and whether it
opens the hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scoring.errors import NotationError
from scoring.tiles import Tile

MeldKind = Literal["chi", "pon", "daiminkan", "kakan", "ankan"]
Direction = Literal["left", "across", "right"]

MELD_KINDS: tuple[str, ...] = ("chi", "pon", "daiminkan", "kakan", "ankan")
DIRECTIONS: tuple[str, ...] = ("left", "across", "right")
KAN_KINDS = frozenset({"daiminkan", "kakan", "ankan"})


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared set. Tiles are kept as given (sorted by kind), red fives included.

    >>> m = Meld.parse("pon", "555z", "left")
    >>> m.base, m.is_open, m.is_kan, str(m)
    (31, True, False, 'pon 555z from left')
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    from_: Direction | None = None

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            hint = (
                ": a called kan is daiminkan (on a discard) or kakan (added to a pon), a closed "
                "one ankan"
                if self.kind in ("kan", "kong", "minkan", "shouminkan")
                else ""
            )
            raise NotationError(
                f"unknown meld kind {self.kind!r} (expected one of {', '.join(MELD_KINDS)})" + hint,
                code="bad_meld",
            )
        a = "an" if self.kind[0] in "aeiou" else "a"
        kinds = sorted(t.kind for t in self.tiles)
        need = 4 if self.kind in KAN_KINDS else 3
        if len(kinds) != need:
            raise NotationError(
                f"{a} {self.kind} has {need} tiles, not {len(kinds)}: {self._text()!r}",
                code="bad_meld",
            )
        if self.kind == "chi":
            ok = (
                kinds[0] < 27
                and kinds[0] // 9 == kinds[2] // 9
                and kinds[1] == kinds[0] + 1
                and kinds[2] == kinds[0] + 2
            )
            if not ok:
                raise NotationError(
                    f"a chi is three consecutive tiles of one suit, not {self._text()!r}",
                    code="bad_meld",
                )
        elif kinds[0] != kinds[-1]:
            raise NotationError(
                f"{a} {self.kind} is {need} identical tiles, not {self._text()!r}", code="bad_meld"
            )
        if self.kind == "ankan":
            if self.from_ is not None:
                raise NotationError(
                    f"a closed kan (ankan) is called from no one: no 'from' (no @ in the "
                    f"notation), not {self.from_!r}",
                    code="bad_meld",
                )
        elif self.from_ not in DIRECTIONS:
            raise NotationError(
                f"{a} {self.kind} needs who it was called from: 'from' left, across or right "
                f"(in the notation @left, @across, @right), not {self.from_!r}",
                code="bad_meld",
            )
        if self.kind == "chi" and self.from_ != "left":
            raise NotationError(
                f"a chi can only be called from the player on the left, not {self.from_!r}",
                code="bad_meld",
            )

    def _text(self) -> str:
        from scoring.notation import format_tiles

        return format_tiles(self.tiles)

    @classmethod
    def parse(cls, kind: str, tiles: str, from_: str | None = None) -> Meld:
        """A meld from its kind, MPSZ tiles and direction."""
        from scoring.notation import parse_tiles

        parsed = tuple(sorted(parse_tiles(tiles), key=lambda t: (t.kind, not t.red)))
        return cls(kind, parsed, from_)  # type: ignore[arg-type]

    @property
    def base(self) -> int:
        """The lowest kind of the set (the run's start, or the triplet's kind)."""
        return min(t.kind for t in self.tiles)

    @property
    def is_open(self) -> bool:
        """Whether this meld opens the hand (every call but a closed kan)."""
        return self.kind != "ankan"

    @property
    def is_kan(self) -> bool:
        return self.kind in KAN_KINDS

    @property
    def is_run(self) -> bool:
        return self.kind == "chi"

    def __str__(self) -> str:
        text = f"{self.kind} {self._text()}"
        return text if self.from_ is None else f"{text} from {self.from_}"

    def __repr__(self) -> str:
        return f"Meld.parse({self.kind!r}, {self._text()!r}, {self.from_!r})"


#: A whole hand in one line: concealed tiles, ``+`` the winning tile, then each meld as
#: ``kind:tiles`` with ``@from`` unless it is a closed kan.
HAND_RE = re.compile(
    r"^(?P<closed>[0-9mpsz]*)\+(?P<win>[0-9][mpsz])(?P<melds>(?: [a-z]+:[0-9mpsz]+(?:@[a-z]+)?)*)$"
)
_MELD_RE = re.compile(r" ([a-z]+):([0-9mpsz]+)(?:@([a-z]+))?")


@dataclass(frozen=True, slots=True)
class Hand:
    """The tiles of a win: concealed part (without the winning tile), winning tile, melds.

    >>> h = Hand.parse("234m406p78s11z+9s pon:555z@left")
    >>> str(h), len(h.closed), h.melds[0].kind
    ('234m406p78s11z+9s pon:555z@left', 10, 'pon')
    """

    closed: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Hand:
        from scoring.notation import parse_tiles

        tidy = _tidy(text)
        m = HAND_RE.match(tidy)
        if not m:
            raise NotationError(
                f"not a hand: {text[:200]!r} (expected e.g. '234m406p78s11z+9s pon:555z@left': "
                f"{_what_is_wrong(tidy)})",
                code="bad_notation",
            )
        melds = tuple(
            # findall gives '' for an absent direction
            Meld.parse(kind, tiles, frm or None)
            for kind, tiles, frm in _MELD_RE.findall(m["melds"])
        )
        return cls(parse_tiles(m["closed"]), Tile.parse(m["win"]), melds)

    def __str__(self) -> str:
        from scoring.notation import format_tiles

        parts = [f"{format_tiles(self.closed)}+{self.win_tile}"]
        for meld in self.melds:
            where = "" if meld.from_ is None else f"@{meld.from_}"
            parts.append(f"{meld.kind}:{format_tiles(meld.tiles)}{where}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"


def _tidy(text: str) -> str:
    """The ways people type a hand that say the same thing, written the one way: upper case
    (``234M``, ``PON:``, ``@Left``), spaces inside the tiles or around ``+`` (``234m 406p
    78s 11z + 9s``), several spaces or commas between melds.

    >>> _tidy(" 234M 406p 78s 11z + 9s,  PON:555z@Left ")
    '234m406p78s11z+9s pon:555z@left'
    """
    words = text.replace(",", " ").lower().split()
    tiles = [w for w in words if ":" not in w]
    melds = [w for w in words if ":" in w]
    return " ".join(["".join(tiles), *melds])


def _what_is_wrong(text: str) -> str:
    """A hint for a hand that does not parse, after :func:`_tidy`."""
    head = text.split(" ")[0]
    if "+" not in head:
        return "put '+' before the winning tile"
    if re.search(r"[^0-9mpsz+]", head):
        bad = sorted(set(re.findall(r"[^0-9mpsz+]", head)))
        return (
            f"{' '.join(bad)} is no tile: write digits before m p s z (honours 1z-7z, red five 0)"
        )
    if not re.fullmatch(r"[0-9mpsz]*\+[0-9][mpsz]", head):
        return "write digits before their suit letter, one winning tile after '+'"
    return (
        "each call is KIND:TILES@FROM (chi, pon, daiminkan, kakan with @left, @across or "
        "@right; ankan without @)"
    )


def parse_hand(text: str) -> Hand:
    """A :class:`Hand` from its one-line notation (see :data:`HAND_RE`)."""
    return Hand.parse(text)


def format_hand(hand: Hand) -> str:
    """The one-line notation of a hand (inverse of :func:`parse_hand`)."""
    return str(hand)


__all__ = [
    "DIRECTIONS",
    "HAND_RE",
    "KAN_KINDS",
    "MELD_KINDS",
    "Direction",
    "Hand",
    "Meld",
    "MeldKind",
    "format_hand",
    "parse_hand",
]
