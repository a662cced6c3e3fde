"""Numbers past any real game (and past what a JavaScript client reads exactly, 2**53) are
refused with ``out_of_range``; the largest real ones still score."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scoring import api
from scoring.errors import AgariError
from scoring.limits import MAX_COUNTER, MAX_POINTS
from tests.helpers import CONTRACT_SCORE_EXAMPLE

HUGE = 10**30


def _code(call: Callable[[], Any]) -> str:
    try:
        call()
    except AgariError as exc:
        return exc.code
    raise AssertionError("accepted")


@pytest.mark.parametrize("field", ["honba", "riichi_sticks"])
def test_score_refuses_counters_past_any_game(field: str) -> None:
    assert _code(lambda: api.score({**CONTRACT_SCORE_EXAMPLE, field: HUGE})) == "out_of_range"
    assert (
        _code(lambda: api.score({**CONTRACT_SCORE_EXAMPLE, field: MAX_COUNTER + 1}))
        == "out_of_range"
    )
    # A negative count keeps its code; the bound itself is still a table.
    assert _code(lambda: api.score({**CONTRACT_SCORE_EXAMPLE, field: -1})) == "bad_count"
    result = api.score({**CONTRACT_SCORE_EXAMPLE, field: MAX_COUNTER})
    assert result["deltas"]["S"] > 0


def test_settle_and_context_refuse_them_too() -> None:
    win = {k: v for k, v in CONTRACT_SCORE_EXAMPLE.items() if k not in ("ruleset", "honba")}
    win = {k: v for k, v in win.items() if k not in ("riichi_sticks", "discarder")}
    settle = {"ruleset": "tenhou", "discarder": "W", "wins": [win]}
    assert api.settle(settle)["results"]
    assert _code(lambda: api.settle({**settle, "honba": HUGE})) == "out_of_range"
    assert _code(lambda: api.settle({**settle, "riichi_sticks": HUGE})) == "out_of_range"
    assert _code(lambda: api.check_context({"honba": HUGE})) == "out_of_range"


def test_standings_refuse_scores_and_counts_past_any_game() -> None:
    base = {"ruleset": "jpml-a", "final_scores": {"E": 41200, "S": 31000, "W": 21300, "N": 5500}}
    assert api.standings(base)["standings"][0]["seat"] == "E"
    bad = [
        {**base, "final_scores": {**base["final_scores"], "E": HUGE}},
        {**base, "final_scores": {**base["final_scores"], "N": -HUGE}},
        {**base, "riichi_sticks_left": HUGE},
        {**base, "chombo": {"W": HUGE}},
    ]
    for request in bad:
        assert _code(lambda r=request: api.standings(r)) == "out_of_range", request


def _game(win: dict[str, Any]) -> dict[str, Any]:
    return {"ruleset": "tenhou", "hands": [{"result": "win", **win}]}  # double ron is paid


@pytest.mark.parametrize(
    "win",
    [
        pytest.param({"winner": "S", "from": "W", "points": HUGE}, id="ron"),
        pytest.param({"winner": "E", "points": MAX_POINTS + 1}, id="dealer_tsumo"),
        pytest.param({"winner": "S", "points": [HUGE, 2000]}, id="non_dealer_tsumo"),
        pytest.param(
            {"winner": "S", "deltas": {"E": 0, "S": HUGE, "W": -HUGE, "N": 0}}, id="deltas"
        ),
        pytest.param(
            {
                "wins": [{"winner": "S", "points": 1000}, {"winner": "N", "points": HUGE}],
                "from": "W",
            },
            id="double_ron",
        ),
    ],
)
def test_game_refuses_points_past_any_game(win: dict[str, Any]) -> None:
    try:
        api.replay_game(_game(win))
    except AgariError as exc:
        assert exc.code == "out_of_range"
        assert exc.message.startswith("hand 1 (E1): ") and exc.details == {"hand": 1}
    else:
        raise AssertionError("accepted")


def test_game_still_takes_the_largest_real_payments() -> None:
    # A sextuple yakuman by the dealer, ron: 288,000 points.
    game = api.replay_game(_game({"winner": "E", "from": "S", "points": 288_000}))
    assert game["final_scores"]["E"] == 25_000 + 288_000


@pytest.mark.parametrize(
    "overrides",
    [
        pytest.param({"game": {"start_points": 10**12, "return_points": 10**12}}, id="start"),
        pytest.param({"game": {"uma": [10**12, 0, 0, -(10**12)]}}, id="uma"),
        pytest.param({"min_han": HUGE}, id="min_han"),
    ],
)
def test_ruleset_overrides_past_any_game_are_refused(overrides: dict[str, Any]) -> None:
    """Consistent but huge (both were accepted and scored before the bound)."""
    ruleset = {"base": "tenhou", "overrides": overrides}
    assert _code(lambda: api.score({**CONTRACT_SCORE_EXAMPLE, "ruleset": ruleset})) == (
        "out_of_range"
    )
