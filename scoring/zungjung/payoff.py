"""Who pays what for a hand of value V (WSOM.md §3).

Formal Competition Payoff Scheme: the winner always collects 3V. A self-drawn win (or one
nobody is responsible for) costs each other player V. On a discard, V <= par (25) still costs
each player V; above par the two bystanders pay par each and the responsible player the rest,
3V - 2*par (3V-50). Robbing a kong is a discard by the player who tried to add the kong.
The uniform scheme (Kwan's casual one) charges everyone V always.

Same-turn immunity decides who is responsible: the first player who discarded the winning
tile in the current go-around, or nobody (paid as a self-draw) if the winner himself
discarded it in that go-around.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from scoring.errors import InvalidHandError

SEATS = "ESWN"
Scheme = Literal["formal", "uniform"]


def responsible_seat(
    winner: str, discarder: str | None, same_turn_discarders: Sequence[str] = ()
) -> str | None:
    """The player who pays for a discard win, after the same-turn rule.

    ``same_turn_discarders``: the seats that discarded the winning tile earlier in this
    go-around, in order (the actual discarder need not be repeated).

    >>> responsible_seat("N", "W", ["S"])   # S threw it first this go-around: S pays
    'S'
    >>> responsible_seat("N", "W", ["N"]) is None   # the winner threw it: paid as self-draw
    True
    """
    if discarder is None:
        return None
    for seat in (*same_turn_discarders, discarder):
        _check_seat(seat)
    if winner in same_turn_discarders:
        return None
    if same_turn_discarders:
        return same_turn_discarders[0]
    return discarder


def payments(
    value: int,
    winner: str,
    responsible: str | None,
    *,
    par: int = 25,
    scheme: Scheme = "formal",
) -> dict[str, int]:
    """Every seat's change. ``responsible`` None means a self-drawn (or immune) win.

    >>> payments(85, "E", None)
    {'E': 255, 'S': -85, 'W': -85, 'N': -85}
    >>> payments(85, "E", "S")
    {'E': 255, 'S': -205, 'W': -25, 'N': -25}
    >>> payments(20, "E", "S")
    {'E': 60, 'S': -20, 'W': -20, 'N': -20}
    """
    _check_seat(winner)
    if responsible is not None:
        _check_seat(responsible)
        if responsible == winner:
            raise InvalidHandError(
                f"the winner {winner!r} cannot be the discarder", code="discarder_is_winner"
            )
    deltas = dict.fromkeys(SEATS, 0)
    for seat in SEATS:
        if seat == winner:
            continue
        if scheme == "uniform" or responsible is None or value <= par:
            pay = value
        elif seat == responsible:
            pay = 3 * value - 2 * par
        else:
            pay = par
        deltas[seat] = -pay
    deltas[winner] = -sum(deltas.values())
    return deltas


def _check_seat(seat: str) -> None:
    if seat not in SEATS or len(seat) != 1:
        raise InvalidHandError(f"not a seat: {seat!r} (expected E S W N)", code="bad_seat")
