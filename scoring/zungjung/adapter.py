"""From a parsed score request to the Zung Jung scorer, and back to CONTRACT.md's response.

The response keeps every key of the riichi response with its type: ``han`` and ``fu`` are 0
(Zung Jung has neither; CONTRACT.md types them as numbers, so not null), ``yakuman`` is 0,
``fu_details`` is empty, ``yaku`` lists the counted patterns (id, ``han`` 0, name, value,
Kwan's number; Value Honor once per set with its tile) and ``points`` is what CONTRACT.md
says: on a discard what the responsible player pays, on a self-draw the sum of all payments.
Added fields: ``value`` (the hand value V, the figure a Zung Jung player announces; also on
each alternative), ``scoring`` ("zung_jung"), ``pattern_table``,
``raw_points`` (the sum before the limits), ``reading`` (the sets scored), ``responsible``
(who paid for the discard, after the same-turn rule; null for a self-draw) and ``announce``
(the payments as said at the table). ``warnings`` and ``alternatives[].why`` follow the
riichi scorer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scoring.errors import InvalidHandError
from scoring.ruleset import Ruleset
from scoring.tiles import NUM_KINDS, kind_name, wind_kind
from scoring.zungjung.evaluate import Evaluation, Outcome, Scored, evaluate
from scoring.zungjung.hand import Hand, Meld
from scoring.zungjung.payoff import SEATS, Scheme, payments, responsible_seat
from scoring.zungjung.table import Table, load_table

if TYPE_CHECKING:
    from scoring.request import ScoreRequest, SettleRequest

#: CONTRACT flags -> the Zung Jung hand's incidental flags (WSOM.md §1, 9.x).
FLAG_MAP = {
    "haitei": "final_draw",
    "houtei": "final_discard",
    "rinshan": "win_on_kong",
    "chankan": "robbing_kong",
    "tenhou": "heaven",
    "chiihou": "earth",
}

_MELD_MAP = {
    "chi": ("chow", False),
    "pon": ("pung", False),
    "daiminkan": ("kong", False),
    "kakan": ("kong", False),
    "ankan": ("kong", True),
}


@dataclass(frozen=True, slots=True)
class Result:
    """A scored Zung Jung win: the evaluation, the table used and every seat's change."""

    evaluation: Evaluation
    table: Table
    deltas: dict[str, int]
    responsible: str | None
    winner: str
    scheme: Scheme

    @property
    def value(self) -> int:
        return self.evaluation.best.value

    def paid(self, value: int) -> int:
        """CONTRACT.md ``points`` of a hand worth ``value`` won here: on a discard what the
        responsible player pays, on a self-draw the sum of all payments."""
        deltas = payments(
            value, self.winner, self.responsible, par=self.table.par, scheme=self.scheme
        )
        return deltas[self.winner] if self.responsible is None else -deltas[self.responsible]


def score_hand(
    hand: Hand,
    ruleset: Ruleset,
    *,
    winner: str,
    discarder: str | None = None,
    same_turn_discarders: Sequence[str] = (),
) -> Result:
    """Value and payoff of one win under a Zung Jung ruleset.

    ``discarder``: the seat whose discard (or added kong tile) was won on; None for a
    self-draw. ``same_turn_discarders``: who else discarded that tile earlier in this
    go-around, in order (same-turn immunity, WSOM.md §3).
    """
    if hand.self_drawn and discarder is not None:
        raise InvalidHandError("a self-drawn win has no discarder", code="tsumo_with_discarder")
    if not hand.self_drawn and discarder is None:
        raise InvalidHandError("a win on a discard needs the discarder", code="missing_discarder")
    if hand.earth and discarder != "E":
        raise InvalidHandError(
            f"Blessing of Earth is won on East's first discard, not {discarder!r}'s",
            code="earth_needs_east_discard",
        )
    table = load_table(ruleset.zj_table)
    ev = evaluate(hand, table, min_points=ruleset.zj_min_points)
    who = responsible_seat(winner, discarder, same_turn_discarders)
    deltas = payments(ev.best.value, winner, who, par=table.par, scheme=ruleset.zj_payoff)
    return Result(ev, table, deltas, who, winner, ruleset.zj_payoff)


def hand_from_request(req: ScoreRequest) -> Hand:
    """The scorer's :class:`Hand` from a parsed request (red fives are plain fives here)."""
    not_zj = sorted(req.flags - set(FLAG_MAP))
    if not_zj:
        raise InvalidHandError(
            f"flag(s) {', '.join(map(repr, not_zj))} do not exist in Zung Jung "
            f"(ruleset {req.ruleset.id!r}); known: {' '.join(FLAG_MAP)}",
            code="flag_not_in_ruleset",
        )
    if req.win_tile is None:
        raise InvalidHandError("win_tile is missing", code="missing_win_tile")
    counts = [0] * NUM_KINDS
    for t in req.closed:
        counts[t.kind] += 1
    melds = tuple(
        Meld(_MELD_MAP[m.kind][0], m.base, concealed=_MELD_MAP[m.kind][1])  # type: ignore[arg-type]
        for m in req.melds
    )
    flags = {FLAG_MAP[f]: True for f in req.flags}
    return Hand(
        concealed=tuple(counts),
        win_tile=req.win_tile.kind,
        melds=melds,
        self_drawn=req.is_tsumo,
        seat_wind=wind_kind(req.seat_wind),
        **flags,
    )


def _warnings(req: ScoreRequest, best: Outcome) -> list[dict[str, str]]:
    """``{"code", "message"}`` objects, as the riichi scorer's: ``assumed`` for what the
    request left out, ``ignored`` for riichi-only inputs Zung Jung has no use for."""
    out = [{"code": "assumed", "message": w} for w in req.warnings]
    ignored = []
    if req.dora_indicators or req.ura_indicators:
        ignored.append("Zung Jung has no dora: the indicators were ignored")
    if req.honba or req.riichi_sticks:
        ignored.append("Zung Jung has no honba or riichi sticks: they were ignored")
    if req.pao is not None:
        ignored.append("Zung Jung has no pao: the liable seat was ignored")
    if any(t.red for t in req.all_tiles):
        ignored.append("red fives score as plain fives in Zung Jung")
    out += [{"code": "ignored", "message": w} for w in ignored]
    kokushi = best.reading.shape == "thirteen_terminals"
    if "chankan" in req.flags and not req.ruleset.chankan_ankan_kokushi and kokushi:
        # As the riichi scorer says it (scoring.scorer): the request cannot say which kan.
        out.append(
            {
                "code": "chankan_closed_kan",
                "message": f"ruleset {req.ruleset.id!r} lets no hand rob a closed kong, "
                "thirteen terminals included: this win stands only if the kong robbed was "
                "an added one",
            }
        )
    return out


def pattern_dicts(patterns: Sequence[Scored], table: Table) -> list[dict[str, Any]]:
    """The counted patterns as CONTRACT.md ``yaku`` items: ``id`` and ``han`` (0: a pattern
    has points, not han; the contract's keys and types are kept, never dropped), plus
    ``name``, ``value`` (the pattern's points) and Kwan's ``number``."""
    out = []
    for s in patterns:
        if s.id == "chicken_hand":
            out.append(
                {"id": s.id, "han": 0, "name": "Chicken Hand", "value": s.value, "number": None}
            )
            continue
        p = table.patterns[s.id]
        d: dict[str, Any] = {
            "id": s.id,
            "han": 0,
            "name": p.name,
            "value": s.value,
            "number": p.number,
        }
        if s.tile is not None:
            d["tile"] = kind_name(s.tile)
        out.append(d)
    return out


def _outcome_dict(o: Outcome, best: Outcome, result: Result) -> dict[str, Any]:
    if o.value < best.value:
        why = f"worth {o.value}, less than {best.value}"
    else:  # same value: the chosen one had the larger sum before the limits, or came first
        why = f"worth the same {o.value}; the chosen reading ranks first"
    return {
        "points": result.paid(o.value),
        "value": o.value,
        "raw_points": o.raw,
        "limit": o.limit,
        "yaku": pattern_dicts(o.patterns, result.table),
        "reading": o.reading.describe(),
        "why": why,
    }


def announce(deltas: dict[str, int], winner: str) -> str:
    """What the losers pay, as announced at the table: ``'85 each'`` or ``'205 + 25 + 25'``.

    >>> announce({"E": -205, "S": 255, "W": -25, "N": -25}, "S")
    '205 + 25 + 25'
    """
    paid = sorted((-d for s, d in deltas.items() if s != winner), reverse=True)
    if len(set(paid)) == 1:
        return f"{paid[0]} each"
    return " + ".join(map(str, paid))


def response(result: Result, warnings: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """The CONTRACT.md score response of a Zung Jung result."""
    best = result.evaluation.best
    return {
        "han": 0,
        "fu": 0,
        "limit": best.limit,
        "yakuman": 0,
        "yaku": pattern_dicts(best.patterns, result.table),
        "fu_details": [],
        "points": result.paid(best.value),
        "value": best.value,
        "deltas": result.deltas,
        "alternatives": [_outcome_dict(o, best, result) for o in result.evaluation.alternatives],
        "warnings": list(warnings),
        "scoring": "zung_jung",
        "pattern_table": result.table.id,
        "raw_points": best.raw,
        "reading": best.reading.describe(),
        "responsible": result.responsible,
        "announce": announce(result.deltas, result.winner),
    }


def score_request(req: ScoreRequest, ruleset: Ruleset) -> dict[str, Any]:
    """Score a parsed request under a Zung Jung ruleset (called by ``scoring.api.score``).

    The request's ``discarder`` is the responsible seat: a caller applying the same-turn
    rule passes the first discarder of the go-around there (or ``win: tsumo`` when the
    winner had discarded the tile himself), see :func:`responsible_seat`.
    """
    hand = hand_from_request(req)
    result = score_hand(hand, ruleset, winner=req.seat_wind, discarder=req.discarder)
    return response(result, _warnings(req, result.evaluation.best))


def settle_request(sreq: SettleRequest) -> dict[str, Any]:
    """Settle the wins on one discard under a Zung Jung ruleset (``agari settle``).

    WSOM allows one winner per discard: with ``multi_ron = "head_bump"`` only the first in
    turn order after the discarder is paid (WSOM.md §4); otherwise every win is paid. There
    are no honba or sticks to hand out (any given are reported in that win's warnings).
    """
    wins = list(sreq.wins)
    outcome = "win"
    if len(wins) > 1:
        first = SEATS.index(sreq.discarder or "E")
        wins.sort(key=lambda w: (SEATS.index(w.seat_wind) - first) % 4)
        outcome = "multiple_ron"
        if sreq.ruleset.multi_ron == "head_bump":
            wins, outcome = wins[:1], "head_bump"
    results: list[dict[str, Any]] = []
    total = dict.fromkeys(SEATS, 0)
    for w in wins:
        res = score_request(w, sreq.ruleset) | {"seat": w.seat_wind}
        results.append(res)
        for seat, d in res["deltas"].items():
            total[seat] += d
    return {"results": results, "deltas": total, "outcome": outcome}
