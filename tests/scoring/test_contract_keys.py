"""Every shipped ruleset answers CONTRACT.md's score response keys, each yaku item with its
``id`` and ``han`` (null under a pattern-scored ruleset), in score and in settle."""

from __future__ import annotations

import pytest

from scoring.api import score, settle
from scoring.ruleset import list_rulesets

CONTRACT_KEYS = {
    "han",
    "fu",
    "limit",
    "yakuman",
    "yaku",
    "fu_details",
    "points",
    "deltas",
    "alternatives",
    "warnings",
}
#: A closed hand every ruleset scores: tanyao (riichi rulesets), or Concealed Hand, All
#: Sequences and All Simples (Zung Jung); ron from W.
WIN = {
    "closed": "234m345p456s678s5p",
    "win_tile": "5p",
    "win": "ron",
    "discarder": "W",
    "seat_wind": "S",
    "round_wind": "E",
}


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_score_and_settle_keep_every_contract_key(ruleset: str) -> None:
    out = score({"ruleset": ruleset, **WIN})
    settled = settle(
        {
            "ruleset": ruleset,
            "discarder": "W",
            "wins": [{k: v for k, v in WIN.items() if k != "discarder"}],
        }
    )
    for response in (out, *settled["results"]):
        assert set(response) >= CONTRACT_KEYS, (ruleset, CONTRACT_KEYS - set(response))
        assert response["yaku"], ruleset
        for item in response["yaku"]:
            assert {"id", "han"} <= set(item), (ruleset, item)
            # Numbers, as CONTRACT.md types them, under every ruleset (Zung Jung: 0).
            assert isinstance(item["han"], int), item
        assert isinstance(response["han"], int) and isinstance(response["fu"], int), ruleset
