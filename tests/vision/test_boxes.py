"""Box geometry: conversions, IoU and NMS."""

from __future__ import annotations

import numpy as np
import pytest

from vision.boxes import box_iou_batch, nms, xcycwh_to_xyxy, xyxy_to_xcycwh


def test_xcycwh_round_trip() -> None:
    rng = np.random.default_rng(0)
    boxes = np.concatenate([rng.uniform(0, 500, (20, 2)), rng.uniform(1, 80, (20, 2))], axis=1)
    np.testing.assert_allclose(xyxy_to_xcycwh(xcycwh_to_xyxy(boxes)), boxes, rtol=1e-5)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param([0, 0, 10, 10], [0, 0, 10, 10], 1.0, id="same"),
        pytest.param([0, 0, 10, 10], [10, 0, 20, 10], 0.0, id="touching"),
        pytest.param([0, 0, 10, 10], [5, 0, 15, 10], 50 / 150, id="half_overlap"),
        pytest.param([0, 0, 10, 10], [2, 2, 4, 4], 4 / 100, id="inside"),
        pytest.param([0, 0, 0, 0], [0, 0, 0, 0], 0.0, id="degenerate"),
    ],
)
def test_iou(a: list[float], b: list[float], expected: float) -> None:
    assert box_iou_batch(np.array([a]), np.array([b]))[0, 0] == pytest.approx(expected)


def test_iou_matrix_shape() -> None:
    assert box_iou_batch(np.zeros((3, 4)), np.zeros((5, 4))).shape == (3, 5)


def test_nms_keeps_best_of_overlapping_and_all_separate() -> None:
    # A row of 5 tiles, each detected twice with slightly shifted boxes.
    xs = np.arange(5) * 30.0
    boxes = np.concatenate(
        [
            np.stack([xs, xs * 0, xs + 28, xs * 0 + 40], 1),
            np.stack([xs + 2, xs * 0 + 1, xs + 29, xs * 0 + 41], 1),
        ]
    )
    scores = np.concatenate([np.full(5, 0.9), np.full(5, 0.6)])
    keep = nms(boxes, scores, 0.5)
    assert sorted(keep.tolist()) == [0, 1, 2, 3, 4]


def test_nms_empty_and_mismatch() -> None:
    assert nms(np.zeros((0, 4)), np.zeros(0), 0.5).tolist() == []
    with pytest.raises(ValueError, match="2 boxes but 1 scores"):
        nms(np.zeros((2, 4)), np.zeros(1), 0.5)
