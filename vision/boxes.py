"""Box geometry on numpy arrays, each function named by the box format it takes.

``xyxy`` is ``(x1, y1, x2, y2)``, ``xcycwh`` is ``(centre x, centre y, width, height)``;
both are ``(N, 4)`` float arrays in pixels.
"""

from __future__ import annotations

import numpy as np


def xcycwh_to_xyxy(boxes: np.ndarray) -> np.ndarray:
    """Centre/size boxes to corner boxes.

    >>> xcycwh_to_xyxy(np.array([[10.0, 20.0, 4.0, 6.0]])).tolist()
    [[8.0, 17.0, 12.0, 23.0]]
    """
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    half = boxes[:, 2:4] / 2
    return np.concatenate([boxes[:, 0:2] - half, boxes[:, 0:2] + half], axis=1)


def xyxy_to_xcycwh(boxes: np.ndarray) -> np.ndarray:
    """Corner boxes to centre/size boxes (the inverse of :func:`xcycwh_to_xyxy`).

    >>> xyxy_to_xcycwh(np.array([[8.0, 17.0, 12.0, 23.0]])).tolist()
    [[10.0, 20.0, 4.0, 6.0]]
    """
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    size = boxes[:, 2:4] - boxes[:, 0:2]
    return np.concatenate([boxes[:, 0:2] + size / 2, size], axis=1)


def box_area(boxes: np.ndarray) -> np.ndarray:
    """Areas of ``xyxy`` boxes (0 for degenerate ones)."""
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    return np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)


def box_iou_batch(boxes_a: np.ndarray, boxes_b: np.ndarray) -> np.ndarray:
    """Pairwise IoU of two sets of ``xyxy`` boxes: an ``(len(a), len(b))`` matrix.

    >>> box_iou_batch(np.array([[0, 0, 2, 2]]), np.array([[1, 0, 3, 2], [5, 5, 6, 6]])).round(3)
    array([[0.333, 0.   ]], dtype=float32)
    """
    a = np.asarray(boxes_a, dtype=np.float32).reshape(-1, 4)
    b = np.asarray(boxes_b, dtype=np.float32).reshape(-1, 4)
    top_left = np.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(bottom_right - top_left, 0, None), axis=2)
    union = box_area(a)[:, None] + box_area(b)[None, :] - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0).astype(np.float32)


def nms(
    boxes: np.ndarray,
    scores: np.ndarray,
    iou_threshold: float,
    class_ids: np.ndarray | None = None,
) -> np.ndarray:
    """Greedy non-maximum suppression; returns kept indices, best score first.

    With ``class_ids`` only boxes of the same class suppress each other; without, any
    overlap does (tiles never overlap much, so two classes on one box are one tile).

    >>> boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 0, 30, 10]], dtype=np.float32)
    >>> nms(boxes, np.array([0.9, 0.8, 0.7]), 0.5).tolist()
    [0, 2]
    >>> nms(boxes, np.array([0.9, 0.8, 0.7]), 0.5, class_ids=np.array([0, 1, 0])).tolist()
    [0, 1, 2]
    """
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    scores = np.asarray(scores, dtype=np.float32).reshape(-1)
    if len(boxes) != len(scores):
        raise ValueError(f"nms: {len(boxes)} boxes but {len(scores)} scores")
    if len(boxes) == 0:
        return np.zeros(0, dtype=np.int64)
    if class_ids is not None:
        # Offsetting each class far apart makes one pass do per-class suppression.
        offset = np.asarray(class_ids, dtype=np.float32).reshape(-1, 1) * (boxes.max() + 1.0)
        boxes = boxes + offset
    order = np.argsort(-scores, kind="stable")
    keep = []
    # One row of IoUs per kept box against the survivors: O(N * kept), no N x N matrix.
    while len(order):
        best, order = order[0], order[1:]
        keep.append(best)
        if len(order):
            order = order[box_iou_batch(boxes[best : best + 1], boxes[order])[0] <= iou_threshold]
    return np.asarray(keep, dtype=np.int64)
