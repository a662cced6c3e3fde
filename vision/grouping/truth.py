"""A generated scene's truth JSON (``datasets.synth``) as the grouping's input: shared by
the grouping benchmarks (``benchmarks/bench_grouping.py``, ``bench_photo_to_hand.py``) and
the indicator scorer's training (:mod:`vision.grouping.scorer_training`), so that both read
the same scenes the same way."""

from __future__ import annotations

from collections import Counter
from typing import Any

from vision.grouping.values import Detection


def detections_of(truth: dict[str, Any]) -> list[Detection]:
    """The scene's labelled tiles as ``group`` detections: the class (``x`` face down), the
    box, confidence 1 and no sideways flag (the grouping judges it).

    >>> tiles = [{"class": "back", "box": [0, 0, 3, 4], "labelled": True},
    ...          {"class": "5m", "box": [9, 0, 12, 4], "labelled": False}]
    >>> [(d.tile, d.box) for d in detections_of({"tiles": tiles})]
    [('x', (0.0, 0.0, 3.0, 4.0))]
    """
    return [
        Detection("x" if t["class"] == "back" else t["class"], tuple(map(float, t["box"])), 1.0)
        for t in truth["tiles"]
        if t["labelled"]
    ]


def indicators_visible(truth: dict[str, Any]) -> bool:
    """Whether every dora and ura indicator of the truth is labelled (seen) in the photo."""
    seen = Counter(
        t["role"] for t in truth["tiles"] if t["labelled"] and t["role"] in ("dora", "ura")
    )
    hand = truth["hand"]
    return seen["dora"] == len(hand["dora_indicators"]) and seen["ura"] == len(
        hand["ura_indicators"]
    )
