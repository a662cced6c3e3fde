"""Value of a winning hand: every reading, one pattern per series, the limits, the best.

Freedom of count (WSOM.md §2.6): the winner picks the reading of his tiles that scores best,
and patterns of different readings never mix. So every division of the concealed tiles,
Seven Pairs and Thirteen Terminals are each scored on their own; the best is the result and
the others are returned as alternatives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scoring.divide import divide, is_kokushi
from scoring.errors import NotAWinError, NoYakuError
from scoring.zungjung.hand import Hand
from scoring.zungjung.patterns import Reading, Set, detect, value_honor_tiles
from scoring.zungjung.table import Table

Limit = Literal["compound_limit", "listed_limit"]


@dataclass(frozen=True, slots=True)
class Scored:
    """One pattern as counted: for 3.1 Value Honor, one entry per set (``tile`` set)."""

    id: str
    value: int
    tile: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The score of one reading. ``patterns`` are those that count (after the series rule
    and, for a listed limit, only that pattern); ``found`` all present after the series
    rule; ``raw`` their plain sum; ``value`` the hand value V after the limits."""

    reading: Reading
    patterns: tuple[Scored, ...]
    found: tuple[Scored, ...]
    raw: int
    value: int
    limit: Limit | None
    chicken: bool


def readings(hand: Hand) -> list[Reading]:
    """Every way to read the hand as a winning shape (empty: not a win)."""
    out: list[Reading] = []
    melded = tuple(
        Set(
            kind="sequence" if m.kind == "chow" else "kong" if m.kind == "kong" else "triplet",
            tile=m.tile,
            concealed=m.concealed,
            exposed=not m.concealed,
        )
        for m in hand.melds
    )
    full = hand.full_concealed
    for div in divide(full):
        # A discard completes one set (or the pair). The winner may say which; a triplet
        # it completes is not concealed, so he names the pair or a sequence if he can.
        exposed_triplet = not hand.self_drawn and not (
            div.pair == hand.win_tile
            or any(b.is_run and hand.win_tile in b.kinds for b in div.blocks)
        )
        sets: list[Set] = []
        for b in div.blocks:
            if b.is_run:
                sets.append(Set("sequence", b.kind, concealed=True, exposed=False))
            elif exposed_triplet and b.kind == hand.win_tile:
                sets.append(Set("triplet", b.kind, concealed=False, exposed=False))
                exposed_triplet = False
            else:
                sets.append(Set("triplet", b.kind, concealed=True, exposed=False))
        ordered = tuple(sorted((*sets, *melded), key=lambda s: (s.tile, s.kind, s.exposed)))
        out.append(Reading("regular", ordered, pair=div.pair))
    if not hand.melds:
        if _is_seven_pairs(full):
            pairs = tuple(k for k, c in enumerate(full) for _ in range(c // 2))
            out.append(Reading("seven_pairs", pairs=pairs))
        if is_kokushi(full):
            out.append(Reading("thirteen_terminals"))
    return out


def _is_seven_pairs(counts: tuple[int, ...]) -> bool:
    """Seven pairs; four alike may be two pairs, no kong being declared (WSOM.md §1, 10.2)."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def score_reading(reading: Reading, hand: Hand, table: Table) -> Outcome:
    """Patterns of one reading, the series rule, then the limits (WSOM.md §2.2-§2.4)."""
    present = detect(reading, hand)
    best_of_series: dict[str, str] = {}
    for pid in present:
        p = table.patterns[pid]
        held = best_of_series.get(p.series)
        if held is None or p.grade > table.patterns[held].grade:
            best_of_series[p.series] = pid
    kept = sorted(best_of_series.values(), key=lambda pid: table.patterns[pid].grade)
    found: list[Scored] = []
    for pid in kept:
        if table.patterns[pid].per_set:  # 3.1 Value Honor: one entry per set
            tiles = value_honor_tiles(reading, hand)
            found += [Scored(pid, table.value(pid), tile=t) for t in tiles]
        else:
            found.append(Scored(pid, table.value(pid)))
    raw = sum(s.value for s in found)
    if not found:
        # The chicken hand: a regular hand with no pattern (WSOM.md §2.4).
        chicken = Scored("chicken_hand", table.chicken_value)
        return Outcome(reading, (chicken,), (chicken,), raw, table.chicken_value, None, True)
    listed = [s for s in found if table.is_listed_limit(s.id)]
    capped = min(raw, table.compound_limit)
    top = max(listed, key=lambda s: s.value) if listed else None
    if top is not None and top.value >= capped:
        # A listed limit scores its face value alone; other patterns are not added.
        return Outcome(reading, (top,), tuple(found), raw, top.value, "listed_limit", False)
    limit: Limit | None = "compound_limit" if raw > table.compound_limit else None
    return Outcome(reading, tuple(found), tuple(found), raw, capped, limit, False)


@dataclass(frozen=True, slots=True)
class Evaluation:
    best: Outcome
    alternatives: tuple[Outcome, ...]


def evaluate(hand: Hand, table: Table, *, min_points: int = 0) -> Evaluation:
    """Score every reading and choose the best.

    Raises :class:`NotAWinError` when no reading exists, :class:`NoYakuError`
    (``below_minimum``) when the best value is under ``min_points``.
    """
    outs = [score_reading(r, hand, table) for r in readings(hand)]
    if not outs:
        raise NotAWinError(
            "these tiles are not a winning hand: not four sets and a pair, seven pairs "
            "or thirteen terminals",
            code="not_a_win",
        )
    # Best value first; on a tie the larger uncapped sum, then a stable reading order.
    outs.sort(key=lambda o: (-o.value, -o.raw, o.reading))
    best = outs[0]
    if best.value < min_points:
        what = "a chicken hand (no pattern)" if best.chicken else f"worth {best.value}"
        raise NoYakuError(
            f"this hand is {what}; the ruleset needs at least {min_points} points to win",
            code="below_minimum",
            value=best.value,
            minimum=min_points,
        )
    seen = {_signature(best)}
    alternatives = []
    for o in outs[1:]:
        sig = _signature(o)
        if sig not in seen:
            seen.add(sig)
            alternatives.append(o)
    return Evaluation(best, tuple(alternatives))


def _signature(o: Outcome) -> tuple[int, tuple[Scored, ...]]:
    return o.value, o.patterns
