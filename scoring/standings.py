"""Final standings: from the table scores at the end of a game to each player's result.

Everything that differs between rulebooks comes from the ruleset's ``[game]`` table
(:class:`scoring.ruleset.GameRules`): return points and oka, the uma (or JPML-A's uma table
chosen by how many players finish above the return points), how ties share places, where
riichi sticks left on the table go, and chombo taken off the final figure.

Players are named by their starting seat: ``E`` is the starting dealer, then ``S W N`` in
turn order, which is also the seat order ties are broken by.

>>> from scoring.ruleset import load_ruleset
>>> scores = {"E": 45000, "S": 30000, "W": 15000, "N": 10000}
>>> rows = final_standings(load_ruleset("m-league"), scores)
>>> [(r.seat, r.rank, float(r.result)) for r in rows]
[('E', 1, 65.0), ('S', 2, 10.0), ('W', 3, -25.0), ('N', 4, -50.0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.errors import RequestError
from scoring.limits import MAX_COUNTER, MAX_POINTS, check_range
from scoring.ruleset import Ruleset, resolve_ruleset

SEATS: tuple[str, ...] = ("E", "S", "W", "N")


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of the final standings. Figures are exact fractions of a unit."""

    seat: str
    rank: int
    #: Table points at the end of the game (before leftover sticks).
    score: int
    #: Leftover riichi-stick points this player collected at the end.
    sticks: Fraction
    #: Uma and oka this player's place (or shared place) earns, in result units.
    uma: Fraction
    oka: Fraction
    #: Result units taken off for chombo.
    chombo: Fraction
    #: The final figure: (score + sticks - return points) / unit + uma + oka - chombo.
    result: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rank": self.rank,
            "score": self.score,
            "result": _num(self.result),
            "uma": _num(self.uma),
            "oka": _num(self.oka),
            "sticks": _num(self.sticks),
            "chombo": _num(self.chombo),
        }


def _num(value: Fraction) -> int | float:
    """JSON number: an int when whole, else rounded to 2 decimals (shared uma may be n/3)."""
    if value.denominator == 1:
        return int(value)
    return float(round(value, 2))


def placement_order(scores: Mapping[str, int]) -> list[str]:
    """Seats from first to last place: higher score first, ties by seat order from ``E``."""
    return sorted(SEATS, key=lambda s: (-scores[s], SEATS.index(s)))


def share_among_tied(values: Sequence[Fraction], tie_break: str) -> list[Fraction]:
    """How tied players (listed in seat order from the starting dealer) share the places'
    values ``values`` (the uma of the places they occupy, best first).

    >>> share_among_tied([Fraction(50), Fraction(10), Fraction(-10)], "split_433")
    [Fraction(20, 1), Fraction(15, 1), Fraction(15, 1)]
    >>> share_among_tied([Fraction(8), Fraction(4)], "shared")
    [Fraction(6, 1), Fraction(6, 1)]
    >>> share_among_tied([Fraction(8), Fraction(4)], "seat_order")
    [Fraction(8, 1), Fraction(4, 1)]
    """
    n = len(values)
    total = sum(values, Fraction(0))
    if n == 1 or tie_break == "seat_order":
        return list(values)
    if tie_break == "split_433" and n == 3:
        # M.League: 4:3:3, the player nearer the starting dealer takes the 4.
        return [total * 4 / 10, total * 3 / 10, total * 3 / 10]
    # shared; and split_433 for two (split) or four (not stated: split equally).
    return [total / n] * n


def final_standings(
    ruleset: Ruleset,
    final_scores: Mapping[str, int],
    *,
    riichi_sticks_left: int = 0,
    chombo: Mapping[str, int] | None = None,
    deliberate_chombo: Mapping[str, int] | None = None,
) -> list[Standing]:
    """The standings, first place first. ``chombo`` counts every chombo of a seat,
    ``deliberate_chombo`` how many of those were deliberate (they cost the ruleset's
    multiplier). Chombo only changes the result when the ruleset takes it off the final
    figure (``chombo = "final_penalty"``); otherwise it was paid during the game."""
    g = ruleset.game
    chombo = chombo or {}
    deliberate_chombo = deliberate_chombo or {}
    order = placement_order(final_scores)

    above = sum(1 for s in SEATS if final_scores[s] > g.return_points)
    uma_row = g.uma_by_players_above.get(above, g.uma) if g.uma_by_players_above else g.uma
    unit = g.points_per_unit
    oka_units = Fraction(g.oka, unit)
    place_uma = [Fraction(u) for u in uma_row]
    place_oka = [oka_units, Fraction(0), Fraction(0), Fraction(0)]
    pot = [Fraction(riichi_sticks_left * ruleset.riichi_stick_value), *[Fraction(0)] * 3]
    if g.sticks_at_end == "nobody":
        pot[0] = Fraction(0)

    uma: dict[str, Fraction] = {}
    oka: dict[str, Fraction] = {}
    sticks: dict[str, Fraction] = {}
    rank: dict[str, int] = {}
    pos = 0
    while pos < 4:
        # The group of players tied with the one at position ``pos`` (already in seat order).
        end = pos
        while end + 1 < 4 and final_scores[order[end + 1]] == final_scores[order[pos]]:
            end += 1
        group = order[pos : end + 1]
        places = slice(pos, end + 1)
        for seat, u, o, st in zip(
            group,
            share_among_tied(place_uma[places], g.tie_break),
            share_among_tied(place_oka[places], g.tie_break),
            share_among_tied(pot[places], g.tie_break),
            strict=True,
        ):
            uma[seat], oka[seat], sticks[seat] = u, o, st
        for i, seat in enumerate(group):
            # Seat order breaks the tie; otherwise tied players share the better rank.
            rank[seat] = pos + 1 + (i if g.tie_break == "seat_order" else 0)
        pos = end + 1

    rows = []
    for seat in order:
        penalty = Fraction(0)
        if g.chombo == "final_penalty":
            count = chombo.get(seat, 0)
            deliberate = deliberate_chombo.get(seat, 0)
            ordinary = count - deliberate
            penalty = Fraction(
                g.chombo_penalty * (ordinary + deliberate * g.chombo_deliberate_multiplier)
            )
        result = (
            Fraction(final_scores[seat] - g.return_points, unit)
            + sticks[seat] / unit
            + uma[seat]
            + oka[seat]
            - penalty
        )
        rows.append(
            Standing(
                seat=seat,
                rank=rank[seat],
                score=final_scores[seat],
                sticks=sticks[seat],
                uma=uma[seat],
                oka=oka[seat],
                chombo=penalty,
                result=result,
            )
        )
    return rows


# --- the JSON interface (CONTRACT.md: agari standings --json) -------------------------------

_FIELDS = {"ruleset", "final_scores", "riichi_sticks_left", "chombo", "deliberate_chombo"}


def _seat_counts(request: dict[str, Any], key: str) -> dict[str, int]:
    value = request.get(key) or {}
    if not isinstance(value, dict):
        raise RequestError(f"{key} must be an object of seat: count, not {value!r}")
    for seat, count in value.items():
        if seat not in SEATS:
            raise RequestError(f"{key}: unknown seat {seat!r} (seats are E S W N)")
        if not (isinstance(count, int) and not isinstance(count, bool) and count >= 0):
            raise RequestError(f"{key}[{seat!r}] must be a count (0 or more), not {count!r}")
        check_range(count, f"{key}[{seat!r}]", 0, MAX_COUNTER)
    return dict(value)


def standings_request(request: dict[str, Any]) -> dict[str, Any]:
    """``agari standings --json``: validate the request, settle, answer per CONTRACT.md."""
    # The same codes as the other commands' requests (scoring.request), for tools that
    # handle unknown_field / missing_field whichever command answered.
    unknown = set(request) - _FIELDS
    if unknown:
        raise RequestError(
            f"unknown fields {sorted(unknown)} in a standings request; "
            f"allowed: {', '.join(sorted(_FIELDS))}",
            code="unknown_field",
        )
    if "ruleset" not in request or "final_scores" not in request:
        raise RequestError(
            "a standings request needs 'ruleset' and 'final_scores'", code="missing_field"
        )
    ruleset = resolve_ruleset(request["ruleset"])
    scores = request["final_scores"]
    if not isinstance(scores, dict) or set(scores) != set(SEATS):
        raise RequestError(f"final_scores must give exactly the seats E S W N, not {scores!r}")
    for seat, value in scores.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise RequestError(f"final_scores[{seat!r}] must be an integer, not {value!r}")
        check_range(value, f"final_scores[{seat!r}]", -MAX_POINTS, MAX_POINTS)
    sticks = request.get("riichi_sticks_left", 0)
    if not isinstance(sticks, int) or isinstance(sticks, bool) or sticks < 0:
        raise RequestError(f"riichi_sticks_left must be a count (0 or more), not {sticks!r}")
    check_range(sticks, "riichi_sticks_left", 0, MAX_COUNTER)
    chombo = _seat_counts(request, "chombo")
    deliberate = _seat_counts(request, "deliberate_chombo")
    for seat, count in deliberate.items():
        if count > chombo.get(seat, 0):
            raise RequestError(
                f"deliberate_chombo[{seat!r}] = {count} is more than chombo[{seat!r}] = "
                f"{chombo.get(seat, 0)} (deliberate ones are counted in chombo too)"
            )
    rows = final_standings(
        ruleset, scores, riichi_sticks_left=sticks, chombo=chombo, deliberate_chombo=deliberate
    )
    return {
        "ruleset": ruleset.id,
        "standings": [r.to_dict() for r in rows],
        "warnings": _warnings(ruleset, scores, sticks, chombo),
    }


def _warnings(
    ruleset: Ruleset, scores: Mapping[str, int], sticks: int, chombo: Mapping[str, int]
) -> list[dict[str, str]]:
    g = ruleset.game
    out = []
    total = sum(scores.values()) + sticks * ruleset.riichi_stick_value
    if total != 4 * g.start_points:
        out.append(
            {
                "code": "scores_do_not_add_up",
                "message": f"final scores plus riichi sticks add up to {total}, not "
                f"4 x {g.start_points} = {4 * g.start_points} ({ruleset.id} start points)",
            }
        )
    if any(chombo.values()) and g.chombo != "final_penalty":
        out.append(
            {
                "code": "chombo_paid_in_play",
                "message": f"under {ruleset.id} a chombo is paid during the game "
                f"({g.chombo}); nothing is taken off the final result",
            }
        )
    return out
