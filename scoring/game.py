"""A whole game as a pure replay of hand outcomes under a ruleset.

The input is the list of what happened in each hand (who won and for how much, who was
tenpai at a draw, an abortive draw, a chombo); the replay applies the ruleset's ``[game]``
rules (:class:`scoring.ruleset.GameRules`) to work out everything else: riichi sticks and
honba carried, noten payments, whether the dealer repeats, when the game ends (bust, all-last
stops, sudden death), and the final standings (:mod:`scoring.standings`). A hand the ruleset
does not allow is a :class:`scoring.errors.RequestError` (code ``illegal_hand``) that names the
hand and the rule; nothing is half-applied, because the replay only builds new values.

Players are named by their starting seat (``E`` = the starting dealer). The hand input
format is documented in README.md ("Rulesets") and in :func:`replay_request`.

>>> from scoring.ruleset import load_ruleset
>>> game = replay(load_ruleset("m-league"), [
...     {"result": "win", "winner": "S", "from": "W", "points": 8000},
... ])
>>> game.hands[0].scores
{'E': 25000, 'S': 33000, 'W': 17000, 'N': 25000}
>>> game.hands[0].next_hand
'E2-0'
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import AgariError, RequestError
from scoring.limits import MAX_POINTS, check_range
from scoring.ruleset import Ruleset, resolve_ruleset
from scoring.standings import SEATS, Standing, final_standings, placement_order

ROUND_WINDS = ("E", "S", "W", "N")
RESULTS = ("win", "draw", "abortive", "chombo")
_COMMON = {"result", "riichi", "false_calls", "stop", "note"}
_FIELDS = {
    "win": _COMMON | {"winner", "from", "points", "deltas", "request", "wins"},
    "draw": _COMMON | {"tenpai", "nagashi", "noten_declared"},
    "abortive": _COMMON | {"kind"},
    "chombo": _COMMON | {"seat", "deliberate"},
}
_WIN_FIELDS = {"winner", "points", "deltas", "request"}
#: A hand's ``note``: a line for people, as the ledger's form caps it.
MAX_NOTE = 200


@dataclass(frozen=True, slots=True)
class HandResult:
    """One replayed hand: where it was played and what it changed."""

    number: int
    #: ``E1`` ... ``S4`` (``W1`` ... in a sudden-death extension).
    round: str
    honba: int
    dealer: str
    result: str
    #: Every player's change in this hand (riichi sticks paid and collected included).
    deltas: dict[str, int]
    #: Scores after the hand.
    scores: dict[str, int]
    #: Riichi sticks (and deposits) on the table after the hand, in points.
    pot: int
    #: The next hand as ``E2-0`` (round and honba), or None when the game ended here.
    next_hand: str | None
    notes: tuple[str, ...] = ()

    def to_dict(self, stick: int) -> dict[str, Any]:
        return {
            "hand": self.number,
            "round": self.round,
            "honba": self.honba,
            "dealer": self.dealer,
            "result": self.result,
            "deltas": self.deltas,
            "scores": self.scores,
            "riichi_sticks": self.pot // stick,
            "pot": self.pot,
            "next": self.next_hand,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class Game:
    """A replayed game: every hand, how it ended, and the standings."""

    ruleset: Ruleset
    hands: tuple[HandResult, ...]
    final_scores: dict[str, int]
    pot: int
    #: ``scheduled`` (last hand played), ``stopped`` (all-last stop), ``bust``,
    #: ``sudden_death``, or ``unfinished`` (the hands given ran out first).
    ended: str
    next_hand: str | None
    chombo: dict[str, int]
    deliberate_chombo: dict[str, int]
    standings: tuple[Standing, ...]

    def to_dict(self) -> dict[str, Any]:
        stick = self.ruleset.riichi_stick_value
        return {
            "ruleset": self.ruleset.id,
            "hands": [h.to_dict(stick) for h in self.hands],
            "final_scores": self.final_scores,
            "riichi_sticks_left": self.pot // stick,
            "ended": self.ended,
            "next": self.next_hand,
            "chombo": self.chombo,
            "standings": [s.to_dict() for s in self.standings],
        }


def _illegal(number: int, label: str, why: str) -> RequestError:
    return RequestError(f"hand {number} ({label}): {why}", code="illegal_hand", hand=number)


@dataclass(slots=True)
class _State:
    """The mutable table state inside one replay call (never escapes it)."""

    scores: dict[str, int]
    round_index: int = 0
    dealer_index: int = 0
    honba: int = 0
    pot: int = 0
    chombo: dict[str, int] = field(default_factory=dict)
    deliberate: dict[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{ROUND_WINDS[self.round_index]}{self.dealer_index + 1}"

    @property
    def dealer(self) -> str:
        return SEATS[self.dealer_index]

    def seat_wind(self, player: str) -> str:
        """The seat wind ``player`` (a starting seat) has in the current hand."""
        return SEATS[(SEATS.index(player) - self.dealer_index) % 4]

    def player_at(self, wind: str) -> str:
        return SEATS[(SEATS.index(wind) + self.dealer_index) % 4]


def _seat(value: Any, what: str, number: int, label: str) -> str:
    if value not in SEATS:
        raise _illegal(number, label, f"{what} must be one of E S W N, not {value!r}")
    return str(value)


def _seats(value: Any, what: str, number: int, label: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _illegal(number, label, f"{what} must be a list of seats, not {value!r}")
    seats = [_seat(v, what, number, label) for v in value]
    if len(set(seats)) != len(seats):
        raise _illegal(number, label, f"{what} lists a seat twice: {value!r}")
    return seats


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _points_in_range(values: list[int], what: str, number: int, label: str, low: int) -> None:
    """A typed points figure within :data:`~scoring.limits.MAX_POINTS` (``out_of_range``
    naming the hand): a ledger would store 10**30 and show it rounded to clients."""
    for v in values:
        check_range(v, f"hand {number} ({label}): {what}", low, MAX_POINTS, hand=number)


def replay(
    ruleset: Ruleset,
    hands: list[dict[str, Any]],
    *,
    ruleset_spec: str | dict[str, Any] | None = None,
) -> Game:
    """Replay ``hands`` (hand outcome objects, in order) under ``ruleset``.

    ``ruleset_spec`` is passed on to :func:`scoring.api.score` for hands given as full score
    requests (default: the ruleset's id). Raises :class:`RequestError` for an illegal hand.
    """
    g = ruleset.game
    if not isinstance(hands, list) or not hands:
        raise RequestError("'hands' must be a non-empty list of hand outcomes")
    state = _State(scores=dict.fromkeys(SEATS, g.start_points))
    scheduled = 1 if g.length == "east" else 2
    last_round = scheduled - 1 + (g.extension_rounds if g.extension == "sudden_death" else 0)
    results: list[HandResult] = []
    ended = "unfinished"
    spec = ruleset_spec if ruleset_spec is not None else ruleset.id
    for number, hand in enumerate(hands, start=1):
        if ended != "unfinished":
            raise _illegal(
                number, state.label, f"the game already ended after hand {number - 1} ({ended})"
            )
        outcome = _play_hand(ruleset, state, hand, number, scheduled, spec)
        in_extension = state.round_index >= scheduled
        # The last hand of the game: the last scheduled one, or the last of the extension
        # (tenpane's South sudden death has no West after it, seed 004 line 13: its South 4
        # is the all-last hand whose dealer may stop, line 14).
        final = in_extension and state.round_index == last_round and state.dealer_index == 3
        all_last = (state.round_index == scheduled - 1 and state.dealer_index == 3) or final
        stop_requested = bool(hand.get("stop", False))
        if stop_requested and (not all_last or outcome.chombo):
            raise _illegal(number, state.label, "'stop' is only for the dealer of the last hand")
        # --- does the game end here? ----------------------------------------------------
        if g.tobi and min(state.scores.values()) < 0:
            ended = "bust"
        elif (
            in_extension
            and not outcome.chombo
            and max(state.scores.values()) >= (g.extension_target)
        ):
            # Sudden death ends the moment anyone reaches the target; a chombo's penalty
            # payments do not count (tenpane, seed 004 line 56).
            ended = "sudden_death"
        elif (
            all_last
            and not outcome.chombo
            and _all_last_stops(ruleset, state, outcome, stop_requested, number)
        ):
            if (
                not final
                and g.extension == "sudden_death"
                and max(state.scores.values()) < g.extension_target
            ):
                # Nobody reached the target: the next wind is played as sudden death.
                _advance(ruleset, state, outcome)
                state.round_index, state.dealer_index = scheduled, 0
                outcome.notes.append(f"nobody has {g.extension_target}: sudden death")
            else:
                ended = "stopped" if outcome.dealer_keeps else "scheduled"
        else:
            _advance(ruleset, state, outcome)
            if state.round_index > last_round:
                ended = "scheduled"  # the last extension hand passed the deal
        results.append(
            HandResult(
                number=number,
                round=outcome.label,
                honba=outcome.honba,
                dealer=outcome.dealer,
                result=outcome.result,
                deltas=outcome.deltas,
                scores=dict(state.scores),
                pot=state.pot,
                next_hand=None if ended != "unfinished" else f"{state.label}-{state.honba}",
                notes=tuple(outcome.notes),
            )
        )
    standings = final_standings(
        ruleset,
        state.scores,
        riichi_sticks_left=state.pot // ruleset.riichi_stick_value,
        chombo=state.chombo,
        deliberate_chombo=state.deliberate,
    )
    return Game(
        ruleset=ruleset,
        hands=tuple(results),
        final_scores=dict(state.scores),
        pot=state.pot,
        ended=ended,
        next_hand=results[-1].next_hand,
        chombo=dict(state.chombo),
        deliberate_chombo=dict(state.deliberate),
        standings=tuple(standings),
    )


@dataclass(slots=True)
class _Outcome:
    label: str
    honba: int
    dealer: str
    result: str
    deltas: dict[str, int]
    #: The dealer keeps the deal (renchan) / the hand is replayed (chombo).
    dealer_keeps: bool
    #: The honba counter goes up (False: back to 0), unless the hand is replayed.
    counter_up: bool
    chombo: bool = False
    dealer_won: bool = False
    dealer_tenpai: bool = False
    notes: list[str] = field(default_factory=list)


def _play_hand(
    rs: Ruleset, state: _State, hand: Any, number: int, scheduled: int, spec: Any
) -> _Outcome:
    """Apply one hand to ``state`` (scores, pot, chombo counts) and say what it was."""
    label = state.label
    if not isinstance(hand, dict):
        raise _illegal(number, label, f"each hand must be an object, not {hand!r}")
    result = hand.get("result")
    if result not in RESULTS:
        raise _illegal(number, label, f"'result' must be one of {list(RESULTS)}, not {result!r}")
    unknown = set(hand) - _FIELDS[result]
    if unknown:
        raise _illegal(number, label, f"unknown fields {sorted(unknown)} for a {result} hand")
    if "stop" in hand and not isinstance(hand["stop"], bool):
        raise _illegal(number, label, f"'stop' must be true or false, not {hand['stop']!r}")
    note = hand.get("note")
    if note is not None and not (isinstance(note, str) and len(note) <= MAX_NOTE):
        # A line for people (the ledger shows it under the hand), not a store for anything.
        raise _illegal(number, label, f"'note' must be text of at most {MAX_NOTE} characters")
    before = dict(state.scores)
    riichi = _seats(hand.get("riichi"), "riichi", number, label)
    false_calls = _seats(hand.get("false_calls"), "false_calls", number, label)
    outcome = _Outcome(
        label=label,
        honba=state.honba,
        dealer=state.dealer,
        result=str(result),
        deltas={},
        dealer_keeps=False,
        counter_up=False,
    )
    if result == "chombo":
        # Riichi declared in a hand that ends in chombo is returned (seed 004 line 55;
        # RCR §3.4.6): those sticks are never taken, and nothing else of the hand counts.
        _chombo(rs, state, hand, number, label, outcome)
    else:
        _riichi(rs, state, riichi, number, label)
        _false_calls(rs, state, false_calls, number, label, outcome)
        if result == "win":
            _win(rs, state, hand, number, label, outcome, false_calls, spec)
        elif result == "draw":
            _draw(rs, state, hand, number, label, outcome, riichi, false_calls, scheduled)
        else:
            _abortive(rs, hand, number, label, outcome)
    outcome.deltas = {s: state.scores[s] - before[s] for s in SEATS}
    return outcome


def _riichi(rs: Ruleset, state: _State, riichi: list[str], number: int, label: str) -> None:
    g = rs.game
    if riichi and not g.riichi:
        raise _illegal(number, label, f"{rs.id} has no riichi (game.riichi = false)")
    for seat in riichi:
        if g.riichi_needs_points and state.scores[seat] < rs.riichi_stick_value:
            raise _illegal(
                number,
                label,
                f"{seat} has {state.scores[seat]} points; riichi needs "
                f"{rs.riichi_stick_value} under {rs.id} "
                f"({rs.source_of('game.riichi_needs_points')})",
            )
        state.scores[seat] -= rs.riichi_stick_value
        state.pot += rs.riichi_stick_value


def _false_calls(
    rs: Ruleset, state: _State, seats: list[str], number: int, label: str, out: _Outcome
) -> None:
    g = rs.game
    if not seats:
        return
    if g.false_call == "chombo":
        raise _illegal(
            number,
            label,
            f"a false call is a chombo under {rs.id} ({rs.source_of('game.false_call')}): "
            "record the hand as {'result': 'chombo', 'seat': ...}",
        )
    if g.false_call == "deposit":
        for seat in seats:
            state.scores[seat] -= g.false_call_deposit
            state.pot += g.false_call_deposit
        out.notes.append(f"false call: {', '.join(seats)} put {g.false_call_deposit} on the table")
    else:
        out.notes.append(f"false call: {', '.join(seats)} has a dead hand")


def _win(
    rs: Ruleset,
    state: _State,
    hand: dict[str, Any],
    number: int,
    label: str,
    out: _Outcome,
    false_calls: list[str],
    spec: Any,
) -> None:
    g = rs.game
    discarder = hand.get("from")
    if discarder is not None:
        discarder = _seat(discarder, "'from'", number, label)
    if "wins" in hand:
        if set(hand) & _WIN_FIELDS:
            raise _illegal(number, label, "give either 'wins' or one winner's fields, not both")
        wins = hand["wins"]
        if not isinstance(wins, list) or not wins or not all(isinstance(w, dict) for w in wins):
            raise _illegal(number, label, "'wins' must be a non-empty list of win objects")
    else:
        wins = [{k: hand[k] for k in _WIN_FIELDS if k in hand}]
    winners = []
    for w in wins:
        extra = set(w) - _WIN_FIELDS
        if extra:
            raise _illegal(number, label, f"unknown fields {sorted(extra)} in a win")
        winners.append(_seat(w.get("winner"), "'winner'", number, label))
    if len(set(winners)) != len(winners):
        raise _illegal(number, label, f"a player wins twice: {winners}")
    if discarder is None and len(wins) > 1:
        raise _illegal(number, label, "several winners need a discarder ('from'): a ron")
    if discarder is not None and discarder in winners:
        raise _illegal(number, label, f"{discarder} cannot win on their own discard")
    for seat in winners:
        if seat in false_calls and g.false_call == "dead_hand":
            raise _illegal(number, label, f"{seat} made a false call: a dead hand cannot win")
    limit = {"head_bump": 1, "double": 2, "triple": 3}[rs.multi_ron]
    if len(wins) > limit:
        if len(wins) >= 3 and "triple_ron" in g.abortive_draws:
            # Under head bump too (jpml-a, jpml-b: a triple ron is a re-deal).
            why = (
                "a triple ron is an abortive draw: record it as {'result': 'abortive', "
                "'kind': 'triple_ron'}"
            )
        elif limit == 1:
            why = "only the first winner in turn order from the discarder wins (head bump)"
        else:
            why = ""
        raise _illegal(
            number,
            label,
            f"{len(wins)} players won on one discard, but {rs.id} has multi_ron = "
            f"{rs.multi_ron!r}: {why}",
        )
    # Turn order from the discarder (or from the winner on a tsumo): the first winner takes
    # the pot, and the honba unless every winner gets them.
    start = SEATS.index(discarder) if discarder is not None else SEATS.index(winners[0]) - 1
    order = sorted(range(len(wins)), key=lambda i: (SEATS.index(winners[i]) - start) % 4)
    pot = state.pot
    paid: dict[str, int] = dict.fromkeys(SEATS, 0)
    scored: dict[int, dict[str, Any]] = {}  # the score requests as scored, by win
    for rank, i in enumerate(order):
        w, winner = wins[i], winners[i]
        with_counters = rank == 0 or rs.multi_ron_honba_each
        honba = state.honba if (with_counters and g.honba) else 0
        given = [k for k in ("points", "deltas", "request") if k in w]
        if len(given) != 1:
            raise _illegal(
                number, label, f"{winner}'s win needs exactly one of points, deltas or request"
            )
        if given[0] == "points" and rs.scoring == "zung_jung":
            d = _zung_jung_deltas(rs, winner, discarder, w["points"], number, label)
        elif given[0] == "points":
            d = _points_deltas(rs, state, winner, discarder, w["points"], honba, number, label)
        elif given[0] == "deltas":
            d = _checked_deltas(w["deltas"], number, label)
        else:
            d, scored[i] = _request_deltas(
                rs,
                state,
                winner,
                discarder,
                w["request"],
                honba,
                pot if rank == 0 else 0,
                number,
                label,
                spec,
            )
        for s in SEATS:
            paid[s] += d[s]
    if len(scored) > 1:
        _check_one_discard(
            [scored[i] for i in sorted(scored)], len(scored) < len(wins), number, label
        )
    total = sum(paid.values())
    first = winners[order[0]]
    if total == 0:
        paid[first] += pot
    elif total != pot:
        raise _illegal(
            number,
            label,
            f"the win's deltas add up to {total}; they must add up to 0 (sticks not included) "
            f"or to the {pot} points of riichi sticks on the table (included)",
        )
    for s in SEATS:
        state.scores[s] += paid[s]
    if pot:
        out.notes.append(f"{first} collects {pot} in riichi sticks")
    state.pot = 0
    out.dealer_won = state.dealer in winners
    out.dealer_keeps = out.dealer_won and g.renchan_on_win
    out.counter_up = out.dealer_keeps


def _check_one_discard(
    requests: list[dict[str, Any]], mixed: bool, number: int, label: str
) -> None:
    """The wins given as score requests, scored one by one, must also share one discard's
    table (settle's check, :func:`scoring.request.check_one_discard`): the same win tile,
    round wind, dora and ura, and no fifth copy across the hands."""
    from scoring.request import check_one_discard, parse_score_request

    try:
        check_one_discard([parse_score_request(r) for r in requests])
    except AgariError as exc:
        among = " (counting only the wins given as score requests)" if mixed else ""
        raise type(exc)(
            f"hand {number} ({label}): {exc.message}{among}", code=exc.code, hand=number
        ) from exc


def _zung_jung_deltas(
    rs: Ruleset, winner: str, discarder: str | None, value: Any, number: int, label: str
) -> dict[str, int]:
    """A Zung Jung win typed as its hand value V: the ruleset's payoff scheme decides who
    pays what (the discarder is the responsible player; None for a self-draw)."""
    # Imported lazily: riichi games never need the Zung Jung tables.
    from scoring.zungjung import payments
    from scoring.zungjung.table import load_table

    table = load_table(rs.zj_table)
    # No hand is worth more than the highest single pattern (a listed limit scores alone).
    highest = max(table.compound_limit, *(p.value for p in table.patterns.values()))
    if not (_is_int(value) and 0 < value <= highest):
        raise _illegal(
            number, label, f"a Zung Jung hand value must be an integer 1-{highest}: {value!r}"
        )
    if value < rs.zj_min_points:
        raise _illegal(
            number, label, f"{value} points is below {rs.id}'s minimum of {rs.zj_min_points}"
        )
    return payments(value, winner, discarder, par=table.par, scheme=rs.zj_payoff)


def _points_deltas(
    rs: Ruleset,
    state: _State,
    winner: str,
    discarder: str | None,
    points: Any,
    honba: int,
    number: int,
    label: str,
) -> dict[str, int]:
    """Payments of a riichi win given as its value: ron ``points`` (what the discarder
    pays), dealer tsumo ``points`` (each pays), non-dealer tsumo ``[non-dealer, dealer]``."""
    d = dict.fromkeys(SEATS, 0)
    dealer_win = winner == state.dealer
    if discarder is not None:
        if not (_is_int(points) and points > 0):
            raise _illegal(number, label, f"a ron's points must be a positive integer: {points!r}")
        _points_in_range([points], "a ron's points", number, label, 1)
        # 1 han 30 fu: 1000 from a non-dealer's ron, 1500 from a dealer's.
        _plausible([points], 1500 if dealer_win else 1000, "a ron", number, label)
        pay = points + rs.honba_value * honba
        d[discarder] -= pay
        d[winner] += pay
        return d
    each_honba = rs.honba_value * honba // 3
    if dealer_win:
        if isinstance(points, list) and len(points) == 1:
            points = points[0]
        if not (_is_int(points) and points > 0):
            raise _illegal(
                number,
                label,
                f"a dealer tsumo's points are what each pays (one integer): {points!r}",
            )
        _points_in_range([points], "a dealer tsumo's points", number, label, 1)
        _plausible([points], 500, "a dealer tsumo (each pays)", number, label)
        for s in SEATS:
            if s != winner:
                d[s] -= points + each_honba
                d[winner] += points + each_honba
        return d
    if not (
        isinstance(points, list) and len(points) == 2 and all(_is_int(p) and p > 0 for p in points)
    ):
        raise _illegal(
            number,
            label,
            f"a non-dealer tsumo's points are [non-dealer pays, dealer pays]: {points!r}",
        )
    _points_in_range(points, "a non-dealer tsumo's points", number, label, 1)
    _plausible(points, 300, "a non-dealer tsumo", number, label)
    if not points[0] <= points[1] <= 2 * points[0]:
        # The dealer pays about twice a non-dealer (both rounded up to 100): [1300, 700]
        # swapped the two, and was stored.
        raise _illegal(
            number,
            label,
            f"a non-dealer tsumo's points are [non-dealer pays, dealer pays], the dealer's "
            f"share 1 to 2 times the other's (700-1300, 2000-4000): {points!r}",
        )
    for s in SEATS:
        if s != winner:
            pay = (points[1] if s == state.dealer else points[0]) + each_honba
            d[s] -= pay
            d[winner] += pay
    return d


#: Hands up to this number (1-based) were accepted before, under the checks of their day: a
#: stored table's replay (the ledger) does not refuse them for a plausibility check added
#: since, so that what a referee saved still reads; new hands are checked in full.
TRUSTED_HANDS: ContextVar[int] = ContextVar("trusted_hands", default=0)


def _plausible(values: list[int], least: int, what: str, number: int, label: str) -> None:
    """Riichi payments are whole hundreds, and no win pays less than 1 han 30 fu: 1000 for
    a non-dealer's ron (1500 for a dealer's), 300 / 500 for a tsumo's shares (a typed 3950
    or 100 was stored). Not for the :data:`TRUSTED_HANDS`."""
    if number <= TRUSTED_HANDS.get():
        return
    for v in values:
        if v % 100 or v < least:
            raise _illegal(
                number,
                label,
                f"{what} pays whole hundreds, at least {least} (1 han 30 fu), not {v}",
            )


def _checked_deltas(deltas: Any, number: int, label: str) -> dict[str, int]:
    if not (
        isinstance(deltas, dict)
        and set(deltas) == set(SEATS)
        and all(map(_is_int, deltas.values()))
    ):
        raise _illegal(
            number, label, f"'deltas' must give an integer for each of E S W N: {deltas!r}"
        )
    _points_in_range([deltas[s] for s in SEATS], "a delta", number, label, -MAX_POINTS)
    return {s: int(deltas[s]) for s in SEATS}


def _request_deltas(
    rs: Ruleset,
    state: _State,
    winner: str,
    discarder: str | None,
    request: Any,
    honba: int,
    pot: int,
    number: int,
    label: str,
    spec: Any,
) -> tuple[dict[str, int], dict[str, Any]]:
    """Score a full score request (in this hand's seat winds) and map its deltas back; also
    the request as scored (the hand's table fields filled in)."""
    from scoring import api  # the scoring engine, imported only when a request is given

    if not isinstance(request, dict):
        raise _illegal(number, label, f"'request' must be a score request object: {request!r}")
    req = dict(request)
    filled = {
        "ruleset": spec,
        "round_wind": ROUND_WINDS[state.round_index],
        "seat_wind": state.seat_wind(winner),
        "honba": honba,
        "riichi_sticks": pot // rs.riichi_stick_value,
        "win": "ron" if discarder is not None else "tsumo",
    }
    if discarder is not None:
        filled["discarder"] = state.seat_wind(discarder)
    for key, value in filled.items():
        if key in req and req[key] != value:
            raise _illegal(
                number,
                label,
                f"the score request says {key} = {req[key]!r}, but in this hand it is {value!r}",
            )
        req.setdefault(key, value)
    try:
        response = api.score(req)
    except AgariError as exc:
        # The score's own error class: a hand with no yaku is still 422 in the ledger, as in
        # the API's /score, not a malformed request (400).
        raise type(exc)(
            f"hand {number} ({label}): the score request failed: {exc.message}",
            code=exc.code,
            hand=number,
        ) from exc
    by_wind = _checked_deltas(response.get("deltas"), number, label)
    return {state.player_at(w): v for w, v in by_wind.items()}, req


def _draw(
    rs: Ruleset,
    state: _State,
    hand: dict[str, Any],
    number: int,
    label: str,
    out: _Outcome,
    riichi: list[str],
    false_calls: list[str],
    scheduled: int,
) -> None:
    g = rs.game
    tenpai = _seats(hand.get("tenpai"), "tenpai", number, label)
    nagashi = _seats(hand.get("nagashi"), "nagashi", number, label)
    declared = _seats(hand.get("noten_declared"), "noten_declared", number, label)
    if g.false_call == "dead_hand":
        for seat in false_calls:
            if seat in tenpai:
                raise _illegal(number, label, f"{seat} has a dead hand and cannot be tenpai")
    if declared:
        all_last = state.round_index == scheduled - 1 and state.dealer_index == 3
        if not g.dealer_noten_declaration:
            raise _illegal(
                number, label, f"{rs.id} has no noten declaration (game.dealer_noten_declaration)"
            )
        if declared != [state.dealer] or not all_last:
            raise _illegal(
                number, label, "only the dealer of the last hand may declare noten at a draw"
            )
        if state.dealer in riichi:
            raise _illegal(number, label, "a dealer who declared riichi cannot declare noten")
        if state.dealer in tenpai:
            raise _illegal(number, label, "the dealer is listed both tenpai and noten_declared")
        out.notes.append(f"{state.dealer} (dealer) declares noten")
    # Where nagashi counts as a win there is no exhaustive draw to check tenpai at, so a
    # noten riichi is no chombo then ([EMAdiff] in ema.toml).
    checked = riichi if not (nagashi and g.nagashi_settlement == "win") else []
    for seat in checked:
        if seat not in tenpai and seat not in nagashi:
            raise _illegal(
                number,
                label,
                f"{seat} declared riichi but is noten at the draw: that is a chombo; record "
                "the hand as {'result': 'chombo', 'seat': ...}",
            )
    if nagashi and not rs.nagashi_mangan:
        raise _illegal(number, label, f"{rs.id} has no nagashi mangan")
    out.dealer_tenpai = state.dealer in tenpai
    if nagashi:
        _nagashi(rs, state, nagashi, out)
        return
    _noten_payments(rs, state, tenpai)
    out.dealer_keeps = out.dealer_tenpai and g.renchan_on_tenpai
    out.counter_up = True


def _nagashi(rs: Ruleset, state: _State, nagashi: list[str], out: _Outcome) -> None:
    """Nagashi mangan: mangan tsumo payments, as a win or as a draw (game.nagashi_settlement)."""
    g = rs.game
    as_win = g.nagashi_settlement == "win"
    each_honba = rs.honba_value * state.honba // 3 if (as_win and g.honba) else 0
    start = state.dealer_index - 1
    ordered = sorted(nagashi, key=lambda s: (SEATS.index(s) - start) % 4)
    for seat in ordered:
        for other in SEATS:
            if other == seat:
                continue
            base = 4000 if (seat == state.dealer or other == state.dealer) else 2000
            state.scores[other] -= base + each_honba
            state.scores[seat] += base + each_honba
    out.notes.append(f"nagashi mangan: {', '.join(ordered)}")
    if as_win:
        # Paid as a mangan win: the sticks go to the (first) winner and the deal follows
        # the win (seed 004 line 33: a dealer with nagashi keeps the deal even if noten).
        state.scores[ordered[0]] += state.pot
        state.pot = 0
        out.dealer_won = state.dealer in nagashi
        out.dealer_keeps = out.dealer_won and g.renchan_on_win
        out.counter_up = out.dealer_keeps
    else:
        out.dealer_keeps = out.dealer_tenpai and g.renchan_on_tenpai
        out.counter_up = True


def _noten_payments(rs: Ruleset, state: _State, tenpai: list[str]) -> None:
    total = rs.game.noten_payment_total
    if not tenpai or len(tenpai) == 4 or total == 0:
        return
    noten = [s for s in SEATS if s not in tenpai]
    for s in noten:
        state.scores[s] -= total // len(noten)
    for s in tenpai:
        state.scores[s] += total // len(tenpai)


def _abortive(rs: Ruleset, hand: dict[str, Any], number: int, label: str, out: _Outcome) -> None:
    g = rs.game
    kind = hand.get("kind")
    if kind not in g.abortive_draws:
        allowed = ", ".join(g.abortive_draws) or "none at all"
        raise _illegal(
            number,
            label,
            f"{kind!r} is not an abortive draw under {rs.id} (it has: {allowed}; "
            f"{rs.source_of('game.abortive_draws')})",
        )
    out.notes.append(f"abortive draw: {kind}")
    out.dealer_keeps = g.renchan_on_abortive
    out.counter_up = g.abortive_honba


def _chombo(
    rs: Ruleset, state: _State, hand: dict[str, Any], number: int, label: str, out: _Outcome
) -> None:
    g = rs.game
    seat = _seat(hand.get("seat"), "'seat'", number, label)
    deliberate = hand.get("deliberate", False)
    if not isinstance(deliberate, bool):
        raise _illegal(number, label, f"'deliberate' must be true or false: {deliberate!r}")
    state.chombo[seat] = state.chombo.get(seat, 0) + 1
    if deliberate:
        state.deliberate[seat] = state.deliberate.get(seat, 0) + 1
    if g.chombo == "flat_payments":
        for other in SEATS:
            if other != seat:
                state.scores[other] += g.chombo_flat_payment
                state.scores[seat] -= g.chombo_flat_payment
    elif g.chombo == "mangan_payments":
        for other in SEATS:
            if other != seat:
                pay = 4000 if (seat == state.dealer or other == state.dealer) else 2000
                state.scores[other] += pay
                state.scores[seat] -= pay
    out.notes.append(f"chombo by {seat} ({g.chombo}); the hand is replayed")
    out.chombo = True
    out.dealer_keeps = True


def _advance(rs: Ruleset, state: _State, out: _Outcome) -> None:
    """Move to the next hand: same dealer (renchan, or a chombo's replay) or the next one."""
    g = rs.game
    if out.chombo:
        return  # replayed as it was: same dealer, no counter added (seed 004 line 55)
    state.honba = state.honba + 1 if (out.counter_up and g.honba) else 0
    if not out.dealer_keeps:
        state.dealer_index += 1
        if state.dealer_index == 4:
            state.dealer_index = 0
            state.round_index += 1


def _is_top(state: _State, seat: str) -> bool:
    return placement_order(state.scores)[0] == seat


#: Per kind of dealer stop (agari-yame, tenpai-yame): what the dealer did, for the notes.
_YAME_WORDS = {"agari": "after the win", "tenpai": "when tenpai"}


def _dealer_may_end(
    rs: Ruleset, out: _Outcome, number: int, stop_requested: bool, *, ends: bool, yame: str
) -> bool:
    """The last hand's dealer won (``agari``) or was tenpai (``tenpai``): the game ends
    when the rules end it for a leading dealer, or when the dealer asks to stop and the
    rules (``game.<yame>_yame``) leave that to the dealer."""
    what = "win" if yame == "agari" else "tenpai"
    if ends:
        out.notes.append(f"the leading dealer's {what} ends the game ({yame}-yame)")
        return True
    if not stop_requested:
        return False
    rule = f"{yame}_yame"
    if getattr(rs.game, rule) != "choice":
        raise _illegal(
            number,
            out.label,
            f"the dealer may not stop {_YAME_WORDS[yame]} under {rs.id} "
            f"({rs.source_of('game.' + rule)})",
        )
    out.notes.append(f"the dealer stops {_YAME_WORDS[yame]} ({yame}-yame)")
    return True


def _all_last_stops(
    rs: Ruleset, state: _State, out: _Outcome, stop_requested: bool, number: int
) -> bool:
    """After the last scheduled hand, or the extension's last: does the game end (the deal
    passing always ends it)?"""
    g = rs.game
    if not out.dealer_keeps:
        if stop_requested:
            raise _illegal(number, out.label, "'stop': the deal passes, the game ends anyway")
        return True
    # The automatic stop ends the game; where a sudden-death extension would follow (nobody
    # has the target yet), the game cannot end here, so the leading dealer plays on.
    # (On the extension's last hand too: no source says a leading dealer short of the
    # target ends the game there, as Tenhou's West 4 plays on; the dealer may still stop
    # where the ruleset leaves it to them, tenpane's South 4.)
    top = _is_top(state, state.dealer) and (
        g.extension == "none" or state.scores[state.dealer] >= g.extension_target
    )
    if out.dealer_won:
        return _dealer_may_end(
            rs, out, number, stop_requested, ends=top and g.top_dealer_win_ends, yame="agari"
        )
    if out.result == "draw" and out.dealer_tenpai:
        return _dealer_may_end(
            rs, out, number, stop_requested, ends=top and g.top_dealer_tenpai_ends, yame="tenpai"
        )
    if stop_requested:
        raise _illegal(number, out.label, "'stop' is only possible after a dealer win or tenpai")
    return False


# --- the JSON interface (agari game --json) ------------------------------------------------


def replay_request(request: dict[str, Any]) -> dict[str, Any]:
    """``agari game --json``: ``{"ruleset": id-or-spec, "hands": [hand, ...]}``.

    Each hand has ``result`` = ``win`` | ``draw`` | ``abortive`` | ``chombo``, optional
    ``riichi`` (seats declaring riichi in this hand), ``false_calls``, ``stop`` (the last
    dealer stops), and:

    - win: ``winner``, ``from`` (the discarder; absent for tsumo) and one of ``points``
      (ron: what the discarder pays; dealer tsumo: what each pays; non-dealer tsumo:
      ``[non-dealer pays, dealer pays]``, honba added by the replay), ``deltas`` (a score
      response's deltas by player, honba included, riichi sticks included or not) or
      ``request`` (a score request in this hand's seat winds, scored by ``scoring.api``);
      several ron winners go in ``wins: [{winner, points|deltas|request}, ...]``.
    - draw: ``tenpai`` (seats), optional ``nagashi`` and ``noten_declared``.
    - abortive: ``kind`` (four_winds, nine_terminals, four_kans, four_riichi, triple_ron).
    - chombo: ``seat``, optional ``deliberate``.
    """
    # The same codes as the other commands' requests, for tools that handle unknown_field /
    # missing_field whichever command answered (a hand's own fields are illegal_hand, with
    # its number).
    unknown = set(request) - {"ruleset", "hands"}
    if unknown:
        raise RequestError(
            f"unknown fields {sorted(unknown)} in a game request; allowed: hands, ruleset",
            code="unknown_field",
        )
    if "ruleset" not in request or "hands" not in request:
        raise RequestError("a game request needs 'ruleset' and 'hands'", code="missing_field")
    ruleset = resolve_ruleset(request["ruleset"])
    return replay(ruleset, request["hands"], ruleset_spec=request["ruleset"]).to_dict()


__all__ = ["Game", "HandResult", "replay", "replay_request"]
