"""Step 1: duplicate boxes (one tile detected twice) merged, with a warning."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.grouping import settings
from vision.grouping.values import Detection, GroupingWarning


def _iou_matrix(xyxy: np.ndarray) -> np.ndarray:
    x1 = np.maximum(xyxy[:, None, 0], xyxy[None, :, 0])
    y1 = np.maximum(xyxy[:, None, 1], xyxy[None, :, 1])
    x2 = np.minimum(xyxy[:, None, 2], xyxy[None, :, 2])
    y2 = np.minimum(xyxy[:, None, 3], xyxy[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = (xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1])
    return inter / np.maximum(area[:, None] + area[None, :] - inter, 1e-9)


def _merge_duplicates(
    dets: Sequence[Detection],
) -> tuple[list[int], dict[int, list[tuple[str, float]]], list[GroupingWarning]]:
    """Kept detection indices, extra candidates per kept index, and warnings."""
    if not dets:
        return [], {}, []
    xyxy = np.array([d.box for d in dets], dtype=float)
    iou = _iou_matrix(xyxy)
    order = sorted(range(len(dets)), key=lambda i: -dets[i].confidence)
    kept: list[int] = []
    extra: dict[int, list[tuple[str, float]]] = {}
    warnings: list[GroupingWarning] = []
    for i in order:
        # A face-up tile on a face-down one is a dead wall's indicator, no duplicate: the
        # twin is looked for among kept boxes of the same face only (a box repeated many
        # times over, face up and down, keeps one of each).
        twin = next(
            (
                k
                for k in kept
                if iou[i, k] >= settings.DUPLICATE_IOU and dets[k].face_down == dets[i].face_down
            ),
            None,
        )
        if twin is None:
            kept.append(i)
            continue
        if dets[i].tile == dets[twin].tile:
            warnings.append(
                GroupingWarning(
                    "duplicate_detection",
                    f"one {dets[twin].tile} was detected twice; the second box is ignored",
                    (twin, i),
                )
            )
        else:
            extra.setdefault(twin, []).append((dets[i].tile, dets[i].confidence))
            warnings.append(
                GroupingWarning(
                    "conflicting_detections",
                    f"one tile was read both as {dets[twin].tile} and as {dets[i].tile}",
                    (twin, i),
                    (("candidates", [dets[twin].tile, dets[i].tile]),),
                )
            )
    return sorted(kept), extra, warnings
