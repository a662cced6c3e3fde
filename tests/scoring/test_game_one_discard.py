"""Several wins on one discard given as score requests (``agari game``, the ledger) share
the table, as ``settle`` checks: one win tile, round, dora, ura, no fifth copy."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import api
from scoring.errors import AgariError

#: Two pinfu hands that both ron a 5s (tenhou pays a double ron).
SOUTH = {"closed": "123m456p789s99p34s", "win_tile": "5s", "dora_indicators": ["1m"]}
NORTH = {"closed": "234m567p456m99m67s", "win_tile": "5s", "dora_indicators": ["1m"]}


def _double_ron(south: dict[str, Any], north: dict[str, Any]) -> dict[str, Any]:
    """S and N ron W's discard; ``north`` is N's score request, or N's win as typed
    (``{"points": ...}``) when it has no ``closed``."""
    north_win = {"winner": "N", **(north if "closed" not in north else {"request": north})}
    return {
        "ruleset": "tenhou",
        "hands": [
            {
                "result": "win",
                "from": "W",
                "wins": [{"winner": "S", "request": south}, north_win],
            }
        ],
    }


def test_wins_on_one_discard_are_paid() -> None:
    game = api.replay_game(_double_ron(SOUTH, NORTH))
    assert game["hands"][0]["deltas"] == {"E": 0, "S": 2000, "W": -4000, "N": 2000}


@pytest.mark.parametrize(
    ("south", "north", "code", "says"),
    [
        pytest.param(
            SOUTH, {**NORTH, "win_tile": "8s"}, "inconsistent_wins", "win_tile", id="win_tile"
        ),
        pytest.param(
            SOUTH,
            {**NORTH, "dora_indicators": ["2m"]},
            "inconsistent_wins",
            "dora_indicators",
            id="dora",
        ),
        pytest.param(
            {**SOUTH, "ura_indicators": ["4p"], "flags": ["riichi"]},
            {**NORTH, "ura_indicators": ["3p"], "flags": ["riichi"]},
            "inconsistent_wins",
            "ura indicators",
            id="ura",
        ),
    ],
)
def test_wins_that_disagree_about_the_table_are_refused(
    south: dict[str, Any], north: dict[str, Any], code: str, says: str
) -> None:
    request = _double_ron(south, north)
    with pytest.raises(AgariError) as err:
        api.replay_game(request)
    assert err.value.code == code and err.value.details == {"hand": 1}
    assert err.value.message.startswith("hand 1 (E1): ") and says in err.value.message


def test_only_the_wins_given_as_requests_are_compared() -> None:
    # A win typed as points says nothing about the tiles: the requests alone are compared.
    game = api.replay_game(_double_ron(SOUTH, {"points": 1000}))
    assert game["hands"][0]["deltas"]["W"] == -2000 - 1000  # S: pinfu, dora 2m; N: 1000


def test_a_fifth_copy_across_the_hands_is_refused() -> None:
    # Each hand alone holds three 5s (a pair and the discard); together, five.
    south = {"closed": "123m456p789s55s34s", "win_tile": "5s", "flags": ["riichi"]}
    north = {"closed": "234m567p456m55s67s", "win_tile": "5s", "flags": ["riichi"]}
    request = _double_ron(south, north)
    request["hands"][0]["riichi"] = ["S", "N"]
    with pytest.raises(AgariError) as err:
        api.replay_game(request)
    assert err.value.code == "fifth_copy" and "5s" in err.value.message
