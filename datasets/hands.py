"""Random winning hands as players lay them on the table: plausible riichi wins.

A :class:`LaidHand` is the ground truth of a scene's hand: the concealed tiles in the order
laid (without the winning tile), the winning tile, the called melds left to right with which
tiles lie sideways or face down, and the dora / ura indicators. Open hands are built around a
yaku (tanyao, yakuhai, honitsu, toitoi) so every hand could really have been won; closed hands
are riichi hands. ``to_request`` gives the CONTRACT.md score-request hand fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring.divide import divide, is_chiitoitsu, is_kokushi
from scoring.notation import format_tiles, parse_tiles
from scoring.tiles import NUM_KINDS, TERMINALS_AND_HONORS, Tile, counts_of, kind_name

MELD_KINDS = ("chi", "pon", "daiminkan", "kakan", "ankan")
SOURCES = ("left", "across", "right")


@dataclass(frozen=True, slots=True)
class LaidMeld:
    """A called (or closed) set as laid: ``tiles`` left to right in MPSZ names.

    ``sideways`` holds the indices laid sideways; for ``kakan`` the added tile is the last
    one and lies sideways next to the called tile (``stacked_on`` is that tile's index).
    ``face_down`` holds the indices of an ``ankan``'s tiles turned over.
    """

    kind: str
    tiles: tuple[str, ...]
    source: str | None
    sideways: tuple[int, ...] = ()
    face_down: tuple[int, ...] = ()
    stacked_on: int | None = None

    def to_request(self) -> dict[str, Any]:
        tiles = format_tiles(parse_tiles("".join(self.tiles)), sort=True)
        out: dict[str, Any] = {"kind": self.kind, "tiles": tiles}
        if self.source is not None:
            out["from"] = self.source
        return out


@dataclass(frozen=True, slots=True)
class LaidHand:
    concealed: tuple[str, ...]
    win_tile: str
    melds: tuple[LaidMeld, ...]
    dora_indicators: tuple[str, ...] = ()
    ura_indicators: tuple[str, ...] = ()
    shape: str = "standard"
    theme: str = "riichi"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_request(self) -> dict[str, Any]:
        """The score-request hand fields of CONTRACT.md."""
        return {
            "closed": format_tiles(parse_tiles("".join(self.concealed)), sort=True),
            "win_tile": self.win_tile,
            "melds": [m.to_request() for m in self.melds],
            "dora_indicators": list(self.dora_indicators),
            "ura_indicators": list(self.ura_indicators),
        }

    def all_tiles(self) -> list[str]:
        tiles = [*self.concealed, self.win_tile]
        for m in self.melds:
            tiles += m.tiles
        return tiles


def is_winning_shape(hand: LaidHand) -> bool:
    """Whether the concealed tiles plus the winning tile complete the hand with the melds."""
    counts = counts_of(Tile.parse(t) for t in (*hand.concealed, hand.win_tile))
    if hand.melds:
        need = 4 - len(hand.melds)
        return any(len(d.blocks) == need for d in divide(counts))
    return bool(divide(counts)) or is_chiitoitsu(counts) or is_kokushi(counts)


# --- generation -------------------------------------------------------------------------------

_SUITED = [k for k in range(27)]
_SIMPLES = [k for k in range(27) if 1 <= k % 9 <= 7]


def _choice(rng: np.random.Generator, seq: list[Any] | tuple[Any, ...]) -> Any:
    return seq[int(rng.integers(len(seq)))]


def _weighted(rng: np.random.Generator, options: dict[Any, float]) -> Any:
    keys = list(options)
    p = np.array([options[k] for k in keys], dtype=float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


def _allowed(theme: str, suit: int) -> list[int]:
    if theme == "tanyao":
        return list(_SIMPLES)
    if theme == "honitsu":
        return [k for k in range(suit * 9, suit * 9 + 9)] + list(range(27, 34))
    return list(range(NUM_KINDS))


def _pick_sets(
    rng: np.random.Generator, theme: str, n_melds: int
) -> tuple[list[tuple[int, bool]], int] | None:
    """Four (kind, is_run) sets and a pair kind within the theme, or None on a dead end."""
    counts = [0] * NUM_KINDS
    suit = int(rng.integers(3))
    allowed = _allowed(theme, suit)
    sets: list[tuple[int, bool]] = []
    triplet_p = {"toitoi": 1.0, "yakuhai": 0.3, "riichi": 0.2}.get(theme, 0.25)
    if theme == "yakuhai":
        # a dragon triplet: yakuhai whatever the seat and round (a wind would depend on them)
        k = _choice(rng, [31, 32, 33])
        counts[k] += 3
        sets.append((k, False))
    while len(sets) < 4:
        for _ in range(40):
            if rng.random() < triplet_p:
                k = _choice(rng, allowed)
                if counts[k] + 3 <= 4:
                    counts[k] += 3
                    sets.append((k, False))
                    break
            else:
                starts = [k for k in allowed if k < 27 and k % 9 <= 6 and k + 2 in allowed]
                if not starts:
                    continue
                k = _choice(rng, starts)
                if all(counts[j] < 4 for j in (k, k + 1, k + 2)):
                    for j in (k, k + 1, k + 2):
                        counts[j] += 1
                    sets.append((k, True))
                    break
        else:
            return None
    pairs = [k for k in allowed if counts[k] + 2 <= 4]
    if not pairs:
        return None
    pair = _choice(rng, pairs)
    order = list(rng.permutation(4))
    return [sets[i] for i in order], pair


def _meld_of(rng: np.random.Generator, kind: int, is_run: bool, counts: list[int]) -> LaidMeld:
    """Lay one called set; ``counts`` (the whole hand's) decides whether a kan fits."""
    if is_run:
        called = int(rng.integers(3))
        others = [kind + i for i in range(3) if i != called]
        tiles = tuple(kind_name(k) for k in [kind + called, *others])
        return LaidMeld("chi", tiles, "left", sideways=(0,))
    can_kan = counts[kind] == 3
    mk = "pon"
    if can_kan:
        mk = _weighted(rng, {"pon": 0.55, "daiminkan": 0.15, "kakan": 0.15, "ankan": 0.15})
    name = kind_name(kind)
    if mk == "ankan":
        face_down = (0, 3) if rng.random() < 0.8 else (1, 2)
        return LaidMeld("ankan", (name,) * 4, None, face_down=face_down)
    source = _choice(rng, SOURCES)
    if mk == "pon":
        pos = SOURCES.index(source)
        return LaidMeld("pon", (name,) * 3, source, sideways=(pos,))
    if mk == "kakan":
        pos = SOURCES.index(source)
        return LaidMeld("kakan", (name,) * 4, source, sideways=(pos, 3), stacked_on=pos)
    pos = {"left": 0, "across": int(_choice(rng, (1, 2))), "right": 3}[source]
    return LaidMeld("daiminkan", (name,) * 4, source, sideways=(pos,))


def _redden(rng: np.random.Generator, hand: LaidHand, p_red: float) -> LaidHand:
    """Turn one five per suit red (as in games with red fives), wherever it sits."""
    conc = list(hand.concealed)
    win = [hand.win_tile]
    melds = [list(m.tiles) for m in hand.melds]
    places = [conc, win, *melds]

    def fives(suit: str) -> list[tuple[list, int]]:
        return [(p, i) for p in places for i, t in enumerate(p) if t == "5" + suit]

    def turn_one(spots: list[tuple[list, int]], suit: str) -> None:
        place, i = spots[int(rng.integers(len(spots)))]
        place[i] = "0" + suit

    for suit in "mps":
        if rng.random() >= p_red:
            continue
        if spots := fives(suit):
            turn_one(spots, suit)
    reds = {t[1] for p in places for t in p if t and t[0] == "0"}
    for suit in "mps" if reds else ():
        # A game with red fives has one per suit: a hand holding all four fives of a suit
        # (a kan) holds its red one. (Other hands draw nothing more here, so every other
        # sample of a seed stays as it was.)
        if suit not in reds and len(spots := fives(suit)) == 4:
            turn_one(spots, suit)
    win = win[0]
    new_melds = tuple(
        LaidMeld(m.kind, tuple(t), m.source, m.sideways, m.face_down, m.stacked_on)
        for m, t in zip(hand.melds, melds, strict=True)
    )
    return LaidHand(
        tuple(conc),
        win,
        new_melds,
        hand.dora_indicators,
        hand.ura_indicators,
        hand.shape,
        hand.theme,
    )


def _sort_key(name: str) -> tuple[int, int]:
    t = Tile.parse(name)
    return (t.kind, 0 if t.red else 1)


def random_hand(rng: np.random.Generator, *, p_red: float = 0.75) -> LaidHand:
    """A random winning hand, as laid: concealed (sorted or not), win tile, melds, indicators."""
    shape = _weighted(rng, {"standard": 0.9, "chiitoitsu": 0.08, "kokushi": 0.02})
    melds: list[LaidMeld] = []
    if shape == "chiitoitsu":
        kinds = [int(k) for k in rng.choice(NUM_KINDS, size=7, replace=False)]
        tiles = [kind_name(k) for k in kinds for _ in range(2)]
        theme = "chiitoitsu"
    elif shape == "kokushi":
        tiles = [kind_name(k) for k in TERMINALS_AND_HONORS]
        tiles.append(kind_name(_choice(rng, TERMINALS_AND_HONORS)))
        theme = "kokushi"
    else:
        n_melds = _weighted(rng, {0: 0.42, 1: 0.25, 2: 0.18, 3: 0.1, 4: 0.05})
        theme = "riichi"
        if n_melds:
            theme = _weighted(rng, {"tanyao": 0.3, "yakuhai": 0.35, "honitsu": 0.2, "toitoi": 0.15})
        picked = None
        while picked is None:
            picked = _pick_sets(rng, theme, n_melds)
        sets, pair = picked
        counts = [0] * NUM_KINDS
        for k, run in sets:
            for j in (k, k + 1, k + 2) if run else (k, k, k):
                counts[j] += 1
        counts[pair] += 2
        tiles = [kind_name(pair)] * 2
        for i, (k, run) in enumerate(sets):
            if i < n_melds:
                melds.append(_meld_of(rng, k, run, counts))
            else:
                tiles += [kind_name(j) for j in ((k, k + 1, k + 2) if run else (k, k, k))]
    win_index = int(rng.integers(len(tiles)))
    win = tiles.pop(win_index)
    order = sorted(tiles, key=_sort_key)
    if rng.random() < 0.2:  # some players leave the hand unsorted when they reveal it
        order = [order[i] for i in rng.permutation(len(order))]
    elif rng.random() < 0.15:  # or sorted with the suits in another order
        suit_rank = {s: int(r) for s, r in zip("mpsz", rng.permutation(4), strict=True)}
        order.sort(key=lambda t: (suit_rank[t[1]], _sort_key(t)))
    hand = LaidHand(tuple(order), win, tuple(melds), shape=shape, theme=theme)
    hand = _redden(rng, hand, p_red)
    return _with_indicators(rng, hand)


def _with_indicators(rng: np.random.Generator, hand: LaidHand) -> LaidHand:
    counts = list(counts_of(Tile.parse(t) for t in hand.all_tiles()))
    n_dora = _weighted(rng, {1: 0.55, 2: 0.25, 3: 0.12, 4: 0.05, 5: 0.03})
    closed = all(m.kind == "ankan" for m in hand.melds)
    n_ura = n_dora if closed and rng.random() < 0.5 else 0
    picks: list[str] = []
    taken = set(hand.all_tiles())  # a red five exists once per suit
    for _ in range(n_dora + n_ura):
        free = [k for k in range(NUM_KINDS) if counts[k] < 4]
        k = _choice(rng, free)
        counts[k] += 1
        name = kind_name(k)
        red = "0" + name[1]
        if name[0] == "5" and name[1] != "z" and rng.random() < 0.1 and red not in taken:
            name = red
        taken.add(name)
        picks.append(name)
    return LaidHand(
        hand.concealed,
        hand.win_tile,
        hand.melds,
        tuple(picks[:n_dora]),
        tuple(picks[n_dora:]),
        hand.shape,
        hand.theme,
    )


def win_context(hand: LaidHand, rng: np.random.Generator) -> dict[str, Any]:
    """A table situation that makes the hand a legal win (what a photo cannot show).

    Closed hands declared riichi; open hands carry their yaku in the tiles. Merged into
    ``hand.to_request()`` it is a complete CONTRACT.md score request.
    """
    closed = all(m.kind == "ankan" for m in hand.melds)
    seat = "ESWN"[int(rng.integers(4))]
    ctx: dict[str, Any] = {
        "win": "tsumo" if rng.random() < 0.4 else "ron",
        "round_wind": "E" if rng.random() < 0.6 else "S",
        "seat_wind": seat,
        "flags": ["riichi"] if closed else [],
    }
    if ctx["win"] == "ron":
        others = [w for w in "ESWN" if w != seat]
        ctx["discarder"] = others[int(rng.integers(3))]
    return ctx


__all__ = [
    "MELD_KINDS",
    "SOURCES",
    "LaidHand",
    "LaidMeld",
    "is_winning_shape",
    "random_hand",
    "win_context",
]
