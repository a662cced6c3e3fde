"""The grouping's memo (:mod:`vision.grouping.memo`): the what-if scores with it equal those
without it, a changed box or face-down flag is measured again, and the what-if regroupings
reuse what the first grouping measured."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vision.grouping.indicators as indicators
from vision.grouping import Detection, group_detections, group_request
from vision.grouping.memo import not_sharing, sharing

FIXTURES = Path(__file__).resolve().parent.parent / "resources" / "grouping"


def _fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())["request"]


def _doubtful(request: dict[str, Any]) -> dict[str, Any]:
    """The request with three tiles made uncertain: one's candidate another class, one's a
    face-down tile (a blank 5z reads like a tile's back), one's both."""
    out = copy.deepcopy(request)
    dets = out["detections"]
    for k, cands in (
        (len(dets) // 2, ["1m" if dets[len(dets) // 2]["tile"] != "1m" else "2m"]),
        (0, ["x"]),
        (len(dets) - 1, ["x", "9p"]),
    ):
        dets[k]["confidence"] = 0.4
        dets[k]["candidates"] = [{"tile": t, "confidence": 0.3} for t in cands]
    return out


#: Layouts of every kind the memo's steps measure (melds, kans, indicators, walls, rivers,
#: the photo's edge, tilted, portrait and upside-down rows), each well under a second.
LAYOUTS = [
    "closed_gap_win",
    "pon_left",
    "kakan_across",
    "ankan_ends_down",
    "ankan_hidden_red_five",
    "daiminkan_right_4",
    "dora_and_ura",
    "dora_and_ura_one_run",
    "dead_wall_dora_far",
    "discard_beyond_wall_not_dora",
    "discard_cut_by_frame_not_dora",
    "discard_cut_by_frame_not_ura",
    "river_last_row_not_dora",
    "ura_under_river",
    "three_melds_upside_down",
    "three_melds_portrait",
    "diagonal_row_sideways_win_and_pon",
    "distractors",
    "wall_tile_not_stacked",
    "open_hand_no_ura",
]


@pytest.mark.parametrize("name", LAYOUTS)
def test_what_if_with_the_memo_equals_without(name: str) -> None:
    request = _doubtful(_fixture(name))
    remembered = group_request(request)
    with not_sharing():
        fresh = group_request(request)
    assert remembered["uncertain"]  # at least one tile asked about
    assert remembered == fresh


def _dets(request: dict[str, Any]) -> list[Detection]:
    return [Detection(d["tile"], tuple(d["box"])) for d in request["detections"]]


def test_a_changed_box_or_face_down_flag_is_measured_again() -> None:
    # One memo for several groupings, as in the what-if scores: the dora indicator turned
    # face down, then moved onto the hand's line, must each read as a fresh grouping does.
    request = _fixture("open_hand_no_ura")
    width, height = request["width"], request["height"]
    dets = _dets(request)
    first = group_detections(dets, width=width, height=height)
    dora = first.best.dora[0]
    down = list(dets)
    down[dora] = Detection("x", dets[dora].box)
    moved = list(dets)
    x1, y1, x2, y2 = dets[dora].box
    moved[dora] = Detection(dets[dora].tile, (x1, y1 + 3 * (y2 - y1), x2, y2 + 3 * (y2 - y1)))
    with sharing():
        kept = [group_detections(d, width=width, height=height) for d in (dets, down, moved)]
    with not_sharing():
        fresh = [group_detections(d, width=width, height=height) for d in (dets, down, moved)]
    assert [r.to_dict() for r in kept] == [r.to_dict() for r in fresh]
    # Each change reads differently: a memo keyed on the first boxes would have failed.
    assert kept[1].best.dora != first.best.dora and kept[2].best.dora != first.best.dora


def test_the_what_if_regroupings_reuse_the_indicator_runs(monkeypatch: Any) -> None:
    # A class changed in the hand leaves the indicator runs as they were: the what-if
    # scores find them in the memo instead of linking every tile above the hand again.
    request = _fixture("open_hand_no_ura")
    runs: list[int] = []
    measure = indicators._runs_above

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return measure(*args, **kwargs)

    monkeypatch.setattr(indicators, "_runs_above", counted)
    group_request(request)
    alone = len(runs)
    runs.clear()
    doubtful = copy.deepcopy(request)
    det = doubtful["detections"][2]
    det["confidence"] = 0.4
    det["candidates"] = [{"tile": "9p" if det["tile"] != "9p" else "1p", "confidence": 0.3}]
    out = group_request(doubtful)
    assert len(out["uncertain"]) == 1 and alone > 0
    assert len(runs) == alone  # the what-if regrouping measured nothing again
    runs.clear()
    with not_sharing():
        group_request(doubtful)
    assert len(runs) > 2 * alone  # without the memo: every reading measures them again


def test_a_remembered_result_is_handed_out_afresh() -> None:
    # A caller may change the lists it gets; the memo keeps its own, and arrays in a kept
    # result are read-only (writing into a shared result fails loudly instead of silently).
    from vision.grouping.memo import remembered

    @remembered
    def measured(members: list[int], dets: list[Detection]) -> tuple[list[int], np.ndarray]:
        return list(members), np.array([dets[i].box[0] for i in members])

    dets = [Detection("1m", (0, 0, 3, 4)), Detection("2m", (5, 0, 9, 4))]
    with sharing():
        first, xs = measured([0, 1], dets)
        first.append(7)
        again, _ = measured([0, 1], dets)
        assert again == [0, 1]
        with pytest.raises(ValueError, match="read-only"):
            xs[0] = 1.0
