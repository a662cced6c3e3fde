"""The yaku registry: small pure tests, their han, and which yaku supersede which, as data.

Every yaku is registered with :func:`yaku`, which records its id (Tenhou's name in snake
case, CONTRACT.md), its closed and open han (open 0: closed only), whether it is a
yakuman (and a "double" one under ``Ruleset.double_yakuman``) and the ids it supersedes.
The test itself is ``(reading, ctx, ruleset) -> bool``. :func:`evaluate` applies the
registry to one reading; no ``if/elif`` tree decides precedence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.context import WinContext
from scoring.reading import Reading
from scoring.ruleset import Ruleset

Test = Callable[[Reading, WinContext, Ruleset], bool]

#: Han one yakuman unit is reported as, as Tenhou does in its yaku list.
YAKUMAN_HAN = 13


@dataclass(frozen=True, slots=True)
class YakuDef:
    """One registered yaku."""

    id: str
    closed_han: int
    open_han: int
    yakuman: bool
    double: bool
    supersedes: tuple[str, ...]
    rule: str
    test: Test


REGISTRY: list[YakuDef] = []


def yaku(
    id: str,
    closed: int = 0,
    open: int = 0,
    *,
    yakuman: bool = False,
    double: bool = False,
    supersedes: tuple[str, ...] = (),
    rule: str = "",
) -> Callable[[Test], Test]:
    """Register a yaku test. ``closed``/``open`` are its han (open 0: closed only)."""

    def register(test: Test) -> Test:
        REGISTRY.append(YakuDef(id, closed, open, yakuman, double, supersedes, rule, test))
        return test

    return register


def evaluate(r: Reading, c: WinContext, rs: Ruleset) -> tuple[list[tuple[str, int]], int]:
    """The yaku of one reading as ``[(id, han)]`` and the yakuman units (0 if none).

    When any yakuman is present only yakuman count, each reported as 13 han per unit;
    superseded yaku are removed by the registry's ``supersedes`` relations.
    """
    hits = [d for d in REGISTRY if d.test(r, c, rs)]
    if not hits:
        return [], 0
    yakuman = [d for d in hits if d.yakuman]
    if yakuman:
        gone = {s for d in yakuman for s in d.supersedes}
        kept = [d for d in yakuman if d.id not in gone]
        units = [2 if (d.double and rs.double_yakuman) else 1 for d in kept]
        if not rs.yakuman_stacking and len(kept) > 1:
            best = max(range(len(kept)), key=units.__getitem__)
            kept, units = [kept[best]], [units[best]]
        return [(d.id, YAKUMAN_HAN * u) for d, u in zip(kept, units, strict=True)], sum(units)
    gone = {s for d in hits for s in d.supersedes}
    out: list[tuple[str, int]] = []
    for d in hits:
        if d.id in gone:
            continue
        han = d.closed_han if r.menzen else d.open_han
        if han:
            out.append((d.id, han))
    return out, 0


__all__ = ["REGISTRY", "YAKUMAN_HAN", "YakuDef", "evaluate", "yaku"]
