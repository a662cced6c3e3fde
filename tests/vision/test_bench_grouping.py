"""The grouping benchmark's damage and its account of silent wrong hands
(``benchmarks/bench_grouping.py``): a dropped indicator is recorded, and a hand that lacks
only the indicators the damage dropped is told apart from a misreading."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from vision.grouping import Detection

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_grouping.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_grouping", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRUTH = {
    "tiles": [
        {"class": "3m", "role": "dora", "labelled": True},
        {"class": "back", "role": "wall", "labelled": False},
        {"class": "6m", "role": "dora", "labelled": True},
        {"class": "1p", "role": "hand", "labelled": True},
        {"class": "3p", "role": "ura", "labelled": True},
    ],
}
WANT = {
    "closed": "1p",
    "win_tile": "1p",
    "melds": [],
    "dora_indicators": ["3m", "6m"],
    "ura_indicators": ["3p"],
}


def test_a_dropped_indicator_is_taken_out_of_the_hand_the_boxes_still_show() -> None:
    bench = _bench()
    # indices among the labelled tiles: 1 is the 6m dora, 3 the ura
    shown = bench.without_dropped_indicators(WANT, TRUTH, [1, 3])
    assert shown["dora_indicators"] == ["3m"]
    assert shown["ura_indicators"] == []
    assert WANT["dora_indicators"] == ["3m", "6m"]  # the truth itself is left alone


def test_a_dropped_indicator_leaves_its_own_place_in_the_run() -> None:
    bench = _bench()
    truth = {
        "tiles": [
            {"class": "9p", "role": "dora", "labelled": True, "order": 0},
            {"class": "9m", "role": "dora", "labelled": True, "order": 1},
            {"class": "9p", "role": "dora", "labelled": True, "order": 2},
        ],
    }
    want = {**WANT, "dora_indicators": ["9p", "9m", "9p"], "ura_indicators": []}
    # the last 9p is gone: the run still reads 9p 9m, not 9m 9p
    assert bench.without_dropped_indicators(want, truth, [2])["dora_indicators"] == ["9p", "9m"]
    assert bench.without_dropped_indicators(want, truth, [0])["dora_indicators"] == ["9m", "9p"]


def test_a_dropped_hand_tile_changes_nothing_there() -> None:
    bench = _bench()
    assert bench.without_dropped_indicators(WANT, TRUTH, [2]) == WANT


def test_damage_records_the_tiles_it_drops() -> None:
    bench = _bench()
    dets = [Detection("1m", (10.0 * k, 0.0, 10.0 * k + 8, 12.0), 1.0) for k in range(400)]
    dropped: list[int] = []
    out = bench.damage(dets, np.random.default_rng(5), dropped)
    assert dropped, "1.5% of 400 tiles: some are dropped"
    kept_x = {round(d.box[0] / 10) for d in out}
    assert not kept_x & set(dropped)
    # the same generator state gives the same damage with or without the record
    again = bench.damage(dets, np.random.default_rng(5))
    assert [d.box for d in again] == [d.box for d in out]


def test_damage_records_where_each_box_came_from() -> None:
    bench = _bench()
    dets = [Detection("1m", (10.0 * k, 0.0, 10.0 * k + 8, 12.0), 1.0) for k in range(400)]
    dropped: list[int] = []
    sources: list[int] = []
    out = bench.damage(dets, np.random.default_rng(5), dropped, sources)
    assert len(sources) == len(out)
    # each box lies where its source tile lies (jittered by at most 10% of its size)
    assert all(abs(d.box[0] - 10.0 * k) < 1.0 for d, k in zip(out, sources, strict=True))
    assert len(set(sources)) < len(sources), "1.5% of 400 tiles: some are duplicated"
    assert not set(sources) & set(dropped)
    again = bench.damage(dets, np.random.default_rng(5))
    assert [d.box for d in again] == [d.box for d in out]


def _row_scene(dora_role: str) -> tuple[list[Detection], dict]:
    """Thirteen tiles and a winning tile set apart, one tile above them: a dora indicator
    (``dora_role`` "dora") or a discard."""
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"]
    boxes = [(30.0 * k, 200.0, 30.0 * k + 28, 240.0) for k in range(13)]
    names.append("2z")
    boxes.append((30.0 * 13 + 15, 200.0, 30.0 * 13 + 43, 240.0))
    names.append("5m")
    boxes.append((60.0, 130.0, 88.0, 170.0))
    dets = [Detection(n, b) for n, b in zip(names, boxes, strict=True)]
    roles = ["hand"] * 13 + ["win", dora_role]
    truth = {
        "tiles": [
            {"class": n, "role": r, "labelled": True} for n, r in zip(names, roles, strict=True)
        ],
        "hand": {
            "closed": "123m456p789s1112z",
            "win_tile": "2z",
            "melds": [],
            "dora_indicators": ["5m"] if dora_role == "dora" else [],
            "ura_indicators": [],
        },
    }
    return dets, truth


def test_the_tiles_a_reading_gets_wrong_and_whether_a_warning_names_them() -> None:
    from dataclasses import replace

    from vision.grouping import GroupingWarning, group_detections

    bench = _bench()
    dets, right = _row_scene("dora")
    result = group_detections(dets, width=600, height=400)
    assert result.hand()["dora_indicators"] == ["5m"]
    assert bench.problem_tiles(result, right) == set()
    # the same boxes where the tile above is a discard: the dora read is the tile read wrong
    _, wrong = _row_scene("discard")
    assert bench.problem_tiles(result, wrong) == {14}
    named = replace(result, warnings=(GroupingWarning("possible_indicators", "", (14,)),))
    elsewhere = replace(result, warnings=(GroupingWarning("doubtful_sideways", "", (3,)),))
    assert bench.names_the_problem(named, wrong)
    assert not bench.names_the_problem(elsewhere, wrong)
    # a hand tile the damage dropped is named by a warning that a tile is missing
    # (with ``right`` the boxes show no tile read wrong: only the dropped one is the problem)
    short = replace(result, warnings=(GroupingWarning("too_few_tiles", "", ()),))
    assert bench.names_the_problem(short, right, dropped=[2])
    assert not bench.names_the_problem(short, right)
    assert not bench.names_the_problem(elsewhere, right, dropped=[2])


def test_indicators_read_another_way_after_a_drop_are_counted_apart() -> None:
    """A dora dropped, its ura alone above the hand reads as the dora: the hand is right but
    for indicators, where the damage dropped one. Not so when nothing of the indicators was
    dropped, or when the hand itself is read wrong."""
    bench = _bench()
    want = {**WANT, "dora_indicators": ["3m"], "ura_indicators": ["3p"]}
    got = {**want, "dora_indicators": ["3p"], "ura_indicators": []}
    assert bench.indicators_only_after_drop(got, want, TRUTH, [0])  # the 3m dora dropped
    assert bench.without_dropped_indicators(want, TRUTH, [0]) != got  # not merely lacking it
    assert not bench.indicators_only_after_drop(got, want, TRUTH, [2])  # a hand tile dropped
    assert not bench.indicators_only_after_drop(got, want, TRUTH, [])
    assert not bench.indicators_only_after_drop({**got, "win_tile": "2p"}, want, TRUTH, [0])
    assert not bench.indicators_only_after_drop(None, want, TRUTH, [0])


def test_a_closed_kans_face_down_red_five_is_counted_apart() -> None:
    """A closed kan read 0555m where the truth is 5555m (or the other way) differs only in
    a face-down tile's colour: counted apart, beside the exact figure. Any other difference,
    or a red five read wrong in an open meld, is a plain misreading."""
    bench = _bench()
    want = {**WANT, "melds": [{"kind": "ankan", "tiles": "5555m", "from": None}]}
    got = {**want, "melds": [{"kind": "ankan", "tiles": "0555m", "from": None}]}
    assert bench.same_but_hidden_red_five(got, want)
    assert bench.same_but_hidden_red_five(want, got)
    assert not bench.same_but_hidden_red_five(want, want)  # right is not "wrong but for"
    assert not bench.same_but_hidden_red_five({**got, "win_tile": "2p"}, want)
    pon = {**want, "melds": [{"kind": "pon", "tiles": "555m", "from": "left"}]}
    red_pon = {**want, "melds": [{"kind": "pon", "tiles": "055m", "from": "left"}]}
    assert not bench.same_but_hidden_red_five(red_pon, pon)
    assert not bench.same_but_hidden_red_five(None, want)
