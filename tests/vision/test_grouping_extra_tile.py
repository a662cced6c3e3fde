"""One extra tile in the hand row, as a real detector adds them (a shadow, a tile's edge)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.vision.grouping_fixtures import CLOSED
from tests.vision.grouping_layout import lay_out, to_detections
from vision.api import group


def _with_extra(confidence: float) -> tuple[dict[str, Any], int]:
    """The hand with a 3z inserted among the concealed tiles at ``confidence``; returns the
    request and the extra detection's index."""
    dets = to_detections(lay_out([*CLOSED[:5], "3z", *CLOSED[5:]], "2z"))
    extra = next(i for i, d in enumerate(dets) if d["tile"] == "3z")
    dets[extra]["confidence"] = confidence
    return {"width": 1200, "height": 1000, "detections": dets}, extra


def _codes(out: dict[str, Any]) -> list[str]:
    return [w["code"] for w in out["warnings"]]


def test_a_doubtful_extra_tile_is_left_out_and_named() -> None:
    request, extra = _with_extra(0.35)
    out = group(request)
    assert out["hand"] is not None
    assert out["hand"]["closed"] == "123m456p789s1122z"
    assert out["hand"]["win_tile"] == "2z"
    (warning,) = [w for w in out["warnings"] if w["code"] == "dropped_tile"]
    assert warning["detections"] == [extra]
    assert warning["tiles"] == ["3z"]


@pytest.mark.parametrize("confidence", [1.0, 0.9])
def test_a_confident_extra_tile_is_kept_and_gives_no_hand(confidence: float) -> None:
    request, _ = _with_extra(confidence)
    out = group(request)
    assert out["hand"] is None
    assert "too_many_tiles" in _codes(out)
    assert "dropped_tile" not in _codes(out)


def test_a_row_of_one_face_down_tile_is_not_dropped_to_nothing() -> None:
    # Three boxes, one of them very wide: each is a row of its own, and the one face-down
    # tile at the end of a row was dropped, leaving an empty row (an IndexError, a 500).
    request = {
        "width": 960,
        "height": 720,
        "detections": [
            {"tile": "x", "box": [95, 181, 152, 250], "confidence": 0.94},
            {"tile": "6m", "box": [120, 445, 177, 516], "confidence": 0.94},
            {"tile": "x", "box": [138, 334, 700, 406], "confidence": 0.94},
        ],
    }
    out = group(request)
    assert out["hand"] is None
    assert "too_few_tiles" in _codes(out)
