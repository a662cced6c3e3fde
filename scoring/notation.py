"""MPSZ notation: parse and print tile strings such as ``123m406p11z``.

Every parser here has an exact printer, tested by round trip. Other notations (Tenhou
136-ids, mjai names, Unicode tiles) live beside these as further parser/printer pairs.
"""

from __future__ import annotations

import re

from scoring.errors import NotationError
from scoring.tiles import SUITS, Tile

#: A whole MPSZ string: groups of digits, each closed by a suit letter.
MPSZ_RE = re.compile(r"^(?:[0-9]+[mpsz])*$")
_GROUP_RE = re.compile(r"([0-9]+)([mpsz])")


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse an MPSZ string into tiles, in the order written.

    >>> [str(t) for t in parse_tiles("12m0p7z")]
    ['1m', '2m', '0p', '7z']
    """
    if not isinstance(text, str):
        raise NotationError(
            f"tiles must be a string, not {type(text).__name__}", code="bad_notation"
        )
    compact = text.replace(" ", "")
    if not MPSZ_RE.match(compact):
        raise NotationError(
            f"malformed tiles {text!r}: write digits before their suit letter, e.g. '123m406p11z'",
            code="bad_notation",
        )
    tiles: list[Tile] = []
    for digits, suit in _GROUP_RE.findall(compact):
        for d in digits:
            try:
                tiles.append(Tile.parse(d + suit))
            except NotationError as exc:
                raise NotationError(
                    f"malformed tiles {text!r}: {exc.message}", code="bad_notation"
                ) from exc
    return tuple(tiles)


def format_tiles(tiles: tuple[Tile, ...] | list[Tile], *, sort: bool = False) -> str:
    """Print tiles in compact MPSZ, merging runs of the same suit.

    >>> format_tiles(parse_tiles("1m2m0p7z"))
    '12m0p7z'
    """
    seq = sorted(tiles, key=lambda t: (t.kind, not t.red)) if sort else list(tiles)
    out: list[str] = []
    for t in seq:
        s = str(t)
        if out and out[-1][-1] == s[-1]:
            out[-1] = out[-1][:-1] + s
        else:
            out.append(s)
    return "".join(out)


def parse_tile(text: str) -> Tile:
    """One tile, e.g. ``'5m'``."""
    return Tile.parse(text)


__all__ = ["MPSZ_RE", "SUITS", "format_tiles", "parse_tile", "parse_tiles"]
