"""Readings: every way to see a complete hand, with the winning tile placed.

A :class:`Reading` is one decomposition of the whole hand (the four sets, called ones
included, and the pair; or seven pairs; or kokushi) together with *where the winning
tile sits*, which fixes the wait (ryanmen, kanchan, penchan, shanpon, tanki) and, on a ron,
makes the triplet it completes an open one. Yaku and fu are functions of a reading plus the
:class:`~scoring.context.WinContext`; the scorer evaluates every reading and keeps the best.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from scoring.divide import Division, divide, is_chiitoitsu, is_kokushi
from scoring.hand import Meld
from scoring.tiles import (
    GREEN_KINDS,
    IS_HONOR,
    IS_TERMINAL,
    IS_YAOCHUU,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    kind_name,
)

Shape = Literal["standard", "chiitoitsu", "kokushi"]
Wait = Literal["ryanmen", "kanchan", "penchan", "shanpon", "tanki", "kokushi", "kokushi_13"]


@dataclass(frozen=True, slots=True)
class Group:
    """One set of a reading. ``concealed`` is false for calls and for a triplet completed
    by ron (it scores as an open triplet); ``called`` marks the sets that were melds."""

    base: int
    is_run: bool
    is_kan: bool = False
    concealed: bool = True
    called: bool = False

    def __str__(self) -> str:
        k = self.base
        if self.is_run:
            text = f"{k % 9 + 1}{k % 9 + 2}{k % 9 + 3}{kind_name(k)[-1]}"
        else:
            n = 4 if self.is_kan else 3
            text = kind_name(k)[0] * n + kind_name(k)[-1]
        if self.is_kan:
            return f"{'closed' if self.concealed else 'called'} kan {text}"
        return f"{'called ' if self.called else ''}{'run' if self.is_run else 'triplet'} {text}"


def _mask(kinds: Iterable[int]) -> int:
    return sum(1 << k for k in kinds)


_YAOCHUU_MASK = _mask(k for k in range(NUM_KINDS) if IS_YAOCHUU[k])
_HONOR_MASK = _mask(k for k in range(NUM_KINDS) if IS_HONOR[k])
_TERMINAL_MASK = _mask(k for k in range(NUM_KINDS) if IS_TERMINAL[k])
_GREEN_MASK = _mask(GREEN_KINDS)
_SUIT_MASKS = tuple(_mask(range(9 * s, 9 * s + 9)) for s in range(3))


@dataclass(frozen=True, slots=True)
class Palette:
    """Which kinds the whole hand uses, summarised once per hand (every reading of a hand
    shares it): what tanyao, honitsu, chinitsu, tsuuiisou, ryuuiisou... look at. Built from
    a bit mask of the kinds present, with the masks of each tile class made at import."""

    mask: int
    suits: int
    has_honor: bool
    has_yaochuu: bool
    only_yaochuu: bool
    only_honor: bool
    only_terminal: bool
    only_green: bool

    @classmethod
    def of(cls, mask: int) -> Palette:
        return cls(
            mask=mask,
            suits=sum(1 for m in _SUIT_MASKS if mask & m),
            has_honor=bool(mask & _HONOR_MASK),
            has_yaochuu=bool(mask & _YAOCHUU_MASK),
            only_yaochuu=not mask & ~_YAOCHUU_MASK,
            only_honor=not mask & ~_HONOR_MASK,
            only_terminal=not mask & ~_TERMINAL_MASK,
            only_green=not mask & ~_GREEN_MASK,
        )

    @property
    def kinds(self) -> frozenset[int]:
        return frozenset(k for k in range(NUM_KINDS) if self.mask >> k & 1)

    def has(self, kind: int) -> bool:
        return bool(self.mask >> kind & 1)

    @property
    def first_suit_base(self) -> int:
        """Kind of the 1 of the lowest suit used (0, 9 or 18), or -1 for honours only."""
        return next((9 * i for i, m in enumerate(_SUIT_MASKS) if self.mask & m), -1)


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read the hand. ``counts`` are the 34 counts of all 14 (+kan) tiles with a
    kan counted as three, ``palette`` what kinds are present."""

    shape: Shape
    pair: int
    groups: tuple[Group, ...]
    wait: Wait
    menzen: bool
    win_kind: int
    counts: tuple[int, ...]
    palette: Palette
    #: Counts of the concealed part before the winning tile (for chuuren, kokushi 13-wait).
    closed_counts: tuple[int, ...]
    #: Derived once here because most yaku look at them: run bases and triplet/kan kinds.
    runs: tuple[int, ...] = ()
    triplets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "runs", tuple(g.base for g in self.groups if g.is_run))
        object.__setattr__(self, "triplets", tuple(g.base for g in self.groups if not g.is_run))

    @property
    def kinds(self) -> frozenset[int]:
        return self.palette.kinds

    def describe(self) -> str:
        """A short human description, e.g. ``pair 5p; run 123m, ...; wait kanchan``."""
        if self.shape == "chiitoitsu":
            return f"seven pairs; wait tanki on {kind_name(self.win_kind)}"
        if self.shape == "kokushi":
            return f"kokushi; wait {self.wait} on {kind_name(self.win_kind)}"
        sets = ", ".join(str(g) for g in self.groups)
        pair = kind_name(self.pair)
        return f"pair {pair[0] * 2}{pair[1]}; {sets}; wait {self.wait}"


def _run_wait(base: int, win: int) -> Wait:
    pos = win - base
    if pos == 1:
        return "kanchan"
    if pos == 0:
        return "penchan" if base % 9 == 6 else "ryanmen"
    return "penchan" if base % 9 == 0 else "ryanmen"


def _meld_group(m: Meld) -> Group:
    return Group(m.base, m.kind == "chi", m.is_kan, m.kind == "ankan", True)


def readings(
    closed_counts: tuple[int, ...], win_kind: int, melds: tuple[Meld, ...], is_tsumo: bool
) -> list[Reading]:
    """Every reading of the hand; empty when the tiles do not form a complete hand.

    >>> from scoring.notation import parse_tiles
    >>> from scoring.tiles import counts_of
    >>> rs = readings(counts_of(parse_tiles("1112345678999m")), 0, (), False)
    >>> sorted({r.wait for r in rs})
    ['ryanmen', 'shanpon']
    """
    full = list(closed_counts)
    full[win_kind] += 1
    full_t = tuple(full)
    meld_groups = tuple(_meld_group(m) for m in melds)
    menzen = all(m.kind == "ankan" for m in melds)
    all_counts = list(full)
    for m in melds:
        for k in (m.base, m.base + 1, m.base + 2) if m.kind == "chi" else (m.base,) * 3:
            all_counts[k] += 1
    all_t = tuple(all_counts)
    palette = Palette.of(sum(1 << k for k in range(NUM_KINDS) if all_t[k]))
    out: list[Reading] = []
    for div in divide(full_t):
        out.extend(
            _placements(div, win_kind, meld_groups, menzen, is_tsumo, all_t, palette, closed_counts)
        )
    if not melds:
        if is_chiitoitsu(full_t):
            out.append(
                Reading(
                    "chiitoitsu",
                    win_kind,
                    (),
                    "tanki",
                    True,
                    win_kind,
                    all_t,
                    palette,
                    closed_counts,
                )
            )
        if is_kokushi(full_t):
            thirteen = all(closed_counts[k] == 1 for k in TERMINALS_AND_HONORS)
            wait: Wait = "kokushi_13" if thirteen else "kokushi"
            pair = next(k for k in TERMINALS_AND_HONORS if full_t[k] == 2)
            out.append(
                Reading("kokushi", pair, (), wait, True, win_kind, all_t, palette, closed_counts)
            )
    return out


def _placements(
    div: Division,
    win: int,
    meld_groups: tuple[Group, ...],
    menzen: bool,
    is_tsumo: bool,
    counts: tuple[int, ...],
    palette: Palette,
    closed_counts: tuple[int, ...],
) -> list[Reading]:
    """One reading per distinct place of the winning tile in this division."""
    closed = tuple(Group(b.kind, b.is_run) for b in div.blocks)
    out: list[Reading] = []
    args = (menzen, win, counts, palette, closed_counts)
    if div.pair == win:
        out.append(Reading("standard", div.pair, closed + meld_groups, "tanki", *args))
    seen: set[tuple[int, bool, str]] = set()
    for i, b in enumerate(div.blocks):
        if b.is_run:
            if not b.kind <= win <= b.kind + 2:
                continue
            wait = _run_wait(b.kind, win)
            groups = closed
        else:
            if b.kind != win:
                continue
            wait = "shanpon"
            # A triplet completed by someone else's discard is not concealed (fu, sanankou).
            groups = (
                closed
                if is_tsumo
                else (*closed[:i], Group(b.kind, False, False, False), *closed[i + 1 :])
            )
        key = (b.kind, b.is_run, wait)
        if key in seen:
            continue
        seen.add(key)
        out.append(Reading("standard", div.pair, groups + meld_groups, wait, *args))
    return out


__all__ = ["Group", "Reading", "Shape", "Wait", "readings"]
