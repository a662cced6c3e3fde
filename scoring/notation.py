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
#: Every valid MPSZ tile name and its (immutable, hence shared) Tile, built at import.
_TILES: dict[str, Tile] = {
    f"{d}{s}": Tile.parse(f"{d}{s}")
    for s in SUITS
    for d in "0123456789"
    if not (s == "z" and d in "089") and not (d == "0" and s == "z")
}


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
            tile = _TILES.get(d + suit)
            if tile is None:
                try:
                    Tile.parse(d + suit)  # raises with the precise reason
                except NotationError as exc:
                    raise NotationError(
                        f"malformed tiles {text!r}: {exc.message}", code="bad_notation"
                    ) from exc
            tiles.append(tile)  # type: ignore[arg-type]
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


# --- Tenhou 136 ids ----------------------------------------------------------------------

#: Tenhou's ids of the red fives (5m, 5p, 5s) in red-five lobbies.
TENHOU_RED_IDS = frozenset({16, 52, 88})


def parse_tenhou_136(ids: list[int] | tuple[int, ...], *, red: bool = True) -> tuple[Tile, ...]:
    """Tiles from Tenhou 136 ids (``id // 4`` is the kind; 16, 52, 88 are red when ``red``).

    >>> [str(t) for t in parse_tenhou_136([0, 16, 17, 135])]
    ['1m', '0m', '5m', '7z']
    """
    out: list[Tile] = []
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < 136:
            raise NotationError(f"not a Tenhou tile id (0-135): {i!r}", code="bad_tile")
        out.append(Tile(i // 4, red=red and i in TENHOU_RED_IDS))
    return tuple(out)


def format_tenhou_136(tiles: tuple[Tile, ...] | list[Tile]) -> tuple[int, ...]:
    """Distinct Tenhou ids for tiles: red fives get 16/52/88, other copies count up.

    >>> format_tenhou_136(parse_tiles("550m"))
    (17, 18, 16)
    """
    used: set[int] = set()
    out: list[int] = []
    for t in tiles:
        if t.red:
            candidates: range | tuple[int, ...] = (t.kind * 4,)
        else:
            start = t.kind * 4
            candidates = range(start + (1 if start in TENHOU_RED_IDS else 0), start + 4)
        i = next((c for c in candidates if c not in used), None)
        if i is None:
            raise NotationError(
                f"more than four {t} in {format_tiles(tiles)!r}", code="bad_notation"
            )
        used.add(i)
        out.append(i)
    return tuple(out)


# --- mjai names --------------------------------------------------------------------------

#: mjai's honour names, in kind order (E S W N, white P, green F, red C).
MJAI_HONORS = ("E", "S", "W", "N", "P", "F", "C")


def parse_mjai(name: str) -> Tile:
    """One tile from its mjai name (``5m``, ``5mr`` red, ``E`` ... ``C``).

    >>> parse_mjai("5pr"), parse_mjai("C")
    (Tile.parse('0p'), Tile.parse('7z'))
    """
    if name in MJAI_HONORS:
        return Tile(27 + MJAI_HONORS.index(name))
    if len(name) in (2, 3) and name[0] in "123456789" and name[1] in "mps":
        if len(name) == 3:
            if name[2] != "r" or name[0] != "5":
                raise NotationError(f"not an mjai tile: {name!r}", code="bad_tile")
            return Tile.parse("0" + name[1])
        return Tile.parse(name)
    raise NotationError(
        f"not an mjai tile: {name!r} (expected e.g. '5m', '5mr', 'E', 'P')", code="bad_tile"
    )


def format_mjai(tile: Tile) -> str:
    """The mjai name of a tile (inverse of :func:`parse_mjai`)."""
    if tile.kind >= 27:
        return MJAI_HONORS[tile.kind - 27]
    text = f"{tile.number}{SUITS[tile.suit]}"
    return text + "r" if tile.red else text


# --- Unicode mahjong tiles ---------------------------------------------------------------

#: The Unicode character of each kind (U+1F000 block); honours E S W N, white, green, red.
UNICODE_TILES: tuple[str, ...] = (
    tuple(chr(0x1F007 + i) for i in range(9))
    + tuple(chr(0x1F019 + i) for i in range(9))
    + tuple(chr(0x1F010 + i) for i in range(9))
    + tuple(chr(c) for c in (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004))
)
_UNICODE_KIND = {c: k for k, c in enumerate(UNICODE_TILES)}
#: Unicode has no red five: Agari marks one with a following "r" (as mjai does).
UNICODE_RED_MARK = "r"


def parse_unicode(text: str) -> tuple[Tile, ...]:
    """Tiles from Unicode mahjong characters; a five followed by ``r`` is red.

    >>> format_tiles(parse_unicode("\U0001f007\U0001f00br\U0001f004"))
    '10m7z'
    """
    out: list[Tile] = []
    for ch in text.replace(" ", ""):
        if ch == UNICODE_RED_MARK:
            if not out or out[-1].red or out[-1].kind not in (4, 13, 22):
                raise NotationError(
                    f"malformed Unicode tiles {text!r}: 'r' must follow a five",
                    code="bad_notation",
                )
            out[-1] = Tile(out[-1].kind, red=True)
            continue
        kind = _UNICODE_KIND.get(ch)
        if kind is None:
            raise NotationError(
                f"malformed Unicode tiles {text!r}: {ch!r} is not a mahjong tile",
                code="bad_notation",
            )
        out.append(Tile(kind))
    return tuple(out)


def format_unicode(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    """Unicode mahjong characters for tiles (inverse of :func:`parse_unicode`)."""
    return "".join(UNICODE_TILES[t.kind] + (UNICODE_RED_MARK if t.red else "") for t in tiles)


__all__ = [
    "MJAI_HONORS",
    "MPSZ_RE",
    "SUITS",
    "TENHOU_RED_IDS",
    "UNICODE_TILES",
    "format_mjai",
    "format_tenhou_136",
    "format_tiles",
    "format_unicode",
    "parse_mjai",
    "parse_tenhou_136",
    "parse_tile",
    "parse_tiles",
    "parse_unicode",
]
