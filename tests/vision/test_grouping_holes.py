"""Grouping: layouts that read as a complete hand but may hide a misreading are named."""

from __future__ import annotations

import json
from typing import Any

from tests.vision.grouping_fixtures import OUT as FIXTURES
from tests.vision.grouping_layout import lay_out, to_detections
from vision.api import group

CONCEALED = ["1m", "2m", "3m", "4p", "5p", "6p", "7s"]


def _group(placed: list[Any]) -> dict[str, Any]:
    return group({"width": 1200, "height": 1000, "detections": to_detections(placed)})


def _codes(out: dict[str, Any]) -> list[str]:
    return [w["code"] for w in out["warnings"]]


def test_a_kan_missing_its_last_tile_reads_as_a_pon_but_the_hole_is_named() -> None:
    melds = [
        {"kind": "pon", "tiles": ["5z"] * 3, "from": "left"},
        {"kind": "daiminkan", "tiles": ["9m"] * 4, "from": "right"},
    ]
    placed = lay_out(CONCEALED, "7s", melds)
    whole = _group(placed)
    assert {"kind": "daiminkan", "tiles": "9999m", "from": "right"} in whole["hand"]["melds"]
    assert "gap_between_melds" not in _codes(whole)
    # The kan's first tile unseen (a finger, a detector miss): the hand is still complete.
    last = min((p for p in placed if p.tile == "9m"), key=lambda p: p.x)
    out = _group([p for p in placed if p is not last])
    assert {"kind": "pon", "tiles": "999m", "from": "right"} in out["hand"]["melds"]
    warning = next(w for w in out["warnings"] if w["code"] == "gap_between_melds")
    assert sorted(warning["tiles"]) == ["5z", "5z", "5z", "9m", "9m", "9m"]


def test_a_winning_tile_after_the_melds_is_named() -> None:
    data = json.loads((FIXTURES / "win_after_melds.json").read_text())
    out = group(data["request"])
    assert out["hand"] == data["expected"]["hand"]
    warning = next(w for w in out["warnings"] if w["code"] == "win_after_melds")
    assert warning["tiles"] == ["2z"]
