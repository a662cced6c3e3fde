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
