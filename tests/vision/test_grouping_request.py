"""The group request's boxes and confidences are checked against the photo: a box centred
outside it, or larger than it, and a candidate's confidence outside 0-1 are refused with a
code (they were grouped silently); a box cut by the frame is still read."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scoring.errors import AgariError
from vision.api import group

FIXTURE = Path(__file__).resolve().parents[1] / "resources" / "grouping" / "chi_left.json"


def _request() -> dict[str, Any]:
    return copy.deepcopy(json.loads(FIXTURE.read_text())["request"])


def _refused(request: dict[str, Any]) -> AgariError:
    with pytest.raises(AgariError) as err:
        group(request)
    return err.value


def test_the_fixture_is_read() -> None:
    assert group(_request())["hand"] is not None


@pytest.mark.parametrize(
    "box",
    [
        pytest.param(lambda w, h: [w + 500, 10, w + 540, 60], id="right_of_the_photo"),
        pytest.param(lambda w, h: [10, -300, 50, -250], id="above_the_photo"),
        pytest.param(lambda w, h: [10 * w, 10 * h, 10 * w + 40, 10 * h + 50], id="far_away"),
        pytest.param(lambda w, h: [-w, -h, 2 * w, 2 * h], id="larger_than_the_photo"),
    ],
)
def test_a_box_outside_the_photo_is_refused(box: Any) -> None:
    request = _request()
    w, h = request["width"], request["height"]
    request["detections"].append({"tile": "5m", "box": box(w, h), "confidence": 0.9})
    err = _refused(request)
    k = len(request["detections"]) - 1
    assert err.code == "bad_box" and err.message.startswith(f"detections[{k}].box ")
    assert f"{w}x{h} photo" in err.message


def test_a_box_cut_by_the_frame_or_rounded_past_it_is_read() -> None:
    request = _request()
    w, h = request["width"], request["height"]
    request["detections"] += [
        {"tile": "x", "box": [w / 2, -20, w / 2 + 30, 20]},  # half above the top edge
        {"tile": "x", "box": [w - 10, h - 10, w + 12.5, h + 12.5]},  # centred just past
    ]
    assert group(request)["hand"] is not None


@pytest.mark.parametrize("confidence", [1.5, -0.1, 100])
def test_a_candidate_confidence_outside_0_1_is_refused(confidence: float) -> None:
    request = _request()
    request["detections"][0]["candidates"] = [{"tile": "6m", "confidence": confidence}]
    err = _refused(request)
    assert err.code == "bad_request"
    assert err.message == (
        f"detections[0].candidates[0].confidence {float(confidence)!r} is outside 0-1"
    )


def test_a_candidate_confidence_within_0_1_is_read() -> None:
    request = _request()
    request["detections"][0]["candidates"] = [{"tile": "6m", "confidence": 0.3}]
    assert group(request)["hand"] is not None


def test_too_many_boxes_or_candidates_are_refused_before_any_grouping() -> None:
    # 200 boxes with 5 candidates each took 9 s of CPU (a grouping per candidate).
    request = _request()
    box = request["detections"][0]
    request["detections"] = [copy.deepcopy(box) for _ in range(401)]
    assert _refused(request).code == "too_many_detections"
    request = _request()
    request["detections"][0]["candidates"] = [{"tile": "2m", "confidence": 0.1}] * 9
    assert _refused(request).code == "bad_request"


def test_the_what_if_scores_stop_at_a_hand_s_worth_of_unsure_tiles() -> None:
    from vision.grouping.what_if import MAX_UNSURE

    boxes = [
        {
            "tile": "1m",
            "box": [10 + 40 * i, 10, 48 + 40 * i, 66],
            "confidence": 0.5,
            "candidates": [{"tile": "2m", "confidence": 0.4}],
        }
        for i in range(60)
    ]
    out = group({"width": 2500, "height": 80, "detections": boxes})
    assert len(out["uncertain"]) <= MAX_UNSURE


@pytest.mark.parametrize(("field", "value"), [("was", "6p"), ("recovered", True), ("split", True)])
def test_the_recovery_steps_marks_of_a_recognize_response_are_taken(field: str, value: Any) -> None:
    # recognize writes these on boxes its recovery step renamed, found or split; a group
    # request copied from its response was refused (unknown_field).
    request = _request()
    request["detections"][0][field] = value
    assert group(request)["hand"] == group(_request())["hand"]
