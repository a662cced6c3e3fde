"""Who pays whom: ron and tsumo payments, honba, riichi sticks, pao and multiple ron.

Rules (common riichi; switches in the :class:`~scoring.ruleset.Ruleset`):

- Ron: the discarder pays basic points x4 (x6 for the dealer), rounded up to 100.
- Tsumo: a non-dealer gets x2 from the dealer and x1 from each other player; the dealer
  gets x2 from everyone; each payment rounded up to 100 on its own.
- Honba: ``honba_value`` (300) per counter, paid by the discarder on ron, split evenly
  among the payers on tsumo (100 each).
- Riichi sticks on the table (``riichi_stick_value`` each) go to the winner.
- Pao (``Ruleset.pao`` lists the yakuman): on tsumo the liable player pays the whole pao
  part as if they had dealt in, honba included; on ron the liable player and the
  discarder split the pao part, the discarder pays the honba. Other yakuman in the same
  hand are paid normally (Tenhou: the two real pao wins of the corpus agree).
- Several rons on one discard (``Ruleset.multi_ron``): ``head_bump`` pays only the first
  winner in turn order from the discarder; ``double`` pays up to two (three rons are an
  abortive draw); ``triple`` pays all. Riichi sticks go to the first winner; honba to the
  first winner, or to each with ``multi_ron_honba_each`` (Tenhou: first winner only, as the
  corpus shows with ``ron_order``).

>>> round_up_100(7680)
7700
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from scoring.ruleset import Ruleset
from scoring.tiles import WIND_LETTERS

SEATS: tuple[str, ...] = tuple(WIND_LETTERS)


def round_up_100(x: int) -> int:
    return -(-x // 100) * 100


@dataclass(frozen=True, slots=True)
class Payout:
    """The money of one win: ``points`` before honba and sticks, per-seat ``deltas``
    (E S W N) and the phrase the winner announces."""

    points: int
    deltas: tuple[int, int, int, int]
    announce: str


def _honba_suffix(honba: int) -> str:
    return f" + {honba} honba"


def payout(
    base: int,
    *,
    winner: str,
    tsumo: bool,
    discarder: str | None,
    honba: int,
    riichi_sticks: int,
    rs: Ruleset,
    pao: str | None = None,
    pao_base: int = 0,
) -> Payout:
    """Payments for basic points ``base``; ``pao_base`` is the liable part of it.

    >>> from scoring.ruleset import load_ruleset
    >>> p = payout(2000, winner="S", tsumo=False, discarder="W", honba=1, riichi_sticks=0,
    ...            rs=load_ruleset("tenhou"))
    >>> p.points, p.deltas, p.announce
    (8000, (0, 8300, -8300, 0), '8000 + 1 honba = 8300')
    """
    w = SEATS.index(winner)
    dealer = w == 0
    deltas = [0, 0, 0, 0]
    honba_total = honba * rs.honba_value
    if not pao or not pao_base:
        pao, pao_base = None, 0
    if tsumo:
        normal = base - pao_base
        if pao is not None:
            liable = SEATS.index(pao)
            pao_pay = round_up_100(pao_base * (6 if dealer else 4))
            deltas[liable] -= pao_pay + honba_total
            deltas[w] += pao_pay + honba_total
            points = pao_pay
        else:
            points = 0
        per_honba = honba_total // 3
        dealer_pay = round_up_100(normal * 2)
        child_pay = dealer_pay if dealer else round_up_100(normal)
        for s in range(4):
            if s == w or not normal:
                continue
            pay = dealer_pay if s == 0 else child_pay
            extra = per_honba if pao is None else 0
            deltas[s] -= pay + extra
            deltas[w] += pay + extra
            points += pay
        if pao is not None and not normal:
            announce = f"{points} (paid by {pao})"
        elif dealer:
            announce = f"{dealer_pay} all"
            if honba and pao is None:
                announce += f"{_honba_suffix(honba)} = {dealer_pay + per_honba} all"
        else:
            announce = f"{child_pay}-{dealer_pay}"
            if honba and pao is None:
                announce += (
                    f"{_honba_suffix(honba)} = {child_pay + per_honba}-{dealer_pay + per_honba}"
                )
    else:
        if discarder is None:  # parse_score_request guarantees one; kept for direct callers
            raise ValueError("a ron needs a discarder")
        d = SEATS.index(discarder)
        points = round_up_100(base * (6 if dealer else 4))
        deltas[w] += points + honba_total
        deltas[d] -= points + honba_total
        if pao is not None:
            half = round_up_100(pao_base * (6 if dealer else 4)) // 2
            deltas[SEATS.index(pao)] -= half
            deltas[d] += half
        announce = str(points)
        if honba:
            announce += f"{_honba_suffix(honba)} = {points + honba_total}"
    deltas[w] += riichi_sticks * rs.riichi_stick_value
    return Payout(points, (deltas[0], deltas[1], deltas[2], deltas[3]), announce)


def settle_request(sreq: Any) -> dict[str, Any]:
    """Settle a :class:`~scoring.request.SettleRequest` (CONTRACT.md ``agari settle``).

    Wins are ordered by turn order from the discarder (the next player first); the ruleset
    decides how many are paid and who gets honba and sticks.
    """
    from scoring.scorer import score_request

    rs: Ruleset = sreq.ruleset
    wins = list(sreq.wins)
    outcome = "win"
    if len(wins) > 1:
        d = SEATS.index(sreq.discarder or "E")
        wins.sort(key=lambda w: (SEATS.index(w.seat_wind) - d) % 4)
        outcome = "multiple_ron"
        if len(wins) >= 3 and "triple_ron" in rs.game.abortive_draws:
            # Three rons on one discard are an abortive draw wherever the ruleset lists it,
            # under head bump too (jpml-a, jpml-b: "a triple ron is a re-deal").
            wins = []
            outcome = "abortive_draw"
        elif rs.multi_ron == "head_bump":
            wins = wins[:1]
            outcome = "head_bump"
    results: list[dict[str, Any]] = []
    total = [0, 0, 0, 0]
    for i, w in enumerate(wins):
        honba = sreq.honba if (i == 0 or rs.multi_ron_honba_each) else 0
        sticks = sreq.riichi_sticks if i == 0 else 0
        res = score_request(dataclasses.replace(w, honba=honba, riichi_sticks=sticks)).to_dict()
        res["seat"] = w.seat_wind
        results.append(res)
        for s, seat in enumerate(SEATS):
            total[s] += res["deltas"][seat]
    return {
        "results": results,
        "deltas": dict(zip(SEATS, total, strict=True)),
        "outcome": outcome,
    }


__all__ = ["SEATS", "Payout", "payout", "round_up_100", "settle_request"]
