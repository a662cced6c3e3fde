"""The Detections value: validation, indexing, merging."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections


def make(n: int) -> Detections:
    xyxy = np.stack(
        [np.arange(n) * 10.0, np.zeros(n), np.arange(n) * 10.0 + 8, np.full(n, 12.0)], 1
    )
    return Detections(xyxy, np.linspace(0.1, 0.9, n), np.arange(n))


def test_shapes_are_validated_with_expected_and_actual() -> None:
    with pytest.raises(ValueError, match=r"xyxy must have shape \(N, 4\), got \(3,\)"):
        Detections(np.zeros(3), np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match=r"confidence must have shape \(2,\), got \(3,\)"):
        Detections(np.zeros((2, 4)), np.zeros(3), np.zeros(2))


def test_mask_and_index_return_new_objects() -> None:
    d = make(4)
    high = d[d.confidence > 0.5]
    assert len(high) == 2 and high.class_id.tolist() == [2, 3]
    assert len(d) == 4
    assert d[np.array([3, 0])].class_id.tolist() == [3, 0]
    assert d[1].class_id.tolist() == [1]


def test_arrays_are_read_only() -> None:
    d = make(2)
    with pytest.raises(ValueError, match="read-only"):
        d.xyxy[0, 0] = 5


def test_empty_merge_and_scaled() -> None:
    assert len(Detections.empty()) == 0
    merged = Detections.merge([make(2), Detections.empty(), make(3)])
    assert len(merged) == 5 and merged.class_id.tolist() == [0, 1, 0, 1, 2]
    assert len(Detections.merge([])) == 0
    moved = make(1).scaled(2, 3, 10, 20)
    assert moved.xyxy.tolist() == [[10.0, 20.0, 26.0, 56.0]]
